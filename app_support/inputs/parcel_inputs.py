"""Ways to choose a parcel on the landing page: search by SBL or address, upload a survey file.

Both gather input and call ``sloat_core.gis.parcels``; a parcel is stored with ``state.set_parcel``.
"""

from __future__ import annotations

import streamlit as st

from app_support.frame import announce, state
from app_support.widgets.citations import escape_markdown
from sloat_core.errors import SloatInputError
from sloat_core.gis import parcels as parcel_input
from sloat_core.gis.parcels.formats import ALL_SHAPES, SeveralShapesError
from sloat_core.gis.safe_files import MAX_UPLOAD_BYTES

__all__ = ["clear_drawing", "undo_clear_button", "UNDO_CLEAR", "QUERY_KEY", "TYPEAHEAD_KEY", "find_by_text", "upload", "UPLOAD_TYPES", "UPLOAD_MAX_MB",
           "KEPT_AFTER_REFUSAL"]

UPLOAD_TYPES = ["geojson", "json", "kml", "kmz", "zip", "gpkg", "fgb", "dxf"]
#: Per-file limit of the parcel uploader, in MB: the server's own (``server.maxUploadSize`` of .streamlit/config.toml).
UPLOAD_MAX_MB = MAX_UPLOAD_BYTES // (1024 * 1024)
#: Said beside the uploader after a refused file, with the parcel's source: nothing the visitor had was touched.
KEPT_AFTER_REFUSAL = "Nothing was changed: the parcel and its results below are still the ones from before"
#: The polygons of an uploaded file that holds several: (file id, their labels), until one is chosen.
SHAPE_CHOICES = "parcel_upload_shape_choices"


QUERY_KEY = "parcel_query"
#: The SBL shown as an example in the search label: a parcel of the sample layers (tests/gis/test_parcel_search.py).
EXAMPLE_SBL = "155.06-1-42"
TYPEAHEAD_KEY = "parcel_typeahead"
# The query whose single match was already made the parcel (so a rerun does not apply it again).
_APPLIED = "parcel_query_applied"


@st.cache_resource(show_spinner=False, max_entries=4)
def _directory(lkey: str, _layers) -> dict[str, str]:
    """SBL -> "address · SBL" of every tax parcel, addresses in order (the type-ahead list).

    One dictionary per layer set for every session and run (only read: listed and looked up), not a copy
    unpickled on each run as ``st.cache_data`` would give (1,294 entries on the sample, three runs a pick)."""
    lyr, meta = _layers.get("parcels"), _layers.parcels_meta
    if lyr is None or meta is None:
        return {}
    gdf = lyr.gdf
    addrs = gdf[meta.address_field] if meta.address_field else [None] * len(gdf)
    out = {}
    for sbl, addr in zip(gdf[meta.id_field], addrs):
        if sbl is None or str(sbl).strip() == "":
            continue
        text = str(addr).strip() if addr is not None and addr == addr else ""
        out[str(sbl)] = f"{text} · {sbl}" if text else f"{sbl} (no address)"
    return dict(sorted(out.items(), key=lambda kv: kv[1].lower()))


def _choose(layers, sbl: str) -> None:
    """Make tax parcel ``sbl`` the parcel under study (raises SloatInputError when it cannot be read)."""
    state.set_parcel(parcel_input.parcel_by_sbl(layers, sbl), f"Tax parcel {sbl}")


def _use(layers, sbl: str) -> bool:
    try:
        _choose(layers, sbl)
    except SloatInputError as exc:
        st.error(str(exc))
        return False
    return True


def _named(matches: list[dict], most: int = 3) -> str:
    """The first ``most`` parcels offered, in words (the live region names the near misses it offers).

    >>> _named([{"sbl": "1-2-3", "address": "1 Test Road"}, {"sbl": "1-2-4", "address": None}])
    '1 Test Road, tax parcel 1-2-3; no address, tax parcel 1-2-4'
    """
    names = [f"{m.get('address') or 'no address'}, tax parcel {m['sbl']}" for m in matches[:most]]
    return "; ".join(names) + (f"; and {len(matches) - most} more" if len(matches) > most else "")


