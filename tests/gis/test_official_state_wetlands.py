"""The fetched NYSDEC map (the layer role ``nysdec_wetlands``) through ``analyze``: the one state wetland screen.

The screen's claims by date (both sides of 2025-01-01 and 2026-04-08, the 100-ft adjacent area, no map ->
unknown, never a deduction) are tested once, in tests/approvals/test_ecl24_cwa404_wetland_screens.py. Here: the layer
fetch-official writes is the map that screen reads, ``analyze``'s ``state_wetlands`` is the approvals' answer
itself, and the fetched manifest states the layer's status by date.
"""

from __future__ import annotations


import geopandas as gpd
import pytest
import shapely
import yaml

from real_data import ROOT, cli_json, fetch_replayed
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.official_sources import NYSDEC_MAP_STATUS_INFORMATIONAL



@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    out = tmp_path_factory.mktemp("official")
    done = fetch_replayed(out)
    assert done.returncode == 0, done.stderr
    return out


def _lots(tmp_path, fetched):
    ls = load_manifest(fetched / "layers.yaml")
    dec = ls.get("nysdec_wetlands")
    w = dec.geoms[0]
    c = w.representative_point()
    on = shapely.box(c.x - 40, c.y - 40, c.x + 40, c.y + 40)
    # 60 ft from the wetland's edge: within the 100-ft adjacent area, not in the wetland
    minx, miny, maxx, maxy = w.bounds
    near = shapely.box(maxx + 60, c.y - 30, maxx + 120, c.y + 30)
    near = near if not near.intersects(shapely.union_all(list(dec.geoms))) else None
    far = shapely.box(maxx + 3000, c.y, maxx + 3100, c.y + 100)
    paths = {}
    for name, g in (("on", on), ("near", near), ("far", far)):
        if g is None:
            continue
        p = tmp_path / f"{name}.geojson"
        gpd.GeoDataFrame(geometry=[g], crs=2260).to_crs(4326).to_file(p)
        paths[name] = p
    return paths, dec


def test_analyze_reads_the_fetched_dec_map_with_the_one_screen(tmp_path, fetched):
    paths, _ = _lots(tmp_path, fetched)
    m = str(fetched / "layers.yaml")
    out = cli_json("analyze", str(paths["on"]), "--layers", m, "--as-of", "2026-06-01", "--json")
    sw = out["state_wetlands"]
    assert sw == out["approvals_detail"]["wetland_screens"]["state"]  # one answer, in both places
    # the fetched map is DEC's informational mapping (each feature's MAP_STATUS says so) and its wetlands here
    # are under 12.4 acres: under the regulatory regime of 2026-04-08, DEC jurisdiction possible, not likely
    assert set(load_manifest(m).get("nysdec_wetlands").gdf["MAP_STATUS"]) == {NYSDEC_MAP_STATUS_INFORMATIONAL}
    assert sw["answer"] == "possible" and sw["message"].startswith("NYSDEC jurisdiction possible")
    assert "informational mapping (not the regulatory map)" in sw["reason"]
    assert sw["regime"]["effective"] == "2026-04-08" and "904424-25" in sw["regime"]["citation"]
    assert sw["sources"]
    far = cli_json("analyze", str(paths["far"]), "--layers", m, "--as-of", "2026-06-01", "--json")["state_wetlands"]
    assert far["answer"] == "not_indicated"


def test_the_fetched_manifest_gives_the_dec_map_as_its_role_and_states_its_status_by_date(fetched):
    text = (fetched / "layers.yaml").read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    assert "informational" not in doc
    entry = doc["layers"]["nysdec_wetlands"]
    assert entry["coverage"] == {"path": "fetch_area.gpkg"} and entry["source"].startswith("NYSDEC")
    assert "regime in force on the analysis date" in text and "never a deduction" in text


def test_an_informational_dec_entry_is_refused_with_how_to_move_it(tmp_path):
    """One way in for the NYSDEC map: the role. The older ``informational:`` entry is refused in one sentence
    that says what to do (no server path, no traceback)."""
    c = load_manifest(ROOT / "data" / "sample" / "layers.yaml").village_boundary.centroid
    gpd.GeoDataFrame({"WETID": ["RC-1"]}, geometry=[shapely.box(c.x, c.y, c.x + 300, c.y + 300)],
                     crs=2260).to_file(tmp_path / "dec.gpkg")
    boundary = {"path": str(ROOT / "data" / "sample" / "village_boundary.geojson")}
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump({"name": "t", "layers": {"village_boundary": boundary},
        "informational": {"nysdec_wetlands": {"path": "dec.gpkg"}}}), encoding="utf-8")
    with pytest.raises(SloatInputError) as err:
        load_manifest(tmp_path / "layers.yaml")
    msg = str(err.value)
    assert "move 'nysdec_wetlands' from 'informational:' to 'layers:'" in msg and str(tmp_path) not in msg
    # the upgrade it asks for loads, and the screen reads the map
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump({"name": "t", "layers": {
        "village_boundary": boundary, "nysdec_wetlands": {"path": "dec.gpkg"}}}), encoding="utf-8")
    ls = load_manifest(tmp_path / "layers.yaml")
    assert len(ls.get("nysdec_wetlands").geoms) == 1
