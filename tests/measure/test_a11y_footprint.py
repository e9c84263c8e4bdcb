"""A footprint typed instead of drawn (no pointer-only task): a rectangle of known sides in EPSG:2260,
placed on the parcel, bounded; tested on hand-built geometry of known area."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Polygon, box

from sloat_core.errors import SloatInputError
from sloat_core.measure.footprint import MAX_SIDE_FT, rectangle_footprint

SQUARE = box(1000.0, 2000.0, 1200.0, 2200.0)  # 200 x 200 ft = 40,000 sq ft, centroid (1100, 2100)


def test_a_typed_rectangle_has_its_area_and_sits_on_the_parcels_centre():
    fp = rectangle_footprint(SQUARE, 30, 40)
    assert fp.area == pytest.approx(1_200.0, abs=1e-6)
    assert fp.bounds == pytest.approx((1085.0, 2080.0, 1115.0, 2120.0), abs=1e-9)
    assert SQUARE.contains(fp)


@pytest.mark.parametrize("turn", [0, 30, 45, 90, -135, 360])
def test_a_turned_rectangle_keeps_its_area_and_centre(turn):
    fp = rectangle_footprint(SQUARE, 50, 20, rotation_deg=turn)
    assert fp.area == pytest.approx(1_000.0, abs=1e-6)
    assert fp.centroid.x == pytest.approx(1100.0, abs=1e-6) and fp.centroid.y == pytest.approx(2100.0, abs=1e-6)
    if turn == 90:
        minx, miny, maxx, maxy = fp.bounds
        assert (maxx - minx, maxy - miny) == pytest.approx((20.0, 50.0), abs=1e-6)


def test_offsets_move_it_and_a_rectangle_off_the_parcel_is_measured_where_it_lies():
    fp = rectangle_footprint(SQUARE, 40, 40, east_ft=100, north_ft=-20)  # centre (1200, 2080): half off the lot
    assert fp.centroid.x == pytest.approx(1200.0) and fp.centroid.y == pytest.approx(2080.0)
    assert SQUARE.intersection(fp).area == pytest.approx(800.0, abs=1e-6)


def test_an_l_shaped_parcel_whose_centroid_lies_outside_gets_a_point_inside():
    ell = Polygon([(0, 0), (300, 0), (300, 20), (20, 20), (20, 300), (0, 300)])
    assert not ell.contains(ell.centroid)
    fp = rectangle_footprint(ell, 10, 10)
    assert ell.contains(fp.centroid)
    assert fp.area == pytest.approx(100.0, abs=1e-6)


@pytest.mark.parametrize("kwargs, words", [
    ({"width_ft": 0, "depth_ft": 10}, "width"), ({"width_ft": 10, "depth_ft": -5}, "depth"),
    ({"width_ft": MAX_SIDE_FT + 1, "depth_ft": 10}, "width"), ({"width_ft": math.nan, "depth_ft": 10}, "width"),
    ({"width_ft": "ten", "depth_ft": 10}, "width"), ({"width_ft": 10, "depth_ft": math.inf}, "depth"),
    ({"width_ft": 10, "depth_ft": 10, "east_ft": 1e12}, "offset east"),
    ({"width_ft": 10, "depth_ft": 10, "rotation_deg": 720}, "turn"),
])
def test_hostile_sizes_are_refused_in_one_sentence(kwargs, words):
    with pytest.raises(SloatInputError, match=words) as err:
        rectangle_footprint(SQUARE, **kwargs)
    assert str(err.value).count(".") <= 3 and "\n" not in str(err.value)


def test_without_a_parcel_it_is_refused():
    with pytest.raises(SloatInputError, match="parcel"):
        rectangle_footprint(Polygon(), 10, 10)
