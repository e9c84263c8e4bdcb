"""Text alternatives and announcements: each chart's text twin holds what it draws; the live-region
script carries user text only as JSON (never as markup)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from app_support.frame import announce
from app_support.views import results
from app_support.views.results import waterfall_figure
from app_support.widgets import charts
from result_sample import sample


def test_the_waterfalls_twin_lists_gross_each_deduction_and_net():
    result = {"gross_area_sqft": 40_000.0, "net_lot_area_sqft": 28_000.0, "deductions": [
        {"constraint": "wetlands", "label": "Wetlands", "deducted_sqft": 10_000.0},
        {"constraint": "floodplain", "label": "Floodplain", "deducted_sqft": 2_000.0},
        {"constraint": "water", "label": "Water bodies", "deducted_sqft": 0.0}]}
    rows = charts.chart_table(waterfall_figure(result))
    assert [(r["Step"], r["sq ft"], r["How"]) for r in rows] == [
        ("Gross area", "40,000", "start"), ("Wetlands", "10,000", "deducted"), ("Floodplain", "2,000", "deducted"),
        ("Net lot area", "28,000", "result")]


def test_the_lying_waterfalls_twin_reads_the_same():
    result = {"gross_area_sqft": 100.0, "net_lot_area_sqft": 60.0, "deductions": [
        {"constraint": "wetlands", "label": "Wetlands", "deducted_sqft": 40.0}]}
    assert [r["sq ft"] for r in charts.chart_table(waterfall_figure(result, large=True))] == ["100", "40", "60"]


def test_the_gauges_twin_says_proposed_and_required_and_not_given():
    rows = charts.chart_table(charts.mitigation_gauge(3_000.0, None))
    assert rows == [{"What": "Proposed replacement", "sq ft": "not given"},
                    {"What": "Required replacement", "sq ft": "3,000"}]


def test_the_timelines_twin_has_every_dot_in_date_order_with_its_status_and_section():
    rows = [{"item": "1. Wetland permit", "date": dt.date(2027, 5, 1), "label": "Expires", "status": "upcoming",
             "citation": "§ 402-57N", "kind": "expires"},
            {"item": "1. Wetland permit", "date": dt.date(2026, 5, 1), "label": "Issued", "status": "passed",
             "citation": "§ 402-57M", "kind": "issued"}]
    fig = charts.timeline_figure(rows, dt.date(2026, 12, 1), [(dt.date(2026, 12, 1), dt.date(2027, 3, 31))])
    twin = charts.chart_table(fig)
    assert [(r["Date"], r["What"], r["Status"], r["§"]) for r in twin] == [
        ("2026-05-01", "Issued", charts.STATUS_LABELS["passed"], "§ 402-57M"),
        ("2027-05-01", "Expires", charts.STATUS_LABELS["upcoming"], "§ 402-57N")]  # the season swatch is no dot


@pytest.mark.parametrize("hostile", ["</script><script>alert(1)</script>", "\" + alert(1) + \"", "<img onerror=x>"])
def test_the_announcement_script_carries_text_only_as_json(hostile):
    html = announce.announce_script(hostile, True)
    assert html.count("</script>") == 1 and html.endswith("</script>")
    assert "<script>alert" not in html and "<img" not in html
    literal = html[html.index("var say = ") + len("var say = "):html.index(", focus = ")]
    assert json.loads(literal) == hostile  # the same text comes back, as a string


def test_the_message_says_where_the_net_lot_area_and_the_verdict():
    text = results.announcement(sample(net_lot_area_sqft=9_500.0, meets_min_lot_area=False, district="R-15",
                                       min_lot_area_sqft=15_000, net_lot_area_min_sqft=9_500.0), "Tax parcel 1-2-3")
    assert text.startswith("Tax parcel 1-2-3. Net lot area 9,500 sq ft (0.22 acres). ")
    assert "15,000" in text and "\\" not in text
    assert results.announcement(sample(net_lot_area_sqft=None), "").startswith("Net lot area unknown.")
