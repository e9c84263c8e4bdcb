"""Files as publishers and their clients produce them, read through the manifest (tests/fixtures/official/published,
written by tools/make_official_fixtures.py). Claims:

- A GeoJSON without ``crs`` is CRS84 (RFC 7946): projected numbers in it are refused in one sentence that names
  the file and says to declare ``crs:`` on the entry; with ``crs:`` the same file loads where it belongs.
- A layer most of whose features would be dropped on read is refused, naming how many and why.
- Table-qualified field names (``Wetlands.WETLAND_TYPE``) are the NWI fields; a schema's "needs field" message
  lists the fields the file has.
- Coverage as published: a file of polygons, ``village_boundary``, ``everywhere``; lines are refused. Without it,
  the coverage is assumed (a warning, and each result row says so); hydrography without it is unknown.
- The screen CSV carries the net range (floor and ceiling) and each role's coverage state.
"""

from __future__ import annotations

import csv
import re
import shutil

import geopandas as gpd
import pytest
import shapely
import yaml

from real_data import ROOT, cli_json, run_cli
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest

PUBLISHED = ROOT / "tests" / "fixtures" / "official" / "published"
SAMPLE = ROOT / "data" / "sample"


def manifest(folder, layers: dict, *, village: bool = True) -> "Path":  # noqa: F821
    if village:
        layers = {"village_boundary": {"path": str(SAMPLE / "village_boundary.geojson")}, **layers}
    path = folder / "layers.yaml"
    path.write_text(yaml.safe_dump({"name": "t", "version": "t", "layers": layers}, sort_keys=False), encoding="utf-8")
    return path


def copy(name, folder):
    shutil.copy(PUBLISHED / name, folder / name)
    return name


def refusal(folder, name: str, role: str, **entry) -> str:
    """The refusal (its words) of the published file ``name`` copied into ``folder`` and loaded as the only layer
    of ``role`` (with the village boundary), the entry's other keys ``entry``."""
    f = copy(name, folder)
    with pytest.raises(SloatInputError) as err:
        load_manifest(manifest(folder, {role: {"path": f, **entry}}))
    return str(err.value)


def lot(folder, geom, name="lot.geojson"):
    path = folder / name
    gpd.GeoDataFrame(geometry=[geom], crs="EPSG:2260").to_crs(4326).to_file(path)
    return path


# ------------------------------------------------------------------------------------------ CRS


def test_projected_geojson_without_crs_is_refused_naming_the_file_and_crs_key(tmp_path):
    msg = refusal(tmp_path, "projected_nocrs.geojson", "wetlands", coverage="village_boundary")
    assert "projected_nocrs.geojson" in msg and "'crs:'" in msg and "RFC 7946" in msg
    assert msg.replace("e.g. ", "").count(". ") == 0 and msg.endswith(".")  # one sentence


def test_the_same_file_with_crs_declared_loads_where_it_belongs(tmp_path):
    f = copy("projected_nocrs.geojson", tmp_path)
    ls = load_manifest(manifest(tmp_path, {"wetlands": {"path": f, "crs": "EPSG:2260",
                                                        "coverage": "village_boundary"}}))
    wet = ls.get("wetlands")
    assert len(wet) == 2
    assert sum(g.area for g in wet.geoms) == pytest.approx(200 * 200 + 160 * 140, rel=1e-9)
    assert ls.village_boundary.buffer(1000).covers(shapely.union_all(list(wet.geoms)))
    # the analysis sees the wetland (the silent "0 sq ft" of the issue, with the right file)
    v = ls.village_boundary.centroid
    out = cli_json("analyze", str(lot(tmp_path, shapely.box(v.x - 350, v.y - 250, v.x - 50, v.y + 50))),
                   "--layers", str(tmp_path / "layers.yaml"), "--json")
    row = {d["constraint"]: d for d in out["deductions"]}["wetlands"]
    assert row["status"] == "known" and row["area_sqft"] == pytest.approx(40_000, rel=1e-6)


def test_an_unknown_crs_word_is_refused(tmp_path):
    assert re.search("crs 'feet' is not a coordinate system", refusal(tmp_path, "projected_nocrs.geojson", "wetlands",
                                                                      crs="feet"))


