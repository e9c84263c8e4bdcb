"""Downloads: constraint pieces as GeoJSON, tables as CSV (defused against formula injection), deadlines as .ics."""

import csv
import datetime as dt
import dataclasses
import doctest
import io

import pytest
from shapely.geometry import shape

import sloat_core.outputs.exports as exports
from engine_world import make_world, sq
from sloat_core.engine.analysis import analyze_parcel
from sloat_core.outputs.exports import (
    csv_safe,
    deductions_csv,
    events_csv,
    events_ics,
    permits_csv,
    pieces_geojson,
    triggers_csv,
)
from sloat_core.gis.geometry import geojson_to_work
from sloat_core.rules.clocks import timeline_events

DAY = dt.date(2026, 5, 1)


@pytest.fixture(scope="module")
def analysis(tmp_path_factory):
    world = make_world(tmp_path_factory.mktemp("exports"),
                       {"wetlands": [sq(150, 150, 100)], "floodplain": [sq(0, 0, 400, 40)]}, dem=0)
    return analyze_parcel(sq(0, 0, 400), world, district="R-40", as_of=DAY,
                          project={"application_type": "subdivision"})


def rows(text):
    assert text.endswith("\r\n")
    return list(csv.DictReader(io.StringIO(text)))


def test_module_examples():
    assert doctest.testmod(exports).failed == 0


def test_pieces_geojson_holds_the_parcel_and_each_piece_in_wgs84(analysis):
    fc = pieces_geojson(analysis)
    assert fc["type"] == "FeatureCollection"
    parcel, *pieces = fc["features"]
    assert parcel["properties"]["kind"] == "parcel"
    assert parcel["properties"]["gross_area_sqft"] == pytest.approx(160_000)
    lon, lat = parcel["geometry"]["coordinates"][0][0]
    assert -74.3 < lon < -74.1 and 41.1 < lat < 41.25  # longitude/latitude near Sloatsburg
    # Back in feet, the parcel is the 400 ft square again.
    assert geojson_to_work(parcel["geometry"]).area == pytest.approx(160_000, rel=1e-6)
    by = {f["properties"]["constraint"]: f for f in pieces}
    assert set(by) == {"wetlands", "floodplain", "buffer"}  # empty pieces are left out
    for f in pieces:
        p = f["properties"]
        assert {"constraint", "area_sqft", "countable_fraction", "deducted_sqft", "citation"} <= set(p)
        assert p["citation"].startswith("§ 402-45A")
        assert geojson_to_work(f["geometry"]).area == pytest.approx(p["area_sqft"], rel=1e-5)
    assert by["wetlands"]["properties"]["area_sqft"] == pytest.approx(10_000)
    assert by["wetlands"]["properties"]["deducted_sqft"] == pytest.approx(10_000)
    assert by["buffer"]["properties"]["countable_fraction"] == 0.5
    deducted = sum(f["properties"]["deducted_sqft"] for f in pieces)
    assert deducted == pytest.approx(analysis.result.gross_area_sqft - analysis.result.net_lot_area_sqft, abs=0.05)
    assert shape(by["wetlands"]["geometry"]).is_valid


def test_deductions_csv_matches_the_table(analysis):
    out = rows(deductions_csv(analysis.result))
    assert [r["constraint"] for r in out] == [d.constraint for d in analysis.result.deductions]
    wet = next(r for r in out if r["constraint"] == "wetlands")
    assert float(wet["area_sqft"]) == pytest.approx(10_000)
    assert float(wet["deducted_sqft"]) == pytest.approx(10_000)
    assert wet["citation"] == "§ 402-45A(1)" and wet["status"] == "known"
    assert next(r for r in out if r["constraint"] == "slope_25_40")["citation"] == "§ 402-45A(2)(a)"


def test_an_unknown_deduction_is_an_empty_cell_not_a_zero(tmp_path):
    world = make_world(tmp_path, {}, omit=("wetlands",), dem=0)
    result = analyze_parcel(sq(0, 0, 100), world, district="R-40", as_of=DAY).result
    wet = next(r for r in rows(deductions_csv(result)) if r["constraint"] == "wetlands")
    assert wet["area_sqft"] == "" and wet["status"] == "unknown"


def test_permits_and_triggers_csv(analysis):
    permits = rows(permits_csv(analysis.result))
    assert len(permits) == len(analysis.result.permits)
    for row, p in zip(permits, analysis.result.permits):
        assert row["id"] == p.id and row["citation"] == p.citation and row["authority"] == p.authority
        assert row["required"] == {True: "yes", False: "no", None: "unknown"}[p.required]
    assert rows(permits_csv(analysis.to_dict())) == permits  # the app's result dict gives the same table
    triggers = rows(triggers_csv(analysis.result))
    assert [t["id"] for t in triggers] == [f"402-48C({n})" for n in range(1, 11)]
    assert triggers[1]["triggered"] == "yes" and triggers[1]["citation"] == "§ 402-48C(2)"  # wetlands
    assert triggers[3]["needs_board_judgment"] == "yes"


