"""Dated, quoted facts of the law: one type (:class:`Fact`) and one loader (:class:`FactFile`) for both files.

Article IX's numbers (``data/law/parameters.yaml``, read through :mod:`sloat_core.law.params`) and the state and
federal law around it (``data/settings/state_law.yaml``, read through :mod:`sloat_core.approvals.state_law`) are
the same kind of thing: a named fact with a description, a unit, a citation and a list of dated values, each
with the words of the source that state it. One loader reads and checks both; each file declares what differs:

* the quote's field and what it is checked against. Article IX's ``quote`` must be found in the cited clause
  of the shipped law text (:mod:`sloat_core.law.text`) and agree with the value where it states a number
  (:func:`agrees`). A state-law fact's ``statement`` has no text here to be found in; it must state the value
  (:func:`statement_numbers`: ``"sixty-two days"`` refuses 60);
* the fields an entry has (``informational``; ``source``, ``verify`` "to confirm with the Village", ``note``),
  its units, and the words of its messages (each file's messages are its own, word for word);
* sections of the file that are not facts (the state-law file's wetland regimes and the village's neighbours).

A fact is read as in effect on a date that is passed in, always (:meth:`FactTable.get`: no date, no fact): the
latest value effective on or before it; a date before the first value gets the first value (the tool knows
nothing older).

>>> agrees(45, "percent", "a slope in excess of 40%")
False
>>> statement_numbers("within sixty-two days after the hearing")
[62.0]
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import datetime as _dt
import functools
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

__all__ = ["Fact", "FactFile", "FactTable", "VERIFY_WORDS", "verify_word", "quote_numbers", "agrees",
           "statement_numbers", "effective_date"]

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")

#: Shown with every fact marked verify.
VERIFY_WORDS = "to confirm with the Village"


def verify_word(verify: bool) -> str:
    """``" (to confirm with the Village)"`` for a fact to verify, else ``""``."""
    return f" ({VERIFY_WORDS})" if verify else ""


@dataclass(frozen=True)
class Fact:
    """One fact of the law as in effect from one date.

    Attributes
    ----------
    name : str
        Its key in the file, e.g. "wetland_hearing_days".
    value : int, float, str or list
        Typed by unit (see each file's units).
    unit, citation, description : str
    quote : str
        The words of the source that state it (Article IX's own words, or the statute's ``statement``).
    effective : datetime.date
        Date from which this value holds (from which the tool knows it held, not the enactment date).
    informational : bool
        True when no rule reads it (an Article IX number stated for reference only).
    source, verify, note
        Where a state-law fact was read; True when it is "to confirm with the Village"; why, or how it is read.
    """

    name: str
    value: Any
    unit: str
    citation: str
    quote: str
    effective: _dt.date
    description: str
    informational: bool = False
    source: str = ""
    verify: bool = False
    note: str = ""

    @property
    def statement(self) -> str:
        """The state-law file's word for the quote."""
        return self.quote

    def to_dict(self) -> dict:
        return {"name": self.name, "value": self.value, "unit": self.unit, "citation": self.citation,
                "effective": self.effective.isoformat(), "source": self.source, "verify": self.verify,
                "note": self.note}


# -- numbers stated in words and figures -------------------------------------------------------------------

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
          "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_NUMBER_RE = re.compile(r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?")


def quote_numbers(quote: str) -> list[float]:
    """The numbers an Article IX quote states: figures ("1,000", "2.5", "1/2") and number words ("five").

    >>> quote_numbers("a fine of not less than $1,000")
    [1000.0]
    >>> quote_numbers("six feet plus 1/2 the height of the cut or fill")
    [6.0, 0.5]
    >>> quote_numbers("No portion of the land area")
    []
    """
    found: list[tuple[int, float]] = []
    for m in _NUMBER_RE.finditer(quote):
        n = float(m.group(1).replace(",", ""))
        found.append((m.start(), n / float(m.group(2)) if m.group(2) else n))
    for m in re.finditer(r"\b(" + "|".join(_WORDS) + r")\b", quote, flags=re.IGNORECASE):
        found.append((m.start(), float(_WORDS[m.group(1).lower()])))
    return [n for _, n in sorted(found)]


