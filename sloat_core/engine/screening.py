"""Screen every tax parcel of a layer set: one CSV row per parcel, streamed to the file.

Each row: id, address, district, gross and net area, the share of the parcel in each constraint, the ten
cluster triggers and the permit flags that follow from the land alone (no project). A parcel that fails
gets its error in the ``error`` column; the run goes on.

How it is fast (and why it gives the single-parcel answer)
----------------------------------------------------------
The single-parcel analysis (:func:`sloat_core.rules.measures.parcel_findings` then
:func:`sloat_core.rules.deductions.lot_area`) gives each piece of land to the first row of the deduction
table, in the order of lowest countable share then ``DEDUCTION_ORDER``: row *i* gets
``P ∩ C_i`` minus what earlier rows took. That rule commutes with clipping to the parcel::

    (P ∩ C_i) \\ ∪_{j<i} (P ∩ C_j)  =  P ∩ (C_i \\ ∪_{j<i} C_j)

so the screen builds the *exclusive* constraint pieces ``E_i = C_i \\ ∪_{j<i} C_j`` once for the whole
area, and a parcel's row areas are just ``area(P ∩ E_i)``. Likewise for the overlays the triggers and
permits look at (present = area inside the parcel > 0), the slope classes and the land of unknown slope.

* The pieces are cut into square tiles aligned with the DEM grid (``tile_cells`` cells a side) so each
  piece is small; slopes are read from the DEM one strip of tiles at a time (a window with one cell of
  padding, so Horn's kernel sees the same neighbours as in the single-parcel window: the slopes are the
  same numbers). Slope-class land is the union of whole DEM cells, as in
  :class:`sloat_core.gis.terrain.SlopeGrid`, and the parcel is intersected with it exactly: partial cells
  count for the part inside the parcel, with no extra rule.
* Parcels go through in blocks: one bulk ``STRtree.query`` of the block against the pieces gives
  (parcel, piece) pairs, one vectorised ``shapely.intersection`` their areas, and a ``bincount`` sums them
  per parcel and piece kind. Rows are yielded as each block is done (a generator).
* The results equal the single-parcel analysis up to floating-point noise (the same geometry is cut in
  a different order); ``tests/test_screening.py`` checks the two agree and ``make bench`` reports the
  largest difference over sampled parcels.

Parcels are checked like the single-parcel analysis checks them: an empty shape, a non-polygon or
non-numeric coordinates give an error row; an outline crossing itself is repaired.
"""

from __future__ import annotations

import csv
import math
import multiprocessing as mp
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import rasterio
import rasterio.features
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.rules.deductions import DEDUCTION_ORDER
from sloat_core.errors import SloatInputError
from sloat_core.rules.measures import OVERLAY_ROLES, RESOURCE_ROLES
from sloat_core.gis.geometry import EMPTY, PRESENCE_MIN_SQFT, polygonal
from sloat_core.law.params import value
from sloat_core.law.settings import load_settings
from sloat_core.gis.terrain import _check_dem_crs, horn_slope_percent
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["screen_rows", "screen_to_csv", "SCREEN_COLUMNS", "ScreenPieces", "build_pieces"]

_LAND_PERMITS = ("steep_slope_permit", "wetland_permit", "nysdec_recreational_river", "rcda_review",
                 "flood_hazard_review", "seqra_cea", "biodiversity_study")

SCREEN_COLUMNS = (
    ["sbl", "address", "district", "districts", "gross_area_sqft", "net_lot_area_sqft", "min_lot_area_sqft",
     "meets_min_lot_area"]
    + [f"share_{c}" for c, _, _ in DEDUCTION_ORDER]
    + ["share_slope_unknown"]
    + [f"trigger_{n}" for n in range(1, 11)]
    + [f"permit_{p}" for p in _LAND_PERMITS]
    + ["error"]
)

_ROW_IDS = tuple(c for c, _, _ in DEDUCTION_ORDER)
# Piece kinds beyond the exclusive deduction rows ("row:<id>"): whole layers (totals), slope land,
# land of unknown slope split by what the deduction rows did with it, the wetland-permit region and
# outcrops over the cluster trigger's size.
_TOTAL_ROLES = RESOURCE_ROLES + OVERLAY_ROLES
_EXTRA_KINDS = (
    tuple(f"total:{r}" for r in _TOTAL_ROLES)
    + ("slope_label:2", "slope_label:3", "slope_label:4", "slope_label:5", "unknown", "unknown_free",
       "unknown_row:buffer", "unknown_row:rock_outcrops", "wetland_region", "outcrops_cluster")
)
_KINDS = tuple(f"row:{r}" for r in _ROW_IDS) + _EXTRA_KINDS
_K = {k: i for i, k in enumerate(_KINDS)}


def _flag(x) -> str:
    return "" if x is None else ("yes" if x else "no")


