"""The village screen: its rows agree with the single-parcel analysis, stream, and survive bad parcels.

Behaviour only (speed is measured by ``make bench``, never asserted here).
"""

import inspect
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Polygon

from engine_world import X0, Y0, make_world, sq
from sloat_core.engine.analysis import analyze
from sloat_core.measure.rows import ROW_IDS
from sloat_core.gis.layers import load_manifest
from sloat_core.engine.screening import SCREEN_COLUMNS, screen_rows, screen_to_csv
from sloat_core.law.settings import load_settings
from sloat_core.units import WORK_CRS

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample" / "layers.yaml"
FLAG = {True: "yes", False: "no", None: ""}


def _terraced(x, y):
    """Elevations (ft) rising east: 10 % west of x=100 ft, 30 % to x=250 ft, 50 % beyond (feet from X0)."""
    lx = x
    z = 500.0 + 0.10 * np.minimum(lx, 100.0)
    z += 0.30 * np.clip(lx - 100.0, 0.0, 150.0)
    z += 0.50 * np.maximum(lx - 250.0, 0.0)
    return z


PARCELS = [
    (sq(0, 0, 400), {"SBL": "1-1-1", "ZONE": "R-40", "ADDRESS": "1 Test Rd"}),
    (sq(400, 0, 200, 400), {"SBL": "1-1-2", "ZONE": "R-15", "ADDRESS": "2 Test Rd"}),
    (sq(-150, 420, 300, 150), {"SBL": "1-1-3", "ZONE": "R-40", "ADDRESS": "3 Test Rd"}),  # partly off the DEM
    (sq(120, 120, 30), {"SBL": "1-1-4", "ZONE": "R-10", "ADDRESS": "4 Test Rd"}),  # a small lot
]


@pytest.fixture
def world(tmp_path):
    layers = {
        "wetlands": [sq(150, 150, 100)],
        "floodplain": [sq(0, 0, 400, 120)],
        "water_bodies": [sq(420, 300, 60)],
        "rock_outcrops": [sq(300, 320, 7.0), sq(50, 300, 10)],  # 49 sq ft (not counted) and 100 sq ft
        "aquifer_cea": [sq(-500, -500, 2000)],
        "historic": [sq(450, 50, 20)],
        "parcels": PARCELS,
    }
    return make_world(tmp_path, layers, dem=_terraced)


def _agree(row: dict, result: dict, tol: float = 1e-3):
    gross = result["gross_area_sqft"]
    assert float(row["gross_area_sqft"]) == pytest.approx(gross, rel=1e-5, abs=0.1)  # analysis snaps to 0.001 ft
    assert abs(float(row["net_lot_area_sqft"]) - result["net_lot_area_sqft"]) <= tol * gross
    for d in result["deductions"]:
        share = row[f"share_{d['constraint']}"]
        if d["area_sqft"] is None:
            assert share == ""
        else:
            assert abs(float(share) - d["area_sqft"] / gross) <= tol, d["constraint"]
    assert float(row["share_slope_unknown"]) == pytest.approx(result["slope_area_sqft"]["unknown"] / gross,
                                                              abs=tol)
    assert [row[f"trigger_{k}"] for k in range(1, 11)] == [FLAG[t["triggered"]] for t in result["cluster_triggers"]]
    permits = {p["id"]: FLAG[p["required"]] for p in result["permits"]}
    for col in SCREEN_COLUMNS:
        if col.startswith("permit_"):
            assert row[col] == permits[col[len("permit_"):]], col
    assert row["meets_min_lot_area"] == FLAG[result["meets_min_lot_area"]]


def test_rows_agree_with_the_single_parcel_analysis_on_a_hand_built_world(world):
    settings = load_settings()
    rows = list(screen_rows(world, settings))
    assert [r["sbl"] for r in rows] == ["1-1-1", "1-1-2", "1-1-3", "1-1-4"]
    for row, (geom, props) in zip(rows, PARCELS):
        assert row.get("error", "") == ""
        result = analyze(geom, world, district=props["ZONE"], settings=settings)
        _agree(row, result)


def test_the_hand_built_world_gives_the_figures_by_hand(world):
    row = next(screen_rows(world))
    gross = 160_000.0
    # The wetland square and the floodplain strip (400 x 120 ft) do not overlap.
    assert float(row["share_wetlands"]) == pytest.approx(10_000 / gross, abs=1e-4)
    assert float(row["share_floodplain"]) == pytest.approx((48_000 - 0) / gross, abs=1e-4)
    assert row["trigger_2"] == "yes" and row["trigger_3"] == "yes" and row["trigger_9"] == "yes"
    assert row["trigger_7"] == "yes" and row["trigger_10"] == "yes"
    assert row["permit_flood_hazard_review"] == "yes"
    assert float(row["share_slope_over_40"]) > 0 and float(row["share_slope_25_40"]) > 0


