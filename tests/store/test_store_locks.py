"""Two server processes share one case database: a new connection in one must never drop the locks of another.

POSIX advisory locks belong to the process, and closing *any* descriptor of a file drops all of them ("How To
Corrupt An SQLite Database File", 2.2). The store makes a connection per thread (Streamlit runs each script
run on a new thread); it had read the file's first bytes with ``open()`` before each new connection, which
dropped the shared lock the process's other connections held on the database. Another process then took
itself for the last one open: on closing it checkpointed and deleted the write-ahead log under the first
process, whose next saves went to a deleted file: acknowledged, and lost (a browser test run's store was
found "malformed" after two servers shared it).

Here the first process is this test (one connection open, a second made on another thread, as a new script
run makes it); the second is a real ``python`` process that opens the database, reads a case and closes.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from sloat_core.store import Case, CaseStore

ROOT = Path(__file__).resolve().parents[2]

READ_AND_CLOSE = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print(con.execute("SELECT count(*) FROM cases").fetchone()[0])
con.close()
"""


def _other_process_count(db: Path) -> int:
    out = subprocess.run([sys.executable, "-c", READ_AND_CLOSE, str(db)], capture_output=True, text=True,
                         timeout=60, check=True)
    return int(out.stdout.strip())


def test_a_new_threads_connection_keeps_the_locks_so_another_process_cannot_delete_the_log(tmp_path):
    store = CaseStore(tmp_path)
    store.save(Case(title="first"))  # this thread's connection stays open, the save in the write-ahead log
    wal = Path(f"{store.path}-wal")
    assert wal.exists()

    made = []
    worker = threading.Thread(target=lambda: made.append(store.connection()))  # a new script run's thread
    worker.start()
    worker.join()
    assert made

    assert _other_process_count(store.path) == 1
    # the other process saw this one's connections: it was not the last, so it left the log in place
    assert wal.exists(), "another process deleted the write-ahead log under open connections"

    store.save(Case(title="second"))  # acknowledged here, so it must be seen by every other process
    assert _other_process_count(store.path) == 2
    store.close()
