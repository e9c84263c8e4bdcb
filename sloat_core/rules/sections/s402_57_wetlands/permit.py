"""§ 402-57 Wetlands and watercourses: the wetland permit (G, I), grandfathering (F) and the exempt
activities (H); its clocks: the delineation's age (K(5)(a)), the hearing and its notice (L), the permit's
term and extension (J(4), O(1)), the notice before work starts (O(1)(c)) and mitigation monitoring (P(5)).
"""

from __future__ import annotations

from dateutil.relativedelta import relativedelta

from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import PRESENCE_MIN_SQFT, area_sqft, polygonal
from sloat_core.gis.roles import roles_of_kind
from sloat_core.law.params import value
from sloat_core.law import calendar as cal
from sloat_core.law.calendar import count
from sloat_core.rules.sections.s402_57_wetlands.activities import EXEMPT_WORDS, GRADING_FILL
from sloat_core.rules.sections.clock import ClockDeclaration, Field, Reader, Row, cite
from sloat_core.rules.sections.permit import (
    where_the_work_happens,
    Ruling, Facts, ExceptionClause, PermitDeclaration, clause_letters, clause_numbers, measure_in, in_region, fixed,
)


#: Wetlands, water bodies and watercourses: the resource roles (each carries the buffer of § 402-45A(1)).
_WATER_ROLES = roles_of_kind("resource")


#: With no footprint drawn: no where the parcel has no wetland, watercourse or buffer, otherwise unknown.
_LAND = where_the_work_happens("wetland_region")


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
                           missing=missing_text, key=_LAND.key)
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
    names = " or ".join(EXEMPT_WORDS[n] for n in claimed)
    acts = p.activities
    other = [a for a in (acts or ()) if a not in GRADING_FILL]
    if other:
        return Ruling(required=True, citation="§ 402-57G", citations=cites + ("§ 402-57I",),
                      reason=(f"The exemption for {names} ({', '.join(cites)}) does not cover the regulated "
                              f"activities {', '.join(f'({a})' for a in other)} of § 402-57I."))
    grading = [a for a in (acts or ()) if a in GRADING_FILL]
    if grading or (landscaping and acts is None):
        # Reading: customary landscaping "involving minor grading or filling" (§ 402-55C(1)) may be the
        # filling (I(3)) or alteration of contours (I(6)) that § 402-57I regulates: unknown, both clauses.
        gcites = tuple(f"§ 402-57I({a})" for a in (grading or GRADING_FILL))
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


# ------------------------------------------------------------------------------------------ clocks

def _wetland_permit(item: Reader) -> list[Row]:
    issued = item.date("issued")
    given = item.date("expires")
    years = value("wetland_permit_term_years", item.on)
    citation = f"{cite('wetland_permit_term_years', item.on)}, {cite('wetland_permit_condition_term_years', item.on)}"
    if given is not None:
        item.not_before(given, issued, "expiry date", "issue date")
        expires = given
        how = f"Expiry date stated on the permit ({cal.nice(given)})."
    else:
        expires = issued + relativedelta(years=years)
        how = (f"Unless the permit says otherwise it is valid for {cal.years(years)} from the date of "
               f"issue ({cal.nice(issued)}).")
    how += " It also expires when the work it allows is completed; a mitigation plan stays in force."
    days = value("wetland_extension_request_days", item.on)
    return [
        ("expires", expires, citation, f"The {item.name} expires", how),
        (
            "extension_request_deadline",
            expires - relativedelta(days=days),
            cite("wetland_extension_request_days", item.on),
            f"Last day to ask in writing for an extension of the {item.name}",
            f"The request must reach the Approval Authority at least {days} days before the permit "
            f"expires on {cal.nice(expires)}.",
        ),
    ]

