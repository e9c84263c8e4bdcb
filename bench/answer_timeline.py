"""Where the time between Enter in the finder and the answer on screen goes, in headless chromium.

For a few addresses (bench/app_bench.py's, each in a fresh browser context on a warm server started as
``make run`` does): the time to the net lot area on screen, when the websocket frames of the run arrived
(first, last, the largest), the front-end modules fetched after Enter and the main thread's long tasks
(with the frame they ran in). A diagnosis, not a target: ``make bench``'s browser section has the figure.

    .venv/bin/python bench/answer_timeline.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
import app_bench as ab  # noqa: E402

OBSERVE_JS = """() => { window.__lt = []; new PerformanceObserver(l => l.getEntries().forEach(e =>
  window.__lt.push([Math.round(e.startTime), Math.round(e.duration), e.name,
    (e.attribution || []).map(a => a.containerType + ':' + (a.containerSrc || '').split('?')[0]).join(',')])))
  .observe({type: 'longtask', buffered: false}); window.__t0 = performance.now(); }"""
LONG_TASKS_JS = "() => window.__lt.map(x => [x[0] - Math.round(window.__t0), x[1], x[2], x[3]])"
RESOURCES_JS = """() => performance.getEntriesByType('resource').filter(e => e.startTime > window.__t0)
  .map(e => [Math.round(e.startTime - window.__t0), Math.round(e.responseEnd - window.__t0),
             e.name.split('/').pop().slice(0, 60), e.decodedBodySize])"""


def main(n: int = 4) -> None:
    from playwright.sync_api import sync_playwright

    proc, base, t0 = ab._start_server()
    try:
        ab._wait_healthy(base, t0, 90)
        with sync_playwright() as p:
            browser = p.chromium.launch(**ab.launch_options())

            def fresh():
                return browser.new_context(viewport={"width": 1500, "height": 1000})

            warm = fresh()
            page = warm.new_page()
            page.goto(base + "/")
            page.wait_for_function(ab._MAP_DRAWN_JS, timeout=60_000)
            warm.close()
            for typed in ab._ADDRESSES[:n]:
                ctx = fresh()
                page = ctx.new_page()
                frames: list = []
                page.on("websocket", lambda ws, frames=frames: ws.on(
                    "framereceived", lambda payload: frames.append((time.perf_counter(), len(payload)))))
                page.goto(base + "/")
                page.wait_for_function(ab._MAP_DRAWN_JS, timeout=60_000)
                box = page.get_by_label("Tax parcel (SBL", exact=False)
                box.fill(typed)
                page.wait_for_timeout(300)
                page.evaluate(OBSERVE_JS)
                n0 = len(frames)
                t = time.perf_counter()
                box.press("Enter")
                page.wait_for_function(ab._ANSWER_JS, arg="", timeout=60_000)
                answer = time.perf_counter() - t
                page.wait_for_timeout(1500)
                got = [(round(ft - t, 3), size) for ft, size in frames[n0:]]
                biggest = sorted(got, key=lambda x: -x[1])[:3]
                print(f"{typed!r}: answer on screen {answer:.2f} s; {len(got)} frames, first {got[0][0] if got else None} s, "
                      f"last {got[-1][0] if got else None} s; largest (s, bytes) {biggest}")
                print("   modules fetched (start ms, end ms, file, bytes):", page.evaluate(RESOURCES_JS))
                print("   long tasks (start ms, ms, kind, frame):", page.evaluate(LONG_TASKS_JS))
                ctx.close()
            browser.close()
    finally:
        ab._stop_server(proc)


if __name__ == "__main__":
    main()
