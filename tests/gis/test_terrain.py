"""Slopes from the DEM (sloat_core.gis.terrain): Horn's method, slope classes, exact partial cells.

Planes are built so the slope is exact in binary: 1 ft rise per 4-ft cell is 25%, 2 ft per 5-ft cell
is 40%, 3 ft per 20-ft cell is 15%. DEMs are small GeoTIFFs written into tmp_path in EPSG:2260.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import rasterio
import shapely
from rasterio.transform import from_origin
from rasterio.windows import Window
from shapely.geometry import box

from sloat_core.errors import SloatInputError
from sloat_core.gis.terrain import (
    SLOPE_CLASS_COLORS,
    horn_slope_percent,
    slope_class_labels,
    slope_class_raster,
    slope_classes,
    slope_grid,
)
from law_day import LAW_DAY

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DEM = ROOT / "data" / "sample" / "dem.tif"
X0, Y0 = 640_000.0, 780_000.0  # top-left corner of the test DEMs, EPSG:2260 feet
CLASSES = ("0-15", "15-25", "25-40", "over_40", "unknown")


def write_dem(path: Path, z: np.ndarray, cell_ft: float, *, crs="EPSG:2260", nodata=None,
              dtype="float64", origin=(X0, Y0)) -> Path:
    """Write ``z`` as a one-band north-up GeoTIFF with square cells of ``cell_ft``."""
    profile = dict(driver="GTiff", height=z.shape[0], width=z.shape[1], count=1, dtype=dtype,
                   transform=from_origin(origin[0], origin[1], cell_ft, cell_ft))
    if crs is not None:
        profile["crs"] = crs
    if nodata is not None:
        profile["nodata"] = nodata
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(z.astype(dtype), 1)
    return path


def plane_east(rows: int, cols: int, rise_per_cell: float) -> np.ndarray:
    """Elevations rising ``rise_per_cell`` per column toward the east."""
    return np.tile(np.arange(cols, dtype=np.float64) * rise_per_cell, (rows, 1))


def cell_box(row: int, col: int, cell_ft: float):
    return box(X0 + col * cell_ft, Y0 - (row + 1) * cell_ft, X0 + (col + 1) * cell_ft, Y0 - row * cell_ft)


def rough_dem(rows: int, cols: int, seed: int = 7) -> np.ndarray:
    """Hilly random terrain (smoothed noise plus a ridge), slopes from flat to well over 40%."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(0.0, 6.0, (rows + 6, cols + 6))
    from numpy.lib.stride_tricks import sliding_window_view

    smooth = sliding_window_view(noise, (7, 7)).mean(axis=(2, 3))
    yy, xx = np.mgrid[0:rows, 0:cols]
    ridge = 40.0 * np.exp(-((xx - cols / 2) ** 2) / (2 * (cols / 6) ** 2))
    return 500.0 + smooth * 4.0 + ridge + 0.05 * yy


# --------------------------------------------------------------------------------------------
# Horn's method
# --------------------------------------------------------------------------------------------


def test_a_plane_rising_one_foot_per_four_feet_east_is_exactly_25_percent():
    s = horn_slope_percent(plane_east(6, 6, 1.0), 4.0, -4.0)
    assert np.all(s[1:-1, 1:-1] == 25.0)


def test_a_plane_rising_two_feet_per_five_feet_is_exactly_40_percent():
    s = horn_slope_percent(plane_east(5, 5, 2.0), 5.0, -5.0)
    assert np.all(s[1:-1, 1:-1] == 40.0)


def test_a_plane_rising_three_feet_per_twenty_feet_north_is_exactly_15_percent():
    z = plane_east(5, 5, 3.0).T  # rises toward the south; slope is direction-free
    s = horn_slope_percent(z, 20.0, -20.0)
    assert np.all(s[1:-1, 1:-1] == 15.0)


def test_a_tilted_plane_combines_both_directions_like_a_right_triangle():
    yy, xx = np.mgrid[0:6, 0:6].astype(np.float64)
    z = 0.3 * xx + 0.4 * yy  # 30% one way, 40% the other: 50% overall on 1-ft cells
    s = horn_slope_percent(z, 1.0, -1.0)
    assert np.allclose(s[1:-1, 1:-1], 50.0, rtol=0, atol=1e-4)


def test_the_outer_ring_has_no_slope_as_in_gdaldem_without_compute_edges():
    s = horn_slope_percent(plane_east(5, 7, 1.0), 4.0, -4.0)
    assert np.isnan(s[0, :]).all() and np.isnan(s[-1, :]).all()
    assert np.isnan(s[:, 0]).all() and np.isnan(s[:, -1]).all()
    assert np.isfinite(s[1:-1, 1:-1]).all()


