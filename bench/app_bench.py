"""App timings: a rerun after a drawing (AppTest), start to first usable page, resident memory.

* Rerun after a drawing: ``streamlit.testing`` AppTest of app.py on the sample layers, with
  ``streamlit_folium.st_folium`` patched to return a drawing (as tests/app/test_app_parcel.py does). Each
  timed ``at.run()`` gets a *new* drawing (shifted a few feet), so the analysis is computed, not read
  from the cache; the same drawing again (cached) is reported too.
* Start to first page: ``make run``'s command (``tools/serve.py``: ``streamlit run app.py`` after loading
  the layers) as a subprocess; time to ``/_stcore/health`` (when the URL is reported), to a ``GET /``,
  and to the page drawn in headless chromium (Playwright) with the Leaflet map drawn in its frame and
  the landing text shown, counted from when the browser opens the URL (the target: under 3 s). Also the time of the first AppTest run in a fresh process (server-side
  cost of the first page: imports, layers, map).
* Memory: VmRSS of the server process (from /proc) after the first page load in the browser.
* The first page's map payload (:func:`map_payload`): on the same server, a session at the protocol level
  (tools/st_protocol.py) opens the first page; the map component's element in the page's delta (its arguments:
  the base map's HTML and script, the feature groups' scripts, the links) in bytes as serialised on the
  websocket, and the layer files its script reads by link (app_support/linked_layers.py) fetched as the map's
  frame fetches them. The component's own bundle and Leaflet (static files the browser caches) are not counted.
"""

from __future__ import annotations

import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from unittest import mock
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from offline_chromium import CHROMIUM, launch_options  # noqa: E402  (offline as in a Board room, as the tests)

__all__ = ["rerun_times", "first_run_seconds", "server_start_and_rss", "browser_timings", "map_payload"]


def _drawing(dx_ft: float) -> dict:
    """A ~2-acre drawn parcel in the valley, shifted ``dx_ft`` east, as the map returns it (WGS84)."""
    import geopandas as gpd
    from shapely.geometry import box, mapping

    from sloat_core.units import WGS84, WORK_CRS

    x0, y0 = 577_600.0 + dx_ft, 848_200.0
    geom = box(x0, y0, x0 + 300, y0 + 290)
    g = gpd.GeoSeries([geom], crs=WORK_CRS).to_crs(WGS84).iloc[0]
    return json.loads(json.dumps({"type": "Feature", "properties": {}, "geometry": mapping(g)}))


def rerun_times(n: int = 7) -> dict:
    """Median server-side time of an AppTest rerun after a new drawing, and of a cached rerun."""
    from streamlit.testing.v1 import AppTest

    current = {"drawing": _drawing(0.0)}

    def fake_st_folium(*args, **kwargs):
        return {"all_drawings": [current["drawing"]]}

    with mock.patch("streamlit_folium.st_folium", side_effect=fake_st_folium):
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        t0 = time.perf_counter()
        at.run()
        first = time.perf_counter() - t0
        if at.exception:
            raise RuntimeError(f"The app raised: {at.exception}")
        new, cached = [], []
        for k in range(1, n + 1):
            current["drawing"] = _drawing(7.0 * k)
            t0 = time.perf_counter()
            at.run()
            new.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            at.run()
            cached.append(time.perf_counter() - t0)
        ok = any("Gross area" in m.label for m in at.metric)
    return {
        "apptest_first_run_with_drawing_s": round(first, 3),
        "rerun_new_drawing_median_ms": round(1000 * statistics.median(new), 1),
        "rerun_new_drawing_max_ms": round(1000 * max(new), 1),
        "rerun_same_drawing_median_ms": round(1000 * statistics.median(cached), 1),
        "reruns": n,
        "result_shown": ok,
    }


