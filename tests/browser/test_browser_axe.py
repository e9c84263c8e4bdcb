"""axe-core (WCAG 2.0-2.2 A and AA) on every page, in all three modes, in the top document and every frame.

One visitor's session is opened once from the visitor's case link: tax parcel P1 found by its SBL, a footprint
drawn on the Proposed project page's map, and a timeline item added. Every page is visited once in each of
Standard, Counter and Projector mode (the mode switched in the sidebar), and on each visit axe-core runs in the top
document and, injected separately, in every frame (the map's iframe, Streamlit's component frames), with the rule
tags of :data:`TAGS`. The visits (tests/browser/a11y_visit.py) also measure what the other claims here and those of
test_browser_a11y_reflow.py read (frames' names, controls' borders, focus rings, reflow); each claim fails on its own page's
problems.

What fails: any violation of serious or critical impact; a moderate or minor one whose rule is not in
:data:`KEPT` with the reason it is kept. Every violation, kept or not, is written to
``tests/artifacts/axe_<mode>.md`` (one line per rule, page and frame, with the first elements and axe's
own summary; ``SLOAT_AXE_NODES=50`` for more elements) and printed, so the lead can re-run this file on the merged tree and read what is wrong::

    .venv/bin/python -m pytest -n 0 -q -s tests/browser/test_browser_axe.py

axe-core comes from the npm registry through tools/fetch_assets.py (pinned, sha512-checked) into
static/vendor/axe-core/; the app never links to it, the test injects it. ``test_the_axe_step_can_fail``
serves a small page with known violations (an unlabeled input in the top document, an image without alt
text inside a frame) from a local HTTP server and checks that the same step reports both.
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from browser.a11y_visit import (BORDER_PAGES, CASE, MODE_PAGES, MODES, PAGES, PARCEL, TAGS,  # noqa: E402
                                axe_violations)
from browser.conftest import POLL_MS, ARTIFACTS  # noqa: E402

#: One worker walks the pages once for this module and test_browser_a11y_reflow.py (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-a11y-visits")]

FAILING_IMPACTS = ("serious", "critical")
#: Moderate or minor rules that are kept, with the reason. A rule not listed here fails the test.
KEPT: dict[str, str] = {}


def _judge(violations: list[dict]) -> tuple[list[dict], list[dict]]:
    """(failing, kept) of the violations: serious/critical and unexplained moderate/minor fail."""
    failing = [v for v in violations if v["impact"] in FAILING_IMPACTS or v["id"] not in KEPT]
    kept = [v for v in violations if v not in failing]
    return failing, kept


def _report_lines(where: str, violations: list[dict]) -> list[str]:
    lines = []
    for v in violations:
        reason = KEPT.get(v["id"]) if v["impact"] not in FAILING_IMPACTS else None
        lines.append(f"- [{v['impact']}] {v['id']} ({v['count']} elements) on {where}, {v['frame']}: {v['help']}"
                     + (f" -- KEPT: {reason}" if reason else ""))
        lines.extend(f"    - `{n['target']}`: {n['summary']} | {n['html']}" for n in v["nodes"])
    return lines


@pytest.mark.parametrize(("mode", "label", "heading"), MODE_PAGES,
                         ids=[f"{mode}-{label}" for mode, label, _ in MODE_PAGES])
def test_axe_finds_no_serious_violation_on_any_page_or_frame(a11y_visits, mode, label, heading):
    """One page in one mode (every page in every mode, one test each), as its visit found it."""
    violations = a11y_visits.of(mode, label)["axe"]
    failing, kept = _judge(violations)
    lines = _report_lines(label, failing + kept) or [f"- {label}: no violation"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    report = ARTIFACTS / f"axe_{mode.lower()}.md"
    if label == PAGES[0][0]:  # the mode's report starts with its first page
        report.write_text(f"# axe-core on every page, {mode} mode (tags {', '.join(TAGS)})\n\n", encoding="utf-8")
    with report.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    assert not failing, "axe-core violations to fix (serious/critical, or moderate/minor not kept):\n" + "\n".join(
        f"{label}: [{v['impact']}] {v['id']} in {v['frame']} ({v['count']}): {v['nodes'][0]['target']}"
        for v in failing)


KNOWN_BAD = """<!doctype html><html lang="en"><head><title>Known violations</title></head><body>
<main><h1>A page with known violations</h1><input type="text">
<iframe title="inner" src="/inner.html"></iframe></main></body></html>"""
INNER = """<!doctype html><html lang="en"><head><title>Inner</title></head><body>
<main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10"></main></body></html>"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # no request log in the test output
        pass


