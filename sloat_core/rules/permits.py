"""Permits and reviews a proposal needs under Article IX, each ``True`` / ``False`` / ``None`` (unknown).

Every answer carries its reason, its § citation, the approval authority, what must be submitted (the law's
own lists, quoted from the shipped text) and the clocks that apply. Unknown means the answer depends on a
fact not given (where the work happens, how many trees, the application type) or on a missing layer.

Readings encoded here (see each function's docstring for its clause):

* steep slope permit: disturbance of slopes of 25 % *or greater* (§ 402-55A, C(2)), not "in excess of";
  customary landscaping is exempt (§ 402-55C(1)).
* SWPPP Condition B is "five or more acres"; Condition C is "between one and five acres": read as
  1 acre inclusive up to 5 acres exclusive, one-family dwellings excluded (§ 402-58E(2)(b), (c)).
* biodiversity study: applications "involving 10 acres or more" (10.0 included), except a one-family
  dwelling (§ 402-54B).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from shapely.geometry.base import BaseGeometry

from sloat_core.rules.measures import Findings, Measures, findings_areas, findings_uncovered, is_no, present, tri
from sloat_core.gis.geometry import PRESENCE_MIN_SQFT, area_sqft, polygonal
from sloat_core.law.text import clause
from sloat_core.law.params import param, value
from sloat_core.rules.project import Project
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["Permit", "permits_for", "PERMIT_IDS", "LAND_PERMITS", "land_permits"]

PERMIT_IDS = (
    "steep_slope_permit",
    "wetland_permit",
    "tree_removal_permit",
    "swppp",
    "swppp_post_construction",
    "biodiversity_study",
    "nysdec_recreational_river",
    "rcda_review",
    "flood_hazard_review",
    "seqra_cea",
    "cluster_review",
    "wastewater_approval",
    "commercial_excavation_prohibited",
)


@dataclass(frozen=True)
class Permit:
    id: str
    title: str
    required: bool | None
    reason: str
    citation: str
    authority: str
    submissions: tuple[str, ...] = ()
    clocks: tuple[str, ...] = ()
    citations: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "required": self.required,
            "reason": self.reason,
            "citation": self.citation,
            "authority": self.authority,
            "submissions": [_item(c) for c in self.submissions],
            "clocks": list(self.clocks),
            "citations": list(dict.fromkeys((self.citation,) + self.citations + self.submissions)),
        }


@functools.lru_cache(maxsize=512)
def _first_sentence(citation: str) -> str:
    text = clause(citation).strip()
    text = re.sub(r"^(\(\w+\)|\[\d+\]|[A-Z]\.)\s*", "", text)
    first = text.split("\n", 1)[0]
    return first if len(first) <= 260 else first[:257].rsplit(" ", 1)[0] + "..."


def _item(citation: str) -> dict:
    return {"citation": citation, "text": _first_sentence(citation)}


def _letters(prefix: str, letters: str) -> tuple[str, ...]:
    return tuple(f"{prefix}({c})" for c in letters)


def _numbers(prefix: str, last: int, first: int = 1) -> tuple[str, ...]:
    return tuple(f"{prefix}({n})" for n in range(first, last + 1))


def _acres(sqft: float) -> str:
    return f"{sqft / SQFT_PER_ACRE:,.2f} acres"


def _measure(region: BaseGeometry):
    """Area of ``region`` inside a geometry (all of it for None): the measure `_in_region` reads."""
    return lambda g: area_sqft(region) if g is None else area_sqft(polygonal(g.intersection(region)))


def where_work_happens(m: Measures, key: str):
    """Land-only answer of a permit needed where the work touches a region (no footprint drawn): the
    steep slope permit (§ 402-55C(2)) and the wetland permit (§ 402-57G).

    No when the region is not on the parcel; otherwise unknown: it depends on where the work happens.
    One parcel or arrays of parcels (the village screen calls this same function).
    """
    return tri(False, is_no(present(m, key)))


def biodiversity_required(acres, one_family_dwelling: bool | None):
    """§ 402-54B: "applications involving 10 acres or more" (inclusive), except a one-family dwelling."""
    if one_family_dwelling:
        return False
    big = acres >= float(value("biodiversity_threshold_acres"))
    return tri(big & (one_family_dwelling is False), ~big if hasattr(big, "shape") else not big)


#: The permits and reviews the land alone can answer (no project): the village screen's columns.
LAND_PERMITS = ("steep_slope_permit", "wetland_permit", "nysdec_recreational_river", "rcda_review",
                "flood_hazard_review", "seqra_cea", "biodiversity_study")
#: Overlay reviews: permit id -> the role whose land on the parcel requires it.
OVERLAY_REVIEWS = {"nysdec_recreational_river": "recreational_river", "rcda_review": "rcda",
                   "flood_hazard_review": "floodplain", "seqra_cea": "aquifer_cea"}


def land_permits(m: Measures) -> dict[str, object]:
    """Answers of the `LAND_PERMITS` from the land alone (no project), one parcel or arrays of parcels.

    The same decisions `permits_for` makes with no project: the steep slope permit (§ 402-55C(2)) and the
    wetland permit (§ 402-57G) depend on where the work happens once their region is on the parcel; the
    overlay reviews (§§ 402-51C, 402-50B, 402-49B, 402-46C) follow the layer; the biodiversity study
    (§ 402-54B) the parcel's acres.
    """
    out = {"steep_slope_permit": where_work_happens(m, "slope_ge_25"),
           "wetland_permit": where_work_happens(m, "wetland_region")}
    out.update({pid: present(m, role) for pid, role in OVERLAY_REVIEWS.items()})
    out["biodiversity_study"] = biodiversity_required(m.gross_area_sqft / SQFT_PER_ACRE, None)
    return out


def _in_region(f: Findings, project: Project, area_in, region_name: str, unknown_in=None, *,
               measures: Measures | None = None, key: str | None = None):
    """Does the work touch a region? (True/False/None, sq ft touched, text).

    ``area_in(g)`` is the region's area inside ``g`` (a part of the parcel; None: the whole parcel);
    ``area_in`` None means the layer is missing. ``unknown_in`` measures land where it is unknown
    whether the region is there (slopes off the elevation model). Without a footprint the answer is
    `where_work_happens` on the parcel's ``measures`` (its ``key``).
    """
    if area_in is None:
        return None, None, f"Unknown: the {region_name} layer is not loaded."
    fp = project.disturbance_footprint
    if fp is None:
        whole = area_in(None) if measures is None else measures.areas[key]
        absent = (whole < PRESENCE_MIN_SQFT) if measures is None else where_work_happens(measures, key) is False
        if absent:
            return False, 0.0, f"The parcel has no {region_name}."
        if whole < PRESENCE_MIN_SQFT:
            return None, None, f"Unknown: not every layer of the {region_name} is loaded or covers the parcel."
        return None, None, (f"The parcel has {whole:,.0f} sq ft of {region_name}; "
                            "it depends on where the work happens (draw the disturbance footprint).")
    fp_in = polygonal(fp.intersection(f.parcel))
    touched = area_in(fp_in) if not fp_in.is_empty else 0.0
    if touched >= PRESENCE_MIN_SQFT:
        return True, touched, f"The disturbance footprint touches {touched:,.0f} sq ft of {region_name}."
    if unknown_in is not None and not fp_in.is_empty:
        doubt = unknown_in(fp_in)
        if doubt >= PRESENCE_MIN_SQFT:
            return None, None, f"{region_name.capitalize()} unknown under {doubt:,.0f} sq ft of the footprint."
    return False, 0.0, f"The disturbance footprint does not touch {region_name}."


def steep_slope_permit(f: Findings, project: Project, measures: Measures | None = None) -> Permit:
    """§ 402-55: disturbance of slopes of 25 % or greater needs a steep slope permit."""
    p = param("steep_slope_permit_threshold_pct")
    pb = project.needs_planning_board
    authority = ("Planning Board (§ 402-55D(1))" if pb else "Village Engineer (§ 402-55D(2))" if pb is False
                 else "Planning Board if a site plan, subdivision or special permit is before it; "
                      "otherwise the Village Engineer (§ 402-55D)")
    clocks = (
        f"Valid {value('steep_slope_permit_term_years')} year from approval, or the other permit's period if later "
        "(§ 402-55H(2)).",
        f"Extension at most {value('steep_slope_extension_max_years')} year; request at least "
        f"{value('steep_slope_extension_request_months')} month before expiry (§ 402-55H(3)).",
        f"Stand-alone decision within {value('steep_slope_decision_days')} days of a complete application (§ 402-55F).",
        "No bare slopes December 15 - April 15; stabilise within 2 days (temporary) and 15 days (permanent) of "
        "final grade (§ 402-55J(19), (21)).",
    )
    subs = _numbers("§ 402-55E", 4) + _letters("§ 402-55E(5)", "abcdefgh")
    title = "Steep slope permit"
    if project.landscaping_only:
        return Permit("steep_slope_permit", title, False,
                      "Customary landscaping with minor grading is exempt (§ 402-55C(1)).",
                      "§ 402-55C(1)", authority)
    if f.slope is None:
        return Permit("steep_slope_permit", title, None, "Unknown: no elevation model is loaded.",
                      p.citation, authority, subs, clocks)
    req, _, text = _in_region(f, project, lambda g: f.slope_area_sqft_in("slope_ge_25", g),
                              f"slopes of {p.value}% or greater", lambda g: f.slope_area_sqft_in("unknown", g),
                              measures=measures, key="slope_ge_25")
    return Permit("steep_slope_permit", title, req, text, "§ 402-55C(2)", authority, subs, clocks,
                  (p.citation,))


def wetland_permit(f: Findings, project: Project, measures: Measures | None = None) -> Permit:
    """§ 402-57G, I: any regulated activity in a wetland, watercourse or buffer; § 402-57H exemptions."""
    parts = [f.layers.get("wetlands"), f.layers.get("watercourses"), f.layers.get("water_bodies"), f.buffer]
    known = [g for g in parts if g is not None]
    region = None if not known else polygonal(known[0].union(known[1]) if len(known) > 1 else known[0])
    for g in known[2:]:
        region = polygonal(region.union(g))
    authority = "Planning Board approval; permit issued by the Building Inspector (§ 402-57G)"
    clocks = (
        f"Hearing within {value('wetland_hearing_days')} days of a complete application; newspaper notice at least "
        f"{value('wetland_hearing_notice_days')} days before (§ 402-57L).",
        f"Valid {value('wetland_permit_term_years')} year from issue; extension requested at least "
        f"{value('wetland_extension_request_days')} days before expiry (§ 402-57J(4)).",
        f"Notify the Planning Board at least {value('wetland_start_notice_days')} days before work starts "
        "(§ 402-57O(1)(c)).",
        f"Wetland delineation no more than {value('wetland_delineation_max_age_months')} months old at filing "
        "(§ 402-57K(5)(a)).",
    )
    subs = _numbers("§ 402-57K", 4) + _letters("§ 402-57K(5)", "abcdefghijkl") + ("§ 402-57K(6)",)
    title = "Wetland permit"
    if project.activities is not None and len(project.activities) == 0:
        return Permit("wetland_permit", title, False,
                      "No regulated activity of § 402-57I is proposed (exempt activities: § 402-57H).",
                      "§ 402-57H", authority)
    buf = f.buffer_width_ft
    req, _, text = _in_region(f, project, None if region is None else _measure(region),
                              f"wetland, watercourse or {buf:g}-ft buffer (buffer width: local setting)",
                              measures=measures, key="wetland_region")
    if req is False and len(known) < len(parts):  # a layer missing (or not covering): "no" is not known
        gone = [n for n, g in zip(("wetlands", "watercourses", "water bodies", "buffer"), parts, strict=True)
                if g is None]
        req, text = None, f"Unknown: the {', '.join(gone)} layer(s) are not loaded or do not cover the parcel."
    if req and project.activities:
        text += " Regulated activities: " + ", ".join(f"({a})" for a in project.activities) + " of § 402-57I."
    return Permit("wetland_permit", title, req, text, "§ 402-57G", authority, subs, clocks, ("§ 402-57I",))


def tree_removal_permit(project: Project, subdividable: bool | None) -> Permit:
    """§ 402-53B-D: tree removal needs a Planning Board permit, with the exemptions of § 402-53C."""
    title, cite, authority = "Tree removal permit", "§ 402-53B", "Planning Board (§ 402-53B)"
    clocks = (f"Granted for at most {value('tree_permit_max_term_years')} year; may be extended "
              f"{value('tree_permit_extension_years')} more years on a written request received before "
              "expiry (§ 402-53D).",)
    trees = project.trees_removed
    if trees is None:
        return Permit("tree_removal_permit", title, None, "Unknown: say how many trees will be removed.",
                      cite, authority, (), clocks)
    if trees == 0:
        return Permit("tree_removal_permit", title, False, "No trees are to be removed.", cite, authority)
    if project.application_type in ("site_plan", "subdivision"):
        return Permit("tree_removal_permit", title, False,
                      "Removal by a developer under the Planning Board's site plan or subdivision approval is "
                      "exempt (§ 402-53C(3)); the trees are reviewed in that approval.", "§ 402-53C(3)", authority)
    limit = int(value("tree_exempt_max_per_year"))
    if project.existing_use in ("one_family", "two_family"):
        if trees > limit:
            return Permit("tree_removal_permit", title, True,
                          f"{trees} trees exceed the {limit} a year exempt on one- or two-family lots "
                          "(§ 402-53C(2)).", cite, authority, (), clocks, ("§ 402-53C(2)",))
        if subdividable is None:
            return Permit("tree_removal_permit", title, None,
                          f"Up to {limit} trees a year are exempt on a one- or two-family lot that cannot be "
                          "subdivided into two or more conforming lots; whether this lot can is unknown.",
                          "§ 402-53C(2)", authority, (), clocks)
        if subdividable:
            return Permit("tree_removal_permit", title, True,
                          "The lot looks large enough for two or more conforming lots, so the two-tree exemption "
                          "does not apply (§ 402-53C(2)).", cite, authority, (), clocks, ("§ 402-53C(2)",))
        return Permit("tree_removal_permit", title, False,
                      f"{trees} tree(s) on a one- or two-family lot that cannot be subdivided: exempt, at most "
                      f"{limit} a year (§ 402-53C(2)).", "§ 402-53C(2)", authority)
    return Permit("tree_removal_permit", title, True, f"{trees} tree(s) to be removed (§ 402-53B).",
                  cite, authority, (), clocks)


def _land_development_acres(settings) -> float:
    return float(getattr(settings, "land_development_min_acres", 1.0))


def swppp(project: Project, settings) -> Permit:
    """§ 402-58E: an SWPPP before any land development activity is reviewed."""
    title, cite = "Stormwater pollution prevention plan (SWPPP)", "§ 402-58E"
    authority = "Village Engineer accepts and reviews, then forwards to the Planning Board (§ 402-58C(2))"
    d = project.disturbed_sqft
    threshold = _land_development_acres(settings)
    subs = _letters("§ 402-58E(1)", "abcdefghijklmnop")
    clocks = (f"Inspection reports every {value('swppp_inspection_interval_days')} days and within "
              f"{value('swppp_storm_inspection_hours')} hours of a storm of {value('swppp_storm_event_inches')} "
              "inches or more (§ 402-58G(1)(b)).",)
    if d is None:
        return Permit("swppp", title, None, "Unknown: give the disturbed area or draw the footprint.",
                      cite, authority, subs, clocks)
    if d / SQFT_PER_ACRE >= threshold:
        return Permit("swppp", title, True,
                      f"Disturbance of {_acres(d)} is a land development activity (at least {threshold:g} acre: "
                      "local setting, to confirm with the Village).", cite, authority, subs, clocks)
    return Permit("swppp", title, False,
                  f"Disturbance of {_acres(d)} is under {threshold:g} acre (local setting for 'land development "
                  "activity', to confirm with the Village).", cite, authority)


def swppp_post_construction(project: Project) -> Permit:
    """§ 402-58E(2): post-construction controls for Condition B (5 acres or more) and C (1 to 5 acres)."""
    title, authority = "Post-construction stormwater controls (SWPPP Conditions B/C)", "Village Engineer"
    d = project.disturbed_sqft
    b, c = float(value("swppp_condition_b_min_acres")), float(value("swppp_condition_c_min_acres"))
    subs = _letters("§ 402-58E(3)", "abcdefghi")
    if d is None:
        return Permit("swppp_post_construction", title, None, "Unknown: give the disturbed area.",
                      "§ 402-58E(2)", authority, subs)
    acres = d / SQFT_PER_ACRE
    if acres >= b:
        return Permit("swppp_post_construction", title, True,
                      f"{_acres(d)} disturbed: Condition B ({b:g} or more acres).", "§ 402-58E(2)(b)", authority,
                      subs)
    if acres >= c:
        if project.one_family_dwelling:
            return Permit("swppp_post_construction", title, False,
                          f"{_acres(d)} disturbed, but one-family dwellings are excluded from Condition C.",
                          "§ 402-58E(2)(c)", authority)
        if project.one_family_dwelling is None:
            return Permit("swppp_post_construction", title, None,
                          f"{_acres(d)} disturbed: Condition C applies unless this is a one-family dwelling.",
                          "§ 402-58E(2)(c)", authority, subs)
        return Permit("swppp_post_construction", title, True,
                      f"{_acres(d)} disturbed: Condition C (between {c:g} and {b:g} acres).", "§ 402-58E(2)(c)",
                      authority, subs)
    return Permit("swppp_post_construction", title, False,
                  f"{_acres(d)} disturbed: under {c:g} acre (Condition A, impaired waters, not assessed here).",
                  "§ 402-58E(2)", authority)


def biodiversity_study(project: Project, parcel_acres: float) -> Permit:
    """§ 402-54B: applications involving 10 acres or more, except a one-family dwelling."""
    p = param("biodiversity_threshold_acres")
    title, authority = "Highlands biodiversity study", "Planning Board (application not complete without it)"
    acres = project.application_area_acres if project.application_area_acres is not None else parcel_acres
    clocks = (f"A study is valid {value('biodiversity_study_valid_years')} years (§ 402-54B).",)
    if project.one_family_dwelling:
        return Permit("biodiversity_study", title, False, "The development of a one-family dwelling is excepted.",
                      p.citation, authority)
    req = biodiversity_required(acres, project.one_family_dwelling)
    if req is not False:
        text = f"The application involves {acres:,.2f} acres ({p.value:g} acres or more)."
        if req is None:
            text += " Required unless it is for a one-family dwelling."
        return Permit("biodiversity_study", title, req, text, p.citation, authority, ("§ 402-54B",), clocks)
    return Permit("biodiversity_study", title, False,
                  f"The application involves {acres:,.2f} acres, under {p.value:g} acres (the Board may still ask "
                  "for one under SEQRA).", p.citation, authority)


def _overlay_permit(pid, title, m: Measures, role, what, cite, authority, yes_text, clocks=()) -> Permit:
    area = m.areas[role]
    state = present(m, role)
    if area != area:
        return Permit(pid, title, None, f"Unknown: no {what} layer is loaded.", cite, authority, (), clocks)
    if state:
        return Permit(pid, title, True, yes_text.format(area=f"{area:,.0f}"), cite, authority, (), clocks)
    if state is None:
        return Permit(pid, title, None, f"Unknown: the {what} layer does not cover enough of the parcel.",
                      cite, authority, (), clocks)
    return Permit(pid, title, False, f"The parcel is not in the {what}.", cite, authority)


def permits_for(f: Findings, project: Project, *, settings, subdividable: bool | None,
                cluster_applies: bool | None, any_trigger: bool | None,
                measures: Measures | None = None) -> list[Permit]:
    """Every permit and review of `PERMIT_IDS`, in that order.

    ``measures`` is the parcel's measures record (`deductions.LotArea.measures`); the land-only answers
    are read from it (`land_permits` gives the same answers for the village screen).
    """
    m = measures if measures is not None else Measures(
        f.gross_area_sqft, {}, findings_areas(f), f.slope_area_sqft_in("unknown"), 0.0, {},
        findings_uncovered(f))
    parcel_acres = f.gross_area_sqft / SQFT_PER_ACRE
    out = [
        steep_slope_permit(f, project, m),
        wetland_permit(f, project, m),
        tree_removal_permit(project, subdividable),
        swppp(project, settings),
        swppp_post_construction(project),
        biodiversity_study(project, parcel_acres),
        _overlay_permit("nysdec_recreational_river", "NYSDEC recreational river review", m, "recreational_river",
                        "Ramapo River recreational river corridor", "§ 402-51C",
                        "NYSDEC (the Building Inspector notifies the applicant, § 402-51B)",
                        "{area} sq ft of the parcel is in the Ramapo recreational river corridor: a NYSDEC permit "
                        "or written exemption comes before any local approval."),
        _overlay_permit("rcda_review", "Rockland County Drainage Agency review", m, "rcda",
                        "Rockland County Drainage Agency stream jurisdiction", "§ 402-50B",
                        "Rockland County Drainage Agency; then the Planning Board or Building Inspector (§ 402-50B, C)",
                        "{area} sq ft is under the county drainage agency's jurisdiction: its requirements must be "
                        "met before final approval or a building permit."),
        _overlay_permit("flood_hazard_review", "Flood hazard area review", m, "floodplain",
                        "FEMA 100-year floodplain", "§ 402-49B",
                        "Village floodplain administrator under the separately adopted Flood Hazard Regulations",
                        "{area} sq ft is in the FEMA Special Flood Hazard Area (FIRMs effective March 3, 2014)."),
        _overlay_permit("seqra_cea", "SEQRA: impact on the Ramapo aquifer CEA", m, "aquifer_cea",
                        "Ramapo River Sole Source Aquifer CEA", "§ 402-46C",
                        "The SEQRA lead agency (usually the Planning Board)",
                        "{area} sq ft is in the critical environmental area: the CEA must be evaluated in the "
                        "determination of significance of any Type I or Unlisted action."),
        _cluster_review(cluster_applies, any_trigger),
        _wastewater(project),
        _excavation(project),
    ]
    return out


def _cluster_review(applies: bool | None, any_trigger: bool | None) -> Permit:
    title, cite, authority = "Cluster development review", "§ 402-48C", "Planning Board (§ 402-48C, D)"
    if applies is False:
        return Permit("cluster_review", title, False, "§ 402-48 does not apply to this application (§ 402-48B).",
                      "§ 402-48B", authority)
    if any_trigger and applies:
        return Permit("cluster_review", title, True,
                      "The property shows at least one sensitive feature of § 402-48C: the Planning Board may "
                      "require a cluster application.", cite, authority, ("§ 402-48E", "§ 402-48F"))
    if any_trigger is False and applies is not None:
        return Permit("cluster_review", title, False, "None of the ten features of § 402-48C is present.",
                      cite, authority)
    return Permit("cluster_review", title, None,
                  "Unknown until the application type, the district and every trigger are known.", cite, authority)


def _wastewater(project: Project) -> Permit:
    title, cite = "Approved wastewater disposal", "§ 402-56A"
    authority = "Rockland County Department of Health / Rockland County Sewer District (§ 402-56B, C)"
    needs = project.sanitary_facilities if project.sanitary_facilities is not None else None
    if project.new_structure is False or needs is False:
        return Permit("wastewater_approval", title, False, "No new structure needing sanitary facilities.",
                      cite, authority)
    if project.new_structure and needs:
        if project.public_sewer_available is False:
            return Permit("wastewater_approval", title, True,
                          "No public sewer: a private on-site system complying with the County Health Department "
                          "rules, making provision for planned sewers (§ 402-56B).", "§ 402-56B", authority)
        return Permit("wastewater_approval", title, True,
                      "A building permit for a new structure needing sanitary facilities needs an approved method "
                      "of wastewater disposal (§ 402-56A).", cite, authority, ("§ 402-56C",))
    return Permit("wastewater_approval", title, None,
                  "Unknown: say whether a new structure needs sanitary facilities.", cite, authority)


def _excavation(project: Project) -> Permit:
    title, cite = "Commercial excavation (prohibited)", "§ 402-52"
    authority = "Building Inspector (enforcement)"
    if project.commercial_excavation:
        return Permit("commercial_excavation_prohibited", title, True,
                      "Excavating soil, rock or aggregate for commercial sale is prohibited in the Village.",
                      cite, authority)
    if project.commercial_excavation is None:
        return Permit("commercial_excavation_prohibited", title, None,
                      "Unknown: say whether material is to be excavated for commercial sale.", cite, authority)
    return Permit("commercial_excavation_prohibited", title, False, "No excavation for commercial sale.",
                  cite, authority)