# ------------------------------------------------------------------------------------------------
# The pieces: exclusive constraint land, overlays and slope land, cut into tiles
# ------------------------------------------------------------------------------------------------


@dataclass
class ScreenPieces:
    """Constraint pieces of a layer set over an area, ready to be met by many parcels.

    Attributes
    ----------
    geoms : ndarray of shapely geometries
        The pieces (each inside one tile).
    kinds : ndarray of int
        Index into the piece kinds (``row:<constraint>``, ``total:<role>``, ``slope_label:<n>``, ``unknown`` ...).
    tree : shapely.STRtree
        Index over ``geoms``.
    known : set of str
        Kinds whose source is loaded (a kind not in it is unknown for every parcel, not absent).
    has_dem : bool
        True when slopes were read from a DEM.
    """

    geoms: np.ndarray
    kinds: np.ndarray
    tree: shapely.STRtree
    known: set
    has_dem: bool


def _role_geoms(layerset, role: str):
    layer = layerset.get(role) if layerset is not None else None
    if layer is None:
        return None
    return layer


def _clip_union(layer, tile: BaseGeometry) -> BaseGeometry:
    """Union of a layer's features clipped to a tile box (empty polygon when none)."""
    if layer is None:
        return EMPTY
    idx = layer.tree.query(tile)
    if len(idx) == 0:
        return EMPTY
    parts = shapely.intersection(layer.geoms[idx], tile)
    parts = parts[~shapely.is_empty(parts)]
    if len(parts) == 0:
        return EMPTY
    return polygonal(shapely.union_all(parts))


def _global_sources(layerset, width_ft: float, water_bodies: bool = True) -> dict:
    """Layer-wide geometries that are not plain features: the buffer band and the outcrop classes."""
    out: dict = {}
    roles = [r for r in RESOURCE_ROLES if layerset.get(r) is not None and (water_bodies or r != "water_bodies")]
    if roles:
        resources = [g for r in roles for g in layerset.get(r).geoms]
        if resources:
            resource = shapely.union_all(resources)
            band = resource.buffer(width_ft, quad_segs=16).difference(resource)
            out["buffer"] = polygonal(band)
        else:
            out["buffer"] = EMPTY
    outcrops = layerset.get("rock_outcrops")
    if outcrops is not None:
        if len(outcrops.geoms):
            whole = shapely.get_parts(shapely.union_all(outcrops.geoms))
            sizes = shapely.area(whole)
            big = float(value("rock_outcrop_min_area_sqft"))
            cl = float(value("cluster_rock_outcrop_min_area_sqft"))
            out["rock_outcrops"] = _as_tree_source(whole[sizes > big])  # "in excess of 50 square feet"
            out["outcrops_cluster"] = _as_tree_source(whole[sizes > cl])
        else:
            out["rock_outcrops"] = _as_tree_source(np.empty(0, dtype=object))
            out["outcrops_cluster"] = _as_tree_source(np.empty(0, dtype=object))
    return out


@dataclass
class _Src:
    geoms: np.ndarray
    tree: shapely.STRtree


def _as_tree_source(geoms) -> _Src:
    geoms = np.asarray(geoms, dtype=object)
    return _Src(geoms, shapely.STRtree(geoms))


def _thresholds() -> tuple[float, float, float, float]:
    """(15, 25, 40, permit 25): the class edges and the steep slope permit's threshold, from the parameters."""
    return (float(value("cluster_slope_threshold_pct")), float(value("steep_slope_deduction_threshold_pct")),
            float(value("very_steep_slope_threshold_pct")), float(value("steep_slope_permit_threshold_pct")))


def _slope_labels(slope: np.ndarray, thresholds) -> np.ndarray:
    """Cell labels: 0 unknown, 1 s <= 15, 2 15 < s <= 25 but under the permit's 25, 5 the rest of 15-25
    (s >= 25, i.e. exactly 25 today), 3 25 < s <= 40, 4 s > 40.

    Label 5 lets ``slope_ge_25`` (labels 3, 4, 5) and "over 15" (2, 3, 4, 5) be exact sums of labels.
    """
    low, mid, high, ge = thresholds
    if not low < ge <= mid:
        raise ValueError("The screen expects the steep slope permit threshold between the 15% and 25% edges.")
    lab = np.zeros(slope.shape, dtype=np.uint8)
    ok = np.isfinite(slope)
    s = np.where(ok, slope, -1.0)
    lab[ok & (s <= low)] = 1
    lab[(s > low) & (s <= mid)] = 2
    lab[(s > mid) & (s <= high)] = 3
    lab[s > high] = 4
    lab[(lab == 2) & (s >= ge)] = 5
    return lab


