"""What the report's sections read from the analysis result, in words: no drawing.

The PDF's sections (:mod:`~sloat_core.outputs.report.page_one`, :mod:`~sloat_core.outputs.report.tables`,
:mod:`~sloat_core.outputs.report.closing`) and the web versions of the documents
(:mod:`sloat_core.outputs.html_docs`) read the same words from here: yes / no / unknown, the map's
alternative text, an approval's status, the coverage notes, the citations used, the verdict and the events.
They read the typed result (:class:`sloat_core.engine.result.ParcelResult`) by attribute; an approval, an event
and the approvals' own JSON (the SEQR class, the county referral, the clocks, the wetland screens) stay dicts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sloat_core.outputs.report.text import _num, _shorten, _sqft
from sloat_core.law.events import DONE_STATUSES, STATUS_WORDS

if TYPE_CHECKING:
    from sloat_core.engine.result import ApprovalsDetail, Deduction, ParcelResult
    from sloat_core.rules.sections.s402_48_cluster.cluster import Trigger

_YES_NO = {True: "yes", False: "no", None: "unknown"}


def map_alt(r: ParcelResult) -> str:
    """The map's alternative text: what it shows, in words (the tables below say every figure)."""
    shown = [d.label or d.constraint for d in r.deductions if (d.area_sqft or 0) >= 0.5]
    return ("Map of the parcel outlined in black" + (f", with the land of {', '.join(map(str, shown))} "
            "hatched in grey (the deduction table gives each area)" if shown else ", with no constraint on it")
            + "; tax parcel lines around it, a scale bar and a north arrow.")


def unknown_area_text(d: Deduction, key: str = "known_area_sqft", bare: str = "unknown (no data)") -> str:
    """The cell of an unknown deduction row: ``bare`` without data ("unknown (no data)"), "unknown (at least N)"
    ("unknown (at least 10,000)") where the row's layer maps the parcel in part (``key``: what the land it maps
    holds, ``known_area_sqft``, or deducts, ``known_deducted_sqft``)."""
    at_least = getattr(d, key)
    return bare if at_least is None else f"unknown (at least {at_least:,.0f})"


def coverage_notes(r: ParcelResult) -> list[str]:
    """How each deduction row's layer coverage is known (the row's ``coverage``: declared, or assumed to be the
    layer's extent), rows of one coverage said together, then each row's own note (a buffer built only from the
    loaded layers). An empty list when the rows say nothing of it. For example "Coverage of the layers: Wetlands:
    coverage declared: the village boundary." then "Buffer: Built only from X."."""
    by_state: dict[str, list[str]] = {}
    notes = []
    for d in r.deductions:
        label = str(d.label or d.constraint or "")
        if d.coverage:
            by_state.setdefault(str(d.coverage), []).append(label)
        if d.note:
            notes.append(f"{label}: {d.note}")
    out = []
    if by_state:
        out.append("Coverage of the layers: " + "; ".join(f"{', '.join(labels)}: {state}"
                                                          for state, labels in by_state.items()) + ".")
    return out + notes


#: An approval's status in words (the summary's status: an Article IX answer, a SEQR class, a clock or a screen).
APPROVAL_STATUS_WORDS = {"required": "needed", "unknown": "may be needed", "clock": "time limit",
                         "likely": "likely", "possible": "possible", "ask": "ask the agency"}


def approval_status(item: dict) -> str:
    """An approval's status in words; a SEQR class is printed as it is.

    >>> approval_status({"status": "required"}), approval_status({"id": "seqr", "status": "Unlisted"})
    ('needed', 'class: Unlisted')
    """
    status = str(item.get("status") or "unknown")
    if str(item.get("id") or "").endswith("_prohibited"):  # a prohibition (§ 402-52), not a permit
        return "not allowed" if status == "required" else "not allowed, if planned"
    if item.get("id") == "seqr":
        return f"class: {status}"
    return APPROVAL_STATUS_WORDS.get(status, status.replace("_", " "))


def deduction_rows(r: ParcelResult) -> list[list]:
    """The § 402-45 deduction table's rows: each constraint's area in the parcel, the share that counts and the land
    deducted (unknown without data; "at least" what a layer mapping the parcel in part shows), then the gross area, the total deducted and the net lot area."""
    rows = []
    for d in r.deductions:
        known = d.area_sqft is not None
        rows.append([d.label, _num(d.area_sqft) if known else unknown_area_text(d),
                     f"{d.countable_fraction:.0%}",
                     _num(d.deducted_sqft) if known else unknown_area_text(d, "known_deducted_sqft", "unknown"),
                     d.citation])
    return rows + [["Gross area", _num(r.gross_area_sqft), "", "", ""],
                   ["Total deducted", "", "", _num(r.deducted_sqft), ""],
                   ["Net lot area", _num(r.net_lot_area_sqft), "", "", r.lot_area_citation]]


def trigger_status(t: Trigger) -> str:
    """A § 402-48C feature's answer in words: yes / no / unknown, or "Board decides" when its judgment is open."""
    if t.needs_board_judgment and t.triggered is None:
        return "Board decides"
    return _YES_NO.get(t.triggered, str(t.triggered))


def not_needed_sentence(r: ParcelResult) -> str | None:
    """The Article IX permits not needed on what is known, in one sentence; None when there is none."""
    others = [f"{p.title} ({p.citation})" for p in r.permits if p.required is False]
    return "Not needed on what is known (Article IX): " + ", ".join(others) + "." if others else None


def usual_order(detail: ApprovalsDetail | None) -> list[str]:
    """The approvals' usual order (``approvals_detail.steps``), step by step."""
    steps = (detail.steps if detail is not None else None) or {}
    return [v for _, v in sorted(steps.items(), key=lambda kv: int(kv[0]))]


