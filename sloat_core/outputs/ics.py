"""The deadlines as an iCalendar file (RFC 5545), written by the ``icalendar`` library.

The events come from :func:`sloat_core.rules.clocks.timeline_events`: one all-day VEVENT per event,
its DESCRIPTION naming the § that sets it, a UID stable across exports of the same calendar (a
re-import updates rather than duplicates), and a reminder (VALARM) before each deadline and expiry
("not before" days and season marks get none).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from typing import Iterable

import icalendar

from sloat_core.law.calendar import NOT_BEFORE_KINDS, PERIOD_KINDS
from sloat_core.law.events import Event

__all__ = ["to_ics"]


def to_ics(
    events: Iterable[Event], *, calendar_name: str, dtstamp: _dt.datetime | None = None, reminder_days: int = 7
) -> str:
    """The events as an iCalendar file (RFC 5545, written by the ``icalendar`` library).

    Parameters
    ----------
    events : iterable of Event
    calendar_name : str
        Shown by calendar programs (``X-WR-CALNAME``); also part of every UID, so the same
        event in the same calendar keeps its UID from one export to the next, and a calendar
        program updates the event on a re-import instead of adding a copy.
    dtstamp : datetime, optional
        Creation time written as DTSTAMP (UTC); default now.
    reminder_days : int
        Every deadline and expiry gets a reminder (VALARM) this many days before; "not before" days
        and season marks get none.

    Returns
    -------
    str
        One all-day VEVENT per event; CRLF line ends, lines folded at 75 octets, text escaped; the
        DESCRIPTION of each event names its § citation.
    """
    if dtstamp is None:
        dtstamp = _dt.datetime.now(_dt.timezone.utc)
    elif dtstamp.tzinfo is not None:
        dtstamp = dtstamp.astimezone(_dt.timezone.utc)
    else:
        dtstamp = dtstamp.replace(tzinfo=_dt.timezone.utc)
    cal_key = hashlib.sha256(calendar_name.encode("utf-8")).hexdigest()[:10]
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Village of Sloatsburg Article IX dashboard//sloat_core//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", icalendar.vText(calendar_name))
    for e in events:
        description = (
            f"{e.label}. {e.detail} {e.note + ' ' if e.note else ''}Source: {e.citation} (Village of Sloatsburg "
            f"Code, Chapter 402, Article IX). Status when exported: {e.status.replace('_', ' ')}. Dates are worked "
            "out from the law's text; confirm them with the Village."
        )
        ev = icalendar.Event()
        ev.add("uid", f"{e.id}.{cal_key}@sloat-core")
        ev.add("dtstamp", dtstamp)
        ev.add("dtstart", e.date)
        ev.add("dtend", e.date + _dt.timedelta(days=1))
        ev.add("summary", e.label)
        ev.add("description", description)
        ev.add("categories", [e.kind.replace("_", " ")])
        ev.add("transp", "TRANSPARENT")
        if e.kind not in NOT_BEFORE_KINDS and e.kind not in PERIOD_KINDS and reminder_days > 0:
            alarm = icalendar.Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("trigger", _dt.timedelta(days=-reminder_days))
            alarm.add("description", f"In {reminder_days} days: {e.label} ({e.citation})")
            ev.add_component(alarm)
        cal.add_component(ev)
    return cal.to_ical().decode("utf-8")
