"""Frozen records that are written as JSON and read back strictly: the machinery of the typed analysis result.

A record is a frozen dataclass deriving from :class:`Record`. ``to_dict()`` writes its fields in their
declared order as JSON-ready values (a nested record as its own dict, a tuple as a list, a date as
``YYYY-MM-DD``); ``from_dict()`` reads such a dict back and refuses a key it does not know or a key it
misses (:class:`sloat_core.errors.ResultShapeError`). Fields say how they are read back with the helpers
below: :func:`one` (a nested record), :func:`many` (a tuple of records, or of plain values), :func:`day`
(a calendar date), :func:`omitted` (a key the dict carries only when the value is not None: absent is None,
never a key with null). A field with none of them is a plain JSON value (a number, a string, None, or a
dict or list of them, read back as a copy).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Side(Record):
...     label: str
...     area_sqft: float | None
...     note: str | None = omitted()
>>> @dataclass(frozen=True)
... class Pair(Record):
...     name: str
...     sides: tuple[Side, ...] = many(Side)
>>> p = Pair.from_dict({"name": "a", "sides": [{"label": "x", "area_sqft": None}]})
>>> p.sides[0].area_sqft is None, p.to_dict()
(True, {'name': 'a', 'sides': [{'label': 'x', 'area_sqft': None}]})
>>> Pair.from_dict({"name": "a", "sides": [], "colour": "red"})
Traceback (most recent call last):
...
sloat_core.errors.ResultShapeError: Pair: unknown key 'colour'.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping
from dataclasses import field, fields

from sloat_core.errors import ResultShapeError

__all__ = ["Record", "one", "many", "day", "omitted", "check_keys", "json_copy"]

_OF = "record_of"  # the record class of a nested value
_MANY = "record_many"  # a tuple (of records when _OF is set)
_DAY = "record_day"  # a calendar date written as YYYY-MM-DD
_OMIT = "record_omit"  # the key is absent when the value is None


def one(of: type, **kw):
    """A field holding one nested record of class ``of`` (or None)."""
    return field(metadata={_OF: of}, **kw)


def many(of: type | None = None, **kw):
    """A field holding a tuple: of records of class ``of`` when given, else of plain values (or None)."""
    return field(metadata={_OF: of, _MANY: True} if of is not None else {_MANY: True}, **kw)


def day(**kw):
    """A field holding a calendar date (:class:`datetime.date`), written ``YYYY-MM-DD``."""
    return field(metadata={_DAY: True}, **kw)


def omitted(**kw):
    """A field the dict carries only when it is not None (default None)."""
    return field(default=None, metadata={_OMIT: True, **kw.pop("metadata", {})}, **kw)


def json_copy(value):
    """A copy of a JSON-ready value (dicts, lists and plain values; a tuple becomes a list), nothing shared."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [json_copy(v) for v in value]
    return value


def _dump(value):
    if isinstance(value, Record) or (hasattr(value, "to_dict") and hasattr(type(value), "from_dict")):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    if isinstance(value, _dt.date):
        return value.isoformat()
    return value


def check_keys(kind: str, d, keys: Iterable[str], optional: Iterable[str] = ()) -> None:
    """Refuse ``d`` unless it is a dict whose keys are ``keys`` (those in ``optional`` may be absent).

    Raises
    ------
    sloat_core.errors.ResultShapeError
        Naming ``kind`` and the first key unknown or missing.
    """
    if not isinstance(d, Mapping):
        raise ResultShapeError(f"{kind}: expected a dict, got {type(d).__name__}.")
    keys = list(keys)
    known = set(keys)
    unknown = [k for k in d if k not in known]
    if unknown:
        raise ResultShapeError(f"{kind}: unknown key {unknown[0]!r}.")
    may_lack = set(optional)
    missing = [k for k in keys if k not in d and k not in may_lack]
    if missing:
        raise ResultShapeError(f"{kind}: missing key {missing[0]!r}.")


def _within(kind: str, where: str, exc: Exception) -> ResultShapeError:
    """The error of a nested value, its path from ``kind`` ("ParcelResult.permits[2]: missing key 'reason'.")."""
    head, sep, detail = str(exc).partition(": ")
    inner = head.split(".", 1)[1] if sep and isinstance(exc, ResultShapeError) and "." in head else ""
    if not sep or not isinstance(exc, ResultShapeError):
        detail = str(exc)
    return ResultShapeError(f"{kind}.{where}{'.' + inner if inner else ''}: {detail}")


def _load(f, value, kind: str):
    md = f.metadata
    if value is None:
        return None
    of = md.get(_OF)
    try:
        if md.get(_DAY):
            return _dt.date.fromisoformat(value)
        if md.get(_MANY):
            if not isinstance(value, (list, tuple)):
                raise ResultShapeError(f"{kind}.{f.name}: expected a list, got {type(value).__name__}.")
            if of is None:
                return tuple(json_copy(v) for v in value)
            out = []
            for i, v in enumerate(value):
                try:
                    out.append(of.from_dict(v))
                except (ResultShapeError, TypeError, ValueError, KeyError, AttributeError) as exc:
                    raise _within(kind, f"{f.name}[{i}]", exc) from None
            return tuple(out)
        if of is not None:
            return of.from_dict(value)
    except ResultShapeError as exc:
        if str(exc).startswith(f"{kind}.{f.name}"):
            raise
        raise _within(kind, f.name, exc) from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise _within(kind, f.name, exc) from None
    return json_copy(value)


class Record:
    """Base of the frozen records: ``to_dict`` in field order, strict ``from_dict`` (see the module)."""

    __slots__ = ()

    def to_dict(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.metadata.get(_OMIT):
                continue
            out[f.name] = _dump(value)
        return out

    @classmethod
    def from_dict(cls, d):
        kind = cls.__name__
        fs = fields(cls)
        check_keys(kind, d, (f.name for f in fs), (f.name for f in fs if f.metadata.get(_OMIT)))
        return cls(**{f.name: _load(f, d[f.name], kind) for f in fs if f.name in d})
