"""§ 402-57 wetlands: the list of § 402-57K(4), owners of record of lands adjacent to the wetland, watercourse and
buffer where the work is, within 100 ft of the property's boundary, as plain-English claims on hand-built worlds.

The property is a 400 ft x 400 ft square; a wetland strip 50 ft wide runs east from inside it (x = 300 ft) to
x = 900 ft; the buffer is the settings' 100 ft. Neighbours east of the property start 99 ft or 101 ft from it.
"""

import sys
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import SQUARE_400, analyze_in, footprint, make_world, permits_in, sq, world_key  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.law.params import param  # noqa: E402
from sloat_core.law.text import quote_in_clause  # noqa: E402
from law_day import LAW_DAY  # noqa: E402

PARCEL = sq(0, 0, 400)
WETLAND = sq(300, 175, 600, 50)


def _world(tmp_path, neighbours, *, owner_field="OWNER", omit=(), wetlands=(WETLAND,)):
    tmp_path.mkdir(parents=True, exist_ok=True)
    lots = [(PARCEL, {"SBL": "1-1-1", "ZONE": "R-40", "ADDRESS": "1 Main St", "OWNER": "The Applicant (sample)"})]
    lots += [(g, {"SBL": sbl, "ZONE": "R-40", "ADDRESS": f"{sbl} Main St", "OWNER": f"Owner of {sbl}"})
             for sbl, g in neighbours.items()]
    make_world(tmp_path, {"wetlands": list(wetlands), "parcels": lots}, dem=0, omit=omit)
    doc = yaml.safe_load((tmp_path / "layers.yaml").read_text())
    if owner_field and "parcels" in doc["layers"]:
        doc["layers"]["parcels"]["owner_field"] = owner_field
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    return load_manifest(tmp_path / "layers.yaml")


@pytest.fixture(scope="session")
def owner_world(tmp_path_factory):
    """``_world`` for the tests that only read it: each distinct world built once per test process (session scope:
    the module's tests still spread over the workers)."""
    built: dict = {}

    def world(neighbours, **kw):
        key = world_key((neighbours, kw))
        if key not in built:
            built[key] = _world(tmp_path_factory.mktemp("owners"), neighbours, **kw)
        return built[key]

    return world


def _owners(world, **kw):
    from sloat_core.gis import parcels as parcel_input

    return analyze(parcel_input.parcel_by_sbl(world, "1-1-1"), world, district="R-40", **kw)["adjacent_owners"]


def test_the_distance_is_the_parameters_100_ft_quoted_from_the_clause():
    p = param("wetland_adjacent_owner_radius_ft", LAW_DAY)
    assert (p.value, p.citation) == (100, "§ 402-57K(4)")
    assert "within 100 feet of the boundary of the property" in p.quote


def test_a_neighbour_the_wetland_crosses_99_ft_from_the_property_is_listed_with_its_owner(owner_world):
    out = _owners(owner_world({"2-1-1": sq(499, 0, 300, 400)}))
    assert [(r["sbl"], r["owner"]) for r in out["parcels"]] == [("2-1-1", "Owner of 2-1-1")]
    assert out["owner_field"] == "OWNER"
    assert out["radius_ft"] == 100 and out["citation"] == "§ 402-57K(4)"
    assert "100 ft" in out["reason"] and "§ 402-57K(4)" in out["reason"]


def test_a_neighbour_101_ft_from_the_property_is_not_listed_though_the_wetland_crosses_it(owner_world):
    out = _owners(owner_world({"2-1-1": sq(501, 0, 300, 400)}))
    assert out["parcels"] == []
    assert "No other tax parcel" in out["reason"]


def test_the_property_itself_is_not_its_own_neighbour(owner_world):
    out = _owners(owner_world({}))
    assert out["parcels"] == []


def test_a_neighbour_the_buffer_reaches_is_adjacent_and_one_beyond_the_buffer_is_not(owner_world):
    # North of the property: the wetland strip's buffer (100 ft) reaches y = 325 ft; a lot from y = 320 ft is
    # adjacent to the buffer, within 100 ft of the property; a lot from y = 330 ft is beyond the buffer.
    near = {"3-1-1": sq(420, 320, 60, 60)}
    assert [r["sbl"] for r in _owners(owner_world(near))["parcels"]] == ["3-1-1"]
    far = {"3-1-1": sq(420, 330, 60, 60)}
    assert _owners(owner_world(far))["parcels"] == []


def test_without_an_owner_field_the_parcels_are_listed_and_the_owners_come_from_the_assessment_roll(owner_world):
    out = _owners(owner_world({"2-1-1": sq(499, 0, 300, 400)}, owner_field=None))
    assert [(r["sbl"], r["owner"]) for r in out["parcels"]] == [("2-1-1", None)]
    assert out["owner_field"] is None
    assert "assessment roll" in out["reason"]


