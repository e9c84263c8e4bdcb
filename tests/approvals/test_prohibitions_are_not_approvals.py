"""§ 402-52 prohibits commercial excavation: no board or official can grant it, so it is never listed among the
approvals to obtain (carried into the one list of approvals): the core's list, the Proposed
project page, the walk-through's board and the printed report all name it apart, as "not allowed at all".
Layers: tests/app_fixtures.py (P1 156.14-1-23)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402

PROHIBITION = "commercial_excavation_prohibited"


def _result(manifest, excavation):
    layers = load_manifest(manifest)
    return analyze(parcel_by_sbl(layers, fx.P1_SBL), layers, project={"commercial_excavation": excavation})


def _approval_ids(result) -> set:
    return {i["id"] for g in result["approvals"] for i in g["items"]}


@pytest.mark.parametrize("excavation, required", [(True, True), (None, None)])
def test_a_prohibition_the_project_may_touch_is_a_permit_answer_and_never_an_approval(manifest, excavation,
                                                                                        required):
    result = _result(manifest, excavation)
    permit = next(p for p in result["permits"] if p["id"] == PROHIBITION)
    assert permit["required"] is required and permit["citation"] == "§ 402-52"
    assert PROHIBITION not in _approval_ids(result)
    assert _approval_ids(result)  # the list itself is there (SEQR at least)


def test_the_report_says_the_prohibition_apart_and_lists_no_approval_for_it(manifest):
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.engine.plain import prohibition_sentence
    from sloat_core.outputs.report.reading import approval_rows

    layers = load_manifest(manifest)
    result = analyze_parcel(parcel_by_sbl(layers, fx.P1_SBL), layers, project={"commercial_excavation": True}).result
    rows = approval_rows(result, 0, 60)
    assert rows and not [r for r in rows if "excavation" in r[1].lower()]
    assert prohibition_sentence(result.permit(PROHIBITION)).startswith(
        "Not allowed at all, with or without a permit: Commercial excavation (prohibited) (§ 402-52).")


def test_the_project_page_and_the_board_name_it_apart_never_as_an_approval(manifest, data_dir):
    from streamlit.testing.v1 import AppTest

    from app_support.frame import state

    app = str(Path(__file__).resolve().parents[2] / "app.py")
    layers = load_manifest(manifest)
    parcel = parcel_by_sbl(layers, fx.P1_SBL)
    at = AppTest.from_file(app, default_timeout=60)
    at.session_state[state.PARCEL] = parcel
    at.session_state[state.PROJECT] = {"commercial_excavation": True}
    at.switch_page("pages/project.py").run()
    assert not at.exception, at.exception
    from sloat_core.engine.approval_list import DECIDERS

    deciders = [e for e in at.expander if re.fullmatch(rf"({'|'.join(map(re.escape, DECIDERS))}) \(\d+\)", e.label)]
    listed = [m.value for e in deciders for m in e.markdown]
    assert listed and not [v for v in listed if "excavation" in v.lower()], listed
    assert any(v.value.startswith("Not allowed at all, with or without a permit: Commercial excavation")
               for v in at.error), [v.value for v in at.error]
