"""A plan checked against Article IX: the parcel plus the features of a drawing in roles (`drawing.ROLES`).

Article IX applies "to that portion of each lot" (§ 402-45A(2)(a)) and to "any application for site plan,
subdivision ..." (§ 402-45B). `check_plan` answers, for each lot from its own land alone, what the parcel's
analysis answers for a parcel (`lots`), and for the plan: the lots that conform, the land in no lot, road or
open space, the problems of the drawing (`problems`), the yield check of § 402-48E and the open space of
§ 402-48G(2). The parcel's own analysis (`engine.analysis.analyze_parcel`) comes with it.

The layers and the elevation model are read once for the plan and each lot's land is cut from that
(`measure`); what the law leaves to the Planning Board is said so, never invented.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass, field

import numpy as np
import shapely
import shapely.prepared
from shapely.geometry.base import BaseGeometry

from sloat_core.engine.result import ParcelResult
from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import GRID_FT, area_sqft, polygonal, repair_outline, union_all
from sloat_core.law.params import one_reading, param
from sloat_core.law.settings import load_settings
from sloat_core.plan.drawing import PlanDrawing
from sloat_core.plan.lots import KINDS, LotResult, conformity, lot_project, minimum_for
from sloat_core.plan.measure import lot_findings, plan_findings, snapped
from sloat_core.plan.problems import KINDS as PROBLEM_KINDS
from sloat_core.plan.problems import (SLIVER_SQFT, Problem, duplicate_labels, not_closed, outside_parcel, overlaps,
                                      two_districts)
from sloat_core.rules.deductions import lot_area
from sloat_core.rules.permits import permits_for
from sloat_core.rules.project import Project, parse_project

__all__ = ["PlanResult", "check_plan", "KINDS"]


@dataclass(frozen=True)
class PlanResult:
    """The plan's answer; `to_dict` is the ``plan --json`` contract (the parcel's own keys, then the plan's)."""

    kind: str
    lots: tuple[LotResult, ...]
    problems: tuple[Problem, ...]
    yield_check: dict
    open_space: dict
    unallocated_sqft: float
    #: The whole parcel's analysis (the plan's analysis: its project with the plan's footprint).
    parcel: ParcelResult = field(repr=False)
    warnings: tuple[str, ...] = ()

    @property
    def conforming_lots(self) -> int:
        return sum(1 for lot in self.lots if lot.conforms is True)

    def to_dict(self) -> dict:
        return {
            **self.parcel.to_dict(),
            "kind": self.kind,
            "lot_count": len(self.lots),
            "conforming_lots": self.conforming_lots,
            "unknown_lots": sum(1 for lot in self.lots if lot.conforms is None),
            "lots": [lot.to_dict() for lot in self.lots],
            "problems": [p.to_dict() for p in self.problems],
            "yield_check": self.yield_check,
            "open_space": self.open_space,
            "unallocated_sqft": round(self.unallocated_sqft, 2),
            "unallocated_text": "Land of the parcel in no lot, road or open space as drawn.",
            "warnings": list(dict.fromkeys([*self.parcel.warnings, *self.warnings])),
        }


def _outline(geom: BaseGeometry) -> BaseGeometry:
    """A lot's outline as an area: a line drawn open is closed by a straight line; an invalid one repaired."""
    if geom.geom_type in ("LineString", "LinearRing") and len(geom.coords) >= 3:
        geom = shapely.Polygon(geom.coords)
    if not geom.is_valid:
        geom = repair_outline(geom)
    return polygonal(geom)


def _union(features) -> BaseGeometry | None:
    shapes = [_outline(f.geometry) for f in features]
    shapes = [g for g in shapes if not g.is_empty]
    return union_all(shapes) if shapes else None


def _lots(drawing: PlanDrawing, parcel: BaseGeometry) -> tuple[list[str], list[BaseGeometry], list[Problem]]:
    """Labels (drawn, else 1..N) and outlines of the lots, and the problems of the drawing itself."""
    feats = drawing.of("lots")
    if not feats:
        raise SloatInputError("The plan has no lots: no layer of the drawing is recognised as lots (name one "
                              "with --role lots=LAYER).")
    labels = [f.label if f.label not in (None, "") else str(i + 1) for i, f in enumerate(feats)]
    if not all(np.isfinite(shapely.get_coordinates(f.geometry)).all() for f in feats):
        raise SloatInputError("The plan's drawing cannot be placed: some of its coordinates are not numbers.")
    geoms = [snapped(_outline(f.geometry)) for f in feats]
    if not any(not g.is_empty and shapely.intersects(g, parcel) for g in geoms):
        raise SloatInputError("None of the plan's lots touches the parcel: the plan cannot be placed on it.")
    problems = [not_closed(label, g) for f, label, g in zip(feats, labels, geoms, strict=True) if not f.closed]
    problems += duplicate_labels([f.label for f in feats], geoms)
    keep = [i for i, g in enumerate(geoms) if not g.is_empty]
    return [labels[i] for i in keep], [geoms[i] for i in keep], problems


