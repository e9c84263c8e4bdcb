"""The numbers of Article IX, read from ``data/law/parameters.yaml``.

Every number the law states and the tool uses lives in that one file with its plain-English
description, unit, citation, a quote from the law proving it, and the date from which the tool
knows it held. Loading checks every entry: all fields present, unit known, value of the right
type, citation resolving in the shipped law, and quote found inside the cited clause.

>>> param("wetland_extension_request_days").value
90
>>> param("wetland_extension_request_days").citation
'§ 402-57J(4)'
>>> value("steep_slope_countable_fraction")
0.5
>>> value("cluster_small_lot_districts")
['OSR', 'R-80', 'R-40']
"""

from __future__ import annotations

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
from sloat_core.errors import SloatInputError

__all__ = [
    "PARAMS_PATH",
    "PARAMS_VERSION",
    "REQUIRED_FIELDS",
    "UNITS",
    "Parameter",
    "load_params",
    "params_version",
    "param",
    "value",
    "all_params",
]

PARAMS_PATH = Path(__file__).resolve().parents[2] / "data" / "law" / "parameters.yaml"

REQUIRED_FIELDS = ("description", "value", "unit", "citation", "quote", "effective")

_FLOAT_UNITS = {"fraction", "ratio"}
_INT_UNITS = {"years", "months", "weeks", "days", "hours", "count", "usd"}
_MEASURE_UNITS = {"percent", "sqft", "acres", "ft", "in", "inches", "ft-per-in"}
UNITS = frozenset(_FLOAT_UNITS | _INT_UNITS | _MEASURE_UNITS | {"month-day", "date", "district-list"})
"""Units an entry may declare."""

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Parameter:
    """One number (or list, or calendar day) stated by Article IX.

    Attributes
    ----------
    name : str
        Key in the parameters file, e.g. "wetland_hearing_days".
    value : int, float, str or list
        Typed by unit: fractions and ratios are float; durations, counts and dollars are int;
        "month-day" is "MM-DD"; "date" is an ISO date string; "district-list" is a list of codes.
    unit, citation, quote, description : str
    effective : datetime.date
        Date from which this tool knows the value held (not the Code's adoption date).
    """

    name: str
    value: Any
    unit: str
    citation: str
    quote: str
    effective: _dt.date
    description: str


def _fail(name: str, problem: str, path: Path) -> SloatInputError:
    return SloatInputError(f"In {path.name}, the entry “{name}” {problem}.")


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


def _parse_entry(name: Any, entry: Any, path: Path) -> Parameter:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise _fail(str(name), "has a name that is not lower_case_with_underscores", path)
    if not isinstance(entry, dict):
        raise _fail(name, "is not a mapping of fields", path)
    for field in REQUIRED_FIELDS:
        if field not in entry or entry[field] is None or entry[field] == "":
            raise _fail(name, f"has no “{field}”", path)
    extra = sorted(set(entry) - set(REQUIRED_FIELDS))
    if extra:
        raise _fail(name, f"has unknown field(s) {', '.join(map(str, extra))}", path)
    for field in ("description", "unit", "citation", "quote"):
        if not isinstance(entry[field], str):
            raise _fail(name, f"needs text for “{field}”", path)
    unit = entry["unit"]
    if unit not in UNITS:
        raise _fail(name, f"has an unknown unit “{unit}”", path)
    citation = entry["citation"]
    if not law.citation_exists(citation):
        raise _fail(name, f"cites {citation}, which is not a clause of the shipped law", path)
    if law.normalize_citation(citation) != citation:
        raise _fail(name, f"should write its citation as {law.normalize_citation(citation)}", path)
    if not law.quote_in_clause(entry["quote"], citation):
        raise _fail(name, f"quotes words that are not in {citation}", path)
    effective = entry["effective"]
    if isinstance(effective, _dt.datetime) or not isinstance(effective, (_dt.date, str)):
        raise _fail(name, "needs an effective date written YYYY-MM-DD", path)
    if isinstance(effective, str):
        try:
            effective = _dt.date.fromisoformat(effective)
        except ValueError:
            raise _fail(name, "needs an effective date written YYYY-MM-DD", path) from None
    return Parameter(
        name=name,
        value=_typed_value(name, entry["value"], unit, path),
        unit=unit,
        citation=citation,
        quote=entry["quote"],
        effective=effective,
        description=entry["description"].strip(),
    )


def _read(path: Path) -> tuple[dict, bytes]:
    try:
        raw = path.read_bytes()
        doc = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError:
        raise SloatInputError(f"The parameters file {path} cannot be read.") from None
    except yaml.YAMLError:
        raise SloatInputError(f"The parameters file {path.name} is not valid YAML.") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("parameters"), dict) or not doc["parameters"]:
        raise SloatInputError(f"The parameters file {path.name} has no “parameters” mapping.")
    if not isinstance(doc.get("version"), str) or not doc["version"].strip():
        raise SloatInputError(f"The parameters file {path.name} does not declare a text “version”.")
    return doc, raw


@functools.lru_cache(maxsize=8)
def _load_cached(path_str: str, mtime_ns: int) -> tuple[dict[str, Parameter], str]:
    path = Path(path_str)
    doc, raw = _read(path)
    params = {name: _parse_entry(name, entry, path) for name, entry in doc["parameters"].items()}
    version = f"{doc['version'].strip()}+{hashlib.sha256(raw).hexdigest()[:8]}"
    return params, version


def _stat_key(path: str | Path | None) -> tuple[str, int]:
    # The rules read parameters hundreds of times per parcel: the shipped file's path is resolved once,
    # and only its modification time is checked on each read (an edited file is re-read and re-checked).
    resolved = _shipped_path() if path is None else str(Path(path).resolve())
    try:
        return resolved, os.stat(resolved).st_mtime_ns
    except OSError:
        raise SloatInputError(f"The parameters file {path or PARAMS_PATH} cannot be read.") from None


@functools.lru_cache(maxsize=1)
def _shipped_path() -> str:
    return str(PARAMS_PATH.resolve())


def load_params(path: str | Path | None = None) -> dict[str, Parameter]:
    """Read and check a parameters file (default: the shipped one); cached per file and mtime.

    Raises :class:`SloatInputError` naming the first faulty entry.

    >>> len(load_params()) >= 49
    True
    """
    return dict(_load_cached(*_stat_key(path))[0])


def params_version(path: str | Path | None = None) -> str:
    """The file's declared version plus the first 8 hex digits of its SHA-256.

    >>> params_version().startswith("2026-11-29.")
    True
    """
    return _load_cached(*_stat_key(path))[1]


def all_params() -> dict[str, Parameter]:
    """Every parameter of the shipped file, by name (a fresh dict)."""
    return load_params()


def param(name: str) -> Parameter:
    """The named parameter; KeyError for an unknown name.

    >>> p = param("steep_slope_deduction_threshold_pct")
    >>> (p.value, p.unit, p.quote)
    (25, 'percent', 'steep slopes in excess of 25%')
    """
    params = _load_cached(*_stat_key(None))[0]
    try:
        return params[name]
    except KeyError:
        raise KeyError(f"No parameter named {name!r} in {PARAMS_PATH.name}.") from None


def value(name: str) -> Any:
    """Shortcut for ``param(name).value`` (lists are copied).

    >>> value("wetland_mitigation_ratio")
    1.5
    """
    v = param(name).value
    return list(v) if isinstance(v, list) else v


def __getattr__(attr: str) -> str:
    # PARAMS_VERSION is computed on first use so that importing this module never reads files.
    if attr == "PARAMS_VERSION":
        return params_version()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
