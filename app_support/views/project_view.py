"""The Proposed project page's parts: the approvals' facts, what the footprint touches, the permits (what the
project needs first, then what the parcel carries for any later work, prohibitions apart), the approvals
by who decides and the § 402-55J checklist.

Each function draws one part from the core's result; nothing here decides law. The split between the
project's permits and the parcel's is the core's (:func:`sloat_core.engine.answer.permits_by_cause`).
"""

from __future__ import annotations

import datetime as dt

import streamlit as st

from app_support.analysis_door import lot_answer, parcel_result, permits_by_cause
from app_support.frame import state
from app_support.views import permits_view
from app_support.widgets import forms
from app_support.widgets.citations import escape_markdown, law_link
from app_support.widgets.unit_text import nb
from sloat_core.approvals.facts import ACCESSORY_KINDS, VARIANCE_TYPES
from sloat_core.engine import plain
from sloat_core.rules.sections.permit import Permit, cited_item
from sloat_core.engine.answer import PARCEL_HEADING, PROJECT_HEADING
from sloat_core.law.params import fill
from sloat_core.rules.sections.s402_55_steep_slopes.permit import DECLARATION as STEEP_SLOPES

__all__ = ["approval_inputs", "counter_questions", "touches", "permits", "design_limits"]

#: The Counter form's questions on sewage (the form's short version leaves them out): asked here, so
#: the answer never calls them unknown without having asked.
COUNTER_QUESTIONS = (("sanitary_facilities", "pf_sanitary", "New sanitary (septic or sewer) facilities?"),
                     ("public_sewer_available", "pf_sewer", "Is public sewer available?"))


def counter_questions(stored: dict | None) -> dict:
    """Counter mode: the sewer questions, in a resident's words (same keys as the full form's)."""
    p = stored or {}
    return {key: forms.tri_state(label, widget, p.get(key)) for key, widget, label in COUNTER_QUESTIONS}


def _iso_day(text):
    try:
        return dt.date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        return None


def approval_inputs(stored: dict) -> dict:
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


def _area(value) -> str:
    return "unknown (no map layer)" if value is None else f"{value:,.0f} sq ft"


def touches(t: dict, on) -> None:
    """What the drawn footprint touches: wetland, buffer, steep slopes, water, the part off the parcel; the steep
    slopes' threshold as in effect ``on`` the day the answer is worked out for (the result's ``as_of``)."""
    st.subheader("What the footprint touches")
    if not t:
        st.caption("Draw the footprint on the map to measure the wetland, buffer and steep slopes it touches.")
        return
    cols = st.columns(4)
    cols[0].metric("Footprint", _area(t["footprint_sqft"]))
    cols[1].metric("Wetland", _area(t["wetland_sqft"]))
    cols[2].metric("Wetland/watercourse buffer", _area(t["buffer_sqft"]))
    steep = t["steep_slope_sqft"]
    cols[3].metric(fill("Slopes of {steep_slope_permit_threshold_pct:g}% or more", on),
                   "unknown (no elevation data)" if steep is None else _area(steep))
    water = (t.get("watercourse_sqft") or 0) + (t.get("water_body_sqft") or 0)
    if water > 0:
        st.caption(nb(f"Streams and ponds inside the footprint: {water:,.0f} sq ft."))
    if (t.get("outside_parcel_sqft") or 0) > 1:
        st.caption(nb(f"{t['outside_parcel_sqft']:,.0f} sq ft of the footprint lies off the parcel; it is "
                      "measured where it lies."))


def _permit(p: Permit, *, mode: str, status: str, expanded: bool) -> None:
    with st.expander(f"{p.title}: {status}", expanded=expanded):
        st.markdown(nb(escape_markdown(p.reason)))
        st.markdown(f"**Who approves:** {escape_markdown(p.authority)}")
        law_link(p.citation, label=f"The rule: {p.citation}")
        listed = {p.citation, *p.submissions}
        for c in (c for c in p.all_citations if c not in listed):
            law_link(c, label=f"Also: {c}")
        if p.submissions and mode != state.COUNTER:
            st.markdown("**What to submit**")
            for item in (cited_item(c) for c in p.submissions):
                link_col, text_col = st.columns([1, 3])
                with link_col:
                    law_link(item["citation"])
                text_col.markdown(escape_markdown(item["text"]))
        if p.clocks:
            st.markdown("**Clocks**")
            st.markdown("\n".join(f"- {escape_markdown(c)}" for c in p.clocks))


def permits(result, mode: str) -> None:
    """What the project needs (its facts and footprint), then what the parcel carries for any later work,
    each permit once; the prohibitions apart, never among the permits; the rest named in one line."""
    large = mode == state.PROJECTOR
    result = parcel_result(result)
    mine, carried = permits_by_cause(result)
    answer = lot_answer(result) if mode == state.COUNTER else None
    st.subheader(PROJECT_HEADING)
    if answer is not None:  # plain sentences for residents; the expert list below for the details
        st.markdown("\n".join(f"- {nb(escape_markdown(s))}" for s in answer.project_needs))
    for required in (True, None):
        for p in (p for p in mine if p.required is required):
            words = permits_view.status_words(p)
            if required is None and (fact := plain.missing_fact(p)):
                words = f"{words}: {fact}"
            _permit(p, mode=mode, status=words, expanded=required is True and not large and answer is None)
    if not mine:
        st.write("Nothing under these rules, on what is known of the project.")
    permits_view.show_prohibitions(result)
    if carried:
        st.subheader(PARCEL_HEADING)
        st.caption("The land's permits that this project does not trigger: any later work on that land would.")
        if answer is not None:
            st.markdown("\n".join(f"- {nb(escape_markdown(s))}" for s in answer.parcel_carries))
        for p in carried:
            _permit(p, mode=mode, status="for work on that land", expanded=False)
    others = [p.title for p in result.permits if p.required is False and not plain.is_prohibition(p)]
    if others:
        st.caption("Not needed on what is known: " + escape_markdown(", ".join(others)) + ".")


def design_limits(result) -> None:
    """The § 402-55J checklist, where the steep slope permit (its declaration's id) may be needed."""
    result = parcel_result(result)
    steep = result.permit(STEEP_SLOPES.id)
    if steep is None or steep.required is False:
        return
    with st.expander("Steep slope design limits (§ 402-55J): the engineer's checklist"):
        for item in result.steep_slope_design_limits:
            tick = {True: "met", False: "NOT met", None: "not checked"}[item.met]
            if item.binding is False and item.met is False:
                tick = "below the general distance (guidance)"
            line = f"- **{tick}**: {escape_markdown(item.text)} ({item.citation})"
            if item.figure is not None:
                line += f"  \n  {escape_markdown(item.comparison or '')}"
            st.markdown(line)
        law_link("§ 402-55J", label="The design standards: § 402-55J")
