"""One list of answers on screen: Article IX's permits and the approvals around it, by who decides.

The list itself is the core's (``sloat_core.engine.approval_list.approvals_for``, in the analysis as
``approvals`` and ``approvals_detail``); this module only shows it, in two shapes of the same lines:

- :func:`show_approvals`: the Proposed project page's section (SEQR, county referral, the Village Law clocks,
  then each decider in a folded box and the dated state rules used);
- :func:`show_approvals_board`: the walk-through's permits screen, every decider open at once in columns so
  the list fits one projector screen (1920x1080), each item with its clause, status, usual step and clock.

A prohibition (``plain.is_prohibition``) is never among the approvals: the core lists
approvals only, and the walk-through names it apart, as "not allowed at all".
"""

from __future__ import annotations

import datetime as dt
import re

import streamlit as st

from app_support.analysis_door import all_state_facts, parcel_result
from app_support.widgets.citations import escape_markdown
from sloat_core.engine.plain import prohibition_sentence

__all__ = ["item_line", "show_approvals", "show_approvals_board", "board_items", "short_clock"]

#: The usual order in a word or two (the core's ``STEPS``, shortened for one projector line).
SHORT_STEPS = {1: "before applying", 2: "application complete", 3: "review and hearing", 4: "decision",
               5: "after approval"}


def item_line(i: dict) -> str:
    """One approval as the Proposed project page lists it (markdown, every value escaped)."""
    return (f"- {escape_markdown(i['name'])}: {escape_markdown(str(i['status']))} ({escape_markdown(i['clause'] or '')})"
            f"; step {i['step']}, {escape_markdown(i['step_text'])}"
            + (f"; clock: {escape_markdown(i['clock'])}" if i.get("clock") else ""))


def show_approvals(groups, a, result_day: dt.date) -> None:
    """Article IX's permits and the approvals around it in one list, by who decides (sloat_core.approvals).

    ``groups`` and ``a``: the result's ``approvals`` and ``approvals_detail`` (``ApprovalGroup`` records,
    ``ApprovalsDetail`` or None); ``result_day``: the result's ``as_of``."""
    if a is None or groups is None:
        return
    st.subheader("All approvals, by who decides")
    seqr, ref = a.seqr, a.county_referral
    rng = "" if len(seqr["possible"]) < 2 else f" ({' or '.join(seqr['possible'])})"
    st.markdown(escape_markdown(f"SEQR: {seqr['class']}{rng} ({seqr['clause'] or 'no clause decided it'}). "
                                f"{seqr['reason']}"))
    if seqr.get("question"):
        st.info(escape_markdown(f"To settle the SEQR class: {seqr['question']}"))
    st.markdown(escape_markdown(ref["headline"]))
    events = a.village_law["events"]
    if events:
        st.markdown("**Clocks (Village Law, GML § 239-m or § 239-n), counted by the General Construction Law**")
        st.markdown("\n".join(f"- {e['date']}: {escape_markdown(e['label'])}"
                              + (f" {escape_markdown(e['note'])}" if e["note"] else "") for e in events))
    for g in groups:
        with st.expander(f"{g.decides} ({len(g.items)})", expanded=False):
            st.markdown("\n".join(item_line(i) for i in g.items))
    with st.expander("The state and federal rules used (dated settings)"):
        st.markdown("\n".join(
            f"- {escape_markdown(f.description)} **{escape_markdown(str(f.value))}** ({escape_markdown(f.citation)}, "
            f"from {f.effective.isoformat()}){' — to confirm with the Village' if f.verify else ''}"
            for f in all_state_facts(result_day).values()))
    st.caption(escape_markdown(a.estimate + " Items marked \"to confirm with the Village\" are dated settings."))


def board_items(result) -> list:
    """The groups of the one list that hold items (``ApprovalGroup``: ``decides``, ``items``) of the typed result
    (or a result dict, read back); a prohibition is never among them:
    :func:`sloat_core.engine.approval_list.approvals_for` lists approvals only."""
    return [g for g in parcel_result(result).approvals if g.items]


_CLOCK_CITE = re.compile(r"\((?:GML |Village Law )?§[^()]*(?:\([^()]*\)[^()]*)*\)\.?$")


def short_clock(clock: str | None) -> str | None:
    """The first clock an item starts, in its first clause, with that clock's § (the whole text is on the
    Proposed project and Timeline pages).

    >>> short_clock("Hearing within 62 days of a complete application; newspaper notice at least 15 days "
    ...             "before (§ 402-57L).; Valid 1 year from issue (§ 402-57J(4)).")
    'Hearing within 62 days of a complete application (§ 402-57L)'
    >>> short_clock("62 days from the receipt of a complete plat")
    '62 days from the receipt of a complete plat'
    """
    if not clock:
        return None
    first = clock.split(".; ")[0].strip()
    cite = _CLOCK_CITE.search(first)
    head = re.split(r"[;,]\s|\s\(", first[:cite.start()] if cite else first)[0].strip().rstrip(".")
    return head + (f" {cite.group(0).rstrip('.')}" if cite else "")


