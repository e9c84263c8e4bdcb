"""``python -m sloat_core ARGS`` in a real child process, without its second of imports.

A server process (one per test process, started on first use) imports the command's libraries once (geopandas,
rasterio, the rules) and reads the illustrative sample's layer set once (as the test process's in-process runs
have it read); each run is a child forked from it. The child is a process of its own: its working
directory, environment, temporary folder, memory limit and file descriptors 0-2 are set as
``subprocess.run([python, "-m", "sloat_core", ...], cwd=..., env=..., capture_output=True)`` would set them, a
``sitecustomize.py`` on the environment's ``PYTHONPATH`` is run as the interpreter would run it at start-up,
``PYTHONWARNINGS`` and ``PYTHONDONTWRITEBYTECODE`` are applied, then ``sloat_core``'s ``__main__`` runs as with
``-m``; an uncaught exception prints its traceback and exits 1, and the exit handlers run, as at the end of an
interpreter. A crash, a runaway or a write there cannot touch the test process; what is captured is what the
process wrote to its stdout and stderr, Python's and the C libraries' alike. Only the interpreter's own start-up
and its first reading of the sample layers are not repeated: the few tests about those start ``python -m
sloat_core`` itself.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The modules a command imports on its way (sloat_core/cli.py imports them inside its commands).
PRELOAD = ("sloat_core.cli", "sloat_core.engine.analysis", "sloat_core.gis.layers", "sloat_core.gis.parcels",
           "sloat_core.rules.project", "sloat_core.rules.clocks", "sloat_core.outputs.ics", "geopandas", "rasterio",
           "pyogrio", "shapely", "pyproj")
#: The layer sets read once by the server (``load_manifest`` keeps them for the children, by path and time).
PRELOAD_LAYERS = (ROOT / "data" / "sample" / "layers.yaml",)

_SERVER = r'''
import atexit, gc, importlib, importlib.util, json, os, resource, runpy, sys, tempfile, traceback, warnings

split = sys.argv.index("--layers")
for name in sys.argv[1:split]:
    importlib.import_module(name)
from sloat_core.gis.layers import load_manifest
for path in sys.argv[split + 1:]:
    load_manifest(path)
# What was imported and read lives as long as the server: moved out of the collector's generations, a child's
# collections do not walk it (nor copy its pages to write their marks).
gc.collect()
gc.freeze()


def child(req):
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, req["stdout"]), (2, req["stderr"])):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    if req["memory_limit"]:
        resource.setrlimit(resource.RLIMIT_AS, (req["memory_limit"], req["memory_limit"]))
    os.chdir(req["cwd"])
    env = req["env"]
    os.environ.clear()
    os.environ.update(env)
    tempfile.tempdir = None  # found again from TMPDIR
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))
    warnings.resetwarnings()
    sys.warnoptions[:] = [o for o in env.get("PYTHONWARNINGS", "").split(",") if o]
    warnings._processoptions(sys.warnoptions)
    sys.path[0] = req["cwd"]  # as python -m puts it first
    for folder in env.get("PYTHONPATH", "").split(os.pathsep):
        site = os.path.join(folder, "sitecustomize.py")
        if folder and os.path.isfile(site):  # run at start-up by the interpreter
            spec = importlib.util.spec_from_file_location("sitecustomize", site)
            module = importlib.util.module_from_spec(spec)
            sys.modules["sitecustomize"] = module
            spec.loader.exec_module(module)
            break
    sys.argv = [os.path.join(os.path.dirname(sys.modules["sloat_core"].__file__), "__main__.py"), *req["args"]]
    code = 0
    try:
        runpy.run_module("sloat_core", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF)


out = sys.stdout
for line in sys.stdin:
    req = json.loads(line)
    pid = os.fork()
    if pid == 0:
        try:
            child(req)
        finally:
            os._exit(1)
    out.write(json.dumps({"pid": pid}) + "\n")
    out.flush()
    _, status = os.waitpid(pid, 0)
    out.write(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}) + "\n")
    out.flush()
'''

_server: subprocess.Popen | None = None


def _stop() -> None:
    if _server is not None and _server.poll() is None:
        _server.stdin.close()
        try:
            _server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            _server.kill()


def _start() -> subprocess.Popen:
    global _server
    if _server is None or _server.poll() is not None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}  # nothing into the tree
        _server = subprocess.Popen([sys.executable, "-c", _SERVER, *PRELOAD, "--layers", *map(str, PRELOAD_LAYERS)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=env, cwd=ROOT)
        _answers.clear()
        atexit.register(_stop)
    return _server


_answers = bytearray()  # what the server has written and no answer has taken yet


def _read_line(server: subprocess.Popen, deadline: float | None) -> dict | None:
    """The server's next answer (one JSON line), or None when ``deadline`` (a time.monotonic()) passes first. Read
    from the pipe's descriptor into our own buffer: a buffered reader could hold the next answer where select does
    not see it."""
    while b"\n" not in _answers:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([server.stdout], [], [], wait)
        if not ready:
            return None
        chunk = os.read(server.stdout.fileno(), 65536)
        if not chunk:
            raise RuntimeError("the fork server stopped")
        _answers.extend(chunk)
    end = _answers.index(b"\n")
    line = bytes(_answers[:end])
    del _answers[:end + 1]
    return json.loads(line)


def run(args, *, cwd: Path | str, env: dict[str, str], timeout: float,
        memory_limit_bytes: int | None = None) -> subprocess.CompletedProcess:
    """``python -m sloat_core ARGS`` in a forked child: as ``subprocess.run(..., capture_output=True, text=True,
    timeout=timeout)`` with ``preexec_fn`` setting RLIMIT_AS to ``memory_limit_bytes``."""
    args = [str(a) for a in args]
    server = _start()
    with tempfile.TemporaryDirectory(prefix="forked-cli-") as folder:
        stdout, stderr = Path(folder) / "stdout", Path(folder) / "stderr"
        request = {"args": args, "cwd": str(cwd), "env": dict(env), "stdout": str(stdout), "stderr": str(stderr),
                   "memory_limit": memory_limit_bytes or 0}
        data = memoryview((json.dumps(request) + "\n").encode("utf-8"))
        while data:
            data = data[server.stdin.write(data):]
        pid = _read_line(server, None)["pid"]
        done = _read_line(server, time.monotonic() + timeout)
        if done is None:
            os.kill(pid, signal.SIGKILL)
            _read_line(server, None)
            raise subprocess.TimeoutExpired(["python", "-m", "sloat_core", *args], timeout)
        return subprocess.CompletedProcess(["python", "-m", "sloat_core", *args], done["returncode"],
                                           _text(stdout), _text(stderr))


def _text(path: Path) -> str:
    """A captured stream as ``text=True`` reads it (UTF-8, universal newlines)."""
    return path.read_text(encoding="utf-8") if path.exists() else ""
