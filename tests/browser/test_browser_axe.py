"""axe-core (WCAG 2.0-2.2 A and AA) on every page, in all three modes, in the top document and every frame.

One browser session is built once for the module, the way a visitor builds it: tax parcel P1 found by its
SBL, the Proposed project page with a footprint drawn on the map, and a timeline item added. The same
session then walks every page in Standard, Counter and Projector mode (the mode switched in the
sidebar), and on each page axe-core runs in the top document and, injected separately, in every frame
(the map's iframe, Streamlit's component frames), with the rule tags of :data:`TAGS`.

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
import os
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from browser.conftest import ARTIFACTS, ROOT, OfflinePage  # noqa: E402

pytestmark = pytest.mark.browser

AXE_PATH = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAILING_IMPACTS = ("serious", "critical")
MODES = ["Standard", "Counter", "Projector"]
PAGES = [  # (sidebar label, text of the page's h1)
    ("Parcel & constraints", "Parcel & constraints"),
    ("Proposed project", "Proposed project"),
    ("Cluster", "Cluster"),
    ("Plan, lot by lot", "Plan, lot by lot"),
    ("Wetland mitigation", "Wetland mitigation"),
    ("Timeline", "Timeline"),
    ("Board walk-through", ""),
    ("Law", "Article IX"),
    ("Case & exports", ""),
]
#: Moderate or minor rules that are kept, with the reason. A rule not listed here fails the test.
KEPT: dict[str, str] = {}

#: Elements shown per violation in the report (SLOAT_AXE_NODES=50 shows more).
NODES_SHOWN = int(os.environ.get("SLOAT_AXE_NODES", "3"))
#: axe run in one document only (frames are visited one by one): violations with up to 3 elements each.
RUN_AXE_JS = """async ([tags, most]) => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
                                     iframes: false});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
    nodes: v.nodes.slice(0, most).map(n => ({target: n.target.join(' '), summary: (n.failureSummary || '')
      .replace(/\\s+/g, ' ').slice(0, 300), html: n.html.slice(0, 160)}))}));
}"""


def _frame_name(frame) -> str:
    if frame.parent_frame is None:
        return "top"
    try:
        title = frame.frame_element().get_attribute("title") or ""
    except Exception:  # noqa: BLE001 (the frame went away while it was being named)
        title = ""
    return f"frame {title or frame.name or frame.url[:60]}"


def axe_violations(page) -> list[dict]:
    """Run axe-core in the top document and in every attached frame; each violation names its frame."""
    source = AXE_PATH.read_text(encoding="utf-8")
    out: list[dict] = []
    for frame in page.frames:
        if frame.is_detached():
            continue
        try:
            if frame.parent_frame is not None and not frame.evaluate(
                    "() => !!document.body && document.body.children.length > 0"):
                continue  # an empty frame (a component not yet given its content): nothing to check
            if not frame.evaluate("() => typeof window.axe !== 'undefined'"):
                frame.add_script_tag(content=source)
            found = frame.evaluate(RUN_AXE_JS, [TAGS, NODES_SHOWN])
        except Exception as exc:  # noqa: BLE001 (a frame re-created during the run is checked on the next page)
            if "detached" in str(exc).lower() or "destroyed" in str(exc).lower():
                continue
            raise
        name = _frame_name(frame)
        out.extend({**v, "frame": name} for v in found)
    return out


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


def _open_page(app: OfflinePage, label: str, heading: str) -> None:
    app.open_sidebar()  # the Projector walk-through folds it away
    app.page.locator('[data-testid="stSidebarNav"]').get_by_text(label, exact=True).click()
    if heading:
        app.page.locator("h1", has_text=heading).first.wait_for(timeout=30_000)
    else:
        app.page.locator("h1").first.wait_for(timeout=30_000)
    app.settle()
    _wait_frames(app.page)


def _wait_frames(page) -> None:
    """Each frame has loaded; a map frame shows its tiles' container (its scripts have run)."""
    for frame in page.frames:
        try:
            frame.wait_for_load_state("load", timeout=15_000)
        except Exception:  # noqa: BLE001 (detached: the next page's run sees the new one)
            continue


