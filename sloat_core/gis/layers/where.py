"""Manifest ``where`` filters: a tiny expression language, parsed, never ``eval``-ed.

Either a mapping ``{FIELD: value or [values]}`` or a small expression such as
``ZONE in ('AE', 'A') and not STATIC_BFE = -9999``: comparisons (``= == != <> < <= > >=``),
``in (...)``, ``not in (...)``, ``is null``, ``is not null``, ``and``, ``or``, ``not`` and
parentheses. Field names match ignoring case. :func:`_compile_where` turns one into a predicate
over a DataFrame; a problem raises :class:`_WhereError`, which the manifest loader turns into a
message naming the manifest line.

Examples
--------
>>> import pandas as pd
>>> df = pd.DataFrame({"ZONE": ["AE", "X", "A"], "BFE": [12, -9999, 7]})
>>> _compile_where("zone in ('AE', 'A') and not BFE = -9999")(df).tolist()
[True, False, True]
>>> _compile_where({"ZONE": "X"})(df).tolist()
[False, True, False]
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

import pandas as pd

from sloat_core.errors import WhereFilterError as _WhereError  # the manifest loader catches it by this name

_TOKEN_RE = re.compile(
    r"""\s*(?:
        (?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
      | (?P<str>'(?:[^']|'')*'|"(?:[^"]|"")*")
      | (?P<op><=|>=|!=|<>|==|=|<|>)
      | (?P<punct>[(),])
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    )""",
    re.VERBOSE,
)
_KEYWORDS = {"and", "or", "not", "in", "is", "null"}
_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
    "<>": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


_Pred = Callable[[pd.DataFrame], pd.Series]


def _tokenize(text: str) -> list[tuple[str, Any]]:
    tokens: list[tuple[str, Any]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            raise _WhereError(f"the where filter cannot be understood near {text[pos:pos + 15]!r}")
        pos = m.end()
        if m.group("num") is not None:
            num = float(m.group("num"))
            tokens.append(("value", int(num) if num.is_integer() and "." not in m.group("num") else num))
        elif m.group("str") is not None:
            raw = m.group("str")
            quote = raw[0]
            tokens.append(("value", raw[1:-1].replace(quote * 2, quote)))
        elif m.group("op") is not None:
            tokens.append(("op", m.group("op")))
        elif m.group("punct") is not None:
            tokens.append((m.group("punct"), m.group("punct")))
        else:
            word = m.group("name")
            if word.lower() in _KEYWORDS:
                tokens.append((word.lower(), word))
            else:
                tokens.append(("field", word))
    return tokens


def _column(df: pd.DataFrame, field: str) -> pd.Series:
    if field in df.columns:
        return df[field]
    for col in df.columns:
        if str(col).lower() == field.lower():
            return df[col]
    raise _WhereError(f"the where filter names the field {field!r}, which the file does not have")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _compare(col: pd.Series, op: str, value: Any) -> pd.Series:
    if _is_number(value):
        series = pd.to_numeric(col, errors="coerce")
    else:
        series = col.astype("string").str.strip()
        value = str(value)
    result = _OPS[op](series, value)
    return pd.Series(result, index=col.index).fillna(False).astype(bool)


def _isin(col: pd.Series, values: list[Any]) -> pd.Series:
    if values and all(_is_number(v) for v in values):
        series = pd.to_numeric(col, errors="coerce")
        return pd.Series(series.isin(values), index=col.index).fillna(False).astype(bool)
    series = col.astype("string").str.strip()
    return pd.Series(series.isin([str(v) for v in values]), index=col.index).fillna(False).astype(bool)


class _Parser:
    """Recursive-descent parser turning a where expression into a predicate over a DataFrame."""

    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.pos = 0

    def _peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def _take(self, kind: str) -> Any:
        if self._peek() != kind:
            got = self.tokens[self.pos][1] if self.pos < len(self.tokens) else "the end"
            raise _WhereError(f"the where filter expected {kind} but found {got!r}")
        value = self.tokens[self.pos][1]
        self.pos += 1
        return value

    def parse(self) -> _Pred:
        if not self.tokens:
            raise _WhereError("the where filter is empty")
        pred = self._or()
        if self.pos != len(self.tokens):
            raise _WhereError(f"the where filter has unexpected text at {self.tokens[self.pos][1]!r}")
        return pred

    def _or(self) -> _Pred:
        left = self._and()
        while self._peek() == "or":
            self.pos += 1
            right = self._and()
            left = (lambda a, b: lambda df: a(df) | b(df))(left, right)
        return left

    def _and(self) -> _Pred:
        left = self._not()
        while self._peek() == "and":
            self.pos += 1
            right = self._not()
            left = (lambda a, b: lambda df: a(df) & b(df))(left, right)
        return left

    def _not(self) -> _Pred:
        if self._peek() == "not":
            self.pos += 1
            inner = self._not()
            return lambda df: ~inner(df)
        return self._atom()

    def _atom(self) -> _Pred:
        if self._peek() == "(":
            self.pos += 1
            inner = self._or()
            self._take(")")
            return inner
        field = self._take("field")
        kind = self._peek()
        if kind == "op":
            op = self._take("op")
            value = self._take("value")
            return lambda df: _compare(_column(df, field), op, value)
        if kind == "is":
            self.pos += 1
            negate = self._peek() == "not"
            if negate:
                self.pos += 1
            self._take("null")
            if negate:
                return lambda df: _column(df, field).notna()
            return lambda df: _column(df, field).isna()
        negate = False
        if kind == "not":
            self.pos += 1
            negate = True
        self._take("in")
        self._take("(")
        values = [self._take("value")]
        while self._peek() == ",":
            self.pos += 1
            values.append(self._take("value"))
        self._take(")")
        if negate:
            return lambda df: ~_isin(_column(df, field), values)
        return lambda df: _isin(_column(df, field), values)


def _compile_where(where: Any) -> _Pred:
    """Compile a manifest ``where`` (expression string or ``{FIELD: value-or-list}`` mapping)."""
    if isinstance(where, str):
        return _Parser(where).parse()
    if isinstance(where, dict) and where:
        clauses: list[_Pred] = []
        for field, wanted in where.items():
            values = list(wanted) if isinstance(wanted, (list, tuple)) else [wanted]
            if any(isinstance(v, (dict, list)) for v in values):
                raise _WhereError(f"the where value for {field!r} must be a value or a list of values")
            clauses.append((lambda f, vs: lambda df: _isin(_column(df, str(f)), vs))(field, values))

        def _all(df: pd.DataFrame) -> pd.Series:
            mask = pd.Series(True, index=df.index)
            for clause in clauses:
                mask &= clause(df)
            return mask

        return _all
    raise _WhereError("the where filter must be an expression or a mapping of field to value(s)")