def _cells_by_label(lab: np.ndarray, transform, tile: BaseGeometry) -> dict[int, BaseGeometry]:
    """For labels 0 and 2-5, the union of their cells as one (Multi)Polygon of whole cells (empty if none).

    One polygonising pass per tile, skipping label 1 (0-15 %, which no piece needs). The 4-connected
    regions of one label touch at most at corners, so together they are a valid MultiPolygon as they are.
    """
    out = {v: EMPTY for v in range(6)}
    values = np.unique(lab)
    if len(values) == 1:
        out[int(values[0])] = tile
        return out
    mask = lab != 1
    if not mask.any():
        return out
    coords, ring_of, poly_of, labels = [], [], [], []
    ring = poly = 0
    for g, v in rasterio.features.shapes(lab, mask=mask, transform=transform, connectivity=4):
        for r in g["coordinates"]:
            coords.extend(r)
            ring_of.extend([ring] * len(r))
            poly_of.append(poly)
            ring += 1
        labels.append(int(v))
        poly += 1
    rings = shapely.linearrings(np.asarray(coords, dtype=float), indices=np.asarray(ring_of))
    polys = shapely.polygons(rings, indices=np.asarray(poly_of))
    labels_arr = np.asarray(labels)
    for v in np.unique(labels_arr):
        ps = polys[labels_arr == v]
        out[int(v)] = ps[0] if len(ps) == 1 else shapely.multipolygons(ps)
    return out


def _union(geoms: list) -> BaseGeometry:
    geoms = [g for g in geoms if not g.is_empty]
    if not geoms:
        return EMPTY
    return geoms[0] if len(geoms) == 1 else polygonal(shapely.union_all(geoms))


def build_pieces(layerset, bounds, *, buffer_width_ft: float, tile_cells: int = 40,
                 needed=None, workers: int = 1, buffer_water_bodies: bool = True) -> ScreenPieces:
    """Cut the layer set's constraint land over ``bounds`` into tiled, exclusive pieces.

    Parameters
    ----------
    layerset : LayerSet
        Layers (and DEM) in EPSG:2260.
    bounds : tuple of float
        (minx, miny, maxx, maxy) to cover, normally the parcels' total bounds.
    buffer_width_ft : float
        Width of the wetland and watercourse buffer (local setting).
    tile_cells : int, default 40
        Tile side in DEM cells (200 ft on a 5-ft DEM). Without a DEM, tiles are ``tile_cells * 5`` ft.
    needed : callable, optional
        ``needed(tile_box) -> bool``; tiles for which it returns False are skipped (no parcel there).
    workers : int, default 1
        2 builds the two halves of the area in two processes (fork start method only).

    Returns
    -------
    ScreenPieces
    """
    order = sorted(enumerate(DEDUCTION_ORDER), key=lambda item: (value(item[1][2]), item[0]))
    sources = _global_sources(layerset, buffer_width_ft, buffer_water_bodies)
    layers = {r: _role_geoms(layerset, r) for r in _TOTAL_ROLES}
    dem_path = getattr(layerset, "dem_path", None)
    has_dem = dem_path is not None

    known = {f"total:{r}" for r in _TOTAL_ROLES if layers[r] is not None}
    for cid, _, _ in DEDUCTION_ORDER:
        if cid in layers:
            ok = layers[cid] is not None
        elif cid == "buffer":
            ok = "buffer" in sources
        elif cid == "rock_outcrops":
            ok = "rock_outcrops" in sources
        else:  # slope rows
            ok = has_dem
        if ok:
            known.add(f"row:{cid}")
    known |= {"unknown", "unknown_free"}
    if has_dem:
        known |= {f"slope_label:{v}" for v in (2, 3, 4, 5)}
    if "buffer" in sources:
        known.add("unknown_row:buffer")
    if "rock_outcrops" in sources:
        known |= {"unknown_row:rock_outcrops", "outcrops_cluster"}
    # The wetland permit's region is known only when every water layer is loaded (permits._wetland_rule:
    # a missing layer is unknown, never "no wetland").
    if all(layers[r] is not None for r in RESOURCE_ROLES):
        known.add("wetland_region")

    minx, miny, maxx, maxy = bounds
    if has_dem:
        with rasterio.open(dem_path) as src:
            _check_dem_crs(src, Path(dem_path))
            t = src.transform
        cw, ch = t.a, -t.e
        ox, oy = t.c, t.f
    else:
        cw = ch = 5.0
        ox, oy = minx, maxy
    n = int(tile_cells)
    col0 = math.floor((minx - ox) / cw)
    col1 = math.ceil((maxx - ox) / cw)
    row0 = math.floor((oy - maxy) / ch)
    row1 = math.ceil((oy - miny) / ch)
    ntx = max(1, math.ceil((col1 - col0) / n))
    nty = max(1, math.ceil((row1 - row0) / n))

    args = (dem_path if has_dem else None, n, row0, col0, ntx, ox, oy, cw, ch, needed, layers, sources, order,
            _thresholds())
    if workers > 1 and nty >= 4 and "fork" in mp.get_all_start_methods():
        # Halves of the strips in two processes (fork: the layers and the parcel index are inherited).
        cut = nty // 2
        _SHARED["build_args"] = args
        try:
            with mp.get_context("fork").Pool(2) as pool:
                done = pool.map(_build_worker, [(0, cut), (cut, nty)])
        finally:
            _SHARED.pop("build_args", None)
        geoms = np.concatenate([shapely.from_wkb(w) for w, _ in done])
        kinds = np.concatenate([k for _, k in done])
    else:
        geoms, kinds = _build_rows(args, 0, nty)
    # One polygon per piece: a parcel then meets only the parts its box touches, not a whole
    # multipart tile of slope cells.
    parts, owner = shapely.get_parts(np.asarray(geoms, dtype=object), return_index=True)
    kinds_arr = np.asarray(kinds, dtype=np.intp)[owner]
    shapely.prepare(parts)
    return ScreenPieces(parts, kinds_arr, shapely.STRtree(parts), known, has_dem)


