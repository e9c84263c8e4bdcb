"""A save reads the case's fields once without copying them: what it writes is
the case's whole JSON, the same as the deep copy's, and the case it was given is left as it was."""

from __future__ import annotations

import copy
import json
import sqlite3

import pytest

from engine_world import sq
from sloat_core.errors import SloatInputError
from sloat_core.gis.parcels import to_wgs84_geojson
from sloat_core.store import Case, CaseStore


@pytest.fixture()
def store(tmp_path):
    s = CaseStore(tmp_path / "data")
    yield s
    s.close()


def _case() -> Case:
    case = Case(title="12 Orange Turnpike", parcel_geojson=to_wgs84_geojson(sq(0, 0, 400)),
                parcel_meta={"source": "drawn on the map", "sbl": "156.14-1-23"}, district="R-40",
                project={"application_type": "subdivision", "trees_removed": 4},
                board_answers={"402-48C(4)": False}, timeline_items=[{"id": "wetland_permit", "issued": "2026-03-02"}],
                notes="Owner asked about a pond.", mitigation_input={"impacted_wetland_sqft": 1200})
    case.record_analysis({"gross_area_sqft": 160000.0, "net_lot_area_sqft": 150000.5, "params_version": "p1",
                          "deductions": [{"constraint": "wetlands", "area_sqft": 9999.5, "note": None,
                                          "nested": {"list": [1, 2.5, {"x": "y"}]}}]})
    return case


def _stored_body(store: CaseStore, case_id: str) -> dict:
    with sqlite3.connect(store.path) as conn:
        return json.loads(conn.execute("SELECT body FROM cases WHERE id = ?", (case_id,)).fetchone()[0])


def test_the_view_shares_the_fields_and_equals_the_deep_copy():
    case = _case()
    view = case.fields_view()
    assert view == case.to_dict() and list(view) == list(case.to_dict())
    assert view["analysis"] is case.analysis and case.to_dict()["analysis"] is not case.analysis


def test_a_save_writes_the_whole_case_and_changes_nothing_in_it(store):
    case = _case()
    before = copy.deepcopy(case.to_dict())
    store.save(case)
    body = _stored_body(store, case.id)
    expected = {**before, "updated_at": case.updated_at, "revision": 1}
    assert body == json.loads(json.dumps(expected))
    assert {k: v for k, v in case.to_dict().items() if k not in ("updated_at", "revision")} == \
        {k: v for k, v in before.items() if k not in ("updated_at", "revision")}
    again = store.open_case(case.id)
    assert again.to_dict() == case.to_dict()
    # a later change of the case is not in what was written (the body is text, made at the save)
    case.analysis["deductions"][0]["area_sqft"] = 1.0
    assert _stored_body(store, case.id)["analysis"]["deductions"][0]["area_sqft"] == 9999.5


def test_a_save_still_refuses_what_the_checks_refuse(store):
    case = _case()
    case.analysis["deductions"][0]["area_sqft"] = float("nan")
    with pytest.raises(SloatInputError):
        store.save(case)
    case = _case()
    case.notes = 123  # the wrong kind of value
    with pytest.raises(SloatInputError):
        store.save(case)
