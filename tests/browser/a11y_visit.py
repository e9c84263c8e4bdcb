"""One visitor's session walked once over every page in every mode; what each visit measured, kept for the tests.

The session is a visitor's case opened from its link (:func:`visitor_case`: tax parcel P1 as found by its SBL, a
footprint drawn on the Proposed project page, a timeline item added; saved in the server's case store, as the app
saves a visitor's work). Each (mode, page) is then visited once, when a test first asks for it (the mode switched
in the sidebar, the page opened from the sidebar's menu), and on that visit, in this order:

- at 1366 x 900: a screenshot (``axe_<mode>_<page>.png``); what the page shows (:meth:`Visits._page_checks`: error
  boxes, type sizes, on the Parcel page its notes, colour key and map; tests/browser/test_browser_pages.py reads it);
  axe-core in the top document and, injected separately,
  in every frame; every frame's title, aria-label, aria-hidden and height, and axe's frame-title rule alone in the
  top document; each kind of control's border as painted; on the Parcel page, axe's title and language rules inside
  the map's frame;
- the window narrowed to 320 x 256 and 640 x 512 CSS px (400 % and 200 % zoom of a 1280 x 1024 window): what
  pokes out of the window, and a screenshot of the whole page at each width; on the Parcel page also at 320 x 800
  (the first reflow check, with its own rule of what may poke out); each window size set once, and each measurement
  made once the page is laid out for it (:func:`resize`);
- back to 1366 px, once the sidebar has come to rest; on the Parcel page, each Tab stop's focus ring from the skip
  link on, and the map's zoom button's ring; then the charts' texts, their fill and the texts that run into each
  other or under a line (at the counter the figures' folded box opened first; tests/browser/test_browser_a11y_charts.py
  reads them); then, at the windows of :data:`CITATION_WINDOWS`, the deduction table's § cells
  (tests/browser/test_citation_nowrap.py) and the charts' texts again, and back to 1366 px.

Each measurement is kept on its own: one that raised is raised again to each test that reads it, and the others of
the same visit still answer (a test fails on its own page's problem only). test_browser_axe.py,
test_browser_a11y_reflow.py, test_browser_pages.py, test_browser_a11y_charts.py and test_citation_nowrap.py read these
visits; all five are one xdist group, so one worker walks the pages once.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from browser.conftest import ARTIFACTS, MAP_IFRAME, ROOT, OfflinePage  # noqa: E402
from sloat_core.engine.analysis import DISCLAIMER  # noqa: E402

AXE_PATH = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
MODES = ["Standard", "Counter", "Projector"]
PARCEL = "Parcel & constraints"
CASE = "Case & exports"
PAGES = [  # (sidebar label, text of the page's h1)
    (PARCEL, "Parcel & constraints"),
    ("Proposed project", "Proposed project"),
    ("Cluster", "Cluster development"),
    ("Plan, lot by lot", "Plan, lot by lot"),
    ("Wetland mitigation", "Wetland mitigation"),
    ("Timeline", "Timeline"),
    ("Board walk-through", ""),
    ("Law", "Article IX"),
    (CASE, ""),
]
#: (mode, sidebar label, h1) of every page in every mode, a mode's pages one after another.
MODE_PAGES = [(mode, label, heading) for mode in MODES for label, heading in PAGES]
#: The pages whose controls' borders are measured (between them every kind of control is shown).
BORDER_PAGES = ("Proposed project", "Timeline", PARCEL)
#: (CSS px wide, high): 400 % and 200 % zoom of a 1280x1024 window.
WIDTHS = [(320, 256), (640, 512)]

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

#: The first reflow check (the Parcel page at 320 x 800): elements wider than the window (a horizontal scroll),
#: outside the map's frame, charts and tables: [test id, left, right, words]; and the page's scrollers wider than
#: their box.
PARCEL_OVERFLOW_JS = """() => {
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
#: What pokes out of the window: [test id, left, right, words] of each element outside it, unless it is inside a
#: box that scrolls or pans on its own (the map's frame, a chart, a data grid, a table, a box with overflow-x
#: auto or scroll that itself fits the window); and each of the page's scrollers wider than its box.
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth, out = [];
  const own = 'iframe, svg, .js-plotly-plot, [data-testid="stDataFrame"], [data-testid="stTable"], .sloat-dtable';
  // whether e or a box above it (below the main column) scrolls on its own and fits the window; each box is
  // looked at once (the answer kept for the elements below it)
  const seen = new Map();
  const scrollsHere = (e) => {
    if (!e || e.getAttribute('data-testid') === 'stMain') return false;
    if (!seen.has(e)) {
      const c = getComputedStyle(e), b = e.getBoundingClientRect();
      seen.set(e, (['auto', 'scroll'].includes(c.overflowX) && b.left >= -1 && b.right <= width + 1)
                  || scrollsHere(e.parentElement));
    }
    return seen.get(e);
  };
  const inScrollBox = (el) => scrollsHere(el.parentElement);
  for (const el of document.querySelectorAll('[data-testid="stMain"] *')) {
    if (el.closest(own) || inScrollBox(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 1 || box.left < -1)) {
      const owner = el.closest('[data-testid]');
      out.push([owner ? owner.getAttribute('data-testid') : el.tagName, Math.round(box.left), Math.round(box.right),
                (el.textContent || '').trim().slice(0, 40)]);
    }
  }
  const scrollers = [document.scrollingElement,
                     ...document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"]')];
  const scrolls = scrollers.filter(s => s && s.scrollWidth > s.clientWidth + 1)
                           .map(s => [s.tagName, s.scrollWidth, s.clientWidth]);
  return {out: out.slice(0, 10), scrolls};
}"""
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
#: The smallest type Projector mode may show, px (read from across a meeting room); Standard's body type is smaller.
PROJECTOR_MIN_PX = 24
#: Visible text smaller than ``limit`` px, outside SVG (plotly) and hidden elements: [size, test id, text].
SMALL_TEXT_JS = """(limit) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('svg, script, style, noscript')) continue;
    const box = el.getBoundingClientRect();
    const css = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || css.visibility === 'hidden') continue;
    const size = parseFloat(css.fontSize);
    if (size < limit) {
      const owner = el.closest('[data-testid]');
      out.push([size, owner ? owner.getAttribute('data-testid') : el.tagName, text.slice(0, 40)]);
    }
  }
  return out;
}"""
#: What the page shows: exceptions and error boxes drawn, whether the words "Traceback" are on it, the first metric
#: value's and the first paragraph's type size (px; null where the page has none).
PAGE_SHOWS_JS = """() => {
  const px = (sel) => { const el = document.querySelector(sel); return el ? parseFloat(getComputedStyle(el).fontSize) : null; };
  const view = document.querySelector('[data-testid="stAppViewContainer"]');
  return {exceptions: document.querySelectorAll('[data-testid="stException"]').length,
          'error boxes': document.querySelectorAll('[data-testid="stAlertContentError"]').length,
          traceback: !!view && view.innerText.includes('Traceback'),
          'metric px': px('[data-testid="stMetricValue"] p'),
          'body px': px('[data-testid="stMarkdownContainer"] p')};
}"""
#: On the Parcel page, the colour of the legend's Wetlands swatch and of the deduction table's Wetlands key, as painted.
WETLANDS_COLOURS_JS = """() => {
  const s = [...document.querySelectorAll('.sloat-swatch')]
    .find(x => x.nextSibling && x.nextSibling.textContent.trim() === 'Wetlands');
  const td = [...document.querySelectorAll('.sloat-dtable tbody th')].find(x => x.textContent.trim() === 'Wetlands');
  return {legend: s ? getComputedStyle(s).backgroundColor : null,
          key: td ? getComputedStyle(td.parentElement.children[0]).backgroundColor : null};
}"""
#: (the text, its painted fill as #rrggbb, its font size in px) of every text of every chart on the page.
CHART_TEXT_JS = """() => [...document.querySelectorAll('.js-plotly-plot text')]
  .filter(t => (t.textContent || '').trim() && t.getClientRects().length > 0)
  .map(t => {
    const m = getComputedStyle(t).fill.match(/\\d+/g) || [];
    const hex = '#' + m.slice(0, 3).map(v => (+v).toString(16).padStart(2, '0')).join('');
    return [t.textContent.trim().slice(0, 30), hex, parseFloat(getComputedStyle(t).fontSize)];
  })"""
#: The window widths, px (900 px high), at which each mode's deduction table is read on the Parcel page: 1500, and
#: in Standard mode 1280 too (a common laptop).
CITATION_WINDOWS = {"Standard": (1500, 1280), "Counter": (1500,), "Projector": (1500,)}
#: For each "§" cell of every table (st.table, or the deduction table's own HTML box): [text, number of distinct line
#: boxes of its text, the cell's right edge, the table container's right edge].
CITATION_CELLS_JS = """() => {
  const out = [];
  for (const box of document.querySelectorAll('[data-testid="stTable"], .sloat-dtable')) {
    const table = box.querySelector('table');
    if (!table) continue;
    const heads = [...table.querySelectorAll('thead th')];
    const col = heads.findIndex(th => th.textContent.trim() === '§');
    if (col < 0) continue;
    for (const row of table.querySelectorAll('tbody tr')) {
      const cells = row.querySelectorAll('th, td');
      const cell = cells[cells.length - heads.length + col];
      if (!cell || !cell.textContent.trim()) continue;
      const tops = new Set();  // the line boxes of the cell's text (text nodes only, not the boxes)
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      let node;
      while ((node = walker.nextNode())) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
      }
      out.push([cell.textContent.trim(), tops.size, cell.getBoundingClientRect().right,
                box.getBoundingClientRect().right]);
    }
  }
  return out;
}"""
#: Tables wider than their container (clipped or scrolling): [table's right edge, container's right edge].
TABLES_WIDER_JS = """() => [...document.querySelectorAll('[data-testid="stTable"], .sloat-dtable')]
  .filter(b => b.querySelector('table'))
  .map(b => [b.querySelector('table').getBoundingClientRect().right, b.getBoundingClientRect().right])
  .filter(([t, b]) => t > b + 1)"""
#: Chart texts that run into each other or under a line of the chart, in every plotly chart on the page: [one text,
#: the other] for two texts whose boxes overlap or come within 3 px side by side (axis labels, the bars' figures, the
#: notes: "Wetland and" touching "Net lot area" reads as one), and [a text, "a line"]
#: for a text a shape's line (the district minimum's dashed line) crosses, unless the text sits on a box of its own
#: (a note's opaque background, drawn over the line).
CHART_TEXTS_OVERLAP_JS = """() => {
  const out = [];
  // two boxes on a common line (sharing more than a pixel of height) less than GAP px apart, or overlapping
  const GAP = 3;
  const meet = (p, q, gap = GAP) => p.left < q.right + gap && q.left < p.right + gap
                                   && p.top < q.bottom - 1 && q.top < p.bottom - 1;
  const boxed = t => {
    const bg = t.closest('.annotation') && t.closest('.annotation').querySelector('rect.bg');
    const fill = bg ? getComputedStyle(bg).fill : 'none';
    return !!bg && fill !== 'none' && !/rgba\\(.*, 0\\)$/.test(fill) && parseFloat(getComputedStyle(bg).fillOpacity) > 0.99;
  };
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const texts = [...plot.querySelectorAll('.main-svg text')]
      .filter(t => (t.textContent || '').trim() && t.getClientRects().length > 0)
      .map(t => [t.textContent.trim(), t.getBoundingClientRect(), boxed(t)]);
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++)
      if (meet(texts[i][1], texts[j][1])) out.push([texts[i][0], texts[j][0]]);
    for (const shape of plot.querySelectorAll('.shapelayer path')) {
      const s = shape.getBoundingClientRect();  // a straight line's box: widened by a pixel each side
      const line = {left: s.left - 1, right: s.right + 1, top: s.top - 1, bottom: s.bottom + 1};
      for (const [text, box, onItsBox] of texts) if (!onItsBox && meet(box, line, -1)) out.push([text, 'a line']);
    }
  }
  return out;
}"""
#: Chart texts drawn partly outside their chart's picture (cut off at its edge): [text, how far out, px].
CHART_TEXTS_CUT_JS = """() => {
  const out = [];
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    const svg = plot.querySelector('svg.main-svg');
    if (!svg) continue;
    const edge = svg.getBoundingClientRect();
    for (const t of plot.querySelectorAll('text')) {
      if (!(t.textContent || '').trim() || !t.getClientRects().length) continue;
      const b = t.getBoundingClientRect();
      const past = Math.max(edge.left - b.left, b.right - edge.right, edge.top - b.top, b.bottom - edge.bottom);
      if (past > 1) out.push([t.textContent.trim(), Math.round(past)]);
    }
  }
  return out;
}"""
#: Tab stops walked from the skip link on the Parcel page for the focus rings.
FOCUS_STOPS = 30
#: How often a visit's waits look at the page, ms: every 50 ms, not every animation frame (a page polled at each
#: frame paints 60 frames a second while the visit waits; the waits themselves are as long).
POLL_MS = 50
#: What a change of the window's size sets off in the page (measured on every page in Standard and Projector
#: mode): no script run (no message goes to the server; no component reports a size that reruns the script), but,
#: within a few frames, Streamlit's own re-render (its window size, throttled with a leading call; the sidebar
#: folded or shown as the width asks, sliding for 300 ms: a CSS transition), the widths its elements measure with
#: their resize observers, and the charts' and grids' redraws. A change of height alone changes nothing in the
#: page. So the page is laid out for the new size once the window has that size, no CSS transition is running, no
#: element of the page has changed for LAYOUT_QUIET_MS (a change of height alone: HEIGHT_QUIET_MS, a few frames),
#: and no script run is under way.
LAYOUT_QUIET_MS, HEIGHT_QUIET_MS = 150, 50
#: Records the time of the page's last change (a mutation observer on the body, installed once per page).
WATCH_CHANGES_JS = """() => {
  if (!window.__sloatWatch) {
    window.__sloatWatch = new MutationObserver(() => { window.__sloatChanged = performance.now(); });
    window.__sloatWatch.observe(document.body, {subtree: true, childList: true, attributes: true,
                                                characterData: true});
  }
  window.__sloatChanged = performance.now(); window.__sloatSized = undefined;
}"""
LAYOUT_AT_REST_JS = """([width, height, quiet]) => {
  if (window.innerWidth !== width || window.innerHeight !== height) return false;
  const now = performance.now();
  if (window.__sloatSized === undefined) { window.__sloatSized = now; }
  const busy = document.querySelector('[data-testid="stStatusWidget"]')
            || document.querySelector('[data-stale="true"]');
  const sliding = document.getAnimations().some(a => a instanceof CSSTransition && a.playState === 'running');
  if (busy || sliding) { window.__sloatChanged = now; return false; }
  return now - Math.max(window.__sloatChanged, window.__sloatSized) >= quiet;
}"""
#: The sidebar is wholly shown, or wholly folded with its open button there.
SIDEBAR_AT_REST_JS = """() => { const b = document.querySelector('[data-testid="stSidebar"]');
  const r = b && b.getBoundingClientRect();
  const shown = !!b && r.left >= -1 && r.right > 1;
  const folded = (!b || r.right <= 1) && !!document.querySelector('[data-testid="stExpandSidebarButton"]');
  return shown || folded; }"""


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


def focus_ring(page) -> list | None:
    """The ring of the focused element, looked for inside the frame that has the focus."""
    ring = page.evaluate(FOCUS_RING_JS)
    if ring is not None and ring[0].startswith("IFRAME"):
        for frame in page.frames[1:]:
            if frame.evaluate("() => document.hasFocus()"):
                inner = frame.evaluate(FOCUS_RING_JS)
                return None if inner is None else [f"{ring[0][:20]}> {inner[0]}", *inner[1:]]
    return ring


def tab_rings(page, stops: int) -> list:
    rings = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        ring = focus_ring(page)
        if ring is not None:
            rings.append(ring)
    return rings


class Runs:
    """The reruns one page's session has asked for (``browser.conftest.RUNS_JS``, watched on every OfflinePage from
    before it opens)."""

    def __init__(self, page):
        self.page = page

    @property
    def asked(self) -> int:
        return self.page.evaluate("() => window.__sloatRuns ? window.__sloatRuns.sent : 0")


def settle(app: OfflinePage, asked_before: int | None = None) -> None:
    """The run the last step asked for is over and the page shows it (``OfflinePage.settle``): with ``asked_before``
    (the session's :class:`Runs` count before that step), a rerun asked for since then."""
    app.settle(asked_before)


def open_page(app: OfflinePage, label: str, heading: str) -> None:
    """Open a page from the sidebar's menu, as a visitor does, and wait until it and its frames have loaded."""
    app.open_sidebar()  # the Projector walk-through folds it away
    runs = getattr(app, "runs", None)
    asked_before = runs.asked if runs is not None else None
    app.page.locator('[data-testid="stSidebarNav"]').get_by_text(label, exact=True).click()
    if heading:
        app.page.locator("h1", has_text=heading).first.wait_for(timeout=30_000)
    else:
        app.page.locator("h1").first.wait_for(timeout=30_000)
    settle(app, asked_before)
    wait_frames(app.page)


def wait_frames(page) -> None:
    """Each frame has loaded; a map frame shows its tiles' container (its scripts have run)."""
    for frame in page.frames:
        try:
            frame.wait_for_load_state("load", timeout=15_000)
        except Exception:  # noqa: BLE001 (detached: the next page's run sees the new one)
            continue


def to_mode(app: OfflinePage, mode: str) -> None:
    """Switch the session to ``mode`` unless it is shown already."""
    if not app.page.locator('[data-testid="stSidebar"]').get_by_role("radio", name=mode).is_checked():
        app.switch_mode(mode)


def resize(page, width: int, height: int) -> None:
    """The window at ``width`` x ``height``, once the page is laid out for it (:data:`LAYOUT_AT_REST_JS`)."""
    was = page.viewport_size
    quiet = HEIGHT_QUIET_MS if was is not None and was["width"] == width else LAYOUT_QUIET_MS
    page.evaluate(WATCH_CHANGES_JS)
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(LAYOUT_AT_REST_JS, arg=[width, height, quiet], timeout=15_000, polling=POLL_MS // 2)


def widen(page) -> None:
    """Back to 1366 x 900, once the sidebar has finished sliding (it folds at a narrow width) and come to rest."""
    resize(page, 1366, 900)
    page.wait_for_function(SIDEBAR_AT_REST_JS, timeout=15_000, polling=POLL_MS)


#: The footprint's side, ft: the square a visitor draws 30 px either side of the map's centre on the Proposed project
#: page (the map centred on P1 at its first zoom: about 88 ft).
FOOTPRINT_SIDE_FT = 88


def visitor_case(manifest) -> str:
    """The id of a visitor's case, saved in the server's case store: tax parcel P1 (as the finder keeps a parcel
    found by its SBL), a square footprint at P1's centre (as drawn on the Proposed project page), and one timeline
    item (the Timeline page's first "Add to the timeline": the wetland delineation, dated today)."""
    import datetime as dt

    from shapely.geometry import box

    from sloat_core.gis.layers.manifest import load_manifest
    from sloat_core.gis.parcels import to_wgs84_geojson
    from sloat_core.gis.parcels.tax_parcels import parcel_by_sbl
    from sloat_core.store import CaseStore

    parcel = parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    meta = {"source": parcel.source, "sbl": parcel.sbl, "address": parcel.address, "district": parcel.district,
            "note": f"Tax parcel {parcel.sbl}"}
    centre, half = parcel.geometry.centroid, FOOTPRINT_SIDE_FT / 2
    footprint = to_wgs84_geojson(box(centre.x - half, centre.y - half, centre.x + half, centre.y + half))
    store = CaseStore(os.environ["SLOAT_DATA_DIR"])  # the server's own (tests/conftest.py gives it the folder)
    case = store.new_case(title=f"{parcel.sbl} · {parcel.address}", parcel_geojson=to_wgs84_geojson(parcel.geometry),
                          parcel_meta=meta, district=parcel.district,
                          project={"disturbance_footprint": footprint},
                          timeline_items=[{"id": "wetland_delineation", "dated": dt.date.today().isoformat()}])
    return case.id


def build_visitor(app: OfflinePage, manifest) -> None:
    """One visitor's session on the hand-built layers (parcel P1, a footprint drawn, one timeline item), opened from
    its case's link, as the visitor's own link reopens it (on the Law page: light, and visited later)."""
    page = app.page
    page.set_viewport_size({"width": 1366, "height": 900})
    app.runs = Runs(page)
    app.open(f"/law?case={visitor_case(manifest)}")
    settle(app)


class _Failed:
    """A measurement that raised: raised again to every test that reads it."""

    def __init__(self, exc: BaseException):
        self.exc = exc


class Visit:
    """What one visit of (mode, page) measured: ``visit["axe"]`` etc., or the error that measurement raised."""

    def __init__(self, mode: str, label: str):
        self.mode, self.label = mode, label
        self._found: dict = {}

    def measure(self, name: str, how) -> None:
        try:
            self._found[name] = how()
        except Exception as exc:  # noqa: BLE001 (kept, and raised to the tests that read this measurement)
            self._found[name] = _Failed(exc)

    def also(self, name: str, how) -> None:
        """A further step of measurement ``name`` (made, or still to be made): if it raises, ``name`` failed."""
        try:
            how()
        except Exception as exc:  # noqa: BLE001 (kept, and raised to the tests that read this measurement)
            if not self.failed(name):
                self._found[name] = _Failed(exc)

    def fail_all(self, names, exc: BaseException) -> None:
        for name in names:
            self._found.setdefault(name, _Failed(exc))

    def __contains__(self, name: str) -> bool:
        return name in self._found

    def failed(self, name: str) -> bool:
        """Whether measuring ``name`` raised."""
        return isinstance(self._found.get(name), _Failed)

    def __getitem__(self, name: str):
        value = self._found[name]
        if isinstance(value, _Failed):
            raise AssertionError(f"{self.mode}, {self.label}: {name} could not be measured: {value.exc!r}") \
                from value.exc
        return value


class Visits:
    """The visits of one visitor's session, each made once, when first asked for."""

    def __init__(self, app: OfflinePage):
        self.app = app
        self._done: dict[tuple[str, str], Visit] = {}

    def of(self, mode: str, label: str) -> Visit:
        if (mode, label) not in self._done:
            heading = dict(PAGES)[label]
            self._done[(mode, label)] = self._visit(mode, label, heading)
        return self._done[(mode, label)]

    def _names(self, mode: str, label: str) -> list[str]:
        names = ["page", "blocked", "axe", *[f"reflow {w}" for w, _ in WIDTHS]]
        if mode == "Standard":
            names += ["frames", "frame-title"]
        if label in BORDER_PAGES:
            names.append("borders")
        if label == PARCEL:
            names += ["map title and lang", "parcel 320", "focus rings", "chart texts", "citations"]
        return names

    def _visit(self, mode: str, label: str, heading: str) -> Visit:
        app, page = self.app, self.app.page
        visit = Visit(mode, label)
        app.blocked.clear()
        try:
            to_mode(app, mode)
            open_page(app, label, heading)
            if label == PARCEL:
                app.wait_text(f"Tax parcel {fx.P1_SBL}")
                app.wait_map()
            if label == "Proposed project":  # the visitor's footprint is there
                app.metric("Footprint")
            if label == "Timeline":  # and the visitor's timeline item
                app.wait_text("Your items (1)")
            if label == CASE:  # its link frames can come after the run is seen to end: wait for them
                page.locator('iframe[srcdoc*="Copy link"]').first.wait_for(state="attached", timeout=30_000)
            app.shot(f"axe_{mode.lower()}_{label.split()[0].lower()}")
            visit.measure("page", lambda: self._page_checks(label))
            visit.measure("axe", lambda: axe_violations(page))
            if mode == "Standard":
                visit.measure("frames", lambda: page.evaluate(FRAMES_JS))
                visit.measure("frame-title", lambda: self._in_top(FRAME_TITLE_JS))
            if label in BORDER_PAGES:
                visit.measure("borders", lambda: page.evaluate(CONTROL_BORDERS_JS))
            if label == PARCEL:
                visit.measure("map title and lang", lambda: self._map_title_and_lang(mode))
            n = [lab for lab, _ in PAGES].index(label) + 1
            # One size after the other, each window size once: 320 x 256 (what pokes out), on the Parcel page
            # 320 x 800 (its own check), 320 x 1600 and 640 x 1600 (a tall window: the page in one shot at each
            # width), 640 x 512 (what pokes out); a change of height alone re-lays out nothing but the window.
            (narrow, narrow_height), (wide, wide_height) = WIDTHS
            visit.measure(f"reflow {narrow}", lambda: self._overflow(narrow, narrow_height))
            if label == PARCEL:
                visit.measure("parcel 320", lambda: self._parcel_320(mode))
            for width in (narrow, wide):
                visit.also(f"reflow {width}", lambda width=width: self._tall_shot(mode, width, n))
            visit.measure(f"reflow {wide}", lambda: self._overflow(wide, wide_height))
            visit.measure("blocked", app.non_tile_blocked)
        except Exception as exc:  # noqa: BLE001 (the page could not be opened: every measurement of it failed)
            visit.fail_all(self._names(mode, label), exc)
        finally:
            try:
                widen(page)
            except Exception as exc:  # noqa: BLE001
                visit.fail_all(self._names(mode, label), exc)
        if label == PARCEL and "focus rings" not in visit:  # back at 1366 px: the page as a keyboard user meets it
            visit.measure("focus rings", self._focus_rings)
        if label == PARCEL and "chart texts" not in visit:  # at the counter it opens the figures' box
            visit.measure("chart texts", lambda: self._chart_texts(mode))
        if label == PARCEL and "citations" not in visit:  # the deduction table at its own windows, then 1366 px
            visit.measure("citations", lambda: self._citations(mode))
            visit.also("citations", lambda: widen(page))
        return visit

    def _page_checks(self, label: str) -> dict:
        """What the page shows at 1366 x 900 (:data:`PAGE_SHOWS_JS`, the text under :data:`PROJECTOR_MIN_PX`); on the
        Parcel page also whether the screening note and the sample's notice are shown, the Wetlands colours of the
        legend and the deduction table (:data:`WETLANDS_COLOURS_JS`) and the map's height."""
        page = self.app.page
        found = {}
        if label == PARCEL:
            self.app.wait_text("Net lot area")
            main = page.locator('[data-testid="stMain"]')
            for name, where, words in (("screening note", main, DISCLAIMER[:60]),
                                       ("sample notice", page, "Map layers: illustrative sample, not official data")):
                shown = where.get_by_text(words, exact=False).filter(visible=True).first
                try:
                    shown.wait_for(timeout=15_000)
                    found[name] = True
                except Exception:  # noqa: BLE001 (not shown within 15 s: the claim fails on it)
                    found[name] = False
            found["wetlands colours"] = page.evaluate(WETLANDS_COLOURS_JS)
            found["map height"] = page.locator(MAP_IFRAME).bounding_box()["height"]
        found.update(page.evaluate(PAGE_SHOWS_JS))
        found["small text"] = page.evaluate(SMALL_TEXT_JS, PROJECTOR_MIN_PX)
        return found

    def _in_top(self, js: str):
        page = self.app.page
        if not page.evaluate("() => typeof window.axe !== 'undefined'"):
            page.add_script_tag(content=AXE_PATH.read_text(encoding="utf-8"))
        return page.evaluate(js)

    def _map_title_and_lang(self, mode: str) -> dict:
        app = self.app
        source = AXE_PATH.read_text(encoding="utf-8")

        def checked():
            frame = app.map_frame()
            if not frame.evaluate("() => typeof window.axe !== 'undefined'"):
                frame.add_script_tag(content=source)
            return frame.evaluate(TITLE_AND_LANG_JS)

        found = app.poll_map("() => true", bool) and checked()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        app.page.screenshot(path=str(ARTIFACTS / f"map_frame_title_lang_{mode.lower()}.png"))
        return found

    def _focus_rings(self) -> list:
        """Each Tab stop's ring from the skip link on (the sidebar, the finder, the results), and the map's zoom
        button's ring inside its frame."""
        app, page = self.app, self.app.page
        app.wait_map()
        page.locator("a.sloat-skip").focus()  # the first Tab stop; its own ring is measured first
        rings = [focus_ring(page), *tab_rings(page, FOCUS_STOPS)]
        frame = app.map_frame()
        frame.locator(".leaflet-control-zoom-in").focus()
        map_ring = frame.evaluate(FOCUS_RING_JS)
        rings.append(["map: " + map_ring[0], *map_ring[1:]])
        return rings

    def _chart_texts(self, mode: str) -> dict:
        """Every chart text on the Parcel page (:data:`CHART_TEXT_JS`) and the texts that run into each other or
        under a line (:data:`CHART_TEXTS_OVERLAP_JS`), the figures' folded box opened first at the counter, as a
        visitor opens it; a screenshot of the first chart (``a11y_chart_<mode>.png``)."""
        page = self.app.page
        if mode == "Counter":  # the figures wait in a folded box at the counter
            page.get_by_text("The figures:", exact=False).first.click()
        page.wait_for_selector(".js-plotly-plot text", timeout=20_000)
        chart = page.locator(".js-plotly-plot").first
        chart.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        chart.screenshot(path=str(ARTIFACTS / f"a11y_chart_{mode.lower()}.png"))
        return {"texts": page.evaluate(CHART_TEXT_JS), "overlapping texts": page.evaluate(CHART_TEXTS_OVERLAP_JS)}

    def _citations(self, mode: str) -> dict:
        """The deduction table's § cells (:data:`CITATION_CELLS_JS`), the tables wider than their box
        (:data:`TABLES_WIDER_JS`) and the chart texts that run into each other (:data:`CHART_TEXTS_OVERLAP_JS`) at each
        window of :data:`CITATION_WINDOWS` (the table scrolled into view; a screenshot
        ``citation_nowrap_<mode>_<width>.png``): {width: {"cells": ..., "wider": ..., "overlapping chart texts": ...}}."""
        app, page = self.app, self.app.page
        found = {}
        for width in CITATION_WINDOWS[mode]:
            resize(page, width, 900)
            table = page.locator(".sloat-dtable").first
            table.wait_for(timeout=30_000)
            table.scroll_into_view_if_needed()
            app.idle()  # (a scroll asks for no run)
            app.shot(f"citation_nowrap_{mode.lower()}_{width}")
            found[width] = {"cells": page.evaluate(CITATION_CELLS_JS), "wider": page.evaluate(TABLES_WIDER_JS),
                            "overlapping chart texts": page.evaluate(CHART_TEXTS_OVERLAP_JS)}
        return found

    def _overflow(self, width: int, height: int) -> dict:
        """What pokes out of the window at ``width`` x ``height``."""
        resize(self.app.page, width, height)
        return self.app.page.evaluate(OVERFLOW_JS)

    def _tall_shot(self, mode: str, width: int, n: int) -> None:
        """A screenshot of the whole page at ``width`` (a tall window: the page in one shot)."""
        resize(self.app.page, width, 1600)
        self.app.shot(f"a11y_reflow_{mode.lower()}_{width}_{n}")

    def _parcel_320(self, mode: str) -> dict:
        """The first reflow check: the Parcel page at 320 x 800 (a 1280 px window at 400 % zoom)."""
        app, page = self.app, self.app.page
        resize(page, 320, 800)
        found = page.evaluate(PARCEL_OVERFLOW_JS)
        app.shot(f"a11y_reflow_320_{mode.lower()}")
        return found
