"""§ 402-50 Rockland County stream regulations: the county drainage agency's review (B, C), which the map and
the project's permits decide.

The lot's land under the agency's jurisdiction is the first question (the map). Then each clause binds one
approval: § 402-50B the Planning Board's final site plan, final subdivision plan or special permit; § 402-50C
the Building Inspector's building permit for a structure, improvement or building. Work that needs neither
(tree cutting with no building permit or board application) is not held by it; a project that does not say
which it needs is unknown, with the question that settles it. With no project described, the map's answer.
"""

from __future__ import annotations

from sloat_core.rules.project import Project
from sloat_core.rules.sections.permit import Facts, PermitDeclaration, Ruling, fixed, on_the_map, overlay_rule

#: Its land: the parcel's area of the rcda layer.
_LAND = on_the_map("rcda")
#: § 402-50B's approvals: "any final site plan, final subdivision plan or special permit".
_BOARD_APPLICATIONS = ("site_plan", "subdivision", "special_permit")

_ON_THE_MAP = overlay_rule(_LAND.key, "Rockland County Drainage Agency stream jurisdiction",
                           lambda on: "{area} sq ft of the lot is under the county drainage agency's jurisdiction: "
                                   "its requirements must be met before final approval or a building permit.")

_CHANGE = ("It would apply if the work needed a final site plan, final subdivision plan or special permit "
           "(§ 402-50B) or a building permit for a structure, improvement or building (§ 402-50C).")


def _rule(x: Facts) -> Ruling:
    ruling = _ON_THE_MAP(x)
    p = x.project
    if ruling.required is False or p == Project():
        return ruling
    kind = p.application_type
    if kind in _BOARD_APPLICATIONS:
        return Ruling(required=ruling.required, citation="§ 402-50B", reason=(
            f"{ruling.reason} § 402-50B: the Planning Board may not approve the final "
            f"{kind.replace('_', ' ')} until the agency's requirements are met; it would not bind work needing "
            "no board approval."))
    if kind == "building_permit" or p.new_structure:
        return Ruling(required=ruling.required, citation="§ 402-50C", reason=(
            f"{ruling.reason} § 402-50C: the Building Inspector may not issue the building permit for the "
            "structure or improvement until the agency's requirements are met; it would not bind work needing "
            "no building permit."))
    if kind is None and p.new_structure is False:
        return Ruling(required=False, details=False, citation="§ 402-50B", citations=("§ 402-50C",), reason=(
            f"{ruling.reason} But the work needs no Planning Board site plan, subdivision or special permit "
            f"(§ 402-50B) and no building permit for a structure (§ 402-50C), so neither clause holds it. "
            f"{_CHANGE}"))
    return Ruling(required=None, citation="§ 402-50B", citations=("§ 402-50C",), reason=(
        f"{ruling.reason} Unknown whether either clause holds this work: what application does it need "
        f"(a building permit, a site plan, a subdivision, a special permit, or none)? {_CHANGE}"))


RCDA = PermitDeclaration(
    id="rcda_review", order=80, title="Rockland County Drainage Agency review", section="§ 402-50B",
    decider="County",
    authority=fixed("Rockland County Drainage Agency; then the Planning Board or Building Inspector "
                    "(§ 402-50B, C)"),
    rule=_rule,
    plain=("a review", "by the Rockland County Drainage Agency"), land=_LAND)


PERMITS = (RCDA,)