def first_run_seconds(*, bytecode: bool = True) -> float:
    """Seconds for the first AppTest run of app.py in a fresh Python process (imports included).

    With ``bytecode`` (the default) the child runs as `make test` runs every test process: without
    PYTHONDONTWRITEBYTECODE (this machine sets it), its compiled modules read from ``__pycache__`` (git-ignored),
    written by one untimed run first, as the suite's first process writes them. Without, every module of the
    project is compiled again in the child (what a process pays with PYTHONDONTWRITEBYTECODE set and no cache).
    """
    code = (
        "import time; t0 = time.perf_counter()\n"
        "from streamlit.testing.v1 import AppTest\n"
        f"at = AppTest.from_file({str(ROOT / 'app.py')!r}, default_timeout=120); at.run()\n"
        "assert not at.exception, at.exception\n"
        "print(time.perf_counter() - t0)\n"
    )
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    runs = 2 if bytecode else 1  # the first writes the compiled modules where they are missing
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env=env)
        if out.returncode != 0:
            raise RuntimeError(out.stderr[-2000:])
    return float(out.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def _start_server() -> tuple[subprocess.Popen, str, float]:
    """``tools/serve.py`` (as ``make run``) on a free port: the process, its base URL and its start time."""
    port = _free_port()
    cmd = [sys.executable, str(ROOT / "tools" / "serve.py"), "--server.port", str(port),
           "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return proc, f"http://127.0.0.1:{port}", t0


def _wait_healthy(base: str, t0: float, timeout_s: float) -> None:
    """Poll ``/_stcore/health`` until it answers 200 (or ``timeout_s`` after ``t0``)."""
    while time.perf_counter() - t0 < timeout_s:
        try:
            with urllib.request.urlopen(base + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.05)


def _stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def server_start_and_rss(timeout_s: float = 90.0) -> dict:
    """Start ``streamlit run app.py``; time health, GET / and the page in chromium; read VmRSS."""
    proc, base, t0 = _start_server()
    res: dict = {}
    try:
        _wait_healthy(base, t0, timeout_s)
        res["health_s"] = round(time.perf_counter() - t0, 3)
        with urllib.request.urlopen(base + "/", timeout=10) as r:
            r.read()
        res["get_root_s"] = round(time.perf_counter() - t0, 3)
        res["rss_mb_before_page"] = _rss_mb(proc.pid)
        res.update(_browser_first_page(base, t0))
        time.sleep(1.0)
        res["rss_mb_after_first_page"] = _rss_mb(proc.pid)
        try:
            res["map_payload"] = map_payload(base)
        except Exception as exc:  # noqa: BLE001 - a figure failing is reported, not fatal
            res["map_payload"] = {"error": f"{type(exc).__name__}: {exc}"}
    finally:
        _stop_server(proc)
    return res


#: A linked layer's loader in a map script (app_support.linked_layers._LOADER): the link it reads.
_LINK = re.compile(r'\}\)\((?P<url>"[^"]+"), geo_json_[A-Za-z0-9_]+_add\);')


def map_payload(base: str) -> dict:
    """Bytes of the first page's map: the component's element in the delta, and the layer files it links."""
    from st_protocol import Session

    with Session(base, timeout_s=120) as s:
        run = s.open("/")
        maps = [e for e in run.elements.values() if e.WhichOneof("type") == "component_instance"
                and "st_folium" in e.component_instance.component_name]
        if not maps:
            raise RuntimeError("the first page has no map component")
        element_bytes = sum(e.ByteSize() for e in maps)
        base_map = groups = 0
        urls: dict[str, None] = {}
        for e in maps:
            comp = e.component_instance
            args = json.loads(comp.json_args)
            base_map += sum(len(str(args.get(k) or "").encode()) for k in ("html", "header", "script"))
            groups += len(str(args.get("feature_group") or "").encode())
            frame = f"{s.base}/component/{comp.component_name}/index.html"
            for text in (args.get("feature_group") or "", args.get("script") or ""):
                for m in _LINK.finditer(text):
                    urls[urljoin(frame, json.loads(m.group("url")))] = None
        linked = 0
        for url in urls:
            r = s.http.get(url, timeout=60)
            r.raise_for_status()
            linked += len(r.content)
    return {"components": len(maps), "element_bytes": element_bytes, "base_map_bytes": base_map,
            "feature_group_bytes": groups, "linked_files": len(urls), "linked_bytes": linked,
            "total_bytes": element_bytes + linked}


def _browser_first_page(base: str, t0: float) -> dict:
    if not Path(CHROMIUM).exists():
        return {"browser": "chromium not installed (make system-deps)"}
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"browser": "playwright not installed"}
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_options())
        try:
            page = browser.new_page()
            t_nav = time.perf_counter()
            page.goto(base + "/", wait_until="domcontentloaded")
            page.wait_for_selector(_MAP, timeout=60_000)
            frame = page.frame_locator(_MAP)
            frame.locator(".leaflet-container").wait_for(timeout=60_000)
            page.get_by_text("Draw the parcel", exact=False).first.wait_for(timeout=60_000)
            done = time.perf_counter()
        finally:
            browser.close()
    return {"browser_page_ready_s": round(done - t0, 3), "browser_page_load_s": round(done - t_nav, 3)}