def test_a_nodata_cell_removes_the_slope_of_its_eight_neighbours_and_itself():
    z = plane_east(7, 7, 1.0)
    z[3, 3] = -9999.0
    s = horn_slope_percent(z, 4.0, -4.0, nodata=-9999.0)
    assert np.isnan(s[2:5, 2:5]).all()
    valid = np.isfinite(s)
    assert valid.sum() == 25 - 9
    assert np.all(s[valid] == 25.0)


def test_nan_elevations_count_as_nodata():
    z = plane_east(7, 7, 1.0)
    z[1, 1] = np.nan
    s = horn_slope_percent(z, 4.0, -4.0)
    assert np.isnan(s[1:3, 1:3]).all()
    assert s[4, 4] == 25.0


def test_cell_sizes_are_taken_as_absolute_values():
    z = rough_dem(20, 20)
    assert np.array_equal(horn_slope_percent(z, 5.0, -5.0), horn_slope_percent(z, -5.0, 5.0), equal_nan=True)


def test_arrays_smaller_than_the_kernel_have_no_slope():
    assert np.isnan(horn_slope_percent(np.zeros((2, 5)), 5.0, -5.0)).all()


# --------------------------------------------------------------------------------------------
# Class edges (the law: "over 15%", "in excess of 25%", "in excess of 40%")
# --------------------------------------------------------------------------------------------


def test_class_names_follow_the_parameters_file():
    assert slope_class_labels(LAW_DAY) == CLASSES


@pytest.mark.parametrize(
    "slope, expected",
    [
        (0.0, 1), (15.0, 1), (15.0001, 2), (25.0, 2), (25.0001, 3),
        (40.0, 3), (40.0001, 4), (250.0, 4), (np.nan, 0),
    ],
)
def test_class_edges_on_both_sides(slope, expected):
    assert slope_classes(np.array([slope]), LAW_DAY)[0] == expected


@pytest.mark.parametrize(
    "cell_ft, rise_per_cell, expected_class",
    [
        (4.0, 1.0, "15-25"),        # exactly 25%: not "in excess of 25%"
        (4.0, 1.000004, "25-40"),   # 25.0001%
        (5.0, 2.0, "25-40"),        # exactly 40%: not "in excess of 40%"
        (5.0, 2.000005, "over_40"),  # 40.0001%
        (20.0, 3.0, "0-15"),        # exactly 15%: not "over 15%"
        (20.0, 3.00002, "15-25"),   # 15.0001%
    ],
)
def test_a_parcel_on_a_uniform_plane_lands_wholly_in_one_class(tmp_path, cell_ft, rise_per_cell, expected_class):
    dem = write_dem(tmp_path / "plane.tif", plane_east(12, 12, rise_per_cell), cell_ft)
    parcel = box(X0 + 2 * cell_ft, Y0 - 10 * cell_ft, X0 + 10 * cell_ft, Y0 - 2 * cell_ft)
    areas = slope_grid(dem, parcel).class_areas_sqft(parcel, on=LAW_DAY)
    assert set(areas) == set(CLASSES)
    assert areas[expected_class] == pytest.approx(parcel.area, rel=1e-12)
    assert sum(v for k, v in areas.items() if k != expected_class) == pytest.approx(0.0, abs=1e-6)


def test_the_steep_slope_permit_region_includes_exactly_25_percent_but_the_deduction_does_not(tmp_path):
    dem = write_dem(tmp_path / "p25.tif", plane_east(10, 10, 1.0), 4.0)
    parcel = box(X0 + 6, Y0 - 30, X0 + 30, Y0 - 6)
    grid = slope_grid(dem, parcel)
    assert grid.region(ge=25).area == pytest.approx(parcel.area, rel=1e-12)
    assert grid.region(gt=25).is_empty
    assert grid.region(gt=25, le=40).is_empty
    assert grid.region(gt=15, le=25).area == pytest.approx(parcel.area, rel=1e-12)
    # the module map's names for the same bounds
    assert grid.region(lo_inclusive=25).area == pytest.approx(parcel.area, rel=1e-12)
    assert grid.region(lo_exclusive=25).is_empty


# --------------------------------------------------------------------------------------------
# Partial cells, unknown land, sums
# --------------------------------------------------------------------------------------------


