"""§ 402-45 lot-area deductions, as plain-English claims on hand-built parcels of known area."""

import math
from pathlib import Path

import numpy as np
import pytest

from engine_world import SQUARE_400, WEST_300_FT, analyze_in, make_world, sq
from sloat_core.law.text import quote_in_clause
from sloat_core.measure.parcel import parcel_findings
from sloat_core.rules.deductions import conventional_yield, lot_area, meets_minimum
from law_day import LAW_DAY

PARCEL = sq(0, 0, 400)  # 400 ft x 400 ft = 160,000 sq ft


def rows_of(layerset, parcel=PARCEL, width=100.0):
    lot = lot_area(parcel_findings(parcel, layerset, buffer_width_ft=width, on=LAW_DAY))
    return lot, {r.constraint: r for r in lot.rows}


def test_a_parcel_without_constraints_keeps_its_whole_area(world_once):
    world = world_once({}, dem=0)
    lot, rows = rows_of(world)
    assert lot.gross_area_sqft == pytest.approx(160_000)
    assert lot.net_lot_area_sqft == pytest.approx(160_000)
    assert all(r.deducted_sqft == 0 for r in rows.values())
    assert lot.fully_known


def test_a_wetland_counts_nothing_and_its_buffer_counts_half(world_once):
    world = world_once({"wetlands": [sq(150, 150, 100)]}, dem=0)
    lot, rows = rows_of(world)
    assert rows["wetlands"].area_sqft == pytest.approx(10_000)
    assert rows["wetlands"].deducted_sqft == pytest.approx(10_000)
    band = rows["buffer"].area_sqft
    # a 100-ft square grown by 100 ft with round corners, less the square: 40,000 + pi * 100^2
    assert band == pytest.approx(40_000 + math.pi * 100**2, rel=0.002)
    assert rows["buffer"].deducted_sqft == pytest.approx(band / 2)
    assert lot.net_lot_area_sqft == pytest.approx(160_000 - 10_000 - band / 2)


def test_the_buffer_width_is_a_setting(world_once):
    world = world_once({"wetlands": [sq(150, 150, 100)]}, dem=0)
    _, rows50 = rows_of(world, width=50.0)
    assert rows50["buffer"].area_sqft == pytest.approx(4 * 100 * 50 + math.pi * 50**2, rel=0.002)


