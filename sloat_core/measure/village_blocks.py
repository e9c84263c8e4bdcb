"""The village sweep's parcels: a block of parcels' areas in each constraint piece, their `Measures` record
(the one the single-parcel path builds, so the same rules read it) and the coverage gaps of each parcel.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import shapely

from sloat_core.measure.record import RESOURCE_ROLES, Measures
from sloat_core.measure.rows import DEDUCTION_ROWS, LAYER_ROWS, ROW_IDS, SLOPE_ROWS
from sloat_core.measure.village_cells import code_areas
from sloat_core.measure.village import _CODES, _K, _KINDS, _OUTCROP_ROLES, _SLOPE_SETS, _TOTAL_ROLES, ScreenPieces

__all__ = ["block_areas", "block_measures", "coverage_gaps", "with_worst", "worst_measures", "worst_positions"]


def block_areas(pieces: ScreenPieces, geoms: np.ndarray) -> np.ndarray:
    """(len(geoms), len(_KINDS)) areas of each parcel inside each piece kind: its areas in the pieces (a piece
    of sign -1 taken off its kind) plus, with a DEM, its areas on the cells of each slope code."""
    nb = len(geoms)
    k = len(_KINDS)
    totals = np.zeros(nb * k)
    if nb == 0:
        return totals.reshape(nb, k)
    if len(pieces.geoms):
        pi, pj = pieces.tree.query(geoms)
    else:
        pi = pj = np.zeros(0, dtype=np.intp)
    if len(pi):
        # A parcel wholly inside a piece (a quarter of the pairs for small lots) is measured by its own area:
        # the (prepared) containment test costs a small part of an intersection.
        whole = shapely.contains(pieces.geoms[pj], geoms[pi])
        areas = shapely.area(geoms[pi])
        cut = ~whole
        if pieces.boxes is not None:
            # A rectangle piece (a layer over a whole tile): the parcel clipped to it, no overlay needed.
            box = cut & pieces.boxes[pj]
            cut &= ~box
            if box.any():
                at = np.flatnonzero(box)
                order = at[np.argsort(pj[at], kind="stable")]
                starts = np.flatnonzero(np.r_[True, pj[order][1:] != pj[order][:-1]])
                for a, b in zip(starts, np.r_[starts[1:], len(order)], strict=True):
                    rows = order[a:b]
                    x0, y0, x1, y1 = pieces.geoms[pj[rows[0]]].bounds
                    areas[rows] = shapely.area(shapely.clip_by_rect(geoms[pi[rows]], x0, y0, x1, y1))
        areas[cut] = shapely.area(shapely.intersection(geoms[pi[cut]], pieces.geoms[pj[cut]]))
        if pieces.signs is not None:
            areas *= pieces.signs[pj]
        totals += np.bincount(pi * k + pieces.kinds[pj], weights=areas, minlength=nb * k)
    totals = totals.reshape(nb, k)
    if pieces.cells is not None:
        on_codes = code_areas(geoms, pieces.cells)
        for code, kind in zip(*np.nonzero(pieces.cell_kinds), strict=True):  # (not a matrix product: BLAS'
            totals[:, kind] += on_codes[:, code] * pieces.cell_kinds[code, kind]  # threads cost more here)
        # A slope row's cells less what the layer rows took can come out a rounding error below nothing.
        np.maximum(totals, 0.0, out=totals)
    return totals


def block_measures(pieces: ScreenPieces, a: np.ndarray, gross: np.ndarray, gaps: list | None = None,
                   worst: tuple | None = None) -> Measures:
    """The `Measures` record of a block of parcels (arrays, one value per parcel) from their areas per
    piece kind: the same record the single-parcel path builds, so the same rule functions read it.

    ``gaps`` lists, per parcel, the roles whose layer does not cover it: what depends on them is unknown
    for that parcel (as `measures.parcel_findings` makes them unknown), never measured as absent.
    ``worst`` (positions in the block, their record in the worst case of the coverage gaps: `worst_measures`)
    holds, for the parcels a gap leaves part of, what the floor of the net reads (`with_worst`).
    """
    return with_worst(_block_measures(pieces, a, gross, gaps), worst)


def worst_positions(gaps) -> list[int]:
    """Positions of the parcels a layer a deduction reads leaves part of (their floor reads the worst case)."""
    from sloat_core.measure.parcel import DEDUCTION_READS

    return [j for j, roles in enumerate(gaps or ()) if set(roles) & DEDUCTION_READS]


def worst_measures(worst_pieces: ScreenPieces, a: np.ndarray, gross: np.ndarray) -> Measures:
    """The record of parcels in the worst case of their layers' coverage, from their areas in the
    pieces `village.build_pieces` cuts with ``worst=True`` (`block_areas`): the record `parcel.parcel_findings` measures a parcel's
    ``worst`` findings into, parcel by parcel (each layer a deduction reads maps, besides what it maps, all
    the land outside its coverage; the buffer around the resources so grown)."""
    return _block_measures(worst_pieces, a, gross)


def with_worst(m: Measures, worst: tuple | None) -> Measures:
    """A block's record with its ``worst`` record: the block's own measures, but for the parcels of
    ``worst`` ((positions, their `worst_measures`)) the figures the floor of the net reads from that record.
    """
    if not worst or len(worst[0]) == 0:
        return m
    at, w = np.asarray(worst[0], dtype=np.intp), worst[1]

    def merged(base, got) -> np.ndarray:
        out = np.array(np.broadcast_to(base, np.shape(m.gross_area_sqft)), dtype=float)
        out[at] = np.broadcast_to(got, at.shape)
        return out

    return replace(m, worst=replace(
        m,
        rows={c: merged(m.rows[c], w.rows[c]) for c in ROW_IDS},
        slope_unknown_sqft=merged(m.slope_unknown_sqft, w.slope_unknown_sqft),
        slope_unknown_free_sqft=merged(m.slope_unknown_free_sqft, w.slope_unknown_free_sqft),
        row_slope_unknown_sqft={c: merged(m.row_slope_unknown_sqft.get(c, 0.0), w.row_slope_unknown_sqft.get(c, 0.0))
                                for c in LAYER_ROWS},
        worst=None,
        best=None,
    ))


def _block_measures(pieces: ScreenPieces, a: np.ndarray, gross: np.ndarray, gaps: list | None = None) -> Measures:
    """`block_measures` without the worst case of the coverage gaps."""
    known = pieces.known
    nan = np.full(len(gross), np.nan)
    unknown_at = {}  # kind -> parcels of the block where it is unknown (a coverage gap)
    for j, roles in enumerate(gaps or ()):
        for kind in _kinds_of_roles(tuple(roles)) if roles else ():
            unknown_at.setdefault(kind, []).append(j)

    def col(kind: str, gaps: bool = True) -> np.ndarray:
        if kind not in known:
            return nan
        if gaps and kind in unknown_at:
            out = a[:, _K[kind]].copy()
            out[unknown_at[kind]] = np.nan
            return out
        return a[:, _K[kind]]

    unknown = a[:, _K["unknown"]] if pieces.has_dem else gross
    rows = {cid: col(f"row:{cid}") for cid in ROW_IDS}
    # Slopes unknown on (nearly) all the parcel: the slope rows are unknown, as in `lot_area`.
    no_slope = (gross - unknown) <= 0.5
    for cid in SLOPE_ROWS:
        rows[cid] = np.where(no_slope, np.nan, rows[cid])
    areas = {role: col(f"total:{role}") for role in _TOTAL_ROLES}
    areas["wetland_region"] = col("wetland_region")
    areas["outcrops_cluster"] = col("outcrops_cluster")
    for bit, name in enumerate(_SLOPE_SETS):
        if pieces.has_dem:
            areas[name] = a[:, [_K[f"slope_code:{c}"] for c in _CODES if c & (1 << bit)]].sum(axis=1)
        else:
            areas[name] = nan
    uncovered = {}
    missing = [r for r in RESOURCE_ROLES if f"total:{r}" not in known]
    if missing and len(missing) < len(RESOURCE_ROLES):
        uncovered["wetland_region"] = gross  # as `measures.findings_uncovered`
    m = Measures(
        gross_area_sqft=gross,
        rows=rows,
        areas=areas,
        slope_unknown_sqft=unknown,
        slope_unknown_free_sqft=a[:, _K["unknown_free"]],
        row_slope_unknown_sqft={c: np.nan_to_num(col(f"unknown_row:{c}")) for c in LAYER_ROWS
                                if f"unknown_row:{c}" in known},
        uncovered_sqft=uncovered,
        as_of=pieces.as_of,
    )
    if any(k.startswith("row:") for k in unknown_at):
        # The best case of the coverage gaps (`Measures.best`): a row unknown for a gap holds the land its
        # layer maps on the parcel (its exclusive pieces, as the single-parcel path measures it).
        mapped = {cid: col(f"row:{cid}", gaps=False) for cid in ROW_IDS}
        for cid in SLOPE_ROWS:
            mapped[cid] = rows[cid]
        m = replace(m, best=replace(m, rows=mapped))
    return m


@functools.lru_cache(maxsize=256)
def _kinds_of_roles(roles: tuple) -> frozenset:
    """Piece kinds that depend on the given layer roles (removed from ``known`` where they do not cover):
    each role's total, the rows whose land is read from it (`RowSpec.reads`), and the wetland permit's
    region (resource roles) or the outcrops over the cluster trigger's size (outcrop roles). Cached: a
    village has a handful of distinct gaps."""
    out: set = set()
    for r in roles:
        out.add(f"total:{r}")
        out |= {f"{k}:{spec.id}" for spec in DEDUCTION_ROWS if r in spec.reads for k in ("row", "unknown_row")}
        if r in RESOURCE_ROLES:
            out.add("wetland_region")
        if r in _OUTCROP_ROLES:
            out.add("outcrops_cluster")
    return frozenset(out)


def coverage_gaps(layerset, geoms: np.ndarray) -> list[tuple[str, ...]]:
    """For each parcel, the roles whose coverage leaves more than 1 sq ft of it out.

    Roles that share one coverage (the sample's layers all declare the village boundary) are cut once."""
    gaps: list[list[str]] = [[] for _ in range(len(geoms))]
    coverages = getattr(layerset, "coverages", {}) or {}
    valid = np.array([g is not None and not g.is_empty for g in geoms], dtype=bool)
    by_cov: dict = {}  # one coverage -> its roles, in the roles' order
    for role in (*_TOTAL_ROLES, *_OUTCROP_ROLES):
        cov = coverages.get(role)
        if cov is None or layerset.get(role) is None:
            continue
        by_cov.setdefault(shapely.to_wkb(cov), (cov, []))[1].append(role)
    for cov, roles in by_cov.values():
        shapely.prepare(cov)
        inside = np.zeros(len(geoms), dtype=bool)
        meets = np.zeros(len(geoms), dtype=bool)
        inside[valid] = shapely.covers(cov, geoms[valid].astype(object))
        meets[valid] = shapely.intersects(cov, geoms[valid].astype(object))
        # A parcel wholly off the coverage is left out whole (no cut of the coverage's long outline needed).
        for i in np.nonzero(valid & ~meets)[0]:
            if geoms[i].area > 1.0:
                gaps[i].extend(roles)
        for i in np.nonzero(valid & meets & ~inside)[0]:
            try:
                if geoms[i].difference(cov).area > 1.0:
                    gaps[i].extend(roles)
            except Exception:  # noqa: BLE001 -- a shape GEOS cannot cut fails in the measuring step
                continue
    order = {r: k for k, r in enumerate((*_TOTAL_ROLES, *_OUTCROP_ROLES))}
    return [tuple(sorted(g, key=order.__getitem__)) for g in gaps]