@pytest.mark.parametrize("cell", ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\t=x", "\r=x"])
def test_formula_like_cells_are_defused(cell, analysis):
    assert csv_safe(cell) == "'" + cell
    result = analysis.result
    result = dataclasses.replace(
        result, deductions=(dataclasses.replace(result.deductions[0], label=cell), *result.deductions[1:]),
        permits=(dataclasses.replace(result.permits[0], title=cell, reason=cell, citation=cell), *result.permits[1:]),
        cluster_triggers=(dataclasses.replace(result.cluster_triggers[0], evidence=cell), *result.cluster_triggers[1:]))
    assert rows(deductions_csv(result))[0]["label"] == "'" + cell
    p = rows(permits_csv(result))[0]
    assert p["title"] == p["reason"] == "'" + cell and p["citations"].startswith("'" + cell)
    assert rows(triggers_csv(result))[0]["evidence"] == "'" + cell


def test_plain_cells_are_left_alone():
    for cell in ("§ 402-45A(1)", "Wetlands", "0.5", "a=b", "it's", 'say "hi"'):
        assert csv_safe(cell) == cell
    assert csv_safe(None) == "" and csv_safe(True) == "yes" and csv_safe(0.0) == "0.0"


def test_events_csv_and_ics():
    events = timeline_events([{"id": "wetland_permit", "issued": "2026-03-02", "ref": "=WP-7"}], DAY,
                             expiring_soon_days=90)
    out = rows(events_csv(events))
    assert len(out) == len(events) > 0
    assert [r["date"] for r in out] == sorted(r["date"] for r in out)
    first = out[0]
    assert first["citation"].startswith("§ 402-57")
    assert any(r["kind"] == "expires" and r["date"] == "2027-03-02" for r in out)
    assert all(not r["label"].startswith(("=", "+", "-", "@")) for r in out)
    assert rows(events_csv([e.to_dict() for e in events])) == out  # dicts work too
    ics = events_ics(events, dtstamp=dt.datetime(2026, 5, 1, 12, tzinfo=dt.timezone.utc))
    assert ics.startswith("BEGIN:VCALENDAR\r\n") and ics.count("BEGIN:VEVENT") == len(events)
    assert "DTSTART;VALUE=DATE:20270302" in ics
    assert "§ 402-57" in ics.replace("\r\n ", "")
    assert all(r["note"] == "" for r in out if r["kind"] == "expires")  # 2027-03-02 is a Tuesday


def test_events_csv_carries_the_general_construction_law_note():
    # § 402-58J(1)(f): appeal "within 15 days of service". Served Friday 2026-04-17, the appeal deadline is
    # Saturday 2026-05-02; the statutory date stays the event's date and the note (General Construction Law
    # § 25-a) names the next business day, Monday 4 May 2026.
    events = timeline_events([{"id": "stormwater_notice_of_violation", "served": "2026-04-17"},
                              {"id": "wetland_permit", "issued": "2026-03-02"}], DAY, expiring_soon_days=90)
    out = rows(events_csv(events))
    appeal = next(r for r in out if r["kind"] == "appeal_deadline")
    assert appeal["date"] == "2026-05-02"
    assert "General Construction Law § 25-a" in appeal["note"] and "4 May 2026" in appeal["note"]
    assert any(r["note"] == "" for r in out)  # a weekday deadline has a blank note
    by_id = {e.id: e.note for e in events}
    assert all(r["note"] == by_id[r["id"]] for r in out)  # every row carries its event's note, blank or not


def test_pieces_geojson_includes_the_footprint_with_what_it_touches(tmp_path):
    # The export holds the footprint. A 100 ft square at (100, 100) overlaps the
    # 100 ft wetland square at (150, 150) by 50 ft x 50 ft = 2,500 sq ft.
    from sloat_core.gis.parcels import to_wgs84_geojson

    world = make_world(tmp_path, {"wetlands": [sq(150, 150, 100)]}, dem=0)
    drawn = to_wgs84_geojson(sq(100, 100, 100))
    a = analyze_parcel(sq(0, 0, 400), world, district="R-40", as_of=DAY, project={"disturbance_footprint": drawn})
    features = pieces_geojson(a)["features"]
    assert features[0]["properties"]["kind"] == "parcel"
    fp = [f for f in features if f["properties"]["kind"] == "footprint"]
    assert len(fp) == 1
    assert geojson_to_work(fp[0]["geometry"]).area == pytest.approx(10_000, rel=1e-6)
    assert fp[0]["properties"]["area_sqft"] == pytest.approx(10_000, abs=1)
    assert fp[0]["properties"]["wetlands_sqft"] == pytest.approx(2_500, abs=1)
    # without a footprint there is no such feature
    b = analyze_parcel(sq(0, 0, 400), world, district="R-40", as_of=DAY)
    assert all(f["properties"]["kind"] != "footprint" for f in pieces_geojson(b)["features"])