@pytest.fixture(scope="module")
def session(contexts, app_url):
    """One visitor's session on the hand-built layers: parcel P1, a footprint drawn, one timeline item."""
    page = contexts.for_url(app_url).new_page()
    page.set_viewport_size({"width": 1366, "height": 900})
    app = OfflinePage(page, app_url, [])
    app.open()
    app.wait_map()
    app.choose_parcel(fx.P1_SBL)
    _open_page(app, "Proposed project", "Proposed project")
    app.draw_polygon([(-30, -30), (30, -30), (30, 30), (-30, 30)])
    app.metric("Footprint")
    app.settle()
    _open_page(app, "Timeline", "Timeline")
    page.get_by_role("button", name="Add to the timeline").first.click()
    app.wait_text("Your items (1)")
    app.settle()
    yield app
    page.close()


#: (mode, sidebar label, h1) of every page in every mode, a mode's pages one after another.
MODE_PAGES = [(mode, label, heading) for mode in MODES for label, heading in PAGES]


def to_mode(app: OfflinePage, mode: str) -> None:
    """Switch the session to ``mode`` unless it is shown already (the tests of one mode's pages share a switch)."""
    if not app.page.locator('[data-testid="stSidebar"]').get_by_role("radio", name=mode).is_checked():
        app.switch_mode(mode)


def back_to_standard_unless_next(request, mode: str) -> None:
    """After a test of one page in ``mode``: back to Standard, unless the next test is the same test in the same
    mode (the module's other tests start in Standard)."""
    items = request.session.items
    i = items.index(request.node)
    following = items[i + 1] if i + 1 < len(items) else None
    same = (following is not None and following.originalname == request.node.originalname
            and getattr(following, "callspec", None) is not None and following.callspec.params.get("mode") == mode)
    if not same and mode != "Standard":
        app = request.getfixturevalue("session")
        app.switch_mode("Standard")


@pytest.mark.parametrize(("mode", "label", "heading"), MODE_PAGES,
                         ids=[f"{mode}-{label}" for mode, label, _ in MODE_PAGES])
def test_axe_finds_no_serious_violation_on_any_page_or_frame(session, request, mode, label, heading):
    """One page in one mode (every page in every mode, one test each: a mode's pages share its switch)."""
    app = session
    to_mode(app, mode)
    try:
        _open_page(app, label, heading)
        if label == "Parcel & constraints":
            app.wait_text(f"Tax parcel {fx.P1_SBL}")
            app.wait_map()
        app.shot(f"axe_{mode.lower()}_{label.split()[0].lower()}")
        violations = axe_violations(app.page)
    finally:
        back_to_standard_unless_next(request, mode)
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


#: The focused element's ring as painted: [tag and text, outline style, width px, colour rgba, background rgba
#: behind the ring] (the ring may be drawn by a wrapper: a label, a text box's frame, up to 4 levels up).
FOCUS_RING_JS = """() => {
  let el = document.activeElement;
  if (!el || el === document.body) return null;
  const what = (el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || '').trim()).slice(0, 50);
  let ring = el;
  for (let i = 0; i < 5 && ring; i++, ring = ring.parentElement) {
    const c = getComputedStyle(ring);
    if (c.outlineStyle !== 'none' && parseFloat(c.outlineWidth) > 0) break;
  }
  if (!ring) return [what, 'none', 0, '', ''];
  const c = getComputedStyle(ring);
  let bg = ring.parentElement, colour = 'rgba(0, 0, 0, 0)';
  while (bg) { const b = getComputedStyle(bg).backgroundColor;
    if (b && !b.endsWith(', 0)') && b !== 'transparent') { colour = b; break; } bg = bg.parentElement; }
  if (!bg) colour = 'rgb(255, 255, 255)';
  return [what, c.outlineStyle, parseFloat(c.outlineWidth), c.outlineColor, colour];
}"""


