"""Rendering of an ``analyze()`` result beside the map.

Every function takes the typed result (:class:`sloat_core.engine.result.ParcelResult`, as the analysis door hands
it; a result dict is read back at the door, :func:`parcel_result`) and draws it, reading it by attribute; nothing
here computes law. Numbers are formatted for reading (thousands separators, acres beside square feet), and
every § citation is a link to the Law page.

Here: the headline and verdict, the deduction table drawn with its notes, the waterfall, the unknowns,
the district picker and Counter's answer card. The table's rows and styles are built by
:mod:`app_support.views.deduction_table`; the permits in short form and a permit's status in words are
:mod:`app_support.views.permits_view`'s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import plotly.graph_objects as go
import streamlit as st

from app_support.analysis_door import parcel_result
from app_support.frame import announce, state
from app_support.views import deduction_table, permits_view
from app_support.widgets.citations import escape_markdown, law_link
from app_support.widgets.unit_text import nb
from sloat_core.engine import plain

__all__ = [
    "sqft_text",
    "verdict_sentence",
    "verdict_words",
    "waterfall_figure",
    "waterfall_part",
    "show_headline",
    "show_screening",
    "show_layer_notice",
    "show_deductions",
    "show_triggers_and_permits",
    "show_unknowns",
    "district_picker",
    "show_answer_card",
    "handout_button",
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


def verdict_words(*, district: str | None, minimum: float | None, meets: bool | None, verify: bool | None = None,
                  low: float | None = None, high: float | None = None, what_if: str | None = None) -> str:
    """The plain verdict on minimum lot area from its figures (:func:`verdict_sentence` reads them from a result).

    >>> verdict_words(district=None, minimum=None, meets=None)
    'The zoning district is not known: choose it above to compare the net lot area with its minimum.'
    >>> verdict_words(district="VC-2", minimum=None, meets=None)
    'No minimum lot area is recorded for VC-2, so the net lot area cannot be compared; the Building Department can say which minimum applies.'
    >>> verdict_words(district="R-15", minimum=15000, meets=None, high=20000, low=0)
    'Cannot tell yet: with the unknown constraints the net lot area lies between 0 and 20,000 sq ft, against the R-15 minimum of 15,000 sq ft.'
    """
    if district is None:
        return "The zoning district is not known: choose it above to compare the net lot area with its minimum."
    district = district or "this district"
    if minimum is None:
        return (f"No minimum lot area is recorded for {district}, so the net lot area cannot be compared; "
                "the Building Department can say which minimum applies." + (f" {what_if}" if what_if else ""))
    confirm = " (to confirm with the Village)" if verify else ""
    if meets is None:
        return (f"Cannot tell yet: with the unknown constraints the net lot area lies between "
                f"{low or 0.0:,.0f} and {high or 0.0:,.0f} sq ft, against the {district} minimum of "
                f"{minimum:,.0f} sq ft{confirm}.")
    word = "meets" if meets else "is below"
    return f"The net lot area {word} the {district} minimum of {minimum:,.0f} sq ft{confirm}."


def verdict_sentence(result) -> str:
    """The plain verdict on minimum lot area of a result (:func:`verdict_words`); with no minimum recorded for
    the district, the core's what-if at the dated candidate minimums, if the result carries any."""
    r = parcel_result(result)
    what_if = None
    if r.district is not None and r.min_lot_area_sqft is None:
        from app_support.analysis_door import what_if_sentence

        what_if = what_if_sentence(r)
    return verdict_words(district=r.district, minimum=r.min_lot_area_sqft, meets=r.meets_min_lot_area,
                         verify=r.min_lot_area_verify, low=r.net_lot_area_min_sqft, high=r.net_lot_area_sqft,
                         what_if=what_if)


#: Under the deduction table: why a layer's figure elsewhere (permits, cluster) can be larger.
RECONCILE_NOTE = ("Each piece of land is counted in one row only, in the table's order (floodplain inside a "
                  "wetland is counted as wetland). The permit and cluster sections measure each layer on the "
                  "lot as a whole, overlaps included, so their figures for the same layer can be larger.")
