"""The Board walk-through in a real browser, on the illustrative sample.

Every screen fits 1920x1080 in Projector mode with the sidebar folded away (the main block's scroll height is
measured); a presenter's clicker (PageDown / PageUp, arrow keys, space) steps it; each step is one history
entry (``?step=N``) that Back and Forward restore; at 1366x768 "◀ Previous" is whole. The permits screen is the
one list of Article IX's permits and the approvals around it, by who decides. With a plan of twelve lots uploaded
on the Plan page, the screen "The plan, lot by lot" (its map, its table in large type, the yield and the open space)
fits 1920x1080 too. Screenshots: tests/artifacts/.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import sys
from pathlib import Path

import pytest

from tests.browser.case_links import new_case, new_case_with_plan
from tests.browser.conftest import POLL_MS, _REPORT, ARTIFACTS, SAMPLE_ADDRESS, SAMPLE_SBL, new_offline_page, shot_if_failed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "outputs"))

ADDRESS, SBL = SAMPLE_ADDRESS, SAMPLE_SBL
#: The sample's largest constrained parcel: the tax parcel with the largest deducted area (gross minus net lot area,
#: from `python -m sloat_core screen` on data/sample/layers.yaml): 221,902 sq ft, the whole lot, under floodplain
#: and wetland. Its deduction table, chart and notes are the longest the Board is shown.
#: (Found by its SBL: "40 Ramapo Ave" also matches "240 Ramapo Ave".)
LARGEST_CONSTRAINED = ("162.22-4-1", "162.22-4-1")
TITLES = ["The parcel and its constraints", "Land that does not count", "Net lot area and yield",
          "Cluster triggers", "Permits and reviews", "Timeline"]
#: The main block's and the document's scrollable heights and how far below the top the last element ends (px).
HEIGHT_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const kids = [...document.querySelectorAll('[data-testid="stMainBlockContainer"] [data-testid="stElementContainer"]')]
    .filter(e => e.getBoundingClientRect().height > 0 && !e.closest('details:not([open])'));  // folded: not shown
  const bottom = Math.max(...kids.map(e => e.getBoundingClientRect().bottom));
  return {scroll: main.scrollHeight, client: main.clientHeight, bottom: bottom, top: main.scrollTop,
          document: document.scrollingElement.scrollHeight};
}"""
SIDEBAR_RIGHT_JS = "() => document.querySelector('[data-testid=\"stSidebar\"]').getBoundingClientRect().right"


@pytest.fixture(scope="module")
def shared_tab(contexts, sample_app_url):
    """One tab on the sample server that this module's tests take turns on: a test that needs a link this tab does
    not show opens it (a fresh page), one that can get there by the walk-through's own buttons or the sidebar goes
    on from where the test before left it (each fresh page costs a new session: the app, its map, a script run)."""
    tab = new_offline_page(contexts, sample_app_url)
    tab.dirty = True  # nothing shown yet
    yield tab
    tab.page.close()


@pytest.fixture()
def tab(shared_tab, request):
    """The shared tab, its record of blocked requests emptied; after a failed test the next one opens its link
    afresh (the tab's state is not trusted)."""
    shared_tab.blocked.clear()
    yield shared_tab
    report = request.node.stash.get(_REPORT, None)
    if report is None or not report.passed:
        shared_tab.dirty = True
    shot_if_failed(request, shared_tab)