def _wetland_application(item: Reader) -> list[Row]:
    complete = item.date("complete")
    hearing = item.date("hearing")
    days = value("wetland_hearing_days", item.on)
    notice_days = value("wetland_hearing_notice_days", item.on)
    limit = complete + relativedelta(days=days)
    rows: list[Row] = [
        (
            "hearing_deadline",
            limit,
            cite("wetland_hearing_days", item.on),
            f"Latest day for the Planning Board's public hearing on the {item.name}",
            f"The hearing must be held within {days} days of the complete application "
            f"({cal.nice(complete)}).",
        )
    ]
    if hearing is not None:
        item.not_before(hearing, complete, "hearing date", "completion date")
        basis = f"the hearing set for {cal.nice(hearing)}"
        if hearing > cal.act_by("hearing_deadline", limit):  # the day General Construction Law § 25-a gives
            basis += f", which is later than the {days}-day limit (the hearing deadline is missed)"
        target = hearing
    else:
        basis = f"a hearing held on the last permitted day, {cal.nice(limit)}"
        target = limit
    rows.append(
        (
            "notice_deadline",
            target - relativedelta(days=notice_days),
            cite("wetland_hearing_notice_days", item.on),
            f"Latest day to publish the newspaper notice of the hearing on the {item.name}",
            f"Notice must appear at least {notice_days} days before {basis}.",
        )
    )
    return rows

def _wetland_activity_start(item: Reader) -> list[Row]:
    start = item.date("start")
    days = value("wetland_start_notice_days", item.on)
    return [
        (
            "start_notice_deadline",
            start - relativedelta(days=days),
            cite("wetland_start_notice_days", item.on),
            "Last day to tell the Planning Board in writing when the wetland work will begin",
            f"The permit holder must give at least {cal.number_words(days)} days' notice of the start "
            f"on {cal.nice(start)}.",
        )
    ]

def _wetland_delineation(item: Reader) -> list[Row]:
    dated = item.date("dated")
    filing = item.date("filing")
    months = value("wetland_delineation_max_age_months", item.on)
    deadline = dated + relativedelta(months=months)
    detail = (f"The wetland delineation of {cal.nice(dated)} must have been done within {cal.months(months)} "
              "of the date the wetland permit application is filed.")
    if filing is not None:
        item.not_before(filing, dated, "filing date", "delineation date")
        detail += f" The application was filed on {cal.nice(filing)}."
    return [("filing_deadline", deadline, cite("wetland_delineation_max_age_months", item.on),
             "Last day to file the wetland permit application with this delineation", detail)]

def _mitigation_monitoring(item: Reader) -> list[Row]:
    completed = item.date("completed")
    lo, hi = value("mitigation_monitoring_min_years", item.on), value("mitigation_monitoring_max_years", item.on)
    years = item.number("years")
    if years is None:
        years = hi
    # § 402-57P(5): "In general, the monitoring period shall be three to five years" — the Planning Board
    # sets the period case by case, so any whole number of years is accepted and a period outside the
    # general range is flagged, not refused (reading, README "Readings").
    if years < 1:
        raise SloatInputError(f"The {item.name}'s monitoring period must be a whole number of years, at least one.")
    if completed.year + years > cal.YEARS[1]:
        raise SloatInputError(f"The {item.name}'s monitoring period of {str(years)[:12]} years runs outside the "
                              f"years {cal.YEARS[0]} to {cal.YEARS[1]} the timeline handles.")
    citation = cite("mitigation_monitoring_min_years", item.on)
    general = f"the law sets {cal.number_words(lo)} to {cal.number_words(hi)} years in general"
    outside = not lo <= years <= hi
    rows: list[Row] = []
    if years > lo and not outside:
        rows.append(("monitoring_min_end", completed + relativedelta(years=lo), citation,
                     "Shortest usual mitigation monitoring period ends",
                     f"{cal.years(lo).capitalize()} after the mitigation was completed on {cal.nice(completed)}."))
    detail = f"{cal.years(years).capitalize()} after the mitigation was completed on {cal.nice(completed)}; {general}."
    if outside:
        detail += (f" Warning: {cal.years(years)} is outside that general range; it holds only if the Planning Board "
                   "set it for this mitigation.")
    rows.append(("monitoring_end", completed + relativedelta(years=years), citation,
                 "Mitigation monitoring period ends" + (" (outside the general range)" if outside else ""), detail))
    return rows


