"""Layers as their publishers release them (tests/fixtures/real-data, read only; derived copies in tmp).

Claims, each read through the manifest and the CLI as the office would use them:
- FEMA NFHL flood zones loaded without ``schema: fema_nfhl`` are refused (zone X is not the 100-year
  floodplain); written as ``schema: generic`` they load with a warning naming the schema.
- A floodplain or wetland layer of another area leaves the parcel *unknown*, not "none"; so does land
  outside the FIRM panels when the NFHL coverage is given.
- MapPLUTO's numeric BBL is the text "1000010010" in every reader (zipped shapefile, zipped File GDB,
  .gdb folder) and in the screen CSV; a zip of several shapefiles needs ``layer`` (names listed,
  matched ignoring case).
- Load warnings (a misspelt key such as ``district_feild``) reach CLI stderr and JSON ``warnings``.
- ``screen`` takes each parcel's district from the zoning layer when the parcels carry none.
"""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import geopandas as gpd
import pytest
import shapely
import yaml

from real_data import (NFHL_PANELS, NFHL_ZONES, PLUTO_BBL, PLUTO_GDB_ZIP, PLUTO_SHP_ZIP, ROOT, cli_json,
                       run_cli, write_manifest)
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.parcels import parcel_by_sbl

SAMPLE = ROOT / "data" / "sample"


def sample_manifest(folder: Path, **replace) -> Path:
    """The sample manifest with absolute paths, roles replaced (value None drops the role)."""
    doc = yaml.safe_load((SAMPLE / "layers.yaml").read_text(encoding="utf-8"))
    for role, spec in list(doc["layers"].items()):
        for e in spec if isinstance(spec, list) else [spec]:
            e["path"] = str(SAMPLE / e["path"])
    doc["dem"]["path"] = str(SAMPLE / doc["dem"]["path"])
    for role, spec in replace.items():
        if spec is None:
            doc["layers"].pop(role, None)
        else:
            doc["layers"][role] = spec
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "layers.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def village():
    return load_manifest(SAMPLE / "layers.yaml").village_boundary


@pytest.fixture(scope="module")
def moved_nfhl(tmp_path_factory):
    """The real NFHL extract (zones and FIRM panels), moved as a whole so that the panels' east edge
    runs 2,500 ft into the village: the west of the village is on the panels, the rest is not."""
    folder = tmp_path_factory.mktemp("nfhl")
    zones = gpd.read_file(NFHL_ZONES).to_crs("EPSG:2260")
    panels = gpd.read_file(NFHL_PANELS).to_crs("EPSG:2260")
    v = village()
    pminx, pminy, pmaxx, pmaxy = panels.total_bounds
    dx = (v.bounds[0] + 2500.0) - pmaxx
    dy = v.centroid.y - (pminy + pmaxy) / 2
    for gdf, name in ((zones, "flood_zones"), (panels, "firm_panels")):
        gdf.geometry = gdf.geometry.translate(dx, dy)
        gdf.to_file(folder / "nfhl.gpkg", layer=name, driver="GPKG")
    return folder / "nfhl.gpkg", zones, panels


def lot_file(folder: Path, geom, name="lot.geojson") -> Path:
    path = folder / name
    gpd.GeoDataFrame(geometry=[geom], crs="EPSG:2260").to_crs("EPSG:4326").to_file(path)
    return path


# ------------------------------------------------------------------------------- schema sniffing


def test_nfhl_loaded_as_generic_by_default_is_refused_naming_the_schema(tmp_path):
    manifest = write_manifest(tmp_path, {"floodplain": {"path": str(NFHL_ZONES)}})
    with pytest.raises(SloatInputError) as err:
        load_manifest(manifest)
    msg = str(err.value)
    assert "FLD_ZONE" in msg and "schema: fema_nfhl" in msg and "6 of its 12 features" in msg


def test_nfhl_written_as_generic_loads_with_a_warning_naming_the_schema(tmp_path):
    ls = load_manifest(write_manifest(tmp_path, {"floodplain": {"path": str(NFHL_ZONES), "schema": "generic"}}))
    assert len(ls.get("floodplain")) == 12
    assert any("FEMA NFHL" in w and "fema_nfhl" in w for w in ls.warnings), ls.warnings


def test_nfhl_schema_keeps_only_the_special_flood_hazard_area(tmp_path):
    ls = load_manifest(write_manifest(tmp_path, {"floodplain": {"path": str(NFHL_ZONES), "schema": "fema_nfhl"}}))
    flood = ls.get("floodplain").gdf
    assert len(flood) == 6 and set(flood["SFHA_TF"]) == {"T"} and "X" not in set(flood["FLD_ZONE"])
    assert not any("NFHL" in w for w in ls.warnings)


