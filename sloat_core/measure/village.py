"""The village measured at once: every tax parcel's measures record from tiled, exclusive constraint pieces.

The single-parcel path (:func:`sloat_core.measure.parcel.parcel_findings` then
:func:`sloat_core.measure.lot_area.measure_lot_area`) gives each piece of land to the first row of the
deduction table, in the order of lowest countable share then ``DEDUCTION_ROWS``: row *i* gets
``P ∩ C_i`` minus what earlier rows took. That rule commutes with clipping to the parcel::

    (P ∩ C_i) \\ ∪_{j<i} (P ∩ C_j)  =  P ∩ (C_i \\ ∪_{j<i} C_j)

so the sweep builds the *exclusive* constraint pieces ``E_i = C_i \\ ∪_{j<i} C_j`` once for the whole
area (`build_pieces`), and a parcel's row areas are just ``area(P ∩ E_i)`` (`block_areas`). Likewise for
the overlays the triggers and permits look at, the slope sets and the land of unknown slope. A block's
areas become a :class:`sloat_core.measure.record.Measures` record with array fields (`block_measures`),
the record the single-parcel path builds, so the rules read it unchanged. Slope land is cut by slope
*code* (which of `record.slope_sets` a cell is in), so the sweep has no slope classes of its own.

* The pieces are cut into square tiles aligned with the DEM grid (``tile_cells`` cells a side) so each
  piece is small; slopes are read from the DEM one strip of tiles at a time (a window with one cell of
  padding, so Horn's kernel sees the same neighbours as in the single-parcel window: the slopes are the
  same numbers). Slope-class land is the union of whole DEM cells, as in
  :class:`sloat_core.gis.slope_grid.SlopeGrid`, and a parcel's share of it is measured from the cells
  (`village_cells.code_areas`, the single-parcel path's cut of an outline at the grid lines): partial cells
  count for the part inside the parcel, with no extra rule. A slope row is its cells less what the layer rows
  before it took; those parts are pieces of sign -1, made (with polygons of the cells) only where a layer row
  has land in the tile. The land of unknown slope likewise.
* The worst case of the layers' coverage (``build_pieces(worst=True)``) is the same sweep over another world: each
  layer a deduction reads maps, besides its features, all the land outside its coverage, and the buffer is the
  band around the resources so grown; the parcels a coverage leaves part of read their floor from those pieces.
* Parcels go through in blocks: one bulk ``STRtree.query`` of the block against the pieces gives
  (parcel, piece) pairs, one vectorised ``shapely.intersection`` their areas (a rectangle clip for a piece that
  is a rectangle), and a ``bincount`` sums them per parcel and piece kind, with their signs; the cells' areas
  by code are added to the kinds they make up.
"""

from __future__ import annotations

import datetime as dt
import math
import multiprocessing as mp
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import rasterio
import rasterio.features
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.dem import check_dem_crs
from sloat_core.gis.geometry import EMPTY, polygonal
from sloat_core.gis.roles import roles_of_kind
from sloat_core.gis.slope import horn_slope_percent
from sloat_core.law.params import value
from sloat_core.measure.parcel import DEDUCTION_READS, buffer_band
from sloat_core.measure.record import OVERLAY_ROLES, RESOURCE_ROLES, SLOPE_SET_NAMES, slope_set_cells, slope_sets
from sloat_core.measure.rows import DEDUCTION_ROWS, LAYER_ROWS, ROW_IDS, SLOPE_ROWS, deduction_order
from sloat_core.measure.village_cells import CodeGrid
from sloat_core.measure.village_cuts import as_tree_source, grown, strip_layers, worst_world

__all__ = ["ScreenPieces", "build_pieces"]