def _case_walkthrough(app, mode: str, size: tuple[int, int], case: str, step: int = 1, *,
                      fresh: bool = False) -> None:
    """``case``'s walk-through in ``mode`` on ``step`` at a window of ``size``: its link opened, unless the tab
    shows this walk-through already (and not ``fresh``), when "Next" or "Previous" is clicked up to ``step``."""
    page = app.page
    resized = page.viewport_size != {"width": size[0], "height": size[1]}
    here = urlparse(page.url)
    shown = parse_qs(here.query)
    if (fresh or app.dirty or here.path.rstrip("/") != "/walkthrough" or shown.get("case") != [case]
            or shown.get("mode") != [mode] or not shown.get("step", [""])[0].isdigit()):
        if resized:
            page.set_viewport_size({"width": size[0], "height": size[1]})
        page.goto(f"{app.url}/walkthrough?case={case}&mode={mode}&step={step}")
        _on_screen(app, step)
    else:
        if resized:
            app.resize(*size)
        app.idle()
        now = int(shown["step"][0])
        while now != step:
            page.get_by_role("button", name="Next ▶" if step > now else "◀ Previous").click()
            now += 1 if step > now else -1
            _on_screen(app, now)
    app.dirty = False


def _law_page(app, mode: str) -> None:
    """The Law page in ``mode`` at 1366x768: reached from the sidebar's menu (the mode switched there too) when
    the tab shows a page of the app, else by its link."""
    page = app.page
    if app.dirty or not page.url.startswith(app.url):
        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(f"{app.url}/law?mode={mode}")
        app.settle()
    else:
        app.resize(1366, 768)
        app.idle()
        if urlparse(page.url).path.rstrip("/") != "/law":
            app.open_sidebar()  # the Projector walk-through folds it away
            page.locator('[data-testid="stSidebarNav"]').get_by_text("Law", exact=True).click()
            page.locator("h1", has_text="Article IX").first.wait_for(timeout=30_000)
            app.settle()
        if not page.locator('[data-testid="stSidebar"]').get_by_role("radio", name=mode.capitalize()).is_checked():
            app.switch_mode(mode.capitalize())
        page.evaluate("() => document.activeElement && document.activeElement.blur()")  # the keys go to the page
    app.dirty = False


@pytest.fixture(scope="module")
def parcel_cases(sample_app_url) -> dict:
    """Cases of the sample's parcels, made once at the protocol level (tests/browser/case_links.py) when a test
    first asks for one: {what was typed in the parcel finder: case id}. None of the tests changes them."""
    return {}


def _case_of(parcel_cases: dict, url: str, parcel: tuple[str, str]) -> str:
    if parcel[0] not in parcel_cases:
        parcel_cases[parcel[0]] = new_case(url, parcel[0])
    return parcel_cases[parcel[0]]


@pytest.fixture()
def johnsontown_case(parcel_cases, sample_app_url) -> str:
    """A case of 297 Johnsontown Road, found by its address (this module's own: conftest's is made in a browser)."""
    return _case_of(parcel_cases, sample_app_url, (ADDRESS, SBL))


def _on_screen(app, n: int) -> None:
    app.page.locator("h1").filter(has_text=TITLES[n - 1]).wait_for(timeout=30_000)
    app.page.wait_for_url(re.compile(rf"step={n}\b"), timeout=15_000)
    app.settle()


def test_a_clicker_steps_the_walk_through_and_back_returns_one_screen(tab, johnsontown_case):
    """PageDown, Right and Space go forward, PageUp and Left back; each step is one history entry in the link,
    Back and Forward move one step, and the page reads the step from the link it comes back to."""
    app, page = tab, tab.page
    _case_walkthrough(app, "projector", (1920, 1080), johnsontown_case, fresh=True)  # its own history from here
    start = page.evaluate("() => history.length")
    for n, key in ((2, "PageDown"), (3, "ArrowRight"), (4, " ")):
        page.keyboard.press(key)
        _on_screen(app, n)
        assert page.evaluate("() => history.length") == start + n - 1, (key, n)
    page.go_back()
    _on_screen(app, 3)
    page.go_back()
    _on_screen(app, 2)
    assert page.locator("h1").first.inner_text().strip() == TITLES[1]
    page.go_forward()
    _on_screen(app, 3)
    assert page.evaluate("() => history.length") == start + 3  # moving through history adds nothing
    page.keyboard.press("PageUp")
    _on_screen(app, 2)
    page.keyboard.press("ArrowLeft")
    _on_screen(app, 1)
    page.keyboard.press("ArrowLeft")  # on the first screen: nothing before it
    app.idle()  # (the keys click the page's buttons as they are pressed: a run would be asked for by now)
    assert "step=1" in page.url
    page.go_back()
    _on_screen(app, 2)  # the entry before is the screen shown before
    page.screenshot(path=str(ARTIFACTS / "i24_3_walkthrough_back_to_2.png"))


