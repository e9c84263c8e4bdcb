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
from browser.conftest import POLL_MS, LINKED_LAYERS_DRAWN_JS, MAP_IFRAME, OfflinePage, SharedPage  # noqa: E402

from app_support.frame.announce import ANSWER_ID  # noqa: E402
from app_support.inputs.parcel_inputs import KEPT_AFTER_REFUSAL  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.gis.safe_files import MAX_UPLOAD_BYTES  # noqa: E402
from offline_chromium import OMNIBOX_POPUP_FEATURES, playwright_disabled_features  # noqa: E402

pytestmark = pytest.mark.browser

SQUARE = [(-90, -70), (90, -70), (90, 70), (-90, 70)]
DRAWN_LAYERS_JS = "() => (typeof drawnItems !== 'undefined') ? drawnItems.getLayers().length : -1"
LAYERS_ON_MAP_JS = ("() => window.layer_control._layers.filter(l => map_div.hasLayer(l.layer))"
                    ".map(l => l.name)")


class _DrawnPage(SharedPage):
    """One page on the app with SQUARE drawn on the map (its answer shown), for the claims about a drawn parcel.

    The claim about the first answer reads it before any other claim changed it; the claim about the layer
    controls changes the layers shown (``layers_changed``), which the claim about the citation link does not read;
    the citation link takes the page to the law page (``spent``). A claim that needs what an earlier one changed
    gets a new page, drawn again."""

    def __init__(self, contexts, url: str):
        super().__init__(contexts, url)
        self.layers_changed = self.spent = False

    def drawn(self, *, as_drawn: bool = False) -> OfflinePage:
        """The page with the square drawn; with ``as_drawn``, as the drawing left it (no layer changed since)."""
        if self.app is None or self.spent or (as_drawn and self.layers_changed):
            self.renew()
            self.layers_changed = self.spent = False
            self.app.wait_map()
            self.app.draw_polygon(SQUARE)
            self.app.wait_text("Drawn on the map")
        return self.app


@pytest.fixture(scope="module")
def _drawn_page(contexts, app_url):
    yield from _DrawnPage.for_module(contexts, app_url)


@pytest.fixture()
def drawn_page(_drawn_page, request):
    """The module's page with a square drawn on the map (_DrawnPage); a screenshot if the test failed."""
    yield _drawn_page
    _drawn_page.shot_if_failed(request)


def test_map_loads_offline_and_a_drawn_parcel_gets_net_area_and_citation(drawn_page):
    app = drawn_page.drawn(as_drawn=True)
    frame = app.wait_map()
    assert frame.locator(".leaflet-control-zoom-in").is_visible()
    gross = app.metric("Gross area")
    net = app.metric("Net lot area")
    assert int(gross.replace(",", "")) > 0
    assert 0 <= int(net.replace(",", "")) <= int(gross.replace(",", ""))
    link = app.page.get_by_role("link", name="Net lot area rule: § 402-45A")
    expect(link).to_be_visible(timeout=15_000)  # the results column may still be drawing
    app.shot("01_drawn_parcel")
    assert app.map_frame().evaluate(DRAWN_LAYERS_JS) == 1
    assert app.non_tile_blocked() == [], app.non_tile_blocked()


def test_toggling_a_layer_keeps_the_drawing(drawn_page):
    app = drawn_page.drawn(as_drawn=True)
    gross = app.metric("Gross area")
    before = app.poll_map(LAYERS_ON_MAP_JS, lambda v: "Wetlands" in v and "Parcel under study" in v)
    assert "Wetlands" in before and "Parcel under study" in before, before
    # remove "Wetlands" from the layer multiselect (outside the map)
    drawn_page.layers_changed = True
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


def test_citation_link_opens_the_law_page_at_the_clause(drawn_page):
    app = drawn_page.drawn()  # the layers shown do not matter here
    drawn_page.spent = True  # the link leaves the Parcel page
    app.page.get_by_role("link", name="Net lot area rule: § 402-45A").click()
    app.wait_text("You followed a link to § 402-45A")
    app.page.wait_for_url(re.compile(r"cite=402-45A\b"), timeout=15_000)  # the page writes its link
    app.shot("02_law_deep_link")