def test_rows_agree_with_analyze_on_sample_tax_parcels():
    layerset = load_manifest(SAMPLE)
    settings = load_settings()
    gdf = layerset.get("parcels").gdf
    picks = list(range(0, len(gdf), max(len(gdf) // 8, 1)))[:8]
    rows = list(screen_rows(layerset, settings, parcels=gdf.iloc[picks]))
    assert len(rows) == len(picks)
    meta = layerset.parcels_meta
    for row, i in zip(rows, picks):
        assert row["sbl"] == str(gdf[meta.id_field].iloc[i])
        assert row.get("error", "") == ""
        result = analyze(gdf.geometry.iloc[i], layerset, district=gdf[meta.district_field].iloc[i],
                         settings=settings)
        _agree(row, result)


def test_rows_stream_from_a_generator(world):
    gen = screen_rows(world, block_size=1)
    assert inspect.isgenerator(gen)
    first = next(gen)
    assert first["sbl"] == "1-1-1"
    assert len(list(gen)) == len(PARCELS) - 1


@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_a_bad_parcel_gets_an_error_and_the_run_goes_on(world):
    bowtie = Polygon([(X0, Y0), (X0 + 100, Y0 + 100), (X0 + 100, Y0), (X0, Y0 + 100), (X0, Y0)])
    nan_poly = Polygon([(X0, Y0), (X0 + 10, Y0), (X0 + 10, float("nan")), (X0, Y0)])
    parcels = gpd.GeoDataFrame(
        {"SBL": ["ok-1", "empty", "line", "nan", "bowtie", "ok-2"]},
        geometry=[sq(0, 0, 100), Polygon(), LineString([(X0, Y0), (X0 + 50, Y0)]), nan_poly, bowtie,
                  sq(200, 200, 50)],
        crs=WORK_CRS,
    )
    rows = list(screen_rows(world, parcels=parcels))
    by = {r["sbl"]: r for r in rows}
    assert [r["sbl"] for r in rows] == list(parcels["SBL"])
    assert by["empty"]["error"] == "There is no parcel to analyse."
    assert by["line"]["error"] == "The parcel must be a polygon, not a point or a line."
    assert by["nan"]["error"] == "The parcel has coordinates that are not numbers."
    assert float(by["ok-1"]["gross_area_sqft"]) == pytest.approx(10_000)
    assert float(by["ok-2"]["gross_area_sqft"]) == pytest.approx(2_500)
    # The self-crossing outline is repaired, as the single-parcel analysis repairs it.
    assert by["bowtie"].get("error", "") == ""
    assert float(by["bowtie"]["gross_area_sqft"]) == pytest.approx(5_000)


def test_a_missing_layer_is_unknown_not_absent(world_once):
    world = world_once({"parcels": PARCELS[:1]}, dem=0, omit=("wetlands", "rock_outcrops"))
    row = next(screen_rows(world))
    assert row["share_wetlands"] == "" and row["share_rock_outcrops"] == ""
    assert row["trigger_2"] == "" and row["trigger_9"] == ""
    result = analyze(PARCELS[0][0], world, district="R-40")
    _agree(row, result)


def test_without_a_dem_slopes_are_unknown(world_once):
    world = world_once({"wetlands": [sq(150, 150, 100)], "parcels": PARCELS[:2]})
    rows = list(screen_rows(world))
    assert rows[0]["share_slope_unknown"] == 1.0 and rows[0]["trigger_1"] == ""
    assert rows[0]["share_slope_over_40"] == "" and rows[0]["permit_steep_slope_permit"] == ""
    for row, (geom, props) in zip(rows, PARCELS[:2]):
        _agree(row, analyze(geom, world, district=props["ZONE"]))


def test_the_csv_has_the_screen_columns_and_one_row_per_parcel(world, tmp_path):
    out = tmp_path / "screen.csv"
    assert screen_to_csv(world, out) == len(PARCELS)
    lines = out.read_text().splitlines()
    assert lines[0].split(",") == SCREEN_COLUMNS
    assert len(lines) == len(PARCELS) + 1


def test_a_missing_output_folder_is_refused(world, tmp_path):
    from sloat_core.errors import SloatInputError

    with pytest.raises(SloatInputError):
        screen_to_csv(world, tmp_path / "nope" / "screen.csv")


def test_every_deduction_row_has_a_share_column():
    assert all(f"share_{c}" in SCREEN_COLUMNS for c in ROW_IDS)
    assert shapely.geos_version >= (3, 10, 0)


@pytest.mark.filterwarnings("ignore:invalid value encountered")
@pytest.mark.parametrize("workers", [1, 2])
def test_the_csv_says_what_the_rows_say_cell_for_cell_error_rows_included(world, tmp_path, workers):
    import csv

    parcels = gpd.GeoDataFrame(
        {"SBL": [f"lot-{k}" for k in range(6)] + ["line"], "ZONE": ["R-40"] * 6 + ["R-10"],
         "ADDRESS": ["1 Test Rd, rear", "2 \"Test\" Rd"] + [f"{k} Test Rd" for k in range(4)] + [""]},
        geometry=[sq(60 * k, 60 * k, 55) for k in range(6)] + [LineString([(X0, Y0), (X0 + 50, Y0)])],
        crs=WORK_CRS,
    )
    out = tmp_path / "screen.csv"
    n = screen_to_csv(world, out, parcels=parcels, workers=workers, block_size=2)
    with out.open(newline="", encoding="utf-8") as fh:
        got = list(csv.reader(fh))
    rows = list(screen_rows(world, parcels=parcels, workers=1, block_size=2))
    want = [[("" if row.get(c) is None else str(row.get(c, ""))) for c in SCREEN_COLUMNS] for row in rows]
    assert n == len(parcels) and got[0] == SCREEN_COLUMNS
    assert got[1:] == want
    assert got[-1][-1] == "The parcel must be a polygon, not a point or a line."
