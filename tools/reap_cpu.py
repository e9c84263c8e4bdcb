"""Run a command and count the CPU of every process it starts, orphans included: ``python3 tools/reap_cpu.py CMD...``.

``/usr/bin/time CMD`` counts the children that were waited for. Chromium's renderers are not, when the browser
closes: they are killed and left to init, and their CPU (most of a browser test's) is lost to the count. Run under
``/usr/bin/time``, this wrapper makes itself the child subreaper (Linux ``PR_SET_CHILD_SUBREAPER``): orphaned
descendants come to it, are reaped, and their CPU is in its children's time and so in ``/usr/bin/time``'s figures:

    /usr/bin/time -f "%e s wall, %U s user, %S s sys" python3 tools/reap_cpu.py .venv/bin/python -m pytest -q -n 0 ...

It prints the orphans' share on stderr and exits with the command's status. Waits at most 30 s for orphans once
the command has ended.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    pid = os.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    status, orphans, deadline = None, 0.0, None
    while True:
        try:
            child, wait_status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if child == 0:
            if deadline is not None and time.monotonic() > deadline:
                break
            time.sleep(0.05)
            continue
        if child == pid:
            status = os.waitstatus_to_exitcode(wait_status)
            deadline = time.monotonic() + 30
        else:
            orphans += usage.ru_utime + usage.ru_stime
    print(f"reap_cpu: orphaned descendants' CPU {orphans:.2f} s", file=sys.stderr)
    return status if status is not None and status >= 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