def test_previous_is_whole_at_1366x768_in_projector_mode(tab, johnsontown_case):
    """The "◀ Previous" button was cut to "◂ Previ…": its whole label is on one line, inside the button."""
    app, page = tab, tab.page
    _case_walkthrough(app, "projector", (1366, 768), johnsontown_case, step=2)
    button = page.get_by_role("button", name="◀ Previous")
    button.wait_for(state="visible", timeout=15_000)
    assert button.inner_text().strip() == "◀ Previous"
    fits = button.evaluate("""b => { const p = b.querySelector('p') || b; const r = p.getBoundingClientRect();
                                     const o = b.getBoundingClientRect();
                                     return p.scrollWidth <= p.clientWidth + 1 && r.left >= o.left - 1
                                            && r.right <= o.right + 1 && r.height < 60; }""")
    page.screenshot(path=str(ARTIFACTS / "i24_7_walkthrough_projector_2_1366x768.png"))
    assert fits, "the Previous label is cut or wraps"


@pytest.mark.parametrize("parcel", [(ADDRESS, SBL), LARGEST_CONSTRAINED, ("155.09-1-2", "155.09-1-2")], ids=["297_johnsontown", "largest_constrained", "most_rows"])
def test_every_screen_fits_1920x1080_in_projector_mode_with_the_sidebar_folded(tab, parcel_cases, parcel):
    """Screens 1, 2, 4 and 5 were 1,226-1,866 px tall with a 380 px sidebar; now each is at most 1,080 px (the
    main block's and the document's scroll heights, and the last element's bottom), the deductions chart is on
    screen 2's first screen, and the permits screen shows every decider. On the sample's largest constrained
    parcel screen 2 ran to 1,311 px."""
    app, page = tab, tab.page
    _case_walkthrough(app, "projector", (1920, 1080), _case_of(parcel_cases, app.url, parcel))
    page.wait_for_function(f"() => ({SIDEBAR_RIGHT_JS})() <= 1", timeout=10_000, polling=POLL_MS)  # the sidebar folded away
    too_tall = []
    for n, title in enumerate(TITLES, start=1):
        if n > 1:
            page.get_by_role("button", name="Next ▶").click()
            _on_screen(app, n)
        assert page.evaluate(SIDEBAR_RIGHT_JS) <= 1
        size = page.evaluate(HEIGHT_JS)
        page.screenshot(path=str(ARTIFACTS / f"walkthrough_projector_{parcel[1]}_{n}_1920x1080.png"))
        if not (size["scroll"] <= 1080 and size["document"] <= 1080 and size["bottom"] <= 1080 + 1):
            too_tall.append((title, size))  # every screen measured (and its screenshot kept) before the verdict
        if title == "Land that does not count":  # the chart beside the table, wholly on the screen
            chart = page.locator('[data-testid="stPlotlyChart"]').first.bounding_box()
            assert chart is not None and chart["y"] >= 0 and chart["y"] + chart["height"] <= 1080, chart
        if title == "Permits and reviews":  # the one list of approvals, grouped by who decides
            main = page.locator('[data-testid="stMain"]').inner_text()
            for words in ("Planning Board", "Village Engineer", "County", "Wetland permit", "§ 402-57G",
                          "County referral", "GML § 239-m", "SEQR", "Usual order, by step", "step 3", "clock:"):
                assert words in main, words
            items = page.locator('[data-testid="stMain"] li').all_inner_texts()
            assert not [i for i in items if "Commercial excavation" in i], "a prohibition among the approvals"
    assert not too_tall, too_tall
    assert not app.non_tile_blocked()