# Piece kinds beyond the exclusive deduction rows ("row:<id>"): whole layers (totals), slope land by
# slope code (which slope sets of `measures.slope_sets` a cell is in, one bit each), land of unknown
# slope split by what the deduction rows did with it, the wetland-permit region and outcrops over the
# cluster trigger's size: everything a `Measures` record holds.
_TOTAL_ROLES = RESOURCE_ROLES + OVERLAY_ROLES
_OUTCROP_ROLES = roles_of_kind("outcrops")
_OUTCROPS_ROW = next(r for r in DEDUCTION_ROWS if r.land == "outcrops")
_SLOPE_SETS = SLOPE_SET_NAMES
_CODES = tuple(range(1, 2 ** len(_SLOPE_SETS)))  # code 0 (known, in no set) is never needed
_UNKNOWN_CODE = 2 ** len(_SLOPE_SETS)
_EXTRA_KINDS = (
    tuple(f"total:{r}" for r in _TOTAL_ROLES)
    + tuple(f"slope_code:{c}" for c in _CODES)
    + ("unknown", "unknown_free")
    + tuple(f"unknown_row:{c}" for c in LAYER_ROWS)
    + ("wetland_region", "outcrops_cluster")
)
_KINDS = tuple(f"row:{r}" for r in ROW_IDS) + _EXTRA_KINDS
_K = {k: i for i, k in enumerate(_KINDS)}
#: Fork workers read the build's arguments from here (inherited, not pickled).
_SHARED: dict = {}

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
        Index into the piece kinds (``row:<constraint>``, ``total:<role>``, ``slope_code:<n>``, ``unknown`` ...).
    tree : shapely.STRtree
        Index over ``geoms``.
    known : set of str
        Kinds whose source is loaded (a kind not in it is unknown for every parcel, not absent).
    has_dem : bool
        True when slopes were read from a DEM.
    as_of : datetime.date
        The date the law was applied at in cutting them (the slope sets, the outcrop sizes, the deduction
        shares and their order): the measures records met with them carry it.
    signs : ndarray of float, optional
        +1 for a piece whose land adds to its kind, -1 for one whose land is taken off it (the part of a
        slope row's cells an earlier layer row took; the land of unknown slope a row took). None: all +1.
    cells : CodeGrid, optional
        The DEM cells' slope codes (with a DEM): a parcel's area on each code is measured from the cells
        (`village_cells.code_areas`) and added to the kinds of ``cell_kinds``.
    cell_kinds : ndarray of float, (codes, kinds), optional
        What a sq ft on a cell of each code adds to each kind: its slope code, the slope row whose cells it
        is (before what earlier layer rows took), the land of unknown slope.
    boxes : ndarray of bool, optional
        The pieces that are exactly an axis-aligned rectangle (a layer covering a whole tile): a parcel is cut
        to them by a rectangle clip (`shapely.clip_by_rect`), not an overlay.
    """

    geoms: np.ndarray
    kinds: np.ndarray
    tree: shapely.STRtree
    known: set
    has_dem: bool
    as_of: dt.date
    signs: np.ndarray | None = None
    cells: CodeGrid | None = None
    cell_kinds: np.ndarray | None = None
    boxes: np.ndarray | None = None


def _role_geoms(layerset, role: str):
    layer = layerset.get(role) if layerset is not None else None
    if layer is None:
        return None
    return layer


def _global_sources(layerset, width_ft: float, water_bodies: bool, on: dt.date) -> dict:
    """Layer-wide geometries that are not plain features, keyed by `RowSpec.land`: the buffer band and the
    outcrops counted (with the outcrops over the cluster trigger's size, ``outcrops_cluster``), by the sizes in
    effect on ``on``."""
    out: dict = {}
    roles = [r for r in RESOURCE_ROLES if layerset.get(r) is not None and (water_bodies or r != "water_bodies")]
    if roles:
        out["buffer"] = buffer_band([g for r in roles for g in layerset.get(r).geoms], width_ft)
    outcrops = layerset.get(_OUTCROPS_ROW.role)
    if outcrops is not None:
        if len(outcrops.geoms):
            whole = shapely.get_parts(shapely.union_all(outcrops.geoms))
            sizes = shapely.area(whole)
            big = float(value("rock_outcrop_min_area_sqft", on))
            cl = float(value("cluster_rock_outcrop_min_area_sqft", on))
            out["outcrops"] = as_tree_source(whole[sizes > big])  # "in excess of 50 square feet"
            out["outcrops_cluster"] = as_tree_source(whole[sizes > cl])
        else:
            out["outcrops"] = as_tree_source(np.empty(0, dtype=object))
            out["outcrops_cluster"] = as_tree_source(np.empty(0, dtype=object))
    return out


def _slope_codes(slope: np.ndarray, sets: dict) -> np.ndarray:
    """Each cell's slope code: bit i set when the cell is in the i-th set of `measures.slope_sets`
    (the rules' own sets, so the sweep has no class scheme of its own); ``_UNKNOWN_CODE`` where the
    slope is unknown. Sums over codes give every slope set's land exactly. ``sets``: `slope_sets` of the
    screen's date, read once per sweep (each read of the parameters checks the file).
    """
    code = np.zeros(slope.shape, dtype=np.uint8)
    for bit, name in enumerate(_SLOPE_SETS):
        code |= slope_set_cells(slope, name, sets).astype(np.uint8) << bit
    code[~np.isfinite(slope)] = _UNKNOWN_CODE
    return code


def _cells_by_code(lab: np.ndarray, transform, tile: BaseGeometry) -> dict[int, BaseGeometry]:
    """For every slope code but 0, the union of its cells as one (Multi)Polygon of whole cells (empty if none).

    One polygonising pass per tile, skipping code 0 (known slope in no set, which no piece needs). The
    4-connected regions of one code touch at most at corners, so together they are a valid MultiPolygon.
    """
    out = {v: EMPTY for v in range(_UNKNOWN_CODE + 1)}
    values = np.unique(lab)
    if len(values) == 1:
        out[int(values[0])] = tile
        return out
    mask = lab != 0
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
                 needed=None, workers: int = 1, buffer_water_bodies: bool = True,
                 worst: bool = False, on: dt.date) -> ScreenPieces:
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
    worst : bool, default False
        Build the pieces of the worst case of the layers' coverage instead (the world
        `measure.parcel.parcel_findings` measures a parcel's ``worst`` findings in): each layer a deduction
        reads maps what it maps plus all the land outside its coverage, and the buffer is the band around
        the resources so grown. Only the deduction rows and the land of unknown slope of these pieces are
        read (`village_blocks.block_measures`' ``worst``).
    on : datetime.date
        The date the law is applied at (the screen's ``as_of``): the slope sets, the outcrop
        sizes, the deduction shares and their order in effect then.

    Returns
    -------
    ScreenPieces
    """
    order = deduction_order(on)
    shares = {r.id: float(value(r.share, on)) for r in DEDUCTION_ROWS}
    sets = slope_sets(on)  # the slope sets' bounds, read once for every tile
    sources = _global_sources(layerset, buffer_width_ft, buffer_water_bodies, on)
    layers = {r: _role_geoms(layerset, r) for r in _TOTAL_ROLES}
    grow: dict = {}
    if worst:
        grow = worst_world(layerset, bounds, sources, layers, buffer_width_ft, buffer_water_bodies,
                           margin=tile_cells * 5.0 * 2)
    dem_path = getattr(layerset, "dem_path", None)
    has_dem = dem_path is not None

    known = _known_kinds(layers, sources, shares, has_dem)
    if worst:
        # Only the deduction rows and the land of unknown slope of the worst case are read: the layers no row
        # reads are not cut, and what is not cut is not known (unknown, never absent).
        known = {k for k in known if k.startswith(("row:", "unknown", "slope_code:"))}
        layers = {r: (g if r in DEDUCTION_READS else None) for r, g in layers.items()}
        sources = {k: g for k, g in sources.items() if k != "outcrops_cluster"}

    cw, ch, ox, oy, n, row0, col0, ntx, nty = _grid(dem_path, bounds, tile_cells)
    args = (dem_path if has_dem else None, n, row0, col0, ntx, ox, oy, cw, ch, needed, layers, sources, order,
            known, grow, sets)
    geoms, kinds, signs, strips = _built(args, nty, workers)
    # One polygon per piece: a parcel then meets only the parts its box touches, not a whole
    # multipart tile of slope cells.
    parts, owner = shapely.get_parts(np.asarray(geoms, dtype=object), return_index=True)
    kinds_arr = np.asarray(kinds, dtype=np.intp)[owner]
    signs_arr = np.asarray(signs, dtype=float)[owner]
    shapely.prepare(parts)
    cells = cell_kinds = None
    if has_dem:
        codes = np.zeros((nty * n, ntx * n), dtype=np.uint8)  # tiles no parcel touches: code 0
        for ty, c in strips.items():
            codes[ty * n:(ty + 1) * n] = c
        cells = CodeGrid(codes, ox + col0 * cw, oy - row0 * ch, cw, ch, _UNKNOWN_CODE + 1)
        cell_kinds = _cell_kinds(order)
    return ScreenPieces(parts, kinds_arr, shapely.STRtree(parts), known, has_dem, on, signs_arr, cells, cell_kinds,
                        _rectangles(parts))


def _known_kinds(layers: dict, sources: dict, shares: dict, has_dem: bool) -> set[str]:
    """The piece kinds the sweep measures (a kind not in it is unknown for every parcel, never absent): the
    loaded layers, the deduction rows whose land is known, the slope codes with a DEM."""
    known = {f"total:{r}" for r in _TOTAL_ROLES if layers[r] is not None}
    for spec in DEDUCTION_ROWS:
        if spec.land == "layer":
            ok = layers[spec.role] is not None
        elif spec.land == "slope":
            ok = has_dem
        else:  # the buffer band, the outcrops counted: layer-wide sources
            ok = spec.land in sources
        if ok:
            known.add(f"row:{spec.id}")
    known |= {"unknown", "unknown_free"}
    if has_dem:
        known |= {f"slope_code:{c}" for c in _CODES}
    # Land of unknown slope in each layer row that counts in part (the rows' worst case).
    known |= {f"unknown_row:{c}" for c in LAYER_ROWS if f"row:{c}" in known and shares[c] > 0}
    if "outcrops" in sources:
        known.add("outcrops_cluster")
    if any(layers[r] is not None for r in RESOURCE_ROLES):
        known.add("wetland_region")
    return known


def _grid(dem_path, bounds, tile_cells: int) -> tuple:
    """The tiles over ``bounds``: (cell width, cell height, grid origin x, y, tile side in cells, first row and
    column, tiles across, tiles down); on the DEM's grid, else 5-ft cells from the bounds' corner."""
    minx, miny, maxx, maxy = bounds
    if dem_path is not None:
        with rasterio.open(dem_path) as src:
            check_dem_crs(src, Path(dem_path))
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
    return cw, ch, ox, oy, n, row0, col0, ntx, nty


def _built(args: tuple, nty: int, workers: int) -> tuple:
    """The pieces of every row of tiles: (geometries, kinds, signs, {row: its slope codes})."""
    if workers > 1 and nty >= 4 and "fork" in mp.get_all_start_methods():
        # The rows of tiles dealt out in turn to two processes (fork: the layers and the parcel index are
        # inherited), so that each gets its share of the costly rows (those with layer land).
        _SHARED["build_args"] = args
        try:
            with mp.get_context("fork").Pool(2) as pool:
                done = pool.map(_build_worker, [list(range(0, nty, 2)), list(range(1, nty, 2))])
        finally:
            _SHARED.pop("build_args", None)
        geoms = np.concatenate([shapely.from_wkb(w) for w, _, _, _ in done])
        kinds = np.concatenate([k for _, k, _, _ in done])
        signs = np.concatenate([s for _, _, s, _ in done])
        strips = {ty: c for _, _, _, part in done for ty, c in part.items()}
    else:
        geoms, kinds, signs, strips = _build_rows(args, range(nty))
    return geoms, kinds, signs, strips


def _rectangles(geoms: np.ndarray) -> np.ndarray:
    """Which geometries are exactly an axis-aligned rectangle (four corners, each on its bounding box's
    corners: a whole tile, or a tile's part cut by grid lines only)."""
    out = np.zeros(len(geoms), dtype=bool)
    cand = np.flatnonzero((shapely.get_type_id(geoms) == shapely.GeometryType.POLYGON)
                          & (shapely.get_num_coordinates(geoms) == 5)
                          & (shapely.get_num_interior_rings(geoms) == 0))
    if len(cand) == 0:
        return out
    xy = shapely.get_coordinates(geoms[cand]).reshape(len(cand), 5, 2)
    b = shapely.bounds(geoms[cand])
    on_x = (xy[:, :, 0] == b[:, [0]]) | (xy[:, :, 0] == b[:, [2]])
    on_y = (xy[:, :, 1] == b[:, [1]]) | (xy[:, :, 1] == b[:, [3]])
    out[cand] = on_x.all(axis=1) & on_y.all(axis=1) & (b[:, 2] > b[:, 0]) & (b[:, 3] > b[:, 1])
    return out


def _slope_row_codes(order) -> dict[str, tuple[int, ...]]:
    """The slope codes whose cells each slope row takes: those in its slope set and in no set of a slope row
    before it (in ``order``): the slope rows' own part of the overlap rule, settled cell by cell."""
    out: dict = {}
    before = 0
    for spec in order:
        if spec.land != "slope":
            continue
        bit = 1 << _SLOPE_SETS.index(spec.id)
        out[spec.id] = tuple(c for c in _CODES if c & bit and not c & before)
        before |= bit
    return out


def _cell_kinds(order) -> np.ndarray:
    """(codes, kinds): what a sq ft on a cell of each code adds to each kind (see `ScreenPieces.cell_kinds`)."""
    w = np.zeros((_UNKNOWN_CODE + 1, len(_KINDS)))
    for c in _CODES:
        w[c, _K[f"slope_code:{c}"]] = 1.0
    for cid, codes in _slope_row_codes(order).items():
        w[list(codes), _K[f"row:{cid}"]] = 1.0
    w[_UNKNOWN_CODE, _K["unknown"]] = 1.0
    w[_UNKNOWN_CODE, _K["unknown_free"]] = 1.0
    return w


def _build_worker(tys):
    geoms, kinds, signs, codes = _build_rows(_SHARED["build_args"], tys)
    return shapely.to_wkb(np.asarray(geoms, dtype=object)), np.asarray(kinds, dtype=np.intp), \
        np.asarray(signs, dtype=float), codes


def _build_rows(args, tys):
    """Pieces of the tile rows ``tys``: (geometries, kind numbers, signs, {tile row: its cells' slope codes}
    (empty without a DEM))."""
    dem_path, n, row0, col0, ntx, ox, oy, cw, ch, needed, layers, sources, order, known, grow, sets = args
    geoms: list = []
    kinds: list = []
    signs: list = []
    codes: dict = {}
    slope_codes = _slope_row_codes(order)

    def add(kind: str, g, sign: float = 1.0):
        if g is None or g.is_empty:
            return
        g = polygonal(g)
        if not g.is_empty and g.area > 0:
            geoms.append(g)
            kinds.append(_K[kind])
            signs.append(sign)

    with rasterio.Env():  # one GDAL environment for the whole pass (not one per call)
        src = rasterio.open(dem_path) if dem_path is not None else None
        try:
            for ty in tys:
                r_a = row0 + ty * n
                r_b = r_a + n
                y1, y0 = oy - r_a * ch, oy - r_b * ch
                tiles = []
                for tx in range(ntx):
                    c_a = col0 + tx * n
                    tile = shapely.box(ox + c_a * cw, y0, ox + (c_a + n) * cw, y1)
                    if needed is None or needed(tile):
                        tiles.append((tx, tile))
                if not tiles:
                    continue
                strip = None if src is None else _read_strip(src, r_a, r_b, col0, col0 + ntx * n)
                if strip is not None:
                    codes[ty] = np.zeros((n, ntx * n), dtype=np.uint8)
                cut = strip_layers([t for _, t in tiles], layers, sources)
                for (tx, tile), clipped in zip(tiles, cut, strict=True):
                    x0 = ox + (col0 + tx * n) * cw
                    lab = None
                    if strip is not None:
                        lab = _slope_codes(strip[:, tx * n:(tx + 1) * n], sets)
                        codes[ty][:, tx * n:(tx + 1) * n] = lab
                    tr = rasterio.transform.Affine(cw, 0.0, x0, 0.0, -ch, y1)
                    _tile_pieces(tile, lab, tr, grown(tile, clipped, grow), order, slope_codes, add, known)
        finally:
            if src is not None:
                src.close()
    return geoms, kinds, signs, codes


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


def _tile_pieces(tile, lab, tr, clipped, order, slope_codes, add, known) -> None:
    """The pieces of one tile, each handed to ``add(kind, geometry, sign)``: the deduction rows (exclusive, in
    ``order``), the whole layers, the wetland permit's region and the outcrops over the cluster trigger's size.

    With a DEM (``lab``: the tile's cells' slope codes, ``tr`` their transform) the slope land is measured from
    the cells (`ScreenPieces.cells`): a slope row's cells, and the land of unknown slope, are polygons here only
    where a layer row has land in the tile, for what the layer rows take from them and they from the layer
    rows. Without a DEM the land of unknown slope is the whole tile. ``clipped``: the layers cut to the tile
    (`strip_layers`, `grown`)."""
    if lab is None:
        taken, row_piece = _tile_rows(order, {}, clipped, add)
        _tile_unknown(tile, taken, row_piece, known, add, cells=False)
    elif lands := [g for spec in order if spec.land != "slope" and not _empty(g := _row_land(spec, {}, clipped))]:
        # Only the cells under the layer rows' land matter (what they take from the slope rows, what later rows
        # take of what is left): the cells of its bounding box, in whole cells.
        minx, miny, maxx, maxy = shapely.total_bounds(np.asarray(lands, dtype=object))
        n_r, n_c = lab.shape
        c0 = min(max(math.floor((minx - tr.c) / tr.a), 0), n_c)
        c1 = min(max(math.ceil((maxx - tr.c) / tr.a), c0), n_c)
        r0 = min(max(math.floor((tr.f - maxy) / -tr.e), 0), n_r)
        r1 = min(max(math.ceil((tr.f - miny) / -tr.e), r0), n_r)
        if (r0, c0, r1, c1) == (0, 0, n_r, n_c):
            by_code = _cells_by_code(lab, tr, tile)
        else:
            x0, y1 = tr.c + c0 * tr.a, tr.f + r0 * tr.e
            window = shapely.box(x0, tr.f + r1 * tr.e, tr.c + c1 * tr.a, y1)
            by_code = _cells_by_code(lab[r0:r1, c0:c1], rasterio.transform.Affine(tr.a, 0.0, x0, 0.0, tr.e, y1),
                                     window)
        slope_rows = _slope_rows(by_code)
        own = {cid: slope_rows[cid] if set(codes) == set(_set_codes(cid)) else _union([by_code[c] for c in codes])
               for cid, codes in slope_codes.items()}
        taken, row_piece = _tile_rows(order, slope_rows, clipped, add, own)
        unknown = by_code[_UNKNOWN_CODE]
        if not unknown.is_empty:
            _tile_unknown(unknown, taken, row_piece, known, add, cells=True)
    # Else no layer row has land here: each slope row is its cells, and no row takes land of unknown slope.
    for r in _TOTAL_ROLES:
        if clipped.get(r) is not None and f"total:{r}" in known:
            add(f"total:{r}", clipped[r])
    wet = [clipped.get(r) for r in RESOURCE_ROLES + ("buffer",)]  # the wetland permit's region
    wet = [g for g in wet if g is not None and not g.is_empty]
    if wet and "wetland_region" in known:
        add("wetland_region", shapely.union_all(wet))
    if clipped.get("outcrops_cluster") is not None and "outcrops_cluster" in known:
        add("outcrops_cluster", clipped["outcrops_cluster"])


def _set_codes(cid: str) -> tuple[int, ...]:
    bit = 1 << _SLOPE_SETS.index(cid)
    return tuple(c for c in _CODES if c & bit)


def _slope_rows(by_code: dict) -> dict:
    """The land of each slope deduction row: the cells of every code in its slope set."""
    return {cid: _union([by_code[c] for c in _set_codes(cid)]) for cid in SLOPE_ROWS}


def _empty(g) -> bool:
    return g is None or g.is_empty


def _row_land(spec, slope_rows: dict, clipped: dict):
    """A deduction row's land in the tile (None when its layer is not loaded); a slope row's: the cells it
    takes (`_slope_row_codes`)."""
    if spec.land == "slope":
        return slope_rows.get(spec.id)
    return clipped.get(spec.role if spec.land == "layer" else spec.land)


def _tile_rows(order, slope_rows: dict, clipped: dict, add, own_cells: dict | None = None) -> tuple:
    """The exclusive deduction-row pieces: each row gets its land minus what earlier rows took.

    With ``own_cells`` ({slope row: the cells it takes, `_slope_row_codes`}) a slope row's land is measured
    from its cells, and its pieces here are the parts of those cells each layer row before it took (their
    pieces are exclusive, so the parts add up), taken off (sign -1). Returns (the land taken, {row id: its
    piece})."""
    taken = EMPTY
    row_piece = {}
    layer_pieces = []  # the pieces of the layer rows so far
    for spec in order:
        cid = spec.id
        g = _row_land(spec, slope_rows, clipped)
        if g is None:
            continue
        if g.is_empty:
            row_piece[cid] = EMPTY
            continue
        piece = polygonal(g.difference(taken)) if not taken.is_empty else g
        row_piece[cid] = piece
        if spec.land == "slope" and own_cells is not None:
            own = own_cells[cid]
            for earlier in layer_pieces:
                add(f"row:{cid}", polygonal(own.intersection(earlier)), -1.0)
        else:
            add(f"row:{cid}", piece)
            if spec.land != "slope" and not piece.is_empty:
                layer_pieces.append(piece)
        if not piece.is_empty:
            taken = polygonal(shapely.union(taken, piece))
    return taken, row_piece


def _tile_unknown(unknown, taken, row_piece: dict, known, add, cells: bool) -> None:
    """The land of unknown slope: all of it, the part no row took, and the part of each layer row on it.

    With ``cells`` the first two are measured from the cells; here the part of it each layer row took is
    taken off the part no row took (slope rows take no land of unknown slope; the layer rows' pieces are
    exclusive)."""
    if not cells:
        add("unknown", unknown)
        add("unknown_free", polygonal(unknown.difference(taken)) if not taken.is_empty else unknown)
    for cid in LAYER_ROWS:
        piece = row_piece.get(cid)
        if piece is None or piece.is_empty:
            continue
        if not cells and f"unknown_row:{cid}" not in known:
            continue
        on = polygonal(piece.intersection(unknown))
        if f"unknown_row:{cid}" in known:
            add(f"unknown_row:{cid}", on)
        if cells:
            add("unknown_free", on, -1.0)
