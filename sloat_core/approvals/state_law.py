"""State and federal law around Article IX, as dated facts: ``data/settings/state_law.yaml``.

The numbers the Village's boards apply around Article IX (500 ft, 30 days, 62 days, the SEQR
thresholds) are not in Article IX, so ``data/law/parameters.yaml`` (whose quotes are checked against the
Article IX text) cannot hold them. They live in one file of the same shape, read by the same loader
(:mod:`sloat_core.law.facts`, the one loader of dated facts): each entry with its description, unit, citation,
source, a ``verify`` flag ("to confirm with the Village") and dated values, each with the ``statement`` of
the source that states it. The statute's text is not shipped, so a statement is checked for stating its
value (``"sixty-two days"`` refuses 60). The file also holds the NYSDEC wetland regimes and the village's
neighbours, dated too. This module declares the file and gives its accessors.

``state_param(name, on)`` gives the value in effect on the date passed in (always passed: no today here). The
file read is the shipped one, or the one named by the ``SLOAT_STATE_LAW`` environment variable, or the one
given to :func:`using_state_law`.

>>> import datetime
>>> p = state_param("county_referral_distance_ft", datetime.date(2026, 12, 1))
>>> (p.value, p.unit, p.citation, p.verify)
(500, 'ft', 'GML § 239-m(3)(b)', False)
>>> state_param("subdivision_hearing_days", datetime.date(2026, 12, 1)).verify
True
>>> statement_numbers("within sixty-two days after the hearing")
[62.0]
"""

from __future__ import annotations

import bisect
import datetime as _dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sloat_core.errors import SloatInputError
from sloat_core.law.facts import (VERIFY_WORDS, Fact, FactFile, FactTable, effective_date, statement_numbers,
                                  statement_value, verify_word)

__all__ = ["STATE_LAW_PATH", "STATE_UNITS", "STATE_LAW", "StateFact", "Regime", "state_param", "state_value",
           "all_state_facts", "regime_on", "regimes", "state_law_version", "state_law_notice",
           "using_state_law", "statement_numbers", "verify_word", "VERIFY_WORDS", "Neighbour", "NeighbourSet",
           "neighbours_on"]

STATE_LAW_PATH = Path(__file__).resolve().parents[2] / "data" / "settings" / "state_law.yaml"
STATE_LAW_ENV = "SLOAT_STATE_LAW"
STATE_UNITS = frozenset({"ft", "days", "count", "percent", "acres", "text"})
_FIELDS = ("description", "unit", "citation", "source", "verify", "values")
_OPTIONAL = ("note",)
_REGIME_FIELDS = ("effective", "status", "maps", "size_threshold_acres", "summary", "citation", "source", "verify")

#: One fact of state or federal law as in effect from a date: a `Fact` whose quote is the source's
#: ``statement``, with its ``source``, ``verify`` and ``note``.
StateFact = Fact


@dataclass(frozen=True)
class Regime:
    """The NYSDEC freshwater wetland regime in force from a date (dated, cited, editable)."""

    effective: _dt.date
    status: str
    maps: str  # "regulatory" or "informational"
    size_threshold_acres: float
    summary: str
    citation: str
    source: str
    verify: bool

    def to_dict(self) -> dict:
        return {"effective": self.effective.isoformat(), "status": self.status, "maps": self.maps,
                "size_threshold_acres": self.size_threshold_acres, "summary": self.summary,
                "citation": self.citation, "source": self.source, "verify": self.verify}


@dataclass(frozen=True)
class Neighbour:
    """A municipality across the village line, and the part of the line it holds (compass sector, or None:
    the rest of the line)."""

    name: str
    county: str
    sector: tuple[float, float] | None = None

    def holds(self, bearing_deg: float) -> bool:
        if self.sector is None:
            return False
        lo, hi = self.sector
        b = bearing_deg % 360.0
        return lo <= b <= hi if lo <= hi else (b >= lo or b <= hi)


@dataclass(frozen=True)
class NeighbourSet:
    """The neighbours of the village in force from a date (``municipal_neighbours`` in the state-law file)."""

    effective: _dt.date
    neighbours: tuple[Neighbour, ...]
    source: str
    verify: bool

    def across(self, bearing_deg: float) -> Neighbour:
        """The neighbour holding the line at this bearing from the village's centre."""
        return next((n for n in self.neighbours if n.holds(bearing_deg)),
                    next(n for n in self.neighbours if n.sector is None))


def _fail(name: str, problem: str, path: Path) -> SloatInputError:
    return SloatInputError(f"In {path.name}, the entry “{name}” {problem}.")


def _date(raw: Any, name: str, path: Path) -> _dt.date:
    return effective_date(raw, lambda problem: _fail(name, problem, path))


def _regime(n: int, raw: Any, path: Path) -> Regime:
    name = f"nysdec_wetland_regimes[{n}]"
    if not isinstance(raw, dict) or any(raw.get(f) in (None, "") for f in _REGIME_FIELDS):
        raise _fail(name, f"needs {', '.join(_REGIME_FIELDS)}", path)
    if raw["maps"] not in ("regulatory", "informational"):
        raise _fail(name, "needs maps: regulatory or informational", path)
    if not isinstance(raw["verify"], bool):
        raise _fail(name, "needs true or false for “verify”", path)
    acres = raw["size_threshold_acres"]
    if isinstance(acres, bool) or not isinstance(acres, (int, float)) or acres <= 0:
        raise _fail(name, "needs a positive number of acres as its size threshold", path)
    return Regime(_date(raw["effective"], name, path), str(raw["status"]), raw["maps"], float(acres),
                  " ".join(str(raw["summary"]).split()), str(raw["citation"]), str(raw["source"]), raw["verify"])