class _VisitorPage(SharedPage):
    """One visitor's page for the claims that need no drawing and no file: tax parcel P1 picked by clicking the map on
    a page just opened, then the same session switched to Projector mode in the sidebar (the large type is the
    mode's, with or without a parcel; a fresh page costs a new session: the app, its map, a script run). A claim that
    finds the page already used by the first gets a new page (``fresh``)."""

    def __init__(self, contexts, url: str):
        super().__init__(contexts, url)
        self.picked = False

    def fresh(self) -> OfflinePage:
        """A page just opened, nothing picked on it."""
        if self.app is None or self.picked:
            self.renew()
            self.picked = False
        return self.app

    def any(self) -> OfflinePage:
        """The page, whatever was picked on it."""
        return self.app if self.app is not None else self.fresh()


@pytest.fixture(scope="module")
def _visitor_page(contexts, app_url):
    yield from _VisitorPage.for_module(contexts, app_url)


@pytest.fixture()
def visitor_page(_visitor_page, request):
    """The module's page for a visitor's claims (_VisitorPage); a screenshot if the test failed."""
    yield _visitor_page
    _visitor_page.shot_if_failed(request)


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


class _FilesPage(SharedPage):
    """One page for the claims about parcel files: a parcel uploaded from a file (its figures, its saved case), and
    what the page showed before the first refused file (the answer's text, the link's case and the case as stored).

    The claim about a good file then a bad one finds it with no file refused yet (``first``); the refused files
    come one after another (``for_refusals``); the demo parcels, uploaded last, change the parcel (``spent``). A
    claim that needs the page as it was before another changed it gets a new page."""

    def __init__(self, contexts, url: str, folder: Path):
        from sloat_core.store import CaseStore

        super().__init__(contexts, url)
        self.folder = folder
        self.store = CaseStore(os.environ["SLOAT_DATA_DIR"])  # the server's own (tests/conftest.py gives it)
        self.before: dict = {}
        self.refused = self.spent = False

    def _build(self) -> OfflinePage:
        good = self.folder / "lot.geojson"
        good.write_text(json.dumps({"type": "FeatureCollection", "features": [fx.wgs84_feature(fx.P2)]}))
        app = self.renew()
        self.refused = self.spent = False
        page = app.page
        app.wait_map()
        page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(good))
        app.wait_text("Uploaded file lot.geojson")
        assert app.metric("Gross area") == "10,000"
        page.wait_for_url(re.compile(r"[?&]case="), timeout=30_000)
        app.settle()
        case = _case_id(page.url)
        self.before = {"answer": _answer_text(page), "case": case,
                       "stored": self.store.open_case(case, read_only=True).to_dict()}
        return app

    def first(self) -> OfflinePage:
        """The page with the good file uploaded and no file refused yet."""
        if self.app is None or self.spent or self.refused:
            self._build()
        self.refused = True
        return self.app

    def for_refusals(self) -> OfflinePage:
        """The page with the good file's parcel, whatever files were refused since."""
        if self.app is None or self.spent:
            self._build()
        self.refused = True
        return self.app

    def any(self) -> OfflinePage:
        """The page whatever was uploaded before; the next claim that needs the good file's parcel gets a new one."""
        if self.app is None:
            self._build()
        self.spent = True
        return self.app


@pytest.fixture(scope="module")
def _files_page(contexts, app_url, tmp_path_factory):
    yield from _FilesPage.for_module(contexts, app_url, tmp_path_factory.mktemp("refused"))


@pytest.fixture()
def files_page(_files_page, request):
    """The module's page for parcel files (_FilesPage); a screenshot if the test failed."""
    yield _files_page
    _files_page.shot_if_failed(request)


def test_upload_a_parcel_file_and_a_bad_one(files_page, tmp_path):
    """A parcel file uploaded (lot.geojson, tax parcel P2 drawn in a file) gives its figures; a broken file after it
    is refused and leaves them as they were."""
    bad = tmp_path / "broken.geojson"
    bad.write_text("{ not json")
    app = files_page.first()
    file_input = app.page.locator('[data-testid="stFileUploader"] input[type="file"]')
    app.wait_text("Uploaded file lot.geojson")
    assert app.metric("Gross area") == "10,000"
    file_input.set_input_files(str(bad))
    app.page.locator('[data-testid="stAlertContentError"]').first.wait_for(timeout=30_000)
    # The earlier file's figures stay as they were, and the words beside the uploader say whose they are.
    app.wait_text(f"{KEPT_AFTER_REFUSAL} (Uploaded file lot.geojson).")
    app.settle()
    app.shot("04_upload_then_bad_upload")
    assert app.metric("Gross area") == "10,000"  # the failed upload kept the parcel and its answer


