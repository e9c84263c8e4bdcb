"""§ 402-50B and C, the county drainage agency's review, as plain-English claims: B binds the Planning Board's
final site plan, subdivision plan or special permit, C the building permit for a structure or improvement, both
for property under the agency's jurisdiction. Work needing neither is not held by it.

The property is a 400 ft x 400 ft square whose southern 50 ft strip is under the agency's jurisdiction.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import sq  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402

PARCEL = sq(0, 0, 400)


def _rcda(world_once, project, rcda=True):
    world = world_once({"rcda": [sq(0, 0, 400, 50)] if rcda else []}, dem=0)  # read only: built once
    out = analyze(PARCEL, world, district="R-40", project=project)
    return next(p for p in out["permits"] if p["id"] == "rcda_review")


@pytest.mark.parametrize("kind", ["site_plan", "subdivision", "special_permit"])
def test_a_planning_board_application_on_agency_land_is_held_by_b(world_once, kind):
    p = _rcda(world_once, {"application_type": kind})
    assert p["required"] is True and p["citation"] == "§ 402-50B"
    assert "would not bind work needing no board approval" in p["reason"]


def test_a_building_permit_for_a_garage_on_agency_land_is_held_by_c(world_once):
    p = _rcda(world_once, {"application_type": "building_permit", "accessory_structure": "garage"})
    assert p["required"] is True and p["citation"] == "§ 402-50C"


def test_a_new_structure_without_an_application_type_is_held_by_c(world_once):
    assert _rcda(world_once, {"new_structure": True})["citation"] == "§ 402-50C"


def test_tree_cutting_with_no_permit_of_either_kind_is_not_held_and_says_what_would_change_it(world_once):
    p = _rcda(world_once, {"trees_removed": 3, "new_structure": False})
    assert p["required"] is False
    assert "§ 402-50B" in p["reason"] and "§ 402-50C" in p["reason"] and "It would apply if" in p["reason"]
    assert p["submissions"] == [] and p["clocks"] == []


def test_tree_cutting_that_does_not_say_what_permit_it_needs_is_unknown_with_the_question(world_once):
    p = _rcda(world_once, {"trees_removed": 3})
    assert p["required"] is None and "what application does it need" in p["reason"]


def test_land_not_under_the_agency_is_not_held_whatever_the_application(world_once):
    assert _rcda(world_once, {"application_type": "subdivision"}, rcda=False)["required"] is False


def test_with_no_project_described_the_lots_agency_land_keeps_the_maps_answer(world_once):
    p = _rcda(world_once, None)
    assert p["required"] is True and p["citation"] == "§ 402-50B"
