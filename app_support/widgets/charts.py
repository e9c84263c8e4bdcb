"""Plotly figures of the mitigation and timeline pages.

Figures only draw values the core computed: the gauge takes the required replacement area from the
mitigation result; the timeline takes :class:`sloat_core.law.events.Event` objects and the winter
season dates the core worked out. ``large=True`` is the projector's type size.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable

import plotly.graph_objects as go
import streamlit as st

from sloat_core.law.events import STATUS_WORDS

__all__ = [
    "TIMELINE_COLUMNS", "STATUS_COLOURS", "STATUS_LABELS", "mitigation_gauge", "timeline_figure", "chart_table",
    "show_chart", "shared_figure"]

#: One colour per event status (sloat_core.rules.clocks), the same in the chart and the table. The table writes
#: the status in this colour, so each is at least 4.5:1 on white (WCAG 1.4.3; tests/app/test_a11y_contrast.py).
STATUS_COLOURS = {
    "active": "#1a7a3e",
    "expiring": "#8a5300",
    "expired": "#b2182b",
    "upcoming": "#2166ac",
    "due_soon": "#b04a00",
    "passed": "#636363",
    "met": "#1a7a3e",
    "missed": "#b2182b",
    "not_yet": "#762a83",
    "reached": "#1a7a3e",
}
STATUS_LABELS = STATUS_WORDS  # the words of sloat_core.rules.clocks, shared with the PDF report
_SEASON_FILL = "rgba(70, 130, 180, 0.14)"


#: Figures made by :func:`shared_figure`, by what they were made from; at most ``_SHARED_MAX``, oldest dropped.
_SHARED: OrderedDict[tuple[str, str], go.Figure] = OrderedDict()
_SHARED_MAX = 128
_SHARED_LOCK = threading.Lock()


def shared_figure(build: Callable[..., go.Figure], *args, **kwargs) -> go.Figure:
    """``build(*args, **kwargs)``, made once per content of its arguments for every session of the process.

    The key is a hash of the arguments as JSON (a result dict, flags), so the same answer on any rerun,
    page or session gets the very figure made the first time: Plotly's figure building and validation
    (about 10-30 ms for the waterfall) is not done again. The figure is shared: read it (``st.plotly_chart``
    copies it into its message), never change it. Arguments that are not JSON are named by ``str``.
    """
    text = json.dumps([args, kwargs], sort_keys=True, default=str, separators=(",", ":"))
    name = f"{getattr(build, '__module__', '')}.{getattr(build, '__qualname__', repr(build))}"
    key = (name, hashlib.sha256(text.encode("utf-8")).hexdigest())
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is not None:
            _SHARED.move_to_end(key)
            return found
    fig = build(*args, **kwargs)
    with _SHARED_LOCK:
        _SHARED[key] = fig
        while len(_SHARED) > _SHARED_MAX:
            _SHARED.popitem(last=False)
    return fig


def _font(large: bool) -> dict:
    return {"size": 24 if large else 13, "color": "#000000"}


def mitigation_gauge(required_sqft: float, proposed_sqft: float | None, *, large: bool = False) -> go.Figure:
    """A gauge of the proposed replacement wetland against the required area.

    Parameters
    ----------
    required_sqft : float
        Required replacement area (from the core's mitigation result).
    proposed_sqft : float or None
        Proposed replacement area; None draws an empty gauge.
    large : bool
        Projector type size.

    Returns
    -------
    plotly.graph_objects.Figure
        The needle bar is green when the proposal reaches the requirement, red when short; the
        black line marks the requirement.
    """
    proposed = proposed_sqft or 0.0
    top = max(required_sqft, proposed, 1.0) * 1.25
    short = proposed < required_sqft
    fig = go.Figure(go.Indicator(
        mode="gauge+number+delta" if proposed_sqft is not None else "gauge",
        value=proposed,
        number={"suffix": " sq ft", "valueformat": ",.0f"},
        delta={"reference": required_sqft, "valueformat": ",.0f",
               "increasing": {"color": STATUS_COLOURS["active"]}, "decreasing": {"color": STATUS_COLOURS["expired"]}},
        title={"text": f"Proposed replacement against {required_sqft:,.0f} sq ft required"},
        gauge={
            # few ticks, so the long figures of the projector's type do not run into each other
            "axis": {"range": [0, top], "tickformat": ",.0f", "nticks": 4 if large else 6},
            "bar": {"color": STATUS_COLOURS["expired"] if short else STATUS_COLOURS["active"]},
            "steps": [{"range": [0, required_sqft], "color": "#fde0dd"},
                      {"range": [required_sqft, top], "color": "#e5f5e0"}],
            "threshold": {"line": {"color": "#000000", "width": 5}, "thickness": 0.9,
                          "value": required_sqft},
        },
    ))
    fig.update_layout(height=380 if large else 280, margin={"l": 30, "r": 30, "t": 70, "b": 10},
                      font=_font(large))
    return fig


def timeline_figure(rows: list[dict], as_of: dt.date, seasons: list[tuple[dt.date, dt.date]],
                    *, large: bool = False) -> go.Figure:
    """The dates on a time axis, one row per item, coloured by status.

    Parameters
    ----------
    rows : list of dict
        One per event: ``item`` (row name), ``date``, ``label``, ``status``, ``citation``, ``kind``.
    as_of : datetime.date
        Drawn as a vertical "as of" line.
    seasons : list of (date, date)
        First and last day of each winter no-bare-slope season, shaded.
    large : bool
        Projector type size.
    """
    fig = go.Figure()
    for status, colour in STATUS_COLOURS.items():
        mine = [r for r in rows if r["status"] == status]
        if not mine:
            continue
        fig.add_trace(go.Scatter(
            x=[r["date"] for r in mine], y=[r["item"] for r in mine], mode="markers",
            name=STATUS_LABELS[status],
            marker={"color": colour, "size": 18 if large else 12, "line": {"color": "#000", "width": 1},
                    "symbol": ["diamond" if r["kind"] in ("expires", "valid_until", "latest_extended_expiry")
                               else "circle" for r in mine]},
            customdata=[[r["label"], r["citation"]] for r in mine],
            hovertemplate="%{x|%d %b %Y}<br>%{customdata[0]}<br>%{customdata[1]}<extra></extra>",
        ))
    for start, end in seasons:
        fig.add_shape(type="rect", xref="x", yref="paper", x0=start, x1=end + dt.timedelta(days=1),
                      y0=0, y1=1, fillcolor=_SEASON_FILL, line={"width": 0}, layer="below")
    if seasons:  # a legend entry for the shading
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name="Winter season: no bare steep slopes",
                                 marker={"symbol": "square", "size": 18 if large else 12, "color": _SEASON_FILL,
                                         "line": {"color": "#4682b4", "width": 1}}, hoverinfo="skip"))
    fig.add_shape(type="line", xref="x", yref="paper", x0=as_of, x1=as_of, y0=0, y1=1,
                  line={"color": "#000000", "width": 3, "dash": "dash"})
    fig.add_annotation(x=as_of, y=1, xref="x", yref="paper", yanchor="bottom", xanchor="left", showarrow=False,
                       text=f"As of {as_of:%d %b %Y}")
    items = list(dict.fromkeys(r["item"] for r in rows))
    fig.update_layout(
        height=max(420 if large else 260, (170 if large else 110) + (70 if large else 40) * len(items)),
        margin={"l": 10, "r": 10, "t": 40, "b": 60}, font=_font(large),
        legend={"orientation": "h", "y": -0.25}, plot_bgcolor="#ffffff",
        yaxis={"categoryorder": "array", "categoryarray": items[::-1], "gridcolor": "#dddddd", "automargin": True,
               "visible": bool(items)},  # no items: no meaningless numbered rows
        # at most 4-7 dates, written level: ticks no longer overlap in the projector's type
        xaxis={"type": "date", "gridcolor": "#dddddd", "automargin": True, "nticks": 4 if large else 7,
               "tickangle": 0, "tickformat": "%b %Y"},
    )
    return fig


#: Column widths of the Timeline page's table: "What" and "Item" get room, so they are not cut.
TIMELINE_COLUMNS = {
    "Date": st.column_config.TextColumn("Date", width="small"),
    "What": st.column_config.TextColumn("What", width="large"),
    "Status": st.column_config.TextColumn("Status", width="small"),
    "§": st.column_config.TextColumn("§", width="small"),
    "Item": st.column_config.TextColumn("Item", width="medium"),
    "How it is worked out": st.column_config.TextColumn("How it is worked out", width="large"),
}


def _number(value) -> str:
    return "" if value is None else f"{abs(value):,.0f}"


def chart_table(fig: go.Figure) -> list[dict]:
    """The rows a figure draws, as text (the chart's text twin, WCAG 1.1.1 and 1.3.1).

    A waterfall gives each bar (step, sq ft); a gauge the proposed and the required area; a timeline each
    dot (date, item, what, status, §). Figures of other kinds give their traces' points.

    >>> rows = chart_table(mitigation_gauge(1200.0, 900.0))
    >>> rows[0]["What"], rows[0]["sq ft"], rows[1]["sq ft"]
    ('Proposed replacement', '900', '1,200')
    """
    rows: list[dict] = []
    for trace in fig.data:
        kind = trace.type
        if kind == "waterfall":
            horizontal = trace.orientation == "h"
            labels, values = (trace.y, trace.x) if horizontal else (trace.x, trace.y)
            for label, value, measure in zip(labels, values, trace.measure):
                rows.append({"Step": str(label).replace("<br>", " "), "sq ft": _number(value),
                             "How": {"absolute": "start", "relative": "deducted", "total": "result"}.get(measure, "")})
        elif kind == "indicator":
            reference = trace.gauge.threshold.value if trace.gauge and trace.gauge.threshold else None
            proposed = trace.value if trace.mode and "number" in trace.mode else None
            rows.append({"What": "Proposed replacement", "sq ft": _number(proposed) or "not given"})
            rows.append({"What": "Required replacement", "sq ft": _number(reference)})
        elif kind == "scatter" and trace.x is not None and any(x is not None for x in trace.x):
            extra = trace.customdata if trace.customdata is not None else [["", ""]] * len(trace.x)
            for x, y, (label, citation) in zip(trace.x, trace.y, extra):
                day = x.isoformat() if hasattr(x, "isoformat") else str(x)
                rows.append({"Date": day, "Item": str(y), "What": label, "Status": trace.name, "§": citation})
    if rows and "Date" in rows[0]:
        rows.sort(key=lambda r: r["Date"])
    return rows


def show_chart(fig: go.Figure, *, label: str | None = "Chart as a table", **plotly_kwargs) -> None:
    """``st.plotly_chart(fig, **plotly_kwargs)`` with its text twin beneath: an HTML table of what it draws,
    in a folded expander (reachable by keyboard and read by a screen reader; a canvas grid is neither);
    ``label=None`` where the page's own table is the twin (the deduction table under the waterfall).

    Always drawn in the figure's own colours (``theme=None``): Streamlit's chart theme greys the axis text
    to #808495, 3.8:1 on white, under the 4.5:1 that WCAG 1.4.3 asks of 12-13 px text; :func:`_font` is black.
    """
    from app_support.widgets.citations import escape_markdown

    st.plotly_chart(fig, theme=None, **plotly_kwargs)
    if label is None:
        return
    rows = chart_table(fig)
    if rows:
        heads = list(rows[0])

        def cell(value) -> str:
            return escape_markdown(str(value)) or " "

        with st.expander(label, expanded=False):  # a Markdown table: an HTML <table> with header cells
            st.markdown("\n".join([f"| {' | '.join(cell(h) for h in heads)} |", "|" + " --- |" * len(heads),
                                    *(f"| {' | '.join(cell(r.get(h, '')) for h in heads)} |" for r in rows)]))
