"""The clocks of Article IX (sloat_core.rules.clocks), written as plain-English legal claims."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from sloat_core.law import text as law
from sloat_core.errors import SloatInputError
from sloat_core.law.params import param, value
from sloat_core.law.text import quote_in_clause
from sloat_core.outputs.ics import to_ics
from sloat_core.law.events import Event, status_as_of
from sloat_core.rules.clocks import CLOCKS, ITEM_KINDS, timeline_events
from law_day import LAW_DAY

D = dt.date
AS_OF = D(2026, 1, 1)


def events_for(item: dict, as_of=AS_OF, soon=90) -> dict[str, Event]:
    """The events of one item, by kind."""
    return {e.kind: e for e in timeline_events([item], as_of, expiring_soon_days=soon)}


# --------------------------------------------------------------------------------------------
# Wetland permits (§ 402-57J(4), § 402-57O(1))
# --------------------------------------------------------------------------------------------


def test_a_wetland_permit_issued_on_1_march_expires_a_year_later():
    ev = events_for({"id": "wetland_permit", "issued": "2026-03-01"})
    assert ev["expires"].date == D(2027, 3, 1)
    assert "§ 402-57J(4)" in ev["expires"].citation and "§ 402-57O(1)(b)" in ev["expires"].citation


def test_a_wetland_permit_extension_must_be_asked_for_at_least_90_days_before_expiry():
    ev = events_for({"id": "wetland_permit", "issued": "2026-03-01"})
    assert ev["extension_request_deadline"].date == D(2027, 3, 1) - dt.timedelta(days=90) == D(2026, 12, 1)
    assert ev["extension_request_deadline"].citation == "§ 402-57J(4)"


def test_a_wetland_permit_that_states_its_own_expiry_date_uses_it():
    ev = events_for({"id": "wetland_permit", "issued": "2026-03-01", "expires": "2026-09-30"})
    assert ev["expires"].date == D(2026, 9, 30)
    assert ev["extension_request_deadline"].date == D(2026, 7, 2)


def test_a_wetland_permit_issued_on_a_leap_day_expires_on_28_february():
    ev = events_for({"id": "wetland_permit", "issued": "2028-02-29"})
    assert ev["expires"].date == D(2029, 2, 28)


def test_wetland_work_needs_five_days_written_notice_before_it_starts():
    ev = events_for({"id": "wetland_activity_start", "start": "2026-05-04"})
    assert ev["start_notice_deadline"].date == D(2026, 4, 29)
    assert ev["start_notice_deadline"].citation == "§ 402-57O(1)(c)"


def test_the_wetland_hearing_is_due_within_62_days_and_its_notice_15_days_before():
    ev = events_for({"id": "wetland_permit_application", "complete": "2026-03-01"})
    assert ev["hearing_deadline"].date == D(2026, 5, 2)  # 30 + 30 + 2 days
    assert ev["notice_deadline"].date == D(2026, 4, 17)
    assert ev["hearing_deadline"].citation == ev["notice_deadline"].citation == "§ 402-57L"


def test_a_scheduled_wetland_hearing_sets_the_notice_deadline_from_its_own_date():
    ev = events_for({"id": "wetland_permit_application", "complete": "2026-03-01", "hearing": "2026-04-20"})
    assert ev["notice_deadline"].date == D(2026, 4, 5)
    assert ev["hearing_deadline"].date == D(2026, 5, 2)


def test_a_delineation_must_be_no_more_than_12_months_old_when_the_application_is_filed():
    ev = events_for({"id": "wetland_delineation", "dated": "2025-06-15"})
    assert ev["filing_deadline"].date == D(2026, 6, 15)
    assert ev["filing_deadline"].citation == "§ 402-57K(5)(a)"


def test_a_delineation_filed_on_the_last_day_is_in_time_and_a_day_later_is_not():
    on_time = events_for({"id": "wetland_delineation", "dated": "2025-06-15", "filing": "2026-06-15"})
    late = events_for({"id": "wetland_delineation", "dated": "2025-06-15", "filing": "2026-06-16"})
    assert on_time["filing_deadline"].status == "met"
    assert late["filing_deadline"].status == "missed"


def test_mitigation_is_monitored_three_to_five_years_after_completion():
    ev = events_for({"id": "mitigation_monitoring", "completed": "2026-10-01", "years": 5})
    assert ev["monitoring_min_end"].date == D(2029, 10, 1)
    assert ev["monitoring_end"].date == D(2031, 10, 1)
    assert ev["monitoring_end"].citation == "§ 402-57P(5)"
    three = events_for({"id": "mitigation_monitoring", "completed": "2026-10-01", "years": 3})
    assert three["monitoring_end"].date == D(2029, 10, 1) and "monitoring_min_end" not in three


@pytest.mark.parametrize("years", [1, 2, 6, 7])
def test_a_monitoring_period_outside_three_to_five_years_is_accepted_with_a_warning(years):
    # § 402-57P(5): "In general, the monitoring period shall be three to five years" — in general, so the
    # Board may set another period: any whole number of years, warned outside 3-5.
    ev = events_for({"id": "mitigation_monitoring", "completed": "2026-10-01", "years": years})
    assert ev["monitoring_end"].date == D(2026 + years, 10, 1)
    assert "Warning" in ev["monitoring_end"].detail and "outside" in ev["monitoring_end"].label


@pytest.mark.parametrize("years", [0, -1])
def test_a_monitoring_period_under_one_year_is_refused(years):
    with pytest.raises(SloatInputError, match="mitigation monitoring"):
        events_for({"id": "mitigation_monitoring", "completed": "2026-10-01", "years": years})


# --------------------------------------------------------------------------------------------
# Steep slopes (§ 402-55)
# --------------------------------------------------------------------------------------------


def test_a_stand_alone_steep_slope_decision_is_due_within_60_days_of_a_complete_application():
    ev = events_for({"id": "steep_slope_application", "complete": "2026-01-15"})
    assert ev["decision_deadline"].date == D(2026, 3, 16)
    assert ev["decision_deadline"].citation == "§ 402-55F"


def test_a_steep_slope_permit_is_valid_one_year_from_approval():
    ev = events_for({"id": "steep_slope_permit", "issued": "2026-04-10"})
    assert ev["expires"].date == D(2027, 4, 10)
    assert ev["expires"].citation == "§ 402-55H(2)"


def test_a_steep_slope_permit_runs_as_long_as_a_later_expiring_other_permit():
    ev = events_for({"id": "steep_slope_permit", "issued": "2026-04-10", "other_permit_expires": "2027-10-01"})
    assert ev["expires"].date == D(2027, 10, 1)


def test_a_steep_slope_permit_keeps_its_own_year_when_the_other_permit_ends_sooner():
    ev = events_for({"id": "steep_slope_permit", "issued": "2026-04-10", "other_permit_expires": "2026-12-31"})
    assert ev["expires"].date == D(2027, 4, 10)


def test_a_steep_slope_extension_request_is_due_one_month_before_expiry_and_clamps_month_ends():
    ev = events_for({"id": "steep_slope_permit", "issued": "2026-03-31"})
    assert ev["expires"].date == D(2027, 3, 31)
    assert ev["extension_request_deadline"].date == D(2027, 2, 28)  # no 31 February
    assert ev["extension_request_deadline"].citation == "§ 402-55H(3)"


def test_a_steep_slope_permit_can_be_extended_at_most_one_year_past_its_original_expiry():
    ev = events_for({"id": "steep_slope_permit", "issued": "2026-04-10"})
    assert ev["latest_extended_expiry"].date == D(2028, 4, 10)


def test_temporary_stabilization_is_due_two_days_and_permanent_fifteen_days_after_final_grade():
    ev = events_for({"id": "grading", "final_grade": "2026-06-20"})
    assert ev["temporary_stabilization_deadline"].date == D(2026, 6, 22)
    assert ev["permanent_stabilization_deadline"].date == D(2026, 7, 5)
    assert ev["permanent_stabilization_deadline"].citation == "§ 402-55J(21)"


def test_ground_cover_may_be_cleared_no_more_than_15_days_before_grading():
    ev = events_for({"id": "clearing", "grading_start": "2026-05-01"})
    assert ev["clearing_earliest_start"].date == D(2026, 4, 16)
    assert ev["clearing_earliest_start"].citation == "§ 402-55J(20)"


def test_the_no_bare_slope_season_runs_from_15_december_to_15_april():
    ev = events_for({"id": "winter_season", "year": 2026})
    assert ev["season_start"].date == D(2026, 12, 15)
    assert ev["season_end"].date == D(2027, 4, 15)
    assert ev["season_start"].citation == "§ 402-55J(19)"


# --------------------------------------------------------------------------------------------
# Trees, biodiversity, stormwater
# --------------------------------------------------------------------------------------------


def test_a_tree_removal_permit_lasts_at_most_a_year_and_may_be_extended_two_more():
    ev = events_for({"id": "tree_removal_permit", "issued": "2026-05-01"})
    assert ev["expires"].date == D(2027, 5, 1)
    assert ev["latest_extended_expiry"].date == D(2029, 5, 1)
    assert ev["extension_request_deadline"].date == D(2027, 4, 30)  # received before expiry
    assert ev["expires"].citation == "§ 402-53D"


def test_a_one_month_tree_permit_issued_on_31_january_ends_on_the_last_day_of_february():
    assert events_for({"id": "tree_removal_permit", "issued": "2026-01-31", "term_months": 1})["expires"].date == D(2026, 2, 28)
    assert events_for({"id": "tree_removal_permit", "issued": "2028-01-31", "term_months": 1})["expires"].date == D(2028, 2, 29)


def test_a_tree_permit_longer_than_twelve_months_is_refused():
    assert events_for({"id": "tree_removal_permit", "issued": "2026-01-31", "term_months": 12})["expires"].date == D(2027, 1, 31)
    with pytest.raises(SloatInputError, match="more than twelve months"):
        events_for({"id": "tree_removal_permit", "issued": "2026-01-31", "term_months": 13})


def test_a_biodiversity_study_dated_on_a_leap_day_is_valid_to_28_february_three_years_later():
    ev = events_for({"id": "biodiversity_study", "dated": "2024-02-29"})
    assert ev["valid_until"].date == D(2027, 2, 28)
    assert ev["valid_until"].citation == "§ 402-54B"


def test_swppp_inspection_reports_are_due_every_seven_days_until_the_work_ends():
    evs = timeline_events([{"id": "swppp_inspections", "start": "2026-06-01", "end": "2026-06-29"}], AS_OF,
                          expiring_soon_days=90)
    assert [e.date for e in evs] == [D(2026, 6, 8), D(2026, 6, 15), D(2026, 6, 22), D(2026, 6, 29)]
    assert len({e.id for e in evs}) == 4
    assert all(e.citation == "§ 402-58G(1)(b)" and "24 hours" in e.detail for e in evs)


# --------------------------------------------------------------------------------------------
# Statuses on both sides of the 90-day edge
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "as_of, expected",
    [
        (D(2026, 11, 30), "active"),    # 91 days before expiry
        (D(2026, 12, 1), "expiring"),   # 90 days before: inside the window
        (D(2027, 3, 1), "expiring"),    # the last day of validity
        (D(2027, 3, 2), "expired"),
    ],
)
def test_a_permit_is_expiring_within_90_days_inclusive(as_of, expected):
    assert events_for({"id": "wetland_permit", "issued": "2026-03-01"}, as_of)["expires"].status == expected


@pytest.mark.parametrize(
    "as_of, expected",
    [(D(2026, 9, 1), "upcoming"), (D(2026, 9, 2), "due_soon"), (D(2026, 12, 1), "due_soon"), (D(2026, 12, 2), "passed")],
)
def test_a_deadline_is_due_soon_within_90_days_inclusive_and_passed_the_day_after(as_of, expected):
    ev = events_for({"id": "wetland_permit", "issued": "2026-03-01"}, as_of)
    assert ev["extension_request_deadline"].status == expected


def test_the_expiring_soon_window_comes_from_the_local_settings_by_default():
    from sloat_core.law.settings import load_settings

    window = load_settings().expiring_soon_days
    expiry = D(2027, 3, 1)
    inside = expiry - dt.timedelta(days=window)
    ev = timeline_events([{"id": "wetland_permit", "issued": "2026-03-01"}], inside)
    assert {e.kind: e.status for e in ev}["expires"] == "expiring"
    ev = timeline_events([{"id": "wetland_permit", "issued": "2026-03-01"}], inside - dt.timedelta(days=1))
    assert {e.kind: e.status for e in ev}["expires"] == "active"


def test_status_as_of_directly():
    assert status_as_of("valid_until", D(2027, 1, 1), D(2026, 1, 1), 30) == "active"
    assert status_as_of("hearing_deadline", D(2026, 1, 2), D(2026, 1, 2), 0) == "due_soon"
    # due on New Year's Day: § 25-a carries it to Friday 2 January, a day beyond a window of 0 days
    assert status_as_of("hearing_deadline", D(2026, 1, 1), D(2026, 1, 1), 0) == "upcoming"


# --------------------------------------------------------------------------------------------
# Every number and citation from the parameters file
# --------------------------------------------------------------------------------------------

ALL_ITEMS = [
    {"id": "wetland_permit", "issued": "2026-03-01"},
    {"id": "wetland_permit_application", "complete": "2026-03-01"},
    {"id": "wetland_activity_start", "start": "2026-05-04"},
    {"id": "wetland_delineation", "dated": "2025-06-15"},
    {"id": "mitigation_monitoring", "completed": "2026-10-01"},
    {"id": "steep_slope_application", "complete": "2026-01-15"},
    {"id": "steep_slope_permit", "issued": "2026-04-10", "other_permit_expires": "2027-10-01"},
    {"id": "tree_removal_permit", "issued": "2026-05-01", "term_months": 6},
    {"id": "biodiversity_study", "dated": "2024-02-29"},
    {"id": "grading", "final_grade": "2026-06-20"},
    {"id": "clearing", "grading_start": "2026-05-01"},
    {"id": "swppp_inspections", "start": "2026-06-01", "end": "2026-07-01"},
    {"id": "winter_season", "year": 2026},
    {"id": "inspection_notice", "planned": "2026-06-10"},
    {"id": "storm_event", "date": "2026-06-12"},
    {"id": "stormwater_notice_of_violation", "served": "2026-07-01"},
    {"id": "performance_guarantee", "final_acceptance": "2026-09-30"},
    {"id": "open_space_charge", "billed": "2026-08-03"},
]


def test_every_item_kind_is_exercised_and_every_citation_is_in_the_shipped_law():
    assert {i["id"] for i in ALL_ITEMS} == set(ITEM_KINDS)
    events = timeline_events(ALL_ITEMS, AS_OF, expiring_soon_days=90)
    assert len({e.id for e in events}) == len(events)
    for e in events:
        for part in e.citation.split(", "):
            assert law.citation_exists(part), (e.id, part)
        assert e.label and e.detail
    assert [e.date for e in events] == sorted(e.date for e in events)


def test_the_hearing_clock_follows_the_parameters_file():
    days = param("wetland_hearing_days", LAW_DAY).value
    ev = events_for({"id": "wetland_permit_application", "complete": "2026-03-01"})
    assert ev["hearing_deadline"].date == D(2026, 3, 1) + dt.timedelta(days=days)


def test_two_permits_of_the_same_kind_get_distinct_stable_ids():
    items = [{"id": "wetland_permit", "issued": "2026-03-01", "ref": "W-12"},
             {"id": "wetland_permit", "issued": "2026-04-01"},
             {"id": "wetland_permit", "issued": "2026-05-01"}]
    ids = [e.id for e in timeline_events(items, AS_OF, expiring_soon_days=90) if e.kind == "expires"]
    assert ids == ["wetland-permit-w-12-expires", "wetland-permit-expires", "wetland-permit-2-expires"]
    again = [e.id for e in timeline_events(items, D(2030, 1, 1), expiring_soon_days=10) if e.kind == "expires"]
    assert again == ids


def test_dates_may_be_date_objects_or_iso_text():
    a = events_for({"id": "biodiversity_study", "dated": D(2024, 2, 29)})
    b = events_for({"id": "biodiversity_study", "dated": "2024-02-29"})
    assert a == b
    assert a["valid_until"].to_dict()["date"] == "2027-02-28"


# --------------------------------------------------------------------------------------------
# Bad input: one plain sentence naming the item
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item, message",
    [
        ({"id": "wetland_permit", "issued": "2026-02-30"}, r"wetland permit's issue date, '2026-02-30', is not a real calendar date"),
        ({"id": "wetland_permit", "issued": "March 1"}, r"wetland permit's issue date.*YYYY-MM-DD"),
        ({"id": "wetland_permit", "issued": "2026-03-01", "expires": "2026-02-01"}, r"wetland permit's expiry date .* is before its issue date"),
        ({"id": "steep_slope_permit", "issued": "2026-03-01", "other_permit_expires": "2025-01-01"}, r"steep slope permit's other permit's expiry date"),
        ({"id": "wetland_permit"}, r"wetland permit is missing its issue date \('issued'\)"),
        ({"id": "building_permit", "issued": "2026-03-01"}, r"unknown id, 'building_permit'"),
        ({"issued": "2026-03-01"}, r"has no 'id'"),
        ({"id": "wetland_permit", "issue": "2026-03-01"}, r"keys the timeline does not know \(issue\)"),
        ({"id": "swppp_inspections", "start": "2026-06-01", "end": "2026-05-01"}, r"SWPPP inspections's end date"),
        ({"id": "tree_removal_permit", "issued": "2026-01-01", "term_months": "six"}, r"term in months must be a whole number"),
        ({"id": "winter_season", "year": "next"}, r"winter season's year must be a whole number"),
        ({"id": "wetland_delineation", "dated": "2026-01-01", "filing": "2025-12-31"}, r"filing date .* is before its delineation date"),
    ],
)
def test_bad_input_is_refused_with_a_sentence_naming_the_item(item, message):
    with pytest.raises(SloatInputError, match=message):
        timeline_events([item], AS_OF, expiring_soon_days=90)


def test_an_impossible_as_of_date_is_refused():
    with pytest.raises(SloatInputError, match="not a real calendar date"):
        timeline_events([], "2026-02-29", expiring_soon_days=90)


def test_no_item_crashes_on_a_leap_day():
    leap = "2028-02-29"
    items = [
        {"id": "wetland_permit", "issued": leap},
        {"id": "wetland_permit_application", "complete": leap},
        {"id": "wetland_activity_start", "start": leap},
        {"id": "wetland_delineation", "dated": leap},
        {"id": "mitigation_monitoring", "completed": leap, "years": 4},
        {"id": "steep_slope_application", "complete": leap},
        {"id": "steep_slope_permit", "issued": leap},
        {"id": "tree_removal_permit", "issued": leap, "term_months": 12},
        {"id": "biodiversity_study", "dated": leap},
        {"id": "grading", "final_grade": leap},
        {"id": "clearing", "grading_start": leap},
        {"id": "swppp_inspections", "start": leap, "end": "2028-03-31"},
        {"id": "winter_season", "year": 2027},
    ]
    events = {(e.item_id, e.kind): e.date for e in timeline_events(items, leap, expiring_soon_days=90)}
    assert events[("mitigation_monitoring", "monitoring_end")] == D(2032, 2, 29)  # 2032 is a leap year
    assert events[("mitigation_monitoring", "monitoring_min_end")] == D(2031, 2, 28)
    assert events[("steep_slope_permit", "extension_request_deadline")] == D(2029, 1, 28)
    assert events[("wetland_delineation", "filing_deadline")] == D(2029, 2, 28)


# --------------------------------------------------------------------------------------------
# iCalendar export
# --------------------------------------------------------------------------------------------


def unfold(ics: str) -> list[str]:
    return ics.replace("\r\n ", "").split("\r\n")


def test_the_calendar_file_is_rfc_5545_shaped():
    events = timeline_events(ALL_ITEMS, AS_OF, expiring_soon_days=90)
    ics = to_ics(events, calendar_name="Sloatsburg, 12 Main St; Article IX",
                 dtstamp=dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.timezone.utc))
    assert ics.endswith("\r\n")
    raw_lines = ics.split("\r\n")[:-1]
    assert all("\n" not in line and "\r" not in line for line in raw_lines)
    assert all(len(line.encode("utf-8")) <= 75 for line in raw_lines)
    assert any(line.startswith(" ") for line in raw_lines), "long lines should have been folded"
    lines = unfold(ics)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR" and lines[-1] == ""
    assert "VERSION:2.0" in lines and any(line.startswith("PRODID:") for line in lines)
    assert "X-WR-CALNAME:Sloatsburg\\, 12 Main St\\; Article IX" in lines
    assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") == len(events)
    blocks = ics.replace("\r\n ", "").split("BEGIN:VEVENT\r\n")[1:]
    uids = set()
    for e, block in zip(events, blocks):
        fields = dict(line.split(":", 1) for line in block.split("\r\n") if ":" in line)
        assert fields["DTSTART;VALUE=DATE"] == e.date.strftime("%Y%m%d")
        assert fields["DTSTAMP"] == "20260101T120000Z"
        assert "§ 402-" in fields["DESCRIPTION"] and e.citation.replace(",", "\\,") in fields["DESCRIPTION"]
        assert fields["SUMMARY"]
        assert e.id in fields["UID"]
        uids.add(fields["UID"])
    assert len(uids) == len(events)


def test_calendar_uids_are_stable_between_exports():
    events = timeline_events(ALL_ITEMS[:3], AS_OF, expiring_soon_days=90)
    later = timeline_events(ALL_ITEMS[:3], D(2027, 6, 1), expiring_soon_days=90)
    uid = re.compile(r"^UID:(.*)$", re.M)
    first = uid.findall(to_ics(events, calendar_name="Case 7").replace("\r\n ", ""))
    second = uid.findall(to_ics(later, calendar_name="Case 7").replace("\r\n ", ""))
    assert [u.strip() for u in first] == [u.strip() for u in second]


def test_text_is_escaped_and_folding_never_splits_a_character():
    e = Event("x-expires", "wetland_permit", "expires", D(2026, 3, 1), "§ 402-57J(4)", "active",
              "Permit; with, commas\\and a newline\nhere " + "§" * 60, "Détail ÷ " * 20)
    ics = to_ics([e], calendar_name="Test", dtstamp=dt.datetime(2026, 1, 1))
    for line in ics.split("\r\n"):
        line.encode("utf-8").decode("utf-8")  # each physical line is whole UTF-8
        assert len(line.encode("utf-8")) <= 75
    summary = next(line for line in unfold(ics) if line.startswith("SUMMARY:"))
    assert summary.startswith("SUMMARY:Permit\\; with\\, commas\\\\and a newline\\nhere §§")


def test_every_clock_takes_its_declared_keys_and_refuses_an_item_missing_a_required_one():
    ints = {"years": 3, "term_months": 6, "year": 2026, "rainfall_in": 1.25}
    for clock in CLOCKS:
        full = {"id": clock.id} | {f.key: "2026-01-15" if f.kind == "date" else ints[f.key] for f in clock.fields}
        assert isinstance(timeline_events([full], "2026-01-01", expiring_soon_days=90), list), clock.id
        for f in clock.fields:
            if f.required:
                with pytest.raises(SloatInputError, match=re.escape(f"missing its {f.words} ('{f.key}')")):
                    timeline_events([{k: v for k, v in full.items() if k != f.key}], "2026-01-01",
                                    expiring_soon_days=90)


def test_seven_years_of_monitoring_is_accepted_and_flagged():
    # § 402-57P(5): "In general, the monitoring period shall be three to five years"
    assert quote_in_clause("three to five years", "§ 402-57P(5)")
    e = events_for({"id": "mitigation_monitoring", "completed": "2026-05-01", "years": 7})["monitoring_end"]
    assert e.date == dt.date(2033, 5, 1) and "Warning" in e.detail


def test_the_building_inspector_is_notified_48_hours_before_an_inspection_stage():
    # § 402-58H(1)(a): "the applicant shall notify the Village of Sloatsburg Building Inspector at least 48 hours
    # before any of the following"
    assert quote_in_clause("at least 48 hours before", "§ 402-58H(1)(a)")
    e = events_for({"id": "inspection_notice", "planned": "2026-06-10"})["notice_deadline"]
    assert e.date == dt.date(2026, 6, 8) and e.citation == "§ 402-58H(1)(a)"


def test_a_notice_of_violation_may_be_appealed_within_15_days_of_service():
    # § 402-58J(1)(f): "by filing a written notice of appeal within 15 days of service of notice of violation"
    e = events_for({"id": "stormwater_notice_of_violation", "served": "2026-07-01"})["appeal_deadline"]
    assert e.date == dt.date(2026, 7, 16) and e.citation == "§ 402-58J(1)(f)"


def test_a_performance_guarantee_runs_at_least_a_year_from_final_acceptance():
    # § 402-58I(1): "shall not be less than one year from the date of final acceptance"
    e = events_for({"id": "performance_guarantee", "final_acceptance": "2024-02-29"})["guarantee_earliest_end"]
    assert e.date == dt.date(2025, 2, 28) and e.citation == "§ 402-58I(1)"
    assert e.status == "reached"  # a "not before" day: its own words, never "passed"


def test_an_open_space_charge_unpaid_for_more_than_60_days_becomes_a_lien():
    # § 402-48G(3)(f)[2]: "Such charge, if unpaid for more than 60 days, shall become a lien"
    ev = events_for({"id": "open_space_charge", "billed": "2026-03-02"})
    assert ev["payment_deadline"].date == dt.date(2026, 5, 1)  # day 60: not yet "more than 60 days"
    assert ev["lien_possible"].date == dt.date(2026, 5, 2)
    assert ev["lien_possible"].citation == "§ 402-48G(3)(f)[2]"


def test_the_storm_report_is_due_within_24_hours():
    # § 402-58G(1)(b): "within 24 hours of any storm event producing 0.5 inches of precipitation or more"
    e = events_for({"id": "storm_event", "date": "2026-06-12"})["storm_report_deadline"]
    assert e.date == dt.date(2026, 6, 13)


def test_new_timeline_ids_are_the_cli_contract():
    for item_id in ("inspection_notice", "stormwater_notice_of_violation", "performance_guarantee",
                    "open_space_charge", "mitigation_monitoring", "storm_event"):
        assert item_id in ITEM_KINDS


@pytest.mark.parametrize("as_of, status", [("2026-04-30", "not_yet"), ("2026-05-01", "reached"),
                                           ("2026-06-01", "reached")])
def test_the_earliest_day_to_clear_is_a_not_before_day_with_its_own_words(as_of, status):
    # § 402-55J(20): vegetation may be disturbed "not more than" so many days before grading begins.
    days = value("vegetation_clearing_max_days_before_grading", LAW_DAY)
    start = dt.date(2026, 5, 1) + dt.timedelta(days=days)
    e = events_for({"id": "clearing", "grading_start": start.isoformat()}, as_of)["clearing_earliest_start"]
    assert e.date == dt.date(2026, 5, 1) and e.status == status


def test_a_deadline_on_a_holiday_keeps_its_date_and_notes_the_next_business_day():
    # Appeal served 10 December 2026: day 15 is Christmas Day (a Friday); GCL § 25-a carries it to Monday.
    e = events_for({"id": "stormwater_notice_of_violation", "served": "2026-12-10"})["appeal_deadline"]
    assert e.date == dt.date(2026, 12, 25)
    assert "§ 25-a" in e.note and "28 December 2026" in e.note and "Christmas" in e.note
    weekday = events_for({"id": "stormwater_notice_of_violation", "served": "2026-12-01"})["appeal_deadline"]
    assert weekday.date == dt.date(2026, 12, 16) and weekday.note == ""


def test_a_deadline_on_the_friday_before_a_saturday_holiday_is_a_business_day_under_gcl_24():
    # Appeal served 18 June 2026: day 15 is Friday 3 July 2026. Independence Day falls on Saturday 4 July;
    # General Construction Law § 24 moves only a Sunday holiday (to the Monday), so the Friday is a business
    # day and the appeal is due on it: no § 25-a carry to Monday 6 July (the holidays package's "observed"
    # Friday would have given one).
    e = events_for({"id": "stormwater_notice_of_violation", "served": "2026-06-18"})["appeal_deadline"]
    assert e.date == dt.date(2026, 7, 3) and e.date.weekday() == 4
    assert e.note == ""


def test_a_notice_counted_back_on_a_saturday_advises_the_business_day_before():
    e = events_for({"id": "inspection_notice", "planned": "2026-12-28"})["notice_deadline"]
    assert e.date == dt.date(2026, 12, 26) and "24 December 2026" in e.note


def test_the_calendar_has_stable_uids_and_a_reminder_before_each_deadline():
    import icalendar

    items = [{"id": "stormwater_notice_of_violation", "served": "2026-12-10"},
             {"id": "clearing", "grading_start": "2026-06-01"}]
    first = to_ics(timeline_events(items, "2026-01-01", expiring_soon_days=90), calendar_name="Case 7")
    later = to_ics(timeline_events(items, "2026-12-20", expiring_soon_days=90), calendar_name="Case 7")
    uids = [[str(c["UID"]) for c in icalendar.Calendar.from_ical(x).walk("VEVENT")] for x in (first, later)]
    assert uids[0] == uids[1] and len(set(uids[0])) == 2
    events = {str(c["CATEGORIES"].cats[0]): c for c in icalendar.Calendar.from_ical(first).walk("VEVENT")}
    alarm = events["appeal deadline"].walk("VALARM")
    assert len(alarm) == 1 and alarm[0]["TRIGGER"].dt == dt.timedelta(days=-7)
    assert events["clearing earliest start"].walk("VALARM") == []  # a "not before" day is no deadline
    assert "§ 25-a" in str(events["appeal deadline"]["DESCRIPTION"])


def test_an_absurd_monitoring_period_is_refused_in_one_sentence():
    from sloat_core.errors import SloatInputError

    with pytest.raises(SloatInputError, match="outside the years"):
        events_for({"id": "mitigation_monitoring", "completed": "2026-05-01", "years": 10**30})
