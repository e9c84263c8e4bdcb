"""The one calendar: dates read from input, period words, days counted by the General Construction Law, kinds of days.

* Periods in years and months are calendar periods (``dateutil.relativedelta``), never 365-day
  years. A month or year added to a day that the target month lacks lands on that month's last
  day: a study dated 29 February 2024 and "valid for a period of three years" is valid to
  28 February 2027; a permit issued 31 January for one month runs to 28 (or 29) February.
* A date is read from a ``datetime.date`` or ISO text ``"YYYY-MM-DD"`` (:func:`as_date`), in the years
  :data:`YEARS`.
* Days, by the New York General Construction Law, for the Article IX clocks and the approvals alike:

  - **§ 20**: "a number of days specified as a period from a certain day" excludes the day from which
    it is reckoned: 62 days from 1 March ends on 2 May (:func:`period_end`).
  - **§ 25-a**: a period that ends on a Saturday, Sunday or public holiday runs to the next business day
    (:func:`next_business_day`, :func:`deadline`); the statutory day is kept and shown beside it.
  - **§ 24** (public holidays, :func:`public_holidays`, :func:`closed`): the dates come from the
    maintained ``holidays`` package's New York calendar (``holidays.country_holidays("US", subdiv="NY")``),
    read as § 24 reads, with the differences the package has (``tests/approvals/test_gcl_days.py`` names every
    difference and fails when a new one appears): the package moves a Saturday holiday to the Friday
    before ("(observed)"), while § 24 moves only a Sunday holiday, to the Monday after, so those Fridays
    are business days here; the package lists Susan B. Anthony Day (15 February), a commemoration not in
    § 24's list. Flag Day (the second Sunday in June, in § 24) is missing from the package; it is always
    a Sunday, so no business day changes. Days proclaimed by the President or the Governor cannot be
    known in advance: give them as ``extra_closed`` days.

* Kinds of days: an event's ``kind`` says whether it is an expiry (:data:`EXPIRY_KINDS`), a "not before"
  day (:data:`NOT_BEFORE_KINDS`), the mark of a period (:data:`PERIOD_KINDS`), a deadline counted back
  from a later day (:data:`BACKWARD_KINDS`), or else a deadline counted forward.

>>> period_end(_dt.date(2026, 3, 1), 62).isoformat()
'2026-05-02'
>>> next_business_day(_dt.date(2027, 12, 24)).isoformat()  # a Friday: Christmas (Saturday) is not moved
'2027-12-24'
>>> closed(_dt.date(2026, 2, 12))
"Lincoln's Birthday"
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
from collections.abc import Iterable
from typing import Any

import holidays
from dateutil.relativedelta import relativedelta

from sloat_core.errors import SloatInputError

__all__ = [
    "ISO_RE",
    "YEARS",
    "EXPIRY_KINDS",
    "NOT_BEFORE_KINDS",
    "PERIOD_KINDS",
    "BACKWARD_KINDS",
    "nice",
    "month_day",
    "as_date",
    "in_years",
    "whole_number",
    "number_words",
    "years",
    "months",
    "count",
    "hours_as_days",
    "closed",
    "next_business_day",
    "public_holidays",
    "package_holidays",
    "NOT_IN_GCL_24",
    "period_end",
    "Deadline",
    "deadline",
    "act_by",
]

#: A date written as ISO text.
ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: First and last year of a date the timeline accepts (the winter season's year uses the same range).
YEARS = (1900, 2199)

#: Kinds of days that end a validity: their statuses are "active", "expiring", "expired".
EXPIRY_KINDS = frozenset({"expires", "valid_until", "latest_extended_expiry"})
#: Kinds that are a "not before" day (an act may happen from it), not a deadline.
NOT_BEFORE_KINDS = frozenset({"clearing_earliest_start", "guarantee_earliest_end", "lien_possible"})
#: Kinds that mark a period, not a day by which to act (no General Construction Law § 25-a note, no reminder).
PERIOD_KINDS = frozenset({"season_start", "season_end", "monitoring_min_end", "monitoring_end"})
#: Deadlines counted back from a later day ("at least N days before"): moving them later would cut the notice.
BACKWARD_KINDS = frozenset({"notice_deadline", "extension_request_deadline", "start_notice_deadline"})


def nice(d: _dt.date) -> str:
    """``1 March 2026``.

    >>> nice(_dt.date(2026, 3, 1))
    '1 March 2026'
    """
    return f"{d.day} {d:%B %Y}"


def month_day(value: str, year: int) -> _dt.date:
    """A "MM-DD" parameter in a given year (29 February falls back to 28 in common years).

    >>> month_day("02-29", 2027)
    datetime.date(2027, 2, 28)
    """
    month, day = (int(x) for x in str(value).split("-"))
    return _dt.date(year, month, 1) + relativedelta(day=day)


def as_date(value: Any, what: str) -> _dt.date:
    """A date or ISO text as a ``datetime.date``; ``what`` names it in the error message.

    Years outside :data:`YEARS` are refused: a deadline computed from them would run off the calendar
    (``datetime`` stops at 9999) and no real permit is dated there.
    """
    if isinstance(value, _dt.datetime):
        return in_years(value.date(), what)
    if isinstance(value, _dt.date):
        return in_years(value, what)
    if isinstance(value, str):
        text = value.strip()
        if ISO_RE.match(text):
            try:
                day = _dt.date.fromisoformat(text)
            except ValueError:
                raise SloatInputError(f"{what}, {value!r}, is not a real calendar date.") from None
            return in_years(day, what)
        raise SloatInputError(f"{what}, {value!r}, is not a date written as YYYY-MM-DD.")
    raise SloatInputError(f"{what} must be a date written as YYYY-MM-DD.")


def in_years(day: _dt.date, what: str) -> _dt.date:
    """``day`` if its year is in :data:`YEARS`; else one sentence naming ``what``."""
    if not YEARS[0] <= day.year <= YEARS[1]:
        raise SloatInputError(
            f"{what}, {day.isoformat()}, is outside the years {YEARS[0]} to {YEARS[1]} the timeline handles."
        )
    return day


def whole_number(value: Any, what: str) -> int:
    """A whole number from an int, a whole float or digits; ``what`` names it in the error message."""
    if isinstance(value, bool):
        raise SloatInputError(f"{what} must be a whole number.")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise SloatInputError(f"{what} must be a whole number.")


def number_words(n: int) -> str:
    """A small number as the law writes it ("three"); others as digits."""
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 12: "twelve"}
    return words.get(n, str(n))


def years(n: int) -> str:
    """``"three years"``, ``"one year"``."""
    return f"{number_words(n)} year" + ("" if n == 1 else "s")


def months(n: int) -> str:
    """``"twelve months"``, ``"one month"``."""
    return f"{number_words(n)} month" + ("" if n == 1 else "s")


def count(n, unit: str) -> str:
    """``n`` in digits with its unit, plural when ``n`` is not 1: the permits' short clock lines.

    >>> count(1, "year"), count(2, "year"), count(2, "more year")
    ('1 year', '2 years', '2 more years')
    """
    return f"{n} {unit}" + ("" if n == 1 else "s")


def hours_as_days(hours: int) -> int:
    """Hours before a day, as whole days (48 hours before a day is the second day before it)."""
    return -(-int(hours) // 24)


#: Names the ``holidays`` package lists for New York that General Construction Law § 24 does not.
NOT_IN_GCL_24 = ("Susan B. Anthony Day",)
_OBSERVED = "(observed)"


@functools.lru_cache(maxsize=64)
def package_holidays(year: int) -> dict[_dt.date, str]:
    """The ``holidays`` package's New York calendar for a year, as the package gives it."""
    return dict(holidays.country_holidays("US", subdiv="NY", years=year))


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(";") if n.strip()]


