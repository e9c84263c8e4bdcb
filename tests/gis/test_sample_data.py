"""Tests for the embedded illustrative sample data set (data/sample, tools/make_sample_data.py).

They read the committed files the way official files would be read (pyogrio/geopandas,
rasterio), check the real schemas, the geometry promises the rest of the project relies on
(tiling parcels, split-zoned lots, slope classes, outcrops around 50 sq ft, shaded X beside AE),
and regenerate the set into a temporary folder to prove the generator gives the committed files back
(within stated floating-point tolerances, so on any CPU).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import rasterio
import shapely
import yaml
from rasterio.features import geometry_mask

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
GENERATOR = REPO / "tools" / "make_sample_data.py"
WORK_CRS = "EPSG:2260"
SQFT_PER_ACRE = 43_560.0
DISTRICTS = {"OSR", "R-80", "R-40", "R-15", "R-10", "MU-1", "MU-2", "VC-1", "VC-2", "O", "IP"}
ROLES = {
    "floodplain", "wetlands", "water_bodies", "watercourses", "rock_outcrops", "aquifer_cea",
    "recreational_river", "rcda", "historic", "habitats", "viewsheds", "recreation", "zoning",
    "parcels", "village_boundary", "roads",
    "parkland", "state_county_roads", "public_institutions", "ag_district_farms", "nysdec_wetlands",
}
VECTOR_FILES = [
    "nfhl.gpkg", "nwi_wetlands.geojson", "local_wetlands.geojson", "streams.geojson",
    "ponds.geojson", "outcrops.geojson", "ramapo_aquifer.geojson", "recreational_river.geojson",
    "rcda.geojson", "historic.geojson", "habitats.geojson", "viewsheds.geojson",
    "recreation.geojson", "zoning.gpkg", "parcels.gpkg", "village_boundary.geojson",
    "parkland.geojson", "state_county_roads.geojson", "public_institutions.geojson", "ag_district_farms.geojson",
    "nysdec_wetlands.geojson",
    "demo_parcels/riverside_2ac.geojson", "demo_parcels/east_ridge_12ac.geojson",
    "demo_parcels/village_centre_lot.kml", "demo_parcels/west_slope_5ac.zip",
    "demo_parcels/outcrop_lot.gpkg", "demo_parcels/riverside_2ac.dxf",
]


def read(name: str, folder: Path = SAMPLE, **kw) -> gpd.GeoDataFrame:
    """Read a sample vector file (zip files through GDAL's zip:// path)."""
    path = folder / name
    if path.suffix == ".zip":
        return gpd.read_file(f"zip://{path}", **kw)
    return gpd.read_file(path, **kw)


def work(name: str, **kw) -> gpd.GeoDataFrame:
    """Read a sample vector file and reproject it to EPSG:2260."""
    return read(name, **kw).to_crs(WORK_CRS)


@pytest.fixture(scope="module")
def village():
    return work("village_boundary.geojson").geometry.union_all()


@pytest.fixture(scope="module")
def parcels():
    return read("parcels.gpkg", layer="parcels")


@pytest.fixture(scope="module")
def districts():
    z = read("zoning.gpkg", layer="zoning")
    return {code: g.geometry.union_all() for code, g in z.groupby("ZONE")}


@pytest.fixture(scope="module")
def dem():
    with rasterio.open(SAMPLE / "dem.tif") as src:
        return {"z": src.read(1), "transform": src.transform, "crs": src.crs, "bounds": src.bounds,
                "nodata": src.nodata, "res": src.res, "dtype": src.dtypes[0],
                "profile": src.profile, "compression": src.compression}


def slope_pct(z: np.ndarray, cell_ft: float) -> np.ndarray:
    gy, gx = np.gradient(z.astype(float), cell_ft)
    return 100.0 * np.hypot(gx, gy)


# --------------------------------------------------------------------------- manifest and files
def test_manifest_has_the_agreed_format_and_every_path_exists():
    m = yaml.safe_load((SAMPLE / "layers.yaml").read_text(encoding="utf-8"))
    assert m["name"] == "Sloatsburg sample (illustrative, not official)"
    assert m["version"] == "2026-11-29" and isinstance(m["version"], str)
    assert m["illustrative"] is True
    assert m["notice"].startswith("Illustrative sample, not official data.")
    assert set(m["layers"]) == ROLES
    assert m["layers"]["floodplain"] == {"path": "nfhl.gpkg", "layer": "S_FLD_HAZ_AR", "schema": "fema_nfhl",
                                         "coverage": "village_boundary"}
    assert m["layers"]["wetlands"] == [{"path": "nwi_wetlands.geojson", "schema": "nwi", "coverage": "village_boundary"},
                                       {"path": "local_wetlands.geojson", "coverage": "village_boundary"}]
    assert m["layers"]["watercourses"]["width_field"] == "WIDTH_FT"
    assert m["layers"]["parcels"] == {"path": "parcels.gpkg", "layer": "parcels", "id_field": "SBL",
                                      "district_field": "ZONE", "address_field": "ADDRESS", "owner_field": "OWNER"}
    assert m["layers"]["zoning"]["district_field"] == "ZONE"
    assert m["dem"] == {"path": "dem.tif", "z_units": "us_survey_foot"}
    entries = [e for v in m["layers"].values() for e in (v if isinstance(v, list) else [v])]
    for e in entries + [m["dem"]]:
        assert (SAMPLE / e["path"]).is_file(), e["path"]


def test_readme_says_illustrative_and_names_the_imitated_sources():
    text = (SAMPLE / "README.md").read_text(encoding="utf-8")
    assert "ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA" in text
    for source in ["FEMA", "NFHL", "NWI", "NYSDEC", "Rockland County", "3DEP", "make_sample_data.py"]:
        assert source in text


def test_sample_folder_stays_small():
    total = sum(p.stat().st_size for p in SAMPLE.rglob("*") if p.is_file())
    assert total < 20_000_000
    assert (SAMPLE / "dem.tif").stat().st_size < 15_000_000


@pytest.mark.parametrize("name", [n for n in VECTOR_FILES if n.endswith(".geojson")])
def test_geojson_is_rfc7946_wgs84(name):
    obj = json.loads((SAMPLE / name).read_text(encoding="utf-8"))
    assert "crs" not in obj  # RFC 7946: WGS84 only, no crs member
    g = read(name)
    assert g.crs.to_epsg() == 4326
    minx, miny, maxx, maxy = g.total_bounds
    assert -74.25 < minx < maxx < -74.13 and 41.12 < miny < maxy < 41.20


# --------------------------------------------------------------------------- schemas
def test_nfhl_schema_and_values():
    f = read("nfhl.gpkg", layer="S_FLD_HAZ_AR")
    for col in ["DFIRM_ID", "VERSION_ID", "FLD_AR_ID", "STUDY_TYP", "FLD_ZONE", "ZONE_SUBTY",
                "SFHA_TF", "STATIC_BFE"]:
        assert col in f.columns, col
    assert set(f["DFIRM_ID"]) == {"36087C"}
    assert f["FLD_AR_ID"].is_unique
    assert set(f["SFHA_TF"]) == {"T", "F"}
    assert {"AE", "A", "X"} <= set(f["FLD_ZONE"])
    assert (f.loc[f.FLD_ZONE.isin(["AE", "A"]), "SFHA_TF"] == "T").all()
    assert (f.loc[f.FLD_ZONE == "X", "SFHA_TF"] == "F").all()
    assert set(f.loc[f.FLD_ZONE == "X", "ZONE_SUBTY"]) == {
        "0.2 PCT ANNUAL CHANCE FLOOD HAZARD", "AREA OF MINIMAL FLOOD HAZARD"}
    ae_bfe = f.loc[f.FLD_ZONE == "AE", "STATIC_BFE"]
    assert (ae_bfe > 300).any() and (ae_bfe == -9999).any()
    assert (f.loc[f.FLD_ZONE != "AE", "STATIC_BFE"] == -9999).all()
    assert f.geometry.is_valid.all()


def test_flood_zones_do_not_overlap():
    f = work("nfhl.gpkg", layer="S_FLD_HAZ_AR")
    g = f.geometry.values
    i, j = shapely.STRtree(g).query(g, predicate="intersects")
    keep = i < j
    assert shapely.area(shapely.intersection(g[i[keep]], g[j[keep]])).sum() < 1.0


def test_shaded_x_zones_sit_beside_ae_zones():
    f = work("nfhl.gpkg", layer="S_FLD_HAZ_AR")
    ae = f[f.FLD_ZONE == "AE"].geometry.union_all()
    shaded = f[(f.FLD_ZONE == "X") & (f.SFHA_TF == "F")
               & (f.ZONE_SUBTY == "0.2 PCT ANNUAL CHANCE FLOOD HAZARD")]
    assert len(shaded) >= 1
    assert shaded.distance(ae).min() < 1.0
    assert shaded.intersection(ae).area.sum() < 1.0  # beside, not on top


def test_nwi_schema_and_types():
    w = read("nwi_wetlands.geojson")
    assert {"ATTRIBUTE", "WETLAND_TYPE", "ACRES"} <= set(w.columns)
    types = set(w["WETLAND_TYPE"])
    assert {"Freshwater Pond", "Lake", "Riverine", "Freshwater Emergent Wetland",
            "Freshwater Forested/Shrub Wetland"} <= types
    assert all(re.fullmatch(r"[LPR][0-9A-Z]+[a-z]?", a) for a in w["ATTRIBUTE"])
    ww = w.to_crs(WORK_CRS)
    assert np.allclose(ww.area / SQFT_PER_ACRE, w["ACRES"], atol=1e-3)


def test_local_wetlands_partly_overlap_nwi():
    loc = work("local_wetlands.geojson")
    nwi = work("nwi_wetlands.geojson").geometry.union_all()
    assert {"WETLAND_ID", "SOURCE", "CLASS"} <= set(loc.columns)
    assert loc["WETLAND_ID"].is_unique
    assert (loc["SOURCE"] == "Delineated 2025 (illustrative)").all()
    shared = loc.intersection(nwi).area
    assert (shared > 0).any()  # some overlap
    assert ((shared / loc.area) < 0.99).any()  # ...and some ground NWI does not map
    assert (shared == 0).any()  # a wetland NWI missed


def test_streams_ponds_and_outcrop_schemas():
    s = read("streams.geojson")
    assert {"NAME", "WIDTH_FT"} <= set(s.columns)
    assert set(s.geom_type) == {"LineString"}
    assert s["WIDTH_FT"].isna().any() and (s["WIDTH_FT"] > 0).any()
    assert {"Stony Brook", "Horse Stable Brook"} <= set(s["NAME"])
    p = read("ponds.geojson")
    assert {"NAME", "TYPE"} <= set(p.columns)
    assert {"Ramapo River", "Mill Pond"} <= set(p["NAME"])
    assert {"River", "Lake", "Pond"} <= set(p["TYPE"])
    o = read("outcrops.geojson")
    assert "AREA_SQFT" in o.columns and set(o.geom_type) == {"Polygon"}


def test_special_area_layers_have_their_fields():
    expected = {
        "ramapo_aquifer.geojson": {"NAME"}, "recreational_river.geojson": {"NAME"},
        "rcda.geojson": {"NAME"}, "historic.geojson": {"NAME", "LISTING"},
        "habitats.geojson": {"NAME", "STATUS"}, "viewsheds.geojson": {"NAME"},
        "recreation.geojson": {"NAME", "TYPE"}, "village_boundary.geojson": {"NAME"},
    }
    for name, cols in expected.items():
        g = read(name)
        assert cols <= set(g.columns), name
        assert len(g) >= 1 and g.geometry.is_valid.all(), name
    assert set(read("historic.geojson")["LISTING"]) <= {"National Register", "State Register",
                                                        "Eligible (to confirm)"}
    assert read("village_boundary.geojson")["NAME"].tolist() == ["Village of Sloatsburg"]


def test_village_is_about_two_and_a_half_square_miles(village):
    assert 2.3 < village.area / 5280.0 ** 2 < 2.7
    c = gpd.GeoSeries([village.centroid], crs=WORK_CRS).to_crs(4326).iloc[0]
    assert abs(c.y - 41.162) < 0.01 and abs(c.x + 74.188) < 0.01


def test_zoning_uses_sloatsburg_codes_and_tiles(village):
    z = read("zoning.gpkg", layer="zoning")
    assert z.crs.to_epsg() == 2260
    assert set(z["ZONE"]) == DISTRICTS
    assert abs(z.area.sum() - village.area) < 10.0
    g = z.geometry.values
    i, j = shapely.STRtree(g).query(g, predicate="intersects")
    keep = i < j
    assert shapely.area(shapely.intersection(g[i[keep]], g[j[keep]])).sum() < 1.0


# --------------------------------------------------------------------------- parcels
def test_parcel_schema_and_unique_sbl(parcels):
    assert parcels.crs.to_epsg() == 2260
    assert {"SBL", "SWIS", "ADDRESS", "ZONE", "ACRES"} <= set(parcels.columns)
    assert parcels["SBL"].is_unique
    assert parcels["SBL"].str.fullmatch(r"\d{3}\.\d{2}-\d+-\d+").all()
    assert parcels["SWIS"].str.fullmatch(r"\d{6}").all()
    assert set(parcels["ZONE"]) <= DISTRICTS
    assert np.allclose(parcels.area / SQFT_PER_ACRE, parcels["ACRES"], atol=6e-4)
    assert parcels["ADDRESS"].str.fullmatch(r"(\d+ )?[A-Z][A-Za-z ]+").all()


def test_enough_parcels_and_some_big_tracts(parcels):
    assert 1000 <= len(parcels) <= 1500
    assert ((parcels["ACRES"] >= 10) & (parcels["ACRES"] <= 100)).sum() >= 3
    assert (parcels["ACRES"] < 0.5).sum() >= 200


def test_parcels_are_valid_polygons_that_do_not_overlap(parcels, village):
    g = parcels.geometry.values
    assert shapely.is_valid(g).all()
    assert set(shapely.get_type_id(g)) == {3}  # Polygon
    i, j = shapely.STRtree(g).query(g, predicate="intersects")
    keep = i < j
    overlap = shapely.area(shapely.intersection(g[i[keep]], g[j[keep]]))
    assert overlap.max() < 0.1 and overlap.sum() < 1.0
    assert shapely.union_all(g).difference(village.buffer(0.05)).area < 1.0  # 4326 round trip
    assert 0.8 < shapely.area(g).sum() / village.area < 0.98  # streets, Thruway and river excluded


def test_parcel_zone_is_the_majority_district_and_some_straddle(parcels, districts):
    codes = list(districts)
    straddle = 0
    for geom, zone in zip(parcels.geometry, parcels["ZONE"]):
        areas = np.array([geom.intersection(districts[c]).area for c in codes])
        assert codes[int(areas.argmax())] == zone
        second = np.sort(areas)[-2]
        if second > 100.0 and second > 0.01 * geom.area:
            straddle += 1
    assert straddle >= 3


# --------------------------------------------------------------------------- DEM
def test_dem_format(dem):
    assert dem["crs"].to_epsg() == 2260
    assert dem["res"] == (5.0, 5.0)
    assert dem["dtype"] == "float32"
    assert dem["nodata"] == -9999.0
    assert dem["profile"]["tiled"] is True
    assert dem["compression"].name.lower() == "deflate"
    q = dem["z"].astype(np.float64) * 100
    assert np.abs(q - np.round(q)).max() < 0.02  # quantised to 0.01 ft


def test_dem_covers_the_village_with_valley_and_ridges(dem, village):
    b = dem["bounds"]
    minx, miny, maxx, maxy = village.bounds
    assert b.left < minx and b.bottom < miny and b.right > maxx and b.top > maxy
    inside = geometry_mask([village], dem["z"].shape, dem["transform"], invert=True)
    z = dem["z"][inside]
    assert (z != dem["nodata"]).all()
    assert 280 < z.min() < 400
    assert 950 < z.max() < 1200


def test_all_four_slope_classes_are_present_in_the_village(dem, village):
    inside = geometry_mask([village], dem["z"].shape, dem["transform"], invert=True)
    s = slope_pct(dem["z"], 5.0)[inside]
    shares = [(s <= 15).mean(), ((s > 15) & (s <= 25)).mean(), ((s > 25) & (s <= 40)).mean(),
              (s > 40).mean()]
    assert all(x > 0.05 for x in shares), shares


# --------------------------------------------------------------------------- outcrops
def test_outcrops_under_and_over_50_sqft_including_near_the_line():
    a = work("outcrops.geojson").area
    assert (a < 50).sum() >= 3 and (a >= 50).sum() >= 3
    assert ((a > 49.0) & (a < 50.0)).any()
    assert ((a > 50.0) & (a < 51.0)).any()
    assert (a > 1000).any() and (a < 25).any()


# --------------------------------------------------------------------------- demo parcels
def test_riverside_demo_parcel_crosses_wetland_buffer_and_floodplain():
    p = work("demo_parcels/riverside_2ac.geojson").geometry.iloc[0]
    assert abs(p.area / SQFT_PER_ACRE - 2.0) < 0.05
    wet = work("nwi_wetlands.geojson")
    wet = wet[~wet.WETLAND_TYPE.isin(["Riverine", "Lake"])].geometry.union_all()
    assert p.intersection(wet).area > 1000
    assert p.intersection(wet.buffer(100).difference(wet)).area > 1000
    f = work("nfhl.gpkg", layer="S_FLD_HAZ_AR")
    ae = f[f.FLD_ZONE == "AE"].geometry.union_all()
    assert p.intersection(ae).area > 1000
    assert p.difference(ae).area > 1000


def test_ridge_demo_parcel_is_steep(dem):
    p = work("demo_parcels/east_ridge_12ac.geojson").geometry.iloc[0]
    assert abs(p.area / SQFT_PER_ACRE - 12.0) < 0.2
    inside = geometry_mask([p], dem["z"].shape, dem["transform"], invert=True)
    s = slope_pct(dem["z"], 5.0)[inside]
    assert (s > 25).mean() > 0.5 and (s > 40).mean() > 0.05


def test_demo_files_in_every_format_read_back():
    kml = read("demo_parcels/village_centre_lot.kml")
    assert kml.crs.to_epsg() == 4326 and kml.geom_type.iloc[0] == "Polygon"
    with zipfile.ZipFile(SAMPLE / "demo_parcels" / "west_slope_5ac.zip") as zf:
        names = set(zf.namelist())
    assert {"west_slope_5ac.shp", "west_slope_5ac.shx", "west_slope_5ac.dbf", "west_slope_5ac.prj"} <= names
    shp = read("demo_parcels/west_slope_5ac.zip")
    assert shp.crs.to_epsg() == 2260 and abs(shp.area.iloc[0] / SQFT_PER_ACRE - 5.0) < 0.05
    gp = read("demo_parcels/outcrop_lot.gpkg", layer="parcel")
    oc = work("outcrops.geojson")
    inside = oc[oc.within(gp.geometry.iloc[0])].area
    assert ((inside > 49) & (inside < 50)).any() and ((inside > 50) & (inside < 51)).any()


def test_dxf_is_a_closed_polyline_in_state_plane_feet():
    text = (SAMPLE / "demo_parcels" / "riverside_2ac.dxf").read_text(encoding="ascii")
    assert "LWPOLYLINE" in text
    d = read("demo_parcels/riverside_2ac.dxf")
    assert d.crs is None  # DXF carries no CRS
    line = d.geometry.iloc[0]
    assert line.is_ring
    poly = shapely.Polygon(line.coords)
    ref = work("demo_parcels/riverside_2ac.geojson").geometry.iloc[0]
    assert poly.symmetric_difference(ref).area < 5.0


def test_demo_project_json():
    pj = json.loads((SAMPLE / "demo_parcels" / "demo_project.json").read_text(encoding="utf-8"))
    for key in ["application_type", "new_structure", "one_family_dwelling", "existing_use",
                "disturbance_footprint", "trees_removed", "activities"]:
        assert key in pj, key
    foot = shapely.geometry.shape(pj["disturbance_footprint"])
    assert foot.geom_type == "Polygon" and -75 < foot.centroid.x < -74 and 41 < foot.centroid.y < 42
    footw = gpd.GeoSeries([foot], crs=4326).to_crs(WORK_CRS).iloc[0]
    parcel = work("demo_parcels/riverside_2ac.geojson").geometry.iloc[0]
    assert footw.difference(parcel).area < 1.0 and footw.area > 5000


# --------------------------------------------------------------------------- determinism
# Regeneration must give the committed sample back, on any machine. The generator is deterministic
# (fixed seeds, fixed timestamps, stable sorts), but its numbers pass through libm (sin, exp), numpy's
# FFT and GEOS overlays whose last bits differ between CPUs and library builds: another machine
# produced 20 parcel outlines that differed in the last digits. So floats are compared with stated
# tolerances, far above floating-point noise (about 1e-9 ft at these coordinates) and far below any
# real change of the generator (a new seed, street or split rule moves shapes by feet):
GEOMETRY_TOL_FT = 0.01  # each feature's outline within 0.01 ft (Hausdorff distance, EPSG:2260)
DEM_TOL_FT = 0.01  # one quantisation step of the DEM (heights are rounded to 0.01 ft)
#: attributes the generator rounds: the tolerance is one rounding step
ATTRIBUTE_TOL = {"ACRES": 0.001, "AREA_SQFT": 0.01}
DEFAULT_ATTRIBUTE_TOL = 1e-6  # other float attributes (BFE, widths) are set, not measured


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    """The sample made again, with the BLAS on its plainest kernel (``OPENBLAS_CORETYPE=Prescott``; ignored
    where the BLAS is not OpenBLAS): the committed files were made on the kernel the machine chose, so a
    generator that let a matrix product decide a lot line (OpenBLAS's kernels round dot products
    differently) fails here on every machine, not only on a CPU unlike the one that made them.
    The DEM is deflated at level 1 (``--dem-zlevel 1``, not the committed 9: about 3 s less): only its heights,
    transform and CRS are compared, and the level changes none of them."""
    out = tmp_path_factory.mktemp("sample_regen")
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(out), "--dem-zlevel", "1"], check=True,
                   capture_output=True, timeout=300, env={**os.environ, "OPENBLAS_CORETYPE": "Prescott"})
    return out


