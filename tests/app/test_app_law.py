"""AppTest checks of the Law page: browsing by section and deep links by query parameter."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_support.widgets.citations import cite_to_query, query_to_cite
from sloat_core.law import text as law
from sloat_core.errors import SloatInputError

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _law_page(**query) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page("pages/law.py").run()
    assert not at.exception, at.exception
    return at


def _texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown) + "\n".join(h.value for h in at.header)


def test_deep_link_by_cite_opens_section_and_shows_clause():
    at = _law_page(cite="402-57J-4")
    assert at.selectbox(key="law_section").value == "402-57"
    shown = _texts(at).replace("\\", "")
    assert "You followed a link to § 402-57J(4)" in shown
    # the first words of the cited clause, from the law text itself
    assert law.clause("§ 402-57J(4)").split()[1] in shown
    assert "Wetlands and watercourses" in shown


def test_deep_link_parenthesised_form_and_nested_item():
    at = _law_page(cite="402-48G(3)(e)[5]")
    assert at.selectbox(key="law_section").value == "402-48"
    assert "You followed a link to § 402-48G(3)(e)[5]" in _texts(at).replace("\\", "")


def test_deep_link_by_section():
    at = _law_page(section="402-55")
    assert at.selectbox(key="law_section").value == "402-55"
    assert "Steep slope protection" in _texts(at)
    assert "You followed a link" not in _texts(at)


def test_unknown_citation_shows_one_sentence_and_first_section():
    at = _law_page(cite="402-99Z-9")
    problems = [e.value for e in at.error if "402-99" in e.value]
    assert len(problems) == 1 and problems[0].count(".") <= 2
    assert at.selectbox(key="law_section").value == law.sections()[0].number


def test_choosing_a_section_updates_the_url():
    at = _law_page()
    at.selectbox(key="law_section").set_value("402-58").run()
    assert at.query_params["section"] == ["402-58"] or at.query_params["section"] == "402-58"
    assert "Stormwater management" in _texts(at)


def test_search_filters_paragraphs():
    at = _law_page(section="402-45")
    at.text_input(key="law_search").input("rock outcrops").run()
    shown = _texts(at).replace("\\", "")
    assert "Rock outcrops" in shown
    assert "Steep slopes." not in shown


@pytest.mark.parametrize("citation", ["§ 402-57J(4)", "§ 402-48G(3)(e)[5]", "§ 402-45A(2)(b)", "§ 402-46"])
def test_citation_query_round_trip(citation):
    assert query_to_cite(cite_to_query(citation)) == citation
    assert cite_to_query(citation) == law.citation_anchor(citation)


def test_bad_query_value_is_refused():
    with pytest.raises(SloatInputError):
        query_to_cite("<script>")