def test_nwi_fields_loaded_as_generic_wetlands_are_refused_naming_the_schema(tmp_path):
    box = shapely.box(0, 0, 100, 100)
    gpd.GeoDataFrame({"ATTRIBUTE": ["PEM1E", "L1UBH"], "WETLAND_TYPE": ["Freshwater Emergent Wetland", "Lake"]},
                     geometry=[box, box.buffer(-10)], crs="EPSG:2260").to_file(tmp_path / "nwi.gpkg")
    with pytest.raises(SloatInputError, match="schema: nwi"):
        load_manifest(write_manifest(tmp_path, {"wetlands": {"path": "nwi.gpkg"}}))
    ls = load_manifest(write_manifest(tmp_path, {"wetlands": {"path": "nwi.gpkg", "schema": "generic"}}))
    assert any("USFWS NWI" in w and "'schema: nwi'" in w for w in ls.warnings)


# ------------------------------------------------------------------------------- coverage


def test_floodplain_and_wetlands_of_another_area_are_unknown_not_none(tmp_path):
    other = {"path": str(NFHL_ZONES), "schema": "fema_nfhl"}
    manifest = sample_manifest(tmp_path, floodplain=other, wetlands=other)
    out = cli_json("analyze", "sbl:155.06-1-1", "--layers", str(manifest), "--json")
    rows = {d["constraint"]: d for d in out["deductions"]}
    assert rows["floodplain"]["status"] == rows["wetlands"]["status"] == "unknown"
    assert rows["floodplain"]["area_sqft"] is None
    permits = {p["id"]: p["required"] for p in out["permits"]}
    assert permits["flood_hazard_review"] is None and permits["wetland_permit"] is None
    triggers = {t["id"]: t["triggered"] for t in out["cluster_triggers"]}
    assert triggers["402-48C(2)"] is None and triggers["402-48C(3)"] is None  # wetlands, floodplain
    assert out["net_lot_area_min_sqft"] < out["net_lot_area_sqft"]  # the net is a range
    assert any("floodplain layer does not cover" in w for w in out["warnings"])


def test_the_same_parcel_with_the_sample_layers_is_known(tmp_path):
    out = cli_json("analyze", "sbl:155.06-1-1", "--layers", str(SAMPLE / "layers.yaml"), "--json")
    rows = {d["constraint"]: d for d in out["deductions"]}
    assert rows["floodplain"]["status"] == rows["wetlands"]["status"] == "known"


def test_land_outside_the_firm_panels_is_unknown_for_the_floodplain(tmp_path, moved_nfhl):
    gpkg, zones, panels = moved_nfhl
    on_panels = panels.union_all()
    sfha = zones[zones["SFHA_TF"] == "T"].union_all().intersection(on_panels)
    inside = shapely.box(*sfha.representative_point().buffer(60).bounds)  # a lot in zone A/AE
    v = village()
    outside = shapely.box(v.centroid.x, v.centroid.y, v.centroid.x + 300, v.centroid.y + 300)
    assert on_panels.covers(inside) and not on_panels.intersects(outside)
    entry = {"path": str(gpkg), "layer": "flood_zones", "schema": "fema_nfhl",
             "coverage": {"path": str(gpkg), "layer": "firm_panels"}}
    manifest = sample_manifest(tmp_path / "m", floodplain=entry)
    a = cli_json("analyze", str(lot_file(tmp_path, inside, "in.geojson")), "--layers", str(manifest), "--json")
    b = cli_json("analyze", str(lot_file(tmp_path, outside, "out.geojson")), "--layers", str(manifest), "--json")
    fa = {d["constraint"]: d for d in a["deductions"]}["floodplain"]
    fb = {d["constraint"]: d for d in b["deductions"]}["floodplain"]
    assert fa["status"] == "known" and fa["area_sqft"] > 0.5 * inside.area
    assert {p["id"]: p["required"] for p in a["permits"]}["flood_hazard_review"] is True
    assert fb["status"] == "unknown" and fb["area_sqft"] is None
    assert {p["id"]: p["required"] for p in b["permits"]}["flood_hazard_review"] is None
    # without the panels, the zones' own extent reaches the lot: it reads as known (zone X or none)
    plain = sample_manifest(tmp_path / "p", floodplain={k: v for k, v in entry.items() if k != "coverage"})
    c = cli_json("analyze", str(lot_file(tmp_path, outside, "out2.geojson")), "--layers", str(plain), "--json")
    assert {d["constraint"]: d for d in c["deductions"]}["floodplain"]["status"] == "known"


