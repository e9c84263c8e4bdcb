"""Tests for sloat_core.gis.parcels and sloat_core.gis.safe_files and safe_zip.

Good parcels are the 300 ft x 400 ft rectangle (120,000 sq ft) of tests/fixtures/make_fixtures.py in
every supported format; bad inputs must each be refused with one plain sentence.
"""

from __future__ import annotations

import io
import json
import math
import re
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import geopandas as gpd
import pytest
import shapely
from pyproj import Transformer
from shapely.geometry import box, shape

from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import clear_manifest_cache, load_manifest
from sloat_core.gis.parcels import (
    DEFAULT_MAX_ACRES,
    MAX_VERTICES,
    Parcel,
    find_parcels,
    outside_village_warning,
    parcel_by_sbl,
    parcel_from_geojson,
    read_parcel,
    to_wgs84_geojson,
)
from sloat_core.gis.safe_files import MAX_UPLOAD_BYTES, refuse_xml_declarations, upload_limit_mb
from sloat_core.gis.safe_zip import MAX_ZIP_UNCOMPRESSED_BYTES, extract_members, inspect_zip
REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample"
FIX = Path(__file__).resolve().parents[1] / "fixtures"
sys.path.insert(0, str(FIX))

from make_fixtures import (  # noqa: E402 (the fixture builder lives beside the fixtures)
    HOLE_AREA_SQFT,
    RECT_AREA_SQFT,
    X0,
    Y0,
    build_all,
    dxf_text,
    rect_2260,
    zip_bytes,
)

GOOD = FIX / "parcels"
BAD = FIX / "bad_inputs"


def _one_sentence(msg: str) -> None:
    assert msg.endswith("."), msg
    assert "\n" not in msg and "Traceback" not in msg and "Error" not in msg, msg
    assert not re.search(r"[a-z\)]\.\s+[A-Z]", msg), f"more than one sentence: {msg}"
    assert len(msg) < 240, msg


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch):
    """Point tempfile at an empty folder, to check that every temporary file is removed."""
    tdir = tmp_path / "tmp"
    tdir.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tdir))
    return tdir


# ---------------------------------------------------------------- every format, known area


GOOD_FILES = [
    ("rect_2260.geojson", RECT_AREA_SQFT, None),
    ("rect_wgs84.geojson", RECT_AREA_SQFT, None),
    ("rect_wgs84_bare_geometry.geojson", RECT_AREA_SQFT, None),
    ("rect_wgs84_feature.geojson", RECT_AREA_SQFT, None),
    ("hole_2260.geojson", HOLE_AREA_SQFT, "hole (an inner ring) of 10,000 sq ft"),
    ("rect_3d_2260.geojson", RECT_AREA_SQFT, "heights (3-D coordinates)"),
    ("bowtie_2260.geojson", 60_000.0, "crossed itself"),
    ("two_halves_2260.geojson", RECT_AREA_SQFT, "combined into one parcel"),
    ("rect.kml", RECT_AREA_SQFT, None),
    ("rect.gpkg", RECT_AREA_SQFT, None),
    ("multi_layer.gpkg", RECT_AREA_SQFT, "'lot_outline'"),
    ("rect.fgb", RECT_AREA_SQFT, None),
    ("rect.dxf", RECT_AREA_SQFT, "DXF drawing has no coordinate system"),
    ("rect_shp_subfolder.zip", RECT_AREA_SQFT, None),
    ("rect_shp_noprj.zip", RECT_AREA_SQFT, "no .prj file"),
    ("rect_shp_noshx.zip", RECT_AREA_SQFT, "no .shx"),
    ("two_shapefiles.zip", RECT_AREA_SQFT, "b_lot.shp"),
]


