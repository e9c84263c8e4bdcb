"""The app as ``tools/serve.py`` serves it (``make run`` and the systemd unit start it so), on loopback, in a
process of its own that a test can stop and start again: for the protocol-level tests (tools/st_protocol.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Launcher:
    """``tools/serve.py`` (as ``make run`` and the systemd unit start it), restartable; ``bare``: a plain
    ``streamlit run app.py`` with the same options (how anyone who skips the launcher starts it)."""

    def __init__(self, env: dict, log: Path, *, bare: bool = False):
        self.env, self.log_path, self.bare = env, log, bare
        self.proc: subprocess.Popen | None = None
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
        self.log = open(self.log_path, "a")  # noqa: SIM115 (closed in stop)
        start = [sys.executable, "-m", "streamlit", "run", "app.py"] if self.bare else [sys.executable, "tools/serve.py"]
        self.proc = subprocess.Popen([*start, "--server.port", str(port),
                                      "--server.address", "127.0.0.1", "--server.headless", "true",
                                      "--server.fileWatcherType", "none"],
                                     cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
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
            self.log.close()
            self.proc = None
