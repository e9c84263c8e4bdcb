"""§ 402-49B, the flood hazard area review, as plain-English claims: it sends development *in* flood hazard areas
to the Flood Hazard Regulations, so a drawn footprint decides it; without one the lot's land in the area does.

The property is a 400 ft x 400 ft square; the Special Flood Hazard Area is its southern strip, 50 ft deep.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import sq  # noqa: E402
from sloat_core.gis.geometry import work_to_geojson  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402

PARCEL = sq(0, 0, 400)
SFHA = sq(0, 0, 400, 50)


def _flood(world_once, footprint=None, flood=(SFHA,)):
    world = world_once({"floodplain": list(flood)}, dem=0)  # read only: built once
    project = {"application_type": "building_permit"}
    if footprint is not None:
        project["disturbance_footprint"] = work_to_geojson(footprint)
    out = analyze(PARCEL, world, district="R-40", project=project)
    return next(p for p in out["permits"] if p["id"] == "flood_hazard_review")


def test_a_footprint_that_stays_out_of_the_flood_area_needs_no_flood_review_for_that_work(world_once):
    p = _flood(world_once, sq(100, 200, 100))
    assert p["required"] is False and p["citation"] == "§ 402-49B"
    assert "does not touch" in p["reason"] and "would be if the work reached" in p["reason"]
    assert p["submissions"] == [] and p["clocks"] == []


def test_a_footprint_whose_edge_is_one_foot_into_the_flood_area_keeps_the_review(world_once):
    p = _flood(world_once, sq(100, 49, 100))
    assert p["required"] is True and "touches 100 sq ft" in p["reason"]


def test_a_footprint_whose_edge_is_one_foot_outside_the_flood_area_is_not_held(world_once):
    assert _flood(world_once, sq(100, 51, 100))["required"] is False


def test_with_no_footprint_the_lots_land_in_the_flood_area_keeps_todays_answer(world_once):
    p = _flood(world_once)
    assert p["required"] is True and "20,000 sq ft of the lot" in p["reason"]


def test_a_lot_with_no_flood_area_needs_no_review_with_or_without_a_footprint(world_once):
    assert _flood(world_once, flood=())["required"] is False
    assert _flood(world_once, sq(100, 200, 100), flood=())["required"] is False
