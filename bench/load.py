"""Concurrent sessions through the Village's stack: nginx and two app processes (deploy/), on loopback.

Each session is one resident at the protocol level (tools/st_protocol.py, the browser's own
websocket messages): open the first page, type a tax parcel's SBL (a different sample parcel per
session, so no session is served from another's cache), read the net lot area. At 1, 5, 10 and 20
concurrent sessions (started together behind a barrier) it records each session's time from opening
the page to the figure, and each app process's CPU seconds (/proc/PID/stat) and resident memory
(VmRSS, and the peak VmHWM) over the level; the load generator's own CPU is reported too (it shares the
machine). Each session checks that it was shown its own parcel. Bounded: one pass per session, a
time-out on every answer.

``python bench/load.py`` prints the table; ``bench/run.py`` calls :func:`load_levels` (``make bench``).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "deploy"))
from st_protocol import Session  # noqa: E402
from stack import Stack  # noqa: E402

LEVELS = (1, 5, 10, 20)
#: Sessions measured per level. The single session is repeated 20 times, as many as the 20-session level has, so
#: both p95s (interpolated, :func:`_pct`) lie just above the second-slowest of 20. With 8 the one-session p95 lay
#: between the two slowest of 8, and the ratio moved from 5.5x to 8.4x in three runs on a quiet machine (2026-12-03).
SAMPLES = {1: 20, 5: 10, 10: 20, 20: 20}
MANIFEST = ROOT / "data" / "sample" / "layers.yaml"
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _mem_mb(pid: int) -> tuple[float, float]:
    vals = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            vals[line.split(":")[0]] = int(line.split()[1]) / 1024
    return round(vals.get("VmRSS", 0), 1), round(vals.get("VmHWM", 0), 1)


def _sbls(n: int) -> list[str]:
    """``n`` tax parcels spread over the sample, each with a unique SBL."""
    import geopandas as gpd
    import numpy as np

    from sloat_core.gis import parcels as parcel_input
    from sloat_core.gis.layers import load_manifest

    layers = load_manifest(MANIFEST)
    meta = layers.parcels_meta
    gdf: gpd.GeoDataFrame = layers.get("parcels").gdf
    sbls = [str(s) for s in gdf[meta.id_field]]
    out: list[str] = []
    for i in np.linspace(0, len(sbls) - 1, 4 * n).astype(int):  # typing the SBL finds exactly that parcel
        if sbls[i] not in out and len(parcel_input.search_parcels(layers, sbls[i], limit=10).matches) == 1:
            out.append(sbls[i])
    if len(out) < n:
        raise RuntimeError(f"only {len(out)} sample tax parcels have an SBL that finds them alone")
    return out[:n]


def _session(url: str, sbl: str, out: list, errors: list, barrier: threading.Barrier | None) -> None:
    try:
        if barrier is not None:
            barrier.wait(timeout=60)
        t0 = time.perf_counter()
        with Session(url, timeout_s=120) as s:
            first = s.open("/")
            t1 = time.perf_counter()
            run = s.type_into("Tax parcel (SBL", sbl)
            net = run.metric("Net lot area")
            t2 = time.perf_counter()
            if not run.has_text(f"Tax parcel {sbl}"):
                errors.append(f"{sbl}: the session was not shown its own parcel")
            if first.exceptions() or run.exceptions():
                errors.append(f"{sbl}: {first.exceptions() + run.exceptions()}")
        out.append({"total_s": t2 - t0, "first_page_s": t1 - t0, "pick_s": t2 - t1, "net": net})
    except Exception as exc:  # noqa: BLE001 (counted and reported, the level goes on)
        errors.append(f"{sbl}: {type(exc).__name__}: {exc}")


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def load_levels(levels=LEVELS, processes: int = 2) -> dict:
    """Run each level against a fresh loopback stack; return the numbers (see module docstring)."""
    total = sum(max(1, SAMPLES[n] // n) * n for n in levels) + 3 * processes
    sbls = iter(_sbls(total))
    results: dict = {"processes": processes, "levels": {}}
    with tempfile.TemporaryDirectory() as tmp:
        # as the Village runs it: the tax parcels' answers worked out ahead (sloat-answers.service) before the day
        stack = Stack(Path(tmp), processes=processes, layers=MANIFEST, answers=True)
        stack.start()
        try:
            for port in stack.ports:  # each process has drawn one first page and one pick (imports, map)
                warm: list = []
                for _ in range(3):
                    s = Session(f"http://127.0.0.1:{port}", timeout_s=120)
                    s.open("/")
                    s.type_into("Tax parcel (SBL", next(sbls, "x"))
                    s.close()
                    warm.append(1)
            for n in levels:
                pids = {port: stack.apps[port].pid for port in stack.ports}
                cpu0 = {p: _cpu_s(pid) for p, pid in pids.items()}
                me0 = resource.getrusage(resource.RUSAGE_SELF)
                out: list = []
                errors: list = []
                t0 = time.perf_counter()
                for _wave in range(max(1, SAMPLES[n] // n)):
                    barrier = threading.Barrier(n) if n > 1 else None
                    threads = [threading.Thread(target=_session, args=(stack.url, next(sbls), out, errors, barrier))
                               for _ in range(n)]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join(timeout=300)
                wall = time.perf_counter() - t0
                me1 = resource.getrusage(resource.RUSAGE_SELF)
                totals = [r["total_s"] for r in out]
                per_process = {}
                for port, pid in pids.items():
                    rss, hwm = _mem_mb(pid)
                    per_process[port] = {"cpu_s": round(_cpu_s(pid) - cpu0[port], 2), "rss_mb": rss, "peak_rss_mb": hwm}
                results["levels"][n] = {
                    "sessions": len(out), "errors": errors[:5], "error_count": len(errors),
                    "p50_s": round(_pct(totals, 50), 3), "p95_s": round(_pct(totals, 95), 3),
                    "max_s": round(max(totals), 3) if totals else None,
                    "first_page_p50_s": round(_pct([r["first_page_s"] for r in out], 50), 3),
                    "pick_p50_s": round(_pct([r["pick_s"] for r in out], 50), 3),
                    "wall_s": round(wall, 2), "per_process": per_process,
                    "server_cpu_s_per_session": round(sum(v["cpu_s"] for v in per_process.values())
                                                      / max(1, len(out)), 3),
                    "client_cpu_s": round(me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime, 2),
                }
        finally:
            stack.stop()
    one = results["levels"].get(1, {}).get("p95_s")
    top = results["levels"].get(max(levels), {}).get("p95_s")
    if one and top:
        results["p95_ratio_top_to_one"] = round(top / one, 2)
    results["cores"] = os.cpu_count()
    return results


def table(res: dict) -> str:
    lines = [f"   {res['processes']} app processes behind nginx, {res['cores']} cores; one session = first page, "
             "pick a tax parcel, read the net lot area",
             "   sessions   p50 s   p95 s   max s  (first page / pick p50)  server CPU s/session  per process: "
             "CPU s, RSS MB (peak)   load generator CPU s   errors"]
    for n, r in res["levels"].items():
        procs = "; ".join(f"{v['cpu_s']:.1f} s, {v['rss_mb']:.0f} ({v['peak_rss_mb']:.0f})"
                          for v in r["per_process"].values())
        lines.append(f"   {n:>8} {r['p50_s']:>7.2f} {r['p95_s']:>7.2f} {r['max_s'] or float('nan'):>7.2f}  "
                     f"({r['first_page_p50_s']:.2f} / {r['pick_p50_s']:.2f})"
                     f"{r['server_cpu_s_per_session']:>22.3f}  {procs}   {r['client_cpu_s']:>6.1f}   "
                     f"{r['error_count']}" + (f" {r['errors'][0]}" if r["errors"] else ""))
    if "p95_ratio_top_to_one" in res:
        lines.append(f"   p95 at {max(res['levels'])} sessions / p95 at 1: {res['p95_ratio_top_to_one']:.1f}x "
                     "(target <= 4x)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    levels = tuple(int(x) for x in sys.argv[1].split(",")) if len(sys.argv) > 1 else LEVELS
    res = load_levels(levels)
    print(table(res))
    print(json.dumps(res, indent=1, default=str) if "--json" in sys.argv else "")
    sys.exit(0 if statistics.mean([r["error_count"] for r in res["levels"].values()]) == 0 else 1)
