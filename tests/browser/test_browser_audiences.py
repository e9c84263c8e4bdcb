"""The three audiences in a real browser, on the illustrative sample, in all three modes at 1366x768 and 1920x1080.

Mode in the link (kept on reload, toolbar hidden in Counter and Projector), search by "Road" with a
single match chosen at once, the Counter answer card and its handout button, the buffer and
tax-parcel-line layers on the map, and the net lot area on the Projector's first screen.
Screenshots go to tests/artifacts/audience_*.png.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from browser.a11y_visit import CHART_TEXTS_CUT_JS
from browser.conftest import ARTIFACTS, POLL_MS, MAP_IFRAME, SAMPLE_ADDRESS, SAMPLE_SBL, new_offline_page, shot_if_failed

VIEWPORTS = [(1366, 768), (1920, 1080)]
MODES = ["standard", "counter", "projector"]
ADDRESS, SBL = SAMPLE_ADDRESS, SAMPLE_SBL  # the sample layer spells it "297 Johnsontown Rd"


#: Back to the top of the page: the window and Streamlit's own scrolling container (the map was scrolled into view).
TO_TOP_JS = """() => { window.scrollTo(0, 0);
  for (const el of document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"], section.main'))
    el.scrollTo(0, 0); }"""


def _open(sample_app, mode: str, size: tuple[int, int], path: str = "/"):
    sample_app.page.set_viewport_size({"width": size[0], "height": size[1]})
    sample_app.open(f"{path}?mode={mode}")
    sample_app.settle()
    return sample_app


def _find_by_address(app) -> None:
    """Type the address as people write it (the sample layer spells it "Rd"); one match is chosen at once."""
    box = app.page.get_by_label("Tax parcel (SBL", exact=False)
    box.fill(ADDRESS)
    box.press("Enter")
    app.wait_text(f"Tax parcel {SBL}")  # the note under the map (the finder's "Found" line folds on a projector)
    app.settle()


def _toolbar_visible(page) -> bool:
    """Streamlit's menu or its toolbar actions show. (The toolbar's box itself stays in every mode: it holds the
    sidebar's open button, which a phone needs; theme's navigation block.)"""
    return page.locator('[data-testid="stMainMenu"]').is_visible() or \
        page.locator('[data-testid="stToolbarActions"]').is_visible()


class _ModeVisit:
    """One page on the sample server in one mode at 1366x768, walked once: opened from a link with the mode and
    reloaded (what it showed before and after the reload is kept for the claim about the reload), then the sample
    parcel found by its address (for the claims about the answer and the map). Each step is made when a test first
    needs it, in that order."""

    def __init__(self, contexts, url: str, mode: str):
        self.mode = mode
        self.app = new_offline_page(contexts, url)
        self._reload: dict | BaseException | None = None
        self._found = False
        self.spent = False  # a test took the page elsewhere: the next test that needs it gets a new one

    def reload(self) -> dict:
        """What the radio showed before the reload, and the radio, the link and the toolbar after it."""
        if self._reload is None:
            try:
                self._reload = self._open_and_reload()
            except Exception as exc:  # noqa: BLE001 (kept, and raised to the claim about the reload)
                self._reload = exc
        if isinstance(self._reload, BaseException):
            raise AssertionError(f"{self.mode}: the page could not be opened and reloaded: "
                                 f"{self._reload!r}") from self._reload
        return self._reload

    def _open_and_reload(self) -> dict:
        from playwright.sync_api import expect

        app, mode = self.app, self.mode
        page = _open(app, mode, (1366, 768)).page
        sidebar = page.locator('[data-testid="stSidebar"]')
        seen = {"checked before": sidebar.get_by_role("radio", name=mode.capitalize()).is_checked()}
        page.reload()
        app.settle()
        seen["checked after"] = sidebar.get_by_role("radio", name=mode.capitalize()).is_checked()
        seen["url"] = page.url
        menu = page.locator('[data-testid="stMainMenu"]')
        try:
            if mode == "standard":
                expect(menu).to_be_visible(timeout=15_000)
            else:  # the mode's stylesheet comes with the first script run after the reload: wait for it
                expect(menu).to_be_hidden(timeout=15_000)
                expect(page.locator('[data-testid="stToolbarActions"]')).to_be_hidden(timeout=15_000)
            seen["menu"] = None
        except AssertionError as exc:
            seen["menu"] = str(exc)
        seen["toolbar visible"] = _toolbar_visible(page)
        seen["Deploy visible"] = page.get_by_text("Deploy", exact=True).is_visible()
        return seen

    def found(self):
        """The page after the search by address, at 1366x768 (as a test that changed the window left it)."""
        if not self._found:
            try:
                self.reload()
            except AssertionError:
                pass  # raised to the claim about the reload; the search below says whether the page is usable
            _find_by_address(self.app)
            self._found = True
        return self.app

    def case(self) -> str:
        """The id of the case the search made (written into the page's link)."""
        from urllib.parse import parse_qs, urlparse

        page = self.found().page
        page.wait_for_function("() => location.search.includes('case=')", timeout=30_000, polling=POLL_MS)
        return parse_qs(urlparse(page.url).query)["case"][0]


class _ModeVisits:
    """The module's pages on the sample server, one per mode (_ModeVisit), each made when first asked for, and closed
    once no later test reads it (an open page with the map costs the browser CPU while other tests run)."""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self._visits: dict[str, _ModeVisit] = {}
        self.last = None
        self._case: str | None = None

    def case(self) -> str:
        """The id of the case the Standard page's search made (the sample parcel found by its address; no test
        changes it), read from its link once."""
        if self._case is None:
            self._case = self.of("standard").case()
        return self._case

    def close_unread(self, needed: set[str]) -> None:
        """Close the pages of the modes no later test reads (the Standard page's case kept, read first)."""
        for mode in [m for m in self._visits if m not in needed]:
            visit = self._visits.pop(mode)
            if mode == "standard" and self._case is None and visit._found and not visit.spent:
                try:
                    self._case = visit.case()
                except Exception:  # noqa: BLE001 (a later test that needs the case finds it again)
                    pass
            visit.app.page.close()

    def of(self, mode: str) -> _ModeVisit:
        visit = self._visits.get(mode)
        if visit is None or visit.spent:
            if visit is not None:
                visit.app.page.close()
            visit = self._visits[mode] = _ModeVisit(self.contexts, self.url, mode)
        self.last = visit.app
        return visit

    def close(self) -> None:
        for visit in self._visits.values():
            visit.app.page.close()


@pytest.fixture(scope="module")
def _mode_pages(contexts, sample_app_url):
    visits = _ModeVisits(contexts, sample_app_url)
    yield visits
    visits.close()


def _later_tests(request) -> list:
    """This module's tests that run after the running one, in the run's order (none when it is run alone)."""
    items = request.session.items
    here = next((i for i, item in enumerate(items) if item is request.node), len(items))
    return [item for item in items[here + 1:] if item.module is request.node.module]


#: The tests that read a mode's page but say so in no "mode" parameter: the page they read.
_PAGE_READ = {"test_counter_project_page_tells_the_project_first_then_the_parcel": "counter"}


def _modes_read(item) -> set[str]:
    """The modes whose page (_ModeVisit) ``item`` reads."""
    if item.originalname in _PAGE_READ:
        return {_PAGE_READ[item.originalname]}
    if item.originalname == "test_board_walk_through_from_the_case_link":
        return set()  # the Standard page's case only: read before its page is closed (_ModeVisits.close_unread)
    if "counter_answer" in item.fixturenames:
        return {"counter"}
    if "mode_visits" in item.fixturenames:
        mode = item.callspec.params.get("mode") if hasattr(item, "callspec") else None
        return {mode} if mode in MODES else set(MODES)
    return set()


@pytest.fixture()
def mode_visits(_mode_pages, request):
    """The module's page in each mode on the sample server (_ModeVisit); a screenshot of the page a test used, if
    it failed. After the test, the pages no later test reads are closed."""
    _mode_pages.last = None
    yield _mode_pages
    if _mode_pages.last is not None:
        shot_if_failed(request, _mode_pages.last)
    _mode_pages.close_unread(set().union(*map(_modes_read, _later_tests(request))))


def _to_desk(app) -> None:
    """Back to 1366x768 at the top of the page, as the search left it."""
    app.resize(1366, 768)
    app.page.evaluate(TO_TOP_JS)


@pytest.mark.parametrize("mode", MODES)
def test_the_mode_in_the_link_survives_a_reload_and_hides_the_toolbar(mode_visits, mode):
    seen = mode_visits.of(mode).reload()
    assert seen["checked before"]
    assert seen["checked after"]
    assert f"mode={mode}" in seen["url"]
    assert seen["menu"] is None, seen["menu"]
    assert seen["toolbar visible"] == (mode == "standard")
    assert not seen["Deploy visible"]


@pytest.mark.parametrize("mode", MODES)
def test_search_by_road_the_answer_and_the_map_layers(mode_visits, mode):
    """At 1366x768, then with the window widened to 1920x1080 (one search, both screen sizes checked)."""
    app = mode_visits.of(mode).found()
    page = app.page
    try:
        page.locator(MAP_IFRAME).scroll_into_view_if_needed(timeout=30_000)
        for size in VIEWPORTS:
            if size != VIEWPORTS[0]:
                app.resize(*size)
            frame = app.wait_map()
            overlays = frame.locator(".leaflet-control-layers-overlays").inner_text()
            assert "Wetland and watercourse buffers" in overlays and "Tax parcel lines" in overlays
            net = page.locator('[data-testid="stMetric"]').filter(has_text="Net lot area").first
            if mode == "counter":
                app.wait_text("What this means for your lot")
                assert page.get_by_role("button", name="Download the one-page handout (PDF)").is_visible()
            if mode == "projector":  # the finder folds away once a parcel is chosen: the figures on the first screen
                page.evaluate(TO_TOP_JS)
                top = net.bounding_box()
                assert top is not None and top["y"] >= 0 and top["y"] + top["height"] <= size[1] + 5, (size, top)
            app.shot(f"audience_{mode}_{size[0]}x{size[1]}")  # the whole page
            page.evaluate(TO_TOP_JS)
            page.screenshot(path=str(ARTIFACTS / f"audience_{mode}_{size[0]}x{size[1]}_first_screen.png"))  # room's view
        assert not app.non_tile_blocked()
    finally:  # the window as the other claims on this page find it
        _to_desk(app)


@pytest.mark.parametrize("mode", MODES)
def test_board_walk_through_from_the_case_link(sample_app, mode_visits, mode):
    """The walk-through opened from a case's link: six screens with previous / next, each with its §. (The case:
    the sample parcel found by its address, on the module's Standard page; no test changes it.)"""
    case = mode_visits.case()
    mode_visits.last = None  # a failure's screenshot is of this test's own page (sample_app's)
    app = sample_app
    page = app.page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{app.url}/walkthrough?case={case}&mode={mode}&step=1")
    titles = ["The parcel and its constraints", "Land that does not count", "Net lot area and yield",
              "Cluster triggers", "Permits and reviews", "Timeline"]
    for n, title in enumerate(titles, start=1):
        page.locator("h1").filter(has_text=title).wait_for(timeout=30_000)
        app.settle()
        assert page.get_by_text("The rule: §", exact=False).filter(visible=True).count() > 0
        page.wait_for_url(re.compile(rf"step={n}\b"), timeout=15_000)  # the step is written into the link
        page.screenshot(path=str(ARTIFACTS / f"audience_walkthrough_{mode}_{n}_1920x1080.png"))
        if n < len(titles):
            page.get_by_role("button", name="Next ▶").click()
    page.get_by_role("button", name="◀ Previous").click()
    page.locator("h1").filter(has_text=titles[-2]).wait_for(timeout=30_000)


class _IdentifyPage:
    """One page on the hand-built layers at 1920x1080 with tax parcel P1 chosen (the finder is open while no parcel
    is chosen, in every mode): opened from a link in the first mode a test asks for, then switched to the next mode
    in the sidebar, as a person does. Each test closes the last test's pop-up first."""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self.app = None

    def in_mode(self, mode: str):
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        import app_fixtures as fx

        if self.app is None:
            self.app = new_offline_page(self.contexts, self.url)
            self.app.page.set_viewport_size({"width": 1920, "height": 1080})
            self.app.open(f"/?mode={mode}")
            self.app.settle()
            self.app.choose_parcel(fx.P1_SBL)
            return self.app
        self.app.poll_map("() => { map_div.closePopup(); return true; }", bool)
        if not self.app.page.locator('[data-testid="stSidebar"]').get_by_role(
                "radio", name=mode.capitalize()).is_checked():
            self.app.switch_mode(mode.capitalize())
        return self.app


@pytest.fixture(scope="module")
def _identify_page(contexts, app_url):
    shared = _IdentifyPage(contexts, app_url)
    yield shared
    if shared.app is not None:
        shared.app.page.close()


@pytest.fixture()
def identify_page(_identify_page, request):
    """The module's page on the hand-built layers with P1 chosen (_IdentifyPage); a screenshot if the test failed.
    Closed after the last test that reads it (an open page with the map costs the browser CPU while others run)."""
    yield _identify_page
    if _identify_page.app is not None:
        shot_if_failed(request, _identify_page.app)
        if not any("identify_page" in item.fixturenames for item in _later_tests(request)):
            _identify_page.app.page.close()
            _identify_page.app = None


@pytest.mark.parametrize("mode", MODES)
def test_a_click_on_a_constraint_names_its_deduction_row_and_section(identify_page, mode):
    """Identify on click (picking off): the wetland's pop-up names the layer, its row and its §. Before the
    click, the wetland is seen hatched with the printed report's pattern."""
    import sys

    from pyproj import Transformer

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import app_fixtures as fx

    app = identify_page.in_mode(mode)
    app.page.locator(MAP_IFRAME).scroll_into_view_if_needed(timeout=30_000)
    frame = app.wait_map()
    app.wait_parcel_in_view()
    lon, lat = Transformer.from_crs("EPSG:2260", "EPSG:4326", always_xy=True).transform(
        *fx.WETLAND.centroid.coords[0])
    point = app.map_frame().evaluate(
        """([lat, lon]) => { const m = Object.values(window).find(v => v instanceof L.Map);
             const p = m.latLngToContainerPoint([lat, lon]); return [p.x, p.y]; }""", [lat, lon])
    container = frame.locator(".leaflet-container")
    _check_the_wetland_is_hatched(app, container, point, mode)
    app.idle()
    popup = frame.locator(".leaflet-popup-content")
    assert popup.count() == 0  # no pop-up before the click (an earlier test's is closed)
    box = container.bounding_box()  # read after the check brought the map into view: the page may have moved
    app.page.mouse.click(box["x"] + point[0], box["y"] + point[1])
    popup.wait_for(timeout=15_000)
    text = popup.inner_text()
    assert "Wetlands" in text and "Lot-area deduction row: Wetlands" in text and "§ 402-45A(1)" in text
    app.page.screenshot(path=str(ARTIFACTS / f"audience_identify_{mode}_1920x1080.png"))


WETLAND_GREEN = (0x33, 0xA0, 0x2C)  # app_support.frame.theme: wetlands


def _check_the_wetland_is_hatched(app, container, point: list[float], mode: str) -> None:
    """The wetland is filled with the PDF's dot pattern (a light tint crossed by dots of the full colour),
    not a flat wash: the map's wetland layer asks for the pattern, and the pixels around the point show it.

    ``point`` is in the map container's own pixels; the container's own screenshot is cut around it, so a page
    that moves while the answer fills in (the Counter's answer sits above the map) cannot put the point off screen.
    """
    import io

    from PIL import Image

    fills = app.map_frame().evaluate(
        """() => { const m = Object.values(window).find(v => v instanceof L.Map); const out = [];
             m.eachLayer(l => { if (l.feature && l.options && typeof l.options.fillColor === 'string')
                                  out.push(l.options.fillColor); });
             return {installed: !!L.Canvas.prototype._sloatHatch, fills: [...new Set(out)]}; }""")
    assert fills["installed"], fills
    assert "hatch:dots:#33a02c" in fills["fills"], fills
    half = 9  # one pattern tile (9 px) each way from the point, in CSS px
    x, y = point

    def tile() -> tuple[list, bool, bool]:
        image = Image.open(io.BytesIO(container.screenshot())).convert("RGB").crop(
            (round(x - half), round(y - half), round(x + half), round(y + half)))
        pixels = list(image.getdata())
        greenness = [g - (r + b) / 2 for r, g, b in pixels]
        # Dots of the full green (well above the tint) and tint between them: both in one tile.
        spread = max(greenness) - min(greenness) > 40
        green = any(abs(r - WETLAND_GREEN[0]) < 45 and abs(g - WETLAND_GREEN[1]) < 45
                    and abs(b - WETLAND_GREEN[2]) < 45 for r, g, b in pixels)
        return pixels, spread, green

    # The layer is in the map before the canvas has painted it (a busy machine): look again until it is painted,
    # for at most 10 s; the same two checks then decide.
    deadline = time.monotonic() + 10
    pixels, spread, green = tile()
    while not (spread and green) and time.monotonic() < deadline:
        app.page.wait_for_timeout(250)
        pixels, spread, green = tile()
    assert spread, (mode, sorted(set(pixels))[:6])
    assert green, (mode, sorted(set(pixels))[:6])


#: The Counter answer's first-screen parts, by their element keys.
ANSWER_PARTS = {"verdict": ".st-key-answer_verdict", "blockers": ".st-key-answer_blockers",
                "next step": ".st-key-answer_next", "handout button": ".st-key-handout_pdf"}


def _boxes(page) -> dict:
    boxes = {}
    for name, selector in ANSWER_PARTS.items():
        el = page.locator(selector).first
        el.wait_for(state="visible", timeout=30_000)
        boxes[name] = el.bounding_box()
    return boxes


def _counter_answer(sample_app, size: tuple[int, int]):
    """The Counter at ``size`` after the search by address, its answer shown and the page scrolled to its top."""
    app = _open(sample_app, "counter", size)
    _find_by_address(app)
    app.wait_text("What this means for your lot")
    app.page.evaluate(TO_TOP_JS)
    app.idle()
    return app


@pytest.fixture()
def counter_answer(mode_visits):
    """The Counter at 1366x768 after the search by address, its answer shown and the page scrolled to its top: the
    module's Counter page (_ModeVisit; each claim reads it as the search left it, and puts back what it unfolds)."""
    app = mode_visits.of("counter").found()
    _to_desk(app)
    app.wait_text("What this means for your lot")
    app.page.evaluate(TO_TOP_JS)
    app.idle()
    return app


def test_counter_answer_fits_the_first_screen_at_1366x768(counter_answer):
    """After the search, with no scrolling, the verdict, the three things in the way, the
    next step and the handout button are all within the 768 px window; the rest folds below (expanders)."""
    app = counter_answer
    page = app.page
    boxes = _boxes(page)
    page.screenshot(path=str(ARTIFACTS / "i24_counter_answer_1366x768_first_screen.png"))
    for name, b in boxes.items():
        assert b is not None and b["y"] >= 0 and b["y"] + b["height"] <= 768, (name, b)
    blockers = page.locator(".st-key-answer_blockers li")
    assert 1 <= blockers.count() <= 3
    card = page.locator(".st-key-answer_card")
    assert card.get_by_text("The whole answer: what your project needs", exact=False).is_visible()  # folded
    assert not card.get_by_text("What the parcel carries for any later work", exact=True).is_visible()
    # The disclaimer once on the page (the answer card's note), the permit sentences once.
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert text.count("Screening estimate only.") == 1, text.count("Screening estimate only.")
    card.get_by_text("The whole answer: what your project needs", exact=False).click()
    app.idle()  # (an expander opens in the page: no run)
    card.get_by_text("What the parcel carries for any later work", exact=True).wait_for(timeout=15_000)  # shown
    try:
        card.screenshot(path=str(ARTIFACTS / "i24_counter_answer_1366x768_unfolded.png"))  # the whole card
        whole = card.inner_text()
        sentences = [s for s in re.split(r"\n+", page.locator('[data-testid="stMain"]').inner_text())
                     if s.startswith("Work in that land would need")]
    finally:  # folded again, as the other claims on this page find it
        card.get_by_text("The whole answer: what your project needs", exact=False).click()
        app.idle()
    assert "What your project needs" in whole and "What the parcel carries for any later work" in whole
    assert whole.index("What your project needs") < whole.index("What the parcel carries for any later work")
    assert "in its own row" in whole  # the buffer's two figures explained in a word
    assert sentences and len(sentences) == len(set(sentences))
    assert not app.non_tile_blocked()


def test_counter_verdict_is_one_sentence_beside_the_handout_button_on_the_first_screen(counter_answer):
    """At 1366x768, after the search by address and with no scrolling: one plain sentence says whether a
    one-family house can fit, and the handout's button stands beside it, in the same row, both whole in the 768 px
    window."""
    app = counter_answer
    page = app.page
    verdict = page.locator(".st-key-answer_verdict").first
    button = page.locator(".st-key-handout_pdf button").first
    button.wait_for(state="visible", timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "counter_verdict_beside_handout_1366x768.png"))
    v, b = verdict.bounding_box(), button.bounding_box()
    print("verdict", v, "button", b)
    for name, box in (("verdict", v), ("button", b)):
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 768, (name, box)
    sentence = " ".join(verdict.inner_text().split()).removeprefix("What this means for your lot:").strip()
    assert "one-family house" in sentence and sentence.endswith("."), sentence
    assert len(re.findall(r"[.!?](?=\s|$)", sentence)) == 1, sentence  # one sentence
    # Beside: the button's middle level with the sentence's box, and no more than a gutter between them.
    middle = b["y"] + b["height"] / 2
    assert v["y"] <= middle <= v["y"] + v["height"], (v, b)
    gap = b["x"] - (v["x"] + v["width"])
    assert 0 <= gap <= 48, (gap, v, b)
    assert not app.non_tile_blocked()


