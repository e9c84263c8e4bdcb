"""The measures record: what the layers and the DEM say about a parcel (or, with array fields, about many),
as areas. The single-parcel path (:mod:`sloat_core.measure.lot_area`) and the tiled bulk sweep
(:mod:`sloat_core.measure.village`) both produce it, so one rule of :mod:`sloat_core.rules` serves one
parcel or a whole village (its fields are then arrays, one value per parcel).

Unknown is ``nan`` in a measure: a missing layer, no elevation model.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sloat_core.gis.roles import roles_of_kind
from sloat_core.law.params import value

__all__ = ["RESOURCE_ROLES", "OVERLAY_ROLES", "SLOPE_SET_NAMES", "slope_sets", "slope_set_cells", "NAN", "measured_areas", "Measures"]

#: Layers of land that § 402-45A(1) deducts in full, and that carry a buffer (declared in
#: sloat_core.gis.roles). Water bodies carry one too: the river channel and ponds are mapped as polygons
#: (NWI "Lake"/"Freshwater Pond", the river channel), and § 402-45A(1) names "streams and watercourses"
#: without limiting them to lines.
RESOURCE_ROLES = roles_of_kind("resource")
#: Map overlays that matter for triggers, reviews (inside or not, how much) and, the floodplain, deductions.
OVERLAY_ROLES = roles_of_kind("overlay")


#: The names of the slope sets of `slope_sets` (whatever their thresholds on a date).
SLOPE_SET_NAMES = ("slope_25_40", "slope_over_40", "slope_ge_25", "slope_over_15")


def slope_sets(on: dt.date) -> dict[str, dict[str, float]]:
    """The slope sets the rules read, as bounds on percent slope (thresholds from the parameters file, as in
    effect on ``on``, the date the law is applied at).

    ``slope_25_40`` and ``slope_over_40`` are the § 402-45A(2) deductions ("in excess of"),
    ``slope_ge_25`` the steep slope permit's "25% or greater" (§ 402-55), ``slope_over_15`` the
    cluster trigger of § 402-48C(1).
    """
    return {
        "slope_25_40": {"gt": value("steep_slope_deduction_threshold_pct", on),
                        "le": value("very_steep_slope_threshold_pct", on)},
        "slope_over_40": {"gt": value("very_steep_slope_threshold_pct", on)},
        "slope_ge_25": {"ge": value("steep_slope_permit_threshold_pct", on)},
        "slope_over_15": {"gt": value("cluster_slope_threshold_pct", on)},
    }


def slope_set_cells(slope_pct: np.ndarray, name: str, sets: Mapping) -> np.ndarray:
    """Cells of a slope array (percent, nan where unknown) in the slope set ``name`` of ``sets`` (`slope_sets`
    of the date the law is applied at, read once by a caller of many calls) (§ 402-45A(2), § 402-48C(1),
    § 402-55A).

    The same bounds as :meth:`SlopeGrid.mask`: known cells only, ``gt`` strict, ``ge`` / ``le`` inclusive.

    >>> sets = slope_sets(dt.date(2026, 12, 1))
    >>> slope_set_cells(np.array([25.0, 25.5, 40.0, 41.0, np.nan]), "slope_25_40", sets).tolist()
    [False, True, True, False, False]
    """
    bounds = sets[name]
    m = np.isfinite(slope_pct)
    with np.errstate(invalid="ignore"):
        if "gt" in bounds:
            m &= slope_pct > bounds["gt"]
        if "ge" in bounds:
            m &= slope_pct >= bounds["ge"]
        if "le" in bounds:
            m &= slope_pct <= bounds["le"]
        if "lt" in bounds:
            m &= slope_pct < bounds["lt"]
    return m



NAN = float("nan")

def measured_areas() -> tuple[str, ...]:
    """The keys of :attr:`Measures.areas`, besides the deduction rows.

    The land of every resource and overlay layer inside the parcel (overlaps included), the wetland
    permit's region (wetlands, watercourses, water bodies and their buffer, § 402-57G), outcrops over
    the cluster trigger's size (the whole outcrop's size, § 402-48C(9)) and every slope set of
    `slope_sets`.

    >>> "wetland_region" in measured_areas() and "slope_ge_25" in measured_areas()
    True
    """
    return RESOURCE_ROLES + OVERLAY_ROLES + ("wetland_region", "outcrops_cluster") + SLOPE_SET_NAMES


@dataclass(frozen=True)
class Measures:
    """What the layers and the DEM say about a parcel (or, with array fields, about many), in sq ft.

    ``nan`` means unknown (a layer not loaded, no elevation model). The rules of § 402-45, § 402-48C
    and the land-only permits read this record and nothing else.

    Attributes
    ----------
    gross_area_sqft : float or ndarray
        The parcel's area.
    rows : mapping
        Deduction constraint id -> the land given to that row (each piece of land in one row, in
        the order of `deductions.deduction_order`); ``nan`` when unknown.
    areas : mapping
        Each key of `measured_areas` -> the land of it inside the parcel, overlaps included.
    slope_unknown_sqft : float or ndarray
        Land of unknown slope (all of it without an elevation model).
    slope_unknown_free_sqft : float or ndarray
        Land of unknown slope that no deduction row takes.
    row_slope_unknown_sqft : mapping
        Layer row id -> its land of unknown slope (rows with a countable share above 0; else 0).
    uncovered_sqft : mapping
        Role -> land of the parcel its loaded layer does not cover (unknown there); missing = 0.
    evidence : mapping
        Evidence for texts only, never for decisions: ``names`` {role: [feature names]} and
        ``outcrop_sizes_sqft`` (whole sizes of the outcrops on the parcel). Empty in the bulk sweep.
    worst : Measures or None
        The same parcel measured in the worst case of its layers' coverage: every layer that leaves part of
        it out maps there all that land as its constraint (its rows known, at their worst). None when no
        layer a deduction reads leaves land out; the floor of the net lot area reads it.
    best : Measures or None
        The same parcel measured in the best case of its layers' coverage: every layer that leaves part of it
        out maps there only what it maps (its rows known, at their least: the land the layer maps on the
        parcel). None when no layer a deduction reads leaves land out; the net lot area (the top of its
        range) reads it, so the constraints known on the mapped land are deducted from it.
    """

    gross_area_sqft: Any
    rows: Mapping[str, Any]
    areas: Mapping[str, Any]
    slope_unknown_sqft: Any
    slope_unknown_free_sqft: Any
    row_slope_unknown_sqft: Mapping[str, Any]
    uncovered_sqft: Mapping[str, Any] = field(default_factory=dict)
    evidence: Mapping[str, Any] = field(default_factory=dict)
    worst: Measures | None = None
    best: Measures | None = None
    as_of: dt.date = field(kw_only=True)

    def area(self, key: str):
        """Land of a role, region or slope set inside the parcel (nan when unknown)."""
        return self.areas[key]

    def uncovered(self, key: str):
        """Land of the parcel a loaded layer of ``key`` does not cover (0 when it covers it all)."""
        return self.uncovered_sqft.get(key, 0.0)
