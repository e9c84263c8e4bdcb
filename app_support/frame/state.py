"""Session-state keys of the app, declared in one place.

Pages read and write ``st.session_state`` only through these names, so a key is never spelled
twice. :func:`init_state` sets the defaults once per session (called by ``app.py``).

Keys private to one feature live beside the code that owns them, each a named constant there: the case
(``cases_ui``: CASE, NOTES, STAFF, MESSAGE...), the imports (``exports_ui``), the project / timeline /
mitigation forms (``forms``: LAST_PROJECT_RESULT, FOOTPRINT, TIMELINE_ITEMS, MITIGATION_INPUT), the parcel
finder (``parcel_inputs``). The walk-through's screen is here (:data:`WALKTHROUGH_STEP`), beside the link's
parameters the frame keeps (:data:`MODE_PARAM`, :data:`STEP_PARAM`).
"""

from __future__ import annotations

import streamlit as st

__all__ = [
    "PARCEL",
    "PARCEL_NOTE",
    "DISTRICT",
    "MODE",
    "MODES",
    "STANDARD",
    "COUNTER",
    "PROJECTOR",
    "LAYERS_SHOWN",
    "BASEMAP",
    "SLOPE_OVERLAY",
    "PICK_BY_CLICK",
    "UPLOAD_ERROR",
    "SEEN_DRAWINGS",
    "SEEN_CLICK",
    "SEEN_UPLOAD",
    "PROJECT",
    "BOARD_ANSWERS",
    "AS_OF",
    "DISTRICT_WIDGET",
    "MITIGATION_SOURCE",
    "TIMELINE_AS_OF",
    "TIMELINE_PREFILL_KIND",
    "TIMELINE_PREFILL_ADDED",
    "MODE_PARAM",
    "STEP_PARAM",
    "WALKTHROUGH_STEP",
    "init_state",
    "mode",
    "mode_from_url",
    "sync_mode_url",
    "current_parcel",
    "set_parcel",
]

# The parcel under study: a sloat_core.gis.parcels.Parcel, or None.
PARCEL = "parcel"
# One plain sentence saying where the current parcel came from ("Drawn on the map", "Tax parcel 156.14-1-23").
PARCEL_NOTE = "parcel_note"
# Zoning district code chosen by the user (overrides the tax layer's); "" or None = the zoning map.
DISTRICT = "district"
# Display mode (sidebar switch).
MODE = "display_mode"
STANDARD = "Standard"
COUNTER = "Counter"
PROJECTOR = "Projector"
MODES = (STANDARD, COUNTER, PROJECTOR)
#: The link's query parameter naming the mode: ``?mode=counter|projector|standard``.
MODE_PARAM = "mode"
#: The link's query parameter naming the walk-through's screen (1-based): ``?step=3``. Each step is a history
#: entry of its own (app_support.frame.browser_nav); every other parameter only mirrors state.
STEP_PARAM = "step"
#: The walk-through's screen (0-based) last shown in this session; the link's ``?step=`` wins when it has one.
WALKTHROUGH_STEP = "walkthrough_step"
# Mode read from the link once per session (so a reload or a case link keeps the mode).
_MODE_FROM_URL_DONE = "mode_from_url_done"
# Map controls outside the map.
LAYERS_SHOWN = "layers_shown"
BASEMAP = "basemap"
SLOPE_OVERLAY = "slope_overlay"
PICK_BY_CLICK = "pick_by_click"
# One-sentence error of the last failed upload (shown next to the uploader), or None.
UPLOAD_ERROR = "upload_error"
# Signatures of map/upload events already turned into a parcel, so a rerun does not apply them twice.
SEEN_DRAWINGS = "seen_drawings"
SEEN_CLICK = "seen_click"
SEEN_UPLOAD = "seen_upload"
# Shared with the project / cluster / timeline pages.
PROJECT = "project"
BOARD_ANSWERS = "board_answers"
AS_OF = "as_of"
# Widget keys a page reads back or seeds itself (a key only its widget uses stays beside the widget). Those
# of the mitigation and timeline pages keep their "mit_" / "tl_" prefix: a case loaded forgets the widgets
# of these prefixes (cases_ui), so they seed again from its values.
# The Parcel page's district select box, refilled from DISTRICT on every run (results.district_picker).
DISTRICT_WIDGET = "district_picker"
# The Wetland mitigation page: where the impact comes from (its radio, set before it is drawn).
MITIGATION_SOURCE = "mit_source"
# The Timeline page: the "As of" day (its date field, seeded from AS_OF); in "From your project", the kind
# chosen (its select box, dropped when no longer offered) and the item just added (said once, then popped).
TIMELINE_AS_OF = "tl_as_of"
# "From your project": its item editor's widget keys start with this prefix (forms.timeline_item_editor)
TIMELINE_PREFILL_PREFIX = "tlp"
TIMELINE_PREFILL_KIND = f"{TIMELINE_PREFILL_PREFIX}_kind"
TIMELINE_PREFILL_ADDED = f"{TIMELINE_PREFILL_PREFIX}_added"
#: The widget keys forgotten when another case is loaded, so they seed again from its values (cases_ui): the
#: project form, the Board's answers, the gate, mitigation, the timeline and its "From your project" editor, and
#: the Plan page's plan and options (``app_support.inputs.plan_inputs``: the case puts its own plan back).
CASE_WIDGET_PREFIXES = ("pf_", "board_", "gate_", "mit_", "tl_", f"{TIMELINE_PREFILL_PREFIX}_", "plan_")

