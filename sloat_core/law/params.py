"""The numbers of Article IX, read from ``data/law/parameters.yaml``, by date.

Every number the law states and the tool uses lives in that one file with its plain-English
description, unit, citation and a list of dated values: each value with the date from which it
holds and a quote from the law proving it (OpenFisca's dated parameters). Loading checks every
entry: fields present, unit known, value of the right type, citation resolving in the shipped law,
each quote found inside the cited clause, and each value *agreeing with its quote* where the quote
states a number (45 with "in excess of 40%" is refused).

``param(name, on=date)`` gives the value in effect on that date; without ``on``, the date of the
analysis being run (:func:`law_date`), else today. A date before the first known value gets the
first value (the tool knows nothing older; see README "Readings").

Entries no code reads are marked ``informational: true`` (shown on the law page, used by no rule).

The file read is ``data/law/parameters.yaml``, or the file named by the ``SLOAT_PARAMS``
environment variable, or the one given to :func:`using_params` (tests).

>>> param("wetland_extension_request_days").value
90
>>> param("wetland_extension_request_days").citation
'§ 402-57J(4)'
>>> value("steep_slope_countable_fraction")
0.5
>>> value("cluster_small_lot_districts")
['OSR', 'R-80', 'R-40']
>>> fill("slopes over {very_steep_slope_threshold_pct:g}%")
'slopes over 40%'
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from sloat_core.law import text as law
from sloat_core.errors import ParametersError, SloatInputError  # noqa: F401  (SloatInputError: read as params.SloatInputError)

__all__ = [
    "PARAMS_PATH",
    "PARAMS_VERSION",
    "REQUIRED_FIELDS",
    "VALUE_FIELDS",
    "UNITS",
    "Parameter",
    "load_params",
    "load_history",
    "params_version",
    "param",
    "value",
    "all_params",
    "fill",
    "law_date",
    "using_params",
    "quote_numbers",
]

PARAMS_PATH = Path(__file__).resolve().parents[2] / "data" / "law" / "parameters.yaml"
#: Environment variable naming another parameters file (a copy with a changed value, for example).
PARAMS_ENV = "SLOAT_PARAMS"

#: Fields of an entry; ``values`` is a list of dated values, each with `VALUE_FIELDS`.
REQUIRED_FIELDS = ("description", "unit", "citation", "values")
OPTIONAL_FIELDS = ("informational",)
VALUE_FIELDS = ("effective", "value", "quote")

_FLOAT_UNITS = {"fraction", "ratio"}
_INT_UNITS = {"years", "months", "weeks", "days", "hours", "count", "usd"}
_MEASURE_UNITS = {"percent", "sqft", "acres", "ft", "in", "inches", "ft-per-in"}
UNITS = frozenset(_FLOAT_UNITS | _INT_UNITS | _MEASURE_UNITS | {"month-day", "date", "district-list"})
"""Units an entry may declare."""

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Parameter:
    """One number (or list, or calendar day) stated by Article IX, as in effect from one date.

    Attributes
    ----------
    name : str
        Key in the parameters file, e.g. "wetland_hearing_days".
    value : int, float, str or list
        Typed by unit: fractions and ratios are float; durations, counts and dollars are int;
        "month-day" is "MM-DD"; "date" is an ISO date string; "district-list" is a list of codes.
    unit, citation, quote, description : str
    effective : datetime.date
        Date from which this value holds (for the shipped values: from which the tool knows it held,
        not the Code's adoption date).
    informational : bool
        True when no rule reads it (stated for reference only).
    """

    name: str
    value: Any
    unit: str
    citation: str
    quote: str
    effective: _dt.date
    description: str
    informational: bool = False


def _fail(name: str, problem: str, path: Path) -> ParametersError:
    return ParametersError(f"In {path.name}, the entry “{name}” {problem}.")


def _typed_value(name: str, raw: Any, unit: str, path: Path) -> Any:
    if unit in _FLOAT_UNITS | _INT_UNITS | _MEASURE_UNITS:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)):
            raise _fail(name, f"needs a number as its value, not {raw!r}", path)
        if raw < 0:
            raise _fail(name, "has a negative value", path)
        if unit in _FLOAT_UNITS:
            if unit == "fraction" and raw > 1:
                raise _fail(name, "is a fraction but its value is above 1", path)
            return float(raw)
        if unit in _INT_UNITS:
            if raw != int(raw):
                raise _fail(name, f"needs a whole number of {unit}", path)
            return int(raw)
        return raw
    if unit == "month-day":
        m = re.fullmatch(r"(\d\d)-(\d\d)", str(raw))
        try:
            _dt.date(2000, int(m.group(1)), int(m.group(2)))  # 2000 is a leap year
        except (AttributeError, ValueError):
            raise _fail(name, f"needs a calendar day written MM-DD, not {raw!r}", path) from None
        return str(raw)
    if unit == "date":
        try:
            return _dt.date.fromisoformat(str(raw)).isoformat()
        except ValueError:
            raise _fail(name, f"needs a date written YYYY-MM-DD, not {raw!r}", path) from None
    # district-list
    if not isinstance(raw, list) or not raw or not all(isinstance(x, str) and x for x in raw):
        raise _fail(name, "needs a list of district codes as its value", path)
    return list(raw)


# -- does a value agree with its quote? ------------------------------------------------------------

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
          "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_NUMBER_RE = re.compile(r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?")


def quote_numbers(quote: str) -> list[float]:
    """The numbers a quote states: figures ("1,000", "2.5", "1/2") and number words ("five").

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


def _agrees(v: Any, unit: str, quote: str) -> bool | None:
    """Does ``v`` agree with the quote? None when the quote states no number to check against."""
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


def _parse_value(name: str, item: Any, unit: str, citation: str, path: Path) -> tuple[_dt.date, Any, str]:
    if not isinstance(item, dict):
        raise _fail(name, "has a dated value that is not a mapping of effective, value and quote", path)
    for field in VALUE_FIELDS:
        if field not in item or item[field] is None or item[field] == "":
            raise _fail(name, f"has a dated value without “{field}”", path)
    extra = sorted(set(item) - set(VALUE_FIELDS))
    if extra:
        raise _fail(name, f"has unknown field(s) {', '.join(map(str, extra))}", path)
    quote = item["quote"]
    if not isinstance(quote, str):
        raise _fail(name, "needs text for “quote”", path)
    if not law.quote_in_clause(quote, citation):
        raise _fail(name, f"quotes words that are not in {citation}", path)
    effective = item["effective"]
    if isinstance(effective, _dt.datetime) or not isinstance(effective, (_dt.date, str)):
        raise _fail(name, "needs an effective date written YYYY-MM-DD", path)
    if isinstance(effective, str):
        try:
            effective = _dt.date.fromisoformat(effective)
        except ValueError:
            raise _fail(name, "needs an effective date written YYYY-MM-DD", path) from None
    typed = _typed_value(name, item["value"], unit, path)
    if _agrees(typed, unit, quote) is False:
        raise _fail(name, f"has the value {typed!r}, which its quote “{quote}” does not state", path)
    return effective, typed, quote


def _parse_entry(name: Any, entry: Any, path: Path) -> tuple[Parameter, ...]:
    """Every dated value of one entry, oldest first."""
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise _fail(str(name), "has a name that is not lower_case_with_underscores", path)
    if not isinstance(entry, dict):
        raise _fail(name, "is not a mapping of fields", path)
    for field in REQUIRED_FIELDS:
        if field not in entry or entry[field] is None or entry[field] == "" or entry[field] == []:
            raise _fail(name, f"has no “{field}”", path)
    extra = sorted(set(entry) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS))
    if extra:
        raise _fail(name, f"has unknown field(s) {', '.join(map(str, extra))}", path)
    for field in ("description", "unit", "citation"):
        if not isinstance(entry[field], str):
            raise _fail(name, f"needs text for “{field}”", path)
    informational = entry.get("informational", False)
    if not isinstance(informational, bool):
        raise _fail(name, "needs true or false for “informational”", path)
    unit = entry["unit"]
    if unit not in UNITS:
        raise _fail(name, f"has an unknown unit “{unit}”", path)
    citation = entry["citation"]
    if not law.citation_exists(citation):
        raise _fail(name, f"cites {citation}, which is not a clause of the shipped law", path)
    if law.normalize_citation(citation) != citation:
        raise _fail(name, f"should write its citation as {law.normalize_citation(citation)}", path)
    if not isinstance(entry["values"], list):
        raise _fail(name, "needs a list of dated values under “values”", path)
    dated = sorted((_parse_value(name, item, unit, citation, path) for item in entry["values"]),
                   key=lambda t: t[0])
    dates = [d for d, _, _ in dated]
    if len(set(dates)) != len(dates):
        raise _fail(name, "has two values with the same effective date", path)
    description = entry["description"].strip()
    return tuple(Parameter(name, v, unit, citation, q, d, description, informational) for d, v, q in dated)


