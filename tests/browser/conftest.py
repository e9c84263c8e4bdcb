"""Real-browser harness: the app under ``streamlit run``, Debian chromium through Playwright, offline.

Every request that does not go to the local app is aborted (``context.route``), so a test that
passes proves the page works with no internet. The app reads the hand-built layer set of
``tests/app_fixtures.py`` (known areas) through ``SLOAT_LAYERS``. Screenshots go to
``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import app_fixtures as fx  # noqa: E402

CHROMIUM = "/usr/lib/chromium/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "tests" / "artifacts"
MAP_IFRAME = 'iframe[title="streamlit_folium.st_folium"]'
LOCAL_PREFIXES = ("http://127.0.0.1", "http://localhost", "ws://127.0.0.1", "ws://localhost",
                  "data:", "blob:", "about:")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def layer_manifest(tmp_path_factory) -> Path:
    return fx.write_layerset(tmp_path_factory.mktemp("browser_layers"))


#: The options every test server runs with: local only, no telemetry, no file watcher.
SERVER_OPTIONS = ["--server.headless", "true", "--server.address", "127.0.0.1",
                  "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]


def start_server(port: int, env: dict, log, *, launcher: bool = False) -> subprocess.Popen:
    """``streamlit run app.py`` on ``port`` (or ``tools/serve.py``, as ``make run`` starts it)."""
    command = [sys.executable, "tools/serve.py"] if launcher else [sys.executable, "-m", "streamlit", "run", "app.py"]
    return subprocess.Popen([*command, "--server.port", str(port), *SERVER_OPTIONS],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def wait_healthy(proc: subprocess.Popen, url: str, describe_exit, timeout_s: float = 60) -> None:
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


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _serve(manifest: Path, log_path: Path, *, launcher: bool = False):
    """Start ``streamlit run app.py`` with ``SLOAT_LAYERS=manifest``; yield its URL; stop it.

    With ``launcher``, start it the way ``make run`` does: ``tools/serve.py`` (layers loaded first).
    """
    if not (ROOT / "static" / "vendor" / ".stamp").exists():
        pytest.fail("The map's front-end files are missing: `make test` fetches them "
                    "(bash tools/fetch_assets.sh).")
    port = _free_port()
    env = dict(os.environ, SLOAT_LAYERS=str(manifest))
    log = open(log_path, "w")  # noqa: SIM115 (closed after the session)
    proc = start_server(port, env, log, launcher=launcher)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(proc, url, lambda: log_path.read_text()[-2000:])
        yield url
    finally:
        stop_server(proc)
        log.close()


@pytest.fixture(scope="session")
def app_url(layer_manifest, tmp_path_factory):
    """The app on the hand-built layer set of tests/app_fixtures.py."""
    yield from _serve(layer_manifest, tmp_path_factory.mktemp("server") / "streamlit.log")


@pytest.fixture(scope="session")
def sample_app_url(tmp_path_factory):
    """The app on the shipped illustrative sample (data/sample/layers.yaml, with its DEM), started as
    ``make run`` starts it."""
    manifest = ROOT / "data" / "sample" / "layers.yaml"
    if not manifest.exists():
        pytest.fail(f"{manifest} is missing: `make sample` writes it.")
    yield from _serve(manifest, tmp_path_factory.mktemp("sample_server") / "streamlit.log", launcher=True)


@pytest.fixture(scope="session")
def browser():
    """Debian chromium via Playwright; fails (never skips) when chromium is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Debian chromium is missing at {CHROMIUM}: `make test` installs it "
                    "(apt-get install --no-install-recommends chromium).")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


#: True once Streamlit shows no running-man status widget (the script run is over).
IDLE_JS = "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"


class OfflinePage:
    """A page on the app, offline, with helpers for the map and screenshots."""

    def __init__(self, page, url: str, blocked: list[str]):
        self.page = page
        self.url = url
        self.blocked = blocked

    def open(self, path: str = "/") -> "OfflinePage":
        self.page.goto(self.url + path)
        self.page.locator("h1").first.wait_for(timeout=30_000)
        return self

    def wait_map(self):
        frame = self.page.frame_locator(MAP_IFRAME)
        frame.locator(".leaflet-draw-draw-polygon").wait_for(timeout=30_000)
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
        for dx, dy in [*offsets_px, offsets_px[0]]:
            self.page.mouse.click(cx + dx, cy + dy)
            self.page.wait_for_timeout(250)

    def settle(self) -> None:
        """Wait until Streamlit has finished the run (no running-man widget), then let it paint."""
        self.page.wait_for_timeout(300)
        self.page.wait_for_function(IDLE_JS, timeout=30_000)
        self.page.wait_for_timeout(700)

    def choose_parcel(self, sbl: str) -> None:
        """Pick a tax parcel by its SBL on the Parcel page, as a user types it, and wait for its figures."""
        box = self.page.get_by_label("Tax parcel (SBL", exact=False)
        box.fill(sbl)
        box.press("Enter")  # a single match is chosen at once (no list, no button)
        self.wait_text(f"Tax parcel {sbl}")
        self.settle()

    def switch_mode(self, mode: str) -> None:
        """Choose a display mode in the sidebar."""
        self.page.locator('[data-testid="stSidebar"]').get_by_text(mode, exact=True).click()
        self.settle()

    def wait_text(self, text: str, timeout_ms: int = 30_000):
        locator = self.page.get_by_text(text, exact=False).first
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


def _offline_page(browser, url, request):
    """An offline browser context (non-local requests aborted) with a page on ``url``."""
    context = browser.new_context(viewport={"width": 1500, "height": 1500})
    blocked: list[str] = []

    def route(request_route):
        target = request_route.request.url
        if target.startswith(LOCAL_PREFIXES):
            request_route.continue_()
        else:
            blocked.append(target)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    offline = OfflinePage(page, url, blocked)
    yield offline
    report = request.node.stash.get(_REPORT, None)
    if report is not None and report.failed:
        offline.shot(f"FAILED_{request.node.name}")
    context.close()


@pytest.fixture()
def app(browser, app_url, request):
    """A fresh offline browser context on the app with the hand-built layers."""
    yield from _offline_page(browser, app_url, request)


@pytest.fixture()
def sample_app(browser, sample_app_url, request):
    """A fresh offline browser context on the app with the illustrative sample layers."""
    yield from _offline_page(browser, sample_app_url, request)
