"""The app's side of the case store: open a case from its link, save on every change (case binding).

A *case* (``sloat_core.store.Case``) holds what a consultation produces. This module moves it
between the case store and the session state the pages use:

* :func:`begin` runs in ``app.py`` before the page. On a session's first run it opens the case
  named by ``?case=<id>`` in the URL and puts its parcel, district, project, footprint, Board
  answers, timeline items, mitigation inputs and notes into the session state; on later runs it
  saves anything a page that stopped early left unsaved.
* :func:`autosave` runs in ``app.py`` after the page (and inside the parcel page's map fragment,
  which reruns on its own). It compares a fingerprint of the case's session state with the one
  last saved and saves when they differ, with a fresh analysis snapshot when the parcel or the
  project changed. The first parcel chosen creates the case and puts its id in the URL.
  A failed save shows one sentence and keeps the session state (the next run tries again).
* An archived case's link opens it read-only (:func:`read_only`): :func:`begin` shows
  :data:`ARCHIVED_NOTICE` above every page, and a change made in the session is not saved (the
  store refuses it with ``CaseArchivedError``; its sentence is shown, once per change) until the
  user starts a new case from it (:func:`save_as_new_case`, a copy with a new link) or staff
  restore it.
* Staff mode (the passcode, the token, the Staff box) is :mod:`app_support.cases.staff_ui`; the token
  lives in the session only, under :data:`STAFF`.

The public face reaches a case only through the id in its link; listing and searching need the
staff token (``CaseStore`` enforces it).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json

import streamlit as st

from app_support import analysis_door, loaders
from app_support.frame import state, warm_thread
from app_support.inputs import plan_inputs
from app_support.widgets import forms
from app_support.widgets.citations import escape_links
from sloat_core.store import (
    Case,
    CaseArchivedError,
    CaseConflictError,
    CaseFolderError,
    CaseNotFound,
    CaseStore,
    CaseStoreError,
    StaffRequired,
    default_data_dir,
)
from sloat_core.errors import SloatInputError

__all__ = [
    "CASE",
    "NOTES",
    "NOTES_BOX",
    "STAFF",
    "MESSAGE",
    "CASE_PROBLEMS",
    "ARCHIVED_NOTICE",
    "CONFLICT_NOTICE",
    "read_only",
    "archived_edits_refused",
    "problem_sentence",
    "store",
    "current_case",
    "case_from_session",
    "fingerprint",
    "begin",
    "autosave",
    "load_case",
    "start_new_case",
    "save_as_new_case",
    "in_conflict",
    "case_analysis",
    "case_link",
    "parcel_of",
    "FOLDER_PROBLEM",
]

# Session-state keys of the case (beside app_support.frame.state's and app_support.widgets.forms' keys).
#: The case being edited (``sloat_core.store.Case`` as last saved), or None before the first save.
CASE = "case"
#: The case's notes (plain text).
NOTES = "case_notes"
#: The notes text area's widget key (seeded from NOTES, copied back on change).
NOTES_BOX = "case_notes_box"
#: The staff token (``sloat_core.store.StaffToken``) of this session, or None.
STAFF = "staff_token"
#: One sentence about the case for the user (a failed save, a bad link, a refused import), or None.
MESSAGE = "case_message"
_SAVED_FP = "case_saved_fingerprint"
#: (case id, revision, :func:`content_hash`) of what this session last saved or loaded: that content is not
#: written again as a new revision.
_SAVED_CONTENT = "case_saved_content"
_ANALYSIS_FP = "case_analysis_fingerprint"
_URL_CHECKED = "case_url_checked"
_CONFLICT = "case_conflict"
#: Fingerprint of the session's values whose save the store refused because the case is archived.
_REFUSED = "case_archived_refused"
#: The notice shown above every page while the session's case is archived.
ARCHIVED_NOTICE = ("This case is archived: you can view it, print it and download it, but not change it. "
                   "Staff can restore it.")
#: The notice shown above the page while another tab or window has saved the same case since this one opened it.
CONFLICT_NOTICE = ("This case was changed in another tab or window since this one opened it, so what you change "
                   "here is not saved. Show the latest version, or keep what is on screen as a new case.")
#: The one sentence shown when the data folder cannot be made or written.
FOLDER_PROBLEM = ("The case could not be saved because the server's data folder cannot be written to; "
                   "what is on screen is kept.")
#: What a case action can fail with: the store's errors, bad input, staff checks and the files beneath.
CASE_PROBLEMS = (CaseStoreError, SloatInputError, OSError)


def problem_sentence(exc: BaseException) -> str:
    """The one sentence to show for a failed case action (never a path or a traceback).

    A data folder that cannot be made or written gives FOLDER_PROBLEM; the store's own errors, bad
    input and staff refusals (``StaffRequired``, a PermissionError) give their own sentence.
    """
    if isinstance(exc, CaseFolderError):
        return FOLDER_PROBLEM
    if isinstance(exc, (CaseStoreError, SloatInputError, StaffRequired)):
        return str(exc)
    return FOLDER_PROBLEM  # any other OSError comes from the data folder


_OUTLINE = "case_outline"

#: The parcel page's note for a drawn parcel (whose outline the map then keeps in view itself).
_DRAWN = "Drawn on the map"


@st.cache_resource(show_spinner=False)
def _store(path: str) -> CaseStore:
    return CaseStore(path)


def store() -> CaseStore:
    """The process's case store (one per data folder: ``$SLOAT_DATA_DIR``, default ``./var/``)."""
    return _store(str(default_data_dir().resolve()))


