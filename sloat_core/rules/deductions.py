"""§ 402-45 Environmental constraints: the land that may not count toward minimum lot area.

Reading of the law encoded here:

* § 402-45A(1): ponds (water bodies), wetlands, watercourses and the FEMA 100-year floodplain count 0 %;
  no more than 50 % of a watercourse or wetland buffer counts.
* § 402-45A(2)(a): slopes *in excess of* 25 % count at most 50 %; (b) slopes *in excess of* 40 % count 0 %.
  A slope of exactly 25 % is not deducted; exactly 40 % is deducted at 50 %.
* § 402-45A(3): rock outcrops *in excess of* 50 sq ft count at most 50 %; an outcrop of exactly 50 sq ft
  or less is not a constraint. The size is the whole outcrop's, not only the part inside the parcel.

**Overlaps count once.** Each piece of land counts at the lowest share among the constraints covering it
(the cutting is :mod:`sloat_core.measure.lot_area`; the rows are declared, each with its one label, in
:mod:`sloat_core.measure.rows`).
This module holds the law over the measures: the deducted land, the net lot area, its worst case and
whether it meets the district minimum, for one parcel or (array fields) a village.
"""

from __future__ import annotations

import math

import numpy as np

from sloat_core.gis.geometry import GRID_FT  # noqa: F401  (re-exported)
from sloat_core.law.params import value
from sloat_core.measure.lot_area import DeductionRow, LotArea, measure_lot_area
from sloat_core.measure.parcel import Findings
from sloat_core.measure.record import NAN, Measures  # noqa: F401  (NAN: the doctests)
from sloat_core.measure.rows import LAYER_ROWS, ROW_IDS, ROW_SPECS, SLOPE_ROWS
from sloat_core.rules.measures import tri

__all__ = ["DeductionRow", "LotArea", "lot_area", "conventional_yield", "GRID_FT", "deducted_sqft", "net_lot_area",
           "net_lot_area_floor", "meets_minimum"]


def _share(constraint: str, m: Measures) -> float:
    """The row's countable share as in effect on the date the measures were taken at (``m.as_of``)."""
    return float(value(ROW_SPECS[constraint].share, m.as_of))


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

    Each row's land counts at its share (§ 402-45A(1)-(3)). An unknown row deducts here only what is known
    of it: the land its layer maps where the layer maps the parcel in part (``m.best``, the best case of the
    land outside the layer's coverage: none of it constrained), else nothing. Its worst case is in
    `net_lot_area_floor`.
    """
    rows = (m if m.best is None else m.best).rows
    return sum(_or_zero(rows[c]) * (1.0 - _share(c, m)) for c in ROW_IDS)


def net_lot_area(m: Measures):
    """§ 402-45A: net lot area, the gross area less the deductions (never below zero).

    >>> import datetime; DAY = datetime.date(2026, 12, 1)
    >>> rows = {c: 0.0 for c in ROW_IDS} | {"wetlands": 10_000.0, "buffer": 4_000.0}
    >>> m = Measures(50_000.0, rows, {}, 0.0, 0.0, {}, as_of=DAY)
    >>> net_lot_area(m)
    38000.0

    The top of the range on a parcel a layer maps in part: the constraints known on the land it maps are
    deducted, the land outside its coverage is taken as free (its row stays unknown):

    >>> gap = Measures(160_000.0, {c: 0.0 for c in ROW_IDS} | {"wetlands": NAN}, {}, 0.0, 0.0, {}, as_of=DAY)
    >>> best = Measures(160_000.0, {c: 0.0 for c in ROW_IDS} | {"wetlands": 10_000.0}, {}, 0.0, 0.0, {}, as_of=DAY)
    >>> net_lot_area(gap), net_lot_area(Measures(**{**vars(gap), "best": best}))
    (160000.0, 150000.0)
    """
    return _at_least_zero(m.gross_area_sqft - deducted_sqft(m))


def net_lot_area_floor(m: Measures):
    """§ 402-45A: the lowest the net lot area could be if every unknown turned out constrained.

    The floor is the land known to count: only land whose state is unknown falls to its worst case.
    Readings (worst case, stated so the answer is never a silent "no"):

    * a missing layer whose land counts 0 % (water bodies, watercourses, wetlands, floodplain,
      § 402-45A(1)) could cover everything: the floor is 0;
    * a layer that maps only part of the parcel (its ``coverage:``) says what is on the part it maps; the
      rest could all be its constraint. ``m.worst`` is the parcel measured so (`measure.parcel` builds it),
      each piece of land in one row at its lowest share, and the floor is read from it;
    * land of unknown slope could be over 40 % (§ 402-45A(2)(b), counts 0 %): land no row takes
      loses all, land in a row loses that row's countable share;
    * a missing outcrop layer (§ 402-45A(3)) could take its share of the land left, known slope;
    * land a loaded layer does not cover could be that layer's constraint (loses 1 - its share).

    >>> import datetime; DAY = datetime.date(2026, 12, 1)
    >>> rows = {c: 0.0 for c in ROW_IDS} | {"rock_outcrops": NAN}
    >>> m = Measures(40_000.0, rows, {}, 0.0, 0.0, {}, as_of=DAY)
    >>> net_lot_area_floor(m)
    20000.0

    The wetland layer maps a quarter of a 160,000 sq ft parcel out (its row unknown); in the worst case of
    that quarter (40,000 sq ft of wetland) the floor is what the mapped three quarters keep:

    >>> gap = Measures(160_000.0, {c: 0.0 for c in ROW_IDS} | {"wetlands": NAN}, {}, 0.0, 0.0, {}, as_of=DAY)
    >>> worst = Measures(160_000.0, {c: 0.0 for c in ROW_IDS} | {"wetlands": 40_000.0}, {}, 0.0, 0.0, {}, as_of=DAY)
    >>> net_lot_area_floor(gap), net_lot_area_floor(Measures(**{**vars(gap), "worst": worst}))
    (0.0, 120000.0)
    """
    return _floor(m if m.worst is None else m.worst)


def _floor(m: Measures):
    """`net_lot_area_floor` over one record (its unknown rows at their worst)."""
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
        share = _share(c, m)
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


def lot_area(f: Findings) -> LotArea:
    """The § 402-45 deduction table and net lot area (§ 402-45A) for a parcel's findings.

    The land is cut into rows by :func:`sloat_core.measure.lot_area.measure_lot_area`; the net and its
    worst case are this module's `net_lot_area` and `net_lot_area_floor` over the measures record.
    """
    return measure_lot_area(f, net_lot_area, net_lot_area_floor)


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