#: The map's frame, named by the page or not yet (app_support.frame.announce.MAP_FRAME).
_MAP = 'iframe[data-sloat-frame="map"], iframe[title="streamlit_folium.st_folium"]'
# The map is drawn: Leaflet's container is there, the constraint layers are painted (canvas renderer) and none of the
# layers the frame reads by link is still on its way (app_support.map.leaflet_elements.LinkedLayerLoader).
_MAP_DRAWN_JS = """() => { const f = document.querySelector('iframe[data-sloat-frame="map"], '
  + 'iframe[title="streamlit_folium.st_folium"]');
  const d = f && f.contentDocument; if (!(d && d.querySelector('.leaflet-overlay-pane canvas'))) return false;
  const s = f.contentWindow.__sloatLinkedLayers; return !(s && s.loading && s.loading() > 0); }"""


#: Addresses of the sample typed as people write them, one per timed search.
_ADDRESSES = ["297 Johnsontown Road", "297 Johnsontown Road, Sloatsburg, NY 10974", "Orange Turnpike 509",
              "155.06-1-42", "15506142"]
#: (menu label, the page's title) for the timed page switches with a parcel chosen.
_SWITCHES = [("Proposed project", "Proposed project"), ("Cluster", "Cluster development"),
             ("Wetland mitigation", "Wetland mitigation"), ("Timeline", "Timeline"),
             ("Parcel & constraints", "Parcel & constraints")]
#: The answer is on screen: the net lot area figure of a chosen tax parcel.
_ANSWER_JS = """(before) => { const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
  .find(e => e.innerText.includes('Net lot area')); return !!m && m.innerText !== before; }"""


def _search_and_switch(fresh, base: str, n: int) -> dict:
    """The two speeds asked for, on a warm server: a found address to the answer on screen (target: under 1.5 s),
    timed from Enter in the finder to the net lot area shown; and page switches with that parcel chosen
    (target: under 1.0 s), timed from the click in the page menu to the new page's title and no script
    running. Each search is a fresh page (a new session), as at the counter."""
    searches, switches = [], []
    for typed in _ADDRESSES[:n]:
        ctx = fresh()
        page = ctx.new_page()
        page.goto(base + "/")
        page.wait_for_function(_MAP_DRAWN_JS, timeout=60_000)
        box = page.get_by_label("Tax parcel (SBL", exact=False)
        box.fill(typed)
        t = time.perf_counter()
        box.press("Enter")
        page.wait_for_function(_ANSWER_JS, arg="", timeout=60_000)
        searches.append(time.perf_counter() - t)
        ctx.close()
    ctx = fresh()
    page = ctx.new_page()
    page.goto(base + "/")
    page.wait_for_function(_MAP_DRAWN_JS, timeout=60_000)
    box = page.get_by_label("Tax parcel (SBL", exact=False)
    box.fill(_ADDRESSES[0])
    box.press("Enter")
    page.wait_for_function(_ANSWER_JS, arg="", timeout=60_000)
    nav = page.locator('[data-testid="stSidebarNav"]')
    for label, title in _SWITCHES:
        t = time.perf_counter()
        nav.get_by_text(label, exact=True).click()
        page.get_by_role("heading", name=title, exact=True).first.wait_for(timeout=60_000)
        page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')",
                               timeout=60_000)
        switches.append(time.perf_counter() - t)
    ctx.close()
    return {"address_to_answer_s": {"median": round(statistics.median(searches), 3),
                                    "max": round(max(searches), 3), "n": len(searches)},
            "page_switch_with_parcel_s": {"median": round(statistics.median(switches), 3),
                                          "max": round(max(switches), 3), "n": len(switches)}}


