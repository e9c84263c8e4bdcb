"""The rules' three-valued logic over the measures record, and the record itself (:mod:`sloat_core.measure`).

The rules that decide on land alone -- the net lot area and its worst case (§ 402-45), the ten cluster
triggers (§ 402-48C), the land-only permits, meets-minimum -- are functions of
:class:`~sloat_core.measure.record.Measures`. Tri-state answers are ``True`` / ``False`` / ``None`` for one
parcel; for arrays (the village screen) they are floats 1.0 / 0.0 / nan (`tri`).

The record and its measuring live in :mod:`sloat_core.measure` (``measure.record``, ``measure.parcel``).
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from sloat_core.gis.geometry import PRESENCE_MIN_SQFT
from sloat_core.measure.record import Measures

__all__ = ["tri", "is_yes", "is_no", "tri_any", "answer", "present"]


def _is_array(*xs) -> bool:
    return any(isinstance(x, np.ndarray) for x in xs)


def tri(yes, no):
    """Three-valued answer: True where ``yes``, False where ``no`` (and not yes), else unknown.

    One parcel gives ``True`` / ``False`` / ``None``; arrays give floats 1.0 / 0.0 / nan.

    >>> tri(True, False), tri(False, True), tri(False, False)
    (True, False, None)
    >>> tri(np.array([True, False, False]), np.array([False, True, False])).tolist()
    [1.0, 0.0, nan]
    """
    if _is_array(yes, no):
        return np.where(yes, 1.0, np.where(no, 0.0, np.nan))
    return True if yes else (False if no else None)


def is_yes(x):
    """``x`` is a known yes (works on one answer or an array of them)."""
    return x == 1.0 if isinstance(x, np.ndarray) else x is True


def is_no(x):
    """``x`` is a known no (works on one answer or an array of them)."""
    return x == 0.0 if isinstance(x, np.ndarray) else x is False


def tri_any(*answers):
    """Yes if any answer is yes, no if all are no, else unknown.

    >>> tri_any(False, None, True), tri_any(False, None), tri_any(False, False)
    (True, None, False)
    """
    yes = functools.reduce(operator.or_, (is_yes(a) for a in answers))
    no = functools.reduce(operator.and_, (is_no(a) for a in answers))
    return tri(yes, no)


def answer(x):
    """A tri-state as ``True`` / ``False`` / ``None`` (one parcel) from either representation.

    >>> answer(1.0), answer(0.0), answer(float("nan")), answer(None)
    (True, False, None, None)
    """
    if x is None or x is True or x is False:
        return x
    return None if x != x else bool(x)


def present(m: Measures, key: str):
    """Is ``key`` (a role or region) on the parcel (§ 402-48C features, the overlay reviews of §§ 402-46C,
    402-49B, 402-50B, 402-51C)? Present when its land reaches PRESENCE_MIN_SQFT;
    unknown when its layer is missing, or where the layer does not cover enough land to decide.

    A shared rule of presence for the cluster triggers and the land-only permits.
    """
    a = m.areas[key]
    unc = m.uncovered(key)
    return tri(a >= PRESENCE_MIN_SQFT, (a < PRESENCE_MIN_SQFT) & (unc < PRESENCE_MIN_SQFT))
