"""The summary and the handout as accessible web pages: the conforming alternative to the PDFs.

Each is one self-contained HTML file (the map inlined as a PNG with its alternative text, no script, no
outside resource): ``lang``, a ``<title>``, one ``<h1>`` and ``<h2>`` per section, real tables with
``<th scope="col">`` (and ``scope="row"`` / ``"rowgroup"`` where a row or a group is named), lists as lists, and
a print style sheet (Letter, black on white, never under 11 pt). The words are the PDFs' own: the same
section helpers (:mod:`sloat_core.outputs.report.reading`) and answer card
(:func:`sloat_core.engine.answer.lot_answer`), nothing re-derived.

Everything typed by a user or read from a file (the case title, the notes, addresses, owners, layer notices)
is escaped with :func:`html.escape` before it is written: no markup from the input is ever interpreted.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import re

from sloat_core.engine.answer import lot_answer
from sloat_core.errors import SloatInputError
from sloat_core.law.text import LAW_TEXT_SHA256, clause
from sloat_core.outputs.handout import HANDOUT_TITLE, handout_steps
from sloat_core.outputs.report import reading as S
from sloat_core.outputs.report.layout import REPORT_TITLE
from sloat_core.outputs.report.map import map_and_legend, map_png
from sloat_core.outputs.report.text import _acres, _date_text, _sqft
from sloat_core.outputs.tagging import LANG

__all__ = ["esc", "handout_html", "print_page", "summary_html"]

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")

_CSS = """
:root { color: #111; background: #fff; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; font-size: 1rem; line-height: 1.45; margin: 1.5rem auto;
       max-width: 60rem; padding: 0 1rem; }
