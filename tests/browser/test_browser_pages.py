"""Every page in a real browser, with a parcel chosen, in Standard and Projector mode (offline).

One browser session opens a case of tax parcel P1 (made with its SBL) by its link, and walks the seven
pages through the sidebar in each mode in turn (the session keeps the parcel), one test a page. On each page: no exception and no error box; in Projector
mode no visible text smaller than 24 px (plotly's SVG and the map iframe aside) and metric values
larger than the body. On the parcel page the colour key of the deduction table is the legend's
colour, and the screening note and the sample notice are on screen next to the map. Screenshots
go to tests/artifacts/pages_<mode>_<n>.png for a person to look at.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from browser.a11y_visit import to_mode  # noqa: E402
from browser.case_links import new_case  # noqa: E402
from browser.conftest import _REPORT, MAP_IFRAME, new_offline_page, shot_if_failed  # noqa: E402
from sloat_core.engine.analysis import DISCLAIMER  # noqa: E402

pytestmark = pytest.mark.browser

PAGES = [  # (sidebar label, the page's h1)
    ("Parcel & constraints", "Parcel & constraints"),
    ("Proposed project", "Proposed project"),
    ("Cluster", "Cluster development"),
    ("Plan, lot by lot", "Plan, lot by lot"),
    ("Wetland mitigation", "Wetland mitigation"),
    ("Timeline", "Timeline"),
    ("Law", "Article IX"),
]
PROJECTOR_MIN_PX = 24

# Visible text smaller than the limit, outside SVG (plotly) and hidden elements: [size, test id, text].
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


def _open_page(app, label: str, heading: str) -> None:
    app.page.locator('[data-testid="stSidebarNav"]').get_by_text(label, exact=True).click()
    app.page.locator("h1", has_text=heading).first.wait_for(timeout=30_000)
    app.settle()


def _no_errors(app, label: str) -> None:
    page = app.page
    assert page.locator('[data-testid="stException"]').count() == 0, label
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0, label
    body = page.locator('[data-testid="stAppViewContainer"]').inner_text()
    assert "Traceback" not in body, label


def _check_parcel_page(app, mode: str) -> None:
    page = app.page
    main = page.locator('[data-testid="stMain"]')
    expect(main.get_by_text(DISCLAIMER[:60], exact=False).filter(visible=True).first).to_be_visible(timeout=15_000)  # beside the result
    expect(page.get_by_text("Map layers: illustrative sample, not official data").filter(visible=True).first).to_be_visible(
        timeout=15_000)
    # The colour key of the deduction table is the legend's colour (computed, as painted).
    legend_colour = page.evaluate(
        "() => { const s = [...document.querySelectorAll('.sloat-swatch')]"
        ".find(x => x.nextSibling && x.nextSibling.textContent.trim() === 'Wetlands');"
        " return s ? getComputedStyle(s).backgroundColor : null; }")
    key_colour = page.evaluate(
        "() => { const td = [...document.querySelectorAll('.sloat-dtable tbody th')]"
        ".find(x => x.textContent.trim() === 'Wetlands');"
        " return td ? getComputedStyle(td.parentElement.children[0]).backgroundColor : null; }")
    assert legend_colour == key_colour == "rgb(51, 160, 44)", (legend_colour, key_colour)  # theme: #33a02c
    if mode == state.PROJECTOR:  # a bigger map, results below it at full width
        height = page.locator(MAP_IFRAME).bounding_box()["height"]
        assert height >= 700, height


def _check_projector_type(app, label: str) -> None:
    small = app.page.evaluate(SMALL_TEXT_JS, PROJECTOR_MIN_PX)
    assert small == [], (label, small[:8])
    metrics = app.page.locator('[data-testid="stMetricValue"] p')
    if metrics.count():
        size = metrics.first.evaluate("p => parseFloat(getComputedStyle(p).fontSize)")
        assert size >= 2 * PROJECTOR_MIN_PX, (label, size)


@pytest.fixture(scope="module")
def p1_tab(contexts, app_url):
    """One tab with tax parcel P1 chosen, shared by the two modes' walks: a case of P1 made at the protocol level
    (its SBL typed into the parcel finder, tests/browser/case_links.py) and its link opened once; each walk
    switches the tab to its mode in the sidebar (a fresh page costs a new session: the app, its map, a script run)."""
    tab = new_offline_page(contexts, app_url)
    tab.page.set_viewport_size({"width": 1500, "height": 2400})  # the app scrolls inside; show it all
    tab.open(f"/?case={new_case(app_url, fx.P1_SBL)}&mode=standard")
    tab.wait_text(f"Tax parcel {fx.P1_SBL}")
    tab.settle()
    yield tab
    tab.page.close()


@pytest.fixture()
def app(p1_tab, request):
    """The shared tab, its record of blocked requests emptied; a screenshot of it if the test failed."""
    p1_tab.blocked.clear()
    yield p1_tab
    if request.node.stash.get(_REPORT, None) is not None:
        shot_if_failed(request, p1_tab)


@pytest.mark.parametrize("mode, n", [(mode, n) for mode in (state.STANDARD, state.PROJECTOR)
                                     for n in range(1, len(PAGES) + 1)],
                         ids=[f"{mode}-{label}" for mode in (state.STANDARD, state.PROJECTOR) for label, _ in PAGES])
def test_every_page_with_a_parcel(app, mode, n):
    """Page ``n`` of the sidebar's menu in ``mode``, reached from the menu on the shared tab (one test a page, so a
    page's problem fails its own test; the tab goes through them in order, a mode's pages one after another)."""
    label, heading = PAGES[n - 1]
    to_mode(app, mode)
    _open_page(app, label, heading)
    app.shot(f"pages_{mode.lower()}_{n}")
    _no_errors(app, label)
    if label == "Parcel & constraints":
        app.wait_text("Net lot area")
        _check_parcel_page(app, mode)
    if mode == state.PROJECTOR:
        _check_projector_type(app, label)
    else:
        body_px = app.page.evaluate(
            "() => parseFloat(getComputedStyle(document.querySelector("
            "'[data-testid=\"stMarkdownContainer\"] p')).fontSize)")
        assert body_px < PROJECTOR_MIN_PX  # the large type is the projector's only
    assert app.non_tile_blocked() == [], app.non_tile_blocked()
