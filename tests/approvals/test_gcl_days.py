"""General Construction Law §§ 20, 24, 25-a: counting days, and the holidays package checked against § 24.

§ 24's list, written here from the statute's words (the test's own reading, independent of the package):
New Year's Day (1 January), Martin Luther King Jr. Day (third Monday of January), Lincoln's Birthday
(12 February), Washington's Birthday (third Monday of February), Memorial Day (last Monday of May), Flag Day
(second Sunday of June), Juneteenth (19 June), Independence Day (4 July), Labor Day (first Monday of
September), Columbus Day (second Monday of October), each general election day (the Tuesday after the first
Monday of November), Veterans' Day (11 November), Thanksgiving Day (fourth Thursday of November), Christmas
Day (25 December); a holiday falling on a Sunday makes the Monday after a holiday too.
"""

import datetime as dt

import pytest
from dateutil.relativedelta import MO, SU, TH, TU, relativedelta

from sloat_core.law import calendar as gcl

YEARS = range(2024, 2036)


def gcl_24(year):
    d = dt.date
    days = {
        d(year, 1, 1): "New Year's Day",
        d(year, 1, 1) + relativedelta(weekday=MO(3)): "Martin Luther King Jr. Day",
        d(year, 2, 12): "Lincoln's Birthday",
        d(year, 2, 1) + relativedelta(weekday=MO(3)): "Washington's Birthday",
        d(year, 5, 31) + relativedelta(weekday=MO(-1)): "Memorial Day",
        d(year, 6, 1) + relativedelta(weekday=SU(2)): "Flag Day",
        d(year, 6, 19): "Juneteenth",
        d(year, 7, 4): "Independence Day",
        d(year, 9, 1) + relativedelta(weekday=MO(1)): "Labor Day",
        d(year, 10, 1) + relativedelta(weekday=MO(2)): "Columbus Day",
        d(year, 11, 1) + relativedelta(weekday=MO(1)) + relativedelta(days=1, weekday=TU): "Election Day",
        d(year, 11, 11): "Veterans Day",
        d(year, 11, 1) + relativedelta(weekday=TH(4)): "Thanksgiving Day",
        d(year, 12, 25): "Christmas Day",
    }
    for day, name in list(days.items()):
        if day.weekday() == 6 and name != "Flag Day":
            days.setdefault(day + dt.timedelta(days=1), f"{name} (observed)")
    return days


def classify_difference(day, name, side):
    """The named reason for one difference between the package and § 24, or None (an unexplained one)."""
    if side == "package only":
        if name in gcl.NOT_IN_GCL_24:
            return f"{name}: not in § 24's list"
        if name.endswith("(observed)") and day.weekday() == 4:
            return "Saturday holiday observed on the Friday before: § 24 moves only Sunday holidays"
        return None
    if name == "Flag Day" and day.weekday() == 6:
        return "Flag Day: in § 24, missing from the package; always a Sunday, no business day changes"
    return None


def test_every_difference_between_the_holidays_package_and_gcl_24_is_named():
    named, unexplained = set(), []
    for year in YEARS:
        pkg = {day: n for day, text in gcl.package_holidays(year).items() for n in text.split("; ")}
        law = gcl_24(year)
        for day, name in pkg.items():
            if day not in law:
                why = classify_difference(day, name, "package only")
                (named.add(why) if why else unexplained.append((day, name, "package only")))
        for day, name in law.items():
            if day not in pkg:
                why = classify_difference(day, name, "law only")
                (named.add(why) if why else unexplained.append((day, name, "law only")))
    assert unexplained == [], f"new differences between the holidays package and GCL § 24: {unexplained}"
    assert named == {
        "Susan B. Anthony Day: not in § 24's list",
        "Saturday holiday observed on the Friday before: § 24 moves only Sunday holidays",
        "Flag Day: in § 24, missing from the package; always a Sunday, no business day changes",
    }


@pytest.mark.parametrize("year", YEARS)
def test_the_tool_s_business_days_are_those_of_gcl_24(year):
    law_weekdays = {d for d in gcl_24(year) if d.weekday() < 5}
    tool_weekdays = {d for d in gcl.public_holidays(year) if d.weekday() < 5}
    assert tool_weekdays == law_weekdays


def test_lincoln_s_birthday_and_election_day_are_public_holidays():
    assert gcl.closed(dt.date(2027, 2, 12)) == "Lincoln's Birthday"
    assert gcl.closed(dt.date(2027, 11, 2)) == "Election Day"
    assert gcl.closed(dt.date(2028, 2, 15)) is None  # Susan B. Anthony Day, a Tuesday: a business day


