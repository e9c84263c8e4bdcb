"""Screen = analyze: the village sweep and the single-parcel path produce one measures record, and the
rules (net, its worst case, meets-minimum, the ten triggers, the land-only permits) are the same functions
of it. Worlds with a layer missing (wetlands not loaded, no elevation model, no outcrop layer, no water
layer at all) must give unknown (null) identically in both.

Tolerances: the two paths cut the same geometry in a different order, so areas agree up to floating-point
noise; shares are compared at 1e-3 of the gross area (the CSV's 4 decimals), net at 1e-3 of gross.
"""

from pathlib import Path

import numpy as np
import pytest

from engine_world import SQUARE_400, WEST_300_FT, make_world, sq
from sloat_core.engine.analysis import analyze, analyze_parcel
from sloat_core.engine.screening import SCREEN_COLUMNS, screen_rows
from sloat_core.measure.village import build_pieces
from sloat_core.measure.village_blocks import block_areas, block_measures
from sloat_core.gis.layers import load_manifest
from sloat_core.law.settings import load_settings
from sloat_core.rules.sections.s402_48_cluster.cluster import trigger_answers
from sloat_core.measure.rows import ROW_IDS
from sloat_core.rules.deductions import net_lot_area, net_lot_area_floor
from sloat_core.measure.record import Measures, measured_areas
from sloat_core.rules.measures import answer
from sloat_core.rules.permits import LAND_PERMITS, land_permits
from law_day import LAW_DAY

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample" / "layers.yaml"
FLAG = {True: "yes", False: "no", None: ""}


def _slopes(x, y):
    """Elevations rising east: 10 % west of x=100 ft, 30 % to x=250 ft, 50 % beyond (feet from the origin)."""
    z = 500.0 + 0.10 * np.minimum(x, 100.0)
    z += 0.30 * np.clip(x - 100.0, 0.0, 150.0)
    return z + 0.50 * np.maximum(x - 250.0, 0.0)


PARCELS = [
    (sq(0, 0, 400), {"SBL": "A", "ZONE": "R-40", "ADDRESS": "1 Test Rd"}),
    (sq(400, 0, 200, 400), {"SBL": "B", "ZONE": "R-15", "ADDRESS": "2 Test Rd"}),
    (sq(-150, 420, 300, 150), {"SBL": "C", "ZONE": "R-40", "ADDRESS": "3 Test Rd"}),  # partly off the DEM
    (sq(120, 120, 30), {"SBL": "D", "ZONE": "R-10", "ADDRESS": "4 Test Rd"}),
    (sq(700, 700, 120), {"SBL": "E", "ZONE": "R-40", "ADDRESS": "5 Test Rd"}),  # no constraint at all
    (sq(-100, -100, 700, 700), {"SBL": "F", "ZONE": "R-80", "ADDRESS": "6 Test Rd"}),  # over 10 acres
    (sq(1500, 1500, 100), {"SBL": "G", "ZONE": "R-40", "ADDRESS": "7 Test Rd"}),  # wholly off the DEM
    (sq(1300, -100, 300, 100), {"SBL": "H", "ZONE": "XX", "ADDRESS": "8 Test Rd"}),  # unknown district
]

LAYERS = {
    "wetlands": [sq(150, 150, 100)],
    "floodplain": [sq(0, 0, 400, 120)],
    "water_bodies": [sq(420, 300, 60)],
    "watercourses": [sq(560, -50, 12, 500)],
    "rock_outcrops": [sq(300, 320, 7.0), sq(50, 300, 10), sq(720, 720, 12)],
    "aquifer_cea": [sq(-500, -500, 2000, 700)],
    "historic": [sq(450, 50, 20)],
    "recreational_river": [sq(500, 0, 100, 100)],
    "habitats": [sq(0, 300, 50)],
    "parcels": PARCELS,
}

WORLDS = {
    "everything loaded": dict(omit=(), dem=True),
    "wetlands not loaded": dict(omit=("wetlands",), dem=True),
    "no elevation model": dict(omit=(), dem=False),
    "no outcrop layer": dict(omit=("rock_outcrops",), dem=True),
    "no water layer at all": dict(omit=("wetlands", "watercourses", "water_bodies"), dem=True),
    "floodplain and aquifer not loaded, no DEM": dict(omit=("floodplain", "aquifer_cea"), dem=False),
}


