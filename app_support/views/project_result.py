"""The project's analysis for pages other than Proposed project (Timeline, walk-through).

The Proposed project page keeps its last result in ``forms.LAST_PROJECT_RESULT``. A case opened
from its link (or a reload) has the project but no such result until that page is visited; this
module works it out from the saved project, the same way the project page does, so the Timeline
lists the case's project permits straight away.
"""

from __future__ import annotations

import streamlit as st

from app_support import loaders
from app_support.analysis_door import SloatInputError
from app_support.frame import state
from app_support.widgets import forms

__all__ = ["ensure_project_result", "project_answer_result"]


def ensure_project_result() -> None:
    """Fill ``forms.LAST_PROJECT_RESULT`` from the session's project when it is missing or stale.

    Nothing happens without a parcel or a project, or when the project cannot be analysed (the
    project page shows that sentence).
    """
    ss = st.session_state
    parcel, project = state.current_parcel(), ss.get(state.PROJECT)
    if parcel is None or not project:
        return
    district = ss.get(state.DISTRICT)
    key = forms.project_result_key(parcel, district)
    last = ss.get(forms.LAST_PROJECT_RESULT)
    if last and last[0] == key:
        return
    try:
        outcome = forms.project_analysis(parcel, loaders.layerset(), district, project,
                                         board_answers=ss.get(state.BOARD_ANSWERS))
    except SloatInputError:
        return
    ss[forms.LAST_PROJECT_RESULT] = (key, outcome)


def project_answer_result(parcel, district: str | None):
    """The analysis with the session's project (the typed result), for the parcel's short answer (None without a
    project).

    With a project described, the Parcel page's answer is about it (what it needs first, then what the
    parcel carries): the same result as the Proposed project page's.
    """
    if parcel is None or not st.session_state.get(state.PROJECT):
        return None
    ensure_project_result()
    last = st.session_state.get(forms.LAST_PROJECT_RESULT)
    if not last or last[0] != forms.project_result_key(parcel, district):
        return None
    return last[1][0]
