"""Permits and reviews a proposal needs under Article IX, each ``True`` / ``False`` / ``None`` (unknown).

Every permit is declared once in :data:`DECLARATIONS` (:class:`PermitDeclaration`): its id, title, §,
approval authority rule, submission list, clocks, timeline items, plain words, whether the land alone
decides it, its general rule and its exemptions as an ordered list of cited exception clauses
(:class:`ExceptionClause`, after Catala's ``exception``). :func:`decide` applies one declaration:

1. the general rule answers (it may settle the question first, e.g. "no trees are to be removed");
2. an exception clause that certainly applies makes the permit not required, citing its clause;
3. where the rule says "required", the first clause whose application is unknown makes the answer
   unknown ("required unless ..."), or a clause that does not apply explains why, with its citation.

Every answer carries its reason, its § citation, the approval authority, what must be submitted (the
law's own lists, quoted from the shipped text) and the clocks that apply. Unknown means the answer
depends on a fact not given (where the work happens, how many trees, the application type) or on a
missing layer; it is never shown as "no".

Readings encoded here (see each clause's comment; all are in README's "Readings"):

* steep slope permit: disturbance of slopes of 25 % *or greater* (§ 402-55A, C(2)), not "in excess of";
  customary landscaping is exempt (§ 402-55C(1)).
* steep slope authority: the Planning Board whenever the proposal needs any permit or approval *by it*
  (§ 402-55D(1)), including a wetland or tree removal permit; the stand-alone decision clock (§ 402-55F)
  only where no other permit or approval is needed.
* SWPPP Condition B is "five or more acres"; Condition C is "between one and five acres": read as
  1 acre inclusive up to 5 acres exclusive, one-family dwellings excluded (§ 402-58E(2)(b), (c)).
* biodiversity study: applications "involving 10 acres or more" (10.0 included), except "the development
  of a one-family dwelling" (§ 402-54B): a subdivision, site plan or special permit is not that.
* tree removal exemption § 402-53C(2): "cannot be further subdivided into two or more conforming lots" is
  read on net lot area (§ 402-45) against twice the district minimum (:func:`can_be_subdivided`).
* the wetland permit measures the disturbance footprint where it lies, on or off the parcel (§ 402-57G
  "No activity shall be conducted in a wetland ... without approval").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import PRESENCE_MIN_SQFT, area_sqft, polygonal
from sloat_core.law.params import param, value
from sloat_core.law.text import clause
from sloat_core.rules.measures import Findings
from sloat_core.rules.project import DESIGN_LIMITS, Project
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["Permit", "PermitDeclaration", "ExceptionClause", "Ruling", "Facts", "DECLARATIONS", "PERMIT_IDS",
           "permits_for", "decide", "can_be_subdivided", "design_checklist", "declaration"]


@dataclass(frozen=True, kw_only=True)
class Permit:
    """One permit's answer, built with keyword arguments only."""

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


@dataclass(frozen=True, kw_only=True)
class Ruling:
    """What a rule or an exception clause says: required or not (None: unknown), why, under which clause.

    ``citation`` None means the permit's own section. ``details`` says whether the submissions and
    clocks go with the answer (not for an exemption). ``final``: the general rule settles the question
    before any exception is looked at (nothing to regulate, or the fact it turns on is not given).
    """

    required: bool | None
    reason: str
    citation: str | None = None
    citations: tuple[str, ...] = ()
    details: bool = True
    final: bool = False


@dataclass(frozen=True)
class Facts:
    """Everything a permit rule may read: the parcel's measures, the work area's, the project, settings."""

    f: Findings
    project: Project
    settings: Any
    #: Measures of the parcel plus the disturbance footprint (the same object when the footprint is inside).
    work: Findings
    subdividable: bool | None = None
    cluster_applies: bool | None = None
    any_trigger: bool | None = None
    #: Permits decided so far (the steep slope authority reads the wetland and tree permits).
    decided: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ExceptionClause:
    """One exemption of a permit: its clause, a short name, and its test (None: it says nothing here)."""

    citation: str
    name: str
    test: Callable[[Facts], Ruling | None]


@dataclass(frozen=True)
class PermitDeclaration:
    """Everything about one permit, declared once."""

    id: str
    title: str
    section: str
    authority: Callable[[Facts], str]
    rule: Callable[[Facts], Ruling]
    submissions: Callable[[], tuple[str, ...]] = lambda: ()
    clocks: Callable[[Facts], tuple[str, ...]] = lambda x: ()
    exceptions: tuple[ExceptionClause, ...] = ()
    #: Timeline items (ids of rules.clocks.ITEM_KINDS) carrying its clocks, in the order they happen; the
    #: last one is the permit itself (app_support.timeline_prefill offers them on the project page).
    timeline: tuple[str, ...] = ()
    #: (what is needed, from whom) in everyday words, for the counter.
    plain: tuple[str, str] = ("", "")
    #: The land alone answers it when no project is described (the screening sweep's permits).
    land_only: bool = False
    #: Prohibitions are told as "not allowed", not as a permit to get.
    prohibited: bool = False


def decide(decl: PermitDeclaration, x: Facts) -> Permit:
    """Apply one declaration: the rule, then its exception clauses in order (see the module docstring)."""
    ruling = decl.rule(x)
    if not ruling.final:
        said = [r for e in decl.exceptions if (r := e.test(x)) is not None]
        exempt = next((r for r in said if r.required is False), None)
        if exempt is not None:
            ruling = exempt
        elif ruling.required is True and said:
            ruling = said[0]
    subs = decl.submissions() if ruling.details else ()
    clocks = decl.clocks(x) if ruling.details else ()
    return Permit(id=decl.id, title=decl.title, required=ruling.required, reason=ruling.reason,
                  citation=ruling.citation or decl.section, authority=decl.authority(x), submissions=subs,
                  clocks=clocks, citations=ruling.citations)


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------

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


