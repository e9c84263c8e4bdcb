"""Slope-class picture of the parcel (clipped to its outline), as a folium ImageOverlay.

The picture is made by :mod:`sloat_core.gis.slope_web` (warped to Web Mercator, a PNG data URL); this module
caches it per process, runs it on the long-lived warm thread and places it on the map. The picture is for
looking; the numbers beside the map come from ``analyze()``.
"""

from __future__ import annotations

import datetime as dt

import folium
import numpy as np
import streamlit as st

from app_support import analysis_door
from sloat_core.gis.slope_web import MAX_SIZE, PAD_FT, PALETTE, class_picture, picture_request, png_data_url
from sloat_core.gis.terrain import SLOPE_CLASS_COLORS, slope_class_labels

__all__ = ["PAD_FT", "slope_picture", "slope_picture_url", "slope_group", "slope_legend"]


@st.cache_data(show_spinner=False, max_entries=32)
def slope_picture(dem_path: str, bounds: tuple[float, float, float, float],
                  max_size: int = MAX_SIZE, clip_wkb: bytes | None = None, *,
                  on: dt.date) -> tuple[np.ndarray, list[list[float]]] | None:
    """RGBA picture of the slope classes over ``bounds`` (EPSG:2260), warped to Web Mercator, the classes by the
    law in effect ``on`` a date (the app's day).

    With ``clip_wkb`` (a polygon in EPSG:2260, as WKB) every pixel whose centre is outside it is
    transparent: the picture follows the parcel's own outline, edited or not.

    Returns
    -------
    (ndarray, [[south, west], [north, east]]) or None
        None when the rectangle misses the DEM.
    """
    from app_support.frame import warm_thread

    # On a long-lived thread: PROJ and GDAL set up their transformations once there, not on each run's thread.
    return warm_thread.run(_picture, dem_path, bounds, max_size, clip_wkb, on)


@st.cache_data(show_spinner=False, max_entries=32)
def slope_picture_url(dem_path: str, bounds: tuple[float, float, float, float], max_size: int,
                      clip_wkb: bytes | None, on: dt.date) -> tuple[str, list[list[float]]] | None:
    """The picture of :func:`slope_picture` as a PNG data URL (lossless: it decodes to the same RGBA), and its
    WGS84 bounds; None when the rectangle misses the DEM. The arguments are a
    :func:`sloat_core.gis.slope_web.picture_request`'s.

    Kept with the picture, so that a rerun on the same parcel does not encode it again.
    """
    from app_support.frame import warm_thread

    return warm_thread.run(png_data_url, dem_path, bounds, max_size, clip_wkb, on)


def _picture(dem_path: str, bounds: tuple[float, float, float, float], max_size: int,
             clip_wkb: bytes | None, on: dt.date) -> tuple[np.ndarray, list[list[float]]] | None:
    made = class_picture(dem_path, bounds, max_size, clip_wkb, on)
    if made is None:
        return None
    codes, latlon_bounds = made
    return PALETTE[codes], latlon_bounds


def slope_group(layers, geom, on: dt.date, *, zindex: int = 2) -> folium.FeatureGroup | None:
    """The slope overlay clipped to ``geom`` (EPSG:2260), its classes by the law in effect ``on`` a date (the day
    the page's answer is worked out for), or None without a DEM or coverage. ``zindex``: its place among the map's
    overlays (2: over the layers drawn, as on the Parcel page; -1: under every line and area, as under a plan's
    lots)."""
    if layers is None or layers.dem_path is None or geom is None:
        return None
    request = picture_request(layers.dem_path, geom, on)
    # a tax parcel's picture is made ahead with its answer (sloat_core.engine.prepared); any other is made here
    made = analysis_door.prepared_picture(layers, request) or slope_picture_url(*request)
    if made is None:
        return None
    url, latlon_bounds = made
    group = folium.FeatureGroup(name="Slope classes")
    folium.raster_layers.ImageOverlay(image=url, bounds=latlon_bounds, opacity=0.6,
                                      interactive=False, zindex=zindex).add_to(group)
    return group


def slope_legend(on: dt.date) -> list[tuple[str, str]]:
    """(label, #rrggbb) for the slope classes that the overlay paints (not flat land), named by the thresholds in
    effect ``on`` a date (the overlay's)."""
    labels = slope_class_labels(on)
    out = []
    for code in (2, 3, 4):
        r, g, b, _a = SLOPE_CLASS_COLORS[code]
        out.append((f"Slope {labels[code - 1].replace('_', ' ')}%", f"#{r:02x}{g:02x}{b:02x}"))
    return out
