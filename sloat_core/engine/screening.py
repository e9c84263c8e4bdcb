"""Screen every tax parcel of a layer set: one CSV row per parcel, streamed to the file.

Each row: id, address, district, gross and net area, the share of the parcel in each constraint, the ten
cluster triggers and the permit flags that follow from the land alone (no project). A parcel that fails
gets its error in the ``error`` column; the run goes on.

How it is fast, and why it gives the single-parcel answer: the measuring is
:mod:`sloat_core.measure.village` (tiled, exclusive constraint pieces met by blocks of parcels). **The rules
are not restated here.** A block's areas become a :class:`sloat_core.measure.record.Measures` record with
array fields (one value per parcel) -- the record the single-parcel path builds -- and the row's figures are
the rule functions the analysis calls: `deductions.net_lot_area`, `deductions.net_lot_area_floor`,
`deductions.meets_minimum`, `cluster.trigger_answers` and `permits.land_permits`. Rows are yielded as each
block is done (a generator). The results equal the single-parcel analysis up to floating-point noise
(``tests/engine/test_screen_parity.py`` checks the two agree and ``make bench`` reports the largest difference
over sampled parcels). A parcel a layer a deduction reads maps only in part (its ``coverage:`` leaves land out)
has its floor read from the worst case of that land: the world `measure.parcel.parcel_findings` measures a
parcel's ``worst`` findings in (each such layer maps, besides what it maps, all the land outside its coverage;
the buffer is the band around the resources so grown) is cut into pieces by the same sweep
(`build_pieces(worst=True)`, only over the tiles such parcels touch), and those parcels are met with them too.
(Measured parcel by parcel instead, the worst case cost about one analysis each: 27 of 39 s for 20,000
generated lots, a sixth of them along the sample's village boundary.)

Parcels are checked like the single-parcel analysis checks them: an empty shape, a non-polygon or
non-numeric coordinates give an error row; an outline crossing itself is repaired.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import multiprocessing as mp
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import shapely

from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import check_parcels
from sloat_core.gis.roles import roles_of_kind
from sloat_core.law.settings import load_settings
from sloat_core.measure.village import ScreenPieces, build_pieces
from sloat_core.measure.village_blocks import block_areas, block_measures, coverage_gaps, worst_measures, worst_positions
from sloat_core.rules.sections.s402_48_cluster.cluster import trigger_answers
from sloat_core.measure.record import OVERLAY_ROLES, RESOURCE_ROLES
from sloat_core.measure.rows import ROW_IDS
from sloat_core.rules.deductions import meets_minimum, net_lot_area, net_lot_area_floor
from sloat_core.rules.permits import LAND_PERMITS, land_permits

__all__ = ["screen_rows", "screen_to_csv", "SCREEN_COLUMNS", "ScreenPieces", "build_pieces"]

SCREEN_COLUMNS = (
    ["sbl", "address", "district", "districts", "gross_area_sqft", "net_lot_area_sqft", "net_lot_area_min_sqft",
     "min_lot_area_sqft", "meets_min_lot_area"]
    + [f"share_{c}" for c in ROW_IDS]
    + ["share_slope_unknown"]
    + ["conventional_yield", "conventional_yield_min", "conventional_yield_max"]  # § 402-48E, I
    + [f"trigger_{n}" for n in range(1, 11)]
    + [f"permit_{p}" for p in LAND_PERMITS]
    + [f"coverage_{r}" for r in (*RESOURCE_ROLES, *OVERLAY_ROLES, *roles_of_kind("outcrops"))]
    + ["error"]
)


def _flags(x) -> list[str]:
    """Answers (one per parcel: 1.0 / 0.0 / nan, or one answer for all) as CSV words."""
    x = np.asarray(x, dtype=float)
    return np.where(x == 1.0, "yes", np.where(x == 0.0, "no", "")).tolist()


def _block_figures(pieces: ScreenPieces, a: np.ndarray, gross: np.ndarray, minimum: np.ndarray,
                   gaps: list | None = None, worst: tuple | None = None) -> dict:
    """The CSV columns of a block of parcels, each a list: the rules of `deductions`, `cluster` and
    `permits` applied to the block's `Measures` (the functions the single-parcel analysis calls)."""
    m = block_measures(pieces, a, gross, gaps, worst)
    net = net_lot_area(m)
    floor = net_lot_area_floor(m)
    cols: dict = {
        "gross_area_sqft": np.round(gross, 1).tolist(),
        "net_lot_area_sqft": np.round(net, 1).tolist(),  # the ceiling; with the floor, the range analyze gives
        "net_lot_area_min_sqft": ["" if x != x else x for x in np.round(np.broadcast_to(floor, gross.shape), 1).tolist()],
        "meets_min_lot_area": _flags(meets_minimum(net, floor, minimum)),
        **_yield_columns(net, floor, minimum),
    }
    for cid in ROW_IDS:
        share = np.round(m.rows[cid] / gross, 4)
        cols[f"share_{cid}"] = ["" if x != x else x for x in share.tolist()]
    cols["share_slope_unknown"] = np.round(m.slope_unknown_sqft / gross, 4).tolist()
    for k, ans in trigger_answers(m).items():
        cols[f"trigger_{k}"] = _flags(np.broadcast_to(np.asarray(ans, dtype=float), gross.shape))
    for pid, ans in land_permits(m).items():
        cols[f"permit_{pid}"] = _flags(np.broadcast_to(np.asarray(ans, dtype=float), gross.shape))
    return cols


