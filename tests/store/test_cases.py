"""The case store: nothing a consultation produces is lost, and the public face reaches a case only by its link."""

import dataclasses
import datetime as dt
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from engine_world import make_world, sq
from sloat_core.store import (
    CASE_FORMAT_VERSION,
    MAX_BACKOFF_S,
    MIGRATIONS,
    SCHEMA_VERSION,
    ARCHIVED_SENTENCE,
    Case,
    CaseArchivedError,
    CaseConflictError,
    CaseNotFound,
    CaseStore,
    CaseStoreError,
    StaffRequired,
    StaffToken,
    analyze_case,
    case_from_json,
    case_to_json,
    hash_passcode,
    is_valid_case_id,
    new_case_id,
    verify_passcode,
)
from sloat_core.errors import SloatInputError
from sloat_core.law.text import LAW_TEXT_SHA256
from sloat_core.law.params import PARAMS_VERSION
from sloat_core.gis.parcels import to_wgs84_geojson

ROOT = Path(__file__).resolve().parents[2]
PASS = "blue heron 402"


@pytest.fixture(scope="module")
def passcode_hash():
    return hash_passcode(PASS, iterations=1000)


@pytest.fixture()
def store(tmp_path):
    s = CaseStore(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture()
def staff(store, passcode_hash):
    result = store.unlock_staff(PASS, passcode_hash)
    assert result.ok
    return result.token


def full_case(**kw) -> Case:
    base = dict(
        title="12 Orange Turnpike",
        parcel_geojson=to_wgs84_geojson(sq(0, 0, 400)),
        parcel_meta={"source": "drawn on the map", "sbl": "156.14-1-23", "address": "12 Orange Turnpike"},
        district="R-40",
        project={"application_type": "subdivision", "trees_removed": 4},
        board_answers={"402-48C(4)": False},
        timeline_items=[{"id": "wetland_permit", "issued": "2026-03-02"}],
        notes="Owner asked about a pond.",
        mitigation_input={"impacted_wetland_sqft": 1200, "proposed_mitigation_sqft": 1500},
        settings_overrides={"buffer_width_ft": 50},
    )
    base.update(kw)
    return Case(**base)


# ---------------------------------------------------------------------------------------------- storage


def test_ids_are_unguessable_url_safe_tokens():
    ids = {new_case_id() for _ in range(1000)}
    assert len(ids) == 1000
    assert all(is_valid_case_id(i) and len(i) == 22 for i in ids)
    for bad in ("", "abc", "x" * 23, "' OR 1=1 --aaaaaaaaaaa", "../../../etc/passwdxxx", None, 42, "ä" * 22):
        assert not is_valid_case_id(bad)


def test_the_data_folder_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SLOAT_DATA_DIR", str(tmp_path / "elsewhere"))
    s = CaseStore()
    assert s.path == tmp_path / "elsewhere" / "cases.sqlite3"
    assert not s.path.exists()  # nothing is created until first use
    s.new_case(title="x")
    assert s.path.exists()
    s.close()
    monkeypatch.delenv("SLOAT_DATA_DIR")
    monkeypatch.chdir(tmp_path)
    assert CaseStore().path == tmp_path / "var" / "cases.sqlite3"


def test_the_database_is_wal_with_a_schema_version_and_busy_timeout(store):
    conn = store.connection()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(MIGRATIONS)
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"cases", "case_history", "unlock_attempts"} <= tables


