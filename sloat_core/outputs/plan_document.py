"""The plan's lot table as a document, written once as HTML (:func:`plan_html`): the web page, and the source of its
PDF (:func:`plan_pdf_bytes`, laid out by WeasyPrint as PDF/UA-1, :mod:`sloat_core.outputs.pdf`).

It reads a checked plan (:class:`sloat_core.plan.check.PlanResult`, by its attributes) and says, in this order: the
title, the parcel and the date, then the plan's section (:func:`plan_section`): its kind, how many lots and how many
conform, the problems of the drawing, the lot table (lot, district, gross, net lot area -- a range where land is
unknown --, the minimum, whether it conforms in a word, the shortfall, the permits each lot needs with their §), the
yield check of § 402-48E and the open space of § 402-48G(2); then the clauses behind the figures, quoted, and the
screening disclaimer.

:func:`plan_section` is the one builder of the plan's section: the pre-application summary
(:func:`sloat_core.outputs.report.document.summary_html` with ``plan=``) prints the same section. Printed, the
table's head repeats on every page and no row is split between two pages (the kit's rules,
:mod:`sloat_core.outputs.html_docs`); statuses are words, never colour alone. Every lot label comes from the drawing
and is escaped.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sloat_core.errors import SloatInputError
from sloat_core.law.text import LAW_TEXT_SHA256, clause
from sloat_core.outputs import html_docs as H
from sloat_core.outputs.report.text import _date_text, _shorten, _sqft
from sloat_core.plan import words
from sloat_core.plan.words import CONFORMS_WORDS

__all__ = ["PLAN_TITLE", "SECTION_HEADING", "CONFORMS_WORDS", "LOT_COLUMNS", "plan_summary", "lot_rows", "shared_unknowns",
           "more_lots_sentence", "plan_section", "plan_html", "plan_pdf_bytes", "write_plan_document"]

PLAN_TITLE = "The plan's lot table"
#: The plan's section's heading (in the summary; the document's subsections stand on their own).
SECTION_HEADING = "The plan, lot by lot"
_FOOTER = "Screening estimate, not a determination (Sloatsburg Code ch. 402, Art. IX)"
#: The lot table's column headings.
LOT_COLUMNS = ["Lot", "District", "Gross (sq ft)", "Net lot area (sq ft)", "Minimum (sq ft)", "Conforms",
               "Shortfall (sq ft)", "Permits needed (§)", "§"]
_MAX_LABEL_CHARS = 60

#: The document's print rules: 8.5 pt body, the lot table at 7.5 pt with its columns sized.
PRINT_CSS = """
  body { font-size: 8.5pt; line-height: 1.25; }
  h1 { font-size: 16pt; margin: 0 0 1mm; }
  h2 { font-size: 11pt; margin: 3mm 0 1mm; padding-bottom: 0.4mm; border-bottom: 0.3mm solid #000; }
  h3 { font-size: 9pt; margin: 2mm 0 0.5mm; }
  p { margin: 0 0 1mm; }
  .lead { font-size: 9.5pt; }
  .notice { font-size: 9pt; border: 0.6mm solid #000; background: #e1e1e1; padding: 1.2mm; margin: 1.5mm 0; }
  table { font-size: 7.5pt; margin: 0.6mm 0 1.6mm; }
  caption { caption-side: top; text-align: left; font-size: 7.5pt; font-style: italic; padding-bottom: 0.4mm; }
  th, td { padding: 0.5mm 1.2mm; border-top: 0.2mm solid #aaa; line-height: 1.2; }
  thead th { background: #e1e1e1; border-top: 0.3mm solid #000; font-weight: bold; }
  tbody th { font-weight: bold; }
  tbody tr:nth-child(even) td, tbody tr:nth-child(even) th[scope=row] { background: #f3f3f3; }
  table.parcel { width: auto; }
  table.lots th[scope=col]:nth-child(8) { width: 30%; }
  table.lots td:last-child, table.lots td:nth-child(2) { white-space: nowrap; }
  ol, ul { margin: 0 0 1mm; padding-left: 5mm; }
  blockquote { margin: 0 0 1.2mm 2mm; padding-left: 2mm; font-size: 7.8pt; }
  .small, .note { font-size: 7.5pt; } .note { font-style: italic; }
"""


_n = words.number_text


def _label(label) -> str:
    text = " ".join(str(label).split())
    return text if len(text) <= _MAX_LABEL_CHARS else text[:_MAX_LABEL_CHARS - 1] + "…"


def plan_summary(plan) -> str:
    """The plan in one sentence: its kind, how many lots, how many conform, do not, are unknown.

    >>> from types import SimpleNamespace as N
    >>> plan_summary(N(kind="cluster", lots=[N(conforms=True), N(conforms=False), N(conforms=None)]))
    'Cluster plan: 3 lots; 1 conforms, 1 does not conform, 1 unknown.'
    """
    lots = list(plan.lots)
    yes = sum(1 for lot in lots if lot.conforms is True)
    no = sum(1 for lot in lots if lot.conforms is False)
    unknown = len(lots) - yes - no
    parts = [f"{yes} conform{'s' * (yes == 1)}", f"{no} do{'es' * (no == 1)} not conform"]
    if unknown:
        parts.append(f"{unknown} unknown")
    return f"{plan.kind.capitalize()} plan: {len(lots)} lot{'s' * (len(lots) != 1)}; " + ", ".join(parts) + "."


def shared_unknowns(plan) -> list[str]:
    """The permits not known yet for every lot of the plan (said once, under the table)."""
    return words.shared_unknowns(plan.lots)


def lot_rows(plan) -> list[list[str]]:
    """One row of text per lot, in :data:`LOT_COLUMNS`' order."""
    shared = shared_unknowns(plan)
    return [[_label(lot.label), lot.district or "unknown", _n(lot.lot.gross_area_sqft), words.net_text(lot),
             words.minimum_text(lot), words.conforms_text(lot), words.shortfall_text(lot),
             words.permits_text(lot, shared), lot.minimum.citation]
            for lot in plan.lots]


def _counted(o: dict) -> list[list[str]]:
    return [["Open space drawn", _sqft(o.get("gross_sqft"))],
            [f"Private yards within {o.get('yard_exclusion_ft', 0):g} ft of a building envelope, not counted",
             _sqft(o.get("yards_excluded_sqft"))],
            ["Open space counted", _sqft(o.get("counted_sqft"))]]


def _permitted(y: dict) -> str:
    lo, hi = y.get("permitted_min"), y.get("permitted_max")
    if lo is None or hi is None:
        return "not known"
    return f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"


def _kept(table: str) -> str:
    """A short table kept whole on one page, its caption with it (in either document's print rules)."""
    return f'<div style="break-inside: avoid">{table}</div>'


def more_lots_sentence(more: int) -> str:
    """Said under a lot table shortened to fit the summary's pages: how many lots are left out, and where they all are.

    >>> more_lots_sentence(40)
    "… and 40 more lots: the full lot table is the plan's own document, “The plan's lot table” (the Plan page's PDF and web page)."
    """
    return (f"… and {more:,} more lot{'s' * (more != 1)}: the full lot table is the plan's own document, "
            f"“{PLAN_TITLE}” (the Plan page's PDF and web page).")


def plan_section(plan, *, heading: str | None = SECTION_HEADING, max_lots: int | None = None) -> list[str]:
    """The plan's section: its kind and lot counts, the problems of the drawing, the lot table, the yield check and
    the open space. Under ``heading`` (an ``<h2>``) its parts are ``<h3>``; without it (the plan's own document)
    they are ``<h2>``. With ``max_lots`` (the summary's PDF, fitted to its pages) the table lists the first
    ``max_lots`` lots, and the problems as many, each followed by how many more there are and where they all are
    (:func:`more_lots_sentence`); the counts, the yield and the open space are always the whole plan's."""
    sub = "h3" if heading else "h2"
    b = [f"<h2>{H.esc(heading)}</h2>"] if heading else []
    b.append(H.p(plan_summary(plan), "lead"))
    b.append(f"<{sub}>Problems in the drawing</{sub}>")
    problems = [p.text for p in plan.problems]
    if problems:
        b.append(H.ul(problems[:max_lots]))
        if max_lots is not None and len(problems) > max_lots:
            more = len(problems) - max_lots
            b.append(H.p(f"… and {more:,} more problem{'s' * (more != 1)}: the plan's own document, “{PLAN_TITLE}”, "
                         "lists them all.", "note"))
    else:
        b.append(H.p("No problem found in the drawing: no lots overlap, none lies outside the parcel or in two "
                     "districts, every lot has its own label and a closed outline."))
    b.append(f"<{sub}>Lot by lot</{sub}>")
    rows = lot_rows(plan)
    shown = rows if max_lots is None else rows[:max_lots]
    caption = ("Each lot from its own land: gross, net lot area (a range where land is unknown), the minimum it must "
               "meet, whether it conforms, the shortfall and the permits it needs")
    if len(shown) < len(rows):
        caption += f" (the first {len(shown):,} of {len(rows):,} lots)"
    b.append(H.table(caption, LOT_COLUMNS, shown, num_cols=(2, 3, 4, 6), cls="lots"))
    if len(shown) < len(rows):
        b.append(H.p(more_lots_sentence(len(rows) - len(shown)), "note"))
    b.append(H.p("The net lot area leaves out the land that does not count toward minimum lot area (§ 402-45A); a "
                 "cluster lot's minimum is compared with its gross area (§ 402-48F). A lot whose answer turns on "
                 "land not yet known is unknown, never shown as conforming.", "note"))
    reasons = dict.fromkeys(lot.minimum.reason for lot in plan.lots if lot.minimum.reason)
    b += [H.p(r, "small") for r in reasons]
    if shared := shared_unknowns(plan):
        b.append(H.p(f"Not known yet for every lot (they turn on what is built): {'; '.join(shared)}.", "small"))
    if forbidden := words.prohibitions(plan.lots):
        b.append(H.p(f"Not allowed at all, if the project includes it, with or without a permit: "
                     f"{'; '.join(forbidden)}.", "small"))
    y = plan.yield_check
    b.append(f"<{sub}>Yield ({H.esc(y.get('citation', '§ 402-48E'))})</{sub}>")
    b.append(_kept(H.table("The plan's lots against the lots permitted", ["", "Lots"],
                           [["In the plan", f"{y.get('plan_lots', len(plan.lots)):,}"], ["Permitted", _permitted(y)],
                            ["Yield check", {"within": "within", "over": "over"}.get(y.get("status"), "not known")]],
                           cls="parcel")))
    b.append(H.p(y.get("text") or ""))
    o = plan.open_space
    b.append(f"<{sub}>Open space ({H.esc(o.get('citation', '§ 402-48G(2)'))})</{sub}>")
    b.append(_kept(H.table("The open space drawn and counted", ["", "Area"], _counted(o), cls="parcel")))
    b.append(H.p(o.get("text") or ""))
    b.append(H.p(f"Land of the parcel in no lot, road or open space as drawn: {_sqft(plan.unallocated_sqft)}.",
                 "small"))
    return b


def _citations(plan) -> list[str]:
    """The clauses behind the plan's figures, each once, in the order a reader meets them."""
    cites = ["§ 402-45A", "§ 402-45B"] + [lot.minimum.citation for lot in plan.lots]
    cites += [plan.yield_check.get("citation"), plan.open_space.get("citation")]
    cites += [p.citation for lot in plan.lots for p in lot.permits if p.required is not False]
    return [c for c in dict.fromkeys(cites) if c]


def _law_quotes(plan) -> list[str]:
    b = ["<h2>The law behind these figures (quoted)</h2>"]
    for cite in _citations(plan):
        try:
            text = clause(cite).strip().split("\n\n")[0]
        except SloatInputError:
            continue
        b.append(f"<h3>{H.esc(cite)}</h3>\n<blockquote><p>“{H.esc(_shorten(text, 600))}”</p></blockquote>")
    return b


def _parcel_words(r) -> str:
    parcel = r.parcel
    bits = [f"SBL {parcel.sbl}" if getattr(parcel, "sbl", None) else None, getattr(parcel, "address", None)]
    return " · ".join(str(x) for x in bits if x) or "Parcel given by the applicant"


def plan_html(plan, *, title: str | None = None, as_of: dt.date | None = None) -> str:
    """The plan's lot table as one HTML page (the web page, and the page its PDF is made of).

    ``plan`` is a :class:`sloat_core.plan.check.PlanResult`; ``title`` the case's title (escaped); ``as_of`` the
    date printed (default today)."""
    as_of = as_of or dt.date.today()
    r = plan.parcel
    illustrative = bool(r.layers_illustrative)
    district = r.district or "unknown"
    if len(r.districts or ()) > 1:
        district = "split: " + ", ".join(f"{d.district} ({_sqft(d.area_sqft)})" for d in r.districts)
    b = [f"<h1>{H.esc(PLAN_TITLE)}</h1>"]
    if title:
        b.append(H.p(f"Case: {title}", "lead"))
    b.append(H.p("A proposed plat or site plan checked lot by lot against the environmental controls of the Village "
                 "of Sloatsburg Code, Chapter 402, Article IX (§ 402-45B: site plans and subdivisions)", "lead"))
    b.append(H.p(f"Prepared {_date_text(as_of)} · analysis as of {r.as_of}"))
    if illustrative:
        b.append(H.p("ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA: the map layers are made up for demonstration.",
                     "notice"))
    b.append("<h2>Parcel and plan</h2>")
    b.append(H.table("The parcel and the plan", ["", "Value"],
                     [["Parcel", _parcel_words(r)], ["District", district],
                      ["Parcel gross area", _sqft(r.gross_area_sqft)],
                      ["Kind of plan", "cluster (§ 402-48)" if plan.kind == "cluster" else "conventional plat"],
                      ["Lots", f"{len(plan.lots):,}"], ["Lots that conform", f"{plan.conforming_lots:,}"]],
                     cls="parcel"))
    b += plan_section(plan, heading=None)
    warnings = list(dict.fromkeys(plan.warnings))
    if warnings:
        b += ["<h2>Points to check</h2>", H.ul(warnings)]
    b += _law_quotes(plan)
    b += ["<h2>Please note</h2>", H.p(r.disclaimer or ""),
          H.p("Who decides: the Planning Board (the plat, its yield and its open space), the Building Inspector "
              "and the Village Engineer, as named for each permit; the figures here are a screening estimate.")]
    if illustrative:
        b.append("<p><strong>Illustrative sample, not official data: the map layers are made up for demonstration. "
                 "Do not rely on them for any property.</strong></p>")
    layers = f"{r.layers_name or 'none'} version {r.layers_version or 'unknown'}"
    b.append(H.p(f"Date: {_date_text(as_of)}. Law text sha256: {LAW_TEXT_SHA256[:16]}. Data: {layers}"
                 f"{' (illustrative sample)' if illustrative else ''}.", "small"))
    return H.page(f"{PLAN_TITLE}: {title}" if title else PLAN_TITLE, b, print_css=PRINT_CSS,
                  header_left=_shorten(_parcel_words(r), 90), header_right=f"{PLAN_TITLE} · {_date_text(as_of)}",
                  footer_left=_FOOTER, margin_pt=7.0)


def plan_pdf_bytes(plan, *, title: str | None = None, as_of: dt.date | None = None) -> bytes:
    """The plan's lot table as PDF/UA-1 bytes (:func:`plan_html` laid out by WeasyPrint)."""
    from sloat_core.outputs.pdf import pdf_bytes

    return pdf_bytes(plan_html(plan, title=title, as_of=as_of))


def write_plan_document(plan, out_path, *, title: str | None = None, as_of: dt.date | None = None) -> Path:
    """Write the plan's lot table to ``out_path`` (atomically): its web page when the name ends in ``.html`` (or
    ``.htm``), else its PDF; returns the path."""
    from sloat_core.outputs.pdf import write_atomic

    if Path(out_path).suffix.lower() in (".html", ".htm"):
        return write_atomic(out_path, plan_html(plan, title=title, as_of=as_of))
    return write_atomic(out_path, plan_pdf_bytes(plan, title=title, as_of=as_of))
