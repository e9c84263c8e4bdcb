"""In a real browser: the cluster table's columns are not cut at 1366x768 or 1920x1080;
its long cells (the features, the evidence) wrap inside the page's width."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

pytestmark = pytest.mark.browser

# Per cell: is any text cut (hidden overflow, an ellipsis) or does the table run past its box?
CUT_JS = """() => {
  const table = document.querySelector('[data-testid="stTable"] table');
  if (!table) return null;
  const wrap = table.closest('[data-testid="stTable"]');
  const cut = [...table.querySelectorAll('td, th')].filter(c => c.scrollWidth > c.clientWidth + 1)
    .map(c => c.textContent.trim().slice(0, 30));
  const main = document.querySelector('[data-testid="stMain"]').getBoundingClientRect();
  const box = table.getBoundingClientRect();
  return {cut, tableRight: box.right, mainRight: main.right, wrapScroll: wrap.scrollWidth - wrap.clientWidth,
          headers: [...table.querySelectorAll('thead th')].map(h => h.textContent.trim())};
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=["1366", "1920"])
def test_cluster_table_fits_or_wraps(app, size):
    page = app.page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    app.open()
    app.choose_parcel(fx.P1_SBL)
    page.locator('[data-testid="stSidebarNav"]').get_by_text("Cluster", exact=True).click()
    page.locator("h1", has_text="Cluster development").first.wait_for(timeout=30_000)
    app.settle()
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=30_000)
    page.locator('[data-testid="stTable"]').first.scroll_into_view_if_needed()
    found = page.evaluate(CUT_JS)
    app.shot(f"cluster_table_{size[0]}")
    assert found is not None
    assert found["headers"] == ["§", "Feature", "Found", "Evidence", "Board decides"], found["headers"]
    assert found["cut"] == [], found["cut"]
    assert found["wrapScroll"] <= 1 and found["tableRight"] <= found["mainRight"] + 1, found
