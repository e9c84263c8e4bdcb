"""One parcel through every rule: the result the CLI prints as JSON and the app renders.

>>> # analyze(parcel, layerset, district="R-40", project={"application_type": "subdivision"})
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry.base import BaseGeometry

from sloat_core import __version__
from sloat_core.rules.sections.s402_48_cluster.cluster import (cluster_applicability, cluster_lot_rules, cluster_triggers,
                                      open_space_rule, part_yield, yield_estimate)
from sloat_core.rules.sections.s402_57_wetlands.adjacent_owners import adjacent_owners
from sloat_core.measure.rows import ROW_SPECS
from sloat_core.rules.deductions import LotArea, lot_area, meets_minimum
from sloat_core.errors import SloatInputError
from sloat_core.measure.footprint import footprint_impacts, footprint_summary
from sloat_core.measure.parcel import Findings, parcel_findings
from sloat_core.gis.geometry import area_sqft, check_parcels, polygonal
from sloat_core.law.params import PARAMS_VERSION, one_reading
from sloat_core.rules.sections.s402_57_wetlands.mitigation import mitigation
from sloat_core.rules.permits import DECLARATIONS, Permit, can_be_subdivided, permits_for
from sloat_core.rules.project import Project, parse_project
from sloat_core.rules.sections.s402_57_wetlands.permit import DECLARATION as WETLAND_PERMIT
from sloat_core.rules.sections.s402_55_steep_slopes.design import design_checklist, with_figures
from sloat_core.engine.parts import part_floor as district_part_floor
from sloat_core.engine.result import (AdjacentOwners, ApprovalGroup, ApprovalsDetail, Deduction, DesignLimitCheck,
                                      DistrictArea, DistrictPart, Footprint, LotSizeWhatIf, Mitigation, OpenSpaceRule,
                                      ParcelMeta, ParcelResult)
from sloat_core.engine.what_if import what_if
from sloat_core.law.settings import load_settings
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["Analysis", "ParcelResult", "analyze", "analyze_parcel", "check_parcels", "DISCLAIMER"]

DISCLAIMER = (
    "Screening estimate only. It does not decide anything: the Planning Board, the Building Inspector or the "
    "Village Engineer makes every determination under Article IX, on surveyed boundaries, a certified wetland "
    "delineation and engineered topography."
)


@dataclass
class Analysis:
    """The full result, with the geometry behind it (for maps and GeoJSON exports).

    ``result`` is the typed result (:class:`sloat_core.engine.result.ParcelResult`); ``to_dict()`` its JSON, the
    command line's contract (a new dict each call, the caller's to change).
    """

    parcel: BaseGeometry
    findings: Findings
    lot: LotArea
    project: Project
    result: ParcelResult
    district_portions: list[tuple[str | None, BaseGeometry]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return self.result.to_dict()


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


def _deduction_rows(lot: LotArea, f: Findings, layerset=None) -> list[dict]:
    """The deduction table; the buffer row says "partial" when it is built from only some water layers;
    a layer's row says how its coverage is known (declared, or assumed to be the layer's extent)."""
    rows = [r.to_dict() for r in lot.rows]
    for row in rows:
        state = getattr(layerset, "coverage_state", lambda _: None)(row["constraint"])
        if state:
            row["coverage"] = state
    for row in rows:
        if row.get("known_area_sqft") is not None:  # unknown: a layer it reads maps only part of the parcel
            layer = ("a water layer it is built from maps" if ROW_SPECS[row["constraint"]].land == "buffer"
                     else "its layer maps")
            row["note"] = (f"Unknown: {layer} only part of the parcel. At least {row['known_area_sqft']:,.0f} sq ft "
                           f"is in this row on the land mapped ({row['known_deducted_sqft']:,.0f} sq ft deducted, "
                           "counted in the net lot area); the land not mapped is at its worst only in the lowest "
                           "figure of the net.")
    for row in rows:
        spec = ROW_SPECS[row["constraint"]]
        missing = [r.replace("_", " ") for r in spec.reads if f.layers.get(r) is None] if spec.land == "buffer" else []
        if row["area_sqft"] is not None and missing:
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

    The law's numbers are those in effect on ``as_of`` (default today), passed in to every rule and
    measurement: the measuring (slope classes, outcrops, deduction shares: ``Findings.as_of``), the permits
    (``Facts.as_of``), the cluster rules, the mitigation, the adjacent owners, the design limits and the
    approvals.
    """
    as_of = as_of or dt.date.today()
    with one_reading():  # the parameters file read once for the whole analysis (speed)
        return _analyze_parcel(parcel, layerset, district=district, project=project, settings=settings,
                               as_of=as_of, board_answers=board_answers, mitigation_input=mitigation_input)


