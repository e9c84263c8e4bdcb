"""§ 402-50 Rockland County stream regulations: the county drainage agency's review (B), which the map
decides.
"""

from __future__ import annotations

from sloat_core.rules.sections.permit import PermitDeclaration, fixed, on_the_map, overlay_rule

#: Its land: the parcel's area of the rcda layer.
_LAND = on_the_map("rcda")

RCDA = PermitDeclaration(
    id="rcda_review", order=80, title="Rockland County Drainage Agency review", section="§ 402-50B",
    authority=fixed("Rockland County Drainage Agency; then the Planning Board or Building Inspector "
                    "(§ 402-50B, C)"),
    rule=overlay_rule(_LAND.key, "Rockland County Drainage Agency stream jurisdiction",
                      lambda: "{area} sq ft of the lot is under the county drainage agency's jurisdiction: its "
                              "requirements must be met before final approval or a building permit."),
    plain=("a review", "by the Rockland County Drainage Agency"), land=_LAND)


PERMITS = (RCDA,)
