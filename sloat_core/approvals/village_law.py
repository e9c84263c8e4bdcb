"""The Village Law clocks of the Planning Board: subdivision (§ 7-728) and site plan (§ 7-725-a).

* **Subdivision plat (§ 7-728)**: the public hearing within 62 days of the receipt of a complete plat; the
  decision within 62 days after the hearing closes; if the board fails to decide in time, the plat is
  **deemed granted approval** (default approval; the clerk certifies it on demand); a signed final plat
  expires unless filed with the county clerk within 62 days of the signature.
* **Site plan (§ 7-725-a)**: the decision within 62 days after the hearing (the hearing itself may be
  timed by the Village's own code); **no default approval** (Nyack Hospital v. Planning Board, Sup. Ct.
  Rockland County 1996): a late decision is enforced by a court, not deemed made.

Days are counted by the General Construction Law (:mod:`sloat_core.law.calendar`, the one calendar): the day of the event is
excluded (§ 20); a period ending on a Saturday, Sunday or public holiday (§ 24) runs to the next business day
(§ 25-a). An event's ``date`` is the statutory last day; its ``note`` gives the business day when they
differ; a default approval arises the day after the last business day. Periods may be extended by mutual
consent (not modelled: enter the agreed dates). Every period is a dated setting "to confirm with the Village"
(``data/settings/state_law.yaml``).

The events are :class:`sloat_core.law.events.Event` objects, the timeline's own type.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, replace

from sloat_core.law import calendar as cal
from sloat_core.approvals.county_referral import (CLAUSE_239N_TO_CONFIRM, referral_actions, referral_statute,
                                                  statute_clause)
from sloat_core.approvals.facts import ApprovalFacts
from sloat_core.approvals.state_law import state_param, verify_word
# Imported from the timeline (rules/clocks.py is being split; the lead fixes these paths at merge):
from sloat_core.law.events import Event, status_as_of

__all__ = ["ClockRule", "clock_rules", "village_law_events", "county_events", "approval_events"]


@dataclass(frozen=True)
class ClockRule:
    """One clock in words: what starts it, how long it runs, what happens at its end, and its law."""

    id: str
    applies_to: str
    starts: str
    days: int
    ends: str
    default_approval: bool | None
    citation: str
    verify: bool

    def to_dict(self) -> dict:
        return {"id": self.id, "applies_to": self.applies_to, "starts": self.starts, "days": self.days,
                "ends": self.ends, "default_approval": self.default_approval, "citation": self.citation,
                "verify": self.verify,
                "counting": "General Construction Law § 20 (first day excluded), § 25-a (next business day), "
                            "§ 24 (public holidays)"}


def clock_rules(application_type: str | None, on: _dt.date) -> list[ClockRule]:
    """The Village Law clocks an application of this type starts (both kinds when the type is not given).

    >>> [r.id for r in clock_rules("site_plan", _dt.date(2026, 12, 1))]
    ['site_plan_decision']
    """
    out: list[ClockRule] = []
    if application_type in (None, "subdivision"):
        h = state_param("subdivision_hearing_days", on)
        d = state_param("subdivision_decision_days", on)
        a = state_param("subdivision_default_approval", on)
        f = state_param("final_plat_filing_days", on)
        out += [
            ClockRule("subdivision_hearing", "subdivision plat", "the receipt of a complete plat", h.value,
                      "the Planning Board holds the public hearing", None, h.citation, h.verify),
            ClockRule("subdivision_decision", "subdivision plat", "the close of the public hearing", d.value,
                      f"the Planning Board decides; if it does not, the plat is {a.value} (default approval, "
                      f"{a.citation})", True, d.citation, d.verify or a.verify),
            ClockRule("final_plat_filing", "signed final plat", "the signature of the final plat", f.value,
                      "the plat is filed with the Rockland County Clerk, or the approval expires", None,
                      f.citation, f.verify),
        ]
    if application_type in (None, "site_plan"):
        s = state_param("site_plan_decision_days", on)
        out.append(ClockRule("site_plan_decision", "site plan", "the public hearing", s.value,
                             "the Planning Board decides; no default approval (a late decision is not deemed made)",
                             False, s.citation, s.verify))
    return out


def _expiring_soon_days() -> int:
    from sloat_core.law.settings import load_settings

    return load_settings().expiring_soon_days


def _nice(d: _dt.date) -> str:
    return f"{d.day} {d:%B %Y}"


def _deadline_event(eid, item, kind, start, p, label, detail, as_of, soon, *, done: _dt.date | None = None) -> Event:
    dl = cal.deadline(start, p.value)
    status = status_as_of(kind, dl.statutory, as_of, soon, done)  # read against the § 25-a day, as dl.note() says
    return Event(eid, item, kind, dl.statutory, p.citation, status, label + verify_word(p.verify),
                 f"{p.value} days from {_nice(start)}, that day not counted (General Construction Law § 20). "
                 + detail, dl.note())


def village_law_events(application_type: str | None, facts: ApprovalFacts, as_of: _dt.date,
                       *, expiring_soon_days: int | None = None, on: _dt.date | None = None) -> list[Event]:
    """The dated Village Law events of a subdivision or site plan from the dates the form gives.

    ``as_of`` is the day the statuses are computed for; ``on`` the day whose law is read (default: the day the
    application was complete, else ``as_of``: a clock runs by the law in effect when it starts).
    """
    soon = _expiring_soon_days() if expiring_soon_days is None else expiring_soon_days
    on = on or facts.application_complete_date or as_of
    events: list[Event] = []
    complete, closed, decided = facts.application_complete_date, facts.hearing_closed_date, facts.decision_date
    if application_type == "subdivision":
        h = state_param("subdivision_hearing_days", on)
        d = state_param("subdivision_decision_days", on)
        a = state_param("subdivision_default_approval", on)
        if complete is not None:
            events.append(_deadline_event(
                "subdivision-hearing-deadline", "subdivision_plat", "hearing_deadline", complete, h,
                "Last day for the Planning Board's public hearing on the plat (Village Law § 7-728)",
                "Counted from the receipt of a complete plat.", as_of, soon))
        if closed is not None:
            dl = cal.deadline(closed, d.value)
            events.append(_deadline_event(
                "subdivision-decision-deadline", "subdivision_plat", "decision_deadline", closed, d,
                "Last day for the Planning Board's decision on the plat (Village Law § 7-728)",
                f"Counted from the close of the hearing. Without a decision in time the plat is {a.value}.",
                as_of, soon, done=decided))
            if decided is None or decided > dl.act_by:
                deemed = dl.act_by + _dt.timedelta(days=1)
                status = "reached" if as_of >= deemed else "not_yet"
                events.append(Event(
                    "subdivision-default-approval", "subdivision_plat", "default_approval", deemed, a.citation,
                    status, f"Default approval: the plat is {a.value} if no decision was made by "
                    f"{_nice(dl.act_by)}{verify_word(a.verify)}",
                    "The Village Clerk certifies the date of submission and the failure to act; the certificate "
                    "stands in for the board's endorsement.", ""))
        elif complete is not None:
            latest = cal.deadline(cal.deadline(complete, h.value).act_by, d.value)
            events.append(Event(
                "subdivision-decision-latest", "subdivision_plat", "decision_deadline", latest.statutory, d.citation,
                status_as_of("decision_deadline", latest.statutory, as_of, soon),
                "Latest decision day if the hearing closes on its last day (Village Law § 7-728)"
                + verify_word(d.verify),
                f"An outer estimate: the decision is due {d.value} days after the hearing actually closes.",
                latest.note()))
        if facts.final_plat_signed_date is not None:
            f = state_param("final_plat_filing_days", on)
            events.append(_deadline_event(
                "final-plat-filing-deadline", "final_plat", "filing_deadline", facts.final_plat_signed_date, f,
                "Last day to file the signed final plat with the Rockland County Clerk (Village Law § 7-728)",
                "After it the approval expires.", as_of, soon))
    elif application_type == "site_plan" and closed is not None:
        s = state_param("site_plan_decision_days", on)
        events.append(_deadline_event(
            "site-plan-decision-deadline", "site_plan", "decision_deadline", closed, s,
            "Last day for the Planning Board's decision on the site plan (Village Law § 7-725-a)",
            "Counted from the hearing. No default approval: a late decision is not deemed made.",
            as_of, soon, done=decided))
    return events


def county_events(facts: ApprovalFacts, as_of: _dt.date, *, expiring_soon_days: int | None = None,
                  on: _dt.date | None = None, application_type: str | None = None) -> list[Event]:
    """The county's 30-day clock (GML § 239-m(4)(b); § 239-n(4)(b) for a subdivision plat) from the day it
    received the full statement."""
    received = facts.county_received_date
    if received is None:
        return []
    soon = _expiring_soon_days() if expiring_soon_days is None else expiring_soon_days
    p = state_param("county_review_days", on or received)
    statute = referral_statute(referral_actions(application_type, facts.variance))
    clause = statute_clause(statute, p.citation)
    p = replace(p, citation=clause, verify=p.verify or clause == CLAUSE_239N_TO_CONFIRM)
    dl = cal.deadline(received, p.value)
    may_act = dl.act_by + _dt.timedelta(days=1)
    return [
        _deadline_event("county-referral-report-due", "county_referral", "report_deadline", received, p,
                        f"Last day for the county planning agency's report ({clause})",
                        "Counted from the county's receipt of a full statement (application and completed EAF).",
                        as_of, soon),
        Event("county-referral-board-may-act", "county_referral", "board_may_act", may_act, clause,
              "reached" if as_of >= may_act else "not_yet",
              f"From this day the board may act without the county's report ({clause})",
              "A report received two or more days before final action must still be considered (to confirm "
              "with the Village).", ""),
    ]


def approval_events(application_type: str | None, facts: ApprovalFacts, as_of: _dt.date,
                    *, expiring_soon_days: int | None = None) -> list[Event]:
    """Every dated event of the approvals around Article IX, sorted by date then id."""
    events = village_law_events(application_type, facts, as_of, expiring_soon_days=expiring_soon_days)
    events += county_events(facts, as_of, expiring_soon_days=expiring_soon_days, application_type=application_type)
    events.sort(key=lambda e: (e.date, e.id))
    return events
