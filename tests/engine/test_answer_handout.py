"""The counter's answer ("What this means for your lot"), the one-page plain handout, and the search words.

Core tests on real results with their parts replaced (tests/engine_world.py: ``result_with``) and the AppTest
layer set (tests/app_fixtures.py).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
from engine_world import deduction, permit, result_with  # noqa: E402
from real_data import run_cli  # noqa: E402

from sloat_core.engine.answer import TITLE  # noqa: E402
from sloat_core.engine.answer import lot_answer as typed_answer  # noqa: E402
from sloat_core.engine.result import DistrictArea  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import normalise_address, search_parcels  # noqa: E402

BASE = {"gross_area_sqft": 30000.0, "district": "R-15", "districts": [DistrictArea("R-15", 30000.0)],
        "min_lot_area_sqft": 15000.0, "deductions": [], "permits": [], "land_permits": [],
        "lot_area_citation": "§ 402-45A"}


def lot_answer(fields: dict):
    """The answer for a real result with ``fields`` replaced (the net area's floor is the net area unless given)."""
    return typed_answer(result_with(**{"net_lot_area_min_sqft": fields.get("net_lot_area_sqft"), **fields}))


def test_a_lot_that_meets_the_minimum_looks_possible_for_a_house():
    a = lot_answer({**BASE, "net_lot_area_sqft": 20000.0, "meets_min_lot_area": True})
    assert a.title == TITLE and a.verdict == "likely"
    assert "looks possible" in a.house and "15,000 sq ft" in a.house
    assert a.next_steps[0].startswith("Bring this sheet to the Building Department")
    assert a.next_steps[-1].startswith("Then apply for the building permit")
    assert a.citations == ["§ 402-45A"]


def test_the_first_step_names_this_lots_district_and_minimum_for_the_building_department_to_confirm():
    r15 = lot_answer({**BASE, "net_lot_area_sqft": 20000.0, "meets_min_lot_area": True}).next_steps[0]
    r40 = lot_answer({**BASE, "district": "R-40", "min_lot_area_sqft": 40000.0, "net_lot_area_sqft": 50000.0,
                      "meets_min_lot_area": True}).next_steps[0]
    assert "confirm the R-15 district, its 15,000 sq ft minimum" in r15
    assert "confirm the R-40 district, its 40,000 sq ft minimum" in r40 and r15 != r40
    split = lot_answer({**BASE, "districts": [DistrictArea("R-15", 15000.0), DistrictArea("R-40", 15000.0)],
                        "net_lot_area_sqft": 20000.0, "meets_min_lot_area": True}).next_steps[0]
    assert "the R-15 and R-40 districts" in split and "15,000" not in split  # no one minimum claimed for both
    unknown = lot_answer({**BASE, "district": None, "min_lot_area_sqft": None, "net_lot_area_sqft": 20000.0,
                          "meets_min_lot_area": None}).next_steps[0]
    assert "ask which zoning district the lot is in" in unknown and "confirm" not in unknown


def test_a_lot_short_of_the_minimum_says_by_how_much_and_whom_to_ask():
    a = lot_answer({**BASE, "net_lot_area_sqft": 10000.0, "meets_min_lot_area": False})
    assert a.verdict == "unlikely" and "5,000 sq ft short" in a.house and "Building Department" in a.house


def test_a_district_without_a_minimum_sends_the_resident_to_the_building_department_not_to_settings():
    a = lot_answer({**BASE, "min_lot_area_sqft": None, "net_lot_area_sqft": 10000.0, "meets_min_lot_area": None})
    assert a.verdict == "unknown" and "Building Department" in a.house and "settings" not in a.house


def test_wetland_on_the_lot_calls_for_a_delineation_and_the_permit_in_order():
    result = {**BASE, "net_lot_area_sqft": 20000.0, "meets_min_lot_area": True,
              "deductions": [deduction("wetlands", "Wetlands", 10000.0, 10000.0, 0.0)],
              "permits": [permit("wetland_permit", True, "The disturbance footprint touches 500 sq ft of wetland.",
                                 citation="§ 402-57G")], "project_described": True}
    a = lot_answer(result)
    assert "10,000 sq ft of wetland does not count toward the lot size (none of it counts)." in a.in_the_way
    studies = next(s for s in a.next_steps if s.startswith("Before applying"))
    applies = next(s for s in a.next_steps if s.startswith("Apply for"))
    assert "delineation" in studies and "a wetland permit" in applies
    assert a.next_steps.index(studies) < a.next_steps.index(applies)
    assert "§ 402-57G" in a.citations


def test_cli_report_plain_writes_a_one_page_handout(tmp_path):
    """The command's entry point in this process (tests/real_data.run_cli: its exit code and output as a shell sees
    them, without an interpreter's start-up and imports; tests/cli/test_cli.py runs the entry point as a child)."""
    manifest = fx.write_layerset(tmp_path)
    out = tmp_path / "handout.pdf"
    run = run_cli("report", fx.P1_SBL, "--layers", str(manifest), "--plain", "--out", str(out))
    assert run.returncode == 0, run.stderr
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert len(reader.pages) == 1
    assert TITLE in text and fx.P1_SBL in text and "Whom to ask" in text and "Next steps" in text


def test_street_words_are_normalised():
    assert normalise_address("297 Johnsontown Road") == normalise_address("297 johnsontown rd.")
    assert normalise_address("Orange Turnpike") == "orange tpke" == normalise_address("ORANGE TPK")
    assert normalise_address("Spring Street") == "spring st"


def test_search_by_road_a_near_miss_and_the_count_beyond_the_cap(tmp_path):
    layers = load_manifest(fx.write_layerset(tmp_path))
    assert [m["sbl"] for m in search_parcels(layers, "1 Test Rd").matches] == [fx.P1_SBL]
    assert [m["sbl"] for m in search_parcels(layers, "3 TEST ROAD").matches] == [fx.P2_SBL]
    near = search_parcels(layers, "3 Tesst Road")
    assert near.near_miss and [m["sbl"] for m in near.matches] == [fx.P2_SBL]
    assert search_parcels(layers, "5 Test Road").matches == []  # a near miss keeps the house number
    assert search_parcels(layers, "no such road").matches == []
    capped = search_parcels(layers, "test road", limit=1)
    assert len(capped.matches) == 1 and capped.total == 2


def test_the_verdict_is_one_plain_sentence_on_whether_a_one_family_house_fits():
    """The counter's first screen puts it beside the handout's button; the figures and whom to ask follow it."""
    cases = {"likely": {**BASE, "net_lot_area_sqft": 20000.0, "meets_min_lot_area": True},
             "unlikely": {**BASE, "net_lot_area_sqft": 10000.0, "meets_min_lot_area": False},
             "unknown": {**BASE, "district": None, "net_lot_area_sqft": 20000.0, "meets_min_lot_area": None}}
    for verdict, result in cases.items():
        a = lot_answer(result)
        assert a.verdict == verdict
        assert "one-family house" in a.headline and a.headline.endswith(".") and a.headline.count(".") == 1
        assert a.house.startswith(a.headline[:-1] + ": ") and a.why[1:] in a.house  # said once, in the same words
    assert "15,000 sq ft" in lot_answer(cases["likely"]).why and "5,000 sq ft short" in lot_answer(cases["unlikely"]).why
