"""Orca for the screen reader test: /usr/bin/orca's own ``main``, with two of its habits changed for a test session.

    /usr/bin/python3 orca_for_tests.py --debug-file=PATH [orca's other arguments]

(run with the Python of orca's first line: its modules are the system's.)

- Its debug log is written line by line. /usr/bin/orca opens the ``--debug-file`` with Python's default buffering, so
  the log reached the file 8 KB at a time: a phrase Orca said as the page fell quiet stayed out of the file until
  8 KB more had been logged, and the test, which reads the phrases from the file, waited for a phrase already said
  (for as long as the page stayed still; on a page that kept changing, such as a map redrawing its labels every
  50 ms, hardly at all).
- It leaves every other Orca alone. /usr/bin/orca stops every Orca process of the same user (``--replace``) or will not
  start beside one (without it). The test's Orca has a display, a session bus and an accessibility bus of its own, so
  neither is needed; the first stopped the Orca of a test running at the same time in another session, and would
  stop the screen reader of a person who runs the tests.
"""

from __future__ import annotations

import builtins
import runpy
import shutil
import sys


def main(args: list[str]) -> int:
    debug_file = next(a.split("=", 1)[1] for a in args if a.startswith("--debug-file="))
    system_open = builtins.open

    def open_line_by_line(file, mode="r", buffering=-1, *rest, **named):
        if file == debug_file and "w" in mode and buffering == -1:
            buffering = 1
        return system_open(file, mode, buffering, *rest, **named)

    builtins.open = open_line_by_line
    script = runpy.run_path(shutil.which("orca") or "/usr/bin/orca", run_name="orca_for_tests")
    orca_main = script["main"]
    orca_main.__globals__["otherOrcas"] = lambda: []  # the Orcas of other sessions: none of this one's business
    sys.argv = ["orca", *args]
    return orca_main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