def in_feet(g: gpd.GeoDataFrame) -> gpd.GeoSeries:
    """Geometry in EPSG:2260 feet (the DXF carries no CRS; its coordinates are already feet)."""
    return g.geometry if g.crs is None else g.geometry.to_crs(WORK_CRS)


def test_regeneration_gives_the_same_dem_within_one_quantisation_step(regenerated, dem):
    with rasterio.open(regenerated / "dem.tif") as src:
        z = src.read(1)
        assert src.transform == dem["transform"] and src.crs == dem["crs"]
    assert z.shape == dem["z"].shape
    assert ((z == dem["nodata"]) == (dem["z"] == dem["nodata"])).all()
    diff = np.abs(z.astype(np.float64) - dem["z"].astype(np.float64))
    assert diff.max() <= DEM_TOL_FT + 1e-4, diff.max()  # 1e-4: float32 storage of 0.01 steps


@pytest.mark.parametrize("name", VECTOR_FILES)
def test_regeneration_gives_the_same_vector_features_within_tolerance(regenerated, name):
    a, b = read(name), read(name, folder=regenerated)
    assert len(a) == len(b)
    assert list(a.columns) == list(b.columns) and a.crs == b.crs
    ga, gb = in_feet(a), in_feet(b)
    assert (ga.geom_type.values == gb.geom_type.values).all()
    far = shapely.hausdorff_distance(ga.values, gb.values)
    assert far.max() <= GEOMETRY_TOL_FT, f"{name}: feature {int(far.argmax())} moved {far.max():.4g} ft"
    for col in (c for c in a.columns if c != "geometry"):
        if pd.api.types.is_float_dtype(a[col]):
            tol = ATTRIBUTE_TOL.get(col, DEFAULT_ATTRIBUTE_TOL)
            assert np.allclose(a[col], b[col], rtol=0, atol=tol + 1e-9, equal_nan=True), col
        else:
            assert a[col].equals(b[col]), col


@pytest.mark.parametrize("name", ["layers.yaml", "README.md"])
def test_regeneration_gives_byte_identical_text_files(regenerated, name):
    # These two hold no computed float, so they must match byte for byte on every machine.
    assert (SAMPLE / name).read_bytes() == (regenerated / name).read_bytes()