def test_counter_answer_first_sentence_on_a_phones_first_screen(sample_app):
    """On a 390x844 phone the answer's first sentence is on the first screen after the search."""
    app = _counter_answer(sample_app, (390, 844))
    page = app.page
    verdict = page.locator(".st-key-answer_verdict").first
    verdict.wait_for(state="visible", timeout=30_000)
    b = verdict.bounding_box()
    page.screenshot(path=str(ARTIFACTS / "i24_counter_answer_390x844_first_screen.png"))
    # The first sentence's first line is on the screen (the box starts above the fold by at least a line).
    assert b is not None and 0 <= b["y"] and b["y"] + 48 <= 844, b
    first_line = page.evaluate("""() => { const el = document.querySelector('.st-key-answer_verdict p');
        const r = document.createRange(); r.selectNodeContents(el); const rects = r.getClientRects();
        const first = el.textContent.split(/(?<=[.:])\\s/)[0];
        return {top: rects[0].top, bottom: rects[Math.min(rects.length, Math.ceil(first.length / 30)) - 1].bottom}; }""")
    assert first_line["bottom"] <= 844, first_line
    assert not app.non_tile_blocked()


def test_counter_handout_button_label_is_whole_at_1366x768(counter_answer):
    """The button says what it does, whole, beside the next step."""
    app = counter_answer
    button = app.page.locator(".st-key-handout_pdf button").first
    button.wait_for(state="visible", timeout=30_000)
    assert button.inner_text().strip().endswith("Download the one-page handout (PDF)")
    clipped = button.evaluate("""b => [...b.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1
        && getComputedStyle(e).textOverflow === 'ellipsis')""")
    assert not clipped


