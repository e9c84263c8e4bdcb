"""§ 402-49 Federal flood hazard area regulations: the flood hazard area review (B), which the map and the
drawn footprint decide.

§ 402-49B sends development *in* flood hazard areas to the separately adopted Flood Hazard Regulations: with a
drawn disturbance footprint that stays out of the special flood hazard area, the review is not needed for that
work; a footprint in it, one whose flood zone is unknown, or no footprint, keeps the map's answer (the lot's
land in the area).
"""

from __future__ import annotations

import datetime as _dt

from sloat_core.law.params import param
from sloat_core.rules.sections.permit import (
    CONFIRM, Facts, PermitDeclaration, Ruling, fixed, in_region, measure_in, on_the_map, overlay_rule,
)

#: Its land: the parcel's area of the floodplain layer.
_LAND = on_the_map("floodplain")


def _flood_text(on: _dt.date) -> str:
    p = param("flood_maps_effective_date", on)
    day = p.value if isinstance(p.value, _dt.date) else _dt.date.fromisoformat(str(p.value))
    return ("{area} sq ft of the lot is in the FEMA Special Flood Hazard Area (FIRMs effective "
            f"{day:%B} {day.day}, {day.year}).")


_ON_THE_MAP = overlay_rule(_LAND.key, "FEMA 100-year floodplain", _flood_text)


def _rule(x: Facts) -> Ruling:
    ruling = _ON_THE_MAP(x)
    region = x.work.layers.get(_LAND.key)
    if ruling.required is False or x.project.disturbance_footprint is None or region is None:
        return ruling
    touches, text = in_region(x, measure_in(region), "the Special Flood Hazard Area", key=_LAND.key)
    if touches is False:
        return Ruling(required=False, details=False, reason=(
            f"{ruling.reason} {text} § 402-49B governs development in flood hazard areas, so the review is not "
            "needed for this work; it would be if the work reached the Special Flood Hazard Area."))
    if touches:
        return Ruling(required=True, reason=f"{ruling.reason} {text}")
    return ruling


FLOOD_HAZARD = PermitDeclaration(
    id="flood_hazard_review", order=90, title="Flood hazard area review", section="§ 402-49B",
    # § 402-49B refers to "the separately adopted Flood Hazard Regulations" and names no official.
    decider="Village (other)",
    authority=fixed("Under the Village's separately adopted Flood Hazard Regulations (§ 402-49B); Article IX "
                    f"names no official (local assumption: the Village's floodplain administrator, {CONFIRM})"),
    rule=_rule,
    plain=("a flood zone review", "under the Flood Hazard Regulations of the Village"), land=_LAND)


PERMITS = (FLOOD_HAZARD,)
