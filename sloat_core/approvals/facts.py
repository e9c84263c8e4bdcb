"""The project facts the approvals around Article IX need, read from the same PROJECT.json dict.

They sit beside the Article IX fields of :class:`sloat_core.rules.project.Project` (flat keys of the
same JSON object); every key is optional and what is not given stays ``None`` ("unknown").

>>> f = parse_approval_facts({"lots": 30, "public_water_sewer": True, "trees_removed": 3})
>>> f.lots, f.public_water_sewer, f.accessory_structure
(30, True, None)
>>> parse_approval_facts({"accessory_structure": "garage"}).accessory_structure
'garage'
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import asdict, dataclass

from sloat_core.errors import SloatInputError
from sloat_core.validate import number

__all__ = ["ApprovalFacts", "parse_approval_facts", "APPROVAL_FIELDS", "ACCESSORY_KINDS", "VARIANCE_TYPES"]

#: § 617.5(c)'s examples of minor accessory or appurtenant residential structures.
ACCESSORY_KINDS = ("garage", "carport", "patio", "deck", "swimming_pool", "tennis_court", "satellite_dish",
                   "fence", "barn", "storage_shed", "other")
VARIANCE_TYPES = ("area", "use", "setback_or_lot_line")

LABELS = {
    "variance": "variance requested",
    "lots": "number of lots in the subdivision",
    "dwelling_units": "number of new dwelling units",
    "residence_families": "families the house is for (1, 2 or 3 ...)",
    "on_approved_lot": "house on an approved lot",
    "accessory_structure": "minor accessory residential structure",
    "maintenance_only": "maintenance or repair only",
    "public_water_sewer": "connected to existing public or community water and sewer",
    "parkland_contiguous": "within or substantially contiguous to public parkland",
    "residential": "residential project",
    "application_complete_date": "date the application was complete",
    "hearing_closed_date": "date the public hearing closed",
    "decision_date": "date of the board's decision",
    "final_plat_signed_date": "date the final plat was signed",
    "county_received_date": "date the county received the full statement",
}
#: The PROJECT.json keys read here.
APPROVAL_FIELDS = tuple(LABELS)
_MAX_LOTS = 100_000


@dataclass(frozen=True)
class ApprovalFacts:
    variance: str | None = None
    lots: int | None = None
    dwelling_units: int | None = None
    residence_families: int | None = None
    on_approved_lot: bool | None = None
    #: True, or one of ACCESSORY_KINDS; False when the work is not one.
    accessory_structure: bool | str | None = None
    maintenance_only: bool | None = None
    public_water_sewer: bool | None = None
    parkland_contiguous: bool | None = None
    residential: bool | None = None
    application_complete_date: _dt.date | None = None
    hearing_closed_date: _dt.date | None = None
    decision_date: _dt.date | None = None
    final_plat_signed_date: _dt.date | None = None
    county_received_date: _dt.date | None = None

    def to_dict(self) -> dict:
        return {k: (v.isoformat() if isinstance(v, _dt.date) else v) for k, v in asdict(self).items()}


def _bool(obj: dict, key: str) -> bool | None:
    v = obj.get(key)
    if v is None or v == "":
        return None
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in ("yes", "true", "no", "false"):
        return v.strip().lower() in ("yes", "true")
    raise SloatInputError(f"The answer to '{LABELS[key]}' must be yes or no.")


def _date(obj: dict, key: str) -> _dt.date | None:
    v = obj.get(key)
    if v is None or v == "":
        return None
    if isinstance(v, _dt.date) and not isinstance(v, _dt.datetime):
        return v
    if isinstance(v, str) and len(v.strip()) == 10:
        try:
            d = _dt.date.fromisoformat(v.strip())
        except ValueError:
            d = None
        if d is not None and 1900 <= d.year <= 2199:
            return d
    raise SloatInputError(f"The {LABELS[key]} must be a date written YYYY-MM-DD.")


def _count(obj: dict, key: str, minimum: int = 0) -> int | None:
    n = number(obj.get(key), LABELS[key], maximum=_MAX_LOTS, integer=True)
    if n is not None and n < minimum:
        raise SloatInputError(f"The {LABELS[key]} must be at least {minimum}.")
    return n


def parse_approval_facts(obj: dict | None) -> ApprovalFacts:
    """The approval facts of a project description (other keys are ignored here); SloatInputError when wrong."""
    if obj is None:
        return ApprovalFacts()
    if not isinstance(obj, dict):
        raise SloatInputError("The project description must be a JSON object.")
    variance = obj.get("variance")
    if variance in (None, ""):
        variance = None
    elif variance not in VARIANCE_TYPES:
        raise SloatInputError(f"The {LABELS['variance']} must be one of: {', '.join(VARIANCE_TYPES)}.")
    acc = obj.get("accessory_structure")
    if isinstance(acc, str) and acc.strip().lower().replace(" ", "_") in ACCESSORY_KINDS:
        acc = acc.strip().lower().replace(" ", "_")
    else:
        acc = _bool(obj, "accessory_structure") if acc is not None else None
    facts = ApprovalFacts(
        variance=variance,
        lots=_count(obj, "lots", 1),
        dwelling_units=_count(obj, "dwelling_units"),
        residence_families=_count(obj, "residence_families", 1),
        on_approved_lot=_bool(obj, "on_approved_lot"),
        accessory_structure=acc,
        maintenance_only=_bool(obj, "maintenance_only"),
        public_water_sewer=_bool(obj, "public_water_sewer"),
        parkland_contiguous=_bool(obj, "parkland_contiguous"),
        residential=_bool(obj, "residential"),
        application_complete_date=_date(obj, "application_complete_date"),
        hearing_closed_date=_date(obj, "hearing_closed_date"),
        decision_date=_date(obj, "decision_date"),
        final_plat_signed_date=_date(obj, "final_plat_signed_date"),
        county_received_date=_date(obj, "county_received_date"),
    )
    if facts.application_complete_date and facts.hearing_closed_date \
            and facts.hearing_closed_date < facts.application_complete_date:
        raise SloatInputError("The public hearing cannot close before the application was complete.")
    if facts.hearing_closed_date and facts.decision_date and facts.decision_date < facts.hearing_closed_date:
        raise SloatInputError("The board's decision cannot come before the public hearing closed.")
    return facts
