"""One lot of a plan against Article IX, from its own land alone: gross, the § 402-45 deduction table, the net
lot area (a range where land is unknown), its district and the minimum it must meet, whether it conforms,
the shortfall, and the permits its own envelope and disturbance need.

The minimum (§ 402-48F for a cluster plan):

* conventional: the district's minimum lot area (local settings), compared with the net lot area
  (§ 402-45A: constrained land does not count toward any minimum lot area);
* cluster, in the OSR, R-80 and R-40 districts: the cluster lot minimum, compared with the GROSS area
  ("constraints not subtracted", § 402-48F);
* cluster elsewhere: set by the Planning Board as part of the layout: unknown here (null, with that reason).

A lot whose gross is under its minimum does not conform, whatever land is unknown; a lot whose answer turns
on unknown land is unknown (never shown as conforming).
"""

from __future__ import annotations

import datetime as dt

import dataclasses
from dataclasses import dataclass, field

from shapely.geometry.base import BaseGeometry

from sloat_core.rules.deductions import LotArea, meets_minimum
from sloat_core.rules.permits import Permit, can_be_subdivided
from sloat_core.rules.sections.s402_48_cluster.cluster import cluster_lot_rules

__all__ = ["KINDS", "TOLERANCE_SQFT", "Minimum", "LotResult", "minimum_for", "conformity", "lot_project"]

#: The plan kinds: a conventional plat (each lot meets its district minimum on net lot area) or a cluster.
KINDS = ("conventional", "cluster")
#: Areas are compared with the minimum to this much (sq ft): the rounding of a surveyed figure, not land.
TOLERANCE_SQFT = 0.005


@dataclass(frozen=True)
class Minimum:
    """The minimum lot area a lot must meet, or None with the reason it is not known here."""

    sqft: float | None
    reason: str | None
    citation: str
    gross: bool  # compared with the gross area (a cluster lot, § 402-48F), else with the net lot area


def minimum_for(district: str | None, kind: str, settings, on: dt.date) -> Minimum:
    """The minimum of a lot in ``district`` in a plan of ``kind`` (see the module's notes); a cluster lot's
    (§ 402-48F) as in effect on ``on`` (the check's ``as_of``)."""
    d = settings.district(district) if district else None
    if kind == "cluster":
        rules = cluster_lot_rules(district, d.kind if d else None, on)
        lot = rules["cluster_min_lot_area_sqft"]
        reason = None if lot is not None else (
            "The lot's zoning district is unknown, so its cluster minimum is unknown." if district is None
            else f"Set by the Planning Board: {rules['lot_rule']}")
        return Minimum(lot, reason, rules["citation"], True)
    if district is None:
        return Minimum(None, "The lot's zoning district is unknown, so its minimum lot area is unknown.",
                       "§ 402-45A", False)
    if d is None:
        return Minimum(None, f"District '{district}' is not in the local settings; its minimum lot area is unknown.",
                       "§ 402-45A", False)
    if d.min_lot_area_sqft is None:
        return Minimum(None, f"No minimum lot area is set for {district}: enter it in the settings.", "§ 402-45A",
                       False)
    return Minimum(float(d.min_lot_area_sqft), None, "§ 402-45A", False)


def conformity(lot: LotArea, minimum: Minimum) -> tuple[bool | None, float | None]:
    """(conforms, shortfall in sq ft): yes / no / unknown against the minimum, and how far short a lot that
    does not conform falls (0 when it conforms, None when unknown)."""
    if minimum.sqft is None:
        return None, None
    need = minimum.sqft - TOLERANCE_SQFT
    gross = lot.gross_area_sqft
    if gross < need:  # short on its gross: no, whatever is unknown (§ 402-48F, § 402-45A)
        short_of = gross if minimum.gross else lot.net_lot_area_sqft
        return False, minimum.sqft - short_of
    if minimum.gross:
        return True, 0.0
    conforms = meets_minimum(lot.net_lot_area_sqft + TOLERANCE_SQFT, lot.net_lot_area_min_sqft + TOLERANCE_SQFT,
                             minimum.sqft)
    if conforms is False:
        return False, minimum.sqft - lot.net_lot_area_sqft
    return conforms, (0.0 if conforms else None)


def lot_project(project, lot: BaseGeometry, footprint: BaseGeometry | None):
    """The project as one lot's own: the facts given apply to every lot, the disturbance footprint is the
    lot's own envelope and disturbance (the part of the plan's inside the lot)."""
    import shapely

    from sloat_core.gis.geometry import polygonal

    own = None if footprint is None else polygonal(shapely.intersection(footprint, lot))
    return dataclasses.replace(project, disturbance_footprint=None if own is None or own.is_empty else own)


@dataclass(frozen=True)
class LotResult:
    """One lot's answer (`to_dict`: the plan's JSON for the lot)."""

    label: str
    lot: LotArea
    district: str | None
    minimum: Minimum
    conforms: bool | None
    shortfall_sqft: float | None
    #: The permits its own envelope and disturbance need (the rules' answers; ``to_dict`` writes their rows).
    permits: tuple[Permit, ...]
    geometry: BaseGeometry = field(repr=False, compare=False, default=None)

    @property
    def subdividable(self) -> bool | None:
        return can_be_subdivided(self.lot.net_lot_area_sqft, self.lot.net_lot_area_min_sqft, self.minimum.sqft)

    def to_dict(self) -> dict:
        la = self.lot
        known = la.fully_known
        return {
            "lot": self.label,
            "gross_sqft": round(la.gross_area_sqft, 2),
            "net_lot_area_sqft": round(la.net_lot_area_sqft, 2) if known else None,
            "net_lot_area_min_sqft": round(la.net_lot_area_min_sqft, 2),
            "net_lot_area_max_sqft": round(la.net_lot_area_sqft, 2),
            "district": self.district,
            "min_lot_area_sqft": self.minimum.sqft,
            "min_lot_area_reason": self.minimum.reason,
            "compared_with": "gross" if self.minimum.gross else "net",
            "conforms": self.conforms,
            "shortfall_sqft": None if self.shortfall_sqft is None else round(self.shortfall_sqft, 2),
            "deductions": [r.to_dict() for r in la.rows],
            "permits": [p.to_dict() for p in self.permits],
            "citation": self.minimum.citation,
        }
