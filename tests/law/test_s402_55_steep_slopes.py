"""§ 402-55J(7), (11), (13), (14): the engineer's figures compared with the numbers the law states, on both
sides of each number. The numbers come from data/law/parameters.yaml (checked against the clause's quote)."""

import pytest
from shapely.geometry import box

from engine_world import analyze_in, footprint, permits_in, sq
from sloat_core.engine.analysis import analyze
from sloat_core.errors import SloatInputError
from sloat_core.law.params import param, value
from sloat_core.law.text import quote_in_clause
from sloat_core.rules.project import parse_project
from sloat_core.rules.sections.s402_55_steep_slopes.design import design_comparisons
from law_day import LAW_DAY


def _check(**figures) -> dict:
    return {c["id"]: c for c in design_comparisons(figures, LAW_DAY)}


def test_the_numbers_are_the_parameters_quoted_from_their_clauses():
    assert (param("retaining_wall_max_length_ft", LAW_DAY).value, param("retaining_wall_max_length_ft", LAW_DAY).citation) == (
        100, "§ 402-55J(7)")
    assert param("retaining_wall_max_height_ft", LAW_DAY).value == 6
    assert (param("cut_max_height_ft", LAW_DAY).value, param("cut_max_height_ft", LAW_DAY).citation) == (20, "§ 402-55J(11)")
    assert param("cut_fill_max_slope_ratio", LAW_DAY).quote == "a slope of one vertical to two horizontal"
    assert "six feet plus 1/2 the height" in param("cut_fill_setback_base_ft", LAW_DAY).quote


def test_a_retaining_wall_of_100_linear_feet_is_within_j7_and_one_longer_is_not():
    assert _check(retaining_wall_length_ft=100)["retaining_wall_length"]["within"] is True
    assert _check(retaining_wall_length_ft=100.1)["retaining_wall_length"]["within"] is False


def test_a_retaining_wall_six_feet_high_is_within_j7_and_one_higher_is_not():
    assert _check(retaining_wall_height_ft=6)["retaining_wall_height"]["within"] is True
    assert _check(retaining_wall_height_ft=6.05)["retaining_wall_height"]["within"] is False


def test_a_cut_of_20_feet_does_not_exceed_j11_and_one_of_21_does():
    assert _check(cut_height_ft=20)["cut_height"]["within"] is True
    assert _check(cut_height_ft=20.5)["cut_height"]["within"] is False


def test_a_slope_of_one_vertical_to_two_horizontal_is_within_j13_and_a_steeper_one_needs_stabilization():
    assert _check(cut_fill_slope_h_per_v=2)["cut_fill_slope"]["within"] is True
    assert _check(cut_fill_slope_h_per_v=3)["cut_fill_slope"]["within"] is True
    steep = _check(cut_fill_slope_h_per_v=1.9)["cut_fill_slope"]
    assert steep["within"] is False
    assert "structural stabilization" in steep["text"] and "Village Engineer" in steep["text"]


def test_the_j14_setback_is_generally_six_feet_plus_half_the_height_and_is_guidance_not_a_bar():
    # A 10 ft cut: generally 6 + 5 = 11 ft.
    met = _check(cut_fill_setback_ft=11, cut_fill_height_at_structure_ft=10)["cut_fill_setback"]
    assert met["within"] is True and met["limit"] == pytest.approx(11.0)
    short = _check(cut_fill_setback_ft=10.9, cut_fill_height_at_structure_ft=10)["cut_fill_setback"]
    assert short["within"] is False and short["binding"] is False
    assert "guidance, not a bar" in short["text"] and "approval authority decides" in short["text"]


def test_a_figure_not_given_is_unknown_and_says_what_would_answer_it():
    c = _check()
    assert all(x["within"] is None for x in c.values())
    assert "give the highest cut" in c["cut_height"]["text"]
    assert "setback and height of the cut or fill" in c["cut_fill_setback"]["text"]


def test_the_analysis_checklist_takes_the_figure_and_reports_a_tick_it_contradicts():
    parcel = box(578_000, 848_000, 578_200, 848_200)
    out = analyze(parcel, None, district="R-40", project={
        "design_figures": {"retaining_wall_length_ft": 120, "cut_height_ft": 20},
        "design_limits": {"retaining_wall_length": True}})
    items = {i["id"]: i for i in out["steep_slope_design_limits"]}
    assert items["retaining_wall_length"]["met"] is False
    assert items["cut_height"]["met"] is True
    assert items["retaining_wall_height"]["met"] is None
    assert any("disagrees with the figure" in w for w in out["warnings"])


def test_design_figures_in_project_json_are_checked_like_any_input():
    assert dict(parse_project({"design_figures": {"cut_height_ft": "12.5"}}).design_figures) == {
        "cut_height_ft": 12.5}
    for bad, words in (({"cut_height_ft": -1}, "cannot be negative"), ({"cut_height_ft": "x"}, "must be a number"),
                       ({"wall": 3}, "no design figure"), ([1, 2], "must map each figure"),
                       ({"cut_height_ft": 1e12}, "too large")):
        with pytest.raises(SloatInputError, match=words):
            parse_project({"design_figures": bad})