def _yield_columns(net, floor, minimum) -> dict:
    """§ 402-48E: the yield columns of parcels in one district, a range kept a range: "3", "0 to 4" or ""
    (unknown), and its bounds (`cluster.part_yield` on each parcel's net, worst-case net and minimum)."""
    from sloat_core.rules.sections.s402_48_cluster.cluster import part_yield

    shape = np.shape(np.asarray(minimum))
    rows = zip(np.ravel(np.broadcast_to(net, shape)), np.ravel(np.broadcast_to(floor, shape)), np.ravel(minimum),
               strict=True)
    return _yield_cells([part_yield(float(n), float(f), None if mn != mn else float(mn)) for n, f, mn in rows])


def _yield_cells(yields: list[dict]) -> dict:
    """The yield columns from `cluster.part_yield` / `cluster.yield_estimate` answers, one per row."""
    def text(y):
        if y["conventional_yield_status"] == "known":
            return y["conventional_yield"]
        if y["conventional_yield_status"] == "range":
            return f"{y['conventional_yield_min']} to {y['conventional_yield_max']}"
        return ""
    return {"conventional_yield": [text(y) for y in yields],
            "conventional_yield_min": ["" if y["conventional_yield_min"] is None else y["conventional_yield_min"]
                                       for y in yields],
            "conventional_yield_max": ["" if y["conventional_yield_max"] is None else y["conventional_yield_max"]
                                       for y in yields]}


class _Districts(str):
    """The "districts" cell of a split parcel, carrying its parts [(code, part geometry)] for § 402-48I."""

    parts: list = []


