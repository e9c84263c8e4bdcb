"""What the 20:1 load target asks of a Streamlit page: the same load on a page that does almost nothing.

``bench/load.py`` times the dashboard. This times a trivial Streamlit page with the same shape of session
(a sidebar radio, a text box; typing in it shows one metric) under the same client (tools/st_protocol.py,
the browser's own websocket messages), two server processes started with the launcher's serving options,
sessions spread evenly over them and started together behind a barrier, as load.py starts them. Each script
run then burns ``BURN_MS`` of CPU in its own thread, for several values, so the table shows how the p95 at 20
sessions over the p95 of one grows with the server CPU a session costs: the calibration behind the README's
"c of about 50 ms" bound. Nothing here is the dashboard; it measures Streamlit and this machine.

    .venv/bin/python bench/protocol_floor.py [--burn-ms 0,10,20,30,50]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "deploy"))
sys.path.insert(0, str(ROOT / "bench"))
from load import LEVELS, SAMPLES, _cpu_s, _pct  # noqa: E402  (the same levels, samples, CPU and p95 as load.py)
from st_protocol import Session  # noqa: E402
from stack import Stack, free_port  # noqa: E402

PAGE = '''
import os, time
import streamlit as st
st.set_page_config(page_title="floor", layout="wide")
burn_s = float(os.environ["BURN_MS"]) / 1000
t0 = time.thread_time()
while time.thread_time() - t0 < burn_s:  # CPU in the script's own thread, as a page's work is
    pass
with st.sidebar:
    st.radio("Display mode", ["Standard", "Counter", "Projector"])
if st.text_input("Tax parcel (SBL or address)", key="q"):
    st.metric("Net lot area", "12,345 sq ft")
'''
#: CPU burned in each script run (two runs a session), ms: 0 is Streamlit's own cost.
BURNS_MS = (0, 10, 20, 30, 50)


def _session(url: str, i: int, out: list, barrier: threading.Barrier | None) -> None:
    if barrier is not None:
        barrier.wait()
    t0 = time.perf_counter()
    with Session(url, timeout_s=60) as s:
        s.open("/")
        s.type_into("Tax parcel", f"p{i}").metric("Net lot area")
    out.append(time.perf_counter() - t0)


def measure(burn_ms: float) -> dict:
    """p95 at 1, 5, 10, 20 sessions and the server CPU a session, on the trivial page burning ``burn_ms`` a run."""
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "floor.py"
        page.write_text(PAGE)
        env = {**os.environ, "BURN_MS": str(burn_ms)}
        procs, urls = [], []
        for _ in range(2):
            port = free_port()
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(page), "--server.port", str(port),
                 "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats",
                 "false", "--server.fileWatcherType", "none", "--runner.postScriptGC", "false"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            urls.append(f"http://127.0.0.1:{port}")
        try:
            for url in urls:
                Stack.wait_url(url + "/_stcore/health", 60)
            for i in range(4):  # the first runs compile the page and import what it uses
                _session(urls[i % 2], i, [], None)
            res = {"burn_ms_a_run": burn_ms}
            cpu0, sessions = sum(_cpu_s(p.pid) for p in procs), 0
            for n in LEVELS:
                out: list[float] = []
                reps = max(1, SAMPLES[n] // n)  # waves of n sessions, as load.py runs them
                for _ in range(reps):
                    barrier = threading.Barrier(n)
                    threads = [threading.Thread(target=_session, args=(urls[i % 2], i, out, barrier))
                               for i in range(n)]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join()
                sessions += n * reps
                res[f"p95_s_{n}"] = round(_pct(out, 95), 3)
                res[f"p50_s_{n}"] = round(statistics.median(out), 3)
            res["server_cpu_s_per_session"] = round((sum(_cpu_s(p.pid) for p in procs) - cpu0) / sessions, 3)
            res["ratio_20_to_1"] = round(res["p95_s_20"] / res["p95_s_1"], 1)
            return res
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    p.kill()


def table(rows: list[dict]) -> str:
    lines = ["   The same load on a trivial Streamlit page (sidebar radio, text box, one metric; bench/protocol_floor.py),",
             "   2 processes, sessions started together; each script run burns the CPU given:",
             "   burn ms/run   server CPU s/session   p95 s at 1 / 5 / 10 / 20   p95 20:1"]
    for r in rows:
        lines.append(f"   {r['burn_ms_a_run']:11.0f}   {r['server_cpu_s_per_session']:20.3f}   {r['p95_s_1']:.2f} / "
                     f"{r['p95_s_5']:.2f} / {r['p95_s_10']:.2f} / {r['p95_s_20']:.2f}   {r['ratio_20_to_1']:.1f}x")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--burn-ms", default=",".join(str(b) for b in BURNS_MS))
    burns = [float(b) for b in ap.parse_args().burn_ms.split(",")]
    print(table([measure(b) for b in burns]))


if __name__ == "__main__":
    main()
