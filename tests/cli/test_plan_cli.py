"""The `plan` command's contract: `python -m sloat_core plan PARCEL PLAN --layers M.yaml ... --json`, on a hand-built
world (a 400 ft square parcel in R-40, flat, a 100 ft floodplain square in its south-west quarter).

Most cases call the command's entry point in this process (tests/real_data.py run_cli: the same ``main(argv)``, exit code
and output, without a second of imports each); the JSON contract and a drawing in local coordinates run as a
real ``python -m sloat_core`` subprocess, for what only a process shows (it starts; its stderr holds the one
sentence and nothing a library printed)."""

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

LOT_KEYS = {"lot", "gross_sqft", "net_lot_area_sqft", "net_lot_area_min_sqft", "district", "min_lot_area_sqft",
            "conforms", "shortfall_sqft", "deductions", "permits", "citation"}


def run(*args):
    """The command, in this process."""
    return run_cli(*args)


def run_process(*args):
    """The command, as a real subprocess."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sloat_core", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=180, env=env)


def write_plan(path: Path, features) -> Path:
    """A GeoJSON plan (WGS84): ``features`` as (layer, lot label or None, EPSG:2260 geometry)."""
    gdf = gpd.GeoDataFrame({"layer": [f[0] for f in features], "lot": [f[1] for f in features]},
                           geometry=[f[2] for f in features], crs=WORK_CRS)
    gdf.to_crs(4326).to_file(path, driver="GeoJSON")
    return path


QUARTERS = [("lots", "1", sq(0, 0, 200)), ("lots", "2", sq(200, 0, 200)), ("lots", "3", sq(0, 200, 200)),
            ("lots", "4", sq(200, 200, 200))]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Built once for the module: the tests read it; each writes its plan before it runs the command."""
    tmp_path = tmp_path_factory.mktemp("world")
    make_world(tmp_path, {"floodplain": [sq(50, 50, 100)],
                          "zoning": [(sq(-200, -200, 1400), {"ZONE": "R-40"})]}, dem=0)
    gpd.GeoDataFrame(geometry=[sq(0, 0, 400)], crs=WORK_CRS).to_crs(4326).to_file(tmp_path / "parcel.geojson",
                                                                                   driver="GeoJSON")
    return tmp_path


def plan(world, plan_file, *extra, process=False):
    return (run_process if process else run)("plan", world / "parcel.geojson", plan_file, "--layers", world / "layers.yaml", *extra, "--json")


def test_plan_prints_the_json_contract_lot_by_lot_with_the_parcels_own_keys(world):
    r = plan(world, write_plan(world / "plan.geojson", QUARTERS), process=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"kind", "lot_count", "conforming_lots", "lots", "problems", "yield_check", "open_space"} <= set(out)
    assert {"gross_area_sqft", "net_lot_area_sqft", "deductions", "permits", "disclaimer"} <= set(out)  # the parcel's
    assert (out["kind"], out["lot_count"], out["conforming_lots"]) == ("conventional", 4, 3)
    assert all(LOT_KEYS <= set(lot) for lot in out["lots"])
    assert {"plan_lots", "permitted", "status", "citation"} <= set(out["yield_check"])
    assert {"gross_sqft", "yards_excluded_sqft", "counted_sqft", "citation"} <= set(out["open_space"])
    lots = {lot["lot"]: lot for lot in out["lots"]}
    assert lots["1"]["net_lot_area_sqft"] == pytest.approx(30_000, abs=1.0)  # the floodplain is in lot 1
    assert (lots["1"]["conforms"], lots["1"]["shortfall_sqft"]) == (False, pytest.approx(10_000, abs=1.0))
    assert lots["2"]["gross_sqft"] == pytest.approx(40_000, abs=1.0) and lots["2"]["conforms"] is True
    assert lots["2"]["district"] == "R-40" and lots["2"]["min_lot_area_sqft"] == 40_000
    assert all({"id", "required", "reason", "citation", "authority"} <= set(p) for p in lots["2"]["permits"])
    assert out["problems"] == []


