"""The Proposed project page and the Parcel page's answer, about the project first.

AppTests on the hand-built layer set (tests/app_fixtures.py): P1 has a 50-ft wetland strip on its west side
and its 100-ft buffer; the streams and ponds layers are not loaded (a drawn footprint's wetland answer is
then unknown for want of layers: tests/engine/test_answer_project_first.py draws one on the full sample).
"""

from __future__ import annotations

import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from sloat_core.engine.answer import PARCEL_HEADING, PROJECT_HEADING  # noqa: E402
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402

PROJECT = {"trees_removed": 3, "commercial_excavation": True}


def _page(page: str, manifest, mode: str | None = None, **session) -> AppTest:
    return fx.open_page(page, parcel=parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL), mode=mode,
                        **session)


def _text(at: AppTest) -> str:
    kinds = ("markdown", "caption", "subheader", "success", "info", "warning", "error")
    return "\n".join(str(e.value) for kind in kinds for e in at.get(kind)).replace("\u00a0", " ").replace("\\", "")


def test_the_project_page_tells_what_the_project_needs_then_what_the_parcel_carries(manifest):
    at = _page("pages/project.py", manifest, **{state.PROJECT: dict(PROJECT)})
    heads = [s.value for s in at.subheader]
    assert PROJECT_HEADING in heads and PARCEL_HEADING in heads
    assert heads.index(PROJECT_HEADING) < heads.index(PARCEL_HEADING)
    labels = [e.label for e in at.expander]
    assert "Tree removal permit: needed" in labels
    # Nothing says where the work happens: the wetland permit is the parcel's (for work there), not the project's.
    assert "Wetland permit: for work on that land" in labels and "Wetland permit: needed" not in labels
    # A prohibition is told apart, never among the permits.
    assert not any("Commercial excavation" in label for label in labels)
    assert any("Not allowed at all" in e.value and "Commercial excavation" in e.value for e in at.error)


def test_an_open_question_of_the_project_names_the_fact_to_give(manifest):
    at = _page("pages/project.py", manifest, **{state.PROJECT: {"trees_removed": 3}})
    labels = [e.label for e in at.expander]
    sewer = next(label for label in labels if label.startswith("Approved wastewater disposal"))
    assert sewer.endswith("say whether a new structure needs sanitary facilities")


def test_the_counter_form_asks_the_sewer_questions_it_would_otherwise_call_unknown(manifest):
    at = _page("pages/project.py", manifest, mode=state.COUNTER, **{state.PROJECT: {"trees_removed": 3}})
    radios = {r.label: r for r in at.radio}
    assert "New sanitary (septic or sewer) facilities?" in radios and "Is public sewer available?" in radios
    radios["New sanitary (septic or sewer) facilities?"].set_value(next(
        o for o in radios["New sanitary (septic or sewer) facilities?"].options if o.lower().startswith("no")))
    at.run()
    assert not at.exception
    assert at.session_state[state.PROJECT]["sanitary_facilities"] is False
    assert "say whether a new structure needs sanitary facilities" not in _text(at)


def test_the_parcels_counter_answer_is_about_the_project_when_one_is_given(manifest):
    at = _page("pages/parcel.py", manifest, mode=state.COUNTER, **{state.PROJECT: {"trees_removed": 3}})
    text = _text(at)
    assert "You will likely need a tree removal permit" in text
    assert text.index(PROJECT_HEADING) < text.index(PARCEL_HEADING)
    assert "Work in that land would need a wetland permit" in text  # the land's, for any later work
    without = _page("pages/parcel.py", manifest, mode=state.COUNTER)
    assert "No project is described yet" in _text(without)
    assert "tree removal permit" not in _text(without)


def test_standard_parcel_page_splits_unknowns_by_what_is_missing(manifest):
    at = _page("pages/parcel.py", manifest, **{state.PROJECT: {"trees_removed": 3}})
    text = _text(at)
    assert f"**{PROJECT_HEADING}**" in text.replace("\\", "") or PROJECT_HEADING in text
    assert "Depends on the project:" in text and "say whether a new structure needs sanitary facilities" in text
    assert not any(c.value.startswith("Unknown on the layers available") and "wastewater" in c.value.lower()
                   for c in at.caption)


def test_a_district_without_a_minimum_shows_the_what_if_and_whom_to_ask_in_both_modes(manifest):
    for mode in (state.COUNTER, None):
        at = _page("pages/parcel.py", manifest, mode=mode)
        at.selectbox(key="district_picker").set_value("VC-1").run()
        assert not at.exception
        text = _text(at)
        assert "What if (not the Village's figures): if the VC-1 minimum were 10,000 sq ft" in text, mode
        assert "Ask the Building Department at Village Hall for the real minimum" in text
        assert "candidates to confirm with the Village" in text
        assert "looks possible" not in text and "does not look possible" not in text  # never a verdict
