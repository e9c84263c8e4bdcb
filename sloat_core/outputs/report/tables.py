"""The report's tables: the deductions (§ 402-45), the cluster features (§ 402-48C), the permits and approvals,
the wetland mitigation (§ 402-57P), the deadlines and the appendix of adjacent owners (§ 402-57K(4)).

Each function draws its section onto the document at the current position and returns nothing. The
lengths they are given (how much of a reason or evidence to keep, how many dates) come from the fitting
level of :mod:`sloat_core.outputs.report.build`. Statuses are words (yes / no / unknown), never colour.
"""

from __future__ import annotations

import datetime as dt

from fpdf import FPDF

from sloat_core.engine.plain import prohibition_sentence
from sloat_core.outputs.report.layout import _first_lines, _first_rows, _heading, _list, _para, _table
from sloat_core.outputs.report.reading import (_YES_NO, _events, approval_sentences, approval_status, coverage_notes,
                                               deduction_rows, events_to_show, not_needed_sentence, status_text,
                                               trigger_status, usual_order)
from sloat_core.outputs.report.text import _shorten, _sqft


def deductions(pdf: FPDF, r: dict) -> None:
    """The § 402-45 deduction table: each constraint's area in the parcel, the share that counts and the land
    deducted, then the gross area, the total deducted and the net lot area (§ 402-45A)."""
    rows = deduction_rows(r)
    bold = [len(rows) - 3, len(rows) - 1]
    head = ["Constraint", "Area in parcel (sq ft)", "Counts", "Deducted (sq ft)", "§"]
    widths, align = (62, 32, 16, 30, 32), ("LEFT", "RIGHT", "RIGHT", "RIGHT", "LEFT")
    _heading(pdf, "Land that does not count toward minimum lot area (§ 402-45)",
             _first_rows(head, rows, widths, align))
    _table(pdf, head, rows, widths, align, bold_rows=bold)
    _para(pdf, "Where constraints overlap, each piece of land is counted once, at the lowest share that applies.",
          size=7, style="I", h=3.4)
    for note in coverage_notes(r):  # each row's own note here; the coverage of the layers with the data's version
        if not note.startswith("Coverage of the layers"):
            _para(pdf, note, size=7, h=3.4)


def cluster_features(pdf: FPDF, r: dict, evidence_len: int) -> None:
    """The ten sensitive features of § 402-48C, each present, absent, unknown or for the Board to decide, with
    its evidence shortened to ``evidence_len`` characters (none at 0); first, why § 402-48 applies or not."""
    rows = []
    for t in r.get("cluster_triggers", []):
        row = [t.get("citation", ""), t.get("title", ""), trigger_status(t)]
        if evidence_len:
            row.append(_shorten(t.get("evidence", ""), evidence_len))
        rows.append(row)
    if evidence_len:
        head, widths, align = ["§", "Feature", "Present?", "Evidence"], (24, 50, 18, 80), ("LEFT",) * 4
    else:
        head, widths, align = ["§", "Feature", "Present?"], (26, 120, 26), ("LEFT",) * 3
    reason = r.get("cluster_applies_reason")
    _heading(pdf, "Cluster development: sensitive features (§ 402-48C)",
             _first_rows(head, rows, widths, align, size=7,
                         lead=_first_lines(reason, size=7.5, lines=9) if reason else None))
    if reason:
        _para(pdf, reason, size=7.5)
        pdf.ln(0.8)
    _table(pdf, head, rows, widths, align, size=7)


def permits(pdf: FPDF, r: dict, reason_len: int) -> None:
    """The permits and reviews the analysis lists: whether each is needed (yes / no / unknown), its approval
    authority and the § that requires it, with the reason shortened to ``reason_len`` characters (none at 0)."""
    rows = []
    for p in r.get("permits", []):
        title = p.get("title", "")
        if reason_len and p.get("reason"):
            title = f"{title}\n{_shorten(p['reason'], reason_len)}"
        rows.append([title, _YES_NO.get(p.get("required"), str(p.get("required"))),
                     p.get("authority", ""), p.get("citation", "")])
    head, widths, align = ["Permit or review", "Needed?", "Approval authority", "§"], (78, 16, 56, 22), ("LEFT",) * 4
    _heading(pdf, "Permits and reviews", _first_rows(head, rows, widths, align, size=7))
    _table(pdf, head, rows, widths, align, size=7)