def _build_worker(span):
    geoms, kinds = _build_rows(_SHARED["build_args"], *span)
    return shapely.to_wkb(np.asarray(geoms, dtype=object)), np.asarray(kinds, dtype=np.intp)


def _build_rows(args, ty0: int, ty1: int):
    """Pieces of the tile rows [ty0, ty1): (geometries, kind numbers)."""
    dem_path, n, row0, col0, ntx, ox, oy, cw, ch, needed, layers, sources, order, thresholds = args
    geoms: list = []
    kinds: list = []

    def add(kind: str, g):
        if g is None or g.is_empty:
            return
        g = polygonal(g)
        if not g.is_empty and g.area > 0:
            geoms.append(g)
            kinds.append(_K[kind])

    with rasterio.Env():  # one GDAL environment for the whole pass (not one per call)
        src = rasterio.open(dem_path) if dem_path is not None else None
        try:
            for ty in range(ty0, ty1):
                r_a = row0 + ty * n
                r_b = r_a + n
                strip = None if src is None else _read_strip(src, r_a, r_b, col0, col0 + ntx * n)
                for tx in range(ntx):
                    c_a = col0 + tx * n
                    x0, x1 = ox + c_a * cw, ox + (c_a + n) * cw
                    y1, y0 = oy - r_a * ch, oy - r_b * ch
                    tile = shapely.box(x0, y0, x1, y1)
                    if needed is not None and not needed(tile):
                        continue
                    _tile_pieces(tile, tx, n, strip, (x0, y1, cw, ch), layers, sources, order, add, thresholds)
        finally:
            if src is not None:
                src.close()
    return geoms, kinds


def _read_strip(src, r_a: int, r_b: int, c_a: int, c_b: int) -> np.ndarray:
    """Slopes for grid rows [r_a, r_b) x cols [c_a, c_b) (NaN off the DEM), read with one cell of padding."""
    out = np.full((r_b - r_a, c_b - c_a), np.nan)
    rr0, rr1 = max(r_a - 1, 0), min(r_b + 1, src.height)
    cc0, cc1 = max(c_a - 1, 0), min(c_b + 1, src.width)
    if rr1 <= rr0 or cc1 <= cc0:
        return out
    win = rasterio.windows.Window(cc0, rr0, cc1 - cc0, rr1 - rr0)
    z = src.read(1, window=win, out_dtype=np.float64)
    slope = horn_slope_percent(z, src.transform.a, src.transform.e, nodata=src.nodata)
    # Copy the part of the padded window that falls in the strip.
    ir0, ir1 = max(rr0, r_a), min(rr1, r_b)
    ic0, ic1 = max(cc0, c_a), min(cc1, c_b)
    if ir1 > ir0 and ic1 > ic0:
        out[ir0 - r_a:ir1 - r_a, ic0 - c_a:ic1 - c_a] = slope[ir0 - rr0:ir1 - rr0, ic0 - cc0:ic1 - cc0]
    return out