def current_case() -> Case | None:
    """The case of this session as last saved, or None."""
    return st.session_state.get(CASE)


def read_only() -> bool:
    """Whether the session's case is archived (shown, printed and downloaded, never saved to)."""
    case = current_case()
    return bool(case is not None and case.archived)


def archived_edits_refused() -> bool:
    """Whether the session holds changes that were not saved because its case is archived."""
    return bool(read_only() and st.session_state.get(_REFUSED))


# ----------------------------------------------------------------------------------------------
# Session state <-> case
# ----------------------------------------------------------------------------------------------


def _district() -> str | None:
    """The chosen district code (None: the zoning map's).

    The district selector's key is forgotten by Streamlit on pages that do not draw it (and then
    reads None); the case keeps the last choice, and :func:`begin` puts it back before each page.
    """
    value = st.session_state.get(state.DISTRICT)
    case = st.session_state.get(CASE)
    if value is None and case is not None and case.parcel_geojson is not None:
        return case.district
    return value or None


def _session_values() -> dict:
    """The case-relevant session state, as plain values (the parcel by its geometry's hash)."""
    ss = st.session_state
    parcel = ss.get(state.PARCEL)
    return {
        "parcel": loaders.parcel_key(parcel) if parcel is not None else None,
        "parcel_meta": _parcel_meta(parcel),
        "district": _district(),
        "project": ss.get(state.PROJECT) or {},
        "footprint": ss.get(forms.FOOTPRINT),
        "board_answers": ss.get(state.BOARD_ANSWERS) or {},
        "timeline_items": list(ss.get(forms.TIMELINE_ITEMS) or []),
        "mitigation_input": ss.get(forms.MITIGATION_INPUT) or {},
        "notes": ss.get(NOTES) or "",
        "plan": plan_inputs.case_key(),  # the plan read and its options (the case keeps its drawings)
    }


def _parcel_meta(parcel) -> dict:
    if parcel is None:
        return {}
    return {"source": getattr(parcel, "source", None), "sbl": getattr(parcel, "sbl", None),
            "address": getattr(parcel, "address", None), "district": getattr(parcel, "district", None),
            "note": st.session_state.get(state.PARCEL_NOTE) or ""}