def _lot_districts(geom: BaseGeometry, ctx: dict) -> list[tuple]:
    """(code, area_sqft) of the districts the lot lies in, largest first. A lot inside a parcel that lies in one
    district is in that district (the parcel's analysis found it); else the zoning layer is read for the lot."""
    layerset, gross = ctx["layerset"], area_sqft(geom)
    if ctx["district"]:
        return [(ctx["district"], gross)]
    portions = ctx["portions"]
    if len(portions) == 1 and portions[0][0] is not None and ctx["inside"](geom):
        return [(portions[0][0], gross)]
    if layerset is not None and layerset.get("zoning") is not None:
        return [(c, a) for c, _, a in layerset.district_parts(geom) if a >= SLIVER_SQFT] or [(None, gross)]
    return [(ctx["parcel"].district, gross)]


def _check_lot(label, geom, f, ctx) -> tuple[LotResult, Problem | None]:
    """One lot: its own land cut from the plan's findings, measured and compared with its minimum."""
    lf = lot_findings(f, geom, ctx["layerset"])
    la = lot_area(lf)
    parts = _lot_districts(geom, ctx)
    answers = [(code, minimum_for(code, ctx["kind"], ctx["settings"], ctx["as_of"])) for code, _ in parts]
    found = [conformity(la, m) for _, m in answers]
    conforms, shortfall = found[0]
    if any(c != conforms for c, _ in found):  # its districts disagree: the Board or the Inspector decides
        conforms, shortfall = None, None
    own = lot_project(ctx["project"], geom, ctx["footprint"])
    result = LotResult(label, la, parts[0][0], answers[0][1], conforms, shortfall, (), geom)
    permits = permits_for(lf, own, settings=ctx["settings"], subdividable=result.subdividable,
                          cluster_applies=ctx["cluster_applies"], any_trigger=ctx["any_trigger"],
                          measures=la.measures, seqr=ctx["seqr"], as_of=ctx["as_of"])
    result = LotResult(label, la, parts[0][0], answers[0][1], conforms, shortfall, tuple(permits), geom)
    return result, two_districts(label, parts)


def _permitted(conventional: PlanResult | None, parcel: ParcelResult) -> tuple[int | None, int | None, str]:
    """The lots § 402-48E permits: the conforming lots of the conventional plat given (its unknown lots as the
    range's top), else the parcel's yield estimate; (lowest, highest, where it comes from)."""
    if conventional is not None:
        lo = conventional.conforming_lots
        hi = lo + sum(1 for lot in conventional.lots if lot.conforms is None)
        return lo, hi, (f"the conventional plat given: {lo} conforming lot{'s' * (lo != 1)}"
                        + (f", {hi - lo} unknown" if hi > lo else ""))
    lo, hi = parcel.conventional_yield_min, parcel.conventional_yield_max
    return lo, hi, f"the parcel's yield estimate ({parcel.conventional_yield_text or 'not known'})"


def yield_check(kind: str, lot_count: int, conventional: PlanResult | None, parcel: ParcelResult) -> dict:
    """§ 402-48E: the plan's lot count against the lots a conventional plat shows (within / over / unknown)."""
    lo, hi, source = _permitted(conventional, parcel)
    if lo is None or hi is None:
        status = "unknown"
    elif lot_count <= lo:
        status = "within"
    elif lot_count > hi:
        status = "over"
    else:
        status = "unknown"
    words = {"within": "within", "over": "over", "unknown": "not known against"}[status]
    text = (f"{lot_count} lot{'s' * (lot_count != 1)} in the plan: {words} the lots permitted by {source} "
            "(§ 402-48E). The Planning Board sets the yield from a conventional subdivision plat showing all "
            "environmental constraints and roads, and may reduce the number of building lots (§ 402-55J(5)).")
    if kind == "conventional":
        text += " In a conventional plat each lot must itself meet its district's minimum on net lot area."
    return {"plan_lots": lot_count, "permitted": lo if lo == hi else None, "permitted_min": lo, "permitted_max": hi,
            "status": status, "text": text, "citation": "§ 402-48E"}


