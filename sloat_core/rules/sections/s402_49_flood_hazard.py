"""§ 402-49 Federal flood hazard area regulations: the flood hazard area review (B), which the map decides.
"""

from __future__ import annotations

import datetime as _dt

from sloat_core.law.params import param
from sloat_core.rules.sections.permit import CONFIRM, PermitDeclaration, fixed, overlay_rule


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
    rule=overlay_rule("floodplain", "FEMA 100-year floodplain", _flood_text),
    plain=("a flood zone review", "under the Flood Hazard Regulations of the Village"), land_only=True)


PERMITS = (FLOOD_HAZARD,)
