"""In a real browser (offline): the Plan page takes a DXF plat of tax parcel P1, shows its lot table, labels each lot
on the map with its answer in words, and axe-core finds nothing serious on the page or in its frames.

The plat (written here with ezdxf) cuts P1, a 200 x 200 ft square in R-15 with a 50 ft wetland strip along its west
side, into lot A (its west half: the wetland and most of its buffer, so it falls short of the 15,000 sq ft minimum)
and lot B (its east half: its net area turns on slopes the hand-built layers do not map, so it is unknown).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from shapely.geometry import box

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))
import app_fixtures as fx  # noqa: E402
import plan_files as pf  # noqa: E402

from app_support.map.plan_map import LOT_LABEL_CLASS  # noqa: E402
from browser.case_links import new_case  # noqa: E402
from browser.conftest import POLL_MS, MAP_IFRAME, OfflinePage, SharedPage  # noqa: E402
from browser.a11y_visit import axe_violations, open_page, to_mode, wait_frames  # noqa: E402
from browser.test_browser_axe import _judge  # noqa: E402

pytestmark = pytest.mark.browser

LOTS = {"A": box(fx.X0, fx.Y0, fx.X0 + 100, fx.Y0 + 200), "B": box(fx.X0 + 100, fx.Y0, fx.X0 + 200, fx.Y0 + 200)}
#: The lots' permanent labels in the map's frame, once the map has drawn them.
LABELS_JS = f"() => [...document.querySelectorAll('.{LOT_LABEL_CLASS}')].map(e => e.innerText.trim()).sort()"
#: The lot table's rows as text: [[cell, ...], ...].
TABLE_JS = """() => { const t = document.querySelector('[data-testid="stTable"] table');
  return t ? [...t.querySelectorAll('tbody tr')].map(r => [...r.querySelectorAll('th, td')].map(c => c.textContent.trim()))
           : null; }"""


def _plat(path: Path) -> Path:
    doc = pf.new_dxf()
    msp = doc.modelspace()
    for label, lot in LOTS.items():
        pf.add_rect(msp, lot, "LOTS")
        msp.add_text(label, dxfattribs={"layer": "LOTS", "height": 8, "insert": (lot.centroid.x, lot.centroid.y)})
    return pf.save(doc, path)


class _PlanTab(SharedPage):
    """One tab at 1366 x 900 on the Plan page of a case of parcel P1, shared by the module's claims: the case made at
    the protocol level (P1's SBL typed into the parcel finder, tests/browser/case_links.py), its Plan page opened by
    its link once (a fresh page costs a new session: the app, its map, a script run). Each claim after the first
    takes the tab back to where the first found it, as a person starts over: Standard mode, the plan removed, the
    choice of a plan file."""

    def no_plan(self) -> OfflinePage:
        """The tab on the Plan page of P1's case in Standard mode, with no plan and the plan file to be uploaded."""
        if self.app is None:
            app = self.renew(f"/plan?case={new_case(self.url, fx.P1_SBL)}", {"width": 1366, "height": 900})
            app.page.locator("h1", has_text="Plan, lot by lot").first.wait_for(timeout=30_000)
            app.settle()
            wait_frames(app.page)
            return app
        app, page = self.app, self.app.page
        to_mode(app, "Standard")
        remove = page.get_by_role("button", name="Remove the plan")
        if remove.count():
            remove.click()
            app.settle()
        upload = page.get_by_role("radio", name="Upload a plan file")
        if not upload.is_checked():
            page.get_by_text("Upload a plan file", exact=True).click()
            app.settle()
        app.wait_text("No plan yet: upload a plan file or draw its lots on the map, above.")
        assert page.locator('[data-testid="stTable"]').count() == 0  # no lot table left from the claim before
        wait_frames(page)
        return app


@pytest.fixture(scope="module")
def _plan_tab(contexts, app_url):
    yield from _PlanTab.for_module(contexts, app_url)


@pytest.fixture()
def plan_tab(_plan_tab, request):
    """The module's tab on P1's Plan page (_PlanTab); a screenshot if the test failed."""
    yield _plan_tab
    _plan_tab.shot_if_failed(request)


def test_a_plat_uploaded_shows_its_table_and_its_labelled_lots_and_the_page_is_axe_clean(plan_tab, tmp_path):
    app = plan_tab.no_plan()
    page = app.page
    page.locator('[data-testid="stFileUploader"] input[type="file"]').first.set_input_files(str(_plat(tmp_path / "p.dxf")))
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=30_000)
    app.settle()
    rows = page.evaluate(TABLE_JS)
    assert [r[:6] for r in rows] == [["A", "20,000", "0 to 5,000", "15,000", "No", "10,000"],  # net: a range where
                                     ["B", "20,000", "0 to 15,000", "15,000", "Unknown", "unknown"]], rows  # slopes
    assert [r[-1] for r in rows] == ["§ 402-45A"] * 2, rows  # are unknown
    labels = app.poll_map(LABELS_JS, lambda v: v and len(v) == 2)
    assert labels == ["Lot A\ndoes not conform", "Lot B\nunknown"], labels
    page.locator(MAP_IFRAME).first.scroll_into_view_if_needed()
    app.shot("plan_map")
    page.locator('[data-testid="stTable"]').first.scroll_into_view_if_needed()
    wait_frames(page)
    app.shot("plan_page")
    failing, _kept = _judge(axe_violations(page))
    assert not failing, [(v["id"], v["impact"], v["frame"], v["nodes"][:1]) for v in failing]
    # on a projector: the table in large type, the lots' labels larger too
    app.switch_mode("Projector")  # (settled: its run is over)
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=30_000)
    app.idle()
    sizes = page.evaluate("() => [...document.querySelectorAll('[data-testid=\"stTable\"] td')]"
                          ".map(c => parseFloat(getComputedStyle(c).fontSize))")
    assert sizes and min(sizes) >= 24, sizes
    label_px = app.poll_map(f"() => {{ const e = document.querySelector('.{LOT_LABEL_CLASS}');"
                            " return e ? parseFloat(getComputedStyle(e).fontSize) : 0; }", lambda v: v >= 20)
    assert label_px >= 20, label_px
    page.locator(MAP_IFRAME).first.scroll_into_view_if_needed()
    app.shot("plan_map_projector")
    assert app.non_tile_blocked() == []


