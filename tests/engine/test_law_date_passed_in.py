"""The date a rule is applied at is passed in: an analysis or a plan check as of a date reads every number of
Article IX as in effect on that date, in the measuring and in the rules alike.

A copy of parameters.yaml amends three values from 2090-01-01 (hypothetical amendments, each quoted from its
own clause, as the loader requires; see tests/law/test_law_in_text.py): the steep slope deduction threshold of
§ 402-45A(2)(a) becomes 50 % (a measuring value: which land the deduction row takes), the cluster slope
threshold of § 402-48C(1) becomes 25 % (a measuring value: the slope set the trigger reads) and the cluster lot
minimum of § 402-48F becomes 50 sq ft (a rule value). A value holds from its effective day, that day included.

The labels too (the CAD export's layer words, the printed map's legend) state the law of the analysis's date:
with the same amendments in force from today, an analysis as of yesterday states the old numbers.
"""

import copy
import datetime as dt

import pytest
import yaml

from engine_world import make_world, plan_of, sq
from sloat_core.engine.analysis import analyze
from sloat_core.law import params
from sloat_core.plan.check import check_plan

CHANGED_ON = dt.date(2090, 1, 1)
DAY_BEFORE = CHANGED_ON - dt.timedelta(days=1)
AMENDMENTS = {
    "steep_slope_deduction_threshold_pct": (50, "Not more than 50% of the land area"),
    "cluster_slope_threshold_pct": (25, "on 25% or more of the property"),
    "cluster_min_lot_area_sqft": (50, "no less than 50% of the yard requirement"),
}


def _amended_copy(folder, effective: dt.date):
    """A copy of parameters.yaml in ``folder`` with the `AMENDMENTS` in force from ``effective``."""
    doc = copy.deepcopy(yaml.safe_load(params.PARAMS_PATH.read_text(encoding="utf-8")))
    for name, (val, quote) in AMENDMENTS.items():
        doc["parameters"][name]["values"].append({"effective": effective, "value": val, "quote": quote})
    path = folder / "parameters.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def amended(tmp_path):
    with params.using_params(_amended_copy(tmp_path, CHANGED_ON)):
        yield


def _world(tmp_path, name: str, slope_fraction: float):
    (tmp_path / name).mkdir()
    return make_world(tmp_path / name, {}, dem=lambda x, y: 500.0 + slope_fraction * x)


def _t1(result: dict) -> dict:
    return next(t for t in result["cluster_triggers"] if t["id"] == "402-48C(1)")


def _row(result: dict, constraint: str) -> dict:
    return next(d for d in result["deductions"] if d["constraint"] == constraint)


def test_an_analysis_as_of_a_date_after_a_parameter_changes_reads_the_new_value_in_every_rule(tmp_path, amended):
    steep = _world(tmp_path, "steep", 0.30)  # 30 % everywhere: over 25 % (the old threshold), not over 50 %
    before = analyze(sq(0, 0, 200), steep, district="R-40", as_of=DAY_BEFORE)
    after = analyze(sq(0, 0, 200), steep, district="R-40", as_of=CHANGED_ON)

    # Measuring: the § 402-45A(2)(a) row takes the 30 % land before the change, none of it from the day of it.
    assert _row(before, "slope_25_40")["area_sqft"] == pytest.approx(40_000, rel=0.02)
    assert _row(after, "slope_25_40")["area_sqft"] == pytest.approx(0.0, abs=1.0)
    assert before["net_lot_area_sqft"] < after["net_lot_area_sqft"] == pytest.approx(40_000, rel=0.001)
    assert _row(before, "slope_25_40")["label"] == "Slopes over 25% up to 40%"
    assert _row(after, "slope_25_40")["label"] == "Slopes over 50% up to 40%"

    # The rule: the cluster lot minimum of § 402-48F.
    assert before["per_district"][0]["cluster"]["cluster_min_lot_area_sqft"] == 10_000
    assert after["per_district"][0]["cluster"]["cluster_min_lot_area_sqft"] == 50
    # The trigger's words state the threshold of its date.
    assert _t1(before)["title"].startswith("Slopes over 15%") and _t1(after)["title"].startswith("Slopes over 25%")
    assert _t1(after)["evidence"].startswith("Slopes over 25%")


def test_the_cluster_trigger_reads_the_slope_threshold_of_the_analysis_date(tmp_path, amended):
    gentle = _world(tmp_path, "gentle", 0.20)  # 20 % everywhere: over 15 %, not over 25 %
    assert _t1(analyze(sq(0, 0, 200), gentle, district="R-40", as_of=DAY_BEFORE))["triggered"] is True
    assert _t1(analyze(sq(0, 0, 200), gentle, district="R-40", as_of=CHANGED_ON))["triggered"] is False