PERMIT_CLOCK = ClockDeclaration(
    id="wetland_permit", name="wetland permit", order=10, starts="the day it was issued", rule=_wetland_permit,
    fields=(Field("issued", "Issued on", "issue date"),
            Field("expires", "Expiry stated on it", "expiry date", required=False)),
    words=lambda x: (f"Valid {count(value('wetland_permit_term_years', x.as_of), 'year')} from issue; extension requested at "
                     f"least {count(value('wetland_extension_request_days', x.as_of), 'day')} before expiry (§ 402-57J(4)).",))

APPLICATION = ClockDeclaration(
    id="wetland_permit_application", name="wetland permit application", order=20,
    starts="the day it was deemed complete", rule=_wetland_application, met_by=("hearing", "hearing_deadline"),
    fields=(Field("complete", "Deemed complete on", "date the application was deemed complete"),
            Field("hearing", "Hearing set for", "hearing date", required=False)),
    words=lambda x: (f"Hearing within {count(value('wetland_hearing_days', x.as_of), 'day')} of a complete application; "
                     f"newspaper notice at least {count(value('wetland_hearing_notice_days', x.as_of), 'day')} before "
                     "(§ 402-57L).",))

ACTIVITY_START = ClockDeclaration(
    id="wetland_activity_start", name="start of wetland work", order=30, rule=_wetland_activity_start,
    fields=(Field("start", "Work starts on", "start date"),),
    words=lambda x: (f"Notify the Planning Board at least {count(value('wetland_start_notice_days', x.as_of), 'day')} before "
                     "work starts (§ 402-57O(1)(c)).",))

DELINEATION = ClockDeclaration(
    id="wetland_delineation", name="wetland delineation", order=40, starts="the date on it",
    rule=_wetland_delineation, met_by=("filing", "filing_deadline"),
    fields=(Field("dated", "Delineation dated", "delineation date"),
            Field("filing", "Application filed on", "filing date", required=False)),
    words=lambda x: (f"Wetland delineation no more than {count(value('wetland_delineation_max_age_months', x.as_of), 'month')} "
                     "old at filing (§ 402-57K(5)(a)).",))

MITIGATION_MONITORING = ClockDeclaration(
    id="mitigation_monitoring", name="mitigation monitoring", order=50, rule=_mitigation_monitoring,
    fields=(Field("completed", "Mitigation completed on", "mitigation completion date"),
            Field("years", "Monitoring years", "monitoring period in years", kind="int", required=False)))


DECLARATION = PermitDeclaration(
    id="wetland_permit", order=20, title="Wetland permit", section="§ 402-57G",
    authority=fixed("Planning Board approval; permit issued by the Building Inspector (§ 402-57G)"),
    decider="Planning Board",
    rule=_wetland_rule,
    submissions=lambda: clause_numbers("§ 402-57K", 4) + clause_letters("§ 402-57K(5)", "abcdefghijkl") + ("§ 402-57K(6)",),
    exceptions=(ExceptionClause("§ 402-57H", "no regulated activity of § 402-57I", _no_regulated_activity),
                ExceptionClause("§ 402-57F", "grandfathered projects", _grandfathered),
                ExceptionClause("§ 402-57H(1)-(4)", "exempt activities", _wetland_exempt_activity)),
    clocks=(APPLICATION, PERMIT_CLOCK, ACTIVITY_START, DELINEATION, MITIGATION_MONITORING),
    timeline=(DELINEATION, APPLICATION, PERMIT_CLOCK),
    plain=("a wetland permit", "from the Planning Board (the Building Inspector issues it)"), land=_LAND,
    planning_board_permit=True)


PERMITS = (DECLARATION,)
