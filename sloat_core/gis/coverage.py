"""How much of each grid cell a polygon covers, exactly, with numpy alone.

The slope rules of Article IX weigh land by the slope of the DEM cell it lies on, so a parcel's
share of every cell is the basic measure: ``class area = sum over cells of (share covered x cell area)``.
Intersecting every boundary cell with the outline in GEOS gives that share too, but costs a GEOS
call per cell. This module computes every share at once from the outline's edges (the signed-area
accumulation used by exact rasterisers such as exactextract and font renderers):

* Along a horizontal line, a polygon is the set of points right of an odd number of its edges. For
  a row of cells, the covered length of cell ``c`` at height ``v`` is therefore the sum, over the
  edges the line crosses, of ``sign x clamp(c + 1 - u_edge, 0, 1)``.
* Integrating over the row's height, each piece of edge lying in one cell ``(r, c)`` adds
  ``dv x (c + 1 - u_mid)`` to that cell (exact: the integrand is linear along the piece) and a full
  ``dv`` to every cell right of it; the latter is a running sum along the row.
* Edges are cut where they cross grid lines, so every piece lies in one cell. Outer rings run
  counter-clockwise and holes clockwise (``shapely.orient_polygons``), so holes subtract.

The result is exact up to floating-point rounding (about 1e-12 of a cell), for any polygon, with
holes, several parts or parts outside the grid.

Areas over a set of cells need no grid-sized array per polygon: with ``S[r, c]``, the number of the
set's cells in row ``r`` at column ``c`` or right of it (:func:`suffix_counts`, once per set), the
share of the set a polygon covers is ``sum(partial x in_set[r, c]) + sum(dv x S[r, c + 1])`` over its
edge pieces (:meth:`EdgePieces.share_of`): the cost follows the outline, not the area.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from affine import Affine
from shapely.geometry.base import BaseGeometry

__all__ = ["EdgePieces", "cell_coverage", "edge_pieces", "suffix_counts"]


def _edges(geom: BaseGeometry) -> np.ndarray:
    """Every edge of the polygon's rings as rows (x0, y0, x1, y1), outer rings counter-clockwise."""
    parts = shapely.get_parts(geom)
    polys = parts[shapely.get_type_id(parts) == shapely.GeometryType.POLYGON]
    if len(polys) == 0:
        return np.zeros((0, 4))
    rings = shapely.get_rings(shapely.orient_polygons(polys, exterior_cw=False))
    coords, ring_of = shapely.get_coordinates(rings, return_index=True)
    same = ring_of[:-1] == ring_of[1:]
    return np.column_stack([coords[:-1][same], coords[1:][same]])


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


@dataclass(frozen=True)
class EdgePieces:
    """A polygon's outline cut at the grid lines, in grid units: all that its cell shares depend on.

    Each piece lies in row ``rows[k]`` and in column ``cols[k]`` (``cols[k] == shape[1]`` for a
    piece right of the grid). It adds ``partial[k]`` to its own cell and ``dv[k]`` to every cell
    right of it in its row.
    """

    rows: np.ndarray
    cols: np.ndarray
    partial: np.ndarray
    dv: np.ndarray
    shape: tuple[int, int]

    def share_of(self, cells: np.ndarray | None = None, suffix: np.ndarray | None = None) -> float:
        """Sum of the covered shares of ``cells`` (a boolean grid; None: every cell), in cells.

        ``suffix`` is ``suffix_counts(cells)``, passed in when the same cells are measured often.
        """
        if len(self.dv) == 0:
            return 0.0
        n_cols = self.shape[1]
        right = np.minimum(self.cols + 1, n_cols)
        inside = self.cols < n_cols
        if cells is None:
            return float(self.partial[inside].sum() + (self.dv * (n_cols - right)).sum())
        if suffix is None:
            suffix = suffix_counts(cells)
        own = self.partial[inside] * cells[self.rows[inside], self.cols[inside]]
        return float(own.sum() + (self.dv * suffix[self.rows, right]).sum())

    def dense(self) -> np.ndarray:
        """The share of every cell, as a grid."""
        n_rows, n_cols = self.shape
        if n_rows == 0 or n_cols == 0 or len(self.dv) == 0:
            return np.zeros(self.shape)
        width = n_cols + 1
        flat = self.rows * width + self.cols
        partial = np.bincount(flat, weights=self.partial, minlength=n_rows * width)
        carry = np.bincount(self.rows * width + np.minimum(self.cols + 1, n_cols), weights=self.dv,
                            minlength=n_rows * width)
        # Column `n_cols` (past the grid's right edge) only collects what lies right of it: dropped.
        cov = partial.reshape(n_rows, width)[:, :n_cols] + np.cumsum(carry.reshape(n_rows, width), axis=1)[:, :n_cols]
        return np.clip(cov, 0.0, 1.0, out=cov)


