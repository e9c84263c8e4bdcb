"""deploy/install.sh and deploy/upgrade.sh as root runs them, on a fresh Debian 12 host with systemd as PID 1.

The host is a container: ``debootstrap`` (a minimal bookworm) booted by ``systemd-nspawn -b``, so systemd,
the journal, ``systemctl enable --now``, the units' sandboxing (``User=``, ``ProtectSystem=``, ``MemoryMax=``),
Debian's nginx, ``adduser`` and ``apt-get`` are the real ones. It shares this machine's network (apt, PyPI and
the npm registry are reached as a Village host reaches them), so nginx answers on this machine's port 80 and the
app processes on 8501 and 8502: those must be free.

The checkout installed is this working tree's tracked files (what ``git ls-files`` lists, as they are on disk),
copied to ``/opt/sloat-dashboard`` in the container. Root's umask there is 027, a hardened host's: the
first end-to-end run (2026-12-04) found install.sh leaving the venv readable by root alone, so that no app
process could start.

Not in ``make test``: it downloads Debian's base system (cached in ``var/install-test/``) and every Python
package, about five minutes on this machine. ``make test-install`` runs it (README, *Running it for the
Village*); it needs root, ``debootstrap`` and ``systemd-nspawn`` (the target installs both).
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from st_protocol import Session  # noqa: E402

WORK = ROOT / "var" / "install-test"
BASE_TAR = WORK / "bookworm-base.tar"  # debootstrap's result, kept for the next run
HOST = WORK / "root"
APP = "/opt/sloat-dashboard"
PORTS = (8501, 8502)
SERVER_NAME = "dashboard.sloatsburgny.gov"
#: What debootstrap adds to its minimal base: what a Debian 12 server has before install.sh runs.
BASE_PACKAGES = "systemd,systemd-sysv,dbus,ca-certificates,python3,python3-venv,make,adduser,procps"
MACHINE = "sloat-install-test"
MACHINE_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")

pytestmark = [pytest.mark.skipif(os.environ.get("SLOAT_INSTALL_TEST") != "1",
                                 reason="make test-install runs it (a Debian container booted with systemd: two to five minutes)"),
              pytest.mark.xdist_group("install")]


def _free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


class Container:
    """A booted container: ``run`` a shell command as root inside it (a clean environment, root's umask 027)."""

    def __init__(self, nspawn: subprocess.Popen, pid1: int, log: Path):
        self.nspawn, self.pid1, self.log = nspawn, pid1, log

    def run(self, command: str, *, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(
            ["nsenter", "-t", str(self.pid1), "-a", "env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
             "HOME=/root", "LANG=C.UTF-8", "sh", "-c", f"umask 027; {command}"],
            capture_output=True, text=True, timeout=timeout)
        if check:
            assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        return done

    def unit(self, name: str, prop: str) -> str:
        return self.run(f"systemctl show -p {prop} --value {name}").stdout.strip()


def _base_system() -> None:
    if BASE_TAR.exists():
        return
    stage = WORK / "base-stage"
    shutil.rmtree(stage, ignore_errors=True)
    subprocess.run(["debootstrap", "--variant=minbase", f"--include={BASE_PACKAGES}", "bookworm", str(stage),
                    "http://deb.debian.org/debian"], check=True, capture_output=True, timeout=900)
    with tarfile.open(BASE_TAR.with_suffix(".part"), "w") as tar:
        tar.add(stage, arcname=".")
    BASE_TAR.with_suffix(".part").rename(BASE_TAR)
    shutil.rmtree(stage)


def _checkout_into(target: Path) -> None:
    """This working tree's tracked files, as on disk, into ``target`` (what `git clone` of it would give)."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    target.mkdir(parents=True)
    for name in filter(None, names.decode().split("\0")):
        src = ROOT / name
        if src.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / name)


@pytest.fixture(scope="module")
def host():
    if os.geteuid() != 0 or not shutil.which("debootstrap") or not shutil.which("systemd-nspawn"):
        pytest.fail("make test-install needs root, debootstrap and systemd-nspawn (the target installs them)")
    busy = [p for p in (80, *PORTS) if not _free(p)]
    assert not busy, f"ports {busy} are in use on this machine: the container's nginx and app processes need them"
    WORK.mkdir(parents=True, exist_ok=True)
    _base_system()
    shutil.rmtree(HOST, ignore_errors=True)
    HOST.mkdir()
    with tarfile.open(BASE_TAR) as tar:
        tar.extractall(HOST, filter="fully_trusted")  # our own debootstrap's tree: device nodes and owners kept
    (HOST / "etc" / "hostname").write_text("sloat-host\n")
    # This machine reaches the registries through a TLS-inspecting proxy whose authority is in its own trust
    # store: the container trusts what this machine trusts, pip included (its own certifi bundle would refuse
    # it). A Village host on the open internet needs neither.
    shutil.copy(MACHINE_CA_BUNDLE, HOST / "etc" / "ssl" / "certs" / "ca-certificates.crt")
    (HOST / "etc" / "pip.conf").write_text("[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n")
    _checkout_into(HOST / APP.lstrip("/"))
    log = WORK / "nspawn.log"
    nspawn = subprocess.Popen(["systemd-nspawn", "-D", str(HOST), "-b", f"--machine={MACHINE}", "--register=no",
                               "--keep-unit", "--console=passive", "--resolv-conf=copy-host"],
                              stdout=log.open("w"), stderr=subprocess.STDOUT)
    try:
        pid1 = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and nspawn.poll() is None:
            kids = subprocess.run(["pgrep", "-P", str(nspawn.pid)], capture_output=True, text=True).stdout.split()
            if kids:
                pid1 = int(kids[0])
                state = subprocess.run(["nsenter", "-t", str(pid1), "-a", "systemctl", "is-system-running"],
                                       capture_output=True, text=True).stdout.strip()
                if state in ("running", "degraded"):
                    break
            time.sleep(1)
        else:
            pytest.fail(f"the container did not boot: {log.read_text()[-3000:]}")
        yield Container(nspawn, pid1, log)
    finally:
        nspawn.terminate()  # the container's systemd powers off
        try:
            nspawn.wait(timeout=60)
        except subprocess.TimeoutExpired:
            nspawn.kill()
            nspawn.wait()
        shutil.rmtree(HOST, ignore_errors=True)


def _pick(sbl: str) -> tuple[str, str | None]:
    """A resident through the Village's nginx on port 80: the first page, a tax parcel typed, the net lot area."""
    with Session("http://127.0.0.1:80", timeout_s=60) as s:
        first = s.open("/")
        run = s.type_into("Tax parcel (SBL", sbl)
        assert not first.exceptions() + run.exceptions()
        assert run.has_text(f"Tax parcel {sbl}")
        return run.metric("Net lot area"), s.http.cookies.get("sloat_route")


def _healthy(host: Container, port: int, within_s: float = 60) -> float:
    t0 = time.monotonic()
    while time.monotonic() - t0 < within_s:
        if host.run(f"curl -fs -m 2 -o /dev/null http://127.0.0.1:{port}/_stcore/health", check=False).returncode == 0:
            return time.monotonic() - t0
        time.sleep(0.5)
    raise AssertionError(f"port {port} not healthy within {within_s} s")


def test_install_on_a_fresh_host_with_a_hardened_umask_serves_residents_through_nginx(host):
    done = host.run(f"cd {APP} && deploy/install.sh --ports {','.join(map(str, PORTS))} --server-name {SERVER_NAME}",
                    timeout=1200)
    assert "install: the dashboard answers on port 80" in done.stdout
    for port in PORTS:
        assert host.unit(f"sloat-dashboard@{port}.service", "ActiveState") == "active"
        assert host.unit(f"sloat-dashboard@{port}.service", "User") == "sloat"
        _healthy(host, port)
    for unit in ("sloat-dashboard.target", "nginx.service", "sloat-backup.timer", "sloat-refresh.timer",
                 "sloat-health.timer", "sloat-answers.timer", "sloat-answers.path"):
        assert host.unit(unit, "ActiveState") == "active", unit
        assert host.unit(unit, "UnitFileState") == "enabled", unit
    # the shared secret is root's and the service group's alone; the code and its venv are readable by the service
    assert host.run("stat -c '%a %U %G' /etc/sloat-dashboard/env").stdout.split() == ["640", "root", "sloat"]
    assert host.run("stat -c '%a %U' /var/lib/sloat-dashboard").stdout.split() == ["750", "sloat"]
    host.run(f"su -s /bin/sh sloat -c 'cd {APP} && .venv/bin/python -c \"import sloat_core, streamlit\"'")
    secret = host.run("grep -c '^STREAMLIT_SERVER_COOKIE_SECRET=.\\{40,\\}' /etc/sloat-dashboard/env").stdout
    assert secret.strip() == "1"
    # the answers worked out ahead at install, by their unit
    answers = host.run("journalctl --no-pager -u sloat-answers", timeout=30).stdout
    assert re.search(r"1,294 tax-parcel answers worked out ahead", answers) or \
        host.unit("sloat-answers.service", "ActiveState") in ("activating", "active")
    assert host.run(f"curl -fs -o /dev/null -w '%{{http_code}}' -H 'Host: {SERVER_NAME}' "
                    "http://127.0.0.1/_stcore/health").stdout == "200"
    net, route = _pick("156.07-2-53")
    assert re.fullmatch(r"[\d,]+", net) and int(net.replace(",", "")) > 0
    assert route in {f"127.0.0.1:{p}" for p in PORTS}  # nginx's affinity cookie
    # The journal holds the processes' logs, and no traceback from that session.
    journal = host.run("journalctl --no-pager -u 'sloat-dashboard@*'", timeout=30).stdout
    assert "Traceback" not in journal


def test_a_second_install_keeps_the_cookie_secret_the_ports_and_the_server_name(host):
    before = host.run("sha256sum /etc/sloat-dashboard/env").stdout
    host.run(f"cd {APP} && deploy/install.sh", timeout=600)  # no options: deploy.conf's are kept
    assert host.run("sha256sum /etc/sloat-dashboard/env").stdout == before
    site = host.run("cat /etc/nginx/sites-enabled/sloat-dashboard.conf").stdout
    assert f"server_name {SERVER_NAME};" in site
    assert all(f"127.0.0.1:{p}" in site for p in PORTS)
    for port in PORTS:
        _healthy(host, port)


def test_upgrade_backs_up_migrates_once_and_restarts_each_process_in_turn(host):
    _pick("156.11-1-8")  # a resident's case, saved as it is made
    pids = {p: host.unit(f"sloat-dashboard@{p}.service", "MainPID") for p in PORTS}
    done = host.run(f"cd {APP} && deploy/upgrade.sh", timeout=900)
    out = done.stdout + done.stderr
    assert re.search(r"backup: /var/lib/sloat-dashboard/backups/cases-\S+\.sqlite3 \([1-9]\d* cases?,", out), out
    assert "nothing to do" in out  # the schema was migrated once, at install
    assert [line for line in out.splitlines() if line.startswith("restart: ")] == \
        [f"restart: sloat-dashboard@{p}.service is back" for p in PORTS]  # one at a time, in order
    assert "curl:" not in out  # the rolling restart waits quietly
    for port in PORTS:
        assert host.unit(f"sloat-dashboard@{port}.service", "MainPID") != pids[port]
        _healthy(host, port)
    net, _ = _pick("155.10-7-2")
    assert int(net.replace(",", "")) > 0
    copies = host.run("ls /var/lib/sloat-dashboard/backups/").stdout.split()
    assert copies and all(c.startswith("cases-") for c in copies)
    integrity = host.run(f"sqlite3 /var/lib/sloat-dashboard/backups/{copies[-1]} 'PRAGMA integrity_check'").stdout
    assert integrity.strip() == "ok"


def test_a_process_killed_is_started_again_by_systemd_and_the_other_is_left_alone(host):
    victim, other = PORTS
    other_pid = host.unit(f"sloat-dashboard@{other}.service", "MainPID")
    restarts = int(host.unit(f"sloat-dashboard@{victim}.service", "NRestarts"))
    pid = int(host.unit(f"sloat-dashboard@{victim}.service", "MainPID"))
    assert pid > 1  # never `kill -9 0`: that is this test's own process group
    host.run(f"kill -9 {pid}")
    took = _healthy(host, victim, within_s=30)
    assert int(host.unit(f"sloat-dashboard@{victim}.service", "NRestarts")) == restarts + 1
    assert host.unit(f"sloat-dashboard@{other}.service", "MainPID") == other_pid
    assert took < 30
    net, _ = _pick("156.07-2-53")
    assert int(net.replace(",", "")) > 0
    journal = host.run(f"journalctl --no-pager -u sloat-dashboard@{victim}", timeout=30).stdout
    assert "status=9/KILL" in journal  # the death and the restart are in the journal, for whoever looks