def _read(path: Path) -> tuple[dict, bytes]:
    try:
        raw = path.read_bytes()
        doc = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError:
        raise ParametersError(f"The parameters file {path} cannot be read.") from None
    except yaml.YAMLError:
        raise ParametersError(f"The parameters file {path.name} is not valid YAML.") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("parameters"), dict) or not doc["parameters"]:
        raise ParametersError(f"The parameters file {path.name} has no “parameters” mapping.")
    if not isinstance(doc.get("version"), str) or not doc["version"].strip():
        raise ParametersError(f"The parameters file {path.name} does not declare a text “version”.")
    return doc, raw


@dataclass(frozen=True)
class _Table:
    history: dict[str, tuple[Parameter, ...]]
    starts: dict[str, list[_dt.date]]
    version: str

    def get(self, name: str, on: _dt.date | None) -> Parameter:
        try:
            values = self.history[name]
        except KeyError:
            raise KeyError(f"No parameter named {name!r} in {PARAMS_PATH.name}.") from None
        if len(values) == 1:
            return values[0]
        day = on or _LAW_DATE.get() or _dt.date.today()
        return values[max(bisect.bisect_right(self.starts[name], day) - 1, 0)]


@functools.lru_cache(maxsize=8)
def _load_cached(path_str: str, mtime_ns: int) -> _Table:
    path = Path(path_str)
    doc, raw = _read(path)
    history = {name: _parse_entry(name, entry, path) for name, entry in doc["parameters"].items()}
    version = f"{doc['version'].strip()}+{hashlib.sha256(raw).hexdigest()[:8]}"
    return _Table(history, {n: [p.effective for p in h] for n, h in history.items()}, version)


