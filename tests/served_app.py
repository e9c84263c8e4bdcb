"""The app as ``tools/serve.py`` serves it (``make run`` and the systemd unit start it so), on loopback, in a
process of its own that a test can stop and start again: for the protocol-level tests (tools/st_protocol.py).

Each start (:func:`spawn`: also the serving stack's app processes and its answers unit, tests/service/test_deploy.py)
is a new process, forked from a server (one per test process, started on first use) that has imported the
libraries an app process imports before it serves (Streamlit, folium, geopandas, the engine and the handout, as
``tools/serve.py``'s warm-up does): about two seconds of processor time a start, not paid again. Nothing else is
done there: no Streamlit option is read, no runtime or session started, no layer set read, no ``app_support``
module imported (a Streamlit component must be declared after the runtime starts). The child then runs as
``python SCRIPT ARGS`` (``python tools/serve.py ...``) or ``python -m MODULE ARGS`` (``python -m streamlit run
app.py ...``) would: its working directory, environment, ``sys.argv``, ``sys.path[0]``, file descriptors 0-2 (the
log), ``PYTHONUNBUFFERED``, ``PYTHONWARNINGS`` and ``PYTHONDONTWRITEBYTECODE`` are set, what the imports printed is
written first to its stderr, the script or module runs as ``__main__``, and the exit handlers run at its end. It
is a process of its own (its pid is the server's for the test: memory, signals, kill -9), Streamlit decides
everything it decides once per process in it, and the fork server reaps it and reports its exit status. Only the
interpreter's own start-up (the ``PYTHON*`` settings it reads then are the test process's) and the imports are
not repeated.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What an app process imports before it serves: Streamlit's server and command line, and what tools/serve.py's
#: warm-up imports (folium, the engine and its libraries, the handout and matplotlib with it). Not
#: ``app_support`` (its loaders are Streamlit cached functions, its map declares a component) nor
#: ``streamlit_folium``: those are imported by the app process itself.
PRELOAD = ("streamlit", "streamlit.web.cli", "streamlit.web.bootstrap", "streamlit.emojis", "folium",
           "folium.plugins", "geopandas", "pyogrio", "rasterio", "shapely", "pyproj", "sloat_core.engine.analysis",
           "sloat_core.outputs.handout")

_SERVER = r'''
import atexit, gc, importlib, io, json, os, runpy, select, signal, sys, tempfile, time, traceback, warnings

# What the imports print (a library's warning at import) is kept, and written at the start of each child's
# output, where a new interpreter would have written it.
with tempfile.TemporaryFile() as said:
    kept = os.dup(1), os.dup(2)
    os.dup2(said.fileno(), 1)
    os.dup2(said.fileno(), 2)
    try:
        for name in sys.argv[1:]:
            importlib.import_module(name)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(kept[0], 1)
        os.dup2(kept[1], 2)
        os.close(kept[0])
        os.close(kept[1])
    said.seek(0)
    PRELUDE = said.read()
# What the imports made lives as long as the process: moved out of the collector's generations, a child's
# collections do not walk it (nor copy its pages to write their marks), as tools/serve.py does after its warm-up.
gc.collect()
gc.freeze()


def child(req):
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for fd, path in ((1, req["stdout"]), (2, req["stderr"])):
        out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(out, fd)
        os.close(out)
    os.write(2, PRELUDE)
    os.chdir(req["cwd"])
    env = req["env"]
    os.environ.clear()
    os.environ.update(env)
    tempfile.tempdir = None  # found again from TMPDIR
    sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE"))
    if env.get("PYTHONUNBUFFERED"):  # as python -u: nothing held back in a buffer
        for name, fd in (("stdout", 1), ("stderr", 2)):
            old = getattr(sys, name)
            setattr(sys, name, io.TextIOWrapper(io.FileIO(fd, "w", closefd=False), encoding=old.encoding,
                                                errors=old.errors, write_through=True))
    warnings.resetwarnings()
    sys.warnoptions[:] = [o for o in env.get("PYTHONWARNINGS", "").split(",") if o]
    warnings._processoptions(sys.warnoptions)
    code = 0
    try:
        if req["module"]:  # python -m MODULE ARGS
            sys.argv = [req["module"], *req["args"]]
            sys.path[0] = req["cwd"]
            runpy.run_module(req["module"], run_name="__main__", alter_sys=True)
        else:  # python SCRIPT ARGS
            sys.argv = [req["script"], *req["args"]]
            sys.path[0] = os.path.dirname(os.path.abspath(req["script"]))
            runpy.run_path(req["script"], run_name="__main__")
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


def wait(pid, timeout):
    """The child's exit status once it has ended (reaped), or None if it is still running after ``timeout`` s."""
    if pid in codes:
        return codes[pid]
    fd = os.pidfd_open(pid)
    try:
        select.select([fd], [], [], None if timeout is None else max(0.0, timeout))
    finally:
        os.close(fd)
    done, status = os.waitpid(pid, os.WNOHANG)
    if not done:
        return None
    codes[pid] = os.waitstatus_to_exitcode(status)
    return codes[pid]