def _tile_pieces(tile, tx, n, strip, geo, layers, sources, order, add, thresholds) -> None:
    x0, y1, cw, ch = geo
    # Slope land in this tile, as unions of whole DEM cells.
    s_over40 = s_25_40 = None
    unknown = tile
    if strip is not None:
        sub = strip[:, tx * n:(tx + 1) * n]
        lab = _slope_labels(sub, thresholds)
        tr = rasterio.transform.Affine(cw, 0.0, x0, 0.0, -ch, y1)
        by_label = _cells_by_label(lab, tr, tile)
        s_over40 = by_label[4]
        s_25_40 = by_label[3]
        unknown = by_label[0]
    clipped = {r: (_clip_union(layers[r], tile) if layers[r] is not None else None) for r in layers}
    for key in ("buffer",):
        if key in sources:
            clipped["buffer"] = polygonal(sources["buffer"].intersection(tile)) if not sources["buffer"].is_empty \
                else EMPTY
    for key in ("rock_outcrops", "outcrops_cluster"):
        if key in sources:
            clipped[key] = _clip_union(sources[key], tile)
    clipped["slope_over_40"] = s_over40
    clipped["slope_25_40"] = s_25_40

    taken = EMPTY
    row_piece = {}
    for _, (cid, _, _) in order:
        g = clipped.get(cid)
        if g is None:
            continue
        if g.is_empty:
            row_piece[cid] = EMPTY
            continue
        piece = polygonal(g.difference(taken)) if not taken.is_empty else g
        row_piece[cid] = piece
        add(f"row:{cid}", piece)
        if not piece.is_empty:
            taken = polygonal(shapely.union(taken, piece))
    for r in _TOTAL_ROLES:
        if clipped.get(r) is not None:
            add(f"total:{r}", clipped[r])
    if strip is not None:
        for v in (2, 3, 4, 5):  # the labels partition the tile: sums of them give "over 15", ">= 25"
            add(f"slope_label:{v}", by_label[v])
    if not unknown.is_empty:
        add("unknown", unknown)
        free = polygonal(unknown.difference(taken)) if not taken.is_empty else unknown
        add("unknown_free", free)
        for cid in ("buffer", "rock_outcrops"):
            piece = row_piece.get(cid)
            if piece is not None and not piece.is_empty:
                add(f"unknown_row:{cid}", polygonal(piece.intersection(unknown)))
    wet = [clipped.get(r) for r in ("wetlands", "watercourses", "water_bodies", "buffer")]
    wet = [g for g in wet if g is not None and not g.is_empty]
    if wet:
        add("wetland_region", shapely.union_all(wet))
    if clipped.get("outcrops_cluster") is not None:
        add("outcrops_cluster", clipped["outcrops_cluster"])


# ------------------------------------------------------------------------------------------------
# Parcels
# ------------------------------------------------------------------------------------------------


def _check_parcels(geoms: np.ndarray) -> tuple[np.ndarray, list[str | None], list[bool]]:
    """Repair or reject parcel shapes the way the single-parcel analysis does.

    Returns the geometries to use, an error sentence per parcel (None when fine) and whether each
    was repaired.
    """
    out = geoms.copy()
    errors: list[str | None] = [None] * len(geoms)
    repaired = [False] * len(geoms)
    is_geom = np.array([isinstance(g, BaseGeometry) for g in geoms], dtype=bool)
    for i in np.nonzero(~is_geom)[0]:
        errors[i] = "There is no parcel to analyse."
        out[i] = None
    idx = np.nonzero(is_geom)[0]
    g = geoms[idx]
    empty = shapely.is_empty(g)
    types = shapely.get_type_id(g)
    poly = (types == 3) | (types == 6)
    coords, where = shapely.get_coordinates(g, return_index=True)
    bad_coord = np.zeros(len(g), dtype=bool)
    if len(coords):
        nonfinite = ~np.isfinite(coords).all(axis=1)
        bad_coord[np.unique(where[nonfinite])] = True
    for j, i in enumerate(idx):
        if empty[j]:
            errors[i] = "There is no parcel to analyse."
        elif not poly[j]:
            errors[i] = "The parcel must be a polygon, not a point or a line."
        elif bad_coord[j]:
            errors[i] = "The parcel has coordinates that are not numbers."
        if errors[i] is not None:
            out[i] = None
    ok = np.array([e is None for e in errors], dtype=bool)
    okidx = np.nonzero(ok)[0]
    if len(okidx):
        valid = shapely.is_valid(out[okidx].astype(object))
        for i in okidx[~valid]:
            fixed = polygonal(shapely.make_valid(out[i]))
            repaired[i] = True
            out[i] = fixed
            if fixed.is_empty or not math.isfinite(fixed.area) or fixed.area <= 0:
                errors[i] = "The parcel has no area."
                out[i] = None
        areas = shapely.area(out[okidx].astype(object))
        for i, a in zip(okidx, areas):
            if errors[i] is None and not (a > 0):
                errors[i] = "The parcel has no area."
                out[i] = None
    return out, errors, repaired


def _block_areas(pieces: ScreenPieces, geoms: np.ndarray) -> np.ndarray:
    """(len(geoms), len(_KINDS)) areas of each parcel inside each piece kind."""
    nb = len(geoms)
    totals = np.zeros(nb * len(_KINDS))
    if nb == 0 or len(pieces.geoms) == 0:
        return totals.reshape(nb, len(_KINDS))
    pi, pj = pieces.tree.query(geoms)
    if len(pi):
        areas = shapely.area(shapely.intersection(geoms[pi], pieces.geoms[pj]))
        totals += np.bincount(pi * len(_KINDS) + pieces.kinds[pj], weights=areas, minlength=nb * len(_KINDS))
    return totals.reshape(nb, len(_KINDS))


