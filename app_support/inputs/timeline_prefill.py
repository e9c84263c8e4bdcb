"""What the project's permits put on the timeline: the permits an analysis found, and the timeline items they open.

The Proposed project page keeps its last valid analysis in the session (``forms.LAST_PROJECT_RESULT``:
the parcel's key and the ``(result, touches)`` pair of :func:`app_support.widgets.forms.project_analysis`).
:func:`suggestions` reads the ``permits`` of that analysis (the typed result) and, for every permit that is
needed (``required`` True) or may be needed (``required`` None), says which items of
:data:`sloat_core.rules.clocks.ITEM_KINDS` carry its clocks, which of them are on the timeline already and
which can still be added. Nothing here makes a date: the user types every date, and the core checks it.

Everything here is plain Python on plain values (no Streamlit), so it is tested without a page.
"""

from __future__ import annotations

from dataclasses import dataclass

from sloat_core.engine.result import ParcelResult
from sloat_core.rules.clocks import CLOCKS, ITEM_KINDS
from sloat_core.rules.permits import DECLARATIONS, PROHIBITED_IDS

__all__ = [
    "PERMIT_TIMELINE_KINDS",
    "KIND_LABELS",
    "Suggestion",
    "stored_result",
    "suggestions",
    "addable_kinds",
]

#: The timeline items that carry each permit's clocks, in the order they happen (its ``timeline``). The
#: last one is the permit itself: once it is on the timeline, the permit is "on your timeline".
#: Permits not listed here (SEQRA, county reviews, wastewater ...) have no clock in Article IX.
PERMIT_TIMELINE_KINDS: dict[str, tuple[str, ...]] = {d.id: tuple(c.id for c in d.timeline)
                                                     for d in DECLARATIONS if d.timeline}

#: Plain names of the items offered here, saying which date the clock starts from (its ``label``).
KIND_LABELS: dict[str, str] = {c.id: c.label for c in CLOCKS if c.starts}


@dataclass(frozen=True)
class Suggestion:
    """One permit of the analysis that is needed or may be needed, and its timeline items.

    Attributes
    ----------
    permit_id : str
        The permit's id in the analysis (``sloat_core.rules.permits.PERMIT_IDS``).
    title : str
        Its name, e.g. ``"Wetland permit"``.
    required : bool or None
        True: needed; None: may be needed (a fact is not known yet).
    reason : str
        The analysis's one-line reason.
    citation : str
        The § of Article IX, e.g. ``"§ 402-57G"``.
    to_add : tuple of str
        Timeline item kinds that carry its clocks and are not on the timeline yet.
    on_timeline : tuple of str
        Its timeline item kinds already on the timeline.
    """

    permit_id: str
    title: str
    required: bool | None
    reason: str
    citation: str
    to_add: tuple[str, ...] = ()
    on_timeline: tuple[str, ...] = ()

    @property
    def has_clock(self) -> bool:
        """Whether any timeline item carries this permit's clocks."""
        return bool(PERMIT_TIMELINE_KINDS.get(self.permit_id))

    @property
    def already_added(self) -> bool:
        """Whether the permit itself (the last of its timeline kinds) is on the timeline."""
        kinds = PERMIT_TIMELINE_KINDS.get(self.permit_id, ())
        return bool(kinds) and kinds[-1] in self.on_timeline


def stored_result(last, parcel_key: str | None) -> ParcelResult | None:
    """The analysis result kept by the Proposed project page, if it is for the parcel under study.

    Parameters
    ----------
    last : tuple or None
        The session's ``forms.LAST_PROJECT_RESULT``: ``(key, (result, touches))``.
    parcel_key : str or None
        ``forms.project_result_key`` of the current parcel and district; None when no parcel is chosen.

    Returns
    -------
    ParcelResult or None
        The typed result, or None when there is none, or it belongs to another parcel or district.

    >>> stored_result(("abc", ({"permits": []}, {})), "xyz") is None
    True
    """
    if parcel_key is None or not last or len(last) != 2 or last[0] != parcel_key:
        return None
    outcome = last[1]
    result = outcome[0] if isinstance(outcome, (tuple, list)) and outcome else None
    return result if isinstance(result, ParcelResult) else None


def suggestions(result: ParcelResult | None, items: list[dict] | None = None) -> list[Suggestion]:
    """The permits of ``result`` that are needed or may be needed, with the timeline items they open.

    Parameters
    ----------
    result : ParcelResult or None
        An analysis result (its ``permits``, read by attribute); None gives [].
    items : list of dict, optional
        The timeline items already entered (``{"id": kind, ...}``).

    Returns
    -------
    list of Suggestion
        Needed permits first, then those that may be needed, each group in the analysis's order.
        Permits not needed (``required`` False) and prohibitions (§ 402-52) are left out.

    """
    if result is None:
        return []
    present = {item.get("id") for item in items or [] if isinstance(item, dict)}
    out: list[Suggestion] = []
    for wanted in (True, None):
        for p in result.permits:
            if p.required is not wanted or p.id in PROHIBITED_IDS:  # a prohibition is no permit to date
                continue
            kinds = tuple(k for k in PERMIT_TIMELINE_KINDS.get(p.id, ()) if k in ITEM_KINDS)
            on = tuple(k for k in kinds if k in present)
            done = bool(kinds) and kinds[-1] in on
            to_add = () if done else tuple(k for k in kinds if k not in present)
            out.append(Suggestion(p.id, p.title or p.id.replace("_", " ").capitalize(), wanted,
                                  p.reason or "", p.citation or "", to_add, on))
    return out


def addable_kinds(found: list[Suggestion]) -> list[str]:
    """Every timeline item kind the suggestions offer to add, once each, in their order.

    >>> addable_kinds([Suggestion("swppp", "SWPPP", True, "", "§ 402-58E", ("swppp_inspections",))])
    ['swppp_inspections']
    """
    return list(dict.fromkeys(k for s in found for k in s.to_add))
