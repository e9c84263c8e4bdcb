"""The typed result of one parcel's analysis (:class:`ParcelResult`) and its parts.

:func:`sloat_core.engine.analysis.analyze_parcel` builds it; the command line prints ``to_dict()`` as JSON
(its contract: the same keys, in the same order, as before the result was typed); saved cases and the answers
worked out ahead keep ``to_dict()`` and read it back with the strict ``from_dict()`` (a key unknown or missing
is refused: :class:`sloat_core.errors.ResultShapeError`).

Unknown stays None, with its reason beside it where the result gives one; a range stays a range (the net lot
area and its floor, the yield's lowest and highest). The permits are the rules' own
:class:`sloat_core.rules.sections.permit.Permit`, the cluster triggers the cluster section's
:class:`~sloat_core.rules.sections.s402_48_cluster.cluster.Trigger`. What the approvals package writes as
JSON of its own (the SEQR class, the county referral, the Village Law clocks, the wetland screens, the items
of the approvals list) stays that JSON: plain dicts, read as the approvals write them.

Every record is frozen: read it, do not change it (its dicts and lists too); ``to_dict()`` gives a copy that
may be changed.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass

from sloat_core.errors import ResultShapeError
from sloat_core.records import Record, day, json_copy, many, omitted, one
from sloat_core.rules.sections.permit import Permit
from sloat_core.rules.sections.s402_48_cluster.cluster import Trigger

__all__ = ["ParcelResult", "ParcelMeta", "DistrictArea", "Deduction", "DistrictPart", "ClusterLotRule",
           "OpenSpaceRule", "LotSizeWhatIf", "WhatIfCase", "DesignLimitCheck", "CitedItem", "Mitigation",
           "MitigationGate", "MitigationForms", "MonitoringYears", "AdjacentOwners", "AdjacentLot", "Footprint",
           "ApprovalGroup", "ApprovalsDetail", "parcel_result"]


@dataclass(frozen=True, slots=True)
class ParcelMeta(Record):
    """What the result repeats of the parcel (each key only when known)."""

    sbl: str | None = omitted()
    address: str | None = omitted()
    district: str | None = omitted()
    source: str | None = omitted()


@dataclass(frozen=True, slots=True)
class DistrictArea(Record):
    """One zoning district the parcel lies in and how much of it (largest first)."""

    district: str | None
    area_sqft: float


@dataclass(frozen=True, slots=True)
class Deduction(Record):
    """One row of the lot-area deduction table (§ 402-45A), as the result gives it.

    ``area_sqft`` None is unknown (``status`` "unknown"); ``known_area_sqft`` / ``known_deducted_sqft`` then say
    how much at least, where a layer maps part of the parcel. ``status`` "partial": a buffer built from only some
    water layers. ``coverage``: how the layer's coverage is known. ``note``: why a row is unknown or partial.
    """

    constraint: str
    label: str
    area_sqft: float | None
    total_area_sqft: float | None
    countable_fraction: float
    deducted_sqft: float | None
    citation: str
    status: str
    known_area_sqft: float | None = omitted()
    known_deducted_sqft: float | None = omitted()
    coverage: str | None = omitted()
    note: str | None = omitted()


@dataclass(frozen=True, slots=True)
class ClusterLotRule(Record):
    """§ 402-48F: the cluster lot minimum and yards of a district (None where the section sets none)."""

    district: str | None
    cluster_min_lot_area_sqft: float | None
    lot_rule: str
    min_yard_fraction: float | None
    yard_rule: str
    citation: str


@dataclass(frozen=True, slots=True)
class DistrictPart(Record):
    """One district part's figures (§ 402-48I), or the whole parcel's when it lies in one district (§ 402-48E):
    its net lot area as a range (``net_lot_area_min_sqft`` to ``net_lot_area_sqft``) and its yield."""

    district: str | None
    kind: str | None
    gross_area_sqft: float
    net_lot_area_sqft: float
    net_lot_area_min_sqft: float
    min_lot_area_sqft: float | None
    conventional_yield: int | None
    conventional_yield_min: int | None
    conventional_yield_max: int | None
    conventional_yield_status: str
    cluster: ClusterLotRule = one(ClusterLotRule)
    citation: str


@dataclass(frozen=True, slots=True)
class OpenSpaceRule(Record):
    """§ 402-48G(2): what a cluster's required open space may not include."""

    yard_exclusion_ft: float
    text: str
    quote: str
    citation: str


