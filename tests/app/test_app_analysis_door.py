"""The app side of the one door from the app into the engine (app_support.analysis_door).

Every page's analysis (the parcel's answer, the project form's, the cluster and mitigation pages', the
walk-through's pictures, a case's downloads) comes from one cached run per distinct set of facts, and each
result is what the engine itself gives for those facts. Layer set: tests/app_fixtures.py (parcel P1).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import sys
from pathlib import Path

import pytest
from shapely.geometry import box

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support import analysis_door, loaders  # noqa: E402
from app_support.cases import cases_ui  # noqa: E402
from app_support.widgets import forms  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402
from sloat_core.gis.parcels.placement import to_wgs84_geojson  # noqa: E402
from sloat_core.store import Case, analyze_case  # noqa: E402

DAY = dt.date(2026, 6, 1)
FOOTPRINT = box(fx.X0 + 25, fx.Y0 + 50, fx.X0 + 125, fx.Y0 + 150)


def same(a, b, path="result") -> None:
    """Two results are the same: equal keys and strings, numbers within 1e-9 relative (no bit-for-bit floats)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (path, sorted(set(a) ^ set(b)))
        for k in a:
            same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and not isinstance(a, bool):
        assert isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9), (path, a, b)
    else:
        assert a == b, (path, a, b)


@pytest.fixture()
def world(manifest):
    loaders._layerset.clear()
    analysis_door._run.clear()
    layers = loaders.layerset()
    return layers, parcel_by_sbl(layers, fx.P1_SBL)


def test_the_parcel_answer_is_the_engines(world, manifest):
    layers, parcel = world
    got = analysis_door.result(parcel, layers, district=None)
    assert got is analysis_door.analysis(parcel, layers).result  # the typed result itself, not a copy
    same(got.to_dict(), analyze(parcel, load_manifest(manifest), settings=loaders.settings()))
    assert analysis_door.analysis(parcel, layers, district=None).result is analysis_door.analysis(parcel, layers).result


def test_the_project_answer_is_the_engines_and_the_footprint_touches_are_its_summary(world, manifest):
    layers, parcel = world
    project = {"trees_removed": 3, "disturbance_footprint": fx.wgs84_feature(FOOTPRINT)["geometry"]}
    answers = {"402-48C(4)": True}
    mit = {"proposed_mitigation_sqft": 4000.0, "impact_source": "footprint"}
    result, touches = forms.project_analysis(parcel, layers, None, project, board_answers=answers,
                                             mitigation_input=mit, as_of=DAY)
    same(result.to_dict(), analyze(parcel, load_manifest(manifest), project=project, board_answers=answers,
                         mitigation_input=mit, as_of=DAY, settings=loaders.settings()))
    assert touches["footprint_sqft"] == pytest.approx(10_000, abs=1)
    assert touches["wetland_sqft"] == pytest.approx(2_500, abs=1)
    assert touches["buffer_sqft"] == pytest.approx(7_500, abs=1)
    assert forms.project_analysis(parcel, layers, None, {"trees_removed": 3})[1] == {}  # no footprint


def test_same_facts_are_one_run_whichever_page_asks(world):
    layers, parcel = world
    a = analysis_door.analysis(parcel, layers, district=None)
    b = analysis_door.analysis(parcel, layers, project={}, board_answers=None, mitigation_input={})
    assert a is b  # empty facts are no facts: one run, not three
    r1, _ = forms.project_analysis(parcel, layers, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):  # shared by every page and session: nobody changes it
        r1.gross_area_sqft = -1
    kept = analysis_door.copy_result(r1)  # a dict of the caller's own (a case's snapshot)
    kept["gross_area_sqft"] = -1
    assert analysis_door.result(parcel, layers, district=None).gross_area_sqft == pytest.approx(40_000, abs=1)
    c = analysis_door.analysis(parcel, layers, project={"trees_removed": 3})
    assert c is not a and analysis_door.analysis(parcel, layers, project={"trees_removed": 3}) is c


def test_a_case_is_the_store_s_analysis_with_its_overrides(world):
    layers, parcel = world
    case = Case(id="A" * 22, parcel_geojson=to_wgs84_geojson(parcel.geometry),
                parcel_meta={"sbl": fx.P1_SBL, "source": "tax parcel"}, project={"trees_removed": 3},
                settings_overrides={"buffer_width_ft": 50})
    got = cases_ui.case_analysis(case, as_of=DAY)
    same(got.to_dict(), analyze_case(case, layers, as_of=DAY).to_dict())
    plain = Case(id="B" * 22, parcel_geojson=case.parcel_geojson, parcel_meta=case.parcel_meta,
                 project={"trees_removed": 3})
    other = cases_ui.case_analysis(plain, as_of=DAY)
    same(other.to_dict(), analyze_case(plain, layers, as_of=DAY).to_dict())
    assert other is not got  # the overrides are part of the key


def test_the_typed_view_reads_the_result(world):
    layers, parcel = world
    v = analysis_door.view(parcel, layers, project={"trees_removed": 3}, as_of=DAY)
    assert v.gross_area_sqft == pytest.approx(40_000, abs=1) and v.as_of == DAY.isoformat()
    assert any(p.id == "tree_removal_permit" for p in v.permits)
