"""The permits of a result in short form, the prohibitions apart, and a permit's status in words.

Shared by the Parcel page (:func:`app_support.views.results.show_triggers_and_permits`), the Proposed project
page (``app_support.views.project_view``) and the approvals list (``app_support.views.approvals_ui``). Every function
reads the typed result (:class:`sloat_core.engine.result.ParcelResult`, by attribute: its permits are
:class:`~sloat_core.rules.sections.permit.Permit`, its cluster triggers ``Trigger``); a result dict (the command
line's JSON, as a case's snapshot keeps it) is read back at the door (``analysis_door.parcel_result``). Nothing here
computes law. A prohibition (§ 402-52, a declared kind) is never shown among the permits.
"""

from __future__ import annotations

import dataclasses

import pandas as pd
import streamlit as st

from app_support.analysis_door import parcel_result, permits_by_cause
from app_support.widgets.citations import escape_markdown, law_link
from app_support.widgets.unit_text import nb
from sloat_core.engine import plain
from sloat_core.rules.sections.permit import Permit

__all__ = [
    "show_plain_summary",
    "show_permits",
    "show_prohibitions",
    "show_adjacent_owners",
    "short_list",
    "unknown_line",
    "status_words",
]


def show_plain_summary(result) -> None:
    """Counter mode: what the resident will likely need, in plain sentences, and who decides."""
    r = parcel_result(result)
    permits = plain.plain_permits(r)
    cluster = plain.plain_cluster(r)
    with st.container(border=True):
        st.markdown(f"**{plain.PLAIN_TERMS['permits']}**")
        st.markdown("\n".join(f"- {escape_markdown(s)}" for s in permits))
        if cluster:
            st.markdown(escape_markdown(cluster))
        st.markdown(f"*{escape_markdown(plain.screening_note(r))}*")


def show_permits(result) -> None:
    """What the project needs, then what the parcel carries for any later work (with § links), the project's
    open questions naming the fact to give, and the prohibitions apart (never among the permits)."""
    from sloat_core.engine.answer import PARCEL_HEADING, PROJECT_HEADING

    r = parcel_result(result)
    mine, carried = permits_by_cause(r)
    if not r.project_described:
        st.markdown(f"**{PROJECT_HEADING}**\n\nNo project is described yet: describe it on the Proposed project "
                    "page to know which permits it needs.")
    else:
        short_list([p for p in mine if p.required], "reason", "Nothing under these rules, on what is known.",
                   lead=f"**{PROJECT_HEADING}**")
        unknown_line([p for p in mine if p.required is None])
    if carried:
        short_list([p for p in carried if p.required], "reason", "", lead=f"**{PARCEL_HEADING}**")
        unknown_line([p for p in carried if p.required is None])
    show_prohibitions(r)
    show_adjacent_owners(r)


def show_prohibitions(result) -> None:
    """The rules that forbid the work (a declared kind, § 402-52), apart from the permits."""
    for p in parcel_result(result).permits:
        words = dataclasses.replace(p, title=escape_markdown(p.title or p.id or ""),
                                    reason=escape_markdown(p.reason or ""))  # (the sentence's own words are markdown)
        if (sentence := plain.prohibition_sentence(words, cite=False)) is not None:
            (st.error if p.required else st.caption)(sentence)
            if p.citation:
                law_link(p.citation)


def show_adjacent_owners(result) -> None:
    """§ 402-57K(4): where a wetland permit application may be needed, the tax parcels adjacent to the wetland,
    watercourse and buffer of the work (within the law's distance of the property) and their owners of record,
    or the sentence saying the list is unknown or the owners come from the assessment roll."""
    a = parcel_result(result).adjacent_owners
    if a is None or a.applies is False:
        return
    lots = a.parcels
    title = f"Owners of record of adjacent lands ({a.citation})"
    with st.expander(title + (f": {len(lots)} parcel{'s' * (len(lots) != 1)}" if lots is not None else ""),
                     expanded=False):
        st.markdown(escape_markdown(a.reason or ""))
        if lots:
            st.dataframe(pd.DataFrame([{"Tax parcel (SBL)": x.sbl or "", "Address": x.address or "",
                                        "Owner of record": x.owner or "from the assessment roll"}
                                       for x in lots]), hide_index=True, width="stretch")
        if a.illustrative and a.owner_field:
            st.caption("Sample owner names are invented, not the assessment roll.")
        law_link(a.citation or "§ 402-57K(4)")


def short_list(items: list, detail_key: str, empty: str, *, lead: str | None = None) -> None:
    """Each item (a permit or a cluster trigger) in bold with its ``detail_key`` text (the permit's ``reason``, the
    trigger's ``evidence``) and its § link; ``empty`` when there is none.

    ``lead`` (markdown, e.g. the bold heading of the list) opens the first block: one element, not two, for
    text that reads as one (the heading and its first item, or the heading and ``empty``).
    """
    head = f"{lead}\n\n" if lead else ""
    if not items:
        if empty or lead:
            st.markdown(head + empty if empty else lead)
        return
    for item in items:
        detail = getattr(item, detail_key) or ""
        st.markdown(f"{head}- **{escape_markdown(item.title or item.id or '')}**: "
                    f"{escape_markdown(detail)}")
        head = ""
        if item.citation:
            law_link(item.citation)


def _missing_fact(item) -> str | None:
    """:func:`sloat_core.engine.plain.missing_fact` of a permit; a cluster trigger has no reason, so it reads as
    an unknown permit without one (as the list has always said of an unknown trigger)."""
    if not isinstance(item, Permit):
        item = Permit(id=item.id or "", title="", required=None, reason="", citation="", authority="")
    return plain.missing_fact(item)


def unknown_line(items: list) -> None:
    """Unknown answers (permits or cluster triggers), by what is missing: a fact of the project (named) or a map
    layer."""
    layers = [i for i in items if _missing_fact(i) is None]
    project = [i for i in items if _missing_fact(i) is not None]
    if project:
        st.caption(nb("Depends on the project: " + "; ".join(
            f"{escape_markdown(i.title or i.id or '')} ({escape_markdown(_missing_fact(i))})"
            for i in project) + "."))
    if layers:
        names = ", ".join(i.title or i.id or "" for i in layers)
        st.caption(f"Unknown on the layers available: {escape_markdown(names)}.")


_STATUS_WORDS = {True: "needed", None: "may be needed (not known yet)", False: "not needed"}
_PROHIBITION_WORDS = {True: "not allowed (the project includes it)", None: "not allowed, if the project includes it",
                      False: "not part of the project"}


def status_words(permit: Permit) -> str:
    """A permit's status in words; a prohibition reads as one ("not allowed"), never "needed".

    >>> def permit(id, required):
    ...     return Permit(id=id, title="", required=required, reason="", citation="", authority="")
    >>> status_words(permit("commercial_excavation_prohibited", None))
    'not allowed, if the project includes it'
    >>> status_words(permit("wetland_permit", True))
    'needed'
    """
    words = _PROHIBITION_WORDS if plain.is_prohibition(permit) else _STATUS_WORDS
    return words[permit.required]