@pytest.mark.parametrize("name, area_sqft, warning", GOOD_FILES)
def test_reads_every_format_with_known_area(name, area_sqft, warning, private_tmp):
    parcel = read_parcel(GOOD / name)
    assert isinstance(parcel, Parcel)
    assert parcel.area_sqft == pytest.approx(area_sqft, rel=1e-4)
    assert parcel.geometry.is_valid
    assert parcel.geometry.geom_type in ("Polygon", "MultiPolygon")
    assert not parcel.geometry.has_z
    assert name in parcel.source
    if warning is None:
        assert parcel.warnings == ()
    else:
        assert any(warning in w for w in parcel.warnings), parcel.warnings
        for w in parcel.warnings:
            _one_sentence(w)
    assert list(private_tmp.iterdir()) == []  # temporary files removed


@pytest.mark.parametrize(
    "name", ["rect_wgs84.geojson", "rect.kml", "rect.gpkg", "rect.fgb", "rect.dxf", "rect_shp_subfolder.zip"]
)
def test_format_is_found_from_content_without_a_name(name):
    parcel = read_parcel((GOOD / name).read_bytes())
    assert parcel.area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-4)


def test_rectangle_lies_where_it_was_drawn():
    parcel = read_parcel(GOOD / "rect_wgs84.geojson")
    assert parcel.geometry.bounds == pytest.approx((X0, Y0, X0 + 300, Y0 + 400), abs=0.01)


def test_hole_is_excluded_and_z_dropped():
    holed = read_parcel(GOOD / "hole_2260.geojson")
    assert len(holed.geometry.interiors) == 1
    assert holed.area_sqft == pytest.approx(110_000.0)
    flat = read_parcel(GOOD / "rect_3d_2260.geojson")
    assert not flat.geometry.has_z


def test_kmz_is_read(private_tmp):
    kml = (GOOD / "rect.kml").read_bytes()
    parcel = read_parcel(zip_bytes({"doc.kml": kml}), "lot.kmz")
    assert parcel.area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-4)
    assert list(private_tmp.iterdir()) == []


def test_parcel_from_drawn_geojson():
    obj = json.loads((GOOD / "rect_wgs84_feature.geojson").read_text())
    drawn = parcel_from_geojson(obj)
    assert drawn.area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-4)
    assert drawn.source == "outline drawn on the map"
    assert parcel_from_geojson(json.dumps(obj["geometry"])).area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-4)


def test_to_wgs84_geojson_round_trip():
    rect = rect_2260()
    gj = to_wgs84_geojson(rect)
    assert gj["type"] == "Polygon"
    lon, lat = gj["coordinates"][0][0]
    assert -74.3 < lon < -74.1 and 41.1 < lat < 41.2
    back = parcel_from_geojson(gj)
    assert back.area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-6)


# ---------------------------------------------------------------- refusals


BAD_FILES = [
    ("empty.geojson", "empty"),
    ("empty_collection.geojson", "no shapes"),
    ("point.geojson", "points or lines"),
    ("line.geojson", "points or lines"),
    ("points.kml", "points or lines"),
    ("points_shp.zip", "points or lines"),
    ("nan.geojson", "not numbers"),
    ("infinite.geojson", "not numbers"),
    ("unplaceable.geojson", "must declare its CRS or be exported as longitude/latitude"),
    ("swapped.geojson", "look swapped"),
    ("far_away.geojson", "miles from Sloatsburg"),
    ("too_big_2260.geojson", "acres"),
    ("garbage.bin", "not recognised"),
    ("not_a_zip.zip", "not a valid zip"),
    ("corrupt.gpkg", "could not be read"),
    ("broken.geojson", "not valid GeoJSON"),
    ("traversal.zip", "outside the archive"),
    ("absolute.zip", "outside the archive"),
    ("no_shapefile.zip", "no shapefile"),
    ("xxe.kml", "DOCTYPE or ENTITY"),
    ("local_coords.dxf", "cannot be placed"),
    ("open_polyline.dxf", "no closed polyline"),
]


@pytest.mark.parametrize("name, needle", BAD_FILES)
def test_bad_inputs_are_refused_with_one_sentence(name, needle, private_tmp):
    with pytest.raises(SloatInputError) as err:
        read_parcel(BAD / name)
    msg = str(err.value)
    assert needle in msg, msg
    _one_sentence(msg)
    assert list(private_tmp.iterdir()) == []