def _split_yields(pieces, settings, minimum, geoms, splits, sel, layerset, cols) -> dict:
    """§ 402-48I in the screen: each district part of a split parcel measured as a parcel of its own (the
    same pieces, the same rules, the part's own coverage gaps), its floor by `parts.part_floor` (the function
    the analysis calls), its whole lots added; {parcel index: yield columns of one row}. ``cols`` holds the
    block's columns so far (the parcel's own net and floor)."""
    from sloat_core.engine.parts import part_floor
    from sloat_core.rules.sections.s402_48_cluster.cluster import yield_estimate

    out: dict = {}
    for i in sel:
        parts = getattr(splits[i], "parts", None) if splits else None
        if not parts:
            continue
        j = sel.index(i)
        whole_net, whole_floor = cols["net_lot_area_sqft"][j], cols["net_lot_area_min_sqft"][j]
        known = whole_floor != "" and abs(float(whole_net) - float(whole_floor)) <= 0.5
        try:
            shapes = np.array([g for _, g in parts], dtype=object)
            m = block_measures(pieces, block_areas(pieces, shapes), shapely.area(shapes),
                               coverage_gaps(layerset, shapes) if layerset is not None else None)
            net = np.atleast_1d(net_lot_area(m))
            floor = [part_floor(g, float(n), layerset, settings, parcel_known=known, on=pieces.as_of)
                     for g, n in zip(shapes, net)]
        except Exception:  # noqa: BLE001 -- a part GEOS cannot cut: the yield is unknown, the row stands
            out[i] = {"conventional_yield": "", "conventional_yield_min": "", "conventional_yield_max": ""}
            continue
        est = yield_estimate([{"district": c, "net_lot_area_sqft": float(n), "net_lot_area_min_sqft": float(f),
                               "min_lot_area_sqft": minimum(c)}
                              for (c, _), n, f in zip(parts, net, floor, strict=True)])
        out[i] = {k: v[0] for k, v in _yield_cells([est]).items()}
    return out


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
                found = [(c, g, a) for c, g, a in layerset.district_parts(geoms[i]) if a > 0.5]
                parts = [(c, a) for c, _, a in found]
            except Exception:  # noqa: BLE001 -- a shape GEOS cannot cut is reported by the checks later
                continue
            if parts:
                dists[i] = parts[0][0]
                if len(parts) > 1:
                    gross = float(geoms[i].area) or 1.0
                    splits[i] = _Districts("; ".join(f"{c} ({a / gross:.0%})" for c, a in parts))
                    splits[i].parts = [(c, g) for c, g, _ in found]
    return ids, dists, addrs, geoms, splits


def _clean(v):
    if v is None:
        return ""
    if isinstance(v, float) and math.isnan(v):
        return ""
    return v


