"""The Village's serving stack on loopback: Debian's nginx in front of two app processes (deploy/).

deploy/stack.py renders deploy/ for this checkout (free ports on 127.0.0.1), starts each app process
from the rendered unit's own ExecStart (its Environment= and EnvironmentFile= too) and nginx on the
rendered site. Here the app processes and the answers unit run their ExecStart forked from a server that
has imported the libraries (tests/served_app.py: the same command, working folder, environment and log; a
process of its own, killed with kill -9 as a crash would; about 2 s of processor time less each). Sessions
go through the proxy at the protocol level (tools/st_protocol.py: the browser's own requests and websocket
messages). The app reads the hand-built layers of tests/app_fixtures.py: tax parcel P1 (40,000 sq ft, net
lot area at most 20,000), P2 (10,000 sq ft).

nginx's access log records which process served each request, so the tests can tell where a session
went and pick a browser that lands on the other process.
"""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
import sys
import time
import tomllib
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "deploy"))
import app_fixtures as fx  # noqa: E402
from served_app import spawn  # noqa: E402
from st_protocol import ProtocolError, Session  # noqa: E402
from stack import ANSWERS_UNIT, Stack  # noqa: E402

pytestmark = pytest.mark.xdist_group("deploy")

NET = "Net lot area"
UPLOADER = "Or upload a parcel outline"


class ForkedStack(Stack):
    """The stack, its units' commands forked from tests/served_app.py's server (:func:`served_app.spawn`)."""

    def start_app(self, port: int) -> None:
        argv, env, cwd = self.app_command(port)
        self.apps[port] = spawn(argv, cwd=cwd, env=env, stdout=self.tmp / f"app-{port}.log")

    def prepare_answers(self, timeout_s: float = 600.0) -> str:
        argv, env, cwd = self.unit_command(ANSWERS_UNIT)
        out, err = self.tmp / "answers.stdout", self.tmp / "answers.stderr"
        if spawn(argv, cwd=cwd, env=env, stdout=out, stderr=err).wait(timeout=timeout_s) != 0:
            raise RuntimeError(f"{ANSWERS_UNIT} failed: {err.read_text()[-2000:]}")
        return err.read_text()


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stack")
    manifest = fx.write_layerset(tmp)
    s = ForkedStack(tmp / "run", processes=2, layers=manifest, answers=True)  # sloat-answers.service first
    s.start()
    yield s
    s.stop()


def _open_on(stack: Stack, port: int | None, path: str = "/", tries: int = 24) -> Session:
    """A new browser through the proxy whose affinity route lands on ``port`` (any when None)."""
    for _ in range(tries):
        s = Session(stack.url)
        s.open(path)
        landed = stack.port_of_route(s.http.cookies.get("sloat_route"))  # set by nginx on the page
        if port is None or landed == port:
            s.port = landed
            return s
        s.close()
    raise AssertionError(f"no new browser landed on process {port} in {tries} tries")


def _pick(s: Session, sbl: str) -> str:
    run = s.type_into("Tax parcel (SBL", sbl)
    assert not run.exceptions(), run.exceptions()
    case = dict(p.split("=", 1) for p in s.query_string.split("&")).get("case")
    assert case, f"picking {sbl} made no case ({s.query_string})"
    return case