def test_a_building_permit_that_also_needs_a_wetland_permit_has_the_planning_board_as_steep_slope_authority(
        world_once):
    # § 402-55D(1): the Planning Board for "any ... application which requires the issuance of a permit or
    # approval by it"; § 402-55F: the 60-day clock is "For activities not requiring any other permit or approval".
    assert quote_in_clause("requires the issuance of a permit or approval by it", "§ 402-55D(1)")
    world = world_once({"wetlands": [sq(100, 100, 100)]}, dem=30)
    p = permits_in(world, {"application_type": "building_permit", "trees_removed": 0,
                        "disturbance_footprint": footprint(sq(120, 120, 40))})
    assert p["wetland_permit"]["required"] is True
    steep = p["steep_slope_permit"]
    assert steep["required"] is True
    assert steep["authority"].startswith("Planning Board") and "§ 402-55D(1)" in steep["authority"]
    assert not any(c.startswith("Stand-alone decision") for c in steep["clocks"])
    assert any("Decided together" in c and "§ 402-55F" in c for c in steep["clocks"])


def test_a_building_permit_alone_keeps_the_village_engineer_as_steep_slope_authority(world_once):
    # § 402-55D(2): "The Village Engineer shall be the approval authority with respect to all other regulated
    # activities."
    world = world_once({}, dem=30)
    steep = permits_in(world, {"application_type": "building_permit", "trees_removed": 0,
                            "disturbance_footprint": footprint(sq(120, 120, 40))})["steep_slope_permit"]
    assert steep["authority"] == "Village Engineer (§ 402-55D(2))"


def test_a_tree_permit_still_unknown_is_named_as_the_proviso_of_the_village_engineer(world_once):
    world = world_once({}, dem=30)
    steep = permits_in(world, {"application_type": "building_permit"})["steep_slope_permit"]
    assert steep["authority"].startswith("Village Engineer (§ 402-55D(2))")
    assert "tree removal permit" in steep["authority"] and "§ 402-55D(1)" in steep["authority"]


def test_with_no_application_type_the_stand_alone_clock_is_still_shown_as_conditional(world_once):
    world = world_once({}, dem=30)
    steep = permits_in(world)["steep_slope_permit"]
    assert any(c.startswith("Stand-alone decision") for c in steep["clocks"])


def test_the_steep_slope_design_limits_are_a_checklist_built_from_the_parameters(world_once):
    # § 402-55J(7) "not be more than 100 linear feet ... not be more than six feet", J(11) "shall not exceed
    # 20 feet", J(13) "one vertical to two horizontal", J(14) "six feet plus 1/2 the height"
    world = world_once({}, dem=30)
    items = {i["id"]: i for i in analyze_in(world, {"design_limits": {"cut_height": True, "cut_fill_slope": False}})[
        "steep_slope_design_limits"]}
    assert set(items) == {"retaining_wall_length", "retaining_wall_height", "cut_height", "cut_fill_slope",
                          "cut_fill_setback"}
    assert items["cut_height"]["met"] is True and items["cut_fill_slope"]["met"] is False
    assert items["retaining_wall_length"]["met"] is None  # not ticked yet: unknown
    assert f"{value('retaining_wall_max_length_ft', LAW_DAY)} linear feet" in items["retaining_wall_length"]["text"]
    assert f"{value('cut_max_height_ft', LAW_DAY)} feet" in items["cut_height"]["text"]
    assert str(value("cut_fill_max_slope_ratio", LAW_DAY)) in items["cut_fill_slope"]["text"]
    assert items["cut_fill_setback"]["citation"] == "§ 402-55J(14)" and "one half of" in items["cut_fill_setback"]["text"]


def test_each_design_limit_is_declared_once_with_its_clause_and_the_parameter_quoting_it():
    # § 402-55J(7), (11), (13), (14): the project's keys, the checklist, the project form's words and the
    # figures compared all come from the one declaration of each limit.
    from sloat_core.rules.project import Project
    from sloat_core.rules.sections.s402_55_steep_slopes.design import (DESIGN_FIGURES, DESIGN_LIMITS,
                                                                      DESIGN_TICK_WORDS, LIMITS, design_checklist)

    assert [d.id for d in LIMITS] == list(DESIGN_LIMITS) == list(DESIGN_TICK_WORDS)
    for d in LIMITS:
        assert param(d.parameter, LAW_DAY).citation == d.citation, d.id
        assert quote_in_clause(param(d.parameter, LAW_DAY).quote, d.citation), d.id
    assert [i["id"] for i in design_checklist(Project(), LAW_DAY)] == list(DESIGN_LIMITS)
    assert {c["id"] for c in design_comparisons({}, LAW_DAY)} == set(DESIGN_LIMITS)
    assert set(DESIGN_FIGURES) == {f.key for d in LIMITS for f in d.figures}
    assert dict(parse_project({"design_figures": {k: 1 for k in DESIGN_FIGURES}}).design_figures) == {
        k: 1.0 for k in DESIGN_FIGURES}


def test_each_lot_of_a_plan_needs_the_steep_slope_permit_its_own_envelope_calls_for(world_once):
    # The land is flat west of x = 200 ft and rises at 30 % east of it. Each lot is its own project, with the
    # project's facts: the west lot's envelope is on flat land (no permit), the east lot's on the 30 % slope
    # (§ 402-55C(2): slopes of 25 % or greater); a lot with no envelope and no disturbance has no footprint.
    from engine_world import plan_in, plan_of

    world = world_once({}, dem=lambda gx, gy: 500.0 + 0.3 * (gx - 200.0).clip(min=0.0))
    drawing = plan_of([("W", sq(0, 0, 200, 400)), ("E", sq(200, 0, 200, 400))],
                      envelopes=[sq(50, 150, 60), sq(300, 150, 60)])
    out = plan_in(world, drawing, project={"application_type": "building_permit", "trees_removed": 0})
    steep = {lot["lot"]: {p["id"]: p for p in lot["permits"]}["steep_slope_permit"] for lot in out["lots"]}
    assert steep["W"]["required"] is False
    assert steep["E"]["required"] is True and steep["E"]["citation"].startswith("§ 402-55")