def screen_rows(layerset, settings=None, *, parcels=None, block_size: int = 2000,
                tile_cells: int = 40, workers: int | None = None, as_of: dt.date | None = None) -> Iterator[dict]:
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
        Processes (fork start method only). Default: up to 2, for building the pieces and for measuring
        the blocks (at least one block each), when there are at least 500 parcels; else 1 (a pool costs
        more than it saves on small runs).
    as_of : datetime.date, optional
        The date the law is applied at (default today): every number of Article IX the measuring and the
        rules read is the one in effect then.

    Yields
    ------
    dict
        Keys of :data:`SCREEN_COLUMNS`; ``error`` holds one plain sentence when a parcel failed.
    """
    for block in _screen_blocks(layerset, settings, parcels=parcels, block_size=block_size, tile_cells=tile_cells,
                                workers=workers, as_of=as_of):
        yield from block


def _screen_blocks(layerset, settings=None, *, parcels=None, block_size: int = 2000, tile_cells: int = 40,
                   workers: int | None = None, as_of: dt.date | None = None, text: bool = False) -> Iterator:
    """`screen_rows`' rows block by block: a list of rows each; with ``text``, the block's CSV lines instead
    ((text, number of rows): with two processes, the rows made and written by the process that measured them)."""
    settings = settings or load_settings()
    as_of = as_of or dt.date.today()
    ids, dists, addrs, raw, splits = _parcel_table(layerset, parcels)
    if len(raw) == 0:
        return
    geoms, errors, _ = check_parcels(raw)
    gaps = coverage_gaps(layerset, geoms)
    rules = _minimums(settings)
    ok = np.array([e is None for e in errors], dtype=bool)
    cores = min(2, os.cpu_count() or 1)
    pieces = worst = None
    if ok.any():
        good = geoms[ok].astype(object)
        bounds = shapely.total_bounds(good)
        ptree = shapely.STRtree(good)
        kw = dict(buffer_width_ft=float(settings.buffer_width_ft), tile_cells=tile_cells, on=as_of,
                  buffer_water_bodies=bool(getattr(settings, "buffer_around_water_bodies", True)),
                  workers=workers if workers is not None else (cores if len(raw) >= _PARALLEL_BUILD_MIN_PARCELS else 1))
        pieces = build_pieces(layerset, bounds, needed=lambda tile: len(ptree.query(tile, predicate="intersects")) > 0,
                              **kw)
        # The parcels a layer a deduction reads leaves part of: their floor reads the worst case of that land,
        # measured by the same sweep over the worst case's pieces (only where such parcels lie).
        at = [i for i in worst_positions(gaps) if ok[i]]
        if at:
            wtree = shapely.STRtree(geoms[at].astype(object))
            worst = build_pieces(layerset, shapely.total_bounds(geoms[at].astype(object)), worst=True,
                                 needed=lambda tile: len(wtree.query(tile, predicate="intersects")) > 0, **kw)
    wanted = np.zeros(len(raw), dtype=bool)
    if worst is not None:
        wanted[worst_positions(gaps)] = True
    if workers is None:
        workers = cores if len(raw) >= _PARALLEL_MIN_PARCELS else 1
    if workers > 1:  # at least one block per process (a parcel's areas do not depend on its block)
        block_size = min(block_size, -(-len(raw) // workers))
    spans = [(start, min(start + block_size, len(raw))) for start in range(0, len(raw), block_size)]
    if workers > 1 and len(spans) > 1 and "fork" in mp.get_all_start_methods():
        # Workers inherit the pieces and parcels by fork; only block numbers and area tables (or, for the CSV,
        # the block's lines: the rows made where they were measured) travel.
        _SHARED.update(pieces=pieces, geoms=geoms, errors=list(errors), worst=worst, wanted=wanted,
                       rows=(settings, rules, ids, dists, addrs, splits, gaps, layerset))
        try:
            with mp.get_context("fork").Pool(workers) as pool:
                if text:
                    yield from pool.imap(_csv_of_span, spans)
                    return
                for (start, stop), (areas, failed, worst_areas) in zip(spans, pool.imap(_areas_of_span, spans)):
                    for i in failed:
                        errors[i] = _MEASURE_ERROR
                    yield list(_block_rows(pieces, settings, rules, ids, dists, addrs, geoms, errors, areas,
                                           start, stop, splits, gaps, layerset, (worst, worst_areas)))
        finally:
            _SHARED.clear()
        return
    for start, stop in spans:
        areas, failed, worst_areas = _span_areas(pieces, geoms, errors, start, stop, worst, wanted)
        for i in failed:
            errors[i] = _MEASURE_ERROR
        if text:
            cells = _block_cells(pieces, settings, rules, ids, dists, addrs, geoms, errors, areas, start, stop,
                                 splits, gaps, layerset, (worst, worst_areas))
            out = io.StringIO()
            csv.writer(out).writerows(cells)
            yield out.getvalue(), len(cells)
            continue
        yield list(_block_rows(pieces, settings, rules, ids, dists, addrs, geoms, errors, areas, start, stop, splits,
                               gaps, layerset, (worst, worst_areas)))


_MEASURE_ERROR = "The parcel's shape could not be measured against the layers."
_PARALLEL_MIN_PARCELS = 500
_PARALLEL_BUILD_MIN_PARCELS = 500
_SHARED: dict = {}


def _areas_of_span(span):
    start, stop = span
    return _span_areas(_SHARED["pieces"], _SHARED["geoms"], _SHARED["errors"], start, stop, _SHARED["worst"],
                       _SHARED["wanted"])


def _csv_of_span(span) -> tuple[str, int]:
    """The CSV lines of the parcels [start, stop), measured and written in this (pool) process, and how many
    rows they are."""
    start, stop = span
    errors = _SHARED["errors"]  # this process's copy: the block's own failures are marked in it
    areas, failed, worst_areas = _areas_of_span(span)
    for i in failed:
        errors[i] = _MEASURE_ERROR
    settings, rules, ids, dists, addrs, splits, gaps, layerset = _SHARED["rows"]
    cells = _block_cells(_SHARED["pieces"], settings, rules, ids, dists, addrs, _SHARED["geoms"], errors, areas,
                         start, stop, splits, gaps, layerset, (_SHARED["worst"], worst_areas))
    out = io.StringIO()
    csv.writer(out).writerows(cells)
    return out.getvalue(), len(cells)


def _span_areas(pieces, geoms, errors, start, stop, worst=None, wanted=None) -> tuple[dict, list, dict]:
    """Areas per piece kind for the parcels [start, stop) that passed the checks; those that failed; and the
    areas in the ``worst`` case's pieces of those of them ``wanted`` (a coverage gap leaves part of them)."""
    sel = [i for i in range(start, stop) if errors[i] is None]
    if not sel:
        return {}, [], {}
    areas, failed = _areas_in(pieces, geoms, sel)
    at = [i for i in sel if wanted is not None and wanted[i] and i in areas]
    # A parcel whose worst case cannot be measured keeps the rules' own floor.
    worst_areas = _areas_in(worst, geoms, at)[0] if worst is not None and at else {}
    return areas, failed, worst_areas


