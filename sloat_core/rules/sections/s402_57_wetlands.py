"""§ 402-57 Wetlands and watercourses: the wetland permit (G, I), grandfathering (F) and the exempt
activities (H).
"""

from __future__ import annotations

from sloat_core.gis.geometry import PRESENCE_MIN_SQFT, area_sqft, polygonal
from sloat_core.law.params import value
from sloat_core.rules.sections.permit import (
    Ruling, Facts, ExceptionClause, PermitDeclaration, clause_letters, clause_numbers, measure_in, in_region, fixed,
)


_WATER_ROLES = ("wetlands", "watercourses", "water_bodies")


def _wetland_clocks(x: Facts) -> tuple[str, ...]:
    return (
        f"Hearing within {value('wetland_hearing_days')} days of a complete application; newspaper notice at least "
        f"{value('wetland_hearing_notice_days')} days before (§ 402-57L).",
        f"Valid {value('wetland_permit_term_years')} year from issue; extension requested at least "
        f"{value('wetland_extension_request_days')} days before expiry (§ 402-57J(4)).",
        f"Notify the Planning Board at least {value('wetland_start_notice_days')} days before work starts "
        "(§ 402-57O(1)(c)).",
        f"Wetland delineation no more than {value('wetland_delineation_max_age_months')} months old at filing "
        "(§ 402-57K(5)(a)).",
    )


def _wetland_rule(x: Facts) -> Ruling:
    f = x.work
    parts = [f.layers.get(r) for r in _WATER_ROLES] + [f.buffer]
    known = [g for g in parts if g is not None]
    region = None if not known else polygonal(known[0].union(known[1]) if len(known) > 1 else known[0])
    for g in known[2:]:
        region = polygonal(region.union(g))
    # A layer that is not loaded, or does not cover the land (measures: None), is unknown, never "no
    # wetland"; the buffer is then built only from the layers that are there (or is unknown too).
    missing = [r.replace("_", " ") for r in _WATER_ROLES if f.layers.get(r) is None]
    if f.buffer is None and not missing and known:
        missing = ["buffer"]
    missing_text = (f"the {', '.join(missing)} layer{'s are' if len(missing) > 1 else ' is'} not loaded or "
                    "does not cover the land (and the buffer is built only from the layers that are there)"
                    ) if missing and known else None
    buf = f.buffer_width_ft
    req, text = in_region(x, None if region is None else measure_in(region),
                           f"wetland, watercourse or {buf:g}-ft buffer (buffer width: local setting)",
                           missing=missing_text, key="wetland_region")
    if req and x.project.activities:
        text += " Regulated activities: " + ", ".join(f"({a})" for a in x.project.activities) + " of § 402-57I."
    return Ruling(required=req, reason=text, citation="§ 402-57G", citations=("§ 402-57I",))


def _no_regulated_activity(x: Facts) -> Ruling | None:
    if x.project.activities is not None and len(x.project.activities) == 0:
        return Ruling(required=False, reason="No regulated activity of § 402-57I is proposed (exempt activities: "
                      "§ 402-57H).", citation="§ 402-57H", details=False)
    return None


def _grandfathered(x: Facts) -> Ruling | None:
    # § 402-57F: "shall not apply to any land use, improvement or development for which final approval shall
    # have been obtained prior to the effective date"; the applicant says so (the Board checks the approval).
    if x.project.grandfathered:
        return Ruling(required=False, citation="§ 402-57F", details=False,
                      reason="Final approval (§ 402-57F(1)-(3)) was obtained before the wetland law took effect: "
                             "the project is grandfathered (§ 402-57F); keep the approval to show the Board.")
    return None


_H_WORDS = {1: "normal ground maintenance around a dwelling", 2: "selective tree cutting",
            3: "decorative landscaping and planting in wetland buffers",
            4: "public health activities of the County or State Department of Health for emergencies"}
#: Regulated activities that grading or fill brings back under the permit (§ 402-57I(3), (6)).
_GRADING_FILL = (3, 6)


def _wetland_exempt_activity(x: Facts) -> Ruling | None:
    """§ 402-57H(1)-(4) as claimed on the form; customary landscaping (§ 402-55C(1)) is read as H(1) / H(3)."""
    p = x.project
    claimed = list(p.wetland_exemptions or ())
    landscaping = bool(p.landscaping_only) and not claimed
    if landscaping:
        claimed = [1, 3]
    if not claimed:
        return None
    cites = tuple(f"§ 402-57H({n})" for n in claimed)
    names = " or ".join(_H_WORDS[n] for n in claimed)
    acts = p.activities
    other = [a for a in (acts or ()) if a not in _GRADING_FILL]
    if other:
        return Ruling(required=True, citation="§ 402-57G", citations=cites + ("§ 402-57I",),
                      reason=(f"The exemption for {names} ({', '.join(cites)}) does not cover the regulated "
                              f"activities {', '.join(f'({a})' for a in other)} of § 402-57I."))
    grading = [a for a in (acts or ()) if a in _GRADING_FILL]
    if grading or (landscaping and acts is None):
        # Reading: customary landscaping "involving minor grading or filling" (§ 402-55C(1)) may be the
        # filling (I(3)) or alteration of contours (I(6)) that § 402-57I regulates: unknown, both clauses.
        gcites = tuple(f"§ 402-57I({a})" for a in (grading or _GRADING_FILL))
        return Ruling(required=None, citation=cites[0], citations=cites[1:] + gcites,
                      reason=(f"{names.capitalize()} is exempt ({', '.join(cites)}), but grading or fill with it "
                              f"is a regulated activity ({', '.join(gcites)}): unknown until the Planning Board "
                              "sees what is graded or filled."))
    if 3 in claimed and 1 not in claimed and p.disturbance_footprint is not None:
        inside = [x.work.layers.get(r) for r in _WATER_ROLES]
        fp = p.disturbance_footprint
        in_water = sum(area_sqft(polygonal(fp.intersection(g))) for g in inside if g is not None)
        if in_water >= PRESENCE_MIN_SQFT:
            return Ruling(required=True, citation="§ 402-57G", citations=cites,
                          reason=(f"Decorative landscaping is exempt only in wetland buffers (§ 402-57H(3)); "
                                  f"{in_water:,.0f} sq ft of the footprint lies in the wetland or watercourse itself."))
    return Ruling(required=False, citation=cites[0], citations=cites[1:], details=False,
                  reason=f"{names.capitalize()} is exempt ({', '.join(cites)}), to the extent no other law "
                         "prohibits it; any grading or fill with it needs a permit (§ 402-57I(3), (6)).")


DECLARATION = PermitDeclaration(
    id="wetland_permit", title="Wetland permit", section="§ 402-57G",
    authority=fixed("Planning Board approval; permit issued by the Building Inspector (§ 402-57G)"),
    rule=_wetland_rule, clocks=_wetland_clocks,
    submissions=lambda: clause_numbers("§ 402-57K", 4) + clause_letters("§ 402-57K(5)", "abcdefghijkl") + ("§ 402-57K(6)",),
    exceptions=(ExceptionClause("§ 402-57H", "no regulated activity of § 402-57I", _no_regulated_activity),
                ExceptionClause("§ 402-57F", "grandfathered projects", _grandfathered),
                ExceptionClause("§ 402-57H(1)-(4)", "exempt activities", _wetland_exempt_activity)),
    timeline=("wetland_delineation", "wetland_permit_application", "wetland_permit"),
    plain=("a wetland permit", "from the Planning Board (the Building Inspector issues it)"), land_only=True)