def _world(tmp_path, spec):
    return make_world(tmp_path, LAYERS, dem=_slopes if spec["dem"] else None, omit=spec["omit"])


def assert_row_equals_analysis(row: dict, result: dict, tol: float = 1e-3):
    """The screen's row states what analyze() states: net and its floor, meets-minimum, every share, trigger
    and permit."""
    gross = result["gross_area_sqft"]
    assert row.get("error", "") == ""
    assert abs(float(row["net_lot_area_sqft"]) - result["net_lot_area_sqft"]) <= tol * gross
    assert abs(float(row["net_lot_area_min_sqft"]) - result["net_lot_area_min_sqft"]) <= tol * gross
    assert row["meets_min_lot_area"] == FLAG[result["meets_min_lot_area"]]
    for d in result["deductions"]:
        share = row[f"share_{d['constraint']}"]
        if d["area_sqft"] is None:
            assert share == "", d["constraint"]
        else:
            assert abs(float(share) - d["area_sqft"] / gross) <= tol, d["constraint"]
    assert [row[f"trigger_{k}"] for k in range(1, 11)] == [FLAG[t["triggered"]] for t in result["cluster_triggers"]]
    permits = {p["id"]: FLAG[p["required"]] for p in result["permits"]}
    assert {p: row[f"permit_{p}"] for p in LAND_PERMITS} == {p: permits[p] for p in LAND_PERMITS}


@pytest.mark.parametrize("name", sorted(WORLDS))
def test_screen_row_equals_analyze_in_every_world(tmp_path, name):
    world = _world(tmp_path, WORLDS[name])
    settings = load_settings()
    rows = list(screen_rows(world, settings))
    assert [r["sbl"] for r in rows] == [p["SBL"] for _, p in PARCELS]
    for row, (geom, props) in zip(rows, PARCELS, strict=True):
        assert_row_equals_analysis(row, analyze(geom, world, district=props["ZONE"], settings=settings))


def test_a_missing_wetland_layer_is_unknown_in_both_paths(tmp_path):
    """Wetlands not loaded: trigger (2) and the wetland permit are null, never "no", in screen and analyze."""
    world = _world(tmp_path, WORLDS["wetlands not loaded"])
    settings = load_settings()
    for row, (geom, props) in zip(screen_rows(world, settings), PARCELS, strict=True):
        result = analyze(geom, world, district=props["ZONE"], settings=settings)
        t2 = next(t for t in result["cluster_triggers"] if t["id"] == "402-48C(2)")
        wet = next(p for p in result["permits"] if p["id"] == "wetland_permit")
        assert t2["triggered"] is None and row["trigger_2"] == ""
        assert wet["required"] is None and row["permit_wetland_permit"] == ""
        assert result["net_lot_area_min_sqft"] == 0.0  # "a wetland could cover it all"
        assert row["share_wetlands"] == ""


def test_both_paths_build_the_same_measures_record(tmp_path):
    """The sweep's record (arrays) and each parcel's record (numbers) hold the same measures."""
    world = _world(tmp_path, WORLDS["everything loaded"])
    settings = load_settings()
    geoms = np.array([g for g, _ in PARCELS], dtype=object)
    import shapely

    pieces = build_pieces(world, shapely.total_bounds(geoms), buffer_width_ft=float(settings.buffer_width_ft), on=LAW_DAY)
    bulk = block_measures(pieces, block_areas(pieces, geoms), shapely.area(geoms))
    for j, (geom, _) in enumerate(PARCELS):
        one = analyze_parcel(geom, world, settings=settings).lot.measures
        tol = 1e-6 * one.gross_area_sqft + 1e-3
        for c in ROW_IDS:
            assert bulk.rows[c][j] == pytest.approx(one.rows[c], abs=tol, nan_ok=True), c
        for k in measured_areas():
            assert bulk.areas[k][j] == pytest.approx(one.areas[k], abs=tol, nan_ok=True), k
        assert bulk.slope_unknown_sqft[j] == pytest.approx(one.slope_unknown_sqft, abs=tol)
        assert bulk.slope_unknown_free_sqft[j] == pytest.approx(one.slope_unknown_free_sqft, abs=tol)
        for c, v in one.row_slope_unknown_sqft.items():
            assert bulk.row_slope_unknown_sqft[c][j] == pytest.approx(v, abs=tol), c


