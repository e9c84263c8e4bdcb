"""In a real browser at the engineer's 1440x900: a bad number in the mitigation calculator
says which field and what range, and no result (not the last valid one) stays on screen."""

from __future__ import annotations

import app_fixtures as fx  # (tests/ on the path: tests/browser/conftest.py)
import pytest
from playwright.sync_api import expect

from browser.conftest import new_offline_page, shot_if_failed

SENTENCE = '"Wetland to be lost" must be a number from 0 to 10,000,000,000 sq ft.'


class _Engineer:
    """One page at 1440x900 for both forms (one engineer's session): opened at the first form a test asks for, the
    other reached from the page menu."""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self.app = None
        self.p1_chosen = False  # tax parcel P1 chosen in the session (_project_page_on_p1)

    def on(self, path: str, label: str, heading: str):
        """The session on the page ``path`` (its menu ``label``, its h1 ``heading``)."""
        if self.app is None:
            self.app = new_offline_page(self.contexts, self.url)
            self.app.page.set_viewport_size({"width": 1440, "height": 900})
            self.app.open(path)
        else:
            self.app.open_sidebar()
            self.app.page.locator('[data-testid="stSidebarNav"]').get_by_text(label, exact=True).click()
            self.app.page.locator("h1", has_text=heading).first.wait_for(timeout=30_000)
        self.app.settle()
        return self.app


@pytest.fixture(scope="module")
def _engineer(contexts, app_url):
    shared = _Engineer(contexts, app_url)
    yield shared
    if shared.app is not None:
        shared.app.page.close()


@pytest.fixture()
def engineer(_engineer, request):
    """The module's page at 1440x900 (_Engineer); a screenshot if the test failed."""
    yield _engineer
    if _engineer.app is not None:
        shot_if_failed(request, _engineer.app)


def test_mitigation_bad_numbers_are_named_and_show_no_result(engineer):
    app = engineer.on("/mitigation", "Wetland mitigation", "Wetland mitigation")
    page = app.page
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


TREES = '"Trees to be removed" must be a whole number from 0 to 1,000,000.'


def _project_page_on_p1(engineer):
    """The Proposed project page of the module's session with tax parcel P1 chosen (chosen on the Parcel page the
    first time, as an engineer does; kept by the session for the next test)."""
    if not engineer.p1_chosen:
        app = engineer.on("/", "Parcel & constraints", "Parcel & constraints")
        app.choose_parcel(fx.P1_SBL)
        engineer.p1_chosen = True
    return engineer.on("/project", "Proposed project", "Proposed project")


def test_project_form_bad_numbers_are_named_beside_the_field_and_show_no_result(engineer):
    """The project form at 1440x900: trees to be removed typed as -500, then 1e15; each time the sentence stands
    under the field and no permit list (not the last one) is on screen."""
    app = _project_page_on_p1(engineer)
    page = app.page
    field = page.get_by_label("Trees to be removed")
    field.fill("3")
    field.press("Enter")
    app.wait_text("Tree removal permit")
    for bad in ("-500", "1e15"):
        field.fill(bad)
        field.press("Enter")
        app.settle()
        sentence = page.get_by_text(TREES)
        expect(sentence).to_be_visible(timeout=15_000)
        # beside the field: just under it, in the same column
        f, s = field.bounding_box(), sentence.bounding_box()
        assert 0 <= s["y"] - (f["y"] + f["height"]) < 80 and abs(s["x"] - f["x"]) < 60, (f, s)
        expect(page.get_by_text("Tree removal permit")).to_have_count(0)
        expect(page.get_by_text("last valid values")).to_have_count(0)
        app.shot(f"numbers_project_trees_{bad}")


def test_letters_typed_as_trees_leave_the_field_empty_and_a_number_brings_the_permit_back(engineer):
    """The project form at 1440x900: after 7 trees, letters typed into the trees field are not taken (a number field:
    it stays empty, "not known") and no sentence is shown; 3 trees then bring the tree removal permit back."""
    app = _project_page_on_p1(engineer)
    page = app.page
    field = page.get_by_label("Trees to be removed")
    field.fill("7")  # a number first, whatever the session had: the letters below then change the field
    field.press("Enter")
    app.wait_text("Tree removal permit")
    app.settle()
    field.fill("")
    field.press_sequentially("abc")
    field.press("Enter")
    app.settle()
    assert field.input_value() == ""
    expect(page.get_by_text(TREES)).to_have_count(0)
    app.shot("numbers_project_trees_letters")
    field.fill("3")
    field.press("Enter")
    app.wait_text("Tree removal permit")
    expect(page.get_by_text(TREES)).to_have_count(0)