def test_an_old_database_is_migrated_step_by_step(tmp_path):
    db = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(db)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    s = CaseStore(db)
    assert s.schema_version() == SCHEMA_VERSION
    names = {r[0] for r in s.connection().execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "cases_by_update" in names
    s.close()


def test_a_database_from_a_newer_version_is_refused(tmp_path):
    db = tmp_path / "new.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(CaseStoreError, match="newer version"):
        CaseStore(db).open_case(new_case_id())


def test_a_saved_case_reopens_with_everything_it_holds(tmp_path, store):
    case = full_case()
    case.record_analysis({"gross_area_sqft": 160000.0, "params_version": PARAMS_VERSION,
                          "layers_name": "test world", "layers_version": "test"})
    store.save(case)
    assert case.revision == 1
    again = CaseStore(tmp_path / "data").open_case(case.id)  # a fresh store, as after a server restart
    assert again.to_dict() == case.to_dict()
    assert again.analysis["gross_area_sqft"] == 160000.0
    assert (again.params_version, again.law_text_sha256, again.layers_name, again.layers_version) == (
        PARAMS_VERSION, LAW_TEXT_SHA256, "test world", "test")
    assert again.created_at <= again.updated_at


def test_every_save_keeps_the_previous_version_and_an_edit_can_be_undone(store):
    case = store.new_case(notes="first")
    case.notes = "second"
    store.save(case)
    case.notes = "third"
    store.save(case)
    assert case.revision == 3
    assert [h.revision for h in store.history(case.id)] == [2, 1]
    back = store.undo(case)
    assert back.notes == "second" and back.revision == 4
    assert store.open_case(case.id).notes == "second"
    back = store.undo(back)
    assert back.notes == "first"
    with pytest.raises(CaseStoreError, match="no earlier version"):
        store.undo(back)


def test_a_stale_copy_cannot_overwrite_a_newer_save(store):
    case = store.new_case(notes="v1")
    other_window = store.open_case(case.id)
    case.notes = "v2"
    store.save(case)
    other_window.notes = "stale edit"
    with pytest.raises(CaseConflictError):
        store.save(other_window)
    assert store.open_case(case.id).notes == "v2"


def test_a_failed_write_raises_and_keeps_the_last_committed_version(tmp_path, store):
    case = store.new_case(notes="committed")
    # Make the database itself refuse the update half-way through the save (after the history insert).
    saboteur = sqlite3.connect(store.path)
    saboteur.execute("CREATE TRIGGER refuse BEFORE UPDATE ON cases WHEN NEW.title = 'boom' "
                     "BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
    saboteur.commit()
    saboteur.close()
    case.notes = "lost edit"
    case.title = "boom"
    with pytest.raises(CaseStoreError, match="last saved version is kept"):
        store.save(case)
    assert case.revision == 1  # the in-memory copy still knows what is committed
    fresh = CaseStore(store.path)
    stored = fresh.open_case(case.id)
    assert stored.notes == "committed" and stored.revision == 1
    assert fresh.history(case.id) == []  # the history insert was rolled back with the rest
    # A later good save works from the same copy.
    case.title = "fine"
    store.save(case)
    assert fresh.open_case(case.id).notes == "lost edit"
    fresh.close()


def test_a_write_on_a_closed_connection_fails_cleanly(store):
    case = store.new_case(notes="kept")
    store.connection().close()  # the connection dies under the session
    case.notes = "in flight"
    with pytest.raises(CaseStoreError, match="nothing was saved"):
        store.save(case)
    assert store.open_case(case.id).notes == "kept"  # the store reconnects; the committed case is intact
    store.save(case)
    assert store.open_case(case.id).notes == "in flight"


KILL_SCRIPT = textwrap.dedent("""
    import sys
    from sloat_core.store import CaseStore
    store = CaseStore(sys.argv[1])
    case = store.open_case(sys.argv[2])
    i = 0
    while True:
        i += 1
        case.notes = f"edit {i} " + "x" * 2000
        store.save(case)
        print(i, flush=True)
""")


def test_a_server_killed_while_editing_loses_at_most_the_edit_in_flight(tmp_path):
    store = CaseStore(tmp_path / "kill.sqlite3")
    case = store.new_case(notes="edit 0")
    store.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(store.path), case.id],
                            stdout=subprocess.PIPE, text=True, env=env)
    last = 0
    deadline = time.monotonic() + 60
    while last < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        last = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()
    assert last >= 40, "the writer did not get going"
    reopened = CaseStore(store.path)
    conn = reopened.connection()
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = reopened.open_case(case.id)
    n = int(stored.notes.split()[1])
    assert n in (last, last + 1)  # the last acknowledged edit, or the one in flight if it committed
    assert stored.revision == n + 1
    hist = reopened.history(case.id)
    assert hist and hist[0].revision == stored.revision - 1
    reopened.close()


