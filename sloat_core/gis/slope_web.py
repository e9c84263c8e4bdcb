"""The slope-class picture of a parcel as a web map draws it: warped to Web Mercator, clipped to the outline,
encoded as a PNG data URL (looking, not measuring).

:func:`sloat_core.gis.slope_picture.slope_class_raster` gives the slope classes on the DEM's EPSG:2260 grid;
Leaflet stretches an image over a latitude/longitude box in Web Mercator, so the picture is warped to EPSG:3857
(nearest neighbour, in numpy: each pixel takes the class of the source cell under its centre) before it is
placed. :func:`picture_request` names the picture of one outline (the padded rectangle, the size, the clip),
so that the app and the answers worked out ahead (:mod:`sloat_core.engine.prepared`) ask for the same one.
The numbers beside the map come from the analysis, never from this picture.
"""

from __future__ import annotations

import base64
import datetime as dt
import functools
import math
import struct
import zlib

import numpy as np
from pyproj import Transformer
from rasterio.transform import from_origin

from sloat_core.gis.slope import SLOPE_CLASS_COLORS
from sloat_core.gis.slope_picture import slope_class_raster
from sloat_core.units import WGS84, WORK_CRS

__all__ = ["MAX_SIZE", "PAD_FT", "PALETTE", "PictureRequest", "class_picture", "picture_request", "png_data_url"]

#: Margin of DEM read around the parcel (the slope of an edge cell needs its neighbours).
PAD_FT = 30.0
#: Largest number of picture cells on either side of the slope classes read for the map.
MAX_SIZE = 500
_MERCATOR = "EPSG:3857"
#: Every how many destination pixels the inverse projection is computed exactly (bilinear between).
_LATTICE = 16
#: RGBA by class code; code 0 (unknown) is fully transparent, and so is every pixel left unpainted.
PALETTE = np.array([SLOPE_CLASS_COLORS[k] for k in range(5)], dtype=np.uint8)

#: (DEM path, (minx, miny, maxx, maxy) in EPSG:2260, max size, clip polygon as WKB or None, the date whose law
#: the classes' thresholds are read at).
PictureRequest = tuple[str, tuple[float, float, float, float], int, "bytes | None", dt.date]


def picture_request(dem_path, geom, on: dt.date) -> PictureRequest:
    """The picture of the outline ``geom`` (EPSG:2260): its bounds padded by :data:`PAD_FT`, clipped to it, its
    classes by the law in effect ``on`` a date (the analysis's, or the app's day)."""
    minx, miny, maxx, maxy = geom.bounds
    return (str(dem_path), (minx - PAD_FT, miny - PAD_FT, maxx + PAD_FT, maxy + PAD_FT), MAX_SIZE, geom.wkb, on)


@functools.cache
def _transformer(src: str, dst: str) -> Transformer:
    """One pyproj transformer per pair of CRS for the process (pyproj's transformers are thread-safe since
    3.1: each thread gets its own PROJ object inside)."""
    return Transformer.from_crs(src, dst, always_xy=True)


def png_data_url(dem_path: str, bounds: tuple[float, float, float, float], max_size: int,
                 clip_wkb: bytes | None, on: dt.date) -> tuple[str, list[list[float]]] | None:
    """The picture of :func:`class_picture` as a PNG data URL (lossless: it decodes to the same RGBA), and its
    WGS84 bounds [[south, west], [north, east]]; None when the rectangle misses the DEM. The arguments are a
    :func:`picture_request`'s."""
    made = class_picture(dem_path, bounds, max_size, clip_wkb, on)
    if made is None:
        return None
    codes, latlon_bounds = made
    return "data:image/png;base64," + base64.b64encode(indexed_png(codes)).decode("ascii"), latlon_bounds


def indexed_png(codes: np.ndarray) -> bytes:
    """PNG of the class codes with the slope palette (colour type 3, alphas in tRNS), zlib level 6.

    folium's own encoder writes RGBA at zlib level 9: 14 ms for a 277 x 196 picture, against 0.7 ms here
    for a smaller file (one byte a pixel; the level-9 search gains little on these flat runs).
    """
    height, width = codes.shape
    raw = np.zeros((height, width + 1), dtype=np.uint8)  # each row: filter byte 0 (none), then the codes
    raw[:, 1:] = codes

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack("!I", len(data)) + tag + data + struct.pack("!I", zlib.crc32(tag + data))

    return b"".join([b"\x89PNG\r\n\x1a\n",
                     chunk(b"IHDR", struct.pack("!2I5B", width, height, 8, 3, 0, 0, 0)),
                     chunk(b"PLTE", PALETTE[:, :3].tobytes()), chunk(b"tRNS", PALETTE[:, 3].tobytes()),
                     chunk(b"IDAT", zlib.compress(raw.tobytes(), 6)), chunk(b"IEND", b"")])


