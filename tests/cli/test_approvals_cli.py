"""The approvals around Article IX through the command line: `analyze --json` and `timeline`, on real files.

The answers are read from the command's entry point called in this process (tests/real_data.py run_cli: the same
``main(argv)``, exit code and output, without a second of imports each); the refusal of an unknown project key
runs as a real ``python -m sloat_core`` subprocess, for its stderr of one sentence."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import geopandas as gpd
import pytest

from engine_world import make_world, sq
from real_data import run_cli

REPO = Path(__file__).resolve().parents[2]
PARCEL = sq(0, 0, 100)


def run(*args, cwd=REPO):
    """The command, in this process."""
    return run_cli(*args, cwd=cwd)


def run_process(*args, cwd=REPO):
    """The command, as a real subprocess."""
    return subprocess.run([sys.executable, "-m", "sloat_core", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Built once for the module: the tests read it and write only their project file (a test that changes a
    layer works on its own copy)."""
    tmp_path = tmp_path_factory.mktemp("world")
    village = sq(-3000, -3000, 3000 + 100 + 499, 6000)  # the east line 499 ft from the parcel
    make_world(tmp_path, {"village_boundary": [village], "parkland": [], "state_county_roads": [],
                          "public_institutions": [], "ag_district_farms": [], "nysdec_wetlands": [sq(150, 0, 60)]})
    gpd.GeoDataFrame({"NAME": ["lot"]}, geometry=[PARCEL], crs="EPSG:2260").to_file(tmp_path / "parcel.geojson")
    return tmp_path


def analyze(world, project, *extra):
    (world / "project.json").write_text(json.dumps(project))
    r = run("analyze", world / "parcel.geojson", "--layers", world / "layers.yaml", "--project",
            world / "project.json", "--json", "--as-of", "2026-12-01", *extra)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_analyze_json_has_the_approvals_grouped_by_who_decides(world):
    out = analyze(world, {"application_type": "subdivision", "lots": 30, "public_water_sewer": False,
                          "parkland_contiguous": True, "application_complete_date": "2026-09-02"})
    a = out["approvals_detail"]
    groups = [g["decides"] for g in out["approvals"]]
    assert groups == [g for g in ("Planning Board", "Village Engineer", "Building Inspector", "County", "State",
                                  "Federal", "Village (other)") if g in groups]
    assert {"Planning Board", "County", "State"} <= set(groups)
    for g in out["approvals"]:
        for item in g["items"]:
            assert item["clause"] and item["step"] in range(1, 6) and item["step_text"]
    assert a["seqr"]["class"] == "Type I" and a["seqr"]["clause"] == "6 NYCRR 617.4(b)(10)"
    ref = a["county_referral"]
    assert ref["required"] is True and ref["statute"] == "GML § 239-n"
    assert "the parcel is 499 ft from the Town of Ramapo line" in ref["headline"]
    assert a["wetland_screens"]["state"]["answer"] == "likely"
    ev = {e["id"]: e for e in a["village_law"]["events"]}
    assert ev["subdivision-hearing-deadline"]["date"] == "2026-11-03"
    # nothing here changes an Article IX answer: the Article IX permits are the same with or without the facts
    plain = analyze(world, {"application_type": "subdivision"})
    assert plain["permits"] == out["permits"] and plain["net_lot_area_sqft"] == out["net_lot_area_sqft"]


def test_at_501_ft_the_village_line_does_not_trigger_a_referral(world, tmp_path):
    world = Path(shutil.copytree(world, tmp_path / "world"))
    village = sq(-3000, -3000, 3000 + 100 + 501, 6000)
    gpd.GeoDataFrame({"NAME": ["v"]}, geometry=[village], crs="EPSG:2260").to_file(
        world / "village_boundary.fgb", driver="FlatGeobuf")  # the hand-built world's file of that role
    out = analyze(world, {"application_type": "site_plan"})
    t = {x["trigger"]: x for x in out["approvals_detail"]["county_referral"]["triggers"]}
    assert t["municipal_boundary"]["answer"] == "no" and t["municipal_boundary"]["distance_ft"] == pytest.approx(501, abs=0.05)


def test_a_garage_is_type_ii_through_the_command_line(world):
    out = analyze(world, {"application_type": "building_permit", "accessory_structure": "garage"})
    assert out["approvals_detail"]["seqr"]["class"] == "Type II"


def test_an_unknown_project_key_is_still_refused_in_one_sentence(world):
    (world / "project.json").write_text(json.dumps({"lotz": 30}))
    r = run_process("analyze", world / "parcel.geojson", "--layers", world / "layers.yaml", "--project",
            world / "project.json", "--json")
    assert r.returncode == 2 and "unknown field(s): lotz" in r.stderr and "Traceback" not in r.stderr


def test_the_timeline_command_adds_the_village_law_and_county_clocks_of_a_project(tmp_path):
    items = {"as_of": "2026-09-01", "items": [{"id": "biodiversity_study", "dated": "2026-01-15"}],
             "project": {"application_type": "subdivision", "application_complete_date": "2026-09-02",
                         "county_received_date": "2026-10-16"}}
    (tmp_path / "items.json").write_text(json.dumps(items))
    r = run("timeline", tmp_path / "items.json", "--json", "--ics", tmp_path / "out.ics")
    assert r.returncode == 0, r.stderr
    events = {e["id"]: e for e in json.loads(r.stdout)["events"]}
    assert events["subdivision-hearing-deadline"]["citation"] == "Village Law § 7-728(5)(d)"
    assert events["county-referral-report-due"]["date"] == "2026-11-15"
    assert "biodiversity-study-valid-until" in events
    assert (tmp_path / "out.ics").read_bytes().count(b"BEGIN:VEVENT") == len(events)
