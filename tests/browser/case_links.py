"""Cases made at the protocol level (tools/st_protocol.py), for browser tests that start from a case link.

A browser test whose claim is about a page reached from a case link (the walk-through, the Plan page, the case
page) need not find the parcel through the UI first: the case is made here by the same websocket messages a
browser sends (the parcel typed into the parcel finder, a plan file put into the Plan page's uploader), with no
page drawn, and the test opens its link. Finding a parcel in the browser keeps its own tests
(test_browser_app.py, test_browser_search.py, test_browser_cases.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from st_protocol import Session  # noqa: E402

#: The parcel finder's label (as the browser tests find it: app_support.inputs.parcel_inputs).
FINDER = "Tax parcel (SBL"
#: The case page's notes box (pages/case.py).
NOTES = "Notes (saved with the case"
#: The Plan page's uploader of the plan (pages/plan.py).
PLAN_UPLOADER = "Plan file (DXF"


def _case_of(session: Session) -> str:
    params = dict(p.split("=", 1) for p in session.query_string.split("&") if "=" in p)
    if "case" not in params:
        raise AssertionError(f"no case in the link after the parcel was found: {session.query_string!r}; "
                             f"shown: {session.last.texts()[:20] if session.last else []}")
    return params["case"]


def new_case(url: str, parcel: str) -> str:
    """The id of a new case on the server at ``url``: ``parcel`` (an SBL or an address that matches one parcel)
    typed into the parcel finder, as a visitor types it."""
    with Session(url) as session:
        session.open("/?mode=standard")
        session.type_into(FINDER, parcel)
        return _case_of(session)


def new_case_with_plan(url: str, parcel: str, name: str, data: bytes) -> str:
    """A new case of ``parcel`` whose plan is the file ``name`` (``data``), uploaded on the Plan page."""
    with Session(url) as session:
        session.open("/?mode=standard")
        session.type_into(FINDER, parcel)
        case = _case_of(session)
        session.go("plan", f"case={case}&mode=standard")
        put, run = session.upload(PLAN_UPLOADER, name, data)
        if run is None:
            raise AssertionError(f"the plan's upload was refused: {put.status_code} {put.text[:200]}")
        if run.exceptions() or not run.of_type("table"):
            raise AssertionError(f"the Plan page shows no lot table after the upload: {run.exceptions()}; "
                                 f"shown: {run.texts()[:20]}")
        return case


def new_case_with_notes(url: str, parcel: str, notes: str) -> str:
    """A new case of ``parcel`` with ``notes`` written in the case page's notes box (saved as its next version)."""
    with Session(url) as session:
        case = start_case(session, parcel)
        write_notes(session, case, notes)
        return case


def start_case(session: Session, parcel: str) -> str:
    """In ``session`` (one tab at the protocol level): a new case of ``parcel``, typed into the parcel finder."""
    session.open("/?mode=standard")
    session.type_into(FINDER, parcel)
    return _case_of(session)


def write_notes(session: Session, case: str, notes: str) -> None:
    """In ``session``, on ``case``'s case page: ``notes`` written in its notes box, saved as the case's next version."""
    before = _version(session.go("case", f"case={case}&mode=standard"))
    run = session.set_widget(session.last.widget("text_area", NOTES), notes, "text_area")
    if run.exceptions() or _version(run) != before + 1:
        raise AssertionError(f"the notes were not saved as the case's next version: {run.exceptions()}; "
                             f"shown: {run.texts()[:30]}")


def _version(run) -> int:
    """The case's version as the case page shows it ("... · version N")."""
    found = [m.group(1) for t in run.texts() for m in [re.search(r"· version (\d+)", t)] if m]
    if not found:
        raise AssertionError(f"no case version shown: {run.texts()[:30]}")
    return int(found[0])