def test_a_layer_most_of_whose_features_would_be_dropped_is_refused(tmp_path):
    msg = refusal(tmp_path, "mostly_degenerate.geojson", "wetlands", coverage="village_boundary")
    assert "3 of its 4 features" in msg and "no area" in msg and "mostly_degenerate.geojson" in msg


# ------------------------------------------------------------------------------------------ fields


def test_table_qualified_nwi_fields_are_read_by_the_nwi_schema(tmp_path):
    f = copy("nwi_qualified.geojson", tmp_path)
    ls = load_manifest(manifest(tmp_path, {"wetlands": {"path": f, "schema": "nwi", "coverage": "village_boundary"}}))
    plain = load_manifest(SAMPLE / "layers.yaml")
    assert len(ls.get("wetlands")) > 0 and len(ls.get("water_bodies")) > 0
    assert "Wetlands.WETLAND_TYPE" in ls.get("wetlands").gdf.columns
    # the same answer as the sample's NWI file with plain names (simplified to 2e-5 degrees in the fixture)
    nwi = gpd.read_file(SAMPLE / "nwi_wetlands.geojson")
    ponds = nwi["WETLAND_TYPE"].str.lower().isin(["freshwater pond", "lake"]).sum()
    assert len(ls.get("water_bodies")) == ponds
    assert plain.get("wetlands") is not None


def test_qualified_nwi_fields_read_as_generic_are_refused_naming_the_schema(tmp_path):
    assert re.search("USFWS NWI fields.*Wetlands.ATTRIBUTE.*schema: nwi",
                     refusal(tmp_path, "nwi_qualified.geojson", "wetlands", coverage="village_boundary"))


def test_needs_field_lists_the_fields_the_file_has(tmp_path):
    msg = refusal(tmp_path, "flood_without_zone_fields.geojson", "floodplain", schema="fema_nfhl")
    assert "SFHA_TF or FLD_ZONE" in msg and "it has: ZONE_CODE, PANEL_NO" in msg
    assert re.search(r"needs a WETLAND_TYPE.*it has: NAME",
                     refusal(tmp_path, "projected_nocrs.geojson", "wetlands", crs="EPSG:2260", schema="nwi"))


# ------------------------------------------------------------------------------------------ coverage


def _stream_world(tmp_path, coverage):
    v = load_manifest(SAMPLE / "layers.yaml").village_boundary
    c = v.centroid
    gpd.GeoDataFrame({"NAME": ["brook"]}, geometry=[shapely.LineString([(c.x - 2000, c.y), (c.x - 1000, c.y)])],
                     crs=2260).to_file(tmp_path / "streams.gpkg")
    entry = {"path": "streams.gpkg"}
    if coverage is not None:
        entry["coverage"] = coverage
    return manifest(tmp_path, {"watercourses": entry}), c


def test_hydrography_without_coverage_is_unknown_not_none(tmp_path):
    m, c = _stream_world(tmp_path, None)
    ls = load_manifest(m)
    assert any("hydrography is published by watershed" in w for w in ls.warnings)
    assert ls.coverage_state("watercourses").startswith("coverage unknown")
    away = lot(tmp_path, shapely.box(c.x + 1000, c.y, c.x + 1200, c.y + 200))
    out = cli_json("analyze", str(away), "--layers", str(m), "--json")
    row = {d["constraint"]: d for d in out["deductions"]}["watercourses"]
    assert row["status"] == "unknown" and row["area_sqft"] is None
    assert row["coverage"].startswith("coverage unknown")