def test_a_geojson_without_crs_in_state_plane_feet_is_refused_naming_the_file(private_tmp):
    """RFC 7946: a GeoJSON without a crs member is longitude/latitude; numbers in feet are refused, not guessed."""
    with pytest.raises(SloatInputError) as err:
        read_parcel(BAD / "rect_nocrs_2260.geojson")
    msg = str(err.value)
    _one_sentence(msg)
    assert msg.startswith("The file rect_nocrs_2260.geojson has coordinates that cannot be longitude/latitude"), msg
    assert "RFC 7946" in msg and "must declare its CRS or be exported as longitude/latitude" in msg, msg
    assert list(private_tmp.iterdir()) == []
    # the same outline with its crs member, or in degrees, is read
    assert read_parcel(GOOD / "rect_2260.geojson").area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-4)
    assert read_parcel(GOOD / "rect_wgs84.geojson").area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-4)


def test_missing_path_and_wrong_type():
    with pytest.raises(SloatInputError, match="not found"):
        read_parcel(FIX / "no-such-file.geojson")
    with pytest.raises(SloatInputError):
        read_parcel(12345)  # type: ignore[arg-type]


def test_loose_shapefile_part_asks_for_a_zip():
    with pytest.raises(SloatInputError, match=r"\.zip"):
        read_parcel(b"\x00\x00\x27\x0a" + b"\x00" * 96, "lot.shp")


def test_shapefile_without_dbf_is_refused():
    with zipfile.ZipFile(GOOD / "rect_shp_noprj.zip") as zf:
        members = {n: zf.read(n) for n in zf.namelist() if not n.endswith(".dbf")}
    with pytest.raises(SloatInputError, match=r"\.dbf"):
        read_parcel(zip_bytes(members), "lot.zip")


def test_swapped_detected_even_with_a_declared_crs():
    ring = [[41.15, -74.19], [41.15, -74.18], [41.16, -74.18], [41.16, -74.19], [41.15, -74.19]]
    obj = {"type": "Polygon", "coordinates": [ring], "crs": {"type": "name", "properties": {"name": "EPSG:4326"}}}
    with pytest.raises(SloatInputError, match="swapped"):
        parcel_from_geojson(obj)


def test_unknown_geojson_crs_is_refused():
    obj = {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]],
           "crs": {"type": "name", "properties": {"name": "EPSG:999999"}}}
    with pytest.raises(SloatInputError, match="not recognised"):
        parcel_from_geojson(obj)


# ---------------------------------------------------------------- limits, on both sides


def test_upload_size_limit_checked_first():
    data = (GOOD / "rect_wgs84.geojson").read_bytes()
    assert read_parcel(data, "a.geojson", max_bytes=len(data)).area_sqft > 0
    with pytest.raises(SloatInputError, match="MB limit"):
        read_parcel(data, "a.geojson", max_bytes=len(data) - 1)
    with pytest.raises(SloatInputError, match="MB limit"):  # size is checked before the (bad) content
        read_parcel(b"\x01" * 100, "x.bin", max_bytes=99)
    assert MAX_UPLOAD_BYTES == upload_limit_mb() * 1024 * 1024  # Streamlit's MiB, from .streamlit/config.toml


def test_area_limit_both_sides():
    acres = RECT_AREA_SQFT / 43_560  # 2.755 acres
    assert read_parcel(GOOD / "rect_2260.geojson", max_acres=acres * 1.001).area_sqft > 0
    with pytest.raises(SloatInputError, match="acres allowed"):
        read_parcel(GOOD / "rect_2260.geojson", max_acres=acres * 0.999)
    assert DEFAULT_MAX_ACRES == 5000


def test_vertex_limit_both_sides():
    # the rectangle has 5 coordinates (the ring is closed)
    assert read_parcel(GOOD / "rect_2260.geojson", max_vertices=5).area_sqft > 0
    with pytest.raises(SloatInputError, match="vertices"):
        read_parcel(GOOD / "rect_2260.geojson", max_vertices=4)
    with pytest.raises(SloatInputError, match="vertices"):
        read_parcel(GOOD / "rect.gpkg", max_vertices=4)


