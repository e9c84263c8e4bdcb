"""The machinery every section module uses for its permits: the answer (`Permit`), what a rule or
exception says (`Ruling`), the facts it reads (`Facts`), the declaration (`PermitDeclaration`,
`ExceptionClause`, `LandAnswer`) and `decide`, which applies one declaration (the order of precedence is
in `sloat_core.rules.permits`), with the helpers the sections share (clause lists, regions, authorities).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from shapely.geometry.base import BaseGeometry

from sloat_core.approvals.deciders import DECIDERS
from sloat_core.gis.geometry import PRESENCE_MIN_SQFT, area_sqft, polygonal
from sloat_core.law.params import value
from sloat_core.law.text import clause
from sloat_core.measure.parcel import Findings
from sloat_core.measure.record import Measures
from sloat_core.records import check_keys
from sloat_core.rules.measures import is_no, present, tri
from sloat_core.rules.project import Project
from sloat_core.units import SQFT_PER_ACRE

if TYPE_CHECKING:
    from sloat_core.rules.sections.clock import ClockDeclaration


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
    #: Who decides it (one of `DECIDERS`), as its declaration says: the approvals list groups it so. Not in
    #: ``to_dict`` (the command line's JSON says who in ``authority``).
    decider: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "required": self.required,
            "reason": self.reason,
            "citation": self.citation,
            "authority": self.authority,
            "submissions": [cited_item(c) for c in self.submissions],
            "clocks": list(self.clocks),
            "citations": list(self.all_citations),
        }

    @property
    def all_citations(self) -> tuple[str, ...]:
        """Every clause the answer rests on, each once: its own, the others it names, its submissions'."""
        return tuple(dict.fromkeys((self.citation,) + self.citations + self.submissions))

    @classmethod
    def from_dict(cls, d: dict) -> Permit:
        """A permit's answer read back from :meth:`to_dict` (a saved result), strictly: a key unknown or missing is
        refused (:class:`sloat_core.errors.ResultShapeError`). The submissions' words are the law text's for their
        clauses (as ``to_dict`` writes them); ``decider`` is not in the dict (None)."""
        check_keys("Permit", d, _PERMIT_KEYS)
        for item in d["submissions"]:
            check_keys("Permit submission", item, ("citation", "text"))
        submissions = tuple(item["citation"] for item in d["submissions"])
        listed = tuple(c for c in d["citations"] if c != d["citation"])
        out = cls(id=d["id"], title=d["title"], required=d["required"], reason=d["reason"], citation=d["citation"],
                  authority=d["authority"], submissions=submissions, clocks=tuple(d["clocks"]),
                  citations=tuple(c for c in listed if c not in submissions))
        if out.to_dict()["citations"] != list(d["citations"]):  # a clause listed both ways, in another order
            out = dataclasses.replace(out, citations=listed)
        return out


#: The keys of a permit's answer as :meth:`Permit.to_dict` writes them, in order.
_PERMIT_KEYS = ("id", "title", "required", "reason", "citation", "authority", "submissions", "clocks", "citations")


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
    #: The answers of the permits this one depends on (its ``depends_on``), by id, in the results' order.
    decided: dict = field(default_factory=dict)
    #: The parcel's measures record (`rules.measures.Measures`): the land-only answers read it, as the
    #: village screen does (`PermitDeclaration.land`).
    measures: Measures | None = None
    #: The project's SEQR class as the core worked it out for the analysis (`approvals.seqr.SeqrResult`, with the
    #: map's parkland and the analysis date): the reviews that turn on it read this one (§ 402-46C), never a
    #: class of their own. None when the caller gave none (the rule then asks `approvals.seqr.seqr_class`).
    seqr: Any = None
    #: The date the rules are applied at (the analysis date, ``--as-of``): the law is read as in effect on it.
    as_of: _dt.date = field(kw_only=True)


@dataclass(frozen=True)
class LandAnswer:
    """How the land alone answers a permit when no project is described: ``answer(measures)``, for one
    parcel or for arrays of parcels (the village screen, `rules.permits.land_permits`).

    Made by :func:`where_the_work_happens`, :func:`on_the_map` or :func:`from_the_land`; ``group`` orders
    the screen's columns (the permits that turn on where the work happens, then the map's reviews, then
    the others, each group in the results' order); ``key`` is the measured area it reads.
    """

    answer: Callable[[Measures], Any]
    group: int
    key: str = ""


def where_the_work_happens(key: str) -> LandAnswer:
    """A permit needed where the work touches the region ``key`` of the measures (the steep slope permit,
    § 402-55C(2); the wetland permit, § 402-57G): with no footprint, no when the region is not on the
    parcel, otherwise unknown (it depends on where the work happens)."""
    return LandAnswer(lambda m: tri(False, is_no(present(m, key))), 0, key)


