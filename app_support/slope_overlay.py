"""Slope-class picture of the parcel (clipped to its outline), as a folium ImageOverlay.

``sloat_core.gis.terrain.slope_class_raster`` gives the slope classes on the DEM's EPSG:2260 grid;
Leaflet stretches an image over a latitude/longitude box in Web Mercator, so the picture is
warped to EPSG:3857 (nearest neighbour) before it is placed. The picture is for looking; the
numbers beside the map come from ``analyze()``.
"""

from __future__ import annotations

import functools

import folium
import numpy as np
import streamlit as st
from pyproj import Transformer
from rasterio.transform import array_bounds, from_bounds
from rasterio.warp import Resampling, calculate_default_transform, reproject

from sloat_core.gis.terrain import SLOPE_CLASS_COLORS, slope_class_labels, slope_class_raster
from sloat_core.units import WGS84, WORK_CRS

__all__ = ["PAD_FT", "slope_picture", "slope_group", "slope_legend"]

#: Margin of DEM read around the parcel (the slope of an edge cell needs its neighbours).
PAD_FT = 30.0
_MERCATOR = "EPSG:3857"


@functools.cache
def _transformer(src: str, dst: str) -> Transformer:
    """One pyproj transformer per pair of CRS for the process (pyproj's transformers are thread-safe since
    3.1: each thread gets its own PROJ object inside)."""
    return Transformer.from_crs(src, dst, always_xy=True)


@st.cache_data(show_spinner=False, max_entries=32)
def slope_picture(dem_path: str, bounds: tuple[float, float, float, float],
                  max_size: int = 500, clip_wkb: bytes | None = None) -> tuple[np.ndarray, list[list[float]]] | None:
    """RGBA picture of the slope classes over ``bounds`` (EPSG:2260), warped to Web Mercator.

    With ``clip_wkb`` (a polygon in EPSG:2260, as WKB) every pixel whose centre is outside it is
    transparent: the picture follows the parcel's own outline, edited or not.

    Returns
    -------
    (ndarray, [[south, west], [north, east]]) or None
        None when the rectangle misses the DEM.
    """
    from app_support import warm_thread

    # On a long-lived thread: PROJ and GDAL set up their transformations once there, not on each run's thread.
    return warm_thread.run(_picture, dem_path, bounds, max_size, clip_wkb)


def _picture(dem_path: str, bounds: tuple[float, float, float, float], max_size: int,
             clip_wkb: bytes | None) -> tuple[np.ndarray, list[list[float]]] | None:
    overlay = slope_class_raster(dem_path, bounds, max_size=max_size)
    if overlay is None:
        return None
    rows, cols = overlay.rgba.shape[:2]
    src_transform = from_bounds(*overlay.bounds, cols, rows)
    dst_transform, width, height = calculate_default_transform(
        WORK_CRS, _MERCATOR, cols, rows, *overlay.bounds)
    picture = np.zeros((4, height, width), dtype=np.uint8)
    # The four bands in one warp (nearest neighbour: each band as if warped alone).
    reproject(np.ascontiguousarray(np.moveaxis(overlay.rgba, 2, 0)), picture,
              src_transform=src_transform, src_crs=WORK_CRS, dst_transform=dst_transform,
              dst_crs=_MERCATOR, resampling=Resampling.nearest, src_nodata=None, dst_nodata=0)
    if clip_wkb is not None:
        import shapely
        from rasterio.features import geometry_mask
        from shapely.ops import transform as shp_transform

        clip = shp_transform(_transformer(WORK_CRS, _MERCATOR).transform, shapely.from_wkb(clip_wkb))
        outside = geometry_mask([clip], out_shape=(height, width), transform=dst_transform)
        picture[3][outside] = 0
    west, south, east, north = array_bounds(height, width, dst_transform)
    (lon_w, lon_e), (lat_s, lat_n) = _transformer(_MERCATOR, WGS84).transform([west, east], [south, north])
    return np.transpose(picture, (1, 2, 0)), [[lat_s, lon_w], [lat_n, lon_e]]


def slope_group(layers, geom) -> folium.FeatureGroup | None:
    """The slope overlay clipped to ``geom`` (EPSG:2260), or None without a DEM or coverage."""
    if layers is None or layers.dem_path is None or geom is None:
        return None
    minx, miny, maxx, maxy = geom.bounds
    bounds = (minx - PAD_FT, miny - PAD_FT, maxx + PAD_FT, maxy + PAD_FT)
    made = slope_picture(str(layers.dem_path), bounds, clip_wkb=geom.wkb)
    if made is None:
        return None
    image, latlon_bounds = made
    group = folium.FeatureGroup(name="Slope classes")
    folium.raster_layers.ImageOverlay(image=image, bounds=latlon_bounds, opacity=0.6,
                                      interactive=False, zindex=2).add_to(group)
    return group


def slope_legend() -> list[tuple[str, str]]:
    """(label, #rrggbb) for the slope classes that the overlay paints (not flat land)."""
    labels = slope_class_labels()
    out = []
    for code in (2, 3, 4):
        r, g, b, _a = SLOPE_CLASS_COLORS[code]
        out.append((f"Slope {labels[code - 1].replace('_', ' ')}%", f"#{r:02x}{g:02x}{b:02x}"))
    return out
