"""Saved cases. The case store: every consultation saved in SQLite, reopened by an unguessable link.

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

"""

from sloat_core.store.auth import (MAX_BACKOFF_S, STAFF_TOKEN_TTL_S, StaffRequired, StaffToken, UnlockResult,
                                   hash_passcode, verify_passcode)
from sloat_core.store.case import (CASE_FORMAT, CASE_FORMAT_VERSION, MAX_CASE_JSON_BYTES, Case, analyze_case,
                                   case_from_json, case_to_json, is_valid_case_id, new_case_id)
from sloat_core.store.sqlite import (ARCHIVED_SENTENCE, DB_FILENAME, MIGRATIONS, SCHEMA_VERSION, CaseArchivedError,
                                     CaseConflictError, CaseFolderError, CaseNotFound, CaseStore, CaseStoreError,
                                     CaseSummary, HistoryEntry, default_data_dir)

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
