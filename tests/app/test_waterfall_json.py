"""The Parcel page's waterfall is built from plain dicts without plotly's validation:
the figure the browser gets is the one plotly's own, validated build gives.

The reference below is app_support.views.results.waterfall_figure's rules built with plotly's own constructors
(``go.Waterfall``, ``add_hline``/``add_vline``, ``add_annotation`` and ``update_layout``); the two figures' JSON is
compared for upright and lying bars, the projector's and Counter's, with and without a district minimum, with unknown
deductions, with none, and through Streamlit's own chart message.
"""

from __future__ import annotations

import json
import math

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from app_support.views import results
from app_support.views.results import _wrap
from sloat_core.engine import plain


def plotly_built_waterfall(result: dict, *, large: bool = False, plain_words: bool = False) -> go.Figure:
    """The waterfall as app_support.views.results built it with plotly's own constructors (validated)."""
    steps = [d for d in result.get("deductions") or [] if (d.get("deducted_sqft") or 0) >= 0.5]
    # Unknown deductions (deducted_sqft None) are not drawn; the verdict names the range. Nor is a
    # deduction under half a square foot (a bar marked "0"): the table leaves it out too, as not on the lot.
    first, last = ("Your whole lot", "Counts toward your lot") if plain_words else ("Gross area", "Net lot area")
    names = [plain.plain_constraint(d.get("constraint") or "", d.get("label")).capitalize() if plain_words
             else (d.get("label") or d.get("constraint")) for d in steps]
    values = [result.get("gross_area_sqft") or 0.0] + [-(d["deducted_sqft"]) for d in steps]
    values.append(result.get("net_lot_area_sqft") or 0.0)
    measure = ["absolute"] + ["relative"] * len(steps) + ["total"]
    size = 24 if large else 13
    lying = large or plain_words or len(steps) > 1  # Counter: long everyday names read best lying down
    labels = [_wrap(x, 30 if lying else 16) for x in [first, *names, last]]
    # The bars carry no figures; each bar's figure is a note on a white box beyond the bar's high end (right of a
    # lying bar, above an upright one).
    bar = {"measure": measure, "text": [f"{abs(v):,.0f}" for v in values], "textposition": "none",
           "decreasing": {"marker": {"color": "#d7301f"}}, "totals": {"marker": {"color": "#1f78b4"}},
           "increasing": {"marker": {"color": "#33a02c"}}, "connector": {"line": {"color": "#888"}}}
    if lying:
        fig = go.Figure(go.Waterfall(orientation="h", y=labels, x=values, **bar))
    else:
        fig = go.Figure(go.Waterfall(x=labels, y=values, **bar))
    minimum = result.get("min_lot_area_sqft")
    top = max([v for v in values if v > 0] + [minimum or 0.0, 1.0])
    area_axis = {"title": {"text": "sq ft", "standoff": 8}, "range": [0, top * (1.25 if lying else 1.18)],
                 "tickformat": ",.0f", "gridcolor": "#dddddd", "automargin": True, "nticks": 4 if lying else 6,
                 "tickangle": 0}
    label_axis = {"automargin": True}
    if minimum:
        line = {"line_dash": "dash", "line_color": "#000", "line_width": 3 if large else 1.5}
        note = {"font": {"size": size, "color": "#000000"}, "bgcolor": "#ffffff", "showarrow": False,
                "yanchor": "bottom"}
        if lying:
            fig.add_vline(x=minimum, annotation_position="top", annotation_text=f"District minimum {minimum:,.0f} sq ft",
                          annotation_font=note["font"], annotation_bgcolor="#ffffff", **line)
        else:
            fig.add_hline(y=minimum, **line)
            fig.add_annotation(text=f"District minimum {minimum:,.0f} sq ft (dashed line)", x=0, xref="x domain",
                               xanchor="left", y=1, yref="y domain", **note)
    high, total = [], 0.0
    for k, value in enumerate(values):
        high.append(max(value, 0.0) if k in (0, len(values) - 1) else max(total, total + value))
        total = value if k == 0 else total + value
    for label, value, end in zip(labels, values, high):
        figure = {"text": f"{abs(value):,.0f}", "showarrow": False, "bgcolor": "#ffffff", "borderpad": 1,
                  "font": {"size": size, "color": "#000000"}, "xref": "x", "yref": "y"}
        if lying:
            fig.add_annotation(x=end, y=label, xanchor="left", xshift=3, **figure)
        else:
            fig.add_annotation(x=label, y=end, yanchor="bottom", yshift=2, **figure)
    if lying:
        label_axis.update({"autorange": "reversed"})  # gross area at the top, net lot area at the bottom
        layout = {"xaxis": area_axis, "yaxis": label_axis,
                  "height": (150 if large else 110) + (62 if large else 38) * len(labels)}
    else:
        layout = {"yaxis": area_axis, "xaxis": {**label_axis, "tickangle": 0}, "height": 360}
    fig.update_layout(margin={"l": 10, "r": 4 * size if lying else 10, "t": 50, "b": 10},
                      font={"size": size, "color": "#000000"},
                      showlegend=False, plot_bgcolor="#ffffff", paper_bgcolor="#ffffff", **layout)
    return fig