def test_counter_district_menu_shows_every_option_whole(counter_answer):
    """The Counter district menu is not cut off (each option whole, the list on screen)."""
    app = counter_answer
    page = app.page
    picker = page.locator('[data-testid="stSelectbox"]').filter(has_text="Zoning district").first
    picker.scroll_into_view_if_needed(timeout=30_000)
    chosen = picker.locator('input[role="combobox"]')
    assert chosen.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the chosen district is cut off"
    options = page.get_by_role("option")
    for attempt in range(3):  # a late rerun of the map's fragment (its view coming back) can close the open menu
        picker.get_by_role("button", name="Open").click()
        try:
            options.first.wait_for(state="visible", timeout=5_000)
            break
        except Exception:  # noqa: BLE001 (closed by a rerun: wait for it to end, then open it again)
            if attempt == 2:
                raise
            app.idle()
    try:
        texts = options.all_inner_texts()
        cut = page.evaluate("""() => [...document.querySelectorAll('[role="option"]')].filter(o =>
            [...o.querySelectorAll('*'), o].some(e => e.scrollWidth > e.clientWidth + 1)).map(o => o.innerText)""")
        page.screenshot(path=str(ARTIFACTS / "i24_counter_district_menu_1366x768.png"))
        box = page.get_by_role("listbox").bounding_box()
    finally:  # closed, as the other claims on this page find it
        page.keyboard.press("Escape")
    assert "VC-2 Village Center Extension" in texts and "From the zoning map" in texts, texts
    assert cut == [], cut
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1366, box


