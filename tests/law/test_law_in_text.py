"""A law number changed in a copy of parameters.yaml changes every text that states it.

Labels, titles, evidence and legends are filled in from the parameters (``params.fill``), never
written with the number. The copy changes three values, each with a quote from its own clause that
states the new value (the loader refuses any other): the cluster slope threshold of § 402-48C(1)
("on 25% or more of the property"), the steep slope deduction threshold of § 402-45A(2)(a) ("Not more
than 50% of the land area") and the cluster lot minimum of § 402-48F ("no less than 50% of the yard
requirement"). Hypothetical amendments, chosen only because the shipped clauses quote those numbers.
"""

import copy
import datetime as dt

import pytest
import yaml

from engine_world import make_world, sq
from sloat_core.engine.analysis import analyze
from sloat_core.law import params
from sloat_core.outputs.report import _map_label
from sloat_core.measure.rows import deduction_label
from law_day import LAW_DAY

CHANGES = {
    "cluster_slope_threshold_pct": (25, "on 25% or more of the property"),
    "steep_slope_deduction_threshold_pct": (50, "Not more than 50% of the land area"),
    "cluster_min_lot_area_sqft": (50, "no less than 50% of the yard requirement"),
}


@pytest.fixture
def amended(tmp_path):
    doc = yaml.safe_load(params.PARAMS_PATH.read_text(encoding="utf-8"))
    doc = copy.deepcopy(doc)
    for name, (val, quote) in CHANGES.items():
        doc["parameters"][name]["values"][0].update(value=val, quote=quote)
    path = tmp_path / "parameters.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def world(tmp_path):
    def slope(x, y):
        return 500.0 + 0.30 * x  # 30 % everywhere: over 15 %, over 25 %

    (tmp_path / "w").mkdir()
    return make_world(tmp_path / "w", {"rock_outcrops": [sq(10, 10, 20)]}, dem=slope)


def _texts(obj) -> list[str]:
    """Every string in a JSON-like result."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [t for v in obj.values() for t in _texts(v)]
    if isinstance(obj, (list, tuple)):
        return [t for v in obj for t in _texts(v)]
    return []


def _stated(world, district="R-40"):
    r = analyze(sq(0, 0, 200), world, district=district)
    on = dt.date.fromisoformat(r["as_of"])  # the legend and the label read the law of the analysis's date
    rows = {d["constraint"]: d["label"] for d in r["deductions"]}
    t1 = next(t for t in r["cluster_triggers"] if t["id"] == "402-48C(1)")
    return r, {
        "deduction label": rows["slope_25_40"],
        "trigger title": t1["title"],
        "trigger evidence": t1["evidence"].split(":")[0],
        "cluster lot rule": r["per_district"][0]["cluster"]["lot_rule"],
        "report legend": _map_label("slope_25_40", on),
        "label function": deduction_label("slope_25_40", on),
    }


def test_every_text_stating_a_changed_parameter_changes(world, amended):
    (_, shipped) = _stated(world)
    assert shipped == {
        "deduction label": "Slopes over 25% up to 40%",
        "trigger title": "Slopes over 15% on 25% or more of the property",
        "trigger evidence": "Slopes over 15%",
        "cluster lot rule": "One-family detached dwellings on lots of at least 10,000 sq ft gross "
                            "(constraints not subtracted).",
        "report legend": "Slopes over 25% to 40%",
        "label function": "Slopes over 25% up to 40%",
    }
    with params.using_params(amended):
        result, changed = _stated(world)
    assert changed == {
        "deduction label": "Slopes over 50% up to 40%",
        "trigger title": "Slopes over 25% on 25% or more of the property",
        "trigger evidence": "Slopes over 25%",
        "cluster lot rule": "One-family detached dwellings on lots of at least 50 sq ft gross "
                            "(constraints not subtracted).",
        "report legend": "Slopes over 50% to 40%",
        "label function": "Slopes over 50% up to 40%",
    }
    # No text of the analysis still states an old value.
    texts = _texts(result)
    assert not [t for t in texts if "over 15%" in t or "10,000 sq ft" in t or "over 25% up to" in t]


def test_the_rules_follow_the_copy_too(tmp_path, amended):
    """Not only the words: the cluster trigger (1) reads the new threshold."""
    (tmp_path / "flat").mkdir()
    flat = make_world(tmp_path / "flat", {}, dem=lambda x, y: 500.0 + 0.20 * x)  # 20 % slopes

    def t1():
        return next(t for t in analyze(sq(0, 0, 200), flat)["cluster_triggers"] if t["id"] == "402-48C(1)")

    assert t1()["triggered"] is True  # 20 % slopes are over 15 %
    with params.using_params(amended):
        assert t1()["triggered"] is False  # ... but not over 25 %


def test_a_copy_stating_a_value_its_quote_does_not_is_refused(tmp_path):
    doc = yaml.safe_load(params.PARAMS_PATH.read_text(encoding="utf-8"))
    doc["parameters"]["very_steep_slope_threshold_pct"]["values"][0]["value"] = 45
    path = tmp_path / "parameters.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(params.SloatInputError, match="very_steep_slope_threshold_pct.*in excess of 40%"):
        with params.using_params(path):
            pass


def test_the_environment_variable_names_the_copy(amended, monkeypatch):
    monkeypatch.setenv(params.PARAMS_ENV, str(amended))
    assert params.value("cluster_slope_threshold_pct", LAW_DAY) == 25
    monkeypatch.delenv(params.PARAMS_ENV)
    assert params.value("cluster_slope_threshold_pct", LAW_DAY) == 15