def _month_day(name: str) -> str:
    """A "MM-DD" parameter as "15 December"."""
    import datetime as _dt

    month, day = (int(v) for v in str(value(name)).split("-"))
    return f"{day} {_dt.date(2000, month, 1):%B}"


def _measure(region: BaseGeometry):
    """Area of ``region`` inside a geometry (all of it for None): the measure `_in_region` reads."""
    return lambda g: area_sqft(region) if g is None else area_sqft(polygonal(g.intersection(region)))


def _in_region(x: Facts, area_in, region_name: str, unknown_in=None, missing: str | None = None):
    """Does the work touch a region? (True/False/None, text).

    ``area_in(g)`` is the region's area inside ``g`` (a part of the work area; None: the whole parcel);
    ``area_in`` None means the layer is missing. ``unknown_in`` measures land where it is unknown
    whether the region is there (slopes off the elevation model). ``missing`` names layers of the
    region that are not loaded: then "does not touch" becomes unknown, never "no".
    The footprint is measured where it lies (§ 402-57G: "No activity shall be conducted in a
    wetland ... without approval" — the neighbour's wetland counts too); the part off the parcel is said.
    """
    if area_in is None:
        return None, f"Unknown: the {region_name} layer is not loaded."
    f, project = x.work, x.project
    fp = project.disturbance_footprint
    if fp is None:
        whole = area_in(None)
        if whole < PRESENCE_MIN_SQFT:
            if missing:
                return None, f"Unknown: the parcel has no {region_name} on the loaded layers, but {missing}."
            return False, f"The parcel has no {region_name}."
        return None, (f"The parcel has {whole:,.0f} sq ft of {region_name}; "
                      "it depends on where the work happens (draw the disturbance footprint).")
    fp_in = polygonal(fp.intersection(f.parcel))
    touched = area_in(fp_in) if not fp_in.is_empty else 0.0
    if touched >= PRESENCE_MIN_SQFT:
        text = f"The disturbance footprint touches {touched:,.0f} sq ft of {region_name}."
        if x.work is not x.f:
            off = polygonal(fp_in.difference(x.f.parcel))
            off_touched = area_in(off) if not off.is_empty else 0.0
            if off_touched >= PRESENCE_MIN_SQFT:
                text += f" {off_touched:,.0f} sq ft of it lies off the parcel, on neighbouring land."
        return True, text
    if unknown_in is not None and not fp_in.is_empty:
        doubt = unknown_in(fp_in)
        if doubt >= PRESENCE_MIN_SQFT:
            return None, f"{region_name.capitalize()} unknown under {doubt:,.0f} sq ft of the footprint."
    if missing:
        return None, f"Unknown: the footprint touches no {region_name} on the loaded layers, but {missing}."
    return False, f"The disturbance footprint does not touch {region_name}."


def _pb_permits(x: Facts) -> tuple[list[str], list[str]]:
    """Titles of the permits decided so far that the Planning Board approves: (needed, maybe needed)."""
    sure: list[str] = []
    maybe: list[str] = []
    for pid in ("wetland_permit", "tree_removal_permit"):
        p = x.decided.get(pid)
        if p is not None and p.required is not False:
            (sure if p.required else maybe).append(p.title.lower())
    return sure, maybe


def _before_planning_board(x: Facts) -> bool | None:
    """Is the proposal before the Planning Board: an application to it, or a permit it must approve?

    None when the application type is not given. A building permit whose wetland or tree permit is
    still unknown counts as not before the Board (the authority text names the proviso).
    """
    if x.project.needs_planning_board:
        return True
    sure, _ = _pb_permits(x)
    if sure:
        return True
    return x.project.needs_planning_board


def _unless(x: Facts) -> str:
    _, maybe = _pb_permits(x)
    return f", unless the proposal also needs a {' or '.join(maybe)} from the Planning Board" if maybe else ""


# --------------------------------------------------------------------------------------------
# § 402-55 steep slopes
# --------------------------------------------------------------------------------------------

def _steep_authority(x: Facts) -> str:
    # § 402-55D(1): the Planning Board for "any site plan, subdivision, special use, or other application
    # which requires the issuance of a permit or approval by it"; D(2): the Village Engineer otherwise.
    pb = _before_planning_board(x)
    sure, _ = _pb_permits(x)
    if pb and not x.project.needs_planning_board and sure:
        return f"Planning Board: the proposal also needs its {' and '.join(sure)} (§ 402-55D(1))"
    if pb:
        return "Planning Board (§ 402-55D(1))"
    if pb is False:
        unless = _unless(x)
        return f"Village Engineer (§ 402-55D(2)){unless}{' (§ 402-55D(1))' if unless else ''}"
    return ("Planning Board if a site plan, subdivision or special permit, or another permit or approval by it "
            "(such as a wetland or tree removal permit), is needed; otherwise the Village Engineer (§ 402-55D)")


def _steep_clocks(x: Facts) -> tuple[str, ...]:
    days = value("steep_slope_decision_days")
    pb = _before_planning_board(x)
    if pb or x.project.application_type is not None:
        # § 402-55F: decided "simultaneously with" the other building, site plan, subdivision or other permit.
        decision = ("Decided together with the other permit or approval applied for; the "
                    f"{days}-day limit is only for activities needing no other permit (§ 402-55F).")
    else:
        decision = f"Stand-alone decision within {days} days of a complete application (§ 402-55F)."
    return (
        f"Valid {value('steep_slope_permit_term_years')} year from approval, or the other permit's period if later "
        "(§ 402-55H(2)).",
        f"Extension at most {value('steep_slope_extension_max_years')} year; request at least "
        f"{value('steep_slope_extension_request_months')} month before expiry (§ 402-55H(3)).",
        decision,
        f"No bare slopes {_month_day('no_bare_slope_season_start')} - {_month_day('no_bare_slope_season_end')}; "
        f"stabilise within {value('temporary_stabilization_days')} days (temporary) and "
        f"{value('permanent_stabilization_days')} days (permanent) of final grade (§ 402-55J(19), (21)).",
    )


