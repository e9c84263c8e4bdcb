"""The layers as the maps draw them: simplified WGS84 GeoJSON with escaped tooltips, the buffer band, the tax
parcel lines and their label points, each made once per layer set and shared by every session.

Moved out of :mod:`app_support.loaders` (which loads the layer set and the settings these read): what a map
draws belongs with the maps. Every text that reaches the map's HTML goes through
:func:`app_support.map.folium_templates.map_html_text`.
"""

from __future__ import annotations

import datetime as dt
import threading

import streamlit as st

from app_support.analysis_door import law_day
from app_support.loaders import layers_key, settings
from app_support.map.folium_templates import map_html_text

__all__ = ["display_geojson", "buffer_geojson", "parcel_label_points", "identify_row"]

# Tolerance (feet) for simplifying layer outlines before they go to the browser.
_DISPLAY_SIMPLIFY_FT = 3.0
# Decimals of a degree the map's coordinates keep: 1e-6 degree is about 0.4 ft, well under the simplification.
_DEGREE_DECIMALS = 6


def _feature_collection(geoms, props: dict, ids) -> dict:
    """A GeoJSON FeatureCollection of WGS84 ``geoms`` with ``props`` ({name: one value per feature}), coordinates
    rounded to :data:`_DEGREE_DECIMALS` (short numbers in the JSON the browser loads: the first map's bytes).

    The collection GeoPandas' ``__geo_interface__`` gives (feature ids from ``ids``), without its bounding boxes
    (the map reads none), made from columns: GeoPandas walks the rows, the first map's largest cost on a fresh
    server after the tax parcel lines.
    """
    import numpy as np
    import shapely
    from shapely.geometry import mapping

    arr = shapely.transform(np.asarray(geoms, dtype=object), lambda xy: np.round(xy, _DEGREE_DECIMALS))
    names = list(props)
    return {"type": "FeatureCollection", "features": [
        {"id": str(i), "type": "Feature", "properties": dict(zip(names, values)),
         "geometry": None if g is None else mapping(g)}
        for i, g, *values in zip(ids, arr, *props.values(), strict=True)]}


# Fields tried, in order, for a feature's name in its tooltip.
_NAME_FIELDS = ("name", "NAME", "Name", "label", "FLD_ZONE", "WETLAND_TYPE", "WETLAND_TY", "ATTRIBUTE")


def identify_row(role: str, on: dt.date) -> tuple[str, str]:
    """What a click on a feature of ``role`` says: (its deduction row or "no lot-area deduction", §).

    The row and its § come from the core's deduction rows (`RowSpec.map_layer`) and the law's parameters as in
    effect ``on`` a date (the app's day, :func:`app_support.analysis_door.law_day`).
    """
    from sloat_core.law.params import param
    from sloat_core.measure.rows import deduction_label, row_on_map_layer

    row = row_on_map_layer(role)
    if row is not None:
        share = param(row.share, on)
        counts = "none of it counts" if not share.value else f"at most {share.value:.0%} of it counts"
        return f"Lot-area deduction row: {deduction_label(row.id, on)} ({counts})", share.citation
    return "No lot-area deduction (shown for the permits, reviews and cluster triggers)", ""


@st.cache_resource(show_spinner=False, max_entries=64)
def _display_geojson(lkey: str, role: str, on: dt.date, _layers) -> dict | None:
    from app_support.frame.theme import LAYER_LABELS

    gdf = _layers.display_gdf(role, simplify_ft=_DISPLAY_SIMPLIFY_FT)
    if gdf is None or gdf.empty:
        return None
    title = LAYER_LABELS.get(role, role)
    name_col = next((c for c in _NAME_FIELDS if c in gdf.columns), None)
    names = gdf[name_col].tolist() if name_col else [""] * len(gdf)
    # The identify pop-up: the layer, the feature's attributes (at most six), its deduction row and §.
    row, cite = identify_row(role, on)
    attrs = [c for c in gdf.columns if c != gdf.geometry.name and not str(c).startswith("_")][:6]
    columns = {c: gdf[c].tolist() for c in attrs}
    n = len(gdf)
    props = {
        "label": [map_html_text(f"{title}: {v}" if v else title) for v in names],
        "details": [map_html_text("; ".join(f"{c}: {columns[c][i]}" for c in attrs
                                            if str(columns[c][i]) not in ("", "None", "nan")))
                    for i in range(n)],
        "row": [map_html_text(row)] * n,
        "citation": [map_html_text(cite)] * n,
    }
    return _feature_collection(gdf.geometry.values, props, gdf.index)


@st.cache_resource(show_spinner=False, max_entries=8)
def _buffer_geojson(lkey: str, width_ft: float, on: dt.date, _layers) -> dict | None:
    import geopandas as gpd
    import shapely

    from sloat_core.measure.record import RESOURCE_ROLES
    from sloat_core.units import WGS84, WORK_CRS

    geoms = [g for r in RESOURCE_ROLES if (lyr := _layers.get(r)) is not None for g in lyr.geoms]
    if not geoms:
        return None
    resource = shapely.union_all(geoms)
    band = resource.buffer(width_ft, quad_segs=8).difference(resource)
    band = shapely.simplify(band, _DISPLAY_SIMPLIFY_FT, preserve_topology=True)
    row, cite = identify_row("buffer", on)
    label = f"Wetland and watercourse buffer ({width_ft:,.0f} ft)"
    props = {"label": [map_html_text(label)], "details": [map_html_text(
        f"{width_ft:,.0f} ft around wetlands, streams and ponds (outside them)")],
        "row": [map_html_text(row)], "citation": [map_html_text(cite)]}
    return _feature_collection(gpd.GeoSeries([band], crs=WORK_CRS).to_crs(WGS84).values, props, [0])