def approval_rows(r: dict, reason_len: int, clock_len: int) -> list[list[str]]:
    """The rows of the one list of approvals (the analysis's ``approvals``, grouped by who decides, in the
    usual order within each group): who decides, the approval (with its reason shortened to ``reason_len``
    characters, none at 0), its status, its clause, the clock it starts (shortened to ``clock_len``
    characters) and its usual step."""
    rows = []
    for group in r.get("approvals") or []:
        for item in group.get("items") or []:
            clock = item.get("clock") or ""
            name = item.get("name", "")
            if reason_len:
                why = " ".join(x for x in (item.get("authority") and f"{item['authority']}.",
                                           item.get("reason") and _shorten(item["reason"], reason_len)) if x)
                name = f"{name}\n{why}" if why else name
            rows.append([group.get("decides", ""), name, approval_status(item),
                         item.get("clause") or "", _shorten(clock, clock_len) if clock else "none",
                         str(item.get("step", ""))])
    return rows


def approvals(pdf: FPDF, r: dict, reason_len: int, clock_len: int) -> None:
    """The one list of approvals: Article IX's permits and the approvals around it (SEQR class, county referral under
    GML § 239-m/n, the Village Law clocks, the NYSDEC and Army Corps screens), grouped by who decides, each with
    its clause, the clock it starts and the step at which it usually comes; then the usual order, the SEQR class,
    the county referral and the state and federal wetland answers in sentences. Read from the analysis's
    ``approvals`` and ``approvals_detail`` (:func:`sloat_core.engine.approval_list.approvals_for`), never
    re-derived. The Article IX permits not needed on what is known follow in one sentence. Without the
    analysis's approvals (an older result), the permits table of :func:`permits` instead."""
    detail = r.get("approvals_detail") or {}
    if not r.get("approvals") and not detail:
        permits(pdf, r, reason_len)
        return
    _approvals_table(pdf, approval_rows(r, reason_len, clock_len))
    _prohibitions_and_not_needed(pdf, r)
    if steps := usual_order(detail):
        pdf.ln(0.6)
        _para(pdf, "The usual order (steps in the table; common practice, not law):", size=7.5, style="B", h=3.4)
        _list(pdf, steps, numbered=True, size=7.5, h=3.4)
    sentences = approval_sentences(r)
    fed = (detail.get("wetland_screens") or {}).get("federal")
    if fed:
        sentences.append(f"Federal waters ({fed.get('citation', 'CWA § 404')}): {fed.get('message', '')}. "
                         f"{fed.get('reason', '')} {fed.get('stated', '')}".strip())
    for s in sentences:
        _para(pdf, " ".join(s.split()), size=7.5, h=3.4)
    if detail.get("estimate"):
        _para(pdf, detail["estimate"], size=7, style="I", h=3.4)


def _approvals_table(pdf: FPDF, rows: list[list[str]]) -> None:
    """The heading and the table of the approvals, by who decides (the heading alone when there is none)."""
    head = ["Who decides", "Permit, review or approval", "Status", "Clause", "Clock it starts", "Step"]
    widths, align = (20, 62, 17, 27, 40, 9), ("LEFT",) * 5 + ("CENTER",)
    _heading(pdf, "Permits, reviews and approvals, by who decides",
             _first_rows(head, rows, widths, align, size=7))
    if rows:
        _table(pdf, head, rows, widths, align, size=7)


def _prohibitions_and_not_needed(pdf: FPDF, r: dict) -> None:
    """What the law forbids, each apart (a prohibition is not an approval, § 402-52; in bold when it applies), then
    the Article IX permits not needed on what is known, in one sentence."""
    for p in r.get("permits") or []:
        if (sentence := prohibition_sentence(p)) is not None:
            _para(pdf, sentence, size=7, style="B" if p.get("required") else "", h=3.4)  # it applies: in bold
    if others := not_needed_sentence(r):
        _para(pdf, others, size=7, h=3.4)


