"""The NYSDEC wetland map by the state regime in force on the analysis date (data/settings/state_wetlands.yaml).

Claims: before 2025 and again from 2026-04-08 (the 2025 regulations annulled by a court) the map is a
regulatory screen -- work in a mapped wetland or its 100-ft adjacent area reads "DEC permit likely; request a
jurisdictional determination"; from 2025-01-01 to 2026-04-07 it was informational. Each boundary day is tested
on both sides. The regime used is stated in the output with its status and citation, the post-ruling regime is
"to confirm", and the map is never a deduction. Without the map the answer is unknown.
"""

from __future__ import annotations

import datetime as dt

import geopandas as gpd
import pytest
import shapely
import yaml

from real_data import ROOT, cli_json, run_cli
from sloat_core.engine.state_wetlands import STATE_WETLANDS_PATH, load_state_wetlands, regime_on
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest

RECORDED = ROOT / "tests" / "fixtures" / "official"


@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    out = tmp_path_factory.mktemp("official")
    done = run_cli("fetch-official", "--out", str(out), "--replay", str(RECORDED), "--quiet")
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("day, regime, status", [
    ("2024-12-31", "mapped_1975", "regulatory"),
    ("2025-01-01", "rules_2025", "informational"),
    ("2026-04-07", "rules_2025", "informational"),
    ("2026-04-08", "mapped_after_annulment", "regulatory"),
])
def test_the_regime_in_force_follows_the_dates_on_both_sides_of_each_boundary(day, regime, status):
    r = regime_on(dt.date.fromisoformat(day))
    assert (r.id, r.map_status) == (regime, status)
    assert r.citation and r.status


def _lots(tmp_path, fetched):
    ls = load_manifest(fetched / "layers.yaml")
    dec = ls.informational["nysdec_wetlands"]
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


def test_work_in_a_mapped_wetland_is_a_dec_screen_after_the_ruling_and_informational_before(tmp_path, fetched):
    paths, _ = _lots(tmp_path, fetched)
    m = str(fetched / "layers.yaml")
    after = cli_json("analyze", str(paths["on"]), "--layers", m, "--as-of", "2026-06-01", "--json")["state_wetlands"]
    during = cli_json("analyze", str(paths["on"]), "--layers", m, "--as-of", "2025-06-01", "--json")["state_wetlands"]
    before = cli_json("analyze", str(paths["on"]), "--layers", m, "--as-of", "2024-06-01", "--json")["state_wetlands"]
    assert after["answer"] == before["answer"] == "DEC permit likely; request a jurisdictional determination"
    assert after["in_mapped_wetland_or_adjacent_area"] is True and after["deduction"] is False
    assert after["regime"]["id"] == "mapped_after_annulment" and after["regime"]["to_confirm"] is True
    assert "annulled" in after["regime"]["status"] and "904424-25" in after["regime"]["citation"]
    assert "to confirm" in after["stated"] and "in force since 2026-04-08" in after["stated"]
    assert during["regime"]["map_status"] == "informational" and "informational" in during["answer"]
    assert "Part 664" in during["regime"]["citation"]


def test_the_adjacent_area_counts_and_land_far_from_any_mapped_wetland_does_not(tmp_path, fetched):
    paths, _ = _lots(tmp_path, fetched)
    m = str(fetched / "layers.yaml")
    if "near" in paths:
        near = cli_json("analyze", str(paths["near"]), "--layers", m, "--as-of", "2026-06-01", "--json")
        assert near["state_wetlands"]["in_mapped_wetland_or_adjacent_area"] is True
        assert "100-ft adjacent area" in near["state_wetlands"]["reason"]
    far = cli_json("analyze", str(paths["far"]), "--layers", m, "--as-of", "2026-06-01", "--json")["state_wetlands"]
    assert far["in_mapped_wetland_or_adjacent_area"] is False
    assert "DEC permit likely" not in far["answer"]


def test_without_the_map_the_state_wetland_answer_is_unknown(tmp_path):
    sample = ROOT / "data" / "sample" / "layers.yaml"
    out = cli_json("analyze", "sbl:155.06-1-1", "--layers", str(sample), "--as-of", "2026-06-01", "--json")
    sw = out["state_wetlands"]
    assert sw["in_mapped_wetland_or_adjacent_area"] is None and sw["answer"].startswith("Unknown")


def test_the_regimes_are_checked_data(tmp_path):
    facts = load_state_wetlands()
    assert facts.adjacent_area_ft == 100 and "663.2" in facts.adjacent_area_citation
    doc = yaml.safe_load(STATE_WETLANDS_PATH.read_text(encoding="utf-8"))
    doc["regimes"][1]["until"] = "2026-04-01"  # a gap before the next regime
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(doc), encoding="utf-8")
    with pytest.raises(SloatInputError, match="must start the day rules_2025 ends"):
        load_state_wetlands(bad)
    doc["regimes"][1]["until"] = "2026-04-08"
    doc["regimes"][2]["map_status"] = "advisory"
    bad.write_text(yaml.safe_dump(doc), encoding="utf-8")
    with pytest.raises(SloatInputError, match="map_status must be regulatory or informational"):
        load_state_wetlands(bad)


def test_the_fetched_manifest_no_longer_calls_the_dec_map_informational(fetched):
    doc = yaml.safe_load((fetched / "layers.yaml").read_text(encoding="utf-8"))
    status = doc["informational"]["nysdec_wetlands"]["status"]
    assert "regime in force on the analysis date" in status and "not a deduction" not in status.lower().replace(
        "never a deduction", "")


def test_a_dec_map_without_coverage_is_assumed_to_map_its_extent_and_says_so(tmp_path):
    c = load_manifest(ROOT / "data" / "sample" / "layers.yaml").village_boundary.centroid
    gpd.GeoDataFrame({"WETID": ["RC-1"]}, geometry=[shapely.box(c.x, c.y, c.x + 300, c.y + 300)],
                     crs=2260).to_file(tmp_path / "dec.gpkg")
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump({"name": "t", "layers": {
        "village_boundary": {"path": str(ROOT / "data" / "sample" / "village_boundary.geojson")}},
        "informational": {"nysdec_wetlands": {"path": "dec.gpkg"}}}), encoding="utf-8")
    ls = load_manifest(tmp_path / "layers.yaml")
    assert any("nysdec_wetlands" in w and "coverage is assumed" in w for w in ls.warnings)
    assert ls.informational_coverage["nysdec_wetlands"] is not None