def on_the_map(role: str) -> LandAnswer:
    """A review required where the parcel has land of ``role`` (§§ 402-46C, 402-49B, 402-50B, 402-51C)."""
    return LandAnswer(lambda m: present(m, role), 1, role)


def from_the_land(answer: Callable[[Measures], Any]) -> LandAnswer:
    """Any other answer the land alone gives (the biodiversity study's acreage, § 402-54B)."""
    return LandAnswer(answer, 2)


@dataclass(frozen=True)
class ExceptionClause:
    """One exemption of a permit: its clause, a short name, and its test (None: it says nothing here)."""

    citation: str
    name: str
    test: Callable[[Facts], Ruling | None]


@dataclass(frozen=True)
class PermitDeclaration:
    """Everything about one permit, declared once in the module of its section."""

    id: str
    title: str
    section: str
    authority: Callable[[Facts], str]
    #: Who decides it, one of `DECIDERS` (the approvals list groups the permits by it): a value, or for a
    #: permit whose decider turns on the proposal (§ 402-55D), a function of `Facts` giving one.
    decider: str | Callable[[Facts], str]
    rule: Callable[[Facts], Ruling]
    #: Where the results list it (lower first; numbers leave room for a new permit).
    order: int
    submissions: Callable[[], tuple[str, ...]] = lambda: ()
    #: Its clocks (`sections.clock.ClockDeclaration`), in the order its answer tells them: the answer's
    #: ``clocks`` lines are their ``words``.
    clocks: tuple[ClockDeclaration, ...] = ()
    exceptions: tuple[ExceptionClause, ...] = ()
    #: Its clocks the timeline page offers for it, in the order they happen; the last one is the permit
    #: itself (app_support.inputs.timeline_prefill).
    timeline: tuple[ClockDeclaration, ...] = ()
    #: (what is needed, from whom) in everyday words, for the counter.
    plain: tuple[str, str] = ("", "")
    #: Its answer from the land alone, when no project is described (the village screen's permits).
    land: LandAnswer | None = None
    #: It is a permit or approval by the Planning Board (who decides: § 402-55D(1) "requires the issuance
    #: of a permit or approval by it").
    planning_board_permit: bool = False
    #: The permits whose answers its rule or authority reads (``Facts.decided``): decided before it. Ids,
    #: or `PLANNING_BOARD_PERMITS` for every permit with ``planning_board_permit``.
    depends_on: tuple[str, ...] = ()
    #: The study a resident commissions for it before applying, in everyday words (the counter's next steps).
    study: str = ""
    #: Prohibitions are told as "not allowed", not as a permit to get.
    prohibited: bool = False
    #: Its clause turns on the kind of action, not on where the work happens (§ 402-46C: "any Type I or Unlisted
    #: Action"). A described project that does not need it has answered it for the whole lot, so the land's answer
    #: is not told again as something the parcel carries for later work (`engine.answer.permits_by_cause`).
    turns_on_the_action: bool = False

    def __post_init__(self):
        if isinstance(self.decider, str):
            known_decider(self.decider, self.id)
        elif not callable(self.decider):
            raise ValueError(f"The {self.id} declares no decider: give one of {', '.join(DECIDERS)}.")

    def decider_for(self, x: Facts) -> str:
        """Who decides it for these facts (its declared value, or its function's answer, checked)."""
        return self.decider if isinstance(self.decider, str) else known_decider(self.decider(x), self.id)


def known_decider(who: str, permit_id: str) -> str:
    """``who`` when it is one of `DECIDERS`; a declaration error otherwise."""
    if who not in DECIDERS:
        raise ValueError(f"The {permit_id}'s decider {who!r} is not one of {', '.join(DECIDERS)}.")
    return who


#: In ``depends_on``: every permit the Planning Board approves (``planning_board_permit``).
PLANNING_BOARD_PERMITS = "permits by the Planning Board"


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
    clocks = tuple(line for c in decl.clocks for line in c.words(x)) if ruling.details else ()
    return Permit(id=decl.id, title=decl.title, required=ruling.required, reason=ruling.reason,
                  citation=ruling.citation or decl.section, authority=decl.authority(x), submissions=subs,
                  clocks=clocks, citations=ruling.citations, decider=decl.decider_for(x))


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=512)
def _first_sentence(citation: str) -> str:
    text = clause(citation).strip()
    text = re.sub(r"^(\(\w+\)|\[\d+\]|[A-Z]\.)\s*", "", text)
    first = text.split("\n", 1)[0]
    return first if len(first) <= 260 else first[:257].rsplit(" ", 1)[0] + "..."


def cited_item(citation: str) -> dict:
    return {"citation": citation, "text": _first_sentence(citation)}


