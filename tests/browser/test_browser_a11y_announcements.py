"""One announcement per answer (WCAG 4.1.3 without repeats), read from what the page announces.

A screen reader speaks the text of every live region of the page as it appears or changes: the app's own
polite live region (``app_support.frame.announce``), but also each box Streamlit draws, which it makes a live region
(a warning or an error box is ``role="alert"``, an info or success box ``role="status"``). The Counter's answer
card is such a box, so the verdict was heard twice: once from the card (an alert), once from the live region.

Here a recorder in the page looks, at every animation frame from the search's Enter until the page is quiet, at
every live region's text (``role`` alert, status or log, or ``aria-live`` other than off): each text seen is an
announcement. After a search by address at the counter (the sample's 297 Johnsontown Road: an "unlikely"
verdict, drawn as a warning box) and by SBL in Standard mode (hand-built P1: a "cannot tell" verdict as an info
box, its unknowns as warning boxes): the app's live region is the only one that speaks, once, and what it says
holds the verdict and the net lot area. Orca's own hearing of it is tests/browser/test_browser_screen_reader.py.

On the hand-built layers two pages serve four claims, each page walked once in a fixed order (a claim's steps done
when its test first asks, with the steps before it): a fresh page's first search is P1 by its SBL (the verdict
announced once), then a broken file is uploaded with that answer on the page (the error still said); another
fresh page's first searches find nothing (said), then the nearest parcels and a search said again after an answer.
Each step's findings are kept on their own and a step whose page is not as it should be starts from a fresh page.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import announce  # noqa: E402
from browser.a11y_visit import Visit  # noqa: E402
from browser.conftest import POLL_MS, new_offline_page  # noqa: E402

pytestmark = pytest.mark.browser

#: Every frame: each live region's text, recorded once per (region, text); stopped by window.__sloatStop.
RECORD_JS = """() => {
  window.__sloatHeard = []; window.__sloatStop = false;
  const seen = new Map();
  const live = '[role="alert"], [role="status"], [role="log"], [aria-live]:not([aria-live="off"])';
  function look() {
    document.querySelectorAll(live).forEach(el => {
      const text = (el.textContent || '').replace(/\\s+/g, ' ').trim();
      const who = el.id || el.getAttribute('data-testid') || el.className;
      if (text && seen.get(el) !== text) {
        seen.set(el, text);
        window.__sloatHeard.push([who, el.getAttribute('role') || '', text.slice(0, 2000)]);
      }
      if (!text) seen.delete(el);
    });
    if (!window.__sloatStop) requestAnimationFrame(look);
  }
  // what is already said before the search is not an announcement of the answer
  document.querySelectorAll(live).forEach(el => seen.set(el, (el.textContent || '').replace(/\\s+/g, ' ').trim()));
  requestAnimationFrame(look);
}"""


def _heard_after_search(app, text: str) -> list[list[str]]:
    page = app.page
    box = page.get_by_label("Tax parcel (SBL", exact=False)
    box.fill(text)
    page.evaluate(RECORD_JS)
    box.press("Enter")
    page.wait_for_function(f"() => document.activeElement && document.activeElement.id === '{announce.ANSWER_ID}'",
                           timeout=30_000, polling=POLL_MS)
    app.settle()
    page.wait_for_timeout(1000)  # the live region writes 150 ms after it is cleared; a late rerun would show here
    heard = page.evaluate("() => { window.__sloatStop = true; return window.__sloatHeard; }")
    print("announced:", *heard, sep="\n  ")
    return heard


def _one_announcement(heard: list[list[str]], verdict_words: str) -> None:
    ours = [h for h in heard if h[0] == announce.LIVE_ID]
    others = [h for h in heard if h[0] != announce.LIVE_ID]
    assert not others, ("only the app's live region speaks for the answer", others)
    assert len(ours) == 1, ours
    assert "Net lot area" in ours[0][2] and verdict_words in ours[0][2], ours


def test_counter_the_verdict_is_announced_once(sample_app):
    sample_app.page.set_viewport_size({"width": 1366, "height": 768})
    sample_app.open("/?mode=counter")
    sample_app.settle()
    heard = _heard_after_search(sample_app, "297 Johnsontown Road")
    # the card shows the verdict in a warning box (which Streamlit makes an alert): still there, no longer live
    card = sample_app.page.locator(".st-key-answer_verdict [data-testid='stAlertContainer']").first
    assert card.is_visible() and "What this means for your lot" in card.inner_text()
    assert card.get_attribute("role") is None
    _one_announcement(heard, "so your lot is about 13,741 sq ft short")


def _finder_heard(app, words: str, shown: str) -> list[str]:
    """What the app's live region says after ``words`` are searched and ``shown`` (a caption) is on the page."""
    page = app.page
    box = page.get_by_label("Tax parcel (SBL", exact=False)
    page.evaluate(RECORD_JS)
    box.fill(words)
    box.press("Enter")
    app.wait_text(shown)
    app.settle()
    page.wait_for_timeout(1000)  # the live region writes 150 ms after it is cleared
    heard = page.evaluate("() => { window.__sloatStop = true; return window.__sloatHeard; }")
    print("announced:", *heard, sep="\n  ")
    page.wait_for_timeout(200)  # the stopped recorder's last frame passes before the next one starts
    return [h[2] for h in heard if h[0] == announce.LIVE_ID]