def buffer_geojson(layers) -> dict | None:
    """The band of the local buffer width around wetlands, watercourses and ponds, over the whole set.

    Drawn from the layer set with the same width the analysis uses (local settings); None when
    the set has none of those layers. Its pop-up states the deduction row as in effect on the app's day.
    """
    return _buffer_geojson(layers_key(layers), float(settings().buffer_width_ft), law_day(), layers)


@st.cache_resource(show_spinner=False, max_entries=4)
def _label_points(lkey: str, _layers) -> list:
    from sloat_core.units import WGS84

    lyr, meta = _layers.get("parcels"), _layers.parcels_meta
    if lyr is None or meta is None:
        return []
    gdf = lyr.gdf
    points = gdf.geometry.representative_point().to_crs(WGS84)
    return [[round(p.y, 6), round(p.x, 6), str(sbl)] for p, sbl in zip(points, gdf[meta.id_field])
            if p is not None and not p.is_empty and sbl is not None]


def parcel_label_points(layers) -> list:
    """[lat, lon, SBL] of every tax parcel (a point inside it), for the labels at street zoom."""
    return _label_points(layers_key(layers), layers)




def display_geojson(layers, role: str) -> dict | None:
    """Simplified WGS84 GeoJSON of one layer, with escaped ``label``, ``details``, ``row``, ``citation``.

    ``role`` "buffer" is the band drawn by :func:`buffer_geojson`. Returns None when the layer set
    does not have ``role``. A pop-up's deduction row states the law of the app's day
    (:func:`app_support.analysis_door.law_day`): the layer is made again when the day changes.
    """
    if role == "buffer":
        return buffer_geojson(layers)
    day = law_day()
    key = (layers_key(layers), role, day)
    found = _DISPLAY_SHARED.get(key)
    if found is not None:
        return found
    found = _parcel_lines(key[0], layers) if role == "parcels" else _display_geojson(key[0], role, day, layers)
    if found is not None:
        with _DISPLAY_LOCK:
            while len(_DISPLAY_SHARED) >= _DISPLAY_SHARED_MAX:
                _DISPLAY_SHARED.pop(next(iter(_DISPLAY_SHARED)))
            _DISPLAY_SHARED[key] = found
    return found


#: (layer set key, role, the app's day) -> the shared GeoJSON ``st.cache_resource`` gave for it: the map asks for every
#: layer on every run, and Streamlit's cache look-up (hashing the arguments, its locks) costs about 0.45 ms
#: a call under cProfile (about 0.1 ms plain); the object is the very one the cache holds. The buffer band (it follows the settings) is not kept.
_DISPLAY_SHARED: dict[tuple[str, str, dt.date], dict] = {}
_DISPLAY_SHARED_MAX = 64
_DISPLAY_LOCK = threading.Lock()


@st.cache_resource(show_spinner=False, max_entries=4)
def _parcel_lines(lkey: str, _layers) -> dict | None:
    """The tax-parcel lines as one feature: each shared edge once, rounded to 1e-6 degrees (about 0.4 ft).

    Lines only (the SBLs are the labels at street zoom, and a click picks a parcel when picking is on):
    about a fifth of the bytes of the parcels as polygons, which keeps the first map quick. Each outline's
    edges, rounded, are taken once however many parcels share them (an edge two neighbours share after
    rounding), then joined into lines: numbers only, where noding every outline against the others (a union)
    took 0.14 s on the sample and gave 70 % more points (two neighbours simplified apart cut each other's
    lines into short pieces).
    """
    import numpy as np
    import shapely

    gdf = _layers.display_gdf("parcels", simplify_ft=_DISPLAY_SIMPLIFY_FT)
    if gdf is None or gdf.empty:
        return None
    rings = shapely.boundary(gdf.geometry.values)
    xy, ring = shapely.get_coordinates(rings, return_index=True)
    xy = np.round(xy, _DEGREE_DECIMALS)  # short decimals in the JSON
    along = ring[1:] == ring[:-1]
    edges = np.hstack([xy[:-1][along], xy[1:][along]])
    backwards = (edges[:, 0] > edges[:, 2]) | ((edges[:, 0] == edges[:, 2]) & (edges[:, 1] > edges[:, 3]))
    edges[backwards] = edges[backwards][:, [2, 3, 0, 1]]
    edges = np.unique(edges[(edges[:, 0] != edges[:, 2]) | (edges[:, 1] != edges[:, 3])], axis=0)
    lines = shapely.line_merge(shapely.multilinestrings(shapely.linestrings(edges.reshape(-1, 2, 2))))
    return _feature_collection([lines], {"label": [map_html_text("Tax parcel lines")]}, [0])
