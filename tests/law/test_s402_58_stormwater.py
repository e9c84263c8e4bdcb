"""§ 402-58 stormwater, as plain-English claims on hand-built worlds.

§ 402-58E(2)(a), Condition A: runoff to a 303(d)-listed impaired water or a TMDL watershed needs the
post-construction controls whatever the size and for one-family dwellings too; unassessed is unknown, not "no".
Condition B is 5 acres or more; Condition C 1 to 5 acres, one-family dwellings excluded.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import make_world, permits_in, sq  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.law.text import clause, quote_in_clause  # noqa: E402
from sloat_core.rules.project import parse_project  # noqa: E402
from sloat_core.units import SQFT_PER_ACRE  # noqa: E402
from law_day import LAW_DAY  # noqa: E402

PARCEL = sq(0, 0, 1200)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return make_world(tmp_path_factory.mktemp("sw"), {}, dem=0)


def _post(world, acres, **facts):
    project = {"disturbance_area_sqft": acres * SQFT_PER_ACRE, **facts}
    out = analyze(PARCEL, world, district="R-40", project=project)
    return next(p for p in out["permits"] if p["id"] == "swppp_post_construction")


def test_condition_a_is_the_impaired_waters_clause():
    assert "303(d) list of impaired waters" in clause("§ 402-58E(2)(a)")


def test_a_one_family_house_disturbing_2_acres_into_an_impaired_water_needs_the_controls(world):
    p = _post(world, 2, one_family_dwelling=True, impaired_water_drainage=True)
    assert p["required"] is True and p["citation"] == "§ 402-58E(2)(a)"
    assert "no one-family exclusion" in p["reason"]


def test_the_same_house_not_draining_to_an_impaired_water_is_excluded_by_condition_c(world):
    p = _post(world, 2, one_family_dwelling=True, impaired_water_drainage=False)
    assert p["required"] is False and p["citation"] == "§ 402-58E(2)(c)"
    assert "§ 402-58E(2)(a)" in p["citations"]


def test_the_same_house_unassessed_is_unknown_not_no_and_asks_the_303d_question(world):
    p = _post(world, 2, one_family_dwelling=True)
    assert p["required"] is None and "303(d)" in p["reason"] and "impaired_water_drainage" in p["reason"]


def test_condition_a_has_no_size_a_tenth_of_an_acre_into_an_impaired_water_is_held(world):
    assert _post(world, 0.1, impaired_water_drainage=True)["required"] is True


def test_a_tenth_of_an_acre_elsewhere_is_not_held_and_unassessed_is_unknown(world):
    assert _post(world, 0.1, impaired_water_drainage=False)["required"] is False
    assert _post(world, 0.1)["required"] is None


def test_condition_b_at_exactly_5_acres_holds_whatever_the_waters(world):
    p = _post(world, 5.0)
    assert p["required"] is True and p["citation"] == "§ 402-58E(2)(b)"


def test_just_under_5_acres_of_other_work_is_condition_c(world):
    p = _post(world, 4.99, one_family_dwelling=False, impaired_water_drainage=False)
    assert p["required"] is True and p["citation"] == "§ 402-58E(2)(c)"


@pytest.mark.parametrize("given, read", [(True, True), ("yes", True), (False, False), ("no", False),
                                         ("unknown", None), (None, None)])
def test_the_project_fact_reads_yes_no_and_unknown(given, read):
    assert parse_project({"impaired_water_drainage": given}).impaired_water_drainage is read


# --- § 402-58G(1)(b): a report within 24 hours of a storm of 0.5 inches of precipitation or more

def _storm(**item):
    import datetime as dt

    from sloat_core.rules.clocks import timeline_events

    return {e.kind: e for e in timeline_events([{"id": "storm_event", "date": "2026-06-12", **item}],
                                               dt.date(2026, 1, 1))}


def test_the_storm_threshold_is_the_parameters_half_inch_quoted_from_the_clause():
    from sloat_core.law.params import param

    p = param("swppp_storm_event_inches", LAW_DAY)
    assert (p.value, p.citation) == (0.5, "§ 402-58G(1)(b)")
    assert "0.5 inches of precipitation or more" in p.quote


def test_a_storm_of_exactly_half_an_inch_makes_a_report_due_the_next_day():
    import datetime as dt

    e = _storm(rainfall_in=0.5)["storm_report_deadline"]
    assert e.date == dt.date(2026, 6, 13) and "0.5 inches of rain fell" in e.detail


def test_a_storm_of_0_49_inches_makes_no_deadline():
    assert _storm(rainfall_in=0.49) == {}


def test_a_storm_whose_rainfall_is_not_given_is_told_with_the_threshold():
    assert "rainfall not given" in _storm()["storm_report_deadline"].detail


@pytest.mark.parametrize("bad", ["lots", -1, 101, True, "nan"])
def test_a_rainfall_that_is_not_a_figure_is_refused_in_one_sentence(bad):
    from sloat_core.errors import SloatInputError

    with pytest.raises(SloatInputError, match="rainfall"):
        _storm(rainfall_in=bad)


# --- § 402-58E(1)(d): not more than five acres disturbed at any one time unless an approved SWPPP allows it:
# its own answer, in the SWPPP's reason, cited

def _phasing(world, **project):
    out = analyze(PARCEL, world, district="R-40", project=project)
    p = next(p for p in out["permits"] if p["id"] == "swppp")
    assert "§ 402-58E(1)(d)" in p["citations"]
    return p["reason"].split("Phasing (§ 402-58E(1)(d)): ", 1)[1]


def test_the_limit_is_the_parameters_five_acres_quoted_from_the_clause():
    from sloat_core.law.params import param

    p = param("max_disturbed_at_once_acres", LAW_DAY)
    assert (p.value, p.citation) == (5, "§ 402-58E(1)(d)")


def test_exactly_five_acres_at_one_time_needs_the_approved_swppp_to_allow_it(world):
    said = _phasing(world, disturbance_area_sqft=20 * SQFT_PER_ACRE, disturbed_at_one_time_acres=5)
    assert said.startswith("5.00 acres disturbed at one time: 5 acres or more")


def test_4_99_acres_at_one_time_of_a_20_acre_project_is_within_the_limit(world):
    said = _phasing(world, disturbance_area_sqft=20 * SQFT_PER_ACRE, disturbed_at_one_time_acres=4.99)
    assert "under 5 acres, within" in said


def test_a_20_acre_project_that_does_not_say_how_much_is_open_at_once_is_asked(world):
    assert _phasing(world, disturbance_area_sqft=20 * SQFT_PER_ACRE).startswith("unknown: how many acres")


def test_a_project_disturbing_under_five_acres_in_all_cannot_open_five_at_once(world):
    assert "under 5 acres" in _phasing(world, disturbance_area_sqft=4.99 * SQFT_PER_ACRE)


def test_a_project_not_before_the_planning_board_has_its_swppp_approved_by_the_village_engineer(world_once):
    # § 402-58C(4): "shall be required to submit a Stormwater Pollution Prevention Plan (SWPPP) to the Village
    # Engineer who shall approve the SWPPP if it complies"
    assert quote_in_clause("to the Village Engineer who shall approve the SWPPP", "§ 402-58C(4)")
    world = world_once({}, dem=0)
    p = permits_in(world, {"application_type": "building_permit", "trees_removed": 0,
                        "disturbance_area_sqft": 60_000})["swppp"]
    assert p["required"] is True
    assert p["authority"].startswith("Village Engineer approves (§ 402-58C(4))")
    assert "forwards" not in p["authority"]
    before_board = permits_in(world, {"application_type": "site_plan", "disturbance_area_sqft": 60_000})["swppp"]
    assert "forwards to the Planning Board" in before_board["authority"]


@pytest.mark.parametrize("n", range(1, 11))
def test_each_swppp_exemption_is_may_be_exempt_and_the_village_engineer_decides(world_once, n):
    # § 402-58D: "The following activities may be exempt from review under this section."
    world = world_once({}, dem=0)
    p = permits_in(world, {"swppp_exemptions": [n], "disturbance_area_sqft": 100_000})["swppp"]
    assert p["required"] is None and p["citation"] == f"§ 402-58D({n})"
    assert "May be exempt" in p["reason"] and "Village Engineer decides" in p["reason"]


def test_routine_maintenance_of_five_acres_or_more_is_not_offered_the_exemption(world_once):
    # § 402-58D(2): "Routine maintenance activities that disturb less than five acres"
    world = world_once({}, dem=0)
    p = permits_in(world, {"swppp_exemptions": [2], "disturbance_area_sqft": 5 * 43_560})["swppp"]
    assert p["required"] is True
    below = permits_in(world, {"swppp_exemptions": [2], "disturbance_area_sqft": 5 * 43_560 - 1})["swppp"]
    assert below["required"] is None