@pytest.mark.parametrize("kind", list(REFUSED))
def test_a_refused_file_leaves_the_parcel_its_answer_and_the_case_as_they_were(files_page, kind):
    app = files_page.for_refusals()
    folder, store, before = files_page.folder, files_page.store, files_page.before
    name, build, said = REFUSED[kind]
    path = folder / name
    path.write_bytes(build(folder))
    if said is None:
        with pytest.raises(SloatInputError) as refused:
            parcel_input.read_parcel(path.read_bytes(), name)
        said = str(refused.value)
    uploader = app.page.locator('[data-testid="stFileUploader"]')
    sent: list[str] = []  # the uploads the browser made (a file it refuses itself is never sent)

    def upload(req) -> None:
        if "/_stcore/upload_file" in req.url:
            sent.append(req.url)

    app.page.on("request", upload)
    try:
        uploader.locator('input[type="file"]').set_input_files(str(path))
        uploader.get_by_text(name, exact=True).wait_for(timeout=30_000)
        finder = app.page.locator('[data-testid="stExpander"]').first
        finder.get_by_text(said).wait_for(timeout=60_000)  # the refusal, beside the uploader
    finally:
        app.page.remove_listener("request", upload)
    if said.startswith("File must be"):
        # the browser refused it: the file never went to the server, so no run reads it (the uploader sends a file
        # before it tells the app of it, and the refusal is shown only once the file is judged)
        assert sent == [], sent
    else:
        assert sent, kind  # a file the app refuses went to the server (so the record above sees an upload)
        finder.get_by_text(f"{KEPT_AFTER_REFUSAL} (Uploaded file lot.geojson).").wait_for(timeout=30_000)
    if sent:
        app.settle()  # the run that read the file is over
    else:
        app.idle()  # a file refused by the browser asks for no run
    app.shot(f"refused_upload_{name.split('.')[0]}")
    assert _answer_text(app.page) == before["answer"], kind
    assert _case_id(app.page.url) == before["case"], kind
    assert store.open_case(before["case"], read_only=True).to_dict() == before["stored"], kind


def test_demo_parcels_upload(files_page):
    """Three demo parcels uploaded one after another (after the module's other files), each gives its figures."""
    folder = Path(__file__).resolve().parents[2] / "data" / "sample" / "demo_parcels"
    demo = sorted(p for p in folder.glob("*") if p.suffix.lower() in {".geojson", ".kml", ".zip", ".gpkg", ".dxf"})
    assert demo, f"no demo parcels in {folder} (tools/make_sample_data.py writes them)"
    app = files_page.any()
    file_input = app.page.locator('[data-testid="stFileUploader"] input[type="file"]')
    for path in demo[:3]:
        file_input.set_input_files(str(path))
        app.wait_text(f"Uploaded file {path.name}")
        assert int(app.metric("Gross area").replace(",", "")) > 0
    app.shot("05_demo_parcel_upload")


def test_pick_parcel_by_sbl(files_page):
    """Tax parcel P1 picked by its SBL, on the page of the parcel files (a parcel from a file shown before: P1 is
    not; a fresh page costs a new session: the app, its map, a script run)."""
    app = files_page.any()
    assert not app.page.get_by_text(f"Tax parcel {fx.P1_SBL}", exact=False).filter(visible=True).count()
    app.choose_parcel(fx.P1_SBL)
    assert app.metric("Gross area") == "40,000"
    app.wait_text("Wetlands")
    app.wait_text("R-15 minimum of 15,000 sq ft")
    app.wait_parcel_in_view()
    app.shot("03_parcel_by_sbl")


def test_pick_a_parcel_by_clicking_the_map(visitor_page):
    app = visitor_page.fresh()
    visitor_page.picked = True
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


def test_projector_mode_has_large_type(visitor_page):
    app = visitor_page.any()
    app.wait_map()
    assert not app.page.get_by_role("radio", name="Projector").is_checked()  # the switch below is what changes it
    app.page.get_by_text("Projector", exact=True).click()
    paragraph_size = ("() => parseFloat(getComputedStyle(document.querySelector("
                      "'[data-testid=\"stMarkdownContainer\"] p')).fontSize)")
    app.settle()
    app.page.wait_for_function(f"() => ({paragraph_size})() >= 24", timeout=30_000, polling=POLL_MS)
    size = app.page.evaluate(paragraph_size)
    assert size >= 24, size
    h1 = app.page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
    assert h1 > size
    app.shot("07_projector_mode")


