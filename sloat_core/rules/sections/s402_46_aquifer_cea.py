"""§ 402-46 Ramapo River Sole Source Aquifer Critical Environmental Area: the SEQRA evaluation of the CEA
(C), which the map decides.
"""

from __future__ import annotations

from sloat_core.rules.sections.permit import PermitDeclaration, fixed, on_the_map, overlay_rule

#: Its land: the parcel's area of the aquifer cea layer.
_LAND = on_the_map("aquifer_cea")

SEQRA_CEA = PermitDeclaration(
    id="seqra_cea", order=100, title="SEQRA: impact on the Ramapo aquifer CEA", section="§ 402-46C",
    authority=fixed("The SEQRA lead agency (usually the Planning Board)"),
    rule=overlay_rule(_LAND.key, "Ramapo River Sole Source Aquifer CEA",
                      lambda: "{area} sq ft of the lot is in the critical environmental area: the CEA must be "
                              "evaluated in the determination of significance of any Type I or Unlisted action."),
    plain=("an environmental review (SEQRA) of the Ramapo aquifer area",
           "by the Planning Board or another lead agency"), land=_LAND)


PERMITS = (SEQRA_CEA,)
