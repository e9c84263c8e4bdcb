"""The case store: cases in one SQLite file, with history, migrations and the staff-only actions.

See :mod:`sloat_core.store` for the storage rules.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import math
import os
import secrets
import sqlite3
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sloat_core.errors import (ARCHIVED_SENTENCE, CaseArchivedError, CaseConflictError, CaseFolderError,  # noqa: F401
                               CaseNotFound, CaseStoreError, SloatInputError)
from sloat_core.store.auth import (MAX_BACKOFF_S, StaffRequired, StaffToken, UnlockResult,
                                   _parse_hash, _require_staff, verify_passcode)
from sloat_core.store.case import Case, _now_iso, _validate_case_dict, is_valid_case_id

_log = logging.getLogger("sloat.store")

#: What a visitor is told when the file where the store should be is empty, foreign or damaged (no path: the
#: server's log has it). The file is left as it is, for staff to look at; nothing is replaced.
EMPTY_STORE = ("The case database on the server is an empty file, so cases cannot be opened or saved; "
               "it was left as it is for Village staff to restore from a backup.")
FOREIGN_STORE = ("The file where the case database should be on the server is not a case database, so cases "
                 "cannot be opened or saved; it was left as it is for Village staff to look at.")
DAMAGED_STORE = ("The case database on the server cannot be opened (it is damaged or cannot be read); "
                 "nothing was changed, and Village staff can restore it from a backup.")

#: File name of the database inside the data folder.
DB_FILENAME = "cases.sqlite3"
#: Previous versions kept per case (for undo).
HISTORY_KEEP = 30

_BUSY_TIMEOUT_MS = 5000

#: Ordered schema migrations; step *i* (1-based) brings ``user_version`` from i-1 to i.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE cases (
            id TEXT PRIMARY KEY CHECK (length(id) = 22),
            revision INTEGER NOT NULL CHECK (revision >= 1),
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
            title TEXT NOT NULL DEFAULT '',
            search_text TEXT NOT NULL DEFAULT '',
            body TEXT NOT NULL CHECK (json_valid(body))
        )""",
        """CREATE TABLE case_history (
            case_id TEXT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,
            revision INTEGER NOT NULL,
            saved_at TEXT NOT NULL,
            body TEXT NOT NULL CHECK (json_valid(body)),
            PRIMARY KEY (case_id, revision)
        )""",
        """CREATE TABLE unlock_attempts (
            client_key TEXT PRIMARY KEY,
            failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
            last_failure_at REAL NOT NULL DEFAULT 0,
            locked_until REAL NOT NULL DEFAULT 0
        )""",
    ),
    (
        "CREATE INDEX cases_by_update ON cases (archived, updated_at DESC)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


# ----------------------------------------------------------------------------------------------
# The store
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseSummary:
    """One line of the staff list."""

    id: str
    title: str
    updated_at: str
    created_at: str
    archived: bool
    revision: int


@dataclass(frozen=True)
class HistoryEntry:
    """A previous version of a case."""

    revision: int
    saved_at: str


def default_data_dir() -> Path:
    """``$SLOAT_DATA_DIR`` if set, else ``./var``."""
    env = os.environ.get("SLOAT_DATA_DIR")
    return Path(env) if env else Path.cwd() / "var"


class CaseStore:
    """Cases in one SQLite file; one connection per thread.

    Parameters
    ----------
    path : str or Path, optional
        A database file (``*.sqlite3`` / ``*.db``) or a folder to keep ``cases.sqlite3`` in; default
        :func:`default_data_dir`. Nothing is created until the first real use.
    """

    def __init__(self, path: str | Path | None = None):
        p = Path(path) if path is not None else default_data_dir()
        if p.suffix.lower() not in (".sqlite3", ".sqlite", ".db"):
            p = p / DB_FILENAME
        self.path = p
        self._local = threading.local()
        self._migrate_lock = threading.Lock()
        self._migrated = False

    def __repr__(self) -> str:
        return f"CaseStore({str(self.path)!r})"

    # -- connections ----------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(self.path.parent, os.W_OK | os.X_OK):
            _log.error("case data folder %s cannot be written to", self.path.parent)
            raise CaseFolderError("The server's data folder for cases cannot be written to.")
        if not self.path.exists():
            self._create()
        self._refuse_foreign_file()
        conn = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=True)
        conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        try:  # before anything is written (the journal mode is): another program's database stays untouched
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0]
        except sqlite3.DatabaseError as exc:  # "file is not a database": read, never written
            conn.close()
            _log.error("case database %s is not an SQLite database (%s); refused, left as it is", self.path, exc)
            raise CaseStoreError(FOREIGN_STORE) from exc
        except BaseException:
            conn.close()
            raise
        if version == 0 and tables:
            conn.close()
            _log.error("case database %s holds another program's tables; refused, left as it is", self.path)
            raise CaseStoreError(FOREIGN_STORE)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            conn.close()
            raise CaseStoreError("The case database cannot use write-ahead logging in this folder.")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _create(self) -> None:
        """Make a new database whole, then put it in place: made in a private file, migrated, and linked to the
        store's name only if none is there (another process may have won). So the store's name never holds a
        half-made file, and an empty file there is never the tool's own."""
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{secrets.token_hex(4)}.new")
        try:
            try:
                conn = sqlite3.connect(tmp, isolation_level=None)
                try:
                    conn.execute("PRAGMA journal_mode = WAL")
                    self._migrate(conn)
                finally:
                    conn.close()
            except sqlite3.Error as exc:  # no room, no permission
                _log.error("case database %s cannot be made: %s", self.path, exc)
                raise CaseFolderError("The server's data folder for cases cannot be written to.") from exc
            try:
                os.link(tmp, self.path)
            except FileExistsError:
                pass
        finally:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{tmp}{suffix}").unlink(missing_ok=True)

    def _refuse_foreign_file(self) -> None:
        """An empty file, or a folder, where the store should be is refused as it is (a file that is not an SQLite
        database is refused by the first query, in :meth:`_connect`).

        Read with ``stat`` only, never by opening the file: closing any other descriptor of a database file drops
        every POSIX lock this process holds on it, those of another thread's connection in the middle of a write
        included ("How To Corrupt An SQLite Database File", 2.2), and another process could then write at the
        same time. A new connection is made on each new thread (each Streamlit script run), so such a check runs
        while other connections hold their locks.
        """
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            return
        if stat.S_ISDIR(info.st_mode):
            raise CaseStoreError(FOREIGN_STORE)
        if info.st_size == 0:
            _log.error("case database %s is an empty file; refused, left as it is", self.path)
            raise CaseStoreError(EMPTY_STORE)

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (made, and the schema migrated, on first use)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = self._connect()
                self._local.conn = conn
                with self._migrate_lock:
                    if not self._migrated:
                        self._migrate(conn)
                        self._migrated = True
            except OSError as exc:  # the data folder is a file, or cannot be made or written
                self._local.conn = None
                raise CaseFolderError("The server's data folder for cases cannot be written to.") from exc
            except sqlite3.Error as exc:  # the path and SQLite's words go to the log, never to a visitor
                self._local.conn = None
                _log.error("case database %s cannot be opened: %s", self.path, exc)
                raise CaseStoreError(DAMAGED_STORE) from exc
        return conn

    def close(self) -> None:
        """Close this thread's connection (others close when their thread ends)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def _migrate(self, conn: sqlite3.Connection) -> None:
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        if current > SCHEMA_VERSION:
            raise CaseStoreError("The case database was made by a newer version of this tool.")

        while current < SCHEMA_VERSION:
            conn.execute("BEGIN IMMEDIATE")
            try:
                current = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have won
                if current < SCHEMA_VERSION:
                    for statement in MIGRATIONS[current]:
                        conn.execute(statement)
                    current += 1
                    conn.execute(f"PRAGMA user_version = {current}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def schema_version(self) -> int:
        """The database's ``user_version``."""
        return self.connection().execute("PRAGMA user_version").fetchone()[0]

    def _write(self, fn):
        """Run fn(conn) inside BEGIN IMMEDIATE ... COMMIT; roll back and raise CaseStoreError on failure."""
        conn = self.connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.ProgrammingError as exc:  # the connection was closed under us: reconnect next time
            self._local.conn = None
            raise CaseStoreError("The connection to the case database was lost; nothing was saved. "
                                 "Try again.") from exc
        except sqlite3.Error as exc:
            raise CaseStoreError("The case database is busy; the case was not saved. Try again.") from exc
        try:
            out = fn(conn)
            conn.execute("COMMIT")
            return out
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):  # already gone: nothing of it was committed
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise CaseStoreError("The case could not be saved; the last saved version is kept.") from exc
            raise

    # -- public ---------------------------------------------------------------------------------

    @staticmethod
    def _row_to_case(row) -> Case:
        data = json.loads(row[0])
        data.update(id=row[1], revision=row[2], created_at=row[3], updated_at=row[4], archived=bool(row[5]))
        return _validate_case_dict(data)

    def open_case(self, case_id: str, *, staff: StaffToken | None = None, read_only: bool = False) -> Case:
        """The case with exactly this id (the public way in).

        Parameters
        ----------
        case_id : str
            The id from the link.
        staff : StaffToken, optional
            A valid token opens archived cases too.
        read_only : bool
            Open an archived case for anyone, to read (its ``archived`` is True, and :meth:`save`
            refuses it). Cases that are not archived open as usual.

        Raises
        ------
        CaseNotFound
            The id is malformed (refused before the database is touched), unknown, or the case is
            archived and neither `staff` nor `read_only` was given.
        """
        if not is_valid_case_id(case_id):
            raise CaseNotFound("This case link is not valid; check that it was copied in full.")
        row = self.connection().execute(
            "SELECT body, id, revision, created_at, updated_at, archived FROM cases WHERE id = ?", (case_id,)
        ).fetchone()
        if row is None:
            raise CaseNotFound("No case has this link; it may have been mistyped.")
        if row[5] and not read_only and not (isinstance(staff, StaffToken) and staff.is_valid()):
            raise CaseNotFound("This case has been archived by Village staff; ask them to restore it.")
        return self._row_to_case(row)

    def revision_of(self, case_id: str) -> int | None:
        """The stored revision of the case with this id; None when the id is malformed or no case has it.

        Reads that one column: the app asks on every run whether another window saved the case since
        (:meth:`open_case` would read and check the whole case each time).
        """
        if not is_valid_case_id(case_id):
            return None
        row = self.connection().execute("SELECT revision FROM cases WHERE id = ?", (case_id,)).fetchone()
        return None if row is None else int(row[0])

    def new_case(self, **fields: Any) -> Case:
        """A new case with a fresh id, saved at once."""
        case = _validate_case_dict({k: v for k, v in fields.items()})
        self.save(case)
        return case

    def save(self, case: Case) -> Case:
        """Save the case in one transaction; the previous version goes to the history.

        On success ``case.revision`` and ``case.updated_at`` are updated in place.

        Raises
        ------
        CaseArchivedError
            The stored case is archived (read-only until staff restore it); nothing is written.
        CaseConflictError
            The case was saved elsewhere since this copy was opened (its revision is out of date).
        StaffRequired
            The copy is marked archived but the stored case is not (or does not exist yet): only
            :meth:`archive` (staff) archives a case.
        CaseStoreError
            The write failed; the last committed version is intact.
        """
        if not is_valid_case_id(case.id):
            raise SloatInputError("This case has an invalid id.")
        fields = case.fields_view()  # read once, not copied: validated and then written
        _validate_case_dict(fields)
        now = _now_iso()
        new_rev = case.revision + 1
        body = json.dumps({**fields, "updated_at": now, "revision": new_rev},
                          ensure_ascii=False, allow_nan=False)

        def do(conn):
            row = conn.execute("SELECT revision, body, updated_at, archived FROM cases WHERE id = ?",
                               (case.id,)).fetchone()
            if row is not None and row[3]:
                raise CaseArchivedError()
            if case.archived and (row is None or row[0] == case.revision):
                raise StaffRequired("Only Village staff can archive a case, from staff mode.")
            if row is None:
                if case.revision != 0:
                    raise CaseConflictError("This case no longer exists in the database; it was not saved.")
                conn.execute(
                    "INSERT INTO cases (id, revision, created_at, updated_at, archived, title, search_text, body)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (case.id, new_rev, case.created_at, now, 0, case.title, case.search_text(), body),
                )
                return
            if row[0] != case.revision:
                raise CaseConflictError("This case was changed in another window since it was opened; "
                                        "reopen it to see the latest version.")
            conn.execute("INSERT INTO case_history (case_id, revision, saved_at, body) VALUES (?, ?, ?, ?)",
                         (case.id, row[0], row[2], row[1]))
            conn.execute(
                "DELETE FROM case_history WHERE case_id = ? AND revision NOT IN "
                "(SELECT revision FROM case_history WHERE case_id = ? ORDER BY revision DESC LIMIT ?)",
                (case.id, case.id, HISTORY_KEEP),
            )
            conn.execute(
                "UPDATE cases SET revision = ?, updated_at = ?, title = ?, search_text = ?, body = ?"
                " WHERE id = ? AND revision = ? AND archived = 0",
                (new_rev, now, case.title, case.search_text(), body, case.id, case.revision),
            )

        self._write(do)
        case.revision = new_rev
        case.updated_at = now
        return case

    def history(self, case_id: str) -> list[HistoryEntry]:
        """Previous versions of a case, newest first."""
        if not is_valid_case_id(case_id):
            raise CaseNotFound("This case link is not valid; check that it was copied in full.")
        rows = self.connection().execute(
            "SELECT revision, saved_at FROM case_history WHERE case_id = ? ORDER BY revision DESC", (case_id,)
        ).fetchall()
        return [HistoryEntry(r, s) for r, s in rows]

    def undo(self, case: Case) -> Case:
        """Bring back the version before the last save (as a new revision); returns the restored case.

        Repeated calls walk further back. Raises CaseStoreError when there is nothing to undo, and
        CaseArchivedError when the case is archived. The archive flag is not part of what is undone.
        """
        def do(conn):
            row = conn.execute("SELECT revision, archived FROM cases WHERE id = ?", (case.id,)).fetchone()
            if row is not None and row[1]:
                raise CaseArchivedError()
            if row is None or row[0] != case.revision:
                raise CaseConflictError("This case was changed in another window; reopen it before undoing.")
            prev = conn.execute(
                "SELECT revision, body FROM case_history WHERE case_id = ? ORDER BY revision DESC LIMIT 1",
                (case.id,),
            ).fetchone()
            if prev is None:
                raise CaseStoreError("There is no earlier version of this case to go back to.")
            data = json.loads(prev[1])
            now = _now_iso()
            data.update(revision=case.revision + 1, updated_at=now, id=case.id, archived=False)
            restored = _validate_case_dict(data)
            conn.execute("DELETE FROM case_history WHERE case_id = ? AND revision = ?", (case.id, prev[0]))
            conn.execute(
                "UPDATE cases SET revision = ?, updated_at = ?, title = ?, search_text = ?, body = ?"
                " WHERE id = ? AND archived = 0",
                (restored.revision, now, restored.title, restored.search_text(),
                 json.dumps(restored.to_dict(), ensure_ascii=False), case.id),
            )
            return restored

        return self._write(do)

    # -- staff ----------------------------------------------------------------------------------

    def unlock_staff(self, passcode: str, passcode_hash: str | None, *, client_key: str = "global",
                     now: float | None = None) -> UnlockResult:
        """Check the staff passcode; wrong tries from one client key are slowed (2**n s, capped).

        Parameters
        ----------
        passcode : str
            What was typed.
        passcode_hash : str or None
            The ``pbkdf2_sha256$...`` string from the app's secrets.
        client_key : str
            Whose tries are counted together (e.g. the client address; default: everyone together).
        now : float, optional
            Unix time (for tests); default the clock.

        Returns
        -------
        UnlockResult
            ``ok`` with a token, or a refusal whose message says why and when to try again.
        """
        now = time.time() if now is None else float(now)
        key = str(client_key)[:200]
        if _parse_hash(passcode_hash) is None:
            return UnlockResult(False, "Staff mode is not set up: the app's secrets hold no valid passcode hash.")
        conn = self.connection()
        row = conn.execute("SELECT failures, locked_until FROM unlock_attempts WHERE client_key = ?",
                           (key,)).fetchone()
        failures, locked_until = (row if row else (0, 0.0))
        if now < locked_until:
            wait = locked_until - now
            at = dt.datetime.fromtimestamp(locked_until, dt.timezone.utc)
            return UnlockResult(False, f"Too many wrong passcodes. Try again in {math.ceil(wait)} seconds "
                                       f"(after {at:%H:%M:%S} UTC).", None, wait, at)
        if verify_passcode(passcode, passcode_hash):
            self._write(lambda c: c.execute("DELETE FROM unlock_attempts WHERE client_key = ?", (key,)))
            return UnlockResult(True, "Staff mode unlocked.", StaffToken._issue(now))
        failures += 1
        wait = float(min(2 ** min(failures, 30), MAX_BACKOFF_S))
        until = now + wait

        def record(c):
            c.execute(
                "INSERT INTO unlock_attempts (client_key, failures, last_failure_at, locked_until) "
                "VALUES (?, ?, ?, ?) ON CONFLICT(client_key) DO UPDATE SET failures = excluded.failures, "
                "last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until",
                (key, failures, now, until),
            )

        self._write(record)
        at = dt.datetime.fromtimestamp(until, dt.timezone.utc)
        return UnlockResult(False, f"Wrong passcode. Try again in {math.ceil(wait)} seconds "
                                   f"(after {at:%H:%M:%S} UTC).", None, wait, at)

    def list_cases(self, staff: StaffToken, query: str | None = None, *, include_archived: bool = False,
                   limit: int = 200) -> list[CaseSummary]:
        """Cases, most recently changed first (staff only). `query` matches id, title, SBL, address,
        district and notes, case-insensitively; every word must match."""
        _require_staff(staff)
        sql = "SELECT id, title, updated_at, created_at, archived, revision FROM cases WHERE 1 = 1"
        args: list[Any] = []
        if not include_archived:
            sql += " AND archived = 0"
        for word in (query or "").lower().split()[:10]:
            escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            sql += " AND search_text LIKE ? ESCAPE '\\'"
            args.append(f"%{escaped}%")
        sql += " ORDER BY updated_at DESC LIMIT ?"
        args.append(max(1, min(int(limit), 5000)))
        rows = self.connection().execute(sql, args).fetchall()
        return [CaseSummary(r[0], r[1], r[2], r[3], bool(r[4]), r[5]) for r in rows]

    def search(self, staff: StaffToken, text: str, *, include_archived: bool = False,
               limit: int = 200) -> list[CaseSummary]:
        """Cases whose id, title, SBL, address, district or notes contain every word of `text` (staff only)."""
        return self.list_cases(staff, text, include_archived=include_archived, limit=limit)

    def _set_archived(self, staff: StaffToken, case_id: str, flag: bool) -> None:
        _require_staff(staff)
        if not is_valid_case_id(case_id):
            raise CaseNotFound("This case link is not valid; check that it was copied in full.")
        now = _now_iso()

        def do(conn):
            row = conn.execute("SELECT archived FROM cases WHERE id = ?", (case_id,)).fetchone()
            if row is None:
                raise CaseNotFound("No case has this link; it may have been mistyped.")
            if bool(row[0]) == flag:
                return
            # Only the flag changes: no history entry (undo walks content), but a new revision, so a
            # copy opened before the change cannot be saved over it.
            conn.execute("UPDATE cases SET archived = ?, revision = revision + 1, updated_at = ? WHERE id = ?",
                         (int(flag), now, case_id))

        self._write(do)

    def archive(self, staff: StaffToken, case_id: str) -> None:
        """Archive a case (staff only; recoverable): hidden from lists, and read-only.

        Its link then opens it only with ``open_case(..., read_only=True)``, and every save or undo
        is refused with :class:`CaseArchivedError` until :meth:`unarchive`.
        """
        self._set_archived(staff, case_id, True)

    def unarchive(self, staff: StaffToken, case_id: str) -> None:
        """Restore an archived case (staff only): listed again, and writable again."""
        self._set_archived(staff, case_id, False)

