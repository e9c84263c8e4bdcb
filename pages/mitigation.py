"""Wetland mitigation (§ 402-57P): required replacement, the gate, forms, siting, plan and monitoring.

The impact comes from the disturbance footprint drawn on the Proposed project page (when there is
a parcel and a footprint) or is typed in. Every number, the ratio included, comes from the core's
mitigation result.
"""

from __future__ import annotations

import streamlit as st

from app_support import loaders
from app_support.analysis_door import DISCLAIMER, MAX_SQFT, SloatInputError, mitigation_answer
from app_support.frame import deep_links, state
from app_support.widgets import charts, forms, numbers
from app_support.widgets.citations import escape_markdown, law_link

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

FROM_FOOTPRINT, TYPED = "From the drawn footprint", "Typed in"
mode = state.mode()
large = mode == state.PROJECTOR

st.title("Wetland mitigation")
law_link("§ 402-57P", label="Mitigation of wetland loss: § 402-57P")

parcel = state.current_parcel()
project = st.session_state.get(state.PROJECT) or {}
has_footprint = parcel is not None and bool(project.get("disturbance_footprint"))
if parcel is None:
    st.info("No parcel is chosen yet. Type the wetland impact below, or choose a parcel first and draw "
            "the work on the Proposed project page to measure it.")
    st.page_link("pages/parcel.py", label="Choose a parcel on the Parcel & constraints page")
elif not has_footprint:
    st.page_link("pages/project.py", label="Draw the disturbance footprint on the Proposed project page")

stored = st.session_state.get(forms.MITIGATION_INPUT) or {}
sources = [FROM_FOOTPRINT, TYPED] if has_footprint else [TYPED]
if st.session_state.get(state.MITIGATION_SOURCE) not in sources:
    st.session_state[state.MITIGATION_SOURCE] = sources[0]
source = st.radio("Where the impact comes from", sources, key=state.MITIGATION_SOURCE, horizontal=True)

problems: list[str] = []


def _area(label: str, key: str, field: str):
    """A square-feet field: its value, or the stored one kept (and the problem noted) when it is out of range."""
    value, problem = numbers.checked_number(label, key, stored.get(field), low=0, high=MAX_SQFT, unit="sq ft")
    if problem:
        problems.append(problem)
        return stored.get(field)  # nothing lost: the last valid figure stays saved, but no result is shown
    return value


left, right = st.columns(2)
with left:
    if source == TYPED:
        wet = _area("Wetland to be lost (sq ft)", "mit_wetland", "impacted_wetland_sqft")
        buf = _area("Buffer to be disturbed (sq ft)", "mit_buffer", "impacted_buffer_sqft")
    else:
        wet, buf = stored.get("impacted_wetland_sqft"), stored.get("impacted_buffer_sqft")
        st.caption("Measured from the footprint drawn on the Proposed project page.")
    proposed = _area("Replacement wetland proposed (sq ft)", "mit_proposed", "proposed_mitigation_sqft")
    onsite = forms.tri_state("Is mitigation on the same site possible?", "mit_onsite", stored.get("onsite_possible"))
with right:
    st.markdown("**Necessary and unavoidable? (§ 402-57P(1))**")
    gate = forms.gate_inputs(stored.get("gate"))
# One source of truth for the impact: the chosen source decides everywhere (this page, the project's answer,
# the PDF, the saved case). A typed figure is kept while the footprint is the source, but not used.
typed = {"impacted_wetland_sqft": wet, "impacted_buffer_sqft": buf, "proposed_mitigation_sqft": proposed,
         "onsite_possible": onsite, "gate": gate, "impact_source": "footprint" if source == FROM_FOOTPRINT else "typed"}
st.session_state[forms.MITIGATION_INPUT] = typed

try:
    if source == FROM_FOOTPRINT:
        layers = loaders.layerset()
        result, _touches = forms.project_analysis(parcel, layers, st.session_state.get(state.DISTRICT), project,
                                                  mitigation_input=typed)
        mit = result.mitigation
    else:
        mit = mitigation_answer(**{k: v for k, v in typed.items() if k != "impact_source"})
except SloatInputError as exc:
    st.error(str(exc))
    mit = mitigation_answer(onsite_possible=onsite, gate=gate)

ratio = mit.ratio
st.subheader("Replacement required")
if problems:  # each sentence is beside its field
    st.caption("No result is shown until every figure above is in range.")
else:
    impact, required = mit.impacted_wetland_sqft, mit.required_mitigation_sqft
    cols = st.columns(4)
    cols[0].metric("Wetland lost", "not given" if impact is None else f"{impact:,.0f} sq ft")
    cols[1].metric("Ratio (at least)", f"{ratio:g} : 1")
    cols[2].metric("Required replacement", "not known" if required is None else f"{required:,.0f} sq ft")
    shortfall = mit.shortfall_sqft
    cols[3].metric("Shortfall", "not known" if shortfall is None else f"{shortfall:,.0f} sq ft")
    if required is not None:
        st.markdown(f"At least **{required:,.0f} sq ft** of replacement wetland: {ratio:g} times the "
                    f"{impact:,.0f} sq ft lost.")
        if mit.meets_ratio is not None:
            (st.success if mit.meets_ratio else st.warning)(
                "The proposal reaches the required area." if mit.meets_ratio
                else f"The proposal is {shortfall:,.0f} sq ft short of the required area.")
        charts.show_chart(charts.mitigation_gauge(required, mit.proposed_mitigation_sqft, large=large),
                        width="stretch")
    elif mit.water_body_note:
        st.info(escape_markdown(mit.water_body_note))
    else:
        st.caption("Enter the wetland to be lost (or draw the footprint) to see the required replacement.")
    if mit.impacted_buffer_sqft:
        st.caption(f"Buffer disturbed: {mit.impacted_buffer_sqft:,.0f} sq ft (mitigated by the buffer forms below).")
law_link(mit.citation, label=f"Replacement ratio: {mit.citation}")

st.subheader("Is mitigation allowed here?")
gate_result = mit.gate
box = {True: st.success, False: st.error, None: st.info}[gate_result.met]
box(gate_result.text)
law_link(gate_result.citation)
st.markdown(f"**Where:** {escape_markdown(mit.siting)}")
law_link("§ 402-57P(2)")


def _cited(items, widths: tuple[int, int] = (1, 3)) -> None:
    for item in items:
        link_col, text_col = st.columns(list(widths))
        with link_col:
            law_link(item.citation)
        text_col.markdown(escape_markdown(item.text))


st.subheader("Forms of mitigation (§ 402-57P(3))")
wet_col, buf_col = st.columns(2)
with wet_col:
    st.markdown("**For lost wetland**")
    _cited(mit.forms.wetland, (2, 3))
with buf_col:
    st.markdown("**For disturbed buffer**")
    _cited(mit.forms.buffer, (2, 3))

with st.expander("What the mitigation plan must contain (§ 402-57P(4)(a)-(j))", expanded=not large):
    _cited(mit.plan_contents)

years = mit.monitoring_years
st.markdown(f"**Monitoring:** in general {years.min} to {years.max} years after the mitigation is built.")
law_link(years.citation)
st.caption(DISCLAIMER)
