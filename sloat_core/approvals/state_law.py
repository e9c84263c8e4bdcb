"""State and federal law around Article IX, as dated settings: ``data/settings/state_law.yaml``.

The numbers the Village's boards apply around Article IX (500 ft, 30 days, 62 days, the SEQR
thresholds) are not in Article IX, so ``data/law/parameters.yaml`` (whose quotes are checked against the
Article IX text) cannot hold them. They live in one file of the same shape: each entry with its
description, unit, citation, source, a ``verify`` flag ("to confirm with the Village") and dated values,
each with the ``statement`` of the source that states it. Loading checks every entry and that a value
agrees with the number its statement states (``"sixty-two days"`` refuses 60).

``state_param(name, on=date)`` gives the value in effect on that date (default: the analysis date
set by :func:`sloat_core.law.params.law_date`, else today). The file read is the shipped one, or the
one named by the ``SLOAT_STATE_LAW`` environment variable, or the one given to :func:`using_state_law`.

>>> p = state_param("county_referral_distance_ft")
>>> (p.value, p.unit, p.citation, p.verify)
(500, 'ft', 'GML § 239-m(3)(b)', False)
>>> state_param("subdivision_hearing_days").verify
True
>>> statement_numbers("within sixty-two days after the hearing")
[62.0]
"""

from __future__ import annotations

import bisect
import contextlib
import contextvars
import datetime as _dt
import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sloat_core.errors import SloatInputError
from sloat_core.law import params as _params
from sloat_core.law.settings import file_stamp, read_yaml_file

__all__ = ["STATE_LAW_PATH", "STATE_UNITS", "StateFact", "Regime", "state_param", "state_value",
           "all_state_facts", "regime_on", "regimes", "state_law_version", "state_law_notice",
           "using_state_law", "statement_numbers", "verify_word", "Neighbour", "NeighbourSet", "neighbours_on"]

STATE_LAW_PATH = Path(__file__).resolve().parents[2] / "data" / "settings" / "state_law.yaml"
STATE_LAW_ENV = "SLOAT_STATE_LAW"
STATE_UNITS = frozenset({"ft", "days", "count", "percent", "acres", "text"})
_FIELDS = ("description", "unit", "citation", "source", "verify", "values")
_OPTIONAL = ("note",)
_VALUE_FIELDS = ("effective", "value", "statement")
_REGIME_FIELDS = ("effective", "status", "maps", "size_threshold_acres", "summary", "citation", "source", "verify")
_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")

#: Shown with every fact marked verify.
VERIFY_WORDS = "to confirm with the Village"


def verify_word(verify: bool) -> str:
    """``" (to confirm with the Village)"`` for a fact to verify, else ``""``."""
    return f" ({VERIFY_WORDS})" if verify else ""


@dataclass(frozen=True)
class StateFact:
    """One fact of state or federal law as in effect from a date."""

    name: str
    value: Any
    unit: str
    citation: str
    statement: str
    effective: _dt.date
    description: str
    source: str
    verify: bool
    note: str = ""

    def to_dict(self) -> dict:
        return {"name": self.name, "value": self.value, "unit": self.unit, "citation": self.citation,
                "effective": self.effective.isoformat(), "source": self.source, "verify": self.verify,
                "note": self.note}


@dataclass(frozen=True)
class Regime:
    """The NYSDEC freshwater wetland regime in force from a date (dated, cited, editable)."""

    effective: _dt.date
    status: str
    maps: str  # "regulatory" or "informational"
    size_threshold_acres: float
    summary: str
    citation: str
    source: str
    verify: bool

    def to_dict(self) -> dict:
        return {"effective": self.effective.isoformat(), "status": self.status, "maps": self.maps,
                "size_threshold_acres": self.size_threshold_acres, "summary": self.summary,
                "citation": self.citation, "source": self.source, "verify": self.verify}


@dataclass(frozen=True)
class Neighbour:
    """A municipality across the village line, and the part of the line it holds (compass sector, or None:
    the rest of the line)."""

    name: str
    county: str
    sector: tuple[float, float] | None = None

    def holds(self, bearing_deg: float) -> bool:
        if self.sector is None:
            return False
        lo, hi = self.sector
        b = bearing_deg % 360.0
        return lo <= b <= hi if lo <= hi else (b >= lo or b <= hi)