@dataclass(frozen=True, slots=True)
class WhatIfCase(Record):
    """The lot-size answer at one candidate minimum: meets (True / False / None unknown), and by how much short."""

    min_lot_area_sqft: float
    meets_min_lot_area: bool | None
    short_by_sqft: float | None


@dataclass(frozen=True, slots=True)
class LotSizeWhatIf(Record):
    """For a district without a minimum lot area: the answer at the candidate minimums (not the Village's)."""

    district: str
    cases: tuple[WhatIfCase, ...] = many(WhatIfCase)
    ask: str
    verify: bool
    effective: str
    version: str
    note: str


@dataclass(frozen=True, slots=True)
class DesignLimitCheck(Record):
    """§ 402-55J: one numeric design limit, the engineer's tick or the figure given (``met`` None: not checked)."""

    id: str
    citation: str
    text: str
    met: bool | None
    figure: float | None
    limit: float | None
    binding: bool
    comparison: str


@dataclass(frozen=True, slots=True)
class CitedItem(Record):
    """A clause of the law and its words."""

    citation: str
    text: str


@dataclass(frozen=True, slots=True)
class MitigationGate(Record):
    """§ 402-57P(1): the Board's three answers (True / False / None each) and what follows."""

    answers: dict
    met: bool | None
    text: str
    citation: str


@dataclass(frozen=True, slots=True)
class MitigationForms(Record):
    """§ 402-57P(3): the forms mitigation may take, for wetland and for buffer."""

    wetland: tuple[CitedItem, ...] = many(CitedItem)
    buffer: tuple[CitedItem, ...] = many(CitedItem)


@dataclass(frozen=True, slots=True)
class MonitoringYears(Record):
    """§ 402-57P(5): how many years a mitigation site is monitored."""

    min: int
    max: int
    citation: str


@dataclass(frozen=True, slots=True)
class Mitigation(Record):
    """§ 402-57P: the wetland replacement required for the impact, the shortfall, the gate and the plan's contents
    (None where the impact or the proposal is unknown)."""

    impacted_wetland_sqft: float | None
    impact_source: str
    impacted_buffer_sqft: float | None
    impacted_water_body_sqft: float | None
    water_body_note: str | None
    ratio: float
    required_mitigation_sqft: float | None
    proposed_mitigation_sqft: float | None
    shortfall_sqft: float | None
    meets_ratio: bool | None
    citation: str
    gate: MitigationGate = one(MitigationGate)
    siting: str
    forms: MitigationForms = one(MitigationForms)
    plan_contents: tuple[CitedItem, ...] = many(CitedItem)
    monitoring_years: MonitoringYears = one(MonitoringYears)


@dataclass(frozen=True, slots=True)
class AdjacentLot(Record):
    """A tax parcel adjacent to the wetland land of the work, and its owner of record where the layer names one."""

    sbl: str | None
    address: str | None
    owner: str | None


@dataclass(frozen=True, slots=True)
class AdjacentOwners(Record):
    """§ 402-57K(4): the owners of adjacent lands (``parcels`` None: unknown; ``applies`` True / False / None)."""

    citation: str
    radius_ft: float
    quote: str
    applies: bool | None
    parcels: tuple[AdjacentLot, ...] | None = many(AdjacentLot)
    owner_field: str | None
    owners_source: str | None
    reason: str
    illustrative: bool


@dataclass(frozen=True, slots=True)
class Footprint(Record):
    """What the drawn disturbance footprint touches where it lies (sq ft; None where the layer is missing)."""

    area_sqft: float
    inside_parcel_sqft: float
    outside_parcel_sqft: float
    wetlands_sqft: float | None
    watercourses_sqft: float | None
    water_bodies_sqft: float | None
    buffer_sqft: float | None
    floodplain_sqft: float | None
    slope_25_or_more_sqft: float | None
    slope_unknown_sqft: float


@dataclass(frozen=True, slots=True)
class ApprovalGroup(Record):
    """The approvals one body decides, in the order of the steps (items as the approvals package writes them)."""

    decides: str
    items: tuple[dict, ...] = many()


@dataclass(frozen=True, slots=True)
class ApprovalsDetail(Record):
    """The approvals around Article IX (state and federal law), as the approvals package writes them: the SEQR
    class, the county referral, the Village Law clocks, the wetland screens (``state``, ``federal``), the steps."""

    seqr: dict
    county_referral: dict
    village_law: dict
    wetland_screens: dict
    steps: dict
    to_confirm: tuple[str, ...] = many()
    notice: str
    state_law_version: str
    estimate: str


