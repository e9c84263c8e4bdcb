"""A screen reader's pass: what Orca, Debian's screen reader, says at the counter.

Orca runs for real on a virtual display (Xvfb) with the desktop's accessibility bus, and Debian's chromium
shows the app in an app window (no address bar) with its accessibility tree on. The keys are pressed through
the browser's debugging port; Orca hears the focus moves and live regions over the accessibility bus, as it
does for a person, and its debug log records every phrase it would speak (``SPEECH OUTPUT: '...'``), line by line
as it goes (Orca is started through orca_for_tests.py). The tests read those phrases: what a blind resident at the
counter hears after typing an address and pressing Enter.

The transcript is kept beside the screenshots (tests/artifacts/screen_reader_counter.txt).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from app_support.frame.announce import MAP_FRAME
from browser.conftest import POLL_MS, ARTIFACTS, _free_port
from offline_chromium import CHROMIUM

#: Seconds to wait for a phrase: Orca and chromium share two cores with the rest of the suite.
WAIT_S = 90.0
ADDRESS = "297 Johnsontown Road"  # a sample tax parcel's address (data/sample)
#: How long after the answer is said a second saying of its verdict is listened for, s (Orca says an alert within a
#: second); the Tabs to the handout are pressed meanwhile.
VERDICT_ROOM_S = 3.0


def _spoken(log: Path) -> list[str]:
    """Every phrase Orca spoke, in order, from its debug log."""
    if not log.exists():
        return []
    text = log.read_text(encoding="utf-8", errors="replace")
    return re.findall(r"SPEECH OUTPUT: '(.*?)'(?:\{|\[|$)", text, flags=re.M)


def _until(log: Path, test, what: str, since: int = 0) -> int:
    """Wait until a phrase spoken after the first ``since`` phrases passes ``test``; its index."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        phrases = _spoken(log)
        for i in range(since, len(phrases)):
            if test(phrases[i]):
                return i
        time.sleep(0.05)
    pytest.fail(f"Orca never said {what}; it said: {_spoken(log)[since:]}; the end of its log:\n{_log_tail(log)}")


def _is_handout(phrase: str) -> bool:
    return phrase.startswith("Download the one-page handout (PDF)") and "button" in phrase


def _said_within(log: Path, test, since: int, seconds: float) -> bool:
    """Whether a phrase spoken after the first ``since`` passes ``test`` within ``seconds`` (looked at every
    0.05 s): a wait that ends as soon as the phrase comes, and at ``seconds`` when none does."""
    deadline = time.monotonic() + seconds
    while True:
        if any(test(s) for s in _spoken(log)[since:]):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def _quiet(log: Path, seconds: float = 2.0) -> None:
    """Wait until Orca has said nothing new for ``seconds`` (it reads a frame's content as the frame finishes
    loading: a key pressed then is heard after, or in place of, that reading)."""
    deadline = time.monotonic() + WAIT_S
    count, since = len(_spoken(log)), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = len(_spoken(log))
        if now != count:
            count, since = now, time.monotonic()
        elif time.monotonic() - since >= seconds:
            return
    pytest.fail(f"Orca never fell quiet; it said: {_spoken(log)[-20:]}")


#: Seconds for Orca to say anything once the page is up, before its session is started again (see below).
ORCA_START_S = 40.0
#: Orca as the test starts it: its debug log written line by line, the Orca of other sessions left alone
#: (orca_for_tests.py says why).
ORCA_FOR_TESTS = Path(__file__).with_name("orca_for_tests.py")


def _orca_command() -> str:
    """The command that starts Orca through ORCA_FOR_TESTS, with the Python of orca's own first line (#!)."""
    first = Path(shutil.which("orca")).read_text(encoding="utf-8", errors="replace").splitlines()[0]
    return f"{first.removeprefix('#!').strip()} {ORCA_FOR_TESTS}"


