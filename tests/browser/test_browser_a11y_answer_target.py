"""The answer's focus target covers no control (WCAG 2.4.11 Focus Not Obscured, 2.4.7), in every mode and size.

After a search the focus moves to the answer's focus target ("The results for this parcel",
``app_support.frame.announce``). While it has the focus, its visible box must not be drawn over any control: in
Standard mode at 1366x768 and 1440x900 it used to cover "Download the one-page handout (PDF)" (the target was an
overlay), so a sighted keyboard user saw the button hidden. Here, in Standard, Counter and Projector, at
1366x768, 1440x900, 1920x1080 and 390x844, with the focus on the target:

- the target's visible box (its box as clipped) overlaps the box of no control in the page's main part (buttons,
  links, fields, menus, expanders' headers, frames);
- ``document.elementFromPoint`` at the centre of each control on the screen is that control (or inside it): the
  handout button at least (Standard and Counter), the map's layer menu's header on a projector;
- the focus leaving the target moves nothing on the page by more than a pixel.

One page serves the three modes: the first mode asked for is opened by its link (``?mode=``) at 1366x768 and P1
found by its SBL (the focus moves to the target by itself); each other mode is then switched to in the sidebar, as
a visitor switches it, the page back at 1366x768 with the sidebar shown (as a fresh page has it).

Screenshots (looked at): tests/artifacts/a11y_answer_target_<mode>_<w>x<h>.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import announce  # noqa: E402
from browser.a11y_visit import resize  # noqa: E402
from browser.conftest import POLL_MS, ARTIFACTS, new_offline_page  # noqa: E402

pytestmark = pytest.mark.browser

SIZES = [(1366, 768), (1440, 900), (1920, 1080), (390, 844)]
MODES = ["standard", "counter", "projector"]
HANDOUT = "Download the one-page handout (PDF)"

#: With the focus on the target: its visible box, every control's box in the main part, and what
#: elementFromPoint finds at each on-screen control's centre (with the target scrolled to the window's middle).
PROBE_JS = """([answerId, centre]) => {
  const t = document.getElementById(answerId);
  const handout = [...document.querySelectorAll('[data-testid="stMain"] button')]
    .find(b => b.textContent.trim().startsWith(HANDOUT));
  (centre === 'handout' && handout ? handout : t).scrollIntoView({block: 'center'});
  const r = t.getBoundingClientRect(), cs = getComputedStyle(t);
  // what of the target is drawn: nothing when it is clipped to nothing (a visually hidden element)
  const clipped = cs.clip === 'rect(0px, 0px, 0px, 0px)' || cs.clipPath === 'inset(50%)';
  const target = {x: r.left, y: r.top, w: clipped ? 0 : r.width, h: clipped ? 0 : r.height,
                  text: t.textContent.trim(), focused: document.activeElement === t};
  const header = document.querySelector('header[data-testid="stHeader"]');
  const top = header ? header.getBoundingClientRect().bottom : 0;
  const sel = 'button, a[href], input, select, textarea, summary, iframe:not([height="0"]), [role="button"],'
            + ' [role="combobox"], [role="checkbox"], [role="radio"], [role="slider"], [tabindex="0"]';
  const controls = [];
  for (const el of document.querySelectorAll('[data-testid="stMain"] ' + sel.split(',').join(', [data-testid="stMain"] '))) {
    const b = el.getBoundingClientRect();
    if (b.width < 1 || b.height < 1 || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.closest('.sloat-sr-only') && el.id !== answerId) continue;
    const cx = b.left + b.width / 2, cy = b.top + b.height / 2;
    let hit = null;
    if (cy > top + 1 && cy < innerHeight - 1 && cx > 0 && cx < innerWidth) {
      const e = document.elementFromPoint(cx, cy);
      hit = !!e && (e === el || el.contains(e) || (e.closest && e.closest('label') && e.closest('label').contains(el)));
    }
    controls.push({what: (el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || el.title || '')
                          .trim()).slice(0, 60),
                   x: b.left, y: b.top, w: b.width, h: b.height, hit});
  }
  return {target, controls};
}""".replace("HANDOUT", repr(HANDOUT))

#: Where every control of the main part is (to compare before and after the focus leaves the target).
#: Resolves once the page has painted the next frame (a frame's callbacks run before its paint: two frames).
PAINTED_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
PLACES_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] button, [data-testid="stMain"] a[href],'
  + ' [data-testid="stMain"] summary, [data-testid="stMain"] input')]
  .map(e => { const b = e.getBoundingClientRect(); return [Math.round(b.left), Math.round(b.top)]; })"""


