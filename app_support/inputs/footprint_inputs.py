"""The disturbance footprint without drawing (WCAG 2.1.1 keyboard, 2.5.7 dragging): typed, whole parcel, or a file.

:func:`footprint_without_drawing` shows a folded box on the Proposed project page with three ways: a rectangle of
typed width and depth (ft) at the parcel's point, moved by typed offsets and turned
(:func:`sloat_core.measure.footprint.rectangle_footprint`); "the whole parcel"; or an uploaded outline (the
formats of the parcel upload). The footprint is stored where a drawing is (``forms.FOOTPRINT``, a WGS84 GeoJSON
geometry), so the map shows it and the core measures it the same way. A refused value shows one sentence and
leaves the footprint as it was; the polite live region announces the footprint's area (``announce.say``).
"""

from __future__ import annotations

import streamlit as st

from app_support.frame import announce
from app_support.inputs.parcel_inputs import UPLOAD_MAX_MB, UPLOAD_TYPES
from app_support.widgets import forms
from app_support.widgets.citations import escape_markdown
from sloat_core.errors import SloatInputError
from sloat_core.gis import parcels as parcel_input
from sloat_core.gis.geometry import area_sqft
from sloat_core.gis.parcels.formats import ALL_SHAPES, SeveralShapesError
from sloat_core.measure.footprint import MAX_OFFSET_FT, MAX_SIDE_FT, rectangle_footprint

__all__ = ["footprint_without_drawing", "set_footprint"]

_TYPED, _WHOLE, _FILE = "Type its width and depth", "The whole parcel", "Upload its outline"
_SEEN_FILE = "fpi_seen_file"


def set_footprint(geom_2260, how: str) -> None:
    """Store ``geom_2260`` (EPSG:2260) as the project's footprint and announce its area."""
    st.session_state[forms.FOOTPRINT] = parcel_input.to_wgs84_geojson(geom_2260)
    area = area_sqft(geom_2260)
    st.session_state["fpi_done"] = f"Footprint set ({how}): {area:,.0f} sq ft."
    st.rerun()  # the map above shows it, and the figures below measure it


def _typed(parcel) -> None:
    with st.form("fpi_rectangle", border=False):
        cols = st.columns(2)
        width = cols[0].number_input("Width, east to west (ft)", min_value=1.0, max_value=MAX_SIDE_FT,
                                     value=40.0, step=1.0, key="fpi_width")
        depth = cols[1].number_input("Depth, north to south (ft)", min_value=1.0, max_value=MAX_SIDE_FT,
                                     value=30.0, step=1.0, key="fpi_depth")
        cols = st.columns(3)
        east = cols[0].number_input("Move east (ft; west is negative)", min_value=-MAX_OFFSET_FT,
                                    max_value=MAX_OFFSET_FT, value=0.0, step=5.0, key="fpi_east")
        north = cols[1].number_input("Move north (ft; south is negative)", min_value=-MAX_OFFSET_FT,
                                     max_value=MAX_OFFSET_FT, value=0.0, step=5.0, key="fpi_north")
        turn = cols[2].number_input("Turn (degrees, counter-clockwise)", min_value=-360.0, max_value=360.0,
                                    value=0.0, step=5.0, key="fpi_turn")
        st.caption("The rectangle is centred on a point inside the parcel (its centre when that lies inside), "
                   "then moved and turned as typed.")
        if st.form_submit_button("Use this rectangle as the footprint", key="fpi_use_rectangle"):
            try:
                geom = rectangle_footprint(parcel.geometry, width, depth, east_ft=east, north_ft=north,
                                           rotation_deg=turn)
            except SloatInputError as exc:
                st.error(str(exc))
            else:
                set_footprint(geom, f"{width:,.0f} by {depth:,.0f} ft")


def _upload() -> None:
    file = st.file_uploader("Footprint outline (GeoJSON, KML, zipped shapefile, GeoPackage, DXF)",
                            type=UPLOAD_TYPES, key="fpi_file", max_upload_size=UPLOAD_MAX_MB)
    if file is None or st.session_state.get(_SEEN_FILE) == file.file_id:
        return
    st.session_state[_SEEN_FILE] = file.file_id
    try:
        try:
            shape = parcel_input.read_parcel(file.getvalue(), file.name, choose=None)
        except SeveralShapesError:  # several polygons: together they are the area of work
            shape = parcel_input.read_parcel(file.getvalue(), file.name, choose=ALL_SHAPES)
    except SloatInputError as exc:
        st.error(escape_markdown(str(exc)))  # it may quote the file's name
        return
    set_footprint(shape.geometry, f"file {file.name}")


def footprint_without_drawing(parcel) -> None:
    """The folded box "Give the footprint without drawing" (keyboard only), under the project map."""
    if parcel is None:
        return
    with st.expander("Give the footprint without drawing (type it, the whole parcel, or a file)"):
        how = st.radio("How", [_TYPED, _WHOLE, _FILE], key="fpi_how", horizontal=True)
        if how == _TYPED:
            _typed(parcel)
        elif how == _WHOLE:
            if st.button("Use the whole parcel as the footprint", key="fpi_whole"):
                set_footprint(parcel.geometry, "the whole parcel")
        else:
            _upload()
        done = st.session_state.get("fpi_done") if st.session_state.get(forms.FOOTPRINT) else None
        if done:
            st.success(escape_markdown(done))
            announce.say(done, key="footprint")
