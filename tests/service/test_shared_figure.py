"""Figures shared by content between reruns and sessions (app_support.widgets.charts.shared_figure).

The Parcel page's waterfall is made once per answer: the same result gives the very same figure, whose
JSON is the one a fresh build gives; another result, or another flag, gives its own figure; the store is
bounded. The page shares it by the part of the answer it is drawn from (``waterfall_part``), not by the whole
answer: a real answer's figure is the same drawn from either.
"""

from __future__ import annotations

import copy

import plotly.io as pio

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.views.results import waterfall_figure, waterfall_part  # noqa: E402
from app_support.widgets import charts  # noqa: E402

RESULT = {"district": "R-15", "gross_area_sqft": 40000.0, "net_lot_area_sqft": 30000.0,
          "min_lot_area_sqft": 15000.0, "meets_min_lot_area": True,
          "deductions": [{"constraint": "wetlands", "label": "Wetlands", "area_sqft": 10000.0,
                          "countable_fraction": 0.0, "deducted_sqft": 10000.0, "citation": "§ 402-45A(1)"},
                         {"constraint": "floodplain", "label": "Floodplain", "area_sqft": None,
                          "countable_fraction": 0.0, "deducted_sqft": None, "citation": "§ 402-45A(1)"}]}


def test_the_same_answer_gets_the_same_figure_and_it_matches_a_fresh_build():
    first = charts.shared_figure(waterfall_figure, RESULT, large=False, plain_words=True)
    again = charts.shared_figure(waterfall_figure, copy.deepcopy(RESULT), large=False, plain_words=True)
    assert again is first
    assert pio.to_json(first, validate=False) == pio.to_json(waterfall_figure(RESULT, plain_words=True),
                                                             validate=False)


def test_another_answer_or_flag_gets_its_own_figure():
    base = charts.shared_figure(waterfall_figure, RESULT, large=False, plain_words=False)
    other = dict(RESULT, net_lot_area_sqft=29_000.0)
    assert charts.shared_figure(waterfall_figure, other, large=False, plain_words=False) is not base
    assert charts.shared_figure(waterfall_figure, RESULT, large=True, plain_words=False) is not base
    large = charts.shared_figure(waterfall_figure, RESULT, large=True, plain_words=False)
    assert pio.to_json(large, validate=False) == pio.to_json(waterfall_figure(RESULT, large=True), validate=False)


def test_the_store_is_bounded():
    for i in range(charts._SHARED_MAX + 20):
        charts.shared_figure(waterfall_figure, dict(RESULT, net_lot_area_sqft=float(i)), large=False)
    assert len(charts._SHARED) == charts._SHARED_MAX


def test_a_real_answer_draws_the_same_figure_from_its_part_and_only_the_part_names_the_shared_figure(manifest):
    from sloat_core.engine.analysis import analyze
    from sloat_core.gis.layers import load_manifest
    from sloat_core.gis.parcels import parcel_by_sbl

    layers = load_manifest(manifest)
    answer = analyze(parcel_by_sbl(layers, fx.P1_SBL), layers)
    assert [d["deducted_sqft"] for d in answer["deductions"] if d["deducted_sqft"]]  # something is deducted
    part = waterfall_part(answer)
    assert len(str(part)) * 5 < len(str(answer))  # (the whole answer is what the key no longer hashes)
    for flags in ({}, {"large": True}, {"plain_words": True}):
        assert pio.to_json(waterfall_figure(part, **flags), validate=False) == \
            pio.to_json(waterfall_figure(answer, **flags), validate=False)
    shared = charts.shared_figure(waterfall_figure, part, large=False, plain_words=False)
    elsewhere = dict(copy.deepcopy(answer), district="R-40", citations=["something else"])  # not drawn
    assert charts.shared_figure(waterfall_figure, waterfall_part(elsewhere), large=False, plain_words=False) is shared
    drawn = copy.deepcopy(answer)
    drawn["deductions"][0]["deducted_sqft"] = (drawn["deductions"][0]["deducted_sqft"] or 0) + 1.0
    assert charts.shared_figure(waterfall_figure, waterfall_part(drawn), large=False, plain_words=False) is not shared
