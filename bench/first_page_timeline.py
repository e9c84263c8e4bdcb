"""What the renderer does before the first page's map frame exists, and the first map's cost in renderer CPU.

Each code tree given (``--root``, default this one) is served as ``make run`` does (``tools/serve.py``, warmed
by one page), and the first page is opened in fresh browser contexts (an empty cache, as on a first visit),
taking the trees in turn: A, B, A, B... so that a busy neighbour weighs on both alike. Per load:

* ``map_s``: opening the URL to the map drawn (``make bench``'s test, bench/app_bench.py ``_MAP_DRAWN_JS``);
* ``frame_s``: opening the URL to the map's frame put in the page (a MutationObserver from the first script);
* the renderer's main-thread CPU until the map is drawn, from the DevTools protocol's
  ``Performance.getMetrics`` (``TaskDuration``, ``ScriptDuration``, ``LayoutDuration``,
  ``RecalcStyleDuration``, in ms): less noisy than wall time on a shared machine;
* whether Streamlit's ``rehype-raw`` chunk (parse5, loaded for ``st.markdown(..., unsafe_allow_html=True)``)
  was fetched.

``--trace`` instead records one chromium trace per tree (CPU profile included) and prints where the main
thread's time went before the frame existed: by kind of task and by script (the CPU profile's self time).

    .venv/bin/python bench/first_page_timeline.py --root /tmp/base --root . -n 10
    .venv/bin/python bench/first_page_timeline.py --root . --trace

A diagnosis, not a target: ``make bench``'s browser section has the figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import app_bench as ab  # noqa: E402

#: Marks in the page's timeline: the first script, and the map's frame put in the page (main frame only).
INIT_JS = """(() => { if (window.top !== window) return;
  console.timeStamp('sloat-start');
  new MutationObserver((_, obs) => {
    if (document.querySelector('iframe[title="streamlit_folium.st_folium"], iframe[data-sloat-frame="map"]')) {
      window.__sloatFrameMade = performance.now(); console.timeStamp('sloat-frame'); obs.disconnect(); }
  }).observe(document, {childList: true, subtree: true});
})();"""
RESULT_JS = """() => ({frame: window.__sloatFrameMade, now: performance.now(),
  rehype: performance.getEntriesByType('resource').some(e => e.name.includes('/rehype-raw.')),
  chunks: performance.getEntriesByType('resource').filter(e => e.name.includes('/static/js/')).length})"""
METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


def _serve(root: Path) -> tuple[subprocess.Popen, str]:
    port = ab._free_port()
    cmd = [str(root / ".venv" / "bin" / "python"), str(root / "tools" / "serve.py"), "--server.port", str(port),
           "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    ab._wait_healthy(base, time.perf_counter(), 120)
    return proc, base


def _load(browser, base: str) -> dict:
    ctx = browser.new_context(viewport={"width": 1500, "height": 1000})
    try:
        page = ctx.new_page()
        page.add_init_script(INIT_JS)
        cdp = ctx.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
        t = time.perf_counter()
        page.goto(base + "/")
        page.wait_for_function(ab._MAP_DRAWN_JS, timeout=90_000, polling=20)
        wall = time.perf_counter() - t
        got = page.evaluate(RESULT_JS)
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        nav_ms = page.evaluate("() => performance.getEntriesByType('navigation')[0].startTime")
        return {"map_s": wall, "frame_s": (got["frame"] - nav_ms) / 1000 if got["frame"] else None,
                "rehype": got["rehype"], "chunks": got["chunks"],
                **{k: metrics.get(k, 0.0) * 1000 for k in METRICS}}
    finally:
        ctx.close()


def ab_runs(roots: list[Path], n: int) -> dict:
    from playwright.sync_api import sync_playwright

    servers = [_serve(r) for r in roots]
    rows: dict[str, list[dict]] = {str(r): [] for r in roots}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**ab.launch_options())
            try:
                for _, base in servers:  # warm each server (its first page), not counted
                    _load(browser, base)
                for i in range(n):
                    order = list(zip(roots, servers)) if i % 2 == 0 else list(zip(roots, servers))[::-1]
                    for root, (_, base) in order:
                        rows[str(root)].append(_load(browser, base))
            finally:
                browser.close()
    finally:
        for proc, _ in servers:
            ab._stop_server(proc)
    out = {}
    for root, runs in rows.items():
        med = {k: round(statistics.median(r[k] for r in runs), 3 if k.endswith("_s") else 1)
               for k in ("map_s", "frame_s", *METRICS)}
        out[root] = {"median": med, "rehype_loaded": sum(r["rehype"] for r in runs), "n": len(runs),
                     "chunks": statistics.median(r["chunks"] for r in runs),
                     "map_s": [round(r["map_s"], 3) for r in runs],
                     "TaskDuration": [round(r["TaskDuration"]) for r in runs]}
    return out


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink.user_timing",
                    "disabled-by-default-v8.cpu_profiler", "loading", "toplevel"]


def _main_thread(events: list[dict]) -> tuple[int, int, dict]:
    """(pid, tid) of the page's renderer main thread (the one that logged 'sloat-start'), and its marks."""
    marks: dict[str, float] = {}
    where = None
    for e in events:
        if e.get("name") == "TimeStamp":
            msg = (e.get("args", {}).get("data") or {}).get("message")
            if msg in ("sloat-start", "sloat-frame"):
                marks.setdefault(msg, e["ts"])
                where = where or (e["pid"], e["tid"])
    if where is None:
        raise RuntimeError("no 'sloat-start' mark in the trace")
    return where[0], where[1], marks


