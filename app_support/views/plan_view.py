"""The Plan page's answer drawn from the plan check (the lot table from the checked plan, ``PlanResult``; the rest
from its dict, ``PlanResult.to_dict()``, the ``plan --json`` contract).

Nothing here computes law: the problems of the drawing, the lot table (a row per lot: gross, net lot area -- a range
where land is unknown --, the minimum, whether it conforms in a word, the shortfall, the permits, the §; its words
are the core's, :mod:`sloat_core.plan.words`, as in the plan's document), the yield check of § 402-48E, the open
space of § 402-48G(2) and the lot table as CSV. At the counter the headings and words
are everyday ones; every § is a link to the Law page, as under the other tables.
"""

from __future__ import annotations

import csv
import io

import streamlit as st

from app_support.frame import state
from app_support.widgets.citations import escape_markdown, law_link
from sloat_core.plan import words
from sloat_core.rules.permits import PROHIBITED_IDS

__all__ = ["PROBLEM_WORDS", "summary", "lot_columns", "lot_rows", "lots_csv", "show_problems",
           "show_lot_table", "show_yield", "show_open_space"]

#: Each kind of problem in words: (Standard, Counter).
PROBLEM_WORDS = {
    "overlap": ("Lots overlap", "Two lots share land"),
    "outside_parcel": ("Lot outside the parcel", "Part of a lot is outside the parcel"),
    "two_districts": ("Lot in two zoning districts", "A lot is in two zoning districts"),
    "duplicate_label": ("Two lots with one label", "Two lots have the same name"),
    "not_closed": ("Outline not closed", "A lot's outline is not closed"),
}
_STATUS_WORDS = {"within": ("Within", "Yes"), "over": ("Over", "No, too many"), "unknown": ("Not known", "Not known")}


def _n(value: float | None, unknown: str = "unknown") -> str:
    return unknown if value is None else f"{value:,.0f}"


def summary(out: dict, *, plain_words: bool = False) -> str:
    """The plan in one sentence: how many lots, how many conform, do not, are unknown.

    >>> summary({"kind": "cluster", "lot_count": 3, "conforming_lots": 1, "unknown_lots": 1})
    'Cluster plan: 3 lots; 1 conforms, 1 does not conform, 1 unknown.'
    """
    n, yes, unknown = out["lot_count"], out["conforming_lots"], out["unknown_lots"]
    no = n - yes - unknown
    if plain_words:
        return (f"{n} lot{'s' * (n != 1)} drawn: {yes} big enough, {no} too small"
                + (f", {unknown} not known yet" if unknown else "") + ".")
    parts = [f"{yes} conform{'s' * (yes == 1)}", f"{no} do{'es' * (no == 1)} not conform"]
    if unknown:
        parts.append(f"{unknown} unknown")
    return f"{out['kind'].capitalize()} plan: {n} lot{'s' * (n != 1)}; " + ", ".join(parts) + "."


def lot_columns(*, plain_words: bool = False) -> list[str]:
    """The lot table's headings (everyday words at the counter)."""
    if plain_words:
        return ["Lot", "Whole lot, sq ft", "Land that counts, sq ft", "Smallest allowed, sq ft", "Big enough?",
                "Short by, sq ft", "Permits needed", "§"]
    return ["Lot", "Gross, sq ft", "Net lot area, sq ft", "Minimum, sq ft", "Conforms", "Shortfall, sq ft",
            "Permits", "§"]


def _titles(lot: dict, required) -> list[str]:
    """The lot's permits needed (``required`` True) or not known yet (None); a prohibition (§ 402-52) is never a
    permit (`_prohibited`)."""
    return [str(p.get("title") or p.get("id")) for p in lot.get("permits") or []
            if p.get("required") is required and p.get("id") not in PROHIBITED_IDS]


