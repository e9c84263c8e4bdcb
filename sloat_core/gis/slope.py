"""The slope maths: percent slopes from elevations (Horn's method), the slope classes and their colours.

Article IX sorts land by slope: § 402-45A(2) deducts land "in excess of 25%" and "in excess of 40%"
from the lot area it counts, § 402-48 looks at slopes "over 15%", and the steep slope permit
(§ 402-55) covers slopes of "25% or greater". This module turns elevations into those numbers.

Method
------
* Slope is computed by Horn's method in percent, exactly as ``gdaldem slope -p`` does it (scale 1,
  absolute cell sizes, no value at the raster edge or next to a nodata cell: gdaldem's default
  without ``-compute_edges``). See :func:`horn_slope_percent`.
* Only the window of the DEM around the parcel is read, padded by one cell so the 3 x 3 kernel has
  neighbours for every cell the parcel touches.
* Each DEM cell is a square of uniform slope. The share of each cell the parcel covers is computed
  exactly (:mod:`sloat_core.gis.coverage`), so a cell the parcel half covers counts for half its area. The part of the parcel not covered by a
  cell with a valid slope (outside the DEM, a nodata cell, or a DEM edge cell) is "unknown".
* Class edges (thresholds from the parameters file): ``"0-15"`` is s <= 15; ``"15-25"`` is
  15 < s <= 25; ``"25-40"`` is 25 < s <= 40; ``"over_40"`` is s > 40.

Where the DEM comes from and in which units: :mod:`sloat_core.gis.dem`. One parcel's window of slopes:
:mod:`sloat_core.gis.slope_grid`. The picture of the slope classes on the map:
:mod:`sloat_core.gis.slope_picture`.
"""

from __future__ import annotations

import datetime as dt
import math

import numpy as np

from sloat_core.errors import SloatInputError
from sloat_core.law.params import param

__all__ = ["SLOPE_CLASS_COLORS", "horn_slope_percent", "slope_class_labels", "slope_classes", "thresholds_pct"]

#: Overlay colours (RGBA) by class code: 0 unknown (transparent), then the four classes.
SLOPE_CLASS_COLORS: dict[int, tuple[int, int, int, int]] = {
    0: (0, 0, 0, 0),
    1: (0, 0, 0, 0),
    2: (255, 214, 0, 150),
    3: (255, 120, 0, 170),
    4: (200, 0, 0, 190),
}

def thresholds_pct(on: dt.date) -> tuple[float, float, float]:
    """The three class edges (15, 25, 40 today), read from the parameters file as in effect on ``on`` (the date
    the law is applied at)."""
    return (
        float(param("cluster_slope_threshold_pct", on).value),
        float(param("steep_slope_deduction_threshold_pct", on).value),
        float(param("very_steep_slope_threshold_pct", on).value),
    )


def slope_class_labels(on: dt.date) -> tuple[str, str, str, str, str]:
    """Names of the slope classes, built from the thresholds in the parameters file as in effect on ``on``.

    Returns
    -------
    tuple of str
        ``("0-15", "15-25", "25-40", "over_40", "unknown")`` with today's parameters; the order is
        class codes 1, 2, 3, 4 then unknown (code 0).
    """
    low, mid, high = (f"{t:g}" for t in thresholds_pct(on))
    return (f"0-{low}", f"{low}-{mid}", f"{mid}-{high}", f"over_{high}", "unknown")


