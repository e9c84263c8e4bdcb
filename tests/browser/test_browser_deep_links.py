"""A clerk's deep link opened first after a restart, in chromium: the page comes with the app's frame.

The server is started as ``make run`` and the systemd unit start it (``tools/serve.py``) and restarted
before each link, which is then the first page anyone opens in that process. A case is made first, at
the protocol level (tools/st_protocol.py) on the browser tests' own server, which shares the case folder, so
no browser ever opened the root page. On screen: the
sidebar's page list with app.py's titles, the display mode the link names, and the case's parcel.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))
import app_fixtures as fx  # noqa: E402
from browser.conftest import _free_port, start_server, stop_server, wait_healthy  # noqa: E402
from st_protocol import Session  # noqa: E402

pytestmark = pytest.mark.browser


class Restartable:
    def __init__(self, env: dict, log_path: Path):
        self.env, self.log_path, self.proc, self.url = env, log_path, None, ""

    def start(self) -> str:
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.proc = start_server(port, self.env, self.log_path)
        wait_healthy(self.proc, self.url, lambda: self.log_path.read_text()[-2000:])
        return self.url

    def stop(self) -> None:
        if self.proc is not None:
            stop_server(self.proc)
            self.proc = None


@pytest.fixture(scope="module")
def served(tmp_path_factory, layer_manifest, app_url):
    """A server to restart before each link, on the layers and the case folder of the browser tests' own server
    (conftest.app_url, whose environment it has): the case is made there, at the protocol level, so this server
    never runs a page before the link it is restarted for."""
    tmp = tmp_path_factory.mktemp("deep_link_browser")
    env = dict(os.environ, SLOAT_LAYERS=str(layer_manifest))  # SLOAT_DATA_DIR: app_url's, tests/conftest.py
    server = Restartable(env, tmp / "server.log")
    with Session(app_url) as s:
        s.open("/")
        s.type_into("Tax parcel (SBL", fx.P1_SBL)
        case_id = dict(p.split("=", 1) for p in s.query_string.split("&"))["case"]
    yield server, case_id
    server.stop()


@pytest.mark.parametrize("link, mode, figure", [
    ("/walkthrough?case={case}&mode=projector", "Projector", "Gross area"),
    ("/case?case={case}", "Standard", "Net lot area"),
])
def test_a_deep_link_opened_first_after_a_restart_shows_the_frame_and_the_case(browser, served, link, mode, figure):
    server, case_id = served
    url = server.start()
    context = browser.new_context(viewport={"width": 1500, "height": 1200})
    try:
        page = context.new_page()
        page.goto(url + link.format(case=case_id))
        sidebar = page.locator('[data-testid="stSidebar"]')
        nav = page.locator('[data-testid="stSidebarNav"]')
        expect(nav.get_by_text("Board walk-through", exact=True)).to_be_visible(timeout=30_000)
        expect(nav.get_by_text("Case & exports", exact=True)).to_be_visible(timeout=30_000)
        expect(sidebar.get_by_role("radio", name=mode)).to_be_checked(timeout=30_000)  # drawn after the menu
        metric = page.locator('[data-testid="stMetric"]').filter(has_text=figure).first
        expect(metric).to_be_visible(timeout=30_000)
        expect(metric).to_contain_text("0,000")  # 40,000 gross, 20,000 net (at most): the case's parcel
        expect(page.get_by_text("Choose a parcel", exact=False)).to_have_count(0)
        assert f"case={case_id}" in page.url
    finally:
        context.close()
        server.stop()
