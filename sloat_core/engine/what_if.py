"""A what-if for districts without a minimum lot size: the answer at a few candidate minimums.

Seven of the Village's districts (OSR, MU-1, MU-2, VC-1, VC-2, O, IP) have no minimum lot area in the
local settings, so the lot-size question has no answer there. The candidates of
``data/settings/lot_size_what_if.yaml`` (a dated, editable setting "to confirm with the Village", never
a constant here) let the answer say what it *would* be at each, as a what-if, and whom to ask for the real
figure. The comparison is the core's own :func:`sloat_core.rules.deductions.meets_minimum`.

>>> w = what_if("VC-1", 12000.0, 12000.0, candidates=WhatIfSettings("t", "2026-12-02", True, "the Building Department", "", {"VC-1": (10000, 15000)}))
>>> [(c["min_lot_area_sqft"], c["meets_min_lot_area"]) for c in w["cases"]]
[(10000, True), (15000, False)]
"""

from __future__ import annotations

import datetime as dt
import functools
import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from sloat_core.errors import SloatInputError
from sloat_core.rules.deductions import meets_minimum

__all__ = ["WHAT_IF_PATH", "WHAT_IF_ENV", "WhatIfSettings", "load_what_if", "what_if"]

WHAT_IF_PATH = Path(__file__).resolve().parents[2] / "data" / "settings" / "lot_size_what_if.yaml"
#: Names another candidates file (the office's edited copy).
WHAT_IF_ENV = "SLOAT_LOT_SIZE_WHAT_IF"
_MIN_SQFT, _MAX_SQFT, _MAX_CANDIDATES = 1_000, 2_000_000, 4


@dataclass(frozen=True)
class WhatIfSettings:
    """The candidates file: its version, the date it holds from, whether it is to confirm, whom to ask."""

    version: str
    effective: str
    verify: bool
    ask: str
    note: str
    districts: dict[str, tuple[int, ...]]


def _refuse(name: str, why: str) -> SloatInputError:
    return SloatInputError(f"The lot-size what-if settings ({name}) cannot be used: {why}.")


@functools.lru_cache(maxsize=4)
def _load(path: str, _mtime_ns: int) -> WhatIfSettings:
    name = Path(path).name
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        raise _refuse(name, "it cannot be read as YAML") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("districts"), dict):
        raise _refuse(name, "it has no 'districts' table")
    try:
        effective = dt.date.fromisoformat(str(doc.get("effective"))).isoformat()
    except ValueError:
        raise _refuse(name, "'effective' is not an ISO date (YYYY-MM-DD)") from None
    districts: dict[str, tuple[int, ...]] = {}
    for code, values in doc["districts"].items():
        if not isinstance(values, list) or not 1 <= len(values) <= _MAX_CANDIDATES or not all(
                isinstance(v, int) and not isinstance(v, bool) and _MIN_SQFT <= v <= _MAX_SQFT for v in values):
            raise _refuse(name, f"the candidates of {str(code)[:20]} must be 1 to {_MAX_CANDIDATES} whole numbers "
                                f"of square feet from {_MIN_SQFT:,} to {_MAX_SQFT:,}")
        districts[str(code).upper()] = tuple(sorted(set(values)))
    return WhatIfSettings(version=str(doc.get("version") or ""), effective=effective,
                          verify=doc.get("verify") is not False, ask=str(doc.get("ask") or "the Building Department"),
                          note=str(doc.get("note") or ""), districts=districts)


def load_what_if(path: str | Path | None = None) -> WhatIfSettings:
    """The candidates file (``SLOAT_LOT_SIZE_WHAT_IF`` or the shipped one), read once per change."""
    p = Path(path or os.environ.get(WHAT_IF_ENV) or WHAT_IF_PATH)
    try:
        mtime = p.stat().st_mtime_ns
    except OSError:
        raise _refuse(p.name, "the file is missing") from None
    return _load(str(p), mtime)


def what_if(district: str | None, net_sqft: float, floor_sqft: float, *,
            candidates: WhatIfSettings | None = None) -> dict | None:
    """The lot-size answer at each candidate minimum of ``district`` (None when it has none listed).

    Returns
    -------
    dict or None
        ``{"district", "cases": [{"min_lot_area_sqft", "meets_min_lot_area", "short_by_sqft"}], "ask",
        "verify", "effective", "version", "note"}``; ``meets_min_lot_area`` is True / False / None
        (unknown land), ``short_by_sqft`` the gap when it falls short.
    """
    if not district:
        return None
    s = candidates or load_what_if()
    values = s.districts.get(district.upper())
    if not values:
        return None
    cases = []
    for m in values:
        meets = meets_minimum(net_sqft, floor_sqft, m)
        cases.append({"min_lot_area_sqft": m, "meets_min_lot_area": meets,
                      "short_by_sqft": round(max(m - net_sqft, 0.0), 2) if meets is False else None})
    return {"district": district, "cases": cases, "ask": s.ask, "verify": s.verify, "effective": s.effective,
            "version": s.version, "note": s.note}