def test_two_sessions_editing_two_cases_at_once_do_not_mix(store):
    a, b = store.new_case(title="A"), store.new_case(title="B")
    errors, conns = [], {}

    def edit(case, tag):
        try:
            conns[tag] = id(store.connection())
            own = store.open_case(case.id)
            for i in range(40):
                own.notes = f"{tag}-{i}"
                own.board_answers = {"402-48C(5)": tag == "A"}
                store.save(own)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=edit, args=(a, "A")), threading.Thread(target=edit, args=(b, "B"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert conns["A"] != conns["B"]  # one connection per session thread
    ra, rb = store.open_case(a.id), store.open_case(b.id)
    assert (ra.notes, ra.title, ra.board_answers) == ("A-39", "A", {"402-48C(5)": True})
    assert (rb.notes, rb.title, rb.board_answers) == ("B-39", "B", {"402-48C(5)": False})
    assert ra.revision == rb.revision == 41
    hist_a = [json.loads(r[0])["notes"] for r in store.connection().execute(
        "SELECT body FROM case_history WHERE case_id = ?", (a.id,))]
    assert hist_a and all(n == "" or n.startswith("A-") for n in hist_a)


def test_a_connection_is_never_shared_across_threads(store):
    conn = store.connection()
    failure = []

    def use():
        try:
            conn.execute("SELECT 1")
        except sqlite3.ProgrammingError as exc:
            failure.append(exc)

    t = threading.Thread(target=use)
    t.start()
    t.join()
    assert failure, "sqlite3's check_same_thread must stop a connection being used from another thread"


# ---------------------------------------------------------------------------------------------- public vs staff


def test_a_malformed_link_is_refused_without_touching_the_database(tmp_path):
    s = CaseStore(tmp_path / "untouched")
    for bad in ("' OR 1=1 --", "../../etc/passwd", "", "a" * 200, "%"):
        with pytest.raises(CaseNotFound, match="not valid"):
            s.open_case(bad)
    assert not (tmp_path / "untouched").exists()


def test_the_public_face_reaches_a_case_only_by_its_exact_link(store, staff):
    mine = store.new_case(title="mine", notes="private")
    store.new_case(title="someone else's")
    assert store.open_case(mine.id).notes == "private"
    with pytest.raises(CaseNotFound, match="No case"):
        store.open_case(new_case_id())
    with pytest.raises(CaseNotFound):
        store.open_case(mine.id[:-1] + ("A" if mine.id[-1] != "A" else "B"))
    with pytest.raises(StaffRequired):
        store.list_cases(None)
    with pytest.raises(StaffRequired):
        store.search(None, "someone")
    forged = StaffToken(time.time(), time.time() + 3600, "00", "0" * 64)
    with pytest.raises(StaffRequired):
        store.list_cases(forged)
    tampered = StaffToken(staff.issued_at, staff.expires_at + 10 ** 6, staff.nonce, staff.signature)
    with pytest.raises(StaffRequired):
        store.archive(tampered, mine.id)
    with pytest.raises(StaffRequired):
        store.archive(None, mine.id)
    expired = StaffToken._issue(time.time() - 10 ** 6)
    with pytest.raises(StaffRequired):
        store.list_cases(expired)


def test_staff_list_search_archive_and_restore(store, staff):
    a = store.new_case(title="12 Orange Turnpike", notes="pond question",
                       parcel_meta={"sbl": "156.14-1-23", "address": "12 Orange Turnpike"})
    b = store.new_case(title="3 Eagle Valley Rd", district="R-80")
    assert {c.id for c in store.list_cases(staff)} == {a.id, b.id}
    assert [c.id for c in store.search(staff, "156.14-1")] == [a.id]
    assert [c.id for c in store.search(staff, "POND orange")] == [a.id]
    assert [c.id for c in store.search(staff, "r-80")] == [b.id]
    assert store.search(staff, "%") == [] and store.search(staff, "o%e") == []  # wildcards are literal
    store.archive(staff, a.id)
    assert [c.id for c in store.list_cases(staff)] == [b.id]
    assert {c.id for c in store.list_cases(staff, include_archived=True)} == {a.id, b.id}
    with pytest.raises(CaseNotFound, match="archived"):
        store.open_case(a.id)  # the public link no longer opens it
    assert store.open_case(a.id, staff=staff).archived
    store.unarchive(staff, a.id)
    assert store.open_case(a.id).notes == "pond question"  # recoverable, intact


def test_an_archived_case_reads_as_saved_but_every_write_to_it_is_refused(store, staff):
    case = full_case()
    case.record_analysis({"gross_area_sqft": 160000.0, "params_version": PARAMS_VERSION})
    store.save(case)
    case.notes = "second"
    store.save(case)
    saved = store.open_case(case.id).to_dict()
    history = store.history(case.id)
    store.archive(staff, case.id)

    with pytest.raises(CaseNotFound, match="archived"):
        store.open_case(case.id)  # without read_only, the public face still cannot reach it
    shown = store.open_case(case.id, read_only=True)  # the resident's link: read-only
    assert shown.archived and shown.revision == saved["revision"] + 1
    assert {k: v for k, v in shown.to_dict().items() if k not in ("archived", "revision", "updated_at")} == {
        k: v for k, v in saved.items() if k not in ("archived", "revision", "updated_at")}
    assert store.history(case.id) == history  # archiving changes the flag, not the content

    shown.notes, shown.project = "changed at home", {"application_type": "site_plan"}
    with pytest.raises(CaseArchivedError) as refused:
        store.save(shown)
    assert str(refused.value) == ARCHIVED_SENTENCE and isinstance(refused.value, CaseStoreError)
    assert "archived" in ARCHIVED_SENTENCE and "staff" in ARCHIVED_SENTENCE and "\n" not in ARCHIVED_SENTENCE
    assert shown.revision == saved["revision"] + 1  # the refused copy is not bumped
    stale = dataclasses.replace(shown, archived=False, revision=1)  # any copy, of any revision
    with pytest.raises(CaseArchivedError):
        store.save(stale)
    with pytest.raises(CaseArchivedError):
        store.undo(store.open_case(case.id, staff=staff))  # staff too: restore first
    kept = store.open_case(case.id, staff=staff)
    assert kept.notes == "second" and kept.project == saved["project"] and kept.archived
    assert store.history(case.id) == history

    store.unarchive(staff, case.id)  # writable again
    again = store.open_case(case.id)
    assert not again.archived and again.notes == "second"
    with pytest.raises(CaseConflictError):
        store.save(shown)  # the copy read while archived is out of date: no silent overwrite
    again.notes = "third"
    store.save(again)
    assert store.open_case(case.id).notes == "third" and not store.open_case(case.id).archived
    back = store.undo(again)  # undo walks content only: back to "second", not back into the archive
    assert back.notes == "second" and not back.archived and not store.open_case(case.id).archived


def test_a_copy_opened_before_archiving_cannot_be_saved_into_the_archive(store, staff):
    case = store.new_case(notes="v1")
    other_window = store.open_case(case.id)
    store.archive(staff, case.id)
    other_window.notes = "typed after the archive"
    with pytest.raises(CaseArchivedError):  # told why, not just "changed in another window"
        store.save(other_window)
    assert store.open_case(case.id, read_only=True).notes == "v1"
    assert store.list_cases(staff) == []


def test_only_staff_change_the_archive_flag(store, staff):
    case = store.new_case(notes="mine")
    case.archived = True  # a save cannot archive a case, nor create one archived
    with pytest.raises(StaffRequired):
        store.save(case)
    with pytest.raises(StaffRequired):
        store.save(Case(archived=True))
    assert not store.open_case(case.id).archived and store.open_case(case.id).revision == 1
    with pytest.raises(StaffRequired):
        store.unarchive(None, case.id)
    store.archive(staff, case.id)
    store.archive(staff, case.id)  # twice is once
    assert store.open_case(case.id, staff=staff).revision == 2
    with pytest.raises(CaseNotFound):
        store.archive(staff, new_case_id())


def test_passcode_hashes_are_pbkdf2_and_never_match_when_malformed():
    h = hash_passcode("s3cret", iterations=1000)
    algo, iterations, salt, digest = h.split("$")
    assert (algo, iterations) == ("pbkdf2_sha256", "1000")
    assert h != hash_passcode("s3cret", iterations=1000)  # salted
    assert verify_passcode("s3cret", h) and not verify_passcode("s3cret ", h)
    for bad in (None, "", "plain", "pbkdf2_sha256$x$y$z", "md5$1000$AAAA$BBBB", f"pbkdf2_sha256$10${salt}${digest}"):
        assert not verify_passcode("s3cret", bad)
    with pytest.raises(SloatInputError):
        hash_passcode("")


def test_wrong_passcodes_are_slowed_exponentially_and_remembered(tmp_path, passcode_hash):
    s = CaseStore(tmp_path / "d")
    t0 = 1_000_000.0
    r = s.unlock_staff("nope", passcode_hash, client_key="10.0.0.7", now=t0)
    assert not r.ok and r.token is None and r.retry_after_s == 2 and "Try again in 2 seconds" in r.message
    # During the wait even the right passcode is refused, without being checked.
    r = s.unlock_staff(PASS, passcode_hash, client_key="10.0.0.7", now=t0 + 1)
    assert not r.ok and "Too many wrong passcodes" in r.message and r.retry_after_s == pytest.approx(1)
    r = s.unlock_staff("nope", passcode_hash, client_key="10.0.0.7", now=t0 + 2)
    assert r.retry_after_s == 4
    s.close()
    s2 = CaseStore(tmp_path / "d")  # a server restart does not reset the count
    r = s2.unlock_staff("nope", passcode_hash, client_key="10.0.0.7", now=t0 + 6)
    assert r.retry_after_s == 8
    # Another client is not held up.
    assert s2.unlock_staff(PASS, passcode_hash, client_key="10.0.0.8", now=t0 + 6).ok
    # The right passcode after the wait unlocks and clears the count.
    ok = s2.unlock_staff(PASS, passcode_hash, client_key="10.0.0.7", now=t0 + 14)
    assert ok.ok and ok.token is not None
    r = s2.unlock_staff("nope", passcode_hash, client_key="10.0.0.7", now=t0 + 15)
    assert r.retry_after_s == 2
    s2.close()


def test_the_back_off_is_capped(tmp_path, passcode_hash):
    s = CaseStore(tmp_path / "d")
    now = 0.0
    for _ in range(15):
        r = s.unlock_staff("nope", passcode_hash, now=now)
        now += r.retry_after_s
    assert r.retry_after_s == MAX_BACKOFF_S
    s.close()


def test_staff_mode_without_a_hash_in_the_secrets_is_refused_plainly(store):
    for h in (None, "", "not a hash"):
        r = store.unlock_staff(PASS, h)
        assert not r.ok and "not set up" in r.message


# ---------------------------------------------------------------------------------------------- export / import


def test_a_case_exports_to_versioned_json_and_imports_back(store):
    case = store.save(full_case())
    text = case_to_json(case)
    doc = json.loads(text)
    assert doc["format"] == "sloat-case" and doc["format_version"] == CASE_FORMAT_VERSION
    imported = case_from_json(text)
    assert imported.id != case.id and imported.revision == 0  # importing never overwrites
    same = {k: v for k, v in imported.to_dict().items() if k not in ("id", "revision")}
    assert same == {k: v for k, v in case.to_dict().items() if k not in ("id", "revision")}
    store.save(imported)
    assert store.open_case(imported.id).notes == case.notes
    restored = case_from_json(text, keep_id=True)
    assert restored.id == case.id and restored.revision == case.revision


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(format_version=CASE_FORMAT_VERSION + 1), "format version"),
    (lambda d: d.update(format_version=True), "format version"),
    (lambda d: d.update(format="something-else"), "not a Sloatsburg case file"),
    (lambda d: d["case"].update(notes=123), "notes"),
    (lambda d: d["case"].update(board_answers=[1, 2]), "Board answers"),
    (lambda d: d["case"].update(secret_field=1), "does not know"),
    (lambda d: d["case"].update(id="../../x"), "not a valid case id"),
    (lambda d: d["case"].update(timeline_items=["2026-01-01"]), "permit dates"),
    (lambda d: d["case"].update(created_at="yesterday"), "date and time"),
    (lambda d: d["case"].update(archived="no"), "archived"),
])
def test_a_bad_case_file_is_refused_with_a_plain_reason(mutate, message):
    doc = json.loads(case_to_json(full_case()))
    mutate(doc)
    with pytest.raises(SloatInputError, match=message):
        case_from_json(json.dumps(doc))