#: Beside permit reasons and cluster evidence: their figures are whole layers on the lot.
LAYER_NOTE = ("Areas in the evidence and the permit reasons are each layer on the lot as a whole, overlaps "
              "included; the deduction table on the Parcel page counts each piece of land in one row only, "
              "so its row for the same layer can be smaller.")


def announcement(result, note: str = "") -> str:
    """What the live region says of the answer: where, the net lot area and the verdict (plain text), e.g.
    "Tax parcel 1-2-3. Net lot area 12,000 sq ft (0.28 acres). The net lot area meets ..."."""
    from sloat_core.units import sqft_to_acres

    result = parcel_result(result)
    net = result.net_lot_area_sqft
    verdict = plain.plain_verdict(result) if state.mode() == state.COUNTER else verdict_sentence(result)
    parts = [note.strip().rstrip(".")] if note and note.strip() else []
    parts.append("Net lot area unknown" if net is None else
                 f"Net lot area {net:,.0f} sq ft ({sqft_to_acres(net):,.2f} acres)")
    text = ". ".join(parts) + ". " + verdict
    return re.sub(r"\\(.)", r"\1", re.sub(r"\s+", " ", text)).strip()


def announce_answer(result, note: str = "") -> None:
    """Before the answer: its focus target, the live region's words and, for a new parcel, the focus
    (:func:`app_support.frame.announce.answer`)."""
    result = parcel_result(result)
    announce.answer(announcement(result, note), f"{note}|{result.gross_area_sqft}")


def _wrap(label: str, width: int) -> str:
    """Break a bar label into lines of about ``width`` characters (plotly ``<br>``)."""
    lines, line = [], ""
    for word in label.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "<br>".join(lines)


#: The fields of a result the waterfall is drawn from, and of each deduction.
WATERFALL_FIELDS = ("gross_area_sqft", "net_lot_area_sqft", "min_lot_area_sqft")
WATERFALL_DEDUCTION_FIELDS = ("constraint", "label", "deducted_sqft", "known_deducted_sqft")


def waterfall_part(result) -> dict:
    """What :func:`waterfall_figure` reads of a result, and nothing else: it draws from this alone (a plain dict).

    The figure is shared by this part (``charts.shared_figure(waterfall_figure, waterfall_part(result))``): its
    JSON is a few hundred bytes, where the whole answer's is about 60 kB, hashed once a pick (0.6 ms) to find a
    figure that a new parcel never has. ``result``: the typed result, read by attribute, or a dict (the part
    itself, or a result dict), read by key.
    """
    if not isinstance(result, Mapping):
        return {**{name: getattr(result, name) for name in WATERFALL_FIELDS},
                "deductions": [{name: getattr(d, name) for name in WATERFALL_DEDUCTION_FIELDS}
                               for d in result.deductions]}
    return {**{name: result.get(name) for name in WATERFALL_FIELDS},
            "deductions": [{name: d.get(name) for name in WATERFALL_DEDUCTION_FIELDS}
                           for d in result.get("deductions") or []]}


def _drawn_sqft(d: dict) -> float:
    """A deduction's bar: what it deducts, or for an unknown row what the land its layer maps deducts (0 if none)."""
    deducted = d.get("deducted_sqft")
    return (deducted if deducted is not None else d.get("known_deducted_sqft")) or 0.0