def test_screen_marks_parcels_off_the_firm_panels_unknown(tmp_path, moved_nfhl):
    gpkg, _, panels = moved_nfhl
    entry = {"path": str(gpkg), "layer": "flood_zones", "schema": "fema_nfhl",
             "coverage": {"path": str(gpkg), "layer": "firm_panels"}}
    manifest = sample_manifest(tmp_path, floodplain=entry)
    out = tmp_path / "screen.csv"
    done = run_cli("screen", "--layers", str(manifest), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    ls = load_manifest(manifest)
    by_id = {r["sbl"]: r for r in rows}
    parcels = ls.get("parcels").gdf
    on = panels.union_all()
    n_off = n_on = 0
    for sbl, geom in zip(parcels["SBL"], parcels.geometry, strict=True):
        r = by_id[sbl]
        if not geom.intersects(on):
            n_off += 1
            assert r["share_floodplain"] == "" and r["permit_flood_hazard_review"] == "", r  # "" = unknown
        elif on.covers(geom):
            n_on += 1
            assert r["share_floodplain"] != "", r
    assert n_off > 10 and n_on > 10


# ------------------------------------------------------------------------------- files as published


@pytest.mark.parametrize("source", ["shp_zip", "gdb_zip", "gdb_folder"])
def test_mappluto_numeric_bbl_is_kept_as_text(source, tmp_path):
    if source == "shp_zip":
        path = PLUTO_SHP_ZIP
    elif source == "gdb_zip":
        path = PLUTO_GDB_ZIP
    else:
        with zipfile.ZipFile(PLUTO_GDB_ZIP) as zf:
            zf.extractall(tmp_path)
        path = tmp_path / "geodatabase.gdb"
        assert path.is_dir()
    manifest = write_manifest(tmp_path, {"parcels": {"path": str(path), "id_field": "BBL",
                                                     "district_field": "ZoneDist1"}})
    ls = load_manifest(manifest)
    assert list(ls.get("parcels").gdf["BBL"]) == [PLUTO_BBL]
    assert parcel_by_sbl(ls, PLUTO_BBL).sbl == PLUTO_BBL
    out = cli_json("analyze", f"sbl:{PLUTO_BBL}", "--layers", str(manifest), "--json")
    assert out["parcel"]["sbl"] == PLUTO_BBL
    csv_path = tmp_path / "screen.csv"
    done = run_cli("screen", "--layers", str(manifest), "--out", str(csv_path), "--quiet")
    assert done.returncode == 0, done.stderr
    text = csv_path.read_text(encoding="utf-8")
    assert f"\n{PLUTO_BBL}," in text and f"{PLUTO_BBL}.0" not in text


def test_mappluto_lot_keeps_its_hole_and_is_read_in_place_from_epsg_2263(tmp_path):
    a = load_manifest(write_manifest(tmp_path, {"parcels": {"path": str(PLUTO_SHP_ZIP), "id_field": "BBL"}}))
    (tmp_path / "g").mkdir()
    b = load_manifest(write_manifest(tmp_path / "g", {"parcels": {"path": str(PLUTO_GDB_ZIP), "id_field": "BBL"}}))
    ga, gb = a.get("parcels").geoms[0], b.get("parcels").geoms[0]
    holes = sum(len(p.interiors) for p in getattr(ga, "geoms", [ga]))
    assert holes >= 1
    assert ga.area == pytest.approx(gb.area, rel=1e-6)  # the two formats agree to reprojection precision


def test_zip_of_several_shapefiles_needs_a_layer_and_matches_it_ignoring_case(tmp_path):
    two = tmp_path / "county.zip"
    with zipfile.ZipFile(PLUTO_SHP_ZIP) as src, zipfile.ZipFile(two, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            stem, _, ext = info.filename.partition(".")
            dst.writestr(f"S_Lots.{ext}", data)
            dst.writestr(f"Other_Lots.{ext}", data)
    with pytest.raises(SloatInputError) as err:
        load_manifest(write_manifest(tmp_path, {"parcels": {"path": str(two), "id_field": "BBL"}}))
    assert "several shapefiles" in str(err.value) and "S_Lots" in str(err.value) and "Other_Lots" in str(err.value)
    ls = load_manifest(write_manifest(tmp_path, {"parcels": {"path": str(two), "layer": "s_lots", "id_field": "BBL"}}))
    assert list(ls.get("parcels").gdf["BBL"]) == [PLUTO_BBL]
    with pytest.raises(SloatInputError, match="no shapefile named 'lots'.*S_Lots"):
        load_manifest(write_manifest(tmp_path, {"parcels": {"path": str(two), "layer": "lots", "id_field": "BBL"}}))


def test_file_gdb_layer_names_match_ignoring_case_and_tables_are_not_map_layers(tmp_path):
    ls = load_manifest(write_manifest(tmp_path, {"parcels": {"path": str(PLUTO_GDB_ZIP), "layer": "MAPPLUTO_ONE_ROW",
                                                             "id_field": "BBL"}}))
    assert len(ls.get("parcels")) == 1
    with pytest.raises(SloatInputError, match="no map layer named 'pluto'.*mappluto_one_row"):
        load_manifest(write_manifest(tmp_path, {"parcels": {"path": str(PLUTO_GDB_ZIP), "layer": "pluto",
                                                            "id_field": "BBL"}}))


def test_clip_to_the_village_plus_a_buffer_on_read(tmp_path, moved_nfhl):
    gpkg, zones, _ = moved_nfhl
    v = village()
    manifest = write_manifest(
        tmp_path, {"village_boundary": {"path": str(SAMPLE / "village_boundary.geojson")},
                   "floodplain": {"path": str(gpkg), "layer": "flood_zones", "schema": "generic"}},
        clip_buffer_ft=20000)
    ls = load_manifest(manifest)
    clip = v.buffer(20000)
    flood = ls.get("floodplain")
    assert 0 < len(flood) <= len(zones)
    assert sum(g.area for g in flood.geoms) < 0.5 * zones.area.sum()
    assert all(clip.buffer(0.01).covers(g) for g in flood.geoms)
    cut = [g for g in flood.geoms if not any(g.equals_exact(z, 1e-6) for z in zones.geometry)]
    assert cut  # features crossing the clip line are cut, not kept whole
    assert ls.coverage("floodplain").area <= clip.area + 1


# ------------------------------------------------------------------------------- warnings shown


def test_misspelt_manifest_key_reaches_cli_stderr_and_json_warnings(tmp_path):
    manifest = sample_manifest(tmp_path, parcels={"path": str(SAMPLE / "parcels.gpkg"), "layer": "parcels",
                                                  "id_field": "SBL", "district_feild": "ZONE"})
    done = run_cli("analyze", "sbl:155.06-1-1", "--layers", str(manifest), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    hits = [w for w in out["warnings"] if "district_feild" in w]
    assert hits and "did you mean 'district_field'" in hits[0]
    assert any("district_feild" in line and line.startswith("Warning: ") for line in done.stderr.splitlines())


# ------------------------------------------------------------------------------- screen districts


def test_screen_takes_districts_from_the_zoning_layer_when_parcels_carry_none(tmp_path):
    manifest = sample_manifest(tmp_path, parcels={"path": str(SAMPLE / "parcels.gpkg"), "layer": "parcels",
                                                  "id_field": "SBL", "address_field": "ADDRESS"})
    out = tmp_path / "screen.csv"
    done = run_cli("screen", "--layers", str(manifest), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows and all(r["district"] for r in rows)
    residential = [r for r in rows if r["district"].startswith("R-")]
    assert residential and all(r["min_lot_area_sqft"] != "" for r in residential)
    split = [r for r in rows if r["districts"]]
    for r in rows[:3] + split[:2]:
        a = cli_json("analyze", f"sbl:{r['sbl']}", "--layers", str(manifest), "--json")
        assert a["district"] == r["district"]
        if len(a["districts"]) > 1:
            assert r["districts"].startswith(a["districts"][0]["district"])


def test_the_report_lists_load_warnings_and_coverage_gaps(tmp_path):
    from pypdf import PdfReader

    other = {"path": str(NFHL_ZONES), "schema": "fema_nfhl"}
    manifest = sample_manifest(tmp_path, floodplain=other, parcels={
        "path": str(SAMPLE / "parcels.gpkg"), "layer": "parcels", "id_field": "SBL", "district_feild": "ZONE"})
    pdf = tmp_path / "report.pdf"
    done = run_cli("report", "sbl:155.06-1-1", "--layers", str(manifest), "--out", str(pdf))
    assert done.returncode == 0, done.stderr
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(pdf).pages).split())
    assert "district_feild" in text
    assert "floodplain layer does not cover" in text


def test_vector_layer_in_an_equivalent_crs_is_used_without_reprojection(tmp_path):
    """ESRI:102715 (how ArcGIS writes NAD83 / New York East ftUS) is EPSG:2260: coordinates are kept as they are."""
    x0, y0 = 578_000.123456, 848_300.654321
    ring = shapely.box(x0, y0, x0 + 100.5, y0 + 200.25)
    gpd.GeoDataFrame({"NAME": ["x"]}, geometry=[ring], crs="ESRI:102715").to_file(tmp_path / "w.shp")
    ls = load_manifest(write_manifest(tmp_path, {"wetlands": {"path": "w.shp"}}))
    got = ls.get("wetlands").geoms[0]
    assert ls.get("wetlands").gdf.crs.to_epsg() == 2260
    assert shapely.equals_exact(got.normalize(), ring.normalize(), tolerance=0.0)
