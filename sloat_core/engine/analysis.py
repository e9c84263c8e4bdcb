"""One parcel through every rule: the result the CLI prints as JSON and the app renders.

>>> # analyze(parcel, layerset, district="R-40", project={"application_type": "subdivision"})
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core import __version__
from sloat_core.rules.cluster import cluster_applicability, cluster_lot_rules, cluster_triggers
from sloat_core.rules.deductions import LotArea, conventional_yield, lot_area, meets_minimum
from sloat_core.engine.state_wetlands import state_wetland_screen
from sloat_core.errors import SloatInputError
from sloat_core.rules.measures import Findings, parcel_findings
from sloat_core.gis.geometry import area_sqft, polygonal
from sloat_core.law.params import PARAMS_VERSION, law_date
from sloat_core.rules.mitigation import mitigation
from sloat_core.rules.permits import Permit, can_be_subdivided, design_checklist, permits_for
from sloat_core.rules.project import Project, parse_project
from sloat_core.law.settings import load_settings
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["Analysis", "analyze", "analyze_parcel", "check_parcels", "DISCLAIMER"]

DISCLAIMER = (
    "Screening estimate only. It does not decide anything: the Planning Board, the Building Inspector or the "
    "Village Engineer makes every determination under Article IX, on surveyed boundaries, a certified wetland "
    "delineation and engineered topography."
)


@dataclass
class Analysis:
    """The full result, with the geometry behind it (for maps and GeoJSON exports)."""

    parcel: BaseGeometry
    findings: Findings
    lot: LotArea
    project: Project
    result: dict
    district_portions: list[tuple[str | None, BaseGeometry]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return self.result


#: The sentences a parcel shape is refused with.
NO_PARCEL = "There is no parcel to analyse."
NOT_POLYGON = "The parcel must be a polygon, not a point or a line."
NOT_NUMBERS = "The parcel has coordinates that are not numbers."
NO_AREA = "The parcel has no area."


def check_parcels(geoms: np.ndarray) -> tuple[np.ndarray, list[str | None], list[bool]]:
    """Repair or reject parcel shapes, many at once: the check of the single-parcel analysis and the screen.

    Returns the geometries to use, an error sentence per parcel (None when fine) and whether each
    was repaired (an outline crossing itself is made valid).
    """
    out = geoms.copy()
    errors: list[str | None] = [None] * len(geoms)
    repaired = [False] * len(geoms)
    is_geom = np.array([isinstance(g, BaseGeometry) for g in geoms], dtype=bool)
    for i in np.nonzero(~is_geom)[0]:
        errors[i] = NO_PARCEL
        out[i] = None
    idx = np.nonzero(is_geom)[0]
    g = geoms[idx]
    empty = shapely.is_empty(g)
    types = shapely.get_type_id(g)
    poly = (types == 3) | (types == 6)
    coords, where = shapely.get_coordinates(g, return_index=True)
    bad_coord = np.zeros(len(g), dtype=bool)
    if len(coords):
        nonfinite = ~np.isfinite(coords).all(axis=1)
        bad_coord[np.unique(where[nonfinite])] = True
    for j, i in enumerate(idx):
        if empty[j]:
            errors[i] = NO_PARCEL
        elif not poly[j]:
            errors[i] = NOT_POLYGON
        elif bad_coord[j]:
            errors[i] = NOT_NUMBERS
        if errors[i] is not None:
            out[i] = None
    ok = np.array([e is None for e in errors], dtype=bool)
    okidx = np.nonzero(ok)[0]
    if len(okidx):
        valid = shapely.is_valid(out[okidx].astype(object))
        for i in okidx[~valid]:
            fixed = polygonal(shapely.make_valid(out[i]))
            repaired[i] = True
            out[i] = fixed
            if fixed.is_empty or not math.isfinite(fixed.area) or fixed.area <= 0:
                errors[i] = NO_AREA
                out[i] = None
        areas = shapely.area(out[okidx].astype(object))
        for i, a in zip(okidx, areas):
            if errors[i] is None and not (a > 0):
                errors[i] = NO_AREA
                out[i] = None
    return out, errors, repaired


def _parcel_geometry(parcel) -> tuple[BaseGeometry, list[str], dict]:
    geom = getattr(parcel, "geometry", parcel)
    checked, errors, repaired = check_parcels(np.array([geom], dtype=object))
    if errors[0] is not None:
        raise SloatInputError(errors[0])
    warnings = list(getattr(parcel, "warnings", ()) or ())
    if repaired[0]:
        warnings.append("The parcel outline crossed itself; it was repaired before the analysis.")
    meta = {k: getattr(parcel, k, None) for k in ("sbl", "address", "district", "source")}
    return checked[0], warnings, meta


def _districts(geom, layerset, district: str | None, meta: dict) -> list[tuple[str | None, float, BaseGeometry]]:
    """The districts the parcel lies in: (code, area_sqft, the part in it), largest first."""
    if district:
        return [(district, area_sqft(geom), geom)]
    if layerset is not None and layerset.get("zoning") is not None:
        found = [(c, a, part) for c, part, a in layerset.district_parts(geom) if a > 0.5]
        if found:
            return found
    if meta.get("district"):
        return [(meta["district"], area_sqft(geom), geom)]
    return [(None, area_sqft(geom), geom)]


def _footprint_summary(f: Findings, proj: Project, work: Findings | None = None) -> dict | None:
    """What the drawn disturbance footprint touches, where it lies (sq ft; None where the layer is missing)."""
    fp = proj.disturbance_footprint
    if fp is None:
        return None
    inside = polygonal(fp.intersection(f.parcel))
    f = work or f
    fp_in = polygonal(fp.intersection(f.parcel))

    def touched(geom):
        return None if geom is None else round(area_sqft(polygonal(fp_in.intersection(geom))), 2)

    def on_slopes(name):
        return 0.0 if fp_in.is_empty else round(f.slope_area_sqft_in(name, fp_in), 2)

    return {
        "area_sqft": round(area_sqft(fp), 2),
        "inside_parcel_sqft": round(area_sqft(inside), 2),
        "outside_parcel_sqft": round(max(area_sqft(fp) - area_sqft(inside), 0.0), 2),
        "wetlands_sqft": touched(f.layers.get("wetlands")),
        "watercourses_sqft": touched(f.layers.get("watercourses")),
        "water_bodies_sqft": touched(f.layers.get("water_bodies")),
        "buffer_sqft": touched(f.buffer),
        "floodplain_sqft": touched(f.layers.get("floodplain")),
        "slope_25_or_more_sqft": None if f.slope is None else on_slopes("slope_ge_25"),
        "slope_unknown_sqft": on_slopes("unknown"),
    }


def _deduction_rows(lot: LotArea, f: Findings, layerset=None) -> list[dict]:
    """The deduction table; the buffer row says "partial" when it is built from only some water layers;
    a layer's row says how its coverage is known (declared, or assumed to be the layer's extent)."""
    rows = [r.to_dict() for r in lot.rows]
    for row in rows:
        state = getattr(layerset, "coverage_state", lambda _: None)(row["constraint"])
        if state:
            row["coverage"] = state
    missing = [r.replace("_", " ") for r in ("wetlands", "watercourses", "water_bodies") if f.layers.get(r) is None]
    for row in rows:
        if row["constraint"] == "buffer" and row["area_sqft"] is not None and missing:
            row["status"] = "partial"
            row["note"] = (f"Built only from the loaded layers: the {', '.join(missing)} layer"
                           f"{'s are' if len(missing) > 1 else ' is'} not loaded, so the buffer may be larger.")
    return rows


def _buffer_note(width_ft: float, ponds: bool) -> str:
    """The deduction table's note on the buffer: its width and whether ponds carry one (local settings)."""
    around = ("wetlands, watercourses, and ponds and other water bodies" if ponds
              else "wetlands and watercourses only (not ponds)")
    return (f"Buffer: {width_ft:g} ft around {around}. § 402-45A(1) names a \"watercourse or wetland buffer\"; "
            f"the width and whether ponds carry a buffer are local settings, to confirm with the Village "
            f"(ponds: {'on' if ponds else 'off'}).")


