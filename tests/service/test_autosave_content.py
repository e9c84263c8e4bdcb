"""The autosave writes a case only when what it would write changed (CPU per session).

The app's own run (AppTest of app.py) on the test layer set (tests/app_fixtures.py) and the real SQLite
case store in a fresh data folder: choosing a tax parcel saves the case once; a run whose session values
look changed (the fingerprint of the last save forgotten) but whose case content is the same writes
nothing (same revision, same ``updated_at``, no history entry); a real change (the notes) still saves.
"""

from __future__ import annotations

import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.cases import cases_ui  # noqa: E402
from sloat_core.store import CaseStore  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _case_id(at: AppTest) -> str:
    value = at.query_params.get("case")
    return value[0] if isinstance(value, list) else value


def _stored(data_dir: Path, case_id: str) -> tuple[int, str, int]:
    """(revision, updated_at, history entries) of the case as the store holds it."""
    store = CaseStore(data_dir)
    try:
        case = store.open_case(case_id)
        return case.revision, case.updated_at, len(store.history(case_id))
    finally:
        store.close()


def test_the_same_content_is_not_written_twice_and_a_change_still_saves(manifest, data_dir):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="parcel_query").input(fx.P1_SBL).run()
    assert not at.exception
    case_id = _case_id(at)
    first = _stored(data_dir, case_id)
    assert first[0] == 1

    # Nothing changed: the run saves nothing (the usual path: the session's fingerprint matches).
    at.run()
    assert _stored(data_dir, case_id) == first

    # The session's values look changed to the autosave, but the case it would write is the same one.
    at.session_state["case_saved_fingerprint"] = "forgotten"
    at.run()
    assert not at.exception
    assert _stored(data_dir, case_id) == first  # same revision, same time stamp, no history entry
    assert at.session_state[cases_ui.CASE].revision == 1
    assert at.session_state["case_saved_fingerprint"] != "forgotten"  # and it is not tried again next run

    # A change is saved as before.
    at.session_state[cases_ui.NOTES] = "Asked about the wetland strip."
    at.run()
    assert not at.exception
    revision, updated_at, history = _stored(data_dir, case_id)
    assert revision == 2 and history == first[2] + 1 and updated_at >= first[1]
    assert CaseStore(data_dir).open_case(case_id).notes == "Asked about the wetland strip."


def test_a_case_opened_by_its_link_is_not_written_until_it_changes(manifest, data_dir):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="parcel_query").input(fx.P1_SBL).run()
    case_id = _case_id(at)
    first = _stored(data_dir, case_id)

    reopened = AppTest.from_file(APP, default_timeout=60)
    reopened.query_params["case"] = case_id
    reopened.run()
    reopened.session_state["case_saved_fingerprint"] = "forgotten"
    reopened.run()
    assert not reopened.exception
    assert _stored(data_dir, case_id) == first

    reopened.session_state[cases_ui.NOTES] = "Second visit."
    reopened.run()
    assert _stored(data_dir, case_id)[0] == 2
