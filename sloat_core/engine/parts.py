"""§ 402-48I with § 402-45A: the floor of the net lot area of each zoning-district part of a split parcel.

One computation for the single-parcel analysis (`engine.analysis`) and the village screen
(`engine.screening`), so the two give each part, and the yield summed over the parts, the same range.
"""

from __future__ import annotations

import datetime as dt

from shapely.geometry.base import BaseGeometry

from sloat_core.measure.parcel import parcel_findings
from sloat_core.rules.deductions import lot_area

__all__ = ["part_floor"]


def part_floor(part: BaseGeometry, part_net: float, layerset, settings, *, parcel_known: bool,
               on: dt.date) -> float:
    """The worst-case net of one district part: its net less the part's own uncertainty.

    Parameters
    ----------
    part : shapely geometry
        The part of the parcel in one district (EPSG:2260).
    part_net : float
        The part's net lot area (the top of its range): the parcel's deductions taken inside the part.
    layerset, settings
        The layers and the local settings (buffer width, whether ponds carry a buffer).
    parcel_known : bool
        The whole parcel's net is known (its floor equals its net): then so is every part's.
    on : datetime.date
        The date the law is applied at (the analysis's ``as_of``).

    Returns
    -------
    float
        ``part_net`` when the parcel is known everywhere. Otherwise the part is measured as a parcel of its
        own, with the coverage gaps of the part itself (a part wholly inside what a layer maps is known for it,
        whatever the rest of the parcel lacks), and its uncertainty (its net less its floor, each as
        `deductions.lot_area` gives them: known constraints on mapped land deducted from both, land outside a
        layer's coverage at its worst in the floor) is taken off ``part_net``. So a part whose land is all
        known keeps one figure, and unknown land elsewhere widens only its own part's range. Never below 0.
    """
    if parcel_known:
        return part_net
    alone = lot_area(parcel_findings(part, layerset, buffer_width_ft=float(settings.buffer_width_ft),
                                     buffer_water_bodies=bool(getattr(settings, "buffer_around_water_bodies", True)),
                                     on=on))
    return max(part_net - max(alone.net_lot_area_sqft - alone.net_lot_area_min_sqft, 0.0), 0.0)
