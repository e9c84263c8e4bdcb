"""Tests for sloat_core.gis.layers: manifest, schema adapters, reading, reprojection, spatial index.

Every layer is hand-built in EPSG:2260 feet with areas that can be computed by hand; the manifests
are written into tmp_path. One test loads the shipped sample manifest data/sample/layers.yaml.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import rasterio
from rasterio.transform import from_origin
import shapely
from shapely.geometry import LineString, Point, Polygon, box

from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import (
    ROLES,
    Layer,
    LayerSet,
    clear_manifest_cache,
    is_sfha_zone,
    load_manifest,
    polygonal_part,
)

REPO = Path(__file__).resolve().parents[2]
X0, Y0 = 576_000.0, 845_000.0
CRS = "EPSG:2260"


def _box(dx, dy, w, h):
    return box(X0 + dx, Y0 + dy, X0 + dx + w, Y0 + dy + h)


def _write(path: Path, geoms, crs=CRS, layer=None, **cols) -> Path:
    gdf = gpd.GeoDataFrame(cols or {"id": list(range(len(geoms)))}, geometry=list(geoms), crs=crs)
    kwargs = {"layer": layer} if layer else {}
    gdf.to_file(path, **kwargs)
    return path


def _manifest(tmp_path: Path, body: str, name: str = "layers.yaml") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_manifest_cache()
    yield
    clear_manifest_cache()


@pytest.fixture
def full_set(tmp_path: Path) -> LayerSet:
    """A manifest naming most roles, with known geometry."""
    # Floodplain: AE (100 x 100) and A (100 x 100) next to an X zone (100 x 100), all touching.
    _write(
        tmp_path / "nfhl.gpkg",
        [_box(0, 0, 100, 100), _box(100, 0, 100, 100), _box(200, 0, 100, 100)],
        layer="S_FLD_HAZ_AR",
        FLD_ZONE=["AE", "A", "X"],
        ZONE_SUBTY=[None, None, "0.2 PCT ANNUAL CHANCE FLOOD HAZARD"],
    )
    # NWI: one of each type, 50 x 50 each, spaced apart.
    _write(
        tmp_path / "nwi.geojson",
        [_box(0, 500, 50, 50), _box(100, 500, 50, 50), _box(200, 500, 50, 50), _box(300, 500, 50, 50)],
        WETLAND_TYPE=["Freshwater Emergent Wetland", "Freshwater Pond", "Lake", "Riverine"],
        ATTRIBUTE=["PEM1E", "PUBHh", "L1UBH", "R2UBH"],
    )
    _write(tmp_path / "local_wetlands.geojson", [_box(0, 700, 20, 20)], NAME=["Local fen"])
    # Stream: 1,000 ft line with WIDTH_FT 20, and a 500 ft line without a width.
    _write(
        tmp_path / "streams.geojson",
        [LineString([(X0, Y0 + 1000), (X0 + 1000, Y0 + 1000)]), LineString([(X0, Y0 + 1200), (X0 + 500, Y0 + 1200)])],
        NAME=["Brook", "Rill"],
        WIDTH_FT=[20.0, None],
    )
    _write(
        tmp_path / "parcels.gpkg",
        [_box(0, 0, 300, 400), _box(300, 0, 300, 400)],
        layer="parcels",
        SBL=["156.18-1-23", "156.18-1-24"],
        ZONE=["R-40", "R-15"],
        ADDRESS=["1 Brook Rd", "3 Brook Rd"],
    )
    _write(
        tmp_path / "zoning.gpkg",
        [_box(-1000, -1000, 1150, 3000), _box(150, -1000, 1000, 3000)],
        layer="zoning",
        ZONE=["R-40", "R-15"],
    )
    _write(tmp_path / "village.geojson", [_box(-2000, -2000, 4000, 4000)], NAME=["Village of Sloatsburg"])
    z = np.full((4, 4), 500.0)
    with rasterio.open(tmp_path / "dem.tif", "w", driver="GTiff", width=4, height=4, count=1, dtype="float64",
                       crs="EPSG:2260", transform=from_origin(0, 40, 10, 10)) as dst:
        dst.write(z, 1)
    body = """\