def test_work_drawn_away_from_the_wetland_and_its_buffer_needs_no_list(owner_world):
    world = owner_world({"2-1-1": sq(499, 0, 300, 400)})
    away = {"type": "Polygon", "coordinates": [[list(c) for c in _wgs84(sq(20, 20, 40, 40)).exterior.coords]]}
    out = _owners(world, project={"disturbance_footprint": away})
    assert out["applies"] is False and out["parcels"] == []


def test_work_drawn_in_the_buffer_lists_the_neighbours_of_that_wetland(owner_world):
    world = owner_world({"2-1-1": sq(499, 0, 300, 400)})
    inside = {"type": "Polygon", "coordinates": [[list(c) for c in _wgs84(sq(250, 120, 40, 40)).exterior.coords]]}
    out = _owners(world, project={"disturbance_footprint": inside})
    assert out["applies"] is True  # the wetland permit is required for work in the buffer
    assert [r["sbl"] for r in out["parcels"]] == ["2-1-1"]


def test_with_no_wetland_layer_the_list_is_unknown_not_empty(owner_world):
    out = _owners(owner_world({"2-1-1": sq(499, 0, 300, 400)}, omit=("wetlands",), wetlands=()))
    assert out["parcels"] is None and out["applies"] is None
    assert out["reason"].startswith("Unknown")


def test_the_sample_layers_name_illustrative_owners():
    from sloat_core.rules.sections.s402_57_wetlands.adjacent_owners import owner_field

    world = load_manifest(Path(__file__).resolve().parents[2] / "data" / "sample" / "layers.yaml")
    assert world.warnings == ()
    assert owner_field(world) == "OWNER"
    owners = world.get("parcels").gdf["OWNER"]
    assert owners.notna().all() and owners.str.endswith("(sample)").all()


def _wgs84(g):
    import geopandas as gpd

    return gpd.GeoSeries([g], crs="EPSG:2260").to_crs("EPSG:4326").iloc[0]


def _pdf_text(data: bytes) -> str:
    import io
    import re

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages).replace("\u00a0", " "))


def test_the_pdf_lists_the_adjacent_parcels_and_their_owners(owner_world):
    import datetime as dt

    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis import parcels as parcel_input
    from sloat_core.outputs.report import report_pdf_bytes

    world = owner_world({"2-1-1": sq(499, 0, 300, 400), "9-9-9": sq(0, 900, 100)})
    a = analyze_parcel(parcel_input.parcel_by_sbl(world, "1-1-1"), world, district="R-40", as_of=dt.date(2026, 12, 1))
    text = _pdf_text(report_pdf_bytes(a, world, as_of=dt.date(2026, 12, 1)))
    assert "Appendix: owners of record of adjacent lands (§ 402-57K(4))" in text
    assert "2-1-1" in text and "Owner of 2-1-1" in text
    assert "9-9-9" not in text  # far from the wetland


def test_the_pdf_says_the_owners_come_from_the_assessment_roll_without_an_owner_field(owner_world):
    import datetime as dt

    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis import parcels as parcel_input
    from sloat_core.outputs.report import report_pdf_bytes

    world = owner_world({"2-1-1": sq(499, 0, 300, 400)}, owner_field=None)
    a = analyze_parcel(parcel_input.parcel_by_sbl(world, "1-1-1"), world, district="R-40", as_of=dt.date(2026, 12, 1))
    text = _pdf_text(report_pdf_bytes(a, world, as_of=dt.date(2026, 12, 1)))
    assert "2-1-1" in text and "owner from the assessment roll" in text
    assert "Owner of 2-1-1" not in text


