"""The command line run in the test's own process: ``sloat_core.cli.main(argv)`` as ``python -m sloat_core`` would
run it (``__main__`` does nothing else), from a working directory, with stdout and stderr captured.

A subprocess spends a second or two importing geopandas, rasterio and the rules before it reads its arguments;
in-process the answer is the same and the imports are paid once. What only a real process shows (a traceback
or a library message written straight to the file descriptor, an import failure, resource limits) is left to
the few tests that still start ``python -m sloat_core``.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path

from sloat_core import cli

ROOT = Path(__file__).resolve().parents[1]


def run_main(*args, cwd: Path | str = ROOT) -> subprocess.CompletedProcess:
    """``python -m sloat_core ARGS`` from ``cwd``, in this process; the exit code and the captured output in a
    ``CompletedProcess`` (as ``subprocess.run(..., capture_output=True, text=True)`` gives them)."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    saved_cwd = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # as the interpreter turns it into an exit code
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(saved_cwd)
    return subprocess.CompletedProcess(["python", "-m", "sloat_core", *argv], code, out.getvalue(), err.getvalue())