def test_a_plan_check_as_of_a_date_reads_the_law_of_that_date_for_each_lot(tmp_path, amended):
    # One cluster lot of 80 x 100 = 8,000 sq ft gross in R-40 on 30 % slopes.
    steep = _world(tmp_path, "plan", 0.30)
    drawing = plan_of([("A", sq(0, 0, 80, 100))])

    def lot(on):
        out = check_plan(sq(0, 0, 200, 100), drawing, steep, district="R-40", kind="cluster", as_of=on).to_dict()
        return out["lots"][0]

    old, new = lot(DAY_BEFORE), lot(CHANGED_ON)
    assert (old["min_lot_area_sqft"], old["conforms"]) == (10_000, False)  # § 402-48F before the change
    assert (new["min_lot_area_sqft"], new["conforms"]) == (50, True)  # ... and from its day
    # The lot's own measuring follows the date too: its 30 % land is deducted before the change only.
    assert old["net_lot_area_sqft"] == pytest.approx(4_000, rel=0.02)
    assert new["net_lot_area_sqft"] == pytest.approx(8_000, rel=0.001)


def test_the_same_analysis_without_the_amendment_is_unchanged_by_its_date(tmp_path):
    steep = _world(tmp_path, "shipped", 0.30)
    a = analyze(sq(0, 0, 200), steep, district="R-40", as_of=DAY_BEFORE)
    b = analyze(sq(0, 0, 200), steep, district="R-40", as_of=CHANGED_ON)
    assert a["net_lot_area_sqft"] == b["net_lot_area_sqft"]
    assert _row(a, "slope_25_40")["label"] == _row(b, "slope_25_40")["label"]


def test_the_village_screen_as_of_a_date_reads_the_law_of_that_date_and_agrees_with_the_analysis(tmp_path, amended):
    from sloat_core.engine.screening import screen_rows

    parcel = sq(0, 0, 200)
    (tmp_path / "screen").mkdir()
    world = make_world(tmp_path / "screen", {"parcels": [(parcel, {"SBL": "1-1-1", "ZONE": "R-40"})]},
                       dem=lambda x, y: 500.0 + 0.20 * x)  # 20 % everywhere
    old = next(screen_rows(world, as_of=DAY_BEFORE))
    new = next(screen_rows(world, as_of=CHANGED_ON))
    assert (old["trigger_1"], new["trigger_1"]) == ("yes", "no")  # over 15 %, not over 25 %
    for row, on in ((old, DAY_BEFORE), (new, CHANGED_ON)):
        result = analyze(parcel, world, district="R-40", as_of=on)
        assert row["trigger_1"] == {True: "yes", False: "no", None: ""}[_t1(result)["triggered"]]


def test_the_cad_layers_and_the_printed_legend_state_the_law_of_the_analysis_date_not_of_today(tmp_path):
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.outputs.cad import CAD_LAYERS, constraint_layers, constraints_dxf
    from sloat_core.outputs.report.map import map_and_legend

    # The amendments in force from today (after the shipped values' day, should the clock say otherwise): the law
    # of today deducts slopes over 50 %, an analysis as of yesterday slopes over 25 %.
    today = max(dt.date.today(), dt.date(2026, 11, 30))
    yesterday = today - dt.timedelta(days=1)
    (tmp_path / "copy").mkdir()
    with params.using_params(_amended_copy(tmp_path / "copy", today)):
        steep = _world(tmp_path, "cad", 0.30)  # 30 % everywhere: deducted under the old threshold only
        analysis = analyze_parcel(sq(0, 0, 200), steep, district="R-40", as_of=yesterday)
        files = constraint_layers(analysis)
        words = {p.layer.key: p.what for p in files.pieces}
        assert words["slope_25_40"] == "Slopes over 25% up to 40%, § 402-45A(2)(a)"
        assert "Slopes over 25% up to 40%, § 402-45A(2)(a)" in constraints_dxf(analysis, files).decode("utf-8")
        _png, _ratio, legend = map_and_legend(analysis, steep)
        assert "Slopes over 25% to 40%: counts 50%" in [label for label, _swatch in legend]

        # The same parcel as of today: nothing over 50 % (no layer, no legend entry), and the words of today.
        today_files = constraint_layers(analyze_parcel(sq(0, 0, 200), steep, district="R-40", as_of=today))
        assert "slope_25_40" not in {p.layer.key for p in today_files.pieces}
        layer = next(c for c in CAD_LAYERS if c.key == "slope_25_40")
        assert (layer.what(yesterday), layer.what(today)) == ("Slopes over 25% up to 40%, § 402-45A(2)(a)",
                                                              "Slopes over 50% up to 40%, § 402-45A(2)(a)")
