"""The counter's answer: "What this means for your lot", in plain words, from an analysis result.

Reads the plain dict of :func:`sloat_core.engine.analysis.analyze` and computes no law: whether the
lot is big enough is the core's ``meets_min_lot_area``, the permits and their reasons are the core's.
It arranges them as a resident asks: can I build a house, what stands in the way, what do I do
next and in which order, what must the Village confirm, whom do I ask. The app's answer card and
the one-page handout (:mod:`sloat_core.outputs.handout`) print the same :class:`LotAnswer`.

>>> a = lot_answer({"gross_area_sqft": 50000.0, "net_lot_area_sqft": 45000.0, "district": "R-40",
...     "min_lot_area_sqft": 40000.0, "meets_min_lot_area": True, "deductions": [], "permits": [],
...     "lot_area_citation": "§ 402-45A"})
>>> a.verdict
'likely'
>>> a.house
'A one-family house looks possible on this lot as far as its size goes: about 45,000 sq ft counts toward the lot size, and the R-40 district needs at least 40,000 sq ft.'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sloat_core.engine import plain
from sloat_core.measure.rows import DEDUCTION_ROWS
from sloat_core.rules.permits import DECLARATIONS

__all__ = ["TITLE", "CONTACTS", "LotAnswer", "lot_answer"]

TITLE = "What this means for your lot"

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


@dataclass(frozen=True)
class LotAnswer:
    """The answer card.

    Attributes
    ----------
    verdict : str
        "likely" (big enough), "unlikely" (too small), or "unknown".
    house : str
        One or two sentences: does a one-family house look possible, as far as lot size goes.
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

    def to_dict(self) -> dict:
        return {"title": self.title, "verdict": self.verdict, "house": self.house,
                "in_the_way": list(self.in_the_way), "next_steps": list(self.next_steps),
                "village_confirms": list(self.village_confirms), "contacts": list(self.contacts),
                "note": self.note, "citations": list(self.citations)}


def _sqft(x: float) -> str:
    return f"{x:,.0f} sq ft"


def _house(result: dict) -> tuple[str, str]:
    net = result.get("net_lot_area_sqft") or 0.0
    low = result.get("net_lot_area_min_sqft")
    district = result.get("district")
    minimum = result.get("min_lot_area_sqft")
    meets = result.get("meets_min_lot_area")
    if not district:
        return "unknown", ("We cannot tell yet whether a house fits: the lot's zoning district is not known here. "
                           "The Building Department can tell you the district and its minimum lot size.")
    if minimum is None:
        return "unknown", (f"We cannot tell yet whether a house fits: no minimum lot size is recorded here for the "
                           f"{district} district. The Building Department can tell you what applies.")
    if meets is True:
        return "likely", (f"A one-family house looks possible on this lot as far as its size goes: about "
                          f"{_sqft(net)} counts toward the lot size, and the {district} district needs at least "
                          f"{_sqft(minimum)}.")
    if meets is False:
        about = "at least" if low is not None and net - low >= 0.5 else "about"
        return "unlikely", (f"A new house does not look possible on this lot as it stands: about {_sqft(net)} "
                            f"counts toward the lot size, {about} {_sqft(max(minimum - net, 0.0))} short of the "
                            f"{_sqft(minimum)} the {district} district needs. Ask the Building Department whether "
                            "the lot was created before this rule (an existing lot may be treated differently) "
                            "or whether a variance from the Zoning Board of Appeals could be sought.")
    return "unknown", (f"We cannot tell yet whether a house fits: between {(low or 0.0):,.0f} and {_sqft(net)} "
                       f"counts toward the lot size, against the {_sqft(minimum)} the {district} district needs, "
                       "because part of the land could not be measured on the maps used here.")


def lot_answer(result: dict) -> LotAnswer:
    """The answer card for an analysis result (see the module's docstring).

    Parameters
    ----------
    result : dict
        ``analyze(...)`` output (the CLI JSON contract).

    Returns
    -------
    LotAnswer
    """
    verdict, house = _house(result)
    in_the_way: list[str] = []
    studies: list[str] = []
    for d in result.get("deductions") or []:
        deducted = d.get("deducted_sqft")
        what = plain.plain_constraint(d.get("constraint") or "", d.get("label"))
        if deducted is not None and deducted >= 0.5:
            in_the_way.append(f"{_sqft(deducted)} of {what} does not count toward the lot size "
                              f"({plain.plain_share(d.get('countable_fraction'))}).")
        if (d.get("area_sqft") or 0.0) >= 0.5 and (s := _STUDY_OF_ROW.get(d.get("constraint") or "")):
            studies.append(s)
    permit_sentences = [s for s in plain.plain_permits(result)
                        if not s.startswith("No permit under these rules")]
    in_the_way += permit_sentences
    cluster = plain.plain_cluster(result)
    if cluster:
        in_the_way.append(cluster)
    if not in_the_way:
        in_the_way.append("Nothing on the maps used here stands in the way.")

    permits = result.get("permits") or []
    needed = [p for p in permits if p.get("required") is True and not str(p.get("id", "")).endswith("prohibited")]
    for p in needed:
        if s := _STUDY_OF_PERMIT.get(p.get("id") or ""):
            studies.append(s)
    studies = list(dict.fromkeys(studies))
    steps = ["Bring this sheet to the Building Department: ask them to confirm the zoning district, the "
             "minimum lot size and which permits apply."]
    if studies:
        steps.append("Before applying, hire " + plain._join(studies) + ".")
    if needed:
        names = [" ".join(w) if w[0] == "a review" else w[0] for w in (plain._needed(p) for p in needed)]
        steps.append("Apply for " + plain._join(names) + " (the Planning Board hears most of these at a "
                     "public meeting; the Village Clerk has the forms and dates).")
    steps.append("Then apply for the building permit at the Building Department; work starts only after "
                 "every permit is granted.")

    confirms: list[str] = []
    if result.get("min_lot_area_verify") and result.get("min_lot_area_sqft"):
        confirms.append(f"The minimum lot size of the {result.get('district')} district "
                        f"({_sqft(result['min_lot_area_sqft'])} is assumed here).")
    width = result.get("buffer_width_ft")
    if width and any((d.get("constraint") == "buffer") for d in result.get("deductions") or []):
        confirms.append(f"The width of the wetland and stream buffer ({width:,.0f} ft is assumed here).")
    unmeasured = [plain.plain_constraint(d.get("constraint") or "", d.get("label"))
                  for d in result.get("deductions") or [] if d.get("deducted_sqft") is None]
    if unmeasured:
        confirms.append("How much of the lot is " + plain._join(unmeasured, "or")
                        + " (not measured on the maps used here).")
    confirms.append("Where the wetlands, streams, flood zone and steep slopes really are on the ground.")
    if result.get("layers_illustrative"):
        confirms.append("Everything above: the maps used are an illustrative sample, not official data.")

    citations = [result.get("lot_area_citation") or ""] + [p.get("citation") or "" for p in needed]
    return LotAnswer(verdict=verdict, house=house, in_the_way=in_the_way, next_steps=steps,
                     village_confirms=confirms, note=plain.screening_note(result),
                     citations=[c for c in dict.fromkeys(citations) if c])
