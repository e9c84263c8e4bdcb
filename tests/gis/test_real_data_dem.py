"""DEM elevation units on a real published DEM (SRTM, metres), warped to EPSG:2260 in a temp dir.

Claims: a DEM whose elevations are metres is never read as feet. Its unit comes from its vertical CRS,
else from ``z_units`` on the manifest's dem entry; with neither it is refused with one sentence saying
how to declare it. Metres become US survey feet at 1 m = 3937/1200 US ft.
"""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import rasterio
import shapely

from real_data import SRTM, cli_json, run_cli, warp_to_2260, write_manifest
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.terrain import Z_UNITS_TO_US_FT, prepare_dem, slope_grid

M_TO_USFT = 3937.0 / 1200.0


@pytest.fixture(scope="module")
def metre_dem(tmp_path_factory):
    return warp_to_2260(SRTM, tmp_path_factory.mktemp("srtm") / "dem_2260_metres.tif")


@pytest.fixture(scope="module")
def usft_dem(tmp_path_factory):
    """The same grid with elevations multiplied into US survey feet by hand (the reference)."""
    return warp_to_2260(SRTM, tmp_path_factory.mktemp("srtm_ft") / "dem_2260_usft.tif", scale=M_TO_USFT)


@pytest.fixture(scope="module")
def parcel(metre_dem):
    with rasterio.open(metre_dem) as src:
        b = src.bounds
    cx, cy = (b.left + b.right) / 2, (b.bottom + b.top) / 2
    return shapely.box(cx - 6000, cy - 6000, cx + 6000, cy + 6000)


def test_the_metre_to_us_survey_foot_factor_is_the_survey_foot_definition():
    assert Z_UNITS_TO_US_FT["metre"] == 3937 / 1200
    assert Z_UNITS_TO_US_FT["us_survey_foot"] == 1.0
    # 1 international foot = 0.3048 m = 0.999998 US survey ft (2 ppm)
    assert Z_UNITS_TO_US_FT["foot"] == pytest.approx(0.999998, abs=1e-6)


def test_dem_without_a_unit_is_refused_with_one_sentence_saying_how_to_declare_it(metre_dem, tmp_path):
    manifest = write_manifest(tmp_path, {}, dem={"path": str(metre_dem)})
    with pytest.raises(SloatInputError, match=r"z_units: metre"):
        load_manifest(manifest)
    gj = tmp_path / "lot.geojson"
    gpd.GeoDataFrame(geometry=[shapely.box(0, 0, 100, 100)], crs="EPSG:2260").to_file(gj)
    done = run_cli("analyze", str(gj), "--layers", str(manifest), "--json")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not say whether its elevations are in metres or feet" in lines[0]
    assert "z_units" in lines[0] and done.stdout == ""


def test_z_units_metre_gives_the_slopes_of_the_dem_converted_to_us_feet(metre_dem, usft_dem, parcel, tmp_path):
    ls = load_manifest(write_manifest(tmp_path, {}, dem={"path": str(metre_dem), "z_units": "metre"}))
    assert ls.dem.z_units == "metre" and ls.dem.z_units_from == "z_units in the manifest"
    got = slope_grid(ls.dem_path, parcel)
    ref = slope_grid(usft_dem, parcel)
    ok = np.isfinite(ref.slope_pct)
    assert ok.sum() > 1000 and np.array_equal(ok, np.isfinite(got.slope_pct))
    # float32 storage of the hand-converted reference: relative error ~1e-7 of elevations ~1,000 ft
    assert np.nanmax(np.abs(got.slope_pct - ref.slope_pct)) < 1e-3
    # the same grid read as feet (the old silent error) has slopes 3937/1200 times too small
    wrong = slope_grid(metre_dem, parcel)
    ratio = np.nanmedian(got.slope_pct[ok & (ref.slope_pct > 1)] / wrong.slope_pct[ok & (ref.slope_pct > 1)])
    assert ratio == pytest.approx(M_TO_USFT, rel=1e-4)
    lo, hi = ls.dem.elevation_range_us_ft
    with rasterio.open(metre_dem) as src:
        z = src.read(1, masked=True)
    assert lo == pytest.approx(float(z.min()) * M_TO_USFT, abs=1) and hi == pytest.approx(float(z.max()) * M_TO_USFT, abs=1)


def test_cli_analyze_with_z_units_metre_matches_the_us_feet_dem(metre_dem, usft_dem, parcel, tmp_path):
    gj = tmp_path / "lot.geojson"
    gpd.GeoDataFrame(geometry=[parcel], crs="EPSG:2260").to_crs("EPSG:4326").to_file(gj)
    (tmp_path / "m").mkdir()
    (tmp_path / "f").mkdir()
    m = write_manifest(tmp_path / "m", {}, dem={"path": str(metre_dem), "z_units": "metre"})
    f = write_manifest(tmp_path / "f", {}, dem={"path": str(usft_dem), "z_units": "us_survey_foot"})
    a, b = cli_json("analyze", str(gj), "--layers", str(m), "--json"), cli_json("analyze", str(gj), "--layers", str(f), "--json")
    rows_a = {d["constraint"]: d["area_sqft"] for d in a["deductions"] if d["constraint"].startswith("slope")}
    rows_b = {d["constraint"]: d["area_sqft"] for d in b["deductions"] if d["constraint"].startswith("slope")}
    assert rows_a.keys() == rows_b.keys() and rows_a
    cell = 9.0e4  # one DEM cell (~300 ft) may flip class at a threshold from float32 rounding
    for k in rows_a:
        assert rows_a[k] == pytest.approx(rows_b[k], abs=cell), k


def test_vertical_crs_in_metres_is_read_from_the_file(tmp_path, parcel):
    dem = warp_to_2260(SRTM, tmp_path / "compound.tif", crs="EPSG:2260+5703")
    prepared = prepare_dem(dem)
    assert prepared.z_units == "metre" and "vertical" in prepared.z_units_from
    with pytest.raises(SloatInputError, match="says by its vertical coordinate system"):
        prepare_dem(dem, "us_survey_foot")
    # opened directly (not through a manifest) it is refused, never read as feet
    with pytest.raises(SloatInputError, match="not US survey feet"):
        slope_grid(dem, parcel)


def test_implausible_elevations_for_the_declared_unit_are_refused(tmp_path):
    centimetres = warp_to_2260(SRTM, tmp_path / "cm.tif", scale=100.0)
    with pytest.raises(SloatInputError, match="which no land has"):
        prepare_dem(centimetres, "metre")


def test_unknown_z_units_word_is_refused(metre_dem):
    with pytest.raises(SloatInputError, match="not one of metre, foot or us_survey_foot"):
        prepare_dem(metre_dem, "cubits")


def test_equivalent_crs_esri_102715_is_used_without_resampling(tmp_path, usft_dem, parcel):
    esri = tmp_path / "esri.tif"
    with rasterio.open(usft_dem) as src:
        profile, z = src.profile, src.read(1)
    profile["crs"] = rasterio.crs.CRS.from_user_input("ESRI:102715")
    with rasterio.open(esri, "w", **profile) as dst:
        dst.write(z, 1)
    prepared = prepare_dem(esri, "us_survey_foot")
    got = slope_grid(prepared.path, parcel)
    ref = slope_grid(usft_dem, parcel)
    assert got.transform == ref.transform and got.slope_pct.shape == ref.slope_pct.shape
    assert np.array_equal(np.isfinite(got.slope_pct), np.isfinite(ref.slope_pct))
    assert np.nanmax(np.abs(got.slope_pct - ref.slope_pct)) == 0.0