def horn_slope_percent(
    z: np.ndarray, xres: float, yres: float, nodata: float | None = None, *, float32_sums: bool = True
) -> np.ndarray:
    """Percent slope by Horn's method, cell for cell as ``gdaldem slope -p`` computes it.

    For the 3 x 3 window ``a b c / d e f / g h i`` around a cell::

        dz/dx = ((c + 2f + i) - (a + 2d + g)) / (8 * |xres|)
        dz/dy = ((g + 2h + i) - (a + 2b + c)) / (8 * |yres|)
        slope = 100 * sqrt(dz/dx**2 + dz/dy**2)

    Parameters
    ----------
    z : ndarray, 2-D
        Elevations, in the same unit as the cell sizes.
    xres, yres : float
        Cell width and height (signs are ignored, as gdaldem does).
    nodata : float, optional
        The DEM's nodata value. NaN elevations are always treated as nodata.
    float32_sums : bool, default True
        Sum the window in single precision, in gdaldem's order (``a + d + d + g`` ...), as
        gdaldem does for non-integer DEMs; results then agree with gdaldem to the precision of
        its Float32 output. ``False`` sums in double precision (differences of about 0.003
        percentage points on 5-ft cells at Sloatsburg's elevations).

    Returns
    -------
    ndarray of float64, same shape as ``z``
        Percent slope; NaN on the outer ring of cells and wherever any of the 9 cells of the
        window is nodata (gdaldem's default without ``-compute_edges``).

    Examples
    --------
    >>> z = np.tile(np.arange(5.0), (5, 1))   # rises 1 ft per 4-ft cell toward the east
    >>> float(horn_slope_percent(z, 4.0, -4.0)[2, 2])
    25.0
    """
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2:
        raise ValueError("horn_slope_percent expects a 2-D array of elevations.")
    xres = abs(float(xres))
    yres = abs(float(yres))
    if not (xres > 0 and yres > 0 and math.isfinite(xres) and math.isfinite(yres)):
        raise SloatInputError("The elevation model's cell size must be a positive number of feet.")
    out = np.full(z.shape, np.nan)
    rows, cols = z.shape
    if rows < 3 or cols < 3:
        return out
    bad = ~np.isfinite(z)
    if nodata is not None and not (isinstance(nodata, float) and math.isnan(nodata)):
        bad |= z == nodata
    any_bad = bool(bad.any())
    zf = (np.where(bad, 0.0, z) if any_bad else z).astype(np.float32 if float32_sums else np.float64)
    # Window cells w0..w8, row-major from the top-left, as gdaldem names them.
    w0, w1, w2 = zf[:-2, :-2], zf[:-2, 1:-1], zf[:-2, 2:]
    w3, w5 = zf[1:-1, :-2], zf[1:-1, 2:]
    w6, w7, w8 = zf[2:, :-2], zf[2:, 1:-1], zf[2:, 2:]
    sx = ((((w0 + w3) + w3) + w6) - (((w2 + w5) + w5) + w8)).astype(np.float64)
    sy = ((((w6 + w7) + w7) + w8) - (((w0 + w1) + w1) + w2)).astype(np.float64)
    # Multiplying by 100 before dividing keeps exact slopes (25, 40, 15 ...) exact in binary.
    # (In place: the same operations in the same order, without temporary arrays.)
    np.multiply(sx, 100.0, out=sx)
    np.divide(sx, 8.0 * xres, out=sx)
    np.multiply(sy, 100.0, out=sy)
    np.divide(sy, 8.0 * yres, out=sy)
    # sqrt(dx^2 + dy^2) as gdaldem writes it (numpy's hypot is ten times slower here); a slope
    # along one axis stays exact, since sqrt(x * x) == |x| in IEEE arithmetic.
    np.multiply(sx, sx, out=sx)
    np.multiply(sy, sy, out=sy)
    np.add(sx, sy, out=sx)
    inner = out[1:-1, 1:-1]
    np.sqrt(sx, out=inner)
    if any_bad:
        # A cell is computable only if none of its 9 window cells is bad.
        badi = bad.astype(np.int8)
        window_bad = np.zeros((rows - 2, cols - 2), dtype=np.int8)
        for dr in range(3):
            for dc in range(3):
                window_bad |= badi[dr : dr + rows - 2, dc : dc + cols - 2]
        inner[window_bad.astype(bool)] = np.nan
    return out


def slope_classes(slope_pct: np.ndarray, on: dt.date) -> np.ndarray:
    """Class codes for percent slopes: 0 unknown (NaN), 1 ``0-15``, 2 ``15-25``, 3 ``25-40``, 4 ``over_40``.

    Edges: s <= 15 is 1; 15 < s <= 25 is 2; 25 < s <= 40 is 3; s > 40 is 4 (thresholds from the
    parameters file, as in effect on ``on``).
    """
    low, mid, high = thresholds_pct(on)
    s = np.asarray(slope_pct, dtype=np.float64)
    codes = np.zeros(s.shape, dtype=np.uint8)
    valid = np.isfinite(s)
    codes[valid & (s <= low)] = 1
    codes[valid & (s > low) & (s <= mid)] = 2
    codes[valid & (s > mid) & (s <= high)] = 3
    codes[valid & (s > high)] = 4
    return codes
