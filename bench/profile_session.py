"""Where one session's server CPU goes: cProfile of every script run of the served app.

Starts the app as ``tools/serve.py`` does (one process, loopback, a fresh data folder with the tax parcels' answers
worked out ahead, ``python -m sloat_core prepare-answers``), with every
script run wrapped in cProfile in the script's own thread; then ``SESSIONS`` sessions one after
another at the protocol level (tools/st_protocol.py): open the first page, type a tax parcel's SBL
(a different sample parcel each time), read the net lot area. Prints the process CPU seconds per
session (/proc/PID/stat, the whole process: the script threads, the event loop, serialising; measured
over ``SESSIONS`` sessions without the profiler) and, from as many more sessions under cProfile, the
top functions by cumulative time over the script runs (the first ``WARM`` sessions are not counted).

    .venv/bin/python bench/profile_session.py [SESSIONS] [--top N] [--out FILE.prof]

With ``KEEP_PROF=DIR`` each profiled script run's own file is kept in DIR (run-0001.prof, ...: a session's first
page and its pick alternate), to read the first page and the pick apart.
"""

from __future__ import annotations

import argparse
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "deploy"))
sys.path.insert(0, str(ROOT / "bench"))

WARM = 3
HOOK = """
import cProfile, os, sys, threading
sys.path.insert(0, {tools!r})
from streamlit.runtime.scriptrunner import script_runner
_orig = script_runner.ScriptRunner._run_script
_n = [0]
_lock = threading.Lock()
def _run_script(self, rerun_data):
    if not os.path.exists(os.path.join({out!r}, "on")):
        return _orig(self, rerun_data)
    p = cProfile.Profile()
    p.enable()
    try:
        return _orig(self, rerun_data)
    finally:
        p.disable()
        with _lock:
            _n[0] += 1
            k = _n[0]
        p.dump_stats(os.path.join({out!r}, f"run-{{k:04d}}.prof"))
script_runner.ScriptRunner._run_script = _run_script
import serve
serve.main(sys.argv[1:])
"""


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_up(url: str, proc: subprocess.Popen, timeout_s: float = 90) -> None:
    import requests

    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("the app process exited")
        try:
            if requests.get(url + "/_stcore/health", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise RuntimeError("the app did not start")


def profile(sessions: int = 12, top: int = 40, out: str | None = None) -> dict:
    from load import _sbls
    from stack import free_port
    from st_protocol import Session

    sbls = _sbls(2 * sessions + WARM)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        prof_dir = Path(tmp) / "prof"
        prof_dir.mkdir()
        env = {**os.environ, "SLOAT_DATA_DIR": str(Path(tmp) / "data"), "PYTHONUNBUFFERED": "1"}
        # as the Village's host and bench/load.py run it: the tax parcels' answers worked out ahead first
        subprocess.run([sys.executable, "-m", "sloat_core", "prepare-answers"], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=600)
        code = HOOK.format(tools=str(ROOT / "tools"), out=str(prof_dir))
        proc = subprocess.Popen([sys.executable, "-c", code, "--server.port", str(port), "--server.address",
                                 "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_up(url, proc)

            def one(sbl: str) -> float:
                t0 = time.perf_counter()
                with Session(url, timeout_s=120) as s:
                    s.open("/")
                    run = s.type_into("Tax parcel (SBL", sbl)
                    run.metric("Net lot area")
                    if not run.has_text(f"Tax parcel {sbl}"):
                        raise RuntimeError(f"{sbl}: not shown its own parcel")
                return time.perf_counter() - t0

            for sbl in sbls[:WARM]:
                one(sbl)
            cpu0 = _cpu_s(proc.pid)  # the CPU a session costs, not profiled (cProfile's own cost left out)
            walls = [one(sbl) for sbl in sbls[WARM:WARM + sessions]]
            cpu = _cpu_s(proc.pid) - cpu0
            (prof_dir / "on").touch()
            for sbl in sbls[WARM + sessions:]:
                one(sbl)
            (prof_dir / "on").unlink()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        files = sorted(str(p) for p in prof_dir.glob("run-*.prof"))
        if os.environ.get("KEEP_PROF"):
            shutil.copytree(prof_dir, os.environ["KEEP_PROF"], dirs_exist_ok=True)
        stats = pstats.Stats(*files, stream=sys.stdout)
        if out:
            stats.dump_stats(out)
        script_s = sum(t for (_f, _l, name), (_cc, _nc, _tt, t, _c) in stats.stats.items()
                       if name == "_run_script")
    result = {"sessions": sessions, "process_cpu_s_per_session": round(cpu / sessions, 3),
              "script_s_per_session": round(script_s / sessions, 3), "runs": len(files),
              "wall_s_median": round(sorted(walls)[len(walls) // 2], 3), "stats": stats}
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sessions", nargs="?", type=int, default=12)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--out")
    ap.add_argument("--sort", default="cumulative")
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    res = profile(a.sessions, a.top, a.out)
    print(f"load average {os.getloadavg()[0]:.1f}; {res['sessions']} sessions ({res['runs']} script runs): "
          f"process CPU {res['process_cpu_s_per_session']:.3f} s a session, script runs "
          f"{res['script_s_per_session']:.3f} s a session (profiled), wall median {res['wall_s_median']:.2f} s")
    res["stats"].sort_stats(a.sort).print_stats(a.top)


if __name__ == "__main__":
    main()
