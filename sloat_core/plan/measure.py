"""The plan's land measured once, each lot's land cut from it.

The layers and the elevation model are read once for the whole plan (the parcel and every lot, as one
area: `plan_findings`); each lot's findings are that record clipped to the lot (`lot_findings`), so a
40-lot plat costs one parcel's reading plus forty cheap cuts. The cut gives the same land as measuring the
lot on its own: every layer's land, the buffer band (built around the same resources), the outcrops split
by their whole size, and the slope cells of the same grid.
"""

from __future__ import annotations

import datetime as dt

from dataclasses import replace

import math

import shapely
from affine import Affine
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import EMPTY, GRID_FT, area_sqft, polygonal
from sloat_core.law.params import value
from sloat_core.gis.slope_grid import SlopeGrid
from sloat_core.measure.parcel import DEDUCTION_READS, OUTCROPS_ROLE, Findings, SlopeRegions, parcel_findings
from sloat_core.measure.record import RESOURCE_ROLES

__all__ = ["plan_findings", "lot_findings", "snapped"]


def snapped(geom: BaseGeometry) -> BaseGeometry:
    """The outline on the overlay grid, as `parcel_findings` snaps a parcel (one precision for every cut)."""
    out = polygonal(shapely.set_precision(geom, GRID_FT))
    return geom if out.is_empty else out


def plan_findings(area: BaseGeometry, layerset, settings, on: dt.date) -> Findings:
    """What the layers and the elevation model say about the whole plan's land, read once; the law applied as
    in effect on ``on`` (the check's ``as_of``)."""
    return parcel_findings(area, layerset, buffer_width_ft=float(settings.buffer_width_ft),
                           buffer_water_bodies=bool(getattr(settings, "buffer_around_water_bodies", True)), on=on)


def _cut(geom: BaseGeometry | None, lot: BaseGeometry) -> BaseGeometry | None:
    """``geom`` inside the lot; None stays None (unknown), no land stays empty."""
    if geom is None:
        return None
    if geom.is_empty or not shapely.intersects(geom, lot):
        return EMPTY
    return polygonal(shapely.intersection(geom, lot))


def _cluster_outcrops(f: Findings, lot: BaseGeometry, counted: BaseGeometry | None) -> float | None:
    """The lot's land of outcrops over the § 402-48C(9) size (their whole size, as for a parcel)."""
    if f.outcrops_cluster_sqft is None or counted is None:
        return None
    if f.outcrops_cluster_sqft <= 0.0:
        return 0.0
    if float(value("cluster_rock_outcrop_min_area_sqft", f.as_of)) <= float(value("rock_outcrop_min_area_sqft", f.as_of)):
        whole = [g for g in (counted, _cut(f.outcrops_small, lot)) if g is not None and not g.is_empty]
        return area_sqft(shapely.union_all(whole)) if whole else 0.0
    return None  # the cluster size is larger than the deduction's: not told apart by the cut


def _window(grid: SlopeGrid | None, lot: BaseGeometry) -> SlopeGrid | None:
    """The plan's slope grid cropped to the cells around the lot (the same slopes, a small window): what is
    measured on the lot's cells then never scans the whole plan's grid."""
    if grid is None or grid.slope_pct.size == 0:
        return grid
    minx, miny, maxx, maxy = lot.bounds
    inv = ~grid.transform
    cols, rows = zip(*(inv * (x, y) for x in (minx, maxx) for y in (miny, maxy)), strict=True)
    n_rows, n_cols = grid.slope_pct.shape
    r0, r1 = max(math.floor(min(rows)) - 1, 0), min(math.ceil(max(rows)) + 1, n_rows)
    c0, c1 = max(math.floor(min(cols)) - 1, 0), min(math.ceil(max(cols)) + 1, n_cols)
    if r0 >= r1 or c0 >= c1:
        return grid
    return SlopeGrid(lot, grid.slope_pct[r0:r1, c0:c1], grid.transform * Affine.translation(c0, r0), grid.dem_path)


def _known_on_lot(out: Findings, lot: BaseGeometry, layerset) -> Findings:
    """A layer that does not map all the plan's land may map all of this lot: its land is then known here (as
    when the lot is measured alone), and so is the buffer when every water layer maps the lot."""
    gapped = [role for role in out.unknown_land if role != "buffer"]
    if not gapped or not hasattr(layerset, "coverage_gaps"):
        return out
    still = set(layerset.coverage_gaps(lot, gapped))
    for role in gapped:
        if role in still:
            continue
        land = out.unknown_land.pop(role)
        if role == OUTCROPS_ROLE:
            out.outcrops_counted, out.outcrops_small, out.outcrops_cluster_sqft = land, EMPTY, None
        else:
            out.layers[role] = land
    if "buffer" in out.unknown_land and not still & set(RESOURCE_ROLES):
        out.buffer = out.unknown_land.pop("buffer")
    if not still & DEDUCTION_READS:
        out.worst = None
    return out


def lot_findings(f: Findings, lot: BaseGeometry, layerset=None) -> Findings:
    """The findings of one lot (snapped), cut from the plan's findings ``f``; the lot lies inside ``f.parcel``.
    ``layerset``: where a layer maps only part of the plan's land, whether it maps all of this lot."""
    counted = _cut(f.outcrops_counted, lot)
    grid = _window(f.slope, lot)
    if grid is not None:
        slope_area = grid.class_areas_sqft(lot, on=f.as_of)
    else:
        slope_area = {k: (area_sqft(lot) if k == "unknown" else 0.0) for k in f.slope_area_sqft}
    regions = SlopeRegions(grid, f.as_of) if grid is not None else {**{k: EMPTY for k in f.slope_regions}, "unknown": lot}
    layers = {role: _cut(g, lot) for role, g in f.layers.items()}
    names = {role: f.feature_names.get(role, []) for role, g in layers.items() if g is not None and not g.is_empty}
    out = Findings(
        parcel=lot,
        gross_area_sqft=area_sqft(lot),
        layers=layers,
        outcrops_counted=counted,
        outcrops_small=_cut(f.outcrops_small, lot),
        outcrop_sizes_sqft=list(f.outcrop_sizes_sqft) if counted is not None and not counted.is_empty else [],
        outcrops_cluster_sqft=_cluster_outcrops(f, lot, counted),
        buffer=_cut(f.buffer, lot),
        buffer_width_ft=f.buffer_width_ft,
        slope=grid,
        slope_area_sqft=slope_area,
        slope_regions=regions,
        feature_names=names,
        warnings=[],
        unknown_land={role: _cut(g, lot) for role, g in f.unknown_land.items()},
        as_of=f.as_of,
    )
    if f.worst is not None:
        out.worst = replace(out, layers={role: _cut(g, lot) for role, g in f.worst.layers.items()},
                            outcrops_counted=_cut(f.worst.outcrops_counted, lot), buffer=_cut(f.worst.buffer, lot),
                            unknown_land={}, feature_names={}, warnings=[], worst=None)
    return _known_on_lot(out, lot, layerset) if out.unknown_land else out
