"""WCAG 1.4.10 and 1.4.4: every page reflows at 320 and 640 CSS px, in all three modes.

A 1280 px window at 400 % zoom is 320 CSS px wide, at 200 % 640 px. One visitor's session (the axe module's: tax
parcel P1, a footprint drawn on the Proposed project page, one timeline item) opens each of the 8 pages at
1366 px, then narrows the window and measures: no horizontal scroll of the page body (the window, Streamlit's
main column), and no element outside the window, except those that scroll or pan inside their own box (the map's
frame, plotly charts, data grids and wide tables: two-dimensional content, which 1.4.10 allows).

Screenshots: tests/artifacts/a11y_reflow_<mode>_<width>_<n>.png, one per page, width and mode.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from browser.test_browser_axe import (MODE_PAGES, _open_page, back_to_standard_unless_next,  # noqa: E402
                                      session, to_mode)  # noqa: F401

pytestmark = pytest.mark.browser

#: (CSS px wide, high): 400 % and 200 % zoom of a 1280x1024 window.
WIDTHS = [(320, 256), (640, 512)]
#: What pokes out of the window: [test id, left, right, words] of each element outside it, unless it is inside a
#: box that scrolls or pans on its own (the map's frame, a chart, a data grid, a table, a box with overflow-x
#: auto or scroll that itself fits the window); and each of the page's scrollers wider than its box.
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth, out = [];
  const own = 'iframe, svg, .js-plotly-plot, [data-testid="stDataFrame"], [data-testid="stTable"], .sloat-dtable';
  const inScrollBox = (el) => {
    for (let e = el.parentElement; e && e.getAttribute('data-testid') !== 'stMain'; e = e.parentElement) {
      const c = getComputedStyle(e), b = e.getBoundingClientRect();
      if (['auto', 'scroll'].includes(c.overflowX) && b.left >= -1 && b.right <= width + 1) return true;
    }
    return false;
  };
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
LAID_OUT_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


#: The sidebar has come to rest: wholly shown, or wholly folded with its open button there.
SIDEBAR_AT_REST_JS = """() => { const b = document.querySelector('[data-testid="stSidebar"]');
  const r = b && b.getBoundingClientRect();
  const shown = !!b && r.left >= -1 && r.right > 1;
  const folded = (!b || r.right <= 1) && !!document.querySelector('[data-testid="stExpandSidebarButton"]');
  if (shown !== window.__sloatLastShown || folded !== window.__sloatLastFolded) {
    window.__sloatLastShown = shown; window.__sloatLastFolded = folded; window.__sloatSince = performance.now(); }
  return (shown || folded) && performance.now() - window.__sloatSince > 400; }"""


def _widen(page) -> None:
    """Back to 1366 px wide, once the sidebar has finished sliding (it folds at a narrow width)."""
    page.set_viewport_size({"width": 1366, "height": 900})
    page.evaluate("() => { window.__sloatLastShown = undefined; }")
    page.wait_for_function(SIDEBAR_AT_REST_JS, timeout=15_000, polling="raf")


@pytest.mark.parametrize(("mode", "label", "heading"), MODE_PAGES,
                         ids=[f"{mode}-{label}" for mode, label, _ in MODE_PAGES])
def test_every_page_reflows_at_320_and_640_css_px(session, request, mode, label, heading):  # noqa: F811
    """One page in one mode at both widths (every page in every mode, one test each: a mode's pages share its
    switch; the axe module's session fixture)."""
    app = session
    page = app.page
    n = [lab for _, lab, _ in MODE_PAGES].index(label) + 1
    found = {}
    try:
        _widen(page)
        to_mode(app, mode)
        _open_page(app, label, heading)
        if label == "Parcel & constraints":
            app.wait_text(f"Tax parcel {fx.P1_SBL}")
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            app.settle()
            page.evaluate(LAID_OUT_JS)
            result = page.evaluate(OVERFLOW_JS)
            if result["scrolls"] or result["out"]:
                found[(label, width)] = result
            page.set_viewport_size({"width": width, "height": 1600})  # a tall window: the page in one shot
            page.evaluate(LAID_OUT_JS)
            app.shot(f"a11y_reflow_{mode.lower()}_{width}_{n}")
    finally:
        _widen(page)
        back_to_standard_unless_next(request, mode)
    assert not found, "\n".join(f"{label} at {width} px: {r}" for (label, width), r in found.items())
