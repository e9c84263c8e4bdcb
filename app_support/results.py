"""Rendering of an ``analyze()`` result beside the map.

Every function takes the plain dict of the CLI JSON contract and draws it; nothing here computes
law. Numbers are formatted for reading (thousands separators, acres beside square feet), and
every § citation is a link to the Law page.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from app_support import state
from app_support.citations import escape_markdown, law_link
from app_support.theme import colour_for

__all__ = [
    "sqft_text",
    "verdict_sentence",
    "deduction_frame",
    "waterfall_figure",
    "show_headline",
    "show_deductions",
    "show_triggers_and_permits",
    "show_unknowns",
    "district_picker",
]


def sqft_text(area_sqft: float | None) -> str:
    """Area as "12,345 sq ft (0.28 acres)"; "unknown" for None.

    >>> sqft_text(43560)
    '43,560 sq ft (1.00 acres)'
    """
    if area_sqft is None:
        return "unknown"
    from sloat_core.units import sqft_to_acres

    return f"{area_sqft:,.0f} sq ft ({sqft_to_acres(area_sqft):,.2f} acres)"


def verdict_sentence(result: dict) -> str:
    """The plain verdict on minimum lot area.

    >>> verdict_sentence({"meets_min_lot_area": None, "district": None})
    'No minimum lot area is known for this district, so the net lot area cannot be compared.'
    >>> verdict_sentence({"meets_min_lot_area": None, "district": "R-15", "min_lot_area_sqft": 15000,
    ...     "net_lot_area_sqft": 20000, "net_lot_area_min_sqft": 0})
    'Cannot tell yet: with the unknown constraints the net lot area lies between 0 and 20,000 sq ft, against the R-15 minimum of 15,000 sq ft.'
    """
    meets = result.get("meets_min_lot_area")
    district = result.get("district") or "this district"
    minimum = result.get("min_lot_area_sqft")
    if minimum is None:
        return ("No minimum lot area is known for this district, so the net lot area cannot "
                "be compared.")
    confirm = " (to confirm with the Village)" if result.get("min_lot_area_verify") else ""
    if meets is None:
        low = result.get("net_lot_area_min_sqft") or 0.0
        high = result.get("net_lot_area_sqft") or 0.0
        return (f"Cannot tell yet: with the unknown constraints the net lot area lies between "
                f"{low:,.0f} and {high:,.0f} sq ft, against the {district} minimum of "
                f"{minimum:,.0f} sq ft{confirm}.")
    word = "meets" if meets else "is below"
    return f"The net lot area {word} the {district} minimum of {minimum:,.0f} sq ft{confirm}."


def _sqft_cell(value: float | None) -> str:
    return "unknown" if value is None else f"{value:,.0f}"


def deduction_frame(result: dict) -> pd.DataFrame:
    """The deduction table: constraint, area, counted share, deducted, § (areas as text)."""
    rows = [{
        "Constraint": d.get("label") or d.get("constraint"),
        "Area, sq ft": _sqft_cell(d.get("area_sqft")),
        "Counts": f"{(d.get('countable_fraction') or 0.0) * 100:.0f}%",
        "Deducted, sq ft": _sqft_cell(d.get("deducted_sqft")),
        "§": d.get("citation") or "",
    } for d in result.get("deductions") or []]
    return pd.DataFrame(rows, columns=["Constraint", "Area, sq ft", "Counts",
                                       "Deducted, sq ft", "§"])


def waterfall_figure(result: dict, *, large: bool = False) -> go.Figure:
    """Plotly waterfall from gross lot area through each deduction to net lot area."""
    steps = [d for d in result.get("deductions") or [] if (d.get("deducted_sqft") or 0) > 0]
    # Unknown deductions (deducted_sqft None) are not drawn; the verdict names the range.
    labels = ["Gross area"] + [d.get("label") or d.get("constraint") for d in steps] + ["Net lot area"]
    values = [result.get("gross_area_sqft") or 0.0] + [-(d["deducted_sqft"]) for d in steps]
    values.append(result.get("net_lot_area_sqft") or 0.0)
    fig = go.Figure(go.Waterfall(
        x=labels, y=values, measure=["absolute"] + ["relative"] * len(steps) + ["total"],
        text=[f"{abs(v):,.0f}" for v in values], textposition="outside",
        decreasing={"marker": {"color": "#d7301f"}}, totals={"marker": {"color": "#1f78b4"}},
        increasing={"marker": {"color": "#33a02c"}}, connector={"line": {"color": "#888"}},
    ))
    minimum = result.get("min_lot_area_sqft")
    if minimum:
        fig.add_hline(y=minimum, line_dash="dash", line_color="#000",
                      annotation_text=f"District minimum {minimum:,.0f} sq ft")
    size = 22 if large else 13
    fig.update_layout(height=460 if large else 340, margin={"l": 10, "r": 10, "t": 30, "b": 10},
                      yaxis_title="sq ft", font={"size": size}, showlegend=False)
    return fig


def show_headline(result: dict) -> None:
    """Gross area, net lot area (sq ft, acres beneath) and the plain verdict."""
    from sloat_core.units import sqft_to_acres

    gross = result.get("gross_area_sqft") or 0.0
    net = result.get("net_lot_area_sqft") or 0.0
    low = result.get("net_lot_area_min_sqft")
    net_label = "Net lot area (at most), sq ft" if low is not None and low < net else "Net lot area, sq ft"
    left, right = st.columns(2)
    left.metric("Gross area, sq ft", f"{gross:,.0f}")
    left.caption(f"{sqft_to_acres(gross):,.2f} acres")
    right.metric(net_label, f"{net:,.0f}")
    right.caption(f"{sqft_to_acres(net):,.2f} acres")
    meets = result.get("meets_min_lot_area")
    box = st.success if meets else (st.warning if meets is False else st.info)
    box(verdict_sentence(result))
    citation = result.get("lot_area_citation") or "§ 402-45A"
    law_link(citation, label=f"Net lot area rule: {citation}")


def show_deductions(result: dict) -> None:
    """The deduction table, its legend colours and links to each § cited."""
    frame = deduction_frame(result)
    if frame.empty:
        st.write("No part of the parcel is deducted from the lot area.")
        return
    colours = [colour_for(d.get("constraint") or "") for d in result.get("deductions") or []]
    styled = frame.style.apply(
        lambda col: [f"border-left: 10px solid {c}" for c in colours], subset=["Constraint"])
    st.dataframe(styled, hide_index=True, width="stretch")
    for citation in dict.fromkeys(frame["§"]):
        if citation:
            law_link(citation)


def show_triggers_and_permits(result: dict) -> None:
    """Cluster triggers and permits in short form (found / unknown), with § links."""
    triggers = result.get("cluster_triggers") or []
    permits = result.get("permits") or []
    st.markdown("**Cluster development triggers (§ 402-48C)**")
    _short_list([t for t in triggers if t.get("triggered")], "evidence",
                "No trigger found on the layers available.")
    _unknown_line([t for t in triggers if t.get("triggered") is None])
    st.markdown("**Permits and reviews likely needed**")
    _short_list([p for p in permits if p.get("required")], "reason",
                "None found on the layers available.")
    _unknown_line([p for p in permits if p.get("required") is None])


def _short_list(items: list[dict], detail_key: str, empty: str) -> None:
    if not items:
        st.write(empty)
    for item in items:
        detail = item.get(detail_key) or ""
        st.markdown(f"- **{escape_markdown(item.get('title') or item.get('id') or '')}**: "
                    f"{escape_markdown(detail)}")
        if item.get("citation"):
            law_link(item["citation"])


def _unknown_line(items: list[dict]) -> None:
    if items:
        names = ", ".join(i.get("title") or i.get("id") or "" for i in items)
        st.caption(f"Unknown on the layers available: {escape_markdown(names)}.")


def show_unknowns(result: dict, missing_roles: list[str]) -> None:
    """Name the constraint layers that are missing and the area of unknown slope."""
    from app_support.theme import LAYER_LABELS

    if missing_roles:
        names = ", ".join(LAYER_LABELS.get(r, r) for r in missing_roles)
        st.warning(f"Unknown: no map layer for {names}. Those constraints are not measured.")
    unknown_slope = (result.get("slope_area_sqft") or {}).get("unknown") or 0.0
    if unknown_slope > 0.5:
        st.warning(f"Unknown slope on {unknown_slope:,.0f} sq ft of the parcel (no elevation data).")
    if state.mode() != state.COUNTER:
        for warning in result.get("warnings") or []:
            st.caption(escape_markdown(warning))  # warnings may quote names from a file


def district_picker(settings, parcel) -> str | None:
    """Zoning district selector; the tax layer's district is the default.

    Returns the chosen code, or None to let the analysis read the zoning map.
    """
    districts = getattr(settings, "districts", None) or {}
    options: list[str] = [""] + sorted(districts)  # "" = read the zoning map
    if st.session_state.get(state.DISTRICT) not in options:
        st.session_state[state.DISTRICT] = ""

    def label(code: str) -> str:
        if not code:
            return "From the zoning map"
        district = districts[code]
        note = " (minimum to confirm with the Village)" if getattr(district, "verify", False) else ""
        return f"{code} {getattr(district, 'name', '')}{note}"

    return st.selectbox("Zoning district", options, key=state.DISTRICT, format_func=label) or None
