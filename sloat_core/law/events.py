"""Events on the calendar and their status on a day: the timeline's and the approvals' one type.

An :class:`Event` is one dated event (a permit's expiry, a hearing's deadline, the day a county's review ends),
with the clause that sets it, plain words and its status as of the day asked about. :func:`status_as_of` is the
one place a status is worked out, against the day General Construction Law § 25-a gives
(:func:`sloat_core.law.calendar.act_by`). The Article IX clocks that make events are in
:mod:`sloat_core.rules.clocks`; the Village Law clocks in :mod:`sloat_core.approvals.village_law`.

Statuses
--------
Expiry kinds (``expires``, ``valid_until``, ``latest_extended_expiry``): ``"active"``, ``"expiring"`` (within the
"expiring soon" window, inclusive), ``"expired"`` (the day after the date). Deadlines and dates to watch:
``"upcoming"``, ``"due_soon"``, ``"passed"``, or ``"met"`` / ``"missed"`` when the day the act was done is known.
"Not before" kinds (``calendar.NOT_BEFORE_KINDS``): ``"not_yet"`` before the day, ``"reached"`` from it.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import asdict, dataclass

from sloat_core.law.calendar import EXPIRY_KINDS, NOT_BEFORE_KINDS, act_by

__all__ = ["DEADLINE_STATUSES", "DONE_STATUSES", "EXPIRY_STATUSES", "NOT_BEFORE_STATUSES", "STATUS_WORDS", "Event",
           "status_as_of"]

EXPIRY_STATUSES = ("active", "expiring", "expired")
DEADLINE_STATUSES = ("upcoming", "due_soon", "passed")
NOT_BEFORE_STATUSES = ("not_yet", "reached")
#: Statuses with nothing left to wait for: the date has passed, or a "not before" day has come
#: ("reached": the act may happen now). "not_yet" is still ahead.
DONE_STATUSES = frozenset({"passed", "expired", "met", "missed", "reached"})
#: Each status in words, the same in the app's timeline and the PDF report.
STATUS_WORDS = {
    "active": "Active",
    "expiring": "Expiring soon",
    "expired": "Expired",
    "upcoming": "Upcoming",
    "due_soon": "Due soon",
    "passed": "Passed",
    "met": "Met",
    "missed": "Missed",
    "not_yet": "Not before this day",
    "reached": "From this day on",
}


@dataclass(frozen=True)
class Event:
    """One dated event of the timeline.

    Attributes
    ----------
    id : str
        Stable slug, e.g. ``"wetland-permit-expires"`` (also the basis of the calendar UID).
    item_id : str
        The item it came from, e.g. ``"wetland_permit"``.
    kind : str
        ``"expires"``, ``"extension_request_deadline"``, ``"hearing_deadline"`` ...
    date : datetime.date
    citation : str
        The clause of Article IX that sets the date, e.g. ``"§ 402-57J(4)"``.
    status : str
        As of the day asked about (see the module docstring).
    label : str
        One plain-English line.
    detail : str
        How the date was worked out, in plain English.
    """

    id: str
    item_id: str
    kind: str
    date: _dt.date
    citation: str
    status: str
    label: str
    detail: str = ""
    #: Set when the date of a deadline is a Saturday, Sunday or public holiday (General Construction Law § 25-a).
    note: str = ""

    def to_dict(self) -> dict:
        """The event as JSON-ready values (date as ISO text)."""
        d = asdict(self)
        d["date"] = self.date.isoformat()
        return d


def status_as_of(kind: str, date: _dt.date, as_of: _dt.date, expiring_soon_days: int,
                 done: _dt.date | None = None) -> str:
    """Status of an event of ``kind`` falling on ``date``, seen on ``as_of``.

    The one place every status is worked out, the timeline's and the approvals' alike. A deadline is read
    against the day its General Construction Law § 25-a note gives (``calendar.act_by``), not the bare statutory
    date: an act due on a Saturday may still be done on the Monday (or the Tuesday after a Monday holiday).

    Parameters
    ----------
    kind : str
        Event kind; expiry kinds (``calendar.EXPIRY_KINDS``) get expiry statuses.
    date, as_of : datetime.date
    expiring_soon_days : int
        The "expiring soon" / "due soon" window in days, inclusive at both ends.
    done : datetime.date, optional
        The day the act was done (a hearing held, an application filed, a decision made): the deadline is then
        ``"met"`` or ``"missed"``.

    Returns
    -------
    str
        ``"met"`` or ``"missed"`` when ``done`` is given; ``"active"``, ``"expiring"`` or ``"expired"`` for
        expiries; ``"not_yet"`` or ``"reached"`` for "not before" days; ``"upcoming"``, ``"due_soon"`` or
        ``"passed"`` otherwise.

    Examples
    --------
    >>> status_as_of("expires", _dt.date(2027, 3, 1), _dt.date(2026, 12, 1), 90)
    'expiring'
    >>> status_as_of("expires", _dt.date(2027, 3, 1), _dt.date(2027, 3, 2), 90)
    'expired'
    >>> status_as_of("clearing_earliest_start", _dt.date(2027, 3, 1), _dt.date(2027, 2, 20), 90)
    'not_yet'
    >>> status_as_of("hearing_deadline", _dt.date(2027, 10, 9), _dt.date(2027, 10, 11), 90)  # Columbus Day
    'due_soon'
    >>> status_as_of("hearing_deadline", _dt.date(2027, 10, 9), _dt.date(2027, 1, 1), 90, done=_dt.date(2027, 10, 12))
    'met'
    """
    last = act_by(kind, date)
    if done is not None:
        return "met" if done <= last else "missed"
    days_left = (last - as_of).days
    if kind in NOT_BEFORE_KINDS:
        return "not_yet" if days_left > 0 else "reached"
    expiry = kind in EXPIRY_KINDS
    if days_left < 0:
        return "expired" if expiry else "passed"
    if days_left <= expiring_soon_days:
        return "expiring" if expiry else "due_soon"
    return "active" if expiry else "upcoming"