def test_section_20_excludes_the_day_counted_from():
    assert gcl.period_end(dt.date(2026, 1, 30), 30) == dt.date(2026, 3, 1)
    assert gcl.period_end(dt.date(2026, 3, 1), 1) == dt.date(2026, 3, 2)


def test_section_25_a_carries_a_period_ending_on_a_weekend_or_holiday_to_the_next_business_day():
    d = gcl.deadline(dt.date(2026, 7, 29), 40)  # ends Monday 7 September 2026, Labor Day
    assert (d.statutory, d.act_by) == (dt.date(2026, 9, 7), dt.date(2026, 9, 8))
    d = gcl.deadline(dt.date(2026, 5, 24), 40)  # ends Friday 3 July 2026: the package's "observed" day, not § 24's
    assert (d.statutory, d.act_by) == (dt.date(2026, 7, 3), dt.date(2026, 7, 3))
    d = gcl.deadline(dt.date(2027, 5, 21), 44)  # ends Sunday 4 July 2027; Monday 5 July is observed
    assert (d.statutory, d.act_by) == (dt.date(2027, 7, 4), dt.date(2027, 7, 6))
    d = gcl.deadline(dt.date(2026, 3, 2), 10)  # ends Thursday 12 March 2026: a business day
    assert not d.moved and d.note() == ""


def test_a_day_proclaimed_a_holiday_can_be_given():
    proclaimed = dt.date(2026, 12, 24)
    assert gcl.next_business_day(proclaimed, [proclaimed]) == dt.date(2026, 12, 28)


# The status of a deadline is read against the day its § 25-a note gives, on every path.

def test_a_wetland_hearing_due_on_a_saturday_and_held_on_the_tuesday_after_columbus_day_is_met():
    # complete Sunday 8 August 2027: day 62 is Saturday 9 October 2027; Monday 11 October is Columbus Day,
    # so § 25-a carries the hearing to Tuesday 12 October 2027, the day it was held.
    from sloat_core.rules.clocks import timeline_events

    (e,) = [e for e in timeline_events([{"id": "wetland_permit_application", "complete": "2027-08-08",
                                         "hearing": "2027-10-12"}], "2027-10-20", expiring_soon_days=90)
            if e.kind == "hearing_deadline"]
    assert e.date == dt.date(2027, 10, 9) and "12 October 2027" in e.note
    assert e.status == "met"
    notice = [x for x in timeline_events([{"id": "wetland_permit_application", "complete": "2027-08-08",
                                           "hearing": "2027-10-12"}], "2027-10-20", expiring_soon_days=90)
              if x.kind == "notice_deadline"][0]
    assert "missed" not in notice.detail


def test_a_wetland_hearing_held_the_day_after_the_carried_day_is_missed():
    from sloat_core.rules.clocks import timeline_events

    (e,) = [e for e in timeline_events([{"id": "wetland_permit_application", "complete": "2027-08-08",
                                         "hearing": "2027-10-13"}], "2027-10-20", expiring_soon_days=90)
            if e.kind == "hearing_deadline"]
    assert e.status == "missed"


def test_a_deadline_due_on_a_saturday_is_still_due_on_the_monday_holiday_and_passed_after_the_carried_day():
    # The same hearing, not yet held: on Columbus Day (Monday 11 October 2027) it is still due; on Wednesday
    # 13 October it has passed.
    from sloat_core.rules.clocks import timeline_events

    def status(as_of):
        (e,) = [e for e in timeline_events([{"id": "wetland_permit_application", "complete": "2027-08-08"}],
                                           as_of, expiring_soon_days=30) if e.kind == "hearing_deadline"]
        return e.status

    assert (status("2027-10-11"), status("2027-10-12"), status("2027-10-13")) == ("due_soon", "due_soon", "passed")


def test_a_village_law_deadline_carried_by_section_25_a_is_not_passed_before_its_carried_day():
    # site plan hearing Sunday 25 October 2026: the decision's day 62 is Saturday 26 December 2026, carried to
    # Monday 28 December; on that Monday it is still due.
    from sloat_core.approvals.facts import parse_approval_facts
    from sloat_core.approvals.village_law import village_law_events

    facts = parse_approval_facts({"hearing_closed_date": "2026-10-25"})
    (e,) = village_law_events("site_plan", facts, dt.date(2026, 12, 28), expiring_soon_days=30)
    assert e.date == dt.date(2026, 12, 26) and "Monday 28 December 2026" in e.note
    assert e.status == "due_soon"
    (e,) = village_law_events("site_plan", facts, dt.date(2026, 12, 29), expiring_soon_days=30)
    assert e.status == "passed"
