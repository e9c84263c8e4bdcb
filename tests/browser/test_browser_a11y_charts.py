"""The charts' own text (axis ticks, titles, bar labels) is 4.5:1 against the chart's background, in a
real browser, in every mode. axe-core does not measure text drawn in SVG, so this test does: for every ``<text>``
of every plotly chart on the Parcel page (the waterfall) with a parcel chosen, the painted fill against white
(each chart's ``plot_bgcolor`` and paper are white). Streamlit's chart theme drew the ticks in #808495 (3.8:1).

One page serves the three modes: P1 found at 1440x900 in Standard mode, then the mode switched in the sidebar as a
visitor switches it (at the counter the figures are unfolded first); each mode's texts are read once, when its test
first asks, and a mode whose page could not be read fails its own test only.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame.theme import contrast_ratio  # noqa: E402
from browser.a11y_visit import Visit  # noqa: E402
from browser.conftest import ARTIFACTS, new_offline_page  # noqa: E402

pytestmark = pytest.mark.browser

#: (the text, its painted fill as #rrggbb, its font size in px) of every text of every chart on the page.
CHART_TEXT_JS = """() => [...document.querySelectorAll('.js-plotly-plot text')]
  .filter(t => (t.textContent || '').trim() && t.getClientRects().length > 0)
  .map(t => {
    const m = getComputedStyle(t).fill.match(/\\d+/g) || [];
    const hex = '#' + m.slice(0, 3).map(v => (+v).toString(16).padStart(2, '0')).join('');
    return [t.textContent.trim().slice(0, 30), hex, parseFloat(getComputedStyle(t).fontSize)];
  })"""


MODES = ["Standard", "Counter", "Projector"]


class ChartVisits:
    """One page at 1440x900 with tax parcel P1 found (in Standard mode), switched to each mode in the sidebar when
    a test first asks for it; what each mode's charts showed (or the error raised), kept for its test."""

    def __init__(self, app):
        self.app = app
        self.found: dict[str, Visit] = {}
        self.ready = False

    def of(self, mode: str) -> Visit:
        if mode not in self.found:
            visit = Visit(mode, "Parcel & constraints")
            visit.measure("chart texts", lambda: self._texts(mode))
            self.found[mode] = visit
        return self.found[mode]

    def _texts(self, mode: str) -> list:
        app, page = self.app, self.app.page
        if not self.ready:
            page.set_viewport_size({"width": 1440, "height": 900})
            app.open()
            app.wait_map()
            app.choose_parcel(fx.P1_SBL)
            self.ready = True
        if not page.locator('[data-testid="stSidebar"]').get_by_role("radio", name=mode).is_checked():
            app.switch_mode(mode)
        if mode == "Counter":  # the figures wait in a folded box at the counter
            page.get_by_text("The figures:", exact=False).first.click()
        page.wait_for_selector(".js-plotly-plot text", timeout=20_000)
        page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
        page.locator(".js-plotly-plot").first.screenshot(path=str(ARTIFACTS / f"a11y_chart_{mode.lower()}.png"))
        return page.evaluate(CHART_TEXT_JS)


@pytest.fixture(scope="module")
def chart_visits(contexts, app_url):
    """The one page the three modes' claims read (a new Streamlit session, closed after the module)."""
    app = new_offline_page(contexts, app_url)
    yield ChartVisits(app)
    app.page.close()


@pytest.mark.parametrize("mode", MODES)
def test_every_chart_text_is_4_5_to_1_on_white(chart_visits, mode):
    texts = chart_visits.of(mode)["chart texts"]
    assert len(texts) >= 5, texts  # the ticks, the rows' names and the bars' figures are there
    weak = [(t, fill, round(contrast_ratio(fill, "#ffffff"), 2)) for t, fill, _ in texts
            if contrast_ratio(fill, "#ffffff") < 4.5]
    assert not weak, weak