class Walk:
    """One page walked through named steps in order, each done once, when a test first asks for it (with the steps
    before it); what each found, or the error it raised, is kept for the test that reads it."""

    def __init__(self, contexts, url: str, steps):
        self.contexts, self.url, self.steps = contexts, url, steps
        self.app = None
        self.found = Visit("Standard", "Parcel & constraints")
        self.failed = False

    def fresh(self):
        """A fresh page (a new Streamlit session) at 1366x768 on the Parcel page with its map."""
        if self.app is not None:
            self.app.page.close()
        self.app = new_offline_page(self.contexts, self.url)
        self.app.page.set_viewport_size({"width": 1366, "height": 768})
        self.app.open("/")
        self.app.wait_map()
        self.failed = False
        return self.app

    def __getitem__(self, name: str):
        for step, how in self.steps:
            if step not in self.found:
                self.found.measure(step, lambda how=how: how(self))
                self.failed = self.failed or self.found.failed(step)
            if step == name:
                return self.found[name]
        raise KeyError(name)

    def close(self) -> None:
        if self.app is not None:
            self.app.page.close()


def _verdict_step(walk: Walk) -> dict:
    app = walk.fresh()  # a fresh page: the search is its first
    heard = _heard_after_search(app, fx.P1_SBL)
    return {"heard": heard, "shown": app.page.get_by_text("Cannot tell yet", exact=False).first.is_visible()}


def _error_box_step(walk: Walk, folder: Path) -> dict:
    app = walk.app
    if walk.failed or app is None:  # the answer's step did not leave its page as it should: P1 found afresh
        app = walk.fresh()
        app.choose_parcel(fx.P1_SBL)
    page = app.page
    bad = folder / "broken.geojson"
    bad.write_text("{ not json")
    page.evaluate(RECORD_JS)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(bad))
    page.locator('[data-testid="stAlertContentError"]').first.wait_for(timeout=30_000)
    app.settle()
    heard = page.evaluate("() => { window.__sloatStop = true; return window.__sloatHeard; }")
    print("announced:", *heard, sep="\n  ")
    return {"heard": heard, "answers": page.locator(f"#{announce.ANSWER_ID}").count()}


MISSING = ("Nowhere Lane 99999", "Qqqq Zzzz 12345")