codes = {}
running = []
out = sys.stdout
try:
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "start":
            pid = os.fork()
            if pid == 0:
                try:
                    child(req)
                finally:
                    os._exit(1)
            running.append(pid)
            answer = {"pid": pid}
        else:
            answer = {"returncode": wait(req["pid"], req["timeout"])}
        out.write(json.dumps(answer) + "\n")
        out.flush()
finally:  # the test process is done (or gone): nothing it started is left running
    for pid in running:
        if wait(pid, 0) is None:
            os.kill(pid, signal.SIGTERM)
            if wait(pid, 15) is None:
                os.kill(pid, signal.SIGKILL)
                wait(pid, 10)
'''

_server: subprocess.Popen | None = None


def _stop_server() -> None:
    if _server is not None and _server.poll() is None:
        _server.stdin.close()
        try:
            _server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            _server.kill()
            _server.wait(timeout=10)


def _request(**request) -> dict:
    global _server
    if _server is None or _server.poll() is not None:
        _server = subprocess.Popen([sys.executable, "-c", _SERVER, *PRELOAD], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, bufsize=1, cwd=ROOT)
        atexit.register(_stop_server)
    _server.stdin.write(json.dumps(request) + "\n")
    _server.stdin.flush()
    line = _server.stdout.readline()
    if not line:
        raise RuntimeError("the app fork server stopped")
    return json.loads(line)


class ForkedProcess:
    """A command forked by the server (:func:`spawn`): what the tests use of ``subprocess.Popen``."""

    def __init__(self, args: list[str], *, module: str | None, script: str | None, cwd: Path, env: dict,
                 stdout: Path, stderr: Path):
        self.args = args
        self.pid = _request(op="start", module=module, script=script, args=args[3 if module else 2:], cwd=str(cwd),
                            env=dict(env), stdout=str(stdout), stderr=str(stderr))["pid"]
        self.returncode: int | None = None

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = _request(op="wait", pid=self.pid, timeout=timeout)["returncode"]
            if self.returncode is None:
                raise subprocess.TimeoutExpired(self.args, timeout)
        return self.returncode

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = _request(op="wait", pid=self.pid, timeout=0)["returncode"]
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:  # not reaped yet: the pid is still this process's
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def spawn(argv: list[str], *, cwd: Path, env: dict, stdout: Path, stderr: Path | None = None
          ) -> ForkedProcess | subprocess.Popen:
    """``subprocess.Popen(argv, cwd=cwd, env=env, stdout=<stdout>, stderr=<stderr or stdout>)`` (both files opened
    for appending): forked from the server when ``argv`` is this interpreter running a script (``python SCRIPT
    ARGS``) or a module (``python -m MODULE ARGS``), else started as it is."""
    stderr = stderr or stdout
    python = len(argv) > 1 and all(os.path.realpath(a) == os.path.realpath(b) for a, b in (
        (argv[0], sys.executable), (os.path.dirname(argv[0]), os.path.dirname(sys.executable))))  # and its venv
    if python and argv[1] == "-m" and len(argv) > 2:
        return ForkedProcess(argv, module=argv[2], script=None, cwd=cwd, env=env, stdout=stdout, stderr=stderr)
    if python and not argv[1].startswith("-"):
        return ForkedProcess(argv, module=None, script=argv[1], cwd=cwd, env=env, stdout=stdout, stderr=stderr)
    with open(stdout, "a") as out, open(stderr, "a") as err:
        return subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT if stderr == stdout
                                else err)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: What every test server is started with besides its port and the launcher's own settings (tools/serve.py's
#: SERVING_DEFAULTS): local only, headless, no telemetry, no file watcher (given again for a bare ``streamlit run``).
LOCAL_OPTIONS = ["--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
                 "--server.fileWatcherType", "none"]


class Launcher:
    """``tools/serve.py`` (as ``make run`` and the systemd unit start it), restartable; ``bare``: a plain
    ``streamlit run app.py`` with the same options (how anyone who skips the launcher starts it)."""

    def __init__(self, env: dict, log: Path, *, bare: bool = False):
        self.env, self.log_path, self.bare = env, log, bare
        self.proc: ForkedProcess | subprocess.Popen | None = None
        self.url = ""

    @classmethod
    def on_hand_built_layers(cls, folder: Path) -> "Launcher":
        """A launcher for the hand-built layer set of tests/app_fixtures.py, its data folder and log in ``folder``."""
        import app_fixtures as fx

        env = dict(os.environ, SLOAT_LAYERS=str(fx.write_layerset(folder)), SLOAT_DATA_DIR=str(folder / "data"))
        return cls(env, folder / "server.log")

    def start(self) -> str:
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        options = ["--server.port", str(port), *LOCAL_OPTIONS]
        start = [sys.executable, "-m", "streamlit", "run", "app.py"] if self.bare else [sys.executable, "tools/serve.py"]
        self.proc = spawn([*start, *options], cwd=ROOT, env=self.env, stdout=self.log_path)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, f"the server exited: {self.log_path.read_text()[-2000:]}"
            assert time.monotonic() < deadline, "the server did not become healthy within 60 s"
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return self.url
            except OSError:
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None
