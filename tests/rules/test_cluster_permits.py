"""§ 402-48 cluster triggers and the permits and reviews, as plain-English claims."""

import pytest

from engine_world import make_world, sq
from sloat_core.engine.analysis import analyze
from sloat_core.gis.geometry import work_to_geojson
from sloat_core.units import SQFT_PER_ACRE

PARCEL = sq(0, 0, 400)


def by_id(items, key="id"):
    return {i[key]: i for i in items}


def triggers(world, parcel=PARCEL, **kw):
    return by_id(analyze(parcel, world, district="R-40", **kw)["cluster_triggers"])


def permits(world, parcel=PARCEL, project=None, **kw):
    return by_id(analyze(parcel, world, district="R-40", project=project, **kw)["permits"])


def test_slopes_over_15_percent_on_exactly_a_quarter_of_the_property_trigger_cluster(world_once):
    # 40 % slope on x in (300, 400]: 100 x 400 = a quarter of the parcel ("25% or more" includes 25 %).
    # The kink sits on a cell edge; Horn's kernel gives the cell west of it 10 %, east of it 30 %.
    world = world_once({}, dem=lambda gx, gy: 500 + (gx > 300) * (gx - 300) * 0.4)
    t = triggers(world)["402-48C(1)"]
    assert t["triggered"] is True


def test_slopes_over_15_percent_on_less_than_a_quarter_do_not_trigger(world_once):
    world = world_once({}, dem=lambda gx, gy: 500 + (gx > 310) * (gx - 310) * 0.4)
    assert triggers(world)["402-48C(1)"]["triggered"] is False


def test_a_slope_of_exactly_15_percent_is_not_over_15(world_once):
    world = world_once({}, dem=15)
    assert triggers(world)["402-48C(1)"]["triggered"] is False


def test_board_judgment_triggers_stay_unknown_until_answered(world_once):
    world = world_once({"viewsheds": [sq(0, 0, 400)]}, dem=0)
    t = triggers(world)
    assert t["402-48C(4)"]["triggered"] is None and t["402-48C(5)"]["triggered"] is None
    answered = triggers(world, board_answers={"402-48C(5)": True, "402-48C(4)": False})
    assert answered["402-48C(5)"]["triggered"] is True and answered["402-48C(4)"]["triggered"] is False


def test_map_layers_trigger_their_features_with_evidence(world_once):
    world = world_once({
        "wetlands": [sq(10, 10, 20)], "floodplain": [sq(0, 0, 400, 50)], "aquifer_cea": [sq(0, 0, 400)],
        "habitats": [sq(300, 300, 20)], "rock_outcrops": [sq(200, 200, 10, 6)],
        "historic": [(sq(100, 300, 20), {"NAME": "Old Stone House", "LISTING": "National Register"})]}, dem=0)
    t = triggers(world)
    for n in (2, 3, 7, 8, 9, 10, 4):
        assert t[f"402-48C({n})"]["triggered"] is True, n
    assert "Old Stone House" in t["402-48C(4)"]["evidence"]
    assert t["402-48C(6)"]["triggered"] is False  # no pond, stream or recreation land


def test_an_outcrop_of_exactly_50_square_feet_does_not_trigger_cluster(world_once):
    world = world_once({"rock_outcrops": [sq(200, 200, 5, 10)]}, dem=0)
    assert triggers(world)["402-48C(9)"]["triggered"] is False


def test_cluster_applies_only_to_subdivisions_and_site_plans_in_residence_or_mixed_use(world_once):
    world = world_once({}, dem=0)
    assert analyze(PARCEL, world, district="R-40", project={"application_type": "subdivision"})["cluster_applies"]
    assert analyze(PARCEL, world, district="R-40",
                   project={"application_type": "building_permit"})["cluster_applies"] is False
    assert analyze(PARCEL, world, district="IP", project={"application_type": "site_plan"})["cluster_applies"] \
        is False


def footprint(geom):
    return work_to_geojson(geom)


def test_a_footprint_on_a_slope_of_exactly_25_percent_needs_a_steep_slope_permit(world_once):
    # § 402-55 says "25% or greater" while § 402-45 deducts only "in excess of 25%"
    world = world_once({}, dem=25)
    p = permits(world, project={"disturbance_footprint": footprint(sq(100, 100, 50))})
    assert p["steep_slope_permit"]["required"] is True
    r = analyze(PARCEL, world, district="R-40")
    assert r["net_lot_area_sqft"] == pytest.approx(160_000)  # and nothing is deducted


def test_a_footprint_on_gentle_ground_needs_no_steep_slope_permit(world_once):
    world = world_once({}, dem=24)
    assert permits(world, project={"disturbance_footprint": footprint(sq(100, 100, 50))})[
        "steep_slope_permit"]["required"] is False