_DEFAULTS = {
    PARCEL: None,
    PARCEL_NOTE: "",
    DISTRICT: None,
    MODE: STANDARD,
    SLOPE_OVERLAY: True,
    PICK_BY_CLICK: False,
    UPLOAD_ERROR: None,
    SEEN_DRAWINGS: None,
    SEEN_CLICK: None,
    SEEN_UPLOAD: None,
    PROJECT: None,
    BOARD_ANSWERS: None,
    AS_OF: None,
}


def init_state() -> None:
    """Set every key to its default if the session does not have it yet."""
    for key, default in _DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = default


def mode() -> str:
    """The current display mode, one of :data:`MODES`."""
    value = st.session_state.get(MODE, STANDARD)
    return value if value in MODES else STANDARD


def mode_from_url() -> None:
    """On a session's first run, take the display mode from ``?mode=`` (case-insensitive).

    An unknown value is ignored (the mode stays Standard) and the link is corrected by
    :func:`sync_mode_url`.
    """
    if st.session_state.get(_MODE_FROM_URL_DONE):
        return
    st.session_state[_MODE_FROM_URL_DONE] = True
    wanted = (st.query_params.get(MODE_PARAM) or "").strip().lower()
    for name in MODES:
        if name.lower() == wanted:
            st.session_state[MODE] = name


def sync_mode_url() -> None:
    """Keep ``?mode=`` in the link equal to the display mode, so a reload or a copied link keeps it."""
    wanted = mode().lower()
    if st.query_params.get(MODE_PARAM) != wanted:
        st.query_params[MODE_PARAM] = wanted


def current_parcel():
    """The parcel under study (``sloat_core.gis.parcels.Parcel``) or None."""
    return st.session_state.get(PARCEL)


def set_parcel(parcel, note: str) -> None:
    """Make ``parcel`` the parcel under study and say where it came from.

    Parameters
    ----------
    parcel : sloat_core.gis.parcels.Parcel
        The new parcel.
    note : str
        Plain words naming its source, shown under the map.
    """
    st.session_state[PARCEL] = parcel
    st.session_state[PARCEL_NOTE] = note
    st.session_state[DISTRICT] = getattr(parcel, "district", None) or ""