def approval_sentences(r: ParcelResult) -> list[str]:
    """The SEQR class, the county referral and the state wetland answer of the analysis's approvals, each in one
    sentence when the analysis has it (the federal screen's sentence is each document's own)."""
    detail = r.approvals_detail
    sentences = []
    seqr = (detail.seqr if detail is not None else None) or {}
    if seqr:
        rng = "" if len(seqr.get("possible") or []) < 2 else f" ({' or '.join(seqr['possible'])})"
        sentences.append(f"SEQR class: {seqr.get('class')}{rng} ({seqr.get('clause') or 'no clause decided it'}). "
                         f"{seqr.get('reason') or ''}"
                         + (f" To settle it: {seqr['question']}" if seqr.get("question") else ""))
    ref = (detail.county_referral if detail is not None else None) or {}
    if ref.get("headline"):
        sentences.append(ref["headline"] + (f" {ref['override_rule']}" if ref.get("required")
                                            and ref.get("override_rule") else ""))
    state = r.state_wetlands
    if state:
        sentences.append(f"New York State wetlands (NYSDEC map, {state.get('citation', 'ECL Article 24')}): "
                         f"{state.get('message', '')}. {state.get('reason', '')} {state.get('stated', '')}")
    return sentences


def _citations_used(result: ParcelResult) -> list[str]:
    cites: list[str] = []
    for d in result.deductions:
        if d.area_sqft is None or d.area_sqft > 0:
            cites.append(d.citation)
    if not cites:
        cites.append("§ 402-45A(1)")
    cites.append("§ 402-48C")
    for t in result.cluster_triggers:
        if t.triggered is True:
            cites.append(t.citation)
    for p in result.permits:
        if p.required is True:
            cites.append(p.citation)
    m = result.mitigation
    if m is not None and m.impacted_wetland_sqft is not None and m.citation:
        cites.append(m.citation)
    return list(dict.fromkeys(cites))


def _verdict(r: ParcelResult) -> str:
    meets, minimum = r.meets_min_lot_area, r.min_lot_area_sqft
    if minimum is None:
        return "No district minimum is set: enter it in the settings to compare."
    if meets is True:
        return "MEETS the district minimum lot area."
    if meets is False:
        return "BELOW the district minimum lot area."
    return (f"CANNOT TELL: with unknown data the net lies between {_sqft(r.net_lot_area_min_sqft)} "
            f"and {_sqft(r.net_lot_area_sqft)}.")


def status_text(status) -> str:
    """An event's status in words (``sloat_core.law.events.STATUS_WORDS``).

    >>> status_text("reached"), status_text("not_yet"), status_text("due_soon")
    ('From this day on', 'Not before this day', 'Due soon')
    """
    return STATUS_WORDS.get(str(status), str(status or "").replace("_", " "))


def events_to_show(evs: list[dict], max_events: int) -> list[dict]:
    """At most ``max_events`` events in date order: those still ahead first, then those done.

    A "not before" day that has come (``reached``) is done, like a passed deadline; one still to come
    (``not_yet``) is ahead (``sloat_core.law.events.DONE_STATUSES``).
    """
    if len(evs) <= max_events:
        return list(evs)
    ahead = [e for e in evs if e.get("status") not in DONE_STATUSES]
    done = [e for e in evs if e.get("status") in DONE_STATUSES]
    shown = ahead[:max_events] + done[: max(0, max_events - len(ahead))]
    return sorted(shown, key=lambda e: (str(e.get("date")), str(e.get("id"))))


def with_approval_events(events, r: ParcelResult) -> list[dict]:
    """The timeline's events and the dated Village Law and county clocks of the analysis's approvals
    (``approvals_detail.village_law["events"]``), each once (by its id)."""
    out = _events(events)
    seen = {e.get("id") for e in out}
    detail = r.approvals_detail
    for e in ((detail.village_law if detail is not None else None) or {}).get("events") or []:
        if e.get("id") not in seen:
            out.append(dict(e))
            seen.add(e.get("id"))
    return sorted(out, key=lambda d: (str(d.get("date")), str(d.get("id"))))


def _events(events) -> list[dict]:
    out = []
    for e in events or []:
        d = e.to_dict() if hasattr(e, "to_dict") else dict(e)
        out.append(d)
    return sorted(out, key=lambda d: (str(d.get("date")), str(d.get("id"))))


def approval_rows(r: ParcelResult, reason_len: int | None, clock_len: int | None) -> list[list[str]]:
    """The rows of the one list of approvals (the analysis's ``approvals``, grouped by who decides, in the
    usual order within each group): who decides, the approval (with its approval authority and its reason, the
    reason shortened to ``reason_len`` characters, left out at 0, whole at ``None``), its status, its clause, the
    clock it starts (shortened to ``clock_len`` characters; whole at ``None``) and its usual step with its words."""
    rows = []
    for group in r.approvals:
        for item in group.items:
            clock = item.get("clock") or ""
            name = item.get("name", "")
            if reason_len != 0:
                reason = item.get("reason") or ""
                if reason and reason_len is not None:
                    reason = _shorten(reason, reason_len)
                why = " ".join(x for x in (item.get("authority") and f"{item['authority']}.", reason) if x)
                name = f"{name}\n{why}" if why else name
            if clock and clock_len is not None:
                clock = _shorten(clock, clock_len)
            step = str(item.get("step", ""))
            if item.get("step_text"):
                step = f"{step}: {item['step_text']}"
            rows.append([group.decides, name, approval_status(item), item.get("clause") or "",
                         clock or "none", step])
    return rows