def test_huge_vertex_count_refused_quickly():
    n = MAX_VERTICES + 1
    ring = [[-74.19 + 0.001 * math.cos(2 * math.pi * i / n), 41.15 + 0.001 * math.sin(2 * math.pi * i / n)]
            for i in range(n)]
    ring.append(ring[0])
    data = json.dumps({"type": "Polygon", "coordinates": [ring]}).encode()
    t = time.perf_counter()
    with pytest.raises(SloatInputError, match="vertices"):
        read_parcel(data, "big.geojson")
    assert time.perf_counter() - t < 30.0  # every bad input is answered within 30 s


# ---------------------------------------------------------------- hostile archives and XML


def test_zip_bomb_rejected_fast_without_extracting(private_tmp):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("lot.shp", "w") as dst:
            chunk = b"\x00" * (1 << 20)
            for _ in range(60):  # 60 MB of zeros, ~60 KB compressed
                dst.write(chunk)
        zf.writestr("lot.dbf", b"")
    data = buf.getvalue()
    assert len(data) < 1_000_000
    t = time.perf_counter()
    with pytest.raises(SloatInputError, match="zip bomb"):
        read_parcel(data, "bomb.zip")
    assert time.perf_counter() - t < 30.0  # answered within 30 s (it is refused before extracting)
    assert list(private_tmp.iterdir()) == []


def test_zip_total_size_limit_both_sides():
    import os

    payload = os.urandom(2_000_000)  # does not compress: ratio ~1
    data = zip_bytes({"a.bin": payload})
    assert len(inspect_zip(data, max_total_bytes=2_000_000)) == 1
    with pytest.raises(SloatInputError, match="expand"):
        inspect_zip(data, max_total_bytes=1_999_999)
    assert MAX_ZIP_UNCOMPRESSED_BYTES == 200 * 1024 * 1024


