"""In a real browser: the cluster table's columns are not cut at 1366x768 or 1920x1080;
its long cells (the features, the evidence) wrap inside the page's width."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
from browser.case_links import new_case  # noqa: E402
from browser.conftest import _REPORT, new_offline_page, shot_if_failed  # noqa: E402

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


#: Two animation frames: the layout after a change of the window's size is done.
LAID_OUT_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


@pytest.fixture(scope="module")
def cluster_tab(contexts, app_url):
    """One tab on the Cluster page of a case of tax parcel P1, shared by the window sizes: the case made at the
    protocol level (its SBL typed into the parcel finder, tests/browser/case_links.py), its Cluster page opened by
    its link once; each test sizes the window (a fresh page costs a new session: the app, its map, a script run)."""
    tab = new_offline_page(contexts, app_url)
    tab.page.set_viewport_size({"width": 1366, "height": 768})
    tab.open(f"/cluster?case={new_case(app_url, fx.P1_SBL)}")
    tab.page.locator("h1", has_text="Cluster development").first.wait_for(timeout=30_000)
    tab.settle()
    yield tab
    tab.page.close()


@pytest.fixture()
def app(cluster_tab, request):
    """The shared tab, its record of blocked requests emptied; a screenshot of it if the test failed."""
    cluster_tab.blocked.clear()
    yield cluster_tab
    if request.node.stash.get(_REPORT, None) is not None:
        shot_if_failed(request, cluster_tab)


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=["1366", "1920"])
def test_cluster_table_fits_or_wraps(app, size):
    page = app.page
    app.resize(*size)
    page.evaluate(LAID_OUT_JS)
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=30_000)
    page.locator('[data-testid="stTable"]').first.scroll_into_view_if_needed()
    found = page.evaluate(CUT_JS)
    app.shot(f"cluster_table_{size[0]}")
    assert found is not None
    assert found["headers"] == ["§", "Feature", "Found", "Evidence", "Board decides"], found["headers"]
    assert found["cut"] == [], found["cut"]
    assert found["wrapScroll"] <= 1 and found["tableRight"] <= found["mainRight"] + 1, found