def waterfall_figure(result, *, large: bool = False, plain_words: bool = False) -> go.Figure:
    """Plotly waterfall from gross lot area through each deduction to net lot area.

    Bars stand upright for one deduction or none; with more, or in projector type, they lie down (labels on the
    left, one line each), so long constraint names never collide: four upright bars at a 1280 px window ran
    "Wetland and" into "Net lot area".

    Parameters
    ----------
    result : ParcelResult or dict
        The analysis result, or its :func:`waterfall_part`.
    large : bool
        Projector type size (24 px text).
    plain_words : bool
        Counter mode: "Your whole lot" and "Counts toward your lot" for the end bars.
    """
    result = waterfall_part(result)  # (what it reads, the same whether it is given the answer or the part)
    steps = [d for d in result["deductions"] if _drawn_sqft(d) >= 0.5]
    # Unknown deductions are drawn only for what the land a layer maps deducts ("at least"), as the net counts
    # it; the verdict names the range. Nor is a deduction under half a square foot (a bar marked "0"): the
    # table leaves it out too, as not on the lot.
    first, last = ("Your whole lot", "Counts toward your lot") if plain_words else ("Gross area", "Net lot area")
    names = [_step_name(d, plain_words) for d in steps]
    values = [result.get("gross_area_sqft") or 0.0] + [-_drawn_sqft(d) for d in steps]
    values.append(result.get("net_lot_area_sqft") or 0.0)
    size = 24 if large else 13
    lying = large or plain_words or len(steps) > 1  # Counter: long everyday names read best lying down
    labels = [_wrap(x, 30 if lying else 16) for x in [first, *names, last]]
    minimum = result.get("min_lot_area_sqft")
    top = max([v for v in values if v > 0] + [minimum or 0.0, 1.0])
    area_axis = {"title": {"text": "sq ft", "standoff": 8}, "range": [0, top * (1.25 if lying else 1.18)],
                 "tickformat": ",.0f", "gridcolor": "#dddddd", "automargin": True, "nticks": 4 if lying else 6,
                 "tickangle": 0}
    layout = _minimum_line(minimum, lying=lying, large=large, size=size)
    # Lying bars' figures sit beyond the bars' high ends, and the longest bar ends four fifths across: room on the right
    # for "79,694" (about four type sizes), else a narrow chart (the counter's column) cuts its last digit off.
    right = 4 * size if lying else 10
    layout.update({"margin": {"l": 10, "r": right, "t": 50, "b": 10}, "font": {"size": size, "color": "#000000"}})
    layout.update(_waterfall_axes(area_axis, len(labels), lying=lying, large=large))
    layout.update({"showlegend": False, "plot_bgcolor": "#ffffff", "paper_bgcolor": "#ffffff"})
    layout["annotations"] = layout.get("annotations", []) + _figures(values, labels, lying=lying, size=size)
    return _figure(_waterfall_trace(values, labels, lying=lying), layout)


def _step_name(d: dict, plain_words: bool) -> str:
    """A deduction's bar label: its label (Counter: its everyday name), "(at least)" for an unknown row."""
    if plain_words:
        name = plain.plain_constraint(d.get("constraint") or "", d.get("label")).capitalize()
    else:
        name = d.get("label") or d.get("constraint")
    return name + (" (at least)" if d.get("deducted_sqft") is None else "")


def _waterfall_trace(values: list[float], labels: list[str], *, lying: bool) -> dict:
    """The waterfall trace: gross, each deduction, net, and their colours. The bars carry no figures of their own
    (:func:`_figures` writes them); each bar's figure is its hover text."""
    measure = ["absolute"] + ["relative"] * (len(values) - 2) + ["total"]
    bar = {"measure": measure, "text": [f"{abs(v):,.0f}" for v in values], "textposition": "none",
           "decreasing": {"marker": {"color": "#d7301f"}}, "totals": {"marker": {"color": "#1f78b4"}},
           "increasing": {"marker": {"color": "#33a02c"}}, "connector": {"line": {"color": "#888"}}}
    if lying:
        return {**bar, "orientation": "h", "y": labels, "x": values, "type": "waterfall"}
    return {**bar, "x": labels, "y": values, "type": "waterfall"}


