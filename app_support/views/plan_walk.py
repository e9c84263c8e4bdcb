"""The Board walk-through's screen "The plan, lot by lot", shown when the session has a plan
(:func:`app_support.views.walkthrough.screens`).

On one projector screen (1920 x 1080, the sidebar folded): the plan in one sentence (its kind, its lots, how many
conform) and its problems counted, the lot map (the Plan page's own map, :func:`app_support.map.plan_map.plan_view`:
the constraint layers under the lots, each lot labelled with its answer in words), the lot table in large type
(lot, net lot area, minimum, conforms, shortfall, in the core's words, :mod:`sloat_core.plan.words`, as the
plan's document and the Plan page say them; the Plan page has the gross area, the permits and the downloads),
then the yield check (§ 402-48E) and the open space (§ 402-48G(2)) in one line each.

Up to :data:`LOTS_PER_SCREEN` lots the table holds every lot; a larger plan's table is paged, that many lots at a
time, chosen above it (the map shows every lot), and the screen says so.
"""

from __future__ import annotations

import folium
import streamlit as st

from app_support.analysis_door import law_day
from app_support.frame import state
from app_support.frame.theme import LAYER_LABELS
from app_support.inputs import plan_inputs as plans
from app_support.map import mapping, plan_map
from app_support.map.parcel_map import ON_AT_START
from app_support.widgets.citations import escape_markdown
from sloat_core.plan import words

__all__ = ["LOTS_PER_SCREEN", "MAP_HEIGHT_PX", "PLAN_CSS", "COLUMNS", "NO_PLAN", "pages_of", "table_rows", "one_line", "show"]

#: The most lots the table shows at once on the Board's screen (a larger plan's table is paged).
LOTS_PER_SCREEN = 12
#: The map's height on the screen (its key below it).
MAP_HEIGHT_PX = 440
#: The screen's own rules (constants): the table's rows close together, the map's key in a row that wraps, the map
#: without its drawing tools (the lots are drawn on the Plan page).
PLAN_CSS = """
<style>
.st-key-wt_plan [data-testid="stTable"] td, .st-key-wt_plan [data-testid="stTable"] th {
  padding-top:2px !important;padding-bottom:2px !important;line-height:1.3 !important;}
.st-key-wt_plan .sloat-legend {display:flex;flex-wrap:wrap;column-gap:1.1em;margin:0.2rem 0 0 0;}
.st-key-wt_plan .sloat-legend li {margin:0 !important;line-height:1.3 !important;}
.st-key-wt_plan p {margin-bottom:0.15em;}
</style>
"""
_NO_DRAWING_TOOLS = "<style>.leaflet-draw{display:none !important;}</style>"
#: The table's headings on the Board's screen.
COLUMNS = ["Lot", "Net lot area, sq ft", "Minimum, sq ft", "Conforms", "Shortfall, sq ft"]
#: Said when the plan cannot be checked on the parcel (the sentence why follows).
NO_PLAN = "The plan cannot be checked on this parcel"
_STATUS = {"within": "within", "over": "over", "unknown": "not known against"}
_KEY = "wt_plan_lots"


_n = words.number_text


def pages_of(count: int, per: int = LOTS_PER_SCREEN) -> list[tuple[int, int]]:
    """The table's pages as (first, last) lot numbers, 1-based.

    >>> pages_of(5), pages_of(30)
    ([(1, 5)], [(1, 12), (13, 24), (25, 30)])
    """
    return [(i + 1, min(i + per, count)) for i in range(0, max(count, 1), per)]


def table_rows(found, first: int = 1, last: int | None = None) -> list[dict]:
    """The rows of lots ``first`` to ``last`` (1-based), keyed by :data:`COLUMNS`."""
    rows = []
    for lot in list(found.lots)[first - 1:last]:
        label = " ".join(str(lot.label).split())
        conforms = words.conforms_text(lot)
        rows.append(dict(zip(COLUMNS, [label[:24] + ("…" if len(label) > 24 else ""), words.net_text(lot),
                                       words.minimum_text(lot), conforms[:1].upper() + conforms[1:],
                                       words.shortfall_text(lot)], strict=True)))
    return rows