def _steep_rule(x: Facts) -> Ruling:
    p = param("steep_slope_permit_threshold_pct")
    f = x.work
    if f.slope is None:
        return Ruling(required=None, reason="Unknown: no elevation model is loaded.", citation=p.citation)
    req, text = _in_region(x, lambda g: f.slope_area_sqft_in("slope_ge_25", g),
                           f"slopes of {p.value}% or greater", lambda g: f.slope_area_sqft_in("unknown", g))
    return Ruling(required=req, reason=text, citation="§ 402-55C(2)", citations=(p.citation,))


def _customary_landscaping(x: Facts) -> Ruling | None:
    if x.project.landscaping_only:
        return Ruling(required=False, reason="Customary landscaping with minor grading is exempt (§ 402-55C(1)).",
                      citation="§ 402-55C(1)", details=False)
    return None


# --------------------------------------------------------------------------------------------
# § 402-57 wetlands and watercourses
# --------------------------------------------------------------------------------------------

_WATER_ROLES = ("wetlands", "watercourses", "water_bodies")


def _wetland_clocks(x: Facts) -> tuple[str, ...]:
    return (
        f"Hearing within {value('wetland_hearing_days')} days of a complete application; newspaper notice at least "
        f"{value('wetland_hearing_notice_days')} days before (§ 402-57L).",
        f"Valid {value('wetland_permit_term_years')} year from issue; extension requested at least "
        f"{value('wetland_extension_request_days')} days before expiry (§ 402-57J(4)).",
        f"Notify the Planning Board at least {value('wetland_start_notice_days')} days before work starts "
        "(§ 402-57O(1)(c)).",
        f"Wetland delineation no more than {value('wetland_delineation_max_age_months')} months old at filing "
        "(§ 402-57K(5)(a)).",
    )


def _wetland_rule(x: Facts) -> Ruling:
    f = x.work
    parts = [f.layers.get(r) for r in _WATER_ROLES] + [f.buffer]
    known = [g for g in parts if g is not None]
    region = None if not known else polygonal(known[0].union(known[1]) if len(known) > 1 else known[0])
    for g in known[2:]:
        region = polygonal(region.union(g))
    # A layer that is not loaded is unknown, never "no wetland" (and the buffer is then built only
    # from the loaded layers, so it may be short too).
    missing = [r.replace("_", " ") for r in _WATER_ROLES if f.layers.get(r) is None]
    missing_text = (f"the {', '.join(missing)} layer{'s are' if len(missing) > 1 else ' is'} not loaded "
                    "(and the buffer is built only from the loaded layers)") if missing and known else None
    buf = f.buffer_width_ft
    req, text = _in_region(x, None if region is None else _measure(region),
                           f"wetland, watercourse or {buf:g}-ft buffer (buffer width: local setting)",
                           missing=missing_text)
    if req and x.project.activities:
        text += " Regulated activities: " + ", ".join(f"({a})" for a in x.project.activities) + " of § 402-57I."
    return Ruling(required=req, reason=text, citation="§ 402-57G", citations=("§ 402-57I",))


def _no_regulated_activity(x: Facts) -> Ruling | None:
    if x.project.activities is not None and len(x.project.activities) == 0:
        return Ruling(required=False, reason="No regulated activity of § 402-57I is proposed (exempt activities: "
                      "§ 402-57H).", citation="§ 402-57H", details=False)
    return None


def _grandfathered(x: Facts) -> Ruling | None:
    # § 402-57F: "shall not apply to any land use, improvement or development for which final approval shall
    # have been obtained prior to the effective date"; the applicant says so (the Board checks the approval).
    if x.project.grandfathered:
        return Ruling(required=False, citation="§ 402-57F", details=False,
                      reason="Final approval (§ 402-57F(1)-(3)) was obtained before the wetland law took effect: "
                             "the project is grandfathered (§ 402-57F); keep the approval to show the Board.")
    return None


_H_WORDS = {1: "normal ground maintenance around a dwelling", 2: "selective tree cutting",
            3: "decorative landscaping and planting in wetland buffers",
            4: "public health activities of the County or State Department of Health for emergencies"}
#: Regulated activities that grading or fill brings back under the permit (§ 402-57I(3), (6)).
_GRADING_FILL = (3, 6)


