"""The report's closing sections: the user's notes, the points to check, the law quoted, the disclaimers
and the versions behind the figures.

Each function draws its section onto the document at the current position and returns nothing; the
lengths they are given come from the fitting level of :mod:`sloat_core.outputs.report.build`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from sloat_core.errors import SloatInputError
from sloat_core.law.text import LAW_TEXT_SHA256, clause
from sloat_core.outputs.report.layout import _first_lines, _heading, _keep_together, _lines, _list, _para
from sloat_core.outputs.report.reading import _citations_used, coverage_notes
from sloat_core.outputs.report.text import _FONT, _date_text, _plain, _shorten, _sqft


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
    """The clauses of Article IX behind the figures (:func:`~sloat_core.outputs.report.reading._citations_used`), quoted in their own words from
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
