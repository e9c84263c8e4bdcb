"""§ 402-49 Federal flood hazard area regulations: the flood hazard area review (B), which the map decides.
"""

from __future__ import annotations

import datetime as _dt

from sloat_core.law.params import param
from sloat_core.rules.sections.permit import CONFIRM, PermitDeclaration, fixed, on_the_map, overlay_rule

#: Its land: the parcel's area of the floodplain layer.
_LAND = on_the_map("floodplain")


def _flood_text() -> str:
    p = param("flood_maps_effective_date")
    day = p.value if isinstance(p.value, _dt.date) else _dt.date.fromisoformat(str(p.value))
    return ("{area} sq ft of the lot is in the FEMA Special Flood Hazard Area (FIRMs effective "
            f"{day:%B} {day.day}, {day.year}).")


FLOOD_HAZARD = PermitDeclaration(
    id="flood_hazard_review", order=90, title="Flood hazard area review", section="§ 402-49B",
    # § 402-49B refers to "the separately adopted Flood Hazard Regulations" and names no official.
    authority=fixed("Under the Village's separately adopted Flood Hazard Regulations (§ 402-49B); Article IX "
                    f"names no official (local assumption: the Village's floodplain administrator, {CONFIRM})"),
    rule=overlay_rule(_LAND.key, "FEMA 100-year floodplain", _flood_text),
    plain=("a flood zone review", "under the Flood Hazard Regulations of the Village"), land=_LAND)


PERMITS = (FLOOD_HAZARD,)