def kinked_dem() -> np.ndarray:
    """10-ft cells: 1 ft rise per cell up to column 5, then 3 ft per cell.

    Horn slopes: 10% for columns 1-4, 20% at the kink (column 5), 30% for columns 6-8.
    """
    steps = np.array([1.0] * 5 + [3.0] * 5)
    z_row = np.concatenate([[0.0], np.cumsum(steps)])[:10]
    return np.tile(z_row, (10, 1))


def test_the_kinked_dem_has_the_slopes_it_was_built_for():
    s = horn_slope_percent(kinked_dem(), 10.0, -10.0)
    assert np.all(s[1:-1, 1:5] == 10.0)
    assert np.all(s[1:-1, 5] == 20.0)
    assert np.all(s[1:-1, 6:9] == 30.0)


def test_a_parcel_half_covering_cells_counts_half_their_area(tmp_path):
    dem = write_dem(tmp_path / "kink.tif", kinked_dem(), 10.0)
    # x from the middle of column 4 (10%) through column 5 (20%) to the middle of column 6 (30%);
    # rows 2-5 whole (40 ft tall).
    parcel = box(X0 + 45, Y0 - 60, X0 + 65, Y0 - 20)
    areas = slope_grid(dem, parcel).class_areas_sqft(parcel, on=LAW_DAY)
    assert areas["0-15"] == pytest.approx(5 * 40, rel=1e-12)   # half of column 4
    assert areas["15-25"] == pytest.approx(10 * 40, rel=1e-12)  # all of column 5
    assert areas["25-40"] == pytest.approx(5 * 40, rel=1e-12)   # half of column 6
    assert areas["over_40"] == 0.0
    assert areas["unknown"] == pytest.approx(0.0, abs=1e-6)


def test_a_parcel_reaching_half_a_cell_into_the_dem_edge_counts_that_half_as_unknown(tmp_path):
    dem = write_dem(tmp_path / "plane.tif", plane_east(10, 10, 1.000004), 4.0)
    # column 0 is the DEM edge (no slope); the parcel starts in its middle
    parcel = box(X0 + 2, Y0 - 36, X0 + 20, Y0 - 4)
    areas = slope_grid(dem, parcel).class_areas_sqft(parcel, on=LAW_DAY)
    assert areas["unknown"] == pytest.approx(2 * 32, rel=1e-9)
    assert areas["25-40"] == pytest.approx(16 * 32, rel=1e-12)


def test_a_parcel_partly_outside_the_dem_has_the_outside_part_unknown(tmp_path):
    cell = 4.0
    dem = write_dem(tmp_path / "plane.tif", plane_east(10, 10, 1.000004), cell)
    dem_box = box(X0, Y0 - 10 * cell, X0 + 10 * cell, Y0)
    valid_box = box(X0 + cell, Y0 - 9 * cell, X0 + 9 * cell, Y0 - cell)  # inside the edge ring
    parcel = box(X0 + 8, Y0 - 30, X0 + 70, Y0 - 10)  # runs 30 ft past the east edge
    grid = slope_grid(dem, parcel)
    areas = grid.class_areas_sqft(parcel, on=LAW_DAY)
    outside = parcel.difference(dem_box).area
    in_edge_ring = parcel.intersection(dem_box).difference(valid_box).area
    assert outside == pytest.approx(30 * 20)
    assert areas["unknown"] == pytest.approx(outside + in_edge_ring, rel=1e-9)
    assert areas["25-40"] == pytest.approx(parcel.intersection(valid_box).area, rel=1e-9)
    assert grid.unknown_region().area == pytest.approx(areas["unknown"], rel=1e-9)
    assert grid.unknown_region().difference(parcel).area == pytest.approx(0.0, abs=1e-6)


def test_a_parcel_wholly_outside_the_dem_is_all_unknown(tmp_path):
    dem = write_dem(tmp_path / "plane.tif", plane_east(10, 10, 1.0), 4.0)
    parcel = box(X0 + 1000, Y0 - 100, X0 + 1100, Y0)
    grid = slope_grid(dem, parcel)
    areas = grid.class_areas_sqft(on=LAW_DAY)
    assert areas["unknown"] == pytest.approx(parcel.area)
    assert sum(areas.values()) == pytest.approx(parcel.area)
    assert grid.region(gt=0).is_empty
    assert grid.unknown_region().area == pytest.approx(parcel.area)


