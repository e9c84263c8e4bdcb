"""The page scrolls over the map until the map is used, in chromium.

At 1366x768 (a clerk's laptop): three wheel notches over the map scroll the page and leave the map's zoom
as it was, with the hint "Ctrl + scroll to zoom the map" on the map; Ctrl + wheel zooms it; after a click
on the map the wheel zooms it and the page stays. At 390x844 (a phone, touch): a one-finger swipe that
starts on the map scrolls the page and leaves the map where it was; the map moves with two fingers
(Leaflet's one-finger dragging off, its touch-action "pan-x pan-y", pinch zoom on). Screenshots in
tests/artifacts/ (map_scroll_*.png).
"""

from __future__ import annotations

import pytest

from browser.conftest import ARTIFACTS, MAP_IFRAME, OfflinePage

pytestmark = pytest.mark.browser

#: How far the page has scrolled: the window's and every scrolled element's (Streamlit scrolls its main block).
SCROLLED_JS = """() => window.scrollY + [...document.querySelectorAll('*')]
  .reduce((sum, el) => sum + (el.scrollTop || 0), 0)"""
ZOOM_JS = "() => map_div.getZoom()"
CENTRE_JS = "() => { const c = map_div.getCenter(); return [c.lat, c.lng]; }"


def _page(browser, app_url, **context_args) -> tuple:
    context = browser.new_context(**context_args)
    page = context.new_page()
    app = OfflinePage(page, app_url, [])
    app.open("/")
    app.wait_map()
    app.settle()
    return context, app


def _map_point(app) -> tuple[float, float]:
    """A point on the map inside the window (its visible middle)."""
    box = app.page.locator(MAP_IFRAME).bounding_box()
    height = app.page.viewport_size["height"]
    top, bottom = max(box["y"], 0), min(box["y"] + box["height"], height)
    assert bottom - top > 100, f"the map is not in the window: {box}"
    return box["x"] + box["width"] / 2, (top + bottom) / 2


def _swipe(cdp, page, x: float, y: float, dy: float) -> None:
    """One finger put down at (x, y) and moved ``dy`` px down in ten steps, as chromium gets it from a screen."""
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y + dy * i / 10}]})
        page.wait_for_timeout(16)  # a frame apart, as a finger moves
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _shot(app, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    app.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))  # the window as seen, not the whole page


def test_the_wheel_over_the_map_scrolls_the_page_until_the_map_is_clicked(browser, app_url):
    context, app = _page(browser, app_url, viewport={"width": 1366, "height": 768})
    try:
        page = app.page
        page.locator(MAP_IFRAME).scroll_into_view_if_needed()
        page.mouse.wheel(0, -10_000)  # back to the top, over the page (not the map)
        page.wait_for_timeout(300)
        x, y = _map_point(app)
        zoom0 = app.map_frame().evaluate(ZOOM_JS)
        scrolled0 = page.evaluate(SCROLLED_JS)
        page.mouse.move(x, y)
        for _ in range(3):  # three notches, as the walk-through did
            page.mouse.wheel(0, 100)
            page.wait_for_timeout(80)
        hint = app.map_frame().locator(".sloat-scroll-hint.sloat-shown")
        hint.wait_for(timeout=2_000)
        assert "Ctrl + scroll to zoom" in hint.inner_text()
        _shot(app, "map_scroll_1366_wheel_scrolls_page")
        page.wait_for_timeout(400)  # smooth scrolling ends
        scrolled1 = page.evaluate(SCROLLED_JS)
        assert scrolled1 > scrolled0 + 100, (scrolled0, scrolled1)
        assert app.map_frame().evaluate(ZOOM_JS) == zoom0  # the map did not zoom

        x, y = _map_point(app)
        page.mouse.move(x, y)
        page.keyboard.down("Control")
        page.mouse.wheel(0, -100)  # Ctrl + wheel up: the map zooms in, the page stays
        page.keyboard.up("Control")
        zoomed = app.poll_map(ZOOM_JS, lambda z: z is not None and z > zoom0, timeout_ms=3_000)
        assert zoomed > zoom0
        assert abs(page.evaluate(SCROLLED_JS) - scrolled1) < 2

        page.mouse.click(x, y)  # the map is now in use
        app.settle()
        x, y = _map_point(app)
        page.mouse.move(x, y)
        scrolled2 = page.evaluate(SCROLLED_JS)
        page.mouse.wheel(0, 100)  # wheel down: the map zooms out
        out = app.poll_map(ZOOM_JS, lambda z: z is not None and z < zoomed, timeout_ms=3_000)
        assert out < zoomed
        page.wait_for_timeout(300)
        assert abs(page.evaluate(SCROLLED_JS) - scrolled2) < 2  # and the page did not scroll
        assert not app.map_frame().locator(".sloat-scroll-hint.sloat-shown").count()
        _shot(app, "map_scroll_1366_after_click_wheel_zooms")

        page.mouse.move(x, 5)  # the pointer leaves the map: the wheel scrolls the page again
        page.mouse.move(x, y)
        page.mouse.wheel(0, 100)
        page.wait_for_timeout(400)
        assert page.evaluate(SCROLLED_JS) > scrolled2 + 50
        assert app.map_frame().evaluate(ZOOM_JS) == out
    finally:
        context.close()


def test_on_a_phone_one_finger_scrolls_the_page_over_the_map(browser, app_url):
    context, app = _page(browser, app_url, viewport={"width": 390, "height": 844}, device_scale_factor=2,
                         is_mobile=True, has_touch=True)
    try:
        page = app.page
        frame = app.map_frame()
        assert frame.evaluate("() => matchMedia('(pointer: coarse)').matches")
        assert frame.evaluate("() => map_div.dragging.enabled()") is False
        assert frame.evaluate("() => map_div.touchZoom.enabled()") is True
        assert frame.evaluate("() => getComputedStyle(map_div.getContainer()).touchAction") == "pan-x pan-y"
        page.locator(MAP_IFRAME).scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        box = page.locator(MAP_IFRAME).bounding_box()
        # the map at the bottom of the window (the finder above it): the swipe pulls the page down
        page.evaluate(f"() => {{ const m = document.querySelector('{MAP_IFRAME}'); m.scrollIntoView({{block: 'end'}}); }}")
        page.wait_for_timeout(300)
        x, y = _map_point(app)
        centre0 = frame.evaluate(CENTRE_JS)
        scrolled0 = page.evaluate(SCROLLED_JS)
        cdp = context.new_cdp_session(page)
        _swipe(cdp, page, x, y, 200)  # a finger put on the map and moved 200 px down
        page.wait_for_timeout(500)
        _shot(app, "map_scroll_390_swipe_scrolls_page")
        scrolled1 = page.evaluate(SCROLLED_JS)
        assert scrolled1 < scrolled0 - 150, (scrolled0, scrolled1, box)  # the page came down with the finger
        centre1 = app.map_frame().evaluate(CENTRE_JS)
        assert abs(centre1[0] - centre0[0]) < 1e-9 and abs(centre1[1] - centre0[1]) < 1e-9  # the map stayed

        # As it was before (Leaflet's one-finger dragging on): the same swipe moves the map, not the page.
        app.map_frame().evaluate("() => map_div.dragging.enable()")
        x, y = _map_point(app)
        _swipe(cdp, page, x, y, 200)
        page.wait_for_timeout(500)
        assert abs(page.evaluate(SCROLLED_JS) - scrolled1) < 2
        assert app.map_frame().evaluate(CENTRE_JS)[0] > centre1[0]  # the map was pulled down: its centre is north
    finally:
        context.close()
