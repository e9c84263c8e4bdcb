"""Checking numbers typed by people (project form, mitigation calculator): one plain sentence when wrong.

>>> number(" 12.5 ", "disturbed area (sq ft)", maximum=1e9)
12.5
>>> number(None, "disturbed area (sq ft)", maximum=1e9) is None
True
"""

from __future__ import annotations

import math

from sloat_core.errors import SloatInputError

__all__ = ["number"]


def number(value, label: str, *, maximum: float, integer: bool = False, unit_hint: str = "") -> float | int | None:
    """A finite, non-negative number no larger than `maximum` (None when nothing was given).

    `label` names the field in plain words ("number of trees to remove"); `unit_hint` completes the
    "must be a number" sentence (" of square feet").
    """
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise SloatInputError(f"The {label} must be a number{unit_hint}.")
    try:
        x = float(value)
    except ValueError:
        raise SloatInputError(f"The {label} must be a number{unit_hint}.") from None
    except OverflowError:  # a whole number with hundreds of digits
        raise SloatInputError(f"The {label} is too large to be real.") from None
    if not math.isfinite(x):
        raise SloatInputError(f"The {label} must be a finite number.")
    if x < 0:
        raise SloatInputError(f"The {label} cannot be negative.")
    if x > maximum:
        raise SloatInputError(f"The {label} is too large to be real.")
    if integer:
        if x != int(x):
            raise SloatInputError(f"The {label} must be a whole number.")
        return int(x)
    return x
