"""``fetch-official``: from the official sources to a layer set the app and CLI accept as is.

No test reaches the internet. The pipeline runs on recorded service responses kept in
tests/fixtures/official (constructed in each service's wire format by tools/make_official_fixtures.py,
not recorded live; see docs/data.md, "What was run against the live services"), and the HyRiver clients are
checked at their documented interface.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import shutil
import subprocess
import sys

import geopandas as gpd
import numpy as np
import pytest
import rasterio
import shapely
import yaml

from real_data import RECORDED, ROOT, cli_json, fetch_replayed, manifest_entries, run_cli
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.official import (INSTALL_HINT, M_TO_US_FT, SOURCES, LiveServices, RecordedServices,
                                     fetch_official)

SAMPLE = ROOT / "data" / "sample"
HYRIVER = ("pygeohydro", "py3dep", "pynhd", "pygeoogc", "pygeoutils", "pygris")
EXTRA_INSTALLED = all(importlib.util.find_spec(m) is not None for m in HYRIVER)


def run_without_extra(*args: str) -> subprocess.CompletedProcess:
    """The CLI in a Python where the HyRiver packages cannot be imported (as without the extra)."""
    code = ("import sys; sys.modules.update(dict.fromkeys(%r)); from sloat_core.cli import main; "
            "sys.exit(main(%r))" % (HYRIVER, list(args)))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)


@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    out = tmp_path_factory.mktemp("official")
    done = fetch_replayed(out)
    assert done.returncode == 0, done.stderr
    return out, done


def test_help_names_every_source_and_works_without_the_extra():
    done = run_without_extra("fetch-official", "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for s in SOURCES:
        assert s.title in text and s.publisher in text and s.client in text, s.key
    for word in ("--out", "--place", "--buffer-ft", "zoning", "requirements-official.txt"):
        assert word in text


def test_without_the_extra_it_says_in_one_sentence_how_to_install_it(tmp_path):
    done = run_without_extra("fetch-official", "--out", str(tmp_path / "x"))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == [INSTALL_HINT] and "pip install -r requirements-official.txt" in lines[0]
    assert not (tmp_path / "x").exists()


def test_recorded_responses_are_small_files_in_the_wire_format():
    for path in RECORDED.iterdir():
        assert path.stat().st_size < 16_000, path.name
        if path.suffix == ".geojson":
            doc = json.loads(path.read_text(encoding="utf-8"))
            assert doc["type"] == "FeatureCollection" and "crs" not in doc  # ArcGIS f=geojson: EPSG:4326
            assert all(f["type"] == "Feature" and "id" in f for f in doc["features"])
    panels = json.loads((RECORDED / "nfhl_panels.geojson").read_text())
    assert all(isinstance(f["properties"]["EFF_DATE"], int) for f in panels["features"])  # epoch ms, as ArcGIS


def test_the_written_manifest_loads_without_warnings_and_records_each_source(fetched):
    out, done = fetched
    ls = load_manifest(out / "layers.yaml")
    assert ls.warnings == () and not ls.illustrative
    assert set(ls.roles) >= {"village_boundary", "floodplain", "wetlands", "water_bodies", "watercourses"}
    doc = yaml.safe_load((out / "layers.yaml").read_text(encoding="utf-8"))
    for e in manifest_entries(out / "layers.yaml"):
        for key in ("source", "url", "query", "downloaded"):
            assert e.get(key), (key, e["path"])
    assert doc["layers"]["floodplain"]["publisher_version"] == "FIRM panels effective 2014-03-03 (2 panel(s))"
    assert doc["layers"]["floodplain"]["schema"] == "fema_nfhl"
    assert doc["layers"]["floodplain"]["url"].endswith("/NFHL/MapServer/28")
    # tax parcels: Rockland County's are not in the public NYS service, and the output says so
    assert "parcels" not in doc["layers"]
    assert "Rockland County does not share its parcels" in done.stderr
    assert "Zoning is not fetched" in done.stderr


def test_the_dem_is_in_epsg_2260_with_elevations_in_us_survey_feet(fetched):
    out, _ = fetched
    with rasterio.open(out / "dem.tif") as dst:
        assert dst.crs.to_epsg() == 2260 and dst.units[0] == "US survey foot"
        z = dst.read(1, masked=True)
    with rasterio.open(RECORDED / "3dep_dem.tif") as src:
        metres = src.read(1, masked=True)
    # bilinear resampling stays within the source's range; the unit factor is 3937/1200
    assert float(z.min()) >= float(metres.min()) * M_TO_US_FT - 1e-3
    assert float(z.max()) <= float(metres.max()) * M_TO_US_FT + 1e-3
    assert float(np.ma.median(z)) == pytest.approx(float(np.ma.median(metres)) * M_TO_US_FT, rel=0.05)
    assert load_manifest(out / "layers.yaml").dem.z_units == "us_survey_foot"


def test_everything_is_clipped_to_the_village_plus_the_buffer(fetched):
    out, _ = fetched
    village = gpd.read_file(out / "village_boundary.gpkg").union_all()
    area = village.buffer(1000.0 + 0.01)
    for file, layer in (("nfhl.gpkg", "S_FLD_HAZ_AR"), ("nwi.gpkg", None), ("nhd.gpkg", "flowlines"),
                        ("nhd.gpkg", "waterbodies"), ("nysdec_wetlands.gpkg", None)):
        gdf = gpd.read_file(out / file, layer=layer)
        assert gdf.crs.to_epsg() == 2260 and len(gdf)
        assert all(area.covers(g) for g in gdf.geometry), (file, layer)


def test_the_cli_analyzes_on_the_fetched_layers_and_floodplain_off_the_panels_is_unknown(fetched, tmp_path):
    out, _ = fetched
    ls = load_manifest(out / "layers.yaml")
    panels = gpd.read_file(out / "nfhl.gpkg", layer="S_FIRM_PAN").union_all()
    village = ls.village_boundary
    inside = [g for g in ls.get("floodplain").geoms if panels.covers(g)][0]
    lot_in = shapely.box(*inside.representative_point().buffer(80).bounds)
    east = village.bounds[2] - 400
    lot_out = shapely.box(east - 200, village.centroid.y - 100, east, village.centroid.y + 100)
    assert not panels.intersects(lot_out)
    results = []
    for geom, name in ((lot_in, "in.geojson"), (lot_out, "out.geojson")):
        path = tmp_path / name
        gpd.GeoDataFrame(geometry=[geom], crs=2260).to_crs(4326).to_file(path)
        results.append(cli_json("analyze", str(path), "--layers", str(out / "layers.yaml"), "--json"))
    flood_in = {d["constraint"]: d for d in results[0]["deductions"]}["floodplain"]
    flood_out = {d["constraint"]: d for d in results[1]["deductions"]}["floodplain"]
    assert flood_in["status"] == "known" and flood_in["area_sqft"] > 0
    assert flood_out["status"] == "unknown"
    assert {p["id"]: p["required"] for p in results[1]["permits"]}["flood_hazard_review"] is None


def test_supplied_zoning_and_public_parcels_make_a_layer_set_that_screens(tmp_path):
    recorded = tmp_path / "recorded"
    shutil.copytree(RECORDED, recorded)
    parcels = gpd.read_file(SAMPLE / "parcels.gpkg", layer="parcels").head(40)
    parcels = parcels.rename(columns={"ADDRESS": "PARCEL_ADDR"})[["PRINT_KEY", "SBL", "PARCEL_ADDR", "geometry"]]
    doc = json.loads(parcels.to_crs(4326).to_json(drop_id=True))
    doc.pop("crs", None)
    (recorded / "parcels.geojson").write_text(json.dumps(doc), encoding="utf-8")
    out = tmp_path / "out"
    report = fetch_official(out, services=RecordedServices(recorded), zoning=SAMPLE / "zoning.gpkg",
                            zoning_field="ZONE")
    spec = yaml.safe_load(report.manifest.read_text(encoding="utf-8"))["layers"]
    assert spec["parcels"]["id_field"] == "PRINT_KEY" and spec["zoning"]["district_field"] == "ZONE"
    csv_path = tmp_path / "screen.csv"
    done = run_cli("screen", "--layers", str(report.manifest), "--out", str(csv_path), "--quiet")
    assert done.returncode == 0, done.stderr
    import csv
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    assert len(rows) == 40 and all(r["district"] for r in rows)  # from the supplied zoning


def test_a_place_the_census_does_not_have_is_refused_with_close_names(tmp_path):
    with pytest.raises(SloatInputError, match="no place named 'Sloatsburg town'.*Sloatsburg village"):
        fetch_official(tmp_path, place="Sloatsburg town, NY", services=RecordedServices(RECORDED))
    with pytest.raises(SloatInputError, match="not understood"):
        fetch_official(tmp_path, place="Sloatsburg", services=RecordedServices(RECORDED))


def test_the_hyriver_clients_offer_the_calls_the_fetcher_makes():
    """The library boundary: the documented signatures, layer names and service URLs the fetcher relies on.
    Without the extra, the live services refuse with the install sentence instead."""
    if not EXTRA_INSTALLED:
        with pytest.raises(SloatInputError, match="requirements-official.txt"):
            LiveServices()
        return
    import py3dep
    import pygeohydro
    import pygeoogc
    import pygeoutils
    import pygris
    import pynhd

    from sloat_core.gis.official_sources import NFHL_URL, NHD_URL, NWI_URL

    assert list(inspect.signature(pygeohydro.NFHL).parameters)[:2] == ["service", "layer"]
    assert {"geom", "geo_crs"} <= set(inspect.signature(pygeohydro.NFHL.bygeom).parameters)
    for layer in ("flood hazard zones", "firm panels", "nfhl availability"):
        assert f"``{layer}``" in pygeohydro.NFHL.__doc__
    assert list(inspect.signature(pynhd.NHD).parameters)[0] == "layer"
    assert "``flowline_hr``" in pynhd.NHD.__doc__ and "``waterbody_hr``" in pynhd.NHD.__doc__
    assert {"geometry", "resolution", "crs"} <= set(inspect.signature(py3dep.get_dem).parameters)
    assert {"bbox", "crs"} <= set(inspect.signature(py3dep.check_3dep_availability).parameters)
    assert {"state", "year", "cache"} <= set(inspect.signature(pygris.places).parameters)
    urls = pygeoogc.ServiceURL().restful
    assert urls.fema_nfhl == NFHL_URL and urls.nhd == NHD_URL and NWI_URL == urls.fws + "/Wetlands/MapServer"
    # A recorded ArcGIS response read by the client library's own converter gives the same features.
    doc = json.loads((RECORDED / "nwi.geojson").read_text(encoding="utf-8"))
    theirs = pygeoutils.json2geodf([doc], 4326, 4326)
    ours = RecordedServices(RECORDED).arcgis(SOURCES[4].url, None).gdf
    assert len(theirs) == len(ours) == len(doc["features"])
    assert sorted(theirs["WETLAND_TYPE"]) == sorted(ours["WETLAND_TYPE"])
    assert abs(theirs.to_crs(2260).area.sum() - ours.to_crs(2260).area.sum()) < 1e-3  # sq ft
