"""Case & exports: the case's link, its notes, every download, the import of a case file, staff mode.

A case starts with the first parcel chosen (or with "Start a new case") and is saved on every
change (``app_support.cases.cases_ui``). In public (counter) mode this page shows only the current case's
link; staff, after the passcode, list, search, open, archive and undo (``staff_ui.staff_panel``).
The downloads are made by ``sloat_core`` (``app_support.cases.exports_ui``).

An archived case (opened from its link) is read-only: its downloads are those of the case as saved,
its notes cannot be edited, and "Start a new case from this one" makes a copy with a new link.
"""

from __future__ import annotations

import streamlit as st

from app_support import loaders
from app_support.analysis_door import DISCLAIMER, SloatInputError, law_day
from app_support.cases import cases_ui, exports_ui, staff_ui
from app_support.frame import deep_links, state
from app_support.inputs import plan_inputs
from app_support.views.results import sqft_text
from app_support.widgets.citations import escape_links, escape_markdown
from app_support.widgets.copy_link import copy_link

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

mode = state.mode()
st.title("Case & exports")
cases_ui.autosave(inline=True)  # what is shown below is what is saved now
case = cases_ui.current_case()
today = law_day()  # the app's day: the case is analysed by the law in force then, and its files dated it


def _guarded(action) -> None:
    """Run a case action from a button; a failure becomes the page's one-sentence message."""
    try:
        action()
    except cases_ui.CASE_PROBLEMS as exc:
        st.session_state[cases_ui.MESSAGE] = cases_ui.problem_sentence(exc)


def _new_case() -> None:
    _guarded(cases_ui.start_new_case)


def _fork() -> None:
    _guarded(cases_ui.save_as_new_case)


def _notes_changed() -> None:
    st.session_state[cases_ui.NOTES] = st.session_state[cases_ui.NOTES_BOX]


st.subheader("This case")
if case is None:
    st.info("No case yet: one starts as soon as you choose a parcel, or with the button below. "
            "Everything is then saved as you go.")
else:
    st.markdown("This link reopens the case, on this computer or another, after a refresh or a restart. "
                "Keep it: nobody can find the case without it.")
    copy_link(cases_ui.case_link(case.id))  # a visible "Copy link" button, keyboard too
    st.caption("For the Planning Board on a projector, the walk-through of this case:")
    copy_link(cases_ui.case_link(case.id, page="walkthrough", mode=state.PROJECTOR),
              label="Link to this case's walk-through on a projector")
    st.caption(f"{escape_markdown(case.title or 'No parcel yet')} · saved {case.updated_at[:16].replace('T', ' ')} UTC · "
               f"version {case.revision}" + (" · archived" if case.archived else ""))
if cases_ui.read_only():
    if cases_ui.archived_edits_refused():
        st.warning("Changes are not saved to an archived case: what is on screen now differs from the saved "
                   "case. Start a new case from it to keep your changes.")
    st.button("Start a new case from this one", key="case_copy", on_click=_fork, type="primary",
              icon=":material/content_copy:",
              help="A copy with its own link, holding what is on screen now; the archived case stays as it is.")
if cases_ui.in_conflict():
    st.button("Save my version as a new case", key="case_fork", on_click=_fork, type="primary")
st.button("Start a new case", key="case_new", on_click=_new_case, icon=":material/add:",
          help="Clears the parcel, project, dates and notes. The current case stays saved at its link.")

if cases_ui.NOTES_BOX not in st.session_state:
    st.session_state[cases_ui.NOTES_BOX] = st.session_state.get(cases_ui.NOTES) or ""
st.text_area("Notes (saved with the case and printed on the summary)", key=cases_ui.NOTES_BOX,
             on_change=_notes_changed, max_chars=20_000, height=140 if mode != state.PROJECTOR else 200,
             disabled=cases_ui.read_only())

st.subheader("Downloads")
analysis, layers = None, None
if case is not None:
    try:
        layers = loaders.layerset()
        analysis = cases_ui.case_analysis(case, as_of=today)
    except SloatInputError as exc:
        st.error(escape_links(str(exc)))
    if analysis is not None:
        r = analysis.result
        cols = st.columns(3)
        cols[0].metric("Gross area", sqft_text(r.gross_area_sqft).split(" (")[0])
        cols[1].metric("Net lot area", sqft_text(r.net_lot_area_sqft).split(" (")[0])
        cols[2].metric("District", r.district or "not known")
    elif case.parcel_geojson is None:
        st.caption("Choose a parcel to get the summary, the map pieces and the tables; "
                   "the case file and the dates can be downloaded now.")
    found_plan = plan_inputs.checked(state.current_parcel(), layers)[0] if analysis is not None else None
    exports_ui.download_buttons(exports_ui.export_files(case, analysis, layers, as_of=today, plan=found_plan),
                                columns=1 if mode == state.PROJECTOR else 2)
    st.caption("The summary is worked out for today; the case file brings back the same analysis "
               "when it is imported.")
else:
    st.caption("Nothing to download yet.")

st.subheader("Import a case")
st.caption("A case file becomes a new case with its own link; the current case stays as it is.")
exports_ui.import_uploader()

with st.expander("Staff", expanded=staff_ui.staff_token() is not None):
    staff_ui.staff_panel()
st.caption(DISCLAIMER)