def _wetland_exempt_activity(x: Facts) -> Ruling | None:
    """§ 402-57H(1)-(4) as claimed on the form; customary landscaping (§ 402-55C(1)) is read as H(1) / H(3)."""
    p = x.project
    claimed = list(p.wetland_exemptions or ())
    landscaping = bool(p.landscaping_only) and not claimed
    if landscaping:
        claimed = [1, 3]
    if not claimed:
        return None
    cites = tuple(f"§ 402-57H({n})" for n in claimed)
    names = " or ".join(_H_WORDS[n] for n in claimed)
    acts = p.activities
    other = [a for a in (acts or ()) if a not in _GRADING_FILL]
    if other:
        return Ruling(required=True, citation="§ 402-57G", citations=cites + ("§ 402-57I",),
                      reason=(f"The exemption for {names} ({', '.join(cites)}) does not cover the regulated "
                              f"activities {', '.join(f'({a})' for a in other)} of § 402-57I."))
    grading = [a for a in (acts or ()) if a in _GRADING_FILL]
    if grading or (landscaping and acts is None):
        # Reading: customary landscaping "involving minor grading or filling" (§ 402-55C(1)) may be the
        # filling (I(3)) or alteration of contours (I(6)) that § 402-57I regulates: unknown, both clauses.
        gcites = tuple(f"§ 402-57I({a})" for a in (grading or _GRADING_FILL))
        return Ruling(required=None, citation=cites[0], citations=cites[1:] + gcites,
                      reason=(f"{names.capitalize()} is exempt ({', '.join(cites)}), but grading or fill with it "
                              f"is a regulated activity ({', '.join(gcites)}): unknown until the Planning Board "
                              "sees what is graded or filled."))
    if 3 in claimed and 1 not in claimed and p.disturbance_footprint is not None:
        inside = [x.work.layers.get(r) for r in _WATER_ROLES]
        fp = p.disturbance_footprint
        in_water = sum(area_sqft(polygonal(fp.intersection(g))) for g in inside if g is not None)
        if in_water >= PRESENCE_MIN_SQFT:
            return Ruling(required=True, citation="§ 402-57G", citations=cites,
                          reason=(f"Decorative landscaping is exempt only in wetland buffers (§ 402-57H(3)); "
                                  f"{in_water:,.0f} sq ft of the footprint lies in the wetland or watercourse itself."))
    return Ruling(required=False, citation=cites[0], citations=cites[1:], details=False,
                  reason=f"{names.capitalize()} is exempt ({', '.join(cites)}), to the extent no other law "
                         "prohibits it; any grading or fill with it needs a permit (§ 402-57I(3), (6)).")


# --------------------------------------------------------------------------------------------
# § 402-53 trees
# --------------------------------------------------------------------------------------------

def can_be_subdivided(net_lot_area_sqft: float, net_lot_area_min_sqft: float,
                      min_lot_area_sqft: float | None) -> bool | None:
    """§ 402-53C(2): can the lot "be further subdivided into two or more conforming lots"?

    Reading (README "Readings"): yes when even the least net lot area (§ 402-45, unknowns counted
    against it) holds two district minimums; no when the net lot area does not; otherwise unknown.
    Road, frontage and shape are not looked at: the Planning Board decides.

    >>> can_be_subdivided(90_000, 85_000, 40_000), can_be_subdivided(70_000, 70_000, 40_000)
    (True, False)
    >>> can_be_subdivided(90_000, 70_000, 40_000) is None, can_be_subdivided(90_000, 90_000, None) is None
    (True, True)
    """
    if not min_lot_area_sqft:
        return None
    if net_lot_area_min_sqft >= 2 * min_lot_area_sqft:
        return True
    if net_lot_area_sqft < 2 * min_lot_area_sqft:
        return False
    return None


def _tree_clocks(x: Facts) -> tuple[str, ...]:
    return (f"Granted for at most {value('tree_permit_max_term_years')} year; may be extended "
            f"{value('tree_permit_extension_years')} more years on a written request received before "
            "expiry (§ 402-53D).",)


def _tree_rule(x: Facts) -> Ruling:
    trees = x.project.trees_removed
    if trees is None:
        return Ruling(required=None, reason="Unknown: say how many trees will be removed.", final=True)
    if trees == 0:
        return Ruling(required=False, reason="No trees are to be removed.", details=False, final=True)
    return Ruling(required=True, reason=f"{trees} tree(s) to be removed (§ 402-53B).")


def _public_agency(x: Facts) -> Ruling | None:
    if x.project.public_agency_work:
        return Ruling(required=False, citation="§ 402-53C(1)", details=False,
                      reason="Removal of trees for highway or public utility construction or maintenance by a "
                             "public agency is exempt (§ 402-53C(1)).")
    return None


def _one_two_family(x: Facts) -> Ruling | None:
    p, trees = x.project, x.project.trees_removed
    limit = int(value("tree_exempt_max_per_year"))
    use = p.existing_use
    if use in ("vacant", "other") or trees is None:
        return None
    if use is None:
        if trees > limit or x.subdividable is True:
            return None
        # § 402-53C(2) exempts a lot "in existing one-family or two-family dwelling use": with the use not
        # given, the exemption may apply, so the answer is unknown, never "required".
        return Ruling(required=None, citation="§ 402-53C(2)",
                      reason=(f"Up to {limit} trees a year are exempt on a lot in existing one- or two-family "
                              "dwelling use that cannot be subdivided into two or more conforming lots "
                              "(§ 402-53C(2)); the existing use is not given."))
    if trees > limit:
        return Ruling(required=True, citation="§ 402-53B", citations=("§ 402-53C(2)",),
                      reason=f"{trees} trees exceed the {limit} a year exempt on one- or two-family lots "
                             "(§ 402-53C(2)).")
    if x.subdividable is None:
        return Ruling(required=None, citation="§ 402-53C(2)",
                      reason=f"Up to {limit} trees a year are exempt on a one- or two-family lot that cannot be "
                             "subdivided into two or more conforming lots; whether this lot can is unknown.")
    if x.subdividable:
        return Ruling(required=True, citation="§ 402-53B", citations=("§ 402-53C(2)",),
                      reason="The lot looks large enough for two or more conforming lots, so the two-tree "
                             "exemption does not apply (§ 402-53C(2)).")
    return Ruling(required=False, citation="§ 402-53C(2)", details=False,
                  reason=f"{trees} tree(s) on a one- or two-family lot that cannot be subdivided: exempt, at most "
                         f"{limit} a year (§ 402-53C(2)).")