def _board_line(i: dict) -> str:
    parts = [f"**{escape_markdown(i['name'])}**"]
    if i.get("id") != "seqr" and i["status"] != "clock":  # the name already says it
        parts.append(escape_markdown(str(i["status"])))
    if i.get("clause"):
        parts.append(escape_markdown(i["clause"]))
    parts.append(f"step {i['step']}")
    clock = short_clock(i.get("clock"))
    if clock:
        parts.append(f"clock: {escape_markdown(clock)}")
    return "- " + " · ".join(parts)


def _lines_of(text: str, chars_per_line: int) -> int:
    return sum(max(1, -(-len(part) // chars_per_line)) for part in text.split("  \n"))


def _deal(groups: list, columns: int, chars_per_line: int,
          tail_lines: int = 0) -> list[list[tuple[str, list[str]]]]:
    """Deal the deciders' items to ``columns`` columns, in order, so that the tallest column is as short as
    it can be; a decider whose items go on in the next column is named again there ("continued").
    ``tail_lines``: the lines of a note that goes under the last column (counted in that column's height)."""
    lines = [(g.decides, _board_line(i)) for g in groups for i in g.items]
    sizes = [_lines_of(text, chars_per_line) for _who, text in lines]

    def height(a: int, b: int) -> int:  # items a..b-1 in one column, with a heading per decider
        return sum(sizes[a:b]) + 2 * len({who for who, _t in lines[a:b]})

    n = len(lines)
    best: dict[tuple[int, int], tuple[int, list[int]]] = {}

    def split(start: int, cols: int) -> tuple[int, list[int]]:
        if cols == 1 or start >= n:
            return height(start, n) + tail_lines, [n]
        if (start, cols) not in best:
            options = []
            for end in range(start + 1, n + 1):
                rest, cuts = split(end, cols - 1)
                options.append((max(height(start, end), rest), [end, *cuts]))
            best[start, cols] = min(options, key=lambda o: o[0])
        return best[start, cols]

    _tallest, cuts = split(0, columns)
    out: list[list[tuple[str, list[str]]]] = [[] for _ in range(columns)]
    start, shown = 0, set()
    for k, end in enumerate(cuts[:columns]):
        for who, text in lines[start:end]:
            if not out[k] or out[k][-1][1] is None or out[k][-1][2] != who:
                out[k].append((who + (" (continued)" if who in shown else ""), [], who))
                shown.add(who)
            out[k][-1][1].append(text)
        start = end
    return [[(heading, texts) for heading, texts, _who in column] for column in out]


def show_approvals_board(result, *, columns: int = 3, chars_per_line: int = 50,
                         footnote: str | None = None) -> None:
    """The walk-through's permits screen: every decider's approvals at once, in ``columns`` columns.

    Each item: its name, status, clause, the step at which it usually comes and the first clock it starts. The
    note on the usual order (and any prohibition, named apart) goes under the last column, and is counted in
    its height. The items are dealt to the columns in the core's order (decider, then step), in columns of
    about equal height (``chars_per_line``: the column's width in characters of the mode's type), so the
    screen fits 1920x1080 on the sample's largest constrained parcel too. ``footnote`` (the screening
    disclaimer) goes under the note, in the last column, counted with it.
    """
    result = parcel_result(result)
    groups = board_items(result)
    a = result.approvals_detail
    steps = " · ".join(f"{n} {w}" for n, w in SHORT_STEPS.items())
    notes = [f"Usual order, by step: {steps}."]
    notes += [sentence for p in result.permits if (sentence := prohibition_sentence(p)) is not None]
    if a is not None and (a.seqr or {}).get("question"):  # the Proposed project page asks it
        notes.append("The SEQR class needs one more fact about the project (Proposed project page).")
    if not groups:
        st.markdown("No approval found on what is known.")
        st.caption("\n\n".join(escape_markdown(p) for p in [" ".join(notes), *([footnote] if footnote else [])]))
        return
    paragraphs = [" ".join(notes), *([footnote] if footnote else [])]
    note = "\n\n".join(escape_markdown(p) for p in paragraphs)
    # the note's lines (one more for the space above each paragraph) are dealt with the items: under the last column
    dealt = _deal(groups, columns, chars_per_line, tail_lines=sum(_lines_of(p, chars_per_line) + 1 for p in paragraphs))
    for k, (column, blocks) in enumerate(zip(st.columns(columns, gap="medium"), dealt)):
        column.markdown("\n\n".join(f"**{escape_markdown(who)}**\n\n" + "\n".join(texts) for who, texts in blocks))
        if k == columns - 1:
            column.caption(note)