def _record(**areas) -> Measures:
    base = {k: 0.0 for k in measured_areas()}
    rows = {c: 0.0 for c in ROW_IDS}
    return Measures(100_000.0, rows, base | areas, 0.0, 0.0, {}, as_of=LAW_DAY)


def test_one_rule_serves_one_parcel_or_a_population():
    """The rule functions give for an array of parcels what they give for each parcel alone."""
    records = [_record(), _record(wetlands=5_000.0, wetland_region=9_000.0), _record(floodplain=float("nan")),
               _record(slope_over_15=30_000.0, slope_ge_25=1.0), _record(outcrops_cluster=60.0)]
    keys = measured_areas()
    population = Measures(
        np.array([r.gross_area_sqft for r in records]),
        {c: np.array([r.rows[c] for r in records]) for c in ROW_IDS},
        {k: np.array([r.areas[k] for r in records]) for k in keys}, np.zeros(5), np.zeros(5), {}, as_of=LAW_DAY)
    together_t = trigger_answers(population)
    together_p = land_permits(population)
    for j, r in enumerate(records):
        assert {n: answer(v) for n, v in trigger_answers(r).items()} == \
            {n: answer(np.broadcast_to(v, (5,))[j]) for n, v in together_t.items()}
        assert {p: answer(v) for p, v in land_permits(r).items()} == \
            {p: answer(np.broadcast_to(v, (5,))[j]) for p, v in together_p.items()}
        assert net_lot_area(r) == pytest.approx(net_lot_area(population)[j])
        assert net_lot_area_floor(r) == pytest.approx(net_lot_area_floor(population)[j])


def test_land_a_layer_does_not_cover_is_unknown_not_absent():
    """Where a loaded layer does not cover the land (its coverage), absence cannot be claimed."""
    covered = _record()
    half = Measures(covered.gross_area_sqft, covered.rows, covered.areas, 0.0, 0.0, {},
                    uncovered_sqft={"wetlands": 50_000.0, "wetland_region": 50_000.0}, as_of=LAW_DAY)
    assert answer(trigger_answers(covered)[2]) is False
    assert answer(trigger_answers(half)[2]) is None
    assert answer(land_permits(half)["wetland_permit"]) is None
    assert net_lot_area_floor(half) < net_lot_area_floor(covered)


#: The sample's tax parcels are checked in this many parts (every part a test of its own, so the parts can run on
#: different workers at once); part k checks the parcels k, k + PARTS, k + 2 * PARTS, ...
PARTS = 6


@pytest.fixture(scope="session")
def sample_screen():
    """The sample layers, the settings and the village sweep's rows, built once per worker for the parts (session
    scope: a module-scoped fixture would keep the module's tests on one worker, tests/conftest.py)."""
    layerset = load_manifest(SAMPLE)
    settings = load_settings()
    return layerset, settings, list(screen_rows(layerset, settings, workers=1))