def _overlap(a: dict, b: dict) -> float:
    """Area (px²) the two boxes share; boxes that only touch share nothing."""
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(w, 0.0) * max(h, 0.0)


def _focus_target(app) -> None:
    """Put the focus on the target as a keyboard user's search leaves it (the page laid out for its window: see
    ``browser.a11y_visit.resize``)."""
    page = app.page
    page.evaluate(f"() => document.getElementById('{announce.ANSWER_ID}').focus()")
    page.wait_for_function(f"() => document.activeElement.id === '{announce.ANSWER_ID}'", timeout=15_000, polling=POLL_MS)
    page.evaluate(PAINTED_JS)  # the focus style's one repaint (no transition is declared)


class AnswerPage:
    """One page with P1 found, shown in the mode a test asks for (see the module's text)."""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self.app = None

    def in_mode(self, mode: str):
        if self.app is None:
            app = new_offline_page(self.contexts, self.url)
            try:
                app.page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
                app.open(f"/?mode={mode}")
                app.wait_map()
                app.choose_parcel(fx.P1_SBL)  # the focus moves to the target by itself after a search
                app.page.wait_for_function(f"() => document.activeElement.id === '{announce.ANSWER_ID}'",
                                           timeout=15_000, polling=POLL_MS)
            except Exception:
                app.page.close()
                raise
            self.app = app
            return app
        app = self.app
        resize(app.page, *SIZES[0])
        app.switch_mode(mode.capitalize())  # the sidebar is opened first (it folds at 390 px) and stays shown
        app.page.locator(f"#{announce.ANSWER_ID}").wait_for(state="attached", timeout=30_000)
        return app

    def close(self) -> None:
        if self.app is not None:
            self.app.page.close()


@pytest.fixture(scope="module")
def answer_page(contexts, app_url):
    shared = AnswerPage(contexts, app_url)
    yield shared
    shared.close()


@pytest.mark.parametrize("mode", MODES)
def test_the_focused_answer_target_covers_no_control(answer_page, mode):
    app = answer_page.in_mode(mode)
    page = app.page
    problems, seen_handout = [], 0
    for width, height in SIZES:
        resize(page, width, height)  # no run is started by it: the page is still once laid out
        _focus_target(app)
        # Twice: the target in the window's middle (as the focus brings it), then the handout button there.
        for centre in ("target", "handout"):
            probe = page.evaluate(PROBE_JS, [announce.ANSWER_ID, centre])
            if centre == "target":
                page.screenshot(path=str(ARTIFACTS / f"a11y_answer_target_{mode}_{width}x{height}.png"))
            target = probe["target"]
            print(f"{mode} {width}x{height}, {centre} centred: target {target}")
            assert target["focused"] and target["text"] == "The results for this parcel", target
            assert target["w"] >= 100 and target["h"] >= 10, ("the focused target must be seen", target)
            for c in probe["controls"]:
                if _overlap(target, c) > 0.5:
                    problems.append((width, height, centre, "covered", c))
                if c["hit"] is False:
                    problems.append((width, height, centre, "elementFromPoint is not the control", c))
            handout = [c for c in probe["controls"] if c["what"].startswith("BUTTON " + HANDOUT)]
            if mode != "projector" and centre == "handout":  # the projector has no handout button on this page
                assert handout and handout[0]["hit"] is True, ("the handout button, on screen, is what a click "
                                                               "at its centre reaches", handout)
                seen_handout += 1
        # The focus leaves the target: nothing moves under the pointer.
        before = page.evaluate(PLACES_JS)
        page.evaluate("() => document.activeElement.blur()")  # as a click elsewhere takes it (no scrolling)
        page.wait_for_timeout(200)
        after = page.evaluate(PLACES_JS)
        moved = [(a, b) for a, b in zip(before, after) if abs(a[0] - b[0]) > 1 or abs(a[1] - b[1]) > 1]
        if len(before) != len(after) or moved:
            problems.append((width, height, "moved when the focus left the target", moved[:3]))
    assert not problems, "\n".join(map(str, problems))
    assert mode == "projector" or seen_handout == len(SIZES)
    assert not app.non_tile_blocked()
