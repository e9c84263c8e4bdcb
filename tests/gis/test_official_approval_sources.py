"""fetch-official and the approvals around Article IX: the sources it fetches for them, and the ones it says the
office must supply.

Recorded answers in the services' wire format (tests/fixtures/official, constructed, see recorded.json's note):
``nysdot_ris.geojson`` is an ArcGIS REST ``query?f=geojson`` answer of NYSDOT's Roadway Inventory System with its
JURISDICTION codes ("01 NYSDOT", "02 County", "31 NYS Thruway", "03 Town", "04 City or village").
"""

from __future__ import annotations

import json
import shutil

import pytest
import shapely
import yaml

from real_data import RECORDED, ROOT, fetch_replayed, manifest_entries, run_cli
from sloat_core.approvals.county_referral import county_referral
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.official.pipeline import state_county_roads
from sloat_core.gis.official_sources import RIS_STATE_COUNTY_CODES, SOURCES, SUPPLIED
from law_day import LAW_DAY


def _fetch(tmp_path, folder=RECORDED):
    out = tmp_path / "out"
    return out, fetch_replayed(out, folder)


@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    out, done = _fetch(tmp_path_factory.mktemp("approval_sources"))
    assert done.returncode == 0, done.stderr
    return out, done


def test_state_and_county_roads_come_from_the_road_inventory_kept_by_jurisdiction(fetched):
    """GML § 239-m(3)(b)(iii) names state and county roads: NYSDOT (01), county (02), state parks (11), other
    state agencies (21) and the Thruway (31) are kept; town (03) and village (04) roads are not triggers."""
    out, _ = fetched
    ls = load_manifest(out / "layers.yaml")
    assert ls.warnings == ()
    roads = ls.get("state_county_roads")
    kept = sorted(roads.gdf["JURISDICTION"])
    assert kept == ["01 NYSDOT", "02 County", "31 NYS Thruway"]
    assert set(RIS_STATE_COUNTY_CODES) == {"01", "02", "11", "21", "31"}


def test_every_fetched_layer_records_its_source_url_service_type_fields_and_date(fetched):
    out, _ = fetched
    doc = yaml.safe_load((out / "layers.yaml").read_text(encoding="utf-8"))
    for e in manifest_entries(out / "layers.yaml"):
        for key in ("source", "url", "query", "downloaded", "service_type", "fields_used"):
            assert e.get(key), (key, e["path"])
    roads = doc["layers"]["state_county_roads"]
    assert roads["url"].startswith("https://gis.dot.ny.gov/") and "JURISDICTION" in roads["fields_used"]
    dec = doc["layers"]["nysdec_wetlands"]
    assert "Informational" in dec["source"] and "not the regulatory map" in dec["source"]


def test_what_no_public_service_publishes_is_named_with_how_to_supply_it(fetched):
    out, done = fetched
    header = (out / "layers.yaml").read_text(encoding="utf-8")
    for sup in SUPPLIED:
        assert f"# TO SUPPLY: {sup.role}:" in header
        assert f"Note: {sup.role}: " in done.stderr and "supply it in layers.yaml as" in done.stderr
    assert {s.role for s in SUPPLIED} == {"parkland", "public_institutions", "ag_district_farms", "nysdec_wetlands"}
    assert "centre lines, not rights-of-way" in done.stderr
    helped = run_cli("fetch-official", "--help")
    assert "NYSDOT Roadway Inventory System" in helped.stdout
    for sup in SUPPLIED:
        assert f"{sup.role}: " in helped.stdout


def test_a_road_answer_without_jurisdiction_leaves_the_roads_unknown_and_says_why(tmp_path):
    folder = tmp_path / "recorded"
    shutil.copytree(RECORDED, folder, ignore=shutil.ignore_patterns("published"))
    doc = json.loads((folder / "nysdot_ris.geojson").read_text(encoding="utf-8"))
    for f in doc["features"]:
        f["properties"].pop("JURISDICTION")
    (folder / "nysdot_ris.geojson").write_text(json.dumps(doc), encoding="utf-8")
    out, done = _fetch(tmp_path, folder)
    assert done.returncode == 3
    assert "Missing: state_county_roads: The NYSDOT road inventory answered without a JURISDICTION field" in done.stderr
    assert "Traceback" not in done.stderr
    ls = load_manifest(out / "layers.yaml")
    assert ls.get("state_county_roads") is None
    c = ls.village_boundary.centroid
    r = county_referral(shapely.box(c.x, c.y, c.x + 100, c.y + 100), ls, application_type="site_plan", on=LAW_DAY)
    assert {a.trigger: a.answer for a in r.triggers}["state_county_road"] == "unknown"


@pytest.mark.parametrize("value, kept", [("01 NYSDOT", True), ("02 County", True), (31, True), ("NYSDOT", True),
                                         ("Thruway Authority", True), ("03 Town", False),
                                         ("04 City or village", False), (None, False), ("26 Private", False)])
def test_each_jurisdiction_code_is_a_state_or_county_road_or_not(value, kept):
    import geopandas as gpd

    gdf = gpd.GeoDataFrame({"JURISDICTION": [value]}, geometry=[shapely.Point(0, 0)], crs=2260)
    assert len(state_county_roads(gdf)) == (1 if kept else 0)


def test_the_road_inventory_is_one_of_the_sources():
    s = next(s for s in SOURCES if s.key == "nysdot_ris")
    assert s.role.startswith("state_county_roads") and s.service and s.fields


def test_the_sample_roads_are_in_the_inventory_schema_and_all_state_or_county():
    """The illustrative sample's state_county_roads carry JURISDICTION as the inventory codes it, so the same
    filter keeps every one of them."""
    import geopandas as gpd

    sample = gpd.read_file(ROOT / "data" / "sample" / "state_county_roads.geojson")
    assert sorted(sample["JURISDICTION"]) == ["01 NYSDOT", "02 County", "31 NYS Thruway"]
    assert len(state_county_roads(sample)) == len(sample)
