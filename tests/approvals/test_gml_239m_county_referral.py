"""General Municipal Law § 239-m / § 239-n: county referral, read as legal claims on hand-built land.

Each world is written as real files and read through the manifest loader (tests/engine_world.py), in
EPSG:2260 (US survey feet). Distances are exact for axis-aligned boxes; the tolerance on a reported distance
is 0.05 ft (one rounding step of the report).
"""

import datetime as dt

import pytest
from shapely.geometry import LineString

from sloat_core.approvals.county_referral import TRIGGERS, county_referral, trigger_bands
from sloat_core.approvals.facts import parse_approval_facts
from sloat_core.approvals.state_law import state_param

from engine_world import X0, Y0, make_world, sq
from law_day import LAW_DAY

PARCEL = sq(0, 0, 100)
#: A village far larger than every search zone, so each layer's coverage holds the land within 500 ft.
BIG_VILLAGE = sq(-20_000, -20_000, 40_000)
ROLE_OF = {t.id: t.role for t in TRIGGERS}


def _world(world_once, extra, *, village=BIG_VILLAGE, omit=()):
    """The world of the tests that only read it: built once per test process (tests/conftest.py world_once)."""
    layers = {"village_boundary": [village], "parkland": [], "state_county_roads": [], "public_institutions": [],
              "ag_district_farms": [], "rcda": []}
    layers.update(extra)
    return world_once(layers, omit=omit)


def _answers(ls, application_type="site_plan", **facts):
    r = county_referral(PARCEL, ls, application_type=application_type, facts=parse_approval_facts(facts), on=LAW_DAY)
    return r, {a.trigger: a for a in r.triggers}


def test_the_referral_distance_is_500_ft_a_dated_setting_with_its_clause():
    p = state_param("county_referral_distance_ft", LAW_DAY)
    assert (p.value, p.unit, p.citation) == (500, "ft", "GML § 239-m(3)(b)")


@pytest.mark.parametrize("gap_ft, answer", [(499.0, "yes"), (500.0, "yes"), (501.0, "no")])
def test_a_parcel_within_500_ft_of_the_village_boundary_is_referred_and_one_at_501_ft_is_not(world_once, gap_ft, answer):
    village = sq(-3000, -3000, 3000 + 100 + gap_ft, 6000)  # east edge gap_ft east of the parcel
    ls = _world(world_once, {}, village=village)
    r, a = _answers(ls)
    assert a["municipal_boundary"].answer == answer
    assert a["municipal_boundary"].distance_ft == pytest.approx(gap_ft, abs=0.05)
    if answer == "yes":
        assert r.required is True
        assert r.headline.startswith("County referral required before final action (GML § 239-m(3)(b)(i))")
        assert r.headline.endswith(f"the parcel is {gap_ft:,.0f} ft from the Town of Ramapo line.")
        assert a["municipal_boundary"].nearest == "the Town of Ramapo line"


def test_the_line_on_the_village_west_side_is_named_for_the_town_of_tuxedo_from_the_dated_setting(world_once):
    """The neighbours' setting (municipal_neighbours, to confirm): the Town of Tuxedo (Orange County) holds the
    west of the line, the Town of Ramapo the rest; the name is a setting to confirm, and says so."""
    village = sq(-180, -3000, 6000, 6100)  # the parcel 180 ft inside the village's west edge
    ls = _world(world_once, {}, village=village)
    r, a = _answers(ls)
    assert a["municipal_boundary"].answer == "yes"
    assert a["municipal_boundary"].distance_ft == pytest.approx(180.0, abs=0.05)
    assert r.headline.endswith("the parcel is 180 ft from the Town of Tuxedo line.")
    assert any("municipal_neighbours" in v for v in r.verify)


def test_a_boundary_layer_naming_its_neighbours_is_read_before_the_setting(tmp_path):
    """A boundary layer's NEIGHBOUR field names the municipality across each part of the line."""
    west = (sq(-180, -3000, 3000, 6100), {"NAME": "Sloatsburg village", "NEIGHBOUR": "Village of Hillburn"})
    east = (sq(2820, -3000, 3000, 6100), {"NAME": "Sloatsburg village", "NEIGHBOUR": "Town of Ramapo"})
    ls = make_world(tmp_path, {"village_boundary": [west, east], "parkland": [], "state_county_roads": [],
                               "public_institutions": [], "ag_district_farms": [], "rcda": []})
    r, a = _answers(ls)
    assert r.headline.endswith("the parcel is 180 ft from the Village of Hillburn line.")
    assert not any("municipal_neighbours" in v for v in r.verify)


def test_a_parcel_outside_the_village_is_measured_to_the_village_own_line(tmp_path):
    village = (sq(-3000, -3000, 3000 - 120, 6000), {"NAME": "Sloatsburg village"})
    ls = make_world(tmp_path, {"village_boundary": [village], "parkland": [], "state_county_roads": [],
                               "public_institutions": [], "ag_district_farms": [], "rcda": []})
    r, a = _answers(ls)
    assert a["municipal_boundary"].distance_ft == pytest.approx(120.0, abs=0.05)
    assert r.headline.endswith("the parcel is 120 ft from the Sloatsburg village line.")


