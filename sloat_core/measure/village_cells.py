"""The village sweep's slope land measured from the DEM cells themselves: each parcel's area on the cells of
each slope code, exactly, for many parcels at once.

The single-parcel path measures slope land this way (:mod:`sloat_core.gis.coverage`: an outline cut at the
grid lines gives its exact share of any set of cells). Here the same accumulation runs over the outlines of a
whole block of parcels in one pass of numpy, and the cells are grouped by slope *code* (which slope sets of
`measures.slope_sets` a cell is in, one bit each; the land of unknown slope has a code of its own): the
sweep then needs no polygons of slope land, which were most of its pieces and of its intersections.

* Along a horizontal line a polygon is the set of points right of an odd number of its edges, so each piece
  of outline lying in one cell ``(r, c)`` adds ``dv x (c + 1 - u_mid)`` to that cell and ``dv`` to every cell
  right of it in its row (outer rings counter-clockwise, holes clockwise).
* The cells right of a piece are counted by code with a running count along the rows of the block's window
  (``suffix[r, c]``: cells of the code at column ``c`` or right of it), one code at a time; a parcel's pieces
  in one row add up to nothing, so a window as wide as the block's parcels gives what the whole row gives.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

__all__ = ["CodeGrid", "code_areas"]


@dataclass
class CodeGrid:
    """Slope codes of DEM cells over the sweep's area (a north-up grid, aligned with the DEM).

    Attributes
    ----------
    codes : ndarray of uint8, (rows, cols)
        Each cell's code (0: known slope in no set; cells of tiles no parcel touches are 0 too).
    x0, y1 : float
        The grid's top-left corner.
    cw, ch : float
        Cell width and height (positive).
    n_codes : int
        Codes run from 0 to ``n_codes - 1``.
    """

    codes: np.ndarray
    x0: float
    y1: float
    cw: float
    ch: float
    n_codes: int


def _cuts(a0: np.ndarray, a1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(edge index, t) of every point where the coordinate goes across an integer, strictly inside the edge."""
    lo, hi = np.minimum(a0, a1), np.maximum(a0, a1)
    first = np.floor(lo) + 1.0
    count = np.maximum(np.ceil(hi) - first, 0).astype(np.int64)
    total = int(count.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    edge = np.repeat(np.arange(len(a0)), count)
    starts = np.cumsum(count) - count
    k = first[edge] + (np.arange(total) - starts[edge])
    return edge, (k - a0[edge]) / (a1[edge] - a0[edge])


def _outline_pieces(geoms: np.ndarray, grid: CodeGrid):
    """Every parcel's outline cut at the grid lines: (parcel, row, col, partial, dv) of each piece, in grid
    units (``col == cols`` for a piece right of the grid; pieces above or below it are dropped)."""
    n_rows, n_cols = grid.codes.shape
    parts, owner = shapely.get_parts(geoms, return_index=True)
    poly = shapely.get_type_id(parts) == shapely.GeometryType.POLYGON
    parts, owner = parts[poly], owner[poly]
    nothing = (np.zeros(0, dtype=np.int64),) * 3 + (np.zeros(0),) * 2
    if len(parts) == 0:
        return nothing
    rings, ring_owner = shapely.get_rings(shapely.orient_polygons(parts, exterior_cw=False), return_index=True)
    coords, ring_of = shapely.get_coordinates(rings, return_index=True)
    same = ring_of[:-1] == ring_of[1:]
    who = owner[ring_owner[ring_of[:-1][same]]]
    u = (coords[:, 0] - grid.x0) / grid.cw
    v = (grid.y1 - coords[:, 1]) / grid.ch
    u0, v0, u1, v1 = u[:-1][same], v[:-1][same], u[1:][same], v[1:][same]
    keep = v0 != v1  # horizontal edges add nothing
    u0, v0, u1, v1, who = u0[keep], v0[keep], u1[keep], v1[keep], who[keep]
    n = len(u0)
    if n == 0:
        return nothing
    eu, tu = _cuts(u0, u1)
    ev, tv = _cuts(v0, v1)
    edge = np.concatenate([np.arange(n), np.arange(n), eu, ev])
    t = np.concatenate([np.zeros(n), np.ones(n), tu, tv])
    order = np.lexsort((t, edge))
    edge, t = edge[order], t[order]
    same = edge[:-1] == edge[1:]
    i = edge[:-1][same]
    ta, tb = t[:-1][same], t[1:][same]
    du, dvv = u1[i] - u0[i], v1[i] - v0[i]
    ua, ub = u0[i] + ta * du, u0[i] + tb * du
    va, vb = v0[i] + ta * dvv, v0[i] + tb * dvv
    va, vb = np.clip(va, 0, n_rows), np.clip(vb, 0, n_rows)
    dv = vb - va
    live = dv != 0
    ua, ub, va, vb, dv, i = ua[live], ub[live], va[live], vb[live], dv[live], i[live]
    um = np.clip((ua + ub) / 2, 0, n_cols)
    r = np.minimum(np.floor((va + vb) / 2).astype(np.int64), n_rows - 1)
    c = np.minimum(np.floor(um).astype(np.int64), n_cols)
    return who[i], r, c, dv * (c + 1 - um), dv


def code_areas(geoms: np.ndarray, grid: CodeGrid) -> np.ndarray:
    """(len(geoms), grid.n_codes): each parcel's area (sq ft) on the cells of each code.

    Exact up to floating-point rounding, like `gis.coverage`: partial cells count for the part inside the
    parcel. Parts outside the grid count for nothing.
    """
    nb, k = len(geoms), grid.n_codes
    out = np.zeros(nb * k)
    who, r, c, partial, dv = _outline_pieces(np.asarray(geoms, dtype=object), grid)
    if len(dv) == 0:
        return out.reshape(nb, k)
    n_cols = grid.codes.shape[1]
    # The block's window: its rows, and its columns from the leftmost piece to one past the rightmost.
    r0, r1 = int(r.min()), int(r.max()) + 1
    c0, c1 = int(min(c.min(), n_cols - 1)), int(min(c.max(), n_cols - 1)) + 1
    win = grid.codes[r0:r1, c0:c1]
    rr, cc = r - r0, c - c0
    inside = c < n_cols
    own = np.zeros(len(dv), dtype=np.intp)
    own[inside] = win[rr[inside], cc[inside]]
    out += np.bincount(who[inside] * k + own[inside], weights=partial[inside], minlength=nb * k)
    right = np.minimum(cc + 1, c1 - c0)  # the suffix's column one past the piece (the window's end: none)
    width = c1 - c0
    present = np.flatnonzero(np.bincount(win.ravel(), minlength=k))
    for code in present:
        if code == 0:
            continue  # code 0 is in no set: nothing reads it
        cells = win == code
        suffix = np.zeros((r1 - r0, width + 1), dtype=np.int32)
        before = np.cumsum(cells, axis=1, dtype=np.int32)
        suffix[:, 0] = before[:, -1]
        np.subtract(before[:, -1:], before, out=suffix[:, 1:])
        out += np.bincount(who * k + code, weights=dv * suffix[rr, right], minlength=nb * k)
    return out.reshape(nb, k) * (grid.cw * grid.ch)