def analyze_parcel(
    parcel,
    layerset,
    *,
    district: str | None = None,
    project: dict | Project | None = None,
    settings=None,
    as_of: dt.date | None = None,
    board_answers: dict | None = None,
    mitigation_input: dict | None = None,
) -> Analysis:
    """Run every Article IX rule on a parcel. See `analyze` for the JSON shape.

    The law's numbers are those in effect on ``as_of`` (default today): `law_date`.
    """
    as_of = as_of or dt.date.today()
    with law_date(as_of):
        return _analyze_parcel(parcel, layerset, district=district, project=project, settings=settings,
                               as_of=as_of, board_answers=board_answers, mitigation_input=mitigation_input)


def _analyze_parcel(parcel, layerset, *, district, project, settings, as_of: dt.date, board_answers,
                    mitigation_input) -> Analysis:
    geom, warnings, meta = _parcel_geometry(parcel)
    settings = settings or load_settings()
    proj = project if isinstance(project, Project) else parse_project(project)

    ponds_buffered = bool(getattr(settings, "buffer_around_water_bodies", True))
    f = parcel_findings(geom, layerset, buffer_width_ft=float(settings.buffer_width_ft),
                        buffer_water_bodies=ponds_buffered)
    warnings += f.warnings
    lot = lot_area(f)
    gross = f.gross_area_sqft

    # The work is measured where it lies (§ 402-57G): a footprint leaving the parcel gets the measures of
    # the parcel plus the footprint, for the permits and the mitigation; the lot area stays the parcel's.
    work = f
    if proj.disturbance_footprint is not None:
        outside = area_sqft(polygonal(proj.disturbance_footprint.difference(geom)))
        if outside > 1.0:
            warnings.append(f"{outside:,.0f} sq ft of the disturbance footprint lies outside the parcel; it is "
                            "measured where it lies (work on neighbouring land needs the same permits).")
            work = parcel_findings(polygonal(geom.union(proj.disturbance_footprint)), layerset,
                                   buffer_width_ft=float(settings.buffer_width_ft),
                                   buffer_water_bodies=ponds_buffered)

    districts = _districts(geom, layerset, district, meta)
    primary = districts[0][0]
    d = settings.district(primary) if primary else None
    if primary and d is None:
        warnings.append(f"District '{primary}' is not in the local settings; its minimum lot area is unknown.")
    if len(districts) > 1:
        warnings.append("The parcel lies in more than one zoning district: "
                        + ", ".join(f"{c} ({a / gross:.0%})" for c, a, _ in districts)
                        + ". Density is computed separately for each part (§ 402-48I).")
    minimum = d.min_lot_area_sqft if d else None
    if d is not None and minimum is None:
        warnings.append(f"No minimum lot area is set for {primary}: enter it in the settings.")

    portions = [(c, part) for c, _, part in districts] if len(districts) > 1 else [(primary, geom)]
    per_district = []
    part_deducted = [lot.deducted_in(part) for _, part in portions[1:]]
    if abs(sum(area_sqft(p) for _, p in portions) - gross) <= 1.0:
        # The parts tile the parcel and deductions add up: the largest (first) gets what the rest leave.
        part_deducted.insert(0, max(lot.deducted_sqft - sum(part_deducted), 0.0))
    else:  # part of the parcel is in no district: measure every part
        part_deducted.insert(0, lot.deducted_in(portions[0][1]))
    for (code, part), deducted in zip(portions, part_deducted, strict=True):
        dd = settings.district(code) if code else None
        if len(portions) == 1:  # the whole parcel: the lot-area figures themselves
            part_gross, part_net = gross, lot.net_lot_area_sqft
        else:
            part_gross = area_sqft(part)
            part_net = max(part_gross - deducted, 0.0)
        mn = dd.min_lot_area_sqft if dd else None
        per_district.append({
            "district": code,
            "kind": dd.kind if dd else None,
            "gross_area_sqft": round(part_gross, 2),
            "net_lot_area_sqft": round(part_net, 2),
            "min_lot_area_sqft": mn,
            "conventional_yield": conventional_yield(part_net, mn),
            "cluster": cluster_lot_rules(code, dd.kind if dd else None),
            "citation": "§ 402-48I" if len(portions) > 1 else "§ 402-48E",
        })

    triggers = cluster_triggers(lot.measures, board_answers)
    kinds = [(settings.district(c).kind if c and settings.district(c) else None) for c, _, _ in districts]
    applies, applies_text = cluster_applicability(kinds, proj.application_type)
    states = [t.triggered for t in triggers]
    any_trigger = True if any(s is True for s in states) else (False if all(s is False for s in states) else None)

    subdividable = can_be_subdivided(lot.net_lot_area_sqft, lot.net_lot_area_min_sqft, minimum)
    permits: list[Permit] = permits_for(f, proj, settings=settings, subdividable=subdividable,
                                        cluster_applies=applies, any_trigger=any_trigger, measures=lot.measures, work=work)

    # Wetland mitigation: the footprint's wetland (where it lies, on or off the parcel), else what was typed.
    mi = dict(mitigation_input or {})
    fp = proj.disturbance_footprint
    if fp is not None and work.layers.get("wetlands") is not None:
        wet = area_sqft(polygonal(fp.intersection(work.layers["wetlands"])))
        buf = area_sqft(polygonal(fp.intersection(work.buffer))) if work.buffer is not None else None
        mi.setdefault("impacted_wetland_sqft", wet)
        mi.setdefault("impacted_buffer_sqft", buf)
        mi.setdefault("impact_source", "footprint")
        ponds = work.layers.get("water_bodies")
        if "impacted_water_body_sqft" not in mi and ponds is not None:
            mi["impacted_water_body_sqft"] = area_sqft(polygonal(fp.intersection(ponds)))
    mit = mitigation(**mi)

    footprint = _footprint_summary(f, proj, work)
    meets = meets_minimum(lot.net_lot_area_sqft, lot.net_lot_area_min_sqft, minimum)
    if meets is None and minimum is not None:
        warnings.append("Whether the net lot area meets the minimum depends on data that is unknown here.")
    outside = None
    if layerset is not None and hasattr(layerset, "village_boundary"):
        vb = layerset.village_boundary
        if vb is not None and area_sqft(polygonal(geom.difference(vb))) > 0.01 * gross:
            outside = "Part or all of the parcel lies outside the Village of Sloatsburg boundary; Article IX " \
                      "applies only inside the Village."
            warnings.append(outside)

    result = {
        "as_of": as_of.isoformat(),
        "parcel": {k: v for k, v in meta.items() if v is not None},
        "district": primary,
        "districts": [{"district": c, "area_sqft": round(a, 2)} for c, a, _ in districts],
        "district_kind": d.kind if d else None,
        "gross_area_sqft": round(gross, 2),
        "gross_area_acres": round(gross / SQFT_PER_ACRE, 4),
        "deductions": _deduction_rows(lot, f, layerset),
        "deducted_sqft": round(lot.deducted_sqft, 2),
        "net_lot_area_sqft": round(lot.net_lot_area_sqft, 2),
        "net_lot_area_min_sqft": round(lot.net_lot_area_min_sqft, 2),
        "net_lot_area_acres": round(lot.net_lot_area_sqft / SQFT_PER_ACRE, 4),
        "min_lot_area_sqft": minimum,
        "min_lot_area_verify": bool(d.verify) if d else None,
        "meets_min_lot_area": meets,
        "lot_area_citation": "§ 402-45A",
        "conventional_yield": conventional_yield(lot.net_lot_area_sqft, minimum),
        "yield_caveat": "The Planning Board decides yield from a conventional subdivision plat (§ 402-48E).",
        "per_district": per_district,
        "slope_area_sqft": {k: round(v, 2) for k, v in f.slope_area_sqft.items()},
        "buffer_width_ft": f.buffer_width_ft,
        "buffer_around_water_bodies": ponds_buffered,
        "buffer_note": _buffer_note(f.buffer_width_ft, ponds_buffered),
        "cluster_applies": applies,
        "cluster_applies_reason": applies_text,
        "cluster_triggers": [t.to_dict() for t in triggers],
        "permits": [p.to_dict() for p in permits],
        # The NYSDEC map by the state regime in force on the date (data/settings/state_wetlands.yaml): a screen,
        # never a deduction; for the work where a footprint is drawn, else the parcel.
        "state_wetlands": state_wetland_screen(
            proj.disturbance_footprint if proj.disturbance_footprint is not None else geom, layerset, as_of,
            what="the work" if proj.disturbance_footprint is not None else "the parcel"),
        "steep_slope_design_limits": design_checklist(proj),
        "mitigation": mit,
        "footprint": footprint,
        "warnings": list(dict.fromkeys(warnings)),
        "disclaimer": DISCLAIMER,
        "layers_name": getattr(layerset, "name", None),
        "layers_version": getattr(layerset, "version", None),
        "layers_illustrative": getattr(layerset, "illustrative", None),
        "layers_notice": getattr(layerset, "notice", None),
        "params_version": PARAMS_VERSION,
        "tool_version": __version__,
    }
    return Analysis(geom, f, lot, proj, result, portions)


def analyze(parcel, layerset, **kw) -> dict:
    """The JSON-ready result of `analyze_parcel` (the CLI's contract).

    Keys: gross_area_sqft, net_lot_area_sqft, min_lot_area_sqft, meets_min_lot_area, deductions
    [{constraint, area_sqft, countable_fraction, deducted_sqft, citation}], slope_area_sqft
    {"0-15", "15-25", "25-40", "over_40", "unknown"}, cluster_triggers [{id, triggered, evidence, citation}],
    permits [{id, required, reason, citation, authority}], mitigation {impacted_wetland_sqft,
    required_mitigation_sqft}, warnings, disclaimer, and the versions of the parameters and layers used.
    """
    return analyze_parcel(parcel, layerset, **kw).to_dict()
