"""The NYSDEC freshwater wetland map, read by the regime in force on the analysis date.

The regimes are data (``data/settings/state_wetlands.yaml``: dated, cited, each with its status and
whether the map is regulatory or informational), so a court's ruling or new regulations are an edit
there. :func:`state_wetland_screen` says, for a parcel (or the work's footprint), whether it touches a
mapped wetland or its adjacent area, which regime applied on the date, and the screen's answer --
"DEC permit likely; request a jurisdictional determination" under a regulatory map -- never a
determination, and never a deduction from the lot area.

>>> r = regime_on(dt.date(2026, 6, 1))
>>> r.id, r.map_status, r.verify
('mapped_after_annulment', 'regulatory', True)
>>> regime_on(dt.date(2025, 6, 1)).map_status
'informational'
>>> regime_on(dt.date(2024, 12, 31)).id
'mapped_1975'
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import shapely
import yaml

from sloat_core.errors import SloatInputError

__all__ = ["STATE_WETLANDS_PATH", "Regime", "StateWetlandFacts", "load_state_wetlands", "regime_on",
           "state_wetland_screen"]

STATE_WETLANDS_PATH = Path(__file__).resolve().parents[2] / "data" / "settings" / "state_wetlands.yaml"
_MAP_STATUSES = ("regulatory", "informational")


@dataclass(frozen=True)
class Regime:
    id: str
    start: dt.date | None
    until: dt.date | None
    status: str
    map_status: str
    citation: str
    summary: str
    verify: bool
    verify_note: str = ""

    def in_force(self, day: dt.date) -> bool:
        return (self.start is None or self.start <= day) and (self.until is None or day < self.until)


@dataclass(frozen=True)
class StateWetlandFacts:
    version: str
    adjacent_area_ft: float
    adjacent_area_citation: str
    regimes: tuple[Regime, ...]
    answers: dict[str, str]


def _date(raw: Any, where: str) -> dt.date | None:
    if raw is None:
        return None
    try:
        return raw if isinstance(raw, dt.date) else dt.date.fromisoformat(str(raw))
    except ValueError as exc:
        raise SloatInputError(f"In {STATE_WETLANDS_PATH.name}, {where} must be a date (YYYY-MM-DD) or null.") from exc


@functools.lru_cache(maxsize=4)
def load_state_wetlands(path: str | Path | None = None) -> StateWetlandFacts:
    """Read and check the regimes: each dated, cited, with a known map status; no gap, no overlap."""
    p = Path(path) if path else STATE_WETLANDS_PATH
    name = p.name
    try:
        doc = yaml.safe_load(p.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SloatInputError(f"The state wetland regimes file {name} could not be read.") from exc
    regimes = []
    for i, r in enumerate(doc.get("regimes") or []):
        for key in ("id", "status", "map_status", "citation", "summary"):
            if not str(r.get(key) or "").strip():
                raise SloatInputError(f"In {name}, regime {i + 1} needs a '{key}'.")
        if r["map_status"] not in _MAP_STATUSES:
            raise SloatInputError(f"In {name}, regime {r['id']}: map_status must be regulatory or informational.")
        regimes.append(Regime(str(r["id"]), _date(r.get("from"), f"{r['id']} from"),
                              _date(r.get("until"), f"{r['id']} until"), " ".join(str(r["status"]).split()),
                              str(r["map_status"]), " ".join(str(r["citation"]).split()),
                              " ".join(str(r["summary"]).split()), bool(r.get("verify", True)),
                              " ".join(str(r.get("verify_note") or "").split())))
    if not regimes:
        raise SloatInputError(f"In {name}, no regime is listed.")
    for a, b in zip(regimes, regimes[1:], strict=False):
        if a.until is None or b.start != a.until:
            raise SloatInputError(f"In {name}, regime {b.id} must start the day {a.id} ends (no gap, no overlap).")
    if regimes[0].start is not None or regimes[-1].until is not None:
        raise SloatInputError(f"In {name}, the first regime must have no start and the last no end.")
    answers = {k: " ".join(str(v).split()) for k, v in (doc.get("answers") or {}).items()}
    if set(answers) != set(_MAP_STATUSES):
        raise SloatInputError(f"In {name}, answers must give the regulatory and the informational answer.")
    width = float(doc.get("adjacent_area_ft", float("nan")))
    if not width > 0:
        raise SloatInputError(f"In {name}, adjacent_area_ft must be a positive number of feet.")
    return StateWetlandFacts(str(doc.get("version", "")), width, str(doc.get("adjacent_area_citation", "")),
                             tuple(regimes), answers)


def regime_on(day: dt.date, facts: StateWetlandFacts | None = None) -> Regime:
    facts = facts or load_state_wetlands()
    return next(r for r in facts.regimes if r.in_force(day))


def state_wetland_screen(geom, layerset, as_of: dt.date, *, what: str = "the parcel") -> dict:
    """The NYSDEC map's answer for ``geom`` (EPSG:2260) on ``as_of``: a dict with ``regime`` (id,
    status, citation, map status, to confirm or not), ``in_mapped_wetland_or_adjacent_area`` (True,
    False or None when the map is not loaded or does not cover the land), ``answer`` and ``reason``."""
    facts = load_state_wetlands()
    regime = regime_on(as_of, facts)
    out: dict[str, Any] = {
        "regime": {"id": regime.id, "status": regime.status, "map_status": regime.map_status,
                   "citation": regime.citation, "summary": regime.summary,
                   "to_confirm": regime.verify, "note": regime.verify_note or None},
        "adjacent_area_ft": facts.adjacent_area_ft,
        "adjacent_area_citation": facts.adjacent_area_citation,
        "source": str(STATE_WETLANDS_PATH.relative_to(STATE_WETLANDS_PATH.parents[2])),
        "deduction": False,
    }
    layer = getattr(layerset, "informational", {}).get("nysdec_wetlands") if layerset is not None else None
    touched: bool | None
    if layer is None:
        touched = None
        reason = "The NYSDEC wetland map is not loaded (fetch-official writes it), so this is unknown."
    else:
        near = geom.buffer(facts.adjacent_area_ft)
        hits = layer.geoms[layer.query_indices(near)]
        touched = bool(len(hits)) and bool(shapely.intersects(shapely.union_all(hits), near))
        cov = getattr(layerset, "informational_coverage", {}).get("nysdec_wetlands")
        if not touched and cov is not None and not cov.covers(near):
            touched = None
            reason = "The NYSDEC wetland map does not cover all of the land within the adjacent area, so this is unknown."
        elif touched:
            reason = (f"{what[:1].upper() + what[1:]} is in a NYSDEC-mapped wetland or within its "
                      f"{facts.adjacent_area_ft:g}-ft adjacent area ({facts.adjacent_area_citation}).")
        else:
            reason = (f"No NYSDEC-mapped wetland lies on {what} or within {facts.adjacent_area_ft:g} ft of it; "
                      "DEC can still regulate wetlands it has not mapped.")
    out["in_mapped_wetland_or_adjacent_area"] = touched
    out["reason"] = reason
    if touched is None:
        out["answer"] = "Unknown; request a jurisdictional determination from DEC"
    elif touched:
        out["answer"] = facts.answers[regime.map_status]
    else:
        out["answer"] = "No DEC-mapped wetland here on this date's rules; a jurisdictional determination settles it."
    out["stated"] = (f"NYSDEC wetlands on the analysis date: {regime.status} ({regime.citation}); "
                     f"the map is {regime.map_status}"
                     + ("; to confirm with the Village and DEC" if regime.verify else "") + ".")
    return out
