"""AppTest checks of cases in the app: saved on every change, reopened by link, staff mode, exports, import.

The layer set is tests/app_fixtures.py: tax parcel P1 is a 200 ft x 200 ft square (40,000 sq ft)
with a 50 ft x 200 ft wetland strip along its west side; P2 a 100 ft x 100 ft square with nothing
on it. Each test has its own case database (``SLOAT_DATA_DIR`` in a temporary folder). The bytes of
each download button are read from the media file manager the AppTest run stores them in.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from unittest import mock
from pathlib import Path

import pytest
from pypdf import PdfReader
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.cases import cases_ui, staff_ui  # noqa: E402
from app_support.frame import state  # noqa: E402
from app_support.widgets import forms  # noqa: E402
from sloat_core.store import (  # noqa: E402
    ARCHIVED_SENTENCE,
    CaseArchivedError,
    CaseNotFound,
    CaseStore,
    analyze_case,
    hash_passcode,
    is_valid_case_id,
)
from sloat_core.gis.layers import load_manifest  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CASE_PAGE = "pages/case.py"
PASS = "blue heron 402"
PROJECT = {"application_type": "subdivision", "trees_removed": 3}
ITEMS = [{"id": "wetland_permit", "issued": "2026-03-02"}]


@pytest.fixture()
def manifest(module_layer_files, monkeypatch):
    """The layer set, written once for the module (its tests only read it: tests/conftest.py), served via
    ``SLOAT_LAYERS`` as the app reads it."""
    monkeypatch.setenv("SLOAT_LAYERS", str(module_layer_files))
    return module_layer_files


def new_app(case_id: str | None = None, secret: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if case_id:
        at.query_params["case"] = case_id
    if secret:
        at.secrets["staff_passcode_hash"] = secret
    return at.run()


def case_id_of(at: AppTest) -> str | None:
    value = at.query_params.get("case")
    return value[0] if isinstance(value, list) else value


def pick(at: AppTest, sbl: str = fx.P1_SBL) -> AppTest:
    at.text_input(key="parcel_query").input(sbl).run()  # a single match is chosen at once
    assert not at.exception
    return at


def one_case_in_two_windows() -> tuple[AppTest, AppTest, str]:
    """(window A, window B, the case's id): a case chosen in window A and opened from its link in window B (a
    second tab, or a second person), the two on the same version."""
    a = pick(new_app())
    case_id = case_id_of(a)
    return a, new_app(case_id), case_id


def links(at: AppTest) -> list[str]:
    """The links shown with a "Copy link" button (app_support.widgets.copy_link), as their box holds them."""
    import html
    import re

    return [html.unescape(m) for e in at.get("iframe") if "Copy link</button>" in e.proto.srcdoc
            for m in re.findall(r'<input id="link"[^>]* value="([^"]*)"', e.proto.srcdoc)]


def texts(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "code", "error", "success", "info") for e in at.get(kind)]
    return "\n".join(str(p) for p in [*parts, *links(at)])


def test_choosing_a_parcel_creates_a_case_and_puts_it_in_the_url(manifest, data_dir):
    at = new_app()
    assert case_id_of(at) is None  # nothing chosen, nothing saved
    assert not (data_dir / "cases.sqlite3").exists() or not CaseStore(data_dir).connection().execute(
        "SELECT count(*) FROM cases").fetchone()[0]
    pick(at)
    case_id = case_id_of(at)
    assert is_valid_case_id(case_id)
    saved = CaseStore(data_dir).open_case(case_id)
    assert saved.parcel_meta["sbl"] == fx.P1_SBL
    assert saved.analysis["gross_area_sqft"] == pytest.approx(40_000, abs=0.5)
    assert saved.analysis["net_lot_area_sqft"] == at.session_state[cases_ui.CASE].analysis["net_lot_area_sqft"]
    assert saved.params_version and saved.layers_version == "test-1"


def test_every_change_is_saved_and_the_link_reopens_parcel_project_and_dates(manifest, data_dir):
    at = pick(new_app())
    case_id = case_id_of(at)
    at.session_state[state.PROJECT] = dict(PROJECT)
    at.session_state[forms.TIMELINE_ITEMS] = list(ITEMS)
    at.session_state[cases_ui.NOTES] = "Owner asked about the pond."
    at.switch_page("pages/law.py").run()  # a page that touches none of it: the frame saves
    assert case_id_of(at) == case_id  # the law page clears the URL; the case comes back into it
    saved = CaseStore(data_dir).open_case(case_id)
    assert saved.project == PROJECT and saved.timeline_items == ITEMS
    assert saved.notes == "Owner asked about the pond."
    assert saved.revision >= 2

    again = new_app(case_id)  # a browser refresh or a restarted server: a new session with the link
    assert not again.exception
    parcel = again.session_state[state.PARCEL]
    assert parcel.sbl == fx.P1_SBL and parcel.geometry.area == pytest.approx(40_000, abs=0.5)
    assert again.session_state[state.PROJECT] == PROJECT
    assert again.session_state[forms.TIMELINE_ITEMS] == ITEMS
    assert [m.value for m in again.metric][:2] == ["40,000", "20,000"]
    again.switch_page("pages/project.py").run()
    assert again.selectbox(key="pf_application_type").value == "subdivision"
    again.switch_page(CASE_PAGE).run()
    assert again.text_area(key=cases_ui.NOTES_BOX).value == "Owner asked about the pond."
    assert CaseStore(data_dir).open_case(case_id).revision == saved.revision  # reopening saved nothing new


def test_a_bad_link_says_so_and_starts_clean(manifest, data_dir):
    at = new_app("A" * 22)
    assert not at.exception
    assert "No case has this link" in " ".join(e.value for e in at.sidebar.error)
    assert at.session_state[state.PARCEL] is None and case_id_of(at) is None


def test_public_mode_shows_only_the_current_case_link(manifest, data_dir):
    other = pick(new_app(), fx.P2_SBL)
    other_id = case_id_of(other)
    at = pick(new_app())
    at.switch_page(CASE_PAGE).run()
    mine = case_id_of(at)
    shown = texts(at)
    assert f"?case={mine}" in shown and other_id not in shown
    assert not at.get("dataframe") and not [t for t in at.text_input if t.key == "staff_query"]
    assert staff_ui.STAFF_NOT_SET_UP in shown  # no hash in the secrets: no way to unlock, and who can turn it on


def test_staff_wrong_passcode_is_refused_and_slowed(manifest, data_dir):
    secret = hash_passcode(PASS, iterations=1000)
    at = pick(new_app(secret=secret))
    at.switch_page(CASE_PAGE).run()
    at.text_input(key="staff_passcode").input("guess")
    at.button(key="staff_unlock_btn").click().run()
    assert "Wrong passcode. Try again in 2 seconds" in " ".join(e.value for e in at.error)
    assert at.session_state[cases_ui.STAFF] is None and not at.get("dataframe")
    # More wrong tries from the same client (AppTest has no address: "global"), a few seconds apart,
    # so the next wait (2**5 s) outlasts the test's own pace.
    store, start = CaseStore(data_dir), time.time()
    for i in range(1, 5):
        assert not store.unlock_staff("guess", secret, client_key="global", now=start + 20 * i).ok
    at.text_input(key="staff_passcode").input(PASS)  # right, but too soon after the wrong ones
    at.button(key="staff_unlock_btn").click().run()
    assert "Too many wrong passcodes" in " ".join(e.value for e in at.error)
    assert at.session_state[cases_ui.STAFF] is None and not at.get("dataframe")


def test_staff_list_search_open_archive_and_undo(manifest, data_dir):
    other = pick(new_app(), fx.P2_SBL)
    other_id = case_id_of(other)
    at = pick(new_app(secret=hash_passcode(PASS, iterations=1000)))
    mine = case_id_of(at)
    at.switch_page(CASE_PAGE).run()
    at.text_input(key="staff_passcode").input(PASS)
    at.button(key="staff_unlock_btn").click().run()
    assert at.session_state[cases_ui.STAFF] is not None
    table = at.dataframe[0].value
    assert list(table.columns) == ["Title", "SBL / address", "Updated", "Archived"]
    assert {fx.P1_SBL + " · 1 Test Road", fx.P2_SBL + " · 3 Test Road"} <= set(table["SBL / address"])
    at.text_input(key="staff_query").input(fx.P2_SBL).run()
    assert list(at.dataframe[0].value["SBL / address"]) == [fx.P2_SBL + " · 3 Test Road"]

    at.selectbox(key="staff_choice").set_value(other_id)
    at.button(key="staff_archive").click().run()
    with pytest.raises(CaseNotFound):
        CaseStore(data_dir).open_case(other_id)  # its public link no longer opens it
    assert not at.get("dataframe") and "No case matches." in texts(at)
    at.checkbox(key="staff_archived").check().run()
    assert list(at.dataframe[0].value["Archived"]) == ["yes"]
    at.button(key="staff_archive").click().run()  # "Restore it"
    assert CaseStore(data_dir).open_case(other_id).parcel_meta["sbl"] == fx.P2_SBL

    at.button(key="staff_open").click().run()
    assert case_id_of(at) == other_id and at.session_state[state.PARCEL].sbl == fx.P2_SBL
    at.session_state[cases_ui.NOTES] = "Staff note."
    at.run()
    assert CaseStore(data_dir).open_case(other_id).notes == "Staff note."
    at.button(key="staff_undo").click().run()
    assert CaseStore(data_dir).open_case(other_id).notes == ""
    assert at.session_state[cases_ui.NOTES] == "" and mine != other_id


def test_exports_are_files_that_read_back(manifest, data_dir, media):
    at = pick(new_app())
    at.session_state[forms.TIMELINE_ITEMS] = list(ITEMS)
    at.session_state[cases_ui.NOTES] = "Bring the survey."
    at.switch_page(CASE_PAGE).run()
    assert not at.exception
    result = analyze_case(at.session_state[cases_ui.CASE], load_manifest(manifest)).to_dict()
    net = f"{result['net_lot_area_sqft']:,.0f}"

    pdf = fx.download(at, media, "dl_pdf")
    assert pdf.startswith(b"%PDF")
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert net in text and "§ 402-45" in text and "Bring the survey." in text

    pieces = json.loads(fx.download(at, media, "dl_geojson"))
    assert pieces["type"] == "FeatureCollection" and pieces["features"][0]["properties"]["sbl"] == fx.P1_SBL
    assert pieces["features"][0]["properties"]["net_lot_area_sqft"] == result["net_lot_area_sqft"]
    for key, first in (("dl_deductions", "constraint"), ("dl_permits", "id"), ("dl_triggers", "id")):
        rows = list(csv.reader(io.StringIO(fx.download(at, media, key).decode("utf-8"))))
        assert rows[0][0] == first and len(rows) > 1
    ics = fx.download(at, media, "dl_ics").decode("utf-8")
    assert ics.startswith("BEGIN:VCALENDAR") and "BEGIN:VEVENT" in ics and "402-57" in ics
    whole = json.loads(fx.download(at, media, "dl_case"))
    assert whole["format"] == "sloat-case" and whole["case"]["id"] == case_id_of(at)


@pytest.mark.parametrize("project", [PROJECT, None], ids=["with a project", "parcel only"])
def test_import_round_trip_gives_the_same_analysis(manifest, data_dir, media, project):
    first = pick(new_app())
    first.session_state[state.PROJECT] = dict(project) if project else None
    first.session_state[forms.TIMELINE_ITEMS] = list(ITEMS)
    first.switch_page(CASE_PAGE).run()
    original_id = case_id_of(first)
    exported = fx.download(first, media, "dl_case")

    second = new_app()
    second.switch_page(CASE_PAGE).run()
    second.file_uploader(key="case_import").upload("case.json", exported, "application/json").run()
    assert not second.exception
    new_id = case_id_of(second)
    assert is_valid_case_id(new_id) and new_id != original_id
    assert "Imported as a new case" in " ".join(s.value for s in second.success)
    store, layers = CaseStore(data_dir), load_manifest(manifest)
    original, imported = store.open_case(original_id), store.open_case(new_id)
    assert imported.analysis == original.analysis
    assert analyze_case(imported, layers).result == analyze_case(original, layers).result
    assert imported.project == (project or {}) and imported.timeline_items == ITEMS
    shown = {m.label: m.value for m in second.metric}
    assert shown["Net lot area"] == f"{original.analysis['net_lot_area_sqft']:,.0f} sq ft" == "20,000 sq ft"


@pytest.mark.parametrize("payload, sentence", [
    (b"{ not json", "The case file is not valid JSON."),
    (json.dumps({"format": "something-else"}).encode(), "This file is not a Sloatsburg case file."),
])
def test_a_bad_import_says_one_sentence_and_keeps_the_current_case(manifest, data_dir, payload, sentence):
    at = pick(new_app())
    at.switch_page(CASE_PAGE).run()
    before = case_id_of(at)
    at.file_uploader(key="case_import").upload("bad.json", payload, "application/json").run()
    assert not at.exception
    assert [e.value for e in at.error] == [sentence]
    assert case_id_of(at) == before and at.session_state[state.PARCEL].sbl == fx.P1_SBL
    assert CaseStore(data_dir).open_case(before).parcel_meta["sbl"] == fx.P1_SBL


def test_an_edit_from_a_stale_window_is_refused_but_kept(manifest, data_dir):
    a, b, case_id = one_case_in_two_windows()
    a.session_state[cases_ui.NOTES] = "From window A."
    a.run()
    b.session_state[cases_ui.NOTES] = "From window B."
    b.switch_page(CASE_PAGE).run()
    assert any("changed in another window" in e.value for e in b.error)
    assert b.session_state[cases_ui.NOTES] == "From window B."  # nothing typed is lost
    assert CaseStore(data_dir).open_case(case_id).notes == "From window A."
    b.button(key="case_fork").click().run()
    forked = case_id_of(b)
    assert forked != case_id and CaseStore(data_dir).open_case(forked).notes == "From window B."
    assert CaseStore(data_dir).open_case(forked).parcel_meta["sbl"] == fx.P1_SBL


def test_start_a_new_case_clears_the_session_and_keeps_the_old_case(manifest, data_dir):
    at = pick(new_app())
    old = case_id_of(at)
    at.switch_page(CASE_PAGE).run()
    at.button(key="case_new").click().run()
    new = case_id_of(at)
    assert is_valid_case_id(new) and new != old
    assert at.session_state[state.PARCEL] is None
    assert CaseStore(data_dir).open_case(old).parcel_meta["sbl"] == fx.P1_SBL
    assert CaseStore(data_dir).open_case(new).parcel_geojson is None


def test_a_drawn_parcel_is_saved_and_reopens_in_view(manifest, data_dir):
    drawing = fx.wgs84_feature(fx.P2)
    with fx.map_answers(mock.MagicMock(return_value={"all_drawings": [drawing]})):
        at = new_app()
    assert not at.exception
    case_id = case_id_of(at)
    saved = CaseStore(data_dir).open_case(case_id)
    assert saved.title == "Drawn on the map" and saved.analysis["gross_area_sqft"] == pytest.approx(10_000, abs=1)
    again = new_app(case_id)
    assert again.session_state[state.PARCEL].geometry.area == pytest.approx(10_000, abs=1)
    # not "Drawn on the map": the drawing is no longer on the map, so the page zooms to the outline
    assert again.session_state[state.PARCEL_NOTE] == "Drawn on the map (reopened from the case)"


@pytest.mark.parametrize("mode", [state.COUNTER, state.PROJECTOR])
def test_the_case_page_in_counter_and_projector_modes(manifest, data_dir, media, mode):
    at = pick(new_app())
    at.session_state[state.MODE] = mode
    at.switch_page(CASE_PAGE).run()
    assert not at.exception
    assert f"?case={case_id_of(at)}" in texts(at)
    assert fx.download(at, media, "dl_deductions").startswith(b"constraint,")


def test_a_data_folder_that_cannot_be_written_keeps_the_session(manifest, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("SLOAT_DATA_DIR", str(blocker))
    at = pick(new_app())
    assert not at.exception
    assert [e.value for e in at.error] == [cases_ui.FOLDER_PROBLEM]  # one sentence, once
    assert [e.value for e in at.sidebar.error] == [cases_ui.FOLDER_PROBLEM]
    assert at.session_state[state.PARCEL].sbl == fx.P1_SBL  # the parcel stays on screen
    assert [m.value for m in at.metric][:2] == ["40,000", "20,000"]
    assert case_id_of(at) is None


def test_a_failed_case_action_is_told_in_one_sentence_without_paths():
    from sloat_core.store import CaseFolderError, CaseStoreError, StaffRequired
    from sloat_core.errors import SloatInputError

    assert cases_ui.problem_sentence(CaseFolderError("/srv/x cannot be written")) == cases_ui.FOLDER_PROBLEM
    assert cases_ui.problem_sentence(FileExistsError(17, "File exists", "/srv/x")) == cases_ui.FOLDER_PROBLEM
    assert cases_ui.problem_sentence(CaseStoreError("The case was archived.")) == "The case was archived."
    assert cases_ui.problem_sentence(SloatInputError("That is not a case file.")) == "That is not a case file."
    assert cases_ui.problem_sentence(StaffRequired("Staff mode is locked.")) == "Staff mode is locked."


# ---------------------------------------------------------------------------------------------- archived


def archived_case(data_dir, secret: str) -> tuple[str, dict]:
    """A case with parcel P1, a project, dates and notes, saved by the app and then archived by staff.

    Returns its id and the stored case (as a dict) at the moment it was archived.
    """
    at = pick(new_app())
    at.session_state[state.PROJECT] = dict(PROJECT)
    at.session_state[forms.TIMELINE_ITEMS] = list(ITEMS)
    at.session_state[cases_ui.NOTES] = "Printed for the owner."
    at.switch_page("pages/law.py").run()
    case_id = case_id_of(at)
    store = CaseStore(data_dir)
    token = store.unlock_staff(PASS, secret).token
    store.archive(token, case_id)
    stored = store.open_case(case_id, staff=token)
    assert stored.archived and stored.project == PROJECT and stored.notes == "Printed for the owner."
    return case_id, stored.to_dict()


def notices(at: AppTest) -> list[str]:
    """The archived notices shown (it comes above the page, so it is the first warning)."""
    found = [w.value for w in at.warning if w.value == cases_ui.ARCHIVED_NOTICE]
    if found:
        assert at.warning[0].value == cases_ui.ARCHIVED_NOTICE
    return found


def stored_now(data_dir, case_id: str) -> dict:
    return CaseStore(data_dir).open_case(case_id, read_only=True).to_dict()


def test_an_archived_case_link_opens_it_read_only_as_saved(manifest, data_dir, media):
    secret = hash_passcode(PASS, iterations=1000)
    case_id, stored = archived_case(data_dir, secret)

    at = new_app(case_id)  # the resident's printed link
    assert not at.exception
    assert notices(at) == [cases_ui.ARCHIVED_NOTICE]
    assert case_id_of(at) == case_id
    assert at.session_state[cases_ui.CASE].archived
    parcel = at.session_state[state.PARCEL]
    assert parcel.sbl == fx.P1_SBL and parcel.geometry.area == pytest.approx(40_000, abs=0.5)
    assert [m.value for m in at.metric][:2] == ["40,000", "20,000"]
    assert at.session_state[state.PROJECT] == PROJECT
    assert not at.sidebar.error and "is archived" in " ".join(c.value for c in at.sidebar.caption)

    at.switch_page(CASE_PAGE).run()
    assert not at.exception
    assert [w.value for w in at.warning] == [cases_ui.ARCHIVED_NOTICE]  # no "changes not saved" yet
    assert f"?case={case_id}" in texts(at) and "· archived" in texts(at)
    notes = at.text_area(key=cases_ui.NOTES_BOX)
    assert notes.value == "Printed for the owner." and notes.disabled
    assert at.button(key="case_copy").label == "Start a new case from this one"
    shown = {m.label: m.value for m in at.metric}
    assert shown["Net lot area"] == f"{stored['analysis']['net_lot_area_sqft']:,.0f} sq ft" == "20,000 sq ft"
    assert fx.download(at, media, "dl_pdf").startswith(b"%PDF")  # it can be printed
    whole = json.loads(fx.download(at, media, "dl_case"))["case"]
    assert whole["id"] == case_id and whole["project"] == PROJECT and whole["timeline_items"] == ITEMS
    assert whole["analysis"] == stored["analysis"]
    assert stored_now(data_dir, case_id) == stored  # opening it wrote nothing


def test_changes_to_an_archived_case_are_not_saved_and_can_start_a_new_case(manifest, data_dir):
    secret = hash_passcode(PASS, iterations=1000)
    case_id, stored = archived_case(data_dir, secret)
    at = new_app(case_id)
    at.switch_page("pages/project.py").run()
    assert at.number_input(key="pf_trees").value == 3
    at.number_input(key="pf_trees").set_value(40).run()  # the user changes the project
    assert not at.exception
    assert at.session_state[state.PROJECT]["trees_removed"] == 40  # kept on screen...
    assert stored_now(data_dir, case_id) == stored  # ...but not written into the archived case
    assert [e.value for e in at.sidebar.error] == [cases_ui.problem_sentence(CaseArchivedError())]
    assert "changes are not saved" in at.sidebar.error[0].value
    assert at.sidebar.button(key="case_copy_sidebar")  # offered a copy where the change was made
    at.session_state[cases_ui.NOTES] = "Typed into an archived case."
    at.switch_page("pages/law.py").run()
    assert stored_now(data_dir, case_id) == stored

    at.switch_page(CASE_PAGE).run()
    assert any("Changes are not saved to an archived case" in w.value for w in at.warning)
    at.button(key="case_copy").click().run()
    assert not at.exception
    copy_id = case_id_of(at)
    assert is_valid_case_id(copy_id) and copy_id != case_id
    copy = CaseStore(data_dir).open_case(copy_id)  # a public, writable case
    assert not copy.archived and copy.project["trees_removed"] == 40
    assert copy.parcel_meta["sbl"] == fx.P1_SBL and copy.timeline_items == ITEMS
    assert copy.notes == "Typed into an archived case."
    assert copy.analysis["net_lot_area_sqft"] == stored["analysis"]["net_lot_area_sqft"]
    assert stored_now(data_dir, case_id) == stored  # the archived case stays as it was
    assert not notices(at) and not at.sidebar.error and not at.text_area(key=cases_ui.NOTES_BOX).disabled
    at.session_state[cases_ui.NOTES] = "Now it saves."
    at.run()
    assert CaseStore(data_dir).open_case(copy_id).notes == "Now it saves."


def test_an_undone_change_in_an_archived_case_clears_the_refusal(manifest, data_dir):
    case_id, stored = archived_case(data_dir, hash_passcode(PASS, iterations=1000))
    at = new_app(case_id)
    at.session_state[cases_ui.NOTES] = "a slip"
    at.run()
    assert [e.value for e in at.sidebar.error] == [ARCHIVED_SENTENCE]
    at.session_state[cases_ui.NOTES] = "Printed for the owner."  # back to what is saved
    at.run()
    assert not at.sidebar.error and notices(at) == [cases_ui.ARCHIVED_NOTICE]
    assert stored_now(data_dir, case_id) == stored


def test_staff_restore_makes_an_archived_case_editable_again(manifest, data_dir):
    secret = hash_passcode(PASS, iterations=1000)
    case_id, stored = archived_case(data_dir, secret)
    at = new_app(case_id, secret=secret)
    at.switch_page(CASE_PAGE).run()
    at.text_input(key="staff_passcode").input(PASS)
    at.button(key="staff_unlock_btn").click().run()
    at.button(key="staff_undo").click().run()  # staff cannot undo into an archived case either
    assert [e.value for e in at.error] == [ARCHIVED_SENTENCE]
    assert stored_now(data_dir, case_id) == stored
    at.checkbox(key="staff_archived").check().run()
    at.selectbox(key="staff_choice").set_value(case_id)
    at.button(key="staff_archive").click().run()  # "Restore it"
    assert not at.exception
    assert "Restored" in " ".join(s.value for s in at.success)
    assert not notices(at)
    restored = CaseStore(data_dir).open_case(case_id)  # the public link opens it again, writable
    assert not restored.archived and restored.notes == "Printed for the owner."
    assert not at.text_area(key=cases_ui.NOTES_BOX).disabled
    at.session_state[cases_ui.NOTES] = "Edited after the restore."
    at.run()
    assert CaseStore(data_dir).open_case(case_id).notes == "Edited after the restore."
    assert CaseStore(data_dir).open_case(case_id).project == PROJECT


# ------------------------------------------------------------------ link, two tabs, staff box


def test_the_case_link_has_a_visible_copy_link_button(manifest, data_dir):
    at = pick(new_app())
    at.switch_page(CASE_PAGE).run()
    case_id = case_id_of(at)
    shown = links(at)
    assert len(shown) == 2 and shown[0].endswith(f"?case={case_id}")
    assert shown[1].startswith("walkthrough?case=") and "mode=projector" in shown[1]
    frame = next(e for e in at.get("iframe") if "Copy link</button>" in e.proto.srcdoc).proto.srcdoc
    assert '<button id="copy" type="button">Copy link</button>' in frame  # a real button: Tab, Enter, Space
    assert "box.select()" in frame  # the fallback when the clipboard is refused


def test_a_link_with_quotes_stays_inside_its_box():
    from app_support.widgets.copy_link import copy_link_html

    page = copy_link_html('http://x/?case=a"><script>alert(1)</script>')
    assert "<script>alert(1)" not in page and "&quot;&gt;&lt;script&gt;" in page


def _main_top(at: AppTest) -> list:
    """The main area's first elements (what shows above the page's title)."""
    return list(at.main.children.values())[:3]


def test_two_tabs_on_one_case_warn_at_the_top_of_the_page(manifest, data_dir):
    a, b, case_id = one_case_in_two_windows()
    assert not [w for w in b.warning if w.value == cases_ui.CONFLICT_NOTICE]
    a.session_state[cases_ui.NOTES] = "From tab A."
    a.run()  # tab A saves a newer version
    b.run()  # tab B has changed nothing yet, and is told at once, above the page
    assert b.warning[0].value == cases_ui.CONFLICT_NOTICE
    assert any(getattr(e, "value", None) == cases_ui.CONFLICT_NOTICE for e in _main_top(b))  # above the title
    b.button(key="case_reload_top").click().run()  # "Show the latest version"
    assert b.session_state[cases_ui.NOTES] == "From tab A."
    assert not [w for w in b.warning if w.value == cases_ui.CONFLICT_NOTICE]
    b.session_state[cases_ui.NOTES] = "From tab B, after reloading."
    b.run()
    assert CaseStore(data_dir).open_case(case_id).notes == "From tab B, after reloading."


def test_two_tabs_keep_mine_as_a_new_case_from_the_top(manifest, data_dir):
    a, b, case_id = one_case_in_two_windows()
    a.session_state[cases_ui.NOTES] = "From tab A."
    a.run()
    b.session_state[cases_ui.NOTES] = "From tab B."
    b.run()
    assert b.warning[0].value == cases_ui.CONFLICT_NOTICE
    b.button(key="case_fork_top").click().run()
    forked = case_id_of(b)
    assert forked != case_id and CaseStore(data_dir).open_case(forked).notes == "From tab B."
    assert CaseStore(data_dir).open_case(case_id).notes == "From tab A."
    assert not [w for w in b.warning if w.value == cases_ui.CONFLICT_NOTICE]


def test_the_staff_box_says_what_to_do_without_a_passcode(manifest, data_dir):
    at = pick(new_app())
    at.switch_page(CASE_PAGE).run()
    shown = [i.value for i in at.info]
    assert staff_ui.STAFF_NOT_SET_UP in shown
    assert "README" not in staff_ui.STAFF_NOT_SET_UP and "staff_passcode_hash" in staff_ui.STAFF_NOT_SET_UP


def test_another_case_forgets_what_was_typed_for_the_last_one_on_every_page(manifest, data_dir):
    """Starting (or loading) another case forgets the pages' widgets, the Timeline's "From your project" editor
    included, so nothing typed for one case shows in the next."""
    at = pick(new_app())
    typed = {"pf_trees_removed": 3, "mit_wetland": 500.0, "tl_as_of": None,
             state.TIMELINE_PREFILL_KIND: "wetland_permit", f"{state.TIMELINE_PREFILL_PREFIX}_wetland_permit_ref": "W-1"}
    for key, value in typed.items():
        at.session_state[key] = value
    at.switch_page(CASE_PAGE).run()
    at.button(key="case_new").click().run()
    assert not [k for k in typed if k in at.session_state], [k for k in typed if k in at.session_state]
