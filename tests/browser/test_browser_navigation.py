"""Getting around in a real browser: the page menu and the mode switch on a phone, Back and Forward.

On a 390x844 phone in Counter mode the sidebar's open button was 0x0 px (the toolbar that
holds it was hidden), so nobody could leave the first page. Item 3: each page change made two or three
history entries and Back seemed to do nothing. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.a11y_visit import POLL_MS, SIDEBAR_AT_REST_JS
from tests.browser.conftest import ARTIFACTS, new_offline_page, shot_if_failed

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1366, "height": 768}
MODES = ["counter", "standard", "projector"]
NAV = '[data-testid="stSidebarNav"]'
OPEN_SIDEBAR = '[data-testid="stExpandSidebarButton"]'


CLOSE_SIDEBAR = '[data-testid="stSidebarCollapseButton"] button'


def _close_sidebar(page) -> None:
    """Close the sidebar if it is open (the browser remembers an open sidebar from an earlier page)."""
    if page.locator(CLOSE_SIDEBAR).is_visible():
        page.locator(CLOSE_SIDEBAR).click()
    page.locator(OPEN_SIDEBAR).wait_for(state="visible", timeout=10_000)


def _open_sidebar(page) -> None:
    """Open the sidebar if it is folded (the browser remembers a folded sidebar from an earlier page)."""
    if page.locator(OPEN_SIDEBAR).is_visible():
        page.locator(OPEN_SIDEBAR).click()
    page.locator(NAV).wait_for(state="visible", timeout=10_000)


def _h1(app) -> str:
    return app.page.locator("h1").first.inner_text().strip()


def _history_length(app) -> int:
    return app.page.evaluate("() => history.length")


def _in_mode(app, mode: str) -> None:
    """Switch the session to ``mode`` in the sidebar unless it is shown already."""
    if not app.page.locator('[data-testid="stSidebar"]').get_by_role("radio", name=mode.capitalize()).is_checked():
        app.switch_mode(mode.capitalize())


class _SharedPage:
    """One page (one visitor's session) for several claims: opened from a link in the mode and at the window size the
    first claim asks for; each later claim sizes the window to its own (as a person turns a tablet, or moves the
    window to another screen), waits for the sidebar to come to rest, and comes to its own mode in the sidebar, as a
    person switches it, and, with ``first_page``, back to the first page (the Parcel page) from the page menu. (A
    fresh page costs a new session: the app, its map, a script run.)"""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self.app = None
        self.size: dict | None = None

    def in_mode(self, mode: str, size: dict, *, first_page: bool = False):
        if self.app is None:
            self.app = new_offline_page(self.contexts, self.url)
            self.app.page.set_viewport_size(size)
            self.size = size
            self.app.open(f"/?mode={mode}")  # the root first: the test server is plain `streamlit run`
            self.app.settle()
            return self.app
        page = self.app.page
        if size != self.size:
            self.app.resize(size["width"], size["height"])  # a change of size asks for no run
            self.size = size
            page.evaluate("() => { window.__sloatLastShown = undefined; }")
            page.wait_for_function(SIDEBAR_AT_REST_JS, timeout=15_000, polling=POLL_MS)
        if first_page and _h1(self.app) != "Parcel & constraints":
            self.app.open_sidebar()
            page.locator(NAV).get_by_text("Parcel & constraints", exact=True).click()
            page.locator("h1").filter(has_text="Parcel & constraints").wait_for(timeout=30_000)
            self.app.settle()
        _in_mode(self.app, mode)
        return self.app

    def close(self) -> None:
        if self.app is not None:
            self.app.page.close()


@pytest.fixture(scope="module")
def _shared(contexts, app_url):
    shared = _SharedPage(contexts, app_url)
    yield shared
    shared.close()


class _AtSize:
    """The module's page (_SharedPage) as one claim asks for it: at ``size``."""

    def __init__(self, shared: _SharedPage, size: dict):
        self.shared, self.size = shared, size

    @property
    def app(self):
        return self.shared.app

    def in_mode(self, mode: str, *, first_page: bool = False):
        return self.shared.in_mode(mode, self.size, first_page=first_page)


@pytest.fixture()
def phone(_shared, request):
    """The module's page on a 390x844 phone (_SharedPage); a screenshot if the test failed."""
    yield _AtSize(_shared, PHONE)
    if _shared.app is not None:
        shot_if_failed(request, _shared.app)


@pytest.fixture()
def desk(_shared, request):
    """The module's page at 1366x768 (_SharedPage); a screenshot if the test failed."""
    yield _AtSize(_shared, DESK)
    if _shared.app is not None:
        shot_if_failed(request, _shared.app)


@pytest.mark.parametrize("mode", MODES)
def test_a_phone_reaches_the_page_menu_and_the_mode_switch(phone, mode):
    """At 390x844 the sidebar's open control is visible and at least 24x24 px; through it a person goes to
    another page and switches the mode, and the sidebar then gets out of the way of the page. (One phone's session
    for the three modes: each starts on the first page in its mode.)"""
    app = phone.in_mode(mode, first_page=True)
    page = app.page
    _close_sidebar(page)
    opener = page.locator(OPEN_SIDEBAR)
    assert opener.is_visible(), "no way to open the sidebar on a phone"
    box = opener.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24, box
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    page.screenshot(path=str(ARTIFACTS / f"i24_2_phone_{mode}_closed.png"))

    opener.click()
    page.locator(NAV).get_by_text("Timeline", exact=True).wait_for(state="visible", timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / f"i24_2_phone_{mode}_menu.png"))
    page.locator(NAV).get_by_text("Timeline", exact=True).click()
    page.locator("h1").filter(has_text="Timeline").wait_for(timeout=30_000)
    app.settle()
    # the sidebar closed after the choice: the page is readable and the opener is back
    page.locator(OPEN_SIDEBAR).wait_for(state="visible", timeout=10_000)
    title = page.locator("h1").filter(has_text="Timeline").bounding_box()
    assert title is not None and title["x"] >= 0 and title["x"] + title["width"] <= PHONE["width"] + 1, title
    page.screenshot(path=str(ARTIFACTS / f"i24_2_phone_{mode}_timeline.png"))

    other = "Standard" if mode != "standard" else "Counter"
    page.locator(OPEN_SIDEBAR).click()
    page.locator('[data-testid="stSidebar"]').get_by_text(other, exact=True).click()
    app.settle()
    page.wait_for_url(re.compile(rf"mode={other.lower()}\b"), timeout=15_000)
    assert "/timeline" in page.url and _h1(app) == "Timeline"
    page.screenshot(path=str(ARTIFACTS / f"i24_2_phone_{mode}_switched.png"))
    assert not app.non_tile_blocked()