def _neighbour_set(n: int, raw: Any, path: Path) -> NeighbourSet:
    name = f"municipal_neighbours[{n}]"
    if not isinstance(raw, dict) or any(raw.get(f) in (None, "", []) for f in ("effective", "source", "verify",
                                                                                  "neighbours")):
        raise _fail(name, "needs effective, source, verify and neighbours", path)
    if set(raw) - {"effective", "source", "verify", "neighbours", "note"}:
        raise _fail(name, "has unknown fields", path)
    if not isinstance(raw["verify"], bool):
        raise _fail(name, "needs true or false for “verify”", path)
    if not isinstance(raw["neighbours"], list):
        raise _fail(name, "needs a list of neighbours", path)
    out = []
    for one in raw["neighbours"]:
        if not isinstance(one, dict) or not isinstance(one.get("name"), str) or not one["name"].strip():
            raise _fail(name, "has a neighbour without a name", path)
        if set(one) - {"name", "county", "sector"}:
            raise _fail(name, f"has a neighbour ({one['name']}) with unknown fields", path)
        sector = one.get("sector")
        if sector is not None:
            ok = (isinstance(sector, list) and len(sector) == 2
                  and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 360 for v in sector))
            if not ok:
                raise _fail(name, f"needs the sector of {one['name']} as two bearings from 0 to 360 degrees", path)
            sector = (float(sector[0]), float(sector[1]))
        out.append(Neighbour(one["name"].strip(), str(one.get("county") or "").strip(), sector))
    if sum(1 for x in out if x.sector is None) != 1:
        raise _fail(name, "needs exactly one neighbour without a sector (the rest of the line)", path)
    return NeighbourSet(_date(raw["effective"], name, path), tuple(out), " ".join(str(raw["source"]).split()),
                        raw["verify"])


def _regimes(doc: dict, path: Path) -> tuple[Regime, ...]:
    raw_regimes = doc.get("nysdec_wetland_regimes")
    if not isinstance(raw_regimes, list) or not raw_regimes:
        raise SloatInputError(f"The state-law settings file {path.name} has no “nysdec_wetland_regimes” list.")
    return tuple(sorted((_regime(i, r, path) for i, r in enumerate(raw_regimes)), key=lambda r: r.effective))


def _neighbour_sets(doc: dict, path: Path) -> tuple[NeighbourSet, ...]:
    raw_nb = doc.get("municipal_neighbours") or []
    if not isinstance(raw_nb, list):
        raise SloatInputError(f"The state-law settings file {path.name} has a “municipal_neighbours” that is not a list.")
    return tuple(sorted((_neighbour_set(i, r, path) for i, r in enumerate(raw_nb)), key=lambda s: s.effective))


#: The state-law file, as the one loader reads it (its regimes and neighbours read after its facts).
STATE_LAW = FactFile(
    what="state-law settings file", path=STATE_LAW_PATH, env=STATE_LAW_ENV, mapping="facts",
    quote_field="statement", required=_FIELDS, optional=_OPTIONAL, text_fields=("description", "citation", "source"),
    flags=("verify",), units=STATE_UNITS, value=statement_value, error=SloatInputError,
    unknown="No state-law fact named {name!r} in " + STATE_LAW_PATH.name + ".", one_line=True,
    sections=(("regimes", _regimes), ("neighbours", _neighbour_sets)))


def _table() -> FactTable:
    return STATE_LAW.table()


def _on(regs, day: _dt.date):
    if not isinstance(day, _dt.date):
        raise TypeError(f"The date the law is applied at is needed (given {day!r}).")
    idx = bisect.bisect_right([r.effective for r in regs], day) - 1
    return regs[max(idx, 0)]


def state_param(name: str, on: _dt.date) -> StateFact:
    """The named fact as in effect on ``on`` (the date the rule is applied at); KeyError if unknown.

    A date before the first value gets the first value, as for the Article IX parameters.
    """
    return _table().get(name, on)


def state_value(name: str, on: _dt.date) -> Any:
    """Shortcut for ``state_param(name, on).value``."""
    return state_param(name, on).value


def all_state_facts(on: _dt.date) -> dict[str, StateFact]:
    """Every fact as in effect on a date."""
    table = _table()
    return {name: table.get(name, on) for name in table.history}


def regimes() -> tuple[Regime, ...]:
    """Every NYSDEC wetland regime, oldest first."""
    return _table().sections["regimes"]


def regime_on(day: _dt.date) -> Regime:
    """The NYSDEC wetland regime in force on ``day`` (the latest entry effective on or before it).

    >>> regime_on(_dt.date(2024, 6, 1)).maps
    'regulatory'
    >>> regime_on(_dt.date(2025, 6, 1)).maps
    'informational'
    >>> regime_on(_dt.date(2026, 12, 1)).effective.isoformat()
    '2026-04-08'
    """
    return _on(regimes(), day)


def neighbours_on(day: _dt.date) -> NeighbourSet | None:
    """The village's neighbours in force on ``day`` (None when the file names none).

    >>> neighbours_on(_dt.date(2026, 12, 1)).across(90.0).name
    'Town of Ramapo'
    >>> neighbours_on(_dt.date(2026, 12, 1)).across(270.0).name
    'Town of Tuxedo'
    """
    sets = _table().sections["neighbours"]
    return _on(sets, day) if sets else None


def state_law_version() -> str:
    return _table().version


def state_law_notice() -> str:
    return _table().notice


def using_state_law(path: str | Path):
    """Within the block, read the state-law settings from ``path`` (checked now)."""
    return STATE_LAW.using(path)