_OVERRIDE: contextvars.ContextVar[str | None] = contextvars.ContextVar("sloat_params_file", default=None)
_LAW_DATE: contextvars.ContextVar[_dt.date | None] = contextvars.ContextVar("sloat_law_date", default=None)
_PINNED: contextvars.ContextVar[_Table | None] = contextvars.ContextVar("sloat_params_pinned", default=None)


def _current_path() -> str:
    chosen = _OVERRIDE.get() or os.environ.get(PARAMS_ENV)
    return _shipped_path() if not chosen else str(Path(chosen).resolve())


def _stat_key(path: str | Path | None) -> tuple[str, int]:
    # The rules read parameters hundreds of times per parcel: the shipped file's path is resolved once,
    # and only its modification time is checked on each read (an edited file is re-read and re-checked).
    resolved = _current_path() if path is None else str(Path(path).resolve())
    try:
        return resolved, os.stat(resolved).st_mtime_ns
    except OSError:
        raise ParametersError(f"The parameters file {path or resolved} cannot be read.") from None


@functools.lru_cache(maxsize=1)
def _shipped_path() -> str:
    return str(PARAMS_PATH.resolve())


def _table() -> _Table:
    pinned = _PINNED.get()
    return pinned if pinned is not None else _load_cached(*_stat_key(None))


