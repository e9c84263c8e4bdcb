"""A plan's drawing problems, each with its lots and area: lots that overlap, land outside the parcel, a lot in
two districts, one label on two lots, an outline left open. Slivers under 1 sq ft are drafting, not problems."""

import pytest
import shapely

from engine_world import make_world, plan_in, plan_of, sq


@pytest.fixture()
def world(tmp_path):
    return make_world(tmp_path, {"zoning": [(sq(-200, -200, 400, 800), {"ZONE": "R-40"}),
                                            (sq(200, -200, 400, 800), {"ZONE": "R-80"})]}, dem=0)


def _problems(out) -> dict:
    return {p["kind"]: p for p in out["problems"]}


@pytest.mark.parametrize(("overlap_ft", "problem"), [(0.09, False), (0.11, True)])
def test_lots_sharing_0_9_sq_ft_are_a_sliver_and_1_1_sq_ft_an_overlap(world, overlap_ft, problem):
    # Two lots 10 ft deep meeting at x = 100 ft, drawn overlap_ft into each other: 0.9 or 1.1 sq ft shared.
    parcel = sq(0, 0, 200, 10)
    world_lots = [("A", sq(0, 0, 100 + overlap_ft, 10)), ("B", sq(100, 0, 100, 10))]
    out = plan_in(world, plan_of(world_lots), parcel=parcel, district="R-40")
    found = _problems(out).get("overlap")
    assert (found is not None) is problem
    if problem:
        assert found["lots"] == ["A", "B"] and found["area_sqft"] == pytest.approx(1.1, abs=0.01)


def test_a_lot_reaching_beyond_the_parcel_is_a_problem_with_the_area_outside(world):
    out = plan_in(world, plan_of([("A", sq(0, 0, 200, 450))]), parcel=sq(0, 0, 200, 400), district="R-40")
    found = _problems(out)["outside_parcel"]
    assert found["lots"] == ["A"] and found["area_sqft"] == pytest.approx(10_000, abs=0.01)
    assert out["lots"][0]["gross_sqft"] == pytest.approx(90_000, abs=0.01)  # the lot as drawn


def test_a_lot_in_two_districts_is_a_problem_and_its_answer_is_unknown_where_they_disagree(world):
    # 100 ft in R-40 and 100 ft in R-80, 399 ft deep: 79,800 sq ft meets R-40's 40,000 but not R-80's 80,000.
    out = plan_in(world, plan_of([("A", sq(100, 0, 200, 399))]), parcel=sq(0, 0, 400), district=None)
    found = _problems(out)["two_districts"]
    assert found["lots"] == ["A"] and found["area_sqft"] == pytest.approx(39_900, abs=0.01)
    assert out["lots"][0]["conforms"] is None


def test_one_label_on_two_lots_is_a_problem(world):
    out = plan_in(world, plan_of([("7", sq(0, 0, 200)), ("7", sq(200, 0, 200))]), parcel=sq(0, 0, 400, 200))
    found = _problems(out)["duplicate_label"]
    assert found["lots"] == ["7", "7"] and found["area_sqft"] == pytest.approx(80_000, abs=0.01)


def test_an_outline_left_open_is_measured_closed_and_named_a_problem(world):
    from sloat_core.plan.check import check_plan
    from sloat_core.plan.drawing import PlanDrawing, PlanFeature

    ring = shapely.LineString(list(sq(0, 0, 200).exterior.coords)[:-1])  # the last side not drawn
    drawing = PlanDrawing((PlanFeature("lots", "A", ring, closed=False),), ("lots",), {"lots": "lots"})
    out = check_plan(sq(0, 0, 200), drawing, world, district="R-40").to_dict()
    assert _problems(out)["not_closed"]["lots"] == ["A"]
    assert out["lots"][0]["gross_sqft"] == pytest.approx(40_000, abs=0.01)


def test_the_land_in_no_lot_road_or_open_space_is_counted(world):
    out = plan_in(world, plan_of([("A", sq(0, 0, 200))], roads=[sq(200, 0, 50, 200)]), parcel=sq(0, 0, 400, 200))
    assert out["unallocated_sqft"] == pytest.approx(150 * 200, abs=0.01)


def test_a_problem_names_its_lots_as_the_plan_labels_them():
    """A sentence begins with "Lot", and the label keeps its own case ("L3", not "l3")."""
    from shapely.geometry import box

    from sloat_core.plan.problems import overlaps, two_districts

    district = two_districts("L3", [("IP", 45_052.0), ("MU-2", 5_690.0)])
    assert district.text.startswith("Lot L3 lies in 2 zoning districts"), district.text
    overlap = overlaps(["L1", "L2"], [box(0, 0, 10, 10), box(5, 0, 15, 10)])[0]
    assert overlap.text.startswith("Lot L1 and lot L2 overlap"), overlap.text
