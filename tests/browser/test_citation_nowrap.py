"""The § citations of the deduction table never break inside, in a real browser (offline).

At a 1500 x 900 window (and 1280 x 900 in Standard mode, a common laptop), tax parcel P1 (chosen by
SBL, its case's link opened) is shown in Standard and Projector mode;
every cell of the table's "§" column must lay its text out on one line ("§ 402-45A(2)(b)", not
"§ 402-" / "45A(2)(b)"), while the table still fits its column (the constraint labels wrap instead).
Counter mode has no § column (everyday words); its table must still fit. Screenshots go to
tests/artifacts/citation_nowrap_<mode>_<width>.png for a person to look at.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from browser.case_links import new_case  # noqa: E402

pytestmark = pytest.mark.browser


# For each "§" cell of every table (st.table, or the deduction table's own HTML box): [text, number of distinct line boxes of its text, the cell's
# right edge, the table container's right edge].
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

# Tables wider than their container (clipped or scrolling): [table's right edge, container's right edge].
OVERFLOW_JS = """() => [...document.querySelectorAll('[data-testid="stTable"], .sloat-dtable')]
  .filter(b => b.querySelector('table'))
  .map(b => [b.querySelector('table').getBoundingClientRect().right, b.getBoundingClientRect().right])
  .filter(([t, b]) => t > b + 1)"""


#: The windows and modes checked, in the order one session goes through them (the parcel is chosen once).
CASES = [(state.STANDARD, 1500), (state.STANDARD, 1280), (state.COUNTER, 1500), (state.PROJECTOR, 1500)]


def test_deduction_table_citations_stay_on_one_line(app):
    app.page.set_viewport_size({"width": CASES[0][1], "height": 900})
    # P1's case made at the protocol level (its SBL typed into the parcel finder, tests/browser/case_links.py) and
    # its link opened: the page is drawn once, with the parcel (finding it in the browser has its own tests)
    app.open(f"/?case={new_case(app.url, fx.P1_SBL)}&mode=standard")
    app.wait_text(f"Tax parcel {fx.P1_SBL}")
    app.settle()
    for mode, width in CASES:
        app.resize(width, 900)  # laid out for the width (a resize asks for no run)
        if mode != state.STANDARD:
            app.switch_mode(mode)
        _check_table(app, mode, width)


def _check_table(app, mode: str, width: int) -> None:
    if mode == state.COUNTER:  # at the counter the figures fold below the answer: open them
        app.page.locator('[data-testid="stExpander"] summary', has_text="The figures").first.click()
    table = app.page.locator('.sloat-dtable').first
    table.wait_for(timeout=30_000)
    table.scroll_into_view_if_needed()
    app.idle()  # (a scroll asks for no run)
    app.shot(f"citation_nowrap_{mode.lower()}_{width}")
    cells = app.page.evaluate(CITATION_CELLS_JS)
    if mode == state.COUNTER:
        assert cells == []  # everyday words: no § column in the counter's table
    else:
        assert cells, "no § column found in the deduction table"
        assert all(text.startswith("§ 402-45") for text, *_ in cells), cells
        broken = [text for text, lines, *_ in cells if lines != 1]
        assert broken == [], f"citations broken across lines in {mode} mode: {broken}"
        clipped = [text for text, _, right, edge in cells if right > edge + 1]
        assert clipped == [], f"citation cells outside the table's box in {mode} mode: {clipped}"
    assert app.page.evaluate(OVERFLOW_JS) == [], f"deduction table wider than its column in {mode} mode at {width} px"
