"""Getting around in a real browser: the page menu and the mode switch on a phone, Back and Forward.

On a 390x844 phone in Counter mode the sidebar's open button was 0x0 px (the toolbar that
holds it was hidden), so nobody could leave the first page. Item 3: each page change made two or three
history entries and Back seemed to do nothing. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ARTIFACTS

PHONE = {"width": 390, "height": 844}
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


@pytest.mark.parametrize("mode", MODES)
def test_a_phone_reaches_the_page_menu_and_the_mode_switch(app, mode):
    """At 390x844 the sidebar's open control is visible and at least 24x24 px; through it a person goes to
    another page and switches the mode, and the sidebar then gets out of the way of the page."""
    page = app.page
    page.set_viewport_size(PHONE)
    app.open(f"/?mode={mode}")
    app.settle()
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
def test_back_and_forward_move_one_page_at_a_time(app, mode):
    """A -> B -> C adds one history entry per page; Back twice lands on A, Forward on B."""
    page = app.page
    page.set_viewport_size({"width": 1366, "height": 768})
    app.open(f"/?mode={mode}")  # the root first: the test server is plain `streamlit run`, not tools/serve.py
    app.settle()
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


def test_a_mode_switch_is_not_a_history_entry(app):
    """Switching the display mode rewrites the link (so a copy keeps it) without adding a Back step."""
    page = app.page
    page.set_viewport_size({"width": 1366, "height": 768})
    app.open("/?mode=standard")
    app.settle()
    _open_sidebar(page)
    start = _history_length(app)
    app.switch_mode("Counter")
    page.wait_for_url(re.compile(r"mode=counter\b"), timeout=15_000)
    assert _history_length(app) == start