def test_the_parcel_page_lists_the_adjacent_owners(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    from app_support.frame import state
    from sloat_core.gis import parcels as parcel_input

    world = _world(tmp_path, {"2-1-1": sq(499, 0, 300, 400)})
    monkeypatch.setenv("SLOAT_LAYERS", str(tmp_path / "layers.yaml"))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(world, "1-1-1")
    at.session_state[state.DISTRICT] = "R-40"
    at.switch_page("pages/parcel.py").run()
    assert not at.exception, at.exception
    assert any(e.label.startswith("Owners of record of adjacent lands (§ 402-57K(4)): 1 parcel") for e in at.expander)
    frame = next(df.value for df in at.dataframe if "Owner of record" in df.value.columns)
    assert frame.to_dict("records") == [{"Tax parcel (SBL)": "2-1-1", "Address": "2-1-1 Main St",
                                         "Owner of record": "Owner of 2-1-1"}]


def test_the_case_csv_of_adjacent_owners_carries_each_parcel_its_owner_and_the_clause(owner_world):
    import csv
    import io

    from sloat_core.outputs.exports import adjacent_owners_csv

    out = analyze(PARCEL, owner_world({"2-1-1": sq(499, 0, 300, 400)}), district="R-40")
    rows = list(csv.DictReader(io.StringIO(adjacent_owners_csv(out))))
    assert [(r["sbl"], r["owner"], r["within_ft"], r["citation"]) for r in rows] == [
        ("2-1-1", "Owner of 2-1-1", "100.0", "§ 402-57K(4)")]


# --- § 402-57L: the hearing within 62 days of a complete application gets met / missed, like a delineation

def _hearing_events(hearing):
    import datetime as dt

    from sloat_core.rules.clocks import timeline_events

    item = {"id": "wetland_permit_application", "complete": "2026-03-01", "hearing": hearing}
    return {e.kind: e for e in timeline_events([item], dt.date(2026, 1, 1))}


def test_a_hearing_set_on_the_62nd_day_meets_the_deadline():
    ev = _hearing_events("2026-05-02")  # 1 March + 62 days
    assert ev["hearing_deadline"].status == "met" and ev["hearing_deadline"].citation == "§ 402-57L"


def test_a_hearing_after_the_business_day_the_deadline_is_carried_to_misses_it_and_the_ics_and_csv_say_so():
    from sloat_core.outputs.exports import events_csv
    from sloat_core.outputs.ics import to_ics

    # Day 62 is Saturday 2 May 2026: General Construction Law § 25-a carries it to Monday 4 May (met that day);
    # Tuesday 5 May is the first day too late.
    assert _hearing_events("2026-05-04")["hearing_deadline"].status == "met"
    ev = _hearing_events("2026-05-05")
    assert ev["hearing_deadline"].status == "missed"
    assert "missed" in ev["notice_deadline"].detail
    assert "Status when exported: missed" in to_ics([ev["hearing_deadline"]], calendar_name="test").replace("\r\n ", "")
    rows = [r for r in events_csv(list(ev.values())).splitlines() if "hearing_deadline" in r]
    assert rows and ",missed," in rows[0]


def test_with_no_hearing_set_the_deadline_keeps_its_calendar_status():
    from sloat_core.rules.clocks import timeline_events
    import datetime as dt

    ev = {e.kind: e for e in timeline_events([{"id": "wetland_permit_application", "complete": "2026-03-01"}],
                                             dt.date(2026, 1, 1))}
    assert ev["hearing_deadline"].status == "upcoming"


@pytest.mark.parametrize("omit", ["wetlands", "watercourses", "water_bodies"])
def test_a_water_layer_that_is_not_loaded_makes_the_wetland_permit_unknown_not_no(world_once, omit):
    # § 402-57G: "No activity shall be conducted in a wetland, watercourse or wetland buffer without approval";
    # without the layer we cannot say the work is outside one.
    world = world_once({}, dem=0, omit=(omit,))
    p = permits_in(world, {"disturbance_footprint": footprint(sq(100, 100, 50))})["wetland_permit"]
    assert p["required"] is None
    assert "not loaded" in p["reason"] and omit.replace("_", " ") in p["reason"]
    assert permits_in(world)["wetland_permit"]["required"] is None  # the land-only answer too


def test_a_footprint_in_a_loaded_wetland_is_still_required_when_another_water_layer_is_missing(world_once):
    world = world_once({"wetlands": [sq(100, 100, 100)]}, dem=0, omit=("water_bodies",))
    p = permits_in(world, {"disturbance_footprint": footprint(sq(120, 120, 20))})["wetland_permit"]
    assert p["required"] is True


def test_screen_says_unknown_for_the_wetland_permit_when_only_the_wetland_layer_is_missing(world_once):
    from sloat_core.engine.screening import screen_rows

    world = world_once({"parcels": [(SQUARE_400, {"SBL": "1.-1-1", "ZONE": "R-40"})]}, dem=0,
                       omit=("wetlands",))
    row = next(screen_rows(world))
    assert row["permit_wetland_permit"] == ""  # unknown, as analyze says
    assert analyze_in(world)["permits"][1]["required"] is None


def test_a_footprint_lying_in_the_neighbours_wetland_needs_a_wetland_permit_and_mitigation(world_once):
    # § 402-57G: "No activity shall be conducted in a wetland ... without approval" — wherever the wetland is.
    world = world_once({"wetlands": [sq(450, 0, 100, 400)]}, dem=0)
    r = analyze_in(world, {"disturbance_footprint": footprint(sq(380, 100, 100, 100))})  # 20 ft on the parcel, 80 ft off
    p = {x["id"]: x for x in r["permits"]}["wetland_permit"]
    assert p["required"] is True
    assert "off the parcel" in p["reason"]
    # 30 ft x 100 ft of the footprint lies in the neighbour's wetland: 3,000 sq ft, mitigation 1.5 times.
    assert r["mitigation"]["impacted_wetland_sqft"] == pytest.approx(3_000, rel=1e-6)
    assert r["mitigation"]["required_mitigation_sqft"] == pytest.approx(4_500, rel=1e-6)
    assert r["footprint"]["outside_parcel_sqft"] == pytest.approx(8_000, rel=1e-6)
    assert r["footprint"]["wetlands_sqft"] == pytest.approx(3_000, rel=1e-6)
    assert r["net_lot_area_sqft"] == analyze_in(world)["net_lot_area_sqft"]  # the lot is still the parcel


def test_normal_ground_maintenance_in_a_wetland_buffer_is_exempt(world_once):
    # § 402-57H(1): "Normal ground maintenance including mowing, trimming of vegetation and removal of dead or
    # diseased vegetation around a dwelling"
    world = world_once({"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    p = permits_in(world, {"wetland_exemptions": [1], "disturbance_footprint": footprint(sq(20, 20, 20))})["wetland_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-57H(1)"


def test_decorative_planting_in_a_buffer_is_exempt_but_not_in_the_wetland_itself(tmp_path):
    # § 402-57H(3): "Decorative landscaping and planting in wetland buffers"
    world = make_world(tmp_path, {"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    in_buffer = permits_in(world, {"wetland_exemptions": [3], "disturbance_footprint": footprint(sq(20, 20, 20))})
    assert in_buffer["wetland_permit"]["required"] is False
    (tmp_path / "w2").mkdir()
    world2 = make_world(tmp_path / "w2", {"wetlands": [sq(100, 100, 100)]}, dem=0)
    in_wetland = permits_in(world2, {"wetland_exemptions": [3], "disturbance_footprint": footprint(sq(120, 120, 20))})
    assert in_wetland["wetland_permit"]["required"] is True


@pytest.mark.parametrize("project", [
    {"landscaping_only": True},
    {"wetland_exemptions": [1], "activities": [3]},
    {"wetland_exemptions": [3], "activities": [6]},
])
def test_landscaping_with_grading_or_fill_is_unknown_citing_both_clauses(world_once, project):
    # § 402-57I(3) "Any form of dumping, filling, or depositing of material" and I(6) "Alteration or
    # modification of natural features and contours" require a permit, whatever H exempts.
    world = world_once({"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    p = permits_in(world, {**project, "disturbance_footprint": footprint(sq(20, 20, 20))})["wetland_permit"]
    assert p["required"] is None
    assert any(c.startswith("§ 402-57H(") for c in p["citations"])
    assert any(c in ("§ 402-57I(3)", "§ 402-57I(6)") for c in p["citations"])


def test_a_wetland_exemption_does_not_cover_a_structure(world_once):
    world = world_once({"wetlands": [sq(-100, 0, 100, 400)]}, dem=0)
    p = permits_in(world, {"wetland_exemptions": [1], "activities": [1],
                        "disturbance_footprint": footprint(sq(20, 20, 20))})["wetland_permit"]
    assert p["required"] is True


def test_filling_a_pond_gives_an_answer_that_depends_on_the_village_not_zero(world_once):
    # § 402-57P(2) mitigates "wetland" loss; whether the Village treats a pond as wetland is for it to say.
    world = world_once({"water_bodies": [sq(150, 150, 100)]}, dem=0)
    m = analyze_in(world, {"disturbance_footprint": footprint(sq(150, 150, 50))})["mitigation"]
    assert m["impacted_wetland_sqft"] == pytest.approx(0, abs=0.01)
    assert m["required_mitigation_sqft"] is None
    assert "depends on whether the Village treats this water body as a wetland" in m["water_body_note"]
    assert m["impacted_water_body_sqft"] == pytest.approx(2_500, rel=1e-6)


def test_a_project_with_final_approval_before_the_wetland_law_is_grandfathered(world_once):
    # § 402-57F: "The provisions of this chapter shall not apply to any land use, improvement or development for
    # which final approval shall have been obtained prior to the effective date of this chapter"
    assert quote_in_clause("final approval shall have been obtained prior to the effective date", "§ 402-57F")
    world = world_once({"wetlands": [sq(100, 100, 100)]}, dem=0)
    p = permits_in(world, {"grandfathered": True, "disturbance_footprint": footprint(sq(120, 120, 20))})["wetland_permit"]
    assert p["required"] is False and p["citation"] == "§ 402-57F"
    assert permits_in(world, {"grandfathered": False, "disturbance_footprint": footprint(sq(120, 120, 20))})[
        "wetland_permit"]["required"] is True
