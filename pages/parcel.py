"""Parcel & constraints (landing page): choose a parcel, see its constraints and net lot area.

A parcel comes from a drawing on the map, a tax parcel found by SBL or address (or clicked on the
map), or an uploaded file. The map and the results beside it run in one fragment, so drawing
reruns only them; layer toggles are outside the map and reach it as feature groups.
"""

from __future__ import annotations

import folium
import streamlit as st

from app_support import analysis_door, loaders
from app_support.analysis_door import SloatInputError
from app_support.cases import cases_ui
from app_support.frame import announce, deep_links, element_preload, state
from app_support.frame.theme import LAYER_LABELS, MAP_HEIGHT_PX
from app_support.inputs import parcel_events, parcel_inputs
from app_support.map import layer_geojson, mapping, parcel_map
from app_support.map.map_component import st_map
from app_support.map.parcel_map import ON_AT_START
from app_support.map.slope_overlay import slope_legend
from app_support.views import project_result, results
from app_support.widgets import charts
from app_support.widgets.citations import escape_markdown

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

mode = state.mode()
try:
    layers = loaders.layerset()
except SloatInputError as exc:
    st.error(str(exc))
    st.stop()
available = mapping.available_roles(layers)
st.title("Parcel & constraints")


# At the counter and on a projector the finder folds away once a parcel is found, and the layer list waits
# in a closed expander: the map and the answer fill the first screen.
with st.expander(announce.FINDER_TITLE, expanded=mode == state.STANDARD or state.current_parcel() is None):
    find_col, upload_col = st.columns(2)
    with find_col:
        parcel_inputs.find_by_text(layers)
    with upload_col:
        parcel_inputs.upload()



def _layer_menu() -> list[str]:
    return st.multiselect("Constraint layers on the map", available, key=state.LAYERS_SHOWN,
                          default=[r for r in ON_AT_START if r in available],
                          format_func=lambda r: LAYER_LABELS.get(r, r))


def _standard_map_controls() -> tuple[list[str], str, bool]:
    """Standard: the layer menu, the basemap and the two check boxes, above the map in its column."""
    shown = _layer_menu()
    basemap_col, boxes_col = st.columns(2)
    with basemap_col:
        basemap = st.radio("Basemap", list(mapping.BASEMAPS), key=state.BASEMAP, index=0)
    with boxes_col:
        show_slope = st.checkbox("Slope classes", key=state.SLOPE_OVERLAY, disabled=layers.dem_path is None)
        st.checkbox("Pick a tax parcel by clicking", key=state.PICK_BY_CLICK, disabled=not layers.has("parcels"))
    return shown, basemap, show_slope


# In Standard mode the map's controls stand above the map, in its column after the answer's, and on a projector
# the layer menu stands above the map, after the figures: the Tab order is sidebar -> finder -> answer -> map
#. Outside Standard the map shows the basemap and, with no check box, the slope classes: the table's
# slope rows use their colours.
shown, basemap, show_slope = [], list(mapping.BASEMAPS)[0], layers.dem_path is not None
if mode == state.COUNTER:  # the layer menu waits below the map: the answer takes the first screen
    shown = [r for r in st.session_state.get(state.LAYERS_SHOWN, ON_AT_START) if r in available]


def _map_controls() -> tuple[list[str], str, bool]:
    """What the map shows, from the controls just above it (Standard, Projector) or the Counter's menu below."""
    if mode == state.STANDARD:
        return _standard_map_controls()
    if mode == state.PROJECTOR:  # after the figures and the answer's focus target, before the map
        with st.expander("Map layers", expanded=False):
            return _layer_menu(), basemap, show_slope
    return shown, basemap, show_slope


