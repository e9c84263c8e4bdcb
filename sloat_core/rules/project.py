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

from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import area_sqft, geojson_to_work
from sloat_core.validate import number

__all__ = ["Project", "parse_project", "APPLICATION_TYPES", "EXISTING_USES", "REGULATED_ACTIVITIES"]

APPLICATION_TYPES = ("building_permit", "site_plan", "subdivision", "special_permit")
EXISTING_USES = ("vacant", "one_family", "two_family", "other")
#: § 402-57I lists thirteen regulated activities, numbered (1) to (13).
REGULATED_ACTIVITIES = tuple(range(1, 14))
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
    if v is None:
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in ("yes", "true", "no", "false"):
        return v.strip().lower() in ("yes", "true")
    raise SloatInputError(f"The answer to '{LABELS[key]}' must be yes or no.")


def _number(obj: dict, key: str, *, maximum: float, integer: bool = False) -> float | int | None:
    return number(obj.get(key), LABELS[key], maximum=maximum, integer=integer)


def _choice(obj: dict, key: str, choices: tuple[str, ...]) -> str | None:
    v = obj.get(key)
    if v is None or v == "":
        return None
    if not isinstance(v, str) or v not in choices:
        raise SloatInputError(f"The {LABELS[key]} must be one of: {', '.join(c.replace('_', ' ') for c in choices)}.")
    return v


def parse_project(obj: dict | None) -> Project:
    """Validate a project description; raises SloatInputError naming the bad field."""
    if obj is None:
        return Project()
    if not isinstance(obj, dict):
        raise SloatInputError("The project description must be a JSON object.")
    known = set(Project.__dataclass_fields__)
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
    )
