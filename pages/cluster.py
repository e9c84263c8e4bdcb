"""Cluster development (§ 402-48): the ten features of § 402-48C, applicability and yield.

The Planning Board's judgments on (4) historic eligibility and (5) viewshed significance, and an
override of (6) recreational resources, are asked as yes / no / unknown; the core re-reads the
triggers with them. Applicability (§ 402-48B) follows the application type of the Proposed
project page. A parcel in more than one district is computed per district (§ 402-48I).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support import loaders
from app_support.analysis_door import DISCLAIMER, SloatInputError, yield_phrase
from app_support.frame import deep_links, state
from app_support.views.results import LAYER_NOTE, sqft_text
from app_support.widgets import forms
from app_support.widgets.citations import escape_markdown, law_link

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

FOUND = {True: "Yes", False: "No", None: "Unknown"}
mode = state.mode()
large = mode == state.PROJECTOR

st.title("Cluster development")
law_link("§ 402-48", label="Cluster development: § 402-48")
parcel = state.current_parcel()
if parcel is None:
    st.info("No parcel is chosen yet. The cluster triggers are read from the parcel's constraints: "
            "choose a parcel first.")
    st.page_link("pages/parcel.py", label="Choose a parcel on the Parcel & constraints page")
    st.caption(DISCLAIMER)
    st.stop()

project = st.session_state.get(state.PROJECT) or {}
if mode == state.COUNTER:  # the Board's questions are the Board's: at the counter they stay as the case has them
    answers = st.session_state.get(state.BOARD_ANSWERS) or {}
    st.caption("Some features are for the Planning Board to judge; they are shown as not decided yet.")
else:
    with st.expander("The Planning Board's judgment (§ 402-48C(4), (5), (6))", expanded=not large):
        answers = forms.board_answer_inputs(st.session_state.get(state.BOARD_ANSWERS))
st.session_state[state.BOARD_ANSWERS] = answers

try:
    layers = loaders.layerset()
    result, _touches = forms.project_analysis(parcel, layers, st.session_state.get(state.DISTRICT), project,
                                              board_answers=answers)
except SloatInputError as exc:
    st.error(str(exc))
    st.caption(DISCLAIMER)
    st.stop()

st.subheader("Does § 402-48 apply?")
applies = result.cluster_applies
{True: st.success, False: st.info, None: st.warning}[applies](result.cluster_applies_reason)
kind = project.get("application_type")
st.caption("Application type: " + (kind.replace("_", " ") if kind else "not given yet") + ".")
st.page_link("pages/project.py", label="Set the application type on the Proposed project page")
law_link("§ 402-48B")

st.subheader("The ten features (§ 402-48C)")
st.caption("The Planning Board may require a cluster application where the property shows one or more of them.")
triggers = result.cluster_triggers
found = [t for t in triggers if t.triggered]
unknown = [t for t in triggers if t.triggered is None]
cols = st.columns(3)
cols[0].metric("Found", len(found))
cols[1].metric("Unknown", len(unknown))
cols[2].metric("Not found", len(triggers) - len(found) - len(unknown))
frame = pd.DataFrame([{
    "§": t.citation,
    "Feature": t.title,
    "Found": FOUND[t.triggered],
    "Evidence": t.evidence,
    "Board decides": "Yes" if t.needs_board_judgment else "",
} for t in triggers])
colours = {"Yes": "background-color:#fde0dd", "Unknown": "background-color:#fff4ce", "No": ""}
if large:  # an HTML table takes the projector's type size; the grid does not
    frame = frame.drop(columns=["Board decides"])
styled = frame.style.map(lambda v: colours.get(v, ""), subset=["Found"]).set_properties(
    subset=["§"], **{"white-space": "nowrap"})  # "§ 402-48C(10)" on one line
# An HTML table in every mode: its cells wrap, so no column is cut at 1366 or 1920 px (the grid cut the
# feature and evidence words to one line each).
st.table(styled.hide(axis="index"))
st.caption(LAYER_NOTE)
per_row = 2 if large else 5
link_cols = st.columns(per_row)
for i, t in enumerate(triggers):
    with link_cols[i % per_row]:
        law_link(t.citation, label=f"{t.citation} {FOUND[t.triggered].lower()}")

st.subheader("Yield and cluster lots")
parts = result.per_district
whole = st.columns([1, 2])
whole[0].metric("Conventional yield of the parcel (estimate)", yield_phrase(result).split(" (")[0])
with whole[1]:
    st.markdown(escape_markdown(result.yield_caveat))
    if len(parts) == 1:
        law_link("§ 402-48E", label="Yield: § 402-48E")
if len(parts) > 1:
    st.info("The parcel lies in more than one zoning district: density is computed separately for each "
            "part and may then be combined (§ 402-48I).")
    law_link("§ 402-48I")
for part in parts:
    code = part.district or "unknown district"
    cluster = part.cluster
    with st.container(border=True):
        low = part.net_lot_area_min_sqft
        net_text = (f"{sqft_text(low)} to {sqft_text(part.net_lot_area_sqft)} net (part of the land is unknown)"
                    if low is not None and part.net_lot_area_sqft - low > 0.5
                    else f"{sqft_text(part.net_lot_area_sqft)} net")
        st.markdown(f"**District {escape_markdown(code)}**: {sqft_text(part.gross_area_sqft)} gross, "
                    f"{net_text}.")
        c = st.columns(3)
        minimum = part.min_lot_area_sqft
        c[0].metric("District minimum lot", "not known" if minimum is None else f"{minimum:,.0f} sq ft")
        c[1].metric("Conventional yield (estimate)", yield_phrase(part).split(" (")[0])
        lot = cluster.cluster_min_lot_area_sqft
        c[2].metric("Cluster lot minimum", "set by the Board" if lot is None else f"{lot:,.0f} sq ft gross")
        st.markdown(escape_markdown(cluster.lot_rule) + " " + escape_markdown(cluster.yard_rule))
        link_cols = st.columns(2)
        with link_cols[0]:
            law_link(cluster.citation, label=f"Cluster lots: {cluster.citation}")
        with link_cols[1]:
            law_link(part.citation, label=f"Density: {part.citation}")
open_space = result.cluster_open_space
if open_space is not None:
    st.markdown("**Open space (§ 402-48G(2))**: " + escape_markdown(open_space.text))
    law_link(open_space.citation, label=f"Open space land: {open_space.citation}")
st.caption(DISCLAIMER)