def test_oversized_and_non_json_case_files_are_refused():
    with pytest.raises(SloatInputError, match="larger than"):
        case_from_json("{" + " " * 1000 + "}", max_bytes=100)
    with pytest.raises(SloatInputError, match="not valid JSON"):
        case_from_json("{not json")
    with pytest.raises(SloatInputError, match="not valid JSON"):
        case_from_json(b"\xff\xfe\x00")
    with pytest.raises(SloatInputError, match="not a number|finite|not valid JSON"):
        case_from_json('{"format": "sloat-case", "format_version": 1, "case": {"analysis": {"x": NaN}}}')


def test_an_imported_case_gives_the_identical_analysis(tmp_path, store):
    world = make_world(tmp_path, {"wetlands": [sq(150, 150, 100)], "floodplain": [sq(0, 0, 400, 40)],
                                  "rock_outcrops": [sq(300, 300, 20)]}, dem=30)
    case = full_case()
    day = dt.date(2026, 5, 1)
    first = analyze_case(case, world, as_of=day)
    case.record_analysis(first.result)
    store.save(case)
    # The case's own inputs were used: its 50-ft buffer override and its typed mitigation figures.
    assert first.result.buffer_width_ft == 50
    assert first.result.mitigation.required_mitigation_sqft == pytest.approx(1800)
    assert first.result.parcel.sbl == "156.14-1-23"
    assert first.result.gross_area_sqft == pytest.approx(160_000, rel=1e-6)

    text = case_to_json(store.open_case(case.id))
    imported = case_from_json(text)
    again = analyze_case(imported, world, as_of=day)
    assert again.result == first.result
    assert imported.analysis == first.to_dict()  # the snapshot travels too
    assert imported.analysis_result() == first.result  # and reads back as the typed result
    # Thirty days on, nothing changes but the analysis date itself (as_of, and the screens' "on" and "stated")
    later_day = day + dt.timedelta(days=30)
    later = analyze_case(imported, world, as_of=later_day).result

    def undated(result: dict, on: dt.date) -> dict:
        return json.loads(json.dumps(result, default=str).replace(on.isoformat(), "<the analysis date>"))

    assert undated(later.to_dict(), later_day) == undated(first.to_dict(), day)


def test_a_case_without_a_parcel_cannot_be_analysed(tmp_path):
    with pytest.raises(SloatInputError, match="no parcel"):
        analyze_case(Case(), None)


def test_a_data_folder_that_is_a_file_gives_the_store_error(tmp_path):
    from sloat_core.store import CaseFolderError, CaseStore

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    with pytest.raises(CaseFolderError, match="data folder"):
        CaseStore(blocker / "cases.sqlite3").connection()


def test_the_stored_revision_is_read_alone_and_follows_every_save(store):
    # The app's check for another window's save reads only the revision (on every run).
    case = store.new_case(title="Revision check")
    assert store.revision_of(case.id) == case.revision == 1
    store.save(case)
    assert store.revision_of(case.id) == case.revision == 2
    assert store.revision_of(new_case_id()) is None  # no such case
    assert store.revision_of("not-a-case-id'; DROP TABLE cases; --") is None  # refused before SQLite
    assert store.open_case(case.id).revision == 2
