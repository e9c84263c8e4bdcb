"""Every clock Article IX sets: expiries, extension requests, hearings, notices, seasons, inspections.

:func:`timeline_events` turns a list of dated items (a permit issued on a day, an application
deemed complete on a day, a study dated a day ...) into dated events, each with the clause of
Article IX that sets it, a plain-English label and a status as of a given day.
The events are written as an RFC 5545 calendar file by :func:`sloat_core.outputs.ics.to_ics`.

Calendar rules
--------------
* Periods in years and months are calendar periods (``dateutil.relativedelta``), never 365-day
  years. A month or year added to a day that the target month lacks lands on that month's last
  day: a study dated 29 February 2024 and "valid for a period of three years" is valid to
  28 February 2027; a permit issued 31 January for one month runs to 28 (or 29) February.
* "Valid for a period of one year from the date of issue": the date shown is the last day of the
  period, the anniversary of the start (the day of issue itself is not counted, the last day is).
  This is the reading used throughout; confirm it with the Village for a real deadline.
* "At least N days prior to" a date: the last day that satisfies it is that date minus N days.
* Every number comes from ``data/law/parameters.yaml`` through :func:`sloat_core.law.params.param`,
  and each event's citation is the parameter's citation.

Items
-----
=============================  ==============================================  ===================
``id``                          keys (``?`` optional)                           clause
=============================  ==============================================  ===================
wetland_permit                  issued, expires?                                § 402-57J(4), O(1)
wetland_permit_application      complete, hearing?                              § 402-57L
wetland_activity_start          start                                           § 402-57O(1)(c)
wetland_delineation             dated, filing?                                  § 402-57K(5)(a)
mitigation_monitoring           completed, years? (whole years >= 1)            § 402-57P(5)
steep_slope_application         complete                                        § 402-55F
steep_slope_permit              issued, other_permit_expires?                   § 402-55H(2)-(3)
tree_removal_permit             issued, term_months? (at most 12)               § 402-53D
biodiversity_study              dated                                           § 402-54B
grading                         final_grade                                     § 402-55J(21)
clearing                        grading_start                                   § 402-55J(20)
swppp_inspections               start, end                                      § 402-58G(1)(b)
winter_season                   year                                            § 402-55J(19)
inspection_notice               planned                                         § 402-58H(1)(a)
storm_event                     date                                            § 402-58G(1)(b)
stormwater_notice_of_violation  served                                          § 402-58J(1)(f)
performance_guarantee           final_acceptance                                § 402-58I(1)
open_space_charge               billed                                          § 402-48G(3)(f)[2]
=============================  ==============================================  ===================

Every item may also carry ``ref`` (a short name such as a permit number) that is added to the
event ids and labels, so two permits of the same kind stay apart. Dates are ``datetime.date`` or
ISO strings ``"YYYY-MM-DD"``.

Statuses
--------
Expiry kinds (``expires``, ``valid_until``, ``latest_extended_expiry``): ``"active"``,
``"expiring"`` (the date is within the "expiring soon" window, inclusive: 90 days in the local
settings), ``"expired"`` (the day after the date). Every other kind is a deadline or a date to
watch: ``"upcoming"``, ``"due_soon"`` (same window, inclusive), ``"passed"``. A wetland delineation
given with its filing date gets ``"met"`` or ``"missed"`` instead. "Not before" kinds
(:data:`NOT_BEFORE_KINDS`: the earliest day to clear, the earliest end of a performance guarantee, the
first day an unpaid charge can be a lien) get ``"not_yet"`` before the day and ``"reached"`` from it.

Weekends and holidays
---------------------
The event date is always the statutory date. Where a deadline for an act falls on a Saturday, Sunday
or New York public holiday (the ``holidays`` package), ``note`` says that General Construction Law
§ 25-a carries the act to the next business day, and which day that is (a reading: confirm with the
Village).
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterable

from dateutil.relativedelta import relativedelta

from sloat_core.errors import SloatInputError
from sloat_core.law.params import law_date, param
from sloat_core.rules import calendar as cal
from sloat_core.rules.calendar import EXPIRY_KINDS, NOT_BEFORE_KINDS, next_business_day

__all__ = [
    "DEADLINE_STATUSES",
    "EXPIRY_KINDS",
    "EXPIRY_STATUSES",
    "ITEM_KINDS",
    "NOT_BEFORE_KINDS",
    "NOT_BEFORE_STATUSES",
    "DONE_STATUSES",
    "STATUS_WORDS",
    "next_business_day",
    "Event",
    "status_as_of",
    "timeline_events",
]

EXPIRY_STATUSES = ("active", "expiring", "expired")
DEADLINE_STATUSES = ("upcoming", "due_soon", "passed")
NOT_BEFORE_STATUSES = ("not_yet", "reached")
#: Statuses with nothing left to wait for: the date has passed, or a "not before" day has come
#: ("reached": the act may happen now). "not_yet" is still ahead.
DONE_STATUSES = frozenset({"passed", "expired", "met", "missed", "reached"})
#: Each status in words, the same in the app's timeline and the PDF report.
STATUS_WORDS = {
    "active": "Active",
    "expiring": "Expiring soon",
    "expired": "Expired",
    "upcoming": "Upcoming",
    "due_soon": "Due soon",
    "passed": "Passed",
    "met": "Met",
    "missed": "Missed",
    "not_yet": "Not before this day",
    "reached": "From this day on",
}


@dataclass(frozen=True)
class Event:
    """One dated event of the timeline.

    Attributes
    ----------
    id : str
        Stable slug, e.g. ``"wetland-permit-expires"`` (also the basis of the calendar UID).
    item_id : str
        The item it came from, e.g. ``"wetland_permit"``.
    kind : str
        ``"expires"``, ``"extension_request_deadline"``, ``"hearing_deadline"`` ...
    date : datetime.date
    citation : str
        The clause of Article IX that sets the date, e.g. ``"§ 402-57J(4)"``.
    status : str
        As of the day asked about (see the module docstring).
    label : str
        One plain-English line.
    detail : str
        How the date was worked out, in plain English.
    """

    id: str
    item_id: str
    kind: str
    date: _dt.date
    citation: str
    status: str
    label: str
    detail: str = ""
    #: Set when the date of a deadline is a Saturday, Sunday or public holiday (General Construction Law § 25-a).
    note: str = ""

    def to_dict(self) -> dict:
        """The event as JSON-ready values (date as ISO text)."""
        d = asdict(self)
        d["date"] = self.date.isoformat()
        return d


# --------------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------------

def _p(name: str) -> Any:
    return param(name).value


def _cite(name: str) -> str:
    return param(name).citation


def status_as_of(kind: str, date: _dt.date, as_of: _dt.date, expiring_soon_days: int) -> str:
    """Status of an event of ``kind`` falling on ``date``, seen on ``as_of``.

    Parameters
    ----------
    kind : str
        Event kind; expiry kinds (:data:`EXPIRY_KINDS`) get expiry statuses.
    date, as_of : datetime.date
    expiring_soon_days : int
        The "expiring soon" / "due soon" window in days, inclusive at both ends.

    Returns
    -------
    str
        ``"active"``, ``"expiring"`` or ``"expired"`` for expiries; ``"not_yet"`` or ``"reached"`` for
        "not before" days; ``"upcoming"``, ``"due_soon"`` or ``"passed"`` otherwise.

    Examples
    --------
    >>> status_as_of("expires", _dt.date(2027, 3, 1), _dt.date(2026, 12, 1), 90)
    'expiring'
    >>> status_as_of("expires", _dt.date(2027, 3, 1), _dt.date(2027, 3, 2), 90)
    'expired'
    >>> status_as_of("clearing_earliest_start", _dt.date(2027, 3, 1), _dt.date(2027, 2, 20), 90)
    'not_yet'
    """
    days_left = (date - as_of).days
    if kind in NOT_BEFORE_KINDS:
        return "not_yet" if days_left > 0 else "reached"
    expiry = kind in EXPIRY_KINDS
    if days_left < 0:
        return "expired" if expiry else "passed"
    if days_left <= expiring_soon_days:
        return "expiring" if expiry else "due_soon"
    return "active" if expiry else "upcoming"


# --------------------------------------------------------------------------------------------
# item rules: each returns (kind, date, citation, label, detail) tuples
# --------------------------------------------------------------------------------------------

_Row = tuple[str, _dt.date, str, str, str]


class _Item:
    """One input item with its display name, for reading keys with plain error messages."""

    def __init__(self, raw: dict, name: str, ref: str | None):
        self.raw = raw
        self.name = name if not ref else f"{name} {ref}"

    def date(self, key: str, words: str, *, required: bool = True) -> _dt.date | None:
        if key not in self.raw or self.raw[key] in (None, ""):
            if required:
                raise SloatInputError(f"The {self.name} is missing its {words} ('{key}').")
            return None
        return cal.as_date(self.raw[key], f"The {self.name}'s {words}")

    def number(self, key: str, words: str) -> int | None:
        if key not in self.raw or self.raw[key] in (None, ""):
            return None
        return cal.whole_number(self.raw[key], f"The {self.name}'s {words}")


def _not_before(item: _Item, later: _dt.date, earlier: _dt.date, later_words: str, earlier_words: str) -> None:
    if later < earlier:
        raise SloatInputError(
            f"The {item.name}'s {later_words} ({later.isoformat()}) is before its {earlier_words} "
            f"({earlier.isoformat()})."
        )


def _wetland_permit(item: _Item) -> list[_Row]:
    issued = item.date("issued", "issue date")
    given = item.date("expires", "expiry date", required=False)
    years = _p("wetland_permit_term_years")
    citation = f"{_cite('wetland_permit_term_years')}, {_cite('wetland_permit_condition_term_years')}"
    if given is not None:
        _not_before(item, given, issued, "expiry date", "issue date")
        expires = given
        how = f"Expiry date stated on the permit ({cal.nice(given)})."
    else:
        expires = issued + relativedelta(years=years)
        how = (f"Unless the permit says otherwise it is valid for {cal.years(years)} from the date of "
               f"issue ({cal.nice(issued)}).")
    how += " It also expires when the work it allows is completed; a mitigation plan stays in force."
    days = _p("wetland_extension_request_days")
    return [
        ("expires", expires, citation, f"The {item.name} expires", how),
        (
            "extension_request_deadline",
            expires - relativedelta(days=days),
            _cite("wetland_extension_request_days"),
            f"Last day to ask in writing for an extension of the {item.name}",
            f"The request must reach the Approval Authority at least {days} days before the permit "
            f"expires on {cal.nice(expires)}.",
        ),
    ]


def _wetland_application(item: _Item) -> list[_Row]:
    complete = item.date("complete", "date the application was deemed complete")
    hearing = item.date("hearing", "hearing date", required=False)
    days = _p("wetland_hearing_days")
    notice_days = _p("wetland_hearing_notice_days")
    limit = complete + relativedelta(days=days)
    rows: list[_Row] = [
        (
            "hearing_deadline",
            limit,
            _cite("wetland_hearing_days"),
            f"Latest day for the Planning Board's public hearing on the {item.name}",
            f"The hearing must be held within {days} days of the complete application "
            f"({cal.nice(complete)}).",
        )
    ]
    if hearing is not None:
        _not_before(item, hearing, complete, "hearing date", "completion date")
        basis = f"the hearing set for {cal.nice(hearing)}"
        if hearing > limit:
            basis += f", which is later than the {days}-day limit"
        target = hearing
    else:
        basis = f"a hearing held on the last permitted day, {cal.nice(limit)}"
        target = limit
    rows.append(
        (
            "notice_deadline",
            target - relativedelta(days=notice_days),
            _cite("wetland_hearing_notice_days"),
            f"Latest day to publish the newspaper notice of the hearing on the {item.name}",
            f"Notice must appear at least {notice_days} days before {basis}.",
        )
    )
    return rows


def _wetland_activity_start(item: _Item) -> list[_Row]:
    start = item.date("start", "start date")
    days = _p("wetland_start_notice_days")
    return [
        (
            "start_notice_deadline",
            start - relativedelta(days=days),
            _cite("wetland_start_notice_days"),
            "Last day to tell the Planning Board in writing when the wetland work will begin",
            f"The permit holder must give at least {cal.number_words(days)} days' notice of the start "
            f"on {cal.nice(start)}.",
        )
    ]


def _wetland_delineation(item: _Item) -> list[_Row]:
    dated = item.date("dated", "delineation date")
    filing = item.date("filing", "application filing date", required=False)
    months = _p("wetland_delineation_max_age_months")
    deadline = dated + relativedelta(months=months)
    detail = (f"The wetland delineation of {cal.nice(dated)} must have been done within {cal.months(months)} "
              "of the date the wetland permit application is filed.")
    if filing is not None:
        _not_before(item, filing, dated, "filing date", "delineation date")
        detail += f" The application was filed on {cal.nice(filing)}."
    return [("filing_deadline", deadline, _cite("wetland_delineation_max_age_months"),
             "Last day to file the wetland permit application with this delineation", detail)]


def _mitigation_monitoring(item: _Item) -> list[_Row]:
    completed = item.date("completed", "mitigation completion date")
    lo, hi = _p("mitigation_monitoring_min_years"), _p("mitigation_monitoring_max_years")
    years = item.number("years", "monitoring period in years")
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
    citation = _cite("mitigation_monitoring_min_years")
    general = f"the law sets {cal.number_words(lo)} to {cal.number_words(hi)} years in general"
    outside = not lo <= years <= hi
    rows: list[_Row] = []
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


def _steep_slope_application(item: _Item) -> list[_Row]:
    complete = item.date("complete", "date the application was deemed complete")
    days = _p("steep_slope_decision_days")
    return [
        (
            "decision_deadline",
            complete + relativedelta(days=days),
            _cite("steep_slope_decision_days"),
            f"Latest day for a decision on the {item.name} (when no other approval is needed)",
            f"Within {days} days of the application being deemed complete on {cal.nice(complete)}; when "
            "another permit or approval is needed, the decision is made together with it.",
        )
    ]


def _steep_slope_permit(item: _Item) -> list[_Row]:
    issued = item.date("issued", "approval date")
    other = item.date("other_permit_expires", "other permit's expiry date", required=False)
    years = _p("steep_slope_permit_term_years")
    own = issued + relativedelta(years=years)
    how = f"Valid for {cal.years(years)} from approval on {cal.nice(issued)}"
    if other is not None:
        _not_before(item, other, issued, "other permit's expiry date", "approval date")
        how += f" or until the other permit expires on {cal.nice(other)}, whichever is later"
    expires = max(own, other) if other is not None else own
    how += "; it also expires when the work is completed."
    months = _p("steep_slope_extension_request_months")
    ext_years = _p("steep_slope_extension_max_years")
    return [
        ("expires", expires, _cite("steep_slope_permit_term_years"), f"The {item.name} expires", how),
        (
            "extension_request_deadline",
            expires - relativedelta(months=months),
            _cite("steep_slope_extension_request_months"),
            f"Last day to file a request to extend the {item.name}",
            f"At least {cal.months(months)} before it expires on {cal.nice(expires)}.",
        ),
        (
            "latest_extended_expiry",
            expires + relativedelta(years=ext_years),
            _cite("steep_slope_extension_max_years"),
            f"Latest possible expiry of the {item.name} if extended",
            f"An extension may run no more than {cal.years(ext_years)} from the original expiry on "
            f"{cal.nice(expires)}.",
        ),
    ]


def _tree_removal_permit(item: _Item) -> list[_Row]:
    issued = item.date("issued", "issue date")
    max_months = 12 * _p("tree_permit_max_term_years")
    term = item.number("term_months", "term in months")
    if term is None:
        term = max_months
    if term < 1:
        raise SloatInputError(f"The {item.name}'s term must be at least one month.")
    if term > max_months:
        raise SloatInputError(
            f"A tree removal permit cannot be granted for more than {cal.months(max_months)}, "
            f"but the {item.name} says {term}."
        )
    expires = issued + relativedelta(months=term)
    ext = _p("tree_permit_extension_years")
    citation = _cite("tree_permit_max_term_years")
    return [
        ("expires", expires, citation, f"The {item.name} expires",
         f"Granted for {cal.months(term)} from {cal.nice(issued)} (the law allows at most {cal.months(max_months)})."),
        ("extension_request_deadline", expires - relativedelta(days=1), _cite("tree_permit_extension_years"),
         f"Last safe day for the Village to receive a written extension request for the {item.name}",
         f"The request must be received before the permit expires on {cal.nice(expires)}; this is the "
         "day before, to be safe."),
        ("latest_extended_expiry", expires + relativedelta(years=ext), _cite("tree_permit_extension_years"),
         f"Latest possible expiry of the {item.name} if the Planning Board extends it",
         f"An extension may add {cal.years(ext)} to the expiry on {cal.nice(expires)}."),
    ]


def _biodiversity_study(item: _Item) -> list[_Row]:
    dated = item.date("dated", "date")
    years = _p("biodiversity_study_valid_years")
    return [
        ("valid_until", dated + relativedelta(years=years), _cite("biodiversity_study_valid_years"),
         f"The {item.name} stops being valid after this day",
         f"Valid for {cal.years(years)} from its date, {cal.nice(dated)}; if review is still going on "
         "after that, the Planning Board may ask for an update."),
    ]


def _grading(item: _Item) -> list[_Row]:
    final = item.date("final_grade", "date final grade was reached")
    temp, perm = _p("temporary_stabilization_days"), _p("permanent_stabilization_days")
    return [
        ("temporary_stabilization_deadline", final + relativedelta(days=temp), _cite("temporary_stabilization_days"),
         "Temporary soil stabilization (netting, mulching) must be in place",
         f"Within {cal.number_words(temp)} days of reaching final grade on {cal.nice(final)}."),
        ("permanent_stabilization_deadline", final + relativedelta(days=perm), _cite("permanent_stabilization_days"),
         "Permanent stabilization must be in place",
         f"Within {perm} days of reaching final grade on {cal.nice(final)}."),
    ]


def _clearing(item: _Item) -> list[_Row]:
    start = item.date("grading_start", "grading start date")
    days = _p("vegetation_clearing_max_days_before_grading")
    return [
        ("clearing_earliest_start", start - relativedelta(days=days),
         _cite("vegetation_clearing_max_days_before_grading"),
         "Earliest day to disturb existing vegetative ground cover",
         f"Not more than {days} days before grading and construction begin on {cal.nice(start)}."),
    ]


def _swppp_inspections(item: _Item) -> list[_Row]:
    start = item.date("start", "construction start date")
    end = item.date("end", "construction end date")
    _not_before(item, end, start, "end date", "start date")
    every = _p("swppp_inspection_interval_days")
    hours, inches = _p("swppp_storm_inspection_hours"), _p("swppp_storm_event_inches")
    citation = _cite("swppp_inspection_interval_days")
    rows: list[_Row] = []
    n = 1
    due = start + relativedelta(days=every)
    while due <= end:
        rows.append(("inspection_due", due, citation, f"Erosion and sediment control inspection report due (no. {n})",
                     f"Reports every {cal.number_words(every)} days from {cal.nice(start)}, and also within "
                     f"{hours} hours of any storm producing {inches:g} inches of rain or more."))
        n += 1
        due = start + relativedelta(days=every * n)
    return rows


def _winter_season(item: _Item) -> list[_Row]:
    raw = item.raw.get("year")
    if raw in (None, ""):
        raise SloatInputError(f"The {item.name} is missing its year ('year').")
    year = cal.whole_number(raw, f"The {item.name}'s year")
    if not cal.YEARS[0] <= year <= cal.YEARS[1]:
        raise SloatInputError(f"The {item.name}'s year, {year}, is out of range.")
    start = cal.month_day(_p("no_bare_slope_season_start"), year)
    end = cal.month_day(_p("no_bare_slope_season_end"), year + 1)
    citation = _cite("no_bare_slope_season_start")
    why = ("Steep slope work must be done in units that can be completed and stabilized in one "
           "construction season, so that no area is left bare over winter and the spring thaw.")
    return [
        ("season_start", start, citation, "Winter and spring-thaw season begins: no bare disturbed steep slopes", why),
        ("season_end", end, citation, "Winter and spring-thaw season ends (last day)", why),
    ]


def _inspection_notice(item: _Item) -> list[_Row]:
    planned = item.date("planned", "planned inspection stage date")
    hours = _p("inspection_notice_hours")
    return [("notice_deadline", planned - relativedelta(days=cal.hours_as_days(hours)), _cite("inspection_notice_hours"),
             f"Last day to notify the Building Inspector of the {item.name}",
             f"The applicant must notify the Building Inspector at least {hours} hours before the inspection stage "
             f"planned for {cal.nice(planned)} (start of construction, erosion controls, clearing, grading, close of "
             "the season, landscaping).")]


def _storm_event(item: _Item) -> list[_Row]:
    day = item.date("date", "date of the storm")
    hours, inches = _p("swppp_storm_inspection_hours"), _p("swppp_storm_event_inches")
    return [("storm_report_deadline", day + relativedelta(days=cal.hours_as_days(hours)),
             _cite("swppp_storm_inspection_hours"), "Erosion and sediment control inspection report due after a storm",
             f"Within {hours} hours of a storm producing {inches:g} inches of rain or more, on {cal.nice(day)}; the "
             "report goes to the Village Engineer and into the site log book.")]


def _notice_of_violation(item: _Item) -> list[_Row]:
    served = item.date("served", "date the notice of violation was served")
    days = _p("stormwater_appeal_days")
    return [("appeal_deadline", served + relativedelta(days=days), _cite("stormwater_appeal_days"),
             f"Last day to file a written notice of appeal of the {item.name}",
             f"Within {days} days of service of the notice of violation on {cal.nice(served)}.")]


def _performance_guarantee(item: _Item) -> list[_Row]:
    accepted = item.date("final_acceptance", "date of final acceptance")
    years = _p("performance_guarantee_min_years")
    return [("guarantee_earliest_end", accepted + relativedelta(years=years), _cite("performance_guarantee_min_years"),
             f"Earliest day the {item.name} may end",
             f"It stays in force not less than {cal.years(years)} from the date of final acceptance, "
             f"{cal.nice(accepted)}.")]


def _open_space_charge(item: _Item) -> list[_Row]:
    billed = item.date("billed", "date the charge was billed")
    days = _p("open_space_lien_days")
    last = billed + relativedelta(days=days)
    return [
        ("payment_deadline", last, _cite("open_space_lien_days"),
         f"Last day to pay the Village's {item.name} before it can become a lien",
         f"A maintenance charge billed on {cal.nice(billed)} becomes a lien if unpaid for more than {days} days."),
        ("lien_possible", last + relativedelta(days=1), _cite("open_space_lien_days"),
         f"First day the unpaid {item.name} is a lien on the open space and the lots that share it",
         f"Unpaid for more than {days} days from {cal.nice(billed)}."),
    ]


_RULES: dict[str, tuple[str, tuple[str, ...], Callable[[_Item], list[_Row]]]] = {
    "wetland_permit": ("wetland permit", ("issued", "expires"), _wetland_permit),
    "wetland_permit_application": ("wetland permit application", ("complete", "hearing"), _wetland_application),
    "wetland_activity_start": ("start of wetland work", ("start",), _wetland_activity_start),
    "wetland_delineation": ("wetland delineation", ("dated", "filing"), _wetland_delineation),
    "mitigation_monitoring": ("mitigation monitoring", ("completed", "years"), _mitigation_monitoring),
    "steep_slope_application": ("steep slope permit application", ("complete",), _steep_slope_application),
    "steep_slope_permit": ("steep slope permit", ("issued", "other_permit_expires"), _steep_slope_permit),
    "tree_removal_permit": ("tree removal permit", ("issued", "term_months"), _tree_removal_permit),
    "biodiversity_study": ("biodiversity study", ("dated",), _biodiversity_study),
    "grading": ("grading", ("final_grade",), _grading),
    "clearing": ("clearing", ("grading_start",), _clearing),
    "swppp_inspections": ("SWPPP inspections", ("start", "end"), _swppp_inspections),
    "winter_season": ("winter season", ("year",), _winter_season),
    "inspection_notice": ("inspection stage", ("planned",), _inspection_notice),
    "storm_event": ("storm", ("date",), _storm_event),
    "stormwater_notice_of_violation": ("stormwater notice of violation", ("served",), _notice_of_violation),
    "performance_guarantee": ("stormwater performance guarantee", ("final_acceptance",), _performance_guarantee),
    "open_space_charge": ("open space maintenance charge", ("billed",), _open_space_charge),
}

#: The item ids :func:`timeline_events` understands, with their plain names.
ITEM_KINDS: dict[str, str] = {k: v[0] for k, v in _RULES.items()}


def _gcl_note(kind: str, date: _dt.date) -> str:
    """General Construction Law § 25-a note for a deadline on a Saturday, Sunday or public holiday."""
    if kind in EXPIRY_KINDS or kind in NOT_BEFORE_KINDS or kind in cal.PERIOD_KINDS:
        return ""
    why = cal.closed(date)
    if not why:
        return ""
    on = f"{cal.nice(date)} is a {why}" if " " not in why else f"{cal.nice(date)} is {why}"
    if kind in cal.BACKWARD_KINDS:
        before = date - _dt.timedelta(days=1)
        while cal.closed(before):
            before -= _dt.timedelta(days=1)
        return (f"{on}: this deadline counts back from a later day, so act by the business day before, "
                f"{cal.nice(before)}, to be safe (confirm with the Village).")
    # Reading (README "Readings"): GCL § 25-a lets an act due within a period that ends on a Saturday,
    # Sunday or public holiday be done on the next business day; the statutory date stays the event's date.
    return (f"{on}: under New York General Construction Law § 25-a the act may be done on the next business "
            f"day, {cal.nice(next_business_day(date))} (confirm with the Village).")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


def _clock_start(raw: dict, keys: Iterable[str]) -> _dt.date | None:
    """The earliest well-formed date among an item's date keys: the day its clock starts.

    Reading: a clock runs by the law in effect when it starts (a permit issued today keeps its term if
    the term is amended later), so the item's numbers are read as in effect on that day (`law_date`).
    A malformed date is left to the rule, which names it.

    >>> _clock_start({"issued": "2026-03-01", "expires": "2027-03-01"}, ("issued", "expires"))
    datetime.date(2026, 3, 1)
    """
    found = []
    for key in keys:
        text = raw.get(key)
        if isinstance(text, str) and cal.ISO_RE.match(text.strip()):
            try:
                found.append(_dt.date.fromisoformat(text.strip()))
            except ValueError:
                continue
    return min(found, default=None)


def timeline_events(
    items: Iterable[dict], as_of: _dt.date | str, *, expiring_soon_days: int | None = None
) -> list[Event]:
    """All the dates Article IX sets for the given items, sorted by date.

    Parameters
    ----------
    items : list of dict
        Each ``{"id": <item id>, <date keys>..., "ref": optional}``; see the module docstring.
    as_of : datetime.date or str
        The day the statuses are computed for. Each item's numbers (terms, notice periods) are those in
        effect on the day its clock starts, its earliest date (:func:`_clock_start`).
    expiring_soon_days : int, optional
        The "expiring soon" window; default from the local settings (90 days).

    Returns
    -------
    list of Event
        Sorted by date, then id.

    Raises
    ------
    SloatInputError
        For an unknown item id, a missing or impossible date, an expiry before an issue date, an
        out-of-range number, or an unknown key; the message names the item.

    Examples
    --------
    >>> [(e.kind, e.date.isoformat()) for e in timeline_events(
    ...     [{"id": "biodiversity_study", "dated": "2024-02-29"}], "2026-01-01", expiring_soon_days=90)]
    [('valid_until', '2027-02-28')]
    """
    as_of = cal.as_date(as_of, "The 'as of' date")
    if expiring_soon_days is None:
        from sloat_core.law.settings import load_settings

        expiring_soon_days = load_settings().expiring_soon_days
    if isinstance(items, dict) or isinstance(items, (str, bytes)):
        raise SloatInputError("The timeline needs a list of items, each with an 'id' and its dates.")
    events: list[Event] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(items, start=1):
        if not isinstance(raw, dict):
            raise SloatInputError(f"Timeline item {n} is not a set of named dates.")
        item_id = raw.get("id")
        if not isinstance(item_id, str) or not item_id.strip():
            raise SloatInputError(f"Timeline item {n} has no 'id' saying what it is.")
        item_id = item_id.strip()
        if item_id not in _RULES:
            raise SloatInputError(
                f"Timeline item {n} has an unknown id, {item_id[:60]!r}; the ids are listed in the README's "
                f"command-line section ({', '.join(list(_RULES)[:3])}, ...)."
            )
        name, keys, rule = _RULES[item_id]
        ref = raw.get("ref")
        ref = str(ref).strip() if ref not in (None, "") else None
        extra = sorted(set(raw) - set(keys) - {"id", "ref"})
        if extra:
            raise SloatInputError(
                f"The {name} has keys the timeline does not know ({', '.join(extra)}); "
                f"it takes {', '.join(keys)}."
            )
        base = _slug(item_id) + (f"-{_slug(ref)}" if ref else "")
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            base = f"{base}-{seen[base]}"
        item = _Item(raw, name, ref)
        counts: dict[str, int] = {}
        filing = item.date("filing", "filing date", required=False) if item_id == "wetland_delineation" else None
        with law_date(_clock_start(raw, keys) or as_of):  # the law of the day the clock starts
            produced = list(rule(item))
        for kind, date, citation, label, detail in produced:
            counts[kind] = counts.get(kind, 0) + 1
            eid = f"{base}-{_slug(kind)}" + (f"-{counts[kind]}" if kind == "inspection_due" else "")
            if filing is not None and kind == "filing_deadline":
                status = "met" if filing <= date else "missed"
            else:
                status = status_as_of(kind, date, as_of, expiring_soon_days)
            events.append(Event(eid, item_id, kind, date, citation, status, label, detail, _gcl_note(kind, date)))
    events.sort(key=lambda e: (e.date, e.id))
    return events
