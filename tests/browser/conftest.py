"""Real-browser harness: the app under ``streamlit run``, Debian chromium through Playwright, offline.

The browser resolves no host but the local one (``--host-resolver-rules``), so every request that
does not go to the local app fails and is recorded: a test that passes proves the page works with no
internet. Each test gets a fresh page (a new Streamlit session) in one context per server, whose HTTP
cache stays warm as a real browser's does (Playwright's request routing would switch the cache off). The app reads the hand-built layer set of
``tests/app_fixtures.py`` (known areas) through ``SLOAT_LAYERS``. Screenshots go to
``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import app_fixtures as fx  # noqa: E402
import served_app  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from offline_chromium import CHROMIUM, launch_options  # noqa: E402  (shared with make bench)

from app_support.frame.announce import MAP_FRAME  # noqa: E402

ARTIFACTS = ROOT / "tests" / "artifacts"
#: The map's frame: st_folium titles it "streamlit_folium.st_folium", the page names it (app_support.frame.announce).
MAP_IFRAME = MAP_FRAME
LOCAL_PREFIXES = ("http://127.0.0.1", "http://localhost", "ws://127.0.0.1", "ws://localhost",
                  "data:", "blob:", "about:")


_free_port = served_app._free_port  # one free local port (the browser modules import it from here)


@pytest.fixture(scope="session")
def layer_manifest(tmp_path_factory) -> Path:
    return fx.write_layerset(tmp_path_factory.mktemp("browser_layers"))


def start_server(port: int, env: dict, log: Path):
    """The app on ``port``, started as ``make run`` and the service start it: ``tools/serve.py`` (the layers loaded
    first, then ``streamlit run app.py`` in the same process with the launcher's serving settings), its output
    appended to ``log``. A process of its own, forked from the test process's fork server (tests/served_app.py, as
    the service tests' servers are), so the libraries it imports are not imported again at each start."""
    return served_app.spawn([sys.executable, "tools/serve.py", "--server.port", str(port), *served_app.LOCAL_OPTIONS],
                            cwd=ROOT, env=env, stdout=log)


def wait_healthy(proc, url: str, describe_exit, timeout_s: float = 60) -> None:
    """Wait for ``/_stcore/health``; fail the test if the server exits or never answers."""
    deadline = time.monotonic() + timeout_s
    while True:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited early: {describe_exit()}")
        if time.monotonic() > deadline:
            pytest.fail(f"streamlit did not become healthy within {timeout_s:.0f} s")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.3)


