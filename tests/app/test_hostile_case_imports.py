"""Case files and links that used to crash a page, and text that made browsers fetch.

Every value of an imported case is checked against what the pages and the rules accept, refused in one
sentence naming the field; an unexpected error in a page is one sentence and a logged trace (forced here);
``?cite=402-`` with 5,000 digits is one sentence; a case title holding a markdown image is shown as text.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path
from unittest import mock

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.store import Case, CaseStore, case_from_json, case_to_json  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
IMAGE = "![x](http://attacker.invalid/pixel.png)"
SERVER_PATH_BITS = (str(ROOT), "/tmp/", "/home/", "/srv/", "site-packages", "Traceback", 'File "')


@pytest.fixture()
def manifest(module_layer_files, monkeypatch):
    """The layer set, written once for the module (its tests only read it: tests/conftest.py), served via
    ``SLOAT_LAYERS`` as the app reads it."""
    monkeypatch.setenv("SLOAT_LAYERS", str(module_layer_files))
    return module_layer_files


def _doc(**case_fields) -> bytes:
    case = Case(title="12 Main St", notes="Met at the counter.")
    doc = json.loads(case_to_json(case))
    doc["case"].update(case_fields)
    return json.dumps(doc).encode()


def _refused(payload: bytes) -> str:
    with pytest.raises(SloatInputError) as err:
        case_from_json(payload)
    message = str(err.value)
    assert "\n" not in message and message.endswith(".") and message.count(". ") == 0, message
    assert not any(bit in message for bit in SERVER_PATH_BITS), message
    return message


# ------------------------------------------------------------------------------------------------
# Every import value checked, one sentence naming the field
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fields, names", [
    ({"colour": "blue"}, "'colour'"),  # an unknown key
    ({"mitigation_input": {"impacted_wetland_sqft": "a lot"}}, "mitigation figures"),  # text where a number goes
    ({"mitigation_input": {"impacted_wetland_sqft": -5}}, "mitigation figures"),  # out of range
    ({"mitigation_input": {"impacted_wetland_sqft": 1e300}}, "mitigation figures"),
    ({"mitigation_input": {"wetland": 5}}, "mitigation figures"),  # an unknown key inside
    ({"mitigation_input": {"gate": {"compatible_with_public_welfare": "maybe"}}}, "mitigation figures"),
    ({"mitigation_input": {"onsite_possible": "yes"}}, "mitigation figures"),
    ({"notes": ["a", "list"]}, "notes"),  # a list where a note goes
    ({"title": {"a": 1}}, "title"),
    ({"board_answers": {"402-48C(4)": "maybe"}}, "Board answers"),  # a Board answer outside yes/no/unknown
    ({"board_answers": {"402-48C(4)": 1}}, "Board answers"),
    ({"board_answers": {"402-99": True}}, "Board answers"),  # an unknown question
    ({"timeline_items": [{"id": "moon_landing_permit", "issued": "2026-01-01"}]}, "permit dates"),
    ({"timeline_items": [{"id": "wetland_permit", "issued": "yesterday"}]}, "permit dates"),
    ({"timeline_items": ["wetland_permit"]}, "permit dates"),
    ({"project": {"trees_removed": "many"}}, "project description"),
    ({"project": {"helipad": True}}, "project description"),
    ({"parcel_meta": {"owner": "x"}}, "parcel details"),
    ({"parcel_meta": {"sbl": ["156.14-1-23"]}}, "parcel details"),
    ({"settings_overrides": {"no_such_setting": 3}}, "setting overrides"),
    ({"parcel_geojson": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}}, "parcel outline"),
    ({"parcel_geojson": {"type": "Polygon", "coordinates": "none"}}, "parcel outline"),
    ({"revision": "3"}, "revision"),
])
def test_an_import_value_of_the_wrong_kind_is_refused_naming_the_field(fields, names):
    message = _refused(_doc(**fields))
    assert names.lower() in message.lower(), message


def test_a_whole_good_case_still_imports():
    ring = [[-74.1943, 41.1528], [-74.1943, 41.1538], [-74.1954, 41.1538], [-74.1954, 41.1528], [-74.1943, 41.1528]]
    payload = _doc(
        parcel_geojson={"type": "Polygon", "coordinates": [ring]},
        parcel_meta={"source": "Tax parcel", "sbl": "156.14-1-23", "address": "12 Main St", "district": None},
        board_answers={"402-48C(4)": True, "402-48C(5)": None, "402-48C(6)": False},
        mitigation_input={"impacted_wetland_sqft": 1200.0, "impacted_buffer_sqft": None,
                          "proposed_mitigation_sqft": 2400, "onsite_possible": True,
                          "gate": {"compatible_with_public_welfare": True, "no_onsite_alternative": None}},
        timeline_items=[{"id": "wetland_permit", "issued": "2026-03-02"}],
        project={"application_type": "subdivision", "trees_removed": 3},
    )
    case = case_from_json(payload)
    assert case.board_answers["402-48C(4)"] is True and case.mitigation_input["proposed_mitigation_sqft"] == 2400


def test_a_hostile_field_name_is_quoted_short():
    message = _refused(_doc(**{"x" * 5000: 1}))
    assert len(message) < 300


# ------------------------------------------------------------------------------------------------
# In the app: one sentence, never a traceback, nothing fetched
# ------------------------------------------------------------------------------------------------


def _texts(at: AppTest) -> list[str]:
    out = []
    for kind in ("markdown", "caption", "error", "success", "info", "warning", "text", "title", "subheader"):
        out += [str(e.value) for e in at.get(kind)]
    return out


def _no_fetching_markdown(at: AppTest) -> None:
    for text in _texts(at):
        assert re.search(r"(?<!\\)\]\(|(?<!\\)!\[", text) is None, text  # an escaped image is text
        assert re.search(r"(?<!\\)<img", text.lower()) is None, text  # escaped, "\<img", is text


def _imported_in_the_app(payload: bytes) -> AppTest:
    """The app after ``payload`` is uploaded as a case file on the Case page (the run raised nothing)."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/case.py").run()
    at.file_uploader(key="case_import").upload("case.json", payload, "application/json").run()
    assert not at.exception
    return at