def agrees(v: Any, unit: str, quote: str) -> bool | None:
    """Does ``v`` agree with an Article IX quote? None when the quote states no number to check against."""
    if unit == "district-list":
        return all(re.search(rf"(?<![\w-]){re.escape(d)}(?![\w-])", quote) for d in v)
    if unit == "month-day":
        month, day = int(v[:2]), int(v[3:])
        return re.search(rf"\b{_MONTHS[month - 1]} {day}\b", quote) is not None
    if unit == "date":
        d = _dt.date.fromisoformat(v)
        return re.search(rf"\b{_MONTHS[d.month - 1]} {d.day}, {d.year}\b", quote) is not None
    numbers = quote_numbers(quote)
    if not numbers:
        return None
    candidates = {float(v)}
    if unit in ("fraction", "percent") or "%" in quote:
        candidates.add(round(float(v) * 100, 9))
    if unit == "ratio":  # "one vertical to two horizontal" is 1/2
        numbers = numbers + [round(a / b, 9) for a in numbers for b in numbers if b]
    return any(abs(n - c) < 1e-9 for n in numbers for c in candidates)


_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15}
_WORD_RE = re.compile(
    r"\b(?:(?P<h>" + "|".join(_ONES) + r")\s+hundred(?:\s+(?:and\s+)?(?P<hr>[a-z]+(?:-[a-z]+)?))?"
    r"|(?P<t>" + "|".join(_TENS) + r")(?:-(?P<to>" + "|".join(_ONES) + r"))?"
    r"|(?P<o>" + "|".join(_ONES) + r"))\b", re.IGNORECASE)


def _small(word: str | None) -> int:
    if not word:
        return 0
    word = word.lower()
    if "-" in word:
        a, b = word.split("-", 1)
        return _TENS.get(a, 0) + _ONES.get(b, 0)
    return _TENS.get(word, _ONES.get(word, 0))


def statement_numbers(text: str) -> list[float]:
    """The numbers a statute's statement states, in figures ("500", "150,000") or words ("sixty-two", "five
    hundred").

    >>> statement_numbers("within a distance of five hundred feet from")
    [500.0]
    >>> statement_numbers("a single-family, a two-family or a three-family residence")
    [2.0, 3.0]
    """
    found: list[tuple[int, float]] = []
    for m in re.finditer(r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)", text):
        found.append((m.start(), float(m.group(1).replace(",", ""))))
    for m in _WORD_RE.finditer(text):
        if m.group("h"):
            n = _ONES[m.group("h").lower()] * 100 + _small(m.group("hr"))
        elif m.group("t"):
            n = _TENS[m.group("t").lower()] + (_ONES[m.group("to").lower()] if m.group("to") else 0)
        else:
            n = _ONES[m.group("o").lower()]
        found.append((m.start(), float(n)))
    return [n for _, n in sorted(found)]


def effective_date(raw: Any, fail: Callable[[str], Exception]) -> _dt.date:
    """An effective date written YYYY-MM-DD (a YAML date or its text); ``fail(problem)`` otherwise."""
    if isinstance(raw, _dt.datetime) or not isinstance(raw, (_dt.date, str)):
        raise fail("needs an effective date written YYYY-MM-DD")
    if isinstance(raw, str):
        try:
            return _dt.date.fromisoformat(raw)
        except ValueError:
            raise fail("needs an effective date written YYYY-MM-DD") from None
    return raw


# -- the file and its table -------------------------------------------------------------------------------

#: ``value(file, name, item, unit, citation, path) -> (effective, typed value, quote)``: one dated value read
#: and checked as its file declares (the quote against what it can be checked against).
ValueReader = Callable[["FactFile", str, Any, str, str, Path], tuple[_dt.date, Any, str]]


@dataclass(frozen=True)
class FactTable:
    """One file's facts, every dated value oldest first, and its other sections."""

    file: FactFile
    history: dict[str, tuple[Fact, ...]]
    starts: dict[str, list[_dt.date]]
    version: str
    notice: str = ""
    sections: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, on: _dt.date) -> Fact:
        """The fact as in effect on ``on``; KeyError naming the file if unknown.

        The date is always passed in (the date the law is applied at): there is no "today" here, only at the
        outer doors (the command line, the app's analysis door, the top of an analysis or a plan check).
        """
        if not isinstance(on, _dt.date):
            raise TypeError(f"The date the law is applied at is needed to read {name!r} (given {on!r}).")
        try:
            values = self.history[name]
        except KeyError:
            raise KeyError(self.file.unknown.format(name=name)) from None
        if len(values) == 1:
            return values[0]
        return values[max(bisect.bisect_right(self.starts[name], on) - 1, 0)]


