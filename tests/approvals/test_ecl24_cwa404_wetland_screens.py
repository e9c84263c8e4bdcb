"""ECL Article 24 (NYSDEC freshwater wetlands) and Clean Water Act § 404 screens, by date, as legal claims.

Screens, never determinations: the answers say "likely", "possible", "ask", "not indicated" or "unknown".
"""

import datetime as dt
import math

import pytest

from sloat_core.approvals.state_law import regime_on, regimes
from sloat_core.approvals.wetland_screens import (ASK_CORPS, STATE_INFORMATIONAL, STATE_LIKELY,
                                                  federal_waters_screen, state_wetland_screen)

from engine_world import make_world, sq

PARCEL = sq(0, 0, 400)
FOOT = sq(0, 0, 100)  # the work, in the parcel's south-west corner
VILLAGE = sq(-20_000, -20_000, 40_000)
DAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize("gap_ft, answer", [(0.0, "likely"), (99.0, "likely"), (100.0, "likely"),
                                            (101.0, "not_indicated")])
def test_work_in_a_mapped_state_wetland_or_its_100_ft_adjacent_area_is_likely_regulated(world_once, gap_ft, answer):
    wetland = (sq(100 + gap_ft, 0, 80), {"WETLAND_ID": "SL-3"})
    ls = world_once({"village_boundary": [VILLAGE], "nysdec_wetlands": [wetland]})
    s = state_wetland_screen(PARCEL, FOOT, ls, DAY)
    assert s.answer == answer, s.reason
    if answer == "likely":
        assert s.message == STATE_LIKELY == "NYSDEC freshwater wetland permit likely: request a jurisdictional determination"
        assert "SL-3" in s.reason and s.distance_ft == pytest.approx(gap_ft, abs=0.05)
    assert "determination" not in s.answer


def test_without_a_footprint_the_whole_parcel_is_screened(world_once):
    ls = world_once({"village_boundary": [VILLAGE], "nysdec_wetlands": [sq(450, 0, 80)]})
    assert state_wetland_screen(PARCEL, FOOT, ls, DAY).answer == "not_indicated"
    s = state_wetland_screen(PARCEL, None, ls, DAY)
    assert s.answer == "likely" and "no footprint drawn" in s.reason


@pytest.mark.parametrize("day, effective, maps, answer", [
    ("2024-12-31", "1975-09-01", "regulatory", "likely"),
    ("2025-01-01", "2025-01-01", "informational", "possible"),
    ("2026-04-07", "2025-01-01", "informational", "possible"),
    ("2026-04-08", "2026-04-08", "regulatory", "likely"),
])
def test_work_in_a_mapped_wetland_follows_the_regime_in_force_on_each_side_of_each_boundary(world_once, day, effective,
                                                                                          maps, answer):
    """Regulatory map (before 2025, again from the court decision of 2026-04-08): DEC permit likely; under the
    2025 rules the map was informational (DEC decides). Never a determination, never a deduction."""
    ls = world_once({"village_boundary": [VILLAGE], "nysdec_wetlands": [sq(50, 0, 80)]})
    s = state_wetland_screen(PARCEL, FOOT, ls, dt.date.fromisoformat(day))
    assert (s.regime["effective"], s.regime["maps"], s.answer) == (effective, maps, answer)
    assert s.message == (STATE_LIKELY if maps == "regulatory" else STATE_INFORMATIONAL)
    d = s.to_dict()
    assert d["deduction"] is False and s.regime["citation"] in d["stated"] and f"the map is {maps}" in d["stated"]


def test_the_court_decision_of_2026_04_08_is_the_current_entry_and_is_to_verify():
    current = regime_on(DAY)
    assert current.effective == dt.date(2026, 4, 8) and current.verify
    assert "904424-25" in current.citation and "to verify" in current.status
    assert [r.effective for r in regimes()] == sorted(r.effective for r in regimes())


def test_an_unmapped_wetland_of_the_regime_s_size_near_the_work_makes_dec_jurisdiction_possible(tmp_path):
    side = math.sqrt(12.4 * 43_560)  # exactly 12.4 acres
    big = sq(150, 0, side)
    ls = make_world(tmp_path, {"village_boundary": [VILLAGE], "nysdec_wetlands": [], "wetlands": [big]})
    s = state_wetland_screen(PARCEL, FOOT, ls, DAY)
    assert s.answer == "possible" and "12.4 acres or more" in s.reason
    small = sq(150, 0, side - 5)
    (tmp_path / "b").mkdir()
    ls = make_world(tmp_path / "b", {"village_boundary": [VILLAGE], "nysdec_wetlands": [], "wetlands": [small]})
    assert state_wetland_screen(PARCEL, FOOT, ls, DAY).answer == "not_indicated"


