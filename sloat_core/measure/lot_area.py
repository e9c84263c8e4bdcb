"""A parcel's land cut into the rows of the § 402-45 deduction table, each piece in one row.

**Overlaps count once.** Each piece of land counts at the lowest share among the constraints covering it.
The table gives each piece to one row: rows are taken in `deduction_order` (lowest share first, then the
fixed order of `DEDUCTION_ROWS`), each row takes the part of its constraint not already taken by an
earlier row. So a buffer on a 30 % slope is one piece at 50 %, floodplain inside a wetland is deducted
once (as wetland), and the deducted column sums exactly to gross minus net. The law over the rows (the
shares, the net and its worst case) is :mod:`sloat_core.rules.deductions`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import EMPTY, GRID_FT, area_sqft, polygonal
from sloat_core.law.params import param, value
from sloat_core.measure.parcel import Findings, findings_areas, findings_uncovered
from sloat_core.measure.record import NAN, Measures, slope_sets
from sloat_core.measure.rows import ROW_IDS, SLOPE_ROWS, RowSpec, deduction_label, deduction_order

__all__ = ["DeductionRow", "LotArea", "measure_lot_area"]


@dataclass(frozen=True)
class DeductionRow:
    constraint: str
    label: str
    area_sqft: float | None  # land given to this row (each piece in one row); None = unknown
    total_area_sqft: float | None  # all of this constraint inside the parcel, overlaps included
    countable_fraction: float
    deducted_sqft: float | None
    citation: str
    #: The land given to this row as a shape, or a function building it (see `geometry`).
    shape: object = field(default=None, repr=False, compare=False)
    #: An unknown row whose layer maps the parcel only in part: the land it does map, given to this row (the
    #: row holds at least this much; the rest of the parcel is unknown for it). None otherwise.
    known_area_sqft: float | None = None

    @property
    def known_deducted_sqft(self) -> float | None:
        """What the land the layer maps deducts (`known_area_sqft` x (1 - share)); None when not so known."""
        return None if self.known_area_sqft is None else self.known_area_sqft * (1.0 - self.countable_fraction)

    @property
    def geometry(self) -> BaseGeometry | None:
        """The land given to this row (EPSG:2260); None when unknown.

        Built on first use: the areas never need it, maps, exports and the report do.
        """
        if callable(self.shape):
            object.__setattr__(self, "shape", self.shape())
        return self.shape

    def to_dict(self) -> dict:
        out = {
            "constraint": self.constraint,
            "label": self.label,
            "area_sqft": _r(self.area_sqft),
            "total_area_sqft": _r(self.total_area_sqft),
            "countable_fraction": self.countable_fraction,
            "deducted_sqft": _r(self.deducted_sqft),
            "citation": self.citation,
            "status": "unknown" if self.area_sqft is None else "known",
        }
        if self.area_sqft is None and self.known_area_sqft is not None:
            # Unknown, but at least this much: the land the layer maps (the top of the net counts it).
            out["known_area_sqft"] = _r(self.known_area_sqft)
            out["known_deducted_sqft"] = _r(self.known_deducted_sqft)
        return out


@dataclass(frozen=True)
class LotArea:
    gross_area_sqft: float
    rows: tuple[DeductionRow, ...]
    net_lot_area_sqft: float
    #: The lowest the net could be if every unknown turned out constrained (equals net when all is known).
    net_lot_area_min_sqft: float
    #: The land no row takes, as a shape or a function building it (see `unconstrained`).
    remaining_shape: object = field(default=None, repr=False, compare=False)
    #: How each row with land was measured: ("shape", U before, U after, cells taken before, share) or
    #: ("cells", U before, None, its cells, share); see `lot_area`. Read by `deducted_in`.
    steps: tuple = field(default=(), repr=False, compare=False)
    grid: object = field(default=None, repr=False, compare=False)
    #: The parcel's measures record (rows, areas, unknown parts): what the land-only rules read.
    measures: Measures | None = field(default=None, repr=False, compare=False)

    @property
    def unconstrained(self) -> BaseGeometry:
        """The land no deduction row takes (EPSG:2260), built on first use."""
        if callable(self.remaining_shape):
            object.__setattr__(self, "remaining_shape", self.remaining_shape())
        return self.remaining_shape

    @property
    def deducted_sqft(self) -> float:
        """Gross less net: each known row's deduction, and what an unknown row's land that a layer maps deducts."""
        return sum((r.deducted_sqft if r.deducted_sqft is not None else r.known_deducted_sqft) or 0.0
                   for r in self.rows)

    def deducted_in(self, part: BaseGeometry) -> float:
        """Square feet deducted inside ``part`` of the parcel (a zoning district's portion, § 402-48I).

        The same measures as the whole table, each taken inside the part: deductions add up over parts.
        """
        cut: dict[int, BaseGeometry] = {}

        def inside(g: BaseGeometry) -> BaseGeometry:
            if g is part:
                return part
            if id(g) not in cut:
                cut[id(g)] = g if g.is_empty else polygonal(shapely.intersection(g, part))
            return cut[id(g)]

        def on_cells(g: BaseGeometry, cells) -> float:
            g = inside(g)
            return 0.0 if g.is_empty or cells is None else self.grid.area_sqft(g, cells=cells)

        total = 0.0
        for step in self.steps:
            if step[0] == "cells":
                _, before, _, cells, share = step
                land = on_cells(part, cells) - on_cells(before, cells)
            else:
                _, before, after, cells, share = step
                land = area_sqft(inside(after)) - area_sqft(inside(before))
                if cells is not None:
                    land -= on_cells(after, cells) - on_cells(before, cells)
            total += _clean(land) * (1.0 - share)
        return total

    @property
    def fully_known(self) -> bool:
        return math.isclose(self.net_lot_area_sqft, self.net_lot_area_min_sqft, abs_tol=0.5)


def _r(x):
    return None if x is None else round(float(x), 2)


def _vector_geometry(f: Findings, row: RowSpec) -> BaseGeometry | None:
    """The land of a layer row in the findings (None when unknown), by where the row's land comes from."""
    if row.land == "layer":
        return f.layers[row.role]
    if row.land == "buffer":
        return f.buffer
    if row.land == "outcrops":
        return f.outcrops_counted
    raise KeyError(row.id)


def _slopes_unknown(f: Findings) -> bool:
    """True when slopes are unknown on the whole parcel: no elevation model, or not one valid cell on it."""
    if f.slope is None:
        return True
    known = sum(v for k, v in f.slope_area_sqft.items() if k != "unknown")
    return known <= 0.5


#: Areas within this many square feet of zero are zero (rounding of differences of large areas).
_NOISE_SQFT = 1e-6


def _clean(area: float) -> float:
    return 0.0 if area < _NOISE_SQFT else area


def measure_lot_area(f: Findings, net_lot_area, net_lot_area_floor) -> LotArea:
    """The § 402-45 deduction table for a parcel's findings, its net lot area by the rules' functions.

    ``net_lot_area`` and ``net_lot_area_floor`` are the rules' (:mod:`sloat_core.rules.deductions`): the
    law over the measures record this builds; the measuring knows no rule.

    How it is measured: a layer's land is a shape, a slope class is a set of DEM cells. Rows are taken
    in order (lowest share first); ``U`` is the union of the shapes of the rows taken so far.

    * A row of shapes gets ``area(U | C) - area(U)``: the part of its shape ``C`` no earlier shape
      took, less the part of that on cells an earlier slope row took.
    * A row of cells gets the parcel's share of its cells not taken before, less ``U``'s share of them
      (:meth:`SlopeGrid.area_sqft`: exact shares of cells, measured along the outlines).

    Each row is a difference of two measures of nested sets, so the rows add up to the union of all
    constraints exactly and no land can be counted twice. Cells never become polygons here; the rows'
    shapes (`DeductionRow.geometry`) are built only when a map, an export or the report asks for them.
    """
    parcel = f.parcel
    gross = f.gross_area_sqft
    slopes_unknown = _slopes_unknown(f)
    grid = None if slopes_unknown else f.slope
    union: BaseGeometry = EMPTY  # the shapes taken so far
    taken = None  # cells taken by slope rows so far
    rows = []
    steps = []
    shapes_taken: dict[str, tuple[BaseGeometry, BaseGeometry]] = {}  # row -> (U before, U after)

    def on_cells(g: BaseGeometry, cells) -> float:
        return 0.0 if g.is_empty or cells is None else grid.area_sqft(g, cells=cells)

    on = f.as_of  # the date the law is applied at: the shares, their order and the slope sets then
    for spec in deduction_order(on):
        constraint, share_name = spec.id, spec.share
        label = deduction_label(constraint, on)
        share = float(value(share_name, on))
        citation = param(share_name, on).citation
        if constraint in SLOPE_ROWS:
            if slopes_unknown:
                rows.append(DeductionRow(constraint, label, None, None, share, None, citation))
                continue
            cells = grid.mask(**slope_sets(on)[constraint])
            new = cells if taken is None else cells & ~taken
            area = _clean(on_cells(parcel, new) - on_cells(union, new))
            total = on_cells(parcel, cells)
            if area > 0:
                steps.append(("cells", union, None, new, share))
            taken = cells if taken is None else taken | cells
        else:
            geom = _vector_geometry(f, spec)
            if geom is None:
                hidden = f.unknown_land.get(constraint)
                known = None
                if hidden is not None:  # unknown row, its mapped land still taken and measured as a row's
                    grown = union
                    if not hidden.is_empty:
                        grown = hidden if union.is_empty else polygonal(shapely.union(union, hidden))
                    known = _clean(area_sqft(grown) - area_sqft(union))
                    if known > 0 and taken is not None:
                        known = _clean(known - (on_cells(grown, taken) - on_cells(union, taken)))
                    if known > 0:  # deducted in the best case of the gap: the parts' nets (§ 402-48I) count it
                        steps.append(("shape", union, grown, taken, share))
                    union = grown
                rows.append(DeductionRow(constraint, label, None, None, share, None, citation, known_area_sqft=known))
                continue
            total = area_sqft(geom)
            grown = union
            if total > 0:
                grown = geom if union.is_empty else polygonal(shapely.union(union, geom))
            area = _clean(area_sqft(grown) - area_sqft(union))
            if area > 0 and taken is not None:
                area = _clean(area - (on_cells(grown, taken) - on_cells(union, taken)))
            if area > 0:
                steps.append(("shape", union, grown, taken, share))
            shapes_taken[constraint] = (union, grown)
            union = grown
        rows.append(DeductionRow(constraint, label, area, total, share, area * (1.0 - share), citation))
    build = _shapes(f)
    rows = [replace(r, shape=(lambda c=r.constraint: build()[0][c])) if r.area_sqft is not None else r
            for r in rows]
    # Present the rows in the fixed order of the law's text, whatever the shares.
    position = {c: i for i, c in enumerate(ROW_IDS)}
    rows.sort(key=lambda r: position[r.constraint])
    m = _measures(f, rows, shapes_taken, union)
    if any(r.area_sqft is None and r.known_area_sqft is not None for r in rows):
        # A layer leaves part of the parcel out: the table in the best case of that land (none of it is the
        # layer's constraint), each unknown row holding the land the layer does map. The net reads it.
        m = replace(m, best=replace(m, rows={
            r.constraint: r.known_area_sqft if r.area_sqft is None and r.known_area_sqft is not None
            else m.rows[r.constraint] for r in rows}))
    if f.worst is not None:  # a layer leaves part of the parcel out: the table in the worst case of that land
        m = replace(m, worst=measure_lot_area(f.worst, net_lot_area, net_lot_area_floor).measures)
    net = net_lot_area(m)
    floor = net_lot_area_floor(m)
    return LotArea(gross, tuple(rows), net, floor, lambda: build()[1], tuple(steps), grid, m)


def _measures(f: Findings, rows, shapes_taken, union) -> Measures:
    """The parcel's measures record: the rows' land, the layers' areas, and where slope is unknown.

    Cells taken by slope rows have a known slope, so land of unknown slope lies only in the layer
    rows' shapes or in no row; every measure here is additive, so each row's unknown land is the
    difference of two nested unions' measures.
    """

    def unknown_in(g: BaseGeometry) -> float:
        return 0.0 if g.is_empty else f.slope_area_sqft_in("unknown", g)

    parcel_unknown = f.slope_area_sqft_in("unknown")
    free = 0.0
    row_unknown: dict[str, float] = {}
    if parcel_unknown > 0:
        free = _clean(parcel_unknown - unknown_in(union))
        for r in rows:
            if r.constraint in shapes_taken and r.countable_fraction > 0 and r.area_sqft:
                before, after = shapes_taken[r.constraint]
                row_unknown[r.constraint] = _clean(unknown_in(after) - unknown_in(before))
    return Measures(
        gross_area_sqft=f.gross_area_sqft,
        rows={r.constraint: (NAN if r.area_sqft is None else r.area_sqft) for r in rows},
        areas=findings_areas(f, {r.constraint: r.total_area_sqft for r in rows
                                 if r.constraint in SLOPE_ROWS and r.total_area_sqft is not None}),
        slope_unknown_sqft=parcel_unknown,
        slope_unknown_free_sqft=free,
        row_slope_unknown_sqft=row_unknown,
        uncovered_sqft=findings_uncovered(f),
        evidence={"names": f.feature_names, "outcrop_sizes_sqft": tuple(f.outcrop_sizes_sqft)},
        as_of=f.as_of,
    )


def _shapes(f: Findings):
    """A function returning ({constraint: land given to the row}, land left), built once on first call."""
    built: list = []

    def build():
        if not built:
            remaining = f.parcel
            out = {}
            for spec in deduction_order(f.as_of):
                constraint = spec.id
                if spec.land == "slope":
                    geom = None if _slopes_unknown(f) else f.slope_regions[constraint]
                else:
                    geom = _vector_geometry(f, spec)
                if geom is None:
                    geom = f.unknown_land.get(constraint)  # taken, though its row is unknown
                    if geom is None:
                        continue
                    piece = EMPTY if geom.is_empty or remaining.is_empty else polygonal(
                        shapely.intersection(geom, remaining, grid_size=GRID_FT))
                    if not piece.is_empty:
                        remaining = polygonal(shapely.difference(remaining, piece, grid_size=GRID_FT))
                    continue
                piece = EMPTY if geom.is_empty or remaining.is_empty else polygonal(
                    shapely.intersection(geom, remaining, grid_size=GRID_FT))
                if not piece.is_empty:
                    remaining = polygonal(shapely.difference(remaining, piece, grid_size=GRID_FT))
                out[constraint] = piece
            built.append((out, remaining))
        return built[0]

    return build
