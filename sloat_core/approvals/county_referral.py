"""County referral under General Municipal Law § 239-m (zoning actions) and § 239-n (subdivision plats).

A site plan, special use permit, use or area variance or other zoning authorization (§ 239-m(3)(a)) and a
subdivision plat (§ 239-n) must be referred to the county planning agency (the Rockland County Department
of Planning) before final action when the land lies within 500 ft of one of the triggers the statute names
(§ 239-m(3)(b)(i)-(vi)). :func:`county_referral` measures the distance from the parcel to each trigger's
layer in US survey feet (EPSG:2260) and answers each yes / no / unknown:

* yes: a feature of the layer lies within the distance ("within": exactly 500 ft is within);
* no: the layer is loaded, covers all land within the distance of the parcel, and has nothing there;
* unknown: the layer is missing, or does not cover all that land (with the reason).

Readings (README "Readings"): a parcel inside the village is measured to the village boundary line (the
boundary of the village *and* of its neighbours), named for the municipality across it ("the parcel is 180 ft
from the Town of Ramapo line": the boundary layer's NEIGHBOUR field, else the dated ``municipal_neighbours``
setting); the Rockland County Drainage Agency's streams (`rcda`) are
the "stream or drainage channel owned by the county or for which the county has established channel lines";
the farm trigger does not apply to an area variance (§ 239-m(3)(b)(vi)).

The county has 30 days from receipt of a full statement (the application with the completed EAF) to report
(§ 239-m(4)(b)); a recommendation to modify or disapprove is overridden only by a majority plus one of all
the members (§ 239-m(5)). Every number is a dated setting (``data/settings/state_law.yaml``).
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.law import calendar as cal
from sloat_core.approvals.facts import ApprovalFacts
from sloat_core.approvals.state_law import neighbours_on, state_param, verify_word
from sloat_core.gis.geometry import work_to_geojson

__all__ = ["TRIGGERS", "Trigger", "TriggerAnswer", "ReferralResult", "county_referral", "referral_actions",
           "referral_statute", "statute_clause", "distance_to_role", "boundary_line_name", "trigger_bands",
           "referral_bands_geojson"]

#: Distances are reported to a tenth of a foot; the comparison itself uses the unrounded distance.
#: A boundary layer whose features name the municipality across their part of the line.
_NEIGHBOUR_FIELDS = ("NEIGHBOUR", "NEIGHBOR", "ADJ_MUNI")
_NAME_FIELDS = ("NAME", "Name", "name", "PARK_NAME", "ROAD_NAME", "FARM_NAME", "FACILITY", "ROUTE")


@dataclass(frozen=True)
class Trigger:
    id: str
    role: str
    label: str
    clause: str
    #: Applies to an area variance (the farm trigger does not).
    area_variance: bool = True


TRIGGERS: tuple[Trigger, ...] = (
    Trigger("municipal_boundary", "village_boundary", "the boundary of a city, village or town",
            "GML § 239-m(3)(b)(i)"),
    Trigger("parkland", "parkland", "the boundary of a state or county park or other recreation area",
            "GML § 239-m(3)(b)(ii)"),
    Trigger("state_county_road", "state_county_roads",
            "the right-of-way of a state or county parkway, thruway, expressway, road or highway",
            "GML § 239-m(3)(b)(iii)"),
    Trigger("county_stream", "rcda", "the right-of-way of a county-owned stream or drainage channel",
            "GML § 239-m(3)(b)(iv)"),
    Trigger("public_institution", "public_institutions",
            "the boundary of state or county land on which a public building or institution stands",
            "GML § 239-m(3)(b)(v)"),
    Trigger("farm_in_ag_district", "ag_district_farms", "the boundary of a farm operation in an agricultural district",
            "GML § 239-m(3)(b)(vi)", area_variance=False),
)


@dataclass(frozen=True)
class TriggerAnswer:
    trigger: str
    label: str
    clause: str
    answer: str  # "yes" | "no" | "unknown" | "not_applicable"
    distance_ft: float | None
    nearest: str | None
    reason: str
    source: str | None = None

    def to_dict(self) -> dict:
        return {"trigger": self.trigger, "label": self.label, "clause": self.clause, "answer": self.answer,
                "distance_ft": None if self.distance_ft is None else round(self.distance_ft, 1),
                "nearest": self.nearest, "reason": self.reason, "source": self.source}


@dataclass(frozen=True)
class ReferralResult:
    required: bool | None
    statute: str | None  # "GML § 239-m" or "GML § 239-n" (None when no referable action is named)
    actions: tuple[str, ...]
    headline: str
    distance_ft: float
    triggers: tuple[TriggerAnswer, ...]
    clock: dict | None
    override_rule: str
    checklist: tuple[str, ...]
    verify: tuple[str, ...] = ()
    events: tuple = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {"required": self.required, "statute": self.statute, "actions": list(self.actions),
                "headline": self.headline, "distance_ft": self.distance_ft,
                "triggers": [t.to_dict() for t in self.triggers], "clock": self.clock,
                "override_rule": self.override_rule, "checklist": list(self.checklist),
                "to_confirm": list(self.verify),
                "estimate": "Screening estimate from the layers: the Village decides whether to refer."}


def referral_actions(application_type: str | None, variance: str | None) -> tuple[str, ...]:
    """The referable actions of a project: ``site_plan``, ``special_permit``, ``area_variance``,
    ``use_variance``, ``subdivision`` (a building permit alone is not referred).

    >>> referral_actions("subdivision", "area")
    ('subdivision', 'area_variance')
    """
    out = []
    if application_type in ("site_plan", "special_permit", "subdivision"):
        out.append(application_type)
    if variance == "area" or variance == "setback_or_lot_line":
        out.append("area_variance")
    elif variance == "use":
        out.append("use_variance")
    return tuple(out)


def _target_geoms(layerset, role: str) -> np.ndarray | None:
    if role == "village_boundary":
        village = layerset.village_boundary
        return None if village is None else np.asarray([village.boundary], dtype=object)
    lyr = layerset.get(role)
    return None if lyr is None else lyr.geoms


def _line_of(name: str) -> str:
    """``"Town of Ramapo"`` -> ``"the Town of Ramapo line"``."""
    name = " ".join(str(name).split())
    return f"{'' if name.lower().startswith('the ') else 'the '}{name} line"


def boundary_line_name(parcel: BaseGeometry, layerset, on: _dt.date) -> tuple[str, bool]:
    """The municipal line nearest the parcel, named for the municipality across it, and whether the name is
    a setting to confirm: from the boundary layer's features (a NEIGHBOUR, NEIGHBOR or ADJ_MUNI field), else
    from the dated ``municipal_neighbours`` setting (the sector of the line, seen from the village's centre,
    that holds the nearest point), else ``"the village boundary"``."""
    village = layerset.village_boundary
    lyr = layerset.get("village_boundary")
    labels = None if lyr is None else lyr.labels(_NEIGHBOUR_FIELDS)
    if labels is not None and len(lyr.geoms) and any(labels):
        d = shapely.distance(shapely.boundary(lyr.geoms), parcel)
        d = np.where(np.isnan(d) | np.asarray([not v for v in labels]), np.inf, d)
        i = int(np.argmin(d))
        if np.isfinite(d[i]):
            return _line_of(labels[i]), False
    if village is not None and not village.contains(parcel.representative_point()):
        own = None if lyr is None else lyr.labels(("NAMELSAD", "NAME"))  # a parcel outside: the village's own line
        named = next((v for v in (own if own is not None else []) if v), None)
        return (_line_of(named) if named else "the village boundary"), False
    nset = neighbours_on(on)
    if village is None or nset is None:
        return "the village boundary", False
    from shapely.ops import nearest_points  # noqa: PLC0415

    point = nearest_points(village.boundary, parcel)[0]
    centre = village.centroid
    bearing = math.degrees(math.atan2(point.x - centre.x, point.y - centre.y)) % 360.0
    return _line_of(nset.across(bearing).name), nset.verify


def distance_to_role(parcel: BaseGeometry, layerset, role: str,
                     on: _dt.date) -> tuple[float | None, str | None]:
    """The distance in feet (EPSG:2260) from the parcel to the nearest feature of ``role`` and its name.

    ``(None, None)`` when the layer is missing or empty. The village boundary is measured to its line, named
    for the municipality across it (:func:`boundary_line_name`).
    """
    geoms = _target_geoms(layerset, role)
    if geoms is None or len(geoms) == 0:
        return None, None
    dists = shapely.distance(geoms, parcel)
    dists = np.where(np.isnan(dists), np.inf, dists)  # an empty feature is at no distance
    i = int(np.argmin(dists))
    if not np.isfinite(dists[i]):
        return None, None
    name = None
    if role == "village_boundary":
        name, _ = boundary_line_name(parcel, layerset, on)
    else:
        lyr = layerset.get(role)
        labels = lyr.labels(_NAME_FIELDS)
        if labels is not None:
            name = labels[i]
        route = lyr.labels(("ROUTE",))  # a road inventory's route number beside its name: "NY 17 (Orange Tpke)"
        if route is not None and route[i] and route[i] != name:
            name = f"{route[i]} ({name})" if name else route[i]
    return float(dists[i]), name


def _answer(parcel: BaseGeometry, layerset, trig: Trigger, reach: float, actions: tuple[str, ...],
            on: _dt.date) -> TriggerAnswer:
    if actions and set(actions) == {"area_variance"} and not trig.area_variance:
        return TriggerAnswer(trig.id, trig.label, trig.clause, "not_applicable", None, None,
                             "This trigger does not apply to an area variance.")
    source = None
    lyr = layerset.get(trig.role) if trig.role != "village_boundary" else layerset.get("village_boundary")
    if lyr is not None:
        source = lyr.source
    dist, name = distance_to_role(parcel, layerset, trig.role, on)
    if dist is None and lyr is None:
        return TriggerAnswer(trig.id, trig.label, trig.clause, "unknown", None, None,
                             f"No {trig.role.replace('_', ' ')} layer is loaded: unknown, not none.")
    if dist is not None and dist <= reach:
        return TriggerAnswer(trig.id, trig.label, trig.clause, "yes", dist, name,
                             f"{dist:,.0f} ft from {name or trig.label}, within {reach:g} ft.", source)
    if trig.role != "village_boundary":
        zone = parcel.buffer(reach)
        gap = layerset.uncovered(trig.role, zone).area
        if gap > 1.0:
            return TriggerAnswer(trig.id, trig.label, trig.clause, "unknown", dist, name,
                                 f"The {trig.role.replace('_', ' ')} layer does not cover all land within "
                                 f"{reach:g} ft of the parcel.", source)
    if dist is None:
        return TriggerAnswer(trig.id, trig.label, trig.clause, "no", None, None,
                             f"The layer has no feature; nothing within {reach:g} ft.", source)
    return TriggerAnswer(trig.id, trig.label, trig.clause, "no", dist, name,
                         f"Nearest {dist:,.0f} ft ({name or 'unnamed'}), beyond {reach:g} ft.", source)


#: § 239-m's clauses and their § 239-n counterparts for a subdivision plat. § 239-n's triggers are in paragraph
#: (a) of its subdivision 3 (its own definition, § 239-n(1)(a), names "subparagraphs (ii) and (iii) of paragraph
#: (a) of subdivision three"); the majority plus one is § 239-n(5) (Aloya v. Planning Bd. of Stony Point, 93
#: N.Y.2d 334 (1999)); the 30 days, § 239-n(4)(b) as the settings' source records it (to confirm).
_239N = (("§ 239-m(3)(b)", "§ 239-n(3)(a)"), ("§ 239-m(4)(b)", "§ 239-n(4)(b)"), ("§ 239-m(5)", "§ 239-n(5)"))
#: The § 239-n clause read from the settings' source, not the statute's text: shown "to confirm".
CLAUSE_239N_TO_CONFIRM = "GML § 239-n(4)(b)"


def referral_statute(actions: tuple[str, ...]) -> str | None:
    """``"GML § 239-n"`` when a subdivision plat is among the actions, ``"GML § 239-m"`` for the other
    referable actions, None when there is none.

    >>> referral_statute(("subdivision", "area_variance")), referral_statute(("site_plan",)), referral_statute(())
    ('GML § 239-n', 'GML § 239-m', None)
    """
    return ("GML § 239-n" if "subdivision" in actions else "GML § 239-m") if actions else None


def statute_clause(statute: str | None, clause: str) -> str:
    """A § 239-m clause as the statute that applies numbers it.

    >>> statute_clause("GML § 239-n", "GML § 239-m(3)(b)(ii)"), statute_clause("GML § 239-n", "GML § 239-m(5)")
    ('GML § 239-n(3)(a)(ii)', 'GML § 239-n(5)')
    >>> statute_clause("GML § 239-m", "GML § 239-m(4)(b)")
    'GML § 239-m(4)(b)'
    """
    if statute == "GML § 239-n":
        for m, n in _239N:
            clause = clause.replace(m, n)
    return clause


#: The actions § 239-m(3)(a) and § 239-n refer, in the statute's words (a building permit is not among them).
_REFERRED_ACTIONS = ("GML § 239-m(3)(a) refers (a comprehensive plan or zoning law or its amendment, a special use "
                     "permit, a site plan, a use or area variance, another authorization under the zoning law) or "
                     "§ 239-n (a subdivision plat)")


def _where(a: TriggerAnswer) -> str:
    near = a.nearest or a.label
    return (f"the parcel touches {near} (0 ft)" if (a.distance_ft or 0.0) < 0.5
            else f"the parcel is {a.distance_ft:,.0f} ft from {near}")


def _for_a_later_application(yes: list[TriggerAnswer], unknown: list[TriggerAnswer], reach: float) -> str:
    """What a later site plan, special permit, variance or subdivision would meet: the triggers found, each with
    its clause, and those unknown."""
    later = "A later site plan, special permit, variance or subdivision"
    names = ", ".join(a.trigger.replace("_", " ") for a in unknown)
    unknown_words = f"{names} {'is' if len(unknown) == 1 else 'are'} unknown"
    if yes:
        found = "; ".join(f"{_where(a)} ({a.clause})" for a in sorted(yes, key=lambda a: a.distance_ft or 0.0))
        return f"{later} would be referred: {found}" + (f"; {unknown_words}." if unknown else ".")
    if unknown:
        return f"For {later[0].lower()}{later[1:]}: no trigger found within {reach:g} ft, but {unknown_words}."
    return f"{later} would not be referred either: no trigger within {reach:g} ft."


def _trigger_answers(parcel: BaseGeometry, layerset, reach: float, actions: tuple[str, ...], statute: str | None,
                     on: _dt.date) -> list[TriggerAnswer]:
    """Each trigger of § 239-m(3)(b) answered, its clause numbered as the statute that applies numbers it."""
    answers = []
    for trig in TRIGGERS:
        a = _answer(parcel, layerset, trig, reach, actions, on)
        answers.append(TriggerAnswer(a.trigger, a.label, statute_clause(statute, a.clause), a.answer, a.distance_ft,
                                     a.nearest, a.reason, a.source))
    return answers


def _decision(application_type: str | None, actions: tuple[str, ...], statute: str | None,
              answers: list[TriggerAnswer], reach: float) -> tuple[bool | None, str]:
    """Whether the project is referred (None: unknown, or only if the application is a referable one) and the
    headline that says so."""
    yes = [a for a in answers if a.answer == "yes"]
    unknown = [a for a in answers if a.answer == "unknown"]
    if application_type == "building_permit" and not actions:
        # § 239-m(3)(a) lists the actions referred (§ 239-n a subdivision plat): a building permit is none of them.
        return False, (f"No county referral: a building permit alone is not an action {_REFERRED_ACTIONS}. "
                       + _for_a_later_application(yes, unknown, reach))
    if yes:
        first = min(yes, key=lambda a: a.distance_ft or 0.0)
        where = _where(first)
        if not actions:
            return None, (f"County referral required before final action if the application is a site plan, "
                          f"special permit, variance or subdivision ({first.clause}): {where}.")
        return True, f"County referral required before final action ({first.clause}): {where}."
    if unknown:
        return None, ("County referral: unknown; no trigger found within "
                      f"{reach:g} ft, but {', '.join(a.trigger.replace('_', ' ') for a in unknown)} "
                      f"{'is' if len(unknown) == 1 else 'are'} unknown.")
    headline = f"No county referral trigger within {reach:g} ft of the parcel ({statute or 'GML § 239-m'})."
    return False, headline + (" A building permit alone is not referred." if actions == () else "")


def _clock(days_p, days_clause: str, received: _dt.date | None) -> dict:
    """The county's clock (§ 239-m(4)(b)): its days and rule, and its dates once the county has the full
    statement."""
    clock = {
        "days": days_p.value, "clause": days_clause, "verify": days_p.verify or days_clause == CLAUSE_239N_TO_CONFIRM,
        "starts": "the day the county receives a full statement (the application with the completed EAF)",
        "rule": (f"The county reports within {days_p.value} days of receipt of a full statement; after that the "
                 f"board may act without the report ({days_clause})."),
    }
    if received is not None:
        d = cal.deadline(received, days_p.value)
        clock.update({"received": received.isoformat(), "report_due": d.statutory.isoformat(),
                      "report_due_act_by": d.act_by.isoformat(),
                      "board_may_act_from": (d.act_by + _dt.timedelta(days=1)).isoformat(), "note": d.note()})
    return clock


def _to_confirm(parcel: BaseGeometry, layerset, on: _dt.date, statute: str | None, params: tuple,
                days_p, days_clause: str, answers: list[TriggerAnswer]) -> tuple[str, ...]:
    """The settings to confirm with the Village: each setting used that says so, the § 239-n paragraph read from the
    settings' source, and the municipality across a boundary line named from the settings."""
    verify = tuple(p.citation for p in params if p.verify)
    if days_clause == CLAUSE_239N_TO_CONFIRM:
        verify += (f"{CLAUSE_239N_TO_CONFIRM}: the paragraph of § 239-n holding the county's {days_p.value} days",)
    boundary = next((a for a in answers if a.trigger == "municipal_boundary" and a.answer == "yes"), None)
    if boundary is not None and boundary_line_name(parcel, layerset, on)[1]:
        verify += (f"{statute_clause(statute, 'GML § 239-m(3)(b)(i)')}: the municipality across the line "
                   "(municipal_neighbours)",)
    return verify


