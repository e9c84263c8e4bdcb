"""The charts' own text (axis ticks, titles, bar labels) is 4.5:1 against the chart's background, in a
real browser, in every mode. axe-core does not measure text drawn in SVG, so this test does: for every ``<text>``
of every plotly chart on the Parcel page (the waterfall) with a parcel chosen, the painted fill against white
(each chart's ``plot_bgcolor`` and paper are white). Streamlit's chart theme drew the ticks in #808495 (3.8:1).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame.theme import contrast_ratio  # noqa: E402
from browser.conftest import ARTIFACTS  # noqa: E402

pytestmark = pytest.mark.browser

#: (the text, its painted fill as #rrggbb, its font size in px) of every text of every chart on the page.
CHART_TEXT_JS = """() => [...document.querySelectorAll('.js-plotly-plot text')]
  .filter(t => (t.textContent || '').trim() && t.getClientRects().length > 0)
  .map(t => {
    const m = getComputedStyle(t).fill.match(/\\d+/g) || [];
    const hex = '#' + m.slice(0, 3).map(v => (+v).toString(16).padStart(2, '0')).join('');
    return [t.textContent.trim().slice(0, 30), hex, parseFloat(getComputedStyle(t).fontSize)];
  })"""


@pytest.mark.parametrize("mode", ["Standard", "Counter", "Projector"])
def test_every_chart_text_is_4_5_to_1_on_white(app, mode):
    page = app.page
    page.set_viewport_size({"width": 1440, "height": 900})
    app.open()
    app.wait_map()
    if mode != "Standard":
        app.switch_mode(mode)
    app.choose_parcel(fx.P1_SBL)
    if mode == "Counter":  # the figures wait in a folded box at the counter
        page.get_by_text("The figures:", exact=False).first.click()
    page.wait_for_selector(".js-plotly-plot text", timeout=20_000)
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    page.locator(".js-plotly-plot").first.screenshot(path=str(ARTIFACTS / f"a11y_chart_{mode.lower()}.png"))
    texts = page.evaluate(CHART_TEXT_JS)
    assert len(texts) >= 5, texts  # the ticks, the rows' names and the bars' figures are there
    weak = [(t, fill, round(contrast_ratio(fill, "#ffffff"), 2)) for t, fill, _ in texts
            if contrast_ratio(fill, "#ffffff") < 4.5]
    assert not weak, weak