def test_zip_that_lies_about_its_size_is_stopped_while_extracting(tmp_path: Path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("lot.shp", b"\x00" * 500_000)
        zf.filelist[0].file_size = 1000  # the central directory now under-declares the size
    data = buf.getvalue()
    inspect_zip(data)  # the declared sizes look harmless...
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(SloatInputError):
        extract_members(data, {"lot.shp": "lot.shp"}, out)  # ...but extraction stops at the lie
    assert not (out / "lot.shp").exists() or (out / "lot.shp").stat().st_size <= 1000


@pytest.mark.parametrize("member", ["../evil.shp", "..\\evil.shp", "a/../../evil.shp", "/etc/evil.shp", "C:/evil.shp"])
def test_zip_member_paths_that_climb_out_are_refused(member):
    with pytest.raises(SloatInputError, match="outside the archive"):
        inspect_zip(zip_bytes({member: b"x"}))


def test_extract_refuses_output_names_with_folders(tmp_path: Path):
    data = zip_bytes({"a.shp": b"x"})
    with pytest.raises(SloatInputError):
        extract_members(data, {"a.shp": "../a.shp"}, tmp_path)


def test_kml_external_entity_never_reads_local_file(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    xxe = (BAD / "xxe.kml").read_text().replace("file:///etc/passwd", secret.as_uri())
    with pytest.raises(SloatInputError) as err:
        read_parcel(xxe.encode(), "lot.kml")
    assert "TOP-SECRET-VALUE" not in str(err.value)
    with pytest.raises(SloatInputError, match="DOCTYPE"):
        read_parcel(xxe.encode("utf-16"), "lot.kml")
    with pytest.raises(SloatInputError, match="DOCTYPE"):
        read_parcel(zip_bytes({"doc.kml": xxe.encode()}), "lot.kmz")
    refuse_xml_declarations(b"<kml><Document/></kml>")  # plain KML passes


def test_dxf_text_without_crs_but_far_numbers_is_refused():
    far = [(0.0, 0.0), (300.0, 0.0), (300.0, 400.0), (0.0, 400.0), (0.0, 0.0)]
    with pytest.raises(SloatInputError, match="DXF"):
        read_parcel(dxf_text([far]).encode(), "site.dxf")


# ---------------------------------------------------------------- tax parcels and the village boundary


@pytest.fixture
def tax_set(tmp_path: Path):
    clear_manifest_cache()
    gpd.GeoDataFrame(
        {
            "SBL": ["156.18-1-23", "156.18-1-24", "156.18-2-5", "157.5-1-1"],
            "ZONE": ["R-40", "R-15", "R-15", "MU-1"],
            "ADDRESS": ["1 Brook Rd", "3 Brook Rd", "10 Orange Tpke", 42],
        },
        geometry=[rect_2260(0, 0), rect_2260(300, 0), rect_2260(0, 400), rect_2260(5000, 0)],
        crs="EPSG:2260",
    ).to_file(tmp_path / "parcels.gpkg", layer="parcels")
    gpd.GeoDataFrame({"n": [1]}, geometry=[box(X0 - 100, Y0 - 100, X0 + 450, Y0 + 1000)], crs="EPSG:2260").to_file(
        tmp_path / "village.geojson"
    )
    (tmp_path / "layers.yaml").write_text(
        "name: Tax test\nlayers:\n"
        "  parcels: {path: parcels.gpkg, layer: parcels, id_field: SBL, district_field: ZONE, address_field: ADDRESS}\n"
        "  village_boundary: {path: village.geojson}\n"
    )
    yield load_manifest(tmp_path / "layers.yaml")
    clear_manifest_cache()


def test_parcel_by_sbl_ignores_case_and_spaces(tax_set):
    parcel = parcel_by_sbl(tax_set, " 156.18 - 1 - 23 ")
    assert parcel.sbl == "156.18-1-23"
    assert parcel.district == "R-40" and parcel.address == "1 Brook Rd"
    assert parcel.area_sqft == pytest.approx(RECT_AREA_SQFT)
    assert "156.18-1-23" in parcel.source
    with pytest.raises(SloatInputError, match="No tax parcel has SBL 999.1-1-1"):
        parcel_by_sbl(tax_set, "999.1-1-1")
    with pytest.raises(SloatInputError):
        parcel_by_sbl(tax_set, "156.18-1-2")  # a prefix is not an exact match


def test_property_values_come_back_as_text(tax_set):
    parcel = parcel_by_sbl(tax_set, "157.5-1-1")
    assert parcel.address == "42" and isinstance(parcel.address, str)


def test_find_parcels_by_sbl_prefix_or_address(tax_set):
    by_sbl = find_parcels(tax_set, "156.18-1")
    assert [r["sbl"] for r in by_sbl] == ["156.18-1-23", "156.18-1-24"]
    assert by_sbl[0] == {"sbl": "156.18-1-23", "address": "1 Brook Rd", "district": "R-40"}
    assert [r["sbl"] for r in find_parcels(tax_set, "brook")] == ["156.18-1-23", "156.18-1-24"]
    assert [r["sbl"] for r in find_parcels(tax_set, "156")] == ["156.18-1-23", "156.18-1-24", "156.18-2-5"]
    assert len(find_parcels(tax_set, "156", limit=2)) == 2
    assert find_parcels(tax_set, "   ") == []
    assert find_parcels(tax_set, "no such road") == []


def test_outside_village_warning(tax_set):
    inside = parcel_by_sbl(tax_set, "156.18-1-23")
    assert outside_village_warning(inside, tax_set) is None
    partly = parcel_by_sbl(tax_set, "156.18-1-24")  # x from 300 to 600; boundary ends at 450
    msg = outside_village_warning(partly, tax_set)
    assert msg is not None and "60,000 sq ft (50%)" in msg
    _one_sentence(msg)
    away = parcel_by_sbl(tax_set, "157.5-1-1")
    msg = outside_village_warning(away, tax_set)
    assert msg is not None and msg.startswith("This parcel lies outside")


def test_no_parcel_layer(tmp_path: Path):
    clear_manifest_cache()
    gpd.GeoDataFrame(geometry=[rect_2260()], crs="EPSG:2260").to_file(tmp_path / "w.geojson")
    (tmp_path / "m.yaml").write_text("layers:\n  wetlands: {path: w.geojson}\n")
    ls = load_manifest(tmp_path / "m.yaml")
    assert find_parcels(ls, "156") == []
    with pytest.raises(SloatInputError, match="no tax-parcel layer"):
        parcel_by_sbl(ls, "156.18-1-23")
    assert outside_village_warning(read_parcel(GOOD / "rect_2260.geojson"), ls) is None


def test_fixtures_match_generator(tmp_path: Path):
    """The committed fixtures are what make_fixtures.py builds (same good-parcel areas)."""
    build_all(tmp_path)
    for name, area, _ in GOOD_FILES:
        fresh = read_parcel(tmp_path / "parcels" / name)
        assert fresh.area_sqft == pytest.approx(area, rel=1e-4), name
    t = Transformer.from_crs("EPSG:2260", "EPSG:4326", always_xy=True)
    committed = shape(json.loads((GOOD / "rect_wgs84_bare_geometry.geojson").read_text()))
    assert committed.bounds[0] == pytest.approx(t.transform(X0, Y0)[0], abs=1e-4)
    assert shapely.get_num_coordinates(committed) == 5


def test_zip_bomb_of_many_small_members_rejected_by_total_ratio():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(40):
            zf.writestr(f"part{i}.dbf", b"\x00" * 900_000)  # each under 1 MB, all together 36 MB
    with pytest.raises(SloatInputError, match="zip bomb"):
        inspect_zip(buf.getvalue())


def test_extraction_byte_limit_both_sides(tmp_path: Path):
    import os

    data = zip_bytes({"a.bin": os.urandom(100_000)})
    (tmp_path / "ok").mkdir()
    (tmp_path / "no").mkdir()
    assert extract_members(data, {"a.bin": "a.bin"}, tmp_path / "ok", max_total_bytes=100_000)
    with pytest.raises(SloatInputError):
        extract_members(data, {"a.bin": "a.bin"}, tmp_path / "no", max_total_bytes=99_999)


def test_text_given_as_str_is_content_not_a_path():
    text = (GOOD / "rect_wgs84.geojson").read_text()
    assert read_parcel(text, "drawn.geojson").area_sqft == pytest.approx(RECT_AREA_SQFT, rel=1e-4)


# ---------------------------------------------------------------- the shipped sample


def test_sample_demo_parcels_read_and_lie_inside_the_village():
    clear_manifest_cache()
    layerset = load_manifest(SAMPLE / "layers.yaml")
    demo = SAMPLE / "demo_parcels"
    files = sorted(p for p in demo.iterdir() if p.suffix.lower() in {".geojson", ".kml", ".zip", ".gpkg", ".dxf"})
    assert len(files) >= 5
    areas = {}
    for path in files:
        parcel = read_parcel(path)
        assert parcel.area_sqft > 0 and parcel.geometry.is_valid, path.name
        assert outside_village_warning(parcel, layerset) is None, path.name
        areas[path.name] = parcel.area_sqft
    dxf = [n for n in areas if n.endswith(".dxf")]
    for name in dxf:  # a DXF copy of a GeoJSON demo parcel has the same area
        twin = name[:-4] + ".geojson"
        if twin in areas:
            assert areas[name] == pytest.approx(areas[twin], rel=1e-4)
    first = find_parcels(layerset, "1", limit=1)
    assert first and parcel_by_sbl(layerset, first[0]["sbl"]).area_sqft > 0


def test_multipolygon_parts_kept_without_warning():
    a, b = rect_2260(0, 0, 100, 100), rect_2260(500, 0, 100, 200)
    obj = {
        "type": "MultiPolygon",
        "coordinates": [[list(map(list, a.exterior.coords))], [list(map(list, b.exterior.coords))]],
        "crs": {"type": "name", "properties": {"name": "EPSG:2260"}},
    }
    parcel = parcel_from_geojson(obj)
    assert parcel.geometry.geom_type == "MultiPolygon"
    assert parcel.area_sqft == pytest.approx(10_000 + 20_000)
    assert parcel.warnings == ()
