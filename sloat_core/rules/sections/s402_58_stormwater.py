"""§ 402-58 Stormwater management: the SWPPP (C, E), post-construction controls (E(2)) and the
activities that "may be exempt" (D).
"""

from __future__ import annotations

from sloat_core.law.params import value
from sloat_core.units import SQFT_PER_ACRE
from sloat_core.rules.sections.permit import (
    Ruling, Facts, ExceptionClause, PermitDeclaration, clause_letters, acres_text, before_planning_board, unless_text,
    fixed,
)


def _land_development_acres(settings) -> float:
    return float(getattr(settings, "land_development_min_acres", 1.0))


def _swppp_authority(x: Facts) -> str:
    pb = before_planning_board(x)
    if pb is False:
        # § 402-58C(4): activities not before the Planning Board submit the SWPPP to the Village Engineer,
        # "who shall approve the SWPPP if it complies".
        unless = unless_text(x)
        return ("Village Engineer approves (§ 402-58C(4)): the project is not before the Planning Board"
                + (f"{unless} (then § 402-58C(2), (3))" if unless else ""))
    return "Village Engineer accepts and reviews, then forwards to the Planning Board (§ 402-58C(2))"


def _swppp_clocks(x: Facts) -> tuple[str, ...]:
    return (f"Inspection reports every {value('swppp_inspection_interval_days')} days and within "
            f"{value('swppp_storm_inspection_hours')} hours of a storm of {value('swppp_storm_event_inches')} "
            "inches or more (§ 402-58G(1)(b)).",
            f"Notify the Building Inspector at least {value('inspection_notice_hours')} hours before each "
            "inspection stage (§ 402-58H(1)(a)).")


def _swppp_rule(x: Facts) -> Ruling:
    d = x.project.disturbed_sqft
    threshold = _land_development_acres(x.settings)
    if d is None:
        return Ruling(required=None, reason="Unknown: give the disturbed area or draw the footprint.")
    if d / SQFT_PER_ACRE >= threshold:
        return Ruling(required=True, reason=f"Disturbance of {acres_text(d)} is a land development activity (at least "
                                            f"{threshold:g} acre: local setting, to confirm with the Village).")
    return Ruling(required=False, details=False,
                  reason=f"Disturbance of {acres_text(d)} is under {threshold:g} acre (local setting for 'land "
                         "development activity', to confirm with the Village).")


_D_WORDS = {1: "agricultural activity", 2: "routine maintenance keeping a facility's line, grade or purpose",
            3: "repairs to a stormwater practice the Village Engineer deems necessary",
            4: "part of a subdivision whose plat had final approval on or before the effective date",
            5: "work with a building permit approved on or before the effective date", 6: "cemetery graves",
            7: "fences, signs and poles", 8: "emergency activity to protect life, property or natural resources",
            9: "home gardening", 10: "landscaping and horticulture with an existing structure"}


def _swppp_may_be_exempt(x: Facts) -> Ruling | None:
    """§ 402-58D: "may be exempt" — the answer is unknown, the Village Engineer decides."""
    claimed = list(x.project.swppp_exemptions or ())
    if 2 in claimed and x.project.disturbed_sqft is not None:
        limit = float(value("routine_maintenance_exempt_max_acres"))
        if x.project.disturbed_sqft / SQFT_PER_ACRE >= limit:
            claimed.remove(2)  # D(2) is for routine maintenance that disturbs "less than five acres"
    if not claimed:
        return None
    cites = tuple(f"§ 402-58D({n})" for n in claimed)
    return Ruling(required=None, citation=cites[0], citations=cites[1:],
                  reason=f"May be exempt ({', '.join(cites)}: {'; '.join(_D_WORDS[n] for n in claimed)}); "
                         "the Village Engineer decides.")


def _post_construction_rule(x: Facts) -> Ruling:
    d = x.project.disturbed_sqft
    b, c = float(value("swppp_condition_b_min_acres")), float(value("swppp_condition_c_min_acres"))
    if d is None:
        return Ruling(required=None, reason="Unknown: give the disturbed area.")
    acres = d / SQFT_PER_ACRE
    if acres >= b:
        return Ruling(required=True, reason=f"{acres_text(d)} disturbed: Condition B ({b:g} or more acres).",
                      citation="§ 402-58E(2)(b)")
    if acres >= c:
        if x.project.one_family_dwelling:
            return Ruling(required=False, citation="§ 402-58E(2)(c)", details=False,
                          reason=f"{acres_text(d)} disturbed, but one-family dwellings are excluded from Condition C.")
        if x.project.one_family_dwelling is None:
            return Ruling(required=None, citation="§ 402-58E(2)(c)",
                          reason=f"{acres_text(d)} disturbed: Condition C applies unless this is a one-family dwelling.")
        return Ruling(required=True, citation="§ 402-58E(2)(c)",
                      reason=f"{acres_text(d)} disturbed: Condition C (between {c:g} and {b:g} acres).")
    return Ruling(required=False, details=False,
                  reason=f"{acres_text(d)} disturbed: under {c:g} acre (Condition A, impaired waters, not assessed here).")


SWPPP = PermitDeclaration(
    id="swppp", title="Stormwater pollution prevention plan (SWPPP)", section="§ 402-58E",
    authority=_swppp_authority, rule=_swppp_rule, clocks=_swppp_clocks,
    submissions=lambda: clause_letters("§ 402-58E(1)", "abcdefghijklmnop"),
    exceptions=(ExceptionClause("§ 402-58D", "may be exempt", _swppp_may_be_exempt),),
    timeline=("swppp_inspections",),
    plain=("a stormwater plan (SWPPP)", "reviewed by the Village Engineer and the Planning Board"))

POST_CONSTRUCTION = PermitDeclaration(
    id="swppp_post_construction", title="Post-construction stormwater controls (SWPPP Conditions B/C)",
    section="§ 402-58E(2)", authority=fixed("Village Engineer"), rule=_post_construction_rule,
    submissions=lambda: clause_letters("§ 402-58E(3)", "abcdefghi"),
    exceptions=(ExceptionClause("§ 402-58D", "may be exempt", _swppp_may_be_exempt),),
    plain=("permanent stormwater controls", "reviewed by the Village Engineer"))
