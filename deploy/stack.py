"""The Village's serving stack on loopback, for the serving test and the load bench.

``Stack(tmp).start()`` renders the deploy files (deploy/render.py) for this checkout with free ports
on 127.0.0.1, starts each app process from the rendered unit's own ``ExecStart`` (the ``%i`` instance
replaced by the port, with the unit's ``Environment=`` and ``EnvironmentFile=``), and starts Debian's
nginx on the rendered site. Only the file locations nginx writes to (pid, logs, temp folders) are
set in a small wrapper ``nginx.conf``, and the access log records which process served each request
(``$upstream_addr``) and the affinity route, so a test can tell where a session went.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import render  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
UNIT = "sloat-dashboard@.service"
ANSWERS_UNIT = "sloat-answers.service"
SITE = "sloat-dashboard.conf"
LOG_FORMAT = "log_format sloat_upstreams '$cookie_sloat_route|$upstream_addr|$request_method|$uri|$status';"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unit_service(unit_text: str) -> dict[str, list[str]]:
    """The ``[Service]`` section of a unit file: key -> values (a key may repeat)."""
    section, out = None, {}
    for raw in unit_text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]" and "=" in line:
            key, value = line.split("=", 1)
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def environment_file(path: Path) -> dict[str, str]:
    env = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            env[key.strip()] = value.strip().strip('"')
    return env


class Stack:
    """nginx and ``processes`` app processes, as deploy/ describes them, on 127.0.0.1."""

    def __init__(self, tmp: Path, *, processes: int = 2, layers: Path | None = None, env: dict | None = None,
                 answers: bool = False):
        self.tmp = Path(tmp)
        self.ports = [free_port() for _ in range(processes)]
        self.listen_port = free_port()
        self.url = f"http://127.0.0.1:{self.listen_port}"
        self.etc, self.data = self.tmp / "etc", self.tmp / "data"
        self.layers = layers
        self.extra_env = env or {}
        self.answers = answers  # work out the tax parcels' answers ahead first, as sloat-answers.service does
        self.apps: dict[int, subprocess.Popen] = {}
        self.nginx: subprocess.Popen | None = None
        self.files: dict[str, Path] = {}

    # -- files ----------------------------------------------------------------------------------
    def render(self) -> None:
        self.etc.mkdir(parents=True, exist_ok=True)
        self.data.mkdir(parents=True, exist_ok=True)
        self.files = render.render(self.tmp / "rendered", app_dir=str(ROOT), etc_dir=str(self.etc),
                                   data_dir=str(self.data), user="sloat", ports=self.ports,
                                   listen=f"127.0.0.1:{self.listen_port}", server_name="localhost")
        lines = [f"SLOAT_DATA_DIR={self.data}",
                 "STREAMLIT_SERVER_COOKIE_SECRET=loopback-test-secret-shared-by-every-process"]
        if self.layers:
            lines.append(f"SLOAT_LAYERS={self.layers}")
        (self.etc / "env").write_text("\n".join(lines) + "\n")

    def unit(self, name: str = UNIT) -> dict[str, list[str]]:
        return unit_service(self.files[name].read_text())

    def app_command(self, port: int) -> tuple[list[str], dict[str, str], Path]:
        """argv, environment and working folder of ``sloat-dashboard@PORT``, from the rendered unit."""
        return self.unit_command(UNIT, port)

    def unit_command(self, name: str, instance: int | None = None) -> tuple[list[str], dict[str, str], Path]:
        """argv, environment and working folder of the rendered unit ``name`` (``%i``: ``instance``)."""
        service = self.unit(name)
        (exec_start,) = service["ExecStart"]
        argv = shlex.split(exec_start.replace("%i", str(instance)) if instance is not None else exec_start)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLOAT_", "STREAMLIT_"))}
        for item in service.get("Environment", []):
            for pair in shlex.split(item):
                key, value = pair.split("=", 1)
                env[key] = value
        for path in service.get("EnvironmentFile", []):
            env.update(environment_file(Path(path.lstrip("-"))))
        env.update(self.extra_env)
        return argv, env, Path(service["WorkingDirectory"][0])

    def _nginx_conf(self) -> Path:
        ngx = self.tmp / "nginx"
        for sub in ("logs", "body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (ngx / sub).mkdir(parents=True, exist_ok=True)
        site = self.files[SITE].read_text()
        # only where the logs go: the Village's /var/log/nginx becomes this folder
        site, n = re.subn(r"access_log\s+/var/log/nginx/\S+;", f"access_log {ngx}/logs/access.log sloat_upstreams;",
                          site)
        assert n == 1, "the site has no access_log line"
        site = re.sub(r"error_log\s+/var/log/nginx/(\S+)", f"error_log {ngx}/logs/\\1", site)
        (ngx / SITE).write_text(site)
        user = "user root;\n" if os.geteuid() == 0 else ""
        conf = ngx / "nginx.conf"
        conf.write_text(
            f"{user}worker_processes 1;\npid {ngx}/nginx.pid;\nerror_log {ngx}/logs/error.log warn;\n"
            "daemon off;\nevents { worker_connections 1024; }\n"
            "http {\n"
            f"  {LOG_FORMAT}\n"
            f"  client_body_temp_path {ngx}/body;\n  proxy_temp_path {ngx}/proxy;\n"
            f"  fastcgi_temp_path {ngx}/fastcgi;\n  uwsgi_temp_path {ngx}/uwsgi;\n  scgi_temp_path {ngx}/scgi;\n"
            f"  include {ngx / SITE};\n"
            "}\n")
        return conf

    # -- processes ------------------------------------------------------------------------------
    def start_app(self, port: int) -> None:
        argv, env, cwd = self.app_command(port)
        log = open(self.tmp / f"app-{port}.log", "a")  # noqa: SIM115 (inherited by the child)
        self.apps[port] = subprocess.Popen(argv, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        log.close()

    def start(self, timeout_s: float = 90.0) -> "Stack":
        if not Path(NGINX).exists():
            raise RuntimeError("nginx is not installed: `make test` installs it (apt-get install nginx-light)")
        self.render()
        if self.answers:
            self.prepare_answers()
        for port in self.ports:
            self.start_app(port)
        conf = self._nginx_conf()
        check = subprocess.run([NGINX, "-t", "-c", str(conf), "-p", str(self.tmp / "nginx")],
                               capture_output=True, text=True, timeout=30)
        if check.returncode != 0:
            self.stop()
            raise RuntimeError(f"nginx -t refused the rendered site: {check.stderr}")
        self.nginx = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(self.tmp / "nginx")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for port in self.ports:
                self.wait_healthy(port, timeout_s)
            self.wait_url(self.url + "/_stcore/health", timeout_s)
        except BaseException:
            self.stop()
            raise
        return self

    def prepare_answers(self, timeout_s: float = 600.0) -> str:
        """Run ``sloat-answers.service``'s command (the tax parcels' answers for today); return what it printed."""
        argv, env, cwd = self.unit_command(ANSWERS_UNIT)
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout_s)
        if done.returncode != 0:
            raise RuntimeError(f"{ANSWERS_UNIT} failed: {done.stderr[-2000:]}")
        return done.stderr

    def wait_healthy(self, port: int, timeout_s: float = 90.0) -> None:
        proc = self.apps[port]
        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"app process {port} exited: {self.app_log(port)[-2000:]}")
            try:
                self.wait_url(f"http://127.0.0.1:{port}/_stcore/health", 0.5)
                return
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"app process {port} not healthy within {timeout_s:.0f} s") from None

    @staticmethod
    def wait_url(url: str, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not answer within {timeout_s:.1f} s")
            time.sleep(0.1)

    def kill(self, port: int) -> None:
        """kill -9 one app process (as a crash or the kernel's OOM killer would)."""
        proc = self.apps[port]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)

    def stop_app(self, port: int) -> None:
        proc = self.apps.get(port)
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
        for port in list(self.apps):
            self.stop_app(port)

    # -- what happened --------------------------------------------------------------------------
    def app_log(self, port: int) -> str:
        path = self.tmp / f"app-{port}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def access_log(self) -> list[dict]:
        """One dict per request nginx finished: the affinity cookie it came with (route), the process
        that answered (port, or None), method, uri, status."""
        path = self.tmp / "nginx" / "logs" / "access.log"
        rows = []
        for line in (path.read_text().splitlines() if path.exists() else []):
            parts = line.split("|")
            if len(parts) != 5:
                continue
            upstream = parts[1].split(",")[-1].strip()
            port = int(upstream.rsplit(":", 1)[1]) if ":" in upstream else None
            rows.append({"route": parts[0], "port": port, "method": parts[2], "uri": parts[3],
                         "status": int(parts[4])})
        return rows

    @staticmethod
    def port_of_route(route: str | None) -> int | None:
        """The app process an affinity cookie (``127.0.0.1:PORT``, set by nginx) names."""
        try:
            return int(str(route).rsplit(":", 1)[1])
        except (IndexError, ValueError):
            return None

    def __enter__(self) -> "Stack":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
