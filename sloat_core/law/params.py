"""The numbers of Article IX, read from ``data/law/parameters.yaml``, by date.

Every number the law states and the tool uses lives in that one file with its plain-English
description, unit, citation and a list of dated values: each value with the date from which it
holds and a quote from the law proving it (OpenFisca's dated parameters). The file is read by the one
loader of dated facts, :mod:`sloat_core.law.facts` (which reads the state-law facts too): fields present,
unit known, value of the right type, citation resolving in the shipped law, each quote found inside the
cited clause, and each value *agreeing with its quote* where the quote states a number (45 with "in
excess of 40%" is refused). This module declares the file and gives its accessors.

``param(name, on)`` gives the value in effect on that date (a value holds from its ``effective`` day,
that day included). The date is always passed in, and required: every rule, measurement and label is given
the date it applies the law at (an analysis's ``as_of``, a plan check's, the app's day) and passes it down;
only the outer doors (the command line, the app's analysis door, the top of an analysis, a screen or a plan
check) choose today when no date is given. A date before the first known value gets the first value (the
tool knows nothing older; see README "Readings").

Entries no code reads are marked ``informational: true`` (shown on the law page, used by no rule).

The file read is ``data/law/parameters.yaml``, or the file named by the ``SLOAT_PARAMS``
environment variable, or the one given to :func:`using_params` (tests).

>>> import datetime
>>> day = datetime.date(2026, 12, 1)
>>> param("wetland_extension_request_days", day).value
90
>>> param("wetland_extension_request_days", day).citation
'§ 402-57J(4)'
>>> value("steep_slope_countable_fraction", day)
0.5
>>> value("cluster_small_lot_districts", day)
['OSR', 'R-80', 'R-40']
>>> fill("slopes over {very_steep_slope_threshold_pct:g}%", day)
'slopes over 40%'
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as _dt
from pathlib import Path
from typing import Any

from sloat_core.errors import ParametersError, SloatInputError  # noqa: F401  (SloatInputError: read as params.SloatInputError)
from sloat_core.law.facts import (ARTICLE_IX_UNITS, Fact, FactFile, FactTable, agrees, article_ix_citation,
                                  article_ix_value, quote_numbers)

__all__ = [
    "PARAMS_PATH",
    "PARAMS_VERSION",
    "REQUIRED_FIELDS",
    "VALUE_FIELDS",
    "UNITS",
    "ARTICLE_IX",
    "Parameter",
    "load_params",
    "load_history",
    "params_version",
    "param",
    "value",
    "all_params",
    "fill",
    "one_reading",
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

UNITS = ARTICLE_IX_UNITS
"""Units an entry may declare."""

#: One number (or list, or calendar day) stated by Article IX, as in effect from one date: a `Fact` whose
#: ``quote`` is Article IX's own words (``informational``: no rule reads it).
Parameter = Fact

#: The parameters file, as the one loader reads it.
ARTICLE_IX = FactFile(
    what="parameters file", path=PARAMS_PATH, env=PARAMS_ENV, mapping="parameters", quote_field="quote",
    required=REQUIRED_FIELDS, optional=OPTIONAL_FIELDS, text_fields=("description", "unit", "citation"),
    flags=("informational",), units=UNITS, value=article_ix_value, error=ParametersError,
    unknown="No parameter named {name!r} in " + PARAMS_PATH.name + ".", check_citation=article_ix_citation,
    hashed_version=True, unreachable=lambda given, resolved: f"The parameters file {given or resolved} cannot be read.")


def _agrees(v: Any, unit: str, quote: str) -> bool | None:
    """Does ``v`` agree with the quote? None when the quote states no number to check against."""
    return agrees(v, unit, quote)


# One reading of the file for a whole analysis (`one_reading`): no date in it, only the table read.
_PINNED: contextvars.ContextVar[FactTable | None] = contextvars.ContextVar("sloat_params_pinned", default=None)


def _table() -> FactTable:
    pinned = _PINNED.get()
    return pinned if pinned is not None else ARTICLE_IX.table()


def _get(name: str, on: _dt.date) -> Parameter:
    return _table().get(name, on)


def load_history(path: str | Path | None = None) -> dict[str, tuple[Parameter, ...]]:
    """Every dated value of every entry of a parameters file (default: the one in use), oldest first."""
    return dict(ARTICLE_IX.table(path).history)


def load_params(path: str | Path | None, on: _dt.date) -> dict[str, Parameter]:
    """Read and check a parameters file (None: the one in use); the values in effect ``on`` a date.

    Cached per file and modification time. Raises :class:`sloat_core.errors.ParametersError` naming the first faulty entry.

    >>> import datetime
    >>> len(load_params(None, datetime.date(2026, 12, 1))) >= 49
    True
    """
    table = ARTICLE_IX.table(path)
    return {name: table.get(name, on) for name in table.history}


def params_version(path: str | Path | None = None) -> str:
    """The file's declared version plus the first 8 hex digits of its SHA-256.

    >>> params_version().startswith("2026-11-29.")
    True
    """
    return ARTICLE_IX.table(path).version


def all_params(on: _dt.date) -> dict[str, Parameter]:
    """Every parameter of the file in use, by name, as in effect on a date (a fresh dict)."""
    return load_params(None, on)


def param(name: str, on: _dt.date) -> Parameter:
    """The named parameter as in effect on ``on`` (the date the law is applied at); KeyError if unknown.

    >>> import datetime
    >>> p = param("steep_slope_deduction_threshold_pct", datetime.date(2026, 12, 1))
    >>> (p.value, p.unit, p.quote)
    (25, 'percent', 'steep slopes in excess of 25%')
    """
    return _get(name, on)


def value(name: str, on: _dt.date) -> Any:
    """Shortcut for ``param(name, on).value`` (lists are copied).

    >>> import datetime
    >>> value("wetland_mitigation_ratio", datetime.date(2026, 12, 1))
    1.5
    """
    v = _get(name, on).value
    return list(v) if isinstance(v, list) else v


class _Values:
    def __init__(self, on):
        self.on = on

    def __getitem__(self, name: str):
        return value(name, self.on)


def fill(template: str, on: _dt.date) -> str:
    """A text with its law numbers filled in from the parameters as in effect ``on`` a date: ``{name}`` or
    ``{name:format}``.

    Labels and sentences that state a number of Article IX are written this way, so changing the
    parameter changes every text that states it, from the day it changes.

    >>> import datetime
    >>> fill("rock outcrops over {rock_outcrop_min_area_sqft:,g} sq ft", datetime.date(2026, 12, 1))
    'rock outcrops over 50 sq ft'
    """
    return template.format_map(_Values(on))


@contextlib.contextmanager
def one_reading():
    """Within the block, parameters are read from one reading of the file: its date is not re-checked on
    every read (a speed matter for an analysis that reads hundreds of values). Dateless: the date each
    value is read at is still the one passed to `param` / `value` / `fill`.

    >>> import datetime
    >>> with one_reading():
    ...     value("wetland_hearing_days", datetime.date(2026, 12, 1))
    62
    """
    token = _PINNED.set(ARTICLE_IX.table())
    try:
        yield
    finally:
        _PINNED.reset(token)


def using_params(path: str | Path):
    """Within the block, read parameters from ``path`` (a checked copy of the file) instead."""
    return ARTICLE_IX.using(path)


def __getattr__(attr: str) -> str:
    # PARAMS_VERSION is computed on first use so that importing this module never reads files.
    if attr == "PARAMS_VERSION":
        return params_version()
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