def _work_findings(f, geom, proj: Project, layerset, settings, ponds_buffered: bool, warnings: list):
    """The work is measured where it lies (§ 402-57G): a footprint leaving the parcel gets the measures of
    the parcel plus the footprint, for the permits and the mitigation; the lot area stays the parcel's."""
    if proj.disturbance_footprint is None:
        return f
    outside = area_sqft(polygonal(proj.disturbance_footprint.difference(geom)))
    if outside <= 1.0:
        return f
    warnings.append(f"{outside:,.0f} sq ft of the disturbance footprint lies outside the parcel; it is "
                    "measured where it lies (work on neighbouring land needs the same permits).")
    return parcel_findings(polygonal(geom.union(proj.disturbance_footprint)), layerset,
                           buffer_width_ft=float(settings.buffer_width_ft), buffer_water_bodies=ponds_buffered,
                           on=f.as_of)


def _district_warnings(districts, primary, d, gross: float) -> list[str]:
    """What the parcel's districts leave unknown or split: a district not in the settings, a split parcel,
    a district without a minimum lot area."""
    out = []
    if primary and d is None:
        out.append(f"District '{primary}' is not in the local settings; its minimum lot area is unknown.")
    if len(districts) > 1:
        out.append("The parcel lies in more than one zoning district: "
                   + ", ".join(f"{c} ({a / gross:.0%})" for c, a, _ in districts)
                   + ". Density is computed separately for each part (§ 402-48I).")
    if d is not None and d.min_lot_area_sqft is None:
        out.append(f"No minimum lot area is set for {primary}: enter it in the settings.")
    return out


def _per_district(districts, primary, geom, lot, gross: float, layerset, settings,
                  as_of: dt.date) -> tuple[list, list[dict]]:
    """Each district part's gross, net range, minimum and yield (§ 402-48I; the whole parcel's own figures,
    § 402-48E, when it lies in one district); with the parts themselves, as (district, geometry) pairs."""
    portions = [(c, part) for c, _, part in districts] if len(districts) > 1 else [(primary, geom)]
    part_deducted = [lot.deducted_in(part) for _, part in portions[1:]]
    if abs(sum(area_sqft(p) for _, p in portions) - gross) <= 1.0:
        # The parts tile the parcel and deductions add up: the largest (first) gets what the rest leave.
        part_deducted.insert(0, max(lot.deducted_sqft - sum(part_deducted), 0.0))
    else:  # part of the parcel is in no district: measure every part
        part_deducted.insert(0, lot.deducted_in(portions[0][1]))
    per_district = []
    for (code, part), deducted in zip(portions, part_deducted, strict=True):
        dd = settings.district(code) if code else None
        if len(portions) == 1:  # the whole parcel: the lot-area figures themselves
            part_gross, part_net, part_floor = gross, lot.net_lot_area_sqft, lot.net_lot_area_min_sqft
        else:
            part_gross = area_sqft(part)
            part_net = max(part_gross - deducted, 0.0)
            part_floor = district_part_floor(part, part_net, layerset, settings, parcel_known=lot.fully_known,
                                             on=as_of)
        mn = dd.min_lot_area_sqft if dd else None
        per_district.append({
            "district": code,
            "kind": dd.kind if dd else None,
            "gross_area_sqft": round(part_gross, 2),
            "net_lot_area_sqft": round(part_net, 2),
            "net_lot_area_min_sqft": round(part_floor, 2),
            "min_lot_area_sqft": mn,
            **part_yield(part_net, part_floor, mn),
            "cluster": cluster_lot_rules(code, dd.kind if dd else None, as_of),
            "citation": "§ 402-48I" if len(portions) > 1 else "§ 402-48E",
        })
    return portions, per_district


def _any_triggered(states: list) -> bool | None:
    """True when a trigger is met, False when every one is known not to be, else unknown."""
    if any(s is True for s in states):
        return True
    return False if all(s is False for s in states) else None


def _outside_village(geom, layerset, gross: float) -> str | None:
    """The warning for a parcel more than 1 % outside the village boundary (Article IX applies inside it)."""
    vb = getattr(layerset, "village_boundary", None) if layerset is not None else None
    if vb is not None and area_sqft(polygonal(geom.difference(vb))) > 0.01 * gross:
        return ("Part or all of the parcel lies outside the Village of Sloatsburg boundary; Article IX "
                "applies only inside the Village.")
    return None


