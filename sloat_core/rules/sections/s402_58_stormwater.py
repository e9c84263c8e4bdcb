"""§ 402-58 Stormwater management: the SWPPP (C, E), post-construction controls (E(2)) and the
activities that "may be exempt" (D); its clocks: inspection reports (G(1)(b)), the notice before each
inspection stage (H(1)(a)), the performance guarantee (I(1)) and the appeal of a notice of violation (J(1)(f)).
"""

from __future__ import annotations

from dateutil.relativedelta import relativedelta

from sloat_core.law.params import value
from sloat_core.law import calendar as cal
from sloat_core.law.calendar import count
from sloat_core.rules.sections.clock import ClockDeclaration, Field, Reader, Row, cite
from sloat_core.units import SQFT_PER_ACRE
from sloat_core.rules.sections.permit import (
    PLANNING_BOARD_PERMITS,
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


def _swppp_rule(x: Facts) -> Ruling:
    d = x.project.disturbed_sqft
    threshold = _land_development_acres(x.settings)
    if d is None:
        return Ruling(required=None, reason="Unknown: give the disturbed area or draw the footprint.")
    if d / SQFT_PER_ACRE >= threshold:
        return Ruling(required=True, citations=("§ 402-58E(1)(d)",),
                      reason=f"Disturbance of {acres_text(d)} is a land development activity (at least "
                             f"{threshold:g} acre: local setting, to confirm with the Village). Phasing "
                             f"(§ 402-58E(1)(d)): {_phasing_rule(x).reason}")
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
        limit = float(value("routine_maintenance_exempt_max_acres", x.as_of))
        if x.project.disturbed_sqft / SQFT_PER_ACRE >= limit:
            claimed.remove(2)  # D(2) is for routine maintenance that disturbs "less than five acres"
    if not claimed:
        return None
    cites = tuple(f"§ 402-58D({n})" for n in claimed)
    return Ruling(required=None, citation=cites[0], citations=cites[1:],
                  reason=f"May be exempt ({', '.join(cites)}: {'; '.join(_D_WORDS[n] for n in claimed)}); "
                         "the Village Engineer decides.")


_A = "§ 402-58E(2)(a)"


def _post_construction_rule(x: Facts) -> Ruling:
    """Condition B (5 acres or more), then Condition A (impaired waters: no size, no one-family exclusion),
    then Condition C (1 to 5 acres, one-family dwellings excluded)."""
    d = x.project.disturbed_sqft
    impaired = x.project.impaired_water_drainage
    b, c = float(value("swppp_condition_b_min_acres", x.as_of)), float(value("swppp_condition_c_min_acres", x.as_of))
    a_yes = Ruling(required=True, citation=_A, reason=(
        (f"{acres_text(d)} disturbed, " if d is not None else "") + "runoff drains to a 303(d)-listed impaired water "
        "or a TMDL watershed: Condition A, which has no size and no one-family exclusion."))
    a_unknown = f"Condition A ({_A}, 303(d) impaired waters, any size) is not assessed (impaired_water_drainage)."
    if d is None:
        if impaired:
            return a_yes
        return Ruling(required=None, reason="Unknown: give the disturbed area." + (
            f" {a_unknown}" if impaired is None else ""))
    acres = d / SQFT_PER_ACRE
    if acres >= b:
        return Ruling(required=True, reason=f"{acres_text(d)} disturbed: Condition B ({b:g} or more acres).",
                      citation="§ 402-58E(2)(b)")
    if impaired:
        return a_yes
    c_ruling = None
    if acres >= c:
        if x.project.one_family_dwelling:
            c_ruling = Ruling(required=False, citation="§ 402-58E(2)(c)", details=False,
                              reason=f"{acres_text(d)} disturbed, but one-family dwellings are excluded from "
                                     "Condition C.")
        elif x.project.one_family_dwelling is None:
            c_ruling = Ruling(required=None, citation="§ 402-58E(2)(c)",
                              reason=f"{acres_text(d)} disturbed: Condition C applies unless this is a one-family "
                                     "dwelling.")
        else:
            return Ruling(required=True, citation="§ 402-58E(2)(c)",
                          reason=f"{acres_text(d)} disturbed: Condition C (between {c:g} and {b:g} acres).")
    else:
        c_ruling = Ruling(required=False, details=False, citation="§ 402-58E(2)(c)",
                          reason=f"{acres_text(d)} disturbed: under {c:g} acre, so neither Condition B nor C.")
    if impaired is None:
        return Ruling(required=None, citation=_A, citations=(c_ruling.citation,),
                      reason=f"Unknown: {c_ruling.reason} {a_unknown}")
    return Ruling(required=c_ruling.required, citation=c_ruling.citation, citations=(_A,), details=c_ruling.details,
                  reason=f"{c_ruling.reason} Runoff does not drain to a 303(d)-listed impaired water or TMDL "
                         f"watershed (as given), so not Condition A ({_A}).")


def _phasing_rule(x: Facts) -> Ruling:
    """§ 402-58E(1)(d): "not more than five acres shall be disturbed at any one time unless pursuant to an
    approved SWPPP": five acres or more at once is its own question, answered by the phasing figure."""
    limit = float(value("max_disturbed_at_once_acres", x.as_of))
    at_once = x.project.disturbed_at_one_time_acres
    d = x.project.disturbed_sqft
    if at_once is None and d is not None and d / SQFT_PER_ACRE < limit:
        at_once = d / SQFT_PER_ACRE  # the whole disturbance is under the limit, so any part of it is
    if at_once is None:
        return Ruling(required=None, reason=(
            f"unknown: how many acres at any one time? {limit:g} acres or more must be allowed by the approved SWPPP."))
    if at_once >= limit:
        return Ruling(required=True, reason=(
            f"{at_once:,.2f} acres disturbed at one time: {limit:g} acres or more, so the approved SWPPP must "
            f"allow it (its phasing plan); under {limit:g} acres at a time it would not need to."))
    return Ruling(required=False, details=False, reason=(
        f"{at_once:,.2f} acres disturbed at one time: under {limit:g} acres, within § 402-58E(1)(d) "
        f"without a special allowance ({limit:g} acres or more would need the approved SWPPP to allow it)."))


# ------------------------------------------------------------------------------------------ clocks

def _swppp_inspections(item: Reader) -> list[Row]:
    start = item.date("start")
    end = item.date("end")
    item.not_before(end, start, "end date", "start date")
    every = value("swppp_inspection_interval_days", item.on)
    hours, inches = value("swppp_storm_inspection_hours", item.on), value("swppp_storm_event_inches", item.on)
    citation = cite("swppp_inspection_interval_days", item.on)
    rows: list[Row] = []
    n = 1
    due = start + relativedelta(days=every)
    while due <= end:
        rows.append(("inspection_due", due, citation, f"Erosion and sediment control inspection report due (no. {n})",
                     f"Reports every {cal.number_words(every)} days from {cal.nice(start)}, and also within "
                     f"{hours} hours of any storm producing {inches:g} inches of rain or more."))
        n += 1
        due = start + relativedelta(days=every * n)
    return rows


def _inspection_notice(item: Reader) -> list[Row]:
    planned = item.date("planned")
    hours = value("inspection_notice_hours", item.on)
    return [("notice_deadline", planned - relativedelta(days=cal.hours_as_days(hours)), cite("inspection_notice_hours", item.on),
             f"Last day to notify the Building Inspector of the {item.name}",
             f"The applicant must notify the Building Inspector at least {hours} hours before the inspection stage "
             f"planned for {cal.nice(planned)} (start of construction, erosion controls, clearing, grading, close of "
             "the season, landscaping).")]


#: Largest rainfall a storm item takes, in inches (more is a typing error, not a storm).
_MAX_RAIN_IN = 100.0


def _storm_event(item: Reader) -> list[Row]:
    """§ 402-58G(1)(b): a report within 24 hours of a storm producing 0.5 inches of precipitation or more.

    The rainfall, when given, is compared with the parameter: a storm below it makes no deadline; a storm
    whose rainfall is not given is told with the threshold (it is due only if the storm reached it).
    """
    day = item.date("date")
    rain = item.amount("rainfall_in", _MAX_RAIN_IN)
    hours, inches = value("swppp_storm_inspection_hours", item.on), value("swppp_storm_event_inches", item.on)
    if rain is not None and rain < inches:
        return []
    measured = (f"{rain:g} inches of rain fell, at least the {inches:g} inches of § 402-58G(1)(b)"
                if rain is not None else
                "rainfall not given: due only if the storm reached it")
    return [("storm_report_deadline", day + relativedelta(days=cal.hours_as_days(hours)),
             cite("swppp_storm_inspection_hours", item.on), "Erosion and sediment control inspection report due after a storm",
             f"Within {hours} hours of a storm producing {inches:g} inches of rain or more, on {cal.nice(day)} "
             f"({measured}); the report goes to the Village Engineer and into the site log book.")]


def _notice_of_violation(item: Reader) -> list[Row]:
    served = item.date("served")
    days = value("stormwater_appeal_days", item.on)
    return [("appeal_deadline", served + relativedelta(days=days), cite("stormwater_appeal_days", item.on),
             f"Last day to file a written notice of appeal of the {item.name}",
             f"Within {days} days of service of the notice of violation on {cal.nice(served)}.")]


def _performance_guarantee(item: Reader) -> list[Row]:
    accepted = item.date("final_acceptance")
    years = value("performance_guarantee_min_years", item.on)
    return [("guarantee_earliest_end", accepted + relativedelta(years=years), cite("performance_guarantee_min_years", item.on),
             f"Earliest day the {item.name} may end",
             f"It stays in force not less than {cal.years(years)} from the date of final acceptance, "
             f"{cal.nice(accepted)}.")]


#: Its words say the storm reports too (`STORM_EVENT`), in the same sentence (G(1)(b)).
INSPECTIONS = ClockDeclaration(
    id="swppp_inspections", name="SWPPP inspections", order=120, starts="construction start and end",
    rule=_swppp_inspections, repeats="inspection_due",
    fields=(Field("start", "Construction starts on", "construction start date"),
            Field("end", "Construction ends on", "construction end date")),
    words=lambda x: (f"Inspection reports every {count(value('swppp_inspection_interval_days', x.as_of), 'day')} and within "
                     f"{count(value('swppp_storm_inspection_hours', x.as_of), 'hour')} of a storm of "
                     f"{value('swppp_storm_event_inches', x.as_of)} inches or more (§ 402-58G(1)(b)).",))

INSPECTION_NOTICE = ClockDeclaration(
    id="inspection_notice", name="inspection stage", order=140, rule=_inspection_notice,
    fields=(Field("planned", "Inspection stage planned for", "planned inspection stage date"),),
    words=lambda x: (f"Notify the Building Inspector at least {count(value('inspection_notice_hours', x.as_of), 'hour')} "
                     "before each inspection stage (§ 402-58H(1)(a)).",))

STORM_EVENT = ClockDeclaration(
    id="storm_event", name="storm", order=150, rule=_storm_event,
    fields=(Field("date", "Storm on", "date of the storm"),
            Field("rainfall_in", "Rainfall (inches)", "rainfall in inches", kind="inches", required=False)))

NOTICE_OF_VIOLATION = ClockDeclaration(
    id="stormwater_notice_of_violation", name="stormwater notice of violation", order=160,
    rule=_notice_of_violation, fields=(Field("served", "Notice served on", "date the notice of violation was served"),))

PERFORMANCE_GUARANTEE = ClockDeclaration(
    id="performance_guarantee", name="stormwater performance guarantee", order=170, rule=_performance_guarantee,
    fields=(Field("final_acceptance", "Final acceptance on", "date of final acceptance"),))


SWPPP = PermitDeclaration(
    id="swppp", order=40, title="Stormwater pollution prevention plan (SWPPP)", section="§ 402-58E",
    authority=_swppp_authority, decider="Village Engineer", rule=_swppp_rule,
    submissions=lambda: clause_letters("§ 402-58E(1)", "abcdefghijklmnop"),
    exceptions=(ExceptionClause("§ 402-58D", "may be exempt", _swppp_may_be_exempt),),
    clocks=(INSPECTIONS, INSPECTION_NOTICE, STORM_EVENT, NOTICE_OF_VIOLATION, PERFORMANCE_GUARANTEE),
    timeline=(INSPECTIONS,),
    plain=("a stormwater plan (SWPPP)", "reviewed by the Village Engineer and the Planning Board"),
    depends_on=(PLANNING_BOARD_PERMITS,), study="an engineer to prepare a stormwater plan (SWPPP)")

POST_CONSTRUCTION = PermitDeclaration(
    id="swppp_post_construction", order=50, title="Post-construction stormwater controls (SWPPP Conditions A/B/C)",
    section="§ 402-58E(2)", authority=fixed("Village Engineer"), decider="Village Engineer",
    rule=_post_construction_rule,
    submissions=lambda: clause_letters("§ 402-58E(3)", "abcdefghi"),
    exceptions=(ExceptionClause("§ 402-58D", "may be exempt", _swppp_may_be_exempt),),
    plain=("permanent stormwater controls", "reviewed by the Village Engineer"))


PERMITS = (SWPPP, POST_CONSTRUCTION)
