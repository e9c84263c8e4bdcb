"""Accessibility on the Parcel page in a real browser: the Tab order, the one skip link, the map's labels in words.

- Standard mode, 1440x900: from the finder, Tab reaches the answer's controls before any of the map's (its layer
  menu, basemap, check boxes, the map's frame): the answer's column comes first in the page (WCAG 2.4.3, 1.3.2).
- One skip link per page (2.4.1): Streamlit's own "Skip to main content" is hidden, ours is the first Tab stop;
  on the Parcel page with an answer it goes to the answer, on a page with none to the page's heading.
- The SBL labels the map draws are also in the text beside it (1.1.1: "the map's content is fully in the text").

One page serves the claims read with P1 found (a new Streamlit session at 1440x900: the Parcel page, P1 found by
its SBL, the focus seen to move to the answer); each test starts from its own place on it (the window's size, the
focus put in the search box) and only presses keys. The page with no answer is a fresh page of its own.

Screenshots: tests/artifacts/a11y_parcel_standard_1440x900*.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import announce  # noqa: E402
from browser.a11y_visit import Visit, resize  # noqa: E402
from browser.conftest import POLL_MS, ARTIFACTS, MAP_IFRAME, new_offline_page  # noqa: E402

pytestmark = pytest.mark.browser

#: Where the focused element is: sidebar, finder, answer (the column holding the answer's focus target), map (the
#: column holding the map's frame, the frame itself included), skip, or other; with its tag and words.
WHERE_JS = """([answerId, mapSel]) => {
  const el = document.activeElement;
  if (!el || el === document.body) return ['none', ''];
  const what = (el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || '').trim()).slice(0, 50);
  const answer = document.getElementById(answerId), frame = document.querySelector(mapSel);
  const answerCol = answer && answer.closest('[data-testid="stColumn"]');
  const mapCol = frame && frame.closest('[data-testid="stColumn"]');
  let where = 'other';
  if (el.classList.contains('sloat-skip')) where = 'skip';
  else if (el.closest('[data-testid="stSidebar"]')) where = 'sidebar';
  else if (el.closest('[data-testid="stExpander"]') && (el.closest('[data-testid="stExpander"]')
           .querySelector('summary') || {}).textContent.includes('Find or upload')) where = 'finder';
  else if (answerCol && answerCol.contains(el)) where = 'answer';
  else if (el === frame || (mapCol && mapCol.contains(el))) where = 'map';
  return [where, what];
}"""

#: Every element a Tab can reach whose words start with "Skip" (shown, or off-screen until focused; not
#: display:none), and whether the first of them is the first Tab stop of the page.
SKIP_LINKS_JS = """() => {
  const sel = 'a[href], button, input, select, textarea, [tabindex]';
  const tabbable = [...document.querySelectorAll(sel)].filter(e => e.tabIndex >= 0 && !e.disabled
      && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden');
  const skips = tabbable.filter(e => /^skip/i.test((e.textContent || '').trim()));
  const streamlits = document.querySelectorAll('[data-testid="stSkipToContent"]').length;
  return {skips: skips.map(e => e.className || e.getAttribute('data-testid') || e.tagName),
          first: tabbable.length ? tabbable[0].className : null, streamlits};
}"""


class P1Page:
    """The Parcel page at 1440x900 with tax parcel P1 found by its SBL, made when a test first asks for it (made
    again on a fresh session if making it failed); whether the focus then moved to the answer is kept."""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self.app = None
        self.found = Visit("Standard", "Parcel & constraints")

    def get(self):
        if self.app is None:
            app = new_offline_page(self.contexts, self.url)
            try:
                app.page.set_viewport_size({"width": 1440, "height": 900})
                app.open()
                app.wait_map()
                app.choose_parcel(fx.P1_SBL)
            except Exception:
                app.page.close()
                raise
            self.found.measure("focus after the search", lambda: app.page.wait_for_function(
                f"() => document.activeElement.id === '{announce.ANSWER_ID}'", timeout=15_000, polling=POLL_MS) and True)
            self.app = app
        return self.app

    def close(self) -> None:
        if self.app is not None:
            self.app.page.close()


@pytest.fixture(scope="module")
def p1_page(contexts, app_url):
    shared = P1Page(contexts, app_url)
    yield shared
    shared.close()


def _tab_walk(page, stops: int) -> list[list[str]]:
    walk = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        walk.append(page.evaluate(WHERE_JS, [announce.ANSWER_ID, MAP_IFRAME]))
        if walk[-1][0] == "map" and walk[-1][1].startswith("IFRAME"):
            break  # into the map's frame: its own stops follow, the page's order is settled
    return walk


def test_standard_tab_order_is_finder_then_answer_then_map(p1_page):
    """1440x900, Standard, P1 found: Tab from the SBL box passes the finder, then the answer's column, and only
    then the map's column (its controls, then its frame); the answer's column is before the map's in the page."""
    app = p1_page.get()
    page = app.page
    resize(page, 1440, 900)  # a window's size starts no run: the page is still once laid out for it
    app.wait_text("Net lot area")
    page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "a11y_parcel_standard_1440x900_first_screen.png"))
    app.shot("a11y_parcel_standard_1440x900")
    order = page.evaluate("""([answerId, mapSel]) => {
        const a = document.getElementById(answerId).closest('[data-testid="stColumn"]');
        const m = document.querySelector(mapSel).closest('[data-testid="stColumn"]');
        return !!a && !!m && a !== m && !!(a.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""", [announce.ANSWER_ID, MAP_IFRAME])
    assert order, "the answer's column must come before the map's in the page"
    page.get_by_label("Tax parcel (SBL", exact=False).focus()
    walk = _tab_walk(page, 60)
    places = [w[0] for w in walk]
    print("Tab stops from the finder:", *walk, sep="\n  ")
    assert "answer" in places and "map" in places, walk
    first_answer, first_map = places.index("answer"), places.index("map")
    last_answer = len(places) - 1 - places[::-1].index("answer")
    assert first_answer < first_map and last_answer < first_map, walk
    assert set(places[:first_answer]) <= {"finder"}, walk  # nothing but the finder before the answer
    assert set(places[first_map:]) == {"map"}, walk  # after the answer: the map's controls, then its frame
    assert not [w for w in walk if w[1].strip() == "IFRAME"], walk  # no empty stop (the announcer's frame)
    # The map's controls are among the map's stops (the layer menu is the first of them).
    assert any("Constraint layers" in w[1] or w[1].startswith("INPUT") for w in walk[first_map:]), walk