@dataclass(frozen=True, eq=False)
class FactFile:
    """What one file of dated facts declares; :meth:`table` reads and checks it (cached per file version)."""

    #: In messages: "The <what> <file name> ..." ("parameters file", "state-law settings file").
    what: str
    #: The shipped file, and the environment variable that may name another.
    path: Path
    env: str
    #: The top-level mapping of the facts ("parameters", "facts") and the field of each value's quote.
    mapping: str
    quote_field: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    #: Fields that must be text, and fields that must be true or false, in the order they are checked.
    text_fields: tuple[str, ...]
    flags: tuple[str, ...]
    units: frozenset
    value: ValueReader
    #: The error raised, with each message naming the file and the entry.
    error: type[Exception]
    #: ``"No parameter named {name!r} in parameters.yaml."``: the KeyError of an unknown name.
    unknown: str
    #: An entry's citation checked further (Article IX's: a clause of the shipped law, as the law writes it).
    check_citation: Callable[[FactFile, str, str, Path], None] | None = None
    #: Descriptions, sources and notes with their runs of white space made one space (else only stripped).
    one_line: bool = False
    #: The version is the declared one plus the first 8 hex digits of the file's SHA-256.
    hashed_version: bool = False
    #: The file's other sections: (name, reader of (document, path)), read in this order after the facts.
    sections: tuple[tuple[str, Callable[[dict, Path], Any]], ...] = ()
    #: The sentence when the file cannot be reached: of (the path as given or None, the resolved path).
    unreachable: Callable[[str | Path | None, str], str] | None = None
    override: contextvars.ContextVar = field(default=None)  # type: ignore[assignment]

    def __post_init__(self):
        object.__setattr__(self, "override", contextvars.ContextVar(f"sloat_facts_{self.mapping}", default=None))

    # -- messages
    def fail(self, name: str, problem: str, path: Path) -> Exception:
        return self.error(f"In {path.name}, the entry “{name}” {problem}.")

    def _file_error(self, path: Path, problem: str) -> Exception:
        return self.error(f"The {self.what} {path.name} {problem}.")

    # -- which file, and its version stamp
    @functools.cached_property
    def _shipped(self) -> str:
        return str(self.path.resolve())

    def _key(self, path: str | Path | None) -> tuple[str, int]:
        # The rules read facts hundreds of times per parcel: the shipped file's path is resolved once, a chosen
        # file's on each read, and only its modification time is checked (an edited file is re-read and checked).
        if path is None:
            chosen = self.override.get() or os.environ.get(self.env)
            resolved = self._shipped if not chosen else str(Path(chosen).resolve())
        else:
            resolved = str(Path(path).resolve())
        try:
            return resolved, os.stat(resolved).st_mtime_ns
        except OSError:
            words = (self.unreachable(path, resolved) if self.unreachable
                     else f"The {self.what} cannot be read.")
            raise self.error(words) from None

    def table(self, path: str | Path | None = None) -> FactTable:
        """The file's facts (default: the file in use: the one `using` names, else the environment's, else the
        shipped one), read and checked once per version of the file."""
        return self._load(*self._key(path))

    @contextlib.contextmanager
    def using(self, path: str | Path):
        """Within the block, read the facts from ``path`` (checked now: a faulty copy fails here)."""
        self.table(path)
        token = self.override.set(str(Path(path).resolve()))
        try:
            yield
        finally:
            self.override.reset(token)

    # -- reading
    @functools.lru_cache(maxsize=8)  # noqa: B019  (the files are module constants: the cache lives with them)
    def _load(self, path_str: str, _mtime_ns: int) -> FactTable:
        path = Path(path_str)
        doc, raw = self._read(path)
        if not isinstance(doc, dict) or not isinstance(doc.get(self.mapping), dict) or not doc[self.mapping]:
            raise self._file_error(path, f"has no “{self.mapping}” mapping")
        if not isinstance(doc.get("version"), str) or not doc["version"].strip():
            raise self._file_error(path, "does not declare a text “version”")
        history = {name: self._entry(name, entry, path) for name, entry in doc[self.mapping].items()}
        version = doc["version"].strip()
        if self.hashed_version:
            version = f"{version}+{hashlib.sha256(raw).hexdigest()[:8]}"
        sections = {name: read(doc, path) for name, read in self.sections}
        return FactTable(self, history, {n: [f.effective for f in h] for n, h in history.items()}, version,
                         " ".join(str(doc.get("notice") or "").split()), sections)

    def _read(self, path: Path) -> tuple[Any, bytes]:
        try:
            raw = path.read_bytes()
            return yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), raw
        except OSError:
            words = self.unreachable(path, str(path)) if self.unreachable else f"The {self.what} {path.name} cannot be read."
            raise self.error(words) from None
        except yaml.YAMLError:
            raise self._file_error(path, "is not valid YAML") from None

    def _text(self, raw: Any) -> str:
        return " ".join(str(raw or "").split()) if self.one_line else str(raw or "").strip()

    def _entry(self, name: Any, entry: Any, path: Path) -> tuple[Fact, ...]:
        """Every dated value of one entry, oldest first."""
        if not isinstance(name, str) or not _NAME_RE.match(name):
            raise self.fail(str(name), "has a name that is not lower_case_with_underscores", path)
        if not isinstance(entry, dict):
            raise self.fail(name, "is not a mapping of fields", path)
        for f in self.required:
            if entry.get(f) in (None, "", []):
                raise self.fail(name, f"has no “{f}”", path)
        extra = sorted(set(entry) - set(self.required) - set(self.optional))
        if extra:
            raise self.fail(name, f"has unknown field(s) {', '.join(map(str, extra))}", path)
        for f in self.text_fields:
            if not isinstance(entry[f], str):
                raise self.fail(name, f"needs text for “{f}”", path)
        for f in self.flags:
            if not isinstance(entry.get(f, False), bool):
                raise self.fail(name, f"needs true or false for “{f}”", path)
        unit = entry["unit"]
        if not isinstance(unit, str) or unit not in self.units:
            raise self.fail(name, f"has an unknown unit “{unit}”", path)
        citation = entry["citation"]
        if self.check_citation is not None:
            self.check_citation(self, name, citation, path)
        if not isinstance(entry["values"], list):
            raise self.fail(name, "needs a list of dated values under “values”", path)
        dated = sorted((self.value(self, name, item, unit, citation, path) for item in entry["values"]),
                       key=lambda t: t[0])
        dates = [d for d, _, _ in dated]
        if len(set(dates)) != len(dates):
            raise self.fail(name, "has two values with the same effective date", path)
        common = {"description": self._text(entry["description"]), "informational": entry.get("informational", False),
                  "source": self._text(entry.get("source")), "verify": entry.get("verify", False),
                  "note": self._text(entry.get("note"))}
        return tuple(Fact(name, v, unit, citation.strip(), q, d, **common) for d, v, q in dated)


