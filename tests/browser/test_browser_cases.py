"""Real-browser tests of cases: a case link survives a page reload and a server restart (offline chromium).

The cases that a test only opens by their link are made at the protocol level (tests/browser/case_links.py: the
parcel typed into the finder, a note into the case page's box, as a browser sends them); the tests that only
read a case (its downloads, its link's copy) share one tab on its case page.

The server here is this module's own (``streamlit run app.py`` on a fixed port, with its case
database in a temporary ``SLOAT_DATA_DIR``), so it can be stopped and started again; the browser,
the offline routing and the page helpers are those of conftest.py. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
from browser.case_links import new_case, new_case_with_notes, start_case, write_notes  # noqa: E402
from browser.conftest import (_REPORT, _free_port, _offline_page, new_offline_page, shot_if_failed,  # noqa: E402
                              start_server, stop_server, wait_healthy)
from st_protocol import Session  # noqa: E402  (tools/: on the path since browser.case_links)

pytestmark = pytest.mark.browser
CASE_ID = re.compile(r"[?&]case=([A-Za-z0-9_-]{22})")
NOTE = "Owner will bring the 2019 survey."


class CaseServer:
    """The app on one port (started as ``make run`` starts it), with its own case folder; stop() and start() at
    will."""

    def __init__(self, manifest: Path, data_dir: Path, log_dir: Path):
        self.manifest, self.data_dir, self.log_dir = manifest, data_dir, log_dir
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        env = dict(os.environ, SLOAT_LAYERS=str(self.manifest), SLOAT_DATA_DIR=str(self.data_dir))
        self.proc = start_server(self.port, env, self.log_dir / f"streamlit-{self.starts}.log")
        wait_healthy(self.proc, self.url, lambda: f"start {self.starts}")

    def stop(self) -> None:
        if self.proc is None:
            return
        stop_server(self.proc)
        self.proc = None


@pytest.fixture(scope="module")
def case_server(layer_manifest, tmp_path_factory):
    folder = tmp_path_factory.mktemp("case_server")
    server = CaseServer(layer_manifest, folder / "data", folder)
    server.start()
    yield server
    server.stop()


@pytest.fixture()
def case_page(contexts, case_server, request):
    """An offline browser page on this module's server."""
    yield from _offline_page(contexts, case_server.url, request)


@pytest.fixture(scope="module")
def p1_case(case_server) -> str:
    """A case of P1 on this module's server, made at the protocol level (tests/browser/case_links.py), for the
    tests that only read it (the downloads, the link's copy)."""
    return new_case(case_server.url, fx.P1_SBL)


@pytest.fixture(scope="module")
def p1_case_tab(contexts, case_server, p1_case):
    """One tab on the case page of :func:`p1_case` at 1366x768, opened by its link once and shared by the tests
    that only read the case (a fresh page costs a new session: the app, its map, a script run)."""
    tab = new_offline_page(contexts, case_server.url)
    tab.page.set_viewport_size({"width": 1366, "height": 768})
    tab.open(f"/case?case={p1_case}")
    tab.page.get_by_role("heading", name="Case & exports").wait_for(timeout=30_000)
    tab.settle()
    yield tab
    tab.page.close()


@pytest.fixture()
def case_tab(p1_case_tab, request):
    """The shared case tab, its record of blocked requests emptied; a screenshot of it if the test failed."""
    p1_case_tab.blocked.clear()
    yield p1_case_tab
    if request.node.stash.get(_REPORT, None) is not None:
        shot_if_failed(request, p1_case_tab)


def _pick_p1(app) -> str:
    app.open()
    app.choose_parcel(fx.P1_SBL)
    app.page.wait_for_url(CASE_ID, timeout=30_000)
    return CASE_ID.search(app.page.url).group(1)


def _shows_p1(app) -> None:
    app.wait_text(f"Tax parcel {fx.P1_SBL}")
    assert app.metric("Gross area") == "40,000"
    assert app.metric("Net lot area") == "20,000"


def _shown_link(app) -> str:
    """The case link in its box beside the "Copy link" button (app_support.widgets.copy_link)."""
    frame = app.page.frame_locator('iframe[srcdoc*="Copy link"]').first
    box = frame.locator("#link")
    box.wait_for(timeout=30_000)
    return box.input_value()


