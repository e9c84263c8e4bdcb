"""Plans from GIS programs: a GeoPackage (layers by name), GeoJSON (a ``layer`` property on each feature) and
zipped shapefiles (one a layer, named by its file), written here with geopandas on a real sample parcel; and the
upload bounds they share with parcel files."""

from __future__ import annotations

import io
import json
import zipfile

import geopandas as gpd
import pytest
from plan_files import X0, Y0, lot_box
from shapely.geometry import Point, box, mapping

from sloat_core.errors import NoLotsLayerError, SloatInputError
from sloat_core.plan import read_plan
from sloat_core.units import WGS84, WORK_CRS


def _frame(geoms, crs=WORK_CRS, **cols):
    return gpd.GeoDataFrame(cols, geometry=list(geoms), crs=crs)


def _one_sentence(exc) -> str:
    text = str(exc.value)
    assert "\n" not in text and "/tmp" not in text and text.endswith(".")
    return text


# ----------------------------------------------------------------------------------------------
# GeoPackage
# ----------------------------------------------------------------------------------------------


def test_a_geopackage_gives_its_layers_by_name_with_lot_attributes_and_each_layers_own_crs(tmp_path):
    path = tmp_path / "plan.gpkg"
    _frame([lot_box(0), lot_box(1)], LOT=["1A", "1B"]).to_file(path, layer="Lots", driver="GPKG")
    envelopes = _frame([box(X0 + 20, Y0 + 20, X0 + 70, Y0 + 80)]).to_crs(WGS84)  # stored in longitude/latitude
    envelopes.to_file(path, layer="envelopes", driver="GPKG")
    _frame([box(X0 - 500, Y0 - 500, X0 + 900, Y0 + 900)]).to_file(path, layer="parcel", driver="GPKG")
    plan = read_plan(path)
    assert plan.layers == ("Lots", "envelopes", "parcel")
    assert plan.roles == {"lots": "Lots", "envelopes": "envelopes"}
    assert [f.label for f in plan.of("lots")] == ["1A", "1B"]
    env = plan.of("envelopes")[0].geometry
    assert env.bounds == pytest.approx((X0 + 20, Y0 + 20, X0 + 70, Y0 + 80), abs=0.01)  # back in EPSG:2260 feet


def test_a_geopackage_with_no_lots_layer_offers_its_layers(tmp_path):
    path = tmp_path / "plan.gpkg"
    _frame([lot_box(0)]).to_file(path, layer="proposed_parcels", driver="GPKG")
    with pytest.raises(NoLotsLayerError) as exc:
        read_plan(path)
    assert exc.value.layers == ("proposed_parcels",)
    assert len(read_plan(path, roles={"lots": "PROPOSED_PARCELS"}).of("lots")) == 1


# ----------------------------------------------------------------------------------------------
# GeoJSON
# ----------------------------------------------------------------------------------------------


def _geojson(features, crs="EPSG:2260"):
    obj = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": props, "geometry": mapping(geom)} for geom, props in features]}
    if crs:
        obj["crs"] = {"type": "name", "properties": {"name": crs}}
    return json.dumps(obj).encode()


def test_a_geojson_plan_reads_the_layer_and_lot_properties(tmp_path):
    data = _geojson([(lot_box(0), {"layer": "lots", "lot": 4}), (lot_box(1), {"layer": "lots"}),
                     (box(X0, Y0 - 60, X0 + 200, Y0), {"layer": "roads"}),
                     (Point(X0, Y0), {"layer": "lots"})])
    path = tmp_path / "plan.geojson"
    path.write_bytes(data)
    plan = read_plan(path)
    assert [f.label for f in plan.of("lots")] == ["4", "1"]
    assert len(plan.of("roads")) == 1 and plan.layers == ("lots", "roads")
    assert any("point" in w for w in plan.warnings)


def test_a_geojson_plan_without_a_crs_is_longitude_latitude(tmp_path):
    lots = _frame([lot_box(0)]).to_crs(WGS84).geometry
    plan = read_plan(_geojson([(lots.iloc[0], {"layer": "LOTS"})], crs=None), filename="plan.geojson")
    assert plan.of("lots")[0].geometry.area == pytest.approx(15_000.0, rel=1e-4)