@pytest.mark.parametrize("part", range(PARTS), ids=[f"part {k + 1} of {PARTS}" for k in range(PARTS)])
def test_screen_equals_analyze_on_every_sample_tax_parcel(sample_screen, part):
    layerset, settings, rows = sample_screen
    gdf = layerset.get("parcels").gdf
    meta = layerset.parcels_meta
    assert len(rows) == len(gdf) and set(SCREEN_COLUMNS) >= set(rows[0])
    for i in range(part, len(rows), PARTS):
        row = rows[i]
        assert row["sbl"] == str(gdf[meta.id_field].iloc[i])
        result = analyze(gdf.geometry.iloc[i], layerset, district=gdf[meta.district_field].iloc[i],
                         settings=settings)
        assert_row_equals_analysis(row, result)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_screen_row_equals_analyze_on_random_worlds(world_once, seed):
    """Overlapping features of every role, a stream as a line, touching outcrops, parcels anywhere, and in
    each world one role (or the DEM) not loaded: the two paths still state the same things."""
    from shapely.geometry import LineString

    from engine_world import X0, Y0

    rng = np.random.default_rng(seed)

    def rect(max_w=300):
        x, y = rng.uniform(-150, 1000, 2)
        w, h = rng.uniform(5, max_w, 2)
        return sq(x, y, w, h)

    roles = ["wetlands", "floodplain", "water_bodies", "aquifer_cea", "historic", "habitats", "viewsheds",
             "recreation", "recreational_river", "rcda"]
    layers = {r: [rect() for _ in range(int(rng.integers(0, 4)))] for r in roles}
    layers["rock_outcrops"] = [sq(*rng.uniform(0, 900, 2), *rng.uniform(3, 15, 2)) for _ in range(6)]
    layers["watercourses"] = [(LineString([(X0 + rng.uniform(0, 900), Y0 - 100), (X0 + rng.uniform(0, 900), Y0 + 1100)]),
                               {"WIDTH_FT": 10.0})]
    parcels = [(rect(400), {"SBL": f"P{i}", "ZONE": ["R-40", "R-15", "R-80"][i % 3], "ADDRESS": f"{i} Rd"})
               for i in range(8)]
    layers["parcels"] = parcels
    omit = [("wetlands",), ("floodplain",), ("rock_outcrops",), ()][seed % 4]
    world = world_once(layers, dem=_slopes if seed != 3 else None, omit=omit)
    settings = load_settings()
    for row, (geom, props) in zip(screen_rows(world, settings), parcels, strict=True):
        assert_row_equals_analysis(row, analyze(geom, world, district=props["ZONE"], settings=settings))


def test_a_layer_that_does_not_cover_the_parcel_is_unknown_in_both_paths(world_once):
    """A wetland file mapping only another area (its extent misses the parcels) leaves wetlands unknown
    on them, in the screen as in analyze (the mapped land a gap leaves taken is met by the random worlds)."""
    layers = dict(LAYERS)
    # The file's extent does not reach the parcels' extent, so it is taken to map none of them
    # (sloat_core.gis.layers coverage).
    layers["wetlands"] = [sq(2600, 2600, 50)]
    world = world_once(layers, dem=_slopes, assumed=("wetlands",))
    settings = load_settings()
    rows = list(screen_rows(world, settings))
    gaps = [r for r, (g, _) in zip(rows, PARCELS, strict=True) if world.coverage_gaps(g, ("wetlands",))]
    assert gaps, "the world must leave some parcel outside the wetland layer's coverage"
    for row, (geom, props) in zip(rows, PARCELS, strict=True):
        result = analyze(geom, world, district=props["ZONE"], settings=settings)
        assert_row_equals_analysis(row, result)
        if world.coverage_gaps(geom, ("wetlands",)):
            assert row["trigger_2"] == "" and row["share_wetlands"] == ""


