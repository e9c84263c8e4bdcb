"""§ 402-55J(7), (11), (13), (14): the engineer's figures compared with the numbers the law states, on both
sides of each number. The numbers come from data/law/parameters.yaml (checked against the clause's quote)."""

import pytest
from shapely.geometry import box

from sloat_core.engine.analysis import analyze
from sloat_core.errors import SloatInputError
from sloat_core.law.params import param
from sloat_core.rules.project import parse_project
from sloat_core.rules.steep_slope_design import design_comparisons


def _check(**figures) -> dict:
    return {c["id"]: c for c in design_comparisons(figures)}


def test_the_numbers_are_the_parameters_quoted_from_their_clauses():
    assert (param("retaining_wall_max_length_ft").value, param("retaining_wall_max_length_ft").citation) == (
        100, "§ 402-55J(7)")
    assert param("retaining_wall_max_height_ft").value == 6
    assert (param("cut_max_height_ft").value, param("cut_max_height_ft").citation) == (20, "§ 402-55J(11)")
    assert param("cut_fill_max_slope_ratio").quote == "a slope of one vertical to two horizontal"
    assert "six feet plus 1/2 the height" in param("cut_fill_setback_base_ft").quote


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
