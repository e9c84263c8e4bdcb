"""The charts' own text (axis ticks, titles, bar labels) is 4.5:1 against the chart's background, in a
real browser, in every mode. axe-core does not measure text drawn in SVG, so this test does: for every ``<text>``
of every plotly chart on the Parcel page (the waterfall) with a parcel chosen, the painted fill against white
(each chart's ``plot_bgcolor`` and paper are white). Streamlit's chart theme drew the ticks in #808495 (3.8:1).
And no chart text runs into another or under the chart's dashed line.

The Parcel page is the accessibility visits' (tests/browser/a11y_visit.py: a visitor's case of P1, at 1366 x 900, the
mode switched in the sidebar as a visitor switches it); each mode's chart texts are read at the end of its Parcel
page's visit (at the counter the figures' folded box is opened first), and a mode whose page could not be read fails
its own test only. Screenshots: tests/artifacts/a11y_chart_<mode>.png.
"""

from __future__ import annotations

import pytest

from app_support.frame.theme import contrast_ratio
from browser.a11y_visit import MODES, PARCEL

#: One worker walks the pages once for this module and the other modules that read the visits (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-a11y-visits")]


@pytest.mark.parametrize("mode", MODES)
def test_every_chart_text_is_4_5_to_1_on_white(a11y_visits, mode):
    texts = a11y_visits.of(mode, PARCEL)["chart texts"]["texts"]
    assert len(texts) >= 5, texts  # the ticks, the rows' names and the bars' figures are there
    weak = [(t, fill, round(contrast_ratio(fill, "#ffffff"), 2)) for t, fill, _ in texts
            if contrast_ratio(fill, "#ffffff") < 4.5]
    assert not weak, weak


@pytest.mark.parametrize("mode", MODES)
def test_no_chart_text_runs_into_another_or_under_a_line(a11y_visits, mode):
    """Each text of a chart reads on its own, at 1366 px and at the deduction table's windows (1500 px, and 1280 px in
    Standard mode): no axis label over another (at the counter the area axis once printed "20,00030,00040,000"), no
    bar's figure over a row's name ("11,217" over "up to 40%)" when a deduction's figure sat beyond its bar's low
    end), and no figure under the district minimum's dashed line ("14,927" was crossed by it)."""
    visit = a11y_visits.of(mode, PARCEL)
    seen = {1366: visit["chart texts"]["overlapping texts"]}
    seen.update({width: at["overlapping chart texts"] for width, at in visit["citations"].items()})
    assert {width: found for width, found in seen.items() if found} == {}
