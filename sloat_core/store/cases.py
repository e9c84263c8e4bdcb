"""The case store: every consultation saved in SQLite, reopened by an unguessable link.

A *case* is what one pre-application consultation produces: the parcel outline, the district, the
project description, the Planning Board's answers, the permits and their dates, notes, mitigation
figures, local-setting overrides, and a snapshot of the analysis with the versions of the law
parameters, law text and layer set it used.

Storage
-------
* One SQLite file, ``cases.sqlite3``, under a data folder: the ``path`` given to :class:`CaseStore`,
  else ``$SLOAT_DATA_DIR``, else ``./var/``. WAL journal, ``synchronous=FULL``, a busy timeout.
* The schema version is ``PRAGMA user_version``; :data:`MIGRATIONS` is the ordered list of steps, each
  applied in its own transaction with the version bump (a crash mid-migration leaves the old version).
* :meth:`CaseStore.save` writes one case in one transaction: the previous version goes to the history
  table, the new one replaces it. A failed write raises :class:`CaseStoreError` and the last committed
  version stays as it was. A save based on an out-of-date revision is refused (two windows on one case
  cannot silently overwrite each other).
* An archived case is read-only: :meth:`CaseStore.save` and :meth:`CaseStore.undo` refuse it with
  :class:`CaseArchivedError`. The archive flag changes only through :meth:`CaseStore.archive` and
  :meth:`CaseStore.unarchive` (staff), which bump the revision without touching the case's content.
* One connection per thread (``check_same_thread``): Streamlit sessions run in their own threads, so
  two sessions never share a connection or a transaction.

Public and staff
----------------
The public (counter) face has one way in: :meth:`CaseStore.open_case` with the exact id from the link.
An id that is not of the shape :func:`new_case_id` makes is refused before the database is touched.
An archived case's link opens it read-only when asked with ``read_only=True`` (a resident's printed
link keeps working); the store never writes to it until staff restore it.
Listing, searching, archiving and restoring cases need a :class:`StaffToken` from
:meth:`CaseStore.unlock_staff`, which checks a passcode against a PBKDF2-SHA256 hash (kept in the
app's secrets, never in the repository; make one with :func:`hash_passcode`). Wrong passcodes are
slowed down: after *n* failures in a row from one client key the next try must wait 2**n seconds,
at most :data:`MAX_BACKOFF_S`; the count is kept in the database so a restart does not reset it.

Export and import
-----------------
:func:`case_to_json` writes a versioned JSON document holding everything; :func:`case_from_json`
validates it (size, format name and version, every field's type) and gives back a case that
:func:`analyze_case` turns into the same analysis.

>>> c = Case(id=new_case_id(), notes="Met at the counter.")
>>> case_from_json(case_to_json(c), keep_id=True).notes
'Met at the counter.'
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import datetime as dt
import hashlib
import hmac
import json
import math
import os
import re
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sloat_core.errors import SloatError, SloatInputError

__all__ = [
    "CASE_FORMAT",
    "CaseFolderError",
    "CASE_FORMAT_VERSION",
    "DB_FILENAME",
    "MAX_BACKOFF_S",
    "MAX_CASE_JSON_BYTES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "STAFF_TOKEN_TTL_S",
    "ARCHIVED_SENTENCE",
    "Case",
    "CaseArchivedError",
    "CaseConflictError",
    "CaseNotFound",
    "CaseStore",
    "CaseStoreError",
    "CaseSummary",
    "HistoryEntry",
    "StaffRequired",
    "StaffToken",
    "UnlockResult",
    "analyze_case",
    "case_from_json",
    "case_to_json",
    "default_data_dir",
    "hash_passcode",
    "is_valid_case_id",
    "new_case_id",
    "verify_passcode",
]

#: Name and version of the case export format (``case_to_json``).
CASE_FORMAT = "sloat-case"
CASE_FORMAT_VERSION = 1
#: Largest case export accepted by ``case_from_json``.
MAX_CASE_JSON_BYTES = 5 * 1024 * 1024
#: File name of the database inside the data folder.
DB_FILENAME = "cases.sqlite3"
#: Longest wait imposed after wrong staff passcodes.
MAX_BACKOFF_S = 15 * 60
#: How long a staff unlock lasts.
STAFF_TOKEN_TTL_S = 8 * 3600
#: Previous versions kept per case (for undo).
HISTORY_KEEP = 30
#: Default PBKDF2 work factor for new passcode hashes.
PBKDF2_ITERATIONS = 600_000

_BUSY_TIMEOUT_MS = 5000
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{22}$")
_MAX_NOTES_CHARS = 50_000
_MAX_TEXT_CHARS = 500
_MAX_TIMELINE_ITEMS = 200

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


class CaseStoreError(SloatError):
    """The case database could not do what was asked (one plain sentence)."""


class CaseFolderError(CaseStoreError):
    """The data folder itself cannot be made or written (a file in its place, no permission, disk full)."""


class CaseNotFound(SloatInputError):
    """No case answers to this link (wrong, mistyped or archived)."""


class CaseConflictError(CaseStoreError):
    """The case was saved elsewhere since it was opened; reopen it before saving."""


class StaffRequired(SloatError, PermissionError):
    """A staff-only action was asked for without a valid staff unlock."""


#: What a refused write to an archived case says (one sentence a resident understands).
ARCHIVED_SENTENCE = ("This case is archived, so changes are not saved to it; start a new case from it to keep "
                     "them, or ask Village staff to restore it.")


class CaseArchivedError(CaseStoreError):
    """The case is archived: it can be read, printed and downloaded, but not changed until staff restore it."""

    def __init__(self, message: str = ARCHIVED_SENTENCE):
        super().__init__(message)


# ----------------------------------------------------------------------------------------------
# Ids, passcodes, tokens
# ----------------------------------------------------------------------------------------------


def new_case_id() -> str:
    """A fresh unguessable case id (128 random bits, 22 URL-safe characters).

    >>> is_valid_case_id(new_case_id())
    True
    """
    return secrets.token_urlsafe(16)


def is_valid_case_id(case_id: Any) -> bool:
    """Whether `case_id` has the shape of an id made by :func:`new_case_id`.

    >>> is_valid_case_id("' OR 1=1 --"), is_valid_case_id("../../etc/passwd")
    (False, False)
    """
    return isinstance(case_id, str) and bool(_ID_RE.fullmatch(case_id))


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def hash_passcode(passcode: str, *, iterations: int = PBKDF2_ITERATIONS, salt: bytes | None = None) -> str:
    """A PBKDF2-SHA256 hash string ``"pbkdf2_sha256$<iterations>$<salt b64>$<hash b64>"`` for the secrets.

    >>> h = hash_passcode("correct horse", iterations=1000)
    >>> h.startswith("pbkdf2_sha256$1000$"), verify_passcode("correct horse", h), verify_passcode("wrong", h)
    (True, True, False)
    """
    if not isinstance(passcode, str) or not passcode:
        raise SloatInputError("The staff passcode cannot be empty.")
    if not isinstance(iterations, int) or iterations < 1000:
        raise SloatInputError("The passcode hash needs at least 1,000 iterations.")
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", passcode.encode("utf-8"), salt, iterations)
    return f"pbkdf2_sha256${iterations}${_b64(salt)}${_b64(digest)}"


def _parse_hash(passcode_hash: Any) -> tuple[int, bytes, bytes] | None:
    if not isinstance(passcode_hash, str):
        return None
    parts = passcode_hash.strip().split("$")
    if len(parts) != 4 or parts[0] != "pbkdf2_sha256" or not parts[1].isdigit():
        return None
    iterations = int(parts[1])
    if not 1000 <= iterations <= 10_000_000:
        return None
    try:
        salt = base64.b64decode(parts[2], validate=True)
        digest = base64.b64decode(parts[3], validate=True)
    except (ValueError, TypeError):
        return None
    if len(salt) < 8 or len(digest) != 32:
        return None
    return iterations, salt, digest


def verify_passcode(passcode: str, passcode_hash: str) -> bool:
    """Whether `passcode` matches the hash (constant-time comparison). A malformed hash never matches."""
    parsed = _parse_hash(passcode_hash)
    if parsed is None or not isinstance(passcode, str):
        return False
    iterations, salt, digest = parsed
    candidate = hashlib.pbkdf2_hmac("sha256", passcode.encode("utf-8"), salt, iterations)
    return hmac.compare_digest(candidate, digest)


#: Signs staff tokens; new at every start of the process, so tokens never outlive the server.
_TOKEN_KEY = secrets.token_bytes(32)


@dataclass(frozen=True)
class StaffToken:
    """Proof of a staff unlock in this process. Made only by :meth:`CaseStore.unlock_staff`.

    A token built by hand does not carry a valid signature and is refused.
    """

    issued_at: float
    expires_at: float
    nonce: str
    signature: str = field(repr=False)

    @staticmethod
    def _sign(issued_at: float, expires_at: float, nonce: str) -> str:
        msg = f"{issued_at!r}|{expires_at!r}|{nonce}".encode()
        return hmac.new(_TOKEN_KEY, msg, hashlib.sha256).hexdigest()

    @classmethod
    def _issue(cls, now: float) -> "StaffToken":
        nonce = secrets.token_hex(8)
        expires = now + STAFF_TOKEN_TTL_S
        return cls(now, expires, nonce, cls._sign(now, expires, nonce))

    def is_valid(self, now: float | None = None) -> bool:
        """Whether the token was issued by this process and has not expired."""
        now = time.time() if now is None else now
        good = hmac.compare_digest(self.signature, self._sign(self.issued_at, self.expires_at, self.nonce))
        return good and self.issued_at <= now < self.expires_at


def _require_staff(token: Any) -> None:
    if not isinstance(token, StaffToken) or not token.is_valid():
        raise StaffRequired("This needs staff mode: unlock it with the staff passcode.")


@dataclass(frozen=True)
class UnlockResult:
    """The answer to a staff unlock: a token, or a refusal saying why and when to try again."""

    ok: bool
    message: str
    token: StaffToken | None = None
    retry_after_s: float = 0.0
    retry_at: dt.datetime | None = None


# ----------------------------------------------------------------------------------------------
# The case
# ----------------------------------------------------------------------------------------------


def _now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


@dataclass
class Case:
    """One consultation. Plain JSON-ready data throughout.

    Attributes
    ----------
    id : str
        Unguessable id (the ``?case=`` of the link).
    title : str
        Short label for staff lists (e.g. an address).
    parcel_geojson : dict or None
        The parcel outline as a GeoJSON geometry in WGS84 longitude/latitude.
    parcel_meta : dict
        ``source``, ``sbl``, ``address``, ``district`` of the parcel as read.
    district : str or None
        District chosen by the user (None: from the zoning layer).
    project : dict
        The project description (``sloat_core.rules.project.parse_project`` shape).
    board_answers : dict
        Planning Board answers, e.g. ``{"402-48C(4)": True}``.
    timeline_items : list of dict
        Permits and their dates (``sloat_core.rules.clocks.timeline_events`` items).
    notes : str
        Free text.
    mitigation_input : dict
        Keyword arguments of ``sloat_core.rules.mitigation.mitigation``.
    settings_overrides : dict
        Overrides of the local settings (``load_settings(overrides=...)``).
    analysis : dict or None
        Snapshot of the last analysis result (the JSON contract).
    params_version, law_text_sha256, layers_name, layers_version : str or None
        Versions the snapshot used.
    created_at, updated_at : str
        ISO timestamps (UTC).
    archived : bool
    revision : int
        Saved revision (0 = never saved).
    """

    id: str = field(default_factory=new_case_id)
    title: str = ""
    parcel_geojson: dict | None = None
    parcel_meta: dict = field(default_factory=dict)
    district: str | None = None
    project: dict = field(default_factory=dict)
    board_answers: dict = field(default_factory=dict)
    timeline_items: list = field(default_factory=list)
    notes: str = ""
    mitigation_input: dict = field(default_factory=dict)
    settings_overrides: dict = field(default_factory=dict)
    analysis: dict | None = None
    params_version: str | None = None
    law_text_sha256: str | None = None
    layers_name: str | None = None
    layers_version: str | None = None
    created_at: str = field(default_factory=_now_iso)
    updated_at: str = field(default_factory=_now_iso)
    archived: bool = False
    revision: int = 0

    def record_analysis(self, result: dict) -> None:
        """Keep `result` (an analysis result dict) as the snapshot, with the versions it used."""
        from sloat_core.law.text import LAW_TEXT_SHA256

        self.analysis = json.loads(json.dumps(result))
        self.params_version = result.get("params_version")
        self.layers_name = result.get("layers_name")
        self.layers_version = result.get("layers_version")
        self.law_text_sha256 = LAW_TEXT_SHA256

    def to_dict(self) -> dict:
        """All fields as a JSON-ready dict."""
        return dataclasses.asdict(self)

    def search_text(self) -> str:
        """The text staff search looks through (lower case)."""
        meta = self.parcel_meta or {}
        bits = [self.id, self.title, self.district or "", meta.get("sbl") or "", meta.get("address") or "",
                meta.get("district") or "", self.notes]
        return " ".join(str(b) for b in bits if b).lower()


_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "title": (str,),
    "parcel_geojson": (dict, type(None)),
    "parcel_meta": (dict,),
    "district": (str, type(None)),
    "project": (dict,),
    "board_answers": (dict,),
    "timeline_items": (list,),
    "notes": (str,),
    "mitigation_input": (dict,),
    "settings_overrides": (dict,),
    "analysis": (dict, type(None)),
    "params_version": (str, type(None)),
    "law_text_sha256": (str, type(None)),
    "layers_name": (str, type(None)),
    "layers_version": (str, type(None)),
    "created_at": (str,),
    "updated_at": (str,),
    "archived": (bool,),
    "revision": (int,),
}
_FIELD_WORDS = {
    "parcel_geojson": "parcel outline", "parcel_meta": "parcel details", "board_answers": "Board answers",
    "timeline_items": "permit dates", "mitigation_input": "mitigation figures",
    "settings_overrides": "setting overrides", "analysis": "analysis snapshot",
}


def _check_finite(obj: Any, depth: int = 0) -> None:
    if depth > 40:
        raise SloatInputError("The case file is nested too deeply to be a case.")
    if isinstance(obj, float) and not math.isfinite(obj):
        raise SloatInputError("The case file holds a number that is not finite.")
    if isinstance(obj, dict):
        for v in obj.values():
            _check_finite(v, depth + 1)
    elif isinstance(obj, list):
        for v in obj:
            _check_finite(v, depth + 1)


def _validate_case_dict(data: dict) -> Case:
    if not isinstance(data, dict):
        raise SloatInputError("The case file has no case in it.")
    unknown = sorted(set(data) - set(_FIELD_TYPES))
    if unknown:
        raise SloatInputError(f"The case file has a field this version does not know: {unknown[0]!r}.")
    for name, types in _FIELD_TYPES.items():
        if name not in data:
            continue
        v = data[name]
        if (isinstance(v, bool) and bool not in types) or not isinstance(v, types):
            raise SloatInputError(f"The case's {_FIELD_WORDS.get(name, name.replace('_', ' '))} "
                                  "has the wrong kind of value.")
    if "id" in data and not is_valid_case_id(data["id"]):
        raise SloatInputError("The case id in the file is not a valid case id.")
    if len(data.get("notes", "")) > _MAX_NOTES_CHARS:
        raise SloatInputError(f"The notes are longer than {_MAX_NOTES_CHARS:,} characters.")
    for name in ("title", "district", "params_version", "law_text_sha256", "layers_name", "layers_version"):
        if isinstance(data.get(name), str) and len(data[name]) > _MAX_TEXT_CHARS:
            raise SloatInputError(f"The case's {name.replace('_', ' ')} is too long.")
    items = data.get("timeline_items", [])
    if len(items) > _MAX_TIMELINE_ITEMS or any(not isinstance(i, dict) for i in items):
        raise SloatInputError("The case's permit dates must be a list of dated items.")
    geo = data.get("parcel_geojson")
    if geo is not None and (not isinstance(geo.get("type"), str) or "coordinates" not in geo and "geometry" not in geo
                            and "features" not in geo):
        raise SloatInputError("The case's parcel outline is not a GeoJSON geometry.")
    for name in ("created_at", "updated_at"):
        if name in data:
            try:
                dt.datetime.fromisoformat(data[name])
            except ValueError:
                raise SloatInputError(f"The case's {name.replace('_', ' ')} is not a date and time.") from None
    if data.get("revision", 0) < 0:
        raise SloatInputError("The case's revision cannot be negative.")
    _check_finite(data)
    return Case(**data)


def case_to_json(case: Case) -> str:
    """The whole case as a versioned JSON document (UTF-8 text).

    Parameters
    ----------
    case : Case

    Returns
    -------
    str
        ``{"format": "sloat-case", "format_version": 1, "exported_at": ..., "case": {...}}``.
    """
    doc = {
        "format": CASE_FORMAT,
        "format_version": CASE_FORMAT_VERSION,
        "exported_at": _now_iso(),
        "case": case.to_dict(),
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False)


def case_from_json(text: str | bytes, *, keep_id: bool = False, max_bytes: int = MAX_CASE_JSON_BYTES) -> Case:
    """Read a case written by :func:`case_to_json`, validating it.

    Parameters
    ----------
    text : str or bytes
        The JSON document.
    keep_id : bool
        Keep the id in the file (restoring a backup). By default the imported case gets a fresh id and
        revision 0, so importing never overwrites an existing case.
    max_bytes : int
        Larger documents are refused before they are parsed.

    Returns
    -------
    Case

    Raises
    ------
    SloatInputError
        Too large, not JSON, another format, an unknown format version, or a field of the wrong kind.
    """
    size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
    if size > max_bytes:
        raise SloatInputError(f"The case file is larger than {max_bytes // (1024 * 1024)} MB.")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # ValueError: bad JSON, bad UTF-8, or an integer of over 4,300 digits
        raise SloatInputError("The case file is not valid JSON.") from None
    if not isinstance(doc, dict) or doc.get("format") != CASE_FORMAT:
        raise SloatInputError("This file is not a Sloatsburg case file.")
    version = doc.get("format_version")
    if version != CASE_FORMAT_VERSION or isinstance(version, bool):
        raise SloatInputError(f"The case file has format version {version!r}; this tool reads version "
                              f"{CASE_FORMAT_VERSION}.")
    case = _validate_case_dict(doc.get("case"))
    if not keep_id:
        case.id = new_case_id()
        case.revision = 0
        case.archived = False
    return case


def analyze_case(case: Case, layerset, *, as_of: dt.date | None = None, settings_path=None):
    """Run the analysis on a case's inputs (the one function here that reaches up to the rules).

    Parameters
    ----------
    case : Case
    layerset : LayerSet
    as_of : datetime.date, optional
        Default today.
    settings_path : path, optional
        Local settings file (default the shipped one); the case's overrides are applied to it.

    Returns
    -------
    sloat_core.engine.analysis.Analysis
    """
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis.parcels import parcel_from_geojson
    from sloat_core.law.settings import load_settings

    if case.parcel_geojson is None:
        raise SloatInputError("This case has no parcel yet.")
    meta = case.parcel_meta or {}
    parcel = parcel_from_geojson(case.parcel_geojson, source=meta.get("source") or "saved case")
    parcel = dataclasses.replace(parcel, sbl=meta.get("sbl"), address=meta.get("address"),
                                 district=meta.get("district"))
    settings = load_settings(settings_path, overrides=case.settings_overrides or None)
    return analyze_parcel(
        parcel, layerset, district=case.district, project=case.project or None, settings=settings,
        as_of=as_of, board_answers=case.board_answers or None, mitigation_input=case.mitigation_input or None,
    )


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
        conn = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=True)
        conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            conn.close()
            raise CaseStoreError("The case database cannot use write-ahead logging in this folder.")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

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
            except sqlite3.Error as exc:
                self._local.conn = None
                raise CaseStoreError(f"The case database at {self.path} cannot be opened ({exc}).") from exc
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
        _validate_case_dict(case.to_dict())
        now = _now_iso()
        new_rev = case.revision + 1
        body = json.dumps({**case.to_dict(), "updated_at": now, "revision": new_rev},
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
