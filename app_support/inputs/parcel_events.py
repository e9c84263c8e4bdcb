"""The Parcel page's map events: a parcel drawn or cleared on the map, a tax parcel picked by a click.

Each event sets the session's parcel (``state.set_parcel``) and runs the map fragment again so the map
shows the new outline; a refused drawing or click says why in one sentence.
"""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from app_support import loaders
from app_support.frame import state
from app_support.inputs import drawing_intake, parcel_inputs
from sloat_core.errors import SloatInputError
from sloat_core.gis import parcels as parcel_input

__all__ = ["DRAWN", "redraw", "take_map_events"]

#: The parcel note of a parcel drawn on the map.
DRAWN = "Drawn on the map"


def redraw() -> None:
    """Run the map fragment again so it shows the new parcel's outline (whole page on a full run)."""
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:  # the fragment was running as part of a full run
        st.rerun()


def take_map_events(out: dict, layers) -> None:
    """The map's drawings and clicks: a drawn parcel, "Clear all", a tax parcel picked by clicking."""
    drawings = out.get("all_drawings")
    signature = drawing_intake.drawings_signature(drawings)
    if drawings == [] and st.session_state.get(state.SEEN_DRAWINGS):  # "Clear all" (or the last one deleted)
        if parcel_inputs.clear_drawing(DRAWN):
            redraw()
    if signature and signature != st.session_state.get(state.SEEN_DRAWINGS):
        st.session_state[state.SEEN_DRAWINGS] = signature
        try:
            feature = drawing_intake.last_polygon(drawings)
        except SloatInputError as exc:  # not a well-formed drawing (drawing_intake.drawing_problem): one sentence
            st.error(str(exc))
            feature = None
        if feature is not None:
            try:
                state.set_parcel(parcel_input.parcel_from_geojson(feature), DRAWN)
            except SloatInputError as exc:
                st.error(str(exc))
            else:
                redraw()
    click = out.get("last_clicked")
    if not click or click == st.session_state.get(state.SEEN_CLICK):
        return
    st.session_state[state.SEEN_CLICK] = click  # consumed even when picking is off
    if st.session_state.get(state.PICK_BY_CLICK):
        try:
            parcel = loaders.parcel_at(layers, click["lat"], click["lng"])
        except SloatInputError as exc:
            st.error(str(exc))
        else:
            state.set_parcel(parcel, f"Tax parcel {parcel.sbl}")
            redraw()