def _site_plan_developer(x: Facts) -> Ruling | None:
    if x.project.application_type in ("site_plan", "subdivision"):
        return Ruling(required=False, citation="§ 402-53C(3)", details=False,
                      reason="Removal by a developer under the Planning Board's site plan or subdivision approval "
                             "is exempt (§ 402-53C(3)); the trees are reviewed in that approval.")
    return None


def _hazard_trees(x: Facts) -> Ruling | None:
    if x.project.hazard_trees_only:
        return Ruling(required=False, citation="§ 402-53C(4)", details=False,
                      reason="Dead or dying trees that pose an imminent hazard to public safety are exempt "
                             "(§ 402-53C(4)).")
    return None


# --------------------------------------------------------------------------------------------
# § 402-58 stormwater
# --------------------------------------------------------------------------------------------

def _land_development_acres(settings) -> float:
    return float(getattr(settings, "land_development_min_acres", 1.0))


def _swppp_authority(x: Facts) -> str:
    pb = _before_planning_board(x)
    if pb is False:
        # § 402-58C(4): activities not before the Planning Board submit the SWPPP to the Village Engineer,
        # "who shall approve the SWPPP if it complies".
        unless = _unless(x)
        return ("Village Engineer approves (§ 402-58C(4)): the project is not before the Planning Board"
                + (f"{unless} (then § 402-58C(2), (3))" if unless else ""))
    return "Village Engineer accepts and reviews, then forwards to the Planning Board (§ 402-58C(2))"


def _swppp_clocks(x: Facts) -> tuple[str, ...]:
    return (f"Inspection reports every {value('swppp_inspection_interval_days')} days and within "
            f"{value('swppp_storm_inspection_hours')} hours of a storm of {value('swppp_storm_event_inches')} "
            "inches or more (§ 402-58G(1)(b)).",
            f"Notify the Building Inspector at least {value('inspection_notice_hours')} hours before each "
            "inspection stage (§ 402-58H(1)(a)).")


def _swppp_rule(x: Facts) -> Ruling:
    d = x.project.disturbed_sqft
    threshold = _land_development_acres(x.settings)
    if d is None:
        return Ruling(required=None, reason="Unknown: give the disturbed area or draw the footprint.")
    if d / SQFT_PER_ACRE >= threshold:
        return Ruling(required=True, reason=f"Disturbance of {_acres(d)} is a land development activity (at least "
                                            f"{threshold:g} acre: local setting, to confirm with the Village).")
    return Ruling(required=False, details=False,
                  reason=f"Disturbance of {_acres(d)} is under {threshold:g} acre (local setting for 'land "
                         "development activity', to confirm with the Village).")


_D_WORDS = {1: "agricultural activity", 2: "routine maintenance keeping a facility's line, grade or purpose",
            3: "repairs to a stormwater practice the Village Engineer deems necessary",
            4: "part of a subdivision whose plat had final approval on or before the effective date",
            5: "work with a building permit approved on or before the effective date", 6: "cemetery graves",
            7: "fences, signs and poles", 8: "emergency activity to protect life, property or natural resources",
            9: "home gardening", 10: "landscaping and horticulture with an existing structure"}


def _swppp_may_be_exempt(x: Facts) -> Ruling | None:
    """§ 402-58D: "may be exempt" — the answer is unknown, the Village Engineer decides."""
    claimed = list(x.project.swppp_exemptions or ())
    if 2 in claimed and x.project.disturbed_sqft is not None:
        limit = float(value("routine_maintenance_exempt_max_acres"))
        if x.project.disturbed_sqft / SQFT_PER_ACRE >= limit:
            claimed.remove(2)  # D(2) is for routine maintenance that disturbs "less than five acres"
    if not claimed:
        return None
    cites = tuple(f"§ 402-58D({n})" for n in claimed)
    return Ruling(required=None, citation=cites[0], citations=cites[1:],
                  reason=f"May be exempt ({', '.join(cites)}: {'; '.join(_D_WORDS[n] for n in claimed)}); "
                         "the Village Engineer decides.")


def _post_construction_rule(x: Facts) -> Ruling:
    d = x.project.disturbed_sqft
    b, c = float(value("swppp_condition_b_min_acres")), float(value("swppp_condition_c_min_acres"))
    if d is None:
        return Ruling(required=None, reason="Unknown: give the disturbed area.")
    acres = d / SQFT_PER_ACRE
    if acres >= b:
        return Ruling(required=True, reason=f"{_acres(d)} disturbed: Condition B ({b:g} or more acres).",
                      citation="§ 402-58E(2)(b)")
    if acres >= c:
        if x.project.one_family_dwelling:
            return Ruling(required=False, citation="§ 402-58E(2)(c)", details=False,
                          reason=f"{_acres(d)} disturbed, but one-family dwellings are excluded from Condition C.")
        if x.project.one_family_dwelling is None:
            return Ruling(required=None, citation="§ 402-58E(2)(c)",
                          reason=f"{_acres(d)} disturbed: Condition C applies unless this is a one-family dwelling.")
        return Ruling(required=True, citation="§ 402-58E(2)(c)",
                      reason=f"{_acres(d)} disturbed: Condition C (between {c:g} and {b:g} acres).")
    return Ruling(required=False, details=False,
                  reason=f"{_acres(d)} disturbed: under {c:g} acre (Condition A, impaired waters, not assessed here).")


# --------------------------------------------------------------------------------------------
# § 402-54 biodiversity
# --------------------------------------------------------------------------------------------

