"""A proposed project, as the CLI's PROJECT.json or the app's form describes it.

Every key is optional; what is not given stays ``None`` and the rules answer "unknown" where it matters.

>>> p = parse_project({"application_type": "site_plan", "trees_removed": 3})
>>> p.application_type, p.trees_removed, p.one_family_dwelling
('site_plan', 3, None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry.base import BaseGeometry

from sloat_core.approvals.facts import APPROVAL_FIELDS, ApprovalFacts, parse_approval_facts
from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import area_sqft, geojson_to_work
from sloat_core.validate import number

__all__ = ["Project", "parse_project", "APPLICATION_TYPES", "EXISTING_USES", "SWPPP_EXEMPTIONS"]

APPLICATION_TYPES = ("building_permit", "site_plan", "subdivision", "special_permit")
EXISTING_USES = ("vacant", "one_family", "two_family", "other")
#: § 402-58D lists ten activities that "may be exempt", (1) to (10). (The activities of § 402-57H and I are
#: declared with the wetland permit: `rules.sections.s402_57_wetlands.activities`.)
SWPPP_EXEMPTIONS = tuple(range(1, 11))
#: Plain names of the fields, for messages a resident can read.
LABELS = {
    "application_type": "type of application",
    "new_structure": "new structure",
    "one_family_dwelling": "one-family dwelling",
    "existing_use": "existing use",
    "disturbance_footprint": "disturbance footprint",
    "disturbance_area_sqft": "disturbed area (sq ft)",
    "application_area_acres": "application area (acres)",
    "trees_removed": "number of trees to remove",
    "sanitary_facilities": "sanitary facilities",
    "public_sewer_available": "public sewer available",
    "commercial_excavation": "excavation for commercial sale",
    "activities": "regulated activities",
    "landscaping_only": "customary landscaping only",
    "wetland_exemptions": "wetland exemptions claimed (§ 402-57H)",
    "swppp_exemptions": "stormwater exemptions claimed (§ 402-58D)",
    "grandfathered": "final approval before the wetland law took effect (§ 402-57F)",
    "public_agency_work": "tree removal by a public agency for highway or utility work (§ 402-53C(1))",
    "hazard_trees_only": "only dead or dying trees posing an imminent hazard (§ 402-53C(4))",
    "road_extension": "road extension (§ 402-56D)",
    "design_limits": "steep slope design limits met (§ 402-55J)",
    "design_figures": "steep slope design figures (§ 402-55J)",
    "substantial_specimens_removed": "substantial tree specimens among the trees removed (§ 402-53A)",
    "disturbed_at_one_time_acres": "most acres disturbed at any one time (§ 402-58E(1)(d))",
    "impaired_water_drainage": ("runoff drains to a 303(d)-listed impaired water or a TMDL watershed "
                                "(§ 402-58E(2)(a), Condition A)"),
}
#: Largest number accepted for counts and areas (larger is a typing error, not a project).
_MAX_AREA_SQFT = 1e9
_MAX_TREES = 1_000_000


@dataclass(frozen=True)
class Project:
    application_type: str | None = None
    new_structure: bool | None = None
    one_family_dwelling: bool | None = None
    existing_use: str | None = None
    disturbance_footprint: BaseGeometry | None = None  # EPSG:2260
    disturbance_area_sqft: float | None = None
    application_area_acres: float | None = None
    trees_removed: int | None = None
    sanitary_facilities: bool | None = None
    public_sewer_available: bool | None = None
    commercial_excavation: bool | None = None
    activities: tuple[int, ...] | None = None
    landscaping_only: bool | None = None
    #: Exempt activities the applicant claims, by their number in § 402-57H / § 402-58D.
    wetland_exemptions: tuple[int, ...] | None = None
    swppp_exemptions: tuple[int, ...] | None = None
    grandfathered: bool | None = None
    public_agency_work: bool | None = None
    hazard_trees_only: bool | None = None
    road_extension: bool | None = None
    #: The engineer's figures for § 402-55J(7), (11), (13), (14): {figure key: number} (keys of
    #: rules.sections.s402_55_steep_slopes.design.DESIGN_FIGURES), compared with the law's numbers.
    design_figures: tuple[tuple[str, float], ...] | None = None
    #: The engineer's ticks of the § 402-55J checklist: {limit id: met?} (ids of `s402_55_steep_slopes.design.DESIGN_LIMITS`).
    design_limits: tuple[tuple[str, bool | None], ...] | None = None
    #: Does the runoff discharge a pollutant of concern to a 303(d)-listed impaired water or a TMDL watershed
    #: (§ 402-58E(2)(a), Condition A)? None: not assessed (never "no").
    impaired_water_drainage: bool | None = None
    #: How many of the trees removed are substantial tree specimens (§ 402-53A); the permit does not turn on it.
    substantial_specimens_removed: int | None = None
    #: The most land disturbed at any one time, in acres (the phasing plan, § 402-58E(1)(d)).
    disturbed_at_one_time_acres: float | None = None
    #: The facts the approvals around Article IX read (SEQR, county referral, Village Law clocks): flat keys.
    approvals: ApprovalFacts = ApprovalFacts()

    @property
    def disturbed_sqft(self) -> float | None:
        """Disturbed area: the footprint's area when drawn, else the typed figure."""
        if self.disturbance_footprint is not None:
            return area_sqft(self.disturbance_footprint)
        return self.disturbance_area_sqft

    @property
    def needs_planning_board(self) -> bool | None:
        """Site plan, subdivision and special permit applications go to the Planning Board."""
        if self.application_type is None:
            return None
        return self.application_type in ("site_plan", "subdivision", "special_permit")


