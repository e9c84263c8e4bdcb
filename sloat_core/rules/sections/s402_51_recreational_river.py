"""§ 402-51 Wild, Scenic and Recreational River regulations: the NYSDEC review of land in the Ramapo
recreational river corridor (C), which the map decides.
"""

from __future__ import annotations

from sloat_core.rules.sections.permit import PermitDeclaration, fixed, on_the_map, overlay_rule

#: Its land: the parcel's area of the recreational river layer.
_LAND = on_the_map("recreational_river")

RECREATIONAL_RIVER = PermitDeclaration(
    id="nysdec_recreational_river", order=70, title="NYSDEC recreational river review", section="§ 402-51C",
    decider="State",
    authority=fixed("NYSDEC (the Building Inspector notifies the applicant, § 402-51B)"),
    rule=overlay_rule(_LAND.key, "Ramapo River recreational river corridor",
                      lambda on: "{area} sq ft of the lot is in the Ramapo recreational river corridor: a NYSDEC "
                              "permit or written exemption comes before any local approval."),
    plain=("a New York State DEC permit or written exemption", "from the DEC, before any Village approval"),
    land=_LAND)


PERMITS = (RECREATIONAL_RIVER,)
