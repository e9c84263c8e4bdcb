"""What sits where the case database should be is never replaced, and no message shows a server path.

A 0-byte ``cases.sqlite3`` used to become a new empty store silently; a damaged one showed its full path
to every visitor. Now an empty file, a file that is not SQLite, another program's SQLite database and a
damaged database are each refused in one sentence without a path, and left byte for byte as they were.
A new store is made whole in a private file and linked into place, so two processes starting at once on an
empty folder both end up with the same, complete store.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sloat_core.store import Case, CaseStore, CaseStoreError  # noqa: E402
from sloat_core.store.sqlite import DB_FILENAME, SCHEMA_VERSION  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _foreign_sqlite(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (n INTEGER, amount REAL)")
    con.execute("INSERT INTO invoices VALUES (1, 9.5)")
    con.commit()
    con.close()


def _damaged(path: Path) -> None:
    store = CaseStore(path.parent)
    store.save(Case(title="x"))
    store.close()
    data = bytearray(path.read_bytes())
    data[100:4096] = os.urandom(3996)  # the schema page, scrambled behind a valid header
    path.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


MAKERS = {
    "empty": lambda p: p.write_bytes(b""),
    "text": lambda p: p.write_text("these are not the cases you are looking for\n"),
    "foreign sqlite": _foreign_sqlite,
    "damaged": _damaged,
}


@pytest.mark.parametrize("kind", list(MAKERS))
def test_a_wrong_file_where_the_store_should_be_is_refused_and_left_as_it_is(tmp_path, kind):
    folder = tmp_path / "secret-server-folder"
    folder.mkdir()
    db = folder / DB_FILENAME
    MAKERS[kind](db)
    before = _digest(db)
    store = CaseStore(folder)
    with pytest.raises(CaseStoreError) as err:
        store.save(Case(title="new"))
    message = str(err.value)
    assert "secret-server-folder" not in message and str(tmp_path) not in message and "/" not in message
    assert "\n" not in message and message.endswith(".")
    assert _digest(db) == before  # not replaced, not migrated
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [DB_FILENAME]


def test_a_fresh_folder_still_gets_a_new_store(tmp_path):
    store = CaseStore(tmp_path / "data")
    saved = store.save(Case(title="first"))
    assert store.open_case(saved.id).title == "first"
    assert store.schema_version() == SCHEMA_VERSION
    assert [p.name for p in (tmp_path / "data").iterdir() if p.name.startswith(".")] == []  # no private leftovers


def test_two_processes_starting_on_an_empty_folder_share_one_complete_store(tmp_path):
    folder = tmp_path / "data"
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []
    ids: list[str] = []

    def start(i: int) -> None:
        try:
            barrier.wait()
            ids.append(CaseStore(folder).save(Case(title=f"case {i}")).id)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    store = CaseStore(folder)
    assert sorted(store.open_case(i).title for i in ids) == [f"case {i}" for i in range(4)]


def _save_refusal(folder: Path) -> str:
    """The message of the CaseStoreError a save into ``folder`` raises ("" if it saved)."""
    try:
        CaseStore(folder).save(Case(title="x"))
    except CaseStoreError as exc:
        return str(exc) or "(empty message)"
    return ""


def _save_refusal_as_nobody(folder: Path) -> str:
    """``_save_refusal`` in a forked child that has given up root (uid and gid 65534): root writes to a
    read-only folder, the office's service user does not. The child needs no file the unprivileged user
    cannot read: everything the save uses is imported before the fork."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root, try the save, report, and leave without running pytest's exit
        os.close(read)
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            message = _save_refusal(folder)
        except BaseException as exc:  # noqa: BLE001
            message = f"child failed: {exc!r}"
        os.write(write, message.encode()[:4000])
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(pid, 0)
    return message


def test_a_read_only_folder_says_so_without_its_path(tmp_path):
    # tmp_path's parents are the root user's own (0700): a folder the service user can reach is made in /tmp.
    base = Path(tempfile.mkdtemp(prefix="sloat-ro-"))
    base.chmod(0o755)
    folder = base / "ro-folder"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        message = _save_refusal_as_nobody(folder) if os.geteuid() == 0 else _save_refusal(folder)
        assert message and not message.startswith("child failed"), message
        assert "ro-folder" not in message and "/" not in message, message
    finally:
        folder.chmod(0o755)
        shutil.rmtree(base)


def test_the_app_shows_an_empty_store_in_one_sentence_without_its_path(tmp_path, monkeypatch, manifest):
    folder = tmp_path / "village-data"
    folder.mkdir()
    (folder / DB_FILENAME).write_bytes(b"")
    monkeypatch.setenv("SLOAT_DATA_DIR", str(folder))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["case"] = "A" * 22
    at.run()
    assert not at.exception, at.exception
    shown = " ".join(str(e.value) for kind in ("error", "warning", "info", "caption", "markdown")
                     for e in at.get(kind))
    assert "empty file" in shown
    assert "village-data" not in shown and str(tmp_path) not in shown
    assert (folder / DB_FILENAME).stat().st_size == 0
