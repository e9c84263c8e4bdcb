"""The SEQR class of a project under 6 NYCRR Part 617: Type I, Type II, Unlisted or unknown.

:func:`seqr_class` reads the facts the form has (a one- to three-family house on an approved lot, a minor
accessory residential structure, maintenance or repair, a variance, a subdivision of N lots, the area
disturbed, contiguity to public parkland, public water and sewer) and answers with the clause of Part 617
that decided it. Type II actions (617.5(c)) are not subject to review; Type I (617.4) are listed by their
thresholds; every other action is Unlisted. "unknown" names the one question whose answer would settle it.

The order of the tests is the regulation's: an action on the Type II list is not reviewed whatever its
size (617.5(a)); otherwise it is Type I when it meets a threshold of 617.4(b), or when, within or
substantially contiguous to publicly owned parkland, it *exceeds* 25 % of one (617.4(b)(10)); else Unlisted.
Every number and clause is a dated setting (``data/settings/state_law.yaml``); the paragraph numbers of
617.5(c) are "to confirm with the Village". The lead agency classifies the action; this is a screening estimate.

>>> from sloat_core.approvals.facts import parse_approval_facts as f
>>> day = _dt.date(2026, 12, 1)
>>> seqr_class(None, f({"accessory_structure": "garage"}), on=day).seqr_class
'Type II'
>>> seqr_class(None, f({"lots": 30, "public_water_sewer": False, "parkland_contiguous": True}), on=day).clause
'6 NYCRR 617.4(b)(10)'
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass, field

from sloat_core.approvals.facts import ApprovalFacts
from sloat_core.approvals.state_law import StateFact, state_param, verify_word
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["SeqrResult", "seqr_class", "parkland_contiguity", "CLASSES", "UNLISTED_CLAUSE"]

CLASSES = ("Type I", "Type II", "Unlisted", "unknown")
#: The definition of an Unlisted action (every action neither Type I nor Type II).
UNLISTED_CLAUSE = "6 NYCRR 617.2 (Unlisted action)"
CEA_CLAUSE = "§ 402-46C"
_FAMILY_WORDS = {1: "one-family", 2: "two-family", 3: "three-family"}

_Q_WHAT = ("What is the project: a one- to three-family house on an approved lot, a minor accessory structure "
           "(garage, shed, deck, pool, fence), maintenance or repair, a subdivision (of how many lots), or other work?")
_Q_LOT = "Is the house on an approved lot (a lot of record or a lot of an approved subdivision)?"
_Q_SEWER = "Will the new homes be connected to existing public or community water and sewer systems?"
_Q_PARK = "Is the site within, or substantially contiguous to, publicly owned parkland such as Harriman State Park?"
_Q_ACRES = "How many acres will the work physically alter (clearing, grading, building, paving)?"


@dataclass(frozen=True)
class SeqrResult:
    """The class, the clause that decided it, why, and (when unknown) the one question that settles it."""

    seqr_class: str
    clause: str | None
    reason: str
    question: str | None = None
    verify: bool = False
    cea_review: str | None = None
    checklist: tuple[str, ...] = ()
    facts_used: dict = field(default_factory=dict)
    #: The classes still possible: one when known; the range when unknown (e.g. Unlisted or Type I).
    possible: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"class": self.seqr_class, "clause": self.clause, "reason": self.reason,
                "question": self.question, "verify": self.verify, "cea_review": self.cea_review,
                "checklist": list(self.checklist), "facts_used": dict(self.facts_used),
                "possible": list(self.possible or (self.seqr_class,)),
                "estimate": "Screening estimate: the lead agency classifies the action."}


def parkland_contiguity(facts: ApprovalFacts, distance_ft: float | None, on: _dt.date) -> bool | None:
    """Within or substantially contiguous to public parkland: what the form says, else the map.

    The map answers yes when the parcel touches or lies in mapped parkland, no when it is farther than the
    reading distance (a setting to confirm), and leaves "substantially contiguous" unknown in between.

    >>> from sloat_core.approvals.facts import ApprovalFacts
    >>> day = _dt.date(2026, 12, 1)
    >>> parkland_contiguity(ApprovalFacts(), 0.0, day), parkland_contiguity(ApprovalFacts(), 120.0, day)
    (True, None)
    >>> parkland_contiguity(ApprovalFacts(), 5000.0, day), parkland_contiguity(ApprovalFacts(), None, day)
    (False, None)
    """
    if facts.parkland_contiguous is not None:
        return facts.parkland_contiguous
    if distance_ft is None:
        return None
    if distance_ft <= 0.5:  # touching, within a survey's rounding
        return True
    if distance_ft > state_param("seqr_parkland_contiguity_ft", on).value:
        return False
    return None


def _family(n: int) -> str:
    return _FAMILY_WORDS.get(n, f"{n}-family")


_RANGE = {_Q_LOT: ("Type II", "Unlisted"), _Q_SEWER: ("Unlisted", "Type I"), _Q_PARK: ("Unlisted", "Type I"),
          _Q_ACRES: ("Unlisted", "Type I"), _Q_WHAT: ("Type I", "Type II", "Unlisted")}


def _result(cls: str, fact: StateFact | None, reason: str, *, clause: str | None = None, question=None,
            facts_used=None, verify: bool | None = None) -> SeqrResult:
    possible = _RANGE[question] if cls == "unknown" else (cls,)
    return SeqrResult(cls, clause or (fact.citation if fact else None), reason, question,
                      bool(verify if verify is not None else (fact.verify if fact else False)),
                      facts_used=facts_used or {}, possible=possible)


@dataclass(frozen=True)
class _Action:
    """What the classification reads of the project and its facts (``used``: the facts it names in its answer)."""

    app: str | None
    facts: ApprovalFacts
    #: The families of the house (the form's count, else one for a one-family dwelling); None when no house.
    families: int | None
    #: A subdivision is never one of the Type II items.
    subdivision: bool
    disturbed: float | None
    park: bool | None
    on: _dt.date
    used: dict


def _action(project, facts: ApprovalFacts, park: bool | None, on) -> _Action:
    app = getattr(project, "application_type", None)
    one_family = getattr(project, "one_family_dwelling", None)
    disturbed = getattr(project, "disturbed_sqft", None) if project is not None else None
    used = {k: v for k, v in {"application_type": app, "one_family_dwelling": one_family,
                              **{k: v for k, v in facts.to_dict().items() if not k.endswith("_date")},
                              "parkland_contiguous": park}.items() if v is not None}
    return _Action(app, facts, facts.residence_families or (1 if one_family else None),
                   app == "subdivision" or (facts.lots or 0) > 1, disturbed, park, on, used)


# -- Type II (617.5(c)): not subject to review, whatever the size -------------------------------------------------


@dataclass(frozen=True)
class _TypeII:
    """One item of the Type II list of 617.5(c) as the form can recognise it: the setting that holds its words
    and its clause (``citation``), when the action is one, and the sentence that says so. An item whose answer
    turns on a fact not given is ``"unknown"``, with the ``question`` that settles it."""

    setting: str
    applies: Callable[[_Action], bool]
    reason: Callable[[_Action, StateFact], str]
    cls: str = "Type II"
    question: str | None = None


def _small_residence(a: _Action) -> bool:
    """A house of no more families than the residence item covers, not in a subdivision."""
    return (a.families is not None and a.families <= state_param("seqr_type2_residence_max_families", a.on).value
            and not a.subdivision)


def _accessory_reason(a: _Action, p: StateFact) -> str:
    kind = a.facts.accessory_structure if isinstance(a.facts.accessory_structure, str) else "accessory structure"
    return f"A {kind.replace('_', ' ')} is a {p.value}, not changing land use or density{verify_word(p.verify)}."


#: The Type II items, checked in this order; the first that applies answers.
_TYPE_II: tuple[_TypeII, ...] = (
    _TypeII("seqr_type2_maintenance", lambda a: bool(a.facts.maintenance_only) and not a.subdivision,
            lambda a, p: f"Maintenance or repair with no substantial change: {p.value}{verify_word(p.verify)}."),
    _TypeII("seqr_type2_accessory", lambda a: bool(a.facts.accessory_structure) and not a.subdivision,
            _accessory_reason),
    _TypeII("seqr_type2_area_variance", lambda a: _small_residence(a) and a.facts.variance == "area",
            lambda a, p: f"An {p.value}{verify_word(p.verify)}."),
    _TypeII("seqr_type2_residence", lambda a: _small_residence(a) and bool(a.facts.on_approved_lot),
            lambda a, p: f"A {_family(a.families)} residence on an approved lot: {p.value}{verify_word(p.verify)}."),
    _TypeII("seqr_type2_residence", lambda a: _small_residence(a) and a.facts.on_approved_lot is None,
            lambda a, p: f"A {_family(a.families)} residence is Type II only on an approved lot ({p.citation}).",
            cls="unknown", question=_Q_LOT),
    _TypeII("seqr_type2_setback_variance",
            lambda a: (a.facts.variance == "setback_or_lot_line" and not a.subdivision
                       and a.app in (None, "building_permit")),
            lambda a, p: f"The {p.value}{verify_word(p.verify)}."),
)


def _type_ii(a: _Action) -> SeqrResult | None:
    """The first Type II item the action is, or None."""
    for item in _TYPE_II:
        if item.applies(a):
            p = state_param(item.setting, a.on)
            return _result(item.cls, p, item.reason(a, p), question=item.question, facts_used=a.used)
    return None


# -- residential units (617.4(b)(5)) and the parkland rule (617.4(b)(10)) -----------------------------------------


def _dwelling_units(a: _Action) -> int | None:
    """The new dwelling units: the form's count, else one per lot of a residential subdivision, else the house's
    families; None when none is known."""
    f = a.facts
    units = f.dwelling_units if f.dwelling_units is not None else (
        f.lots if a.subdivision and f.residential is not False else None)
    if units is None and a.families is not None:
        units = a.families
    return units


def _by_dwelling_units(a: _Action) -> SeqrResult | None:
    """Type I when the units meet the threshold that applies (617.4(b)(5)), or exceed 25 % of it beside public
    parkland (617.4(b)(10)); unknown when the answer turns on water and sewer or on the parkland; else Unlisted.
    None when the project is not residential or no unit count is known."""
    units = _dwelling_units(a)
    if units is None or a.facts.residential is False:
        return None
    conn = state_param("seqr_units_threshold_connected", a.on)
    unconn = state_param("seqr_units_threshold_unconnected", a.on)
    sewer = a.facts.public_water_sewer
    thresholds = [conn] if sewer is True else [unconn] if sewer is False else [conn, unconn]
    what = f"{units} new dwelling unit{'s' if units != 1 else ''}" + (
        " (one per lot)" if a.facts.dwelling_units is None and a.subdivision else "")
    met = [t for t in thresholds if units >= t.value]
    if len(met) == len(thresholds):
        t = met[0]
        return _result("Type I", t, f"{what} meet the Type I threshold of {t.value} units "
                       f"({t.citation}){verify_word(t.verify)}.", facts_used=a.used)
    if met:  # meets the unconnected threshold only: the answer turns on water and sewer
        return _result("unknown", met[0], f"{what} are Type I if not connected to public water and sewer "
                       f"({unconn.value} units, {unconn.citation}), not if connected ({conn.value}).",
                       question=_Q_SEWER, facts_used=a.used)
    return _units_beside_parkland(a, units, what, thresholds, conn, unconn)


def _units_beside_parkland(a: _Action, units: int, what: str, thresholds: list[StateFact], conn: StateFact,
                           unconn: StateFact) -> SeqrResult:
    """Units below every threshold: Type I beside public parkland when they exceed 25 % of each threshold that
    applies (617.4(b)(10)), unknown when that turns on water and sewer or on the parkland, else Unlisted."""
    pct = state_param("seqr_parkland_threshold_pct", a.on)
    share = pct.value / 100.0
    over = [t for t in thresholds if units > share * t.value]
    if a.park is True and len(over) == len(thresholds):
        t = over[0]
        return _result("Type I", pct, f"{what} within or substantially contiguous to public parkland exceed "
                       f"{pct.value:g}% of the {t.value}-unit threshold ({t.citation}), i.e. more than "
                       f"{share * t.value:g}{verify_word(pct.verify)}.", facts_used=a.used)
    if a.park is True and over:
        return _result("unknown", pct, f"Beside public parkland, {what} exceed {pct.value:g}% of the "
                       f"{unconn.value}-unit threshold (not connected) but not of the {conn.value}-unit one "
                       f"(connected).", question=_Q_SEWER, facts_used=a.used)
    if a.park is None and over:
        return _result("unknown", pct, f"{what} exceed {pct.value:g}% of a Type I threshold: Type I if within "
                       f"or substantially contiguous to public parkland ({pct.citation}), else Unlisted.",
                       question=_Q_PARK, facts_used=a.used)
    return _result("Unlisted", None, f"{what}: no Type II item and no Type I threshold of 617.4 reached.",
                   clause=UNLISTED_CLAUSE, facts_used=a.used, verify=False)


# -- other activities: physical alteration (617.4(b)(6)(i)) ----------------------------------------------------------


def _by_physical_alteration(a: _Action) -> SeqrResult | None:
    """Type I when the work alters at least the threshold's acres, or more than 25 % of it beside public parkland;
    unknown when that turns on the parkland or the kind of action is not given; else Unlisted. None when the area
    disturbed is not known."""
    if a.disturbed is None:
        return None
    acres = a.disturbed / SQFT_PER_ACRE
    pct = state_param("seqr_parkland_threshold_pct", a.on)
    alt = state_param("seqr_physical_alteration_acres", a.on)
    if acres >= alt.value:
        return _result("Type I", alt, f"The work physically alters {acres:,.2f} acres, at least "
                       f"{alt.value:g}{verify_word(alt.verify)}.", facts_used=a.used)
    if acres > pct.value / 100.0 * alt.value:
        if a.park is True:
            return _result("Type I", pct, f"{acres:,.2f} acres altered beside public parkland exceed "
                           f"{pct.value:g}% of {alt.value:g} acres ({alt.citation}){verify_word(pct.verify)}.",
                           facts_used=a.used)
        if a.park is None:
            return _result("unknown", pct, f"{acres:,.2f} acres altered exceed {pct.value:g}% of the "
                           f"{alt.value:g}-acre threshold: Type I if beside public parkland, else Unlisted.",
                           question=_Q_PARK, facts_used=a.used)
    if a.app is None and not any(v is not None for v in (a.families, a.facts.variance)):
        return _result("unknown", None, f"{acres:,.2f} acres disturbed, but the kind of action is not given.",
                       question=_Q_WHAT, facts_used=a.used)
    return _result("Unlisted", None, f"{acres:,.2f} acres altered: no Type II item and no Type I threshold "
                   f"of 617.4 reached.", clause=UNLISTED_CLAUSE, facts_used=a.used, verify=False)


def _by_kind_of_action(a: _Action) -> SeqrResult:
    """Neither units nor area known: a site plan, special permit or use variance turns on the area of work;
    otherwise the kind of action is the question."""
    if a.app in ("site_plan", "special_permit") or a.facts.variance == "use":
        alt = state_param("seqr_physical_alteration_acres", a.on)  # the threshold the question turns on
        return _result("unknown", alt, "A site plan, special permit or use variance is Unlisted unless it reaches a "
                       f"Type I threshold ({alt.value:g} acres physically altered, {alt.citation}); the area of work "
                       "is not given.", question=_Q_ACRES, facts_used=a.used)
    return _result("unknown", None, "The form does not say what kind of action this is.", question=_Q_WHAT,
                   facts_used=a.used)


def _classify(project, facts: ApprovalFacts, park: bool | None, on) -> SeqrResult:
    """The class in the regulation's order (617.5(a)): the Type II list, then the units and parkland rules, then the
    area physically altered, then what the kind of action leaves open."""
    a = _action(project, facts, park, on)
    for rule in (_type_ii, _by_dwelling_units, _by_physical_alteration):
        if (r := rule(a)) is not None:
            return r
    return _by_kind_of_action(a)


def seqr_class(project, facts: ApprovalFacts, *, parkland_distance_ft: float | None = None,
               in_cea: bool | None = None, on: _dt.date) -> SeqrResult:
    """The SEQR class of a project (a :class:`~sloat_core.rules.project.Project` or None) and its facts.

    ``parkland_distance_ft`` is the parcel's distance to mapped public parkland (None: no parkland layer);
    ``in_cea`` whether the parcel lies in the § 402-46 critical environmental area (None: unknown).
    """
    park = parkland_contiguity(facts, parkland_distance_ft, on)
    r = _classify(project, facts, park, on)
    checklist = []
    cea = None
    if r.seqr_class in ("Type I", "Unlisted", "unknown"):
        checklist.append("Environmental Assessment Form: " + (
            "Full EAF (Type I)" if r.seqr_class == "Type I" else "Short EAF (Unlisted), or as the lead agency asks"))
        checklist.append("Determination of significance by the lead agency (6 NYCRR 617.7)")
        if in_cea is True or in_cea is None:
            cea = ("§ 402-46C: the impact on the Ramapo River Sole Source Aquifer CEA must be evaluated in the "
                   "determination of significance (6 NYCRR 617.7)" + ("" if in_cea else
                                                                      ", if the parcel lies in the CEA (unknown)"))
            if r.seqr_class != "unknown":
                checklist.append(cea)
    if r.seqr_class == "Type I":
        checklist.append("Coordinated review among involved agencies (6 NYCRR 617.6(b)(3))")
    if r.seqr_class == "Type II":
        checklist.append("No SEQR review: the board records the Type II finding")
    return SeqrResult(r.seqr_class, r.clause, r.reason, r.question, r.verify, cea if r.seqr_class != "Type II" else None,
                      tuple(checklist), r.facts_used, r.possible)
