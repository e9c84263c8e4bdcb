"""Article IX, round two: wrong answers fixed, unknown never "no", and the determinations added (issue 14).

Each test reads as a plain-English claim on a hand-built world and quotes the clause it follows.
"""

import pytest

from engine_world import make_world, sq
from sloat_core.engine.analysis import analyze
from sloat_core.gis.geometry import work_to_geojson
from sloat_core.law.text import clause, quote_in_clause
from sloat_core.rules.clocks import ITEM_KINDS
from sloat_core.rules.permits import DECLARATIONS, PERMIT_IDS

PARCEL = sq(0, 0, 400)


def run(world, project=None, parcel=PARCEL, district="R-40", **kw):
    return analyze(parcel, world, district=district, project=project, **kw)


def permits(world, project=None, **kw):
    return {p["id"]: p for p in run(world, project, **kw)["permits"]}


def fp(geom):
    return work_to_geojson(geom)


# ---------------------------------------------------------------- 1. steep slope authority, § 402-55D, F

def test_a_building_permit_that_also_needs_a_wetland_permit_has_the_planning_board_as_steep_slope_authority(
        tmp_path):
    # § 402-55D(1): the Planning Board for "any ... application which requires the issuance of a permit or
    # approval by it"; § 402-55F: the 60-day clock is "For activities not requiring any other permit or approval".
    assert quote_in_clause("requires the issuance of a permit or approval by it", "§ 402-55D(1)")
    world = make_world(tmp_path, {"wetlands": [sq(100, 100, 100)]}, dem=30)
    p = permits(world, {"application_type": "building_permit", "trees_removed": 0,
                        "disturbance_footprint": fp(sq(120, 120, 40))})
    assert p["wetland_permit"]["required"] is True
    steep = p["steep_slope_permit"]
    assert steep["required"] is True
    assert steep["authority"].startswith("Planning Board") and "§ 402-55D(1)" in steep["authority"]
    assert not any(c.startswith("Stand-alone decision") for c in steep["clocks"])
    assert any("Decided together" in c and "§ 402-55F" in c for c in steep["clocks"])


def test_a_building_permit_alone_keeps_the_village_engineer_as_steep_slope_authority(tmp_path):
    # § 402-55D(2): "The Village Engineer shall be the approval authority with respect to all other regulated
    # activities."
    world = make_world(tmp_path, {}, dem=30)
    steep = permits(world, {"application_type": "building_permit", "trees_removed": 0,
                            "disturbance_footprint": fp(sq(120, 120, 40))})["steep_slope_permit"]
    assert steep["authority"] == "Village Engineer (§ 402-55D(2))"


def test_a_tree_permit_still_unknown_is_named_as_the_proviso_of_the_village_engineer(tmp_path):
    world = make_world(tmp_path, {}, dem=30)
    steep = permits(world, {"application_type": "building_permit"})["steep_slope_permit"]
    assert steep["authority"].startswith("Village Engineer (§ 402-55D(2))")
    assert "tree removal permit" in steep["authority"] and "§ 402-55D(1)" in steep["authority"]


def test_with_no_application_type_the_stand_alone_clock_is_still_shown_as_conditional(tmp_path):
    world = make_world(tmp_path, {}, dem=30)
    steep = permits(world)["steep_slope_permit"]
    assert any(c.startswith("Stand-alone decision") for c in steep["clocks"])


# ---------------------------------------------------------------- 2. missing layer is unknown, § 402-57G

@pytest.mark.parametrize("omit", ["wetlands", "watercourses", "water_bodies"])
def test_a_water_layer_that_is_not_loaded_makes_the_wetland_permit_unknown_not_no(tmp_path, omit):
    # § 402-57G: "No activity shall be conducted in a wetland, watercourse or wetland buffer without approval";
    # without the layer we cannot say the work is outside one.
    world = make_world(tmp_path, {}, dem=0, omit=(omit,))
    p = permits(world, {"disturbance_footprint": fp(sq(100, 100, 50))})["wetland_permit"]
    assert p["required"] is None
    assert "not loaded" in p["reason"] and omit.replace("_", " ") in p["reason"]
    assert permits(world)["wetland_permit"]["required"] is None  # the land-only answer too


