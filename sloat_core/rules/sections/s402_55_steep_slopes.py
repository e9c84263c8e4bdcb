"""§ 402-55 Steep slope protection: the steep slope permit, its authority and clocks, and the
§ 402-55J design limits as the engineer's checklist.
"""

from __future__ import annotations

from sloat_core.law.params import param, value
from sloat_core.rules.project import DESIGN_LIMITS, Project
from sloat_core.rules.sections.permit import (
    Ruling, Facts, ExceptionClause, PermitDeclaration, clause_letters, clause_numbers, month_day_text, in_region,
    planning_board_permits, before_planning_board, unless_text,
)


def _steep_authority(x: Facts) -> str:
    # § 402-55D(1): the Planning Board for "any site plan, subdivision, special use, or other application
    # which requires the issuance of a permit or approval by it"; D(2): the Village Engineer otherwise.
    pb = before_planning_board(x)
    sure, _ = planning_board_permits(x)
    if pb and not x.project.needs_planning_board and sure:
        return f"Planning Board: the proposal also needs its {' and '.join(sure)} (§ 402-55D(1))"
    if pb:
        return "Planning Board (§ 402-55D(1))"
    if pb is False:
        unless = unless_text(x)
        return f"Village Engineer (§ 402-55D(2)){unless}{' (§ 402-55D(1))' if unless else ''}"
    return ("Planning Board if a site plan, subdivision or special permit, or another permit or approval by it "
            "(such as a wetland or tree removal permit), is needed; otherwise the Village Engineer (§ 402-55D)")


def _steep_clocks(x: Facts) -> tuple[str, ...]:
    days = value("steep_slope_decision_days")
    pb = before_planning_board(x)
    if pb or x.project.application_type is not None:
        # § 402-55F: decided "simultaneously with" the other building, site plan, subdivision or other permit.
        decision = ("Decided together with the other permit or approval applied for; the "
                    f"{days}-day limit is only for activities needing no other permit (§ 402-55F).")
    else:
        decision = f"Stand-alone decision within {days} days of a complete application (§ 402-55F)."
    return (
        f"Valid {value('steep_slope_permit_term_years')} year from approval, or the other permit's period if later "
        "(§ 402-55H(2)).",
        f"Extension at most {value('steep_slope_extension_max_years')} year; request at least "
        f"{value('steep_slope_extension_request_months')} month before expiry (§ 402-55H(3)).",
        decision,
        f"No bare slopes {month_day_text('no_bare_slope_season_start')} - {month_day_text('no_bare_slope_season_end')}; "
        f"stabilise within {value('temporary_stabilization_days')} days (temporary) and "
        f"{value('permanent_stabilization_days')} days (permanent) of final grade (§ 402-55J(19), (21)).",
    )


def _steep_rule(x: Facts) -> Ruling:
    p = param("steep_slope_permit_threshold_pct")
    f = x.work
    if f.slope is None:
        return Ruling(required=None, reason="Unknown: no elevation model is loaded.", citation=p.citation)
    req, text = in_region(x, lambda g: f.slope_area_sqft_in("slope_ge_25", g),
                           f"slopes of {p.value}% or greater", lambda g: f.slope_area_sqft_in("unknown", g),
                           key="slope_ge_25")
    return Ruling(required=req, reason=text, citation="§ 402-55C(2)", citations=(p.citation,))


def _customary_landscaping(x: Facts) -> Ruling | None:
    if x.project.landscaping_only:
        return Ruling(required=False, reason="Customary landscaping with minor grading is exempt (§ 402-55C(1)).",
                      citation="§ 402-55C(1)", details=False)
    return None


def design_checklist(project: Project) -> list[dict]:
    """§ 402-55J(7), (11), (13), (14): the numeric design limits, each with the engineer's tick.

    ``met`` is the tick from the project (True / False) or None (not checked yet). Text is built from
    the parameters, never typed.

    >>> [i["id"] for i in design_checklist(Project())][:2]
    ['retaining_wall_length', 'retaining_wall_height']
    """
    ratio = str(value("cut_fill_max_slope_ratio"))
    texts = {
        "retaining_wall_length": f"No retaining wall longer than {value('retaining_wall_max_length_ft')} linear feet.",
        "retaining_wall_height": f"No retaining wall higher than {value('retaining_wall_max_height_ft')} feet.",
        "cut_height": f"No cut for a building site, road or driveway higher than {value('cut_max_height_ft')} feet.",
        "cut_fill_slope": f"Cut and fill slopes no steeper than {ratio} (vertical to horizontal) unless "
                          "structurally stabilized as the Village Engineer accepts.",
        "cut_fill_setback": f"Tops and bottoms of cuts and fills set back from structures, generally "
                            f"{value('cut_fill_setback_base_ft')} feet plus {_fraction('cut_fill_setback_height_fraction')} "
                            "the height of the cut or fill.",
    }
    ticks = dict(project.design_limits or ())
    return [{"id": k, "citation": c, "text": texts[k], "met": ticks.get(k)} for k, c in DESIGN_LIMITS.items()]


def _fraction(name: str) -> str:
    v = float(value(name))
    return {0.5: "one half of", 0.25: "one quarter of"}.get(v, f"{v:g} times")


DECLARATION = PermitDeclaration(
    id="steep_slope_permit", title="Steep slope permit", section="§ 402-55C(2)",
    authority=_steep_authority, rule=_steep_rule, clocks=_steep_clocks,
    submissions=lambda: clause_numbers("§ 402-55E", 4) + clause_letters("§ 402-55E(5)", "abcdefgh"),
    exceptions=(ExceptionClause("§ 402-55C(1)", "customary landscaping", _customary_landscaping),),
    timeline=("steep_slope_application", "steep_slope_permit"),
    plain=("a steep slope permit",
           "from the Planning Board (or the Village Engineer when nothing else is before the Board)"),
    land_only=True)