def county_referral(parcel: BaseGeometry, layerset, *, application_type: str | None = None,
                    facts: ApprovalFacts | None = None, on: _dt.date) -> ReferralResult:
    """Whether the project must be referred to the county, trigger by trigger, with the county's clock.

    ``parcel`` is a polygon in EPSG:2260; ``application_type`` one of the project form's types.
    """
    facts = facts or ApprovalFacts()
    reach_p = state_param("county_referral_distance_ft", on)
    reach = float(reach_p.value)
    actions = referral_actions(application_type, facts.variance)
    statute = referral_statute(actions)
    answers = _trigger_answers(parcel, layerset, reach, actions, statute, on)
    required, headline = _decision(application_type, actions, statute, answers, reach)
    days_p = state_param("county_review_days", on)
    vote = state_param("county_override_vote", on)
    eo = state_param("rockland_executive_order", on)
    days_clause, vote_clause = statute_clause(statute, days_p.citation), statute_clause(statute, vote.citation)
    override = (f"A county recommendation to modify or disapprove can be overridden only by a vote of {vote.value}, "
                f"with a resolution stating the reasons ({vote_clause}).")
    executive_order = f"{eo.citation}: {eo.value}{verify_word(eo.verify)}"
    checklist = [
        f"Send the full statement (application, completed EAF) to the Rockland County Department of Planning "
        f"({statute or 'GML § 239-m'})",
        f"Wait for the county report or {days_p.value} days from its receipt ({days_clause})",
        override,
        executive_order,
    ] if required is not False else [executive_order]
    verify = _to_confirm(parcel, layerset, on, statute, (reach_p, days_p, vote, eo), days_p, days_clause, answers)
    return ReferralResult(required, statute, actions, headline, reach, tuple(answers),
                          _clock(days_p, days_clause, facts.county_received_date), override, tuple(checklist), verify)