def test_a_geojson_plan_in_local_coordinates_is_refused(tmp_path):
    with pytest.raises(SloatInputError) as exc:
        read_plan(_geojson([(box(0, 0, 100, 150), {"layer": "lots"})]), filename="plan.geojson")
    assert "local coordinates" in _one_sentence(exc)


# ----------------------------------------------------------------------------------------------
# Zipped shapefiles
# ----------------------------------------------------------------------------------------------


def _zip_shapefiles(tmp_path, frames: dict, *, drop=()) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, frame in frames.items():
            folder = tmp_path / name
            folder.mkdir()
            frame.to_file(folder / f"{name}.shp")
            for part in folder.iterdir():
                if part.suffix not in drop:
                    zf.write(part, f"plan/{part.name}")
    return buf.getvalue()


def test_zipped_shapefiles_are_layers_named_by_file_and_their_prj_is_honoured(tmp_path):
    lots = _frame([lot_box(0), lot_box(1)], lot=[7, 8]).to_crs("EPSG:32618")  # UTM 18N metres, in the .prj
    disturbance = _frame([box(X0, Y0, X0 + 150, Y0 + 100)])
    data = _zip_shapefiles(tmp_path, {"C-PROP-LOTS": lots, "LOD": disturbance})
    plan = read_plan(data, filename="plan.zip")
    assert plan.layers == ("C-PROP-LOTS", "LOD")
    assert plan.roles == {"lots": "C-PROP-LOTS", "disturbance": "LOD"}
    assert [f.label for f in plan.of("lots")] == ["7", "8"]
    assert plan.of("lots")[0].geometry.bounds == pytest.approx(lot_box(0).bounds, abs=0.01)


def test_a_shapefile_without_prj_near_the_village_is_taken_as_state_plane_and_says_so(tmp_path):
    data = _zip_shapefiles(tmp_path, {"lots": _frame([lot_box(0)])}, drop=(".prj",))
    plan = read_plan(data, filename="plan.zip")
    assert plan.of("lots")[0].geometry.bounds == pytest.approx(lot_box(0).bounds, abs=1e-6)
    assert any("no coordinate system" in w for w in plan.warnings)


@pytest.mark.filterwarnings("ignore:.crs. was not provided")
def test_a_shapefile_without_prj_in_local_coordinates_is_refused(tmp_path):
    data = _zip_shapefiles(tmp_path, {"lots": _frame([box(0, 0, 100, 150)], crs=None)}, drop=(".prj",))
    with pytest.raises(SloatInputError) as exc:
        read_plan(data, filename="plan.zip")
    assert "local coordinates" in _one_sentence(exc)


# ----------------------------------------------------------------------------------------------
# The bounds parcel files have
# ----------------------------------------------------------------------------------------------


def test_a_zip_whose_member_climbs_out_of_the_archive_is_refused(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("../../lots.shp", b"x" * 100)
    with pytest.raises(SloatInputError) as exc:
        read_plan(buf.getvalue(), filename="plan.zip")
    assert "outside the archive" in _one_sentence(exc)


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("lots.shp", bytes(50 * 1024 * 1024))
    with pytest.raises(SloatInputError) as exc:
        read_plan(buf.getvalue(), filename="plan.zip")
    assert "zip bomb" in _one_sentence(exc)


def test_a_geopackage_holding_a_trigger_map_files_never_need_is_refused(tmp_path):
    import sqlite3

    path = tmp_path / "plan.gpkg"
    _frame([lot_box(0)]).to_file(path, layer="lots", driver="GPKG")
    con = sqlite3.connect(path)
    con.execute("CREATE TRIGGER sneaky AFTER INSERT ON lots BEGIN DELETE FROM lots; END")
    con.commit()
    con.close()
    with pytest.raises(SloatInputError) as exc:
        read_plan(path)
    assert "trigger" in _one_sentence(exc)


def test_an_upload_over_the_size_limit_is_refused_before_it_is_read():
    with pytest.raises(SloatInputError) as exc:
        read_plan(b"0\nSECTION\n" + bytes(2000), filename="plan.dxf", max_bytes=1000)
    assert "limit for uploads" in _one_sentence(exc)


def test_a_file_that_is_no_plan_format_is_refused_in_one_sentence(tmp_path):
    with pytest.raises(SloatInputError) as exc:
        read_plan(b"<kml><Placemark/></kml>", filename="plan.kml")
    assert "not recognised" in _one_sentence(exc)
