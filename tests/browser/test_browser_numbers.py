"""Issue 24, item 10, in a real browser at the engineer's 1440x900: a bad number in the mitigation calculator
says which field and what range, and no result (not the last valid one) stays on screen."""

from __future__ import annotations

from playwright.sync_api import expect

SENTENCE = '"Wetland to be lost" must be a number from 0 to 10,000,000,000 sq ft.'


def test_mitigation_bad_numbers_are_named_and_show_no_result(app):
    page = app.page
    page.set_viewport_size({"width": 1440, "height": 900})
    app.open("/mitigation")
    app.settle()
    field = page.get_by_label("Wetland to be lost (sq ft)")
    field.fill("1000")
    field.press("Enter")
    app.wait_text("1,500 sq ft")
    for bad in ("-500", "1e15"):
        field.fill(bad)
        field.press("Enter")
        app.settle()
        expect(page.get_by_text(SENTENCE)).to_be_visible(timeout=15_000)
        assert page.locator('[data-testid="stMetricValue"]').count() == 0, bad
        expect(page.get_by_text("reaches the required area")).to_have_count(0)
        app.shot(f"numbers_mitigation_{bad}")
    field.fill("2000")
    field.press("Enter")
    app.wait_text("3,000 sq ft")
    expect(page.get_by_text(SENTENCE)).to_have_count(0)
