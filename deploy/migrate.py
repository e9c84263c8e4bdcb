"""Bring the case database to this version's schema, once, before the app processes start.

``python deploy/migrate.py`` (upgrade.sh runs it): opens ``$SLOAT_DATA_DIR/cases.sqlite3`` with the
app's own store, which applies each pending migration in one transaction (``sloat_core/store/sqlite.py``:
``PRAGMA user_version``; a second process waits and finds the work done) and refuses a database made by
a newer version of the tool. Prints what it did; exit status 1 when the database is refused.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from sloat_core.store import CaseStore, CaseStoreError
    from sloat_core.store.sqlite import DB_FILENAME, SCHEMA_VERSION, default_data_dir

    path = default_data_dir() / DB_FILENAME
    before = None
    if path.exists() and path.stat().st_size:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            before = conn.execute("PRAGMA user_version").fetchone()[0]
    store = CaseStore(default_data_dir())
    try:
        after = store.schema_version()
    except CaseStoreError as exc:
        print(f"migrate: {exc} (it is at schema version {before}, this version knows up to {SCHEMA_VERSION}); "
              "nothing changed. Install the newer version again, or restore a backup made by this one.",
              file=sys.stderr)
        return 1
    finally:
        store.close()
    if before == after:
        print(f"migrate: the case database is at schema version {after}; nothing to do")
    else:
        print(f"migrate: the case database went from schema version {before or 0} to {after}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