def stop_server(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _serve(manifest: Path, log_path: Path):
    """Start the app (:func:`start_server`) with ``SLOAT_LAYERS=manifest``; yield its URL; stop it."""
    if not (ROOT / "static" / "vendor" / ".stamp").exists():
        pytest.fail("The map's front-end files are missing: `make test` fetches them "
                    "(python3 tools/fetch_assets.py).")
    port = _free_port()
    env = dict(os.environ, SLOAT_LAYERS=str(manifest))
    proc = start_server(port, env, log_path)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(proc, url, lambda: log_path.read_text()[-2000:])
        yield url
    finally:
        stop_server(proc)


@pytest.fixture(scope="session")
def app_url(layer_manifest, tmp_path_factory):
    """The app on the hand-built layer set of tests/app_fixtures.py."""
    yield from _serve(layer_manifest, tmp_path_factory.mktemp("server") / "streamlit.log")


@pytest.fixture(scope="session")
def sample_app_url(tmp_path_factory):
    """The app on the shipped illustrative sample (data/sample/layers.yaml, with its DEM)."""
    manifest = ROOT / "data" / "sample" / "layers.yaml"
    if not manifest.exists():
        pytest.fail(f"{manifest} is missing: `make sample` writes it.")
    yield from _serve(manifest, tmp_path_factory.mktemp("sample_server") / "streamlit.log")


@pytest.fixture(scope="session")
def browser():
    """Debian chromium via Playwright; fails (never skips) when chromium is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Debian chromium is missing at {CHROMIUM}: `make test` installs it "
                    "(apt-get install --no-install-recommends chromium).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(**launch_options())
        yield chromium
        chromium.close()


#: Watches one page's script runs from before it opens (an init script of every OfflinePage): the reruns the page
#: asks the server for (each BackMsg with a rerun_script field, as the page sends it on its websocket: a click, a
#: typed value, a file uploaded, a page opened, a component's value sent back), and the server's answers (each
#: ForwardMsg with new_session: a run started; script_finished other than FINISHED_EARLY_FOR_RERUN: a run over).
#: Each event is numbered in order (``seq``); ``sent`` counts the reruns asked for. A message received counts as
#: handled once a frame has been drawn after it (``handling``: messages not yet drawn). Only the messages' top-level
#: fields are read (a tag, then a varint or a length to skip). The page's own script state (stApp's
#: ``data-test-script-state``) is watched as well: ``busy`` while Streamlit shows a run asked for or under way.
RUNS_JS = """(() => {
  if (window.__sloatRuns) return;
  const r = window.__sloatRuns = {sent: 0, mark: 0, seq: 0, lastSend: 0, lastStart: 0, lastEnd: 0, handling: 0,
                                  busy: true};
  const varint = (b, i) => { let v = 0, m = 1; for (;;) { const c = b[i++]; v += (c & 127) * m;
    if (c < 128) return [v, i]; m *= 128; } };
  const fields = (b) => { const out = []; let i = 0;
    while (i < b.length) { let t, v; [t, i] = varint(b, i); const wire = t & 7;
      if (wire === 0) { [v, i] = varint(b, i); } else if (wire === 2) { [v, i] = varint(b, i); i += v; }
      else if (wire === 1) { i += 8; } else if (wire === 5) { i += 4; } else { break; }
      out.push([t >>> 3, v]); }
    return out; };
  const bytes = (d) => d instanceof ArrayBuffer ? new Uint8Array(d)
    : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : null;
  const Native = window.WebSocket, send = Native.prototype.send;
  Native.prototype.send = function (data) {
    const b = bytes(data);
    if (b && fields(b).some(([f]) => f === 11)) { r.sent++; r.lastSend = ++r.seq; }  // BackMsg.rerun_script
    return send.call(this, data);
  };
  const heard = (e) => {
    const b = bytes(e.data);
    if (!b) return;
    for (const [f, v] of fields(b)) {
      if (f === 4) r.lastStart = ++r.seq;  // ForwardMsg.new_session
      if (f === 6 && v !== 2) r.lastEnd = ++r.seq;  // ForwardMsg.script_finished, not FINISHED_EARLY_FOR_RERUN
    }
    r.handling++;
    let done = false;
    const drawn = () => { if (!done) { done = true; r.handling--; } };
    requestAnimationFrame(() => setTimeout(drawn, 0));
    setTimeout(drawn, 250);  // a page not drawing frames: the message's handling is long over
  };
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); this.addEventListener('message', heard); }
  };
  const busy = (s) => ['running', 'rerunRequested', 'stopRequested', 'initial'].includes(s);
  r.look = () => { const app = document.querySelector('[data-testid="stApp"]');
    r.busy = busy(app ? app.getAttribute('data-test-script-state') : 'initial'); };
  // every run asked for has started and is over, its messages drawn; Streamlit shows no run (no status widget,
  // script state not busy), no element left over from an earlier run (stale), and no element waiting for its code
  // (a kind of element first shown in the page is drawn once its lazily loaded chunk has come: a stSkeleton until
  // then; a page link's, just after the run, made the walk-through's first screen lack its "The rule" link)
  r.idle = () => { r.look();
    return r.lastStart > r.lastSend && r.lastEnd > r.lastStart && r.handling === 0 && !r.busy
      && !document.querySelector('[data-testid="stStatusWidget"]') && !document.querySelector('[data-stale="true"]')
      && !document.querySelector('[data-testid="stSkeleton"]'); };
})()"""
#: A rerun has been asked for since ``n`` reruns had been (or, with ``null``, since the page's last settle).
RUN_ASKED_JS = """(n) => { const r = window.__sloatRuns; return !!r && r.sent > (n == null ? r.mark : n); }"""
#: The page is idle (``__sloatRuns.idle``); then the settle's mark is set: the reruns asked for so far are settled.
RUNS_IDLE_JS = """() => { const r = window.__sloatRuns; if (!r || !r.idle()) return false; r.mark = r.sent; return true; }"""
#: How long a settle waits for the rerun its action asks for, ms: the page asks at once for a click, a key or a page
#: opened; a file is uploaded first (its upload is local). (On a starved machine the page itself can take seconds to
#: answer a look.)
ASKED_WITHIN_MS = 10_000
#: How often the tests' waits look at the page, ms: every ``wait_for_function`` in tests/browser passes it (Playwright's
#: default polls at every animation frame, and a page so polled paints 60 frames a second while the test waits: 0.09
#: CPU-s a second against 0.025 at 100 ms, bench/README.md).
POLL_MS = 25
#: True once the map shows the parcel under study (the map has zoomed to it after a pick or a reload).
PARCEL_IN_VIEW_JS = """() => (typeof map_div !== 'undefined') && !!window.layer_control
  && window.layer_control._layers.some(l => l.name === 'Parcel under study' && map_div.hasLayer(l.layer)
     && l.layer.getBounds && map_div.getBounds().contains(l.layer.getBounds()))"""
#: True once the map's frame has drawn every layer it reads by link (app_support.map.leaflet_elements.LinkedLayerLoader:
#: the requests start together and the layers are added when all have arrived).
LINKED_LAYERS_DRAWN_JS = """(frame) => { const f = document.querySelector(frame);
  const w = f && f.contentWindow; const s = w && w.__sloatLinkedLayers;
  return !!s && typeof s.loading === 'function' && s.loading() === 0; }"""
#: Number of vertices placed so far while drawing a polygon with Leaflet.draw.
DRAW_VERTICES_JS = "() => document.querySelectorAll('.leaflet-marker-icon.leaflet-editing-icon').length"


class OfflinePage:
    """A page on the app, offline, with helpers for the map and screenshots."""

    def __init__(self, page, url: str, blocked: list[str]):
        self.page = page
        self.url = url
        self.blocked = blocked
        page.add_init_script(RUNS_JS)  # the page's runs watched from before each document opens

    def open(self, path: str = "/") -> "OfflinePage":
        self.page.goto(self.url + path)
        self.page.locator("h1").first.wait_for(timeout=30_000)
        return self

    def wait_map(self):
        """The map's frame, once its tools are there and the layers it reads by link are drawn."""
        frame = self.page.frame_locator(MAP_IFRAME)
        frame.locator(".leaflet-draw-draw-polygon").wait_for(timeout=30_000)
        self.page.wait_for_function(LINKED_LAYERS_DRAWN_JS, arg=MAP_IFRAME, timeout=30_000, polling=POLL_MS)
        return frame

    def map_frame(self):
        """The map iframe as a Playwright Frame (for evaluating Leaflet state)."""
        handle = self.page.locator(MAP_IFRAME).element_handle(timeout=30_000)
        return handle.content_frame()

    def draw_polygon(self, offsets_px: list[tuple[float, float]]) -> None:
        """Draw a polygon with the Leaflet.draw toolbar; offsets from the map's centre."""
        frame = self.wait_map()
        frame.locator(".leaflet-draw-draw-polygon").click()
        box = frame.locator(".leaflet-container").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        frame_handle = self.map_frame()
        for i, (dx, dy) in enumerate(offsets_px):
            self._click_until(frame_handle, cx + dx, cy + dy, lambda n, i=i: n >= i + 1)
        # close the ring on the first vertex: the drawing ends and its vertex markers go
        self._click_until(frame_handle, cx + offsets_px[0][0], cy + offsets_px[0][1], lambda n: n == 0)

    def _click_until(self, frame_handle, x: float, y: float, placed, timeout_s: float = 10.0) -> None:
        """Click at (x, y) until ``placed(number of vertex markers)`` holds.

        Leaflet.draw ignores a press that comes within 50 ms of the last vertex (``_enableNewMarkers``);
        such a click changes nothing, so it is repeated. A click that counts is seen at once (the vertex
        marker is added while the event is handled)."""
        deadline = time.monotonic() + timeout_s
        while True:
            self.page.mouse.click(x, y)
            for _ in range(5):
                if placed(frame_handle.evaluate(DRAW_VERTICES_JS)):
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"Leaflet.draw did not take the click at ({x:.0f}, {y:.0f})")

    def settle(self, asked_before: int | None = None) -> None:
        """Wait until the run the last action asked for is over and drawn, and no other is asked for or under way
        (:data:`RUNS_JS`). The action is the last one since the page's last settle (or, with ``asked_before``, since
        :attr:`runs_asked` was ``asked_before``); each page opened asks for a run. For an action that asks for no
        run (a window resized, a scroll, a script evaluated, an expander opened), :meth:`idle`.

        What the 300 ms quiet window this replaces guarded against is waited for: a run that starts just after the
        click (its rerun is seen asked for when the page sends it, and the settle waits for the server's run that
        follows it), and a second run queued by a component's value sent back (asked for before the first is over:
        the idle page needs every rerun asked for answered). A value sent back later than that was looked for: with
        the whole browser suite watched 1.5 s after each settle, no page asked for a run (session 23)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self.page.wait_for_function(RUN_ASKED_JS, arg=asked_before, timeout=ASKED_WITHIN_MS, polling=POLL_MS)
        except PlaywrightTimeout:  # (an action that asks for none should be followed by idle(): said, and waited for)
            warnings.warn(f"settle: no script run was asked for within {ASKED_WITHIN_MS} ms of the action", stacklevel=2)
        self.idle()

    def idle(self) -> None:
        """Wait until every run asked for so far is over and drawn, and Streamlit shows no run and nothing stale: after
        an action that asks for no run, or to let a run asked for earlier (a component's value sent back) end."""
        self.page.wait_for_function(RUNS_IDLE_JS, timeout=30_000, polling=POLL_MS)

    def resize(self, width: int, height: int) -> None:
        """The window at ``width`` x ``height``, once the page is laid out for it (``browser.a11y_visit.resize``: a
        change of the window's size asks for no run)."""
        from browser.a11y_visit import resize

        resize(self.page, width, height)

    @property
    def runs_asked(self) -> int:
        """The number of reruns this page has asked the server for (its document's, since it was opened)."""
        return self.page.evaluate("() => window.__sloatRuns ? window.__sloatRuns.sent : 0")

    def poll_map(self, js: str, until, timeout_ms: int = 15_000):
        """Evaluate ``js`` in the map's frame until ``until(value)`` holds; return the last value.

        The map iframe is re-created when Streamlit re-renders it, so each try looks the frame up again;
        a try on a frame still loading counts as not yet. The caller asserts on the value returned."""
        deadline = time.monotonic() + timeout_ms / 1000
        value = None
        while True:
            try:
                value = self.map_frame().evaluate(js)
                if until(value):
                    return value
            except Exception:  # noqa: BLE001 (frame detached or map not yet defined: try again)
                pass
            if time.monotonic() > deadline:
                return value
            self.page.wait_for_timeout(100)  # polling interval, not a guess at how long the app takes

    def wait_parcel_in_view(self) -> None:
        """Wait until the map has zoomed to the parcel under study."""
        assert self.poll_map(PARCEL_IN_VIEW_JS, bool, timeout_ms=20_000), "the map never showed the parcel"

    def choose_parcel(self, sbl: str) -> None:
        """Pick a tax parcel by its SBL on the Parcel page, as a user types it, and wait for its figures."""
        box = self.page.get_by_label("Tax parcel (SBL", exact=False)
        box.fill(sbl)
        box.press("Enter")  # a single match is chosen at once (no list, no button)
        self.wait_text(f"Tax parcel {sbl}")
        self.settle()

    def open_sidebar(self) -> None:
        """Open the sidebar if it is folded (the walk-through folds it in Projector mode), as a person would:
        its open button at the top left. After a resize Streamlit may slide the sidebar in or out on its own, so
        the open button can vanish between seeing it and clicking it: look again until the sidebar is shown."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        shown = """() => { const b = document.querySelector('[data-testid="stSidebar"]');
            const r = b && b.getBoundingClientRect(); return !!b && r.right > 1 && r.left > -1; }"""
        button = self.page.locator('[data-testid="stExpandSidebarButton"]').first
        deadline = time.monotonic() + 30
        while not self.page.evaluate(shown):
            if time.monotonic() > deadline:
                raise AssertionError("the sidebar could not be opened within 30 s")
            try:
                button.click(timeout=2_000)  # gone already if the sidebar slid in by itself: look again
            except PlaywrightTimeout:
                continue
            try:
                self.page.wait_for_function(shown, timeout=5_000, polling=POLL_MS)
            except PlaywrightTimeout:
                continue

    def switch_mode(self, mode: str) -> None:
        """Choose a display mode in the sidebar."""
        self.open_sidebar()
        self.page.locator('[data-testid="stSidebar"]').get_by_text(mode, exact=True).click()
        self.settle()

    def wait_text(self, text: str, timeout_ms: int = 30_000):
        """Wait for ``text`` to be shown. Only a visible match counts: the same words can also sit in a part
        of the page that folds away (the parcel finder folds once a parcel is found), and which match comes
        first in the page is not fixed."""
        locator = self.page.get_by_text(text, exact=False).filter(visible=True).first
        locator.wait_for(timeout=timeout_ms)
        return locator

    def metric(self, label: str) -> str:
        """Value of the st.metric whose label starts with ``label``."""
        block = self.page.locator('[data-testid="stMetric"]').filter(has_text=label).first
        block.wait_for(timeout=30_000)
        return block.locator('[data-testid="stMetricValue"]').inner_text().strip()

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def non_tile_blocked(self) -> list[str]:
        """Blocked requests other than basemap tiles (which need the internet by design)."""
        return [u for u in self.blocked
                if "tile.openstreetmap.org" not in u and "arcgisonline.com" not in u]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.stash[_REPORT] = report
    return report


_REPORT = pytest.StashKey()


class _Contexts:
    """One browser context per server, made on first use and closed with the browser."""

    def __init__(self, browser):
        self.browser = browser
        self.by_url: dict = {}

    def for_url(self, url: str):
        if url not in self.by_url:
            self.by_url[url] = self.browser.new_context(viewport={"width": 1500, "height": 1500})
        return self.by_url[url]


@pytest.fixture(scope="session")
def contexts(browser):
    shared = _Contexts(browser)
    yield shared
    for context in shared.by_url.values():
        context.close()


#: How much faster than real time a test page plays its CSS transitions and animations (Chrome DevTools'
#: ``Animation.setPlaybackRate``): the sidebar's 300 ms slide as it folds at a narrow width or in the Projector
#: walk-through and opens again (a layout of the page at every frame: Streamlit animates its min- and max-width),
#: an expander's or a dialog's, is over by the next frame. The tests check each state once it is at rest (Playwright
#: acts on an element once it has stopped moving; ``browser.a11y_visit.resize`` waits for any transition to end),
#: never the motion between; the page's styles are not touched. Pages the tests make themselves (the map's scrolling
#: on a phone, the deep links after a restart) and the screen reader's own chromium play motion at its real speed.
#: Measured (bench/README.md, session 28): the 27 accessibility visits alone 73-75 s -> 66-69 s; the walk-through,
#: navigation, audiences and keyboard modules on two workers, alternated, 67.1 / 77.2 s -> 63.6 / 70.7 s.
MOTION_PLAYBACK_RATE = 100


def quick_motion(page) -> None:
    """``page``'s transitions and animations played :data:`MOTION_PLAYBACK_RATE` times faster, from now on (new
    documents in the page too)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": MOTION_PLAYBACK_RATE})


