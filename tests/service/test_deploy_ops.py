"""The service's housekeeping scripts (deploy/): backup, restore, schema migration, layer refresh.

Each runs as the timer or the operator runs it (a process of its own with the unit's environment
variables; the Python ones forked from a server that has imported the libraries, tests/served_app.py) on a
real SQLite case store or real layer sets in a temporary data folder. restore.sh's ``systemctl stop/start``
is replaced by ``true`` through its ``SYSTEMCTL`` variable: no app process runs here
(tests/service/test_deploy.py runs the stack).
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
import app_fixtures as fx  # noqa: E402
from served_app import spawn  # noqa: E402

from sloat_core.store import CaseNotFound, CaseStore  # noqa: E402
from sloat_core.store.sqlite import MIGRATIONS, SCHEMA_VERSION  # noqa: E402

pytestmark = pytest.mark.xdist_group("deploy")


def _run(script: str, *args: str, env: dict, check: bool = True) -> subprocess.CompletedProcess:
    """The script as the timer or the operator runs it; a Python script (``python deploy/SCRIPT ARGS``) forked from
    tests/served_app.py's server, which has imported geopandas and the engine (a second a run less)."""
    env = {**os.environ, **env}
    if script.endswith(".sh"):
        done = subprocess.run([str(DEPLOY / script), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
    else:
        cmd = [sys.executable, str(DEPLOY / script), *args]
        with tempfile.TemporaryDirectory(prefix="deploy-ops-") as folder:
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            proc = spawn(cmd, cwd=ROOT, env=env, stdout=out, stderr=err)
            try:
                code = proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                raise
            done = subprocess.CompletedProcess(cmd, code, out.read_text(), err.read_text())
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture()
def data(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


def _case(store: CaseStore, title: str):
    return store.new_case(title=title, notes=f"notes of {title}")


def test_backup_copies_a_consistent_database_while_it_is_written_and_keeps_the_newest(data):
    store = CaseStore(data)
    first = _case(store, "before the backups")
    stop = threading.Event()

    def writer():  # the app keeps saving while the backup runs
        s = CaseStore(data)
        case = _case(s, "written during the backup")
        while not stop.is_set():
            s.save(case)
        s.close()

    t = threading.Thread(target=writer)
    t.start()
    try:
        env = {"SLOAT_DATA_DIR": str(data), "SLOAT_BACKUP_KEEP": "2"}
        outputs = []
        for _ in range(3):
            outputs.append(_run("backup.sh", env=env).stdout)
            os.utime(data, None)
    finally:
        stop.set()
        t.join()
    copies = sorted((data / "backups").glob("cases-*.sqlite3"))
    assert len(copies) == 2, outputs  # three made, the newest two kept (names are seconds apart or equal)
    with sqlite3.connect(f"file:{copies[-1]}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        ids = {r[0] for r in conn.execute("SELECT id FROM cases")}
    assert first.id in ids
    assert re.search(r"\([12] cases?, \d+ bytes\); 2 copies kept$", outputs[-1].strip()), outputs
    assert "; 1 copy kept" in outputs[0]  # the words follow the counts


def test_a_backup_of_one_case_says_one_case(data):
    _case(CaseStore(data), "the only one")
    out = _run("backup.sh", env={"SLOAT_DATA_DIR": str(data)}).stdout
    assert re.search(r"\(1 case, \d+ bytes\); 1 copy kept$", out.strip()), out


def test_restore_puts_a_backup_back_keeps_the_current_one_aside_and_refuses_a_bad_copy(data, tmp_path):
    store = CaseStore(data)
    kept = _case(store, "kept")
    env = {"SLOAT_DATA_DIR": str(data), "SYSTEMCTL": "true"}
    _run("backup.sh", env=env)
    (copy,) = (data / "backups").glob("cases-*.sqlite3")
    later = _case(store, "after the backup")
    kept.notes = "changed after the backup"
    store.save(kept)
    store.close()

    garbage = tmp_path / "not-a-database.sqlite3"
    garbage.write_text("hello")
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    before = (data / "cases.sqlite3").read_bytes()
    for bad in (garbage, empty, tmp_path / "missing.sqlite3"):
        refused = _run("restore.sh", str(bad), env=env, check=False)
        assert refused.returncode != 0 and "nothing changed" in refused.stderr + refused.stdout or not bad.exists()
        assert (data / "cases.sqlite3").read_bytes() == before

    done = _run("restore.sh", str(copy), env=env)
    assert "now holds 1 cases" in done.stdout
    assert list(data.glob("cases.sqlite3.before-restore-*")), "the replaced database was not kept"
    restored = CaseStore(data)
    assert restored.open_case(kept.id).notes == "notes of kept"
    with pytest.raises(CaseNotFound):
        restored.open_case(later.id)


def test_migrate_runs_each_step_once_and_a_newer_store_is_refused(data):
    db = data / "cases.sqlite3"
    with sqlite3.connect(db) as conn:  # a store from the first version of the schema
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
    env = {"SLOAT_DATA_DIR": str(data)}
    first = _run("migrate.py", env=env)
    assert f"from schema version 1 to {SCHEMA_VERSION}" in first.stdout
    again = _run("migrate.py", env=env)
    assert "nothing to do" in again.stdout
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    refused = _run("migrate.py", env=env, check=False)
    assert refused.returncode == 1 and "newer version" in refused.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1  # left as it was


def _layer_set(folder: Path, extra_parcel: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    manifest = fx.write_layerset(folder)
    if extra_parcel:
        import geopandas as gpd
        from shapely.geometry import box

        from sloat_core.units import WORK_CRS

        gdf = gpd.read_file(folder / "parcels.gpkg", layer="parcels")
        more = gpd.GeoDataFrame({"SBL": ["156.14-1-25"], "ADDRESS": ["5 Test Road"], "ZONE": ["R-15"]},
                                geometry=[box(fx.X0 + 700, fx.Y0, fx.X0 + 800, fx.Y0 + 100)], crs=WORK_CRS)
        gpd.GeoDataFrame(pd_concat([gdf, more]), crs=WORK_CRS).to_file(folder / "parcels.gpkg", layer="parcels",
                                                                      driver="GPKG")
    return manifest


def pd_concat(frames):
    import pandas as pd

    return pd.concat(frames, ignore_index=True)


def test_the_layer_report_says_what_changed_and_refuses_a_set_that_does_not_load(tmp_path):
    old = _layer_set(tmp_path / "old")
    same = _layer_set(tmp_path / "same")
    new = _layer_set(tmp_path / "new", extra_parcel=True)
    changed = _run("layer_report.py", str(old), str(new), env={}, check=False)
    assert changed.returncode == 0, changed.stdout + changed.stderr
    assert "parcels: changed (2 -> 3 features)" in changed.stdout and "wetlands: unchanged" in changed.stdout
    unchanged = _run("layer_report.py", str(old), str(same), env={}, check=False)
    assert unchanged.returncode == 3 and "Nothing changed." in unchanged.stdout
    broken = tmp_path / "broken"
    shutil.copytree(tmp_path / "new", broken)
    (broken / "parcels.gpkg").write_bytes(b"not a geopackage")
    refused = _run("layer_report.py", str(old), str(broken / "layers.yaml"), env={}, check=False)
    assert refused.returncode == 1 and "keeps the old one" in refused.stdout


def test_the_refresh_fetches_reports_and_switches_only_when_the_set_loads_and_differs(data, tmp_path):
    layers = data / "layers"
    layers.mkdir()
    _layer_set(layers / "set-19990101T000000Z")
    (layers / "current").symlink_to("set-19990101T000000Z")
    env = {"SLOAT_DATA_DIR": str(data), "SLOAT_PYTHON": sys.executable,
           # the recorded responses of the official services (tests/fixtures/official), no network
           "SLOAT_FETCH_ARGS": f"--replay {ROOT / 'tests' / 'fixtures' / 'official'}"}
    done = _run("refresh-layers.sh", env=env, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    # the fetch has no tax parcels (the county does not publish them): the office's are carried over
    assert "parcels: carried over" in done.stdout and "wetlands: changed" in done.stdout, done.stdout
    assert "now using" in done.stdout
    current = (layers / "current").resolve()
    assert current.name.startswith("set-2") and (current / "layers.yaml").exists()
    assert (layers / ".restart-needed").exists()
    from sloat_core.gis.layers import load_manifest

    assert len(load_manifest(current / "layers.yaml").get("parcels").gdf) == 2
    # the same fetch again: nothing changed, nothing switched
    (layers / ".restart-needed").unlink()
    again = _run("refresh-layers.sh", env=env, check=False)
    assert again.returncode == 0 and "nothing changed" in again.stdout.lower(), again.stdout + again.stderr
    assert (layers / "current").resolve() == current and not (layers / ".restart-needed").exists()


def test_the_rendered_units_pass_systemds_own_check(tmp_path):
    """``systemd-analyze verify``: every key known, every ExecStart an existing absolute path, timers valid."""
    sys.path.insert(0, str(DEPLOY))
    import render

    files = render.render(tmp_path, app_dir=str(ROOT), etc_dir=str(tmp_path), data_dir=str(tmp_path), user="root",
                          ports=[8501, 8502], listen="80", server_name="_")
    (tmp_path / "env").write_text("SLOAT_DATA_DIR=/tmp\n")
    instance = tmp_path / "sloat-dashboard@8501.service"
    shutil.copy(files["sloat-dashboard@.service"], instance)
    units = [instance] + [p for name, p in files.items() if name.endswith((".timer", ".target", ".path"))
                          or (name.endswith(".service") and "@" not in name)]
    assert len(units) == 11  # the instance, 4 other services, 4 timers, the settings watch, the target
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *map(str, units)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    problems = [line for line in (done.stdout + done.stderr).splitlines()
                if str(tmp_path) in line or "Unit " in line or "fatal" in line]
    assert done.returncode == 0 and not problems, done.stdout + done.stderr


def test_an_edited_setting_starts_the_answers_unit_by_watching_the_folder_the_app_reads_its_settings_from(tmp_path):
    """sloat-answers.path watches the folder of every settings file the answers are made from (local.yaml,
    state_law.yaml, lot_size_what_if.yaml, as the code names them), starts sloat-answers.service, and is
    installed and enabled by install.sh and upgrade.sh."""
    sys.path.insert(0, str(DEPLOY))
    import configparser

    import render

    from sloat_core.engine.prepared import _rule_paths
    from sloat_core.law.settings import SETTINGS_PATH

    files = render.render(tmp_path, app_dir=str(ROOT), etc_dir=str(tmp_path), data_dir=str(tmp_path), user="root",
                          ports=[8501], listen="80", server_name="_")
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read(files["sloat-answers.path"])
    watched = Path(unit["Path"]["PathChanged"])
    settings_files = [SETTINGS_PATH, _rule_paths()["state_law"], _rule_paths()["what_if"]]
    assert all(Path(f).resolve().parent == watched.resolve() for f in settings_files), (watched, settings_files)
    assert unit["Path"]["Unit"] == "sloat-answers.service" and "sloat-answers.service" in files
    assert unit["Install"]["WantedBy"] == "paths.target"
    for script in ("install.sh", "upgrade.sh"):
        text = (DEPLOY / script).read_text()
        assert '"$out"/*.path' in text and re.search(r"enable --now[^\n]*(\\\n[^\n]*)*sloat-answers\.path", text), script


def test_the_health_check_restarts_a_process_that_fails_twice_and_leaves_a_healthy_one(tmp_path):
    import http.server
    import socketserver

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            self.send_response(200 if self.path == "/_stcore/health" else 404)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = socketserver.TCPServer(("127.0.0.1", 0), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    healthy = server.server_address[1]
    with socketserver.TCPServer(("127.0.0.1", 0), Health) as gone:  # a port nothing answers on
        dead = gone.server_address[1]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "systemctl.calls"
    (bin_dir / "systemctl").write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    (bin_dir / "systemctl").chmod(0o755)
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "RUNTIME_DIRECTORY": str(tmp_path / "run")}
    try:
        first = _run("healthcheck.sh", str(healthy), str(dead), env=env)
        assert f"port {dead} did not answer" in first.stdout and not calls.exists()
        second = _run("healthcheck.sh", str(healthy), str(dead), env=env)
        assert "restarting" in second.stdout
        assert calls.read_text().split("\n")[:-1] == [f"restart sloat-dashboard@{dead}.service"]
    finally:
        server.shutdown()
        server.server_close()


def test_the_rolling_restart_restarts_one_process_at_a_time_each_healthy_before_the_next(tmp_path):
    """deploy/rolling-restart.sh with stand-ins for ``systemctl`` (it lists two units and records each restart) and
    ``sleep`` on PATH, and two real health endpoints on loopback: a restarted process answers 503 for its first two
    health requests, as one starting up; the script waits for it before it restarts the next."""
    import http.server
    import socketserver

    events = tmp_path / "events"
    events.write_text("")
    starting: dict[int, int] = {}  # port -> health requests still to refuse
    lock = threading.Lock()

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the standard library's name)
            port = self.server.server_address[1]
            marker = tmp_path / f"restarted-{port}"
            with lock:
                if marker.exists():
                    marker.unlink()
                    starting[port] = 2
                busy = starting.get(port, 0) > 0
                if busy:
                    starting[port] -= 1
                with events.open("a") as log:
                    log.write(f"health {port} {503 if busy else 200}\n")
            self.send_response(503 if busy else 200)
            self.end_headers()

        def log_message(self, *args):
            pass

    servers = [socketserver.TCPServer(("127.0.0.1", 0), Health) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    ports = [s.server_address[1] for s in servers]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    units = "\\n".join(f"sloat-dashboard@{p}.service loaded active running Sloatsburg dashboard" for p in ports)
    (bin_dir / "systemctl").write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = list-units ]; then printf "{units}\\n"; exit 0; fi\n'
        f'if [ "$1" = restart ]; then echo "restart $2" >> {events}; p="${{2#sloat-dashboard@}}"; '
        f'touch "{tmp_path}/restarted-${{p%.service}}"; exit 0; fi\n'
        "exit 1\n")
    (bin_dir / "systemctl").chmod(0o755)
    # and a stand-in ``sleep`` that notes its pause and returns at once (the script's second between health
    # requests is for a real process starting up; here the order of the requests and pauses is the claim)
    (bin_dir / "sleep").write_text(f'#!/bin/sh\necho "sleep $1" >> {events}\n')
    (bin_dir / "sleep").chmod(0o755)
    try:
        done = _run("rolling-restart.sh", env={"PATH": f"{bin_dir}:{os.environ['PATH']}"})
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    lines = events.read_text().split("\n")[:-1]
    a, b = ports
    assert lines == [f"restart sloat-dashboard@{a}.service", f"health {a} 503", "sleep 1", f"health {a} 503", "sleep 1",
                     f"health {a} 200",
                     f"restart sloat-dashboard@{b}.service", f"health {b} 503", "sleep 1", f"health {b} 503", "sleep 1",
                     f"health {b} 200"]  # a pause after each refusal, none after the answer
    assert done.stdout.split("\n")[:-1] == [f"restart: sloat-dashboard@{a}.service is back",
                                            f"restart: sloat-dashboard@{b}.service is back"]