# -- the two kinds of dated value -------------------------------------------------------------------------

#: Article IX's units: fractions and ratios are float; durations, counts and dollars are int; measures keep
#: their number; "month-day" is "MM-DD"; "date" an ISO date; "district-list" a list of district codes.
FLOAT_UNITS = frozenset({"fraction", "ratio"})
INT_UNITS = frozenset({"years", "months", "weeks", "days", "hours", "count", "usd"})
MEASURE_UNITS = frozenset({"percent", "sqft", "acres", "ft", "in", "inches", "ft-per-in"})
ARTICLE_IX_UNITS = FLOAT_UNITS | INT_UNITS | MEASURE_UNITS | {"month-day", "date", "district-list"}


def _article_ix_typed(file: FactFile, name: str, raw: Any, unit: str, path: Path) -> Any:
    if unit in FLOAT_UNITS | INT_UNITS | MEASURE_UNITS:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise file.fail(name, f"needs a number as its value, not {raw!r}", path)
        if raw < 0:
            raise file.fail(name, "has a negative value", path)
        if unit in FLOAT_UNITS:
            if unit == "fraction" and raw > 1:
                raise file.fail(name, "is a fraction but its value is above 1", path)
            return float(raw)
        if unit in INT_UNITS:
            if raw != int(raw):
                raise file.fail(name, f"needs a whole number of {unit}", path)
            return int(raw)
        return raw
    if unit == "month-day":
        m = re.fullmatch(r"(\d\d)-(\d\d)", str(raw))
        try:
            _dt.date(2000, int(m.group(1)), int(m.group(2)))  # 2000 is a leap year
        except (AttributeError, ValueError):
            raise file.fail(name, f"needs a calendar day written MM-DD, not {raw!r}", path) from None
        return str(raw)
    if unit == "date":
        try:
            return _dt.date.fromisoformat(str(raw)).isoformat()
        except ValueError:
            raise file.fail(name, f"needs a date written YYYY-MM-DD, not {raw!r}", path) from None
    # district-list
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) and x for x in raw):
        raise file.fail(name, "needs a list of district codes as its value", path)
    return list(raw)