def _areas_in(pieces, geoms, sel) -> tuple[dict, list]:
    """{parcel: its areas per piece kind} and the parcels that could not be measured."""
    areas: dict = {}
    failed: list = []
    try:
        table = block_areas(pieces, geoms[sel].astype(object))
        areas = {i: table[j] for j, i in enumerate(sel)}
    except Exception:  # noqa: BLE001 - one bad shape spoils a bulk call: redo the block one parcel at a time
        for i in sel:
            try:
                areas[i] = block_areas(pieces, np.array([geoms[i]], dtype=object))[0]
            except Exception:  # noqa: BLE001 - reported in the row, the run goes on
                failed.append(i)
    return areas, failed


def _minimums(settings):
    """district code -> minimum lot area (None when unknown), read once per run."""
    cache: dict = {}

    def minimum(code) -> float:
        if code not in cache:
            d = settings.district(code) if code else None
            cache[code] = d.min_lot_area_sqft if d else None
        return cache[code]

    return minimum


def _block_columns(pieces, settings, minimum, dists, geoms, errors, areas, start, stop, splits=None, gaps=None,
                   layerset=None, worst=(None, None)) -> tuple[list, dict]:
    """The parcels [start, stop) measured (those that passed the checks and were measured) and their measured
    columns ({column: a list, one cell per such parcel})."""
    sel = [i for i in range(start, stop) if errors[i] is None and i in areas]
    cols: dict = {}
    if sel:
        table = np.vstack([areas[i] for i in sel])
        gross = shapely.area(geoms[sel].astype(object))
        raw = [minimum(_clean(dists[i]) or None) for i in sel]
        block_gaps = [gaps[i] for i in sel] if gaps else None
        cols = _block_figures(pieces, table, gross, np.array([math.nan if x is None else x for x in raw], dtype=float),
                              block_gaps, _worst_record(worst, sel, gross))
        cols["min_lot_area_sqft"] = ["" if x is None else x for x in raw]
        for i, cells in _split_yields(pieces, settings, minimum, geoms, splits, sel, layerset, cols).items():
            for k, v in cells.items():  # § 402-48I: a split parcel's yield is its parts' whole lots added
                cols[k][sel.index(i)] = v
    return sel, cols


def _block_rows(pieces, settings, minimum, ids, dists, addrs, geoms, errors, areas, start, stop,
                splits=None, gaps=None, layerset=None, worst=(None, None)) -> Iterable[dict]:
    sel, cols = _block_columns(pieces, settings, minimum, dists, geoms, errors, areas, start, stop, splits, gaps,
                               layerset, worst)
    at = {i: j for j, i in enumerate(sel)}
    names = list(cols)
    measured = list(zip(*cols.values())) if cols else []  # each parcel's cells, in the order of ``names``
    coverage: dict = {}  # a village has a handful of distinct gaps: each one's columns made once
    for i in range(start, stop):
        row = {"sbl": ids[i], "address": _clean(addrs[i]), "district": _clean(dists[i]),
               "districts": splits[i] if splits else ""}
        if i in at:
            row.update(zip(names, measured[at[i]]))
            gap = gaps[i] if gaps else ()
            if gap not in coverage:
                coverage[gap] = _coverage_columns(layerset, gap)
            row.update(coverage[gap])
        else:
            row["error"] = errors[i] or "The parcel could not be screened."
        yield row


