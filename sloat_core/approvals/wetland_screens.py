"""State (ECL Article 24) and federal (Clean Water Act § 404) wetland screens, by date.

Screens, never determinations, and never deductions (nothing here changes an Article IX answer):

* **State**: with the NYSDEC freshwater wetland map (the layer role ``nysdec_wetlands``, as fetch-official
  writes it; the manifest refuses the older ``informational:`` entry with how to move it) and the
  regime in force on the analysis date (dated, cited, editable data: ``nysdec_wetland_regimes`` in
  ``data/settings/state_law.yaml``), work in a mapped state wetland or its 100-ft adjacent area says
  "NYSDEC freshwater wetland permit likely: request a jurisdictional determination" where the regime's map is
  regulatory (before 2025, and again from the court decision of 2026-04-08), and that the map is informational
  (DEC decides; request a jurisdictional determination) under the 2025 rules. A wetland of the other
  layers (NWI, local) at or above the regime's size threshold, touched or within the adjacent area, says DEC
  jurisdiction is possible. A missing map, or one that does not cover the land, is unknown.
* **Federal**: NWI wetlands or NHD waters (roles ``wetlands``, ``water_bodies``, ``watercourses``) touched by
  the work footprint say "ask the Army Corps (New York District) about a Section 404 permit"; without a
  footprint, what lies on the parcel is named and the advice is conditional on the work touching it.

The work is the project's disturbance footprint when drawn, else the whole parcel ("work anywhere on it").
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.approvals.state_law import regime_on, state_param
from sloat_core.gis.roles import roles_of_kind
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["Screen", "state_wetland_screen", "federal_waters_screen", "wetland_screens", "STATE_LIKELY",
           "ASK_CORPS"]

STATE_LIKELY = "NYSDEC freshwater wetland permit likely: request a jurisdictional determination"
STATE_POSSIBLE = "NYSDEC jurisdiction possible: request a jurisdictional determination"
STATE_INFORMATIONAL = ("The NYSDEC map is informational under the rules in force on this date: DEC decides "
                       "jurisdiction; request a jurisdictional determination")
ASK_CORPS = "Ask the Army Corps (New York District) about a Section 404 permit"
_NAME_FIELDS = ("WETLAND_ID", "NAME", "ATTRIBUTE", "CLASS", "Name")
_FEDERAL_ROLES = roles_of_kind("resource")
#: A feature whose MAP_STATUS holds this word is on DEC's informational mapping, not the regulatory map.
INFORMATIONAL_WORD = "informational"


@dataclass(frozen=True)
class Screen:
    agency: str
    answer: str  # "likely" | "possible" | "ask" | "not_indicated" | "unknown"
    message: str
    citation: str
    reason: str
    sources: tuple[str, ...]
    regime: dict | None = None
    distance_ft: float | None = None

    def to_dict(self) -> dict:
        out = {"agency": self.agency, "answer": self.answer, "message": self.message, "citation": self.citation,
               "reason": self.reason, "sources": list(self.sources), "regime": self.regime,
               "distance_ft": None if self.distance_ft is None else round(self.distance_ft, 1),
               "deduction": False,
               "estimate": "A screen, not a determination: the agency determines jurisdiction."}
        if self.regime is not None:
            r = self.regime
            out["stated"] = (f"NYSDEC wetlands on the analysis date: the regime from {r['effective']}, {r['status']} "
                             f"({r['citation']}); the map is {r['maps']}"
                             + ("; to confirm with the Village and DEC" if r["verify"] else "") + ".")
        return out


def _nysdec_map(layerset):
    """The NYSDEC map (the one way in: the ``nysdec_wetlands`` role, as fetch-official writes it; no deduction
    reads it), and a function giving the part of a shape it does not cover."""
    lyr = layerset.get("nysdec_wetlands")
    if lyr is None:
        return None, None
    return lyr, lambda g: layerset.uncovered("nysdec_wetlands", g)


def _near(layer, geom: BaseGeometry, reach: float) -> tuple[np.ndarray, np.ndarray]:
    idx = layer.query_indices(geom.buffer(reach)) if reach > 0 else layer.query_indices(geom)
    if len(idx) == 0:
        return idx, np.empty(0)
    d = shapely.distance(layer.geoms[idx], geom)
    keep = d <= reach
    return idx[keep], d[keep]


def _names(layer, idx) -> list[str]:
    labels = layer.labels(_NAME_FIELDS)
    if labels is None:
        return []
    return sorted({str(labels[i]) for i in idx if labels[i]})


def state_wetland_screen(parcel: BaseGeometry, footprint: BaseGeometry | None, layerset,
                         on: _dt.date) -> Screen:
    """The ECL Article 24 screen of the work (the footprint, else the parcel) on the date ``on``."""
    regime = regime_on(on)
    adj = state_param("nysdec_adjacent_area_ft", on)
    work = footprint if footprint is not None else parcel
    what = "the work footprint" if footprint is not None else "the parcel (no footprint drawn)"
    cite = f"{regime.citation}; {adj.citation}"
    base = dict(agency="NYSDEC (state)", citation=cite, regime=regime.to_dict())
    lyr, uncovered = _nysdec_map(layerset)
    sources = [] if lyr is None else [lyr.source]
    if lyr is not None:
        idx, dist = _near(lyr, work, float(adj.value))
        if len(idx):
            inside = bool((dist <= 0).any())
            names = _names(lyr, idx)
            where = ("in" if inside else f"within {adj.value} ft of") + " the mapped state wetland" + (
                f" {', '.join(names)}" if names else "") + ("" if inside else f" (its {adj.value}-ft adjacent area)")
            regulatory = regime.maps == "regulatory"
            status = lyr.labels(("MAP_STATUS",))
            if regulatory and status is not None:
                # DEC's informational mapping (MAP_STATUS as fetch-official writes it) is not the regulatory map:
                # under a regulatory regime its wetlands of the regime's size are likely regulated; a smaller one
                # only if it is on the regulatory map.
                strong = [i for i in idx if INFORMATIONAL_WORD not in str(status[i] or "").lower()
                          or lyr.geoms[i].area / SQFT_PER_ACRE >= regime.size_threshold_acres]
                if not strong:
                    return Screen(answer="possible", message=STATE_POSSIBLE,
                                  reason=f"{what[0].upper()}{what[1:]} lies {where} on DEC's informational mapping "
                                  f"(not the regulatory map), smaller than {regime.size_threshold_acres:g} acres "
                                  "where mapped: DEC regulates it if it is on the regulatory map; supply that map "
                                  f"to screen it. {regime.summary}",
                                  sources=tuple(sources), distance_ft=float(dist.min()), **base)
            return Screen(answer="likely" if regulatory else "possible",
                          message=STATE_LIKELY if regulatory else STATE_INFORMATIONAL,
                          reason=f"{what[0].upper()}{what[1:]} lies {where} "
                          f"(regime from {regime.effective.isoformat()}: {regime.status}). {regime.summary}",
                          sources=tuple(sources), distance_ft=float(dist.min()), **base)
    # unmapped wetlands of the regime's size near the work
    wet = layerset.get("wetlands")
    if wet is not None:
        idx, dist = _near(wet, work, float(adj.value))
        big = [i for i in idx if wet.geoms[i].area / SQFT_PER_ACRE >= regime.size_threshold_acres]
        if big:
            sources.append(wet.source)
            return Screen(answer="possible", message=STATE_POSSIBLE,
                          reason=f"A wetland of {regime.size_threshold_acres:g} acres or more on another map lies "
                                 f"within {adj.value} ft of {what}; DEC decides whether it regulates it. "
                                 f"{regime.summary}", sources=tuple(sources), **base)
    if lyr is None:
        return Screen(answer="unknown", message="NYSDEC wetland map not loaded: unknown",
                      reason="Fetch or give the NYSDEC regulatory freshwater wetlands layer (role nysdec_wetlands).",
                      sources=tuple(sources), **base)
    gap = uncovered(work.buffer(float(adj.value))).area
    if gap > 1.0:
        return Screen(answer="unknown", message="The NYSDEC wetland map does not cover this land: unknown",
                      reason=f"The map does not cover all land within {adj.value} ft of {what}.",
                      sources=tuple(sources), **base)
    return Screen(answer="not_indicated", message="No mapped state wetland or adjacent area touched",
                  reason=f"No mapped state wetland within {adj.value} ft of {what}; DEC may "
                         f"still find an unmapped regulated wetland. {regime.summary}",
                  sources=tuple(sources), **base)


def federal_waters_screen(parcel: BaseGeometry, footprint: BaseGeometry | None, layerset, on: _dt.date) -> Screen:
    """The Clean Water Act § 404 screen: NWI wetlands or NHD waters touched by the work."""
    work = footprint if footprint is not None else parcel
    base = dict(agency="US Army Corps of Engineers, New York District (federal)", citation="Clean Water Act § 404")
    missing = [r for r in _FEDERAL_ROLES if layerset.get(r) is None]
    touched, sources = [], []
    for role in _FEDERAL_ROLES:
        lyr = layerset.get(role)
        if lyr is None:
            continue
        sources.append(lyr.source)
        idx = lyr.query_indices(work)
        if len(idx):
            hit = idx[shapely.intersects(lyr.geoms[idx], work)]
            if len(hit):
                names = _names(lyr, hit)
                touched.append(role.replace("_", " ") + (f" ({', '.join(names[:3])})" if names else ""))
    if touched:
        if footprint is not None:
            return Screen(answer="ask", message=ASK_CORPS, reason=f"The work footprint touches {'; '.join(touched)}.",
                          sources=tuple(sources), **base)
        return Screen(answer="ask", message=ASK_CORPS + " if the work touches them",
                      reason=f"The parcel holds {'; '.join(touched)}; draw the footprint to screen the work itself.",
                      sources=tuple(sources), **base)
    gaps = layerset.coverage_gaps(work, [r for r in _FEDERAL_ROLES if r not in missing])
    if missing or gaps:
        why = ", ".join(missing + [f"{r} (not covering the land)" for r in gaps])
        return Screen(answer="unknown", message="Federal waters screen: unknown",
                      reason=f"Missing or incomplete layers: {why}.", sources=tuple(sources), **base)
    return Screen(answer="not_indicated", message="No mapped federal wetland or water touched",
                  reason="No NWI wetland or NHD water on the layers touches the work; the Corps may still find "
                         "waters of the United States on the ground.", sources=tuple(sources), **base)


def wetland_screens(parcel: BaseGeometry, footprint: BaseGeometry | None, layerset, on: _dt.date) -> dict:
    """Both screens as JSON-ready values, each with its sources and the day it screens (``on``: the analysis
    date, whose state regime applies); the federal screen's ``stated`` names both."""
    state = state_wetland_screen(parcel, footprint, layerset, on).to_dict()
    federal = federal_waters_screen(parcel, footprint, layerset, on).to_dict()
    day = on.isoformat()
    names = sorted({part.strip() for src in federal["sources"] for part in src.split(";")})
    federal["stated"] = (f"Federal waters on the analysis date {day}: the NWI wetlands and NHD waters of the layer "
                         f"set ({'; '.join(names) if names else 'none loaded'}); the Corps determines jurisdiction.")
    return {"state": dict(state, on=day), "federal": dict(federal, on=day),
            "layers_version": getattr(layerset, "version", None)}
