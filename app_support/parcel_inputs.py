"""Ways to choose a parcel on the landing page: search by SBL or address, upload a survey file.

Both gather input and call ``sloat_core.gis.parcels``; a parcel is stored with ``state.set_parcel``.
"""

from __future__ import annotations

import streamlit as st

from app_support import state
from app_support.citations import escape_markdown
from sloat_core.gis import parcels as parcel_input
from sloat_core.errors import SloatInputError

__all__ = ["find_by_text", "upload", "UPLOAD_TYPES", "UPLOAD_MAX_MB"]

UPLOAD_TYPES = ["geojson", "json", "kml", "kmz", "zip", "gpkg", "fgb", "dxf"]
#: Per-file limit of the parcel uploader (the server's own limit is in .streamlit/config.toml).
UPLOAD_MAX_MB = 10


def find_by_text(layers) -> None:
    """Search box for an SBL or street address, a list of matches and a button to use one."""
    query = st.text_input("Tax parcel (SBL, e.g. 156.14-1-23) or street address", key="parcel_query")
    if not query.strip():
        return
    matches = parcel_input.find_parcels(layers, query.strip(), limit=10)
    if not matches:
        st.caption("No tax parcel matches those words.")
        return
    labels = {m["sbl"]: f"{m['sbl']} · {m.get('address') or 'no address'}" for m in matches}
    sbl = st.selectbox("Matching parcels", list(labels), format_func=labels.get, key="parcel_match")
    if st.button("Use this parcel", key="use_parcel"):
        try:
            state.set_parcel(parcel_input.parcel_by_sbl(layers, sbl), f"Tax parcel {sbl}")
        except SloatInputError as exc:
            st.error(str(exc))


def upload() -> None:
    """The parcel-file uploader; a file that cannot be used leaves the current parcel as it was."""
    file = st.file_uploader("Or upload a parcel outline (GeoJSON, KML, zipped shapefile, "
                              "GeoPackage, DXF)", type=UPLOAD_TYPES, key="parcel_upload",
                              max_upload_size=UPLOAD_MAX_MB)
    if file is None:
        st.session_state[state.UPLOAD_ERROR] = None
        return
    if st.session_state.get(state.SEEN_UPLOAD) != file.file_id:
        st.session_state[state.SEEN_UPLOAD] = file.file_id
        try:
            parcel = parcel_input.read_parcel(file.getvalue(), file.name)
        except SloatInputError as exc:  # the current parcel stays as it was
            st.session_state[state.UPLOAD_ERROR] = str(exc)
        else:
            st.session_state[state.UPLOAD_ERROR] = None
            state.set_parcel(parcel, f"Uploaded file {file.name}")
    if st.session_state.get(state.UPLOAD_ERROR):
        st.error(escape_markdown(st.session_state[state.UPLOAD_ERROR]))  # it may quote the file's name
