"""§ 402-45 Environmental constraints: the land that may not count toward minimum lot area.

Reading of the law encoded here:

* § 402-45A(1): ponds (water bodies), wetlands, watercourses and the FEMA 100-year floodplain count 0 %;
  no more than 50 % of a watercourse or wetland buffer counts.
* § 402-45A(2)(a): slopes *in excess of* 25 % count at most 50 %; (b) slopes *in excess of* 40 % count 0 %.
  A slope of exactly 25 % is not deducted; exactly 40 % is deducted at 50 %.
* § 402-45A(3): rock outcrops *in excess of* 50 sq ft count at most 50 %; an outcrop of exactly 50 sq ft
  or less is not a constraint. The size is the whole outcrop's, not only the part inside the parcel.

**Overlaps count once.** Each piece of land counts at the lowest share among the constraints covering it.
The table gives each piece to one row: rows are taken in `DEDUCTION_ORDER` (lowest share first, then the
fixed order below), each row takes the part of its constraint not already taken by an earlier row. So a
buffer on a 30 % slope is one piece at 50 %, floodplain inside a wetland is deducted once (as wetland),
and the deducted column sums exactly to gross minus net.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from .findings import Findings
from .geometry import EMPTY, GRID_FT, area_sqft, polygonal
from .params import param, value

__all__ = ["DEDUCTION_ORDER", "DeductionRow", "LotArea", "lot_area", "conventional_yield", "GRID_FT"]

#: (constraint id, plain label, parameter holding its countable share). Ties in share keep this order.
DEDUCTION_ORDER: tuple[tuple[str, str, str], ...] = (
    ("water_bodies", "Ponds and other water bodies", "surface_water_countable_fraction"),
    ("watercourses", "Streams and watercourses", "surface_water_countable_fraction"),
    ("wetlands", "Wetlands", "surface_water_countable_fraction"),
    ("floodplain", "100-year floodplain (FEMA)", "surface_water_countable_fraction"),
    ("slope_over_40", "Slopes over 40%", "very_steep_slope_countable_fraction"),
    ("buffer", "Wetland and watercourse buffers", "buffer_countable_fraction"),
    ("slope_25_40", "Slopes over 25% up to 40%", "steep_slope_countable_fraction"),
    ("rock_outcrops", "Rock outcrops over 50 sq ft", "rock_outcrop_countable_fraction"),
)


@dataclass(frozen=True)
class DeductionRow:
    constraint: str
    label: str
    area_sqft: float | None  # land given to this row (each piece in one row); None = unknown
    total_area_sqft: float | None  # all of this constraint inside the parcel, overlaps included
    countable_fraction: float
    deducted_sqft: float | None
    citation: str
    geometry: BaseGeometry | None = None

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
    unconstrained: BaseGeometry

    @property
    def deducted_sqft(self) -> float:
        return sum(r.deducted_sqft or 0.0 for r in self.rows)

    @property
    def fully_known(self) -> bool:
        return math.isclose(self.net_lot_area_sqft, self.net_lot_area_min_sqft, abs_tol=0.5)


def _r(x):
    return None if x is None else round(float(x), 2)


def _constraint_geometry(f: Findings, constraint: str) -> BaseGeometry | None:
    if constraint in f.layers:
        return f.layers[constraint]
    if constraint == "buffer":
        return f.buffer
    if constraint == "rock_outcrops":
        return f.outcrops_counted
    if constraint in ("slope_25_40", "slope_over_40"):
        if f.slope is None or _no_known_slope(f):
            return None  # no elevation model, or one without a single valid cell on the parcel: unknown, not 0
        return f.slope_regions[constraint]
    raise KeyError(constraint)


def _no_known_slope(f: Findings) -> bool:
    """True when the elevation model gives no valid slope anywhere on the parcel (all nodata, or off it)."""
    known = sum(v for k, v in f.slope_area_sqft.items() if k != "unknown")
    return known <= 0.5


def lot_area(f: Findings) -> LotArea:
    """The § 402-45 deduction table and net lot area for a parcel's findings."""
    order = sorted(
        enumerate(DEDUCTION_ORDER), key=lambda item: (value(item[1][2]), item[0])
    )
    remaining = f.parcel
    rows = []
    for _, (constraint, label, share_name) in order:
        share = float(value(share_name))
        citation = param(share_name).citation
        geom = _constraint_geometry(f, constraint)
        if geom is None:
            rows.append(DeductionRow(constraint, label, None, None, share, None, citation))
            continue
        piece = polygonal(shapely.intersection(geom, remaining, grid_size=GRID_FT)) if not geom.is_empty else EMPTY
        if not piece.is_empty:
            remaining = polygonal(shapely.difference(remaining, piece, grid_size=GRID_FT))
        area = area_sqft(piece)
        rows.append(
            DeductionRow(constraint, label, area, area_sqft(geom), share, area * (1.0 - share),
                         citation, piece)
        )
    # Present the rows in the fixed order of the law's text, whatever the shares.
    position = {c: i for i, (c, _, _) in enumerate(DEDUCTION_ORDER)}
    rows.sort(key=lambda r: position[r.constraint])
    deducted = sum(r.deducted_sqft or 0.0 for r in rows)
    net = max(f.gross_area_sqft - deducted, 0.0)
    return LotArea(f.gross_area_sqft, tuple(rows), net, _net_floor(f, rows, remaining, net), remaining)


def _net_floor(f: Findings, rows, remaining: BaseGeometry, net: float) -> float:
    """Worst case for unknowns: the net if unknown land were as constrained as it could be.

    A missing water, wetland, watercourse or floodplain layer could cover everything (floor 0).
    Land of unknown slope could be over 40 % (counts 0 %). A missing outcrop layer could halve the rest.
    """
    unknown = {r.constraint for r in rows if r.area_sqft is None}
    if unknown & {"water_bodies", "watercourses", "wetlands", "floodplain"}:
        return 0.0
    slope_unknown = f.slope_regions.get("unknown", EMPTY)
    loss = 0.0
    if not slope_unknown.is_empty:
        loss += area_sqft(polygonal(slope_unknown.intersection(remaining)))
        for r in rows:
            if r.geometry is not None and r.countable_fraction > 0 and not r.geometry.is_empty:
                loss += r.countable_fraction * area_sqft(polygonal(r.geometry.intersection(slope_unknown)))
    if "rock_outcrops" in unknown:
        rest = polygonal(remaining.difference(slope_unknown)) if not slope_unknown.is_empty else remaining
        loss += area_sqft(rest) * (1.0 - float(value("rock_outcrop_countable_fraction")))
    return max(net - loss, 0.0)


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