def test_a_first_visit_finds_leaflet_in_the_cache_asked_for_by_the_page(contexts, sample_app_url):
    """On a first visit (a new context: an empty cache) the page itself asks for Leaflet, Leaflet.draw and their
    stylesheets as the map's frame is made (app_support.map.frame_prefetch), so the frame, which asks for each
    only after the one before has run, is answered from the cache: no round trip to the server for any of them."""
    from app_support.map.mapping import DRAW_CSS, DRAW_JS, MAP_CSS, MAP_JS

    context = contexts.browser.new_context(viewport={"width": 1500, "height": 1000})
    try:
        page = context.new_page()
        page.goto(sample_app_url + "/")  # the sample's layers: large enough to be read by link
        page.wait_for_function(LINKED_LAYERS_DRAWN_JS, arg=MAP_IFRAME, timeout=60_000, polling=POLL_MS)
        entries = """(names) => { const f = document.querySelector(%s);
          const pick = (w) => w.performance.getEntriesByType('resource')
            .filter(e => names.some(n => e.name.endsWith(n)))
            .map(e => [new URL(e.name).pathname, e.initiatorType, e.transferSize, e.decodedBodySize]);
          return {page: pick(window), frame: pick(f.contentWindow)}; }""" % json.dumps(MAP_IFRAME)
        names = [url for _, url in [*MAP_JS, *DRAW_JS, *MAP_CSS, *DRAW_CSS]]
        seen = page.evaluate(entries, names)
        assert sorted(p for p, kind, _, _ in seen["page"] if kind == "link") == sorted(names), seen
        in_frame = {p: (size, body) for p, _, size, body in seen["frame"]}
        assert sorted(in_frame) == sorted(names), seen
        assert all(size == 0 and body > 0 for size, body in in_frame.values()), seen  # from the cache, whole
        # The layers the map reads by link were asked for by the page too, and handed to the frame: it asked none.
        media = """(frame) => { const f = document.querySelector(frame);
          const pick = (w) => w.performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)
            .filter(p => /\\/media\\/[0-9a-f]+\\.json$/.test(p));
          return {page: pick(window), frame: pick(f.contentWindow)}; }"""
        layers = page.evaluate(media, MAP_IFRAME)
        assert layers["page"] and layers["frame"] == [], layers
    finally:
        context.close()


def test_the_harness_is_offline_and_records_what_tried_to_leave(app):
    """The browser resolves only the local app: a request to a public CDN fails, and the page's list of
    blocked requests names it (so the "nothing but tiles was blocked" checks above can fail). The page is the app
    server's health answer: a document of the local app, as every page above, without the app's script run."""
    app.page.goto(app.url + "/_stcore/health")
    outcome = app.page.evaluate("""() => fetch('https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js')
        .then(() => 'loaded', () => 'failed')""")
    assert outcome == "failed"
    deadline = time.monotonic() + 5  # the requestfailed event may arrive just after the promise settles
    while not any("cdn.jsdelivr.net" in u for u in app.non_tile_blocked()) and time.monotonic() < deadline:
        app.page.wait_for_timeout(50)  # polling interval, not a guess at how long the browser takes
    assert any("cdn.jsdelivr.net" in u for u in app.non_tile_blocked()), app.blocked


def test_the_harness_browser_keeps_playwrights_disabled_features_and_opens_no_omnibox_pages(browser):
    """Chromium keeps only the last ``--disable-features`` it is given: the one that reached it (its own command
    line, chrome://version) names every feature the installed Playwright disables (PaintHolding,
    ThirdPartyStoragePartitioning, ...) and the omnibox's pop-up pages, and a new window opens none of those pages
    (tools/offline_chromium.py)."""
    playwrights = playwright_disabled_features()
    assert playwrights and "PaintHolding" in playwrights, \
        "Playwright's disabled features were not found in its driver: tools/offline_chromium.py must read them anew"
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("chrome://version")
        switches = page.locator("#command_line").inner_text().split()
        lists = [s.removeprefix("--disable-features=").split(",") for s in switches
                 if s.startswith("--disable-features=")]
        assert len(lists) == 1, lists
        assert set(playwrights) | set(OMNIBOX_POPUP_FEATURES) <= set(lists[0]), lists
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
        assert not [t["url"] for t in targets if "omnibox" in t["url"]], targets
    finally:
        context.close()
