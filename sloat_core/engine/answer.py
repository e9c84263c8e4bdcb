"""The counter's answer: "What this means for your lot", in plain words, from an analysis result.

Reads the typed result of :func:`sloat_core.engine.analysis.analyze_parcel`
(:class:`sloat_core.engine.result.ParcelResult`, by attribute) and computes no law: whether the
lot is big enough is the core's ``meets_min_lot_area``, the permits and their reasons are the core's.
It arranges them as a resident asks: can I build a house, what stands in the way, what do I do
next and in which order, what must the Village confirm, whom do I ask. The app's answer card and
the one-page handout (:mod:`sloat_core.outputs.handout`) print the same :class:`LotAnswer`: for a lot of
45,000 sq ft that counts in R-40, ``verdict`` "likely", ``headline`` "A one-family house looks possible on this
lot as far as its size goes." (whole answers: tests/engine/test_answer_handout.py).

>>> HEADLINES["likely"]
'A one-family house looks possible on this lot as far as its size goes.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sloat_core.engine import plain
from sloat_core.measure.rows import DEDUCTION_ROWS
from sloat_core.rules.permits import DECLARATIONS

if TYPE_CHECKING:
    from sloat_core.engine.result import Deduction, ParcelResult
    from sloat_core.rules.sections.permit import Permit

__all__ = ["TITLE", "CONTACTS", "HEADLINES", "PROJECT_HEADING", "PARCEL_HEADING", "LOT_LIMITS_HEADING", "LotAnswer", "lot_answer", "permits_by_cause",
           "what_if_sentence", "figures_notes"]

TITLE = "What this means for your lot"
#: The two halves of the answer, in this order: what the project's facts and footprint trigger, then the
#: permits of the land that the project does not trigger.
PROJECT_HEADING = "What your project needs"
PARCEL_HEADING = "What the parcel carries for any later work"
LOT_LIMITS_HEADING = "Land that does not count toward the lot size"
#: How many of the things in the way lead the answer (the rest folds below).
TOP = 3

#: Whom a resident asks, in the order they usually meet them (office names only: no number is invented).
CONTACTS: tuple[str, ...] = (
    "Building Department, Village of Sloatsburg (Village Hall): zoning district, lot size, building "
    "permit, and which permits apply.",
    "Village Clerk: Planning Board meeting dates, application forms and fees.",
    "Planning Board: wetland, steep slope and tree permits, subdivisions and cluster layouts.",
)

# Studies a resident commissions before applying, by the deduction row or permit that calls for them (each from its
# declaration: ``RowSpec.study``, ``PermitDeclaration.study``).
_STUDY_OF_ROW = {r.id: r.study for r in DEDUCTION_ROWS}
_STUDY_OF_PERMIT = {d.id: d.study for d in DECLARATIONS if d.study}
#: Reviews whose clause turns on the kind of action, not on where the work happens (§ 402-46C).
_ACTION_REVIEWS = frozenset(d.id for d in DECLARATIONS if d.turns_on_the_action)
#: The rows whose land carries the buffer (the buffer row's ``reads``): wetland, streams, ponds.
_BUFFERED = frozenset(next((r.reads for r in DEDUCTION_ROWS if r.land == "buffer"), ()))
#: The buffer row's study when the wetland or stream itself is on the neighbour's land.
_NEIGHBOUR_STUDY = ("a wetland scientist to mark the edge of the wetland or stream next door: it is on the "
                    "neighbour's land (only its buffer is on your lot), so ask the neighbour first")


def permits_by_cause(result: ParcelResult) -> tuple[list[Permit], list[Permit]]:
    """The result's permits split by what triggers them: (what the project needs, what the parcel carries).

    A permit whose declaration has an answer from the land alone (``land=``) is the parcel's when the project
    left that answer as the land gave it (same answer, same reason: no fact or footprint of the project
    changed it), or when the project does not need it but the land does; it is the project's when the
    project's facts or footprint changed the answer. A permit without a land answer is the project's. A review
    whose clause turns on the kind of action (its declaration's ``turns_on_the_action``: § 402-46C, Type I or
    Unlisted actions) that the project does not need is in neither list: the project's class answered it (a Type II
    garage or house in the aquifer CEA carries no SEQRA review of the CEA).
    Prohibitions are neither (``plain.is_prohibition``). Not needed (False) is in neither list. With no
    project described, the project needs nothing yet and the land's permits are the parcel's. (Three trees to
    cut on a lot in the flood zone: the tree permit is the project's, the flood review the parcel's:
    tests/engine/test_answer_project_first.py.)
    """
    permits = [p for p in result.permits if not plain.is_prohibition(p)]
    land = {p.id: p for p in result.land_permits}
    described = bool(result.project_described)
    project: list[Permit] = []
    parcel: list[Permit] = []
    for p in permits:
        bare = land.get(p.id)
        if bare is None:
            if described and p.required is not False:
                project.append(p)
            continue
        untouched = (bare.required, bare.reason) == (p.required, p.reason)
        if described and not untouched and p.required is not False:
            project.append(p)
        elif described and p.required is False and p.id in _ACTION_REVIEWS:
            continue  # the project's kind of action answered it, for the whole lot
        elif bare.required is not False:
            parcel.append(bare)
    return project, parcel


def what_if_sentence(result: ParcelResult) -> str | None:
    """For a district without a minimum lot size: the answer at the candidate minimums, as a what-if.

    The candidates and the comparison are the core's (``min_lot_area_what_if``, from
    ``data/settings/lot_size_what_if.yaml``, :mod:`sloat_core.engine.what_if`). For VC-1 at 12,000 sq ft: "What
    if (not the Village's figures): if the VC-1 minimum were 10,000 sq ft, the lot would look big enough; if it
    were 15,000 sq ft, about 3,000 sq ft short. Ask the Building Department for the real minimum (candidates to
    confirm with the Village, setting of 2026-12-02)."
    """
    w = result.min_lot_area_what_if
    if not w or not w.cases:
        return None
    parts = []
    for i, c in enumerate(w.cases):
        m = c.min_lot_area_sqft or 0
        lead = f"if the {result.district} minimum were {_sqft(m)}" if i == 0 else f"if it were {_sqft(m)}"
        meets = c.meets_min_lot_area
        outcome = ("the lot would look big enough" if meets is True and i == 0 else "big enough" if meets is True
                   else f"about {_sqft(c.short_by_sqft or 0.0)} short" if meets is False
                   else "it could not be told (land not measured)")
        parts.append(f"{lead}, {outcome}")
    return (f"What if (not the Village's figures): {'; '.join(parts)}. Ask {w.ask or 'the Building Department'} "
            f"for the real minimum (candidates to confirm with the Village, setting of {w.effective}).")


def figures_notes(result: ParcelResult) -> list[str]:
    """Why one land shows two figures: all of it on the lot, and the part counted in its own row ("Land next to a
    wetland or stream: 24,007 sq ft of your lot in all, 5,246 sq ft in its own row (the rest is counted in a row
    above it: each piece of land counts once). The wetland permit's figure adds the wetland and streams themselves
    to it.")."""
    out = []
    for d in result.deductions:
        total, own = d.total_area_sqft, d.area_sqft
        if total is None or own is None or total - own < 0.5:
            continue
        what = plain.plain_constraint(d.constraint or "", d.label)
        also = (" The wetland permit's figure adds the wetland and streams themselves to it."
                if d.constraint == "buffer" else "")
        out.append(f"{what[:1].upper()}{what[1:]}: {_sqft(total)} of your lot in all, {_sqft(own)} in its own row "
                   f"(the rest is counted in a row above it: each piece of land counts once).{also}")
    return out


def _neighbours_resource(result: ParcelResult) -> bool:
    """The lot has buffer land but none of the wetland, stream or pond it surrounds: the resource is next door."""
    rows = {d.constraint: d for d in result.deductions}
    buffer = rows.get("buffer")
    if buffer is None or (buffer.area_sqft or 0.0) < 0.5:
        return False
    resources = [rows[r.id] for r in DEDUCTION_ROWS if r.id in _BUFFERED and r.id in rows]
    return bool(resources) and all((d.area_sqft or 0.0) < 0.5 and d.area_sqft is not None for d in resources)


@dataclass(frozen=True)
class LotAnswer:
    """The answer card.

    Attributes
    ----------
    verdict : str
        "likely" (big enough), "unlikely" (too small), or "unknown".
    house : str
        One or two sentences: does a one-family house look possible, as far as lot size goes (the
        :attr:`headline` and the :attr:`why` as one).
    in_the_way : list of str
        What stands in the way or needs care (land that does not count, permits likely needed).
    next_steps : list of str
        What to do, in the usual order.
    village_confirms : list of str
        What the Village must confirm before anyone relies on this.
    contacts : tuple of str
        Whom to ask.
    note : str
        Screening estimate, who decides, sample maps.
    citations : list of str
        The §§ the answer rests on (lot area rule and the permits named).
    """

    verdict: str
    house: str
    in_the_way: list[str]
    next_steps: list[str]
    village_confirms: list[str]
    contacts: tuple[str, ...] = CONTACTS
    note: str = ""
    citations: list[str] = field(default_factory=list)
    title: str = TITLE
    #: The verdict in one plain sentence (:data:`HEADLINES`): whether a one-family house can fit. The counter's
    #: first screen puts it beside the handout's button.
    headline: str = ""
    #: Why: the land that counts against the district's minimum (or what is not known), and whom to ask.
    why: str = ""
    #: Land of the lot that does not count toward its size, one sentence per row.
    lot_limits: list[str] = field(default_factory=list)
    #: The same sentences, the most land first (a list shortened to fit a page keeps the largest).
    largest_limits: list[str] = field(default_factory=list)
    #: What the project's facts and footprint trigger (:data:`PROJECT_HEADING`), permits and open questions.
    project_needs: list[str] = field(default_factory=list)
    #: The land's permits the project does not trigger (:data:`PARCEL_HEADING`).
    parcel_carries: list[str] = field(default_factory=list)
    #: Work the law forbids with or without a permit (§ 402-52), if the project includes it.
    prohibited: list[str] = field(default_factory=list)
    #: The cluster rule in one sentence when the land shows a trigger (§ 402-48C), else None.
    cluster: str | None = None
    #: Whether a project was described (otherwise ``project_needs`` says how to describe it).
    project_described: bool = False
    #: Why one land shows two figures (all of it on the lot, and its own row).
    figures: list[str] = field(default_factory=list)
    #: The things in the way that lead the answer (at most :data:`TOP`): the permits the project likely
    #: needs, then the largest pieces of land that do not count, then what the parcel carries, then the
    #: project's open questions.
    top: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"title": self.title, "verdict": self.verdict, "house": self.house, "headline": self.headline,
                "why": self.why,
                "in_the_way": list(self.in_the_way), "next_steps": list(self.next_steps),
                "village_confirms": list(self.village_confirms), "contacts": list(self.contacts),
                "note": self.note, "citations": list(self.citations), "lot_limits": list(self.lot_limits),
                "largest_limits": list(self.largest_limits),
                "project_needs": list(self.project_needs), "parcel_carries": list(self.parcel_carries),
                "prohibited": list(self.prohibited), "cluster": self.cluster,
                "project_described": self.project_described, "figures": list(self.figures),
                "top": list(self.top)}

    def sections(self, steps: list[str] | None = None) -> list[tuple[str, list[str], bool]]:
        """The whole answer as (heading, items, numbered), in the order a resident reads it: what the project
        needs (what the law forbids first), what the parcel carries for any later work (the cluster rule
        with it), the land that does not count, the next steps (``steps`` when given: the handout's), what
        the Village must confirm, whom to ask. Sections with nothing to say are left out. The app's whole
        answer, the handout PDF and the handout's web page print these.

        >>> a = LotAnswer(verdict="likely", house="", in_the_way=[], next_steps=["Ask."], village_confirms=[],
        ...               project_needs=["Nothing under these rules."])
        >>> [h for h, _, _ in a.sections()]
        ['What your project needs', 'What the parcel carries for any later work', 'Next steps, in the usual order', 'Whom to ask']
        """
        carried = [*self.parcel_carries, *([self.cluster] if self.cluster else [])]
        rows = [(PROJECT_HEADING, [*self.prohibited, *self.project_needs], False),
                (PARCEL_HEADING, carried or ["Nothing more on the maps used here."], False),
                (LOT_LIMITS_HEADING, self.lot_limits, False),
                ("Next steps, in the usual order", list(steps or self.next_steps), True),
                ("What the Village must confirm", self.village_confirms, False),
                ("Whom to ask", list(self.contacts), False)]
        return [(h, list(items), numbered) for h, items, numbered in rows if items]


def _sqft(x: float) -> str:
    return f"{x:,.0f} sq ft"


#: The verdict in one plain sentence, by the answer's verdict (:attr:`LotAnswer.headline`).
HEADLINES = {
    "likely": "A one-family house looks possible on this lot as far as its size goes.",
    "unlikely": "A one-family house does not look possible on this lot as it stands.",
    "unknown": "We cannot tell yet whether a one-family house fits on this lot.",
}


def _house(result: ParcelResult) -> tuple[str, str]:
    """(the verdict, why: the land that counts against the district's minimum, and whom to ask)."""
    net = result.net_lot_area_sqft or 0.0
    low = result.net_lot_area_min_sqft
    district = result.district
    minimum = result.min_lot_area_sqft
    meets = result.meets_min_lot_area
    if not district:
        return "unknown", ("The lot's zoning district is not known here. The Building Department can tell you the "
                           "district and its minimum lot size.")
    if minimum is None:
        text = (f"No minimum lot size is recorded here for the {district} district. The Building Department can "
                "tell you what applies.")
        what_if = what_if_sentence(result)
        return "unknown", f"{text} {what_if}" if what_if else text
    if meets is True:
        return "likely", (f"About {_sqft(net)} counts toward the lot size, and the {district} district needs at "
                          f"least {_sqft(minimum)}.")
    if meets is False:
        about = "at least" if low is not None and net - low >= 0.5 else "about"
        return "unlikely", (f"About {_sqft(net)} counts toward the lot size, {about} "
                            f"{_sqft(max(minimum - net, 0.0))} short of the {_sqft(minimum)} the {district} district "
                            "needs. Ask the Building Department whether the lot was created before this rule (an "
                            "existing lot may be treated differently) or whether a variance from the Zoning Board "
                            "of Appeals could be sought.")
    return "unknown", (f"Between {(low or 0.0):,.0f} and {_sqft(net)} counts toward the lot size, against the "
                       f"{_sqft(minimum)} the {district} district needs, because part of the land could not be "
                       "measured on the maps used here.")


def _studies_sentence(studies: list[str]) -> str:
    """The studies to commission, each professional named once with all their tasks.

    >>> _studies_sentence(["a surveyor to locate the stream banks", "a wetland scientist to mark the edge",
    ...                    "a surveyor to map the slopes"])
    'a surveyor to locate the stream banks and map the slopes; and a wetland scientist to mark the edge'
    >>> _studies_sentence(["a surveyor to locate the stream banks", "an engineer to prepare a plan"])
    'a surveyor to locate the stream banks and an engineer to prepare a plan'
    >>> _studies_sentence(["a surveyor to locate the stream banks", "a surveyor to map the slopes"])
    'a surveyor to locate the stream banks and map the slopes'
    """
    tasks: dict[str, list[str]] = {}
    for study in studies:
        who, _, task = study.partition(" to ")
        tasks.setdefault(who, []).append(task)
    if all(len(t) == 1 for t in tasks.values()):
        return plain._join(studies)
    people = [f"{who} to {plain._join(t)}" for who, t in tasks.items()]
    return people[0] if len(people) == 1 else "; ".join(people[:-1]) + "; and " + people[-1]


def _first_step(result: ParcelResult) -> str:
    """The first next step, about this lot: the district and minimum the answer assumed, for the Building
    Department to confirm (a lot in two districts names both; an unknown district is asked for). As short as
    the general step it replaced: at the counter it is on the first screen."""
    names = list(dict.fromkeys(d.district for d in result.districts if d.district))
    district, minimum = result.district, result.min_lot_area_sqft
    ask = "Bring this sheet to the Building Department to"
    if len(names) > 1:
        return f"{ask} confirm the {plain._join(names)} districts, the minimum lot size and which permits apply."
    if district and minimum:
        return f"{ask} confirm the {district} district, its {_sqft(minimum)} minimum and which permits apply."
    if district:
        return f"{ask} confirm the {district} district, its minimum lot size and which permits apply."
    return f"{ask} ask which zoning district the lot is in, its minimum lot size and which permits apply."


def _row_words(d: Deduction, neighbours: bool) -> str:
    """A deduction row's land in plain words (the buffer says when its wetland or stream is next door)."""
    what = plain.plain_constraint(d.constraint or "", d.label)
    if neighbours and d.constraint == "buffer":
        what += " (the wetland or stream itself is on the neighbour's land)"
    return what


def _lot_limits(result: ParcelResult, neighbours: bool) -> list[tuple[float, str]]:
    """Each deduction row that takes land off the lot size: the land it takes and one sentence, in the rows' order."""
    out = []
    for d in result.deductions:
        deducted = d.deducted_sqft
        what = _row_words(d, neighbours)
        if deducted is not None and deducted >= 0.5:
            out.append((deducted, f"{_sqft(deducted)} of {what} does not count toward the lot size "
                                  f"({plain.plain_share(d.countable_fraction)})."))
        elif deducted is None and (at_least := d.known_deducted_sqft or 0.0) >= 0.5:
            # The maps cover only part of the lot: what they show there is known, the rest is not.
            out.append((at_least, f"At least {_sqft(at_least)} of {what} does not count toward the lot size "
                                  f"({plain.plain_share(d.countable_fraction)}; the maps used here do not "
                                  "cover all of your lot)."))
    return out


def _studies(result: ParcelResult, neighbours: bool, needed: list[Permit]) -> list[str]:
    """The studies to commission before applying: those of the rows with land on the lot, then those of the
    permits needed, each once."""
    studies = []
    for d in result.deductions:
        if (d.area_sqft or 0.0) >= 0.5 and (s := _STUDY_OF_ROW.get(d.constraint or "")):
            studies.append(_NEIGHBOUR_STUDY if neighbours and d.constraint == "buffer" else s)
    studies += [s for p in needed if (s := _STUDY_OF_PERMIT.get(p.id or ""))]
    return list(dict.fromkeys(studies))


def _project_needs(result: ParcelResult, mine: list[Permit], described: bool) -> list[str]:
    """What the project needs, in sentences; how to describe it when it is not described yet."""
    needs = plain.plain_permits(result, mine)
    if not described:
        return ["No project is described yet: say what you plan (the Proposed project page) to know which permits "
                "it needs."]
    return needs or ["Nothing under these rules, on what is known of the project."]


def _in_the_way(asked: list[str], prohibited: list[str], lot_limits: list[str], parcel_carries: list[str],
                cluster: str | None) -> list[str]:
    """Everything that stands in the way or needs care, or the one sentence that nothing does."""
    out = [*asked, *prohibited, *lot_limits, *parcel_carries, *([cluster] if cluster else [])]
    return out or ["Nothing on the maps used here stands in the way."]


def _top(asked: list[str], prohibited: list[str], limits: list[tuple[float, str]], parcel_carries: list[str],
         in_the_way: list[str]) -> list[str]:
    """The things in the way that lead the answer (:data:`TOP`): what the law forbids, the permits the project
    likely needs, the largest pieces of land that do not count, what the parcel carries, the open questions."""
    likely = [x for x in asked if x.startswith("You will likely need")]
    questions = [x for x in asked if x not in likely]
    largest = [x for _, x in sorted(limits, key=lambda t: -t[0])]
    return list(dict.fromkeys([*prohibited, *likely, *largest, *parcel_carries, *questions, *in_the_way][:TOP]))


def _next_steps(result: ParcelResult, studies: list[str], needed: list[Permit]) -> list[str]:
    """What to do, in the usual order: confirm the lot, commission the studies, apply for the permits needed,
    then for the building permit."""
    steps = [_first_step(result)]
    if studies:
        steps.append("Before applying, hire " + _studies_sentence(studies) + ".")
    if needed:
        names = [" ".join(w) if w[0] == "a review" else w[0] for w in (plain._needed(p) for p in needed)]
        steps.append("Apply for " + plain._join(names) + " (the Planning Board hears most of these at a "
                     "public meeting; the Village Clerk has the forms and dates).")
    steps.append("Then apply for the building permit at the Building Department; work starts only after "
                 "every permit is granted.")
    return steps


def _village_confirms(result: ParcelResult) -> list[str]:
    """What the Village must confirm before anyone relies on the answer: the settings assumed, the land not
    measured, the ground itself, and the sample maps."""
    confirms: list[str] = []
    if result.min_lot_area_verify and result.min_lot_area_sqft:
        confirms.append(f"The minimum lot size of the {result.district} district "
                        f"({_sqft(result.min_lot_area_sqft)} is assumed here).")
    width = result.buffer_width_ft
    if width and any(d.constraint == "buffer" for d in result.deductions):
        confirms.append(f"The width of the wetland and stream buffer ({width:,.0f} ft is assumed here).")
    unmeasured = [plain.plain_constraint(d.constraint or "", d.label)
                  for d in result.deductions if d.deducted_sqft is None]
    if unmeasured:
        confirms.append("How much of the lot is " + plain._join(unmeasured, "or")
                        + " (not measured on the maps used here).")
    confirms.append("Where the wetlands, streams, flood zone and steep slopes really are on the ground.")
    if result.layers_illustrative:
        confirms.append("Everything above: the maps used are an illustrative sample, not official data.")
    return confirms


def lot_answer(result: ParcelResult) -> LotAnswer:
    """The answer card for an analysis result (see the module's docstring).

    Parameters
    ----------
    result : ParcelResult
        The analysis result (``analyze_parcel(...).result``).

    Returns
    -------
    LotAnswer
    """
    verdict, why = _house(result)
    headline = HEADLINES[verdict]
    house = f"{headline[:-1]}: {why[:1].lower()}{why[1:]}"
    neighbours = _neighbours_resource(result)
    limits = _lot_limits(result, neighbours)
    lot_limits = [sentence for _, sentence in limits]
    mine, carried = permits_by_cause(result)
    described = bool(result.project_described)
    project_needs = _project_needs(result, mine, described)
    asked = project_needs if described else []
    parcel_carries = plain.plain_carried(carried)
    prohibited = plain.plain_permits(result, [p for p in result.permits if plain.is_prohibition(p)])
    cluster = plain.plain_cluster(result)
    in_the_way = _in_the_way(asked, prohibited, lot_limits, parcel_carries, cluster)
    needed = [p for p in mine if p.required is True]
    citations = [result.lot_area_citation or ""] + [p.citation or "" for p in needed]
    largest = [x for _, x in sorted(limits, key=lambda t: -t[0])]
    return LotAnswer(verdict=verdict, house=house, headline=headline, why=why, in_the_way=in_the_way,
                     next_steps=_next_steps(result, _studies(result, neighbours, needed), needed),
                     village_confirms=_village_confirms(result), note=plain.screening_note(result),
                     citations=[c for c in dict.fromkeys(citations) if c], lot_limits=lot_limits,
                     largest_limits=largest,
                     project_needs=project_needs, parcel_carries=parcel_carries,
                     prohibited=prohibited, cluster=cluster, project_described=bool(result.project_described),
                     figures=figures_notes(result), top=_top(asked, prohibited, limits, parcel_carries, in_the_way))