@pytest.mark.parametrize("trigger", ["parkland", "state_county_road", "county_stream", "public_institution",
                                     "farm_in_ag_district"])
@pytest.mark.parametrize("gap_ft, answer", [(499.0, "yes"), (501.0, "no")])
def test_each_trigger_counts_within_500_ft_and_not_beyond(world_once, trigger, gap_ft, answer):
    feature = (sq(100 + gap_ft, -200, 300, 500), {"NAME": "Harriman State Park"})
    ls = _world(world_once, {ROLE_OF[trigger]: [feature]})
    r, a = _answers(ls)
    assert a[trigger].answer == answer, a[trigger].reason
    assert a[trigger].distance_ft == pytest.approx(gap_ft, abs=0.05)
    others = [t for t in a if t not in (trigger, "municipal_boundary")]
    assert all(a[t].answer == "no" for t in others)
    assert r.required is (answer == "yes")
    if answer == "yes":
        assert a[trigger].clause in r.headline and "Harriman State Park" in r.headline


def test_a_road_centre_line_is_measured_from_its_right_of_way_not_its_centre(tmp_path):
    # centre line 560 ft east of the parcel, right-of-way 120 ft wide: its edge is 500 ft away
    line = LineString([(X0 + 660, Y0 - 2000), (X0 + 660, Y0 + 2000)])
    ls = make_world(tmp_path, {"village_boundary": [BIG_VILLAGE],
                               "state_county_roads": [(line, {"NAME": "NY-17", "ROW_WIDTH_FT": 120.0})]})
    # make_world writes no width_field: the manifest's default width applies, so give the width in the manifest
    import yaml
    doc = yaml.safe_load((tmp_path / "layers.yaml").read_text())
    doc["layers"]["state_county_roads"]["width_field"] = "ROW_WIDTH_FT"
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump(doc))
    from sloat_core.gis.layers import load_manifest
    ls = load_manifest(tmp_path / "layers.yaml")
    _, a = _answers(ls)
    assert a["state_county_road"].answer == "yes"
    assert a["state_county_road"].distance_ft == pytest.approx(500.0, abs=0.05)


def test_a_missing_layer_is_unknown_never_no(world_once):
    ls = _world(world_once, {}, omit=("ag_district_farms",))
    r, a = _answers(ls)
    assert a["farm_in_ag_district"].answer == "unknown" and a["farm_in_ag_district"].distance_ft is None
    assert r.required is None and "unknown" in r.headline


def test_a_layer_that_does_not_cover_the_land_within_500_ft_is_unknown(tmp_path):
    # a park file of another area (its features' extent does not reach the village): it maps none of our land
    ls = make_world(tmp_path, {"village_boundary": [sq(-1000, -1000, 2000)], "parkland": [sq(5000, 0, 100)]})
    _, a = _answers(ls)
    assert a["parkland"].answer == "unknown" and "does not cover" in a["parkland"].reason


def test_without_a_village_boundary_layer_the_boundary_trigger_is_unknown(tmp_path):
    ls = make_world(tmp_path, {"parkland": [sq(5000, 0, 100)]}, omit=("village_boundary",))
    _, a = _answers(ls)
    assert a["municipal_boundary"].answer == "unknown"


def test_a_trigger_found_within_500_ft_counts_even_if_other_land_is_unmapped(tmp_path):
    ls = make_world(tmp_path, {"parkland": [sq(300, 0, 100)]})
    r, a = _answers(ls)
    assert a["parkland"].answer == "yes" and r.required is True


def test_the_farm_trigger_does_not_apply_to_an_area_variance(world_once):
    ls = _world(world_once, {"ag_district_farms": [sq(150, 0, 100)]})
    _, a = _answers(ls, application_type=None, variance="area")
    assert a["farm_in_ag_district"].answer == "not_applicable"
    _, a = _answers(ls, application_type=None, variance="use")
    assert a["farm_in_ag_district"].answer == "yes"


def test_a_subdivision_is_referred_under_239_n_and_a_site_plan_under_239_m(world_once):
    ls = _world(world_once, {"parkland": [sq(150, 0, 100)]})
    r, a = _answers(ls, application_type="subdivision")
    assert r.statute == "GML § 239-n" and a["parkland"].clause.startswith("GML § 239-n(3)")
    r, _ = _answers(ls, application_type="special_permit")
    assert r.statute == "GML § 239-m"