def mitigation(pdf: FPDF, r: dict) -> None:
    """The wetland mitigation figures of § 402-57P, when a wetland impact is known: the impact, the
    replacement ratio and the replacement wetland required, the proposal and its shortfall, the buffer
    impact, then the gate, siting and monitoring years. Nothing when no impact is known."""
    m = r.get("mitigation") or {}
    if m.get("impacted_wetland_sqft") is None:
        return
    rows = [["Wetland impacted", _sqft(m.get("impacted_wetland_sqft")),
             "from the drawn footprint" if m.get("impact_source") == "footprint" else "as entered"],
            ["Replacement ratio", f"at least {m.get('ratio', 0):g} to 1", m.get("citation", "")],
            ["Replacement wetland required", _sqft(m.get("required_mitigation_sqft")), m.get("citation", "")]]
    if m.get("proposed_mitigation_sqft") is not None:
        rows.append(["Proposed", _sqft(m.get("proposed_mitigation_sqft")), ""])
        rows.append(["Shortfall", _sqft(m.get("shortfall_sqft")),
                     "meets the ratio" if m.get("meets_ratio") else "does not meet the ratio"])
    if m.get("impacted_buffer_sqft") is not None:
        rows.append(["Buffer impacted", _sqft(m.get("impacted_buffer_sqft")), ""])
    head, widths, align = ["", "Figure", "Note / §"], (60, 50, 62), ("LEFT", "RIGHT", "LEFT")
    _heading(pdf, "Wetland mitigation (§ 402-57P)", _first_rows(head, rows, widths, align))
    _table(pdf, head, rows, widths, align, size=7.5)
    gate = (m.get("gate") or {}).get("text")
    mon = m.get("monitoring_years") or {}
    extra = " ".join(x for x in (gate, m.get("siting"),
                                 f"Monitoring: {mon.get('min')} to {mon.get('max')} years "
                                 f"({mon.get('citation', '')})." if mon else "") if x)
    _para(pdf, extra, size=7, h=3.4)


def adjacent_owners(pdf: FPDF, r: dict) -> None:
    """Appendix, § 402-57K(4): the tax parcels adjacent to the wetland, watercourse and buffer of the work, within
    the parameters' distance of the property's boundary, with their owners of record where the parcel layer names
    them (else the assessment roll is named), as one compact paragraph. Nothing when no wetland permit
    application is needed."""
    a = r.get("adjacent_owners") or {}
    if not a or a.get("applies") is False:
        return
    lots = a.get("parcels")
    heading = f"Appendix: owners of record of adjacent lands ({a.get('citation', '')})"
    if lots:
        listed = "; ".join(f"{x.get('sbl') or 'no SBL'}" + (f" ({x['address']})" if x.get("address") else "")
                           + f": {x.get('owner') or 'owner from the assessment roll'}" for x in lots) + "."
    else:
        listed = ""
    _heading(pdf, heading)
    _para(pdf, " ".join(t for t in (listed, a.get("reason", "")) if t), size=7, h=3.4)


def deadlines(pdf: FPDF, events, max_events: int) -> None:
    """The deadlines and expiry dates of the timeline (``sloat_core.rules.clocks.timeline_events``), each with
    its status in words and its §; at most ``max_events`` (see :func:`~sloat_core.outputs.report.reading.events_to_show`), the rest left to the
    calendar download. Nothing when there are no events."""
    evs = _events(events)
    if not evs:
        return
    shown = events_to_show(evs, max_events)
    rows = [[dt.date.fromisoformat(str(e["date"])).strftime("%b %d, %Y"), e.get("label", ""),
             status_text(e.get("status")), e.get("citation", "")] for e in shown]
    if len(evs) > len(shown):
        rows.append(["", f"… and {len(evs) - len(shown)} more dates: see the calendar (.ics) download.", "",
                     ""])
    head, widths, align = ["Date", "What", "Status", "§"], (24, 94, 26, 28), ("LEFT",) * 4
    _heading(pdf, "Deadlines and expiry dates", _first_rows(head, rows, widths, align, size=7))
    _table(pdf, head, rows, widths, align, size=7)
    _para(pdf, "Dates are worked out from the law's text; confirm them with the Village.", size=7, style="I",
          h=3.4)