#: Two lots drawn side by side in the middle of P1, as offsets in pixels from the map's centre (the map opens on
#: the parcel when the lots are drawn, so both lie on its land).
DRAWN_LOTS = [[(-130, -60), (-20, -60), (-20, 60), (-130, 60)], [(20, -60), (130, -60), (130, 60), (20, 60)]]
#: A third lot, below the two.
THIRD_LOT = [(-50, 75), (50, 75), (50, 120), (-50, 120)]
#: The shapes on Leaflet.draw's layer (what the map sends back as its drawings).
DRAWING_LAYER_JS = "() => window.drawnItems && window.drawnItems.getLayers ? window.drawnItems.getLayers().length : -1"


def test_two_lots_drawn_with_the_pointer_make_a_two_lot_plan_and_the_file_upload_is_still_offered(plan_tab):
    """Drawing the lots is the pointer's way to a plan: each polygon drawn with Leaflet.draw's toolbar is one lot,
    and the lot table shows both. Drawing needs a pointer, so the page keeps its way without one: uploading a plan
    file (the radio's other choice, a file input reached by the keyboard), and it says so beside the map. On the
    page again later, the map is made afresh with the plan's lots on its drawing layer: a lot drawn is added."""
    app = plan_tab.no_plan()
    page = app.page
    page.get_by_text("Draw the lots on the map", exact=True).click()
    app.settle()
    app.wait_text("Without a mouse, upload a plan file instead.")
    page.locator(MAP_IFRAME).first.scroll_into_view_if_needed()
    for number, lot in enumerate(DRAWN_LOTS, start=1):
        app.draw_polygon(lot)
        app.settle()
        app.wait_text(f"{number} lot outline(s)")
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=30_000)
    app.idle()  # (each drawing's run settled above)
    rows = page.evaluate(TABLE_JS)
    assert [r[0] for r in rows] == ["1", "2"], rows
    labels = app.poll_map(LABELS_JS, lambda v: v and len(v) == 2)
    # each lot labelled: in full where the label fits in it at the map's zoom, else by its name alone
    assert [label.split("\n")[0].removeprefix("Lot ") for label in labels] == ["1", "2"], labels
    app.shot("plan_drawn")
    # the way without a pointer: the upload's choice is still there, and its file input with it
    page.get_by_text("Upload a plan file", exact=True).click()
    app.settle()
    uploader = page.locator('[data-testid="stFileUploader"] input[type="file"]').first
    uploader.wait_for(state="attached", timeout=30_000)
    assert uploader.count() == 1
    assert [r[0] for r in page.evaluate(TABLE_JS)] == ["1", "2"]  # the drawn plan stays while the upload is offered
    # another page and back: the map is made afresh, the two lots on its drawing layer, and a lot drawn is added
    open_page(app, "Case & exports", "")
    open_page(app, "Plan, lot by lot", "Plan, lot by lot")
    page.get_by_text("Draw the lots on the map", exact=True).click()
    app.settle()
    page.locator(MAP_IFRAME).first.scroll_into_view_if_needed()
    assert app.poll_map(DRAWING_LAYER_JS, lambda n: n == 2) == 2
    app.draw_polygon(THIRD_LOT)
    app.settle()
    app.wait_text("3 lot outline(s)")
    assert [r[0] for r in page.evaluate(TABLE_JS)] == ["1", "2", "3"]
    assert app.non_tile_blocked() == []