def test_an_all_nodata_dem_leaves_everything_unknown(tmp_path):
    dem = write_dem(tmp_path / "empty.tif", np.full((20, 20), -9999.0), 5.0, nodata=-9999.0)
    parcel = box(X0 + 12, Y0 - 80, X0 + 77, Y0 - 13)
    grid = slope_grid(dem, parcel)
    areas = grid.class_areas_sqft(parcel, on=LAW_DAY)
    assert areas["unknown"] == pytest.approx(parcel.area, rel=1e-12)
    assert all(areas[k] == 0.0 for k in CLASSES[:4])
    assert grid.region(ge=0).is_empty
    assert grid.unknown_region().symmetric_difference(parcel).area == pytest.approx(0.0, abs=1e-6)


def brute_force_areas(slope: np.ndarray, transform, geom) -> dict[str, float]:
    """Oracle: intersect every cell's square with the parcel one by one."""
    codes = slope_classes(slope, LAW_DAY)
    out = dict.fromkeys(CLASSES, 0.0)
    for r in range(slope.shape[0]):
        for c in range(slope.shape[1]):
            x0, y0 = transform @ (c, r)
            x1, y1 = transform @ (c + 1, r + 1)
            a = box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)).intersection(geom).area
            if a and codes[r, c]:
                out[CLASSES[codes[r, c] - 1]] += a
    out["unknown"] = geom.area - sum(out[k] for k in CLASSES[:4])
    return out


def test_class_areas_match_cell_by_cell_intersection_on_rough_terrain_with_a_holed_parcel(tmp_path):
    z = rough_dem(60, 60)
    z[30:33, 10:14] = -9999.0  # a nodata hole inside the parcel
    dem = write_dem(tmp_path / "rough.tif", z, 5.0, nodata=-9999.0)
    outer = shapely.Point(X0 + 150, Y0 - 150).buffer(120, quad_segs=13)
    parcel = outer.difference(box(X0 + 130, Y0 - 170, X0 + 171.3, Y0 - 133.7))  # a hole off the grid lines
    parcel = shapely.affinity.rotate(parcel, 17, origin="centroid")
    grid = slope_grid(dem, parcel)
    got = grid.class_areas_sqft(parcel, on=LAW_DAY)
    want = brute_force_areas(grid.slope_pct, grid.transform, parcel)
    for k in CLASSES:
        assert got[k] == pytest.approx(want[k], rel=1e-9, abs=1e-6), k
    assert sum(got.values()) == pytest.approx(parcel.area, rel=1e-6)
    assert got["over_40"] > 0 and got["0-15"] > 0 and got["unknown"] > 0


def test_regions_have_the_same_areas_as_the_classes_and_stay_inside_the_parcel(tmp_path):
    dem = write_dem(tmp_path / "rough.tif", rough_dem(80, 80), 5.0)
    parcel = shapely.Polygon([(X0 + 20, Y0 - 30), (X0 + 350, Y0 - 60), (X0 + 300, Y0 - 370), (X0 + 40, Y0 - 300)])
    grid = slope_grid(dem, parcel)
    areas = grid.class_areas_sqft(on=LAW_DAY)
    pieces = {
        "0-15": grid.region(le=15),
        "15-25": grid.region(gt=15, le=25),
        "25-40": grid.region(gt=25, le=40),
        "over_40": grid.region(gt=40),
        "unknown": grid.unknown_region(),
    }
    for k, geom in pieces.items():
        assert geom.area == pytest.approx(areas[k], rel=1e-9, abs=1e-6), k
        assert geom.difference(parcel).area == pytest.approx(0.0, abs=1e-6)
    assert grid.region(ge=25).area == pytest.approx(areas["25-40"] + areas["over_40"], rel=1e-9)
    assert grid.region(gt=15).area == pytest.approx(areas["15-25"] + areas["25-40"] + areas["over_40"], rel=1e-9)


def test_only_the_window_around_the_parcel_is_read(tmp_path):
    dem = write_dem(tmp_path / "big.tif", rough_dem(400, 400), 5.0)
    parcel = box(X0 + 1000, Y0 - 1015, X0 + 1015, Y0 - 1000)  # 3 x 3 cells
    grid = slope_grid(dem, parcel)
    assert grid.slope_pct.shape == (5, 5)  # the 3 x 3 cells plus one cell of padding
    assert np.isfinite(grid.slope_pct[1:-1, 1:-1]).all()
    full = horn_slope_percent(rough_dem(400, 400), 5.0, -5.0)
    assert np.allclose(grid.slope_pct[1:-1, 1:-1], full[200:203, 200:203], rtol=0, atol=1e-9)