def test_counter_figures_show_every_number_whole(counter_answer):
    """The figures opened at 1366x768: every number and name of the waterfall is inside its picture. In the narrow
    counter column, with the long everyday row names on the left, the gross area's figure beyond its bar once lost its
    last digit at the picture's right edge ("79,69" for 79,694 sq ft). The figures are folded again after."""
    page = counter_answer.page
    figures = page.get_by_text("The figures:", exact=False).first
    figures.click()
    try:
        page.wait_for_selector(".js-plotly-plot text", timeout=20_000)
        chart = page.locator(".js-plotly-plot").first
        chart.scroll_into_view_if_needed()
        counter_answer.idle()
        chart.screenshot(path=str(ARTIFACTS / "audience_counter_figures_chart_1366x768.png"))
        cut = page.evaluate(CHART_TEXTS_CUT_JS)
    finally:
        figures.click()  # folded again: the other claims read the page as the search left it
        counter_answer.idle()
    assert cut == [], cut


def test_counter_project_page_tells_the_project_first_then_the_parcel(mode_visits):
    """At 1366x768: three trees to cut on the sample lot need the tree permit; the county
    agency, the flood zone review and SEQRA are not "likely needed" for it; the land's permits follow under
    their own heading; the sewer questions are asked at the counter. (On the module's Counter page after the search
    by address; the test leaves it on another page with a project typed: the next test to need it gets a new one.)"""
    visit = mode_visits.of("counter")
    app = visit.found()
    visit.spent = True
    _to_desk(app)
    page = app.page
    page.locator('[data-testid="stSidebarNav"]').get_by_text("Proposed project", exact=True).click()
    page.locator("h1", has_text="Proposed project").first.wait_for(timeout=30_000)
    app.settle()
    assert page.get_by_text("New sanitary (septic or sewer) facilities?").first.is_visible()
    trees = page.get_by_label("Trees to be removed")
    trees.fill("3")
    trees.press("Enter")
    app.wait_text("You will likely need a tree removal permit")
    app.settle()
    main = page.locator('[data-testid="stMain"]')
    text = main.inner_text()
    assert text.index("What your project needs") < text.index("What the parcel carries for any later work")
    project_part = text[text.index("What your project needs"):text.index("What the parcel carries for any later work")]
    for land in ("flood zone review", "Rockland County Drainage Agency", "SEQRA"):
        assert f"You will likely need a {land}" not in project_part and f"likely need an {land}" not in project_part
    assert "Work in that land would need a flood zone review" in text
    page.get_by_role("heading", name="What your project needs").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "i24_counter_project_1366x768.png"))
    assert page.locator('[data-testid="stException"]').count() == 0