def _open_case_page(app) -> None:
    app.page.get_by_role("link", name="Case & exports").first.click()
    app.page.get_by_role("heading", name="Case & exports").wait_for(timeout=30_000)


def test_a_case_link_survives_a_reload_and_the_case_page_shows_it(case_page):
    app = case_page
    case_id = _pick_p1(app)
    _shows_p1(app)
    app.wait_parcel_in_view()
    app.shot("10_case_created")

    app.page.reload()  # a browser refresh: a new session, the same link
    app.page.locator("h1").first.wait_for(timeout=30_000)
    assert CASE_ID.search(app.page.url).group(1) == case_id
    _shows_p1(app)
    app.wait_parcel_in_view()
    app.shot("11_case_after_reload")

    _open_case_page(app)
    assert case_id in _shown_link(app)
    assert app.non_tile_blocked() == [], app.non_tile_blocked()


def test_the_case_page_saves_its_notes_as_the_cases_next_version(case_page, case_server):
    """A case of P1 (made at the protocol level, as a visitor's pick makes it) opened from its link on its case page:
    the notes typed there are saved as its next version."""
    app = case_page
    app.open(f"/case?case={new_case(case_server.url, fx.P1_SBL)}")
    app.page.get_by_role("heading", name="Case & exports").wait_for(timeout=30_000)
    version = int(re.search(r"version (\d+)", app.wait_text("· version ").inner_text()).group(1))
    notes = app.page.get_by_label("Notes (saved with the case", exact=False)
    notes.fill(NOTE)
    notes.press("Tab")  # leaving the box sends it, and the case is saved as its next version
    app.wait_text(f"· version {version + 1}", timeout_ms=30_000)
    assert app.non_tile_blocked() == [], app.non_tile_blocked()
    app.shot("12_case_page")


def test_a_case_link_survives_a_server_restart(contexts, case_server, request):
    """A case saved with a note (its notes box filled on the case page, at the protocol level) opens from its link
    after the server stops and starts again: its parcel, its figures, its note, and the link the app writes."""
    case_id = new_case_with_notes(case_server.url, fx.P1_SBL, NOTE)
    case_server.stop()  # the server goes away with every session it had
    case_server.start()
    for page in _offline_page(contexts, case_server.url, request):
        page.open(f"/?case={case_id}")
        _shows_p1(page)
        _open_case_page(page)
        page.page.wait_for_url(CASE_ID, timeout=30_000)  # the app writes the case into the new page's link
        assert CASE_ID.search(page.page.url).group(1) == case_id
        # the page may draw the box before the reopened case fills it: wait for the value
        expect(page.page.get_by_label("Notes (saved with the case", exact=False)).to_have_value(NOTE, timeout=15_000)
        assert page.non_tile_blocked() == [], page.non_tile_blocked()
        page.shot("13_case_after_restart")


def test_downloads_from_the_case_page(case_tab):
    app = case_tab
    with app.page.expect_download(timeout=60_000) as pdf:
        app.page.get_by_role("button", name="Pre-application summary (PDF)").click()
    assert Path(pdf.value.path()).read_bytes().startswith(b"%PDF")
    assert pdf.value.suggested_filename.endswith(".pdf")
    with app.page.expect_download(timeout=30_000) as whole:
        app.page.get_by_role("button", name="The whole case (JSON", exact=False).click()
    assert b'"format": "sloat-case"' in Path(whole.value.path()).read_bytes()
    app.shot("14_case_downloads")


