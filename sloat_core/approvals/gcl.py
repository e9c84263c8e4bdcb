"""Counting days by the New York General Construction Law (§§ 20, 24, 25-a).

* **§ 20**: "a number of days specified as a period from a certain day" excludes the day from which it
  is reckoned: 62 days from 1 March ends on 2 May (:func:`period_end`).
* **§ 25-a**: a period that ends on a Saturday, Sunday or public holiday runs to the next business day
  (:func:`next_business_day`); the statutory day is kept and shown beside it.
* **§ 24** (public holidays): the dates come from the maintained ``holidays`` package's New York calendar
  (``holidays.country_holidays("US", subdiv="NY")``), read as § 24 reads, with the two differences the
  package has (``tests/test_gcl_days.py`` names every difference and fails when a new one appears):

  - the package moves a Saturday holiday to the Friday before ("(observed)"); § 24 moves only a Sunday
    holiday, to the Monday after, so those Fridays are business days here;
  - the package lists Susan B. Anthony Day (15 February), a commemoration not in § 24's list.

  Flag Day (the second Sunday in June, in § 24) is missing from the package; it is always a Sunday, so no
  business day changes. Days proclaimed by the President or the Governor cannot be known in advance:
  give them as ``extra_closed`` days.

>>> period_end(_dt.date(2026, 3, 1), 62).isoformat()
'2026-05-02'
>>> next_business_day(_dt.date(2027, 12, 24)).isoformat()  # a Friday: Christmas (Saturday) is not moved
'2027-12-24'
>>> closed_reason(_dt.date(2026, 2, 12))
"Lincoln's Birthday"
"""

from __future__ import annotations

import datetime as _dt
import functools
from collections.abc import Iterable

import holidays

__all__ = ["public_holidays", "package_holidays", "closed_reason", "next_business_day", "period_end",
           "Deadline", "deadline", "NOT_IN_GCL_24"]

#: Names the ``holidays`` package lists for New York that § 24 does not.
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


def closed_reason(day: _dt.date, extra_closed: Iterable[_dt.date] = ()) -> str | None:
    """Why ``day`` is not a business day (its weekday, or the holiday's name), or None."""
    if day.weekday() >= 5:
        return f"{day:%A}"
    if day in set(extra_closed):
        return "a day proclaimed a holiday"
    return public_holidays(day.year).get(day)


def next_business_day(day: _dt.date, extra_closed: Iterable[_dt.date] = ()) -> _dt.date:
    """``day`` itself, or the first day after it that is not a Saturday, Sunday or public holiday (§ 25-a).

    >>> next_business_day(_dt.date(2026, 12, 26)).isoformat()  # Saturday, then Sunday
    '2026-12-28'
    """
    extra = set(extra_closed)
    while closed_reason(day, extra):
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
        return (f"{_nice(self.statutory)} is {_article(self.why)}: under General Construction Law § 25-a the "
                f"period runs to the next business day, {_nice(self.act_by)}.")

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
    return Deadline(end, next_business_day(end, extra), closed_reason(end, extra))


def _nice(d: _dt.date) -> str:
    return f"{d:%A} {d.day} {d:%B %Y}"


def _article(why: str | None) -> str:
    if why in ("Saturday", "Sunday"):
        return f"a {why}"
    return why or ""
