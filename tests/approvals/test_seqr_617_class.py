"""6 NYCRR Part 617 (SEQR): the class of an action, with the clause that decided it, as legal claims."""

import datetime as dt

import pytest

from sloat_core.approvals.facts import parse_approval_facts
from sloat_core.approvals.seqr import UNLISTED_CLAUSE, parkland_contiguity, seqr_class
from sloat_core.approvals.state_law import state_param
from sloat_core.errors import SloatInputError
from sloat_core.rules.project import parse_project
from law_day import LAW_DAY


def classify(project=None, *, parkland_distance_ft=None, in_cea=None, **facts):
    return seqr_class(parse_project(project or {}), parse_approval_facts(facts),
                      parkland_distance_ft=parkland_distance_ft, in_cea=in_cea, on=LAW_DAY)


@pytest.mark.parametrize("kind", ["garage", "carport", "deck", "swimming_pool", "storage_shed", "fence", True])
def test_a_garage_or_other_minor_accessory_residential_structure_is_type_ii(kind):
    r = classify({"application_type": "building_permit"}, accessory_structure=kind)
    assert r.seqr_class == "Type II"
    assert r.clause == state_param("seqr_type2_accessory", LAW_DAY).citation == "6 NYCRR 617.5(c)(12)"
    assert r.verify, "the paragraph numbers of 617.5(c) are to confirm"
    assert "to confirm with the Village" in r.reason
    assert any("No SEQR review" in c for c in r.checklist) and r.cea_review is None


@pytest.mark.parametrize("families", [1, 2, 3])
def test_a_one_to_three_family_house_on_an_approved_lot_is_type_ii(families):
    r = classify({"application_type": "building_permit", "new_structure": True}, residence_families=families,
                 on_approved_lot=True)
    assert (r.seqr_class, r.clause) == ("Type II", "6 NYCRR 617.5(c)(11)")


def test_a_one_family_dwelling_of_the_form_on_an_approved_lot_is_type_ii():
    r = classify({"application_type": "building_permit", "one_family_dwelling": True}, on_approved_lot=True)
    assert r.seqr_class == "Type II" and "one-family residence" in r.reason


def test_a_four_family_house_is_not_on_the_type_ii_list():
    r = classify({"application_type": "building_permit"}, residence_families=4, on_approved_lot=True,
                 public_water_sewer=True)
    assert (r.seqr_class, r.clause) == ("Unlisted", UNLISTED_CLAUSE)


def test_a_house_whose_lot_is_not_known_to_be_approved_asks_that_one_question():
    r = classify({"application_type": "building_permit", "one_family_dwelling": True})
    assert r.seqr_class == "unknown" and r.question.startswith("Is the house on an approved lot")
    assert r.possible == ("Type II", "Unlisted")


def test_a_house_on_a_lot_not_approved_is_unlisted():
    r = classify({"application_type": "building_permit", "one_family_dwelling": True}, on_approved_lot=False)
    assert r.seqr_class == "Unlisted"


def test_maintenance_or_repair_is_type_ii():
    r = classify({"application_type": "site_plan", "disturbance_area_sqft": 600_000}, maintenance_only=True)
    assert (r.seqr_class, r.clause) == ("Type II", "6 NYCRR 617.5(c)(1)")


def test_an_area_variance_for_a_house_and_a_setback_variance_are_type_ii():
    r = classify({"one_family_dwelling": True}, variance="area")
    assert (r.seqr_class, r.clause) == ("Type II", "6 NYCRR 617.5(c)(17)")
    r = classify({}, variance="setback_or_lot_line")
    assert (r.seqr_class, r.clause) == ("Type II", "6 NYCRR 617.5(c)(16)")


# -- subdivisions: 617.4(b)(5) thresholds ("meet or exceed") and the parkland rule (b)(10) ("exceeds 25 percent")

def test_a_30_lot_subdivision_on_public_sewer_away_from_parkland_is_unlisted():
    r = classify({"application_type": "subdivision"}, lots=30, public_water_sewer=True, parkland_contiguous=False)
    assert (r.seqr_class, r.clause) == ("Unlisted", UNLISTED_CLAUSE)
    assert "30 new dwelling units (one per lot)" in r.reason


def test_a_30_lot_subdivision_beside_harriman_without_public_sewer_is_type_i_by_the_25_percent_rule():
    # 25 % of the 50-unit threshold is 12.5: 30 exceeds it
    r = classify({"application_type": "subdivision"}, lots=30, public_water_sewer=False, parkland_contiguous=True)
    assert (r.seqr_class, r.clause) == ("Type I", "6 NYCRR 617.4(b)(10)")
    assert any("Full EAF" in c for c in r.checklist)


def test_a_30_lot_subdivision_beside_harriman_on_public_sewer_is_unlisted_30_is_not_over_25_percent_of_200():
    r = classify({"application_type": "subdivision"}, lots=30, public_water_sewer=True, parkland_contiguous=True)
    assert r.seqr_class == "Unlisted"


@pytest.mark.parametrize("lots, cls", [(50, "Unlisted"), (51, "Type I")])
def test_beside_parkland_on_public_sewer_the_rule_is_more_than_25_percent_of_200(lots, cls):
    r = classify({"application_type": "subdivision"}, lots=lots, public_water_sewer=True, parkland_contiguous=True)
    assert r.seqr_class == cls


