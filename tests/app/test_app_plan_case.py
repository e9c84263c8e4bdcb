"""A case keeps what the plan reader said of the plan's file (its units, say), and shows it again when reopened.

The plan is a DXF whose header calls its units feet ($INSUNITS 2): the reader says it read them as US survey feet.
The case keeps the plan's features in EPSG:2260 feet, which cannot say that again, so it keeps the sentence too.
The lots are on the sample parcel 162.13-1-1 (tests/plan/plan_files.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "plan"))
import app_fixtures as fx  # noqa: E402
import plan_files as pf  # noqa: E402

from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402

SAMPLE = ROOT / "data" / "sample" / "layers.yaml"
FEET = "The drawing's units are feet"


@pytest.fixture(autouse=True)
def sample_layers(monkeypatch):
    monkeypatch.delenv("SLOAT_LAYERS", raising=False)


def _captions(at) -> list[str]:
    return [c.value.replace("\\", "") for c in at.caption]


def test_the_plan_readers_warnings_are_kept_in_the_case_and_shown_again_when_it_reopens(tmp_path, data_dir, media):
    from streamlit.testing.v1 import AppTest

    from app_support.cases import cases_ui

    doc = pf.new_dxf(units=2)  # "feet": which foot is not said
    for i in range(2):
        pf.add_rect(doc.modelspace(), pf.lot_box(i), "LOTS")
    parcel = parcel_by_sbl(load_manifest(SAMPLE), pf.SAMPLE_SBL)
    at = fx.open_page("pages/plan.py", parcel=parcel, timeout=60)
    at.file_uploader(key="plan_upload").upload("feet.dxf", pf.save(doc, tmp_path / "feet.dxf").read_bytes(),
                                               "application/octet-stream")
    at.run()
    assert not at.exception
    said = [c for c in _captions(at) if c.startswith(FEET)]
    assert len(said) == 1
    case = at.session_state[cases_ui.CASE]
    assert cases_ui.store().open_case(case.id).plan["warnings"] == said

    again = AppTest.from_file(fx.APP, default_timeout=60)
    again.query_params["case"] = case.id
    again.run()
    again.switch_page("pages/plan.py")
    again.run()
    assert not again.exception
    assert [c for c in _captions(again) if c.startswith(FEET)] == said
    page = fx.download(again, media, "plan_html").decode("utf-8")  # the plan's document says it too
    assert "Points to check" in page and FEET.replace("'", "&#x27;") in page
    # saved again, the sentence is kept once
    assert cases_ui.store().open_case(case.id).plan["warnings"] == said


@pytest.mark.parametrize("warnings, words", [("feet", "must be a list"), ([1], "must be a list"),
                                             (["x" * 501], "short texts"), (["w"] * 51, "at most 50")])
def test_a_case_file_whose_plan_warnings_are_not_short_sentences_is_refused(warnings, words):
    from sloat_core.errors import SloatInputError
    from sloat_core.store import Case, case_from_json, case_to_json

    doc = json.loads(case_to_json(Case()))
    doc["case"]["plan"] = {"warnings": warnings}
    with pytest.raises(SloatInputError, match="The case's plan cannot be used") as err:
        case_from_json(json.dumps(doc))
    assert words in str(err.value)
