"""The exact share of each DEM cell a polygon covers (sloat_core.gis.coverage), checked against GEOS cell by cell."""

import numpy as np
import pytest
import shapely
from affine import Affine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from sloat_core.gis.coverage import cell_coverage

# A 5-ft grid of 12 rows x 16 columns with its top-left corner at (1000, 2000).
T = Affine(5, 0, 1000, 0, -5, 2000)
SHAPE = (12, 16)


def by_geos(geom, transform=T, shape=SHAPE):
    """The slow, obvious way: intersect every cell with the polygon."""
    rows, cols = shape
    out = np.zeros(shape)
    for r in range(rows):
        for c in range(cols):
            x0, y1 = transform * (c, r)
            x1, y0 = transform * (c + 1, r + 1)
            out[r, c] = box(x0, y0, x1, y1).intersection(geom).area / (transform.a * -transform.e)
    return out


def test_a_box_on_cell_edges_covers_whole_cells_and_nothing_else():
    cov = cell_coverage(box(1010, 1980, 1030, 1990), T, SHAPE)  # columns 2-5, rows 2-3
    assert cov[2:4, 2:6].tolist() == [[1.0] * 4] * 2
    assert cov.sum() == pytest.approx(8.0, abs=1e-12)


def test_a_box_half_across_a_cell_covers_half_of_it():
    cov = cell_coverage(box(1002.5, 1995, 1005, 2000), T, SHAPE)
    assert cov[0, 0] == pytest.approx(0.5, abs=1e-12)
    assert cov.sum() == pytest.approx(0.5, abs=1e-12)


def test_a_hole_covers_nothing():
    ring = box(1000, 1940, 1080, 2000)
    holed = ring.difference(box(1020, 1960, 1040, 1980))
    cov = cell_coverage(holed, T, SHAPE)
    assert cov[4:8, 4:8].sum() == pytest.approx(0.0, abs=1e-12)
    assert cov.sum() * 25 == pytest.approx(holed.area, rel=1e-12)


def test_orientation_of_the_rings_does_not_matter():
    cw = Polygon([(1001, 1999), (1001, 1951), (1049, 1951), (1049, 1999)])  # clockwise
    assert np.allclose(cell_coverage(cw, T, SHAPE), cell_coverage(cw.reverse(), T, SHAPE), atol=1e-12)
    assert cell_coverage(cw, T, SHAPE).sum() * 25 == pytest.approx(cw.area, rel=1e-12)


def test_parts_outside_the_grid_cover_nothing_inside_it():
    far = box(500, 500, 700, 700)
    straddling = box(950, 1990, 1010, 2050)  # pokes out west and north: only cells (0, 0) and (0, 1) count
    cov = cell_coverage(shapely.union_all([far, straddling]), T, SHAPE)
    assert cov[0, 0] == pytest.approx(1.0) and cov[0, 1] == pytest.approx(1.0)
    assert cov[1, 0] == pytest.approx(1.0) and cov[1, 1] == pytest.approx(1.0)
    assert cov.sum() == pytest.approx(4.0, abs=1e-12)


def test_a_polygon_wider_than_the_grid_covers_every_cell():
    assert np.allclose(cell_coverage(box(0, 0, 5000, 5000), T, SHAPE), 1.0, atol=1e-12)


def test_lines_points_and_empty_shapes_cover_nothing():
    for geom in (shapely.LineString([(1000, 2000), (1080, 1940)]), shapely.Point(1010, 1990), Polygon()):
        assert cell_coverage(geom, T, SHAPE).sum() == 0.0


def test_a_rotated_grid_is_refused():
    with pytest.raises(ValueError, match="north-up"):
        cell_coverage(box(0, 0, 1, 1), Affine(5, 1, 0, 0, -5, 0), SHAPE)


point = st.tuples(st.floats(980, 1100, allow_nan=False), st.floats(1920, 2020, allow_nan=False))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pts=st.lists(point, min_size=3, max_size=12), hole=st.booleans())
def test_every_cell_share_equals_the_geos_intersection(pts, hole):
    geom = shapely.make_valid(Polygon(pts))
    geom = shapely.union_all([p for p in shapely.get_parts(geom) if p.geom_type == "Polygon"])
    if hole and not geom.is_empty:
        geom = geom.difference(shapely.Point(1040, 1970).buffer(12))
    if geom.is_empty:
        return
    assert np.abs(cell_coverage(geom, T, SHAPE) - by_geos(geom)).max() < 1e-9


def test_the_module_examples_hold():
    import doctest

    import sloat_core.gis.coverage as module

    assert doctest.testmod(module).failed == 0