def test_a_footprint_in_a_loaded_wetland_is_still_required_when_another_water_layer_is_missing(tmp_path):
    world = make_world(tmp_path, {"wetlands": [sq(100, 100, 100)]}, dem=0, omit=("water_bodies",))
    p = permits(world, {"disturbance_footprint": fp(sq(120, 120, 20))})["wetland_permit"]
    assert p["required"] is True


def test_screen_says_unknown_for_the_wetland_permit_when_only_the_wetland_layer_is_missing(tmp_path):
    from sloat_core.engine.screening import screen_rows

    world = make_world(tmp_path, {"parcels": [(PARCEL, {"SBL": "1.-1-1", "ZONE": "R-40"})]}, dem=0,
                       omit=("wetlands",))
    row = next(screen_rows(world))
    assert row["permit_wetland_permit"] == ""  # unknown, as analyze says
    assert run(world)["permits"][1]["required"] is None


# ---------------------------------------------------------------- 3. work off the parcel, § 402-57G

def test_a_footprint_lying_in_the_neighbours_wetland_needs_a_wetland_permit_and_mitigation(tmp_path):
    # § 402-57G: "No activity shall be conducted in a wetland ... without approval" — wherever the wetland is.
    world = make_world(tmp_path, {"wetlands": [sq(450, 0, 100, 400)]}, dem=0)
    r = run(world, {"disturbance_footprint": fp(sq(380, 100, 100, 100))})  # 20 ft on the parcel, 80 ft off
    p = {x["id"]: x for x in r["permits"]}["wetland_permit"]
    assert p["required"] is True
    assert "off the parcel" in p["reason"]
    # 30 ft x 100 ft of the footprint lies in the neighbour's wetland: 3,000 sq ft, mitigation 1.5 times.
    assert r["mitigation"]["impacted_wetland_sqft"] == pytest.approx(3_000, rel=1e-6)
    assert r["mitigation"]["required_mitigation_sqft"] == pytest.approx(4_500, rel=1e-6)
    assert r["footprint"]["outside_parcel_sqft"] == pytest.approx(8_000, rel=1e-6)
    assert r["footprint"]["wetlands_sqft"] == pytest.approx(3_000, rel=1e-6)
    assert r["net_lot_area_sqft"] == run(world)["net_lot_area_sqft"]  # the lot is still the parcel


# ---------------------------------------------------------------- 4. biodiversity, § 402-54B

@pytest.mark.parametrize("application_type", ["subdivision", "site_plan", "special_permit"])
def test_a_twelve_acre_subdivision_of_one_family_lots_is_not_the_development_of_a_one_family_dwelling(
        tmp_path, application_type):
    # § 402-54B excepts "the development of a one-family dwelling".
    assert quote_in_clause("the development of a one-family dwelling", "§ 402-54B")
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"application_type": application_type, "one_family_dwelling": True,
                        "application_area_acres": 12})["biodiversity_study"]
    assert p["required"] is True and "§ 402-54B" in p["citations"]


def test_a_one_family_house_on_twelve_acres_is_still_excepted(tmp_path):
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"application_type": "building_permit", "one_family_dwelling": True,
                        "application_area_acres": 12})["biodiversity_study"]
    assert p["required"] is False


# ---------------------------------------------------------------- 5. trees, § 402-53C(2)

def test_one_tree_on_a_lot_that_cannot_be_subdivided_with_the_use_not_given_is_unknown(tmp_path):
    # § 402-53C(2) exempts removal "from a property in existing one-family or two-family dwelling use,
    # provided the lot cannot be further subdivided": the use decides, so without it the answer is unknown.
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"trees_removed": 1}, parcel=sq(0, 0, 200))["tree_removal_permit"]
    assert p["required"] is None and p["citation"] == "§ 402-53C(2)" and "existing use" in p["reason"]


def test_three_trees_with_the_use_not_given_are_required_whatever_the_use(tmp_path):
    world = make_world(tmp_path, {}, dem=0)
    assert permits(world, {"trees_removed": 3}, parcel=sq(0, 0, 200))["tree_removal_permit"]["required"] is True


# ---------------------------------------------------------------- 6. SWPPP authority, § 402-58C(4)