def browser_timings(n: int = 5, timeout_s: float = 90.0) -> dict:
    """The browser section: first map drawn after opening the URL, and drawing to updated figures.

    On a warm server (one page opened and closed first), ``n`` fresh browser pages each open the
    URL and wait until the map's layers are painted (target: under 2.5 s). Then on one page, ``n``
    parcels are drawn with the polygon tool (each a little to the east of the last, so each is
    measured, not read from a cache), timed from the closing click to the net-lot-area figure
    showing the new value (target: median under 1.5 s). Measured here, never asserted in tests.
    """
    if not Path(CHROMIUM).exists():
        return {"browser": "chromium not installed (make system-deps)"}
    from playwright.sync_api import sync_playwright

    proc, base, t0 = _start_server()
    out: dict = {}
    try:
        _wait_healthy(base, t0, timeout_s)
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch_options())
            try:
                def fresh():  # a new context: an empty cache, as on a first visit
                    return browser.new_context(viewport={"width": 1500, "height": 1000})

                warm = fresh()
                page = warm.new_page()
                page.goto(base + "/")
                page.wait_for_function(_MAP_DRAWN_JS, timeout=60_000)
                warm.close()
                firsts = []
                for _ in range(n):
                    ctx = fresh()
                    page = ctx.new_page()
                    t = time.perf_counter()
                    page.goto(base + "/")
                    page.wait_for_function(_MAP_DRAWN_JS, timeout=60_000)
                    firsts.append(time.perf_counter() - t)
                    ctx.close()
                out["first_map_drawn_s"] = {"median": round(statistics.median(firsts), 3),
                                            "max": round(max(firsts), 3), "n": n}
                ctx = fresh()
                page = ctx.new_page()
                page.goto(base + "/")
                page.wait_for_function(_MAP_DRAWN_JS, timeout=60_000)
                frame = page.frame_locator(_MAP)
                draws = []
                for i in range(n):
                    frame.locator(".leaflet-draw-draw-polygon").click()
                    box = frame.locator(".leaflet-container").bounding_box()
                    cx, cy = box["x"] + box["width"] / 2 + 12 * i - 30, box["y"] + box["height"] / 2
                    pts = [(-40, -40), (40, -40), (40, 40), (-40, 40)]
                    for dx, dy in pts:
                        page.mouse.click(cx + dx, cy + dy)
                        page.wait_for_timeout(120)
                    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Net lot area")
                    before = metric.first.inner_text() if metric.count() else ""
                    t = time.perf_counter()
                    page.mouse.click(cx + pts[0][0], cy + pts[0][1])
                    page.wait_for_function(
                        """(before) => { const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
                             .find(e => e.innerText.includes('Net lot area'));
                             return m && m.innerText !== before; }""", arg=before, timeout=60_000)
                    draws.append(time.perf_counter() - t)
                    page.wait_for_timeout(500)
                out["drawing_to_figures_s"] = {"median": round(statistics.median(draws), 3),
                                               "max": round(max(draws), 3), "n": n}
                ctx.close()
                out.update(_search_and_switch(fresh, base, n))
            finally:
                browser.close()
    finally:
        _stop_server(proc)
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if "--browser" in sys.argv:
        print(json.dumps({"browser": browser_timings()}, indent=1))
        sys.exit(0)
    print(json.dumps({"reruns": rerun_times(), "first_run_s": first_run_seconds(),
                      "server": server_start_and_rss(), "browser": browser_timings()}, indent=1))