def _start_session(url: str, where: Path):
    """Xvfb, a session bus with the accessibility bus, Orca, and chromium showing the counter, under ``where``:
    (the session's process, Xvfb's process, the debugging port, Orca's debug log)."""
    home = where / "home"
    home.mkdir(parents=True)
    log = where / "orca-debug.out"
    port = _free_port()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    display = ":" + xvfb.stdout.readline().strip()
    env = dict(os.environ, DISPLAY=display, HOME=str(home), XDG_RUNTIME_DIR=str(where),
               XDG_CONFIG_HOME=str(home / ".config"), NO_AT_BRIDGE="0", GTK_MODULES="gail:atk-bridge")
    script = (
        "/usr/libexec/at-spi-bus-launcher --launch-immediately & sleep 1; "
        f"{_orca_command()} --debug-file={log} & "
        # chromium once Orca is listening (it says "Screen reader on." then: about 0.6 s after it starts, quiet), at
        # most 10 s (then the session is judged as before: restarted when Orca says nothing of the page)
        f"i=0; until grep -qs 'Screen reader on' {log} || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done; "
        f"exec {CHROMIUM} --no-sandbox --test-type --disable-gpu --force-renderer-accessibility --no-first-run "
        f"--user-data-dir={where / 'profile'} --remote-debugging-port={port} --window-size=1366,768 "
        f"--app={url}/?mode=counter")
    session = subprocess.Popen(["dbus-run-session", "--", "sh", "-c", script], env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return session, xvfb, port, log


def _stop_session(session, xvfb) -> None:
    os.killpg(session.pid, signal.SIGTERM)
    try:
        session.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(session.pid, signal.SIGKILL)
    xvfb.terminate()
    xvfb.wait(10)
    xvfb.stdout.close()  # the pipe its display number was read from


def _open_session(url: str, where: Path, browser):
    """Orca and chromium showing the counter (see :func:`_start_session`), the page loaded and Orca heard saying it
    finished loading: (session, Xvfb, chromium's window over its debugging port, its page, Orca's debug log).

    The session is started again, at most twice, when Orca says nothing at all within ORCA_START_S of the page
    being up: once in a loaded CI run Orca's log stayed empty for 96 s (Orca had not joined the accessibility
    bus, or chromium had not joined it while Orca listened). What Orca then says is the test's to judge."""
    for attempt in range(3):
        session, xvfb, port, log = _start_session(url, where / f"session-{attempt}")
        window = None
        try:
            window, page = _page(browser, port)
            page.get_by_label("Tax parcel (SBL", exact=False).first.wait_for(timeout=WAIT_S * 1000)
            if attempt == 2 or _said_within(log, lambda s: s.startswith("Finished loading"), 0, ORCA_START_S):
                return session, xvfb, window, page, log
        except BaseException:
            _stop_session(session, xvfb)
            raise
        window.close()
        _stop_session(session, xvfb)
    raise AssertionError("unreachable")


class OrcaSession:
    """Orca and chromium showing the counter (:func:`_open_session`), shared by the module's claims: chromium's page
    (over its debugging port) and Orca's debug log."""

    def __init__(self, page, log: Path):
        self.page, self.log = page, log
        self.ready = False

    def counter_read(self) -> None:
        """Once: Orca has said the page finished loading, the map's frame is there and Orca has read it (its caption
        and layer list: a key pressed before then was heard as that reading, once in a loaded CI run)."""
        if not self.ready:
            _until(self.log, lambda s: s.startswith("Finished loading"), "that the page finished loading")
            self.page.frame_locator(MAP_FRAME).locator(".leaflet-container").wait_for(timeout=WAIT_S * 1000)
            _quiet(self.log)
            self.ready = True


@pytest.fixture(scope="module")
def orca_chromium(sample_app_url, tmp_path_factory, browser):
    """One Orca session for the module's claims (:class:`OrcaSession`). It is stopped after the last, and what Orca
    said is kept in tests/artifacts/screen_reader_counter.txt."""
    for tool in ("Xvfb", "orca", "dbus-run-session"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: `make test` installs it (make system-deps: orca xvfb dbus-x11)")
    session, xvfb, window, page, log = _open_session(sample_app_url, tmp_path_factory.mktemp("orca"), browser)
    try:
        yield OrcaSession(page, log)
    finally:
        window.close()  # the connection only: the window's chromium is stopped with its session
        _stop_session(session, xvfb)
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "screen_reader_counter.txt").write_text("\n".join(_spoken(log)) + "\n", encoding="utf-8")


def _page(browser, port: int):
    """The app window's page, through chromium's debugging port (it opens a moment after Orca), with the
    session's Playwright (one per worker: a second sync Playwright cannot start inside the first's loop)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            window = browser.browser_type.connect_over_cdp(f"http://127.0.0.1:{port}")
            return window, window.contexts[0].pages[0]
        except Exception:  # noqa: BLE001 (not listening yet)
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _log_tail(log: Path, lines: int = 15) -> str:
    """The end of Orca's debug log (not only its speech): whether it was alive and what it was doing."""
    if not log.exists():
        return "(no debug log)"
    return "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def _first_tab_stop(page, log: Path, start: int) -> int:
    """Press Tab once on the freshly loaded page; the index of the phrase Orca says for the first Tab stop.

    The browser's focus is checked first (it must be the skip link: that is the page's claim); Orca's phrase is
    then waited for. Orca speaks only for the window it believes active, and with no window manager chromium's
    app window is announced active when X gets round to it: once, in a loaded CI run, the Tab's focus move
    came before that and Orca, alive, said nothing for 90 s. When it is silent for 15 s the focus is moved off
    the link and back with the keyboard (Shift+Tab, Tab: still the first Tab stop), at most three times."""
    page.keyboard.press("Tab")  # the first Tab stop of the page: the app's one skip link
    page.wait_for_function("() => document.activeElement && document.activeElement.className === 'sloat-skip'",
                           timeout=WAIT_S * 1000, polling=POLL_MS)
    for _ in range(3):
        if _said_within(log, lambda s: s.endswith("link."), start, 15.0):
            return _until(log, lambda s: s.endswith("link."), "a link at the first Tab", start)
        page.keyboard.press("Shift+Tab")
        page.wait_for_function("() => !document.activeElement || document.activeElement.className !== 'sloat-skip'",
                               timeout=WAIT_S * 1000, polling=POLL_MS)
        page.keyboard.press("Tab")
    if _said_within(log, lambda s: s.endswith("link."), start, 30.0):
        return _until(log, lambda s: s.endswith("link."), "a link at the first Tab", start)
    pytest.fail(f"Orca never said a link at the first Tab; it said: {_spoken(log)[start:]}; "
                f"the end of its log:\n{_log_tail(log)}")


def test_orca_says_the_one_skip_link_at_the_first_tab_of_the_counter(orca_chromium):
    """Before a parcel is chosen the first Tab stop is the page's skip link, to the page's heading (after one, to the
    results); Streamlit's own "Skip to main content" is hidden, so there is one skip link, not two."""
    orca_chromium.counter_read()
    page, log = orca_chromium.page, orca_chromium.log
    start = len(_spoken(log))
    first = _first_tab_stop(page, log, start)
    assert _spoken(log)[first] == "Skip to the main content link."


def test_orca_says_the_answer_after_a_search_at_the_counter_and_tab_goes_on_to_the_handout(orca_chromium):
    orca_chromium.counter_read()
    page, log = orca_chromium.page, orca_chromium.log
    start = len(_spoken(log))
    box = page.get_by_label("Tax parcel (SBL", exact=False).first
    box.focus()
    _until(log, lambda s: s.startswith("Tax parcel (SBL"), "the search field's name", start)
    page.keyboard.type(ADDRESS)
    before = len(_spoken(log))
    page.keyboard.press("Enter")
    # the live region: the parcel, its net lot area and the lot's whole size, said without moving there
    said = _until(log, lambda s: "Net lot area" in s and "sq ft" in s, "the net lot area", before)
    assert re.search(r"Tax parcel \d{3}\.\d{2}-\d+-\d+", _spoken(log)[said])
    # the focus moved to the answer (Orca says "The results for this parcel" as it lands there when it is not
    # busy reading the live region: not a claim here; where the focus is, the browser says)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'sloat-answer'",
                           timeout=WAIT_S * 1000, polling=POLL_MS)
    # the verdict is said in words, once: in the live region's phrase (the answer card, a warning box, was an
    # alert too and Orca said the verdict a second time before it; it is no longer a live region)
    assert "lot size" in _spoken(log)[said] and "short" in _spoken(log)[said], _spoken(log)[said]
    answered = time.monotonic()

    # from the answer, Tab reaches the handout before any control of the map
    after = len(_spoken(log))
    for _ in range(8):  # up to eight Tabs, each given up to 0.8 s to be said; none after the handout is said
        if _said_within(log, _is_handout, after, 0.0):
            break
        count = len(_spoken(log))
        page.keyboard.press("Tab")
        _said_within(log, lambda s: True, count, 0.8)
    handout = _until(log, _is_handout, "the handout button", after)
    map_controls = [i for i, s in enumerate(_spoken(log)) if i >= after and s.startswith("Zoom in")]
    assert not map_controls or handout < map_controls[0]

    # the verdict was said once: nothing said in the VERDICT_ROOM_S after the answer (the Tabs above included) says
    # it again, nor the answer card's heading
    time.sleep(max(0.0, VERDICT_ROOM_S - (time.monotonic() - answered)))
    verdicts = [s for s in _spoken(log)[before:] if "counts toward the lot size" in s]
    assert len(verdicts) == 1, verdicts
    assert not [s for s in _spoken(log)[before:] if s.startswith("What this means for your lot")], \
        _spoken(log)[before:]