def test_walk_through_steps_with_the_buttons_and_back_goes_back_a_screen(tab, johnsontown_case):
    """Steps 1 -> 2 -> 3 with Next; Back shows screen 2, Back again screen 1 (Standard mode, at 1366x768)."""
    app, page = tab, tab.page
    _case_walkthrough(app, "standard", (1366, 768), johnsontown_case)
    for n in (2, 3):
        page.get_by_role("button", name="Next ▶").click()
        _on_screen(app, n)
    page.go_back()
    _on_screen(app, 2)
    page.go_back()
    _on_screen(app, 1)


@pytest.mark.parametrize("mode", ["standard", "counter"])
def test_the_keys_do_nothing_outside_the_walk_through(tab, mode):
    """On another page the clicker's keys are the browser's own (no page turns, no step in the link)."""
    app, page = tab, tab.page
    _law_page(app, mode)
    title = page.locator("h1").first.inner_text()
    page.keyboard.press("PageDown")
    app.idle()  # (the keys click the page's buttons as they are pressed: a run would be asked for by now)
    assert "step=" not in page.url and page.locator("h1").first.inner_text() == title


PLAN_TITLE = "The plan, lot by lot"
#: The lot table's cells on screen: [[cell, ...], ...] and their smallest type (px).
PLAN_TABLE_JS = """() => { const t = document.querySelector('[data-testid="stTable"] table');
  if (!t) return null;
  const cells = [...t.querySelectorAll('td, th')];
  return {rows: [...t.querySelectorAll('tbody tr')].map(r => [...r.querySelectorAll('th, td')].map(c => c.textContent.trim())),
          px: Math.min(...cells.map(c => parseFloat(getComputedStyle(c).fontSize)))}; }"""


def test_the_plan_screen_fits_1920x1080_in_projector_mode_with_twelve_lots(tab):
    """A plan of twelve lots (the parcel cut by a 4 x 3 grid) uploaded on the Plan page: the walk-through gains the
    plan's screen after the cluster triggers, and it fits 1920x1080 with the sidebar folded: the map with its lots
    labelled, the twelve rows in type of at least 24 px, the yield and the open space in a line each."""
    import plan_grid
    from sample_lot import lot_geometry

    app, page = tab, tab.page
    page.set_viewport_size({"width": 1920, "height": 1080})
    # the plan uploaded on the Plan page at the protocol level (the upload in the browser: test_browser_plan.py)
    case_id = new_case_with_plan(app.url, ADDRESS, "twelve-lots.geojson",
                                 plan_grid.split_geojson(lot_geometry(SBL), 4, 3))
    page.goto(f"{app.url}/walkthrough?case={case_id}&mode=projector&step=5")  # the case keeps the plan
    page.locator("h1").filter(has_text=PLAN_TITLE).wait_for(timeout=60_000)
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=30_000)
    app.settle()
    page.wait_for_function(f"() => ({SIDEBAR_RIGHT_JS})() <= 1", timeout=10_000, polling=POLL_MS)
    labels = app.poll_map("() => document.querySelectorAll('.sloat-lot-label').length", lambda v: v == 12)
    app.idle()
    page.screenshot(path=str(ARTIFACTS / "walkthrough_projector_plan_12_lots_1920x1080.png"))
    size = page.evaluate(HEIGHT_JS)
    assert size["scroll"] <= 1080 and size["document"] <= 1080 and size["bottom"] <= 1080 + 1, size
    table = page.evaluate(PLAN_TABLE_JS)
    assert [r[0] for r in table["rows"]] == [str(n) for n in range(1, 13)], table
    assert table["px"] >= 24, table
    assert labels == 12
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "Yield (§ 402-48E)" in main and "Open space (§ 402-48G(2))" in main and "5 of 7" in main
    page.get_by_role("button", name="Next ▶").click()
    page.locator("h1").filter(has_text="Permits and reviews").wait_for(timeout=30_000)
    assert not app.non_tile_blocked()
