"""Village Law § 7-728 (subdivision) and § 7-725-a (site plan) clocks, counted by the General Construction Law.

Each clock is tested with a weekend or a public holiday at its end; dates are exact.
"""

import datetime as dt

import pytest

from sloat_core.approvals.facts import parse_approval_facts
from sloat_core.approvals.state_law import state_param
from sloat_core.approvals.village_law import approval_events, clock_rules, village_law_events
from law_day import LAW_DAY

AS_OF = dt.date(2026, 9, 1)


def events(app, as_of=AS_OF, **facts):
    return {e.id: e for e in village_law_events(app, parse_approval_facts(facts), as_of, expiring_soon_days=30)}


def test_the_periods_are_62_days_dated_settings_to_confirm():
    for name in ("subdivision_hearing_days", "subdivision_decision_days", "final_plat_filing_days",
                 "site_plan_decision_days"):
        p = state_param(name, LAW_DAY)
        assert p.value == 62 and p.unit == "days" and p.verify


def test_the_subdivision_hearing_is_due_62_days_after_a_complete_plat_carried_past_election_day():
    # complete Wednesday 2 September 2026; day 62 is Tuesday 3 November 2026, general election day (GCL § 24)
    e = events("subdivision", application_complete_date="2026-09-02")["subdivision-hearing-deadline"]
    assert e.date == dt.date(2026, 11, 3)
    assert e.citation == "Village Law § 7-728(5)(d)"
    assert "Election Day" in e.note and "Wednesday 4 November 2026" in e.note and "§ 25-a" in e.note
    assert "to confirm with the Village" in e.label


def test_the_subdivision_decision_is_due_62_days_after_the_hearing_closes_carried_past_thanksgiving():
    # hearing closed Friday 25 September 2026; day 62 is Thanksgiving, Thursday 26 November 2026
    ev = events("subdivision", application_complete_date="2026-09-01", hearing_closed_date="2026-09-25")
    e = ev["subdivision-decision-deadline"]
    assert e.date == dt.date(2026, 11, 26) and "Friday 27 November 2026" in e.note


def test_without_a_decision_in_time_the_plat_is_deemed_approved_the_day_after_the_last_business_day():
    ev = events("subdivision", as_of=dt.date(2026, 11, 30), application_complete_date="2026-09-01",
                hearing_closed_date="2026-09-25")
    d = ev["subdivision-default-approval"]
    assert d.date == dt.date(2026, 11, 28) and d.kind == "default_approval"
    assert d.status == "reached" and "deemed granted approval" in d.label
    assert d.citation == "Village Law § 7-728(8)"


def test_a_decision_made_by_the_last_business_day_is_met_and_no_default_approval_arises():
    ev = events("subdivision", application_complete_date="2026-09-01", hearing_closed_date="2026-09-25",
                decision_date="2026-11-27")
    assert ev["subdivision-decision-deadline"].status == "met"
    assert "subdivision-default-approval" not in ev


def test_a_decision_after_the_period_is_missed_and_the_default_approval_stands():
    ev = events("subdivision", application_complete_date="2026-09-01", hearing_closed_date="2026-09-25",
                decision_date="2026-11-30")
    assert ev["subdivision-decision-deadline"].status == "missed"
    assert "subdivision-default-approval" in ev


def test_before_the_hearing_the_latest_decision_day_is_shown_as_an_outer_estimate():
    ev = events("subdivision", application_complete_date="2026-09-02")
    e = ev["subdivision-decision-latest"]
    # hearing by Wednesday 4 November 2026 (after election day), then 62 days: Tuesday 5 January 2027
    assert e.date == dt.date(2027, 1, 5) and "estimate" in e.detail


def test_a_signed_final_plat_must_be_filed_within_62_days_carried_past_christmas():
    # signed Saturday 24 October 2026; day 62 is Christmas Day, Friday 25 December 2026; then the weekend
    e = events("subdivision", final_plat_signed_date="2026-10-24")["final-plat-filing-deadline"]
    assert e.date == dt.date(2026, 12, 25) and "Monday 28 December 2026" in e.note
    assert e.citation == "Village Law § 7-728(11)" and "expires" in e.detail


def test_the_site_plan_decision_is_due_62_days_after_the_hearing_carried_past_a_weekend():
    # hearing Sunday 25 October 2026 (a special meeting); day 62 is Saturday 26 December 2026
    e = events("site_plan", hearing_closed_date="2026-10-25")["site-plan-decision-deadline"]
    assert e.date == dt.date(2026, 12, 26) and "Monday 28 December 2026" in e.note
    assert e.citation == "Village Law § 7-725-a(8)"