def _biodiversity_rule(x: Facts) -> Ruling:
    p = param("biodiversity_threshold_acres")
    project = x.project
    acres = (project.application_area_acres if project.application_area_acres is not None
             else x.f.gross_area_sqft / SQFT_PER_ACRE)
    if acres >= float(p.value):
        return Ruling(required=True,
                      reason=f"The application involves {acres:,.2f} acres ({p.value:g} acres or more).")
    return Ruling(required=False, details=False,
                  reason=f"The application involves {acres:,.2f} acres, under {p.value:g} acres (the Board may still "
                         "ask for one under SEQRA).")


def _one_family_dwelling(x: Facts) -> Ruling | None:
    # § 402-54B excepts "the development of a one-family dwelling". A subdivision, site plan or special
    # permit is not that, even when its lots are for one-family houses (reading, README "Readings").
    p = x.project
    if p.one_family_dwelling and p.application_type in (None, "building_permit"):
        return Ruling(required=False, reason="The development of a one-family dwelling is excepted.", details=False)
    if p.one_family_dwelling and p.application_type:
        kind = p.application_type.replace("_", " ")
        return Ruling(required=True, citations=("§ 402-54B",),
                      reason=(f"{_biodiversity_rule(x).reason} A {kind} is not the development of a one-family "
                              "dwelling, so the exception does not apply."))
    if p.one_family_dwelling is None and p.application_type in (None, "building_permit"):
        return Ruling(required=None, citations=("§ 402-54B",),
                      reason=f"{_biodiversity_rule(x).reason} Required unless it is for a one-family dwelling.")
    return None


# --------------------------------------------------------------------------------------------
# map overlays, cluster, wastewater, excavation
# --------------------------------------------------------------------------------------------

def _overlay_rule(role: str, what: str, yes_text: Callable[[], str]):
    def rule(x: Facts) -> Ruling:
        area = x.f.area(role)
        if area is None:
            return Ruling(required=None, reason=f"Unknown: no {what} layer is loaded.", details=True)
        if area >= PRESENCE_MIN_SQFT:
            return Ruling(required=True, reason=yes_text().format(area=f"{area:,.0f}"))
        return Ruling(required=False, reason=f"The parcel is not in the {what}.", details=False)
    return rule


def _flood_text() -> str:
    p = param("flood_maps_effective_date")
    import datetime as _dt

    day = p.value if isinstance(p.value, _dt.date) else _dt.date.fromisoformat(str(p.value))
    return ("{area} sq ft is in the FEMA Special Flood Hazard Area (FIRMs effective "
            f"{day:%B} {day.day}, {day.year}).")


def _cluster_rule(x: Facts) -> Ruling:
    applies, any_trigger = x.cluster_applies, x.any_trigger
    if applies is False:
        return Ruling(required=False, reason="§ 402-48 does not apply to this application (§ 402-48B).",
                      citation="§ 402-48B", details=False)
    if any_trigger and applies:
        return Ruling(required=True, citations=("§ 402-48E", "§ 402-48F", "§ 402-48D", "§ 402-48G"),
                      reason="The property shows at least one sensitive feature of § 402-48C: the Planning Board may "
                             "require a cluster application. To require it, the Board must identify in writing, by "
                             "resolution, the elements of the site that might be adversely impacted without it "
                             "(§ 402-48D); open space it protects must meet § 402-48G.")
    if any_trigger is False and applies is not None:
        return Ruling(required=False, reason="None of the ten features of § 402-48C is present.", details=False)
    return Ruling(required=None, details=False,
                  reason="Unknown until the application type, the district and every trigger are known.")


def _cluster_submissions() -> tuple[str, ...]:
    # § 402-48G(3): what protected open space must show and carry (plat notation, easement, HOA papers).
    return ("§ 402-48G(3)(a)", "§ 402-48G(3)(b)", "§ 402-48G(3)(c)", "§ 402-48G(3)(e)", "§ 402-48G(3)(f)")


def _cluster_clocks(x: Facts) -> tuple[str, ...]:
    return (f"Open space maintenance charges by the Village unpaid for more than "
            f"{value('open_space_lien_days')} days become a lien on the property (§ 402-48G(3)(f)[2]).",)


def _wastewater_rule(x: Facts) -> Ruling:
    project = x.project
    needs = project.sanitary_facilities
    sewer = ""
    if project.road_extension:
        sewer = (" A road extension also needs dry sewer mains in its bed, approved by the Rockland County Sewer "
                 "District (§ 402-56D).")
    if project.new_structure is False or needs is False:
        if project.road_extension:
            return Ruling(required=True, citation="§ 402-56D",
                          reason="No new structure needs sanitary facilities, but the road extension needs dry sewer "
                                 "mains in its bed, approved by the Rockland County Sewer District (§ 402-56D).")
        return Ruling(required=False, reason="No new structure needing sanitary facilities.", details=False)
    cites = ("§ 402-56D",) if project.road_extension else ()
    if project.new_structure and needs:
        if project.public_sewer_available is False:
            return Ruling(required=True, citation="§ 402-56B", citations=cites,
                          reason="No public sewer: a private on-site system complying with the County Health "
                                 "Department rules, making provision for planned sewers (§ 402-56B)." + sewer)
        return Ruling(required=True, citations=("§ 402-56C",) + cites,
                      reason="A building permit for a new structure needing sanitary facilities needs an approved "
                             "method of wastewater disposal (§ 402-56A)." + sewer)
    if project.road_extension:
        return Ruling(required=True, citation="§ 402-56D",
                      reason="The road extension needs dry sewer mains in its bed, approved by the Rockland County "
                             "Sewer District (§ 402-56D); say whether a new structure needs sanitary facilities.")
    return Ruling(required=None, reason="Unknown: say whether a new structure needs sanitary facilities.",
                  details=False)


