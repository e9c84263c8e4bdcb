"""Plain words for residents: the analysis result told in a few sentences.

The counter of the Village office, the CLI and the printed summary can all say the same thing in
the same words. Every function reads the typed result of :func:`sloat_core.engine.analysis.analyze_parcel`
(:class:`sloat_core.engine.result.ParcelResult`, by attribute; a permit is its
:class:`sloat_core.rules.sections.permit.Permit`) and computes no law: the numbers, the minimum lot area, the
permits and their reasons all come from the result. Expert terms are swapped for everyday ones
("land that counts toward your lot" for *net lot area*), and every summary ends by saying that it
is a screening estimate and who decides. (Whole results in words: tests/engine/test_plain.py.)

>>> plain_constraint("slope_25_40", "Slopes over 25% up to 40%"), plain_share(0.5)
('steep ground (slopes over 25% up to 40%)', 'half of it counts')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sloat_core.measure.rows import DEDUCTION_ROWS
from sloat_core.rules.permits import DECLARATIONS, PROHIBITED_IDS
from sloat_core.rules.sections.s402_48_cluster.cluster import TRIGGER_WORDS
from sloat_core.units import SQFT_PER_ACRE

if TYPE_CHECKING:
    from sloat_core.engine.result import ParcelResult
    from sloat_core.rules.sections.permit import Permit

__all__ = [
    "PLAIN_TERMS",
    "plain_constraint",
    "plain_share",
    "plain_verdict",
    "plain_permits",
    "plain_carried",
    "missing_fact",
    "is_prohibition",
    "prohibition_sentence",
    "plain_cluster",
    "screening_note",
    "plain_summary",
]

#: Everyday words for the expert terms of the results (used as headings and labels).
PLAIN_TERMS: dict[str, str] = {
    "gross_area": "Your whole lot",
    "net_lot_area": "Land that counts toward your lot",
    "net_lot_area_at_most": "Land that counts toward your lot (at most)",
    "constraint": "On your lot",
    "area": "Sq ft",
    "counted_share": "How much counts",
    "deducted": "Does not count, sq ft",
    "permits": "Permits and reviews you may need",
}

# Deduction row ids -> everyday words, from each row's declaration (numbers come from the core's label).
_CONSTRAINT_WORDS = {r.id: r.words for r in DEDUCTION_ROWS}

# Permit ids -> (what is needed, from whom), from each permit's declaration. The reason comes from the core.
_PERMIT_WORDS = {d.id: d.plain for d in DECLARATIONS if not d.prohibited}
_PROHIBITED = {d.id: d.plain[0] for d in DECLARATIONS if d.prohibited}


def _sqft(value: float) -> str:
    return f"{value:,.0f} sq ft"


def _join(words: list[str], last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def _lower_first(text: str) -> str:
    """Lower-case the first letter unless the first word is an acronym or a name ("NYSDEC", "FEMA")."""
    if len(text) > 1 and text[0].isupper() and text[1].islower() and not text.startswith("Ramapo"):
        return text[0].lower() + text[1:]
    return text


def plain_constraint(constraint: str, label: str | None = None) -> str:
    """Everyday words for a deduction's constraint, keeping the numbers of the core's label.

    Parameters
    ----------
    constraint : str
        The deduction's ``constraint`` id (``"slope_25_40"``).
    label : str, optional
        The core's label ("Slopes over 25% up to 40%"); added in brackets when it carries a number.

    Returns
    -------
    str
        For example ``"steep ground (slopes over 25% up to 40%)"``.

    >>> plain_constraint("slope_25_40", "Slopes over 25% up to 40%")
    'steep ground (slopes over 25% up to 40%)'
    >>> plain_constraint("wetlands", "Wetlands")
    'wetland'
    """
    words = _CONSTRAINT_WORDS.get(constraint)
    if words is None:
        return _lower_first(label or constraint.replace("_", " "))
    if label and re.search(r"\d", label):
        bare = re.sub(r"\s*\([^()]*\)", "", label).strip()  # "100-year floodplain (FEMA)" -> "100-year floodplain"
        return f"{words} ({_lower_first(bare)})"
    return words


def plain_share(countable_fraction: float | None) -> str:
    """How much of a constraint counts toward the lot, in words.

    >>> [plain_share(f) for f in (0.0, 0.5, 1.0, 0.25)]
    ['none of it counts', 'half of it counts', 'all of it counts', '25% of it counts']
    """
    fraction = countable_fraction or 0.0
    if fraction <= 0:
        return "none of it counts"
    if fraction >= 1:
        return "all of it counts"
    if abs(fraction - 0.5) < 1e-9:
        return "half of it counts"
    return f"{fraction * 100:.0f}% of it counts"


def _not_counted(result: ParcelResult) -> str:
    parts = []
    for d in result.deductions:
        deducted, area = d.deducted_sqft, d.area_sqft
        what = plain_constraint(d.constraint or "", d.label)
        if deducted is None and (d.known_deducted_sqft or 0.0) >= 0.5:
            # Unknown where the map stops, but what it maps is known: at least that much does not count.
            parts.append(f"at least {_sqft(d.known_deducted_sqft)} of {what}")
            continue
        if deducted is None or deducted < 0.5:
            continue
        if area is not None and area - deducted >= 0.5:
            half = abs((d.countable_fraction or 0.0) - 0.5) < 1e-9
            share = "half" if half else f"{deducted:,.0f}"
            parts.append(f"{share} of the {_sqft(area)} of {what}")
        else:
            parts.append(f"{_sqft(deducted)} of {what}")
    return f" Not counted: {_join(parts)}." if parts else ""


def _unmeasured(result: ParcelResult) -> list[str]:
    return [plain_constraint(d.constraint or "", d.label) for d in result.deductions if d.deducted_sqft is None]


def plain_verdict(result: ParcelResult) -> str:
    """One paragraph: how big the lot is, how much counts, and whether that meets the district minimum.

    Parameters
    ----------
    result : ParcelResult
        The analysis result.

    Returns
    -------
    str
        Plain sentences; the comparison is the core's own ``meets_min_lot_area``. For example "Your lot is about
        30,000 sq ft (0.69 acres). About 20,000 sq ft of it counts toward the lot size. Not counted: 10,000 sq ft
        of wetland. The R-40 district needs at least 40,000 sq ft, so your lot is about 20,000 sq ft short."
    """
    gross = result.gross_area_sqft or 0.0
    net = result.net_lot_area_sqft or 0.0
    low = result.net_lot_area_min_sqft
    text = f"Your lot is about {_sqft(gross)} ({gross / SQFT_PER_ACRE:,.2f} acres)."
    unmeasured = _unmeasured(result)
    if low is not None and net - low >= 0.5:
        text += (f" Between {low:,.0f} and {_sqft(net)} of it counts toward the lot size, because "
                 f"{_join(unmeasured) or 'some of it'} could not be measured on the maps used here.")
    else:
        text += f" About {_sqft(net)} of it counts toward the lot size."
    text += _not_counted(result)
    district = result.district
    minimum = result.min_lot_area_sqft
    if not district:
        return text + (" We could not tell which zoning district the lot is in, so it cannot be compared "
                       "with a minimum lot size; the Building Inspector can tell you.")
    if minimum is None:
        return text + (f" No minimum lot size is recorded here for the {district} district, so it cannot be "
                       "compared; the Building Inspector can tell you.")
    confirm = " (a figure to confirm with the Village)" if result.min_lot_area_verify else ""
    needs = f" The {district} district needs at least {_sqft(minimum)}{confirm}"
    meets = result.meets_min_lot_area
    if meets is True:
        return text + needs + ", so your lot looks big enough."
    if meets is False:  # with unmeasured land, the net area is an upper bound: the gap is a lower bound
        about = "at least" if low is not None and net - low >= 0.5 else "about"
        return text + needs + f", so your lot is {about} {_sqft(max(minimum - net, 0.0))} short."
    return text + needs + ", so we cannot tell yet whether your lot is big enough."


def _plain_reason(reason: str) -> str:
    """A permit's reason in everyday words: no bracketed clause numbers, no engineer's detail.

    >>> _plain_reason("The disturbance footprint touches 500 sq ft of wetland. Regulated activities: (1), (3) of § 402-57I.")
    'the work you plan touches 500 sq ft of wetland'
    >>> _plain_reason("3 trees to be removed (§ 402-53B).")
    '3 trees to be removed'
    """
    # The list of § 402-57I activities is for the engineer; the counter gets the sentence before it.
    text = re.sub(r"\s*Regulated activities:[^.]*\.", "", reason or "")
    while True:  # drop bracketed asides, innermost first: "(§ 402-53C(2))", "(local setting)"
        shorter = re.sub(r"\s*\([^()]*\)", "", text)
        if shorter == text:
            break
        text = shorter
    text = text.split(": ")[0] if ": " in text and not text.startswith("Unknown") else text
    text = re.sub(r"\bthe (parcel|lot)\b", "your lot", text, flags=re.IGNORECASE)
    text = re.sub(r"\bthe disturbance footprint\b", "the work you plan", text, flags=re.IGNORECASE)
    text = re.sub(r"^(\d[\d,.]* sq ft) is in\b", r"\1 of your lot is in", text)
    text = re.sub(r"^(\d[\d,.]* sq ft) is under\b", r"\1 of your lot is under", text)
    return _lower_first(text.strip().rstrip(".").strip())


def _needed(permit: Permit) -> tuple[str, str]:
    words = _PERMIT_WORDS.get(permit.id or "")
    if words is not None:
        return words
    title = permit.title or permit.id or "a permit"
    authority = re.sub(r"\s*\([^()]*\)", "", permit.authority or "").strip()
    return f"a {_lower_first(title)}", f"from {authority}" if authority else ""


def is_prohibition(permit: Permit) -> bool:
    """A rule that forbids the work (its declaration's ``prohibited`` kind, § 402-52): told apart, never a permit.

    >>> from sloat_core.rules.sections.permit import Permit
    >>> def permit(id, required=None, **kw):
    ...     return Permit(id=id, title=kw.get("title", ""), required=required, reason=kw.get("reason", ""),
    ...                   citation=kw.get("citation", ""), authority="")
    >>> is_prohibition(permit("commercial_excavation_prohibited")), is_prohibition(permit("wetland_permit"))
    (True, False)
    """
    return (permit.id or "") in PROHIBITED_IDS


def prohibition_sentence(permit: Permit, *, cite: bool = True) -> str | None:
    """What a prohibition means for the project, apart from the permits; None for a permit, or a prohibition the
    project does not touch. ``cite``: the § in brackets (where it is not a link of its own).

    >>> from sloat_core.rules.sections.permit import Permit
    >>> def permit(id, required=None, **kw):
    ...     return Permit(id=id, title=kw.get("title", ""), required=required, reason=kw.get("reason", ""),
    ...                   citation=kw.get("citation", ""), authority="")
    >>> prohibition_sentence(permit("commercial_excavation_prohibited", title="Commercial excavation (prohibited)",
    ...                             citation="§ 402-52"))
    'Not allowed at all, if the project includes it: Commercial excavation (prohibited) (§ 402-52).'
    >>> prohibition_sentence(permit("commercial_excavation_prohibited", True, title="Commercial excavation",
    ...                             reason="Prohibited.", citation="§ 402-52"), cite=False)
    'Not allowed at all, with or without a permit: Commercial excavation. Prohibited.'
    >>> prohibition_sentence(permit("commercial_excavation_prohibited", False)) is None
    True
    """
    if not is_prohibition(permit) or permit.required is False:
        return None
    title = permit.title or permit.id
    where = f" ({permit.citation})" if cite and permit.citation else ""
    if permit.required:
        return f"Not allowed at all, with or without a permit: {title}{where}. {permit.reason or ''}".strip()
    return f"Not allowed at all, if the project includes it: {title}{where}."


def missing_fact(permit: Permit) -> str | None:
    """What is missing for an unknown answer, in words: the project fact to give, or where the work happens.

    None when the answer is not unknown or the unknown is the maps' (a layer not loaded).

    >>> from sloat_core.rules.sections.permit import Permit
    >>> def unknown(reason):
    ...     return Permit(id="x", title="", required=None, reason=reason, citation="", authority="")
    >>> missing_fact(unknown("Unknown: say how many trees will be removed."))
    'say how many trees will be removed'
    >>> missing_fact(unknown("The parcel has 500 sq ft of wetland; it depends on where the work happens (draw the disturbance footprint)."))
    'where the work happens (draw it on the map)'
    >>> missing_fact(unknown("Unknown: the wetland layer is not loaded.")) is None
    True
    """
    reason = permit.reason or ""
    if permit.required is not None or re.search(r"\blayers?\b", reason.split(". ")[0]):
        return None
    if "depends on where the work happens" in reason:
        return "where the work happens (draw it on the map)"
    if m := re.search(r"The question that settles it: ([^?]*\?)", reason):
        return _lower_first(m.group(1).strip())
    if m := re.search(r"Unknown whether [^:?]*: ([^?]*)\?", reason):
        return re.sub(r"\s*\([^()]*\)", "", m.group(1)).strip() + "?"
    if m := re.match(r"Unknown: ((?:say|give|draw|tell)[^.]*)\.", reason):
        return m.group(1).strip()
    if reason.startswith("Unknown until "):
        return reason[len("Unknown until "):].split(" are known")[0].split(" is known")[0].strip(". ")
    return "details of the work that are not known yet"


def _sentences(permits: Iterable[Permit]) -> list[str]:
    sentences, later = [], []
    for p in permits:
        required, reason = p.required, p.reason or ""
        if is_prohibition(p):
            if required:
                sentences.append(f"{_PROHIBITED[p.id]}, because {_plain_reason(reason)}.")
            continue
        what, who = _needed(p)
        name = f"{what} {who}" if what == "a review" else what  # "a review by the Rockland County ..."
        if required is True:
            sentences.append(f"You will likely need {what} {who}, because {_plain_reason(reason)}.".replace("  ", " "))
        elif required is None and (fact := missing_fact(p)) and not reason.startswith("The parcel has"):
            later.append((name, fact))
        elif required is None:
            sentences.append(f"You may need {what} {who}: {_plain_reason(reason)}.".replace("  ", " "))
    for what, fact in later:
        sentences.append(f"Whether you also need {what} depends on the project: {fact}"
                         + ("" if fact.endswith("?") else "."))
    return sentences


def plain_permits(result: ParcelResult | None, permits: Iterable[Permit] | None = None) -> list[str]:
    """One sentence per permit or review the result says is likely needed, and one per open question.

    Parameters
    ----------
    result : ParcelResult
        The analysis result; its ``permits`` carry ``id``, ``required`` (True / None / False) and ``reason``.
        Not read when ``permits`` is given.
    permits : iterable of Permit, optional
        Only these permits (default: all of the result's), e.g. the project's of
        :func:`sloat_core.engine.answer.permits_by_cause`.

    Returns
    -------
    list of str
        "You will likely need a wetland permit from the Planning Board ..., because ...", then
        "You may need ..." for the permits that depend on where the work happens, then one sentence
        per permit that depends on a fact of the project not given yet, naming that fact.

    >>> from sloat_core.rules.sections.permit import Permit
    >>> plain_permits(None, [Permit(id="flood_hazard_review", title="", required=True, citation="", authority="",
    ...     reason="2,303 sq ft is in the FEMA Special Flood Hazard Area (FIRMs effective March 3, 2014).")])
    ['You will likely need a flood zone review under the Flood Hazard Regulations of the Village, because 2,303 sq ft of your lot is in the FEMA Special Flood Hazard Area.']
    """
    sentences = _sentences(result.permits if permits is None else permits)
    if not sentences and permits is None:
        sentences.append("No permit under these rules shows up on the maps used here.")
    return sentences


def plain_carried(permits: Iterable[Permit]) -> list[str]:
    """The permits the land carries for any later work (not this project's), one sentence each.

    >>> from sloat_core.rules.sections.permit import Permit
    >>> plain_carried([Permit(id="flood_hazard_review", title="", required=True, citation="", authority="",
    ...     reason="2,303 sq ft of the lot is in the FEMA Special Flood Hazard Area (FIRMs effective March 3, 2014).")])
    ['Work in that land would need a flood zone review under the Flood Hazard Regulations of the Village: 2,303 sq ft of your lot is in the FEMA Special Flood Hazard Area.']
    """
    out, unknown = [], []
    for p in permits:
        if is_prohibition(p) or p.required is False:
            continue
        what, who = _needed(p)
        reason = _plain_reason((p.reason or "").split("; it depends on where the work happens")[0])
        if p.required is None and reason.lower().startswith("unknown"):  # the maps cannot tell
            unknown.append(f"{what} {who}" if what == "a review" else what)
            continue
        out.append(f"Work in that land would need {what} {who}: {reason}.".replace("  ", " "))
    if unknown:  # one sentence for all that the maps cannot tell, after what they can
        out.append(f"Whether your lot carries {_join(unknown, 'or')} is not known on the maps used here.")
    return out


def plain_cluster(result: ParcelResult) -> str | None:
    """The cluster rule in one sentence, when the lot shows a feature that lets the Board ask for it (a trigger
    of § 402-48C found, and the cluster rule not ruled out): "Because your lot has flood zone, the Planning Board
    may ask that any new houses be grouped on part of the land (a cluster layout) if you divide the lot or file a
    site plan."
    """
    if result.cluster_applies is False:
        return None
    found = [TRIGGER_WORDS.get(t.id or "", _lower_first(t.title or ""))
             for t in result.cluster_triggers if t.triggered]
    if not found:
        return None
    return (f"Because your lot has {_join(found)}, the Planning Board may ask that any new houses be grouped "
            "on part of the land (a cluster layout) if you divide the lot or file a site plan.")


def screening_note(result: ParcelResult) -> str:
    """That this is a screening estimate, who decides, and whether the maps are only a sample (the result's
    disclaimer, then "The maps used are an illustrative sample, not official data." on sample maps)."""
    text = result.disclaimer
    if not text:
        from sloat_core.engine.analysis import DISCLAIMER

        text = DISCLAIMER
    if result.layers_illustrative:
        text += " The maps used are an illustrative sample, not official data."
    return text


def plain_summary(result: ParcelResult) -> list[str]:
    """The whole result in plain sentences: lot size, permits, cluster, and who decides.

    Parameters
    ----------
    result : ParcelResult
        The analysis result.

    Returns
    -------
    list of str
        First the lot-size paragraph (:func:`plain_verdict`), then the permit sentences
        (:func:`plain_permits`), the cluster sentence when there is one (:func:`plain_cluster`),
        and last the screening note (:func:`screening_note`).
    """
    sentences = [plain_verdict(result), *plain_permits(result)]
    cluster = plain_cluster(result)
    if cluster:
        sentences.append(cluster)
    sentences.append(screening_note(result))
    return sentences