def test_without_the_nysdec_map_the_state_screen_is_unknown(world_once):
    ls = world_once({"village_boundary": [VILLAGE]})
    s = state_wetland_screen(PARCEL, FOOT, ls, DAY)
    assert s.answer == "unknown" and "nysdec_wetlands" in s.reason


def test_a_nysdec_map_of_another_area_leaves_the_state_screen_unknown(world_once):
    ls = world_once({"village_boundary": [sq(-1000, -1000, 3000)], "nysdec_wetlands": [sq(9000, 0, 80)]})
    assert state_wetland_screen(PARCEL, FOOT, ls, DAY).answer == "unknown"


def test_a_footprint_touching_an_nwi_wetland_asks_the_corps(world_once):
    ls = world_once({"village_boundary": [VILLAGE], "wetlands": [(sq(90, 0, 50), {"ATTRIBUTE": "PEM1E"})]})
    s = federal_waters_screen(PARCEL, FOOT, ls, DAY)
    assert s.answer == "ask" and s.message == ASK_CORPS and "PEM1E" in s.reason
    assert s.citation == "Clean Water Act § 404" and "New York District" in s.agency


def test_a_footprint_touching_an_nhd_stream_asks_the_corps_and_one_clear_of_all_waters_does_not(tmp_path):
    ls = make_world(tmp_path, {"village_boundary": [VILLAGE], "watercourses": [sq(95, 0, 10, 400)]})
    assert federal_waters_screen(PARCEL, FOOT, ls, DAY).answer == "ask"
    (tmp_path / "b").mkdir()
    ls = make_world(tmp_path / "b", {"village_boundary": [VILLAGE], "watercourses": [sq(300, 0, 10, 400)]})
    s = federal_waters_screen(PARCEL, FOOT, ls, DAY)
    assert s.answer == "not_indicated"
    s = federal_waters_screen(PARCEL, None, ls, DAY)
    assert s.answer == "ask" and s.message.endswith("if the work touches them")


def test_a_missing_water_layer_leaves_the_federal_screen_unknown(world_once):
    ls = world_once({"village_boundary": [VILLAGE]}, omit=("watercourses",))
    s = federal_waters_screen(PARCEL, FOOT, ls, DAY)
    assert s.answer == "unknown" and "watercourses" in s.reason


@pytest.mark.parametrize("acres, answer", [(12.4, "likely"), (12.0, "possible")])
def test_on_dec_s_informational_mapping_only_a_wetland_of_the_regime_s_size_is_likely_regulated(world_once, acres,
                                                                                                answer):
    """The map fetch-official fetches is DEC's "Informational Freshwater Wetland Mapping" (DEC: not regulatory;
    each feature's MAP_STATUS says so). Under the regulatory regime (from 2026-04-08) a mapped wetland of 12.4 acres
    or more is likely regulated; a smaller one only if it is on the regulatory map: possible."""
    from sloat_core.gis.official_sources import NYSDEC_MAP_STATUS_INFORMATIONAL

    side = math.sqrt(acres * 43_560)
    wet = (sq(150, 0, side), {"WETLAND_ID": "RC-1", "MAP_STATUS": NYSDEC_MAP_STATUS_INFORMATIONAL})
    ls = world_once({"village_boundary": [VILLAGE], "nysdec_wetlands": [wet]})
    s = state_wetland_screen(PARCEL, FOOT, ls, DAY)
    assert s.answer == answer, s.reason
    if answer == "possible":
        assert "informational mapping" in s.reason and "regulatory map" in s.reason
    else:
        assert s.message == STATE_LIKELY


def test_a_small_wetland_on_the_regulatory_map_stays_likely_regulated(world_once):
    wet = (sq(150, 0, 100), {"WETLAND_ID": "SL-9", "MAP_STATUS": "Regulatory map (pre-2025)"})
    ls = world_once({"village_boundary": [VILLAGE], "nysdec_wetlands": [wet]})
    assert state_wetland_screen(PARCEL, FOOT, ls, DAY).answer == "likely"


def test_each_screen_names_its_sources_and_the_day_it_screens(world_once):
    """Screens by date, each with its source and date: the state screen states its regime's date, both carry
    the analysis date, and the federal one names the NWI / NHD files it read."""
    from sloat_core.approvals.wetland_screens import wetland_screens

    ls = world_once({"village_boundary": [VILLAGE], "nysdec_wetlands": [sq(50, 0, 80)],
                               "wetlands": [sq(90, 0, 50)]})
    for day, regime in (("2025-06-01", "2025-01-01"), ("2026-12-01", "2026-04-08")):
        w = wetland_screens(PARCEL, FOOT, ls, dt.date.fromisoformat(day))
        assert w["state"]["on"] == w["federal"]["on"] == day
        assert f"the regime from {regime}" in w["state"]["stated"] and w["state"]["sources"]
        assert w["federal"]["stated"].startswith(f"Federal waters on the analysis date {day}:")
        assert "wetlands" in w["federal"]["stated"] and w["federal"]["answer"] == "ask"