def test_steep_ground_without_a_footprint_leaves_the_steep_slope_permit_unknown(world_once):
    world = world_once({}, dem=30)
    assert permits(world)["steep_slope_permit"]["required"] is None


def test_customary_landscaping_is_exempt_from_the_steep_slope_permit(world_once):
    world = world_once({}, dem=30)
    p = permits(world, project={"landscaping_only": True})["steep_slope_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-55C(1)"


def test_steep_slope_authority_is_the_planning_board_for_its_applications(world_once):
    world = world_once({}, dem=30)
    assert "Planning Board" in permits(world, project={"application_type": "site_plan"})[
        "steep_slope_permit"]["authority"]
    assert "Village Engineer" in permits(world, project={"application_type": "building_permit"})[
        "steep_slope_permit"]["authority"]


def test_work_in_a_wetland_buffer_needs_a_wetland_permit(world_once):
    world = world_once({"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    p = permits(world, project={"disturbance_footprint": footprint(sq(50, 50, 20))})["wetland_permit"]
    assert p["required"] is True and p["citation"] == "§ 402-57G"
    assert any(s["citation"] == "§ 402-57K(5)(a)" for s in p["submissions"])
    far = permits(world, project={"disturbance_footprint": footprint(sq(300, 50, 20))})["wetland_permit"]
    assert far["required"] is False


@pytest.mark.parametrize("trees, use, expected", [
    (0, "one_family", False), (2, "one_family", False), (3, "one_family", True), (1, "vacant", True),
    (None, "vacant", None)])
def test_tree_removal_two_trees_a_year_exemption_on_a_lot_that_cannot_be_subdivided(world_once, trees, use,
                                                                                      expected):
    world = world_once({}, dem=0)
    # 40,000 sq ft in R-40 (40,000 minimum) holds one lot only: it cannot be subdivided
    p = by_id(analyze(sq(0, 0, 200), world, district="R-40",
                      project={"trees_removed": trees, "existing_use": use})["permits"])
    assert p["tree_removal_permit"]["required"] is expected


def test_a_lot_that_could_be_subdivided_loses_the_two_tree_exemption(world_once):
    world = world_once({}, dem=0)
    p = permits(world, project={"trees_removed": 1, "existing_use": "one_family"})  # 160,000 in R-40: 4 lots
    assert p["tree_removal_permit"]["required"] is True


@pytest.mark.parametrize("acres, one_family, b, c", [
    (0.99, False, False, False), (1.0, False, False, True), (4.99, False, False, True),
    (5.0, False, True, True), (3.0, True, False, False)])
def test_stormwater_conditions_b_five_acres_or_more_and_c_one_to_five(world_once, acres, one_family, b, c):
    world = world_once({}, dem=0)
    # Condition A (impaired waters) answered no: B and C alone decide (A unassessed is unknown: test_s402_58)
    p = permits(world, project={"disturbance_area_sqft": acres * SQFT_PER_ACRE, "one_family_dwelling": one_family,
                                "impaired_water_drainage": False})
    post = p["swppp_post_construction"]["required"]
    assert post is (b or c)
    if b:
        assert p["swppp_post_construction"]["citation"] == "§ 402-58E(2)(b)"
    assert p["swppp"]["required"] is (acres >= 1.0)


@pytest.mark.parametrize("acres, expected", [(9.99, False), (10.0, True), (25, True)])
def test_a_biodiversity_study_for_applications_of_10_acres_or_more(world_once, acres, expected):
    world = world_once({}, dem=0)
    p = permits(world, project={"application_area_acres": acres, "one_family_dwelling": False,
                                "application_type": "subdivision"})
    assert p["biodiversity_study"]["required"] is expected


def test_a_one_family_dwelling_needs_no_biodiversity_study_even_on_10_acres(world_once):
    world = world_once({}, dem=0)
    assert permits(world, project={"application_area_acres": 12, "one_family_dwelling": True})[
        "biodiversity_study"]["required"] is False


def test_overlay_reviews_follow_the_map(tmp_path):
    world = make_world(tmp_path, {"recreational_river": [sq(0, 0, 50)], "rcda": [sq(0, 0, 50)],
                                  "floodplain": [sq(0, 0, 50)], "aquifer_cea": [sq(0, 0, 50)]}, dem=0)
    p = permits(world)
    for pid in ("nysdec_recreational_river", "rcda_review", "flood_hazard_review", "seqra_cea"):
        assert p[pid]["required"] is True, pid
    (tmp_path / "empty").mkdir()
    empty = permits(make_world(tmp_path / "empty", {}, dem=0))
    for pid in ("nysdec_recreational_river", "rcda_review", "flood_hazard_review", "seqra_cea"):
        assert empty[pid]["required"] is False, pid


def test_commercial_excavation_is_prohibited(world_once):
    world = world_once({}, dem=0)
    p = permits(world, project={"commercial_excavation": True})["commercial_excavation_prohibited"]
    assert p["required"] is True and p["citation"] == "§ 402-52"


def test_a_new_building_needing_sanitary_facilities_needs_approved_wastewater_disposal(world_once):
    world = world_once({}, dem=0)
    p = permits(world, project={"new_structure": True, "sanitary_facilities": True,
                                "public_sewer_available": False})["wastewater_approval"]
    assert p["required"] is True and p["citation"] == "§ 402-56B"


def test_wetland_mitigation_is_one_and_a_half_times_the_footprints_wetland(world_once):
    world = world_once({"wetlands": [sq(100, 100, 100)]}, dem=0)
    r = analyze(PARCEL, world, district="R-40",
                project={"disturbance_footprint": footprint(sq(150, 100, 100, 100))})
    m = r["mitigation"]
    assert m["impacted_wetland_sqft"] == pytest.approx(5_000, rel=1e-6)
    assert m["required_mitigation_sqft"] == pytest.approx(7_500, rel=1e-6)
    assert m["citation"] == "§ 402-57P(2)"
    assert len(m["plan_contents"]) == 10


def test_every_result_carries_citations_that_exist_in_the_law(world_once):
    from sloat_core.law.text import citation_exists

    world = world_once({"wetlands": [sq(100, 100, 100)], "floodplain": [sq(0, 0, 50)]}, dem=30)
    r = analyze(PARCEL, world, district="R-40", project={
        "disturbance_footprint": footprint(sq(150, 100, 100, 100)), "trees_removed": 5,
        "application_type": "site_plan", "disturbance_area_sqft": 50_000})
    cites = [d["citation"] for d in r["deductions"]] + [t["citation"] for t in r["cluster_triggers"]]
    for p in r["permits"]:
        cites += p["citations"] + [s["citation"] for s in p["submissions"]]
    cites += [r["mitigation"]["citation"], r["mitigation"]["gate"]["citation"], r["lot_area_citation"]]
    cites += [i["citation"] for i in r["mitigation"]["plan_contents"]]
    for c in set(cites):
        assert citation_exists(c), c


def test_the_result_says_what_the_footprint_touches(world_once):
    world = world_once({"wetlands": [sq(100, 100, 100)]}, dem=30)
    r = analyze(PARCEL, world, district="R-40",
                project={"disturbance_footprint": footprint(sq(150, 100, 100, 100))})
    fp = r["footprint"]
    assert fp["area_sqft"] == pytest.approx(10_000, rel=1e-6)
    assert fp["wetlands_sqft"] == pytest.approx(5_000, rel=1e-6)
    assert fp["buffer_sqft"] == pytest.approx(5_000, rel=1e-6)
    assert fp["slope_25_or_more_sqft"] == pytest.approx(10_000, rel=1e-6)
    assert analyze(PARCEL, world, district="R-40")["footprint"] is None


def test_very_long_feature_names_are_shortened_in_the_evidence(world_once):
    name = "Old Mill " * 200
    world = world_once({"historic": [(sq(0, 0, 50), {"NAME": name, "LISTING": "National Register"})]},
                       dem=0)
    evidence = triggers(world)["402-48C(4)"]["evidence"]
    assert "Old Mill" in evidence and len(evidence) < 300


@pytest.mark.parametrize("depth_ft, present", [(0.001, False), (0.01, True)])
def test_a_layer_is_present_only_with_at_least_a_square_foot_inside(world_once, depth_ft, present):
    # a wetland strip reaching depth_ft into a 400-ft side: 0.4 sq ft is a digitising sliver, 4 sq ft is land
    world = world_once({"wetlands": [sq(-100, 0, 100 + depth_ft, 400)]}, dem=0)
    assert triggers(world)["402-48C(2)"]["triggered"] is present


def test_typed_numbers_are_checked_the_same_way_everywhere():
    from sloat_core.errors import SloatInputError
    from sloat_core.validate import number

    assert number("7", "number of trees to remove", maximum=100, integer=True) == 7
    for bad, words in [(-1, "cannot be negative"), (float("nan"), "finite"), (10**400, "too large"),
                       ("ten", "must be a number"), (True, "must be a number"), (2.5, "whole number")]:
        with pytest.raises(SloatInputError, match=words):
            number(bad, "number of trees to remove", maximum=100, integer=True)
