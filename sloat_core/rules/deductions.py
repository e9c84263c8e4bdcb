"""§ 402-45 Environmental constraints: the land that may not count toward minimum lot area.

Reading of the law encoded here:

* § 402-45A(1): ponds (water bodies), wetlands, watercourses and the FEMA 100-year floodplain count 0 %;
  no more than 50 % of a watercourse or wetland buffer counts.
* § 402-45A(2)(a): slopes *in excess of* 25 % count at most 50 %; (b) slopes *in excess of* 40 % count 0 %.
  A slope of exactly 25 % is not deducted; exactly 40 % is deducted at 50 %.
* § 402-45A(3): rock outcrops *in excess of* 50 sq ft count at most 50 %; an outcrop of exactly 50 sq ft
  or less is not a constraint. The size is the whole outcrop's, not only the part inside the parcel.

**Overlaps count once.** Each piece of land counts at the lowest share among the constraints covering it.
The table gives each piece to one row: rows are taken in `deduction_order` (lowest share first, then the
fixed order of `DEDUCTION_ROWS`), each row takes the part of its constraint not already taken by an earlier row. So a
buffer on a 30 % slope is one piece at 50 %, floodplain inside a wetland is deducted once (as wetland),
and the deducted column sums exactly to gross minus net.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.rules.measures import (NAN, Findings, Measures, findings_areas, findings_uncovered, slope_sets,
                                       tri)
from sloat_core.gis.geometry import EMPTY, GRID_FT, area_sqft, polygonal
from sloat_core.gis.roles import ROLE_DECLARATIONS, roles_of_kind
from sloat_core.law.params import fill, param, value

__all__ = ["RowSpec", "ROW_LANDS", "DEDUCTION_ROWS", "ROW_SPECS", "ROW_IDS", "row_on_map_layer", "DeductionRow", "LotArea", "lot_area", "conventional_yield", "GRID_FT",
           "deduction_order", "deduction_label", "SLOPE_ROWS", "LAYER_ROWS", "deducted_sqft", "net_lot_area", "net_lot_area_floor",
           "meets_minimum"]

@dataclass(frozen=True)
class RowSpec:
    """One row of the § 402-45 deduction table, declared once: everything else reads it.

    Attributes
    ----------
    id : str
        The row's constraint id (``"wetlands"``, ``"slope_25_40"``).
    label : str
        Plain label; a template whose law numbers are filled in from the parameters (`deduction_label`).
    share : str
        The parameter holding its countable share (§ 402-45A(1)-(3)).
    land : str
        Where its land comes from, one of `ROW_LANDS`: ``layer`` (the features of its role's layer),
        ``outcrops`` (its role's outcrops over the size, measured whole), ``buffer`` (the band around the
        resource layers), ``slope`` (the DEM cells of the slope set of the same name).
    words : str
        Everyday words for it (the counter, the printed summary; numbers come from the label).
    study : str
        Who settles it on the ground before an application (the answer card's next steps).
    """

    id: str
    label: str
    share: str
    land: str
    words: str
    study: str

    @property
    def role(self) -> str | None:
        """The layer role whose land this row counts (declared by the role, `LayerRole.deduction`)."""
        return _ROLE_OF_ROW.get(self.id)

    @property
    def reads(self) -> tuple[str, ...]:
        """The layer roles its land is drawn from (a coverage gap in one of them makes it unknown)."""
        if self.land == "buffer":
            return roles_of_kind("resource")
        return () if self.role is None else (self.role,)

    @property
    def map_layer(self) -> str | None:
        """The app's map layer that shows its land (its role, or the buffer band); None for a slope set."""
        if self.land == "slope":
            return None
        return self.role or self.id


#: Where a row's land comes from (see `RowSpec.land`).
ROW_LANDS = ("layer", "outcrops", "buffer", "slope")

_DELINEATION = "a wetland scientist to mark the wetland edge on the ground (a delineation)"
_TOPO = "a surveyor to map the ground's slopes (a topographic survey)"

#: The deduction rows in the order of the law's text. Ties in share keep this order.
DEDUCTION_ROWS: tuple[RowSpec, ...] = (
    RowSpec("water_bodies", "Ponds and other water bodies", "surface_water_countable_fraction", "layer",
            "ponds and other open water", "a surveyor to locate the pond edges"),
    RowSpec("watercourses", "Streams and watercourses", "surface_water_countable_fraction", "layer",
            "streams", "a surveyor to locate the stream banks"),
    RowSpec("wetlands", "Wetlands", "surface_water_countable_fraction", "layer", "wetland", _DELINEATION),
    RowSpec("floodplain", "100-year floodplain (FEMA)", "surface_water_countable_fraction", "layer",
            "flood zone", "a surveyor to check the flood zone line and ground levels (an elevation certificate)"),
    RowSpec("slope_over_40", "Slopes over {very_steep_slope_threshold_pct:g}%", "very_steep_slope_countable_fraction",
            "slope", "very steep ground", _TOPO),
    RowSpec("buffer", "Wetland and watercourse buffers", "buffer_countable_fraction", "buffer",
            "land next to a wetland or stream", _DELINEATION),
    RowSpec("slope_25_40", "Slopes over {steep_slope_deduction_threshold_pct:g}% up to {very_steep_slope_threshold_pct:g}%",
            "steep_slope_countable_fraction", "slope", "steep ground", _TOPO),
    RowSpec("rock_outcrops", "Rock outcrops over {rock_outcrop_min_area_sqft:,g} sq ft",
            "rock_outcrop_countable_fraction", "outcrops", "bare rock", "a surveyor to map the rock outcrops"),
)
#: Row id -> its declaration.
ROW_SPECS: dict[str, RowSpec] = {r.id: r for r in DEDUCTION_ROWS}
#: Row ids in the order of the law's text.
ROW_IDS: tuple[str, ...] = tuple(ROW_SPECS)
_ROLE_OF_ROW = {r.deduction: r.id for r in ROLE_DECLARATIONS if r.deduction is not None}


def row_on_map_layer(layer: str) -> RowSpec | None:
    """The deduction row whose land a map layer shows (a role, or the buffer band), or None.

    >>> row_on_map_layer("wetlands").id, row_on_map_layer("buffer").id, row_on_map_layer("aquifer_cea")
    ('wetlands', 'buffer', None)
    """
    return next((r for r in DEDUCTION_ROWS if r.map_layer == layer), None)


def deduction_label(constraint: str) -> str:
    """The plain label of a deduction row, its law numbers read from the parameters (§ 402-45A).

    >>> deduction_label("slope_25_40"), deduction_label("rock_outcrops")
    ('Slopes over 25% up to 40%', 'Rock outcrops over 50 sq ft')
    """
    return fill(ROW_SPECS[constraint].label)


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

    @property
    def geometry(self) -> BaseGeometry | None:
        """The land given to this row (EPSG:2260); None when unknown.

        Built on first use: the areas never need it, maps, exports and the report do.
        """
        if callable(self.shape):
            object.__setattr__(self, "shape", self.shape())
        return self.shape

    def to_dict(self) -> dict:
        return {
            "constraint": self.constraint,
            "label": self.label,
            "area_sqft": _r(self.area_sqft),
            "total_area_sqft": _r(self.total_area_sqft),
            "countable_fraction": self.countable_fraction,
            "deducted_sqft": _r(self.deducted_sqft),
            "citation": self.citation,
            "status": "unknown" if self.area_sqft is None else "known",
        }


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
        return sum(r.deducted_sqft or 0.0 for r in self.rows)

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


#: Rows that are sets of DEM cells (the rest are shapes from the layers).
SLOPE_ROWS = tuple(r.id for r in DEDUCTION_ROWS if r.land == "slope")
#: Rows that are shapes from the layers (and the buffer drawn around them).
LAYER_ROWS = tuple(r.id for r in DEDUCTION_ROWS if r.land != "slope")


def deduction_order() -> list[RowSpec]:
    """`DEDUCTION_ROWS` sorted by countable share (lowest first), ties in the fixed order.

    The order in which rows take land (§ 402-45: each piece counts once, at its lowest share). The
    single-parcel table and the bulk sweep both cut their pieces in this order.

    >>> [r.id for r in deduction_order()][:2]
    ['water_bodies', 'watercourses']
    """
    return [row for _, row in sorted(enumerate(DEDUCTION_ROWS), key=lambda item: (value(item[1].share), item[0]))]


def _share(constraint: str) -> float:
    return float(value(ROW_SPECS[constraint].share))


def _is_array(*xs) -> bool:
    return any(isinstance(x, np.ndarray) for x in xs)


def _unknown(x):
    return np.isnan(x) if isinstance(x, np.ndarray) else x != x


def _or_zero(x):
    return np.nan_to_num(x, nan=0.0) if isinstance(x, np.ndarray) else (0.0 if x != x else x)


def _at_least_zero(x):
    return np.maximum(x, 0.0) if isinstance(x, np.ndarray) else max(x, 0.0)


def deducted_sqft(m: Measures):
    """§ 402-45A: the land deducted from the gross area, Σ row land x (1 - countable share).

    Each row's land counts at its share (§ 402-45A(1)-(3)); an unknown row deducts nothing here (its
    worst case is in `net_lot_area_floor`).
    """
    return sum(_or_zero(m.rows[c]) * (1.0 - _share(c)) for c in ROW_IDS)


def net_lot_area(m: Measures):
    """§ 402-45A: net lot area, the gross area less the deductions (never below zero).

    >>> rows = {c: 0.0 for c in ROW_IDS} | {"wetlands": 10_000.0, "buffer": 4_000.0}
    >>> m = Measures(50_000.0, rows, {}, 0.0, 0.0, {})
    >>> net_lot_area(m)
    38000.0
    """
    return _at_least_zero(m.gross_area_sqft - deducted_sqft(m))


def net_lot_area_floor(m: Measures):
    """§ 402-45A: the lowest the net lot area could be if every unknown turned out constrained.

    Readings (worst case, stated so the answer is never a silent "no"):

    * a missing layer whose land counts 0 % (water bodies, watercourses, wetlands, floodplain,
      § 402-45A(1)) could cover everything: the floor is 0;
    * land of unknown slope could be over 40 % (§ 402-45A(2)(b), counts 0 %): land no row takes
      loses all, land in a row loses that row's countable share;
    * a missing outcrop layer (§ 402-45A(3)) could take its share of the land left, known slope;
    * land a loaded layer does not cover could be that layer's constraint (loses 1 - its share).

    >>> rows = {c: 0.0 for c in ROW_IDS} | {"rock_outcrops": NAN}
    >>> m = Measures(40_000.0, rows, {}, 0.0, 0.0, {})
    >>> net_lot_area_floor(m)
    20000.0
    """
    net = net_lot_area(m)
    loss = m.slope_unknown_free_sqft
    left = m.gross_area_sqft
    for c in LAYER_ROWS:
        left = left - _or_zero(m.rows[c])
    for c in SLOPE_ROWS:
        left = left - _or_zero(m.rows[c])
    extra = 0.0
    zero_floor = False
    for c in LAYER_ROWS:
        share = _share(c)
        unknown = _unknown(m.rows[c])
        if share == 0.0:
            zero_floor = zero_floor | unknown
        elif share < 1.0:
            loss = loss + share * m.row_slope_unknown_sqft.get(c, 0.0)
            cand = _at_least_zero(left - m.slope_unknown_free_sqft) * (1.0 - share)
            if _is_array(unknown):
                extra = np.maximum(extra, np.where(unknown, cand, 0.0))
            elif unknown:
                extra = max(extra, cand)
        loss = loss + (1.0 - share) * m.uncovered(c)
    floor = _at_least_zero(net - loss - extra)
    if _is_array(zero_floor, floor):
        return np.where(zero_floor, 0.0, floor)
    return 0.0 if zero_floor else floor


def meets_minimum(net, floor, minimum):
    """§ 402-45A: does the net lot area (what may be "counted as part of any minimum lot area") meet the
    district minimum? Yes when even the worst case does, no when the net itself falls short, else
    unknown; unknown without a minimum (the minimum itself is a local setting, not Article IX's).

    >>> meets_minimum(45_000.0, 45_000.0, 40_000), meets_minimum(39_000.0, 39_000.0, 40_000)
    (True, False)
    >>> meets_minimum(45_000.0, 30_000.0, 40_000), meets_minimum(45_000.0, 45_000.0, None)
    (None, None)
    """
    if minimum is None:
        return tri(np.zeros_like(net, dtype=bool), np.zeros_like(net, dtype=bool)) if _is_array(net) else None
    return tri(floor >= minimum, net < minimum)


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


def lot_area(f: Findings) -> LotArea:
    """The § 402-45 deduction table and net lot area for a parcel's findings.

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

    for spec in deduction_order():
        constraint, share_name = spec.id, spec.share
        label = deduction_label(constraint)
        share = float(value(share_name))
        citation = param(share_name).citation
        if constraint in SLOPE_ROWS:
            if slopes_unknown:
                rows.append(DeductionRow(constraint, label, None, None, share, None, citation))
                continue
            cells = grid.mask(**slope_sets()[constraint])
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
                if hidden is not None and not hidden.is_empty:  # unknown row, its mapped land still taken
                    union = hidden if union.is_empty else polygonal(shapely.union(union, hidden))
                rows.append(DeductionRow(constraint, label, None, None, share, None, citation))
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
    )


def _shapes(f: Findings):
    """A function returning ({constraint: land given to the row}, land left), built once on first call."""
    built: list = []

    def build():
        if not built:
            remaining = f.parcel
            out = {}
            for spec in deduction_order():
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


def conventional_yield(net_area_sqft: float, min_lot_area_sqft: float | None) -> int | None:
    """How many lots of the district minimum the net area could hold (a screening estimate only).

    The Planning Board decides yield from a conventional subdivision plat (§ 402-48E); roads,
    lot shapes and health-department rules lower it.

    >>> conventional_yield(95_000, 40_000)
    2
    >>> conventional_yield(95_000, None) is None
    True
    """
    if not min_lot_area_sqft or min_lot_area_sqft <= 0:
        return None
    return int(math.floor(net_area_sqft / min_lot_area_sqft + 1e-9))