def clause_letters(prefix: str, letters: str) -> tuple[str, ...]:
    return tuple(f"{prefix}({c})" for c in letters)


def clause_numbers(prefix: str, last: int, first: int = 1) -> tuple[str, ...]:
    return tuple(f"{prefix}({n})" for n in range(first, last + 1))


def acres_text(sqft: float) -> str:
    return f"{sqft / SQFT_PER_ACRE:,.2f} acres"


def month_day_text(name: str, on: _dt.date) -> str:
    """A "MM-DD" parameter (as in effect on ``on``) as "15 December"."""
    month, day = (int(v) for v in str(value(name, on)).split("-"))
    return f"{day} {_dt.date(2000, month, 1):%B}"


def measure_in(region: BaseGeometry):
    """Area of ``region`` inside a geometry (all of it for None): the measure `in_region` reads."""
    return lambda g: area_sqft(region) if g is None else area_sqft(polygonal(g.intersection(region)))


def in_region(x: Facts, area_in, region_name: str, unknown_in=None, missing: str | None = None,
               key: str | None = None):
    """Does the work touch a region? (True/False/None, text).

    ``area_in(g)`` is the region's area inside ``g`` (a part of the work area; None: the whole parcel);
    ``area_in`` None means the layer is missing. ``unknown_in`` measures land where it is unknown
    whether the region is there (slopes off the elevation model). ``missing`` names layers of the
    region that are not loaded: then "does not touch" becomes unknown, never "no". With no footprint the
    answer is `where_the_work_happens` on the parcel's measures (its ``key``), as in the village screen.
    The footprint is measured where it lies (§ 402-57G: "No activity shall be conducted in a
    wetland ... without approval" — the neighbour's wetland counts too); the part off the parcel is said.
    """
    if area_in is None:
        return None, f"Unknown: the {region_name} layer is not loaded."
    f, project = x.work, x.project
    fp = project.disturbance_footprint
    if fp is None:
        m = x.measures
        whole = area_in(None) if m is None or key is None else m.areas[key]
        absent = (whole < PRESENCE_MIN_SQFT if m is None or key is None
                  else where_the_work_happens(key).answer(m) is False)
        if absent and not missing:
            return False, f"The parcel has no {region_name}."
        if whole < PRESENCE_MIN_SQFT:
            if missing:
                return None, f"Unknown: the parcel has no {region_name} on the loaded layers, but {missing}."
            return None, f"Unknown: not every layer of the {region_name} is loaded or covers the parcel."
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


def planning_board_permits(x: Facts) -> tuple[list[str], list[str]]:
    """Titles of the permits by the Planning Board among those decided before this one (its
    ``depends_on``), in the results' order: (needed, maybe needed)."""
    from sloat_core.rules.sections import PERMITS

    board = {d.id for d in PERMITS if d.planning_board_permit}
    sure: list[str] = []
    maybe: list[str] = []
    for pid, p in x.decided.items():
        if pid in board and p.required is not False:
            (sure if p.required else maybe).append(p.title.lower())
    return sure, maybe


def before_planning_board(x: Facts) -> bool | None:
    """Is the proposal before the Planning Board: an application to it, or a permit it must approve?

    None when the application type is not given. A building permit whose wetland or tree permit is
    still unknown counts as not before the Board (the authority text names the proviso).
    """
    if x.project.needs_planning_board:
        return True
    sure, _ = planning_board_permits(x)
    if sure:
        return True
    return x.project.needs_planning_board


def unless_text(x: Facts) -> str:
    _, maybe = planning_board_permits(x)
    return f", unless the proposal also needs a {' or '.join(maybe)} from the Planning Board" if maybe else ""


def fixed(text: str) -> Callable[[Facts], str]:
    return lambda x: text


#: Who the article does not name is a local assumption, said as one.
CONFIRM = "to confirm with the Village"


def overlay_rule(role: str, what: str, yes_text: Callable[[_dt.date | None], str]) -> Callable[[Facts], Ruling]:
    """The rule of a review the map decides: required where the parcel has land of ``role`` (§§ 402-46C,
    402-49B, 402-50B, 402-51C), the same rule as the village screen (`measures.present`). ``yes_text`` gives
    its words as the law stands on the date the rule is applied at."""
    def rule(x: Facts) -> Ruling:
        m = x.measures
        area = m.areas[role]
        if area != area:  # nan: the layer is not loaded
            return Ruling(required=None, reason=f"Unknown: no {what} layer is loaded.", details=True)
        state = present(m, role)
        if state:
            return Ruling(required=True, reason=yes_text(x.as_of).format(area=f"{area:,.0f}"))
        if state is None:
            return Ruling(required=None, reason=f"Unknown: the {what} layer does not cover enough of the parcel.")
        return Ruling(required=False, reason=f"The parcel is not in the {what}.", details=False)
    return rule