def _profile_self_time(events: list[dict], pid: int, tid: int, until: float) -> Counter:
    """Self time (ms) by script file name, from the V8 CPU profile's samples before ``until``."""
    nodes: dict[int, dict] = {}
    samples: list[tuple[float, int]] = []
    ts = None
    for e in events:
        if e.get("pid") != pid or e.get("name") not in ("Profile", "ProfileChunk"):
            continue
        data = e.get("args", {}).get("data", {})
        if e["name"] == "Profile":
            ts = data.get("startTime", ts)
            continue
        cpu = data.get("cpuProfile", {})
        for node in cpu.get("nodes", []):
            nodes[node["id"]] = node
        for sample, delta in zip(cpu.get("samples", []), data.get("timeDeltas", [])):
            ts = (ts or 0) + delta
            samples.append((ts, sample))
    by_file: Counter = Counter()
    for (t, node_id), (t_next, _) in zip(samples, samples[1:]):
        if t > until:
            break
        frame = nodes.get(node_id, {}).get("callFrame", {})
        name = frame.get("url", "").rsplit("/", 1)[-1] or frame.get("functionName") or "?"
        by_file[name] += (t_next - t) / 1000
    return by_file


def trace_run(root: Path, out: Path | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    proc, base = _serve(root)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**ab.launch_options())
            try:
                _load(browser, base)
                ctx = browser.new_context(viewport={"width": 1500, "height": 1000})
                page = ctx.new_page()
                page.add_init_script(INIT_JS)
                browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
                page.goto(base + "/")
                page.wait_for_function(ab._MAP_DRAWN_JS, timeout=90_000, polling=20)
                raw = browser.stop_tracing()
                ctx.close()
            finally:
                browser.close()
    finally:
        ab._stop_server(proc)
    if out:
        out.write_bytes(raw)
    events = json.loads(raw)["traceEvents"]
    pid, tid, marks = _main_thread(events)
    start, frame = marks["sloat-start"], marks.get("sloat-frame", float("inf"))
    kinds: Counter = Counter()
    urls: Counter = Counter()
    busy = 0.0
    for e in events:
        if e.get("pid") != pid or e.get("tid") != tid or e.get("ph") != "X" or not (start <= e["ts"] < frame):
            continue
        dur = e.get("dur", 0) / 1000
        if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask"):
            busy += dur
        elif e["name"] in ("EvaluateScript", "v8.compile", "v8.compileModule", "v8.evaluateModule", "FunctionCall",
                           "ParseHTML", "Layout", "UpdateLayoutTree", "Paint", "MajorGC", "MinorGC",
                           "V8.GC_SCAVENGER", "ParseAuthorStyleSheet", "TimerFire", "EventDispatch",
                           "FireAnimationFrame", "RunMicrotasks", "v8.run"):
            kinds[e["name"]] += dur
            url = ((e.get("args", {}).get("data") or {}).get("url") or "").rsplit("/", 1)[-1]
            if url and e["name"] in ("EvaluateScript", "v8.compileModule", "v8.evaluateModule", "v8.compile"):
                urls[f"{e['name']} {url}"] += dur
    profile = _profile_self_time(events, pid, tid, frame)
    return {"frame_ms_after_first_script": round((frame - start) / 1000),
            "main_thread_busy_before_frame_ms": round(busy),
            "by_kind_ms (nested: overlapping)": {k: round(v) for k, v in kinds.most_common(14)},
            "compile_evaluate_by_file_ms": {k: round(v, 1) for k, v in urls.most_common(12)},
            "cpu_profile_self_ms_by_file": {k: round(v, 1) for k, v in profile.most_common(16)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", action="append", type=Path, help="a code tree to serve (repeat for A/B)")
    parser.add_argument("-n", type=int, default=10, help="loads per tree, alternated")
    parser.add_argument("--trace", action="store_true", help="one traced load per tree: what runs before the frame")
    parser.add_argument("--save-trace", type=Path, help="with --trace and one root: keep the trace's JSON here")
    args = parser.parse_args()
    roots = [r.resolve() for r in (args.root or [ROOT])]
    if args.trace:
        for root in roots:
            print(root, json.dumps(trace_run(root, args.save_trace), indent=1))
        return
    for root, res in ab_runs(roots, args.n).items():
        print(root, json.dumps(res))


if __name__ == "__main__":
    main()