def test_one_skip_link_and_it_goes_to_the_answer(app, p1_page):
    """A page with no answer: one skip link, the first Tab stop, "Skip to the main content", to the heading.
    The Parcel page with an answer: still one, "Skip to the results", Enter puts the focus on the answer."""
    page = app.page
    page.set_viewport_size({"width": 1440, "height": 900})
    app.open("/law")
    app.settle()
    page.wait_for_function("() => !!document.querySelector('a.sloat-skip')", timeout=15_000, polling=POLL_MS)
    found = page.evaluate(SKIP_LINKS_JS)
    assert found["streamlits"] >= 1, found  # Streamlit's own is in the page (so its hiding is what is tested)
    assert found["skips"] == ["sloat-skip"] and found["first"] == "sloat-skip", found
    page.keyboard.press("Tab")  # from the top of a freshly loaded page
    assert page.evaluate("() => document.activeElement.className") == "sloat-skip"
    assert page.evaluate("() => document.activeElement.textContent") == announce.SKIP_MAIN_TEXT
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.tagName + ' ' + document.activeElement.textContent"
                         ).startswith("H1 Article IX")

    app = p1_page.get()  # P1 found by its SBL: the focus moved to the answer
    assert p1_page.found["focus after the search"]
    page = app.page
    resize(page, 1440, 900)
    found = page.evaluate(SKIP_LINKS_JS)
    assert found["skips"] == ["sloat-skip"] and found["first"] == "sloat-skip", found
    page.get_by_label("Tax parcel (SBL", exact=False).focus()
    for _ in range(40):  # back from the finder, through the sidebar, to the page's first stop
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.className") == "sloat-skip":
            break
    assert page.evaluate("() => document.activeElement.textContent") == announce.SKIP_TEXT
    page.screenshot(path=str(ARTIFACTS / "a11y_skip_link_focused.png"))
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == announce.ANSWER_ID


def test_the_maps_sbl_labels_are_in_the_text(p1_page):
    """The map labels tax parcels with their SBL; the text under it names the chosen one and its neighbours
    (hand-built P1 has none within 5 ft; P2, 200 ft away and labelled in the map's first view, is named as near)."""
    app = p1_page.get()
    resize(app.page, 1440, 900)
    line = app.wait_text("This outline lies on tax parcel")
    text = line.inner_text()
    assert f"This outline lies on tax parcel {fx.P1_SBL}." in text, text
    assert "No other tax parcel is next to it." in text, text
    assert f"Other tax parcels within 250 ft: {fx.P2_SBL}." in text, text  # labelled on the map, 200 ft away


def test_standard_tab_presses_from_the_search_box_to_the_handout(p1_page):
    """1366x768, Standard, P1 found: from the search box, 4 Tab presses reach "Download the one-page handout
    (PDF)" (the upload button, the district's help, the district menu, the handout), none of them in the map's
    column (its layer menu, basemap, check boxes, the map's frame and its controls) nor a chart's toolbar."""
    app = p1_page.get()
    page = app.page
    resize(page, 1366, 768)
    page.get_by_label("Tax parcel (SBL", exact=False).focus()
    walk = []
    for _ in range(20):
        page.keyboard.press("Tab")
        walk.append(page.evaluate(WHERE_JS, [announce.ANSWER_ID, MAP_IFRAME]))
        if walk[-1][1].startswith("BUTTON Download the one-page handout (PDF)"):
            break
    print("Tab stops from the search box to the handout:", *walk, sep="\n  ")
    assert walk[-1][1].startswith("BUTTON Download the one-page handout (PDF)"), walk
    assert len(walk) == 4, walk
    assert not [w for w in walk if w[0] == "map" or "modebar" in w[1].lower()], walk