def _block_cells(pieces, settings, minimum, ids, dists, addrs, geoms, errors, areas, start, stop,
                 splits=None, gaps=None, layerset=None, worst=(None, None)) -> list[tuple]:
    """The rows of `_block_rows` as the CSV writes them: each a tuple of cells in the order of
    `SCREEN_COLUMNS` (a column a row lacks: ""), made column by column rather than row by row."""
    sel, cols = _block_columns(pieces, settings, minimum, dists, geoms, errors, areas, start, stop, splits, gaps,
                               layerset, worst)
    measured = iter(())
    if sel:
        coverage: dict = {}  # a village has a handful of distinct gaps: each one's columns made once
        for i in sel:
            gap = gaps[i] if gaps else ()
            if gap not in coverage:
                coverage[gap] = _coverage_columns(layerset, gap)
        cov = [coverage[gaps[i] if gaps else ()] for i in sel]
        fixed = {"sbl": [ids[i] for i in sel], "address": [_clean(addrs[i]) for i in sel],
                 "district": [_clean(dists[i]) for i in sel],
                 "districts": [splits[i] for i in sel] if splits else [""] * len(sel)}
        seqs = []
        for c in SCREEN_COLUMNS:
            if c in fixed:
                seqs.append(fixed[c])
            elif c in cov[0]:
                seqs.append([d[c] for d in cov])
            else:
                seqs.append(cols.get(c, [""] * len(sel)))
        measured = zip(*seqs, strict=True)
    at = set(sel)
    out = []
    for i in range(start, stop):
        if i in at:
            out.append(next(measured))
        else:
            out.append((ids[i], _clean(addrs[i]), _clean(dists[i]), splits[i] if splits else "")
                       + ("",) * (len(SCREEN_COLUMNS) - 5) + (errors[i] or "The parcel could not be screened.",))
    return out


def _worst_record(worst, sel: list, gross: np.ndarray) -> tuple | None:
    """(positions in the block, their record in the worst case of their coverage gaps) for the parcels of the
    block measured in the worst case's pieces (``worst``: the pieces and {parcel: areas per piece kind})."""
    pieces, areas = worst
    at = [j for j, i in enumerate(sel) if areas and i in areas]
    if pieces is None or not at:
        return None
    return at, worst_measures(pieces, np.vstack([areas[sel[j]] for j in at]), gross[at])


def _coverage_columns(layerset, gaps: tuple[str, ...]) -> dict[str, str]:
    """Each role's coverage state on one parcel, as the single-parcel answer says it: no layer, not
    covered (the parcel reaches outside what the layer maps), or covered and how that is known."""
    out = {}
    for role in (*RESOURCE_ROLES, *OVERLAY_ROLES, *roles_of_kind("outcrops")):
        if layerset is None or layerset.get(role) is None:
            out[f"coverage_{role}"] = "no layer (unknown)"
        elif role in gaps:
            out[f"coverage_{role}"] = "not covered (unknown)"
        else:
            state = getattr(layerset, "coverage_state", lambda r: None)(role) or ""
            out[f"coverage_{role}"] = "covered" + (f"; {state}" if state else "")
    return out




def screen_to_csv(layerset, out_path, settings=None, *, parcels=None, progress=None, **kw) -> int:
    """Write the screening CSV, streaming rows as they are computed; returns the number of parcels.

    ``progress``, if given, is called with 1 after each row (e.g. a tqdm bar's ``update``).
    """
    out = Path(out_path)
    if out.parent and not out.parent.exists():
        raise SloatInputError(f"The folder for '{out_path}' does not exist.")
    n = 0
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)  # what csv.DictWriter writes (restval "", extra keys ignored), without its checks
        w.writerow(SCREEN_COLUMNS)
        for text, done in _screen_blocks(layerset, settings, parcels=parcels, text=True, **kw):
            fh.write(text)  # the block's lines (`_block_cells`), written where it was measured
            n += done
            if progress is not None:
                for _ in range(done):
                    progress(1)
    return n