def _deduction(constraint: str, label: str, deducted: float | None) -> dict:
    return {"constraint": constraint, "label": label, "area_sqft": deducted, "countable_fraction": 0.0,
            "deducted_sqft": deducted, "citation": "§ 402-45A(1)"}


_STEPS = [_deduction("wetlands", "Wetlands", 10_000.0),
          _deduction("wetland_buffer", "Wetland and watercourse buffers", 12_345.6),
          _deduction("floodplain", "100-year floodplain (FEMA)", None),
          _deduction("slope_over_40", "Slopes over 40%", 3_210.4),
          _deduction("slope_25_40", "Slopes over 25% up to 40%", 812.25),
          _deduction("rock_outcrops", "Rock outcrops over 50 sq ft", 0.0)]


def _result(n_steps: int, minimum: float | None) -> dict:
    steps = _STEPS[:n_steps]
    gross = 87_654.3
    return {"gross_area_sqft": gross, "net_lot_area_sqft": gross - sum(d["deducted_sqft"] or 0 for d in steps),
            "min_lot_area_sqft": minimum, "deductions": steps}


CASES = [(n, minimum, large, plain_words) for n in (0, 1, 2, 3, 4, 6) for minimum in (None, 15_000.0, 200_000.0)
         for large in (False, True) for plain_words in (False, True)]


def _close(a, b, path="") -> list[str]:
    """Where two JSON values differ (numbers within a relative 1e-12)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return [f"{path}: keys {sorted(set(a) ^ set(b))}"]
        return [x for k in a for x in _close(a[k], b[k], f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: lengths {len(a)} != {len(b)}"]
        return [x for i, (p, q) in enumerate(zip(a, b)) for x in _close(p, q, f"{path}[{i}]")]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        return [] if math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9) else [f"{path}: {a} != {b}"]
    return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} != {b!r}"]


@pytest.mark.parametrize("n, minimum, large, plain_words", CASES)
def test_the_waterfall_json_is_plotlys_own(n, minimum, large, plain_words):
    result = _result(n, minimum)
    fast = results.waterfall_figure(result, large=large, plain_words=plain_words)
    slow = plotly_built_waterfall(result, large=large, plain_words=plain_words)
    assert isinstance(fast, go.Figure)
    assert _close(json.loads(pio.to_json(fast, validate=False)), json.loads(pio.to_json(slow, validate=False))) == []
    assert _close(fast.to_plotly_json(), slow.to_plotly_json()) == []
    # Streamlit's message: it turns a figure into a dict and writes its JSON (plotly.tools, validated once).
    from plotly.tools import return_figure_from_figure_or_data

    sent = pio.to_json(return_figure_from_figure_or_data(fast, validate_figure=True), validate=False)
    assert _close(json.loads(sent), json.loads(pio.to_json(slow, validate=False))) == []


def test_the_comparison_can_fail():
    """A figure that differs in one label, one number or one colour is told apart."""
    result = _result(2, 15_000.0)
    slow = json.loads(pio.to_json(plotly_built_waterfall(result), validate=False))
    for change in ({"net_lot_area_sqft": result["net_lot_area_sqft"] + 1.0}, {"min_lot_area_sqft": 15_001.0},
                   {"gross_area_sqft": None}):
        other = json.loads(pio.to_json(results.waterfall_figure({**result, **change}), validate=False))
        assert _close(other, slow), change
    assert _close(json.loads(pio.to_json(results.waterfall_figure(result, large=True), validate=False)), slow)


def test_the_fast_figure_is_a_valid_plotly_figure():
    """Every property the dicts hold is one plotly accepts: a validated build from its JSON raises nothing
    and gives the same figure."""
    for n, minimum, large, plain_words in CASES[::5]:
        fast = results.waterfall_figure(_result(n, minimum), large=large, plain_words=plain_words)
        again = go.Figure(json.loads(pio.to_json(fast, validate=False)))  # validates every property
        assert _close(again.to_plotly_json(), fast.to_plotly_json()) == []