def _district_fields(d) -> dict:
    """The district's kind and whether its minimum is to confirm (None, None where the district is unknown)."""
    return {"district_kind": d.kind if d else None, "min_lot_area_verify": bool(d.verify) if d else None}


def _what_if(primary: str | None, minimum, lot) -> LotSizeWhatIf | None:
    """Candidate minimums for a district that has none (``engine.what_if``); None when there is a minimum."""
    if not primary or minimum is not None:
        return None
    w = what_if(primary, lot.net_lot_area_sqft, lot.net_lot_area_min_sqft)
    return LotSizeWhatIf.from_dict(w) if w is not None else None


def _footprint(f, proj: Project, work) -> Footprint | None:
    """What the drawn disturbance footprint touches (None without one)."""
    found = footprint_summary(f, proj.disturbance_footprint, work)
    return Footprint(**found) if found is not None else None


def _analyze_parcel(parcel, layerset, *, district, project, settings, as_of: dt.date, board_answers,
                    mitigation_input) -> Analysis:
    geom, warnings, meta = _parcel_geometry(parcel)
    settings = settings or load_settings()
    proj = project if isinstance(project, Project) else parse_project(project)

    ponds_buffered = bool(getattr(settings, "buffer_around_water_bodies", True))
    f = parcel_findings(geom, layerset, buffer_width_ft=float(settings.buffer_width_ft),
                        buffer_water_bodies=ponds_buffered, on=as_of)
    warnings += f.warnings
    lot = lot_area(f)
    gross = f.gross_area_sqft

    work = _work_findings(f, geom, proj, layerset, settings, ponds_buffered, warnings)
    districts = _districts(geom, layerset, district, meta)
    primary = districts[0][0]
    d = settings.district(primary) if primary else None
    minimum = d.min_lot_area_sqft if d else None
    warnings += _district_warnings(districts, primary, d, gross)
    portions, per_district = _per_district(districts, primary, geom, lot, gross, layerset, settings, as_of)

    triggers = cluster_triggers(lot.measures, board_answers)
    kinds = [(settings.district(c).kind if c and settings.district(c) else None) for c, _, _ in districts]
    applies, applies_text = cluster_applicability(kinds, proj.application_type)
    any_trigger = _any_triggered([t.triggered for t in triggers])

    subdividable = can_be_subdivided(lot.net_lot_area_sqft, lot.net_lot_area_min_sqft, minimum)
    # The project's SEQR class, once (with the county referral whose parkland distance it reads): § 402-46C and
    # the approvals below read this one class (sloat_core.engine.approval_list.action_class).
    from sloat_core.engine.approval_list import action_class, approvals_for

    cea = f.area("aquifer_cea")
    in_cea = None if cea is None else cea > 1.0
    worked_out = action_class(geom, layerset, proj, as_of, in_cea=in_cea)
    permits: list[Permit] = permits_for(f, proj, settings=settings, subdividable=subdividable,
                                        cluster_applies=applies, any_trigger=any_trigger, measures=lot.measures, work=work,
                                        seqr=worked_out[1], as_of=as_of)

    # What the land alone answers (no project described): the permits the parcel carries for any later work,
    # which the answer tells apart from what the project needs (engine.answer.permits_by_cause).
    bare = Project()
    on_land = permits if proj == bare else permits_for(
        f, bare, settings=settings, subdividable=subdividable, cluster_applies=cluster_applicability(kinds, None)[0],
        any_trigger=any_trigger, measures=lot.measures, as_of=as_of)
    land_only = tuple(p for p, decl in zip(on_land, DECLARATIONS, strict=True) if decl.land is not None)

    wet = next((p for p in permits if p.id == WETLAND_PERMIT.id), None)
    owners = adjacent_owners(geom, layerset, footprint=proj.disturbance_footprint,
                             buffer_width_ft=float(settings.buffer_width_ft), buffer_water_bodies=ponds_buffered,
                             permit_required=wet.required if wet else None, parcel_id=meta.get("sbl"), on=as_of)

    # Wetland mitigation: the footprint's wetland (where it lies, on or off the parcel), else what was typed.
    mit = mitigation(**footprint_impacts(work, proj.disturbance_footprint, mitigation_input), on=as_of)

    design, design_warnings = with_figures(design_checklist(proj, as_of), dict(proj.design_figures or ()), as_of)
    warnings += design_warnings
    meets = meets_minimum(lot.net_lot_area_sqft, lot.net_lot_area_min_sqft, minimum)
    if meets is None and minimum is not None:
        warnings.append("Whether the net lot area meets the minimum depends on data that is unknown here.")
    outside = _outside_village(geom, layerset, gross)
    if outside:
        warnings.append(outside)

    # The approvals around Article IX (state and federal law; sloat_core.approvals): the list, grouped by who
    # decides, and the detail (SEQR, county referral, Village Law clocks, wetland screens). The NYSDEC map by the
    # state regime in force on the date (nysdec_wetland_regimes in data/settings/state_law.yaml) is the approvals'
    # ECL Article 24 screen itself, never a deduction (the result's ``state_wetlands``).
    found = approvals_for(geom, layerset, proj, as_of, permits=permits, in_cea=in_cea, worked_out=worked_out)
    groups = found.pop("groups")
    result = ParcelResult(
        as_of=as_of,
        parcel=ParcelMeta(**{k: v for k, v in meta.items() if v is not None}),
        district=primary,
        districts=tuple(DistrictArea(district=c, area_sqft=round(a, 2)) for c, a, _ in districts),
        gross_area_sqft=round(gross, 2),
        gross_area_acres=round(gross / SQFT_PER_ACRE, 4),
        deductions=tuple(Deduction(**row) for row in _deduction_rows(lot, f, layerset)),
        deducted_sqft=round(lot.deducted_sqft, 2),
        net_lot_area_sqft=round(lot.net_lot_area_sqft, 2),
        net_lot_area_min_sqft=round(lot.net_lot_area_min_sqft, 2),
        net_lot_area_acres=round(lot.net_lot_area_sqft / SQFT_PER_ACRE, 4),
        min_lot_area_sqft=minimum,
        **_district_fields(d),
        meets_min_lot_area=meets,
        lot_area_citation="§ 402-45A",
        **yield_estimate(per_district),
        cluster_open_space=OpenSpaceRule(**open_space_rule(as_of)),
        per_district=tuple(DistrictPart.from_dict(p) for p in per_district),
        slope_area_sqft={k: round(v, 2) for k, v in f.slope_area_sqft.items()},
        buffer_width_ft=f.buffer_width_ft,
        buffer_around_water_bodies=ponds_buffered,
        buffer_note=_buffer_note(f.buffer_width_ft, ponds_buffered),
        cluster_applies=applies,
        cluster_applies_reason=applies_text,
        cluster_triggers=tuple(triggers),
        permits=tuple(permits),
        project_described=proj != bare,
        land_permits=land_only,
        min_lot_area_what_if=_what_if(primary, minimum, lot),
        steep_slope_design_limits=tuple(DesignLimitCheck(**item) for item in design),
        mitigation=Mitigation.from_dict(mit),
        adjacent_owners=AdjacentOwners.from_dict(owners),
        footprint=_footprint(f, proj, work),
        warnings=tuple(dict.fromkeys(warnings)),
        disclaimer=DISCLAIMER,
        layers_name=getattr(layerset, "name", None),
        layers_version=getattr(layerset, "version", None),
        layers_illustrative=getattr(layerset, "illustrative", None),
        layers_notice=getattr(layerset, "notice", None),
        params_version=PARAMS_VERSION,
        tool_version=__version__,
        approvals=tuple(ApprovalGroup.from_dict(g) for g in groups),
        approvals_detail=ApprovalsDetail.from_dict(found),
    )
    return Analysis(geom, f, lot, proj, result, portions)


def analyze(parcel, layerset, **kw) -> dict:
    """The JSON-ready result of `analyze_parcel` (the CLI's contract: ``ParcelResult.to_dict()``).

    Keys: gross_area_sqft, net_lot_area_sqft, min_lot_area_sqft, meets_min_lot_area, deductions
    [{constraint, area_sqft, countable_fraction, deducted_sqft, citation}], slope_area_sqft
    {"0-15", "15-25", "25-40", "over_40", "unknown"}, cluster_triggers [{id, triggered, evidence, citation}],
    permits [{id, required, reason, citation, authority}], mitigation {impacted_wetland_sqft,
    required_mitigation_sqft}, warnings, disclaimer, and the versions of the parameters and layers used.
    """
    return analyze_parcel(parcel, layerset, **kw).to_dict()