def trigger_bands(parcel: BaseGeometry, layerset, result: ReferralResult) -> dict[str, BaseGeometry]:
    """For each trigger answered yes, the band within the referral distance of its nearest feature (EPSG:2260),
    for drawing on the map."""
    out = {}
    for a in result.triggers:
        if a.answer != "yes":
            continue
        trig = next(t for t in TRIGGERS if t.id == a.trigger)
        geoms = _target_geoms(layerset, trig.role)
        if geoms is None or len(geoms) == 0:
            continue
        near = geoms[shapely.distance(geoms, parcel) <= result.distance_ft]
        out[a.trigger] = shapely.union_all(shapely.buffer(near, result.distance_ft, quad_segs=32))
    return out


def referral_bands_geojson(parcel: BaseGeometry, layerset, *, application_type: str | None = None,
                           facts: ApprovalFacts | None = None, on: _dt.date,
                           simplify_ft: float = 5.0) -> dict[str, dict]:
    """The 500-ft band of each trigger that applies, as WGS84 GeoJSON geometries for the map (simplified)."""
    result = county_referral(parcel, layerset, application_type=application_type, facts=facts, on=on)
    return {k: work_to_geojson(g.simplify(simplify_ft)) for k, g in trigger_bands(parcel, layerset, result).items()}