def _figures(values: list[float], labels: list[str], *, lying: bool, size: int) -> list[dict]:
    """Each bar's figure, black on a white box just beyond the bar's high end: to the right of a lying bar, above an
    upright one. A deduction's figure then sits at the end its running total came from, never on the side of the
    bar labels (beyond a lying deduction's low end it ran into its row's name: "11,217" over "up to 40%)"); the
    dashed district minimum passes behind the box, not through the digits."""
    ends, total = [], 0.0
    for k, value in enumerate(values):
        if k == 0 or k == len(values) - 1:
            ends.append(max(value, 0.0))
        else:
            ends.append(max(total, total + value))
        total = value if k == 0 else total + value
    figures = []
    for label, value, end in zip(labels, values, ends):
        box = {"text": f"{abs(value):,.0f}", "showarrow": False, "bgcolor": "#ffffff", "borderpad": 1,
               "font": {"size": size, "color": "#000000"}, "xref": "x", "yref": "y"}
        if lying:
            figures.append({**box, "x": end, "y": label, "xanchor": "left", "xshift": 3})
        else:
            figures.append({**box, "x": label, "y": end, "yanchor": "bottom", "yshift": 2})
    return figures


def _minimum_line(minimum: float | None, *, lying: bool, large: bool, size: int) -> dict:
    """The dashed line across the plot at the district minimum and its label (layout shapes and annotations, as
    add_vline / add_hline write them); none without a minimum. The label is above the plot: centred on a lying
    chart's upright line, at the left over an upright chart's level one."""
    if not minimum:
        return {}
    line = {"color": "#000", "dash": "dash", "width": 3 if large else 1.5}
    note = {"bgcolor": "#ffffff", "font": {"size": size, "color": "#000000"}, "showarrow": False,
            "text": f"District minimum {minimum:,.0f} sq ft", "yanchor": "bottom"}
    if lying:  # at the top of the line, centred on it
        return {"shapes": [{"line": line, "type": "line", "x0": minimum, "x1": minimum, "xref": "x",
                            "y0": 0, "y1": 1, "yref": "y domain"}],
                "annotations": [{**note, "x": minimum, "xanchor": "center", "xref": "x", "y": 1,
                                 "yref": "y domain"}]}
    # above the plot at its left, naming the line: at the line's own end it lay over the bars and their figures
    return {"shapes": [{"line": line, "type": "line", "x0": 0, "x1": 1, "xref": "x domain",
                        "y0": minimum, "y1": minimum, "yref": "y"}],
            "annotations": [{**note, "text": f"District minimum {minimum:,.0f} sq ft (dashed line)", "x": 0,
                             "xanchor": "left", "xref": "x domain", "y": 1, "yref": "y domain"}]}


def _waterfall_axes(area_axis: dict, n_labels: int, *, lying: bool, large: bool) -> dict:
    """The axes and the height: lying bars' labels down the left (gross area at the top), else 360 px high."""
    label_axis = {"automargin": True}
    if lying:
        label_axis.update({"autorange": "reversed"})  # gross area at the top, net lot area at the bottom
        return {"xaxis": area_axis, "yaxis": label_axis,
                "height": (150 if large else 110) + (62 if large else 38) * n_labels}
    return {"yaxis": area_axis, "xaxis": {**label_axis, "tickangle": 0}, "height": 360}


def _figure(trace: dict, layout: dict) -> go.Figure:
    """A figure of one trace from plain dicts of valid plotly properties, without plotly's validation.

    Plotly validates and coerces every property as a figure is built (about 10 ms for the waterfall, a large
    share of a session's CPU); these dicts hold only values it accepts as they are (the tests compare the
    JSON with plotly's own build). The default template is applied as ``go.Figure`` applies it.
    """
    import plotly.io as pio

    default = pio.templates.default
    if default and "template" not in layout:
        layout = {"template": pio.templates[default].to_plotly_json(), **layout}
    return go.Figure({"data": [trace], "layout": layout}, _validate=False)


def show_screening(result) -> None:
    """That the result is a screening estimate and who decides (the core's disclaimer)."""
    from app_support.analysis_door import DISCLAIMER

    st.caption(escape_markdown(parcel_result(result).disclaimer or DISCLAIMER))