def suffix_counts(cells: np.ndarray) -> np.ndarray:
    """``S[r, c]``: how many of ``cells`` (boolean grid) lie in row ``r`` at column ``c`` or right of it.

    One column wider than the grid (``S[:, -1] == 0``).

    >>> suffix_counts(np.array([[True, False, True]])).tolist()
    [[2, 1, 1, 0]]
    """
    n_rows, n_cols = cells.shape
    out = np.zeros((n_rows, n_cols + 1), dtype=np.int32)
    if n_cols:
        # int32: numpy's cumulative sum of booleans into int64 is an order of magnitude slower.
        before = np.cumsum(cells, axis=1, dtype=np.int32)  # cells at column c or left of it
        out[:, 0] = before[:, -1]
        np.subtract(before[:, -1:], before, out=out[:, 1:])
    return out


def edge_pieces(geom: BaseGeometry, transform: Affine, shape: tuple[int, int]) -> EdgePieces:
    """Cut the outline of ``geom`` at the lines of a north-up grid (see :class:`EdgePieces`)."""
    n_rows, n_cols = int(shape[0]), int(shape[1])
    if transform.b != 0 or transform.d != 0 or transform.a <= 0 or transform.e >= 0:
        raise ValueError("cell_coverage needs a north-up grid without rotation.")
    empty_i, empty_f = np.zeros(0, dtype=np.int64), np.zeros(0)
    nothing = EdgePieces(empty_i, empty_i, empty_f, empty_f, (n_rows, n_cols))
    if n_rows == 0 or n_cols == 0 or geom is None or geom.is_empty:
        return nothing
    x0, y1 = transform.c, transform.f
    x1, y0 = x0 + n_cols * transform.a, y1 + n_rows * transform.e
    minx, miny, maxx, maxy = geom.bounds
    if maxx <= x0 or maxy <= y0 or miny >= y1:
        return nothing  # wholly left of, below or above the grid: covers nothing
    # Keep the outline near the grid, so no edge is cut at thousands of grid lines far outside it.
    pad = abs(transform.a)
    if minx < x0 - pad or maxx > x1 + pad or miny < y0 - pad or maxy > y1 + pad:
        geom = shapely.clip_by_rect(geom, x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        if geom.is_empty:
            return nothing
    e = _edges(geom)
    if len(e) == 0:
        return nothing
    u0 = (e[:, 0] - x0) / transform.a
    v0 = (e[:, 1] - y1) / transform.e
    u1 = (e[:, 2] - x0) / transform.a
    v1 = (e[:, 3] - y1) / transform.e
    keep = v0 != v1  # horizontal edges add nothing
    u0, v0, u1, v1 = u0[keep], v0[keep], u1[keep], v1[keep]
    n = len(u0)
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
    # Pieces above or below the grid add nothing; pieces left of it cover whole rows, pieces right
    # of it nothing: clamping u to [0, cols] keeps exactly that (each piece lies on one side).
    va, vb = np.clip(va, 0, n_rows), np.clip(vb, 0, n_rows)
    dv = vb - va
    live = dv != 0
    ua, ub, va, vb, dv = ua[live], ub[live], va[live], vb[live], dv[live]
    um = np.clip((ua + ub) / 2, 0, n_cols)
    r = np.minimum(np.floor((va + vb) / 2).astype(np.int64), n_rows - 1)
    c = np.minimum(np.floor(um).astype(np.int64), n_cols)
    return EdgePieces(r, c, dv * (c + 1 - um), dv, (n_rows, n_cols))


def cell_coverage(geom: BaseGeometry, transform: Affine, shape: tuple[int, int]) -> np.ndarray:
    """Share (0 to 1) of each cell of a north-up grid covered by ``geom``.

    Parameters
    ----------
    geom : shapely Polygon or MultiPolygon
        In the grid's coordinate system. Parts outside the grid are ignored; lines and points
        cover nothing.
    transform : affine.Affine
        The grid's geotransform; it must be north-up (``a > 0``, ``e < 0``, no rotation).
    shape : (rows, cols)

    Returns
    -------
    ndarray of float64, ``shape``
        Covered share of each cell; multiply by the cell area for square units.

    Examples
    --------
    >>> from shapely.geometry import box
    >>> cov = cell_coverage(box(0.5, 0.0, 2.0, 1.0), Affine(1, 0, 0, 0, -1, 2), (2, 3))
    >>> cov.tolist()
    [[0.0, 0.0, 0.0], [0.5, 1.0, 0.0]]
    """
    return edge_pieces(geom, transform, shape).dense()