@functools.lru_cache(maxsize=64)
def public_holidays(year: int) -> dict[_dt.date, str]:
    """New York public holidays of a year under General Construction Law § 24 (see the module docstring).

    >>> sorted(d.isoformat() for d in public_holidays(2027) if d.month == 12)
    ['2027-12-25']
    >>> _dt.date(2026, 11, 3) in public_holidays(2026)  # general election day
    True
    """
    out: dict[_dt.date, str] = {}
    for day, text in package_holidays(year).items():
        names = [n for n in _names(text) if n not in NOT_IN_GCL_24]
        # § 24 moves a Sunday holiday to the Monday after; the package's Friday for a Saturday one is not § 24's.
        names = [n for n in names if not (n.endswith(_OBSERVED) and day.weekday() == 4)]
        if names:
            out[day] = "; ".join(names)
    return out


def closed(day: _dt.date, extra_closed: Iterable[_dt.date] = ()) -> str | None:
    """Why ``day`` is not a business day (the weekday or the § 24 holiday's name), or None.

    >>> closed(_dt.date(2026, 12, 26)), closed(_dt.date(2026, 12, 28))
    ('Saturday', None)
    """
    if day.weekday() >= 5:
        return f"{day:%A}"
    if day in set(extra_closed):
        return "a day proclaimed a holiday"
    return public_holidays(day.year).get(day)


