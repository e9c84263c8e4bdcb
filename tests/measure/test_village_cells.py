"""The village sweep's slope land from the DEM cells: each parcel's area on the cells of each code, for many
parcels at once, is what the single-parcel cell shares (`gis.coverage`) give for each parcel alone."""

import numpy as np
import shapely
from affine import Affine

from sloat_core.gis.coverage import cell_coverage
from sloat_core.measure.village_cells import CodeGrid, code_areas


def _shapes(rng, n):
    out = []
    for k in range(n):
        cx, cy = rng.uniform(1000, 1400), rng.uniform(1700, 2000)
        g = shapely.Point(cx, cy).buffer(rng.uniform(3, 60), quad_segs=int(rng.integers(1, 6)))
        if k % 3 == 0:  # a hole
            g = g.difference(shapely.Point(cx + 2, cy).buffer(rng.uniform(1, 2)))
        if k % 5 == 0:  # two parts, one of them often off the grid's right edge
            g = shapely.union(g, shapely.box(cx + 70, cy, cx + 90, cy + 17))
        out.append(g)
    return np.array(out, dtype=object)


def test_many_parcels_areas_on_each_code_equal_their_cell_shares_one_by_one():
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 6, (60, 80)).astype(np.uint8)
    grid = CodeGrid(codes, 1000.0, 2000.0, 5.0, 5.0, 17)
    transform = Affine(5.0, 0, 1000.0, 0, -5.0, 2000.0)
    shapes = _shapes(rng, 120)
    got = code_areas(shapes, grid)
    for j, g in enumerate(shapes):
        share = cell_coverage(g, transform, codes.shape) * 25.0
        want = np.bincount(codes.ravel(), weights=share.ravel(), minlength=17)
        assert np.allclose(got[j, 1:], want[1:], rtol=0, atol=1e-9)


def test_a_parcel_on_no_cell_of_a_code_has_none_of_it_though_its_neighbour_has():
    codes = np.zeros((10, 10), dtype=np.uint8)
    codes[:, 7:] = 3  # code 3 only east of the first parcel, under the second
    grid = CodeGrid(codes, 0.0, 50.0, 5.0, 5.0, 17)
    lot = shapely.Polygon([(1.3, 2.2), (30.1, 4.7), (28.9, 41.3), (3.3, 44.9)])
    east = shapely.box(36.0, 10.0, 49.0, 20.0)
    got = code_areas(np.array([lot, east], dtype=object), grid)
    assert abs(got[0, 3]) < 1e-9
    assert abs(got[1, 3] - east.area) < 1e-9


def test_a_parcel_wholly_inside_cells_of_one_code_has_its_whole_area_on_it():
    codes = np.full((20, 20), 5, dtype=np.uint8)
    grid = CodeGrid(codes, 100.0, 200.0, 5.0, 5.0, 17)
    lot = shapely.Polygon([(110.3, 120.2), (140.1, 124.7), (138.9, 161.3), (113.3, 164.9)])
    got = code_areas(np.array([lot], dtype=object), grid)[0]
    assert abs(got[5] - lot.area) < 1e-9