def test_the_buffer_of_a_wetland_outside_the_parcel_reaches_in(world_once):
    world = world_once({"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)  # west of the parcel
    _, rows = rows_of(world)
    assert rows["wetlands"].area_sqft == 0
    assert rows["buffer"].area_sqft == pytest.approx(100 * 400, rel=1e-6)


def test_floodplain_inside_a_wetland_is_not_deducted_twice(world_once):
    world = world_once({"wetlands": [sq(0, 0, 400, 100)], "floodplain": [sq(0, 0, 400, 150)]}, dem=0)
    lot, rows = rows_of(world, width=0.0)
    assert rows["wetlands"].area_sqft == pytest.approx(40_000)
    assert rows["floodplain"].area_sqft == pytest.approx(20_000)  # only the part outside the wetland
    assert rows["floodplain"].total_area_sqft == pytest.approx(60_000)
    assert lot.net_lot_area_sqft == pytest.approx(100_000)


def test_a_buffer_on_a_30_percent_slope_counts_half_not_a_quarter(world_once):
    world = world_once({"wetlands": [sq(-100, 0, 100, 400)]}, dem=30)
    lot, rows = rows_of(world)
    # the whole parcel is 30 %: the buffer strip counts 50 %, the rest is slope_25_40 at 50 %
    assert rows["buffer"].area_sqft + rows["slope_25_40"].area_sqft == pytest.approx(160_000, rel=1e-6)
    assert lot.net_lot_area_sqft == pytest.approx(80_000, rel=1e-6)


def test_the_deducted_column_sums_exactly_to_gross_minus_net(world_once):
    world = world_once({
        "wetlands": [sq(150, 150, 100)], "floodplain": [sq(0, 0, 400, 120)],
        "water_bodies": [sq(300, 300, 50)], "rock_outcrops": [sq(20, 300, 10, 10)]}, dem=30)
    lot, _ = rows_of(world)
    assert sum(r.deducted_sqft for r in lot.rows) == pytest.approx(lot.gross_area_sqft - lot.net_lot_area_sqft,
                                                                   abs=1e-6)
    assert sum(r.area_sqft for r in lot.rows) <= lot.gross_area_sqft + 1e-6


@pytest.mark.parametrize("slope, deducted_share", [(25, 0.0), (26, 0.5), (40, 0.5), (41, 1.0)])
def test_slope_thresholds_are_in_excess_of_25_and_40_percent(world_once, slope, deducted_share):
    world = world_once({}, dem=slope)
    lot, rows = rows_of(world)
    assert lot.net_lot_area_sqft == pytest.approx(160_000 * (1 - deducted_share), rel=1e-9)
    if slope == 25:
        assert rows["slope_25_40"].area_sqft == 0  # exactly 25 % is not "in excess of 25%"
    if slope == 40:
        assert rows["slope_over_40"].area_sqft == 0  # exactly 40 % is not "in excess of 40%"


@pytest.mark.parametrize("w, h, counted", [(5, 10, False), (5, 10.1, True), (2, 2, False), (10, 20, True)])
def test_outcrops_count_only_in_excess_of_50_square_feet(world_once, w, h, counted):
    world = world_once({"rock_outcrops": [sq(100, 100, w, h)]}, dem=0)
    lot, rows = rows_of(world)
    area = w * h
    if counted:
        assert rows["rock_outcrops"].area_sqft == pytest.approx(area)
        assert rows["rock_outcrops"].deducted_sqft == pytest.approx(area / 2)
    else:
        assert rows["rock_outcrops"].area_sqft == 0
        assert lot.net_lot_area_sqft == pytest.approx(160_000)


def test_an_outcrop_is_measured_whole_even_where_the_parcel_holds_only_part(world_once):
    world = world_once({"rock_outcrops": [sq(-6, 100, 10, 10)]}, dem=0)  # 100 sq ft, 40 inside
    _, rows = rows_of(world)
    assert rows["rock_outcrops"].area_sqft == pytest.approx(40)


def test_a_missing_layer_is_unknown_not_zero(world_once):
    world = world_once({}, dem=0, omit=("wetlands",))
    lot, rows = rows_of(world)
    assert rows["wetlands"].area_sqft is None and rows["wetlands"].deducted_sqft is None
    assert lot.net_lot_area_min_sqft == 0  # a wetland could cover it all
    assert not lot.fully_known


def test_land_beyond_the_elevation_model_is_unknown_not_flat(world_once):
    world = world_once({}, dem=50)
    parcel = sq(1100, 0, 200, 100)  # the DEM covers x < 1200: half of this parcel is beyond it
    f = parcel_findings(parcel, world, buffer_width_ft=100, on=LAW_DAY)
    assert f.slope_area_sqft["unknown"] == pytest.approx(10_000, rel=0.06)
    lot = lot_area(f)
    assert lot.net_lot_area_min_sqft < lot.net_lot_area_sqft


def test_conventional_yield_counts_whole_lots_only():
    assert conventional_yield(80_000, 40_000) == 2
    assert conventional_yield(79_999, 40_000) == 1
    assert conventional_yield(80_000, None) is None


@pytest.mark.parametrize("sbl", ["156.07-2-53", "156.07-1-14", "156.12-1-32", "163.15-2-2", "163.19-5-32"])
def test_each_piece_of_land_sits_in_one_row_on_sample_parcels_with_slivers(sbl):
    # these sample parcels once had land counted in two rows (floating-point overlay on slivers)
    from sloat_core.gis.layers import load_manifest
    from sloat_core.gis.parcels import parcel_by_sbl

    layers = load_manifest(Path(__file__).resolve().parents[2] / "data/sample/layers.yaml")
    lot, _ = rows_of(layers, parcel_by_sbl(layers, sbl).geometry)
    assigned = sum(r.area_sqft for r in lot.rows) + lot.unconstrained.area
    assert assigned == pytest.approx(lot.gross_area_sqft, abs=1.0)
    for r in lot.rows:  # the measured rows and the shapes drawn for them are the same land
        assert r.area_sqft == pytest.approx(r.geometry.area, rel=1e-6, abs=1.0), r.constraint


# --- A parcel in two districts (§ 402-48I): each part's net lot area, by the same rules ---------------


def _split_world(tmp_path, zones, dem):
    layers = {
        "wetlands": [sq(150, 150, 100)],  # straddles x = 200, the line between the districts
        "zoning": [(z, {"ZONE": code}) for code, z in zones],
    }
    return make_world(tmp_path, layers, dem=dem)


def _steep_west(gx, gy):
    """30 % slope west of x = 200 ft (rising toward the east), flat east of it."""
    return 500.0 + np.minimum(gx, 200.0) * 0.30


def test_each_district_part_gets_the_deductions_inside_it(tmp_path):
    from sloat_core.engine.analysis import analyze

    world = _split_world(tmp_path, [("R-40", sq(-200, -200, 400, 800)), ("R-15", sq(200, -200, 400, 800))],
                         dem=_steep_west)
    out = analyze(PARCEL, world, project={"application_type": "subdivision"})
    parts = {p["district"]: p for p in out["per_district"]}
    assert parts["R-40"]["gross_area_sqft"] == pytest.approx(80_000)
    assert parts["R-15"]["gross_area_sqft"] == pytest.approx(80_000)
    # Each side has half the wetland (5,000 sq ft, 0 %) and half its buffer (50 %); the west side's
    # remaining land is on a 30 % slope (50 %); the slope kernel blurs one 5-ft column at the line.
    rows = {r["constraint"]: r for r in out["deductions"]}
    half_buffer = rows["buffer"]["area_sqft"] / 2
    east = 80_000 - 5_000 - half_buffer / 2
    assert parts["R-15"]["net_lot_area_sqft"] == pytest.approx(east, abs=400 * 5)
    assert parts["R-40"]["net_lot_area_sqft"] + parts["R-15"]["net_lot_area_sqft"] == pytest.approx(
        out["net_lot_area_sqft"], abs=0.05)
    # The west part, analysed as a parcel of its own, has the same net.
    alone = analyze(sq(0, 0, 200, 400), world)
    assert parts["R-40"]["net_lot_area_sqft"] == pytest.approx(alone["net_lot_area_sqft"], abs=1.0)


def test_a_part_in_no_district_keeps_its_deductions_out_of_the_others(tmp_path):
    from sloat_core.engine.analysis import analyze

    # Zoning covers x < 300 only: a quarter of the parcel lies in no district.
    world = _split_world(tmp_path, [("R-40", sq(-200, -200, 400, 800)), ("R-15", sq(200, -200, 100, 800))],
                         dem=0)
    out = analyze(PARCEL, world)
    parts = {p["district"]: p for p in out["per_district"]}
    for code, x0, w in (("R-40", 0, 200), ("R-15", 200, 100)):
        alone = analyze(sq(x0, 0, w, 400), world)
        assert parts[code]["net_lot_area_sqft"] == pytest.approx(alone["net_lot_area_sqft"], abs=1.0), code


def test_the_pond_buffer_is_a_local_setting_on_by_default_and_stated_in_the_note(world_once):
    # § 402-45A(1) names a "watercourse or wetland buffer"; ponds carrying one is a reading, made a setting.
    from sloat_core.law.settings import load_settings

    assert quote_in_clause("watercourse or wetland buffer", "§ 402-45A(1)")
    world = world_once({"water_bodies": [sq(150, 150, 100)]}, dem=0)
    on = analyze_in(world)
    off = analyze_in(world, settings=load_settings(overrides={"buffer_around_water_bodies": False}))
    rows_on = {d["constraint"]: d for d in on["deductions"]}
    rows_off = {d["constraint"]: d for d in off["deductions"]}
    assert on["buffer_around_water_bodies"] is True and rows_on["buffer"]["area_sqft"] > 0
    assert rows_off["buffer"]["area_sqft"] == 0 and off["net_lot_area_sqft"] > on["net_lot_area_sqft"]
    assert "ponds" in on["buffer_note"] and "local settings" in on["buffer_note"] and "(ponds: on)" in on["buffer_note"]
    assert "(ponds: off)" in off["buffer_note"]


def test_screen_follows_the_pond_buffer_setting(world_once):
    from sloat_core.engine.screening import screen_rows
    from sloat_core.law.settings import load_settings

    world = world_once({"water_bodies": [sq(150, 150, 100)],
                                  "parcels": [(SQUARE_400, {"SBL": "1.-1-1", "ZONE": "R-40"})]}, dem=0)
    settings = load_settings(overrides={"buffer_around_water_bodies": False})
    row = next(screen_rows(world, settings=settings))
    assert float(row["share_buffer"]) == 0
    assert float(row["net_lot_area_sqft"]) == pytest.approx(analyze_in(world, settings=settings)["net_lot_area_sqft"],
                                                            abs=1.0)


def test_a_buffer_built_without_every_water_layer_is_marked_partial(world_once):
    # § 402-45A(1): the buffer of a "watercourse or wetland"; with the wetland layer missing, part of it is unknown.
    world = world_once({"watercourses": [sq(-50, 0, 20, 400)]}, dem=0, omit=("wetlands",))
    row = {d["constraint"]: d for d in analyze_in(world)["deductions"]}["buffer"]
    assert row["status"] == "partial" and "wetlands layer is not loaded" in row["note"]
    assert analyze_in(world)["net_lot_area_min_sqft"] == 0  # the worst case counts the unknown against the lot


# --- A parcel the layers map only in part: the mapped land counts what it is known to count ------------------

#: The wetland and floodplain layers map the west 300 ft of the 400 ft square only (`coverage:` a polygon).
MAPPED_WEST = {"wetlands": WEST_300_FT, "floodplain": WEST_300_FT}


def test_a_lot_mapped_on_its_west_300_ft_meets_the_minimum_on_what_the_mapped_land_keeps(world_once):
    # 160,000 sq ft in R-40 (minimum 40,000). The unmapped east 100 ft (40,000 sq ft) may be all wetland and
    # counts nothing at worst; a wetland there could cast its 100-ft buffer over x = 200..300 ft (40,000 sq ft,
    # half counts). The mapped wetland (x 0..100, y 150..250: 10,000 sq ft) counts nothing; its buffer inside
    # the parcel is 200 x 100 + 2 x (100 x 100) + two quarter circles of radius 100, less the wetland:
    # 45,708 sq ft, half counts, and it only touches the band above. Floor: 160,000 - 40,000 - 10,000
    # - (45,708 + 40,000) / 2 = 67,146 sq ft. Tolerance 50 sq ft: the buffer's arcs are drawn with 16 segments
    # a quarter circle (0.16 % of the circles' area, about 25 sq ft).
    world = world_once({"wetlands": [sq(0, 150, 100)]}, dem=0, coverage=MAPPED_WEST)
    out = analyze_in(world)
    band = 200 * 100 + 2 * 100 * 100 + math.pi * 100**2 / 2 - 10_000
    assert out["net_lot_area_min_sqft"] == pytest.approx(160_000 - 40_000 - 10_000 - (band + 40_000) / 2, abs=50)
    assert out["meets_min_lot_area"] is True
    rows = {d["constraint"]: d for d in out["deductions"]}
    assert rows["wetlands"]["status"] == "unknown"  # the layer does not cover the parcel: still unknown
    assert out["net_lot_area_sqft"] >= out["net_lot_area_min_sqft"]


def test_land_the_layers_do_not_map_falls_to_its_worst_case_and_the_rest_keeps_its_due(world_once):
    # Nothing mapped on the west 300 ft: the floor is the mapped 120,000 sq ft less half the band an unmapped
    # wetland's buffer could reach into it (100 ft x 400 ft): 100,000 sq ft, exactly (straight edges).
    world = world_once({}, dem=0, coverage=MAPPED_WEST)
    out = analyze_in(world)
    assert out["net_lot_area_min_sqft"] == pytest.approx(100_000, abs=1.0)
    assert out["meets_min_lot_area"] is True


@pytest.mark.parametrize("wetland_width_ft, meets", [(199.5, True), (200.0, True), (200.5, None)])
def test_a_partly_mapped_lot_meets_the_minimum_only_when_its_floor_does(world_once, wetland_width_ft, meets):
    # No buffer (measured with a width of 0) so the figures are exact: a wetland 400 ft long on the mapped west
    # part, the east 100 ft unmapped. Floor = 120,000 - 400 x width: 40,200 (meets), 40,000 (meets: the
    # minimum is "at least"), 39,800 (cannot tell: the net itself, 160,000 less the known wetland, is above it).
    from sloat_core.law.settings import load_settings

    world = world_once({"wetlands": [sq(0, 0, wetland_width_ft, 400)]}, dem=0, coverage=MAPPED_WEST)
    lot, _ = rows_of(world, width=0.0)
    minimum = load_settings().district("R-40").min_lot_area_sqft
    assert minimum == 40_000
    assert lot.net_lot_area_min_sqft == pytest.approx(120_000 - 400 * wetland_width_ft, abs=1.0)
    assert meets_minimum(lot.net_lot_area_sqft, lot.net_lot_area_min_sqft, minimum) is meets


def test_an_unmapped_strip_counts_as_its_layers_worst_case_and_no_more(world_once):
    # The floodplain alone maps the west 300 ft; wetlands are mapped everywhere, and a mapped wetland lies
    # across the line (x 250..350). Land in both counts once, at 0 %: the floor is gross less the wetland
    # (100 x 400) less the unmapped strip outside it (50 x 400), never the overlap twice. No buffer (width 0).
    world = world_once({"wetlands": [sq(250, 0, 100, 400)]}, dem=0, coverage={"floodplain": WEST_300_FT})
    lot, _ = rows_of(world, width=0.0)
    assert lot.net_lot_area_min_sqft == pytest.approx(160_000 - 40_000 - 20_000, abs=1.0)
    assert lot.net_lot_area_sqft == pytest.approx(120_000, abs=1.0)


def test_an_outcrop_layer_mapping_part_of_the_lot_leaves_half_of_the_rest_at_worst(world_once):
    # § 402-45A(3): outcrops count at most 50 %. The outcrop layer maps the west 300 ft (none there): the
    # unmapped 40,000 sq ft could be bare rock, so it counts half at worst: floor 140,000 sq ft.
    world = world_once({}, dem=0, coverage={"rock_outcrops": WEST_300_FT})
    out = analyze_in(world)
    assert out["net_lot_area_min_sqft"] == pytest.approx(140_000, abs=1.0)
    assert out["net_lot_area_sqft"] == pytest.approx(160_000, abs=1.0)


#: The land within 100 ft of the mapped wetland (x 0..100, y 150..250) inside the 400 ft square, less the wetland:
#: 200 x 100 + 2 x (100 x 100) + two quarter circles of radius 100 - 10,000 = 45,708 sq ft (arcs of 16 segments a
#: quarter circle draw about 25 sq ft less).
KNOWN_BAND = 200 * 100 + 2 * 100 * 100 + math.pi * 100**2 / 2 - 10_000


def test_the_top_of_the_range_deducts_the_wetland_the_layers_map_on_a_partly_mapped_lot(world_once):
    # The wetland layer maps the west 300 ft and shows 10,000 sq ft of wetland there (0 %) with its buffer
    # (45,708 sq ft, half counts), all on mapped land. At best the unmapped east 100 ft is free, so the most that
    # can count is 160,000 - 10,000 - 45,708 / 2 = 127,146 sq ft: never the whole 160,000. The rows stay unknown
    # (the land outside the map could be wetland), each with what the mapped land is known to hold.
    world = world_once({"wetlands": [sq(0, 150, 100)]}, dem=0, coverage=MAPPED_WEST)
    out = analyze_in(world)
    assert out["net_lot_area_sqft"] == pytest.approx(160_000 - 10_000 - KNOWN_BAND / 2, abs=50)
    assert out["deducted_sqft"] == pytest.approx(out["gross_area_sqft"] - out["net_lot_area_sqft"], abs=0.05)
    rows = {d["constraint"]: d for d in out["deductions"]}
    for c in ("wetlands", "buffer", "floodplain"):
        assert rows[c]["status"] == "unknown" and rows[c]["area_sqft"] is None and rows[c]["deducted_sqft"] is None
    assert rows["wetlands"]["known_area_sqft"] == pytest.approx(10_000, abs=1.0)
    assert rows["wetlands"]["known_deducted_sqft"] == pytest.approx(10_000, abs=1.0)
    assert rows["buffer"]["known_deducted_sqft"] == pytest.approx(KNOWN_BAND / 2, abs=25)
    assert rows["floodplain"]["known_area_sqft"] == 0  # mapped, and none on the mapped land
    assert "At least 10,000 sq ft is in this row on the land mapped" in rows["wetlands"]["note"]
    assert out["net_lot_area_min_sqft"] < out["net_lot_area_sqft"]  # still a range: the east 100 ft is unknown


def test_a_split_lot_mapped_in_part_counts_the_known_wetland_in_its_own_district_part(world_once):
    # R-40 west of x = 200 ft, R-15 east of it (§ 402-48I: each part yields on its own). The layers map the west
    # 300 ft. The R-40 part holds the mapped wetland and all its buffer and is wholly mapped: one figure,
    # 80,000 - 10,000 - 45,708 / 2 = 47,146 sq ft, one lot of 40,000. The R-15 part holds no mapped constraint
    # (80,000 at best) but its east 100 ft is unmapped (40,000, nothing at worst) and a wetland there could cast
    # its buffer over the rest (100 x 400, half counts): 20,000 at worst. 20,000 to 80,000 is 1 to 5 lots of
    # 15,000; the parcel 2 to 6.
    from sloat_core.engine.analysis import analyze

    layers = {"wetlands": [sq(0, 150, 100)],
              "zoning": [(sq(-2000, -2000, 2200, 4400), {"ZONE": "R-40"}), (sq(200, -2000, 2200, 4400), {"ZONE": "R-15"})]}
    world = world_once(layers, dem=0, coverage=MAPPED_WEST)
    out = analyze(PARCEL, world)
    parts = {p["district"]: p for p in out["per_district"]}
    west = 80_000 - 10_000 - KNOWN_BAND / 2
    assert parts["R-40"]["net_lot_area_sqft"] == pytest.approx(west, abs=50)
    assert parts["R-40"]["net_lot_area_min_sqft"] == pytest.approx(west, abs=50)
    assert (parts["R-40"]["conventional_yield_min"], parts["R-40"]["conventional_yield_max"]) == (1, 1)
    assert parts["R-15"]["net_lot_area_sqft"] == pytest.approx(80_000, abs=1.0)
    assert parts["R-15"]["net_lot_area_min_sqft"] == pytest.approx(20_000, abs=1.0)
    assert (parts["R-15"]["conventional_yield_min"], parts["R-15"]["conventional_yield_max"]) == (1, 5)
    assert (out["conventional_yield_min"], out["conventional_yield_max"]) == (2, 6)


# § 402-45A applies "to that portion of each lot": a plan's lots, each from its own land alone -------------

def _lots(out) -> dict:
    return {lot["lot"]: lot for lot in out["lots"]}


def test_each_lot_of_a_plan_deducts_only_the_constraints_on_its_own_land(world_once):
    # A 100 ft x 100 ft floodplain lies wholly in the west lot (200 x 400): the west lot loses 10,000 sq ft,
    # the east lot nothing; the rows, shares and citations are the parcel's own.
    from engine_world import plan_in, plan_of

    world = world_once({"floodplain": [sq(50, 150, 100)]}, dem=0)
    out = plan_in(world, plan_of([("W", sq(0, 0, 200, 400)), ("E", sq(200, 0, 200, 400))]))
    lots = _lots(out)
    west = {r["constraint"]: r for r in lots["W"]["deductions"]}
    assert west["floodplain"]["deducted_sqft"] == pytest.approx(10_000, abs=0.01)
    assert lots["W"]["net_lot_area_sqft"] == pytest.approx(70_000, abs=0.01)
    assert lots["E"]["net_lot_area_sqft"] == pytest.approx(80_000, abs=0.01)
    assert [(r["constraint"], r["countable_fraction"], r["citation"]) for r in lots["W"]["deductions"]] == [
        (r["constraint"], r["countable_fraction"], r["citation"]) for r in out["deductions"]]


def test_a_lot_whose_net_is_exactly_the_minimum_conforms_and_one_square_foot_less_does_not(world_once):
    # Two 200 x 200 lots in R-40 (minimum 40,000 sq ft): the east one holds a 1 sq ft floodplain.
    from engine_world import plan_in, plan_of

    world = world_once({"floodplain": [sq(300, 100, 1)]}, dem=0)
    out = plan_in(world, plan_of([("A", sq(0, 0, 200)), ("B", sq(200, 0, 200))]), parcel=sq(0, 0, 400, 200))
    lots = _lots(out)
    assert lots["A"]["net_lot_area_sqft"] == pytest.approx(40_000, abs=0.01)
    assert (lots["A"]["conforms"], lots["A"]["shortfall_sqft"]) == (True, 0.0)
    assert lots["B"]["net_lot_area_sqft"] == pytest.approx(39_999, abs=0.01)
    assert lots["B"]["conforms"] is False
    assert lots["B"]["shortfall_sqft"] == pytest.approx(1.0, abs=0.01)
    assert lots["A"]["min_lot_area_sqft"] == 40_000 and lots["A"]["citation"] == "§ 402-45A"
    assert out["conforming_lots"] == 1 and out["lot_count"] == 2


def test_a_lot_on_unknown_land_is_unknown_never_conforming_but_a_gross_under_the_minimum_is_no(world_once):
    # No elevation model: the slope of every lot is unknown, so its net lot area is a range. A 200 x 250 lot
    # (50,000 gross) could still fall under 40,000 net: unknown. A lot of 39,999 gross cannot reach it: no.
    from engine_world import plan_in, plan_of

    world = world_once({})
    big, small = sq(0, 0, 200, 250), sq(200, 0, 200, 199.995)
    out = plan_in(world, plan_of([("big", big), ("small", small)]), parcel=sq(0, 0, 400, 250))
    lots = _lots(out)
    assert lots["big"]["conforms"] is None and lots["big"]["shortfall_sqft"] is None
    assert lots["big"]["net_lot_area_sqft"] is None  # a range: null, with its lowest figure
    assert lots["big"]["net_lot_area_min_sqft"] < 40_000
    assert lots["small"]["gross_sqft"] == pytest.approx(39_999, abs=0.01)
    assert lots["small"]["conforms"] is False


def test_a_lot_wholly_inside_what_a_layer_maps_is_known_though_the_parcel_reaches_beyond_it(world_once):
    # The wetland and floodplain layers map only west of x = 300 ft. The west lot (0-200 ft) is wholly mapped:
    # its wetland row is known (10,000 sq ft of wetland, with its buffer), as when the lot is analysed alone;
    # the east lot (200-400 ft) reaches the unmapped land: its wetland row is unknown, its net a range.
    from engine_world import plan_in, plan_of

    world = world_once({"wetlands": [sq(50, 150, 100)]}, dem=0, coverage=MAPPED_WEST)
    west, east = sq(0, 0, 200, 400), sq(200, 0, 200, 400)
    lots = _lots(plan_in(world, plan_of([("W", west), ("E", east)])))
    alone = analyze_in(world, parcel=west)
    rows = {r["constraint"]: r for r in lots["W"]["deductions"]}
    assert rows["wetlands"]["status"] == "known" and rows["wetlands"]["area_sqft"] == pytest.approx(10_000, abs=0.01)
    assert lots["W"]["net_lot_area_sqft"] == pytest.approx(alone["net_lot_area_sqft"], abs=0.5)
    assert lots["W"]["net_lot_area_min_sqft"] == pytest.approx(alone["net_lot_area_min_sqft"], abs=0.5)
    assert {r["constraint"]: r for r in lots["E"]["deductions"]}["wetlands"]["status"] == "unknown"
    assert lots["E"]["net_lot_area_sqft"] is None