def new_offline_page(contexts, url) -> OfflinePage:
    """A new page (a new Streamlit session) on ``url``, its motion played fast (:func:`quick_motion`); requests that
    leave the machine are recorded."""
    page = contexts.for_url(url).new_page()
    blocked: list[str] = []

    def failed(req) -> None:
        if not req.url.startswith(LOCAL_PREFIXES):
            blocked.append(req.url)

    page.on("requestfailed", failed)
    quick_motion(page)
    return OfflinePage(page, url, blocked)


class SharedPage:
    """A page a module's claims share (a fresh page costs a new session: the app, its map, a script run), made when a
    claim first needs it (``app``) and closed with :meth:`close` (by the module's fixture, or to make it anew)."""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self.app: OfflinePage | None = None

    def close(self) -> None:
        if self.app is not None:
            self.app.page.close()
            self.app = None

    def renew(self, path: str = "/", viewport: dict | None = None) -> OfflinePage:
        """A new page (a new session) in place of the old one, at ``viewport`` if given, opened at ``path``."""
        self.close()
        self.app = new_offline_page(self.contexts, self.url)
        if viewport is not None:
            self.app.page.set_viewport_size(viewport)
        return self.app.open(path)

    @classmethod
    def for_module(cls, *args):
        """The body of a module fixture: one shared page (made of ``args``) for the module's tests, closed after its
        last one."""
        shared = cls(*args)
        yield shared
        shared.close()

    def shot_if_failed(self, request) -> None:
        """A screenshot of the page, if it was made and the test failed (the end of a test's fixture)."""
        if self.app is not None:
            shot_if_failed(request, self.app)


