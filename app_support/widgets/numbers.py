"""Number fields that say what is wrong.

A Streamlit number input with ``min_value``/``max_value`` refuses an out-of-range entry in the browser:
the field turns red and the script keeps the last valid value, so a result for a number the person no
longer sees stays on screen. These fields take what was typed, check it here against the range, and give
one sentence naming the field and the allowed range; the page then shows no result until it is right.
"""

from __future__ import annotations

import math

import streamlit as st

__all__ = ["checked_number", "range_sentence", "refused"]


def _fmt(x: float, integer: bool, grouped: bool = True) -> str:
    if not grouped:  # a year: 2199, not 2,199
        return f"{int(x)}" if integer or float(x).is_integer() else f"{x:g}"
    return f"{int(x):,}" if integer or float(x).is_integer() else f"{x:,g}"


def range_sentence(label: str, low: float, high: float, *, unit: str = "", integer: bool = False,
                   grouped: bool = True) -> str:
    """The one sentence shown when a typed number is outside ``[low, high]`` (or not a whole number).

    >>> range_sentence("Wetland to be lost", 0, 1e10, unit="sq ft")
    '"Wetland to be lost" must be a number from 0 to 10,000,000,000 sq ft.'
    """
    kind = "a whole number" if integer else "a number"
    tail = f" {unit}" if unit else ""
    return f'"{label}" must be {kind} from {_fmt(low, integer, grouped)} to {_fmt(high, integer, grouped)}{tail}.'


def refused(typed, *, low: float, high: float, integer: bool = False) -> bool:
    """True when a typed value is not a usable number in ``[low, high]`` (whole where ``integer``).

    >>> [refused(v, low=0, high=10) for v in (5, -500, 1e15, float("nan"), "abc", None)]
    [False, True, True, True, True, False]
    >>> refused(2.5, low=0, high=10, integer=True)
    True
    """
    if typed is None:
        return False
    if isinstance(typed, bool):
        return True
    try:
        x = float(typed)
    except (TypeError, ValueError, OverflowError):
        return True
    return not math.isfinite(x) or x < low or x > high or (integer and not x.is_integer())


def checked_number(label: str, key: str, stored, *, low: float, high: float, unit: str = "",
                   integer: bool = False, help: str | None = None, step: float | None = None,
                   placeholder: str = "Not known", default=None, grouped: bool = True,
                   beside: bool = True) -> tuple[float | int | None, str | None]:
    """A number input that may be left empty, and the sentence saying what is wrong with it (else None).

    Returns ``(value, None)`` for an empty or valid entry and ``(None, sentence)`` for one outside the
    range (negative, too large, not finite, a fraction where a whole number is asked). With ``beside``
    the sentence is shown right under the field, so the person sees which field it is.
    """
    if key not in st.session_state:
        st.session_state[key] = stored if stored is not None else default
    # Always a float widget: Streamlit's whole-number widget truncates 2.5 to 2 and fails on a NaN sent by a
    # client; here a fraction is refused in words, and a NaN arrives as "nothing typed".
    typed = st.number_input(label, key=key, value=None, step=float(step or (1 if integer else 100.0)), help=help,
                            placeholder=placeholder, format="%g" if integer else None)
    if typed is None:
        return None, None
    if refused(typed, low=low, high=high, integer=integer):
        sentence = range_sentence(label.split(" (")[0], low, high, unit=unit, integer=integer, grouped=grouped)
        if beside:
            st.error(sentence)
        return None, sentence
    x = float(typed)
    return (int(x) if integer else x), None