def test_importing_a_case_with_a_bad_board_answer_says_one_sentence(manifest, data_dir):
    at = _imported_in_the_app(_doc(board_answers={"402-48C(4)": "maybe"}))
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "Board answers" in errors[0], errors


def test_a_case_title_with_a_markdown_image_is_shown_as_text(manifest, data_dir):
    store = CaseStore(data_dir)
    case = Case(title=f"12 Main St {IMAGE} <img src=x onerror=alert(1)>", notes=f"Notes {IMAGE}")
    store.save(case)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["case"] = case.id
    at.run()
    assert not at.exception
    at.switch_page("pages/case.py").run()
    assert not at.exception
    shown = " ".join(_texts(at))
    assert "Main St" in shown  # the title is there, as text
    _no_fetching_markdown(at)


def test_an_unexpected_error_in_a_page_is_one_sentence_and_a_logged_trace(manifest, data_dir, caplog):
    boom = RuntimeError(f"{ROOT}/secret/server/path.py exploded")
    at = AppTest.from_file(APP, default_timeout=60)
    with mock.patch("app_support.inputs.parcel_inputs.find_by_text", side_effect=boom), \
            caplog.at_level(logging.ERROR, logger="sloat.app"):
        at.run()
    assert not at.exception, at.exception  # the guard caught it
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "unexpected problem" in errors[0] and "reference" in errors[0], errors
    assert not any(bit in " ".join(_texts(at)) for bit in SERVER_PATH_BITS + ("exploded",))
    logged = [r for r in caplog.records if r.name == "sloat.app"]
    assert logged and logged[0].exc_info is not None and "exploded" in str(logged[0].exc_info[1])
    ref = errors[0].split("reference ")[1].split(" ")[0]
    assert ref in logged[0].getMessage()
    assert at.sidebar.radio[0].value is not None  # the frame (sidebar) is still there


def _law_page_with(name: str, value: str, *, from_the_start: bool = False) -> AppTest:
    """The law page opened with the query parameter ``name`` set to ``value`` (on the app's first run too when
    ``from_the_start``: a link that lands on the router)."""
    at = AppTest.from_file(APP, default_timeout=60)
    if from_the_start:
        at.query_params[name] = value
    at.run()
    at.switch_page("pages/law.py")
    at.query_params[name] = value
    return at.run()


def _refused_in_one_short_sentence(at: AppTest) -> None:
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and len(errors[0]) < 200, errors
    _no_fetching_markdown(at)


@pytest.mark.parametrize("cite", ["402-" + "9" * 5000, "402-57J-" + "4-" * 3000, IMAGE, "<script>x</script>"])
def test_a_hostile_citation_link_is_one_sentence(manifest, data_dir, cite):
    _refused_in_one_short_sentence(_law_page_with("cite", cite, from_the_start=True))


def test_ordinary_citation_links_still_open(manifest, data_dir):
    at = _law_page_with("cite", "402-57J-4")
    assert not at.exception and not at.error
    assert any("followed a link" in t and "57J" in t for t in _texts(at)), _texts(at)


def test_the_session_state_has_no_parcel_after_a_refused_import(manifest, data_dir):
    at = _imported_in_the_app(_doc(mitigation_input={"impacted_wetland_sqft": "x"}))
    assert at.session_state[state.PARCEL] is None
    assert fx.P1_SBL  # the fixtures' layer set is the one served


@pytest.mark.parametrize("section", ["402-" + "9" * 5000, "x" * 5000, IMAGE])
def test_a_hostile_section_link_is_one_short_sentence(manifest, data_dir, section):
    _refused_in_one_short_sentence(_law_page_with("section", section))