def _rgb(css: str) -> tuple[float, float, float]:
    parts = css[css.index("(") + 1:css.index(")")].split(",")
    return tuple(float(p) for p in parts[:3])


def _ring(page) -> list | None:
    """The ring of the focused element, looked for inside the frame that has the focus."""
    ring = page.evaluate(FOCUS_RING_JS)
    if ring is not None and ring[0].startswith("IFRAME"):
        for frame in page.frames[1:]:
            if frame.evaluate("() => document.hasFocus()"):
                inner = frame.evaluate(FOCUS_RING_JS)
                return None if inner is None else [f"{ring[0][:20]}> {inner[0]}", *inner[1:]]
    return ring


def _tab_rings(page, stops: int) -> list:
    rings = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        ring = _ring(page)
        if ring is not None:
            rings.append(ring)
    return rings


@pytest.mark.parametrize("mode", MODES)
def test_focus_ring_is_visible_and_3_to_1_on_every_tab_stop_and_in_the_map(session, mode):
    """Tab through the Parcel page (skip link, sidebar, finder, results) and the map's controls: each stop shows
    an outline at least 2 px wide of at least 3:1 against what is behind it (WCAG 2.4.7, 1.4.11)."""
    app = session
    if mode != "Standard":
        app.switch_mode(mode)
    try:
        _open_page(app, "Parcel & constraints", "Parcel & constraints")
        app.wait_map()
        page = app.page
        page.locator("a.sloat-skip").focus()  # the first Tab stop; its own ring is measured first
        rings = [_ring(page), *_tab_rings(page, 30)]
        frame = app.map_frame()
        frame.locator(".leaflet-control-zoom-in").focus()
        map_ring = frame.evaluate(FOCUS_RING_JS)
        rings.append(["map: " + map_ring[0], *map_ring[1:]])
    finally:
        if mode != "Standard":
            app.switch_mode("Standard")
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
                               timeout=15_000)
    live = app.page.locator(f"#{announce.LIVE_ID}")
    assert live.get_attribute("role") == "status" and live.get_attribute("aria-live") == "polite"
    app.page.wait_for_function(f"() => document.getElementById('{announce.LIVE_ID}').textContent.length > 0",
                               timeout=5_000)
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


