"""A small picture of the slope classes over a rectangle, for a map overlay (looking, not measuring).

The numbers come from :func:`sloat_core.gis.slope_grid.slope_grid`; this picture is thinned (and, over a
very large area, read decimated) so it stays small enough to draw.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import rasterio
import rasterio.enums
from affine import Affine

from sloat_core.gis.dem import DEM_READERS, window_for_bounds
from sloat_core.gis.slope import SLOPE_CLASS_COLORS, horn_slope_percent, slope_class_labels, slope_classes

__all__ = ["SlopeOverlay", "slope_class_raster"]

# Window size (cells) above which the overlay is computed from a decimated read (approximate).
_OVERLAY_FULL_RES_MAX_CELLS = 16_000_000


@dataclass(frozen=True)
class SlopeOverlay:
    """A small picture of the slope classes for a map.

    Attributes
    ----------
    rgba : ndarray of uint8, shape (rows, cols, 4)
        Colours from :data:`SLOPE_CLASS_COLORS` (flat and unknown land transparent).
    classes : ndarray of uint8, shape (rows, cols)
        Class codes (see :func:`slope_classes`).
    bounds : tuple of float
        (minx, miny, maxx, maxy) of the picture in EPSG:2260.
    cell_size_ft : float
        Ground size of one picture cell.
    labels : tuple of str
        Class names for codes 1-4 then unknown.
    """

    rgba: np.ndarray
    classes: np.ndarray
    bounds: tuple[float, float, float, float]
    cell_size_ft: float
    labels: tuple[str, ...]


def slope_class_raster(
    dem_path: str | Path, bounds: tuple[float, float, float, float], *, max_size: int = 1000, on: dt.date
) -> SlopeOverlay | None:
    """Slope classes over a rectangle, downsampled for a map overlay.

    Slopes are computed at the DEM's full resolution and then thinned by taking every n-th cell
    (nearest neighbour), so that neither side exceeds ``max_size`` cells. Very large areas (over
    16 million cells) are read decimated first, which smooths slopes: the picture is for looking,
    the numbers come from :func:`slope_grid`.

    Parameters
    ----------
    dem_path : str or Path
        DEM in EPSG:2260.
    bounds : tuple
        (minx, miny, maxx, maxy) in EPSG:2260.
    max_size : int, default 1000
        Largest number of picture cells on either side.
    on : datetime.date
        The date whose law the classes' thresholds are read at (the analysis's, or the app's day).

    Returns
    -------
    SlopeOverlay or None
        None when the rectangle misses the DEM.
    """
    with DEM_READERS.reader(dem_path) as src:  # the handle the analysis keeps open (its blocks stay decoded)
        win = window_for_bounds(src.transform, src.width, src.height, bounds, 1)
        if win is None:
            return None
        h, w = int(win.height), int(win.width)
        wt = src.window_transform(win)
        if h * w > _OVERLAY_FULL_RES_MAX_CELLS:
            factor = math.ceil(math.sqrt(h * w / _OVERLAY_FULL_RES_MAX_CELLS))
            out_shape = (max(h // factor, 3), max(w // factor, 3))
            z = src.read(1, window=win, out_shape=out_shape, out_dtype=np.float64,
                         resampling=rasterio.enums.Resampling.average)
            wt = wt @ Affine.scale(w / out_shape[1], h / out_shape[0])
        else:
            z = src.read(1, window=win, out_dtype=np.float64)
        slope = horn_slope_percent(z, wt.a, wt.e, nodata=src.nodata)
    codes = slope_classes(slope, on)
    step = max(1, math.ceil(max(codes.shape) / max_size))
    codes = codes[::step, ::step]
    palette = np.array([SLOPE_CLASS_COLORS[k] for k in range(5)], dtype=np.uint8)
    rgba = palette[codes]
    cell_w, cell_h = wt.a * step, -wt.e * step
    minx = wt.c
    maxy = wt.f
    maxx = minx + codes.shape[1] * cell_w
    miny = maxy - codes.shape[0] * cell_h
    return SlopeOverlay(rgba, codes, (minx, miny, maxx, maxy), float(cell_w), slope_class_labels(on))