@dataclass(frozen=True)
class _Rules:
    """The parameters the rows need, read once per run (not once per parcel)."""

    shares: dict
    slope_share_min: float
    biodiversity_acres: float

    @classmethod
    def load(cls) -> _Rules:
        return cls({cid: float(value(share)) for cid, _, share in DEDUCTION_ORDER},
                   float(value("cluster_slope_share_min")), float(value("biodiversity_threshold_acres")))


def _rows_from_areas(a: np.ndarray, gross: float, pieces: ScreenPieces, settings, district,
                     rules: _Rules, known: set | None = None) -> dict:
    """One CSV row's figures from a parcel's areas per piece kind (the rules, read off the areas).

    Mirrors `deductions.lot_area` (net and its worst case), `cluster.cluster_triggers` and the
    land-only answers of `permits.permits_for` with no project.
    """
    known = pieces.known if known is None else known
    K = _K
    row: dict = {}
    shares = rules.shares
    row_area = {cid: (float(a[K[f"row:{cid}"]]) if f"row:{cid}" in known else None) for cid in _ROW_IDS}
    deducted = sum((ar or 0.0) * (1.0 - shares[cid]) for cid, ar in row_area.items())
    net = max(gross - deducted, 0.0)
    unknown_sqft = float(a[K["unknown"]]) if pieces.has_dem else gross
    # The worst case for unknowns (deductions._net_floor).
    if any(row_area[c] is None for c in ("water_bodies", "watercourses", "wetlands", "floodplain")):
        net_min = 0.0
    else:
        loss = 0.0
        if unknown_sqft > 0:
            loss += float(a[K["unknown_free"]])
            for cid in ("buffer", "rock_outcrops"):
                if row_area[cid] is not None and shares[cid] > 0:
                    loss += shares[cid] * float(a[K[f"unknown_row:{cid}"]])
        if row_area["rock_outcrops"] is None:
            remaining = gross - sum(v for v in row_area.values() if v is not None)
            loss += max(remaining - float(a[K["unknown_free"]]), 0.0) * (1.0 - shares["rock_outcrops"])
        net_min = max(net - loss, 0.0)
    d = settings.district(district) if district else None
    minimum = d.min_lot_area_sqft if d else None
    meets = None if minimum is None else (True if net_min >= minimum else False if net < minimum else None)
    row.update(
        gross_area_sqft=round(gross, 1),
        net_lot_area_sqft=round(net, 1),
        min_lot_area_sqft="" if minimum is None else minimum,
        meets_min_lot_area=_flag(meets),
    )
    for cid in _ROW_IDS:
        row[f"share_{cid}"] = "" if row_area[cid] is None else round(row_area[cid] / gross, 4)
    row["share_slope_unknown"] = round(unknown_sqft / gross, 4)

    def present(role: str):
        k = f"total:{role}"
        return None if k not in known else bool(a[K[k]] >= PRESENCE_MIN_SQFT)

    t = {}
    if not pieces.has_dem:
        t[1] = None
    else:
        steep = float(sum(a[K[f"slope_label:{v}"]] for v in (2, 3, 4, 5)))
        share_min = rules.slope_share_min
        t[1] = True if steep / gross >= share_min else (False if (steep + unknown_sqft) / gross < share_min
                                                          else None)
    t[2] = present("wetlands")
    t[3] = present("floodplain")
    t[4] = True if present("historic") else None
    t[5] = None
    rec = [present(r) for r in ("water_bodies", "watercourses", "recreation")]
    t[6] = True if any(rec) else (None if any(x is None for x in rec) else False)
    t[7] = present("aquifer_cea")
    t[8] = present("habitats")
    t[9] = None if "outcrops_cluster" not in known else bool(a[K["outcrops_cluster"]] >= PRESENCE_MIN_SQFT)
    t[10] = present("aquifer_cea")
    for k in range(1, 11):
        row[f"trigger_{k}"] = _flag(t[k])

    p = {
        "steep_slope_permit": None if not pieces.has_dem else (None if sum(a[K[f"slope_label:{v}"]] for v in (3, 4, 5)) >= PRESENCE_MIN_SQFT
                                                                 else False),
        "wetland_permit": None if ("wetland_region" not in known or "row:buffer" not in known
                                   or any(f"total:{r}" not in known for r in RESOURCE_ROLES)) else (None if a[K["wetland_region"]] >= PRESENCE_MIN_SQFT
                                                                      else False),
        "nysdec_recreational_river": present("recreational_river"),
        "rcda_review": present("rcda"),
        "flood_hazard_review": present("floodplain"),
        "seqra_cea": present("aquifer_cea"),
        "biodiversity_study": None if gross / SQFT_PER_ACRE >= rules.biodiversity_acres
        else False,
    }
    for k in _LAND_PERMITS:
        row[f"permit_{k}"] = _flag(p[k])
    return row