@pytest.mark.parametrize("mode", ["standard", "counter"])
def test_back_and_forward_move_one_page_at_a_time(desk, mode):
    """A -> B -> C adds one history entry per page; Back twice lands on A, Forward on B. (One session at 1366x768 for
    both modes and the mode switch below.)"""
    app = desk.in_mode(mode)
    page = app.page
    _open_sidebar(page)
    page.locator(NAV).get_by_text("Proposed project", exact=True).click()
    page.wait_for_url(re.compile(r"/project\b"), timeout=30_000)
    app.settle()
    start = _history_length(app)
    pages = [("Cluster", "/cluster"), ("Timeline", "/timeline")]
    for n, (label, path) in enumerate(pages, start=1):
        page.locator(NAV).get_by_text(label, exact=True).click()
        page.wait_for_url(re.compile(re.escape(path) + r"\b"), timeout=30_000)
        app.settle()
        assert _history_length(app) == start + n, f"{label}: {_history_length(app) - start} entries after {n} pages"
        assert f"mode={mode}" in page.url  # the mode stays in the link, in the same entry
    page.go_back()
    page.locator("h1").filter(has_text="Cluster").wait_for(timeout=30_000)
    app.settle()
    page.go_back()
    page.locator("h1").filter(has_text="Proposed project").wait_for(timeout=30_000)
    app.settle()
    assert "/project" in page.url and _h1(app) == "Proposed project"
    assert _history_length(app) == start + 2  # going back made no entries
    page.go_forward()
    page.locator("h1").filter(has_text="Cluster").wait_for(timeout=30_000)
    app.settle()
    assert "/cluster" in page.url
    page.screenshot(path=str(ARTIFACTS / f"i24_3_forward_{mode}.png"))


def test_a_mode_switch_is_not_a_history_entry(desk):
    """Switching the display mode rewrites the link (so a copy keeps it) without adding a Back step."""
    app = desk.in_mode("standard")
    page = app.page
    _open_sidebar(page)
    start = _history_length(app)
    app.switch_mode("Counter")
    page.wait_for_url(re.compile(r"mode=counter\b"), timeout=15_000)
    assert _history_length(app) == start