def test_a_huc_boundary_file_is_the_coverage_and_land_outside_it_is_unknown(tmp_path):
    _, c = _stream_world(tmp_path, None)
    huc = shapely.box(c.x - 3000, c.y - 3000, c.x, c.y + 3000)  # the west half: the streams' watershed
    gpd.GeoDataFrame({"huc12": ["020301030101"]}, geometry=[huc], crs=2260).to_file(tmp_path / "wbd.gpkg", layer="huc12")
    m, _ = _stream_world(tmp_path, {"path": "wbd.gpkg", "layer": "huc12"})
    ls = load_manifest(m)
    assert ls.coverage_state("watercourses") == "coverage declared: wbd.gpkg huc12" and not ls.warnings
    inside = cli_json("analyze", str(lot(tmp_path, shapely.box(c.x - 600, c.y, c.x - 400, c.y + 200), "a.geojson")),
                      "--layers", str(m), "--json")
    outside = cli_json("analyze", str(lot(tmp_path, shapely.box(c.x + 400, c.y, c.x + 600, c.y + 200), "b.geojson")),
                       "--layers", str(m), "--json")
    a = {d["constraint"]: d for d in inside["deductions"]}["watercourses"]
    b = {d["constraint"]: d for d in outside["deductions"]}["watercourses"]
    assert a["status"] == "known" and a["area_sqft"] == 0.0  # in the watershed, no stream: none
    assert b["status"] == "unknown" and b["area_sqft"] is None  # outside it: never mapped


def test_everywhere_and_village_boundary_are_declared(tmp_path):
    m, _ = _stream_world(tmp_path, "everywhere")
    assert load_manifest(m).coverage_state("watercourses") == "coverage declared: everywhere"
    (tmp_path / "v").mkdir()
    m, _ = _stream_world(tmp_path / "v", "village_boundary")
    assert load_manifest(m).coverage_state("watercourses") == "coverage declared: the village boundary"


def test_a_coverage_file_of_lines_is_refused(tmp_path):
    copy("huc_as_lines.geojson", tmp_path)
    m, _ = _stream_world(tmp_path, "huc_as_lines.geojson")
    with pytest.raises(SloatInputError, match="coverage file huc_as_lines.geojson holds LineString.*needs polygons"):
        load_manifest(m)


def test_without_coverage_it_is_assumed_with_a_warning_and_the_row_says_so(tmp_path):
    v = load_manifest(SAMPLE / "layers.yaml").village_boundary
    c = v.centroid
    gpd.GeoDataFrame({"NAME": ["marsh"]}, geometry=[shapely.box(c.x, c.y, c.x + 100, c.y + 100)],
                     crs=2260).to_file(tmp_path / "w.gpkg")
    m = manifest(tmp_path, {"wetlands": {"path": "w.gpkg"}})
    ls = load_manifest(m)
    assert any("coverage is assumed to be the layer's extent" in w for w in ls.warnings)
    out = cli_json("analyze", str(lot(tmp_path, shapely.box(c.x - 50, c.y - 50, c.x + 150, c.y + 150))),
                   "--layers", str(m), "--json")
    row = {d["constraint"]: d for d in out["deductions"]}["wetlands"]
    assert row["coverage"] == "coverage assumed (the layer's extent)"
    assert any("coverage is assumed" in w for w in out["warnings"])


# ------------------------------------------------------------------------------------------ screen


def test_screen_csv_has_the_net_range_and_coverage_per_role(tmp_path):
    doc = yaml.safe_load((SAMPLE / "layers.yaml").read_text(encoding="utf-8"))
    for role, spec in doc["layers"].items():
        for e in spec if isinstance(spec, list) else [spec]:
            e["path"] = str(SAMPLE / e["path"])
    doc["dem"]["path"] = str(SAMPLE / doc["dem"]["path"])
    doc["layers"].pop("floodplain")  # a missing layer: the net lies between a floor and the ceiling
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    out = tmp_path / "s.csv"
    done = run_cli("screen", "--layers", str(tmp_path / "layers.yaml"), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    r = rows[0]
    assert r["coverage_floodplain"] == "no layer (unknown)"
    assert r["coverage_wetlands"] == "covered; coverage declared: the village boundary"
    a = cli_json("analyze", f"sbl:{r['sbl']}", "--layers", str(tmp_path / "layers.yaml"), "--json")
    assert float(r["net_lot_area_min_sqft"]) == pytest.approx(a["net_lot_area_min_sqft"], abs=1.0)
    assert float(r["net_lot_area_sqft"]) == pytest.approx(a["net_lot_area_sqft"], abs=1.0)
    assert float(r["net_lot_area_min_sqft"]) == 0.0 < float(r["net_lot_area_sqft"])  # floodplain counts 0 %