def fingerprint(values: dict) -> str:
    """A short hash of plain values (what was saved vs what the session holds now)."""
    text = json.dumps(values, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


#: The fields of a case that a save writes as its content (the id, revision and timestamps aside).
_CONTENT_FIELDS = ("title", "parcel_geojson", "parcel_meta", "district", "project", "board_answers",
                   "timeline_items", "notes", "mitigation_input", "settings_overrides", "plan", "analysis",
                   "params_version", "law_text_sha256", "layers_name", "layers_version", "archived")


def content_hash(case: Case) -> str:
    """A hash of what saving ``case`` writes (its content fields, not its revision or timestamps)."""
    return fingerprint({name: getattr(case, name) for name in _CONTENT_FIELDS})


def _analysis_fp(values: dict) -> str:
    keys = ("parcel", "district", "project", "footprint", "board_answers", "mitigation_input")
    return fingerprint({k: values[k] for k in keys})


def _title(meta: dict) -> str:
    if meta.get("sbl") or meta.get("address"):
        return " · ".join(str(meta[k]) for k in ("sbl", "address") if meta.get(k))[:200]
    return (meta.get("note") or meta.get("source") or "Case without a parcel")[:200]


def case_from_session(base: Case | None = None) -> Case:
    """A copy of ``base`` (or a new case) holding the session's parcel, project, dates and notes."""
    ss = st.session_state
    values = _session_values()
    parcel = ss.get(state.PARCEL)
    project = dict(values["project"])
    if values["footprint"] and not project.get("disturbance_footprint"):
        project["disturbance_footprint"] = values["footprint"]
    case = dataclasses.replace(base) if base is not None else Case()
    case.title = _title(values["parcel_meta"]) if parcel is not None else (base.title if base else "")
    outline = ss.get(_OUTLINE)  # (parcel key, GeoJSON) of the outline last saved or loaded
    if parcel is None:
        case.parcel_geojson = None
    elif outline and outline[0] == values["parcel"]:
        case.parcel_geojson = outline[1]  # not projected again: the saved outline stays bit-identical
    else:
        case.parcel_geojson = loaders.wgs84_outline(parcel.geometry)
    case.parcel_meta = values["parcel_meta"]
    case.district = values["district"]
    case.project = project
    case.board_answers = dict(values["board_answers"])
    case.timeline_items = [dict(i) for i in values["timeline_items"]]
    case.mitigation_input = dict(values["mitigation_input"])
    case.notes = values["notes"]
    case.plan = plan_inputs.case_value()
    return case


def parcel_of(case: Case):
    """The case's parcel (``sloat_core.gis.parcels.Parcel``), or None when it has none.

    Raises
    ------
    sloat_core.errors.SloatInputError
        When the saved outline cannot be read.
    """
    from sloat_core.gis.parcels import parcel_from_geojson

    if case.parcel_geojson is None:
        return None
    meta = case.parcel_meta or {}
    parcel = warm_thread.run(parcel_from_geojson, case.parcel_geojson,  # PROJ set up once there, not per run
                             source=meta.get("source") or "saved case")
    return dataclasses.replace(parcel, sbl=meta.get("sbl"), address=meta.get("address"),
                               district=meta.get("district"))


def _clear_widgets() -> None:
    for key in list(st.session_state.keys()):
        if isinstance(key, str) and key.startswith(state.CASE_WIDGET_PREFIXES):
            del st.session_state[key]
    st.session_state.pop(NOTES_BOX, None)


def load_case(case: Case) -> None:
    """Make ``case`` the session's case: its values replace the session's and the URL names it.

    Raises
    ------
    sloat_core.errors.SloatInputError
        When the case's parcel outline cannot be read (nothing in the session is changed).
    """
    parcel = parcel_of(case)
    ss = st.session_state
    _clear_widgets()
    meta = case.parcel_meta or {}
    ss[state.PARCEL] = parcel
    note = meta.get("note") or (f"Saved case: {meta.get('source')}" if parcel else "")
    if note == _DRAWN:  # not on the map's drawing layer any more: let the parcel page zoom to it
        note = f"{_DRAWN} (reopened from the case)"
    ss[state.PARCEL_NOTE] = note
    ss[state.DISTRICT] = case.district or ""
    ss[state.PROJECT] = dict(case.project) or None
    ss[forms.FOOTPRINT] = (case.project or {}).get("disturbance_footprint")
    for key in (forms.FOOTPRINT_SEEN, forms.LAST_PROJECT_RESULT, state.SEEN_DRAWINGS, state.SEEN_CLICK,
                state.SEEN_UPLOAD, state.UPLOAD_ERROR):
        ss[key] = None
    ss[state.BOARD_ANSWERS] = dict(case.board_answers) or None
    ss[forms.TIMELINE_ITEMS] = [dict(i) for i in case.timeline_items]
    ss[forms.MITIGATION_INPUT] = dict(case.mitigation_input) or None
    ss[NOTES] = case.notes
    ss[CASE] = case
    ss[_REFUSED] = None
    ss[MESSAGE] = plan_inputs.restore(case.plan)  # None, or why the case's plan could not be read again
    values = _session_values()
    ss[_OUTLINE] = (values["parcel"], case.parcel_geojson) if parcel is not None else None
    ss[_SAVED_FP] = fingerprint(values)
    ss[_ANALYSIS_FP] = _analysis_fp(values)
    ss[_SAVED_CONTENT] = (case.id, case.revision, content_hash(case))
    _sync_url(case.id)


def _sync_url(case_id: str) -> None:
    if st.query_params.get("case") != case_id:
        st.query_params["case"] = case_id


# ----------------------------------------------------------------------------------------------
# Saving
# ----------------------------------------------------------------------------------------------


def case_analysis(case: Case, *, as_of: dt.date | None = None):
    """The case's analysis (as ``sloat_core.store.analyze_case`` runs it), through the one door.

    Returns
    -------
    sloat_core.engine.analysis.Analysis or None
        None when the case has no parcel.

    Raises
    ------
    sloat_core.errors.SloatInputError
        When the case's inputs cannot be analysed.
    """
    if case.parcel_geojson is None:
        return None
    settings, settings_id = None, None
    if case.settings_overrides:  # the shipped file with the case's overrides (as sloat_core.store.analyze_case)
        from sloat_core.law.settings import load_settings

        settings = load_settings(None, overrides=case.settings_overrides)
        settings_id = "case overrides " + json.dumps(case.settings_overrides, sort_keys=True, default=str)
    return analysis_door.analysis(parcel_of(case), loaders.layerset(), district=case.district,
                                  project=case.project or None, board_answers=case.board_answers or None,
                                  mitigation_input=case.mitigation_input or None, as_of=as_of,
                                  settings=settings, settings_id=settings_id)


def _snapshot(case: Case, parcel) -> dict | None:
    """The analysis result to keep with the case: a copy of its own.

    With only a parcel and a district (no project, answers or mitigation figures) this is the
    parcel page's own cached result, so choosing or drawing a parcel costs no second analysis.
    """
    if case.parcel_geojson is None or parcel is None:
        return None
    if not (case.project or case.board_answers or case.mitigation_input or case.settings_overrides):
        # the parcel page's own result, written as the store keeps it (a dict of its own)
        return analysis_door.copy_result(analysis_door.result(parcel, loaders.layerset(), district=case.district))
    return analysis_door.copy_result(case_analysis(case).result)


def _has_content(values: dict) -> bool:
    return bool(values["parcel"] or values["timeline_items"] or values["notes"].strip())


def _save_session(base: Case | None, *, new: bool = False) -> Case:
    """Save the session's values into ``base`` (or a new case); returns the saved case."""
    ss = st.session_state
    values = _session_values()
    case = case_from_session(None if new else base)
    if new and base is not None:
        case.settings_overrides = dict(base.settings_overrides)
    afp = _analysis_fp(values)
    archived = base is not None and base.archived and not new  # the store refuses it: no analysis for it
    if not archived and (new or base is None or afp != ss.get(_ANALYSIS_FP)
                         or (case.parcel_geojson and case.analysis is None)):
        try:
            result = _snapshot(case, ss.get(state.PARCEL))
        except SloatInputError:  # the pages show why; the inputs are saved all the same
            result = None
        if result is None:
            case.analysis = None
        else:
            case.record_analysis(result, owned=True)  # (_snapshot's own copy)
    content = content_hash(case)
    if new or base is None or base.revision == 0 or ss.get(_SAVED_CONTENT) != (base.id, base.revision, content):
        store().save(case)  # (else this revision in the store holds this very content: nothing is written)
    else:
        case = base
    ss[_SAVED_CONTENT] = (case.id, case.revision, content)
    ss[CASE] = case
    ss[_OUTLINE] = (values["parcel"], case.parcel_geojson) if case.parcel_geojson is not None else None
    ss[_SAVED_FP] = fingerprint(values)
    ss[_ANALYSIS_FP] = afp
    ss[MESSAGE] = None
    ss[_REFUSED] = None
    return case


def _try_save(*, create: bool) -> Case | None:
    ss = st.session_state
    values = _session_values()
    case = ss.get(CASE)
    if case is None and not (create and _has_content(values)):
        return None
    fp = fingerprint(values)
    if case is not None and fp == ss.get(_SAVED_FP):
        if ss.get(_REFUSED):  # back to what the archived case holds: nothing is left unsaved
            ss[_REFUSED], ss[MESSAGE] = None, None
        return case
    if case is not None and case.archived and ss.get(_REFUSED) == fp:
        return case  # this change was refused already; its sentence is still shown
    try:
        saved = _save_session(case)
    except CaseConflictError as exc:
        ss[MESSAGE], ss[_CONFLICT] = str(exc), True
    except CASE_PROBLEMS as exc:
        ss[MESSAGE] = problem_sentence(exc)
        if isinstance(exc, CaseArchivedError):
            ss[_REFUSED] = fp
    else:
        ss[_CONFLICT] = False
        return saved
    return case


def in_conflict() -> bool:
    """Whether the last save was refused because the case was changed in another window."""
    return bool(st.session_state.get(_CONFLICT))


def begin() -> None:
    """Before the page: open the case of ``?case=`` on a session's first run, else catch up on saving.

    An archived case opens read-only, and :data:`ARCHIVED_NOTICE` is shown above the page.
    """
    ss = st.session_state
    if ss.get(_URL_CHECKED):
        case = ss.get(CASE)
        if ss.get(state.DISTRICT) is None and case is not None and case.parcel_geojson is not None:
            ss[state.DISTRICT] = case.district or ""  # the selector's key was forgotten on another page
        _try_save(create=True)
    else:
        ss[_URL_CHECKED] = True
        _open_from_url()
    if read_only():
        st.warning(ARCHIVED_NOTICE, icon=":material/inventory_2:")
    _check_other_tab()
    if in_conflict():  # at the top of the page, not only in the sidebar
        st.warning(CONFLICT_NOTICE, icon=":material/warning:")
        cols = st.columns([1, 1, 2])
        cols[0].button("Show the latest version", key="case_reload_top", on_click=_reload_guarded, type="primary")
        cols[1].button("Keep mine as a new case", key="case_fork_top", on_click=_copy_guarded)


def _check_other_tab() -> None:
    """Mark the session in conflict when the store holds a newer version of its case (saved by another tab)."""
    ss = st.session_state
    case = ss.get(CASE)
    if case is None or in_conflict() or case.archived:
        return
    try:
        stored = store().revision_of(case.id)  # one column, not the whole case, on every run
    except CASE_PROBLEMS:
        return  # the next save says what is wrong
    if stored is not None and stored != case.revision:
        ss[_CONFLICT] = True


def _reload_guarded() -> None:
    """Button callback: load the case as the other tab saved it (what this tab changed is dropped)."""
    ss = st.session_state
    case = ss.get(CASE)
    try:
        load_case(store().open_case(case.id, staff=ss.get(STAFF), read_only=True))
    except CASE_PROBLEMS as exc:
        ss[MESSAGE] = problem_sentence(exc)
        return
    ss[_CONFLICT] = False


def _open_from_url() -> None:
    ss = st.session_state
    case_id = st.query_params.get("case")
    if not case_id:
        return
    try:  # an archived case opens read-only: a resident's printed link keeps working
        load_case(store().open_case(case_id, staff=ss.get(STAFF), read_only=True))
    except CaseNotFound as exc:
        ss[MESSAGE] = str(exc)
        del st.query_params["case"]
    except CASE_PROBLEMS as exc:  # the link stays: a refresh tries again
        ss[MESSAGE] = problem_sentence(exc)


def _fragment_rerun() -> bool:
    """Whether this run reruns a fragment only (app.py's code after the page does not run)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return bool(ctx is not None and getattr(ctx, "fragment_ids_this_run", None))


def autosave(*, inline: bool = False) -> None:
    """Save the case when its session state changed since the last save; keep the URL on it.

    Parameters
    ----------
    inline : bool
        Called inside a page (or its fragment): a failed save's sentence is shown here when only a
        fragment is rerunning, else by app.py's call, in the sidebar.
    """
    case = _try_save(create=True)
    if case is not None:
        _sync_url(case.id)
    message = st.session_state.get(MESSAGE)
    if inline:
        if message and _fragment_rerun():  # on a full run app.py's call shows it in the sidebar
            st.error(escape_links(message))
        return
    with st.sidebar:
        if message:
            st.error(escape_links(message))  # it may quote a case's title
        if case is not None and case.archived:
            if archived_edits_refused():
                st.button("Start a new case from this one", key="case_copy_sidebar", on_click=_copy_guarded,
                          help="A copy with its own link, holding what is on screen now; the archived "
                               "case stays as it is.")
            else:
                st.caption(f"Case {case.id[:6]}… is archived: it is shown as saved and cannot be changed.")
        elif case is not None and not message:
            st.caption(f"Saved automatically as case {case.id[:6]}…; its link is on the Case & exports page.")


def _copy_guarded() -> None:
    """Button callback: start a new case from the session's (archived) case; a failure is one sentence."""
    try:
        save_as_new_case()
    except CASE_PROBLEMS as exc:
        st.session_state[MESSAGE] = problem_sentence(exc)


def start_new_case() -> Case:
    """Clear the session's parcel, project, dates and notes and start an empty case (saved at once)."""
    ss = st.session_state
    _clear_widgets()
    for key in (state.PARCEL, state.PROJECT, state.BOARD_ANSWERS, forms.FOOTPRINT, forms.MITIGATION_INPUT,
                forms.LAST_PROJECT_RESULT, forms.FOOTPRINT_SEEN, state.SEEN_DRAWINGS, state.SEEN_CLICK):
        ss[key] = None
    ss[state.PARCEL_NOTE], ss[state.DISTRICT], ss[NOTES] = "", "", ""
    ss[forms.TIMELINE_ITEMS] = []
    ss[CASE] = None
    case = _save_session(None)
    _sync_url(case.id)
    return case


def save_as_new_case() -> Case:
    """Save what the session holds as a new case with a new link.

    After a conflict, or to start a new case from an archived one: the copy holds the parcel,
    project, dates, notes and setting overrides on screen (changes included), is not archived, and
    the archived case stays as it is.
    """
    case = _save_session(current_case(), new=True)
    st.session_state[_CONFLICT] = False
    _sync_url(case.id)
    return case


def case_link(case_id: str, *, page: str = "", mode: str | None = None) -> str:
    """The link that reopens a case: the app's address with ``?case=<id>`` (relative without one).

    Outside Standard mode the link also names the display mode (``&mode=counter``), so a resident's
    printed link or the Board's projector link reopens the case as it was shown. ``page`` opens
    another page than the map ("walkthrough"); ``mode`` names a mode other than the current one.
    """
    try:
        base = st.context.url
    except (AttributeError, RuntimeError):
        base = None
    base = (base or "").split("?")[0].split("#")[0]
    if base.endswith("/case"):  # the link opens the map page, not this one
        base = base[: -len("case")]
    mode = mode or state.mode()
    tail = "" if mode == state.STANDARD else f"&{state.MODE_PARAM}={mode.lower()}"
    return f"{base}{page}?case={case_id}{tail}"
