"""Proposed project: the project form, a disturbance footprint drawn on the parcel, and what it needs.

The form gathers the keys of ``sloat_core.rules.project.parse_project``; the footprint comes from the
map's drawing tools. The core answers which wetland, buffer and steep-slope areas the work touches
and which permits and reviews it needs, with the approval authority, the § of Article IX, the
submission checklist the law lists and the clocks. A value the core refuses shows its one-sentence
message next to the form, and the last valid result stays on screen.
"""

from __future__ import annotations

import datetime as dt

import folium
import streamlit as st
from shapely.geometry import shape
from streamlit_folium import st_folium

from app_support import footprint_inputs, footprint_map, forms, loaders, mapping, results, state
from app_support.citations import escape_markdown, law_link
from app_support.theme import MAP_HEIGHT_PX
from sloat_core.gis import parcels as parcel_input
from sloat_core.law.params import fill
from sloat_core.engine.analysis import DISCLAIMER
from sloat_core.errors import SloatInputError
from sloat_core.engine.plain import plain_permits
from sloat_core.rules.project import parse_project
from sloat_core.approvals.county_referral import referral_bands_geojson
from sloat_core.approvals.facts import ACCESSORY_KINDS, VARIANCE_TYPES, parse_approval_facts
from app_support.approvals_ui import show_approvals as _approvals  # shared with the walk-through


mode = state.mode()
large = mode == state.PROJECTOR
st.title("Proposed project")
parcel = state.current_parcel()
if parcel is None:
    st.info("No parcel is chosen yet. Choose one first; then draw the area of work on it here. "
            "You can fill in the form now: it is kept.")
    st.page_link("pages/parcel.py", label="Choose a parcel on the Parcel & constraints page")

def _approval_inputs(stored: dict) -> dict:
    """The facts the approvals around Article IX read (SEQR class, county referral), in a folded box."""
    with st.expander("State and federal approvals: facts for the SEQR class and the county referral"):
        kinds = ["not asked", "no", *ACCESSORY_KINDS]
        acc = stored.get("accessory_structure")
        acc = "no" if acc is False else ("other" if acc is True else acc)
        choice = st.selectbox("Minor accessory structure (garage, shed, deck ...)", kinds, key="appr_accessory",
                              index=kinds.index(acc) if acc in kinds else 0, format_func=lambda k: k.replace("_", " "))
        variances = ["none", *VARIANCE_TYPES]
        var = st.selectbox("Variance requested", variances, key="appr_variance",
                           index=variances.index(stored.get("variance") or "none"),
                           format_func=lambda k: k.replace("_", " "))
        lots = forms.checked_input("Lots in the subdivision", "appr_lots", stored.get("lots"), high=forms.LOTS_MAX,
                                   integer=True, help="Empty or 0: not a subdivision or not known")
        out = {"accessory_structure": {"not asked": None, "no": False}.get(choice, choice),
               "variance": None if var == "none" else var, "lots": int(lots or 0) or None}
        for key, label in (("on_approved_lot", "House on an approved lot"),
                           ("maintenance_only", "Maintenance or repair only"),
                           ("public_water_sewer", "Connected to public water and sewer"),
                           ("parkland_contiguous", "Within or next to public parkland (Harriman State Park)")):
            out[key] = forms.tri_state(label, f"appr_{key}", stored.get(key))
        for key, label in (("application_complete_date", "Application complete on"),
                           ("hearing_closed_date", "Public hearing closed on"),
                           ("final_plat_signed_date", "Final plat signed on"),
                           ("county_received_date", "County received the full statement (with the EAF) on")):
            day = st.date_input(label, value=_iso_day(stored.get(key)), key=f"appr_{key}", format="YYYY-MM-DD")
            out[key] = day.isoformat() if day else None
    return out


def _iso_day(text):
    try:
        return dt.date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


# On a projector the form folds away: the room looks at the map and the permits.
form_col, map_col = st.columns([2, 3]) if not large else (st.expander("The project (form)"), st.container())
with form_col:
    if not large:
        st.subheader("The project")
    values = forms.project_form(st.session_state.get(state.PROJECT), few=mode == state.COUNTER)
    values.update(_approval_inputs(st.session_state.get(state.PROJECT) or {}))
    form_message = st.empty()


def _footprint_groups(layers) -> list:
    out = footprint_map.groups(layers, parcel, st.session_state.get(forms.FOOTPRINT))  # every constraint
    try:  # the 500-ft band of each county referral trigger that applies (GML § 239-m(3)(b))
        bands = referral_bands_geojson(parcel.geometry, layers, application_type=values.get("application_type"),
                                       facts=parse_approval_facts(values))
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
            centre = shape(parcel_input.to_wgs84_geojson(parcel.geometry)).centroid
            out = st_folium(mapping.base_map(large=large), key="project_map", height=MAP_HEIGHT_PX[mode],
                            use_container_width=True, returned_objects=["all_drawings"],
                            feature_group_to_add=_footprint_groups(layers),
                            layer_control=folium.LayerControl(collapsed=True),
                            center=(centre.y, centre.x), zoom=18) or {}
            drawings = out.get("all_drawings")
            signature = mapping.drawings_signature(drawings)
            if signature and signature != st.session_state.get(forms.FOOTPRINT_SEEN):
                st.session_state[forms.FOOTPRINT_SEEN] = signature
                try:
                    feature = mapping.last_polygon(drawings)
                except SloatInputError as exc:  # not a well-formed drawing (mapping.drawing_problem)
                    st.error(str(exc))
                    feature = None
                if feature is not None:
                    st.session_state[forms.FOOTPRINT] = feature["geometry"]
            results.show_layer_notice(layers)
            footprint_inputs.footprint_without_drawing(parcel)  # typed, whole parcel or a file (issue 25)
        if st.session_state.get(forms.FOOTPRINT) and st.button("Clear the footprint", key="clear_footprint"):
            st.session_state[forms.FOOTPRINT] = None
            st.rerun()

