"""What the Timeline page shows, worked out without drawing anything (logic out of pages/timeline.py).

The page gathers the items and the day, calls these, and renders. Nothing here decides law: the dates come
from :func:`sloat_core.rules.clocks.timeline_events`.
"""

from __future__ import annotations

import datetime as dt

import pandas as pd

from app_support.analysis_door import ITEM_KINDS, SloatInputError, timeline_events
from app_support.inputs import timeline_prefill
from app_support.widgets import charts
from app_support.widgets.citations import escape_markdown

__all__ = ["unique_items", "duplicate_sentence", "suggestion_line", "item_name", "timeline_rows", "events_frame",
           "row_citations", "project_clock_events", "PROJECT_CLOCKS_ITEM"]

#: The Item column of the project's state-law clocks (Village Law, GML § 239-m / § 239-n).
PROJECT_CLOCKS_ITEM = "Your project (state law)"


def unique_items(kept: list[dict]) -> list[dict]:
    """The items with each repeat dropped (the same item twice would be twice in the .ics).

    >>> unique_items([{"id": "grading", "final_grade": "2026-01-02"}] * 2)
    [{'id': 'grading', 'final_grade': '2026-01-02'}]
    """
    return [it for i, it in enumerate(kept) if it not in kept[:i]]


def duplicate_sentence(items: list[dict], new: dict) -> str | None:
    """The sentence refusing ``new`` when it is already on the timeline, else None (the duplicate-item guard)."""
    if new not in items:
        return None
    return (f"This {ITEM_KINDS.get(new.get('id'), 'item')} with these dates is already on the timeline "
            f"(item {items.index(new) + 1}); it was not added again.")


def suggestion_line(s: timeline_prefill.Suggestion, *, standard: bool) -> str:
    """One bullet: the permit, its §, (its reason in Standard mode) and whether it is on the timeline."""
    title = f"**{escape_markdown(s.title)}** ({escape_markdown(s.citation)})"
    if s.already_added:
        todo = "Already on your timeline."
    else:
        todo = "Add its dates below: " + ", ".join(ITEM_KINDS[k] for k in s.to_add) + "."
        if s.on_timeline:
            todo = "On your timeline: " + ", ".join(ITEM_KINDS[k] for k in s.on_timeline) + ". " + todo
    reason = f"{s.reason} " if standard and s.reason else ""
    return f"{title}. {escape_markdown(reason + todo)}"


def item_name(n: int, item: dict) -> str:
    """ "2. Wetland permit W-7": the item's number on the page, its kind and its name or number."""
    ref = f" {item['ref']}" if item.get("ref") else ""
    return f"{n}. {ITEM_KINDS[item['id']].capitalize()}{ref}"


def project_clock_events(project: dict | None, as_of: dt.date) -> list:
    """The dated state-law clocks of the session's project (the Village Law hearing, decision, default approval
    and plat filing; the county's 30 days), as of the timeline's day: the core's
    :func:`sloat_core.approvals.village_law.approval_events` from the dates the Proposed project page was given.
    Empty without a project or those dates, or when the project cannot be read (the project page says why).

    >>> [e.id for e in project_clock_events({"application_type": "site_plan",
    ...                                      "hearing_closed_date": "2026-10-25"}, dt.date(2026, 11, 1))]
    ['site-plan-decision-deadline']
    >>> project_clock_events(None, dt.date(2026, 11, 1))
    []
    """
    if not project:
        return []
    from app_support.analysis_door import approval_events, parse_project

    try:
        proj = parse_project(project)
    except SloatInputError:
        return []
    return approval_events(proj.application_type, proj.approvals, as_of)


def timeline_rows(items: list[dict], as_of: dt.date, project_events=()):
    """(rows, events, seasons, season_events) of the items as of a day.

    ``rows`` are one dict per event of each item (item, date, label, status, citation, kind, detail), then
    one per event of ``project_events`` (:func:`project_clock_events`, item :data:`PROJECT_CLOCKS_ITEM`);
    ``events`` those of all items together, the project's with them (for the .ics); ``seasons`` the winter
    no-bare-slope seasons around the dates, as (start, end) pairs, from ``season_events``.

    Raises
    ------
    sloat_core.errors.SloatInputError
        The core's sentence when an item cannot be used.
    """
    rows = []
    for n, item in enumerate(items, start=1):
        for e in timeline_events([item], as_of):
            rows.append({"item": item_name(n, item), "date": e.date, "label": e.label, "status": e.status,
                         "citation": e.citation, "kind": e.kind, "detail": f"{e.detail} {e.note}".strip()})
    for e in project_events:
        rows.append({"item": PROJECT_CLOCKS_ITEM, "date": e.date, "label": e.label, "status": e.status,
                     "citation": e.citation, "kind": e.kind, "detail": f"{e.detail} {e.note}".strip()})
    events = sorted(timeline_events(items, as_of) + list(project_events), key=lambda e: (e.date, e.id))
    years = [d.year for d in [as_of, *(r["date"] for r in rows)]]
    season_items = [{"id": "winter_season", "year": y} for y in range(min(years) - 1, max(years) + 1)]
    season_events = timeline_events(season_items, as_of)
    starts = [e.date for e in season_events if e.kind == "season_start"]
    ends = [e.date for e in season_events if e.kind == "season_end"]
    return rows, events, list(zip(starts, ends)), season_events


def events_frame(rows: list[dict], *, large: bool) -> pd.DataFrame:
    """The dates as a table, by date; on a projector only the date, what, status and § columns."""
    frame = pd.DataFrame([{
        "Date": r["date"].isoformat(),
        "What": r["label"],
        "Status": charts.STATUS_LABELS.get(r["status"], r["status"]),
        "§": r["citation"],
        "Item": r["item"],
        "How it is worked out": r["detail"],
    } for r in sorted(rows, key=lambda r: r["date"])])
    return frame[["Date", "What", "Status", "§"]] if large else frame


def row_citations(rows: list[dict]) -> list[str]:
    """Each § of Article IX the rows cite, once, in order of first use (the Law page holds Article IX; a state
    law's clause, "Village Law § 7-728(5)(d)", "GML § 239-m(4)(b)", stays in the table's § column).

    >>> row_citations([{"citation": "§ 402-57L"}, {"citation": "Village Law § 7-728(5)(d)"}, {"citation": "§ 402-57L"}])
    ['§ 402-57L']
    """
    return list(dict.fromkeys(c.strip() for r in rows for c in r["citation"].split(",") if c.strip().startswith("§")))
