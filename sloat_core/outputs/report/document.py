"""The pre-application summary, written once as HTML (:func:`summary_html`): the web page, and the source of the
PDF (:mod:`sloat_core.outputs.report.build` lays it out with WeasyPrint, :mod:`sloat_core.outputs.pdf`).

The sections, in the order a reader needs them: the title (and, on sample data, the illustrative-sample notice),
the parcel and its district, the lot area of § 402-45A with the map beside it, the § 402-45 deductions, the
§ 402-48C cluster features, the permits and the approvals around Article IX by who decides, the § 402-57P
mitigation, the deadlines, the notes, the points to check, the law quoted, the disclaimers and versions, and the
appendix of adjacent owners (§ 402-57K(4)). Each section's words are read from the analysis
(:mod:`sloat_core.outputs.report.reading`), never re-derived.

The web page holds everything, whole (``fit=None``); the PDF is the same page at the first fitting level
(:data:`LEVELS`) whose long texts (quotes, evidence and reasons, notes, the number of dates, warnings and a
plan's lots listed) are short enough for it to hold in :data:`sloat_core.outputs.report.build.MAX_PAGES` pages.

Printing in black and white: the map's constraints each have a hatch pattern *and* a grey level, named in the
legend; statuses are words (yes / no / unknown), never colour alone. Everything typed by a user or read from a
file is escaped (:func:`sloat_core.outputs.html_docs.esc`).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from sloat_core.engine.plain import prohibition_sentence
from sloat_core.errors import SloatInputError
from sloat_core.law.text import LAW_TEXT_SHA256, clause
from sloat_core.engine.result import ParcelResult, parcel_result
from sloat_core.outputs import html_docs as H
from sloat_core.outputs.report import reading as S
from sloat_core.outputs.report.map import map_png
from sloat_core.outputs.report.text import _acres, _date_text, _shorten, _sqft

__all__ = ["LEVELS", "REPORT_TITLE", "Fit", "summary_html"]

REPORT_TITLE = "Pre-application summary"
#: The summary's footer, on every printed page.
FOOTER = "Screening estimate, not a determination (Sloatsburg Code ch. 402, Art. IX)"


@dataclass(frozen=True)
class Fit:
    """How much of the long texts one fitting level keeps (characters, or how many items)."""

    quote_len: int
    reason_len: int
    evidence_len: int
    notes_len: int
    max_events: int
    max_warnings: int
    clock_len: int
    max_lots: int  # of a plan: the lots (and the problems of its drawing) its section lists


#: The fitting levels of the PDF, fullest first; the PDF takes the first that fits in its pages. At the last,
#: only the § 402-45 clauses and § 402-48C are quoted.
LEVELS = (
    Fit(quote_len=420, reason_len=170, evidence_len=150, notes_len=2500, max_events=60, max_warnings=12, clock_len=120,
        max_lots=24),
    Fit(quote_len=220, reason_len=110, evidence_len=100, notes_len=1500, max_events=30, max_warnings=8, clock_len=110,
        max_lots=12),
    Fit(quote_len=160, reason_len=80, evidence_len=70, notes_len=800, max_events=16, max_warnings=5, clock_len=80,
        max_lots=8),
    Fit(quote_len=130, reason_len=0, evidence_len=0, notes_len=400, max_events=8, max_warnings=3, clock_len=60,
        max_lots=5),
)

#: The summary's print rules: 8 pt body, the tables a little smaller, the map at the left of the key figures.
PRINT_CSS = """
  body { font-size: 8pt; line-height: 1.2; }
  h1 { font-size: 16pt; margin: 0 0 1mm; }
  h2 { font-size: 10.5pt; margin: 2.4mm 0 0.8mm; padding-bottom: 0.4mm; border-bottom: 0.3mm solid #000; clear: both; }
  h3 { font-size: 8pt; margin: 1.2mm 0 0.2mm; }
  p { margin: 0 0 0.8mm; }
  .lead { font-size: 9pt; }
  .notice { font-size: 8.5pt; border: 0.6mm solid #000; background: #e1e1e1; padding: 1.2mm; margin: 1.5mm 0; }
  table { font-size: 7pt; margin: 0.6mm 0 1.6mm; }
  caption { caption-side: top; text-align: left; font-size: 7pt; font-style: italic; padding-bottom: 0.4mm; }
  th, td { padding: 0.4mm 1.2mm; border-top: 0.2mm solid #aaa; line-height: 1.2; }
  thead th { background: #e1e1e1; border-top: 0.3mm solid #000; font-weight: bold; }
  tbody th { font-weight: normal; } tbody th[scope=rowgroup] { font-weight: bold; background: #f0f0f0; }
  tbody tr:nth-child(even) td, tbody tr:nth-child(even) th[scope=row] { background: #f3f3f3; }
  table.parcel { width: auto; } table.parcel th { font-weight: bold; }
  figure.map { float: left; width: 92mm; margin: 0 5mm 2mm 0; } figure.map img { width: 92mm; display: block; }
  figcaption { font-size: 7pt; }
  table.key { width: 90mm; font-size: 8pt; margin-top: 0; float: right; clear: right; } table.key td { font-weight: bold; }
  table.key.more td { font-weight: normal; }
  .verdict { font-size: 9.5pt; border: 0.6mm solid #000; padding: 1.5mm; margin: 1mm 0 2mm; overflow: hidden;
             width: 90mm; box-sizing: border-box; float: right; clear: right; }
  ol, ul { margin: 0 0 1mm; padding-left: 5mm; }
  blockquote { margin: 0 0 1.2mm 2mm; padding-left: 2mm; font-size: 7.2pt; }
  .small, .note { font-size: 7pt; } .note { font-style: italic; }
  .notes { font-size: 8pt; }
"""


def summary_html(analysis, layerset, *, timeline_events=None, notes: str | None = None, title: str | None = None,
                 as_of: dt.date | None = None, fit: Fit | None = None, level: int | None = None,
                 figure=None, plan=None) -> str:
    """The pre-application summary as one HTML page: the web page (``fit=None``: every text whole), or the page
    the PDF is made of (``fit`` one of :data:`LEVELS`, ``level`` its index).

    ``title`` is the case's title (escaped, like the notes); ``as_of`` the date printed (default today);
    ``figure`` the map as :func:`sloat_core.outputs.report.map.map_png` returns it (drawn here without it);
    ``plan`` a checked plan (:class:`sloat_core.plan.check.PlanResult`): its section, the plan's lot table
    (:func:`sloat_core.outputs.plan_document.plan_section`), follows the cluster features; at a fitting level it
    lists the level's number of lots (``max_lots``) and names the plan's own document for the rest.
    """
    from sloat_core.outputs.plan_document import plan_section

    as_of = as_of or dt.date.today()
    r = parcel_result(analysis.result)
    illustrative = bool(getattr(layerset, "illustrative", None) if layerset is not None
                        else r.layers_illustrative)
    png, _ = figure or map_png(analysis, layerset)
    b = [*_title_block(r, layerset, title, as_of, illustrative), *_parcel_and_district(r), *_lot_area(r, png),
         *_deductions(r), *_cluster_features(r, fit),
         *(plan_section(plan, max_lots=None if fit is None else fit.max_lots) if plan is not None else ()),
         *(_approvals(r, fit) if r.approvals or r.approvals_detail else _permits(r, fit)),
         *_mitigation(r), *_deadlines(timeline_events, r, fit), *_notes(notes, fit),
         *_points_to_check(r, layerset, fit), *_law_quotes(r, fit, level),
         *_please_note(r, as_of, illustrative), *_adjacent_owners(r)]
    return H.page(f"{REPORT_TITLE}: {title}" if title else REPORT_TITLE, b, print_css=PRINT_CSS,
                  header_left=_shorten(_parcel_words(r), 90), header_right=f"{REPORT_TITLE} · {_date_text(as_of)}",
                  footer_left=FOOTER, margin_pt=7.0)


def _parcel_words(r: ParcelResult) -> str:
    parcel = r.parcel
    bits = [f"SBL {parcel.sbl}" if parcel.sbl else None, parcel.address]
    return " · ".join(str(x) for x in bits if x) or "Parcel given by the applicant"


def _title_block(r: ParcelResult, layerset, title: str | None, as_of: dt.date, illustrative: bool) -> list[str]:
    """The title, the Article IX it screens against (§§ 402-45 to 402-59), the dates and, on sample data, the
    illustrative-sample notice (said once: the layer set's own notice follows it, its opening words left out)."""
    b = [f"<h1>{H.esc(REPORT_TITLE)}</h1>"]
    if title:
        b.append(H.p(f"Case: {title}", "lead"))
    b.append(H.p("Environmental controls of the Village of Sloatsburg Code, Chapter 402, Article IX "
                 "(§§ 402-45 to 402-59)", "lead"))
    b.append(H.p(f"Prepared {_date_text(as_of)} · analysis as of {r.as_of}"))
    if illustrative:
        notice = str(r.layers_notice or getattr(layerset, "notice", "") or "")
        notice = re.sub(r"^\s*illustrative sample,? not official( data)?[.:;]?\s*", "", notice, flags=re.I)
        b.append(H.p("ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA. " + notice, "notice"))
    return b


def _parcel_and_district(r: ParcelResult) -> list[str]:
    """The parcel (SBL, address, where its outline came from) and its zoning district, or each district of a split
    parcel with its area."""
    parcel = r.parcel
    bits = [f"SBL {parcel.sbl}" if parcel.sbl else None, parcel.address,
            f"outline: {parcel.source}" if parcel.source else None]
    district = r.district or "unknown"
    if r.district_kind:
        district += f" ({str(r.district_kind).replace('_', ' ')} district)"
    if len(r.districts) > 1:
        district = "split: " + ", ".join(f"{d.district} ({_sqft(d.area_sqft)})" for d in r.districts)
    return ["<h2>Parcel and district</h2>",
            H.table("The parcel", ["", "Value"], [["Parcel", " · ".join(str(x) for x in bits if x)
                                                   or "outline given by the applicant"], ["District", district]],
                    cls="parcel")]


def _lot_area(r: ParcelResult, png: bytes) -> list[str]:
    """The map, the key figures of § 402-45A with the verdict (words, not colour), then the yield estimate
    (§ 402-48E), the per-district figures of a split parcel (§ 402-48I), the cluster features found (§ 402-48C)
    and the count of permits and reviews."""
    from sloat_core.rules.sections.s402_48_cluster.cluster import yield_phrase

    net = r.net_lot_area_sqft
    mn = r.min_lot_area_sqft
    net_text = _sqft(net) + _acres(net)
    if r.net_lot_area_min_sqft is not None and net is not None and r.net_lot_area_min_sqft < net - 0.5:
        net_text += f"; at least {_sqft(r.net_lot_area_min_sqft)} if every unknown were constrained"
    rows = [["Gross area", _sqft(r.gross_area_sqft) + _acres(r.gross_area_sqft)],
            ["Deducted for environmental constraints", _sqft(r.deducted_sqft)],
            ["Net lot area (counts toward the minimum)", net_text],
            [f"District minimum lot area{' (' + r.district + ')' if r.district else ''}",
             (_sqft(mn) if mn is not None else "not set")
             + (" (local setting, to confirm with the Village)" if r.min_lot_area_verify else "")]]
    more = [["Lots of the district minimum the net area could hold",
             f"{yield_phrase(r)} (estimate). {r.yield_caveat or ''}".strip()]]
    per = r.per_district
    if len(per) > 1:
        more.append(["Split parcel, computed per district (§ 402-48I)",
                     "; ".join(f"{p.district}: net {_sqft(p.net_lot_area_sqft)}, {yield_phrase(p)}" for p in per)])
    triggered = [t for t in r.cluster_triggers if t.triggered is True]
    unknown_t = [t for t in r.cluster_triggers if t.triggered is None]
    if triggered:
        ctext = ("The Planning Board may require a cluster application: "
                 + ", ".join(t.citation.replace("§ 402-48C", "").strip() for t in triggered) + " present.")
    elif unknown_t:
        ctext = f"No feature found yet; {len(unknown_t)} unknown."
    else:
        ctext = "None of the ten features found."
    if r.cluster_applies is False:
        ctext += " (§ 402-48 does not apply to this application type or district.)"
    more.append(["Cluster features (§ 402-48C)", ctext])
    needed = [p for p in r.permits if p.required is True]
    maybe = [p for p in r.permits if p.required is None]
    more.append(["Permits and reviews", f"{len(needed)} needed, {len(maybe)} to be determined (see below)"
                 if needed or maybe else "None found"])
    return ["<h2>Lot area (§ 402-45A)</h2>",
            f'<figure class="map">{H.img(png, S.map_alt(r))}<figcaption>The parcel and the land that does not '
            "count toward its lot area; the table below gives every area shown.</figcaption></figure>",
            H.table("Key figures", ["Figure", "Value"], rows, cls="key"),
            H.p(S._verdict(r), "verdict"),
            H.table("What else the analysis found", ["Figure", "Value"], more, cls="key more")]


def _deductions(r: ParcelResult) -> list[str]:
    """The § 402-45 deduction table: each constraint's area in the parcel, the share that counts and the land
    deducted, then the gross area, the total deducted and the net lot area (§ 402-45A); how each layer's coverage
    is known."""
    rows = S.deduction_rows(r)
    return ["<h2>Land that does not count toward minimum lot area (§ 402-45)</h2>",
            H.table("Each constraint's area in the parcel, the share that counts and the land deducted",
                    ["Constraint", "Area in parcel (sq ft)", "Counts", "Deducted (sq ft)", "§"], rows,
                    num_cols=(1, 2, 3), bold_rows=(len(rows) - 3, len(rows) - 1)),
            H.p("Where constraints overlap, each piece of land is counted once, at the lowest share that applies.",
                "note"),
            *[H.p(n, "small") for n in S.coverage_notes(r)]]


def _cluster_features(r: ParcelResult, fit: Fit | None) -> list[str]:
    """The ten sensitive features of § 402-48C, each present, absent, unknown or for the Board to decide, with its
    evidence (shortened at a fitting level, left out at its last); first, why § 402-48 applies or not."""
    b = ["<h2>Cluster development: sensitive features (§ 402-48C)</h2>"]
    if r.cluster_applies_reason:
        b.append(H.p(r.cluster_applies_reason))
    evidence_len = None if fit is None else fit.evidence_len
    rows = []
    for t in r.cluster_triggers:
        row = [t.citation, t.title, S.trigger_status(t)]
        if evidence_len != 0:
            ev = t.evidence
            row.append(ev if evidence_len is None else _shorten(ev, evidence_len))
        rows.append(row)
    head = ["§", "Feature", "Present?"] + (["Evidence"] if evidence_len != 0 else [])
    b.append(H.table("The ten features of § 402-48C", head, rows))
    return b


def _approvals(r: ParcelResult, fit: Fit | None) -> list[str]:
    """The one list of approvals: Article IX's permits and the approvals around it (SEQR class, county referral
    under GML § 239-m/n, the Village Law clocks, the NYSDEC and Army Corps screens), grouped by who decides, each
    with its clause, the clock it starts and the step at which it usually comes; then what the law forbids (a
    prohibition is not an approval, § 402-52), the Article IX permits not needed, the usual order, the SEQR class,
    the county referral and the state and federal wetland answers in sentences. Read from the analysis's
    ``approvals`` and ``approvals_detail`` (:func:`sloat_core.engine.approval_list.approvals_for`)."""
    out = ["<h2>Permits, reviews and approvals, by who decides</h2>",
           _approvals_table(r, None if fit is None else min(fit.reason_len, 110),
                            None if fit is None else fit.clock_len)]
    for permit in r.permits:
        if (sentence := prohibition_sentence(permit)) is not None:  # in bold when it applies
            out.append(f"<p><strong>{H.esc(sentence)}</strong></p>" if permit.required else H.p(sentence))
    if others := S.not_needed_sentence(r):
        out.append(H.p(others))
    detail = r.approvals_detail
    if steps := S.usual_order(detail):
        out.append("<h3>The usual order (steps in the table; common practice, not law)</h3>")
        out.append(H.ul(steps, ordered=True))
    sentences = S.approval_sentences(r)
    fed = ((detail.wetland_screens if detail is not None else None) or {}).get("federal")
    if fed:
        sentences.append(f"Federal waters ({fed.get('citation', 'CWA § 404')}): {fed.get('message', '')}. "
                         f"{fed.get('reason', '')} {fed.get('stated', '')}")
    out += [H.p(" ".join(s.split())) for s in sentences]
    if detail is not None and detail.estimate:
        out.append(H.p(detail.estimate, "note"))
    return out


def _approvals_table(r: ParcelResult, reason_len: int | None, clock_len: int | None) -> str:
    """The approvals grouped by who decides: one ``<tbody>`` per decider, its name a row-group header."""
    head = ["Permit, review or approval", "Status", "Clause", "Clock it starts", "Usual step"]
    table = ['<table class="approvals">\n<caption>Article IX\'s permits and the approvals around it (SEQR, county '
             "referral, Village Law clocks, state and federal wetland screens), grouped by who decides</caption>\n"
             "<thead><tr>" + "".join(f'<th scope="col">{h}</th>' for h in head) + "</tr></thead>"]
    rows = S.approval_rows(r, reason_len, clock_len)
    i = 0
    for group in r.approvals:
        table.append(f'<tbody>\n<tr><th scope="rowgroup" colspan="{len(head)}">{H.esc(group.decides)} '
                     "decides</th></tr>")
        for _ in group.items:
            _who, name, status, clause_, clock, step = rows[i]
            i += 1
            if reason_len is not None:  # fitted to the pages: the step's number (its words are in the usual order)
                step = step.split(":", 1)[0]
            first, _, why = name.partition("\n")
            cell = H.esc(first) + (f'<br><span class="small">{H.esc(why)}</span>' if why else "")
            table.append(f'<tr><th scope="row">{cell}</th><td>{H.esc(status)}</td><td>{H.esc(clause_)}</td>'
                         f"<td>{H.esc(clock)}</td><td>{H.esc(step)}</td></tr>")
        table.append("</tbody>")
    table.append("</table>")
    return "\n".join(table)


def _permits(r: ParcelResult, fit: Fit | None) -> list[str]:
    """Without the analysis's approvals (an older result): the permits table, each with whether it is needed
    (yes / no / unknown), its approval authority and the § that requires it."""
    reason_len = None if fit is None else fit.reason_len
    rows = []
    for p in r.permits:
        name = p.title
        if reason_len != 0 and p.reason:
            name += "\n" + (p.reason if reason_len is None else _shorten(p.reason, reason_len))
        rows.append([name, S._YES_NO.get(p.required, str(p.required)), p.authority, p.citation])
    return ["<h2>Permits and reviews</h2>",
            H.table("Permits and reviews", ["Permit or review", "Needed?", "Approval authority", "§"], rows)]


def _mitigation(r: ParcelResult) -> list[str]:
    """The wetland mitigation figures of § 402-57P, when a wetland impact is known: the impact, the replacement
    ratio and the replacement wetland required, the proposal and its shortfall, the buffer impact, then the gate,
    siting and monitoring years. Nothing when no impact is known."""
    m = r.mitigation
    if m is None or m.impacted_wetland_sqft is None:
        return []
    rows = [["Wetland impacted", _sqft(m.impacted_wetland_sqft),
             "from the drawn footprint" if m.impact_source == "footprint" else "as entered"],
            ["Replacement ratio", f"at least {m.ratio:g} to 1", m.citation],
            ["Replacement wetland required", _sqft(m.required_mitigation_sqft), m.citation]]
    if m.proposed_mitigation_sqft is not None:
        rows += [["Proposed", _sqft(m.proposed_mitigation_sqft), ""],
                 ["Shortfall", _sqft(m.shortfall_sqft),
                  "meets the ratio" if m.meets_ratio else "does not meet the ratio"]]
    if m.impacted_buffer_sqft is not None:
        rows.append(["Buffer impacted", _sqft(m.impacted_buffer_sqft), ""])
    gate = m.gate.text if m.gate is not None else None
    mon = m.monitoring_years
    extra = " ".join(x for x in (gate, m.siting,
                                 f"Monitoring: {mon.min} to {mon.max} years ({mon.citation})."
                                 if mon is not None else "") if x)
    return ["<h2>Wetland mitigation (§ 402-57P)</h2>",
            H.table("The mitigation figures", ["", "Figure", "Note / §"], rows, num_cols=(1,)),
            *([H.p(extra, "small")] if extra else [])]


def _deadlines(timeline_events, r: ParcelResult, fit: Fit | None) -> list[str]:
    """The deadlines and expiry dates of the timeline and of the approvals' dated clocks, each with its status in
    words and its §; at a fitting level at most its number of dates, those still ahead first
    (:func:`~sloat_core.outputs.report.reading.events_to_show`), the rest left to the calendar download. Nothing
    when there are no dates."""
    evs = S.with_approval_events(timeline_events, r)
    if not evs:
        return []
    shown = evs if fit is None else S.events_to_show(evs, fit.max_events)
    rows = [[dt.date.fromisoformat(str(e["date"])).strftime("%b %d, %Y"), e.get("label", ""),
             S.status_text(e.get("status")), e.get("citation", "")] for e in shown]
    if len(evs) > len(shown):
        rows.append(["", f"… and {len(evs) - len(shown)} more dates: see the calendar (.ics) download.", "", ""])
    return ["<h2>Deadlines and expiry dates</h2>",
            H.table("Each date with its status and the § it comes from", ["Date", "What", "Status", "§"], rows),
            H.p("Dates are worked out from the law's text; confirm them with the Village.", "note")]


def _notes(notes: str | None, fit: Fit | None) -> list[str]:
    """The case's notes, as plain text (shortened at a fitting level); nothing when there are none."""
    if not (notes and str(notes).strip()):
        return []
    text = str(notes)
    if fit is not None and len(text) > fit.notes_len:
        text = _shorten(text, fit.notes_len)
    return ["<h2>Notes</h2>", H.p(text, "notes")]


def _points_to_check(r: ParcelResult, layerset, fit: Fit | None) -> list[str]:
    """The warnings to check (at a fitting level at most its number): the layer set's load warnings first, then
    the analysis's own. Nothing when there are none."""
    warnings = [f"Layer set: {w}" for w in (getattr(layerset, "warnings", ()) or ())]
    warnings += [w for w in r.warnings if w not in warnings]
    if not warnings:
        return []
    if fit is not None:
        items = [_shorten(w, 300) for w in warnings[:fit.max_warnings]]
        if len(warnings) > fit.max_warnings:
            items.append(f"… and {len(warnings) - fit.max_warnings} more in the on-screen analysis.")
    else:
        items = warnings
    return ["<h2>Points to check</h2>", H.ul(items)]


def _law_quotes(r: ParcelResult, fit: Fit | None, level: int | None) -> list[str]:
    """The clauses of Article IX behind the figures (:func:`~sloat_core.outputs.report.reading._citations_used`),
    each quoted in its own words from the law text (its first paragraph; a citation the law text does not hold is
    left out), shortened at a fitting level; at the last (3) only the § 402-45 clauses and § 402-48C."""
    cites = S._citations_used(r)
    if level == len(LEVELS) - 1:
        cites = [c for c in cites if c.startswith("§ 402-45")] + ["§ 402-48C"]
    b = ["<h2>The law behind these figures (quoted" + (", shortened" if fit is not None else "") + ")</h2>"]
    for cite in cites:
        try:
            text = clause(cite).strip().split("\n\n")[0]
        except SloatInputError:
            continue
        if fit is not None:
            text = _shorten(text, fit.quote_len)
        b.append(f"<h3>{H.esc(cite)}</h3>\n<blockquote><p>“{H.esc(text)}”</p></blockquote>")
    return b


def _please_note(r: ParcelResult, as_of: dt.date, illustrative: bool) -> list[str]:
    """The disclaimer, who decides, the illustrative-sample warning on sample data, the local settings used (buffer
    width, minimum lot area, to confirm with the Village), then the date and the versions behind the figures."""
    b = ["<h2>Please note</h2>", H.p(r.disclaimer or ""),
         H.p("Who decides: the Planning Board, the Building Inspector and the Village Engineer, as named for each "
             "permit above; the County and State agencies listed decide their own reviews.")]
    if illustrative:
        b.append("<p><strong>Illustrative sample, not official data: the map layers are made up for demonstration. "
                 "Do not rely on them for any property.</strong></p>")
    mn = r.min_lot_area_sqft
    if r.min_lot_area_verify or r.buffer_width_ft is not None:
        width = r.buffer_width_ft
        b.append(H.p("Local settings used (to confirm with the Village): buffer width "
                     + (f"{width:g} ft" if width is not None else "unknown")
                     + (f"; minimum lot area {_sqft(mn)}" if mn is not None else "") + "."))
    if r.buffer_note:
        b.append(H.p(r.buffer_note))
    layers = f"{r.layers_name or 'none'} version {r.layers_version or 'unknown'}"
    b.append(H.p(f"Date: {_date_text(as_of)}. Law parameters: {r.params_version}. Law text sha256: "
                 f"{LAW_TEXT_SHA256[:16]}. Data: {layers}{' (illustrative sample)' if illustrative else ''}. "
                 f"sloat_core {r.tool_version}.", "small"))
    return b


def _adjacent_owners(r: ParcelResult) -> list[str]:
    """Appendix, § 402-57K(4): the tax parcels adjacent to the wetland, watercourse and buffer of the work, with
    their owners of record where the parcel layer names them (else the assessment roll is named). Nothing when no
    wetland permit application is needed."""
    a = r.adjacent_owners
    if a is None or a.applies is False:
        return []
    b = [f"<h2>Appendix: owners of record of adjacent lands ({H.esc(a.citation)})</h2>"]
    if a.parcels:
        b.append(H.table("Adjacent tax parcels", ["SBL", "Address", "Owner of record"],
                         [[x.sbl or "no SBL", x.address or "", x.owner
                           or "owner from the assessment roll"] for x in a.parcels]))
    if a.reason:
        b.append(H.p(a.reason, "small"))
    return b