h1 { font-size: 1.8rem; margin: 0 0 .3rem; } h2 { font-size: 1.3rem; margin: 1.4rem 0 .4rem;
       border-bottom: 2px solid #333; } h3 { font-size: 1.05rem; margin: .8rem 0 .2rem; }
.notice { border: 2px solid #111; background: #eee; padding: .4rem .6rem; font-weight: bold; }
.verdict { border: 2px solid #111; padding: .4rem .6rem; font-weight: bold; display: inline-block; }
table { border-collapse: collapse; width: 100%; margin: .3rem 0; }
th, td { border: 1px solid #777; padding: .25rem .4rem; text-align: left; vertical-align: top; }
thead th { background: #e2e2e2; } tbody th[scope=rowgroup] { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure { margin: .6rem 0; } figure img { max-width: min(100%, 30rem); height: auto; border: 1px solid #777; }
.key img { width: 2.2rem; height: auto; vertical-align: middle; margin-right: .4rem; border: 1px solid #999; }
.key { list-style: none; padding-left: 0; }
blockquote { margin: .2rem 0 .6rem 1rem; padding-left: .6rem; border-left: 3px solid #999; }
.notes { white-space: pre-wrap; }
.small { font-size: .95rem; font-weight: normal; }
a:focus, a:hover { outline: 3px solid #1a4f9c; }
@media print {
  @page { size: Letter; margin: 12mm 14mm; }
  body { margin: 0; max-width: none; font-size: 11pt; }
  h2 { break-after: avoid; } tr, li, figure, blockquote { break-inside: avoid; }
  thead { display: table-header-group; }
  .noprint { display: none; }
}
"""


def esc(value) -> str:
    """Any value as HTML text: control characters dropped, ``& < > " '`` escaped (no markup from input).

    >>> esc('<script>alert("x")</script> & **b**')
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; **b**'
    """
    if value is None:
        return ""
    return html.escape(_CONTROL_RE.sub("", str(value)), quote=True)


def _page(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html>\n"
            f'<html lang="{LANG}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
            + "\n".join(body) + "\n</main>\n</body>\n</html>\n")


def _cls(cls: str) -> str:
    return f' class="{cls}"' if cls else ""


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{esc(alt)}">'


def _table(caption: str, head: list[str], rows: list[list[str]], *, num_cols: tuple[int, ...] = (),
           row_headers: bool = True) -> str:
    """A real table: a caption, column headers (``scope="col"``) and, when ``row_headers``, each row's first cell
    as its header (``scope="row"``)."""
    out = [f"<table>\n<caption>{esc(caption)}</caption>\n<thead><tr>"
           + "".join(f'<th scope="col">{esc(h)}</th>' for h in head) + "</tr></thead>\n<tbody>"]
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            text = esc(c).replace("\n", "<br>")
            if i == 0 and row_headers:
                cells.append(f'<th scope="row">{text}</th>')
            else:
                cells.append(f'<td{_cls("num" if i in num_cols else "")}>{text}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>\n</table>")
    return "\n".join(out)


def _ul(items, *, ordered: bool = False) -> str:
    tag = "ol" if ordered else "ul"
    return f"<{tag}>" + "".join(f"<li>{esc(i)}</li>" for i in items) + f"</{tag}>"


def _p(text, cls: str = "") -> str:
    return f"<p{_cls(cls)}>{esc(text)}</p>"


# ----------------------------------------------------------------------------------------------
# The pre-application summary
# ----------------------------------------------------------------------------------------------


def _approvals_table(r: dict) -> str:
    """The approvals grouped by who decides: one ``<tbody>`` per decider, its name a row-group header."""
    head = ["Permit, review or approval", "Status", "Clause", "Clock it starts", "Usual step"]
    table = ["<table>\n<caption>Article IX's permits and the approvals around it (SEQR, county referral, Village "
             "Law clocks, state and federal wetland screens), grouped by who decides</caption>\n<thead><tr>"
             + "".join(f'<th scope="col">{h}</th>' for h in head) + "</tr></thead>"]
    for group in r.get("approvals") or []:
        table.append(f'<tbody>\n<tr><th scope="rowgroup" colspan="{len(head)}">{esc(group.get("decides"))} '
                     "decides</th></tr>")
        for item in group.get("items") or []:
            name = esc(item.get("name"))
            why = " ".join(x for x in (item.get("authority") and f"{item['authority']}.", item.get("reason")) if x)
            if why:
                name += f"<br><span class=\"small\">{esc(why)}</span>"
            table.append(f'<tr><th scope="row">{name}</th><td>{esc(S.approval_status(item))}</td>'
                         f"<td>{esc(item.get('clause') or '')}</td><td>{esc(item.get('clock') or 'none')}</td>"
                         f"<td>{esc(item.get('step'))}: {esc(item.get('step_text') or '')}</td></tr>")
        table.append("</tbody>")
    table.append("</table>")
    return "\n".join(table)


def _approvals(r: dict) -> list[str]:
    """The one list of approvals, then the permits not needed, the usual order, the SEQR class, the county
    referral and the state and federal wetland answers in sentences."""
    out = ["<h2>Permits, reviews and approvals, by who decides</h2>", _approvals_table(r)]
    if others := S.not_needed_sentence(r):
        out.append(_p(others))
    detail = r.get("approvals_detail") or {}
    if steps := S.usual_order(detail):
        out.append("<h3>The usual order (common practice, not law)</h3>")
        out.append(_ul(steps, ordered=True))
    out += [_p(sentence) for sentence in S.approval_sentences(r)]
    fed = (detail.get("wetland_screens") or {}).get("federal")
    if fed:
        out.append(_p(f"Federal waters ({fed.get('citation', 'CWA § 404')}): {fed.get('message', '')}. "
                      f"{fed.get('reason', '')}"))
    if detail.get("estimate"):
        out.append(_p(detail["estimate"], "small"))
    return out


def _permits(r: dict) -> list[str]:
    """Without the analysis's approvals (an older result): the permits table."""
    return ["<h2>Permits and reviews</h2>",
            _table("Permits and reviews", ["Permit or review", "Needed?", "Approval authority", "§"],
                   [[p.get("title", "") + (f"\n{p['reason']}" if p.get("reason") else ""),
                     S._YES_NO.get(p.get("required"), str(p.get("required"))), p.get("authority", ""),
                     p.get("citation", "")] for p in r.get("permits", [])])]


def _title_block(r: dict, title: str | None, as_of: dt.date, illustrative: bool) -> list[str]:
    b = [f"<h1>{esc(REPORT_TITLE)}</h1>"]
    if title:
        b.append(_p(f"Case: {title}"))
    b.append(_p("Environmental controls of the Village of Sloatsburg Code, Chapter 402, Article IX "
                "(§§ 402-45 to 402-59)"))
    b.append(_p(f"Prepared {_date_text(as_of)} · analysis as of {r.get('as_of')}"))
    if illustrative:
        b.append(f'<p class="notice">ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA. {esc(r.get("layers_notice") or "")}</p>')
    return b


def _parcel_and_district(r: dict) -> list[str]:
    parcel = r.get("parcel") or {}
    bits = [f"SBL {parcel['sbl']}" if parcel.get("sbl") else None, parcel.get("address"),
            f"outline: {parcel['source']}" if parcel.get("source") else None]
    district = r.get("district") or "unknown"
    if len(r.get("districts") or []) > 1:
        district = "split: " + ", ".join(f"{d['district']} ({_sqft(d['area_sqft'])})" for d in r["districts"])
    return ["<h2>Parcel and district</h2>",
            _table("The parcel", ["", "Value"], [["Parcel", " · ".join(x for x in bits if x)
                                                  or "outline given by the applicant"], ["District", district]])]


def _lot_area(r: dict, png: bytes) -> list[str]:
    """The map, the key figures of § 402-45A and the verdict."""
    net = r.get("net_lot_area_sqft")
    mn = r.get("min_lot_area_sqft")
    return ["<h2>Lot area (§ 402-45A)</h2>",
            f"<figure>{_img(png, S.map_alt(r))}<figcaption>The parcel and the land that does not count toward "
            "its lot area; the table below gives every area shown.</figcaption></figure>",
            _table("Key figures", ["Figure", "Value"], [
                ["Gross area", _sqft(r.get("gross_area_sqft")) + _acres(r.get("gross_area_sqft"))],
                ["Deducted for environmental constraints", _sqft(r.get("deducted_sqft"))],
                ["Net lot area (counts toward the minimum)", _sqft(net) + _acres(net)],
                [f"District minimum lot area{' (' + r['district'] + ')' if r.get('district') else ''}",
                 (_sqft(mn) if mn is not None else "not set")
                 + (" (local setting, to confirm with the Village)" if r.get("min_lot_area_verify") else "")]]),
            f'<p class="verdict">{esc(S._verdict(r))}</p>']


def _deductions(r: dict) -> list[str]:
    return ["<h2>Land that does not count toward minimum lot area (§ 402-45)</h2>",
            _table("Each constraint's area in the parcel, the share that counts and the land deducted",
                   ["Constraint", "Area in parcel (sq ft)", "Counts", "Deducted (sq ft)", "§"], S.deduction_rows(r),
                   num_cols=(1, 2, 3)),
            _p("Where constraints overlap, each piece of land is counted once, at the lowest share that applies."),
            *[_p(n) for n in S.coverage_notes(r)]]


def _cluster_features(r: dict) -> list[str]:
    b = ["<h2>Cluster development: sensitive features (§ 402-48C)</h2>"]
    if r.get("cluster_applies_reason"):
        b.append(_p(r["cluster_applies_reason"]))
    trows = [[t.get("citation", ""), t.get("title", ""), S.trigger_status(t), t.get("evidence", "")]
             for t in r.get("cluster_triggers", [])]
    b.append(_table("The ten features of § 402-48C", ["§", "Feature", "Present?", "Evidence"], trows))
    return b


def _mitigation(r: dict) -> list[str]:
    """The figures of § 402-57P, when a wetland impact is known; nothing otherwise."""
    m = r.get("mitigation") or {}
    if m.get("impacted_wetland_sqft") is None:
        return []
    mrows = [["Wetland impacted", _sqft(m.get("impacted_wetland_sqft")),
              "from the drawn footprint" if m.get("impact_source") == "footprint" else "as entered"],
             ["Replacement ratio", f"at least {m.get('ratio', 0):g} to 1", m.get("citation", "")],
             ["Replacement wetland required", _sqft(m.get("required_mitigation_sqft")), m.get("citation", "")]]
    if m.get("proposed_mitigation_sqft") is not None:
        mrows += [["Proposed", _sqft(m.get("proposed_mitigation_sqft")), ""],
                  ["Shortfall", _sqft(m.get("shortfall_sqft")),
                   "meets the ratio" if m.get("meets_ratio") else "does not meet the ratio"]]
    return ["<h2>Wetland mitigation (§ 402-57P)</h2>",
            _table("The mitigation figures", ["", "Figure", "Note / §"], mrows, num_cols=(1,))]


def _deadlines(timeline_events, r: dict) -> list[str]:
    evs = S.with_approval_events(timeline_events, r)
    if not evs:
        return []
    return ["<h2>Deadlines and expiry dates</h2>",
            _table("Dates worked out from the law's text; confirm them with the Village", ["Date", "What", "Status", "§"],
                   [[dt.date.fromisoformat(str(e["date"])).strftime("%b %d, %Y"), e.get("label", ""),
                     S.status_text(e.get("status")), e.get("citation", "")] for e in evs])]


def _notes_and_warnings(r: dict, layerset, notes: str | None) -> list[str]:
    """The case's notes, then the points to check (the layer set's warnings first)."""
    b = []
    if notes and str(notes).strip():
        b.append("<h2>Notes</h2>")
        b.append(f'<p class="notes">{esc(notes)}</p>')
    warnings = [f"Layer set: {w}" for w in (getattr(layerset, "warnings", ()) or ())]
    warnings += [w for w in r.get("warnings") or [] if w not in warnings]
    if warnings:
        b.append("<h2>Points to check</h2>")
        b.append(_ul(warnings))
    return b


def _law_quotes(r: dict) -> list[str]:
    """The first paragraph of each clause the figures rest on (a citation the law text does not hold is left out)."""
    b = ["<h2>The law behind these figures (quoted)</h2>"]
    for cite in S._citations_used(r):
        try:
            text = clause(cite).strip().split("\n\n")[0]
        except SloatInputError:
            continue
        b.append(f"<h3>{esc(cite)}</h3>\n<blockquote><p>{esc(text)}</p></blockquote>")
    return b


def _please_note(r: dict, as_of: dt.date, illustrative: bool) -> list[str]:
    """The disclaimer, who decides, the sample notice, the buffer note and the versions of the law and data."""
    b = ["<h2>Please note</h2>", _p(r.get("disclaimer") or ""),
         _p("Who decides: the Planning Board, the Building Inspector and the Village Engineer, as named for each "
            "permit above; the County and State agencies listed decide their own reviews.")]
    if illustrative:
        b.append('<p class="notice">Illustrative sample, not official data: the map layers are made up for '
                 "demonstration. Do not rely on them for any property.</p>")
    if r.get("buffer_note"):
        b.append(_p(r["buffer_note"]))
    layers = f"{r.get('layers_name') or 'none'} version {r.get('layers_version') or 'unknown'}"
    b.append(_p(f"Date: {_date_text(as_of)}. Law parameters: {r.get('params_version')}. Law text sha256: "
                f"{LAW_TEXT_SHA256[:16]}. Data: {layers}{' (illustrative sample)' if illustrative else ''}. "
                f"sloat_core {r.get('tool_version')}.", "small"))
    return b


def _adjacent_owners(r: dict) -> list[str]:
    """Appendix, the owners of record of adjacent lands, when the wetland permit's notice applies."""
    a = r.get("adjacent_owners") or {}
    if not a or a.get("applies") is False:
        return []
    b = [f"<h2>Appendix: owners of record of adjacent lands ({esc(a.get('citation', ''))})</h2>"]
    if a.get("parcels"):
        b.append(_table("Adjacent tax parcels", ["SBL", "Address", "Owner of record"],
                        [[x.get("sbl") or "no SBL", x.get("address") or "", x.get("owner")
                          or "owner from the assessment roll"] for x in a["parcels"]]))
    if a.get("reason"):
        b.append(_p(a["reason"]))
    return b


def summary_html(analysis, layerset, *, timeline_events=None, notes: str | None = None, title: str | None = None,
                 as_of: dt.date | None = None) -> str:
    """The pre-application summary as one accessible HTML page (the PDF's content, in full, unshortened).

    ``title`` is the case's title (escaped, like the notes); ``as_of`` the date printed (default today).
    """
    as_of = as_of or dt.date.today()
    r = analysis.result
    illustrative = bool(getattr(layerset, "illustrative", None) if layerset is not None
                        else r.get("layers_illustrative"))
    png, _ = map_png(analysis, layerset)
    b = [*_title_block(r, title, as_of, illustrative), *_parcel_and_district(r), *_lot_area(r, png),
         *_deductions(r), *_cluster_features(r),
         *(_approvals(r) if r.get("approvals") or r.get("approvals_detail") else _permits(r)),
         *_mitigation(r), *_deadlines(timeline_events, r), *_notes_and_warnings(r, layerset, notes),
         *_law_quotes(r), *_please_note(r, as_of, illustrative), *_adjacent_owners(r)]
    return _page(f"{REPORT_TITLE}: {title}" if title else REPORT_TITLE, b)


# ----------------------------------------------------------------------------------------------
# The handout
# ----------------------------------------------------------------------------------------------


def handout_html(analysis, layerset, *, as_of: dt.date | None = None) -> str:
    """The plain handout ("What this means for your lot") as one accessible HTML page, printable as it is."""
    from sloat_core.outputs.handout import _yield_sentence

    as_of = as_of or dt.date.today()
    r = analysis.result
    answer = lot_answer(r)
    png, _, legend = map_and_legend(analysis, layerset, width_in=2.9)
    parcel = r.get("parcel") or {}
    where = " · ".join(x for x in (parcel.get("address"), f"tax parcel {parcel['sbl']}" if parcel.get("sbl") else None,
                                   f"zoning district {r['district']}" if r.get("district") else None) if x)
    b = [f"<h1>{esc(HANDOUT_TITLE)}</h1>", _p(where or "The lot you drew or brought")]
    if r.get("layers_illustrative"):
        b.append('<p class="notice">ILLUSTRATIVE SAMPLE MAPS, NOT OFFICIAL DATA</p>')
    b.append(f"<p><strong>{esc(answer.house)}</strong></p>")
    gross, net = r.get("gross_area_sqft") or 0.0, r.get("net_lot_area_sqft") or 0.0
    b.append(_p(f"Your whole lot: about {gross:,.0f} sq ft. Land that counts toward the lot size: about {net:,.0f} "
                f"sq ft." + _yield_sentence(r)))
    b.append(f"<figure>{_img(png, S.map_alt(r))}<figcaption>The map of your lot.</figcaption></figure>")
    b.append("<h2>Map key</h2>")
    b.append('<ul class="key">' + "".join(f"<li>{_img(sw, '')}{esc(label)}</li>" for label, sw in legend) + "</ul>")
    for heading, items, ordered in answer.sections(handout_steps(r, answer.next_steps)):
        b.append(f"<h2>{esc(heading)}</h2>")
        b.append(_ul(items, ordered=ordered))
    b.append(_p(answer.note + " Rules: Sloatsburg Code ch. 402, Article IX (" + ", ".join(answer.citations) + ").",
                "small"))
    b.append(_p(f"Village of Sloatsburg · {_date_text(as_of)} · screening estimate, not a decision", "small"))
    return _page(HANDOUT_TITLE, b)


def print_page(document_html: str, *, title: str = HANDOUT_TITLE) -> str:
    """A small page that holds ``document_html`` in a frame and opens the browser's print dialog on it as soon
    as it has loaded (the app's "Print the handout": one click). The document is escaped into ``srcdoc``."""
    return (f'<iframe id="doc" title="{esc(title)}, to print" srcdoc="{esc(document_html)}" '
            'style="width:1px;height:1px;border:0;position:absolute;left:-9999px"></iframe>\n'
            "<script>\n"
            "const f = document.getElementById('doc');\n"
            "f.addEventListener('load', () => { f.contentWindow.focus(); f.contentWindow.print(); });\n"
            "</script>\n")