def load_history(path: str | Path | None = None) -> dict[str, tuple[Parameter, ...]]:
    """Every dated value of every entry of a parameters file (default: the one in use), oldest first."""
    return dict(_load_cached(*_stat_key(path)).history)


def load_params(path: str | Path | None = None, on: _dt.date | None = None) -> dict[str, Parameter]:
    """Read and check a parameters file (default: the one in use); the values in effect ``on`` a date.

    Cached per file and modification time. Raises :class:`sloat_core.errors.ParametersError` naming the first faulty entry.

    >>> len(load_params()) >= 49
    True
    """
    table = _load_cached(*_stat_key(path))
    return {name: table.get(name, on) for name in table.history}


def params_version(path: str | Path | None = None) -> str:
    """The file's declared version plus the first 8 hex digits of its SHA-256.

    >>> params_version().startswith("2026-11-29.")
    True
    """
    return _load_cached(*_stat_key(path)).version


def all_params(on: _dt.date | None = None) -> dict[str, Parameter]:
    """Every parameter of the file in use, by name, as in effect on a date (a fresh dict)."""
    return load_params(None, on)


def param(name: str, on: _dt.date | None = None) -> Parameter:
    """The named parameter as in effect on ``on`` (default: `law_date`, else today); KeyError if unknown.

    >>> p = param("steep_slope_deduction_threshold_pct")
    >>> (p.value, p.unit, p.quote)
    (25, 'percent', 'steep slopes in excess of 25%')
    """
    return _table().get(name, on)


def value(name: str, on: _dt.date | None = None) -> Any:
    """Shortcut for ``param(name, on).value`` (lists are copied).

    >>> value("wetland_mitigation_ratio")
    1.5
    """
    v = _table().get(name, on).value
    return list(v) if isinstance(v, list) else v


class _Values:
    def __init__(self, on):
        self.on = on

    def __getitem__(self, name: str):
        return value(name, self.on)


def fill(template: str, on: _dt.date | None = None) -> str:
    """A text with its law numbers filled in from the parameters: ``{name}`` or ``{name:format}``.

    Labels and sentences that state a number of Article IX are written this way, so changing the
    parameter changes every text that states it.

    >>> fill("rock outcrops over {rock_outcrop_min_area_sqft:,g} sq ft")
    'rock outcrops over 50 sq ft'
    """
    return template.format_map(_Values(on))


def current_law_date() -> _dt.date | None:
    """The date parameters are read as in effect on inside a `law_date` block (None outside one)."""
    return _LAW_DATE.get()


@contextlib.contextmanager
def law_date(on: _dt.date | None):
    """Within the block, parameters are read as in effect on ``on`` (the analysis date, ``--as-of``),
    and from one reading of the file (no re-check of its date on every read).

    >>> import datetime
    >>> with law_date(datetime.date(2026, 12, 1)):
    ...     value("wetland_hearing_days")
    62
    """
    t1 = _LAW_DATE.set(on)
    t2 = _PINNED.set(_load_cached(*_stat_key(None)))
    try:
        yield
    finally:
        _PINNED.reset(t2)
        _LAW_DATE.reset(t1)


@contextlib.contextmanager
def using_params(path: str | Path):
    """Within the block, read parameters from ``path`` (a checked copy of the file) instead."""
    load_params(path)  # checked now: a faulty copy fails here, with the entry named
    token = _OVERRIDE.set(str(Path(path).resolve()))
    try:
        yield
    finally:
        _OVERRIDE.reset(token)


def __getattr__(attr: str) -> str:
    # PARAMS_VERSION is computed on first use so that importing this module never reads files.
    if attr == "PARAMS_VERSION":
        return params_version()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