def class_picture(dem_path: str, bounds: tuple[float, float, float, float], max_size: int,
                   clip_wkb: bytes | None, on: dt.date) -> tuple[np.ndarray, list[list[float]]] | None:
    """The slope class codes on a Web Mercator grid (0 where transparent) and its WGS84 bounds.

    Nearest neighbour, in numpy: the grid covers the source rectangle's bounds in EPSG:3857 (edges
    densified), with square pixels sized so that the diagonal has as many pixels as the source's
    (the rule of GDAL's suggested warp output); each pixel takes the source cell under its centre's
    inverse projection, or nothing outside the source. The classes' thresholds are those in effect ``on`` a date.
    """
    overlay = slope_class_raster(dem_path, bounds, max_size=max_size, on=on)
    if overlay is None:
        return None
    rows, cols = overlay.classes.shape
    minx, miny, maxx, maxy = overlay.bounds
    west, south, east, north = _transformer(WORK_CRS, _MERCATOR).transform_bounds(
        minx, miny, maxx, maxy, densify_pts=21)
    res = math.hypot(east - west, north - south) / math.hypot(cols, rows)
    width = max(1, math.ceil((east - west) / res - 1e-9))
    height = max(1, math.ceil((north - south) / res - 1e-9))
    east, south = west + width * res, north - height * res
    xs = west + (np.arange(width) + 0.5) * res
    ys = north - (np.arange(height) + 0.5) * res
    sx, sy = _inverse_centres(xs, ys)
    col = np.floor((sx - minx) * (cols / (maxx - minx)))
    row = np.floor((maxy - sy) * (rows / (maxy - miny)))
    inside = (col >= 0) & (col < cols) & (row >= 0) & (row < rows)  # False for NaN (no projection) too
    codes = np.zeros((height, width), dtype=np.uint8)
    codes[inside] = overlay.classes[row[inside].astype(np.intp), col[inside].astype(np.intp)]
    if clip_wkb is not None:
        import shapely
        from rasterio.features import geometry_mask

        to_merc = _transformer(WORK_CRS, _MERCATOR)
        clip = shapely.transform(shapely.from_wkb(clip_wkb),
                                 lambda xy: np.column_stack(to_merc.transform(xy[:, 0], xy[:, 1])))
        # GDAL's rasterizer, pixel centres (a third of a millisecond here; shapely.contains_xy on the
        # centres took 4 ms on a 382 x 271 picture).
        codes[geometry_mask([clip], out_shape=(height, width), transform=from_origin(west, north, res, res))] = 0
    (lon_w, lon_e), (lat_s, lat_n) = _transformer(_MERCATOR, WGS84).transform([west, east], [south, north])
    return codes, [[lat_s, lon_w], [lat_n, lon_e]]


def _inverse_centres(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """EPSG:2260 coordinates of the grid points (xs[j], ys[i]) of EPSG:3857, as (rows, cols) arrays.

    Projected exactly (one pyproj call) at every ``_LATTICE``-th row and column and at the last ones, and
    bilinearly between: over a lattice square (16 pixels, about 25 m for this picture) the projection
    departs from its bilinear interpolation by well under a millimetre, so a centre lands in another
    source cell only when it is that close to a cell edge. A pyproj call for every centre cost 12 ms for a
    277 x 196 picture; GDAL's warp interpolates the same way (its error threshold is 1/8 pixel).
    """
    rows_at, cols_at = _lattice(len(ys)), _lattice(len(xs))
    gx, gy = np.meshgrid(xs[cols_at], ys[rows_at])
    lx, ly = _transformer(_MERCATOR, WORK_CRS).transform(gx, gy)
    (k, k1, t), (m, m1, u) = _between(len(xs), cols_at), _between(len(ys), rows_at)
    u = u[:, None]
    out = []
    for lat in (lx, ly):
        along = lat[:, k] * (1.0 - t) + lat[:, k1] * t  # each lattice row, at every column
        out.append(along[m] * (1.0 - u) + along[m1] * u)
    return out[0], out[1]


def _lattice(n: int) -> np.ndarray:
    return np.unique(np.append(np.arange(0, n, _LATTICE), n - 1))


def _between(n: int, at: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of 0..n-1: the lattice points on either side of it and how far it is from the first (0..1)."""
    i = np.arange(n)
    if len(at) == 1:  # one pixel: the lattice point itself
        zero = np.zeros(n, dtype=np.intp)
        return zero, zero, np.zeros(n)
    k = np.clip(np.searchsorted(at, i, side="right") - 1, 0, len(at) - 2)
    return k, k + 1, (i - at[k]) / (at[k + 1] - at[k])
