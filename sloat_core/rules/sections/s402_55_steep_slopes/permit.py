"""§ 402-55 Steep slope protection: the steep slope permit, its authority and the § 402-55J design limits
as the engineer's checklist; its clocks: the decision (F), the permit's term and extension (H(2)-(3)), the
earliest clearing (J(20)), the winter season (J(19)) and stabilization after final grade (J(21)).
"""

from __future__ import annotations


from dateutil.relativedelta import relativedelta

from sloat_core.errors import SloatInputError
from sloat_core.law.params import param, value
from sloat_core.law import calendar as cal
from sloat_core.law.calendar import count
from sloat_core.rules.sections.clock import ClockDeclaration, Field, Reader, Row, cite
from sloat_core.rules.sections.permit import (
    PLANNING_BOARD_PERMITS, where_the_work_happens,
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


def _steep_decider(x: Facts) -> str:
    # § 402-55D: the Planning Board when the proposal is before it, or may be (D(1)); the Village Engineer when it
    # is not (D(2)). The same reading as `_steep_authority`'s words.
    return "Village Engineer" if before_planning_board(x) is False else "Planning Board"


def _decision_words(x: Facts) -> tuple[str, ...]:
    days = value("steep_slope_decision_days", x.as_of)
    if before_planning_board(x) or x.project.application_type is not None:
        # § 402-55F: decided "simultaneously with" the other building, site plan, subdivision or other permit.
        return ("Decided together with the other permit or approval applied for; the "
                f"{days}-day limit is only for activities needing no other permit (§ 402-55F).",)
    return (f"Stand-alone decision within {count(days, 'day')} of a complete application (§ 402-55F).",)


#: With no footprint drawn: no where the parcel has no slope of 25 % or more, otherwise unknown.
_LAND = where_the_work_happens("slope_ge_25")


def _steep_rule(x: Facts) -> Ruling:
    p = param("steep_slope_permit_threshold_pct", x.as_of)
    f = x.work
    if f.slope is None:
        return Ruling(required=None, reason="Unknown: no elevation model is loaded.", citation=p.citation)
    req, text = in_region(x, lambda g: f.slope_area_sqft_in("slope_ge_25", g),
                           f"slopes of {p.value}% or greater", lambda g: f.slope_area_sqft_in("unknown", g),
                           key=_LAND.key)
    return Ruling(required=req, reason=text, citation="§ 402-55C(2)", citations=(p.citation,))


def _customary_landscaping(x: Facts) -> Ruling | None:
    if x.project.landscaping_only:
        return Ruling(required=False, reason="Customary landscaping with minor grading is exempt (§ 402-55C(1)).",
                      citation="§ 402-55C(1)", details=False)
    return None


# ------------------------------------------------------------------------------------------ clocks

def _steep_slope_application(item: Reader) -> list[Row]:
    complete = item.date("complete")
    days = value("steep_slope_decision_days", item.on)
    return [
        (
            "decision_deadline",
            complete + relativedelta(days=days),
            cite("steep_slope_decision_days", item.on),
            f"Latest day for a decision on the {item.name} (when no other approval is needed)",
            f"Within {days} days of the application being deemed complete on {cal.nice(complete)}; when "
            "another permit or approval is needed, the decision is made together with it.",
        )
    ]


def _steep_slope_permit(item: Reader) -> list[Row]:
    issued = item.date("issued")
    other = item.date("other_permit_expires")
    years = value("steep_slope_permit_term_years", item.on)
    own = issued + relativedelta(years=years)
    how = f"Valid for {cal.years(years)} from approval on {cal.nice(issued)}"
    if other is not None:
        item.not_before(other, issued, "other permit's expiry date", "approval date")
        how += f" or until the other permit expires on {cal.nice(other)}, whichever is later"
    expires = max(own, other) if other is not None else own
    how += "; it also expires when the work is completed."
    months = value("steep_slope_extension_request_months", item.on)
    ext_years = value("steep_slope_extension_max_years", item.on)
    return [
        ("expires", expires, cite("steep_slope_permit_term_years", item.on), f"The {item.name} expires", how),
        (
            "extension_request_deadline",
            expires - relativedelta(months=months),
            cite("steep_slope_extension_request_months", item.on),
            f"Last day to file a request to extend the {item.name}",
            f"At least {cal.months(months)} before it expires on {cal.nice(expires)}.",
        ),
        (
            "latest_extended_expiry",
            expires + relativedelta(years=ext_years),
            cite("steep_slope_extension_max_years", item.on),
            f"Latest possible expiry of the {item.name} if extended",
            f"An extension may run no more than {cal.years(ext_years)} from the original expiry on "
            f"{cal.nice(expires)}.",
        ),
    ]


def _grading(item: Reader) -> list[Row]:
    final = item.date("final_grade")
    temp, perm = value("temporary_stabilization_days", item.on), value("permanent_stabilization_days", item.on)
    return [
        ("temporary_stabilization_deadline", final + relativedelta(days=temp), cite("temporary_stabilization_days", item.on),
         "Temporary soil stabilization (netting, mulching) must be in place",
         f"Within {cal.number_words(temp)} days of reaching final grade on {cal.nice(final)}."),
        ("permanent_stabilization_deadline", final + relativedelta(days=perm), cite("permanent_stabilization_days", item.on),
         "Permanent stabilization must be in place",
         f"Within {perm} days of reaching final grade on {cal.nice(final)}."),
    ]


def _clearing(item: Reader) -> list[Row]:
    start = item.date("grading_start")
    days = value("vegetation_clearing_max_days_before_grading", item.on)
    return [
        ("clearing_earliest_start", start - relativedelta(days=days),
         cite("vegetation_clearing_max_days_before_grading", item.on),
         "Earliest day to disturb existing vegetative ground cover",
         f"Not more than {days} days before grading and construction begin on {cal.nice(start)}."),
    ]


def _winter_season(item: Reader) -> list[Row]:
    year = item.number("year")
    if not cal.YEARS[0] <= year <= cal.YEARS[1]:
        raise SloatInputError(f"The {item.name}'s year, {year}, is out of range.")
    start = cal.month_day(value("no_bare_slope_season_start", item.on), year)
    end = cal.month_day(value("no_bare_slope_season_end", item.on), year + 1)
    citation = cite("no_bare_slope_season_start", item.on)
    why = ("Steep slope work must be done in units that can be completed and stabilized in one "
           "construction season, so that no area is left bare over winter and the spring thaw.")
    return [
        ("season_start", start, citation, "Winter and spring-thaw season begins: no bare disturbed steep slopes", why),
        ("season_end", end, citation, "Winter and spring-thaw season ends (last day)", why),
    ]


APPLICATION = ClockDeclaration(
    id="steep_slope_application", name="steep slope permit application", order=60,
    starts="the day it was deemed complete", rule=_steep_slope_application,
    fields=(Field("complete", "Deemed complete on", "date the application was deemed complete"),),
    words=_decision_words)

PERMIT_CLOCK = ClockDeclaration(
    id="steep_slope_permit", name="steep slope permit", order=70, starts="the day it was approved",
    rule=_steep_slope_permit,
    fields=(Field("issued", "Approved on", "approval date"),
            Field("other_permit_expires", "Other permit expires on", "other permit's expiry date", required=False)),
    words=lambda x: (
        f"Valid {count(value('steep_slope_permit_term_years', x.as_of), 'year')} from approval, or the other permit's period "
        "if later (§ 402-55H(2)).",
        f"Extension at most {count(value('steep_slope_extension_max_years', x.as_of), 'year')}; request at least "
        f"{count(value('steep_slope_extension_request_months', x.as_of), 'month')} before expiry (§ 402-55H(3))."))

GRADING = ClockDeclaration(
    id="grading", name="grading", order=100, rule=_grading,
    fields=(Field("final_grade", "Final grade reached on", "date final grade was reached"),))

CLEARING = ClockDeclaration(
    id="clearing", name="clearing", order=110, rule=_clearing,
    fields=(Field("grading_start", "Grading starts on", "grading start date"),))

#: Its words say the season and, in the same sentence, the stabilization periods of `GRADING` (J(21)).
WINTER_SEASON = ClockDeclaration(
    id="winter_season", name="winter season", order=130, rule=_winter_season,
    fields=(Field("year", "Season starting in the year", "year", kind="int"),),
    words=lambda x: (
        f"No bare slopes {month_day_text('no_bare_slope_season_start', x.as_of)} - "
        f"{month_day_text('no_bare_slope_season_end', x.as_of)}; stabilise within "
        f"{count(value('temporary_stabilization_days', x.as_of), 'day')} (temporary) and "
        f"{count(value('permanent_stabilization_days', x.as_of), 'day')} (permanent) of final grade (§ 402-55J(19), (21)).",))


DECLARATION = PermitDeclaration(
    id="steep_slope_permit", order=10, title="Steep slope permit", section="§ 402-55C(2)",
    authority=_steep_authority, decider=_steep_decider, rule=_steep_rule,
    submissions=lambda: clause_numbers("§ 402-55E", 4) + clause_letters("§ 402-55E(5)", "abcdefgh"),
    exceptions=(ExceptionClause("§ 402-55C(1)", "customary landscaping", _customary_landscaping),),
    clocks=(PERMIT_CLOCK, APPLICATION, WINTER_SEASON, GRADING, CLEARING),
    timeline=(APPLICATION, PERMIT_CLOCK),
    plain=("a steep slope permit",
           "from the Planning Board (or the Village Engineer when nothing else is before the Board)"),
    land=_LAND, depends_on=(PLANNING_BOARD_PERMITS,))


PERMITS = (DECLARATION,)