def _prohibited(lot: dict) -> list[str]:
    """What the law forbids on the lot if the project includes it (§ 402-52), unless known not to apply."""
    return [str(p.get("title") or p.get("id")) for p in lot.get("permits") or []
            if p.get("id") in PROHIBITED_IDS and p.get("required") is not False]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def lot_rows(found, *, plain_words: bool = False) -> list[dict]:
    """One row of text per lot of the checked plan (``PlanResult``), keyed by :func:`lot_columns`: the words are
    the core's (:mod:`sloat_core.plan.words`, as in the plan's document), each lot's § with it (a link under the
    table); at the counter the permits are named without their §."""
    cols = lot_columns(plain_words=plain_words)
    shared = words.shared_unknowns(found.lots, cited=not plain_words)
    return [dict(zip(cols, [str(lot.label), words.number_text(lot.lot.gross_area_sqft), words.net_text(lot),
                            words.minimum_text(lot), _capital(words.conforms_text(lot, everyday=plain_words)),
                            words.shortfall_text(lot), words.permits_text(lot, shared, cited=not plain_words),
                            lot.minimum.citation or ""], strict=True)) for lot in found.lots]


def lots_csv(out: dict, csv_safe) -> str:
    """The lot table as CSV (numbers as numbers, a yes / no / unknown answer; ``csv_safe`` defuses each cell)."""
    header = ["lot", "gross_sqft", "net_lot_area_sqft", "net_lot_area_min_sqft", "net_lot_area_max_sqft", "district",
              "min_lot_area_sqft", "compared_with", "min_lot_area_reason", "conforms", "shortfall_sqft",
              "permits_required", "permits_unknown", "prohibited_if_included", "citation"]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(header)
    for lot in out.get("lots") or []:
        row = [lot["lot"], lot["gross_sqft"], lot.get("net_lot_area_sqft"), lot.get("net_lot_area_min_sqft"),
               lot.get("net_lot_area_max_sqft"), lot.get("district"), lot.get("min_lot_area_sqft"),
               lot.get("compared_with"), lot.get("min_lot_area_reason"), lot.get("conforms"),
               lot.get("shortfall_sqft"),
               "; ".join(_titles(lot, True)), "; ".join(_titles(lot, None)), "; ".join(_prohibited(lot)),
               lot.get("citation")]
        writer.writerow([csv_safe(v) for v in row])
    return buf.getvalue()


def show_problems(out: dict) -> None:
    """The problems of the drawing, each with its kind in words, the lots it names and the area."""
    counter = state.mode() == state.COUNTER
    problems = out.get("problems") or []
    if not problems:
        st.success("No problem found in the drawing: no lots overlap, none lies outside the parcel or in two "
                   "districts, every lot has its own label and a closed outline." if not counter else
                   "Nothing wrong found in the drawing.")
        return
    for p in problems:
        kind = PROBLEM_WORDS.get(p["kind"], (p["kind"].replace("_", " "),) * 2)[1 if counter else 0]
        lots = ", ".join(dict.fromkeys(str(x) for x in p.get("lots") or []))
        area = "" if p.get("area_sqft") is None else f"; {_n(p['area_sqft'])} sq ft"
        st.warning(f"**{escape_markdown(kind)}** (lot{'s' * (len(set(p.get('lots') or [])) != 1)} "
                   f"{escape_markdown(lots)}{area}): {escape_markdown(p['text'])}", icon=":material/report:")


