"""The permits of a result in short form, the prohibitions apart, and a permit's status in words.

Shared by the Parcel page (:func:`app_support.views.results.show_triggers_and_permits`), the Proposed project
page (``app_support.views.project_view``) and the approvals list (``app_support.views.approvals_ui``). Every function
takes the plain dict of the CLI JSON contract and draws or words it; nothing here computes law. A
prohibition (§ 402-52, a declared kind) is never shown among the permits.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support.widgets.citations import escape_markdown, law_link
from app_support.widgets.unit_text import nb
from sloat_core.engine import plain
from sloat_core.engine.result import parcel_result
from sloat_core.rules.permits import PROHIBITED_IDS
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


def show_plain_summary(result: dict) -> None:
    """Counter mode: what the resident will likely need, in plain sentences, and who decides."""
    typed = parcel_result(result)
    permits = plain.plain_permits(typed)
    cluster = plain.plain_cluster(typed)
    with st.container(border=True):
        st.markdown(f"**{plain.PLAIN_TERMS['permits']}**")
        st.markdown("\n".join(f"- {escape_markdown(s)}" for s in permits))
        if cluster:
            st.markdown(escape_markdown(cluster))
        st.markdown(f"*{escape_markdown(plain.screening_note(typed))}*")


def show_permits(result: dict) -> None:
    """What the project needs, then what the parcel carries for any later work (with § links), the project's
    open questions naming the fact to give, and the prohibitions apart (never among the permits)."""
    from sloat_core.engine.answer import PARCEL_HEADING, PROJECT_HEADING
    from app_support.analysis_door import permits_by_cause

    mine, carried = permits_by_cause(result)
    if "land_permits" in result and not result.get("project_described"):
        st.markdown(f"**{PROJECT_HEADING}**\n\nNo project is described yet: describe it on the Proposed project "
                    "page to know which permits it needs.")
    else:
        short_list([p for p in mine if p.get("required")], "reason", "Nothing under these rules, on what is known.",
                   lead=f"**{PROJECT_HEADING}**")
        unknown_line([p for p in mine if p.get("required") is None])
    if carried:
        short_list([p for p in carried if p.get("required")], "reason", "", lead=f"**{PARCEL_HEADING}**")
        unknown_line([p for p in carried if p.get("required") is None])
    show_prohibitions(result)
    show_adjacent_owners(result)


def show_prohibitions(result: dict) -> None:
    """The rules that forbid the work (a declared kind, § 402-52), apart from the permits."""
    for p in result.get("permits") or []:
        words = {**p, "title": escape_markdown(p.get("title") or p.get("id") or ""),
                 "reason": escape_markdown(p.get("reason") or "")}  # (the sentence's own words are markdown)
        if (sentence := plain.prohibition_sentence(Permit.from_dict(words), cite=False)) is not None:
            (st.error if p.get("required") else st.caption)(sentence)
            if p.get("citation"):
                law_link(p["citation"])


def show_adjacent_owners(result: dict) -> None:
    """§ 402-57K(4): where a wetland permit application may be needed, the tax parcels adjacent to the wetland,
    watercourse and buffer of the work (within the law's distance of the property) and their owners of record,
    or the sentence saying the list is unknown or the owners come from the assessment roll."""
    a = result.get("adjacent_owners") or {}
    if not a or a.get("applies") is False:
        return
    lots = a.get("parcels")
    title = f"Owners of record of adjacent lands ({a.get('citation', '')})"
    with st.expander(title + (f": {len(lots)} parcel{'s' * (len(lots) != 1)}" if lots is not None else ""),
                     expanded=False):
        st.markdown(escape_markdown(a.get("reason") or ""))
        if lots:
            st.dataframe(pd.DataFrame([{"Tax parcel (SBL)": x.get("sbl") or "", "Address": x.get("address") or "",
                                        "Owner of record": x.get("owner") or "from the assessment roll"}
                                       for x in lots]), hide_index=True, width="stretch")
        if a.get("illustrative") and a.get("owner_field"):
            st.caption("Sample owner names are invented, not the assessment roll.")
        law_link(a.get("citation") or "§ 402-57K(4)")


def short_list(items: list[dict], detail_key: str, empty: str, *, lead: str | None = None) -> None:
    """Each item in bold with its ``detail_key`` text and its § link; ``empty`` when there is none.

    ``lead`` (markdown, e.g. the bold heading of the list) opens the first block: one element, not two, for
    text that reads as one (the heading and its first item, or the heading and ``empty``).
    """
    head = f"{lead}\n\n" if lead else ""
    if not items:
        if empty or lead:
            st.markdown(head + empty if empty else lead)
        return
    for item in items:
        detail = item.get(detail_key) or ""
        st.markdown(f"{head}- **{escape_markdown(item.get('title') or item.get('id') or '')}**: "
                    f"{escape_markdown(detail)}")
        head = ""
        if item.get("citation"):
            law_link(item["citation"])


def _missing_fact(item: dict) -> str | None:
    """:func:`sloat_core.engine.plain.missing_fact` of a permit's or a cluster trigger's dict."""
    return plain.missing_fact(Permit(id=item.get("id") or "", title="", required=item.get("required"),
                                     reason=item.get("reason") or "", citation="", authority=""))


def unknown_line(items: list[dict]) -> None:
    """Unknown answers, by what is missing: a fact of the project (named) or a map layer."""
    layers = [i for i in items if _missing_fact(i) is None]
    project = [i for i in items if _missing_fact(i) is not None]
    if project:
        st.caption(nb("Depends on the project: " + "; ".join(
            f"{escape_markdown(i.get('title') or i.get('id') or '')} ({escape_markdown(_missing_fact(i))})"
            for i in project) + "."))
    if layers:
        names = ", ".join(i.get("title") or i.get("id") or "" for i in layers)
        st.caption(f"Unknown on the layers available: {escape_markdown(names)}.")


_STATUS_WORDS = {True: "needed", None: "may be needed (not known yet)", False: "not needed"}
_PROHIBITION_WORDS = {True: "not allowed (the project includes it)", None: "not allowed, if the project includes it",
                      False: "not part of the project"}


def status_words(permit: dict) -> str:
    """A permit's status in words; a prohibition reads as one ("not allowed"), never "needed".

    >>> status_words({"id": "commercial_excavation_prohibited", "required": None})
    'not allowed, if the project includes it'
    >>> status_words({"id": "wetland_permit", "required": True})
    'needed'
    """
    words = _PROHIBITION_WORDS if (permit.get("id") or "") in PROHIBITED_IDS else _STATUS_WORDS
    return words[permit.get("required")]
