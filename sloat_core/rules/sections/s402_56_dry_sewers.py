"""§ 402-56 Dry sewers: approved wastewater disposal (A-C) and dry sewer mains (D).
"""

from __future__ import annotations

from sloat_core.rules.sections.permit import (
    Ruling, Facts, PermitDeclaration, fixed,
)


def _wastewater_rule(x: Facts) -> Ruling:
    project = x.project
    needs = project.sanitary_facilities
    sewer = ""
    if project.road_extension:
        sewer = (" A road extension also needs dry sewer mains in its bed, approved by the Rockland County Sewer "
                 "District (§ 402-56D).")
    if project.new_structure is False or needs is False:
        if project.road_extension:
            return Ruling(required=True, citation="§ 402-56D",
                          reason="No new structure needs sanitary facilities, but the road extension needs dry sewer "
                                 "mains in its bed, approved by the Rockland County Sewer District (§ 402-56D).")
        return Ruling(required=False, reason="No new structure needing sanitary facilities.", details=False)
    cites = ("§ 402-56D",) if project.road_extension else ()
    if project.new_structure and needs:
        if project.public_sewer_available is False:
            return Ruling(required=True, citation="§ 402-56B", citations=cites,
                          reason="No public sewer: a private on-site system complying with the County Health "
                                 "Department rules, making provision for planned sewers (§ 402-56B)." + sewer)
        return Ruling(required=True, citations=("§ 402-56C",) + cites,
                      reason="A building permit for a new structure needing sanitary facilities needs an approved "
                             "method of wastewater disposal (§ 402-56A)." + sewer)
    if project.road_extension:
        return Ruling(required=True, citation="§ 402-56D",
                      reason="The road extension needs dry sewer mains in its bed, approved by the Rockland County "
                             "Sewer District (§ 402-56D); say whether a new structure needs sanitary facilities.")
    return Ruling(required=None, reason="Unknown: say whether a new structure needs sanitary facilities.",
                  details=False)


DECLARATION = PermitDeclaration(
    id="wastewater_approval", order=120, title="Approved wastewater disposal", section="§ 402-56A",
    decider="County",
    authority=fixed("Rockland County Department of Health / Rockland County Sewer District (§ 402-56B, C)"),
    rule=_wastewater_rule,
    plain=("an approved sewer or septic connection",
           "from the Rockland County Department of Health or Sewer District"))


PERMITS = (DECLARATION,)
