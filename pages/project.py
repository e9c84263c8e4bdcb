"""Proposed project: the project form, a disturbance footprint drawn on the parcel, and what it needs.

The form gathers the keys of ``sloat_core.rules.project.parse_project``; the footprint comes from the
map's drawing tools. The core answers which wetland, buffer and steep-slope areas the work touches
and which permits and reviews it needs, with the approval authority, the § of Article IX, the
submission checklist the law lists and the clocks. A value the core refuses shows its one-sentence
message next to the form, and the last valid result stays on screen.
"""

from __future__ import annotations

import folium
import streamlit as st
from shapely.geometry import shape
from streamlit_folium import st_folium

from app_support import loaders
from app_support.analysis_door import (DISCLAIMER, SloatInputError, law_day, parse_approval_facts, parse_project,
                                       referral_bands_geojson)
from app_support.frame import deep_links, state, warm_thread
from app_support.frame.theme import MAP_HEIGHT_PX
from app_support.inputs import drawing_intake, footprint_inputs
from app_support.map import footprint_map, mapping
from app_support.views import project_view, results
from app_support.views.approvals_ui import show_approvals  # shared with the walk-through
from app_support.widgets import forms
from app_support.widgets.citations import escape_markdown

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

mode = state.mode()
large = mode == state.PROJECTOR
st.title("Proposed project")
parcel = state.current_parcel()
if parcel is None:
    st.info("No parcel is chosen yet. Choose one first; then draw the area of work on it here. "
            "You can fill in the form now: it is kept.")
    st.page_link("pages/parcel.py", label="Choose a parcel on the Parcel & constraints page")

# On a projector the form folds away: the room looks at the map and the permits.
form_col, map_col = st.columns([2, 3]) if not large else (st.expander("The project (form)"), st.container())
with form_col:
    if not large:
        st.subheader("The project")
    values = forms.project_form(st.session_state.get(state.PROJECT), few=mode == state.COUNTER)
    if mode == state.COUNTER:  # the short form leaves these out: ask them rather than call them unknown
        values.update(project_view.counter_questions(st.session_state.get(state.PROJECT)))
    values.update(project_view.approval_inputs(st.session_state.get(state.PROJECT) or {}))
    form_message = st.empty()


def _footprint_groups(layers) -> list:
    out = footprint_map.groups(layers, parcel, st.session_state.get(forms.FOOTPRINT), law_day())  # every constraint
    try:  # the 500-ft band of each county referral trigger that applies (GML § 239-m(3)(b))
        bands = referral_bands_geojson(parcel.geometry, layers, application_type=values.get("application_type"),
                                       facts=parse_approval_facts(values), on=law_day())
    except SloatInputError:
        bands = {}
    if bands:
        group = folium.FeatureGroup(name="County referral: 500-ft bands (GML § 239-m)")
        for band in bands.values():
            folium.GeoJson(band, style_function=lambda _f: {"color": "#7b3294", "weight": 2, "dashArray": "6 4",
                                                            "fillOpacity": 0.05}, interactive=False).add_to(group)
        out.append(group)
    return out


layers = None
if parcel is not None:
    try:
        layers = loaders.layerset()
    except SloatInputError as exc:
        st.error(str(exc))
    with map_col:
        st.subheader("Where the work happens")
        st.caption("Draw the disturbance footprint (every area to be cleared, graded or built on) with the "
                   "polygon or rectangle tool.")
        if layers is not None:
            centre = shape(loaders.wgs84_outline(parcel.geometry)).centroid
            out = st_folium(mapping.base_map(large=large), key="project_map", height=MAP_HEIGHT_PX[mode],
                            use_container_width=True, returned_objects=["all_drawings"],
                            feature_group_to_add=_footprint_groups(layers),
                            layer_control=folium.LayerControl(collapsed=True),
                            center=(centre.y, centre.x), zoom=18) or {}
            drawings = out.get("all_drawings")
            signature = drawing_intake.drawings_signature(drawings)
            if signature and signature != st.session_state.get(forms.FOOTPRINT_SEEN):
                st.session_state[forms.FOOTPRINT_SEEN] = signature
                try:
                    feature = drawing_intake.last_polygon(drawings)
                except SloatInputError as exc:  # not a well-formed drawing (drawing_intake.drawing_problem)
                    st.error(str(exc))
                    feature = None
                if feature is not None:
                    st.session_state[forms.FOOTPRINT] = feature["geometry"]
            results.show_layer_notice(layers)
            footprint_inputs.footprint_without_drawing(parcel)  # typed, whole parcel or a file
        if st.session_state.get(forms.FOOTPRINT) and st.button("Clear the footprint", key="clear_footprint"):
            st.session_state[forms.FOOTPRINT] = None
            st.rerun()

project = {**values, "disturbance_footprint": st.session_state.get(forms.FOOTPRINT)}
project = {k: v for k, v in project.items() if v is not None}
outcome = None
try:
    forms.refuse_bad_numbers()  # a number out of range: its sentence is beside it, and no result
    warm_thread.run(parse_project, project)  # the footprint's coordinates: on a warm thread (PROJ set up)
    if parcel is not None and layers is not None:
        outcome = forms.project_analysis(parcel, layers, st.session_state.get(state.DISTRICT), project,
                                         board_answers=st.session_state.get(state.BOARD_ANSWERS))
        st.session_state[forms.LAST_PROJECT_RESULT] = (
            forms.project_result_key(parcel, st.session_state.get(state.DISTRICT)), outcome)
    st.session_state[state.PROJECT] = project
except SloatInputError as exc:
    form_message.error(str(exc))
    last = st.session_state.get(forms.LAST_PROJECT_RESULT)
    if not isinstance(exc, forms.BadNumbers) and parcel is not None and last and last[0] == forms.project_result_key(
            parcel, st.session_state.get(state.DISTRICT)):
        outcome = last[1]
        st.caption("Showing the result of the last valid values.")


if outcome is not None:
    result, touches = outcome
    project_view.touches(touches, result.as_of)
    project_view.permits(result, mode)
    state_wetlands = result.state_wetlands
    if state_wetlands:  # the NYSDEC map, by the state regime in force on the date (a screen, not a deduction)
        st.markdown("**New York State wetlands (NYSDEC map):** " + escape_markdown(state_wetlands["message"]) + ". "
                    + escape_markdown(state_wetlands["reason"]))
        st.caption(escape_markdown(state_wetlands["stated"]))
    if mode != state.COUNTER:
        st.caption(results.LAYER_NOTE)
        project_view.design_limits(result)
    if result.mitigation.water_body_note:
        st.caption(escape_markdown(result.mitigation.water_body_note))
    if result.mitigation.required_mitigation_sqft:
        st.page_link("pages/mitigation.py", label="Wetland mitigation for this footprint")
    show_approvals(result.approvals, result.approvals_detail, result.as_of)
    if mode != state.COUNTER:
        for warning in result.warnings:
            st.caption(escape_markdown(warning))
st.caption(DISCLAIMER)