def article_ix_citation(file: FactFile, name: str, citation: str, path: Path) -> None:
    """An Article IX entry cites a clause of the shipped law, written as the law writes it."""
    from sloat_core.law import text as law

    if not law.citation_exists(citation):
        raise file.fail(name, f"cites {citation}, which is not a clause of the shipped law", path)
    if law.normalize_citation(citation) != citation:
        raise file.fail(name, f"should write its citation as {law.normalize_citation(citation)}", path)


def article_ix_value(file: FactFile, name: str, item: Any, unit: str, citation: str,
                     path: Path) -> tuple[_dt.date, Any, str]:
    """An Article IX value: its quote is found in the cited clause of the law text and states the value
    where it states a number."""
    from sloat_core.law import text as law

    fields = ("effective", "value", file.quote_field)
    if not isinstance(item, dict):
        raise file.fail(name, "has a dated value that is not a mapping of effective, value and quote", path)
    for f in fields:
        if f not in item or item[f] is None or item[f] == "":
            raise file.fail(name, f"has a dated value without “{f}”", path)
    extra = sorted(set(item) - set(fields))
    if extra:
        raise file.fail(name, f"has unknown field(s) {', '.join(map(str, extra))}", path)
    quote = item[file.quote_field]
    if not isinstance(quote, str):
        raise file.fail(name, "needs text for “quote”", path)
    if not law.quote_in_clause(quote, citation):
        raise file.fail(name, f"quotes words that are not in {citation}", path)
    effective = effective_date(item["effective"], lambda problem: file.fail(name, problem, path))
    typed = _article_ix_typed(file, name, item["value"], unit, path)
    if agrees(typed, unit, quote) is False:
        raise file.fail(name, f"has the value {typed!r}, which its quote “{quote}” does not state", path)
    return effective, typed, quote


def statement_value(file: FactFile, name: str, item: Any, unit: str, citation: str,
                    path: Path) -> tuple[_dt.date, Any, str]:
    """A state-law value: the statute's text is not shipped, so its statement is checked for stating the
    value (a number in figures or words), and a "text" value for being text."""
    fields = ("effective", "value", file.quote_field)
    if not isinstance(item, dict) or any(item.get(f) in (None, "") for f in fields):
        raise file.fail(name, "has a dated value without effective, value and statement", path)
    if set(item) - set(fields):
        raise file.fail(name, "has a dated value with unknown fields", path)
    statement = str(item[file.quote_field])
    raw = item["value"]
    if unit == "text":
        if not isinstance(raw, str) or not raw.strip():
            raise file.fail(name, "needs text as its value", path)
        typed = raw.strip()
    else:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw < 0:
            raise file.fail(name, f"needs a number of {unit} as its value, not {raw!r}", path)
        if unit in ("days", "count") and raw != int(raw):
            raise file.fail(name, f"needs a whole number of {unit}", path)
        typed = int(raw) if unit in ("days", "count") or raw == int(raw) else float(raw)
        numbers = statement_numbers(statement)
        if not numbers or not any(abs(n - typed) < 1e-9 for n in numbers):
            raise file.fail(name, f"has the value {typed!r}, which its statement “{statement}” does not state", path)
    return effective_date(item["effective"], lambda problem: file.fail(name, problem, path)), typed, statement