def test_a_lot_the_layers_map_in_part_gets_the_same_floor_and_yes_in_both_paths(tmp_path):
    """The wetland and floodplain layers map only the west 300 ft of the 400 ft square (and of the world): the
    screen's floor of the net is analyze's, the land they map counts what it is known to count (not 0), and
    both say the R-40 minimum is met; parcels wholly inside, wholly outside and across the line agree too."""
    layers = dict(LAYERS, parcels=PARCELS)
    coverage = {"wetlands": WEST_300_FT, "floodplain": WEST_300_FT}
    world = make_world(tmp_path, layers, dem=_slopes, coverage=coverage)
    settings = load_settings()
    rows = list(screen_rows(world, settings))
    across = [g for g, _ in PARCELS if world.coverage_gaps(g, ("wetlands",)) and g.intersection(WEST_300_FT).area > 1]
    assert across, "some parcel must lie across the edge of what the layers map"
    for row, (geom, props) in zip(rows, PARCELS, strict=True):
        result = analyze(geom, world, district=props["ZONE"], settings=settings)
        assert_row_equals_analysis(row, result)
        if geom in across:
            assert result["net_lot_area_min_sqft"] > 0, props["SBL"]  # the mapped part keeps its due

    (tmp_path / "alone").mkdir()
    alone = make_world(tmp_path / "alone", {"wetlands": [sq(0, 150, 100)],
                                            "parcels": [(SQUARE_400, {"SBL": "A", "ZONE": "R-40"})]},
                       dem=0, coverage=coverage)
    row = next(screen_rows(alone, settings))
    result = analyze(SQUARE_400, alone, district="R-40", settings=settings)
    assert float(row["net_lot_area_min_sqft"]) == pytest.approx(result["net_lot_area_min_sqft"], abs=0.1)
    assert float(row["net_lot_area_min_sqft"]) == pytest.approx(67_146, abs=50)  # tests/law/test_s402_45_deductions.py
    # The top counts the known wetland and its buffer on the mapped land: 160,000 - 10,000 - 45,708 / 2.
    assert float(row["net_lot_area_sqft"]) == pytest.approx(result["net_lot_area_sqft"], abs=0.1)
    assert float(row["net_lot_area_sqft"]) == pytest.approx(127_146, abs=50)
    assert row["meets_min_lot_area"] == "yes" and result["meets_min_lot_area"] is True


def test_a_split_lot_the_layers_map_in_part_gets_the_same_range_and_yield_in_both_paths(world_once):
    """R-40 west of x = 200 ft, R-15 east; the wetland and floodplain layers map the west 300 ft, with a mapped
    wetland in the R-40 part: the screen states analyze's net, floor and summed yield range (2 to 6: one lot in
    the wholly mapped R-40 part, 1 to 5 in the R-15 part), each district part's floor by the same function."""
    zoning = [(sq(-2000, -2000, 2200, 4400), {"ZONE": "R-40"}), (sq(200, -2000, 2200, 4400), {"ZONE": "R-15"})]
    world = world_once({"wetlands": [sq(0, 150, 100)], "zoning": zoning,
                                  "parcels": [(SQUARE_400, {"SBL": "S", "ZONE": ""})]},
                       dem=0, coverage={"wetlands": WEST_300_FT, "floodplain": WEST_300_FT})
    settings = load_settings()
    row = next(screen_rows(world, settings))
    result = analyze(SQUARE_400, world, settings=settings)
    assert len(result["per_district"]) == 2
    assert_row_equals_analysis(row, result)
    assert (row["conventional_yield_min"], row["conventional_yield_max"]) == (
        result["conventional_yield_min"], result["conventional_yield_max"]) == (2, 6)
    assert row["conventional_yield"] == "2 to 6"


def test_lots_across_the_edge_of_what_the_sample_layers_map_get_analyze_s_floor():
    """Lots astride the village boundary (the coverage every sample layer declares): the screen measures their
    worst case by its sweep, analyze parcel by parcel; both state the same floor, net, shares and flags."""
    import geopandas as gpd
    import shapely

    from sloat_core.units import WORK_CRS

    layerset = load_manifest(SAMPLE)
    settings = load_settings()
    edge = max(shapely.get_parts(layerset.coverage("wetlands")), key=lambda g: g.area).exterior
    points = [edge.interpolate(f, normalized=True) for f in np.linspace(0.0, 1.0, 12, endpoint=False)]
    lots = [shapely.box(p.x - 150, p.y - 120, p.x + 150, p.y + 120) for p in points]
    parcels = gpd.GeoDataFrame({"SBL": [f"EDGE-{i}" for i in range(len(lots))], "ZONE": ["R-40"] * len(lots),
                                "ADDRESS": [""] * len(lots)}, geometry=lots, crs=WORK_CRS)
    rows = list(screen_rows(layerset, settings, parcels=parcels, workers=1))
    floors_below_net = 0
    for row, lot in zip(rows, lots, strict=True):
        result = analyze(lot, layerset, district="R-40", settings=settings)
        assert_row_equals_analysis(row, result)
        floors_below_net += result["net_lot_area_min_sqft"] < result["net_lot_area_sqft"] - 1.0
    assert floors_below_net >= 6, "most lots across the edge must have a worst case below the net"