name: Test set (illustrative)
version: "2026-11-29"
illustrative: true
notice: "Illustrative sample, not official data."
colour: blue
layers:
  floodplain:    {path: nfhl.gpkg, layer: S_FLD_HAZ_AR, schema: fema_nfhl}
  wetlands:
    - {path: nwi.geojson, schema: nwi}
    - {path: local_wetlands.geojson, note: hand-drawn}
  watercourses:  {path: streams.geojson, width_field: WIDTH_FT}
  parcels:       {path: parcels.gpkg, layer: parcels, id_field: SBL, district_field: ZONE, address_field: ADDRESS}
  zoning:        {path: zoning.gpkg, layer: zoning, district_field: ZONE}
  village_boundary: {path: village.geojson}
dem: {path: dem.tif, z_units: us_survey_foot}
"""
    return load_manifest(_manifest(tmp_path, body), default_stream_width_ft=10)


# ---------------------------------------------------------------- manifest basics


def test_manifest_metadata_and_unknown_keys_warn(full_set: LayerSet):
    assert full_set.name == "Test set (illustrative)"
    assert full_set.version == "2026-11-29"
    assert full_set.illustrative is True
    assert full_set.notice.startswith("Illustrative")
    assert full_set.dem_path is not None and full_set.dem_path.name == "dem.tif"
    assert any("colour" in w for w in full_set.warnings)
    assert any("note" in w and "wetlands[1]" in w for w in full_set.warnings)


def test_absent_role_is_unknown_not_empty(full_set: LayerSet):
    assert full_set.get("rock_outcrops") is None
    assert not full_set.has("rock_outcrops")
    assert full_set.has("floodplain")


def test_every_layer_is_in_work_crs_and_valid(full_set: LayerSet):
    for role, layer in full_set.roles.items():
        assert role in ROLES
        assert layer.gdf.crs.to_epsg() == 2260
        assert bool(layer.gdf.geometry.is_valid.all())
        assert set(layer.gdf.geom_type) <= {"Polygon", "MultiPolygon"}
        assert "_source" in layer.gdf.columns


# ---------------------------------------------------------------- schema adapters


def test_fema_nfhl_keeps_ae_and_a_and_drops_adjacent_x(full_set: LayerSet):
    flood = full_set.get("floodplain")
    assert sorted(flood.gdf["FLD_ZONE"]) == ["A", "AE"]
    parcel = _box(-50, -50, 400, 200)  # covers all three zones
    assert flood.union_within(parcel).area == pytest.approx(20_000.0)


def test_fema_nfhl_uses_sfha_tf_when_present(tmp_path: Path):
    _write(
        tmp_path / "f.geojson",
        [_box(0, 0, 100, 100), _box(100, 0, 100, 100), _box(200, 0, 100, 100)],
        SFHA_TF=["T", "F", None],
        FLD_ZONE=["AE", "X", "VE"],  # the third has no flag: its zone decides
    )
    ls = load_manifest(_manifest(tmp_path, "layers:\n  floodplain: {path: f.geojson, schema: fema_nfhl}\n"))
    assert sorted(ls.get("floodplain").gdf["FLD_ZONE"]) == ["AE", "VE"]


@pytest.mark.parametrize(
    "code, inside",
    [
        ("A", True), ("AE", True), ("AH", True), ("AO", True), ("AR", True), ("A99", True), ("A1", True),
        ("A30", True), ("V", True), ("VE", True), ("V1", True), ("V30", True), (" ae ", True), ("AR/AE", True),
        ("A31", False), ("V31", False), ("A0", False), ("X", False), ("D", False), ("0.2 PCT", False),
        ("", False), (None, False),
    ],
)
def test_sfha_zone_codes(code, inside):
    assert is_sfha_zone(code) is inside


def test_nwi_routes_by_wetland_type_whatever_the_role_key(full_set: LayerSet):
    wet = full_set.get("wetlands")
    water = full_set.get("water_bodies")
    streams = full_set.get("watercourses")
    assert sorted(water.gdf["WETLAND_TYPE"]) == ["Freshwater Pond", "Lake"]
    assert list(wet.gdf["WETLAND_TYPE"].dropna()) == ["Freshwater Emergent Wetland"]
    assert "Riverine" in set(streams.gdf["WETLAND_TYPE"].dropna())
    assert set(water.gdf["_source"]) == {"layers.yaml: wetlands[0] (nwi.geojson)"}


def test_list_entries_are_concatenated_with_sources(full_set: LayerSet):
    wet = full_set.get("wetlands")
    assert list(wet.gdf["_source"]) == [
        "layers.yaml: wetlands[0] (nwi.geojson)",
        "layers.yaml: wetlands[1] (local_wetlands.geojson)",
    ]
    assert wet.gdf.geometry.area.sum() == pytest.approx(2500 + 400)
    assert "wetlands[0]" in wet.source and "wetlands[1]" in wet.source


def test_nwi_accepts_shapefile_field_name(tmp_path: Path):
    _write(tmp_path / "nwi.shp", [_box(0, 0, 10, 10), _box(20, 0, 10, 10)], WETLAND_TY=["Lake", "Other"])
    ls = load_manifest(_manifest(tmp_path, "layers:\n  water_bodies: {path: nwi.shp, schema: nwi}\n"))
    assert len(ls.get("water_bodies")) == 1 and len(ls.get("wetlands")) == 1


# ---------------------------------------------------------------- where filters


def _zones(tmp_path: Path) -> None:
    _write(
        tmp_path / "z.geojson",
        [_box(i * 100, 0, 100, 100) for i in range(4)],
        KIND=["fen", "bog", "marsh", None],
        ACRES=[1.5, 12.4, 30.0, 2.0],
    )


@pytest.mark.parametrize(
    "where, kinds",
    [
        ("KIND = 'fen'", ["fen"]),
        ("KIND in ('fen', 'bog')", ["fen", "bog"]),
        ("KIND not in ('fen') and KIND is not null", ["bog", "marsh"]),
        ("ACRES >= 12.4", ["bog", "marsh"]),
        ("ACRES > 12.4 or (KIND = 'fen' and not ACRES < 1)", ["fen", "marsh"]),
        ("KIND is null", [None]),
        ('{KIND: bog}', ["bog"]),
        ('{KIND: [fen, marsh]}', ["fen", "marsh"]),
        ('{ACRES: 30}', ["marsh"]),
    ],
)
def test_where_filter(tmp_path: Path, where, kinds):
    _zones(tmp_path)
    value = where if where.startswith("{") else '"' + where + '"'
    ls = load_manifest(_manifest(tmp_path, f"layers:\n  wetlands: {{path: z.geojson, where: {value}}}\n"))
    got = [None if k is None or k != k else k for k in ls.get("wetlands").gdf["KIND"]]
    assert got == kinds


@pytest.mark.parametrize(
    "where",
    ["NOPE = 'x'", "KIND = ", "__import__('os').system('touch PWNED')", "KIND = 'a'; import os", "KIND == 1 +"],
)
def test_bad_where_is_refused_naming_the_line_and_never_evaluated(tmp_path: Path, where):
    _zones(tmp_path)
    body = "name: t\nlayers:\n  wetlands: {path: z.geojson, where: \"" + where.replace('"', '\\"') + "\"}\n"
    with pytest.raises(SloatInputError) as err:
        load_manifest(_manifest(tmp_path, body))
    assert "line 3" in str(err.value) and "wetlands" in str(err.value)
    assert not (tmp_path / "PWNED").exists() and not Path("PWNED").exists()


# ---------------------------------------------------------------- watercourses


def test_watercourse_lines_buffered_by_width_field_or_default(full_set: LayerSet):
    streams = full_set.get("watercourses")
    brook = streams.gdf[streams.gdf["NAME"] == "Brook"].geometry.iloc[0]
    rill = streams.gdf[streams.gdf["NAME"] == "Rill"].geometry.iloc[0]
    assert brook.area == pytest.approx(1000 * 20, rel=1e-9)
    assert rill.area == pytest.approx(500 * 10, rel=1e-9)
    assert streams.lines is not None and len(streams.lines) == 2
    assert set(streams.lines.geom_type) == {"LineString"}


def test_default_stream_width_argument_changes_buffer(tmp_path: Path):
    _write(tmp_path / "s.geojson", [LineString([(X0, Y0), (X0 + 100, Y0)])], NAME=["x"])
    path = _manifest(tmp_path, "layers:\n  watercourses: {path: s.geojson}\n")
    narrow = load_manifest(path, default_stream_width_ft=4)
    wide = load_manifest(path, default_stream_width_ft=16)
    assert narrow.get("watercourses").gdf.area.iloc[0] == pytest.approx(400)
    assert wide.get("watercourses").gdf.area.iloc[0] == pytest.approx(1600)
    with pytest.raises(SloatInputError):
        load_manifest(path, default_stream_width_ft=0)


# ---------------------------------------------------------------- reading formats, repair, reprojection


def test_reprojects_wgs84_and_repairs_bowtie(tmp_path: Path):
    rect = _box(0, 0, 300, 400)
    gpd.GeoDataFrame({"n": [1]}, geometry=[rect], crs=CRS).to_crs("EPSG:4326").to_file(tmp_path / "w.geojson")
    bow = Polygon([(X0, Y0), (X0 + 300, Y0 + 400), (X0 + 300, Y0), (X0, Y0 + 400)])
    _write(tmp_path / "b.gpkg", [bow], layer="b", n=[1])
    body = "layers:\n  habitats: {path: w.geojson}\n  rcda: {path: b.gpkg}\n"
    ls = load_manifest(_manifest(tmp_path, body))
    assert ls.get("habitats").gdf.area.iloc[0] == pytest.approx(120_000, rel=1e-4)
    rcda = ls.get("rcda").gdf.geometry.iloc[0]
    assert rcda.is_valid and rcda.area == pytest.approx(60_000)


def test_zipped_shapefile_in_subfolder_kml_and_flatgeobuf(tmp_path: Path):
    rect = _box(0, 0, 300, 400)
    shp_dir = tmp_path / "shp"
    shp_dir.mkdir()
    _write(shp_dir / "outcrops.shp", [rect], n=[1])
    with zipfile.ZipFile(tmp_path / "outcrops.zip", "w") as zf:
        for p in shp_dir.iterdir():
            zf.write(p, f"data/{p.name}")
    gpd.GeoDataFrame({"Name": ["v"]}, geometry=[rect], crs=CRS).to_crs("EPSG:4326").to_file(
        tmp_path / "views.kml", driver="LIBKML"
    )
    _write(tmp_path / "hist.fgb", [rect], n=[1])
    abs_path = (tmp_path / "hist.fgb").resolve()
    body = f"layers:\n  rock_outcrops: {{path: outcrops.zip}}\n  viewsheds: {{path: views.kml}}\n  historic: {{path: '{abs_path}'}}\n"
    ls = load_manifest(_manifest(tmp_path, body))
    for role in ("rock_outcrops", "viewsheds", "historic"):
        assert ls.get(role).gdf.area.sum() == pytest.approx(120_000, rel=1e-4), role


# ---------------------------------------------------------------- errors name the manifest line


def _expect_error(tmp_path: Path, body: str, *needles: str) -> str:
    with pytest.raises(SloatInputError) as err:
        load_manifest(_manifest(tmp_path, body))
    msg = str(err.value)
    for needle in needles:
        assert needle in msg, msg
    assert "\n" not in msg and "Traceback" not in msg
    return msg


def test_missing_file_names_the_line(tmp_path: Path):
    _write(tmp_path / "ok.geojson", [_box(0, 0, 10, 10)])
    body = "name: t\nlayers:\n  wetlands: {path: ok.geojson}\n  floodplain: {path: missing.gpkg, schema: fema_nfhl}\n"
    _expect_error(tmp_path, body, "line 4", "floodplain", "missing.gpkg", "not found")


def test_missing_file_in_a_list_names_the_item(tmp_path: Path):
    _write(tmp_path / "ok.geojson", [_box(0, 0, 10, 10)])
    body = "layers:\n  wetlands:\n    - {path: ok.geojson}\n    - {path: gone.geojson}\n"
    _expect_error(tmp_path, body, "line 4", "wetlands[1]", "gone.geojson")


def test_no_crs_names_the_line(tmp_path: Path):
    _write(tmp_path / "nocrs.shp", [_box(0, 0, 10, 10)], crs=None)
    _expect_error(tmp_path, "layers:\n  habitats: {path: nocrs.shp}\n", "line 2", "habitats", "coordinate system")


def test_points_for_floodplain_is_the_wrong_geometry_type(tmp_path: Path):
    _write(tmp_path / "pts.geojson", [Point(X0, Y0)], FLD_ZONE=["AE"])
    msg = _expect_error(
        tmp_path, "layers:\n  floodplain: {path: pts.geojson, schema: fema_nfhl}\n", "line 2", "floodplain", "Point"
    )
    assert "polygons" in msg


def test_lines_are_wrong_for_wetlands_but_right_for_watercourses(tmp_path: Path):
    _write(tmp_path / "l.geojson", [LineString([(X0, Y0), (X0 + 10, Y0)])])
    _expect_error(tmp_path, "layers:\n  wetlands: {path: l.geojson}\n", "wetlands", "LineString")
    ls = load_manifest(_manifest(tmp_path, "layers:\n  watercourses: {path: l.geojson}\n", "ok.yaml"))
    assert len(ls.get("watercourses")) == 1


def test_unknown_schema_and_role(tmp_path: Path):
    _write(tmp_path / "ok.geojson", [_box(0, 0, 10, 10)])
    _expect_error(tmp_path, "layers:\n  wetlands: {path: ok.geojson, schema: nwi_v2}\n", "line 2", "nwi_v2")
    _expect_error(tmp_path, "layers:\n  swamps: {path: ok.geojson}\n", "line 2", "swamps")


def test_bad_yaml_and_missing_manifest(tmp_path: Path):
    msg = _expect_error(tmp_path, "layers:\n  wetlands: {path: [unclosed\n", "YAML", "line")
    assert "layers.yaml" in msg
    with pytest.raises(SloatInputError, match="not found"):
        load_manifest(tmp_path / "nope.yaml")


def test_fema_schema_without_fields_and_missing_dem(tmp_path: Path):
    _write(tmp_path / "f.geojson", [_box(0, 0, 10, 10)], ZONE=["AE"])
    _expect_error(tmp_path, "layers:\n  floodplain: {path: f.geojson, schema: fema_nfhl}\n", "SFHA_TF", "FLD_ZONE")
    _write(tmp_path / "ok.geojson", [_box(0, 0, 10, 10)])
    _expect_error(tmp_path, "layers:\n  wetlands: {path: ok.geojson}\ndem: {path: nope.tif}\n", "nope.tif")


# ---------------------------------------------------------------- spatial queries


def test_query_and_union_within(full_set: LayerSet):
    water = full_set.get("water_bodies")  # two 50 x 50 squares at dx = 100 and 200, dy = 500
    probe = _box(125, 525, 100, 10)  # half of the first, a quarter of the second... by x extent
    hits = water.query(probe)
    assert len(hits) == 2
    assert water.union_within(probe).area == pytest.approx(25 * 10 + 25 * 10)
    far = _box(5000, 5000, 10, 10)
    assert len(water.query(far)) == 0
    empty = water.union_within(far)
    assert empty.is_empty and empty.area == 0


def test_union_within_merges_overlaps_and_keeps_only_polygons():
    gdf = gpd.GeoDataFrame(geometry=[box(0, 0, 10, 10), box(5, 0, 15, 10), box(20, 0, 30, 10)], crs=CRS)
    lyr = Layer("wetlands", gdf, "test")
    got = lyr.union_within(box(0, 0, 20, 10))  # touches the third square only along x = 20
    assert got.area == pytest.approx(150)
    assert got.geom_type in ("Polygon", "MultiPolygon")


def test_union_within_agrees_with_a_plain_union_over_a_thousand_polygons():
    rng = np.random.default_rng(7)
    xy = rng.uniform(0, 20_000, size=(1000, 2))
    polys = [shapely.Point(x, y).buffer(80, quad_segs=8) for x, y in xy]
    lyr = Layer("wetlands", gpd.GeoDataFrame(geometry=polys, crs=CRS), "bench")
    parcel = box(9000, 9000, 10_500, 10_200)
    lyr.union_within(parcel)
    expected = shapely.union_all([p.intersection(parcel) for p in polys if p.intersects(parcel)])
    assert lyr.union_within(parcel).area == pytest.approx(expected.area, rel=1e-9)


def test_districts_within_and_village_boundary(full_set: LayerSet):
    parcel = _box(0, 0, 300, 400)  # zoning splits at dx = 150
    got = full_set.districts_within(parcel)
    assert [code for code, _ in got] == ["R-15", "R-40"] or [code for code, _ in got] == ["R-40", "R-15"]
    assert dict(got) == pytest.approx({"R-40": 60_000.0, "R-15": 60_000.0})
    assert full_set.village_boundary.area == pytest.approx(4000 * 4000)
    assert full_set.districts_within(_box(50_000, 0, 10, 10)) == []


def test_village_boundary_none_when_not_named(tmp_path: Path):
    _write(tmp_path / "ok.geojson", [_box(0, 0, 10, 10)])
    ls = load_manifest(_manifest(tmp_path, "layers:\n  wetlands: {path: ok.geojson}\n"))
    assert ls.village_boundary is None
    assert ls.districts_within(_box(0, 0, 10, 10)) == []
    assert ls.display_gdf("floodplain") is None


def test_display_gdf_is_wgs84_with_string_properties(full_set: LayerSet):
    out = full_set.display_gdf("parcels", simplify_ft=1)
    assert out.crs.to_epsg() == 4326
    minx, miny, maxx, maxy = out.total_bounds
    assert -74.3 < minx < maxx < -74.1 and 41.1 < miny < maxy < 41.2
    for col in out.columns:
        if col != out.geometry.name:
            assert all(isinstance(v, str) for v in out[col]), col
    assert full_set.display_gdf("parcels", simplify_ft=1) is out  # cached


# ---------------------------------------------------------------- cache


def test_cache_by_path_mtime_and_width(tmp_path: Path):
    _write(tmp_path / "ok.geojson", [_box(0, 0, 10, 10)])
    path = _manifest(tmp_path, "layers:\n  wetlands: {path: ok.geojson}\n")
    a = load_manifest(path, default_stream_width_ft=10)
    assert load_manifest(str(path), default_stream_width_ft=10) is a
    assert load_manifest(path, default_stream_width_ft=12) is not a
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert load_manifest(path, default_stream_width_ft=10) is not a


def test_polygonal_part():
    assert polygonal_part(None).is_empty
    assert polygonal_part(LineString([(0, 0), (1, 1)])).is_empty
    assert polygonal_part(box(0, 0, 2, 2)).area == 4


# ---------------------------------------------------------------- the shipped sample


def test_sample_manifest_loads():
    path = REPO / "data" / "sample" / "layers.yaml"
    ls = load_manifest(path)
    assert ls.illustrative is True
    assert ls.notice
    assert ls.roles, "the sample names no layers"
    for role, layer in ls.roles.items():
        assert role in ROLES
        assert layer.gdf.crs.to_epsg() == 2260
        assert bool(layer.gdf.geometry.is_valid.all()), role
    if ls.has("parcels"):
        assert ls.parcels_meta is not None
        assert ls.parcels_meta.id_field in ls.get("parcels").gdf.columns


def test_a_geopackage_layer_named_as_the_file_spells_it_is_read_without_listing_the_file_layers(tmp_path: Path,
                                                                                                monkeypatch):
    """Each listing of a GeoPackage's layers opens it again: a layer named exactly is read without one; a name in
    another case, or a table without geometry, still goes through the listing (matched, or refused naming them)."""
    import pandas as pd  # noqa: PLC0415
    import pyogrio  # noqa: PLC0415

    gpkg = tmp_path / "zones.gpkg"
    _write(gpkg, [_box(0, 0, 100, 100), _box(200, 0, 100, 100)], layer="flood_zones")
    _write(gpkg, [_box(0, 0, 50, 50)], layer="other")
    pyogrio.write_dataframe(pd.DataFrame({"code": ["AE"]}), gpkg, layer="codes", driver="GPKG")
    listed: list[str] = []
    real_list_layers = pyogrio.list_layers

    def counting_list_layers(path, *args, **kwargs):
        listed.append(str(path))
        return real_list_layers(path, *args, **kwargs)

    monkeypatch.setattr(pyogrio, "list_layers", counting_list_layers)

    def load(layer: str, name: str) -> LayerSet:
        return load_manifest(_manifest(tmp_path, f"layers:\n  floodplain: {{path: zones.gpkg, layer: {layer}, "
                                                 "schema: generic, coverage: everywhere}\n", name))

    exact = load("flood_zones", "exact.yaml")
    assert len(exact.get("floodplain")) == 2 and listed == []
    loose = load("FLOOD_ZONES", "loose.yaml")
    assert len(loose.get("floodplain")) == 2 and len(listed) == 1
    with pytest.raises(SloatInputError, match="no map layer named 'codes'.*flood_zones, other"):
        load("codes", "table.yaml")
    assert len(listed) == 2