def show_lot_table(found) -> None:
    """The lot table of the checked plan (``PlanResult``; one HTML table, its cells wrapped), the permits not known
    yet for every lot and the prohibitions said once under it, the minimum's reasons where unknown, the § links."""
    import pandas as pd

    mode = state.mode()
    counter = mode == state.COUNTER
    rows = lot_rows(found, plain_words=counter)
    frame = pd.DataFrame(rows, columns=lot_columns(plain_words=counter))
    styled = frame.style.set_properties(subset=["§"], **{"white-space": "nowrap"}).hide(axis="index")
    st.table(styled)
    if shared := words.shared_unknowns(found.lots, cited=not counter):
        st.caption(escape_markdown(("Not known yet for any lot (it depends on what is built): " if counter else
                                    "Not known yet for every lot (they turn on what is built): ")
                                   + "; ".join(shared) + "."))
    if forbidden := words.prohibitions(found.lots, cited=not counter):
        st.caption(escape_markdown("Not allowed at all, if the project includes it, with or without a permit: "
                                   + "; ".join(forbidden) + "."))
    reasons = dict.fromkeys(lot.minimum.reason for lot in found.lots if lot.minimum.reason)
    if reasons:
        st.caption(escape_markdown(" ".join(reasons)))
    _permits_by_lot(found, counter)
    if counter:
        return
    citations = dict.fromkeys(lot.minimum.citation for lot in found.lots if lot.minimum.citation)
    per_row = 2 if mode == state.PROJECTOR else 4
    cols = st.columns(per_row)
    for i, citation in enumerate(citations):
        with cols[i % per_row]:
            law_link(citation, label=f"Minimum lot area: {citation}")


def _permits_by_lot(found, counter: bool) -> None:
    """Under the table, folded: each lot's permits needed and not known yet, each with its § (a link, but at the
    counter, where the words stay plain); prohibitions are said under the table, never as a permit."""
    lots = [lot for lot in found.lots if words.asked(lot, True) or words.asked(lot, None)]
    if not lots:
        return
    with st.expander("The permits lot by lot" if not counter else "Which permits each lot may need"):
        for lot in lots:
            permits = words.asked(lot, True) + words.asked(lot, None)
            st.markdown(f"**Lot {escape_markdown(str(lot.label))}**: " + "; ".join(
                escape_markdown(f"{p.title or p.id} ({'needed' if p.required else 'not known'}"
                                + ("" if counter else f", {p.citation}") + ")") for p in permits) + ".")
        if counter:
            return
        citations = dict.fromkeys(p.citation for lot in lots for p in words.asked(lot, True) + words.asked(lot, None)
                                  if p.citation)
        cols = st.columns(4)
        for i, citation in enumerate(citations):
            with cols[i % 4]:
                law_link(citation)


def show_yield(out: dict) -> None:
    """§ 402-48E: the plan's lots against the lots permitted (within / over / not known)."""
    counter = state.mode() == state.COUNTER
    y = out["yield_check"]
    lo, hi = y.get("permitted_min"), y.get("permitted_max")
    permitted = "not known" if lo is None or hi is None else (f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}")
    cols = st.columns(3)
    cols[0].metric("Lots drawn" if counter else "Lots in the plan", f"{y['plan_lots']:,}")
    cols[1].metric("Lots allowed (first estimate)" if counter else "Lots permitted", permitted)
    cols[2].metric("Within the number allowed?" if counter else "Yield check",
                   _STATUS_WORDS.get(y["status"], ("Not known",) * 2)[1 if counter else 0])
    st.markdown(escape_markdown(y["text"]))
    law_link(y["citation"], label=f"{'The rule on how many lots' if counter else 'Yield'}: {y['citation']}")


def show_open_space(out: dict) -> None:
    """§ 402-48G(2): the open space drawn, the yards excluded, the open space counted."""
    counter = state.mode() == state.COUNTER
    o = out["open_space"]
    cols = st.columns(3)
    cols[0].metric("Open space drawn, sq ft", _n(o.get("gross_sqft")))
    cols[1].metric("Yards left out, sq ft" if counter else "Yards excluded, sq ft", _n(o.get("yards_excluded_sqft")))
    cols[2].metric("Open space that counts, sq ft" if counter else "Counted, sq ft", _n(o.get("counted_sqft")))
    st.markdown(escape_markdown(o["text"]))
    law_link(o["citation"], label=f"{'The rule on open space' if counter else 'Open space'}: {o['citation']}")