@pytest.mark.parametrize("lots, cls", [(12, "Unlisted"), (13, "Type I")])
def test_beside_parkland_without_public_sewer_the_rule_is_more_than_12_point_5_units(lots, cls):
    r = classify({"application_type": "subdivision"}, lots=lots, public_water_sewer=False, parkland_contiguous=True)
    assert r.seqr_class == cls


@pytest.mark.parametrize("lots, cls", [(199, "Unlisted"), (200, "Type I")])
def test_200_units_on_public_water_and_sewer_meet_the_type_i_threshold_and_199_do_not(lots, cls):
    r = classify({"application_type": "subdivision"}, lots=lots, public_water_sewer=True, parkland_contiguous=False)
    assert r.seqr_class == cls
    if cls == "Type I":
        assert r.clause == "6 NYCRR 617.4(b)(5)(iii)"


@pytest.mark.parametrize("lots, cls", [(49, "Unlisted"), (50, "Type I")])
def test_50_units_without_public_water_and_sewer_meet_the_type_i_threshold(lots, cls):
    r = classify({"application_type": "subdivision"}, lots=lots, public_water_sewer=False, parkland_contiguous=False)
    assert r.seqr_class == cls


def test_a_30_lot_subdivision_near_but_not_touching_parkland_asks_about_contiguity_and_is_at_least_unlisted():
    r = classify({"application_type": "subdivision"}, lots=30, parkland_distance_ft=120.0)
    assert r.seqr_class == "unknown" and "substantially contiguous" in r.question
    assert r.possible == ("Unlisted", "Type I") and r.to_dict()["possible"] == ["Unlisted", "Type I"]


def test_a_known_class_is_its_own_range():
    assert classify({}, accessory_structure="garage").to_dict()["possible"] == ["Type II"]


def test_a_30_lot_subdivision_touching_mapped_parkland_without_sewer_is_type_i_from_the_map():
    r = classify({"application_type": "subdivision"}, lots=30, public_water_sewer=False, parkland_distance_ft=0.0)
    assert r.seqr_class == "Type I"


def test_100_lots_with_water_and_sewer_unknown_ask_about_water_and_sewer():
    r = classify({"application_type": "subdivision"}, lots=100, parkland_contiguous=False)
    assert r.seqr_class == "unknown" and "water and sewer" in r.question


def test_parkland_contiguity_is_the_form_s_answer_else_the_map_s():
    f = parse_approval_facts({"parkland_contiguous": False})
    assert parkland_contiguity(f, 0.0, LAW_DAY) is False
    far = state_param("seqr_parkland_contiguity_ft", LAW_DAY).value
    assert parkland_contiguity(parse_approval_facts({}), far + 1, LAW_DAY) is False
    assert parkland_contiguity(parse_approval_facts({}), far, LAW_DAY) is None


# -- other activities: physical alteration of 10 acres (617.4(b)(6)(i))

@pytest.mark.parametrize("acres, cls", [(9.99, "Unlisted"), (10.0, "Type I")])
def test_a_site_plan_altering_10_acres_or_more_is_type_i(acres, cls):
    r = classify({"application_type": "site_plan", "disturbance_area_sqft": acres * 43_560},
                 parkland_contiguous=False)
    assert r.seqr_class == cls


def test_a_site_plan_altering_3_acres_beside_parkland_is_type_i_and_2_5_acres_is_not():
    over = classify({"application_type": "site_plan", "disturbance_area_sqft": 3 * 43_560}, parkland_contiguous=True)
    at = classify({"application_type": "site_plan", "disturbance_area_sqft": 2.5 * 43_560}, parkland_contiguous=True)
    assert (over.seqr_class, at.seqr_class) == ("Type I", "Unlisted")


def test_a_site_plan_without_its_area_asks_how_many_acres():
    r = classify({"application_type": "site_plan"})
    assert r.seqr_class == "unknown" and "acres" in r.question
    assert r.clause == "6 NYCRR 617.4(b)(6)(i)" and "10 acres" in r.reason  # the clause the answer turns on


def test_an_empty_form_is_unknown_and_asks_what_the_project_is():
    r = classify({})
    assert r.seqr_class == "unknown" and r.question.startswith("What is the project")


def test_a_type_i_or_unlisted_action_in_the_cea_carries_the_402_46c_review():
    r = classify({"application_type": "subdivision"}, lots=30, public_water_sewer=True, parkland_contiguous=False,
                 in_cea=True)
    assert r.cea_review.startswith("§ 402-46C") and any(c.startswith("§ 402-46C") for c in r.checklist)
    r = classify({"application_type": "building_permit"}, accessory_structure="garage", in_cea=True)
    assert r.cea_review is None


def test_the_class_is_read_by_the_thresholds_in_force_on_the_date():
    p = state_param("seqr_parkland_threshold_pct", dt.date(2026, 12, 1))
    assert (p.value, p.citation) == (25, "6 NYCRR 617.4(b)(10)")


def test_a_bad_answer_is_refused_in_one_sentence():
    with pytest.raises(SloatInputError, match="number of lots"):
        parse_approval_facts({"lots": "thirty"})
    with pytest.raises(SloatInputError, match="yes or no"):
        parse_approval_facts({"public_water_sewer": "maybe"})


def test_a_subdivision_is_not_a_type_ii_accessory_structure_or_maintenance():
    r = classify({"application_type": "subdivision"}, lots=30, accessory_structure="garage", maintenance_only=True,
                 public_water_sewer=True, parkland_contiguous=False)
    assert r.seqr_class == "Unlisted"