def test_a_subdivision_plat_cites_239_n_own_paragraphs_for_the_triggers_the_clock_and_the_vote(world_once):
    """§ 239-n's triggers are in paragraph (a) of its subdivision 3 (§ 239-n(1)(a): "subparagraphs (ii) and (iii)
    of paragraph (a) of subdivision three"), where § 239-m's are in paragraph (b); the majority plus one of a plat
    is § 239-n(5). A site plan keeps § 239-m's numbering on every line."""
    ls = _world(world_once, {"parkland": [(sq(150, 0, 100), {"NAME": "Harriman State Park"})]})
    r, a = _answers(ls, application_type="subdivision", county_received_date="2026-10-16")
    assert a["parkland"].clause == "GML § 239-n(3)(a)(ii)"
    assert r.headline.startswith("County referral required before final action (GML § 239-n(3)(a)(ii))")
    assert "(GML § 239-n(5))" in r.override_rule and "239-m" not in r.override_rule
    assert r.clock["clause"] == "GML § 239-n(4)(b)" and "GML § 239-n(4)(b)" in r.clock["rule"]
    assert r.clock["verify"] and any(v.startswith("GML § 239-n(4)(b)") for v in r.verify)
    assert not any("239-m" in c for c in r.checklist)
    r, a = _answers(ls, application_type="site_plan", county_received_date="2026-10-16")
    assert a["parkland"].clause == "GML § 239-m(3)(b)(ii)"
    assert "(GML § 239-m(5))" in r.override_rule and r.clock["clause"] == "GML § 239-m(4)(b)"
    assert not r.clock["verify"] and not any("239-n" in v for v in r.verify)


def test_a_building_permit_alone_is_not_a_referable_action_so_no_referral_and_the_triggers_stay_listed(world_once):
    """GML § 239-m(3)(a) lists the actions referred (a comprehensive plan or zoning law, special use permits, site
    plans, use or area variances, other authorizations under the zoning law; subdivision plats, § 239-n): a
    building permit alone is none of them, so the referral is not required, whatever lies within 500 ft. The park
    50 ft away stays listed, with its clause, for a later application."""
    ls = _world(world_once, {"parkland": [sq(150, 0, 100)]})
    r, a = _answers(ls, application_type="building_permit")
    assert r.required is False and r.actions == () and r.statute is None
    assert "GML § 239-m(3)(a)" in r.headline and "building permit alone" in r.headline
    assert "if the application is" not in r.headline
    assert a["parkland"].answer == "yes" and a["parkland"].distance_ft == pytest.approx(50.0, abs=0.05)
    assert "later" in r.headline and "50 ft" in r.headline and a["parkland"].clause in r.headline
    assert not any("Send the full statement" in c for c in r.checklist)


def test_a_building_permit_alone_with_a_trigger_layer_missing_is_still_not_referred(world_once):
    ls = _world(world_once, {}, omit=("parkland",))
    r, a = _answers(ls, application_type="building_permit")
    assert r.required is False and a["parkland"].answer == "unknown"
    assert "parkland" in r.headline and "unknown" in r.headline


def test_a_building_permit_with_an_area_variance_is_referred(world_once):
    ls = _world(world_once, {"parkland": [sq(150, 0, 100)]})
    r, _ = _answers(ls, application_type="building_permit", variance="area")
    assert r.required is True and r.actions == ("area_variance",)


def test_with_no_application_type_given_the_referral_stays_unknown_with_the_condition(world_once):
    ls = _world(world_once, {"parkland": [sq(150, 0, 100)]})
    r, _ = _answers(ls, application_type=None)
    assert r.required is None and r.actions == ()
    assert "if the application is a site plan, special permit, variance or subdivision" in r.headline


def test_the_county_has_30_days_from_receipt_of_a_full_statement_then_the_board_may_act(world_once):
    ls = _world(world_once, {"parkland": [sq(150, 0, 100)]})
    # received Friday 2026-10-16: 30 days later is Sunday 2026-11-15, carried to Monday 16 November (GCL § 25-a)
    r, _ = _answers(ls, county_received_date="2026-10-16")
    c = r.clock
    assert c["days"] == 30 and c["clause"] == "GML § 239-m(4)(b)"
    assert c["report_due"] == "2026-11-15" and c["report_due_act_by"] == "2026-11-16"
    assert c["board_may_act_from"] == "2026-11-17"
    assert "§ 25-a" in c["note"] and "EAF" in c["starts"]


def test_the_majority_plus_one_override_and_the_county_executive_order_are_on_the_checklist(world_once):
    ls = _world(world_once, {"parkland": [sq(150, 0, 100)]})
    r, _ = _answers(ls)
    assert "majority plus one of all the members" in r.override_rule and "GML § 239-m(5)" in r.override_rule
    assert any("Executive Order 1-2017" in c and "to confirm with the Village" in c for c in r.checklist)
    assert "Rockland County Executive Order 1-2017" in r.verify


def test_the_500_ft_band_of_each_trigger_that_applies_is_drawn(world_once):
    ls = _world(world_once, {"parkland": [sq(150, 0, 100)]})
    r, _ = _answers(ls)
    bands = trigger_bands(PARCEL, ls, r)
    assert set(bands) == {"parkland"}
    assert bands["parkland"].area == pytest.approx(100 * 100 + 4 * 100 * 500 + 3.14159265 * 500 ** 2, rel=2e-3)


def test_the_referral_reads_the_distance_in_effect_on_the_analysis_date(tmp_path):
    assert state_param("county_referral_distance_ft", dt.date(2000, 1, 1)).value == 500