def _parcel_table(layerset, parcels):
    """(ids, districts, addresses, geometries) of the parcels to screen."""
    meta = layerset.parcels_meta
    id_f = getattr(meta, "id_field", "SBL")
    d_f, a_f = getattr(meta, "district_field", None), getattr(meta, "address_field", None)
    if parcels is None:
        layer = layerset.get("parcels")
        if layer is None:
            raise SloatInputError("The layer set has no tax parcel layer to screen.")
        gdf = layer.gdf
    else:
        gdf = parcels
    n = len(gdf)
    ids = ([("" if _clean(v) == "" else str(v)) for v in gdf[id_f].tolist()] if id_f in gdf.columns
           else [str(i) for i in range(n)])
    dists = gdf[d_f].tolist() if d_f and d_f in gdf.columns else [None] * n
    addrs = gdf[a_f].tolist() if a_f and a_f in gdf.columns else [None] * n
    geoms = np.asarray(gdf.geometry.values, dtype=object)
    splits = [""] * n
    if layerset.get("zoning") is not None:
        # Parcels that carry no district take it from the zoning layer, as analyze does: the largest
        # district first; a parcel in several is listed with each district's share (§ 402-48I).
        for i in range(n):
            if _clean(dists[i]) != "" or geoms[i] is None or getattr(geoms[i], "is_empty", True):
                continue
            try:
                parts = [(c, a) for c, _, a in layerset.district_parts(geoms[i]) if a > 0.5]
            except Exception:  # noqa: BLE001 -- a shape GEOS cannot cut is reported by the checks later
                continue
            if parts:
                dists[i] = parts[0][0]
                if len(parts) > 1:
                    gross = float(geoms[i].area) or 1.0
                    splits[i] = "; ".join(f"{c} ({a / gross:.0%})" for c, a in parts)
    return ids, dists, addrs, geoms, splits


def _clean(v):
    if v is None:
        return ""
    if isinstance(v, float) and math.isnan(v):
        return ""
    return v


def screen_rows(layerset, settings=None, *, parcels=None, block_size: int = 2000,
                tile_cells: int = 40, workers: int | None = None) -> Iterator[dict]:
    """Yield one row per tax parcel, in the parcels' order (a generator: rows go out block by block).

    Parameters
    ----------
    layerset : LayerSet
        The layers, DEM and (unless ``parcels`` is given) the tax parcels.
    settings : LocalSettings, optional
        Local settings (buffer width, district minimums); default the shipped ones.
    parcels : GeoDataFrame, optional
        Parcels to screen instead of the layer set's tax parcels (EPSG:2260, with the tax layer's id,
        district and address fields where available).
    block_size : int, default 2000
        Parcels met with the constraint pieces at once.
    tile_cells : int, default 40
        Tile side in DEM cells for the constraint pieces (see :func:`build_pieces`).
    workers : int, optional
        Processes (fork start method only). Default: up to 2 for building the pieces when there are at
        least 500 parcels, and for measuring blocks when there are at least 20,000; else 1 (a pool
        costs more than it saves on small runs).

    Yields
    ------
    dict
        Keys of :data:`SCREEN_COLUMNS`; ``error`` holds one plain sentence when a parcel failed.
    """
    settings = settings or load_settings()
    ids, dists, addrs, raw, splits = _parcel_table(layerset, parcels)
    if len(raw) == 0:
        return
    geoms, errors, _ = _check_parcels(raw)
    gaps = _coverage_gaps(layerset, geoms)
    rules = _Rules.load()
    ok = np.array([e is None for e in errors], dtype=bool)
    cores = min(2, os.cpu_count() or 1)
    pieces = None
    if ok.any():
        good = geoms[ok].astype(object)
        bounds = shapely.total_bounds(good)
        ptree = shapely.STRtree(good)
        pieces = build_pieces(
            layerset, bounds, buffer_width_ft=float(settings.buffer_width_ft), tile_cells=tile_cells,
            buffer_water_bodies=bool(getattr(settings, "buffer_around_water_bodies", True)),
            needed=lambda tile: len(ptree.query(tile, predicate="intersects")) > 0,
            workers=workers if workers is not None else (cores if len(raw) >= _PARALLEL_BUILD_MIN_PARCELS else 1),
        )
    spans = [(start, min(start + block_size, len(raw))) for start in range(0, len(raw), block_size)]
    if workers is None:
        workers = cores if len(raw) >= _PARALLEL_MIN_PARCELS else 1
    if workers > 1 and len(spans) > 1 and "fork" in mp.get_all_start_methods():
        # Workers inherit the pieces and parcels by fork; only block numbers and area tables travel.
        _SHARED.update(pieces=pieces, geoms=geoms, errors=list(errors))
        try:
            with mp.get_context("fork").Pool(workers) as pool:
                for (start, stop), (areas, failed) in zip(spans, pool.imap(_areas_of_span, spans)):
                    for i in failed:
                        errors[i] = _MEASURE_ERROR
                    yield from _block_rows(pieces, settings, rules, ids, dists, addrs, geoms, errors, areas,
                                           start, stop, splits, gaps)
        finally:
            _SHARED.clear()
        return
    for start, stop in spans:
        areas, failed = _span_areas(pieces, geoms, errors, start, stop)
        for i in failed:
            errors[i] = _MEASURE_ERROR
        yield from _block_rows(pieces, settings, rules, ids, dists, addrs, geoms, errors, areas, start, stop, splits,
                               gaps)