def show_layer_notice(layers) -> None:
    """Under a map: the layers are an illustrative sample, not official data (when they are)."""
    if getattr(layers, "illustrative", False):
        st.html('<div class="sloat-notice">Map layers: illustrative sample, not official data</div>')


def show_headline(result, *, show_yield: bool = True, disclaimer: bool = True) -> None:
    """Gross area, net lot area (sq ft, acres beneath), the plain verdict and who decides.

    Beneath, the conventional yield (§ 402-48E; per district, § 402-48I), a range kept a range
    (``show_yield=False`` where the page shows it itself).

    In Counter mode the labels are everyday words and the verdict is the plain paragraph of
    :func:`sloat_core.engine.plain.plain_verdict`.
    """
    from sloat_core.units import sqft_to_acres

    result = parcel_result(result)
    counter = state.mode() == state.COUNTER
    gross = result.gross_area_sqft or 0.0
    net = result.net_lot_area_sqft or 0.0
    low = result.net_lot_area_min_sqft
    at_most = low is not None and low < net
    if counter:
        terms = plain.PLAIN_TERMS
        gross_label = f"{terms['gross_area']}, sq ft"
        net_label = f"{terms['net_lot_area_at_most' if at_most else 'net_lot_area']}, sq ft"
    else:
        gross_label = "Gross area, sq ft"
        net_label = "Net lot area (at most), sq ft" if at_most else "Net lot area, sq ft"
    left, right = st.columns(2)
    left.metric(gross_label, f"{gross:,.0f}")
    left.caption(f"{sqft_to_acres(gross):,.2f} acres")
    right.metric(net_label, f"{net:,.0f}")
    right.caption(f"{sqft_to_acres(net):,.2f} acres")
    meets = result.meets_min_lot_area
    box = st.success if meets else (st.warning if meets is False else st.info)
    box(escape_markdown(plain.plain_verdict(result)) if counter else verdict_sentence(result))
    if show_yield:
        from app_support.analysis_door import yield_phrase

        label = "Lots it could be divided into, first estimate" if counter else "Conventional yield (estimate)"
        st.markdown(f"**{label}:** {escape_markdown(yield_phrase(result))} "
                    f"({escape_markdown(result.yield_citation or '§ 402-48E')}; the Planning Board decides "
                    "from a conventional plat).")
    show_screening(result)
    citation = result.lot_area_citation or "§ 402-45A"
    label = "The rule on land that counts" if counter else "Net lot area rule"
    law_link(citation, label=f"{label}: {citation}")


def show_deductions(result, *, fold_notes: bool = False) -> None:
    """The deduction table with a colour key matching the map legend, and a link to each § cited.

    Standard: every constraint, every column. Counter (everyday words, three columns) and
    Projector: only the constraints found on the parcel; the others are named in one line.
    """
    result = parcel_result(result)
    mode = state.mode()
    compact = mode != state.STANDARD
    counter = mode == state.COUNTER
    rows = deduction_table.deduction_rows(result, plain_words=counter, present_only=compact)
    if not rows:
        st.write("Nothing on this lot is left out of the land that counts." if counter
                 else "No part of the parcel is deducted from the lot area.")
    else:
        # One HTML element (no pandas Styler, no arrow): it wraps in the narrow results column, takes the
        # mode's type size, and its colour-key cells are real page elements. Its text is escaped. Through st.html,
        # not markdown: the answer needs no HTML parser in the browser (app_support.frame.theme.apply_mode).
        look = {state.COUNTER: "counter", state.PROJECTOR: "projector"}.get(mode, "standard")
        st.html(deduction_table.deduction_html(result, plain_words=counter, present_only=compact, look=look))
    if fold_notes:  # the walk-through: the notes fold under the table, so the screen fits
        with st.expander("How these figures are counted"):
            _deduction_notes(result, mode, compact)
        return
    _deduction_notes(result, mode, compact)