def test_problems_name_the_lots_and_the_area(world):
    feats = [("lots", "A", sq(0, 0, 200.5, 400)), ("lots", "A", sq(200, 0, 250, 400))]  # 0.5 x 400 shared
    r = plan(world, write_plan(world / "plan.geojson", feats))
    assert r.returncode == 0, r.stderr
    problems = {p["kind"]: p for p in json.loads(r.stdout)["problems"]}
    assert set(problems) == {"overlap", "outside_parcel", "duplicate_label"}
    assert problems["overlap"]["area_sqft"] == pytest.approx(200, rel=1e-3)
    assert problems["outside_parcel"]["area_sqft"] == pytest.approx(50 * 400, rel=1e-3)
    assert all({"kind", "lots", "area_sqft", "text"} == set(p) for p in problems.values())


def test_a_layer_of_another_name_is_taken_as_lots_with_role(world):
    feats = [("PROPERTY LINES", "1", sq(0, 0, 400))]
    path = write_plan(world / "plan.geojson", feats)
    assert plan(world, path).returncode == 2
    r = plan(world, path, "--role", "lots=PROPERTY LINES")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["lot_count"] == 1


def test_a_cluster_plan_is_checked_against_its_conventional_plat(world):
    conventional = write_plan(world / "conventional.geojson", QUARTERS)
    cluster = write_plan(world / "cluster.geojson", [("lots", str(i), sq(i * 80, 0, 80, 200)) for i in range(5)]
                         + [("open_space", None, sq(0, 200, 400, 200)), ("envelopes", None, sq(20, 20, 40, 40))])
    r = plan(world, cluster, "--kind", "cluster", "--conventional", conventional)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["kind"] == "cluster" and out["lot_count"] == 5
    assert out["yield_check"]["permitted"] == 3  # the conventional plat's conforming lots
    assert out["yield_check"]["status"] == "over"
    assert all(lot["min_lot_area_sqft"] == 10_000 and lot["conforms"] for lot in out["lots"])  # 16,000 gross


@pytest.mark.parametrize("case", ["far_away", "no_lots", "dwg", "local_coordinates"])
def test_a_plan_that_cannot_be_checked_exits_2_with_one_sentence(world, case):
    if case == "far_away":
        path = write_plan(world / "plan.geojson", [("lots", "1", sq(5000, 5000, 200))])
    elif case == "no_lots":
        path = write_plan(world / "plan.geojson", [("roads", None, sq(0, 0, 50, 400))])
    elif case == "dwg":
        path = world / "plat.dwg"
        path.write_bytes(b"AC1032" + bytes(100))
    else:  # a drawing in feet from its own origin, written as if it were longitude and latitude
        path = world / "plan.geojson"
        path.write_text(json.dumps({"type": "FeatureCollection", "features": [{
            "type": "Feature", "properties": {"layer": "lots", "lot": "1"},
            "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [400, 0], [400, 400], [0, 400], [0, 0]]]}}]}))
    r = plan(world, path, process=case == "local_coordinates")
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


@pytest.mark.parametrize("suffix", [".html", ".pdf"])
def test_out_writes_the_plans_lot_table_as_a_web_page_or_a_pdf_besides_the_json(world, suffix):
    out = world / f"lots{suffix}"
    r = plan(world, write_plan(world / "plan.geojson", QUARTERS), "--out", out)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["lot_count"] == 4  # the JSON as without --out
    assert f"Wrote {out}." in r.stderr
    data = out.read_bytes()
    if suffix == ".pdf":
        assert data.startswith(b"%PDF-")
    else:
        page = data.decode("utf-8")
        assert "<h1>The plan&#x27;s lot table</h1>" in page
        assert page.count('<th scope="row">') >= 4 and "§ 402-48E" in page


def test_out_of_another_kind_exits_2_in_one_sentence_before_the_plan_is_read(world):
    r = plan(world, world / "no-such-plan.geojson", "--out", world / "lots.docx")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "must end in .pdf or .html" in r.stderr
    assert not (world / "lots.docx").exists()