#: Elements wider than the window (a horizontal scroll), outside the map's frame: [test id, left, right].
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('[data-testid="stMain"] *')) {
    if (el.closest('iframe, svg, .js-plotly-plot, [data-testid="stDataFrame"], [data-testid="stTable"], .sloat-dtable')) continue;
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 1 || box.left < -1)) {
      const owner = el.closest('[data-testid]');
      out.push([owner ? owner.getAttribute('data-testid') : el.tagName, Math.round(box.left), Math.round(box.right),
                (el.textContent || '').trim().slice(0, 40)]);
    }
  }
  const scrollers = [document.scrollingElement, ...document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"]')];
  const scrolls = scrollers.filter(s => s && s.scrollWidth > s.clientWidth + 1).map(s => [s.tagName, s.scrollWidth, s.clientWidth]);
  return {out: out.slice(0, 10), scrolls};
}"""


@pytest.mark.parametrize("mode", MODES)
def test_the_parcel_page_reflows_at_320_css_px(session, mode):
    """WCAG 1.4.10: at 320 CSS px wide (a 1280 px window at 400 % zoom) the Parcel page, with its answer, has no
    horizontal scroll (the map, charts and tables may scroll inside themselves: two-dimensional content)."""
    app = session
    page = app.page
    if mode != "Standard":
        app.switch_mode(mode)
    try:
        _open_page(app, "Parcel & constraints", "Parcel & constraints")  # the sidebar folds away at 320 px
        app.wait_text(f"Tax parcel {fx.P1_SBL}")
        page.set_viewport_size({"width": 320, "height": 800})
        app.settle()
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")  # laid out
        found = page.evaluate(OVERFLOW_JS)
        app.shot(f"a11y_reflow_320_{mode.lower()}")
    finally:
        page.set_viewport_size({"width": 1366, "height": 900})
        if mode != "Standard":
            app.switch_mode("Standard")
    assert found["scrolls"] == [] and found["out"] == [], found


#: Every visible control's border as painted: [kind, border colour, background behind it]; a control whose parts
#: all have no border gives its kind with None (a failure: nothing outlines it).
CONTROL_BORDERS_JS = """() => {
  const kinds = {'text box': '[data-testid="stTextInputRootElement"]', 'number': '[data-testid="stNumberInputContainer"]',
    'date': '[data-testid="stDateInputField"]', 'menu': '[data-testid="stSelectbox"]',
    'multi menu': '[data-testid="stMultiSelect"]', 'radio': '[data-testid="stRadioOption"]',
    'check box': '[data-testid="stCheckbox"] label', 'upload': '[data-testid="stFileUploaderDropzone"]'};
  const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor;
      if (b && !b.endsWith(', 0)') && b !== 'transparent') return b; } return 'rgb(255, 255, 255)'; };
  const out = [];
  for (const [kind, sel] of Object.entries(kinds)) {
    for (const root of document.querySelectorAll(sel)) {
      if (!root.getClientRects().length) continue;
      let best = null;
      for (const el of [root, ...root.querySelectorAll('*')]) {
        const c = getComputedStyle(el);
        if (c.borderTopStyle !== 'none' && parseFloat(c.borderTopWidth) >= 1 && !c.borderTopColor.endsWith(', 0)')) {
          best = [kind, c.borderTopColor, bgOf(el.parentElement || el)]; break; }
      }
      out.push(best || [kind, null, null]);
      break;  // one of each kind per page
    }
  }
  return out;
}"""


@pytest.mark.parametrize("mode", MODES)
def test_control_borders_are_3_to_1_against_what_is_behind_them(session, mode):
    """WCAG 1.4.11: the outline of each kind of control (text, number and date boxes, menus, radio circles, check
    boxes, the upload box) on the Proposed project and Timeline pages, at least 3:1 as painted."""
    app = session
    if mode != "Standard":
        app.switch_mode(mode)
    found = []
    try:
        for label, heading in (("Proposed project", "Proposed project"), ("Timeline", "Timeline"),
                               ("Parcel & constraints", "Parcel & constraints")):
            _open_page(app, label, heading)
            found += [[label, *row] for row in app.page.evaluate(CONTROL_BORDERS_JS)]
    finally:
        if mode != "Standard":
            app.switch_mode("Standard")
    print(f"control borders, {mode}:", *found, sep="\n  ")
    kinds = {row[1] for row in found}
    assert {"text box", "number", "date", "menu", "radio"} <= kinds, kinds
    bad = [row for row in found if row[2] is None or contrast(_rgb(row[2]), _rgb(row[3])) < 3.0]
    assert not bad, bad


#: Every frame of the page: [its title, its aria-label, aria-hidden, height in px].
FRAMES_JS = """() => [...document.querySelectorAll('iframe')].map(f =>
  [f.getAttribute('title') || '', f.getAttribute('aria-label'), f.getAttribute('aria-hidden'),
   f.getBoundingClientRect().height])"""
#: axe's frame-title rule alone, in the top document: [frames it passed, the frames it failed].
FRAME_TITLE_JS = """async () => {
  const r = await axe.run(document, {runOnly: {type: 'rule', values: ['frame-title']},
                                     resultTypes: ['passes', 'violations'], iframes: false});
  return [r.passes.reduce((n, v) => n + v.nodes.length, 0), r.violations.flatMap(v => v.nodes.map(x => x.html))];
}"""


def _says_what_it_holds(title: str) -> bool:
    """A name of words: not empty, not Streamlit's "st.iframe" nor a component's module name."""
    words = title.split()
    return len(words) >= 3 and "." not in words[0]


def test_every_frame_a_visitor_meets_is_named_for_what_it_holds(session):
    """WCAG 4.1.2 beyond axe's frame-title rule (which any title passes, Streamlit's own "st.iframe" or a
    component's module name included): on every page every frame's title says what it holds, the zero-height
    announcer's too (which is also hidden from assistive technology); a frame that has an aria-label has the same
    words as its title (a different title is read as its description: the map's was "streamlit_folium.st_folium").
    axe's frame-title rule, run on each page, passes every frame it checks, the Case & exports page's two link
    frames included."""
    from app_support.frame import announce

    source = AXE_PATH.read_text(encoding="utf-8")
    seen, axe_seen = {}, {}
    for label, heading in PAGES:
        _open_page(session, label, heading)
        if label == "Parcel & constraints":
            session.wait_map()
        if label == "Case & exports":  # its link frames can come after the run is seen to end: wait for them
            session.page.locator('iframe[srcdoc*="Copy link"]').first.wait_for(state="attached", timeout=30_000)
        seen[label] = session.page.evaluate(FRAMES_JS)
        if not session.page.evaluate("() => typeof window.axe !== 'undefined'"):
            session.page.add_script_tag(content=source)
        axe_seen[label] = session.page.evaluate(FRAME_TITLE_JS)
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
    links = [title for title, *_ in seen["Case & exports"]]
    assert len(links) == 2 and all(t.startswith("Link to this case") for t in links), links
    assert any(title == announce.MAP_TITLE for title, *_ in seen["Parcel & constraints"])
    assert any(title == announce.ANNOUNCER_TITLE for title, *_ in seen["Parcel & constraints"])


#: axe's page-level language and title rules, run inside one document: {rule: "passed" | "failed" | "not run"}.
TITLE_AND_LANG_JS = """async () => {
  const rules = ['document-title', 'html-has-lang', 'html-lang-valid'];
  const r = await axe.run(document, {runOnly: {type: 'rule', values: rules},
                                     resultTypes: ['passes', 'violations'], iframes: false});
  const out = Object.fromEntries(rules.map(id => [id, 'not run']));
  r.passes.forEach(v => { out[v.id] = 'passed'; });
  r.violations.forEach(v => { out[v.id] = 'failed'; });
  return {rules: out, title: document.title, lang: document.documentElement.lang};
}"""


@pytest.mark.parametrize("mode", MODES)
def test_the_map_frame_has_a_title_and_a_language(session, mode):
    """The Parcel page's map frame is a document of its own (streamlit-folium's component page): axe-core run inside
    it passes document-title and html-has-lang (and html-lang-valid), in every mode. It had no <title> and no
    <html lang>, so a screen reader entering the frame announced no name and read it in its default voice."""
    app = session
    if mode != "Standard":
        app.switch_mode(mode)
    try:
        _open_page(app, "Parcel & constraints", "Parcel & constraints")
        app.wait_text(f"Tax parcel {fx.P1_SBL}")
        app.wait_map()
        source = AXE_PATH.read_text(encoding="utf-8")

        def checked(_value=None):
            frame = app.map_frame()
            if not frame.evaluate("() => typeof window.axe !== 'undefined'"):
                frame.add_script_tag(content=source)
            return frame.evaluate(TITLE_AND_LANG_JS)

        found = app.poll_map("() => true", bool) and checked()
        app.page.screenshot(path=str(ARTIFACTS / f"map_frame_title_lang_{mode.lower()}.png"))
    finally:
        if mode != "Standard":
            app.switch_mode("Standard")
    assert found["rules"] == {"document-title": "passed", "html-has-lang": "passed", "html-lang-valid": "passed"}, found
    assert found["title"] == "Map of the parcel and its constraints" and found["lang"] == "en", found
