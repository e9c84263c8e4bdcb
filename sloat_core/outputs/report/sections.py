"""The report's sections, one function each, in the order they are printed.

Each function draws its section onto the document at the current position and returns nothing. The
sections read the analysis result (``analysis.result``, a dict), never the layers themselves; the
lengths they are given (how much of a quote, a reason or the notes to keep) come from the fitting
level of :mod:`sloat_core.outputs.report.build`. Statuses are words (yes / no / unknown), never colour.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any, Callable

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from sloat_core.errors import SloatInputError
from sloat_core.law.text import LAW_TEXT_SHA256, clause
from sloat_core.outputs.report.layout import (REPORT_TITLE, _first_lines, _first_rows, _heading, _keep_together,
                                              _lines, _list, _para, _table)
from sloat_core.outputs.report.text import _FONT, _acres, _date_text, _num, _plain, _shorten, _sqft
from sloat_core.rules.clocks import DONE_STATUSES, STATUS_WORDS

_YES_NO = {True: "yes", False: "no", None: "unknown"}


# ----------------------------------------------------------------------------------------------
# Page 1: who, where, the map and the key figures
# ----------------------------------------------------------------------------------------------


def title_block(pdf: FPDF, r: dict, layerset, as_of: dt.date, illustrative: bool) -> None:
    """The title, the Article IX it screens against (§§ 402-45 to 402-59), the dates and, on sample data,
    the illustrative-sample notice in a box."""
    pdf.set_font(_FONT, "B", 17)
    with pdf.tag("H1"):
        pdf.cell(0, 8, REPORT_TITLE, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    _para(pdf, "Environmental controls of the Village of Sloatsburg Code, Chapter 402, Article IX "
               "(§§ 402-45 to 402-59)", size=9)
    _para(pdf, f"Prepared {_date_text(as_of)}  ·  analysis as of {r.get('as_of')}", size=8)
    if illustrative:
        pdf.ln(1.5)
        pdf.set_fill_color(225)
        pdf.set_line_width(0.6)
        pdf.set_font(_FONT, "B", 8.5)
        notice = str(r.get("layers_notice") or getattr(layerset, "notice", "") or "")
        notice = re.sub(r"^\s*illustrative sample,? not official( data)?[.:;]?\s*", "", notice, flags=re.I)
        with pdf.tag("P"):
            pdf.multi_cell(0, 4.2, _plain("ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA. " + _shorten(notice, 260)),
                           border=1, fill=True, align="L", padding=1.2, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_line_width(0.2)
    pdf.ln(1.5)


def parcel_and_district(pdf: FPDF, r: dict) -> None:
    """The parcel (SBL, address, where its outline came from) and its zoning district, or each district of a
    split parcel with its area."""
    parcel = r.get("parcel") or {}
    bits = []
    if parcel.get("sbl"):
        bits.append(f"SBL {parcel['sbl']}")
    if parcel.get("address"):
        bits.append(str(parcel["address"]))
    if parcel.get("source"):
        bits.append(f"outline: {_shorten(parcel['source'], 80)}")
    with pdf.tag("P"):
        pdf.set_font(_FONT, "B", 9)
        pdf.cell(18, 4.5, "Parcel:")
        pdf.set_font(_FONT, "", 9)
        pdf.multi_cell(0, 4.5, _plain(" · ".join(bits) or "outline given by the applicant"), align="L",
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    districts = r.get("districts") or []
    dtext = r.get("district") or "unknown"
    if r.get("district_kind"):
        dtext += f" ({str(r['district_kind']).replace('_', ' ')} district)"
    if len(districts) > 1:
        dtext = "split: " + ", ".join(f"{d['district']} ({_sqft(d['area_sqft'])})" for d in districts)
    with pdf.tag("P"):
        pdf.set_font(_FONT, "B", 9)
        pdf.cell(18, 4.5, "District:")
        pdf.set_font(_FONT, "", 9)
        pdf.multi_cell(0, 4.5, _plain(dtext), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)


def map_and_key_figures(pdf: FPDF, r: dict, figure: tuple[bytes, float]) -> None:
    """The map (left, ``figure`` from :func:`sloat_core.outputs.report.map.map_png`) and beside it the key
    figures (right): :func:`lot_area` with its verdict, then :func:`key_features`."""
    png, ratio = figure
    map_w = 92.0
    map_h = map_w * ratio
    top = pdf.get_y()
    pdf.image(io.BytesIO(png), x=pdf.l_margin, y=top, w=map_w, h=map_h, alt_text=map_alt(r))
    x = pdf.l_margin + map_w + 5
    w = pdf.w - pdf.r_margin - x
    pdf.set_xy(x, top)
    lot_area(pdf, r, x, w)
    key_features(pdf, r, x, w)
    pdf.set_y(max(pdf.get_y(), top + map_h) + 2)


def map_alt(r: dict) -> str:
    """The map's alternative text: what it shows, in words (the tables below say every figure)."""
    shown = [d.get("label") or d.get("constraint") for d in r.get("deductions") or [] if (d.get("area_sqft") or 0) >= 0.5]
    return ("Map of the parcel outlined in black" + (f", with the land of {', '.join(map(str, shown))} "
            "hatched in grey (the deduction table gives each area)" if shown else ", with no constraint on it")
            + "; tax parcel lines around it, a scale bar and a north arrow.")