def next_business_day(day: _dt.date, extra_closed: Iterable[_dt.date] = ()) -> _dt.date:
    """``day`` itself, or the first day after it that is not a Saturday, Sunday or public holiday (§ 25-a).

    >>> next_business_day(_dt.date(2026, 12, 26))  # a Saturday, then Sunday
    datetime.date(2026, 12, 28)
    >>> next_business_day(_dt.date(2026, 12, 25))  # Christmas Day, a Friday
    datetime.date(2026, 12, 28)
    """
    extra = set(extra_closed)
    while closed(day, extra):
        day += _dt.timedelta(days=1)
    return day


def period_end(start: _dt.date, days: int) -> _dt.date:
    """The last day of a period of ``days`` days from ``start``, the day of ``start`` excluded (§ 20)."""
    return start + _dt.timedelta(days=int(days))


class Deadline:
    """A period's statutory last day and the day an act may still be done (§ 25-a), with the reason."""

    __slots__ = ("statutory", "act_by", "why")

    def __init__(self, statutory: _dt.date, act_by: _dt.date, why: str | None):
        self.statutory, self.act_by, self.why = statutory, act_by, why

    @property
    def moved(self) -> bool:
        return self.act_by != self.statutory

    def note(self) -> str:
        """One sentence when § 25-a carries the act to a later day; ``""`` otherwise."""
        if not self.moved:
            return ""
        return (f"{_weekday_nice(self.statutory)} is {_article(self.why)}: under General Construction Law § 25-a "
                f"the period runs to the next business day, {_weekday_nice(self.act_by)}.")

    def to_dict(self) -> dict:
        return {"statutory": self.statutory.isoformat(), "act_by": self.act_by.isoformat(),
                "closed_because": self.why}


def deadline(start: _dt.date, days: int, extra_closed: Iterable[_dt.date] = ()) -> Deadline:
    """The period of ``days`` from ``start`` (§ 20), carried past a weekend or holiday (§ 25-a).

    >>> d = deadline(_dt.date(2026, 10, 2), 62)  # ends Thursday 3 December 2026
    >>> d.statutory.isoformat(), d.act_by.isoformat()
    ('2026-12-03', '2026-12-03')
    >>> d = deadline(_dt.date(2026, 9, 1), 62)   # ends Monday 2 November; 3 November is election day
    >>> d.act_by.isoformat()
    '2026-11-02'
    """
    end = period_end(start, days)
    extra = set(extra_closed)
    return Deadline(end, next_business_day(end, extra), closed(end, extra))


def act_by(kind: str, date: _dt.date) -> _dt.date:
    """The last day an act due by a deadline of ``kind`` on ``date`` may be done: the day its note gives.

    A deadline counted forward that ends on a Saturday, Sunday or public holiday runs to the next business day
    (General Construction Law § 25-a); every other kind keeps its date (an expiry, a "not before" day, the mark
    of a period; a deadline counted back from a later day, whose note only advises acting earlier to be safe).
    Every deadline's status is read against this day (``events.status_as_of``), the timeline's and the approvals'.

    >>> act_by("hearing_deadline", _dt.date(2027, 10, 9)).isoformat()  # a Saturday, then Columbus Day
    '2027-10-12'
    >>> act_by("expires", _dt.date(2027, 10, 9)).isoformat()
    '2027-10-09'
    """
    if kind in EXPIRY_KINDS or kind in NOT_BEFORE_KINDS or kind in PERIOD_KINDS or kind in BACKWARD_KINDS:
        return date
    return next_business_day(date)


def _weekday_nice(d: _dt.date) -> str:
    return f"{d:%A} {d.day} {d:%B %Y}"


def _article(why: str | None) -> str:
    if why in ("Saturday", "Sunday"):
        return f"a {why}"
    return why or ""