def _bool(obj: dict, key: str) -> bool | None:
    v = obj.get(key)
    if v is None or (isinstance(v, str) and v.strip().lower() in ("", "unknown")):
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in ("yes", "true", "no", "false"):
        return v.strip().lower() in ("yes", "true")
    raise SloatInputError(f"The answer to '{LABELS[key]}' must be yes, no or unknown.")


def _number(obj: dict, key: str, *, maximum: float, integer: bool = False) -> float | int | None:
    return number(obj.get(key), LABELS[key], maximum=maximum, integer=integer)


def _choice(obj: dict, key: str, choices: tuple[str, ...]) -> str | None:
    v = obj.get(key)
    if v is None or v == "":
        return None
    if not isinstance(v, str) or v not in choices:
        raise SloatInputError(f"The {LABELS[key]} must be one of: {', '.join(c.replace('_', ' ') for c in choices)}.")
    return v


def _numbers(obj: dict, key: str, allowed: tuple[int, ...], section: str) -> tuple[int, ...] | None:
    """A list of clause numbers of ``section`` (e.g. [1, 3] for § 402-57H(1) and (3)), sorted, once each."""
    values = obj.get(key)
    if values is None:
        return None
    lo, hi = allowed[0], allowed[-1]
    what = f"The {LABELS[key]} must be a list of numbers {lo} to {hi} ({section})."
    if not isinstance(values, (list, tuple)):
        raise SloatInputError(what)
    parsed = []
    for a in values:
        if isinstance(a, bool) or not isinstance(a, (int, float, str)):
            raise SloatInputError(what)
        try:
            n = int(str(a).strip())
        except ValueError:
            raise SloatInputError(what) from None
        if n not in allowed:
            raise SloatInputError(f"There is no item ({n}) in {section}; use {lo} to {hi}.")
        parsed.append(n)
    return tuple(sorted(set(parsed)))


def _design_limits(obj: dict) -> tuple[tuple[str, bool | None], ...] | None:
    from sloat_core.rules.sections.s402_55_steep_slopes.design import DESIGN_LIMITS

    raw = obj.get("design_limits")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise SloatInputError("The steep slope design limits must map each limit to yes or no (§ 402-55J).")
    bad = sorted(set(raw) - set(DESIGN_LIMITS))
    if bad:
        raise SloatInputError(f"There is no design limit '{bad[0]}'; use {', '.join(DESIGN_LIMITS)}.")
    out = []
    for k in DESIGN_LIMITS:
        if k in raw:
            out.append((k, _bool({"design_limits": raw[k]}, "design_limits")))
    return tuple(out)


#: Largest design figure accepted (feet, or feet horizontal per foot vertical): larger is a typing error.
_MAX_DESIGN_FIGURE = 100_000.0


def _design_figures(obj: dict) -> tuple[tuple[str, float], ...] | None:
    from sloat_core.rules.sections.s402_55_steep_slopes.design import DESIGN_FIGURES

    raw = obj.get("design_figures")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise SloatInputError("The steep slope design figures must map each figure to a number (§ 402-55J).")
    bad = sorted(set(map(str, raw)) - set(DESIGN_FIGURES))
    if bad:
        raise SloatInputError(f"There is no design figure '{bad[0][:40]}'; use {', '.join(DESIGN_FIGURES)}.")
    out = []
    for k, (label, _unit) in DESIGN_FIGURES.items():
        x = number(raw.get(k), label, maximum=_MAX_DESIGN_FIGURE)
        if x is not None:
            out.append((k, float(x)))
    return tuple(out) or None