def _overlap_note(deductions) -> str | None:
    """The rows whose land on the lot is more than the area counted in the row (another row counted the rest)."""
    overlaps = [d for d in deductions
                if d.total_area_sqft is not None and d.area_sqft is not None
                and d.total_area_sqft - d.area_sqft >= 0.5]
    if not overlaps:
        return None
    on_lot = "; ".join(f"{d.label}: {d.total_area_sqft:,.0f} sq ft on the lot, "
                       f"{d.area_sqft:,.0f} counted in this row" for d in overlaps)
    return escape_markdown(f"{RECONCILE_NOTE} {on_lot}.")


def _absent_note(deductions, mode: str) -> str | None:
    """The compact table's one line naming the constraints not on the parcel (everyday words at the counter)."""
    counter = mode == state.COUNTER
    absent = [plain.plain_constraint(d.constraint or "", d.label) if counter
              else d.label or d.constraint
              for d in deductions if not deduction_table.is_present(d)]
    if not absent:
        return None
    lead = "Not on this lot" if counter else "Not on this parcel"
    return f"{lead}: " + escape_markdown(", ".join(absent)) + "."


def _deduction_notes_text(result, mode: str, compact: bool) -> list[str]:
    """The notes under the deduction table, in reading order (Markdown, escaped)."""
    deductions = result.deductions
    counter = mode == state.COUNTER
    notes = [] if counter else [_overlap_note(deductions)]
    if compact:
        notes.append(_absent_note(deductions, mode))
    if result.buffer_note and not counter:
        notes.append(escape_markdown(result.buffer_note))
    notes += [escape_markdown(f"{d.label}: {d.note}") for d in deductions if d.note]
    return [n for n in notes if n]


def _deduction_notes(result, mode: str, compact: bool) -> None:
    notes = _deduction_notes_text(result, mode, compact)
    if notes:  # one caption of paragraphs: the notes read one after another, as one element
        st.caption("\n\n".join(notes))
    if mode == state.COUNTER:
        return
    citations = dict.fromkeys(d.citation for d in result.deductions)
    per_row = 2 if mode == state.PROJECTOR else 1
    cols = st.columns(per_row)
    for i, citation in enumerate(c for c in citations if c):
        with cols[i % per_row]:
            law_link(citation)


def show_triggers_and_permits(result) -> None:
    """Cluster triggers and permits in short form (found / unknown), with § links."""
    if state.mode() == state.COUNTER:
        permits_view.show_plain_summary(result)
        return
    r = parcel_result(result)
    triggers = r.cluster_triggers
    permits_view.short_list([t for t in triggers if t.triggered], "evidence",
                            "No trigger found on the layers available.",
                            lead="**Cluster development triggers (§ 402-48C)**")
    permits_view.unknown_line([t for t in triggers if t.triggered is None])
    permits_view.show_permits(r)
    st.caption(LAYER_NOTE)


def show_unknowns(result, missing_roles: list[str]) -> None:
    """Name the constraint layers that are missing and the area of unknown slope."""
    from app_support.frame.theme import LAYER_LABELS

    if missing_roles:
        names = ", ".join(LAYER_LABELS.get(r, r) for r in missing_roles)
        st.warning(f"Unknown: no map layer for {names}. Those constraints are not measured.")
    result = parcel_result(result)
    unknown_slope = (result.slope_area_sqft or {}).get("unknown") or 0.0
    if unknown_slope > 0.5:
        st.warning(f"Unknown slope on {unknown_slope:,.0f} sq ft of the parcel (no elevation data).")
    if state.mode() != state.COUNTER:
        for warning in result.warnings:
            st.caption(escape_markdown(warning))  # warnings may quote names from a file