@st.fragment
def map_and_results() -> None:
    parcel = state.current_parcel()
    # On a projector the map takes the full width and the results follow below it. Elsewhere map and
    # results share the width equally: the six-column deduction table, whose citations never break,
    # then fits beside the map down to a window about 1280 px wide.
    # At the counter the answer leads the first screen across the width, above the map (filled once the
    # district is read beside the map), so the verdict, what stands in the way, the next step and the
    # handout button are seen without scrolling, on a phone too.
    # The answer's focus target and announcer go where the answer starts, above the map.
    answer_slot = st.container() if mode == state.COUNTER else None
    if mode == state.PROJECTOR:
        with st.container():  # always there, so the map keeps its place (and its component) when a parcel comes
            if parcel is not None:  # the figures lead the first screen, above the map
                _projector_figures(parcel)
        answer_slot = st.container()  # after the figures, before the map: the focus lands with them
        map_col, result_col = st.container(), st.container()
    else:  # the answer's column first in the page (and the Tab order), the map's second
        result_col, map_col = st.columns(2)
    with map_col:
        on_map, base, slope = _map_controls()
        view = parcel_map.feature_groups(
            layers, parcel, on_map, basemap=base, show_slope=slope,
            picking=bool(st.session_state.get(state.PICK_BY_CLICK)),  # clicks go through to pick a parcel
            large=mode == state.PROJECTOR, drawn=st.session_state.get(state.PARCEL_NOTE) == parcel_events.DRAWN,
            height_px=MAP_HEIGHT_PX[mode], on=analysis_door.law_day())
        # The component reads returned_objects once, when it mounts: clicks always come back
        # (drawing clicks do not reach the map) and are used only when picking is on.
        returned = ["all_drawings", "last_clicked"]
        large = mode == state.PROJECTOR
        fmap = mapping.base_map(label_points=layer_geojson.parcel_label_points(layers), large=large)
        # st_folium, with the base map's own text made once per layer set and size (app_support.map.map_component)
        out = st_map(fmap, ("parcel base map", loaders.layers_key(layers), large), key="parcel_map",
                     height=MAP_HEIGHT_PX[mode], returned_objects=returned, feature_group_to_add=view.groups,
                     layer_control=folium.LayerControl(collapsed=True), center=view.centre, zoom=view.zoom)
        parcel_events.take_map_events(out or {}, layers)
        extra = slope_legend(analysis_door.law_day()) if slope and parcel is not None and layers.dem_path else []
        legend = mapping.legend_html([r for r in on_map if r in LAYER_LABELS], extra)
        if legend:
            st.html(legend)
        # The SBL labels the map draws, in words (everything on the map is also in the text).
        if (chosen := state.current_parcel()) is not None and (
                on_the_map := parcel_map.tax_parcel_sentence(layers, chosen.geometry)):
            st.markdown(escape_markdown(on_the_map))
        results.show_layer_notice(layers)
    with result_col:
        _results(state.current_parcel(), answer_slot)
        cases_ui.autosave(inline=True)  # a drawing reruns only this fragment: save here too


def _projector_figures(parcel) -> None:
    """Projector: gross and net lot area and the verdict lead the first screen, above the map."""
    try:
        result = analysis_door.result(parcel, layers, district=st.session_state.get(state.DISTRICT) or None)
    except SloatInputError:
        return  # the results below the map say why
    results.show_headline(result)


def _results(parcel, answer_slot=None) -> None:
    parcel_inputs.undo_clear_button()
    if parcel is None:
        st.info("Draw the parcel on the map (polygon or rectangle tool), find it by SBL or address, "
                "or upload its outline.")
        return
    note = st.session_state.get(state.PARCEL_NOTE) or ""
    # A refused upload leaves the parcel, this answer and the case as they were: its sentence, and the word that
    # nothing changed, stand beside the uploader (parcel_inputs.upload).
    st.caption(escape_markdown(note))
    for warning in getattr(parcel, "warnings", ()) or ():
        st.caption(escape_markdown(warning))
    district = results.district_picker(loaders.settings(), parcel)
    try:
        result = analysis_door.result(parcel, layers, district=district)
    except SloatInputError as exc:
        st.error(str(exc))
        return
    # With a project described, the short answer is about it: what it needs, then what the parcel carries.
    answer = project_result.project_answer_result(parcel, st.session_state.get(state.DISTRICT)) or result
    counter = mode == state.COUNTER
    # the focus target, live region and skip link go where the answer starts (above the map at the counter)
    with answer_slot if answer_slot is not None else st.container():
        results.announce_answer(result, note)  # focus, live region, skip link, map frame's name
    if counter:
        with answer_slot if answer_slot is not None else st.container():
            results.show_answer_card(answer, lambda: parcel_map.handout_pdf(parcel, layers, district),
                                      lambda: parcel_map.handout_html(parcel, layers, district))
    elif mode != state.PROJECTOR:
        results.handout_button(lambda: parcel_map.handout_pdf(parcel, layers, district),
                               lambda: parcel_map.handout_html(parcel, layers, district))
    # At the counter the figures fold below the answer: the answer card said the verdict and the disclaimer.
    with st.expander("The figures: your whole lot, the land that counts, the chart and the table") if counter \
            else st.container():
        if mode != state.PROJECTOR:  # on a projector the figures lead the page, above the map
            results.show_headline(result, disclaimer=not counter)
        charts.show_chart(charts.shared_figure(results.waterfall_figure, results.waterfall_part(result),
                                               large=mode == state.PROJECTOR, plain_words=counter),
                          label=None, width="stretch")
        results.show_deductions(result)
    results.show_unknowns(result, parcel_map.missing_layers(layers))
    if not counter:  # the answer card holds the permits at the counter (each sentence once)
        results.show_triggers_and_permits(answer)


map_and_results()
if state.current_parcel() is None:  # the answer's small element kinds load with the first screen
    element_preload.preload_answer_elements()
if mode == state.COUNTER:
    with st.expander("Map layers", expanded=False):
        _layer_menu()
