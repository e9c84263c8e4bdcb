"""The typed analysis result (sloat_core.engine.result.ParcelResult): what the command line prints reads back.

``ParcelResult.to_dict()`` is the command line's JSON contract (``analyze --json``): every demo parcel and a dozen
tax parcels (the golden outputs' set, tools/golden_outputs.py), each without a project and with the demo project,
is printed, read back with the strict ``from_dict`` and written again to the same JSON, key order included. A
dict with a key the result does not know, or without one it has, is refused with a sentence naming the key.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import io
import json
import sys
from pathlib import Path

import pytest

from sloat_core.cli import main as cli_main
from sloat_core.engine.analysis import Analysis, analyze_parcel
from sloat_core.engine.result import Deduction, ParcelResult, parcel_result
from sloat_core.errors import ResultShapeError
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.parcels import parcel_by_sbl
from sloat_core.rules.sections.permit import Permit
from sloat_core.rules.sections.s402_48_cluster.cluster import Trigger

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import golden_outputs as golden  # noqa: E402

pytestmark = pytest.mark.xdist_group("typed_result")

#: The command line's JSON keys, in order (docs/command-line.md): the contract ``to_dict`` keeps.
CONTRACT_KEYS = [
    "as_of", "parcel", "district", "districts", "district_kind", "gross_area_sqft", "gross_area_acres", "deductions",
    "deducted_sqft", "net_lot_area_sqft", "net_lot_area_min_sqft", "net_lot_area_acres", "min_lot_area_sqft",
    "min_lot_area_verify", "meets_min_lot_area", "lot_area_citation", "conventional_yield", "conventional_yield_min",
    "conventional_yield_max", "conventional_yield_status", "yield_caveat", "yield_citation",
    "conventional_yield_text", "cluster_open_space", "per_district", "slope_area_sqft", "buffer_width_ft",
    "buffer_around_water_bodies", "buffer_note", "cluster_applies", "cluster_applies_reason", "cluster_triggers",
    "permits", "project_described", "land_permits", "min_lot_area_what_if", "steep_slope_design_limits",
    "mitigation", "adjacent_owners", "footprint", "warnings", "disclaimer", "layers_name", "layers_version",
    "layers_illustrative", "layers_notice", "params_version", "tool_version", "approvals", "approvals_detail",
    "state_wetlands",
]

DEMO_PARCELS = sorted(str(p) for p in golden.DEMO.iterdir()
                      if p.suffix in (".geojson", ".gpkg", ".dxf", ".kml", ".zip"))
TAX_PARCELS = golden._sbls(12)
TARGETS = [(t, p) for t in DEMO_PARCELS + TAX_PARCELS for p in (False, True)]


def _name(target: tuple[str, bool]) -> str:
    return f"{Path(target[0]).name}{'+project' if target[1] else ''}"


def printed(target: str, with_project: bool) -> str:
    """What ``analyze --json`` prints for the parcel (the golden outputs' date and layers)."""
    argv = ["analyze", target, "--layers", golden.LAYERS, "--as-of", golden.AS_OF, "--json"]
    if with_project:
        argv += ["--project", golden.PROJECT]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert cli_main(argv) == 0, err.getvalue()
    return out.getvalue()


def as_printed(d: dict) -> str:
    """A dict as the command line prints it."""
    return json.dumps(d, indent=2, ensure_ascii=False) + "\n"


@pytest.fixture(scope="module")
def sample_result() -> dict:
    """The JSON of the first demo parcel with the demo project (every part of the result present)."""
    return json.loads(printed(DEMO_PARCELS[0], True))


@pytest.mark.parametrize("target", TARGETS, ids=_name)
def test_the_printed_result_reads_back_and_prints_the_same(target):
    text = printed(*target)
    d = json.loads(text)
    assert list(d) == CONTRACT_KEYS
    r = ParcelResult.from_dict(d)
    assert as_printed(r.to_dict()) == text  # the same JSON, key order included
    assert r.to_dict() == d
    assert ParcelResult.from_dict(r.to_dict()) == r


def test_the_result_of_analyze_parcel_is_the_typed_result_and_to_dict_its_json(sample_result):
    layers = load_manifest(golden.LAYERS)
    parcel = parcel_by_sbl(layers, TAX_PARCELS[0])
    a = analyze_parcel(parcel, layers, as_of=dt.date.fromisoformat(golden.AS_OF))
    assert isinstance(a, Analysis) and isinstance(a.result, ParcelResult)
    assert a.to_dict() == a.result.to_dict()
    assert a.result.as_of == dt.date.fromisoformat(golden.AS_OF)
    assert all(isinstance(p, Permit) for p in a.result.permits)
    assert all(isinstance(t, Trigger) for t in a.result.cluster_triggers)
    assert all(isinstance(d, Deduction) for d in a.result.deductions)
    assert ParcelResult.from_dict(a.to_dict()) == a.result


def test_the_parts_are_read_by_attribute(sample_result):
    r = ParcelResult.from_dict(sample_result)
    assert r.net_lot_area_min_sqft <= r.net_lot_area_sqft  # a range stays a range
    assert r.footprint is not None and r.footprint.area_sqft == sample_result["footprint"]["area_sqft"]
    assert r.mitigation.gate.citation == "§ 402-57P(1)"
    assert [p.id for p in r.permits] == [p["id"] for p in sample_result["permits"]]
    assert r.permit("wetland_permit").required is sample_result["permits"][1]["required"]
    assert r.per_district[0].cluster.citation == "§ 402-48F"
    assert r.state_wetlands == sample_result["state_wetlands"]


def test_unknown_stays_none_with_its_reason(sample_result):
    d = copy.deepcopy(sample_result)
    row = d["deductions"][0]
    row.update(area_sqft=None, deducted_sqft=None, status="unknown", note="Unknown: its layer is not loaded.")
    r = ParcelResult.from_dict(d)
    assert r.deductions[0].area_sqft is None and r.deductions[0].note == "Unknown: its layer is not loaded."
    assert r.to_dict()["deductions"][0] == row


def test_an_unknown_key_is_refused(sample_result):
    with pytest.raises(ResultShapeError, match="unknown key 'colour'"):
        ParcelResult.from_dict({**sample_result, "colour": "red"})


def test_an_unknown_key_inside_a_part_is_refused(sample_result):
    d = copy.deepcopy(sample_result)
    d["deductions"][0]["colour"] = "red"
    with pytest.raises(ResultShapeError, match="deductions.*unknown key 'colour'"):
        ParcelResult.from_dict(d)
    d = copy.deepcopy(sample_result)
    d["permits"][0]["colour"] = "red"
    with pytest.raises(ResultShapeError, match="permits.*unknown key 'colour'"):
        ParcelResult.from_dict(d)


def test_a_missing_key_is_refused(sample_result):
    d = dict(sample_result)
    del d["net_lot_area_min_sqft"]
    with pytest.raises(ResultShapeError, match="missing key 'net_lot_area_min_sqft'"):
        ParcelResult.from_dict(d)
    d = copy.deepcopy(sample_result)
    del d["mitigation"]["gate"]["citation"]
    with pytest.raises(ResultShapeError, match="mitigation.gate.*missing key 'citation'"):
        ParcelResult.from_dict(d)
    d = copy.deepcopy(sample_result)
    del d["state_wetlands"]
    with pytest.raises(ResultShapeError, match="missing key 'state_wetlands'"):
        ParcelResult.from_dict(d)


def test_a_cluster_trigger_that_is_not_one_is_refused(sample_result):
    d = copy.deepcopy(sample_result)
    d["cluster_triggers"][0]["id"] = "402-48C(99)"
    with pytest.raises(ResultShapeError, match="not a cluster trigger"):
        ParcelResult.from_dict(d)


def test_what_is_read_back_shares_nothing_with_the_dict(sample_result):
    d = copy.deepcopy(sample_result)
    r = parcel_result(d)
    d["approvals_detail"]["seqr"]["class"] = "changed"
    d["warnings"].append("changed")
    assert r.approvals_detail.seqr["class"] != "changed" and "changed" not in r.warnings
    out = r.to_dict()
    out["approvals_detail"]["seqr"]["class"] = "changed again"
    assert r.approvals_detail.seqr["class"] != "changed again"
    assert parcel_result(r) is r