def _excavation_rule(x: Facts) -> Ruling:
    c = x.project.commercial_excavation
    if c:
        return Ruling(required=True, reason="Excavating soil, rock or aggregate for commercial sale is prohibited "
                                            "in the Village.")
    if c is None:
        return Ruling(required=None, reason="Unknown: say whether material is to be excavated for commercial sale.")
    return Ruling(required=False, reason="No excavation for commercial sale.")


def _fixed(text: str) -> Callable[[Facts], str]:
    return lambda x: text


#: Who the article does not name is a local assumption, said as one.
_CONFIRM = "to confirm with the Village"

DECLARATIONS: tuple[PermitDeclaration, ...] = (
    PermitDeclaration(
        id="steep_slope_permit", title="Steep slope permit", section="§ 402-55C(2)",
        authority=_steep_authority, rule=_steep_rule, clocks=_steep_clocks,
        submissions=lambda: _numbers("§ 402-55E", 4) + _letters("§ 402-55E(5)", "abcdefgh"),
        exceptions=(ExceptionClause("§ 402-55C(1)", "customary landscaping", _customary_landscaping),),
        timeline=("steep_slope_application", "steep_slope_permit"),
        plain=("a steep slope permit",
               "from the Planning Board (or the Village Engineer when nothing else is before the Board)"),
        land_only=True),
    PermitDeclaration(
        id="wetland_permit", title="Wetland permit", section="§ 402-57G",
        authority=_fixed("Planning Board approval; permit issued by the Building Inspector (§ 402-57G)"),
        rule=_wetland_rule, clocks=_wetland_clocks,
        submissions=lambda: _numbers("§ 402-57K", 4) + _letters("§ 402-57K(5)", "abcdefghijkl") + ("§ 402-57K(6)",),
        exceptions=(ExceptionClause("§ 402-57H", "no regulated activity of § 402-57I", _no_regulated_activity),
                    ExceptionClause("§ 402-57F", "grandfathered projects", _grandfathered),
                    ExceptionClause("§ 402-57H(1)-(4)", "exempt activities", _wetland_exempt_activity)),
        timeline=("wetland_delineation", "wetland_permit_application", "wetland_permit"),
        plain=("a wetland permit", "from the Planning Board (the Building Inspector issues it)"), land_only=True),
    PermitDeclaration(
        id="tree_removal_permit", title="Tree removal permit", section="§ 402-53B",
        authority=_fixed("Planning Board (§ 402-53B)"), rule=_tree_rule, clocks=_tree_clocks,
        exceptions=(ExceptionClause("§ 402-53C(1)", "public agency highway or utility work", _public_agency),
                    ExceptionClause("§ 402-53C(2)", "one- or two-family lot that cannot be subdivided",
                                    _one_two_family),
                    ExceptionClause("§ 402-53C(3)", "developer under site plan or subdivision approval",
                                    _site_plan_developer),
                    ExceptionClause("§ 402-53C(4)", "dead or dying trees posing an imminent hazard", _hazard_trees)),
        timeline=("tree_removal_permit",), plain=("a tree removal permit", "from the Planning Board")),
    PermitDeclaration(
        id="swppp", title="Stormwater pollution prevention plan (SWPPP)", section="§ 402-58E",
        authority=_swppp_authority, rule=_swppp_rule, clocks=_swppp_clocks,
        submissions=lambda: _letters("§ 402-58E(1)", "abcdefghijklmnop"),
        exceptions=(ExceptionClause("§ 402-58D", "may be exempt", _swppp_may_be_exempt),),
        timeline=("swppp_inspections",),
        plain=("a stormwater plan (SWPPP)", "reviewed by the Village Engineer and the Planning Board")),
    PermitDeclaration(
        id="swppp_post_construction", title="Post-construction stormwater controls (SWPPP Conditions B/C)",
        section="§ 402-58E(2)", authority=_fixed("Village Engineer"), rule=_post_construction_rule,
        submissions=lambda: _letters("§ 402-58E(3)", "abcdefghi"),
        exceptions=(ExceptionClause("§ 402-58D", "may be exempt", _swppp_may_be_exempt),),
        plain=("permanent stormwater controls", "reviewed by the Village Engineer")),
    PermitDeclaration(
        id="biodiversity_study", title="Highlands biodiversity study", section="§ 402-54B",
        authority=_fixed("Planning Board (application not complete without it)"), rule=_biodiversity_rule,
        clocks=lambda x: (f"A study is valid {value('biodiversity_study_valid_years')} years (§ 402-54B).",),
        submissions=lambda: ("§ 402-54B",),
        exceptions=(ExceptionClause("§ 402-54B", "the development of a one-family dwelling", _one_family_dwelling),),
        timeline=("biodiversity_study",), plain=("a biodiversity study", "for the Planning Board"), land_only=True),
    PermitDeclaration(
        id="nysdec_recreational_river", title="NYSDEC recreational river review", section="§ 402-51C",
        authority=_fixed("NYSDEC (the Building Inspector notifies the applicant, § 402-51B)"),
        rule=_overlay_rule("recreational_river", "Ramapo River recreational river corridor",
                           lambda: "{area} sq ft of the parcel is in the Ramapo recreational river corridor: a NYSDEC "
                                   "permit or written exemption comes before any local approval."),
        plain=("a New York State DEC permit or written exemption", "from the DEC, before any Village approval"),
        land_only=True),
    PermitDeclaration(
        id="rcda_review", title="Rockland County Drainage Agency review", section="§ 402-50B",
        authority=_fixed("Rockland County Drainage Agency; then the Planning Board or Building Inspector "
                         "(§ 402-50B, C)"),
        rule=_overlay_rule("rcda", "Rockland County Drainage Agency stream jurisdiction",
                           lambda: "{area} sq ft is under the county drainage agency's jurisdiction: its requirements "
                                   "must be met before final approval or a building permit."),
        plain=("a review", "by the Rockland County Drainage Agency"), land_only=True),
    PermitDeclaration(
        id="flood_hazard_review", title="Flood hazard area review", section="§ 402-49B",
        # § 402-49B refers to "the separately adopted Flood Hazard Regulations" and names no official.
        authority=_fixed("Under the Village's separately adopted Flood Hazard Regulations (§ 402-49B); Article IX "
                         f"names no official (local assumption: the Village's floodplain administrator, {_CONFIRM})"),
        rule=_overlay_rule("floodplain", "FEMA 100-year floodplain", _flood_text),
        plain=("a flood zone review", "under the Flood Hazard Regulations of the Village"), land_only=True),
    PermitDeclaration(
        id="seqra_cea", title="SEQRA: impact on the Ramapo aquifer CEA", section="§ 402-46C",
        authority=_fixed("The SEQRA lead agency (usually the Planning Board)"),
        rule=_overlay_rule("aquifer_cea", "Ramapo River Sole Source Aquifer CEA",
                           lambda: "{area} sq ft is in the critical environmental area: the CEA must be evaluated in "
                                   "the determination of significance of any Type I or Unlisted action."),
        plain=("an environmental review (SEQRA) of the Ramapo aquifer area",
               "by the Planning Board or another lead agency"), land_only=True),
    PermitDeclaration(
        id="cluster_review", title="Cluster development review", section="§ 402-48C",
        authority=_fixed("Planning Board (§ 402-48C, D)"), rule=_cluster_rule, clocks=_cluster_clocks,
        submissions=_cluster_submissions,
        plain=("a cluster layout review", "by the Planning Board")),
    PermitDeclaration(
        id="wastewater_approval", title="Approved wastewater disposal", section="§ 402-56A",
        authority=_fixed("Rockland County Department of Health / Rockland County Sewer District (§ 402-56B, C)"),
        rule=_wastewater_rule,
        plain=("an approved sewer or septic connection",
               "from the Rockland County Department of Health or Sewer District")),
    PermitDeclaration(
        id="commercial_excavation_prohibited", title="Commercial excavation (prohibited)", section="§ 402-52",
        # § 402-52 prohibits and names no one to enforce it.
        authority=_fixed(f"Prohibited by § 402-52; Article IX names no enforcing official (local assumption: the "
                         f"Building Inspector, {_CONFIRM})"),
        rule=_excavation_rule, prohibited=True,
        plain=("Digging out earth or rock to sell is not allowed here", "")),
)

