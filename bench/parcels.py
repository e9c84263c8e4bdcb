"""Parcels for the benchmark: test shapes of a given size, and a generated village of small lots.

Nothing here is committed data: every shape is generated, deterministically (fixed seeds), from the
sample layer set's own extent.
"""

from __future__ import annotations

import math

import geopandas as gpd
import numpy as np
import shapely

from sloat_core.units import SQFT_PER_ACRE, WORK_CRS

__all__ = ["PLACES", "test_parcel", "generated_lots"]

#: Places in the sample village (EPSG:2260 ft) for the single-parcel timings: fractions of the
#: tax parcels' bounding box (x, y), chosen to cover the valley floor and the slopes on both sides.
PLACES = {
    "valley (river, floodplain)": (0.45, 0.50),
    "east ridge (steep slopes)": (0.80, 0.35),
    "west slope": (0.20, 0.65),
    "north (village centre)": (0.55, 0.80),
}


def test_parcel(bounds, place: tuple[float, float], acres: float, seed: int = 0):
    """An irregular six-sided parcel of ``acres`` centred at a fraction of ``bounds`` (EPSG:2260)."""
    minx, miny, maxx, maxy = bounds
    cx, cy = minx + place[0] * (maxx - minx), miny + place[1] * (maxy - miny)
    rng = np.random.default_rng(seed)
    angles = np.sort(rng.uniform(0, 2 * math.pi, 6) + np.arange(6) * 0.3)
    radii = rng.uniform(0.8, 1.2, 6)
    poly = shapely.Polygon(np.c_[cx + radii * np.cos(angles), cy + radii * np.sin(angles)])
    scale = math.sqrt(acres * SQFT_PER_ACRE / poly.area)
    return shapely.affinity.scale(poly, scale, scale, origin=(cx, cy))


def generated_lots(bounds, n: int, *, seed: int = 7, patch: int | None = None) -> gpd.GeoDataFrame:
    """``n`` small lots tiling ``bounds`` without gaps: a grid with jittered corners (quadrilaterals).

    ``patch`` keeps only that many lots, those nearest the centre of ``bounds`` (a compact patch of
    the same lots, in row order), so that runs of different sizes use lots of the same size and shape.
    """
    minx, miny, maxx, maxy = bounds
    w, h = maxx - minx, maxy - miny
    side = math.sqrt(w * h / n)
    nx, ny = max(1, round(w / side)), max(1, round(h / side))
    while nx * ny < n:
        nx += 1
    xs = minx + np.arange(nx + 1) * (w / nx)
    ys = miny + np.arange(ny + 1) * (h / ny)
    gx, gy = np.meshgrid(xs, ys)
    rng = np.random.default_rng(seed)
    jitter = 0.2 * min(w / nx, h / ny)
    gx[1:-1, 1:-1] += rng.uniform(-jitter, jitter, gx[1:-1, 1:-1].shape)
    gy[1:-1, 1:-1] += rng.uniform(-jitter, jitter, gy[1:-1, 1:-1].shape)
    j, i = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    j, i = j.ravel()[:n], i.ravel()[:n]
    corners = np.stack([
        np.c_[gx[j, i], gy[j, i]], np.c_[gx[j, i + 1], gy[j, i + 1]],
        np.c_[gx[j + 1, i + 1], gy[j + 1, i + 1]], np.c_[gx[j + 1, i], gy[j + 1, i]],
        np.c_[gx[j, i], gy[j, i]],
    ], axis=1)
    lots = shapely.polygons(corners)
    if patch is not None:
        c = shapely.centroid(lots)
        d = np.hypot(shapely.get_x(c) - (minx + w / 2), shapely.get_y(c) - (miny + h / 2))
        lots = lots[np.sort(np.argsort(d, kind="stable")[:patch])]
    k = len(lots)
    return gpd.GeoDataFrame(
        {"SBL": [f"GEN-{m:06d}" for m in range(k)], "ZONE": ["R-10"] * k,
         "ADDRESS": [f"{m} Generated Lane" for m in range(k)]},
        geometry=lots, crs=WORK_CRS)
