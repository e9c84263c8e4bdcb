"""WCAG 2.1.1: each audience's errand done with the keyboard alone (Tab, Shift+Tab, Enter, typing, and
the presenter's PageDown / PageUp), never the mouse, on the hand-built app layers at 1366x900.

- Counter: a fresh page, Tab to the finder, type the address, Enter; the focus lands on the answer; Tab to the
  handout button, Enter: the PDF downloads.
- Standard: Tab to the finder (no upload), type the SBL, Enter; Tab from the answer past the deduction table to
  its rows' § links; Shift+Tab back to the sidebar's "Case & exports", Enter; Tab to "Lot-area deductions (CSV)", Enter: the
  table downloads.
- Projector: find the parcel the same way, Shift+Tab to the sidebar's "Board walk-through", Enter; PageDown
  through its six screens, PageUp back one.

Each stop of a walk is printed; a screenshot is kept at the end of each (tests/artifacts/a11y_keyboard_*.png).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import announce  # noqa: E402
from browser.a11y_visit import Runs  # noqa: E402
from browser.a11y_visit import settle as run_settled  # noqa: E402
from browser.conftest import POLL_MS  # noqa: E402

pytestmark = pytest.mark.browser

ADDRESS = "1 Test Road"  # tax parcel P1 of tests/app_fixtures.py
FOCUSED_JS = """() => { const el = document.activeElement;
  return el ? (el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || '').trim()).slice(0, 60) : ''; }"""
SBL_BOX = """el => el.tagName === 'INPUT' && ([...(el.labels || [])].some(l => l.textContent.includes('Tax parcel (SBL'))
  || (el.getAttribute('aria-label') || '').includes('Tax parcel (SBL'))"""
TITLES = ["The parcel and its constraints", "Land that does not count", "Net lot area and yield",
          "Cluster triggers", "Permits and reviews", "Timeline"]


def _nav_link(label: str) -> str:
    return ("el => !!el.closest('[data-testid=\"stSidebarNav\"]') && el.tagName === 'A' "
            f"&& el.textContent.trim().endsWith({label!r})")  # after the icon's name


def _tab_until(page, predicate: str, *, key: str = "Tab", most: int = 80) -> list[str]:
    """Press ``key`` until ``predicate(document.activeElement)`` holds; the stops passed, for the output."""
    stops = []
    where = f"() => [({FOCUSED_JS})(), !!document.activeElement && ({predicate})(document.activeElement)]"
    for _ in range(most):
        page.keyboard.press(key)
        stop, reached = page.evaluate(where)  # the stop and whether it is the target, in one look
        stops.append(stop)
        if reached:
            return stops
    raise AssertionError(f"{key} x {most} never reached the target; stops: {stops}")


def _fresh(app, path: str) -> None:
    """A fresh page on ``path``, its session's runs watched from before it opens (``browser.a11y_visit.Runs``)."""
    app.page.set_viewport_size({"width": 1366, "height": 900})
    app.runs = Runs(app.page)
    app.open(path)
    app.settle()  # the page opened asks for its run
    app.page.wait_for_function("() => !!document.querySelector('a.sloat-skip')", timeout=15_000, polling=POLL_MS)


def _find_by_keyboard(app, text: str) -> None:
    """From the top of the page: Tab to the finder's box, type, Enter; the focus then moves to the answer."""
    page = app.page
    stops = _tab_until(page, SBL_BOX)
    print("to the finder:", stops)
    assert stops[0].startswith("A " + announce.SKIP_MAIN_TEXT), stops  # the first stop: the skip link
    asked = app.runs.asked
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    app.wait_text(f"Tax parcel {fx.P1_SBL}")
    page.wait_for_function(f"() => document.activeElement.id === '{announce.ANSWER_ID}'", timeout=15_000, polling=POLL_MS)
    run_settled(app, asked)  # the search's run is over


def test_counter_find_by_address_then_the_handout_by_keyboard(app):
    page = app.page
    _fresh(app, "/?mode=counter")
    _find_by_keyboard(app, ADDRESS)
    stops = _tab_until(page, "el => el.tagName === 'BUTTON' && !!el.closest('.st-key-handout_pdf')")
    print("answer to the handout:", stops)
    assert len(stops) <= 12, stops  # the handout is near the answer's start, not past the map
    with page.expect_download(timeout=60_000) as download:
        page.keyboard.press("Enter")
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
    app.shot("a11y_keyboard_counter")


def test_standard_finder_then_the_deduction_table_then_its_download_by_keyboard(app):
    page = app.page
    _fresh(app, "/")
    _find_by_keyboard(app, fx.P1_SBL)
    # The table itself holds no control: its rows' § links follow it, the first the wetlands row's § 402-45A(1).
    stops = _tab_until(page, "el => el.tagName === 'A' && el.textContent.trim() === '§ 402-45A(1)'")
    print("answer to the deduction table's links:", stops)
    assert page.evaluate("""() => { const t = [...document.querySelectorAll('[data-testid="stTable"], .sloat-dtable')]
        .find(x => x.innerText.includes('Wetlands'));
        return !!t && !!(t.compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    stops = _tab_until(page, _nav_link("Case & exports"), key="Shift+Tab")
    print("back to the sidebar:", stops)
    asked = app.runs.asked
    page.keyboard.press("Enter")
    page.locator("h1").first.wait_for(timeout=30_000)
    run_settled(app, asked)  # the Case & exports page's run is over
    stops = _tab_until(page, "el => el.tagName === 'BUTTON' && el.textContent.includes('Lot-area deductions (CSV)')",
                       most=120)
    print("to the download:", stops)
    with page.expect_download(timeout=60_000) as download:
        page.keyboard.press("Enter")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "Wetlands" in text, text[:300]
    app.shot("a11y_keyboard_standard")


def test_projector_walk_through_with_page_down(app):
    page = app.page
    _fresh(app, "/?mode=projector")
    _find_by_keyboard(app, fx.P1_SBL)
    stops = _tab_until(page, _nav_link("Board walk-through"), key="Shift+Tab")
    print("back to the sidebar:", stops)
    assert not [s for s in stops if "Map layers" in s], stops  # the map's layer menu comes after the answer
    page.keyboard.press("Enter")
    for n, title in enumerate(TITLES, start=1):
        page.locator("h1").filter(has_text=title).wait_for(timeout=30_000)
        page.wait_for_url(re.compile(rf"step={n}\b"), timeout=15_000)
        app.settle()
        if n < len(TITLES):
            page.keyboard.press("PageDown")
    app.shot("a11y_keyboard_projector_last_screen")
    page.keyboard.press("PageUp")
    page.locator("h1").filter(has_text=TITLES[-2]).wait_for(timeout=30_000)
    page.wait_for_url(re.compile(rf"step={len(TITLES) - 1}\b"), timeout=15_000)