def test_a_project_not_before_the_planning_board_has_its_swppp_approved_by_the_village_engineer(tmp_path):
    # § 402-58C(4): "shall be required to submit a Stormwater Pollution Prevention Plan (SWPPP) to the Village
    # Engineer who shall approve the SWPPP if it complies"
    assert quote_in_clause("to the Village Engineer who shall approve the SWPPP", "§ 402-58C(4)")
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"application_type": "building_permit", "trees_removed": 0,
                        "disturbance_area_sqft": 60_000})["swppp"]
    assert p["required"] is True
    assert p["authority"].startswith("Village Engineer approves (§ 402-58C(4))")
    assert "forwards" not in p["authority"]
    before_board = permits(world, {"application_type": "site_plan", "disturbance_area_sqft": 60_000})["swppp"]
    assert "forwards to the Planning Board" in before_board["authority"]


# ---------------------------------------------------------------- 7. wetland exemptions, § 402-57H, I

def test_normal_ground_maintenance_in_a_wetland_buffer_is_exempt(tmp_path):
    # § 402-57H(1): "Normal ground maintenance including mowing, trimming of vegetation and removal of dead or
    # diseased vegetation around a dwelling"
    world = make_world(tmp_path, {"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    p = permits(world, {"wetland_exemptions": [1], "disturbance_footprint": fp(sq(20, 20, 20))})["wetland_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-57H(1)"


def test_decorative_planting_in_a_buffer_is_exempt_but_not_in_the_wetland_itself(tmp_path):
    # § 402-57H(3): "Decorative landscaping and planting in wetland buffers"
    world = make_world(tmp_path, {"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    in_buffer = permits(world, {"wetland_exemptions": [3], "disturbance_footprint": fp(sq(20, 20, 20))})
    assert in_buffer["wetland_permit"]["required"] is False
    (tmp_path / "w2").mkdir()
    world2 = make_world(tmp_path / "w2", {"wetlands": [sq(100, 100, 100)]}, dem=0)
    in_wetland = permits(world2, {"wetland_exemptions": [3], "disturbance_footprint": fp(sq(120, 120, 20))})
    assert in_wetland["wetland_permit"]["required"] is True


@pytest.mark.parametrize("project", [
    {"landscaping_only": True},
    {"wetland_exemptions": [1], "activities": [3]},
    {"wetland_exemptions": [3], "activities": [6]},
])
def test_landscaping_with_grading_or_fill_is_unknown_citing_both_clauses(tmp_path, project):
    # § 402-57I(3) "Any form of dumping, filling, or depositing of material" and I(6) "Alteration or
    # modification of natural features and contours" require a permit, whatever H exempts.
    world = make_world(tmp_path, {"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    p = permits(world, {**project, "disturbance_footprint": fp(sq(20, 20, 20))})["wetland_permit"]
    assert p["required"] is None
    assert any(c.startswith("§ 402-57H(") for c in p["citations"])
    assert any(c in ("§ 402-57I(3)", "§ 402-57I(6)") for c in p["citations"])


def test_a_wetland_exemption_does_not_cover_a_structure(tmp_path):
    world = make_world(tmp_path, {"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    p = permits(world, {"wetland_exemptions": [1], "activities": [1],
                        "disturbance_footprint": fp(sq(20, 20, 20))})["wetland_permit"]
    assert p["required"] is True


# ---------------------------------------------------------------- 8. SWPPP exemptions, § 402-58D

@pytest.mark.parametrize("n", range(1, 11))
def test_each_swppp_exemption_is_may_be_exempt_and_the_village_engineer_decides(tmp_path, n):
    # § 402-58D: "The following activities may be exempt from review under this section."
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"swppp_exemptions": [n], "disturbance_area_sqft": 100_000})["swppp"]
    assert p["required"] is None and p["citation"] == f"§ 402-58D({n})"
    assert "May be exempt" in p["reason"] and "Village Engineer decides" in p["reason"]


def test_routine_maintenance_of_five_acres_or_more_is_not_offered_the_exemption(tmp_path):
    # § 402-58D(2): "Routine maintenance activities that disturb less than five acres"
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"swppp_exemptions": [2], "disturbance_area_sqft": 5 * 43_560})["swppp"]
    assert p["required"] is True
    below = permits(world, {"swppp_exemptions": [2], "disturbance_area_sqft": 5 * 43_560 - 1})["swppp"]
    assert below["required"] is None


# ---------------------------------------------------------------- declarations (issue 12, items 3-4)

def test_every_permit_is_declared_once_and_completely():
    assert len(PERMIT_IDS) == len(set(PERMIT_IDS))
    for d in DECLARATIONS:
        assert d.id and d.title and d.section and d.plain[0], d.id
        clause(d.section)
        for e in d.exceptions:  # ordered, cited exception clauses
            assert e.name and clause(e.citation), (d.id, e.citation)
        assert d.authority and d.rule
        assert set(d.timeline) <= set(d.clocks), d.id  # the timeline offers the permit's own clocks
        for c in d.submissions():
            clause(c)


def test_every_new_citation_resolves_in_the_law_for_a_deep_link(tmp_path):
    world = make_world(tmp_path, {"wetlands": [sq(-100, 0, 100, 400)]}, dem=30)
    projects = [
        {"wetland_exemptions": [1, 3], "activities": [3], "disturbance_footprint": fp(sq(20, 20, 20))},
        {"swppp_exemptions": list(range(1, 11)), "disturbance_area_sqft": 100_000, "grandfathered": True},
        {"trees_removed": 1, "public_agency_work": True}, {"trees_removed": 1, "hazard_trees_only": True},
        {"road_extension": True, "application_type": "subdivision"},
    ]
    for project in projects:
        r = run(world, project)
        for p in r["permits"]:
            for c in p["citations"] + [s["citation"] for s in p["submissions"]]:
                assert clause(c), c
        for item in r["steep_slope_design_limits"]:
            assert clause(item["citation"])


# ---------------------------------------------------------------- 9, 10, 12, 13, 14: clocks and the calendar

import datetime as dt  # noqa: E402

from sloat_core.law.params import param, value  # noqa: E402
from sloat_core.outputs.ics import to_ics  # noqa: E402
from sloat_core.rules.clocks import timeline_events  # noqa: E402


def one(item, as_of="2026-01-01"):
    return {e.kind: e for e in timeline_events([item], as_of, expiring_soon_days=90)}


def test_seven_years_of_monitoring_is_accepted_and_flagged():
    # § 402-57P(5): "In general, the monitoring period shall be three to five years"
    assert quote_in_clause("three to five years", "§ 402-57P(5)")
    e = one({"id": "mitigation_monitoring", "completed": "2026-05-01", "years": 7})["monitoring_end"]
    assert e.date == dt.date(2033, 5, 1) and "Warning" in e.detail


def test_the_building_inspector_is_notified_48_hours_before_an_inspection_stage():
    # § 402-58H(1)(a): "the applicant shall notify the Village of Sloatsburg Building Inspector at least 48 hours
    # before any of the following"
    assert quote_in_clause("at least 48 hours before", "§ 402-58H(1)(a)")
    e = one({"id": "inspection_notice", "planned": "2026-06-10"})["notice_deadline"]
    assert e.date == dt.date(2026, 6, 8) and e.citation == "§ 402-58H(1)(a)"


def test_a_notice_of_violation_may_be_appealed_within_15_days_of_service():
    # § 402-58J(1)(f): "by filing a written notice of appeal within 15 days of service of notice of violation"
    e = one({"id": "stormwater_notice_of_violation", "served": "2026-07-01"})["appeal_deadline"]
    assert e.date == dt.date(2026, 7, 16) and e.citation == "§ 402-58J(1)(f)"


def test_a_performance_guarantee_runs_at_least_a_year_from_final_acceptance():
    # § 402-58I(1): "shall not be less than one year from the date of final acceptance"
    e = one({"id": "performance_guarantee", "final_acceptance": "2024-02-29"})["guarantee_earliest_end"]
    assert e.date == dt.date(2025, 2, 28) and e.citation == "§ 402-58I(1)"
    assert e.status == "reached"  # a "not before" day: its own words, never "passed"


def test_an_open_space_charge_unpaid_for_more_than_60_days_becomes_a_lien():
    # § 402-48G(3)(f)[2]: "Such charge, if unpaid for more than 60 days, shall become a lien"
    ev = one({"id": "open_space_charge", "billed": "2026-03-02"})
    assert ev["payment_deadline"].date == dt.date(2026, 5, 1)  # day 60: not yet "more than 60 days"
    assert ev["lien_possible"].date == dt.date(2026, 5, 2)
    assert ev["lien_possible"].citation == "§ 402-48G(3)(f)[2]"


def test_the_storm_report_is_due_within_24_hours():
    # § 402-58G(1)(b): "within 24 hours of any storm event producing 0.5 inches of precipitation or more"
    e = one({"id": "storm_event", "date": "2026-06-12"})["storm_report_deadline"]
    assert e.date == dt.date(2026, 6, 13)


def test_new_timeline_ids_are_the_cli_contract():
    for item_id in ("inspection_notice", "stormwater_notice_of_violation", "performance_guarantee",
                    "open_space_charge", "mitigation_monitoring", "storm_event"):
        assert item_id in ITEM_KINDS


@pytest.mark.parametrize("as_of, status", [("2026-04-30", "not_yet"), ("2026-05-01", "reached"),
                                           ("2026-06-01", "reached")])
def test_the_earliest_day_to_clear_is_a_not_before_day_with_its_own_words(as_of, status):
    # § 402-55J(20): vegetation may be disturbed "not more than" so many days before grading begins.
    days = value("vegetation_clearing_max_days_before_grading")
    start = dt.date(2026, 5, 1) + dt.timedelta(days=days)
    e = one({"id": "clearing", "grading_start": start.isoformat()}, as_of)["clearing_earliest_start"]
    assert e.date == dt.date(2026, 5, 1) and e.status == status


def test_a_deadline_on_a_holiday_keeps_its_date_and_notes_the_next_business_day():
    # Appeal served 10 December 2026: day 15 is Christmas Day (a Friday); GCL § 25-a carries it to Monday.
    e = one({"id": "stormwater_notice_of_violation", "served": "2026-12-10"})["appeal_deadline"]
    assert e.date == dt.date(2026, 12, 25)
    assert "§ 25-a" in e.note and "28 December 2026" in e.note and "Christmas" in e.note
    weekday = one({"id": "stormwater_notice_of_violation", "served": "2026-12-01"})["appeal_deadline"]
    assert weekday.date == dt.date(2026, 12, 16) and weekday.note == ""


def test_a_deadline_on_the_friday_before_a_saturday_holiday_is_a_business_day_under_gcl_24():
    # Appeal served 18 June 2026: day 15 is Friday 3 July 2026. Independence Day falls on Saturday 4 July;
    # General Construction Law § 24 moves only a Sunday holiday (to the Monday), so the Friday is a business
    # day and the appeal is due on it: no § 25-a carry to Monday 6 July (the holidays package's "observed"
    # Friday would have given one).
    e = one({"id": "stormwater_notice_of_violation", "served": "2026-06-18"})["appeal_deadline"]
    assert e.date == dt.date(2026, 7, 3) and e.date.weekday() == 4
    assert e.note == ""


def test_a_notice_counted_back_on_a_saturday_advises_the_business_day_before():
    e = one({"id": "inspection_notice", "planned": "2026-12-28"})["notice_deadline"]
    assert e.date == dt.date(2026, 12, 26) and "24 December 2026" in e.note


def test_the_calendar_has_stable_uids_and_a_reminder_before_each_deadline():
    import icalendar

    items = [{"id": "stormwater_notice_of_violation", "served": "2026-12-10"},
             {"id": "clearing", "grading_start": "2026-06-01"}]
    first = to_ics(timeline_events(items, "2026-01-01", expiring_soon_days=90), calendar_name="Case 7")
    later = to_ics(timeline_events(items, "2026-12-20", expiring_soon_days=90), calendar_name="Case 7")
    uids = [[str(c["UID"]) for c in icalendar.Calendar.from_ical(x).walk("VEVENT")] for x in (first, later)]
    assert uids[0] == uids[1] and len(set(uids[0])) == 2
    events = {str(c["CATEGORIES"].cats[0]): c for c in icalendar.Calendar.from_ical(first).walk("VEVENT")}
    alarm = events["appeal deadline"].walk("VALARM")
    assert len(alarm) == 1 and alarm[0]["TRIGGER"].dt == dt.timedelta(days=-7)
    assert events["clearing earliest start"].walk("VALARM") == []  # a "not before" day is no deadline
    assert "§ 25-a" in str(events["appeal deadline"]["DESCRIPTION"])


# ---------------------------------------------------------------- 12. wording presented as law

def test_the_ip_district_gets_no_cluster_lot_rule(tmp_path):
    # § 402-48F: "In the OSR, R-80, and R-40 Zoning Districts ... In any other residential or mixed use district"
    world = make_world(tmp_path, {}, dem=0)
    cluster = run(world, district="IP")["per_district"][0]["cluster"]
    assert cluster["cluster_min_lot_area_sqft"] is None and "residence and mixed-use districts only" in \
        cluster["lot_rule"]
    assert run(world, district="R-15")["per_district"][0]["cluster"]["min_yard_fraction"] == \
        float(param("cluster_min_yard_fraction").value)


def test_officials_article_ix_does_not_name_are_marked_to_confirm(tmp_path):
    world = make_world(tmp_path, {"floodplain": [sq(0, 0, 400, 50)]}, dem=0)
    p = permits(world, {"commercial_excavation": True})
    for pid in ("flood_hazard_review", "commercial_excavation_prohibited"):
        assert "to confirm with the Village" in p[pid]["authority"] and "names no" in p[pid]["authority"]


# ---------------------------------------------------------------- 13. readings surfaced

def test_the_pond_buffer_is_a_local_setting_on_by_default_and_stated_in_the_note(tmp_path):
    # § 402-45A(1) names a "watercourse or wetland buffer"; ponds carrying one is a reading, made a setting.
    from sloat_core.law.settings import load_settings

    assert quote_in_clause("watercourse or wetland buffer", "§ 402-45A(1)")
    world = make_world(tmp_path, {"water_bodies": [sq(150, 150, 100)]}, dem=0)
    on = run(world)
    off = run(world, settings=load_settings(overrides={"buffer_around_water_bodies": False}))
    rows_on = {d["constraint"]: d for d in on["deductions"]}
    rows_off = {d["constraint"]: d for d in off["deductions"]}
    assert on["buffer_around_water_bodies"] is True and rows_on["buffer"]["area_sqft"] > 0
    assert rows_off["buffer"]["area_sqft"] == 0 and off["net_lot_area_sqft"] > on["net_lot_area_sqft"]
    assert "ponds" in on["buffer_note"] and "local settings" in on["buffer_note"] and "(ponds: on)" in on["buffer_note"]
    assert "(ponds: off)" in off["buffer_note"]


def test_screen_follows_the_pond_buffer_setting(tmp_path):
    from sloat_core.engine.screening import screen_rows
    from sloat_core.law.settings import load_settings

    world = make_world(tmp_path, {"water_bodies": [sq(150, 150, 100)],
                                  "parcels": [(PARCEL, {"SBL": "1.-1-1", "ZONE": "R-40"})]}, dem=0)
    settings = load_settings(overrides={"buffer_around_water_bodies": False})
    row = next(screen_rows(world, settings=settings))
    assert float(row["share_buffer"]) == 0
    assert float(row["net_lot_area_sqft"]) == pytest.approx(run(world, settings=settings)["net_lot_area_sqft"],
                                                            abs=1.0)


def test_filling_a_pond_gives_an_answer_that_depends_on_the_village_not_zero(tmp_path):
    # § 402-57P(2) mitigates "wetland" loss; whether the Village treats a pond as wetland is for it to say.
    world = make_world(tmp_path, {"water_bodies": [sq(150, 150, 100)]}, dem=0)
    m = run(world, {"disturbance_footprint": fp(sq(150, 150, 50))})["mitigation"]
    assert m["impacted_wetland_sqft"] == pytest.approx(0, abs=0.01)
    assert m["required_mitigation_sqft"] is None
    assert "depends on whether the Village treats this water body as a wetland" in m["water_body_note"]
    assert m["impacted_water_body_sqft"] == pytest.approx(2_500, rel=1e-6)


# ---------------------------------------------------------------- 11. determinations not covered before

def test_a_project_with_final_approval_before_the_wetland_law_is_grandfathered(tmp_path):
    # § 402-57F: "The provisions of this chapter shall not apply to any land use, improvement or development for
    # which final approval shall have been obtained prior to the effective date of this chapter"
    assert quote_in_clause("final approval shall have been obtained prior to the effective date", "§ 402-57F")
    world = make_world(tmp_path, {"wetlands": [sq(100, 100, 100)]}, dem=0)
    p = permits(world, {"grandfathered": True, "disturbance_footprint": fp(sq(120, 120, 20))})["wetland_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-57F"
    assert permits(world, {"grandfathered": False, "disturbance_footprint": fp(sq(120, 120, 20))})[
        "wetland_permit"]["required"] is True


def test_tree_removal_by_a_public_agency_for_highway_work_is_exempt(tmp_path):
    # § 402-53C(1): "The removal of trees incident to highway or public utility construction or maintenance
    # conducted by a public agency"
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"trees_removed": 40, "public_agency_work": True})["tree_removal_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-53C(1)"


def test_dead_or_dying_trees_posing_an_imminent_hazard_are_exempt(tmp_path):
    # § 402-53C(4): "Dead or dying trees that pose an imminent hazard to public safety."
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"trees_removed": 5, "hazard_trees_only": True})["tree_removal_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-53C(4)"
    assert permits(world, {"trees_removed": 5, "hazard_trees_only": False})["tree_removal_permit"]["required"]


def test_the_steep_slope_design_limits_are_a_checklist_built_from_the_parameters(tmp_path):
    # § 402-55J(7) "not be more than 100 linear feet ... not be more than six feet", J(11) "shall not exceed
    # 20 feet", J(13) "one vertical to two horizontal", J(14) "six feet plus 1/2 the height"
    world = make_world(tmp_path, {}, dem=30)
    items = {i["id"]: i for i in run(world, {"design_limits": {"cut_height": True, "cut_fill_slope": False}})[
        "steep_slope_design_limits"]}
    assert set(items) == {"retaining_wall_length", "retaining_wall_height", "cut_height", "cut_fill_slope",
                          "cut_fill_setback"}
    assert items["cut_height"]["met"] is True and items["cut_fill_slope"]["met"] is False
    assert items["retaining_wall_length"]["met"] is None  # not ticked yet: unknown
    assert f"{value('retaining_wall_max_length_ft')} linear feet" in items["retaining_wall_length"]["text"]
    assert f"{value('cut_max_height_ft')} feet" in items["cut_height"]["text"]
    assert str(value("cut_fill_max_slope_ratio")) in items["cut_fill_slope"]["text"]
    assert items["cut_fill_setback"]["citation"] == "§ 402-55J(14)" and "one half of" in items["cut_fill_setback"]["text"]


def test_a_road_extension_needs_dry_sewer_mains_approved_by_the_county_sewer_district(tmp_path):
    # § 402-56D: "This shall specifically include installation of sewer mains in the bed of any road extension.
    # Such mains shall be approved by the Rockland County Sewer District."
    assert quote_in_clause("installation of sewer mains in the bed of any road extension", "§ 402-56D")
    world = make_world(tmp_path, {}, dem=0)
    p = permits(world, {"road_extension": True, "new_structure": False})["wastewater_approval"]
    assert p["required"] is True and p["citation"] == "§ 402-56D"
    both = permits(world, {"road_extension": True, "new_structure": True, "sanitary_facilities": True})
    assert "§ 402-56D" in both["wastewater_approval"]["citations"]


def test_a_required_cluster_names_the_written_resolution_and_the_open_space_requirements(tmp_path):
    # § 402-48D: "The Planning Board must identify in writing, by resolution, those elements of the site";
    # § 402-48G(3): "Open space requirements".
    world = make_world(tmp_path, {"wetlands": [sq(100, 100, 100)]}, dem=0)
    c = permits(world, {"application_type": "subdivision"})["cluster_review"]
    assert c["required"] is True
    assert "§ 402-48D" in c["citations"] and "in writing, by resolution" in c["reason"]
    subs = [s["citation"] for s in c["submissions"]]
    assert "§ 402-48G(3)(b)" in subs and "§ 402-48G(3)(c)" in subs
    assert any("§ 402-48G(3)(f)[2]" in k and f"{value('open_space_lien_days')} days" in k for k in c["clocks"])


def test_an_absurd_monitoring_period_is_refused_in_one_sentence():
    from sloat_core.errors import SloatInputError

    with pytest.raises(SloatInputError, match="outside the years"):
        one({"id": "mitigation_monitoring", "completed": "2026-05-01", "years": 10**30})


def test_a_buffer_built_without_every_water_layer_is_marked_partial(tmp_path):
    # § 402-45A(1): the buffer of a "watercourse or wetland"; with the wetland layer missing, part of it is unknown.
    world = make_world(tmp_path, {"watercourses": [sq(-50, 0, 20, 400)]}, dem=0, omit=("wetlands",))
    row = {d["constraint"]: d for d in run(world)["deductions"]}["buffer"]
    assert row["status"] == "partial" and "wetlands layer is not loaded" in row["note"]
    assert run(world)["net_lot_area_min_sqft"] == 0  # the worst case counts the unknown against the lot
