"""A real typed analysis result for the pure view tests, with the fields a test sets changed.

The result is tax parcel P1 of the app tests' hand-built layer set (``app_fixtures``), analysed once per process
on a fixed day; :func:`sample` gives it with some fields replaced (``dataclasses.replace``: the record stays a
real, frozen :class:`sloat_core.engine.result.ParcelResult`), :func:`deduction` one row of the deduction table.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import tempfile
from pathlib import Path

import app_fixtures as fx
from sloat_core.engine.result import Deduction, ParcelResult

__all__ = ["sample", "deduction"]


@functools.cache
def _base() -> ParcelResult:
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis.layers import load_manifest
    from sloat_core.gis.parcels import parcel_by_sbl

    folder = Path(tempfile.mkdtemp(prefix="sloat-result-sample-"))
    layers = load_manifest(fx.write_layerset(folder))
    return analyze_parcel(parcel_by_sbl(layers, fx.P1_SBL), layers, as_of=dt.date(2026, 11, 29)).result


def sample(**changes) -> ParcelResult:
    """P1's typed result, with ``changes`` (field name -> value) in place of its own."""
    return dataclasses.replace(_base(), **changes)


def deduction(constraint: str, label: str, area_sqft: float | None, countable_fraction: float,
              deducted_sqft: float | None, citation: str, **more) -> Deduction:
    """One deduction row (status "unknown" where its area is unknown, else "known"; no layer total)."""
    fields = {"total_area_sqft": None, "status": "known" if area_sqft is not None else "unknown", **more}
    return Deduction(constraint=constraint, label=label, area_sqft=area_sqft, countable_fraction=countable_fraction,
                     deducted_sqft=deducted_sqft, citation=citation, **fields)