def test_a_100_acre_parcel_on_5_ft_cells_sums_to_its_area(tmp_path):
    # speed is measured by `make bench`, not asserted here; this checks the large case's behaviour
    side = int(np.ceil(np.sqrt(100 * 43_560) / 5)) + 10  # about 420 cells a side
    dem = write_dem(tmp_path / "big.tif", rough_dem(side, side), 5.0, dtype="float32")
    parcel = shapely.Point(X0 + side * 2.5, Y0 - side * 2.5).buffer(1177.5, quad_segs=64)  # ~100 acres
    assert parcel.area / 43_560 == pytest.approx(100, rel=0.01)
    areas = slope_grid(dem, parcel).class_areas_sqft(on=LAW_DAY)
    assert sum(areas.values()) == pytest.approx(parcel.area, rel=1e-6)


# --------------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------------


def test_a_dem_without_a_coordinate_system_is_refused(tmp_path):
    dem = write_dem(tmp_path / "nocrs.tif", plane_east(10, 10, 1.0), 4.0, crs=None)
    with pytest.raises(SloatInputError, match="no coordinate system"):
        slope_grid(dem, box(X0 + 8, Y0 - 30, X0 + 30, Y0 - 8))


def test_a_dem_in_another_coordinate_system_is_refused_with_the_fix(tmp_path):
    dem = write_dem(tmp_path / "utm.tif", plane_east(10, 10, 1.0), 4.0, crs="EPSG:32618",
                    origin=(580_000.0, 4_560_000.0))
    with pytest.raises(SloatInputError, match="EPSG:2260"):
        slope_grid(dem, box(580_008, 4_559_970, 580_030, 4_559_992))


def test_a_missing_dem_file_is_refused(tmp_path):
    with pytest.raises(SloatInputError, match="not found"):
        slope_grid(tmp_path / "nope.tif", box(0, 0, 1, 1))


def test_a_line_is_not_a_parcel(tmp_path):
    dem = write_dem(tmp_path / "plane.tif", plane_east(10, 10, 1.0), 4.0)
    with pytest.raises(SloatInputError, match="polygon"):
        slope_grid(dem, shapely.LineString([(X0, Y0 - 5), (X0 + 20, Y0 - 20)]))


# --------------------------------------------------------------------------------------------
# Map overlay
# --------------------------------------------------------------------------------------------


def test_the_overlay_is_at_most_max_size_a_side_and_colours_each_class(tmp_path):
    dem = write_dem(tmp_path / "kink.tif", kinked_dem(), 10.0)
    ov = slope_class_raster(dem, (X0, Y0 - 100, X0 + 100, Y0), on=LAW_DAY)
    assert ov.classes.shape == (10, 10)
    assert ov.rgba.shape == (10, 10, 4) and ov.rgba.dtype == np.uint8
    assert tuple(ov.rgba[4, 3]) == SLOPE_CLASS_COLORS[1]
    assert tuple(ov.rgba[4, 5]) == SLOPE_CLASS_COLORS[2]
    assert tuple(ov.rgba[4, 7]) == SLOPE_CLASS_COLORS[3]
    assert ov.bounds == pytest.approx((X0, Y0 - 100, X0 + 100, Y0))
    big = write_dem(tmp_path / "big.tif", rough_dem(900, 700), 5.0, dtype="float32")
    ov = slope_class_raster(big, (X0, Y0 - 4500, X0 + 3500, Y0), max_size=300, on=LAW_DAY)
    assert max(ov.classes.shape) <= 300
    assert ov.cell_size_ft == 15.0
    assert slope_class_raster(big, (X0 - 900, Y0 - 100, X0 - 800, Y0), on=LAW_DAY) is None


# --------------------------------------------------------------------------------------------
# Agreement with gdaldem (the reference implementation)
# --------------------------------------------------------------------------------------------


def gdaldem_slope(src: Path, dst: Path) -> np.ndarray:
    if shutil.which("gdaldem") is None:
        pytest.fail("gdaldem is missing: run `make test`, which installs Debian gdal-bin (the slope reference).")
    subprocess.run(["gdaldem", "slope", "-p", "-q", str(src), str(dst)], check=True)
    with rasterio.open(dst) as ds:
        out = ds.read(1, out_dtype=np.float64)
        nodata = ds.nodata
    return np.where(out == nodata, np.nan, out)


