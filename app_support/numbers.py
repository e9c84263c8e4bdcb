"""Number fields that say what is wrong (issue 24, item 10).

A Streamlit number input with ``min_value``/``max_value`` refuses an out-of-range entry in the browser:
the field turns red and the script keeps the last valid value, so a result for a number the person no
longer sees stays on screen. These fields take what was typed, check it here against the range, and give
one sentence naming the field and the allowed range; the page then shows no result until it is right.
"""

from __future__ import annotations

import math

import streamlit as st

__all__ = ["checked_number", "range_sentence"]


def _fmt(x: float, integer: bool) -> str:
    return f"{int(x):,}" if integer or float(x).is_integer() else f"{x:,g}"


def range_sentence(label: str, low: float, high: float, *, unit: str = "", integer: bool = False) -> str:
    """The one sentence shown when a typed number is outside ``[low, high]`` (or not a whole number).

    >>> range_sentence("Wetland to be lost", 0, 1e10, unit="sq ft")
    '"Wetland to be lost" must be a number from 0 to 10,000,000,000 sq ft.'
    """
    kind = "a whole number" if integer else "a number"
    tail = f" {unit}" if unit else ""
    return f'"{label}" must be {kind} from {_fmt(low, integer)} to {_fmt(high, integer)}{tail}.'


def checked_number(label: str, key: str, stored, *, low: float, high: float, unit: str = "",
                   integer: bool = False, help: str | None = None) -> tuple[float | int | None, str | None]:
    """A number input that may be left empty, and the sentence saying what is wrong with it (else None).

    Returns ``(value, None)`` for an empty or valid entry and ``(None, sentence)`` for one outside the
    range (negative, too large, not finite, a fraction where a whole number is asked).
    """
    if key not in st.session_state:
        st.session_state[key] = stored
    typed = st.number_input(label, key=key, value=None, step=1 if integer else 100.0, help=help,
                            placeholder="Not known", format="%d" if integer else None)
    if typed is None:
        return None, None
    x = float(typed)
    bad = not math.isfinite(x) or x < low or x > high or (integer and not x.is_integer())
    if bad:
        return None, range_sentence(label.split(" (")[0], low, high, unit=unit, integer=integer)
    return (int(x) if integer else x), None