@dataclass(frozen=True, slots=True)
class ParcelResult(Record):
    """One parcel through every Article IX rule (see the module). ``to_dict()`` is the command line's JSON.

    The net lot area is a range: ``net_lot_area_min_sqft`` (every unknown constrained) to ``net_lot_area_sqft``
    (every unknown unconstrained); so is the yield (``conventional_yield_min`` / ``_max``, ``conventional_yield``
    only when ``conventional_yield_status`` is "known"). ``state_wetlands`` is the approvals' state wetland
    screen (``approvals_detail.wetland_screens["state"]``), written under a key of its own.
    """

    as_of: _dt.date = day()
    parcel: ParcelMeta = one(ParcelMeta)
    district: str | None
    districts: tuple[DistrictArea, ...] = many(DistrictArea)
    district_kind: str | None
    gross_area_sqft: float
    gross_area_acres: float
    deductions: tuple[Deduction, ...] = many(Deduction)
    deducted_sqft: float
    net_lot_area_sqft: float
    net_lot_area_min_sqft: float
    net_lot_area_acres: float
    min_lot_area_sqft: float | None
    min_lot_area_verify: bool | None
    meets_min_lot_area: bool | None
    lot_area_citation: str
    conventional_yield: int | None
    conventional_yield_min: int | None
    conventional_yield_max: int | None
    conventional_yield_status: str
    yield_caveat: str
    yield_citation: str
    conventional_yield_text: str
    cluster_open_space: OpenSpaceRule | None = one(OpenSpaceRule)
    per_district: tuple[DistrictPart, ...] = many(DistrictPart)
    #: Land in each slope class ("0-15", "15-25", "25-40", "over_40", "unknown"), sq ft.
    slope_area_sqft: dict
    buffer_width_ft: float
    buffer_around_water_bodies: bool
    buffer_note: str
    cluster_applies: bool | None
    cluster_applies_reason: str
    cluster_triggers: tuple[Trigger, ...] = many(Trigger)
    permits: tuple[Permit, ...] = many(Permit)
    project_described: bool
    #: The permits the land alone answers (no project described): what the parcel carries for any later work.
    land_permits: tuple[Permit, ...] = many(Permit)
    min_lot_area_what_if: LotSizeWhatIf | None = one(LotSizeWhatIf)
    steep_slope_design_limits: tuple[DesignLimitCheck, ...] = many(DesignLimitCheck)
    mitigation: Mitigation | None = one(Mitigation)
    adjacent_owners: AdjacentOwners | None = one(AdjacentOwners)
    footprint: Footprint | None = one(Footprint)
    warnings: tuple[str, ...] = many()
    disclaimer: str
    layers_name: str | None
    layers_version: str | None
    layers_illustrative: bool | None
    layers_notice: str | None
    params_version: str
    tool_version: str
    approvals: tuple[ApprovalGroup, ...] = many(ApprovalGroup)
    approvals_detail: ApprovalsDetail | None = one(ApprovalsDetail)

    @property
    def state_wetlands(self) -> dict | None:
        """The state wetland screen (ECL Article 24) of the approvals, as they write it."""
        return None if self.approvals_detail is None else self.approvals_detail.wetland_screens.get("state")

    def permit(self, permit_id: str) -> Permit | None:
        """The answer of one permit or review by its id, else None."""
        return next((p for p in self.permits if p.id == permit_id), None)

    def to_dict(self) -> dict:
        out = Record.to_dict(self)
        out["state_wetlands"] = json_copy(self.state_wetlands)
        return out

    @classmethod
    def from_dict(cls, d) -> ParcelResult:
        if not isinstance(d, Mapping):
            raise ResultShapeError(f"ParcelResult: expected a dict, got {type(d).__name__}.")
        if "state_wetlands" not in d:
            raise ResultShapeError("ParcelResult: missing key 'state_wetlands'.")
        rest = {k: v for k, v in d.items() if k != "state_wetlands"}
        out = Record.from_dict.__func__(cls, rest)
        if d["state_wetlands"] != out.state_wetlands:
            raise ResultShapeError("ParcelResult: 'state_wetlands' is not the approvals' state wetland screen.")
        return out


def parcel_result(result: ParcelResult | Mapping) -> ParcelResult:
    """``result`` as the typed result: itself, or a result dict (``to_dict()``: the command line's JSON, a saved
    case's snapshot) read back strictly. The door for the readers that may be handed the dict (the printed
    documents); the core's own readers take the typed result."""
    return result if isinstance(result, ParcelResult) else ParcelResult.from_dict(result)

