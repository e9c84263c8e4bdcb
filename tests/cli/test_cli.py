"""The CLI contract: `python -m sloat_core analyze | timeline | screen | law`.

Most cases call the command's entry point in this process (tests/real_data.py run_cli: the same ``main(argv)``, the same
exit code and output, without a second of imports each); the JSON contract, the law lookup and the missing
timeline file run as a real ``python -m sloat_core`` subprocess, for what only a process shows (it starts, it
prints nothing else on its stderr)."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pytest

from engine_world import make_world, sq
from real_data import run_cli
from sloat_core.units import WORK_CRS

ROOT = Path(__file__).resolve().parents[2]


def run(*args, cwd=ROOT):
    """The command, in this process."""
    return run_cli(*args, cwd=cwd)


def run_process(*args, cwd=ROOT):
    """The command, as a real subprocess."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sloat_core", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env=env)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Built once for the module: the tests read it, and each writes its own file names into it."""
    tmp_path = tmp_path_factory.mktemp("world")
    parcels = [(sq(0, 0, 400), {"SBL": "156.14-1-23", "ZONE": "R-40", "ADDRESS": "1 Test Rd"}),
               (sq(400, 0, 200), {"SBL": "156.14-1-24", "ZONE": "R-15", "ADDRESS": "3 Test Rd"})]
    make_world(tmp_path, {"wetlands": [sq(150, 150, 100)], "parcels": parcels,
                          "zoning": [(sq(-200, -200, 600, 1400), {"ZONE": "R-40"}),
                                     (sq(400, -200, 800, 1400), {"ZONE": "R-15"})]}, dem=30)
    parcel = tmp_path / "parcel.geojson"
    gpd.GeoDataFrame(geometry=[sq(0, 0, 400)], crs=WORK_CRS).to_crs(4326).to_file(parcel, driver="GeoJSON")
    return tmp_path


def test_analyze_prints_the_json_contract(world):
    r = run_process("analyze", world / "parcel.geojson", "--layers", world / "layers.yaml", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    for key in ("gross_area_sqft", "net_lot_area_sqft", "min_lot_area_sqft", "meets_min_lot_area", "deductions",
                "slope_area_sqft", "cluster_triggers", "permits", "mitigation", "warnings"):
        assert key in out
    assert out["gross_area_sqft"] == pytest.approx(160_000, rel=1e-4)
    assert out["district"] == "R-40"  # from the zoning layer
    assert {d["constraint"] for d in out["deductions"]} == {
        "water_bodies", "wetlands", "watercourses", "floodplain", "buffer", "slope_25_40", "slope_over_40",
        "rock_outcrops"}
    assert set(out["slope_area_sqft"]) == {"0-15", "15-25", "25-40", "over_40", "unknown"}
    assert [t["id"] for t in out["cluster_triggers"]] == [f"402-48C({n})" for n in range(1, 11)]
    assert all({"id", "required", "reason", "citation", "authority"} <= set(p) for p in out["permits"])
    assert {"impacted_wetland_sqft", "required_mitigation_sqft"} <= set(out["mitigation"])


def test_analyze_takes_a_tax_parcel_by_sbl_and_a_district_override(world):
    r = run("analyze", "156.14-1-24", "--layers", world / "layers.yaml", "--district", "R-10", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["district"] == "R-10" and out["gross_area_sqft"] == pytest.approx(40_000, rel=1e-6)


def test_analyze_with_a_project(world):
    (world / "project.json").write_text(json.dumps({"application_type": "subdivision", "trees_removed": 4}))
    r = run("analyze", world / "parcel.geojson", "--layers", world / "layers.yaml", "--project",
            world / "project.json", "--json")
    assert r.returncode == 0, r.stderr
    permits = {p["id"]: p for p in json.loads(r.stdout)["permits"]}
    assert permits["cluster_review"]["required"] is True


@pytest.mark.parametrize("args, needle", [
    (["analyze", "missing.geojson", "--json"], "neither a readable file"),
    (["analyze", "999.99-9-9"], "SBL"),
    (["timeline", "nope.json"], "does not exist"),
    (["law", "§ 402-99"], "402-99"),
])
def test_bad_input_exits_2_with_one_plain_sentence(world, args, needle):
    if args[0] == "analyze":
        args += ["--layers", str(world / "layers.yaml")]
    r = run(*args, cwd=world)
    assert r.returncode == 2
    assert needle in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_bad_project_file_exits_2(world):
    (world / "project.json").write_text('{"trees_removed": -3}')
    r = run("analyze", world / "parcel.geojson", "--layers", world / "layers.yaml", "--project",
            world / "project.json")
    assert r.returncode == 2 and "negative" in r.stderr


def test_timeline_prints_events(world):
    items = {"as_of": "2026-11-29", "items": [{"id": "wetland_permit", "issued": "2026-03-01"},
                                              {"id": "biodiversity_study", "dated": "2024-02-29"}]}
    (world / "items.json").write_text(json.dumps(items))
    r = run("timeline", world / "items.json", "--json", "--ics", world / "out.ics")
    assert r.returncode == 0, r.stderr
    events = json.loads(r.stdout)["events"]
    kinds = {(e["item_id"], e["kind"]): e for e in events}
    assert kinds[("wetland_permit", "expires")]["date"] == "2027-03-01"
    assert kinds[("biodiversity_study", "valid_until")]["date"] == "2027-02-28"
    assert all({"id", "kind", "date", "citation", "status"} <= set(e) for e in events)
    ics = (world / "out.ics").read_bytes()
    assert ics.count(b"BEGIN:VEVENT") == len(events) and b"\r\n" in ics


def test_screen_writes_one_row_per_tax_parcel(world):
    r = run("screen", "--layers", world / "layers.yaml", "--out", world / "screen.csv")
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader((world / "screen.csv").open()))
    assert [row["sbl"] for row in rows] == ["156.14-1-23", "156.14-1-24"]
    first = rows[0]
    assert float(first["gross_area_sqft"]) == pytest.approx(160_000, rel=1e-4)
    assert float(first["share_wetlands"]) == pytest.approx(10_000 / 160_000, abs=1e-3)
    assert first["trigger_2"] == "yes"


def test_law_prints_a_clause(world):
    r = run_process("law", "§ 402-57J(4)")
    assert r.returncode == 0 and "90 days prior" in r.stdout


def test_timeline_list_items_names_every_clock_with_its_keys_from_the_declarations():
    from sloat_core.rules.sections import CLOCKS

    out = run("timeline", "--list-items")
    assert out.returncode == 0, out.stderr
    lines = {line.split()[0]: line for line in out.stdout.splitlines()[1:]}
    assert list(lines) == [c.id for c in CLOCKS]  # every id, in the timeline's order
    for c in CLOCKS:
        for f in c.fields:
            assert (f.key if f.required else f.key + "?") in lines[c.id], (c.id, f.key)
    assert "expires?" in lines["wetland_permit"] and "§ 402-57G" in lines["wetland_permit"]


def test_timeline_without_a_file_says_what_to_give_in_one_sentence():
    out = run_process("timeline")
    assert out.returncode == 2 and "--list-items" in out.stderr and "Traceback" not in out.stderr
