"""The counter's answer is about the project first: what the project's facts and
footprint trigger under "What your project needs", then the land's permits the project does not trigger
under "What the parcel carries for any later work"; an unknown names the project fact to give; a district
without a minimum lot size gets a what-if at the dated candidate minimums, whom to ask, never a verdict.

Read on the shipped illustrative sample (data/sample, inside the repository): tax parcel 155.06-1-42 has
flood zone, county drainage agency land, the aquifer CEA, a stream's buffer and steep ground.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import box, mapping

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import deduction, result_with  # noqa: E402
from sloat_core.engine.analysis import analyze, analyze_parcel  # noqa: E402
from sloat_core.engine.answer import PARCEL_HEADING, PROJECT_HEADING, lot_answer, permits_by_cause  # noqa: E402
from sloat_core.engine.result import LotSizeWhatIf  # noqa: E402
from sloat_core.engine.what_if import load_what_if, what_if  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels.tax_parcels import parcel_by_sbl  # noqa: E402
from sloat_core.units import WGS84, WORK_CRS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SBL = "155.06-1-42"


@pytest.fixture(scope="module")
def sample():
    layers = load_manifest(ROOT / "data" / "sample" / "layers.yaml")
    return layers, parcel_by_sbl(layers, SBL)


def _ids(permits):
    return {p.id for p in permits}


def typed(parcel, layers, **kw):
    """The typed result of the parcel's analysis (``analyze_parcel(...).result``), as the answer reads it."""
    return analyze_parcel(parcel, layers, **kw).result


def _wgs84(geom) -> dict:
    return json.loads(json.dumps(mapping(gpd.GeoSeries([geom], crs=WORK_CRS).to_crs(WGS84).iloc[0])))


def _far_from_the_floodplain(layers, parcel):
    """A 20 x 20 ft garage inside the lot, at least 60 ft from any flood zone (EPSG:2260 feet)."""
    flood = layers.get("floodplain")
    zones = flood.gdf.geometry.union_all().buffer(60)
    room = parcel.geometry.buffer(-15).difference(zones)
    assert room.area > 2000, "the sample lot has dry ground away from the flood zone"
    p = room.representative_point()
    return box(p.x - 10, p.y - 10, p.x + 10, p.y + 10)


def test_cutting_three_trees_needs_the_tree_permit_not_the_flood_review_the_county_or_seqra(sample):
    layers, parcel = sample
    r = typed(parcel, layers, project={"trees_removed": 3})
    mine, carried = permits_by_cause(r)
    likely = {p.id for p in mine if p.required is True}
    assert likely == {"tree_removal_permit"}
    assert {"flood_hazard_review", "rcda_review", "seqra_cea"}.isdisjoint(likely)
    assert "flood_hazard_review" in _ids(carried)  # the land's, for any later work
    a = lot_answer(r)
    assert a.project_described and a.project_needs[0].startswith("You will likely need a tree removal permit")
    assert not any("likely need" in s and ("flood" in s or "Drainage" in s or "SEQRA" in s)
                   for s in a.project_needs)
    assert any("flood zone review" in s for s in a.parcel_carries)
    # The county agency's question is the project's: which application the work needs.
    assert any("Rockland County Drainage Agency" in s and "what application" in s for s in a.project_needs)
    # Next steps apply only for what the project needs.
    applies = next(s for s in a.next_steps if s.startswith("Apply for"))
    assert "tree removal permit" in applies and "flood" not in applies
    # The handout's list tells the project first, then the land.
    assert a.in_the_way.index(a.project_needs[0]) < a.in_the_way.index(a.parcel_carries[0])


def test_a_garage_drawn_far_from_the_floodplain_leaves_the_flood_review_to_the_parcel(sample):
    layers, parcel = sample
    garage = _far_from_the_floodplain(layers, parcel)
    r = typed(parcel, layers, project={"application_type": "building_permit", "new_structure": True,
                                         "accessory_structure": "garage", "disturbance_footprint": _wgs84(garage)})
    flood = r.permit("flood_hazard_review")
    assert flood.required is False  # the rule's answer for the drawn work (§ 402-49B)
    mine, carried = permits_by_cause(r)
    assert "flood_hazard_review" not in _ids(mine)
    assert next(p for p in carried if p.id == "flood_hazard_review").required is True
    assert "commercial_excavation_prohibited" not in _ids(mine) | _ids(carried)  # prohibitions apart
    a = lot_answer(r)
    assert not any("flood" in s for s in a.project_needs)
    assert any("flood zone review" in s for s in a.parcel_carries)


def test_with_no_project_the_project_needs_nothing_yet_and_the_land_permits_are_the_parcels(sample):
    layers, parcel = sample
    r = typed(parcel, layers)
    mine, carried = permits_by_cause(r)
    assert mine == [] and {"flood_hazard_review", "rcda_review", "seqra_cea"} <= _ids(carried)
    a = lot_answer(r)
    assert not a.project_described and "No project is described yet" in a.project_needs[0]
    assert not any(s.startswith("Apply for") for s in a.next_steps)
    assert len(a.top) == 3 and a.top[0] in a.in_the_way


def test_an_unknown_that_is_the_projects_names_the_fact_to_give(sample):
    layers, parcel = sample
    a = lot_answer(typed(parcel, layers, project={"trees_removed": 3}))
    sewer = next(s for s in a.project_needs if "sewer or septic" in s)
    assert sewer.endswith("depends on the project: say whether a new structure needs sanitary facilities.")
    assert not any("Unknown on the layers" in s or "not known yet" in s for s in a.project_needs)