_MEASURE_ERROR = "The parcel's shape could not be measured against the layers."
_PARALLEL_MIN_PARCELS = 20_000
_PARALLEL_BUILD_MIN_PARCELS = 500
_SHARED: dict = {}


def _areas_of_span(span):
    start, stop = span
    return _span_areas(_SHARED["pieces"], _SHARED["geoms"], _SHARED["errors"], start, stop)


def _span_areas(pieces, geoms, errors, start, stop) -> tuple[dict, list]:
    """Areas per piece kind for the parcels [start, stop) that passed the checks; and those that failed."""
    sel = [i for i in range(start, stop) if errors[i] is None]
    areas: dict = {}
    failed: list = []
    if not sel:
        return areas, failed
    try:
        table = _block_areas(pieces, geoms[sel].astype(object))
        areas = {i: table[j] for j, i in enumerate(sel)}
    except Exception:  # noqa: BLE001 - one bad shape spoils a bulk call: redo the block one parcel at a time
        for i in sel:
            try:
                areas[i] = _block_areas(pieces, np.array([geoms[i]], dtype=object))[0]
            except Exception:  # noqa: BLE001 - reported in the row, the run goes on
                failed.append(i)
    return areas, failed


def _kinds_of_roles(roles) -> set:
    """Piece kinds that depend on the given layer roles (removed from ``known`` where they do not cover)."""
    out: set = set()
    for r in roles:
        out |= {f"total:{r}", f"row:{r}"}
        if r in RESOURCE_ROLES:
            out |= {"row:buffer", "unknown_row:buffer", "wetland_region"}
        if r == "rock_outcrops":
            out |= {"unknown_row:rock_outcrops", "outcrops_cluster"}
    return out


def _coverage_gaps(layerset, geoms: np.ndarray) -> list[tuple[str, ...]]:
    """For each parcel, the roles whose coverage leaves more than 1 sq ft of it out."""
    gaps: list[list[str]] = [[] for _ in range(len(geoms))]
    coverages = getattr(layerset, "coverages", {}) or {}
    valid = np.array([g is not None and not g.is_empty for g in geoms], dtype=bool)
    for role in (*_TOTAL_ROLES, "rock_outcrops"):
        cov = coverages.get(role)
        if cov is None or layerset.get(role) is None:
            continue
        shapely.prepare(cov)
        inside = np.zeros(len(geoms), dtype=bool)
        inside[valid] = shapely.covers(cov, geoms[valid].astype(object))
        for i in np.nonzero(valid & ~inside)[0]:
            try:
                if geoms[i].difference(cov).area > 1.0:
                    gaps[i].append(role)
            except Exception:  # noqa: BLE001 -- a shape GEOS cannot cut fails in the measuring step
                continue
    return [tuple(g) for g in gaps]


def _block_rows(pieces, settings, rules, ids, dists, addrs, geoms, errors, areas, start, stop,
                splits=None, gaps=None) -> Iterable[dict]:
    for i in range(start, stop):
        row = {"sbl": ids[i], "address": _clean(addrs[i]), "district": _clean(dists[i]),
               "districts": splits[i] if splits else ""}
        if errors[i] is None and i in areas:
            try:
                gross = float(geoms[i].area)
                known = None
                if gaps and gaps[i]:  # roles whose layer does not cover this parcel: unknown here
                    known = pieces.known - _kinds_of_roles(gaps[i])
                row.update(_rows_from_areas(areas[i], gross, pieces, settings, _clean(dists[i]) or None, rules,
                                            known))
            except SloatInputError as exc:
                row["error"] = str(exc)
        else:
            row["error"] = errors[i] or "The parcel could not be screened."
        yield row


def screen_to_csv(layerset, out_path, settings=None, *, parcels=None, progress=None, **kw) -> int:
    """Write the screening CSV, streaming rows as they are computed; returns the number of parcels.

    ``progress``, if given, is called with 1 after each row (e.g. a tqdm bar's ``update``).
    """
    out = Path(out_path)
    if out.parent and not out.parent.exists():
        raise SloatInputError(f"The folder for '{out_path}' does not exist.")
    n = 0
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=SCREEN_COLUMNS, extrasaction="ignore")
        w.writeheader()
        for row in screen_rows(layerset, settings, parcels=parcels, **kw):
            w.writerow(row)
            n += 1
            if progress is not None:
                progress(1)
    return n
