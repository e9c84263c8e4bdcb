"""§ 402-46C, the SEQRA evaluation of the Ramapo aquifer CEA, as plain-English claims: it concerns "any Type I
or Unlisted Action", so it follows both the map (is the lot in the CEA?) and the project's SEQR class.

The property is a 400 ft x 400 ft square wholly inside the CEA (or, for the control, with no CEA at all).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import sq  # noqa: E402
from sloat_core.engine.analysis import analyze, analyze_parcel  # noqa: E402
from sloat_core.engine.plain import plain_permits  # noqa: E402
from sloat_core.law.text import clause  # noqa: E402

PARCEL = sq(0, 0, 400)


def _analyze(world_once, project, cea=True):
    world = world_once({"aquifer_cea": [sq(-100, -100, 600)] if cea else []}, dem=0)  # read only: built once
    return analyze(PARCEL, world, district="R-40", project=project)


def _typed(world_once, project, cea=True):
    """The typed result (``analyze_parcel(...).result``), as the counter's words read it."""
    world = world_once({"aquifer_cea": [sq(-100, -100, 600)] if cea else []}, dem=0)
    return analyze_parcel(PARCEL, world, district="R-40", project=project).result


def _cea(world_once, project, cea=True):
    return next(p for p in _analyze(world_once, project, cea)["permits"] if p["id"] == "seqra_cea")


def test_the_clause_says_type_i_or_unlisted():
    assert "Type I or Unlisted" in " ".join(clause("§ 402-46C").split())


def test_a_garage_in_the_cea_is_type_ii_and_has_no_seqra_review_of_the_cea(world_once):
    p = _cea(world_once, {"application_type": "building_permit", "accessory_structure": "garage"})
    assert p["required"] is False
    assert "Type II" in p["reason"] and "617.5(c)(12)" in p["reason"] and "§ 402-46C" in p["reason"]
    assert "6 NYCRR 617.5(c)(12)" in p["citations"]


def test_a_one_family_house_on_an_approved_lot_in_the_cea_is_type_ii(world_once):
    p = _cea(world_once, {"application_type": "building_permit", "one_family_dwelling": True,
                        "on_approved_lot": True})
    assert p["required"] is False and "617.5(c)(11)" in p["reason"]


def test_the_same_house_not_on_an_approved_lot_is_not_type_ii_so_the_cea_is_evaluated(world_once):
    p = _cea(world_once, {"application_type": "building_permit", "one_family_dwelling": True,
                        "on_approved_lot": False, "disturbance_area_sqft": 20_000})
    assert p["required"] is True and "Unlisted" in p["reason"]


def test_a_30_lot_subdivision_in_the_cea_is_type_i_and_keeps_the_review(world_once):
    p = _cea(world_once, {"application_type": "subdivision", "lots": 30, "public_water_sewer": False})
    assert p["required"] is True and "Type I" in p["reason"]


def test_a_three_lot_subdivision_in_the_cea_is_unlisted_and_keeps_the_review(world_once):
    p = _cea(world_once, {"application_type": "subdivision", "lots": 3, "public_water_sewer": True})
    assert p["required"] is True and "Unlisted" in p["reason"]


def test_cutting_three_trees_is_not_told_it_will_likely_need_seqra_but_asked_what_the_project_is(world_once):
    p = _cea(world_once, {"trees_removed": 3})
    assert p["required"] is None
    assert "Unknown" in p["reason"] and "What is the project" in p["reason"]


def test_a_house_whose_lot_is_not_said_to_be_approved_asks_that_one_question(world_once):
    p = _cea(world_once, {"application_type": "building_permit", "one_family_dwelling": True})
    assert p["required"] is None and "approved lot" in p["reason"]


def test_a_type_ii_action_outside_the_cea_is_simply_not_in_it(world_once):
    p = _cea(world_once, {"accessory_structure": "garage"}, cea=False)
    assert p["required"] is False and "not in the" in p["reason"]


def test_with_no_project_described_the_lot_in_the_cea_keeps_the_maps_answer_and_says_type_ii_has_none(world_once):
    p = _cea(world_once, None)
    assert p["required"] is True and "Type II" in p["reason"]


def test_neither_three_trees_nor_a_garage_is_told_you_will_likely_need_seqra(world_once):
    for i, project in enumerate(({"trees_removed": 3}, {"accessory_structure": "garage"})):
        said = " ".join(plain_permits(_typed(world_once, project)))
        assert "likely need an environmental review (SEQRA)" not in said, project


def test_the_cea_review_follows_the_class_the_approvals_give_not_one_of_its_own(world_once):
    """3 acres disturbed, the kind of action not given, public parkland mapped far away (not contiguous): the
    SEQR class the approvals give is unknown (Type I, Type II or Unlisted: the question is what the project is),
    so the § 402-46C review is unknown with that question, never "required" on a class it decided alone."""
    world = world_once({"aquifer_cea": [sq(-100, -100, 600)], "parkland": [sq(3000, 3000, 200)]}, dem=0)
    r = analyze(PARCEL, world, district="R-40", project={"disturbance_area_sqft": 3 * 43_560})
    seqr = r["approvals_detail"]["seqr"]
    assert seqr["class"] == "unknown" and "Type II" in seqr["possible"]
    p = next(p for p in r["permits"] if p["id"] == "seqra_cea")
    assert p["required"] is None
    assert seqr["question"] in p["reason"]


def test_a_type_ii_project_in_the_cea_leaves_no_cea_review_for_the_parcel_to_carry(world_once):
    """A garage, or a one-family house on an approved lot, in the CEA: the class is Type II, the review is not
    required, and the answer does not list it again among what the parcel carries (§ 402-46C turns on the kind of
    action, which the project's class has answered, not on where the work happens)."""
    from sloat_core.engine.answer import lot_answer, permits_by_cause

    for i, project in enumerate(({"application_type": "building_permit", "accessory_structure": "garage"},
                                 {"application_type": "building_permit", "one_family_dwelling": True,
                                  "on_approved_lot": True})):
        r = _typed(world_once, project)
        assert r.approvals_detail.seqr["class"] == "Type II"
        mine, carried = permits_by_cause(r)
        assert "seqra_cea" not in {p.id for p in mine + carried}, project
        said = " ".join(s for _, items, _ in lot_answer(r).sections() for s in items)
        assert "SEQRA" not in said, project