def _apply_single_match(layers) -> None:
    """The search box's callback: words that find one tax parcel make it the parcel before the page runs.

    Streamlit runs a widget's callback before the script, so the whole page (the frame, the finder, the
    map and the answer) is drawn once, for the new parcel; choosing it while the page ran meant running
    the page again (``st.rerun``): the frame and the finder twice per pick, about a tenth of a pick's
    server time. A parcel that cannot be read is left to the page, which says why where the box is.
    """
    from app_support.loaders import search_parcels

    query = str(st.session_state.get(QUERY_KEY) or "").strip()
    if not query or st.session_state.get(_APPLIED) == query:
        return
    found = search_parcels(layers, query, limit=10)  # kept per layer set and text: the page's call is a hit
    if len(found.matches) != 1:
        return
    try:
        _choose(layers, found.matches[0]["sbl"])
    except SloatInputError:
        return  # the page tries again and shows the sentence beside the box
    st.session_state[_APPLIED] = query


def find_by_text(layers) -> None:
    """Find a tax parcel: a type-ahead list, and a search box for an SBL or an address.

    The search box accepts "Road" for "Rd" (and the other street words), any case, and a near miss
    (``sloat_core.gis.parcels.search_parcels``). A single match is chosen at once; a capped list
    says "10 of N".
    """
    from app_support.loaders import layers_key, search_parcels

    directory = _directory(layers_key(layers), layers)
    if directory:
        def pick() -> None:
            sbl = st.session_state.get(TYPEAHEAD_KEY)
            if sbl:
                _use(layers, sbl)

        st.selectbox("Type an address or SBL and pick the parcel", list(directory), index=None,
                     format_func=directory.get, key=TYPEAHEAD_KEY, on_change=pick,
                     placeholder="Start typing, e.g. 297 Johnsontown")
    query = st.text_input(f"Tax parcel (SBL, e.g. {EXAMPLE_SBL}) or street address", key=QUERY_KEY,
                          on_change=_apply_single_match, args=(layers,))
    if not query.strip():
        announce.forget("finder")
        return
    found = search_parcels(layers, query.strip(), limit=10)  # kept per layer set and text (loaders)
    words = query.strip() if len(query.strip()) <= 60 else query.strip()[:57] + "..."
    if not found.matches:
        st.caption("No tax parcel matches those words.")
        announce.say(f"No tax parcel matches {words}.", key="finder")  # a status message (WCAG 4.1.3)
        return
    if found.near_miss:
        st.caption("No parcel has exactly those words; the nearest:")
    if len(found.matches) > 1:  # one match is announced with its answer
        announce.say(f"No parcel has exactly the words {words}. The nearest: {_named(found.matches)}. Choose one "
                     "under Matching parcels." if found.near_miss else
                     f"{found.total} parcels match {words}: choose one under Matching parcels.", key="finder")
    if len(found.matches) == 1:
        announce.forget("finder")  # the answer's announcement says it; a search said before is said again
        only = found.matches[0]
        if st.session_state.get(_APPLIED) != query.strip():  # not chosen by the box's callback (it failed)
            st.session_state[_APPLIED] = query.strip()
            if _use(layers, only["sbl"]):
                st.rerun()  # the page above (the finder, on a projector) is drawn again for the new parcel
        st.caption(escape_markdown(f"Found: {only.get('address') or 'no address'} · tax parcel {only['sbl']}."))
        return
    if found.total > len(found.matches):
        st.caption(f"Showing {len(found.matches)} of {found.total} matches: add a house number or more of "
                   "the street name to narrow them.")
    labels = {m["sbl"]: f"{m['sbl']} · {m.get('address') or 'no address'}" for m in found.matches}
    sbl = st.selectbox("Matching parcels", list(labels), format_func=labels.get, key="parcel_match")
    if st.button("Use this parcel", key="use_parcel"):
        _use(layers, sbl)