def test_an_archived_case_link_still_shows_the_case_read_only(case_server, case_page):
    from app_support.cases.cases_ui import ARCHIVED_NOTICE
    from sloat_core.store import CaseStore, hash_passcode

    app = case_page
    case_id = new_case(case_server.url, fx.P1_SBL)  # made as a browser makes it, at the protocol level
    secret = "archive in the browser test"
    store = CaseStore(case_server.data_dir)  # the server's own database, archived as staff would
    store.archive(store.unlock_staff(secret, hash_passcode(secret, iterations=1000)).token, case_id)
    before = store.open_case(case_id, read_only=True).to_dict()

    app.open(f"/?case={case_id}")  # the resident's printed link, after the archive
    app.wait_text(ARCHIVED_NOTICE)
    _shows_p1(app)
    _open_case_page(app)
    assert case_id in _shown_link(app)
    expect(app.page.get_by_label("Notes (saved with the case", exact=False)).to_be_disabled()
    expect(app.page.get_by_role("button", name="Start a new case from this one")).to_be_visible()
    with app.page.expect_download(timeout=60_000) as pdf:
        app.page.get_by_role("button", name="Pre-application summary (PDF)").click()
    assert Path(pdf.value.path()).read_bytes().startswith(b"%PDF")  # it can still be printed
    assert store.open_case(case_id, read_only=True).to_dict() == before  # viewing wrote nothing
    app.shot("15_archived_case_read_only")


def test_copy_link_by_keyboard_and_the_fallback_when_the_clipboard_is_refused(case_server, p1_case, case_tab):
    """At 1366x768: the visible "Copy link" button copies the link with Enter from the keyboard;
    when the browser refuses the clipboard the link is selected in its box and a sentence says Ctrl+C."""
    from app_support.widgets.copy_link import COPIED, REFUSED

    app = case_tab
    page = app.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=case_server.url)
    link = _shown_link(app)
    assert link.endswith(f"?case={p1_case}")
    frame = page.frame_locator('iframe[srcdoc*="Copy link"]').first
    button = frame.get_by_role("button", name="Copy link")
    expect(button).to_be_visible()
    button.focus()
    page.keyboard.press("Enter")
    expect(frame.get_by_text(COPIED)).to_be_visible(timeout=10_000)
    assert page.evaluate("navigator.clipboard.readText()") == link
    app.shot("14_case_copy_link")
    # The clipboard refused (a browser without permission): the link is selected for Ctrl+C.
    handle = page.locator('iframe[srcdoc*="Copy link"]').first.element_handle()
    handle.content_frame().evaluate(
        "() => { window.__sloatWriteText = navigator.clipboard.writeText;"
        " navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); }")
    try:
        page.keyboard.press("Space")  # the button still has the focus
        expect(frame.get_by_text(REFUSED)).to_be_visible(timeout=10_000)
        selected = handle.content_frame().evaluate(
            "(() => { const b = document.getElementById('link'); return b.value.slice(b.selectionStart, b.selectionEnd); })()")
        assert selected == link
        app.shot("15_case_copy_link_refused")
    finally:  # the shared tab's clipboard as it was
        handle.content_frame().evaluate("() => { navigator.clipboard.writeText = window.__sloatWriteText; }")


def test_two_tabs_on_one_case_warn_at_the_top_of_the_page(case_server, case_page):
    """At 1366x768: the second tab on a case learns at the top of its page, on its first screen,
    that the other tab saved a newer version, with its two ways out; "Show the latest version" brings it.
    The first tab is a tab at the protocol level (tools/st_protocol.py: a browser's own messages), which makes the
    case and writes the note; the second is the browser's."""
    from app_support.cases.cases_ui import CONFLICT_NOTICE

    with Session(case_server.url) as first:
        case_id = start_case(first, fx.P1_SBL)
        second = case_page
        second.page.set_viewport_size({"width": 1366, "height": 768})
        second.open(f"/?case={case_id}")
        _shows_p1(second)
        write_notes(first, case_id, "Written in tab A.")  # tab A writes a note: a newer version of the case
        _open_case_page(second)  # tab B's next step
        warning = second.wait_text(CONFLICT_NOTICE[:60])
        box = warning.bounding_box()
        heading = second.page.get_by_role("heading", name="Case & exports").bounding_box()
        assert box["y"] + box["height"] <= 768 and box["y"] < heading["y"], (box, heading)  # above the page
        second.shot("16_case_two_tabs_warning")
        second.page.get_by_role("button", name="Show the latest version").click()
        expect(second.page.get_by_label("Notes (saved with the case", exact=False)).to_have_value(
            "Written in tab A.", timeout=15_000)
        expect(second.page.get_by_text(CONFLICT_NOTICE[:60])).to_have_count(0)