def test_a_site_plan_has_no_default_approval():
    ev = events("site_plan", as_of=dt.date(2027, 3, 1), hearing_closed_date="2026-10-25")
    assert not any(e.kind == "default_approval" for e in ev.values())
    assert "No default approval" in ev["site-plan-decision-deadline"].detail
    (rule,) = clock_rules("site_plan", LAW_DAY)
    assert rule.default_approval is False


def test_a_friday_before_a_saturday_christmas_is_a_business_day_under_gcl_24():
    # the holidays package observes Christmas 2027 (a Saturday) on Friday 24 December; § 24 does not move it
    e = events("site_plan", hearing_closed_date="2027-10-23")["site-plan-decision-deadline"]
    assert e.date == dt.date(2027, 12, 24) and e.note == ""


def test_lincoln_s_birthday_and_washington_s_birthday_both_carry_a_deadline():
    # decision due Friday 12 February 2027 (Lincoln's Birthday), then the weekend, then Monday 15 February
    # (Washington's Birthday): the period runs to Tuesday 16 February 2027
    e = events("site_plan", hearing_closed_date="2026-12-12")["site-plan-decision-deadline"]
    assert "Lincoln's Birthday" in e.note and "Tuesday 16 February 2027" in e.note


def test_the_clock_rules_state_who_starts_each_clock_and_what_ends_it():
    rules = {r.id: r for r in clock_rules("subdivision", LAW_DAY)}
    assert set(rules) == {"subdivision_hearing", "subdivision_decision", "final_plat_filing"}
    assert rules["subdivision_decision"].default_approval is True
    assert "deemed granted approval" in rules["subdivision_decision"].ends


@pytest.mark.parametrize("app, clause", [("subdivision", "GML § 239-n(4)(b)"), ("site_plan", "GML § 239-m(4)(b)"),
                                         ("special_permit", "GML § 239-m(4)(b)")])
def test_the_county_clock_on_the_timeline_cites_the_statute_of_the_application(app, clause):
    """A subdivision plat is referred under § 239-n, a site plan or special permit under § 239-m: the county's
    30 days on the timeline name the section that applies (the § 239-n paragraph is to confirm)."""
    f = parse_approval_facts({"county_received_date": "2026-10-16"})
    due, may_act = (e for e in approval_events(app, f, AS_OF, expiring_soon_days=30) if e.item_id == "county_referral")
    assert due.citation == may_act.citation == clause
    assert clause in due.label and clause in may_act.label
    assert ("to confirm with the Village" in due.label) is (app == "subdivision")
    assert due.date == dt.date(2026, 11, 15) and may_act.date == dt.date(2026, 11, 17)


def test_the_county_clock_joins_the_approval_timeline():
    f = parse_approval_facts({"county_received_date": "2026-10-16", "hearing_closed_date": "2026-10-25"})
    ev = approval_events("site_plan", f, AS_OF, expiring_soon_days=30)
    assert [e.id for e in ev] == ["county-referral-report-due", "county-referral-board-may-act",
                                  "site-plan-decision-deadline"]
    assert all(e.citation for e in ev)


@pytest.mark.parametrize("app", ["building_permit", "special_permit", None])
def test_applications_without_a_village_law_clock_give_no_dated_event(app):
    assert events(app, application_complete_date="2026-09-02", hearing_closed_date="2026-10-25") == {}


def test_holidays_inside_a_period_do_not_lengthen_it_days_are_calendar_days():
    # complete Thursday 1 October 2026: the 62 days hold Columbus Day, election day, Veterans Day and
    # Thanksgiving, and end on Wednesday 2 December 2026, a business day: no carry-over
    e = events("subdivision", application_complete_date="2026-10-01")["subdivision-hearing-deadline"]
    assert e.date == dt.date(2026, 12, 2) and e.note == ""


def test_the_county_s_30_days_hold_three_holidays_and_end_on_a_business_day():
    f = parse_approval_facts({"county_received_date": "2026-11-01"})
    (due, may_act) = approval_events("site_plan", f, AS_OF, expiring_soon_days=30)
    assert due.date == dt.date(2026, 12, 1) and due.note == ""
    assert may_act.date == dt.date(2026, 12, 2) and may_act.kind == "board_may_act"


def test_impossible_date_orders_are_refused_in_one_sentence():
    from sloat_core.errors import SloatInputError

    with pytest.raises(SloatInputError, match="cannot close before the application was complete"):
        parse_approval_facts({"application_complete_date": "2026-09-02", "hearing_closed_date": "2026-09-01"})
    with pytest.raises(SloatInputError, match="cannot come before the public hearing closed"):
        parse_approval_facts({"hearing_closed_date": "2026-09-02", "decision_date": "2026-09-01"})
    with pytest.raises(SloatInputError, match="YYYY-MM-DD"):
        parse_approval_facts({"county_received_date": "16/10/2026"})