def test_three_trees_cut_for_a_house_on_an_approved_lot_in_the_cea_are_not_told_seqra_may_be_needed(sample):
    """A one-family house on an approved lot is Type II (6 NYCRR 617.5(c)): no SEQRA review, so the counter says
    nothing of one, neither for the project nor as something the parcel carries (§ 402-46C is for Type I and
    Unlisted actions). Without the approved lot the class is unknown and the counter asks that one question."""
    layers, parcel = sample
    house = {"application_type": "building_permit", "one_family_dwelling": True, "trees_removed": 3}
    r = typed(parcel, layers, project={**house, "on_approved_lot": True})
    assert r.approvals_detail.seqr["class"] == "Type II"
    a = lot_answer(r)
    said = [s for _, items, _ in a.sections() for s in items]
    assert not any("SEQRA" in s for s in said), [s for s in said if "SEQRA" in s]
    assert a.project_needs[0].startswith("You will likely need a tree removal permit")
    unknown = lot_answer(typed(parcel, layers, project=house))
    seqra = [s for s in unknown.project_needs if "SEQRA" in s]
    assert len(seqra) == 1 and "depends on the project" in seqra[0] and "approved lot" in seqra[0]


def test_the_headings_are_the_issues_words():
    assert PROJECT_HEADING == "What your project needs"
    assert PARCEL_HEADING == "What the parcel carries for any later work"


def test_a_neighbours_wetland_is_said_to_be_the_neighbours_before_the_wetland_scientist():
    rows = [deduction(c, c, a, a * f, 1 - f)
            for c, a, f in (("water_bodies", 0.0, 1), ("watercourses", 0.0, 1), ("wetlands", 0.0, 1),
                            ("buffer", 4000.0, 0.5))]
    lot = {"gross_area_sqft": 30000.0, "net_lot_area_sqft": 28000.0, "net_lot_area_min_sqft": 28000.0,
           "district": "R-15", "min_lot_area_sqft": 15000.0, "meets_min_lot_area": True, "permits": [],
           "land_permits": []}
    a = lot_answer(result_with(**lot, deductions=rows))
    studies = next(s for s in a.next_steps if s.startswith("Before applying"))
    assert "neighbour's land" in studies and studies.index("neighbour") < studies.index("ask the neighbour")
    assert any("neighbour's land" in s for s in a.lot_limits)
    rows[2] = deduction("wetlands", "wetlands", 100.0, 100.0, 0)  # a wetland on the lot itself: the usual delineation
    b = lot_answer(result_with(**lot, deductions=rows))
    assert not any("neighbour" in s for s in b.next_steps + b.lot_limits)


def test_a_district_without_a_minimum_gets_a_what_if_at_the_dated_candidates_and_whom_to_ask():
    s = load_what_if()
    assert s.verify is True and s.effective == "2026-12-02" and s.districts["VC-1"] == (10000, 15000)
    assert {"OSR", "MU-1", "MU-2", "VC-1", "VC-2", "O", "IP"} <= set(s.districts)
    w = what_if("VC-1", 12000.0, 12000.0)
    assert [(c["min_lot_area_sqft"], c["meets_min_lot_area"]) for c in w["cases"]] == [(10000, True), (15000, False)]
    assert w["cases"][1]["short_by_sqft"] == pytest.approx(3000.0, abs=0.01)
    assert what_if("VC-1", 12000.0, 9000.0)["cases"][0]["meets_min_lot_area"] is None  # unknown land: no answer
    assert what_if("R-40", 12000.0, 12000.0) is None  # not listed: a district with a minimum
    a = lot_answer(result_with(gross_area_sqft=12000.0, net_lot_area_sqft=12000.0, net_lot_area_min_sqft=12000.0,
                               district="VC-1", min_lot_area_sqft=None, meets_min_lot_area=None, deductions=[],
                               permits=[], land_permits=[], min_lot_area_what_if=LotSizeWhatIf.from_dict(w)))
    assert a.verdict == "unknown"  # a what-if is never the verdict
    assert "What if (not the Village's figures)" in a.house and "Building Department" in a.house
    assert "10,000 sq ft, the lot would look big enough" in a.house and "3,000 sq ft short" in a.house
    assert "to confirm with the Village" in a.house and "2026-12-02" in a.house


def test_the_analysis_carries_the_what_if_for_a_district_without_a_minimum(sample):
    layers, parcel = sample
    r = analyze(parcel, layers, district="VC-1")
    assert r["min_lot_area_sqft"] is None and r["meets_min_lot_area"] is None
    cases = r["min_lot_area_what_if"]["cases"]
    assert [c["min_lot_area_sqft"] for c in cases] == [10000, 15000]
    assert analyze(parcel, layers, district="R-40")["min_lot_area_what_if"] is None


@pytest.mark.parametrize("body, why", [
    ("districts: {VC-1: [12]}\neffective: 2026-12-02\n", "whole numbers"),
    ("districts: {VC-1: [10000]}\neffective: soon\n", "ISO date"),
    ("effective: 2026-12-02\n", "no 'districts'"),
    ("districts: {VC-1: [1e9]}\neffective: 2026-12-02\n", "whole numbers"),
])
def test_a_bad_candidates_file_is_refused_in_one_sentence_naming_the_file(tmp_path, body, why):
    path = tmp_path / "what_if.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(SloatInputError) as err:
        load_what_if(path)
    assert why in str(err.value) and "what_if.yaml" in str(err.value) and str(tmp_path) not in str(err.value)