def assert_matches_gdaldem(dem: Path, tmp_path: Path) -> int:
    ref = gdaldem_slope(dem, tmp_path / (dem.stem + "_gdaldem.tif"))
    with rasterio.open(dem) as ds:
        z = ds.read(1, out_dtype=np.float64)
        ours = horn_slope_percent(z, ds.transform.a, ds.transform.e, nodata=ds.nodata)
    assert np.array_equal(np.isnan(ours), np.isnan(ref)), "cells without a slope differ from gdaldem"
    both = np.isfinite(ours)
    assert np.max(np.abs(ours[both] - ref[both])) < 0.001
    return int(both.sum())


def test_slopes_agree_with_gdaldem_on_rough_synthetic_terrain_with_nodata(tmp_path):
    z = rough_dem(150, 120, seed=11) * 3.0
    z[40:44, 60:63] = -9999.0
    dem = write_dem(tmp_path / "rough.tif", z, 5.0, nodata=-9999.0, dtype="float32")
    n = assert_matches_gdaldem(dem, tmp_path)
    assert n > 148 * 118 - 5 * 6 - 10


def test_slopes_agree_with_gdaldem_on_the_sample_dem(tmp_path):
    assert SAMPLE_DEM.exists(), "data/sample/dem.tif is missing (the shipped sample elevation model)"
    with rasterio.open(SAMPLE_DEM) as src:
        h, w = min(400, src.height), min(400, src.width)
        win = Window((src.width - w) // 2, (src.height - h) // 2, w, h)
        profile = src.profile.copy()
        profile.update(height=h, width=w, transform=src.window_transform(win), driver="GTiff")
        for key in ("blockxsize", "blockysize", "tiled", "compress", "interleave"):
            profile.pop(key, None)
        cut = tmp_path / "sample_cut.tif"
        with rasterio.open(cut, "w", **profile) as dst:
            dst.write(src.read(1, window=win), 1)
    n = assert_matches_gdaldem(cut, tmp_path)
    assert n > 0


def test_a_very_large_overlay_area_is_read_decimated_and_still_fits(tmp_path, monkeypatch):
    import sloat_core.gis.slope_picture as picture

    monkeypatch.setattr(picture, "_OVERLAY_FULL_RES_MAX_CELLS", 10_000)  # pretend 200 x 200 is huge
    dem = write_dem(tmp_path / "p25.tif", plane_east(200, 200, 1.000004), 4.0)
    ov = slope_class_raster(dem, (X0, Y0 - 800, X0 + 800, Y0), max_size=50, on=LAW_DAY)
    assert max(ov.classes.shape) <= 50
    inner = ov.classes[1:-1, 1:-1]
    assert (inner == 3).all()  # a uniform 25.0001% plane stays in the 25-40 class when decimated
    assert ov.bounds[0] == pytest.approx(X0) and ov.bounds[3] == pytest.approx(Y0)


# --- The DEM stays open between analyses, and a changed file is read again ---------------------------


def test_a_dem_replaced_on_disk_is_read_again(tmp_path):
    path = tmp_path / "dem.tif"
    parcel = box(X0 + 8, Y0 - 40, X0 + 40, Y0 - 8)
    write_dem(path, plane_east(12, 12, 1.0), 4.0)  # 25 %
    assert slope_grid(path, parcel).class_areas_sqft(on=LAW_DAY)["15-25"] == pytest.approx(parcel.area)
    replacement = tmp_path / "new.tif"
    write_dem(replacement, plane_east(12, 12, 2.0), 4.0)  # 50 %
    replacement.replace(path)  # as a deploy would: a new file under the same name
    assert slope_grid(path, parcel).class_areas_sqft(on=LAW_DAY)["over_40"] == pytest.approx(parcel.area)


def test_a_dem_deleted_while_open_says_it_is_not_found(tmp_path):
    path = write_dem(tmp_path / "gone.tif", plane_east(12, 12, 1.0), 4.0)
    parcel = box(X0 + 8, Y0 - 40, X0 + 40, Y0 - 8)
    slope_grid(path, parcel)
    path.unlink()
    with pytest.raises(SloatInputError, match="not found"):
        slope_grid(path, parcel)


def test_a_dem_without_a_coordinate_system_is_refused_every_time(tmp_path):
    # The check runs when the file is opened; a refused file is not kept open, so the refusal repeats.
    path = write_dem(tmp_path / "nocrs.tif", plane_east(12, 12, 1.0), 4.0, crs=None)
    parcel = box(X0 + 8, Y0 - 40, X0 + 40, Y0 - 8)
    for _ in range(2):
        with pytest.raises(SloatInputError, match="coordinate system"):
            slope_grid(path, parcel)