@dataclass(frozen=True)
class NeighbourSet:
    """The neighbours of the village in force from a date (``municipal_neighbours`` in the state-law file)."""

    effective: _dt.date
    neighbours: tuple[Neighbour, ...]
    source: str
    verify: bool

    def across(self, bearing_deg: float) -> Neighbour:
        """The neighbour holding the line at this bearing from the village's centre."""
        return next((n for n in self.neighbours if n.holds(bearing_deg)),
                    next(n for n in self.neighbours if n.sector is None))


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
    """The numbers a statement states, in figures ("500", "150,000") or words ("sixty-two", "five hundred").

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


def _fail(name: str, problem: str, path: Path) -> SloatInputError:
    return SloatInputError(f"In {path.name}, the entry “{name}” {problem}.")


def _date(raw: Any, name: str, path: Path) -> _dt.date:
    if isinstance(raw, _dt.datetime) or not isinstance(raw, (_dt.date, str)):
        raise _fail(name, "needs an effective date written YYYY-MM-DD", path)
    if isinstance(raw, str):
        try:
            return _dt.date.fromisoformat(raw)
        except ValueError:
            raise _fail(name, "needs an effective date written YYYY-MM-DD", path) from None
    return raw


def _typed(name: str, raw: Any, unit: str, statement: str, path: Path) -> Any:
    if unit == "text":
        if not isinstance(raw, str) or not raw.strip():
            raise _fail(name, "needs text as its value", path)
        return raw.strip()
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw < 0:
        raise _fail(name, f"needs a number of {unit} as its value, not {raw!r}", path)
    if unit in ("days", "count") and raw != int(raw):
        raise _fail(name, f"needs a whole number of {unit}", path)
    value = int(raw) if unit in ("days", "count") or raw == int(raw) else float(raw)
    numbers = statement_numbers(statement)
    if not numbers or not any(abs(n - value) < 1e-9 for n in numbers):
        raise _fail(name, f"has the value {value!r}, which its statement “{statement}” does not state", path)
    return value


def _entry(name: Any, entry: Any, path: Path) -> tuple[StateFact, ...]:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise _fail(str(name), "has a name that is not lower_case_with_underscores", path)
    if not isinstance(entry, dict):
        raise _fail(name, "is not a mapping of fields", path)
    for field in _FIELDS:
        if entry.get(field) in (None, "", []):
            raise _fail(name, f"has no “{field}”", path)
    extra = sorted(set(entry) - set(_FIELDS) - set(_OPTIONAL))
    if extra:
        raise _fail(name, f"has unknown field(s) {', '.join(map(str, extra))}", path)
    if entry["unit"] not in STATE_UNITS:
        raise _fail(name, f"has an unknown unit “{entry['unit']}”", path)
    if not isinstance(entry["verify"], bool):
        raise _fail(name, "needs true or false for “verify”", path)
    for field in ("description", "citation", "source"):
        if not isinstance(entry[field], str):
            raise _fail(name, f"needs text for “{field}”", path)
    if not isinstance(entry["values"], list):
        raise _fail(name, "needs a list of dated values under “values”", path)
    out = []
    for item in entry["values"]:
        if not isinstance(item, dict) or any(item.get(f) in (None, "") for f in _VALUE_FIELDS):
            raise _fail(name, "has a dated value without effective, value and statement", path)
        if set(item) - set(_VALUE_FIELDS):
            raise _fail(name, "has a dated value with unknown fields", path)
        statement = str(item["statement"])
        out.append(StateFact(name, _typed(name, item["value"], entry["unit"], statement, path), entry["unit"],
                             entry["citation"].strip(), statement, _date(item["effective"], name, path),
                             " ".join(entry["description"].split()), " ".join(entry["source"].split()),
                             entry["verify"], " ".join(str(entry.get("note") or "").split())))
    out.sort(key=lambda f: f.effective)
    if len({f.effective for f in out}) != len(out):
        raise _fail(name, "has two values with the same effective date", path)
    return tuple(out)


def _regime(n: int, raw: Any, path: Path) -> Regime:
    name = f"nysdec_wetland_regimes[{n}]"
    if not isinstance(raw, dict) or any(raw.get(f) in (None, "") for f in _REGIME_FIELDS):
        raise _fail(name, f"needs {', '.join(_REGIME_FIELDS)}", path)
    if raw["maps"] not in ("regulatory", "informational"):
        raise _fail(name, "needs maps: regulatory or informational", path)
    if not isinstance(raw["verify"], bool):
        raise _fail(name, "needs true or false for “verify”", path)
    acres = raw["size_threshold_acres"]
    if isinstance(acres, bool) or not isinstance(acres, (int, float)) or acres <= 0:
        raise _fail(name, "needs a positive number of acres as its size threshold", path)
    return Regime(_date(raw["effective"], name, path), str(raw["status"]), raw["maps"], float(acres),
                  " ".join(str(raw["summary"]).split()), str(raw["citation"]), str(raw["source"]), raw["verify"])


def _neighbour_set(n: int, raw: Any, path: Path) -> NeighbourSet:
    name = f"municipal_neighbours[{n}]"
    if not isinstance(raw, dict) or any(raw.get(f) in (None, "", []) for f in ("effective", "source", "verify",
                                                                                  "neighbours")):
        raise _fail(name, "needs effective, source, verify and neighbours", path)
    if set(raw) - {"effective", "source", "verify", "neighbours", "note"}:
        raise _fail(name, "has unknown fields", path)
    if not isinstance(raw["verify"], bool):
        raise _fail(name, "needs true or false for “verify”", path)
    if not isinstance(raw["neighbours"], list):
        raise _fail(name, "needs a list of neighbours", path)
    out = []
    for one in raw["neighbours"]:
        if not isinstance(one, dict) or not isinstance(one.get("name"), str) or not one["name"].strip():
            raise _fail(name, "has a neighbour without a name", path)
        if set(one) - {"name", "county", "sector"}:
            raise _fail(name, f"has a neighbour ({one['name']}) with unknown fields", path)
        sector = one.get("sector")
        if sector is not None:
            ok = (isinstance(sector, list) and len(sector) == 2
                  and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 360 for v in sector))
            if not ok:
                raise _fail(name, f"needs the sector of {one['name']} as two bearings from 0 to 360 degrees", path)
            sector = (float(sector[0]), float(sector[1]))
        out.append(Neighbour(one["name"].strip(), str(one.get("county") or "").strip(), sector))
    if sum(1 for x in out if x.sector is None) != 1:
        raise _fail(name, "needs exactly one neighbour without a sector (the rest of the line)", path)
    return NeighbourSet(_date(raw["effective"], name, path), tuple(out), " ".join(str(raw["source"]).split()),
                        raw["verify"])


@dataclass(frozen=True)
class _Table:
    facts: dict[str, tuple[StateFact, ...]]
    regimes: tuple[Regime, ...]
    version: str
    notice: str
    neighbours: tuple[NeighbourSet, ...] = ()


@functools.lru_cache(maxsize=8)
def _load(path_str: str, _mtime_ns: int) -> _Table:
    path = Path(path_str)
    doc = read_yaml_file(path, "state-law settings file")
    if not isinstance(doc, dict) or not isinstance(doc.get("facts"), dict) or not doc["facts"]:
        raise SloatInputError(f"The state-law settings file {path.name} has no “facts” mapping.")
    if not isinstance(doc.get("version"), str) or not doc["version"].strip():
        raise SloatInputError(f"The state-law settings file {path.name} does not declare a text “version”.")
    facts = {name: _entry(name, e, path) for name, e in doc["facts"].items()}
    raw_regimes = doc.get("nysdec_wetland_regimes")
    if not isinstance(raw_regimes, list) or not raw_regimes:
        raise SloatInputError(f"The state-law settings file {path.name} has no “nysdec_wetland_regimes” list.")
    regs = tuple(sorted((_regime(i, r, path) for i, r in enumerate(raw_regimes)), key=lambda r: r.effective))
    raw_nb = doc.get("municipal_neighbours") or []
    if not isinstance(raw_nb, list):
        raise SloatInputError(f"The state-law settings file {path.name} has a “municipal_neighbours” that is not a list.")
    nbs = tuple(sorted((_neighbour_set(i, r, path) for i, r in enumerate(raw_nb)), key=lambda s: s.effective))
    return _Table(facts, regs, doc["version"].strip(), " ".join(str(doc.get("notice") or "").split()), nbs)


_OVERRIDE: contextvars.ContextVar[str | None] = contextvars.ContextVar("sloat_state_law", default=None)


def _table() -> _Table:
    # Read about 40 times a parcel: the shipped file's path is resolved once (as the parameters file's is), a
    # chosen file's on each read; only the modification time is checked each time (an edited file is read again).
    chosen = _OVERRIDE.get() or os.environ.get(STATE_LAW_ENV)
    path = _shipped_path() if not chosen else str(Path(chosen).resolve())
    stamp = file_stamp(Path(chosen or STATE_LAW_PATH), "The state-law settings file cannot be read.")
    return _load(path, stamp)


@functools.lru_cache(maxsize=1)
def _shipped_path() -> str:
    return str(STATE_LAW_PATH.resolve())


def _day(on: _dt.date | None) -> _dt.date:
    return on or _params.current_law_date() or _dt.date.today()


def state_param(name: str, on: _dt.date | None = None) -> StateFact:
    """The named fact as in effect on ``on`` (default: the analysis date, else today); KeyError if unknown.

    A date before the first value gets the first value, as for the Article IX parameters.
    """
    try:
        values = _table().facts[name]
    except KeyError:
        raise KeyError(f"No state-law fact named {name!r} in {STATE_LAW_PATH.name}.") from None
    starts = [f.effective for f in values]
    return values[max(bisect.bisect_right(starts, _day(on)) - 1, 0)]


def state_value(name: str, on: _dt.date | None = None) -> Any:
    """Shortcut for ``state_param(name, on).value``."""
    return state_param(name, on).value


def all_state_facts(on: _dt.date | None = None) -> dict[str, StateFact]:
    """Every fact as in effect on a date."""
    return {name: state_param(name, on) for name in _table().facts}


def regimes() -> tuple[Regime, ...]:
    """Every NYSDEC wetland regime, oldest first."""
    return _table().regimes


def regime_on(day: _dt.date | None = None) -> Regime:
    """The NYSDEC wetland regime in force on ``day`` (the latest entry effective on or before it).

    >>> regime_on(_dt.date(2024, 6, 1)).maps
    'regulatory'
    >>> regime_on(_dt.date(2025, 6, 1)).maps
    'informational'
    >>> regime_on(_dt.date(2026, 12, 1)).effective.isoformat()
    '2026-04-08'
    """
    regs = _table().regimes
    day = _day(day)
    idx = bisect.bisect_right([r.effective for r in regs], day) - 1
    return regs[max(idx, 0)]


def neighbours_on(day: _dt.date | None = None) -> NeighbourSet | None:
    """The village's neighbours in force on ``day`` (None when the file names none).

    >>> neighbours_on(_dt.date(2026, 12, 1)).across(90.0).name
    'Town of Ramapo'
    >>> neighbours_on(_dt.date(2026, 12, 1)).across(270.0).name
    'Town of Tuxedo'
    """
    sets = _table().neighbours
    if not sets:
        return None
    idx = bisect.bisect_right([s.effective for s in sets], _day(day)) - 1
    return sets[max(idx, 0)]


def state_law_version() -> str:
    return _table().version


def state_law_notice() -> str:
    return _table().notice


@contextlib.contextmanager
def using_state_law(path: str | Path):
    """Within the block, read the state-law settings from ``path`` (checked now)."""
    p = Path(path).resolve()
    _load(str(p), p.stat().st_mtime_ns)
    token = _OVERRIDE.set(str(p))
    try:
        yield
    finally:
        _OVERRIDE.reset(token)