PERMIT_IDS = tuple(d.id for d in DECLARATIONS)
_BY_ID = {d.id: d for d in DECLARATIONS}
#: Permits decided before the others because others read them (the steep slope authority, § 402-55D(1)).
_FIRST = ("wetland_permit", "tree_removal_permit")


def declaration(permit_id: str) -> PermitDeclaration:
    """The declaration of one permit by its id."""
    return _BY_ID[permit_id]


def permits_for(f: Findings, project: Project, *, settings, subdividable: bool | None,
                cluster_applies: bool | None, any_trigger: bool | None, work: Findings | None = None) -> list[Permit]:
    """Every permit and review of `PERMIT_IDS`, in that order.

    ``work`` is the measure of the parcel plus the disturbance footprint when the footprint leaves the
    parcel (default: ``f``).
    """
    decided: dict[str, Permit] = {}
    x = Facts(f=f, project=project, settings=settings, work=work or f, subdividable=subdividable,
              cluster_applies=cluster_applies, any_trigger=any_trigger, decided=decided)
    for pid in _FIRST + tuple(p for p in PERMIT_IDS if p not in _FIRST):
        decided[pid] = decide(_BY_ID[pid], x)
    return [decided[pid] for pid in PERMIT_IDS]


# --------------------------------------------------------------------------------------------
# § 402-55J design limits: a checklist the engineer ticks
# --------------------------------------------------------------------------------------------

def design_checklist(project: Project) -> list[dict]:
    """§ 402-55J(7), (11), (13), (14): the numeric design limits, each with the engineer's tick.

    ``met`` is the tick from the project (True / False) or None (not checked yet). Text is built from
    the parameters, never typed.

    >>> [i["id"] for i in design_checklist(Project())][:2]
    ['retaining_wall_length', 'retaining_wall_height']
    """
    ratio = str(value("cut_fill_max_slope_ratio"))
    texts = {
        "retaining_wall_length": f"No retaining wall longer than {value('retaining_wall_max_length_ft')} linear feet.",
        "retaining_wall_height": f"No retaining wall higher than {value('retaining_wall_max_height_ft')} feet.",
        "cut_height": f"No cut for a building site, road or driveway higher than {value('cut_max_height_ft')} feet.",
        "cut_fill_slope": f"Cut and fill slopes no steeper than {ratio} (vertical to horizontal) unless "
                          "structurally stabilized as the Village Engineer accepts.",
        "cut_fill_setback": f"Tops and bottoms of cuts and fills set back from structures, generally "
                            f"{value('cut_fill_setback_base_ft')} feet plus {_fraction('cut_fill_setback_height_fraction')} "
                            "the height of the cut or fill.",
    }
    ticks = dict(project.design_limits or ())
    return [{"id": k, "citation": c, "text": texts[k], "met": ticks.get(k)} for k, c in DESIGN_LIMITS.items()]


def _fraction(name: str) -> str:
    v = float(value(name))
    return {0.5: "one half of", 0.25: "one quarter of"}.get(v, f"{v:g} times")