def _nothing_found_step(walk: Walk) -> list:
    app = walk.fresh()  # a fresh page: these are its first searches
    page = app.page
    box = page.get_by_label("Tax parcel (SBL", exact=False)
    said = []
    for words in MISSING:
        page.evaluate(RECORD_JS)
        box.fill(words)
        box.press("Enter")
        app.wait_text("No tax parcel matches those words.")
        page.wait_for_function(f"() => (document.getElementById('{announce.LIVE_ID}') || {{}}).textContent"
                               f" === 'No tax parcel matches {words}.'", timeout=15_000, polling=POLL_MS)
        app.settle()
        heard = page.evaluate("() => { window.__sloatStop = true; return window.__sloatHeard; }")
        print("announced:", *heard, sep="\n  ")
        page.wait_for_timeout(200)  # the stopped recorder's last frame passes before the next one starts
        said.append((words, heard))
    return said


def _nearest_step(walk: Walk) -> list:
    app = walk.app if not walk.failed and walk.app is not None else walk.fresh()
    missing = MISSING[0]
    said = [_finder_heard(app, "156.14-1-29", "No parcel has exactly those words; the nearest:"),
            _finder_heard(app, missing, "No tax parcel matches those words.")]
    app.choose_parcel(fx.P1_SBL)
    # the answer is said 150 ms after the live region is cleared: it is on the page before the search is recorded
    app.page.wait_for_function(f"() => (document.getElementById('{announce.LIVE_ID}') || {{}}).textContent"
                               f".startsWith('Tax parcel {fx.P1_SBL}')", timeout=15_000, polling=POLL_MS)
    said.append(_finder_heard(app, missing, "No tax parcel matches those words."))
    return said


@pytest.fixture(scope="module")
def answer_walk(contexts, app_url, tmp_path_factory):
    folder = tmp_path_factory.mktemp("announcements")
    walk = Walk(contexts, app_url, [("verdict", _verdict_step),
                                    ("error box", lambda w: _error_box_step(w, folder))])
    yield walk
    walk.close()


@pytest.fixture(scope="module")
def finder_walk(contexts, app_url):
    walk = Walk(contexts, app_url, [("nothing found", _nothing_found_step), ("nearest", _nearest_step)])
    yield walk
    walk.close()


def test_standard_the_verdict_is_announced_once(answer_walk):
    found = answer_walk["verdict"]
    assert found["shown"]
    _one_announcement(found["heard"], "Cannot tell yet")


def test_an_error_box_is_still_announced(answer_walk):
    """Only the answer's boxes are quiet: with an answer on the page, a file that cannot be read is still said
    at once (its error box, in the finder, keeps Streamlit's alert role)."""
    found = answer_walk["error box"]
    heard = found["heard"]
    assert found["answers"] == 1  # the answer is still on the page
    errors = [h for h in heard if h[0] == "stAlertContainer" and h[1] == "alert"]
    assert errors and "not valid GeoJSON" in errors[0][2], heard


def test_a_search_that_finds_nothing_is_announced(finder_walk):
    """A search's outcome is a status message too: no match is said in the live region (the caption alone is not
    live), with the words searched; a second search for other words is said again."""
    for words, heard in finder_walk["nothing found"]:
        ours = [h for h in heard if h[0] == announce.LIVE_ID]
        assert [h[2] for h in ours] == [f"No tax parcel matches {words}."], heard


def test_the_nearest_parcels_are_named_and_a_search_is_said_again_after_an_answer(finder_walk):
    """The near misses offered for words that match no parcel are named in the live region, not only counted;
    words that found nothing are said again when they are searched again after a parcel was found meanwhile."""
    nearest, missing, again = finder_walk["nearest"]
    assert nearest == [
        f"No parcel has exactly the words 156.14-1-29. The nearest: 1 Test Road, tax parcel {fx.P1_SBL}; "
        f"3 Test Road, tax parcel {fx.P2_SBL}. Choose one under Matching parcels."]
    assert missing == [f"No tax parcel matches {MISSING[0]}."]
    assert again == [f"No tax parcel matches {MISSING[0]}."]
