"""What a timeline clock is (:class:`ClockDeclaration`): its fields, its rule, its words, declared once in
the module of its section, and the reader its rule uses (:class:`Reader`).

A clock is a timeline item: a permit issued on a day, an application deemed complete on a day, a study
dated a day ... Its declaration carries

* ``fields`` (:class:`Field`): the keys it takes, each with the app form's label, the words a message
  calls it, its kind ("date" or "int") and whether it is required. The app's forms
  (``app_support.widgets.forms.ITEM_FIELDS``), the timeline's key check and the error messages read them;
* ``rule``: the dated events it sets, as ``(kind, date, citation, label, detail)`` rows
  (:data:`Row`), read from a :class:`Reader`; every number comes from the parameters (:func:`cite`
  gives a parameter's citation);
* ``words``: its lines in the permit's "clocks" (the answer of the permit it belongs to);
* ``starts``: which date it starts from, for the label the timeline page offers it under.

`sloat_core.rules.clocks.timeline_events` runs the rules; `sloat_core.rules.sections.CLOCKS` lists
every clock of every section.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from sloat_core.errors import SloatInputError
from sloat_core.law.params import param
from sloat_core.law import calendar as cal

if TYPE_CHECKING:
    from sloat_core.rules.sections.permit import Facts

__all__ = ["Field", "Row", "ClockDeclaration", "Reader", "cite"]

#: One dated event a rule sets: (kind, date, citation, label, detail).
Row = tuple[str, _dt.date, str, str, str]


@dataclass(frozen=True)
class Field:
    """One key of a timeline item: ``label`` on the app's form, ``words`` in messages ("issue date")."""

    key: str
    label: str
    words: str
    kind: str = "date"
    required: bool = True


@dataclass(frozen=True, kw_only=True)
class ClockDeclaration:
    """Everything about one timeline clock, declared once in its section's module."""

    #: The item id of the timeline (the command line's and the app's), e.g. ``"wetland_permit"``.
    id: str
    #: Its plain name, as messages and the timeline say it: "wetland permit".
    name: str
    fields: tuple[Field, ...]
    rule: Callable[[Reader], list[Row]]
    #: Where the timeline's menu lists it (lower first; numbers leave room for a new clock).
    order: int
    #: Which date it starts from ("the day it was issued"), for the label the timeline page offers.
    starts: str = ""
    #: Its lines in the answer of the permit it belongs to (``Permit.clocks``), from that permit's facts.
    words: Callable[[Facts], tuple[str, ...]] = lambda x: ()
    #: (key, kind): the date of ``key``, when given, meets or misses the deadline of ``kind``.
    met_by: tuple[str, str] | None = None
    #: A kind the rule sets more than once (numbered in the event ids: ``-1``, ``-2`` ...).
    repeats: str = ""

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in self.fields)

    @property
    def label(self) -> str:
        """Its name with the date it starts from: "Wetland permit (the day it was issued)"."""
        name = self.name[:1].upper() + self.name[1:]
        return f"{name} ({self.starts})" if self.starts else name

    def field(self, key: str) -> Field:
        return next(f for f in self.fields if f.key == key)


def cite(name: str, on: _dt.date) -> str:
    """The citation of a parameter as in effect on ``on``: the clause that sets a clock's number."""
    return param(name, on).citation


class Reader:
    """One input item read through its clock's fields, with plain error messages naming it; ``on`` is the date
    its clock's law is read at (the day the clock starts: `rules.clocks.timeline_events`)."""

    def __init__(self, raw: dict, clock: ClockDeclaration, ref: str | None, on: _dt.date):
        self.raw = raw
        self.clock = clock
        self.on = on
        self.name = clock.name if not ref else f"{clock.name} {ref}"

    def _given(self, f: Field) -> bool:
        if f.key not in self.raw or self.raw[f.key] in (None, ""):
            if f.required:
                raise SloatInputError(f"The {self.name} is missing its {f.words} ('{f.key}').")
            return False
        return True

    def date(self, key: str) -> _dt.date | None:
        """The date of ``key`` (None when an optional date is not given)."""
        f = self.clock.field(key)
        return cal.as_date(self.raw[key], f"The {self.name}'s {f.words}") if self._given(f) else None

    def number(self, key: str) -> int | None:
        """The whole number of ``key`` (None when an optional number is not given)."""
        f = self.clock.field(key)
        return cal.whole_number(self.raw[key], f"The {self.name}'s {f.words}") if self._given(f) else None

    def amount(self, key: str, maximum: float) -> float | None:
        """A decimal figure of ``key`` from 0 to ``maximum`` (None when an optional figure is not given)."""
        f = self.clock.field(key)
        if not self._given(f):
            return None
        v = self.raw[key]
        what = f"The {self.name}'s {f.words}"
        if isinstance(v, bool) or not isinstance(v, (int, float, str)) or (isinstance(v, str) and len(v) > 20):
            raise SloatInputError(f"{what} must be a number.")
        try:
            n = float(v)
        except ValueError:
            raise SloatInputError(f"{what} must be a number.") from None
        if not (0 <= n <= maximum):  # also refuses nan
            raise SloatInputError(f"{what} must be between 0 and {maximum:g}.")
        return n

    def not_before(self, later: _dt.date, earlier: _dt.date, later_words: str, earlier_words: str) -> None:
        """Refuse a ``later`` date that falls before ``earlier``."""
        if later < earlier:
            raise SloatInputError(
                f"The {self.name}'s {later_words} ({later.isoformat()}) is before its {earlier_words} "
                f"({earlier.isoformat()})."
            )
