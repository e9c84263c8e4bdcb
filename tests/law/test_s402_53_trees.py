"""§ 402-53 trees, as plain-English claims: § 402-53B regulates the removal of any tree; the tree survey the Board
may require locates "substantial tree specimens" (8 inches or more in diameter at least 4 ft above ground,
§ 402-53A); plantings have a minimum 2.5-3 inch caliper (§ 402-53F). The count of specimens removed changes
nothing in the permit's answer.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import make_world, permits_in, sq  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.law.params import param  # noqa: E402
from sloat_core.rules.project import parse_project  # noqa: E402
from law_day import LAW_DAY  # noqa: E402

PARCEL = sq(0, 0, 400)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return make_world(tmp_path_factory.mktemp("trees"), {}, dem=0)


def _tree(world, **project):
    out = analyze(PARCEL, world, district="R-40", project={"application_type": "building_permit", "existing_use": "other", **project})
    return next(p for p in out["permits"] if p["id"] == "tree_removal_permit")


def test_the_numbers_are_the_parameters_quoted_from_the_clauses():
    assert (param("substantial_tree_dbh_in", LAW_DAY).value, param("substantial_tree_dbh_in", LAW_DAY).citation) == (8, "§ 402-53A")
    assert param("substantial_tree_measure_height_ft", LAW_DAY).value == 4
    assert param("tree_planting_min_caliper_low_in", LAW_DAY).value == 2.5
    assert param("tree_planting_min_caliper_high_in", LAW_DAY).citation == "§ 402-53F"


def test_the_answer_states_the_surveys_definition_and_the_planting_caliper_with_their_numbers(world):
    p = _tree(world, trees_removed=3)
    assert p["required"] is True
    assert "8 inches or more in diameter measured at least 4 feet above ground (§ 402-53A)" in p["reason"]
    assert "minimum 2.5-3 inch caliper (§ 402-53F)" in p["reason"]
    assert {"§ 402-53A", "§ 402-53F"} <= set(p["citations"])


@pytest.mark.parametrize("specimens", [0, 1, 3])
def test_the_number_of_substantial_specimens_removed_does_not_change_the_permit(world, specimens):
    p = _tree(world, trees_removed=3, substantial_specimens_removed=specimens)
    assert p["required"] is True and "permit is needed for any tree" in p["reason"]


def test_more_specimens_than_trees_removed_is_refused_in_one_sentence():
    with pytest.raises(SloatInputError, match="cannot be more than the trees removed"):
        parse_project({"trees_removed": 2, "substantial_specimens_removed": 3})
    assert parse_project({"trees_removed": 3, "substantial_specimens_removed": 3}).substantial_specimens_removed == 3


def test_one_tree_on_a_lot_that_cannot_be_subdivided_with_the_use_not_given_is_unknown(world_once):
    # § 402-53C(2) exempts removal "from a property in existing one-family or two-family dwelling use,
    # provided the lot cannot be further subdivided": the use decides, so without it the answer is unknown.
    world = world_once({}, dem=0)
    p = permits_in(world, {"trees_removed": 1}, parcel=sq(0, 0, 200))["tree_removal_permit"]
    assert p["required"] is None and p["citation"] == "§ 402-53C(2)" and "existing use" in p["reason"]


def test_three_trees_with_the_use_not_given_are_required_whatever_the_use(world_once):
    world = world_once({}, dem=0)
    assert permits_in(world, {"trees_removed": 3}, parcel=sq(0, 0, 200))["tree_removal_permit"]["required"] is True


def test_tree_removal_by_a_public_agency_for_highway_work_is_exempt(world_once):
    # § 402-53C(1): "The removal of trees incident to highway or public utility construction or maintenance
    # conducted by a public agency"
    world = world_once({}, dem=0)
    p = permits_in(world, {"trees_removed": 40, "public_agency_work": True})["tree_removal_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-53C(1)"


def test_dead_or_dying_trees_posing_an_imminent_hazard_are_exempt(world_once):
    # § 402-53C(4): "Dead or dying trees that pose an imminent hazard to public safety."
    world = world_once({}, dem=0)
    p = permits_in(world, {"trees_removed": 5, "hazard_trees_only": True})["tree_removal_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-53C(4)"
    assert permits_in(world, {"trees_removed": 5, "hazard_trees_only": False})["tree_removal_permit"]["required"]
