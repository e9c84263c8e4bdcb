"""The timeline engine: dated items in, dated events out, each with its clause, words and status.

:func:`timeline_events` turns a list of dated items (a permit issued on a day, an application
deemed complete on a day, a study dated a day ...) into dated events, each with the clause of
Article IX that sets it, a plain-English label and a status as of a given day.
The events are written as an RFC 5545 calendar file by :func:`sloat_core.outputs.ics.to_ics`.

The clocks themselves (which keys an item takes, the rule that dates its events, its words) are
declared in the module of their section (`rules.sections`, e.g. ``s402_57_wetlands.PERMIT_CLOCK``);
:data:`ITEM_KINDS` lists their ids. The calendar they count on is `law.calendar`.

Readings
--------
* "Valid for a period of one year from the date of issue": the date shown is the last day of the
  period, the anniversary of the start (the day of issue itself is not counted, the last day is).
  This is the reading used throughout; confirm it with the Village for a real deadline.
* "At least N days prior to" a date: the last day that satisfies it is that date minus N days.
* Every number comes from ``data/law/parameters.yaml`` through :func:`sloat_core.law.params.param`,
  and each event's citation is the parameter's citation; an item's numbers are those in effect on the
  day its clock starts.

Items
-----
Each item is ``{"id": <clock id>, <its keys>..., "ref": optional}``. ``ref`` (a short name such as a
permit number) is added to the event ids and labels, so two permits of the same kind stay apart.
Dates are ``datetime.date`` or ISO strings ``"YYYY-MM-DD"``.

Statuses (worked out by :func:`sloat_core.law.events.status_as_of`)
--------
Expiry kinds (``expires``, ``valid_until``, ``latest_extended_expiry``): ``"active"``,
``"expiring"`` (the date is within the "expiring soon" window, inclusive: 90 days in the local
settings), ``"expired"`` (the day after the date). Every other kind is a deadline or a date to
watch: ``"upcoming"``, ``"due_soon"`` (same window, inclusive), ``"passed"``. A wetland delineation
given with its filing date, or a wetland permit application with its hearing date, gets ``"met"`` or ``"missed"``
instead (its clock's ``met_by``). A deadline's status is read against the day its General Construction Law
§ 25-a note gives (``calendar.act_by``): a hearing due on a Saturday and held on the next business day is met. "Not before" kinds
(``calendar.NOT_BEFORE_KINDS``: the earliest day to clear, the earliest end of a performance guarantee, the
first day an unpaid charge can be a lien) get ``"not_yet"`` before the day and ``"reached"`` from it.

Weekends and holidays
---------------------
The event date is always the statutory date. Where a deadline for an act falls on a Saturday, Sunday
or New York public holiday (the ``holidays`` package), ``note`` says that General Construction Law
§ 25-a carries the act to the next business day, and which day that is (a reading: confirm with the
Village).
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Iterable

from sloat_core.errors import SloatInputError
from sloat_core.law import calendar as cal
from sloat_core.law.calendar import BACKWARD_KINDS, EXPIRY_KINDS, NOT_BEFORE_KINDS, PERIOD_KINDS, act_by
from sloat_core.law.events import Event, status_as_of
from sloat_core.rules.sections import CLOCKS
from sloat_core.rules.sections.clock import Reader

__all__ = ["CLOCKS", "ITEM_KINDS", "timeline_events"]

#: Every clock, by its item id (declared in the sections, `rules.sections.CLOCKS`).
_BY_ID = {c.id: c for c in CLOCKS}
#: The item ids :func:`timeline_events` understands, with their plain names.
ITEM_KINDS: dict[str, str] = {c.id: c.name for c in CLOCKS}


def _gcl_note(kind: str, date: _dt.date) -> str:
    """General Construction Law § 25-a note for a deadline on a Saturday, Sunday or public holiday."""
    if kind in EXPIRY_KINDS or kind in NOT_BEFORE_KINDS or kind in PERIOD_KINDS:
        return ""
    why = cal.closed(date)
    if not why:
        return ""
    on = f"{cal.nice(date)} is a {why}" if " " not in why else f"{cal.nice(date)} is {why}"
    if kind in BACKWARD_KINDS:
        before = date - _dt.timedelta(days=1)
        while cal.closed(before):
            before -= _dt.timedelta(days=1)
        return (f"{on}: this deadline counts back from a later day, so act by the business day before, "
                f"{cal.nice(before)}, to be safe (confirm with the Village).")
    # Reading (README "Readings"): GCL § 25-a lets an act due within a period that ends on a Saturday,
    # Sunday or public holiday be done on the next business day; the statutory date stays the event's date.
    # The day named is the one the status is read against (act_by).
    return (f"{on}: under New York General Construction Law § 25-a the act may be done on the next business "
            f"day, {cal.nice(act_by(kind, date))} (confirm with the Village).")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


def _clock_start(raw: dict, keys: Iterable[str]) -> _dt.date | None:
    """The earliest well-formed date among an item's date keys: the day its clock starts.

    Reading: a clock runs by the law in effect when it starts (a permit issued today keeps its term if
    the term is amended later), so the item's numbers are read as in effect on that day (``Reader.on``).
    A malformed date is left to the rule, which names it.

    >>> _clock_start({"issued": "2026-03-01", "expires": "2027-03-01"}, ("issued", "expires"))
    datetime.date(2026, 3, 1)
    """
    found = []
    for key in keys:
        text = raw.get(key)
        if isinstance(text, str) and cal.ISO_RE.match(text.strip()):
            try:
                found.append(_dt.date.fromisoformat(text.strip()))
            except ValueError:
                continue
    return min(found, default=None)


def timeline_events(
    items: Iterable[dict], as_of: _dt.date | str, *, expiring_soon_days: int | None = None
) -> list[Event]:
    """All the dates Article IX sets for the given items, sorted by date.

    Parameters
    ----------
    items : list of dict
        Each ``{"id": <item id>, <date keys>..., "ref": optional}``; see the module docstring.
    as_of : datetime.date or str
        The day the statuses are computed for. Each item's numbers (terms, notice periods) are those in
        effect on the day its clock starts, its earliest date (:func:`_clock_start`), passed to its rule
        (``Reader.on``).
    expiring_soon_days : int, optional
        The "expiring soon" window; default from the local settings (90 days).

    Returns
    -------
    list of Event
        Sorted by date, then id.

    Raises
    ------
    SloatInputError
        For an unknown item id, a missing or impossible date, an expiry before an issue date, an
        out-of-range number, or an unknown key; the message names the item.

    Examples
    --------
    >>> [(e.kind, e.date.isoformat()) for e in timeline_events(
    ...     [{"id": "biodiversity_study", "dated": "2024-02-29"}], "2026-01-01", expiring_soon_days=90)]
    [('valid_until', '2027-02-28')]
    """
    as_of = cal.as_date(as_of, "The 'as of' date")
    if expiring_soon_days is None:
        from sloat_core.law.settings import load_settings

        expiring_soon_days = load_settings().expiring_soon_days
    if isinstance(items, dict) or isinstance(items, (str, bytes)):
        raise SloatInputError("The timeline needs a list of items, each with an 'id' and its dates.")
    events: list[Event] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(items, start=1):
        if not isinstance(raw, dict):
            raise SloatInputError(f"Timeline item {n} is not a set of named dates.")
        item_id = raw.get("id")
        if not isinstance(item_id, str) or not item_id.strip():
            raise SloatInputError(f"Timeline item {n} has no 'id' saying what it is.")
        item_id = item_id.strip()
        if item_id not in _BY_ID:
            raise SloatInputError(
                f"Timeline item {n} has an unknown id, {item_id[:60]!r}; the ids are listed in the README's "
                f"command-line section ({', '.join(list(_BY_ID)[:3])}, ...)."
            )
        clock = _BY_ID[item_id]
        keys = clock.keys
        ref = raw.get("ref")
        ref = str(ref).strip() if ref not in (None, "") else None
        extra = sorted(set(raw) - set(keys) - {"id", "ref"})
        if extra:
            raise SloatInputError(
                f"The {clock.name} has keys the timeline does not know ({', '.join(extra)}); "
                f"it takes {', '.join(keys)}."
            )
        base = _slug(item_id) + (f"-{_slug(ref)}" if ref else "")
        seen[base] = seen.get(base, 0) + 1
        if seen[base] > 1:
            base = f"{base}-{seen[base]}"
        item = Reader(raw, clock, ref, _clock_start(raw, keys) or as_of)  # the law of the day the clock starts
        counts: dict[str, int] = {}
        met_key, met_kind = clock.met_by or (None, None)
        met = item.date(met_key) if met_key else None
        produced = list(clock.rule(item))
        for kind, date, citation, label, detail in produced:
            counts[kind] = counts.get(kind, 0) + 1
            eid = f"{base}-{_slug(kind)}" + (f"-{counts[kind]}" if kind == clock.repeats else "")
            done = met if met is not None and kind == met_kind else None
            status = status_as_of(kind, date, as_of, expiring_soon_days, done)
            events.append(Event(eid, item_id, kind, date, citation, status, label, detail, _gcl_note(kind, date)))
    events.sort(key=lambda e: (e.date, e.id))
    return events