#: The lots' labels shown in the map's frame: [[text, left, top, right, bottom], ...] in the frame's pixels.
SHOWN_LABELS_JS = f"""() => [...document.querySelectorAll('.{LOT_LABEL_CLASS}')]
  .filter(e => getComputedStyle(e).visibility !== 'hidden')
  .map(e => {{ const r = e.getBoundingClientRect(); return [e.innerText.trim(), r.left, r.top, r.right, r.bottom]; }})"""


#: Marks the end of the map's next zoom (its animation over), heard after the labels' own check on that end (their
#: handlers were added with the map, before this one).
ZOOM_ENDS_JS = """() => { window.__sloatZoomEnded = false;
  map_div.once('zoomend', () => { window.__sloatZoomEnded = true; }); }"""


def _overlapping(labels: list) -> list:
    return [(a[0], b[0]) for i, a in enumerate(labels) for b in labels[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


def test_a_plat_of_tiny_lots_shows_no_two_labels_overlapping_and_each_within_its_estimated_box(plan_tab, tmp_path):
    """P1 cut into 64 lots of 25 x 25 ft: too small for "Lot 12 / does not conform" at the zoom the map opens at,
    so each shows its name alone; no two labels overlap, zoomed in or out, and each is no larger than the box its
    place was fitted with (the estimate of app_support.map.lot_labels.text_box)."""
    from app_support.map.lot_labels import text_box

    doc = pf.new_dxf()
    msp = doc.modelspace()
    for i in range(8):
        for j in range(8):
            pf.add_rect(msp, box(fx.X0 + 25 * i, fx.Y0 + 25 * j, fx.X0 + 25 * (i + 1), fx.Y0 + 25 * (j + 1)), "LOTS")
    app = plan_tab.no_plan()
    page = app.page
    page.locator('[data-testid="stFileUploader"] input[type="file"]').first.set_input_files(
        str(pf.save(doc, tmp_path / "tiny.dxf")))
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=30_000)
    app.settle()
    app.wait_text("Too small for their labels at this scale")
    page.locator(MAP_IFRAME).first.scroll_into_view_if_needed()
    labels = app.poll_map(SHOWN_LABELS_JS, lambda v: v and len(v) == 64)
    assert len(labels) == 64, labels
    assert _overlapping(labels) == []
    for text, left, top, right, bottom in labels:
        width, height = text_box(text.split("\n"))
        assert right - left <= width and bottom - top <= height, (text, right - left, bottom - top, width, height)
    app.shot("plan_tiny_lots")
    frame = app.wait_map()
    for _ in range(2):  # zoomed out: fewer labels, or none, never two on each other
        map_frame = app.map_frame()
        map_frame.evaluate(ZOOM_ENDS_JS)
        frame.locator(".leaflet-control-zoom-out").click()
        map_frame.wait_for_function("() => window.__sloatZoomEnded === true", timeout=15_000, polling=POLL_MS)
        shown = map_frame.evaluate(SHOWN_LABELS_JS)
        assert _overlapping(shown) == [], shown