def shot_if_failed(request, offline: OfflinePage) -> None:
    """A screenshot of ``offline`` named for the test, if the test failed."""
    report = request.node.stash.get(_REPORT, None)
    if report is not None and report.failed:
        offline.shot(f"FAILED_{request.node.name}")


def _offline_page(contexts, url, request):
    """A fresh page (a new Streamlit session) on ``url``, closed after the test."""
    offline = new_offline_page(contexts, url)
    yield offline
    shot_if_failed(request, offline)
    offline.page.close()


@pytest.fixture()
def app(contexts, app_url, request):
    """A fresh offline page on the app with the hand-built layers."""
    yield from _offline_page(contexts, app_url, request)


@pytest.fixture()
def sample_app(contexts, sample_app_url, request):
    """A fresh offline page on the app with the illustrative sample layers."""
    yield from _offline_page(contexts, sample_app_url, request)


#: The sample parcel most of these tests look up: its address as people type it (the sample layer spells it
#: "297 Johnsontown Rd"), and its SBL.
SAMPLE_ADDRESS, SAMPLE_SBL = "297 Johnsontown Road", "155.06-1-42"


@pytest.fixture(scope="session")
def a11y_visits(contexts, app_url, layer_manifest):
    """One visitor's session (parcel P1, a footprint drawn, one timeline item; opened from its case's link) whose
    every (mode, page) is visited once and measured for all the accessibility claims that read it
    (tests/browser/a11y_visit.py)."""
    from browser.a11y_visit import Visits, build_visitor

    app = new_offline_page(contexts, app_url)  # its requests that leave the machine recorded
    build_visitor(app, layer_manifest)
    yield Visits(app)
    app.page.close()
