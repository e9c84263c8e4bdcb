"""Every link works on the first visit after a start: deep links run inside app.py's frame.

Streamlit decides once per process, at the first session, whether the ``pages/`` folder makes the app
an old-style multipage app (each page file run alone, with no sidebar, no display mode, no case). The
launcher (``tools/serve.py``: ``make run`` and the systemd unit start the app through it) settles that
before the first visitor. Each test restarts the server and opens a deep link *first*, then every page in
every display mode, never the root page (which would run app.py and hide the fault), at the protocol
level (tools/st_protocol.py: the browser's own websocket messages).

Checked on every link: the page list is app.py's (its titles, not file names), the sidebar's display
mode is the link's, no exception, and with ``?case=`` the case's parcel is shown (no "choose a parcel").
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import app_fixtures as fx  # noqa: E402
from served_app import Launcher  # noqa: E402
from st_protocol import Session  # noqa: E402

pytestmark = pytest.mark.xdist_group("deploy")

MODES = {"standard": "Standard", "counter": "Counter", "projector": "Projector"}
#: Pages that show the parcel's figures when a case is open (the gross area of tax parcel P1).
FIGURE_PAGES = {"parcel", "walkthrough", "case"}


def _app_pages() -> dict[str, str]:
    """url name -> title, from app.py's PAGES list (read, not imported: app.py is a Streamlit script)."""
    tree = ast.parse((ROOT / "app.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "PAGES":
            return {Path(path).stem: title for path, title, _icon in ast.literal_eval(node.value)}
    raise AssertionError("app.py has no PAGES list")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    launcher = Launcher.on_hand_built_layers(tmp_path_factory.mktemp("deep_links"))
    launcher.start()
    with Session(launcher.url) as s:  # a case saved in an earlier life of the server
        s.open("/")
        run = s.type_into("Tax parcel (SBL", fx.P1_SBL)
        assert "case=" in (run.query_string or ""), "picking a tax parcel did not create a case"
        case_id = dict(p.split("=", 1) for p in run.query_string.split("&"))["case"]
    launcher.stop()
    yield launcher, case_id
    launcher.stop()


def _check_frame(url: str, link: str, *, page: str, mode: str, case_id: str | None) -> None:
    with Session(url) as s:
        run = s.open(link)
        assert not run.exceptions(), f"{link}: {run.exceptions()}"
        titles = [p.page_name for p in run.navigation.app_pages] if run.navigation else []
        assert titles == list(_app_pages().values()), f"{link} ran without app.py's frame (pages {titles})"
        radio = run.widget("radio", "Display mode")
        shown_mode = radio.raw_value if radio.HasField("raw_value") else radio.options[radio.default]
        assert shown_mode == MODES[mode], f"{link}: display mode {shown_mode}"
        if case_id:
            assert f"case={case_id}" in s.query_string, f"{link}: the case left the URL ({s.query_string})"
            assert not run.has_text("Choose a parcel"), f"{link}: the case was not opened"
            if page in FIGURE_PAGES:
                shown = [m.body for m in run.of_type("metric") if m.label.startswith(("Gross area", "Your whole lot"))]
                assert shown and shown[0].startswith("40,000"), f"{link}: the case's parcel is not shown ({shown})"


@pytest.mark.parametrize("first", ["/walkthrough?case={case}&mode=projector", "/case?case={case}",
                                   "/timeline?mode=counter"])
def test_a_deep_link_opened_first_after_a_restart_runs_inside_the_frame(server, first):
    """A deep link first in a fresh process; then (after the first two) every page in every mode, with the
    case and without, never "/" until the end. (A restart costs seconds: three kinds of first link.)"""
    launcher, case_id = server
    url = launcher.start()
    try:
        link = first.format(case=case_id)
        page = link.split("?")[0].strip("/")
        mode = next((m for m in MODES if f"mode={m}" in link), "standard")
        _check_frame(url, link, page=page, mode=mode, case_id=case_id if "case=" in link else None)
        if first.startswith("/timeline"):
            return
        with_case = first.startswith("/walkthrough")
        for name in _app_pages():
            for mode in MODES:
                query = f"case={case_id}&mode={mode}" if with_case else f"mode={mode}"
                _check_frame(url, f"/{name}?{query}", page=name, mode=mode, case_id=case_id if with_case else None)
        _check_frame(url, "/", page="parcel", mode="standard", case_id=None)
    finally:
        launcher.stop()


def test_a_deep_link_opened_first_after_a_bare_streamlit_run_also_runs_inside_the_frame(server, tmp_path):
    """Started as ``streamlit run app.py`` (no launcher: nothing settles the page mode before the first
    visitor), a deep link opened first still gets app.py's frame, its case and its display mode; and so does
    every page after it. (Every page asks for the frame the same way: the test below.)"""
    launcher, case_id = server
    bare = Launcher(launcher.env, tmp_path / "bare.log", bare=True)
    url = bare.start()
    try:
        _check_frame(url, f"/walkthrough?case={case_id}&mode=projector", page="walkthrough", mode="projector",
                     case_id=case_id)
        for name in _app_pages():
            _check_frame(url, f"/{name}?case={case_id}&mode=standard", page=name, mode="standard", case_id=case_id)
    finally:
        bare.stop()


def test_every_page_asks_for_the_frame_before_it_shows_anything():
    """Each file in pages/ calls ``deep_links.require()`` as its first statement after the imports, so whichever
    page a bare start's first link names, it is run again through app.py before it renders a thing."""
    for path in sorted((ROOT / "pages").glob("*.py")):
        body = [n for n in ast.parse(path.read_text()).body
                if not isinstance(n, (ast.Import, ast.ImportFrom))
                and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]  # the docstring
        first = ast.unparse(body[0]) if body else ""
        assert first == "deep_links.require()", (
            f"{path.name}: the first statement is {first!r}, not deep_links.require()")