def _figure(pdf: FPDF, x: float, w: float, label: str, value: str, *, bold: bool = False, size: float = 9) -> None:
    """One key figure in the column at ``x``, ``w`` wide: a small grey label over its value."""
    pdf.set_x(x)
    pdf.set_font(_FONT, "", 7.5)
    pdf.set_text_color(70)
    with pdf.tag("P"):
        pdf.cell(w, 3.6, _plain(label), new_x=XPos.LEFT, new_y=YPos.NEXT)
        pdf.set_text_color(0)
        pdf.set_x(x)
        pdf.set_font(_FONT, "B" if bold else "", size)
        pdf.multi_cell(w, size * 0.47, _plain(value), align="L", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.ln(1.3)


def lot_area(pdf: FPDF, r: dict, x: float, w: float) -> None:
    """Gross, deducted and net lot area against the district minimum (§ 402-45A), and the verdict in a box:
    words, not colour."""
    pdf.set_font(_FONT, "B", 10.5)
    pdf.set_x(x)
    with pdf.tag("H2"):
        pdf.cell(w, 5.5, "Lot area (§ 402-45A)", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.ln(0.8)
    _figure(pdf, x, w, "Gross area", _sqft(r.get("gross_area_sqft")) + _acres(r.get("gross_area_sqft")), bold=True,
            size=10)
    _figure(pdf, x, w, "Deducted for environmental constraints", _sqft(r.get("deducted_sqft")))
    net = r.get("net_lot_area_sqft")
    net_text = _sqft(net) + _acres(net)
    if r.get("net_lot_area_min_sqft") is not None and net is not None and r["net_lot_area_min_sqft"] < net - 0.5:
        net_text += f"; at least {_sqft(r['net_lot_area_min_sqft'])} if every unknown were constrained"
    _figure(pdf, x, w, "Net lot area (counts toward the minimum)", net_text, bold=True, size=10)
    mn = r.get("min_lot_area_sqft")
    _figure(pdf, x, w, f"District minimum lot area{' (' + r['district'] + ')' if r.get('district') else ''}",
            (_sqft(mn) if mn is not None else "not set") + (" (local setting, to confirm with the Village)"
                                                           if r.get("min_lot_area_verify") else ""))
    pdf.set_x(x)
    pdf.set_line_width(0.6)
    pdf.set_font(_FONT, "B", 9.5)
    with pdf.tag("P"):
        pdf.multi_cell(w, 4.8, _plain(_verdict(r)), border=1, align="L", padding=1.5, new_x=XPos.LEFT,
                       new_y=YPos.NEXT)
    pdf.set_line_width(0.2)
    pdf.ln(2)


def key_features(pdf: FPDF, r: dict, x: float, w: float) -> None:
    """Below the lot area: the yield estimate (§ 402-48E), the per-district figures of a split parcel
    (§ 402-48I), the cluster features found (§ 402-48C) and the count of permits and reviews."""
    from sloat_core.rules.cluster import yield_phrase

    per = r.get("per_district") or []
    if "conventional_yield" in r:
        _figure(pdf, x, w, "Lots of the district minimum the net area could hold",
                f"{yield_phrase(r)} (estimate). {r.get('yield_caveat') or ''}", size=8)
    if len(per) > 1:
        _figure(pdf, x, w, "Split parcel, computed per district (§ 402-48I)",
                "; ".join(f"{p['district']}: net {_sqft(p['net_lot_area_sqft'])}"
                          + (f", {yield_phrase(p)}" if "conventional_yield" in p else "") for p in per), size=8)
    triggered = [t for t in r.get("cluster_triggers", []) if t.get("triggered") is True]
    unknown_t = [t for t in r.get("cluster_triggers", []) if t.get("triggered") is None]
    if triggered:
        ctext = ("The Planning Board may require a cluster application: "
                 + ", ".join(t["citation"].replace("§ 402-48C", "") for t in triggered) + " present.")
    elif unknown_t:
        ctext = "No feature found yet; " + str(len(unknown_t)) + " unknown."
    else:
        ctext = "None of the ten features found."
    if r.get("cluster_applies") is False:
        ctext += " (§ 402-48 does not apply to this application type or district.)"
    _figure(pdf, x, w, "Cluster features (§ 402-48C)", ctext, size=8)
    needed = [p for p in r.get("permits", []) if p.get("required") is True]
    maybe = [p for p in r.get("permits", []) if p.get("required") is None]
    _figure(pdf, x, w, "Permits and reviews", f"{len(needed)} needed, {len(maybe)} to be determined (see page 2)"
            if needed or maybe else "None found", size=8)


# ----------------------------------------------------------------------------------------------
# The tables
# ----------------------------------------------------------------------------------------------


def deductions(pdf: FPDF, r: dict) -> None:
    """The § 402-45 deduction table: each constraint's area in the parcel, the share that counts and the land
    deducted, then the gross area, the total deducted and the net lot area (§ 402-45A)."""
    rows = []
    for d in r.get("deductions", []):
        known = d.get("area_sqft") is not None
        rows.append([
            d.get("label", d.get("constraint")),
            _num(d.get("area_sqft")) if known else "unknown (no data)",
            f"{d.get('countable_fraction', 0):.0%}",
            _num(d.get("deducted_sqft")) if known else "unknown",
            d.get("citation", ""),
        ])
    rows.append(["Gross area", _num(r.get("gross_area_sqft")), "", "", ""])
    rows.append(["Total deducted", "", "", _num(r.get("deducted_sqft")), ""])
    rows.append(["Net lot area", _num(r.get("net_lot_area_sqft")), "", "", r.get("lot_area_citation", "§ 402-45A")])
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


def coverage_notes(r: dict) -> list[str]:
    """How each deduction row's layer coverage is known (the row's ``coverage``: declared, or assumed to be the
    layer's extent), rows of one coverage said together, then each row's own note (a buffer built only from the
    loaded layers). An empty list when the rows say nothing of it.

    >>> coverage_notes({"deductions": [{"label": "Wetlands", "coverage": "coverage declared: the village boundary"},
    ...                                {"label": "Buffer", "status": "partial", "note": "Built only from X."}]})
    ['Coverage of the layers: Wetlands: coverage declared: the village boundary.', 'Buffer: Built only from X.']
    """
    by_state: dict[str, list[str]] = {}
    notes = []
    for d in r.get("deductions") or []:
        label = str(d.get("label") or d.get("constraint") or "")
        if d.get("coverage"):
            by_state.setdefault(str(d["coverage"]), []).append(label)
        if d.get("note"):
            notes.append(f"{label}: {d['note']}")
    out = []
    if by_state:
        out.append("Coverage of the layers: " + "; ".join(f"{', '.join(labels)}: {state}"
                                                          for state, labels in by_state.items()) + ".")
    return out + notes


def cluster_features(pdf: FPDF, r: dict, evidence_len: int) -> None:
    """The ten sensitive features of § 402-48C, each present, absent, unknown or for the Board to decide, with
    its evidence shortened to ``evidence_len`` characters (none at 0); first, why § 402-48 applies or not."""
    rows = []
    for t in r.get("cluster_triggers", []):
        status = _YES_NO.get(t.get("triggered"), str(t.get("triggered")))
        if t.get("needs_board_judgment") and t.get("triggered") is None:
            status = "Board decides"
        row = [t.get("citation", ""), t.get("title", ""), status]
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
    """Issue 23's one list: Article IX's permits and the approvals around it (SEQR class, county referral under
    GML § 239-m/n, the Village Law clocks, the NYSDEC and Army Corps screens), grouped by who decides, each with
    its clause, the clock it starts and the step at which it usually comes; then the usual order, the SEQR class,
    the county referral and the state and federal wetland answers in sentences. Read from the analysis's
    ``approvals`` and ``approvals_detail`` (:func:`sloat_core.approvals.summary.approvals_for`), never
    re-derived. The Article IX permits not needed on what is known follow in one sentence. Without the
    analysis's approvals (an older result), the permits table of :func:`permits` instead."""
    detail = r.get("approvals_detail") or {}
    if not r.get("approvals") and not detail:
        permits(pdf, r, reason_len)
        return
    rows = approval_rows(r, reason_len, clock_len)
    head = ["Who decides", "Permit, review or approval", "Status", "Clause", "Clock it starts", "Step"]
    widths, align = (20, 62, 17, 27, 40, 9), ("LEFT",) * 5 + ("CENTER",)
    _heading(pdf, "Permits, reviews and approvals, by who decides",
             _first_rows(head, rows, widths, align, size=7))
    if rows:
        _table(pdf, head, rows, widths, align, size=7)
    others = [f"{p.get('title', '')} ({p.get('citation', '')})" for p in r.get("permits") or []
              if p.get("required") is False]
    if others:
        _para(pdf, "Not needed on what is known (Article IX): " + ", ".join(others) + ".", size=7, h=3.4)
    steps = detail.get("steps") or {}
    if steps:
        pdf.ln(0.6)
        _para(pdf, "The usual order (steps in the table; common practice, not law):", size=7.5, style="B", h=3.4)
        _list(pdf, [v for _, v in sorted(steps.items(), key=lambda kv: int(kv[0]))], numbered=True, size=7.5,
              h=3.4)
    seqr = detail.get("seqr") or {}
    sentences = []
    if seqr:
        rng = "" if len(seqr.get("possible") or []) < 2 else f" ({' or '.join(seqr['possible'])})"
        sentences.append(f"SEQR class: {seqr.get('class')}{rng} ({seqr.get('clause') or 'no clause decided it'}). "
                         f"{seqr.get('reason') or ''}"
                         + (f" To settle it: {seqr['question']}" if seqr.get("question") else ""))
    ref = detail.get("county_referral") or {}
    if ref.get("headline"):
        sentences.append(ref["headline"] + (f" {ref['override_rule']}" if ref.get("required") and
                                            ref.get("override_rule") else ""))
    wet = detail.get("wetland_screens") or {}
    state = r.get("state_wetlands") or wet.get("state")
    if state:
        sentences.append(f"New York State wetlands (NYSDEC map, {state.get('citation', 'ECL Article 24')}): "
                         f"{state.get('message', '')}. {state.get('reason', '')} {state.get('stated', '')}")
    fed = wet.get("federal")
    if fed:
        sentences.append(f"Federal waters ({fed.get('citation', 'CWA § 404')}): {fed.get('message', '')}. "
                         f"{fed.get('reason', '')}")
    for s in sentences:
        _para(pdf, " ".join(s.split()), size=7.5, h=3.4)
    if detail.get("estimate"):
        _para(pdf, detail["estimate"], size=7, style="I", h=3.4)


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
    its status in words and its §; at most ``max_events`` (see :func:`events_to_show`), the rest left to the
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


# ----------------------------------------------------------------------------------------------
# Notes, points to check, the law, disclaimers and versions
# ----------------------------------------------------------------------------------------------


def notes_section(pdf: FPDF, notes: str | None, notes_len: int) -> None:
    """The user's notes, as plain text, shortened to ``notes_len`` characters; nothing when there are none."""
    if not (notes and str(notes).strip()):
        return
    note_text = _shorten(str(notes), notes_len) if len(str(notes)) > notes_len else str(notes)
    _heading(pdf, "Notes", _first_lines(note_text, size=8))
    _para(pdf, note_text, size=8)


def points_to_check(pdf: FPDF, r: dict, layerset, max_warnings: int) -> None:
    """The warnings to check, at most ``max_warnings``: the layer set's load warnings (unknown manifest keys,
    skipped features, schema doubts) first, then the analysis's own. Nothing when there are none."""
    loaded = [f"Layer set: {w}" for w in (getattr(layerset, "warnings", ()) or ())]
    warnings = loaded + [w for w in r.get("warnings") or [] if w not in loaded]
    if not warnings:
        return
    _heading(pdf, "Points to check", _first_lines("• " + _shorten(warnings[0], 300), size=7.5, h=3.5))
    items = [_shorten(w, 300) for w in warnings[:max_warnings]]
    if len(warnings) > max_warnings:
        items.append(f"… and {len(warnings) - max_warnings} more in the on-screen analysis.")
    _list(pdf, items, size=7.5, h=3.5)


def _quote_opening(cite: str, quote: str) -> Callable[[Any], float]:
    """Measures a quoted clause's opening for :func:`sloat_core.outputs.report.layout._heading`: the
    citation with the first two lines of its words."""

    def measure(p) -> float:
        p.set_font(_FONT, "B", 7.5)
        return 3.5 * _lines(p, cite, 0, 3.5) + _first_lines(quote, size=7.2, h=3.3)(p)

    return measure


def law_quotes(pdf: FPDF, r: dict, level: int, quote_len: int) -> None:
    """The clauses of Article IX behind the figures (:func:`_citations_used`), quoted in their own words from
    the law text and shortened to ``quote_len`` characters; at the last fitting level (3) only the § 402-45
    clauses and § 402-48C."""
    cites = _citations_used(r)
    if level == 3:
        cites = [c for c in cites if c.startswith("§ 402-45")] + ["§ 402-48C"]
    quotes = []
    for cite in cites:
        try:
            text = clause(cite).strip().split("\n\n")[0]  # its own words; sub-clauses are quoted apart
        except SloatInputError:
            continue
        quotes.append((cite, "“" + _shorten(text, quote_len) + "”"))
    _heading(pdf, "The law behind these figures (quoted, shortened)", _quote_opening(*quotes[0]) if quotes else None)
    for i, (cite, quote) in enumerate(quotes):
        if i:
            _keep_together(pdf, _quote_opening(cite, quote)(pdf))
        pdf.set_font(_FONT, "B", 7.5)
        with pdf.tag("H3"):
            pdf.multi_cell(0, 3.5, _plain(cite), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font(_FONT, "", 7.2)
        with pdf.tag("BlockQuote"):
            pdf.multi_cell(0, 3.3, _plain(quote), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(0.6)


def please_note(pdf: FPDF, r: dict, illustrative: bool) -> None:
    """The disclaimer, who decides, the illustrative-sample warning on sample data, and the local settings
    used (buffer width, minimum lot area), to confirm with the Village."""
    _heading(pdf, "Please note", _first_lines(r.get("disclaimer") or "", size=7.5, h=3.5))
    _para(pdf, r.get("disclaimer") or "", size=7.5, h=3.5)
    _para(pdf, "Who decides: the Planning Board, the Building Inspector and the Village Engineer, as named for "
               "each permit above; the County and State agencies listed decide their own reviews.", size=7.5, h=3.5)
    if illustrative:
        _para(pdf, "Illustrative sample, not official data: the map layers are made up for demonstration. "
                   "Do not rely on them for any property.", size=7.5, style="B", h=3.5)
    mn = r.get("min_lot_area_sqft")
    if r.get("min_lot_area_verify") or r.get("buffer_width_ft") is not None:
        _para(pdf, f"Local settings used (to confirm with the Village): buffer width {r.get('buffer_width_ft'):g} ft"
                   + (f"; minimum lot area {_sqft(mn)}" if mn is not None else "") + ".", size=7.5, h=3.5)
        if r.get("buffer_note"):
            _para(pdf, r["buffer_note"], size=7.5, h=3.5)


def versions(pdf: FPDF, r: dict, as_of: dt.date, illustrative: bool) -> None:
    """The date and the versions behind the figures: law parameters, law text (sha256), data, sloat_core."""
    pdf.ln(1)
    layers = f"{r.get('layers_name') or 'none'} version {r.get('layers_version') or 'unknown'}"
    _para(pdf, f"Date: {_date_text(as_of)}. Law parameters: {r.get('params_version')}. Law text sha256: "
               f"{LAW_TEXT_SHA256[:16]}. Data: {layers}"
               f"{' (illustrative sample)' if illustrative else ''}. sloat_core {r.get('tool_version')}.",
          size=7, h=3.3)
    for note in coverage_notes(r):
        if note.startswith("Coverage of the layers"):
            _para(pdf, note, size=7, h=3.3)


# ----------------------------------------------------------------------------------------------
# What the sections read: citations, the verdict, the events
# ----------------------------------------------------------------------------------------------


def _citations_used(result: dict) -> list[str]:
    cites: list[str] = []
    for d in result.get("deductions", []):
        if d.get("area_sqft") is None or (d.get("area_sqft") or 0) > 0:
            cites.append(d["citation"])
    if not cites:
        cites.append("§ 402-45A(1)")
    cites.append("§ 402-48C")
    for t in result.get("cluster_triggers", []):
        if t.get("triggered") is True:
            cites.append(t["citation"])
    for p in result.get("permits", []):
        if p.get("required") is True:
            cites.append(p["citation"])
    m = result.get("mitigation") or {}
    if m.get("impacted_wetland_sqft") is not None and m.get("citation"):
        cites.append(m["citation"])
    return list(dict.fromkeys(cites))


def _verdict(r: dict) -> str:
    meets, minimum = r.get("meets_min_lot_area"), r.get("min_lot_area_sqft")
    if minimum is None:
        return "No district minimum is set: enter it in the settings to compare."
    if meets is True:
        return "MEETS the district minimum lot area."
    if meets is False:
        return "BELOW the district minimum lot area."
    return (f"CANNOT TELL: with unknown data the net lies between {_sqft(r.get('net_lot_area_min_sqft'))} "
            f"and {_sqft(r.get('net_lot_area_sqft'))}.")


def status_text(status) -> str:
    """An event's status in words (``sloat_core.rules.clocks.STATUS_WORDS``).

    >>> status_text("reached"), status_text("not_yet"), status_text("due_soon")
    ('From this day on', 'Not before this day', 'Due soon')
    """
    return STATUS_WORDS.get(str(status), str(status or "").replace("_", " "))


def events_to_show(evs: list[dict], max_events: int) -> list[dict]:
    """At most ``max_events`` events in date order: those still ahead first, then those done.

    A "not before" day that has come (``reached``) is done, like a passed deadline; one still to come
    (``not_yet``) is ahead (``sloat_core.rules.clocks.DONE_STATUSES``).
    """
    if len(evs) <= max_events:
        return list(evs)
    ahead = [e for e in evs if e.get("status") not in DONE_STATUSES]
    done = [e for e in evs if e.get("status") in DONE_STATUSES]
    shown = ahead[:max_events] + done[: max(0, max_events - len(ahead))]
    return sorted(shown, key=lambda e: (str(e.get("date")), str(e.get("id"))))


def with_approval_events(events, r: dict) -> list[dict]:
    """The timeline's events and the dated Village Law and county clocks of the analysis's approvals
    (``approvals_detail["village_law"]["events"]``), each once (by its id)."""
    out = _events(events)
    seen = {e.get("id") for e in out}
    for e in ((r.get("approvals_detail") or {}).get("village_law") or {}).get("events") or []:
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