def test_the_axe_step_can_fail(browser, tmp_path):
    """A page served locally with an unlabeled input (top) and an image with no alt (in a frame): both found."""
    (tmp_path / "index.html").write_text(KNOWN_BAD, encoding="utf-8")
    (tmp_path / "inner.html").write_text(INNER, encoding="utf-8")
    handler = functools.partial(_QuietHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        page.frame_locator("iframe").locator("img").wait_for(state="attached", timeout=10_000)
        violations = axe_violations(page)
    finally:
        page.close()
        server.shutdown()
        server.server_close()
    failing, _kept = _judge(violations)
    found = {(v["id"], v["frame"]) for v in failing if v["impact"] in FAILING_IMPACTS}
    assert ("label", "top") in found, violations
    assert ("image-alt", "frame inner") in found, violations


def _luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _rgb(css: str) -> tuple[float, float, float]:
    parts = css[css.index("(") + 1:css.index(")")].split(",")
    return tuple(float(p) for p in parts[:3])


@pytest.mark.parametrize("mode", MODES)
def test_focus_ring_is_visible_and_3_to_1_on_every_tab_stop_and_in_the_map(a11y_visits, mode):
    """Tab through the Parcel page (skip link, sidebar, finder, results) and the map's controls: each stop shows
    an outline at least 2 px wide of at least 3:1 against what is behind it (WCAG 2.4.7, 1.4.11). The rings are
    measured on the Parcel page's visit, back at 1366 px (browser.a11y_visit.FOCUS_RING_JS)."""
    rings = a11y_visits.of(mode, PARCEL)["focus rings"]
    print(f"focus rings, {mode}:", *rings, sep="\n  ")
    assert len(rings) >= 20, rings
    bad = [r for r in rings if r[1] == "none" or r[2] < 2 or contrast(_rgb(r[3]), _rgb(r[4])) < 3.0]
    assert not bad, "\n".join(map(str, bad)) + "\n\nall stops:\n" + "\n".join(map(str, rings))


def test_after_a_search_the_answer_has_the_focus_and_is_announced(app):
    """WCAG 2.4.3 / 4.1.3: after a search by SBL the focus is on the answer, and the polite live region says the
    verdict and the net lot area; the first Tab stop skips to the results; the map's frame has a name."""
    from app_support.frame import announce

    app.page.set_viewport_size({"width": 1366, "height": 900})
    app.open()
    app.wait_map()
    app.choose_parcel(fx.P1_SBL)
    app.page.wait_for_function(f"() => document.activeElement && document.activeElement.id === '{announce.ANSWER_ID}'",
                               timeout=15_000, polling=POLL_MS)
    live = app.page.locator(f"#{announce.LIVE_ID}")
    assert live.get_attribute("role") == "status" and live.get_attribute("aria-live") == "polite"
    app.page.wait_for_function(f"() => document.getElementById('{announce.LIVE_ID}').textContent.length > 0",
                               timeout=5_000, polling=POLL_MS)
    said = live.text_content()
    shown = app.metric("Net lot area")  # as the page shows it (hand-built P1: 20,000 sq ft)
    assert f"Tax parcel {fx.P1_SBL}" in said and f"Net lot area {shown} sq ft" in said, (said, shown)
    assert "Cannot tell yet" in said  # the verdict, as the page words it
    assert app.page.locator(f'iframe[aria-label="{announce.MAP_TITLE}"]').count() == 1
    app.shot("a11y_focus_on_answer")
    # The skip link is the first Tab stop: first in the page, and no element jumps the order (tabindex > 0).
    assert app.page.evaluate("() => document.body.firstElementChild.textContent") == announce.SKIP_TEXT
    assert app.page.locator("[tabindex]:not([tabindex='0']):not([tabindex^='-'])").count() == 0
    app.page.locator("a.sloat-skip").focus()
    app.page.keyboard.press("Enter")
    assert app.page.evaluate("() => document.activeElement.id") == announce.ANSWER_ID


@pytest.mark.parametrize("mode", MODES)
def test_the_parcel_page_reflows_at_320_css_px(a11y_visits, mode):
    """WCAG 1.4.10: at 320 CSS px wide (a 1280 px window at 400 % zoom) the Parcel page, with its answer, has no
    horizontal scroll (the map, charts and tables may scroll inside themselves: two-dimensional content)."""
    found = a11y_visits.of(mode, PARCEL)["parcel 320"]
    assert found["scrolls"] == [] and found["out"] == [], found


@pytest.mark.parametrize("mode", MODES)
def test_control_borders_are_3_to_1_against_what_is_behind_them(a11y_visits, mode):
    """WCAG 1.4.11: the outline of each kind of control (text, number and date boxes, menus, radio circles, check
    boxes, the upload box) on the Proposed project and Timeline pages, at least 3:1 as painted."""
    found = []
    for label in BORDER_PAGES:
        found += [[label, *row] for row in a11y_visits.of(mode, label)["borders"]]
    print(f"control borders, {mode}:", *found, sep="\n  ")
    kinds = {row[1] for row in found}
    assert {"text box", "number", "date", "menu", "radio"} <= kinds, kinds
    bad = [row for row in found if row[2] is None or contrast(_rgb(row[2]), _rgb(row[3])) < 3.0]
    assert not bad, bad


def _says_what_it_holds(title: str) -> bool:
    """A name of words: not empty, not Streamlit's "st.iframe" nor a component's module name."""
    words = title.split()
    return len(words) >= 3 and "." not in words[0]


def test_every_frame_a_visitor_meets_is_named_for_what_it_holds(a11y_visits):
    """WCAG 4.1.2 beyond axe's frame-title rule (which any title passes, Streamlit's own "st.iframe" or a
    component's module name included): on every page every frame's title says what it holds, the zero-height
    announcer's too (which is also hidden from assistive technology); a frame that has an aria-label has the same
    words as its title (a different title is read as its description: the map's was "streamlit_folium.st_folium").
    axe's frame-title rule, run on each page, passes every frame it checks, the Case & exports page's two link
    frames included."""
    from app_support.frame import announce

    seen = {label: a11y_visits.of("Standard", label)["frames"] for label, _ in PAGES}
    axe_seen = {label: a11y_visits.of("Standard", label)["frame-title"] for label, _ in PAGES}
    print(seen, axe_seen, sep="\n")
    for label, frames in seen.items():
        for title, aria_label, hidden, height in frames:
            assert _says_what_it_holds(title), (label, title)
            assert aria_label in (None, title), (label, title, aria_label)
            if height == 0:
                assert hidden == "true", (label, title)
        passed, failed = axe_seen[label]
        assert not failed, (label, failed)
        assert passed == sum(1 for f in frames if f[2] != "true"), (label, passed, frames)
    links = [title for title, *_ in seen[CASE]]
    assert len(links) == 2 and all(t.startswith("Link to this case") for t in links), links
    assert any(title == announce.MAP_TITLE for title, *_ in seen[PARCEL])
    assert any(title == announce.ANNOUNCER_TITLE for title, *_ in seen[PARCEL])


@pytest.mark.parametrize("mode", MODES)
def test_the_map_frame_has_a_title_and_a_language(a11y_visits, mode):
    """The Parcel page's map frame is a document of its own (streamlit-folium's component page): axe-core run inside
    it passes document-title and html-has-lang (and html-lang-valid), in every mode. It had no <title> and no
    <html lang>, so a screen reader entering the frame announced no name and read it in its default voice."""
    found = a11y_visits.of(mode, PARCEL)["map title and lang"]
    assert found["rules"] == {"document-title": "passed", "html-has-lang": "passed", "html-lang-valid": "passed"}, found
    assert found["title"] == "Map of the parcel and its constraints" and found["lang"] == "en", found
