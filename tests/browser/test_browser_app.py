"""Real-browser tests of the dashboard, offline (see conftest.py).

Each test saves a screenshot in tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
sys.path.insert(0, str(HOSTILE))
import app_fixtures as fx  # noqa: E402
import make_hostile as mh  # noqa: E402
from browser.conftest import OfflinePage  # noqa: E402

from app_support.frame.announce import ANSWER_ID  # noqa: E402
from app_support.inputs.parcel_inputs import KEPT_AFTER_REFUSAL  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.gis.safe_files import MAX_UPLOAD_BYTES  # noqa: E402

pytestmark = pytest.mark.browser

SQUARE = [(-90, -70), (90, -70), (90, 70), (-90, 70)]
DRAWN_LAYERS_JS = "() => (typeof drawnItems !== 'undefined') ? drawnItems.getLayers().length : -1"
LAYERS_ON_MAP_JS = ("() => window.layer_control._layers.filter(l => map_div.hasLayer(l.layer))"
                    ".map(l => l.name)")


def test_map_loads_offline_and_a_drawn_parcel_gets_net_area_and_citation(app):
    app.open()
    frame = app.wait_map()
    assert frame.locator(".leaflet-control-zoom-in").is_visible()
    app.draw_polygon(SQUARE)
    app.wait_text("Drawn on the map")
    gross = app.metric("Gross area")
    net = app.metric("Net lot area")
    assert int(gross.replace(",", "")) > 0
    assert 0 <= int(net.replace(",", "")) <= int(gross.replace(",", ""))
    link = app.page.get_by_role("link", name="Net lot area rule: § 402-45A")
    expect(link).to_be_visible(timeout=15_000)  # the results column may still be drawing
    app.shot("01_drawn_parcel")
    assert app.map_frame().evaluate(DRAWN_LAYERS_JS) == 1
    assert app.non_tile_blocked() == [], app.non_tile_blocked()


def test_citation_link_opens_the_law_page_at_the_clause(app):
    app.open()
    app.draw_polygon(SQUARE)
    app.wait_text("Drawn on the map")
    app.page.get_by_role("link", name="Net lot area rule: § 402-45A").click()
    app.wait_text("You followed a link to § 402-45A")
    app.page.wait_for_url(re.compile(r"cite=402-45A\b"), timeout=15_000)  # the page writes its link
    app.shot("02_law_deep_link")


def test_pick_parcel_by_sbl(app):
    app.open()
    app.choose_parcel(fx.P1_SBL)
    assert app.metric("Gross area") == "40,000"
    app.wait_text("Wetlands")
    app.wait_text("R-15 minimum of 15,000 sq ft")
    app.wait_parcel_in_view()
    app.shot("03_parcel_by_sbl")


def test_upload_a_parcel_file_and_a_bad_one(app, tmp_path):
    good = tmp_path / "lot.geojson"
    good.write_text(json.dumps({"type": "FeatureCollection", "features": [fx.wgs84_feature(fx.P2)]}))
    bad = tmp_path / "broken.geojson"
    bad.write_text("{ not json")
    app.open()
    file_input = app.page.locator('[data-testid="stFileUploader"] input[type="file"]')
    file_input.set_input_files(str(good))
    app.wait_text("Uploaded file lot.geojson")
    assert app.metric("Gross area") == "10,000"
    file_input.set_input_files(str(bad))
    app.page.locator('[data-testid="stAlertContentError"]').first.wait_for(timeout=30_000)
    # The earlier file's figures stay as they were, and the words beside the uploader say whose they are.
    app.wait_text(f"{KEPT_AFTER_REFUSAL} (Uploaded file lot.geojson).")
    app.settle()
    app.shot("04_upload_then_bad_upload")
    assert app.metric("Gross area") == "10,000"  # the failed upload kept the parcel and its answer


# ------------------------------------------------------------------------------------------------
# Refused files: one page, one parcel from a file, then each hostile file in turn
# ------------------------------------------------------------------------------------------------

#: Each kind of refused file: (file name, how it is built, what the refusal says). Ordered so no two in a row say
#: the same sentence (each test waits for its own). The file over the limit is refused by the browser itself
#: (Streamlit's uploader knows server.maxUploadSize) and never reaches the app.
REFUSED = {
    "zip bomb": ("bomb.zip", lambda tmp: mh.write_zip_bomb(tmp / "bomb.zip", gigabytes=0.25).read_bytes(), None),
    "member name climbing out": ("traversal.zip", lambda tmp: (HOSTILE / "traversal.zip").read_bytes(), None),
    "zip bomb lying about its size": (
        "liar.zip", lambda tmp: mh.write_lying_zip_bomb(tmp / "liar.zip", megabytes=50).read_bytes(), None),
    "absolute member name": ("absolute.zip", lambda tmp: (HOSTILE / "absolute.zip").read_bytes(), None),
    "symbolic link": ("link.zip", lambda tmp: mh.symlink_zip(), None),
    "KML entity bomb": ("laughs.kml", lambda tmp: mh.entity_bomb_kml(), None),
    "KML of network links only": ("links.kml", lambda tmp: mh.network_links_only_kml(), None),
    "GeoJSON over the size limit": (
        "big.geojson", lambda tmp: mh.write_oversize(tmp / "big.geojson", MAX_UPLOAD_BYTES + 10).read_bytes(),
        f"File must be {MAX_UPLOAD_BYTES / 2**20:.1f}MB or smaller."),
}


def _answer_text(page) -> str:
    """The answer's column as a person reads it (the figures, the chart's labels, the table, the permits), once
    its chart is drawn (Plotly draws its labels after the run)."""
    column = page.locator('[data-testid="stColumn"]').filter(has=page.locator(f"#{ANSWER_ID}")).first
    column.locator(".js-plotly-plot .xtick text").first.wait_for(timeout=30_000)
    return column.inner_text()


def _case_id(url: str) -> str:
    return re.search(r"[?&]case=([^&]+)", url).group(1)


@pytest.fixture(scope="module")
def refusals(contexts, app_url, tmp_path_factory):
    """One page for the refused files: a parcel uploaded from a file (its figures, its saved case), as it was
    before the first refused file (the answer's text, the link's case and the case as stored)."""
    from sloat_core.store import CaseStore

    folder = tmp_path_factory.mktemp("refused")
    good = folder / "lot.geojson"
    good.write_text(json.dumps({"type": "FeatureCollection", "features": [fx.wgs84_feature(fx.P2)]}))
    page = contexts.for_url(app_url).new_page()
    app = OfflinePage(page, app_url, [])
    app.open()
    app.wait_map()
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(good))
    app.wait_text("Uploaded file lot.geojson")
    assert app.metric("Gross area") == "10,000"
    page.wait_for_url(re.compile(r"[?&]case="), timeout=30_000)
    app.settle()
    store = CaseStore(os.environ["SLOAT_DATA_DIR"])  # the server's own (tests/conftest.py gives it the folder)
    case = _case_id(page.url)
    before = {"answer": _answer_text(page), "case": case,
              "stored": store.open_case(case, read_only=True).to_dict()}
    yield app, folder, store, before
    page.close()


@pytest.mark.parametrize("kind", list(REFUSED))
def test_a_refused_file_leaves_the_parcel_its_answer_and_the_case_as_they_were(refusals, kind):
    app, folder, store, before = refusals
    name, build, said = REFUSED[kind]
    path = folder / name
    path.write_bytes(build(folder))
    if said is None:
        with pytest.raises(SloatInputError) as refused:
            parcel_input.read_parcel(path.read_bytes(), name)
        said = str(refused.value)
    uploader = app.page.locator('[data-testid="stFileUploader"]')
    uploader.locator('input[type="file"]').set_input_files(str(path))
    uploader.get_by_text(name, exact=True).wait_for(timeout=30_000)
    finder = app.page.locator('[data-testid="stExpander"]').first
    finder.get_by_text(said).wait_for(timeout=60_000)  # the refusal, beside the uploader
    if said.startswith("File must be"):
        app.page.wait_for_timeout(1000)  # the browser refused it: no run follows; a second for one that would
    else:
        finder.get_by_text(f"{KEPT_AFTER_REFUSAL} (Uploaded file lot.geojson).").wait_for(timeout=30_000)
    app.settle()
    app.shot(f"refused_upload_{name.split('.')[0]}")
    assert _answer_text(app.page) == before["answer"], kind
    assert _case_id(app.page.url) == before["case"], kind
    assert store.open_case(before["case"], read_only=True).to_dict() == before["stored"], kind


def test_demo_parcels_upload(app):
    folder = Path(__file__).resolve().parents[2] / "data" / "sample" / "demo_parcels"
    demo = sorted(p for p in folder.glob("*") if p.suffix.lower() in {".geojson", ".kml", ".zip", ".gpkg", ".dxf"})
    assert demo, f"no demo parcels in {folder} (tools/make_sample_data.py writes them)"
    app.open()
    file_input = app.page.locator('[data-testid="stFileUploader"] input[type="file"]')
    for path in demo[:3]:
        file_input.set_input_files(str(path))
        app.wait_text(f"Uploaded file {path.name}")
        assert int(app.metric("Gross area").replace(",", "")) > 0
    app.shot("05_demo_parcel_upload")


def test_toggling_a_layer_keeps_the_drawing(app):
    app.open()
    app.draw_polygon(SQUARE)
    app.wait_text("Drawn on the map")
    gross = app.metric("Gross area")
    before = app.poll_map(LAYERS_ON_MAP_JS, lambda v: "Wetlands" in v and "Parcel under study" in v)
    assert "Wetlands" in before and "Parcel under study" in before, before
    # remove "Wetlands" from the layer multiselect (outside the map)
    app.page.get_by_role("button", name="Remove Wetlands").click()
    app.settle()
    after = app.poll_map(LAYERS_ON_MAP_JS, lambda v: "Wetlands" not in v and "Parcel under study" in v)
    assert "Wetlands" not in after and "Parcel under study" in after, after
    assert app.poll_map(DRAWN_LAYERS_JS, lambda n: n == 1) == 1
    assert app.metric("Gross area") == gross
    app.page.get_by_text("None (layers only)", exact=True).click()
    app.settle()
    assert app.poll_map(DRAWN_LAYERS_JS, lambda n: n == 1) == 1
    assert app.metric("Gross area") == gross
    app.shot("06_layer_toggled_drawing_kept")


def test_pick_a_parcel_by_clicking_the_map(app):
    app.open()
    frame = app.wait_map()
    app.page.get_by_text("Pick a tax parcel by clicking", exact=True).click()
    expect(app.page.get_by_role("checkbox", name="Pick a tax parcel by clicking")).to_be_checked()
    app.settle()
    frame = app.wait_map()
    box = frame.locator(".leaflet-container").bounding_box()
    # the map opens centred on 41.162 N, 74.188 W, which lies inside tax parcel P1
    app.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    app.wait_text(f"Tax parcel {fx.P1_SBL}")
    assert app.metric("Gross area") == "40,000"
    app.shot("08_parcel_by_click")


def test_sample_demo_parcel_with_slope_overlay(sample_app):
    demo = Path(__file__).resolve().parents[2] / "data" / "sample" / "demo_parcels" / "east_ridge_12ac.geojson"
    assert demo.exists(), demo
    sample_app.open()
    sample_app.wait_map()
    sample_app.page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(demo))
    sample_app.wait_text("Uploaded file east_ridge_12ac.geojson")
    sample_app.wait_text("Slope 25-40%")  # legend swatches of the slope overlay
    overlays = "() => document.querySelectorAll('img.leaflet-image-layer').length"
    assert sample_app.poll_map(overlays, lambda n: n == 1) == 1
    table = sample_app.page.locator('.sloat-dtable').first
    table.wait_for(timeout=30_000)
    sample_app.page.get_by_role("link", name="§ 402-45A(2)(a)").first.wait_for(timeout=30_000)
    assert sample_app.non_tile_blocked() == [], sample_app.non_tile_blocked()
    sample_app.shot("09_sample_slope_overlay")


def test_projector_mode_has_large_type(app):
    app.open()
    app.wait_map()
    app.page.get_by_text("Projector", exact=True).click()
    paragraph_size = ("() => parseFloat(getComputedStyle(document.querySelector("
                      "'[data-testid=\"stMarkdownContainer\"] p')).fontSize)")
    app.settle()
    app.page.wait_for_function(f"() => ({paragraph_size})() >= 24", timeout=30_000)
    size = app.page.evaluate(paragraph_size)
    assert size >= 24, size
    h1 = app.page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
    assert h1 > size
    app.shot("07_projector_mode")


def test_the_harness_is_offline_and_records_what_tried_to_leave(app):
    """The browser resolves only the local app: a request to a public CDN fails, and the page's list of
    blocked requests names it (so the "nothing but tiles was blocked" checks above can fail)."""
    app.open()
    app.settle()
    outcome = app.page.evaluate("""() => fetch('https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js')
        .then(() => 'loaded', () => 'failed')""")
    assert outcome == "failed"
    deadline = time.monotonic() + 5  # the requestfailed event may arrive just after the promise settles
    while not any("cdn.jsdelivr.net" in u for u in app.non_tile_blocked()) and time.monotonic() < deadline:
        app.page.wait_for_timeout(50)  # polling interval, not a guess at how long the browser takes
    assert any("cdn.jsdelivr.net" in u for u in app.non_tile_blocked()), app.blocked