def district_picker(settings, parcel) -> str | None:
    """Zoning district selector; the tax layer's district is the default.

    Returns the chosen code, or None to let the analysis read the zoning map.
    """
    districts = getattr(settings, "districts", None) or {}
    options: list[str] = [""] + sorted(districts)  # "" = read the zoning map
    if st.session_state.get(state.DISTRICT) not in options:
        st.session_state[state.DISTRICT] = ""

    def label(code: str) -> str:  # short: a long option is cut off in a half-width column
        return f"{code} {getattr(districts[code], 'name', '')}".strip() if code else "From the zoning map"

    # The widget has its own key, refilled from state.DISTRICT on every run: Streamlit forgets a widget's
    # value while its page is not shown, and the choice must survive a visit to another page.
    st.session_state[state.DISTRICT_WIDGET] = st.session_state[state.DISTRICT]

    def keep() -> None:
        st.session_state[state.DISTRICT] = st.session_state[state.DISTRICT_WIDGET]

    st.selectbox("Zoning district", options, key=state.DISTRICT_WIDGET, format_func=label, on_change=keep,
                 help="The minimum lot sizes are working assumptions, to confirm with the Village.")
    chosen = districts.get(st.session_state[state.DISTRICT])
    if chosen is not None and getattr(chosen, "verify", False):
        st.caption("This district's minimum lot size is to confirm with the Village.")
    return st.session_state[state.DISTRICT] or None


def show_answer_card(result, make_pdf=None, make_html=None) -> None:
    """Counter mode: "What this means for your lot" (``sloat_core.engine.answer``), first-screen first.

    The verdict in one sentence with the handout button beside it, then why, the next step and the (at most
    three) things that stand in the way lead; what the project needs and what the parcel carries, every step,
    what the Village confirms and whom to ask fold below; the screening note closes it, once for the page.
    """
    from app_support.analysis_door import lot_answer

    answer = lot_answer(parcel_result(result))
    box = {"likely": st.success, "unlikely": st.warning}.get(answer.verdict, st.info)
    with st.container(border=True, key="answer_card"):
        # First, in one row: the verdict in one plain sentence and, beside it, the handout's button. Under them,
        # two columns on a wide screen (stacked on a phone): why (the land that counts against the minimum) and
        # the next step; what stands in the way. All of it fits 1366x768 after a search.
        verdict, button = st.columns([5, 4], vertical_alignment="center")  # the label on one line at 1366 px
        with verdict, st.container(key="answer_verdict"):
            box(f"**{answer.title}:** " + nb(escape_markdown(answer.headline)))
        if make_pdf is not None:
            with button:
                handout_button(make_pdf)
        left, right = st.columns(2)
        with left:
            with st.container(key="answer_why"):
                st.markdown(nb(escape_markdown(answer.why)))
            with st.container(key="answer_next"):
                st.markdown(f"**Next step:** {nb(escape_markdown(answer.next_steps[0]))}")
        with right, st.container(key="answer_blockers"):
            st.markdown("**What stands in the way**  \n" + "\n".join(
                f"- {nb(escape_markdown(x))}" for x in answer.top or ["Nothing on the maps used here."]))
        if make_html is not None:  # its web page and "Print the handout", under the answer (the first row stays short)
            from app_support.cases.exports_ui import handout_extras

            handout_extras(make_html)
        with st.expander("The whole answer: what your project needs, what the parcel carries, every step"):
            for heading, items, numbered in answer.sections():
                st.markdown(f"**{heading}**")
                st.markdown("\n".join(f"{f'{i}.' if numbered else '-'} {nb(escape_markdown(x))}"
                                       for i, x in enumerate(items, start=1)))
            if answer.figures:
                st.markdown("**Why the same land shows two figures**")
                st.markdown("\n".join(f"- {nb(escape_markdown(x))}" for x in answer.figures))
        st.caption(escape_markdown(answer.note))


def handout_button(make_pdf, make_html=None) -> None:
    """One click: the one-page plain handout (``sloat_core.outputs.handout``), made when pressed."""
    st.download_button("Download the one-page handout (PDF)", make_pdf, file_name="what-this-means-for-your-lot.pdf",
                       mime="application/pdf", key="handout_pdf", on_click="ignore",
                       type="primary")
    if make_html is not None:  # the web page and "Print the handout" (app_support/cases/exports_ui.py's docs helper)
        from app_support.cases.exports_ui import handout_extras

        handout_extras(make_html)
