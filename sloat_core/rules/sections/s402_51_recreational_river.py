"""Reviews the map decides: § 402-51 recreational river, § 402-50 county drainage agency, § 402-49
flood hazard areas, § 402-46 the aquifer critical environmental area.
"""

from __future__ import annotations

import datetime as _dt

from typing import Callable

from sloat_core.rules.measures import present
from sloat_core.law.params import param
from sloat_core.rules.sections.permit import (
    Ruling, Facts, PermitDeclaration, _fixed, _CONFIRM,
)


def _overlay_rule(role: str, what: str, yes_text: Callable[[], str]):
    def rule(x: Facts) -> Ruling:
        m = x.measures
        area = m.areas[role]
        if area != area:  # nan: the layer is not loaded
            return Ruling(required=None, reason=f"Unknown: no {what} layer is loaded.", details=True)
        state = present(m, role)  # the same rule as the village screen (permits.land)
        if state:
            return Ruling(required=True, reason=yes_text().format(area=f"{area:,.0f}"))
        if state is None:
            return Ruling(required=None, reason=f"Unknown: the {what} layer does not cover enough of the parcel.")
        return Ruling(required=False, reason=f"The parcel is not in the {what}.", details=False)
    return rule


def _flood_text() -> str:
    p = param("flood_maps_effective_date")
    day = p.value if isinstance(p.value, _dt.date) else _dt.date.fromisoformat(str(p.value))
    return ("{area} sq ft of the lot is in the FEMA Special Flood Hazard Area (FIRMs effective "
            f"{day:%B} {day.day}, {day.year}).")


RECREATIONAL_RIVER = PermitDeclaration(
    id="nysdec_recreational_river", title="NYSDEC recreational river review", section="§ 402-51C",
    authority=_fixed("NYSDEC (the Building Inspector notifies the applicant, § 402-51B)"),
    rule=_overlay_rule("recreational_river", "Ramapo River recreational river corridor",
                       lambda: "{area} sq ft of the lot is in the Ramapo recreational river corridor: a NYSDEC "
                               "permit or written exemption comes before any local approval."),
    plain=("a New York State DEC permit or written exemption", "from the DEC, before any Village approval"),
    land_only=True)

RCDA = PermitDeclaration(
    id="rcda_review", title="Rockland County Drainage Agency review", section="§ 402-50B",
    authority=_fixed("Rockland County Drainage Agency; then the Planning Board or Building Inspector "
                     "(§ 402-50B, C)"),
    rule=_overlay_rule("rcda", "Rockland County Drainage Agency stream jurisdiction",
                       lambda: "{area} sq ft of the lot is under the county drainage agency's jurisdiction: its requirements "
                               "must be met before final approval or a building permit."),
    plain=("a review", "by the Rockland County Drainage Agency"), land_only=True)

FLOOD_HAZARD = PermitDeclaration(
    id="flood_hazard_review", title="Flood hazard area review", section="§ 402-49B",
    # § 402-49B refers to "the separately adopted Flood Hazard Regulations" and names no official.
    authority=_fixed("Under the Village's separately adopted Flood Hazard Regulations (§ 402-49B); Article IX "
                     f"names no official (local assumption: the Village's floodplain administrator, {_CONFIRM})"),
    rule=_overlay_rule("floodplain", "FEMA 100-year floodplain", _flood_text),
    plain=("a flood zone review", "under the Flood Hazard Regulations of the Village"), land_only=True)

SEQRA_CEA = PermitDeclaration(
    id="seqra_cea", title="SEQRA: impact on the Ramapo aquifer CEA", section="§ 402-46C",
    authority=_fixed("The SEQRA lead agency (usually the Planning Board)"),
    rule=_overlay_rule("aquifer_cea", "Ramapo River Sole Source Aquifer CEA",
                       lambda: "{area} sq ft of the lot is in the critical environmental area: the CEA must be evaluated in "
                               "the determination of significance of any Type I or Unlisted action."),
    plain=("an environmental review (SEQRA) of the Ramapo aquifer area",
           "by the Planning Board or another lead agency"), land_only=True)