def open_space(drawing: PlanDrawing, parcel: BaseGeometry, on: dt.date) -> dict:
    """§ 402-48G(2): the open space drawn, less the private yards within the distance of any principal
    structure (the plan's envelopes); counted. Without envelopes the yards cannot be placed: unknown. The
    distance is the one in effect on ``on`` (the check's ``as_of``)."""
    p = param("open_space_yard_exclusion_ft", on)
    space = _union(drawing.of("open_space"))
    envelopes = _union(drawing.of("envelopes"))
    gross = 0.0 if space is None else area_sqft(space)
    out = {"gross_sqft": round(gross, 2), "yard_exclusion_ft": float(p.value), "yards_excluded_sqft": None,
           "counted_sqft": None, "citation": p.citation, "quote": p.quote}
    if space is None:
        out.update(yards_excluded_sqft=0.0, counted_sqft=0.0, text="The plan shows no open space.")
        return out
    if envelopes is None:
        out["text"] = (f"The plan shows no building envelope or principal structure, so the private yards within "
                       f"{float(p.value):g} ft of one, which may not be counted ({p.citation}), cannot be placed: "
                       "the open space counted is unknown.")
        return out
    yards = polygonal(shapely.intersection(space, envelopes.buffer(float(p.value), quad_segs=16)))
    excluded = area_sqft(yards)
    out.update(yards_excluded_sqft=round(excluded, 2), counted_sqft=round(gross - excluded, 2),
               text=(f"{gross - excluded:,.0f} sq ft of open space counted: {gross:,.0f} sq ft drawn less "
                     f"{excluded:,.0f} sq ft within {float(p.value):g} ft of a building envelope ({p.citation}). "
                     "How much open space is required, and its protection, the Planning Board decides."))
    return out


def _plan_project(project, drawing: PlanDrawing) -> tuple[Project, BaseGeometry | None]:
    """The project facts, its footprint the plan's envelopes and disturbance (and any footprint given)."""
    proj = project if isinstance(project, Project) else parse_project(project)
    parts = [g for g in (_union(drawing.of("envelopes")), _union(drawing.of("disturbance")),
                         proj.disturbance_footprint) if g is not None and not g.is_empty]
    footprint = union_all(parts) if parts else None
    return proj, footprint


def check_plan(parcel, drawing: PlanDrawing, layerset, *, district: str | None = None, kind: str = "conventional",
               conventional: PlanDrawing | None = None, project=None, as_of: dt.date | None = None,
               settings=None) -> PlanResult:
    """Check a plan (its features in roles) on a parcel; ``conventional`` is the conventional plat a cluster
    plan's yield is set by (§ 402-48E). Raises SloatInputError when the plan cannot be checked."""
    if kind not in KINDS:
        raise SloatInputError(f"'{kind}' is not a kind of plan; write conventional or cluster.")
    as_of = as_of or dt.date.today()
    settings = settings or load_settings()
    with one_reading():  # the parameters file read once for the whole check (speed)
        return _check(parcel, drawing, layerset, district, kind, conventional, project, as_of, settings)


def _check(parcel, drawing, layerset, district, kind, conventional, project, as_of, settings) -> PlanResult:
    from sloat_core.engine.approval_list import action_class
    from sloat_core.engine.analysis import analyze_parcel

    proj, footprint = _plan_project(project, drawing)
    whole = proj if footprint is None else dataclasses.replace(proj, disturbance_footprint=footprint)
    analysis = analyze_parcel(parcel, layerset, district=district, project=whole, settings=settings, as_of=as_of)
    parcel_geom = analysis.parcel
    labels, geoms, problems = _lots(drawing, parcel_geom)
    problems += outside_parcel(labels, geoms, parcel_geom)
    problems += overlaps(labels, geoms)
    outside = any(p.kind == "outside_parcel" for p in problems)
    f = plan_findings(snapped(union_all([parcel_geom, *geoms])), layerset, settings, as_of) if outside else analysis.findings
    result = analysis.result
    prepared = shapely.prepared.prep(parcel_geom.buffer(GRID_FT))
    ctx = {"layerset": layerset, "district": district, "parcel": result, "kind": kind, "settings": settings,
           "portions": analysis.district_portions, "inside": prepared.contains,
           "project": proj, "footprint": footprint, "as_of": as_of,
           "cluster_applies": result.cluster_applies,
           "any_trigger": _any(t.triggered for t in result.cluster_triggers),
           "seqr": action_class(parcel_geom, layerset, whole, as_of)[1]}
    lots = []
    for label, geom in zip(labels, geoms, strict=True):
        lot, split = _check_lot(label, geom, f, ctx)
        lots.append(lot)
        if split is not None:
            problems.append(split)
    checked_conventional = None
    if conventional is not None:
        checked_conventional = _check(parcel, conventional, layerset, district, "conventional", None, project, as_of,
                                      settings)
    taken = union_all([*geoms, *(g for g in (_union(drawing.of("roads")), _union(drawing.of("open_space")))
                                 if g is not None)])
    return PlanResult(
        kind=kind, lots=tuple(lots), problems=tuple(sorted(problems, key=lambda p: PROBLEM_KINDS.index(p.kind))),
        yield_check=yield_check(kind, len(lots), checked_conventional, result),
        open_space=open_space(drawing, parcel_geom, as_of),
        unallocated_sqft=area_sqft(polygonal(shapely.difference(parcel_geom, taken))),
        parcel=result, warnings=tuple(drawing.warnings))


def _any(states) -> bool | None:
    states = list(states)
    if any(s is True for s in states):
        return True
    return False if states and all(s is False for s in states) else None
