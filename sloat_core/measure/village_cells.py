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


def _split(a0: np.ndarray, a1: np.ndarray, top: int):
    """Cut segments from ``a0`` to ``a1`` where the coordinate goes across an integer in [0, top], strictly
    inside the segment, in order along each segment: (segment index, position t along it from and to, the
    coordinate at both ends; a cut's coordinate is the integer itself) of each part."""
    lo, hi = np.minimum(a0, a1), np.maximum(a0, a1)
    first = np.maximum(np.floor(lo) + 1.0, 0.0)
    last = np.minimum(np.ceil(hi) - 1.0, float(top))
    count = np.maximum(last - first + 1.0, 0.0).astype(np.int64)
    parts = count + 1
    seg = np.repeat(np.arange(len(a0)), parts)
    m = np.arange(int(parts.sum())) - np.repeat(np.cumsum(parts) - parts, parts)  # the part's place along it
    up = a1[seg] > a0[seg]
    n = count[seg]
    f, la = first[seg], last[seg]
    start = m == 0
    end = m == n
    ca = np.where(start, a0[seg], np.where(up, f + (m - 1), la - (m - 1)))
    cb = np.where(end, a1[seg], np.where(up, f + m, la - m))
    span = a1[seg] - a0[seg]
    with np.errstate(invalid="ignore", divide="ignore"):
        ta = np.where(start, 0.0, (ca - a0[seg]) / span)
        tb = np.where(end, 1.0, (cb - a0[seg]) / span)
    return seg, ta, tb, ca, cb


def _outline_pieces(geoms: np.ndarray, grid: CodeGrid):
    """Every parcel's outline cut at the grid lines: (parcel, row, col, partial, dv) of each piece, in grid
    units (``col == cols`` for a piece right of the grid, 0 for one left of it; pieces above or below it are
    dropped). Each edge is cut at the row lines, then each of its parts at the column lines: the parts come
    in order along the edge, with no sorting."""
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
    if len(u0) == 0:
        return nothing
    # Each edge cut at the row lines: parts lying in one row each (those above or below the grid dropped).
    e, ta, tb, va, vb = _split(v0, v1, n_rows)
    r = np.floor((va + vb) / 2).astype(np.int64)
    on = (r >= 0) & (r < n_rows)
    e, ta, tb, va, vb, r = e[on], ta[on], tb[on], va[on], vb[on], r[on]
    du = u1[e] - u0[e]
    ua = np.where(ta == 0.0, u0[e], u0[e] + ta * du)
    ub = np.where(tb == 1.0, u1[e], u0[e] + tb * du)
    # Each part cut at the column lines: pieces lying in one cell each (or left or right of the grid).
    k, sa, sb, pa, pb = _split(ua, ub, n_cols)
    dvk = vb[k] - va[k]
    ya = np.where(sa == 0.0, va[k], va[k] + sa * dvk)
    yb = np.where(sb == 1.0, vb[k], va[k] + sb * dvk)
    dv = yb - ya
    live = dv != 0
    k, pa, pb, dv = k[live], pa[live], pb[live], dv[live]
    um = np.clip((pa + pb) / 2, 0, n_cols)
    c = np.minimum(np.floor(um).astype(np.int64), n_cols)
    return who[e[k]], r[k], c, dv * (c + 1 - um), dv


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