def one_line(found) -> tuple[str, str]:
    """The yield check and the open space, one line each (plain text, each with its §)."""
    y, o = found.yield_check, found.open_space
    lo, hi = y.get("permitted_min"), y.get("permitted_max")
    permitted = "not known" if lo is None or hi is None else (f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}")
    n = y.get("plan_lots", len(found.lots))
    yield_line = (f"Yield ({y.get('citation')}): {n:,} lot{'s' * (n != 1)} in the plan, "
                  f"{_STATUS.get(y.get('status'), 'not known against')} the {permitted} permitted.")
    if o.get("gross_sqft") in (None, 0, 0.0):
        space = "none drawn"
    elif o.get("counted_sqft") is None:
        space = f"{_n(o.get('gross_sqft'))} sq ft drawn; counted unknown (no building envelope to measure yards from)"
    else:
        space = f"{_n(o.get('gross_sqft'))} sq ft drawn, {_n(o.get('counted_sqft'))} sq ft counted"
    return yield_line, f"Open space ({o.get('citation')}): {space}."


def _summary(found) -> str:
    lots = list(found.lots)
    yes = sum(1 for lot in lots if lot.conforms is True)
    no = sum(1 for lot in lots if lot.conforms is False)
    unknown = len(lots) - yes - no
    text = (f"{found.kind.capitalize()} plan: **{len(lots)} lot{'s' * (len(lots) != 1)}**, {yes} conform"
            f"{'s' * (yes == 1)}, {no} do{'es' * (no == 1)} not" + (f", {unknown} unknown" if unknown else "") + ".")
    if found.problems:
        n = len(found.problems)
        text += f" {n} problem{'s' * (n != 1)} in the drawing (the Plan page lists them)."
    return text


def show(parcel, layers, mode: str) -> None:
    """The screen's body (under the walk-through's title row)."""
    found, problem = plans.checked(parcel, layers)
    if found is None:
        st.warning(escape_markdown(f"{NO_PLAN}: {problem or 'it has no lots.'}"))
        return
    large = mode == state.PROJECTOR
    st.html(PLAN_CSS)  # after the mode's stylesheet, as that one, in the event container (walkthrough.apply_css)
    with st.container(key="wt_plan"):
        st.markdown(_summary(found))
        left, right = st.columns([11, 9], gap="medium")
        with left:
            _map(parcel, layers, found, large)
        with right:
            _table(found)
            yield_line, space_line = one_line(found)
            st.markdown(escape_markdown(yield_line))
            st.markdown(escape_markdown(space_line))


def _map(parcel, layers, found, large: bool) -> None:
    """The Plan page's map of the plan (the constraint layers the Parcel page shows under the lots), its key below."""
    from streamlit_folium import st_folium

    available = mapping.available_roles(layers)
    shown = [r for r in st.session_state.get(state.LAYERS_SHOWN, ON_AT_START)
             if r in available and r in LAYER_LABELS and r != "parcels"]
    view = plan_map.plan_view(parcel, layers, found, plans.current(), shown=shown,
                              show_slope=bool(st.session_state.get(state.SLOPE_OVERLAY, True)), large=large,
                              basemap=st.session_state.get(state.BASEMAP), width_px=1000 if large else 700,
                              height_px=MAP_HEIGHT_PX, on=law_day())
    fmap = mapping.base_map(large=large)
    fmap.get_root().header.add_child(folium.Element(plan_map.LABEL_CSS + _NO_DRAWING_TOOLS))
    st_folium(fmap, key="wt_plan_map", height=MAP_HEIGHT_PX, use_container_width=True, returned_objects=[],
              center=view.centre, zoom=view.zoom, feature_group_to_add=view.groups)
    if view.label_note:
        st.caption(escape_markdown(view.label_note))
    if view.key_roles or view.key_rows:
        st.html(mapping.legend_html(view.key_roles, view.key_rows))


def _table(found) -> None:
    """The lot table in the mode's type; over :data:`LOTS_PER_SCREEN` lots, paged (the pages chosen above it)."""
    import pandas as pd

    pages = pages_of(len(found.lots))
    first, last = pages[0]
    if len(pages) > 1:
        words = [f"Lots {a} to {b}" for a, b in pages]
        chosen = st.segmented_control(f"The table shows {LOTS_PER_SCREEN} lots at a time", words, key=_KEY,
                                      default=words[0]) or words[0]
        first, last = pages[words.index(chosen)]
    frame = pd.DataFrame(table_rows(found, first, last), columns=COLUMNS)
    st.table(frame.style.hide(axis="index"))