project = {**values, "disturbance_footprint": st.session_state.get(forms.FOOTPRINT)}
project = {k: v for k, v in project.items() if v is not None}
outcome = None
try:
    forms.refuse_bad_numbers()  # a number out of range: its sentence is beside it, and no result (issue 24 item 10)
    parse_project(project)
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


def _area(value) -> str:
    return "unknown (no map layer)" if value is None else f"{value:,.0f} sq ft"


def _touches(touches: dict) -> None:
    st.subheader("What the footprint touches")
    if not touches:
        st.caption("Draw the footprint on the map to measure the wetland, buffer and steep slopes it touches.")
        return
    cols = st.columns(4)
    cols[0].metric("Footprint", _area(touches["footprint_sqft"]))
    cols[1].metric("Wetland", _area(touches["wetland_sqft"]))
    cols[2].metric("Wetland/watercourse buffer", _area(touches["buffer_sqft"]))
    steep = touches["steep_slope_sqft"]
    cols[3].metric(fill("Slopes of {steep_slope_permit_threshold_pct:g}% or more"), "unknown (no elevation data)" if steep is None else _area(steep))
    water = (touches.get("watercourse_sqft") or 0) + (touches.get("water_body_sqft") or 0)
    if water > 0:
        st.caption(f"Streams and ponds inside the footprint: {water:,.0f} sq ft.")
    if (touches.get("outside_parcel_sqft") or 0) > 1:
        st.caption(f"{touches['outside_parcel_sqft']:,.0f} sq ft of the footprint lies off the parcel; it is "
                   "measured where it lies.")


def _permit(p: dict) -> None:
    with st.expander(f"{p['title']}: {results.status_words(p)}", expanded=p["required"] is True and not large):
        st.markdown(escape_markdown(p["reason"]))
        st.markdown(f"**Who approves:** {escape_markdown(p['authority'])}")
        law_link(p["citation"], label=f"The rule: {p['citation']}")
        listed = {p["citation"], *(i["citation"] for i in p["submissions"])}
        for c in (c for c in p["citations"] if c not in listed):
            law_link(c, label=f"Also: {c}")
        if p["submissions"] and mode != state.COUNTER:
            st.markdown("**What to submit**")
            for item in p["submissions"]:
                link_col, text_col = st.columns([1, 3])
                with link_col:
                    law_link(item["citation"])
                text_col.markdown(escape_markdown(item["text"]))
        if p["clocks"]:
            st.markdown("**Clocks**")
            st.markdown("\n".join(f"- {escape_markdown(c)}" for c in p["clocks"]))


if outcome is not None:
    result, touches = outcome
    _touches(touches)
    st.subheader("Permits and reviews")
    permits = result["permits"]
    if mode == state.COUNTER:  # plain sentences for residents; the expert list below for the details
        for sentence in plain_permits(result):
            st.markdown(escape_markdown(sentence))
    for required in (True, None):
        for p in (p for p in permits if p["required"] is required):
            _permit(p)
    others = [p["title"] for p in permits if p["required"] is False]
    if others:
        st.caption("Not needed on what is known: " + escape_markdown(", ".join(others)) + ".")
    state_wetlands = result.get("state_wetlands")
    if state_wetlands:  # the NYSDEC map, by the state regime in force on the date (a screen, not a deduction)
        st.markdown("**New York State wetlands (NYSDEC map):** " + escape_markdown(state_wetlands["message"]) + ". "
                    + escape_markdown(state_wetlands["reason"]))
        st.caption(escape_markdown(state_wetlands["stated"]))
    if mode != state.COUNTER:
        st.caption(results.LAYER_NOTE)
    steep = next(p for p in permits if p["id"] == "steep_slope_permit")
    if steep["required"] is not False and mode != state.COUNTER:
        with st.expander("Steep slope design limits (§ 402-55J): the engineer's checklist"):
            for item in result["steep_slope_design_limits"]:
                tick = {True: "met", False: "NOT met", None: "not checked"}[item["met"]]
                if item.get("binding") is False and item["met"] is False:
                    tick = "below the general distance (guidance)"
                line = f"- **{tick}**: {escape_markdown(item['text'])} ({item['citation']})"
                if item.get("figure") is not None:
                    line += f"  \n  {escape_markdown(item.get('comparison') or '')}"
                st.markdown(line)
            law_link("§ 402-55J", label="The design standards: § 402-55J")
    if result["mitigation"].get("water_body_note"):
        st.caption(escape_markdown(result["mitigation"]["water_body_note"]))
    if result["mitigation"]["required_mitigation_sqft"]:
        st.page_link("pages/mitigation.py", label="Wetland mitigation for this footprint")
    _approvals(result.get("approvals"), result.get("approvals_detail"), result["as_of"])
    if mode != state.COUNTER:
        for warning in result["warnings"]:
            st.caption(escape_markdown(warning))
st.caption(DISCLAIMER)