def _specimens(obj: dict) -> int | None:
    n = _number(obj, "substantial_specimens_removed", maximum=_MAX_TREES, integer=True)
    trees = _number(obj, "trees_removed", maximum=_MAX_TREES, integer=True)
    if n is not None and trees is not None and n > trees:
        raise SloatInputError("The substantial tree specimens removed cannot be more than the trees removed.")
    return n


def parse_project(obj: dict | None) -> Project:
    """Validate a project description; raises SloatInputError naming the bad field."""
    from sloat_core.rules.sections.s402_57_wetlands.activities import REGULATED_ACTIVITIES, WETLAND_EXEMPTIONS

    if obj is None:
        return Project()
    if not isinstance(obj, dict):
        raise SloatInputError("The project description must be a JSON object.")
    known = (set(Project.__dataclass_fields__) - {"approvals"}) | set(APPROVAL_FIELDS)
    unknown = sorted(set(obj) - known)
    if unknown:
        raise SloatInputError(f"The project description has unknown field(s): {', '.join(unknown[:5])}.")
    footprint = None
    if obj.get("disturbance_footprint") is not None:
        if not isinstance(obj["disturbance_footprint"], dict):
            raise SloatInputError("The disturbance footprint must be a GeoJSON geometry.")
        footprint = geojson_to_work(obj["disturbance_footprint"])
        if footprint.is_empty or footprint.area <= 0:
            raise SloatInputError("The disturbance footprint has no area.")
        if not math.isfinite(footprint.area) or footprint.area > _MAX_AREA_SQFT:
            raise SloatInputError("The disturbance footprint is too large to be real; draw only the area of work.")
    activities = obj.get("activities")
    if activities is not None:
        if not isinstance(activities, (list, tuple)):
            raise SloatInputError("The regulated activities must be a list of numbers 1 to 13 (§ 402-57I).")
        parsed = []
        for a in activities:
            if isinstance(a, bool) or not isinstance(a, (int, float, str)):
                raise SloatInputError("Each regulated activity must be a number 1 to 13 (§ 402-57I).")
            try:
                n = int(str(a).strip())
            except ValueError:
                raise SloatInputError("Each regulated activity must be a number 1 to 13 (§ 402-57I).") from None
            if n not in REGULATED_ACTIVITIES:
                raise SloatInputError(f"There is no regulated activity ({n}) in § 402-57I; use 1 to 13.")
            parsed.append(n)
        activities = tuple(sorted(set(parsed)))
    return Project(
        application_type=_choice(obj, "application_type", APPLICATION_TYPES),
        new_structure=_bool(obj, "new_structure"),
        one_family_dwelling=_bool(obj, "one_family_dwelling"),
        existing_use=_choice(obj, "existing_use", EXISTING_USES),
        disturbance_footprint=footprint,
        disturbance_area_sqft=_number(obj, "disturbance_area_sqft", maximum=_MAX_AREA_SQFT),
        application_area_acres=_number(obj, "application_area_acres", maximum=_MAX_AREA_SQFT / 43_560),
        trees_removed=_number(obj, "trees_removed", maximum=_MAX_TREES, integer=True),
        sanitary_facilities=_bool(obj, "sanitary_facilities"),
        public_sewer_available=_bool(obj, "public_sewer_available"),
        commercial_excavation=_bool(obj, "commercial_excavation"),
        activities=activities,
        landscaping_only=_bool(obj, "landscaping_only"),
        wetland_exemptions=_numbers(obj, "wetland_exemptions", WETLAND_EXEMPTIONS, "§ 402-57H"),
        swppp_exemptions=_numbers(obj, "swppp_exemptions", SWPPP_EXEMPTIONS, "§ 402-58D"),
        grandfathered=_bool(obj, "grandfathered"),
        public_agency_work=_bool(obj, "public_agency_work"),
        hazard_trees_only=_bool(obj, "hazard_trees_only"),
        road_extension=_bool(obj, "road_extension"),
        impaired_water_drainage=_bool(obj, "impaired_water_drainage"),
        substantial_specimens_removed=_specimens(obj),
        disturbed_at_one_time_acres=_number(obj, "disturbed_at_one_time_acres", maximum=_MAX_AREA_SQFT / 43_560),
        design_figures=_design_figures(obj),
        design_limits=_design_limits(obj),
        approvals=parse_approval_facts(obj),
    )