def _store_rows(stack: Stack) -> dict[str, int]:
    with sqlite3.connect(f"file:{stack.data / 'cases.sqlite3'}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return dict(conn.execute("SELECT id, revision FROM cases"))


def test_the_units_and_the_site_are_what_is_run(stack):
    service = stack.unit()
    (exec_start,) = service["ExecStart"]
    assert "tools/serve.py" in exec_start and "%i" in exec_start and "127.0.0.1" in exec_start
    assert service["Restart"] == ["always"] and service["EnvironmentFile"]
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        limit_mb = tomllib.load(f)["server"]["maxUploadSize"]
    site = stack.files["sloat-dashboard.conf"].read_text()
    # the app's own upload cap: maxUploadSize MB of file plus Streamlit's 1 MB of multipart framing
    assert f"client_max_body_size {limit_mb * 2**20 + 2**20};" in site
    for needle in ("proxy_set_header Upgrade $http_upgrade;", "least_conn;", "backup;",
                   "proxy_read_timeout 3600s;", "location = /_stcore/health"):
        assert needle in site
    target = stack.files["sloat-dashboard.target"].read_text()
    assert all(f"sloat-dashboard@{p}.service" in target for p in stack.ports)


def test_a_process_starts_with_nothing_in_its_log_to_worry_a_reader(stack):
    """The journal at every start: Streamlit's banner, no warning. The launcher's warm-up calls the cached loaders
    outside a script run, which Streamlit warns of three times ("No runtime found", "missing ScriptRunContext")."""
    for port in stack.ports:
        log = stack.app_log(port)
        assert f"URL: http://127.0.0.1:{port}" in log, log  # started, and said where
        assert not [line for line in log.splitlines() if re.search(r"\b(WARNING|ERROR|Traceback)\b", line)], log


def test_sessions_through_the_proxy_are_spread_and_each_stays_on_its_process(stack):
    seen = []  # each browser a new one (no cookie): least_conn shares them out
    for _ in range(8):
        with Session(stack.url) as s:
            s.open("/")
            run = s.type_into("Tax parcel (SBL", fx.P1_SBL)
            assert run.metric(NET).startswith("20,000")
            route = s.http.cookies.get("sloat_route")
        time.sleep(0.05)  # nginx logs the websocket once it is closed
        ports = {r["port"] for r in stack.access_log() if r["route"] == route and r["port"]}
        assert ports == {stack.port_of_route(route)}, f"one browser's requests went to {ports}, its cookie {route}"
        assert any(r["uri"] == "/_stcore/stream" for r in stack.access_log() if r["route"] == route)
        seen.append(ports.pop())
    counts = sorted(seen.count(p) for p in stack.ports)
    assert counts[0] >= 3, f"8 browsers one after another were not shared out evenly: {seen}"


def test_media_files_are_kept_by_the_browser_and_come_from_the_process_that_made_them(stack):
    """Streamlit's media (the map's layer files, downloads) are named by a hash of their bytes: through the proxy
    a file that was found is marked private and immutable (the next page load fetches nothing again), with the
    site's own headers still on it; a name no process made is a 404 that nothing keeps."""
    s = _open_on(stack, None)
    try:
        urls = [b.download_button.url for b in s.last.elements.values()
                if b.WhichOneof("type") == "download_button" and b.download_button.url.startswith("/media/")]
        assert urls, "the first page has no media file to ask for"
        r = s.http.get(stack.url + urls[0], timeout=30)
        assert r.status_code == 200
        cache = r.headers.get("Cache-Control", "")
        assert "private" in cache and "immutable" in cache and "max-age=31536000" in cache, cache
        assert r.headers.get("X-Content-Type-Options") == "nosniff"
        assert r.headers.get("Referrer-Policy") == "same-origin"
        route = s.http.cookies.get("sloat_route")
        time.sleep(0.05)
        served = {row["port"] for row in stack.access_log() if row["uri"] == urls[0] and row["route"] == route}
        assert served == {s.port}, f"{urls[0]} came from {served}, the session is on {s.port}"
        missing = s.http.get(stack.url + "/media/" + "0" * 56 + ".json", timeout=30)
        assert missing.status_code == 404
        assert "immutable" not in missing.headers.get("Cache-Control", "")
        assert missing.headers.get("X-Content-Type-Options") == "nosniff"
    finally:
        s.close()


def test_streamlits_scripts_reach_the_browser_compressed_and_unchanged(stack):
    """Streamlit serves its JavaScript uncompressed; through the proxy a browser that accepts gzip gets it gzipped
    (a fraction of the bytes on a phone), and it decodes to exactly what the process serves."""
    page = requests.get(stack.url + "/", timeout=30)
    scripts = re.findall(r'src="\./(static/js/[^"]+\.js)"', page.text)
    assert scripts, "the first page names no script"
    script = scripts[0]
    direct = requests.get(f"http://127.0.0.1:{stack.ports[0]}/{script}", headers={"Accept-Encoding": "identity"},
                          timeout=30)
    assert direct.headers.get("Content-Encoding") is None  # Streamlit's own answer: not compressed
    through = requests.get(f"{stack.url}/{script}", headers={"Accept-Encoding": "gzip"}, timeout=30, stream=True)
    wire = through.raw.read(decode_content=False)
    assert through.headers.get("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in through.headers.get("Vary", "")
    assert gzip.decompress(wire) == direct.content
    assert len(wire) < 0.6 * len(direct.content), (len(wire), len(direct.content))


def test_an_upload_goes_to_the_process_that_holds_the_session(stack):
    data = json.dumps({"type": "FeatureCollection", "features": [fx.wgs84_feature(fx.P2)]}).encode()
    with _open_on(stack, None) as s:
        other = next(p for p in stack.ports if p != s.port)
        put, run = s.upload(UPLOADER, "p2.geojson", data, "application/geo+json")
        assert put.status_code in (200, 204), put.text
        assert run.metric("Gross area").startswith("10,000") and not run.exceptions()
        time.sleep(0.05)
        puts = [r for r in stack.access_log() if r["method"] == "PUT" and r["route"] == s.http.cookies["sloat_route"]]
        assert puts and puts[-1]["port"] == s.port
        # the same upload sent to the other process, past the proxy: refused there (why affinity is needed)
        s.base = f"http://127.0.0.1:{other}"
        refused, _ = s.upload(UPLOADER, "p2.geojson", data, "application/geo+json")
        assert refused.status_code == 400 and "session" in refused.text.lower()


def test_the_proxy_refuses_a_body_over_the_apps_limit_before_any_process_sees_it(stack):
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        limit = tomllib.load(f)["server"]["maxUploadSize"] * 2**20 + 2**20
    url = stack.url + "/_stcore/upload_file/nobody/nothing"
    over = requests.put(url, data=b"x" * (limit + 1), timeout=60)
    assert over.status_code == 413
    at = requests.put(url, data=b"x" * limit, timeout=60)  # passed on: the app answers (no XSRF token)
    assert at.status_code != 413


def test_streamlit_itself_refuses_an_upload_over_its_limit_with_413(stack):
    """Past the proxy (straight to one app process, as if nginx were left out): Streamlit's own upload handler
    answers 413 for a file one byte over server.maxUploadSize, and nothing reaches the page; a file just
    under it is taken (and refused by the page in one sentence, not being GeoJSON)."""
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        limit = tomllib.load(f)["server"]["maxUploadSize"] * 2**20
    with Session(f"http://127.0.0.1:{stack.ports[0]}", timeout_s=120) as s:
        s.open("/")
        over, run = s.upload(UPLOADER, "big.geojson", b" " * (limit + 1), "application/geo+json")
        assert over.status_code == 413 and "too large" in over.text.lower() and run is None
        under, run = s.upload(UPLOADER, "big.geojson", b" " * (limit - 4096), "application/geo+json")
        assert under.status_code in (200, 204), under.text
        assert run is not None and not run.exceptions()


def test_every_process_shows_the_tax_parcels_answer_worked_out_ahead_by_the_answers_unit(stack):
    """sloat-answers.service's command (run by Stack before the processes start) wrote the day's answers; a pick
    through either process shows the stored answer: a marker put in its place (a new file, as the unit writes it)
    is what the residents see, then the true file is put back."""
    import json
    import os
    import shutil
    import zlib

    from sloat_core.engine.prepared import ANSWERS_FILE

    path = stack.data / ANSWERS_FILE
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        assert {sbl for (sbl,) in conn.execute("SELECT sbl FROM answers")} >= {fx.P1_SBL, fx.P2_SBL}
    saved = stack.tmp / "answers.true"
    shutil.copy2(path, saved)
    marked = stack.tmp / "answers.marked"
    shutil.copy2(path, marked)
    with sqlite3.connect(marked) as conn:
        key, blob = conn.execute("SELECT parcel_key, result FROM answers WHERE sbl = ?", (fx.P2_SBL,)).fetchone()
        result = json.loads(zlib.decompress(blob))
        result["net_lot_area_sqft"] = 1234.0
        conn.execute("UPDATE answers SET result = ? WHERE parcel_key = ?",
                     (zlib.compress(json.dumps(result).encode()), key))
    os.replace(marked, path)
    try:
        for port in stack.ports:
            with _open_on(stack, port) as s:
                run = s.type_into("Tax parcel (SBL", fx.P2_SBL)
                assert run.metric(NET).startswith("1,234"), (port, run.metric(NET))
    finally:
        os.replace(saved, path)
    with _open_on(stack, None) as s:
        assert not s.type_into("Tax parcel (SBL", fx.P2_SBL).metric(NET).startswith("1,234")


def test_a_case_saved_through_one_process_reopens_through_the_other(stack):
    with _open_on(stack, stack.ports[0]) as a:
        case = _pick(a, fx.P1_SBL)
    with _open_on(stack, stack.ports[1], f"/case?case={case}") as b:
        assert b.last.metric(NET).startswith("20,000")
        assert not b.last.has_text("Choose a parcel")


def test_one_process_killed_mid_session_leaves_the_others_sessions_and_the_cases_intact(stack):
    doomed, survivor = stack.ports
    a = _open_on(stack, doomed)
    b = _open_on(stack, survivor)
    try:
        case_a = _pick(a, fx.P1_SBL)
        case_b = _pick(b, fx.P1_SBL)
        saved = _store_rows(stack)
        stack.kill(doomed)  # kill -9, mid-session
        with pytest.raises(ProtocolError):
            a.type_into("Tax parcel (SBL", fx.P2_SBL)
        # the other process's session carries on, and saves
        run = b.type_into("Tax parcel (SBL", fx.P2_SBL)
        assert run.metric("Gross area").startswith("10,000") and not run.exceptions()
        # the killed process's visitor reloads: nginx sends the same browser to the survivor, the case is there
        a.close()
        again = Session(stack.url, http=a.http)
        run = again.open(f"/parcel?case={case_a}")
        assert run.metric("Gross area").startswith("40,000")
        again.close()
        rows = _store_rows(stack)
        assert rows[case_a] >= saved[case_a] and rows[case_b] > saved[case_b], "a saved revision was lost"
        # systemd's Restart=always brings it back from the same unit command
        stack.start_app(doomed)
        stack.wait_healthy(doomed)
    finally:
        a.close()
        b.close()


def test_one_address_sending_uploads_without_pause_is_slowed_at_the_proxy(stack):
    """60 a minute with bursts of 20 (deploy/nginx/sloat-dashboard.conf): a flood gets HTTP 429 from nginx."""
    statuses = [requests.put(stack.url + "/_stcore/upload_file/nobody/nothing", data=b"x", timeout=30).status_code
                for _ in range(40)]
    assert statuses.count(429) >= 15, statuses
    assert 429 not in statuses[:15], statuses  # the burst passes