def upload() -> None:
    """The parcel-file uploader; a file that cannot be used leaves the current parcel as it was."""
    file = st.file_uploader("Or upload a parcel outline (GeoJSON, KML, zipped shapefile, "
                              "GeoPackage, DXF)", type=UPLOAD_TYPES, key="parcel_upload",
                              max_upload_size=UPLOAD_MAX_MB)
    ss = st.session_state
    if file is None:
        ss[state.UPLOAD_ERROR] = None
        ss[SHAPE_CHOICES] = None
        return
    if ss.get(state.SEEN_UPLOAD) != file.file_id:
        ss[state.SEEN_UPLOAD] = file.file_id
        ss[SHAPE_CHOICES] = None
        ss.pop("parcel_upload_shape", None)  # the last file's choice means nothing for this one
        _read_upload(file, None)
    choices = ss.get(SHAPE_CHOICES)
    if choices and choices[0] == file.file_id:
        _choose_shape(file, list(choices[1]))
    if ss.get(state.UPLOAD_ERROR):
        st.error(escape_markdown(ss[state.UPLOAD_ERROR]))  # it may quote the file's name
        # The answer on screen stays the earlier parcel's, exactly as it was; said here so it is not read as the
        # refused file's (it names its own source above its figures).
        if state.current_parcel() is not None:
            st.caption(escape_markdown(f"{KEPT_AFTER_REFUSAL} ({ss.get(state.PARCEL_NOTE) or 'no source noted'})."))


def _read_upload(file, choose) -> None:
    ss = st.session_state
    try:
        parcel = parcel_input.read_parcel(file.getvalue(), file.name, choose=choose)
    except SeveralShapesError as exc:  # the user picks the parcel among the file's polygons
        ss[state.UPLOAD_ERROR] = None
        ss[SHAPE_CHOICES] = (file.file_id, exc.choices)
    except SloatInputError as exc:  # the current parcel stays as it was
        ss[state.UPLOAD_ERROR] = str(exc)
    else:
        ss[state.UPLOAD_ERROR] = None
        ss[SHAPE_CHOICES] = None
        state.set_parcel(parcel, f"Uploaded file {file.name}")


def _choose_shape(file, labels: list[str]) -> None:
    """A file of several polygons (a KML with a lot and its neighbours, say): which one is the parcel."""
    options = list(range(len(labels))) + [ALL_SHAPES]
    names = {i: f"{i + 1}. {lab}" for i, lab in enumerate(labels)}
    names[ALL_SHAPES] = f"All {len(labels)} together, as one parcel"
    st.warning(f"The file holds {len(labels)} separate polygons; choose the one that is the parcel.",
               icon=":material/rule:")
    pick = st.radio("Polygon to use as the parcel", options, format_func=lambda o: escape_markdown(names[o]),
                    key="parcel_upload_shape")
    if st.button("Use this polygon", key="parcel_upload_shape_use"):
        _read_upload(file, pick)
        if st.session_state.get(SHAPE_CHOICES) is None and not st.session_state.get(state.UPLOAD_ERROR):
            st.rerun()


#: The drawn parcel (and its note) that "Clear all" removed, kept for one undo.
UNDO_CLEAR = "undo_clear_drawing"


def clear_drawing(drawn_note: str) -> bool:
    """Leaflet.draw's "Clear all" (or deleting the last drawing) removed the drawn parcel: drop it and its figures.

    Only a parcel that came from a drawing is dropped (a tax parcel or an upload stays). The dropped
    parcel is kept for :func:`undo_clear_button`. Returns True when something was cleared.
    """
    ss = st.session_state
    ss[state.SEEN_DRAWINGS] = None
    parcel = state.current_parcel()
    if parcel is None or not str(ss.get(state.PARCEL_NOTE) or "").startswith(drawn_note):
        return False
    ss[UNDO_CLEAR] = (parcel, ss.get(state.PARCEL_NOTE), ss.get(state.DISTRICT))
    ss[state.PARCEL] = None
    ss[state.PARCEL_NOTE] = ""
    return True


def undo_clear_button() -> None:
    """After "Clear all": one sentence and an Undo button that brings the drawn parcel back."""
    kept = st.session_state.get(UNDO_CLEAR)
    if not kept or state.current_parcel() is not None:
        return

    def undo() -> None:
        parcel, note, district = st.session_state.pop(UNDO_CLEAR)
        st.session_state[state.PARCEL], st.session_state[state.PARCEL_NOTE] = parcel, note
        st.session_state[state.DISTRICT] = district

    st.info("The drawing and its figures were cleared.")
    st.button("Undo: bring the drawn parcel back", key="undo_clear", on_click=undo, icon=":material/undo:")
