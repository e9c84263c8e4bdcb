"""The one-page plain handout a resident takes home from the counter.

One Letter page: the lot (address, SBL, district), the map with the lot lines (the report's own
:func:`sloat_core.outputs.report.map_png`), the answer card of :func:`sloat_core.engine.answer.lot_answer`
("What this means for your lot"), whom to ask, and the disclaimer. Plain words only: the
technical table stays in the pre-application summary (:mod:`sloat_core.outputs.report`).

The CLI makes it with ``python -m sloat_core report PARCEL --layers M [--project P] --plain --out F.pdf``.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

from fpdf.enums import XPos, YPos

from sloat_core.engine.answer import lot_answer
from sloat_core.outputs.report import _FONT, _date_text, _new_pdf, _plain, map_png

__all__ = ["HANDOUT_TITLE", "handout_pdf_bytes", "write_handout"]

HANDOUT_TITLE = "What this means for your lot"
_FOOTER = "Village of Sloatsburg · Article IX (environmental controls) · screening estimate, not a decision"


def _build(analysis, layerset, *, as_of: dt.date, size: float, figure) -> object:
    r = analysis.result
    answer = lot_answer(r)
    pdf = _new_pdf()
    pdf.set_title(HANDOUT_TITLE)
    pdf.footer_text = f"{_FOOTER} · {_date_text(as_of)}"
    pdf.add_page()
    line = size * 0.5
    pdf.set_font(_FONT, "B", size + 8)
    pdf.cell(0, size * 0.75, HANDOUT_TITLE, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    parcel = r.get("parcel") or {}
    where = " · ".join(b for b in (parcel.get("address"), f"tax parcel {parcel['sbl']}" if parcel.get("sbl") else None,
                                   f"zoning district {r['district']}" if r.get("district") else None) if b)
    pdf.set_font(_FONT, "", size + 1)
    pdf.multi_cell(0, line + 0.6, _plain(where or "The lot you drew or brought"), new_x=XPos.LMARGIN,
                   new_y=YPos.NEXT)
    if r.get("layers_illustrative"):
        pdf.set_font(_FONT, "B", size - 1)
        pdf.set_fill_color(235)
        pdf.multi_cell(0, line, "ILLUSTRATIVE SAMPLE MAPS, NOT OFFICIAL DATA", border=1, fill=True, padding=0.8,
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1.5)

    png, ratio = figure
    map_w = 72.0
    top = pdf.get_y()
    pdf.image(io.BytesIO(png), x=pdf.l_margin, y=top, w=map_w, h=map_w * ratio,
              alt_text="Map of the lot with its lot lines and what lies on it")
    x2 = pdf.l_margin + map_w + 5
    w2 = pdf.w - pdf.r_margin - x2
    pdf.set_xy(x2, top)
    pdf.set_font(_FONT, "B", size + 1)
    pdf.multi_cell(w2, line + 0.6, _plain(answer.house), new_x=XPos.LEFT, new_y=YPos.NEXT, align="L")
    pdf.ln(1)
    pdf.set_x(x2)
    pdf.set_font(_FONT, "", size)
    gross, net = r.get("gross_area_sqft") or 0.0, r.get("net_lot_area_sqft") or 0.0
    pdf.multi_cell(w2, line, _plain(f"Your whole lot: about {gross:,.0f} sq ft. Land that counts toward the lot "
                                    f"size: about {net:,.0f} sq ft." + _yield_sentence(r)), new_x=XPos.LEFT,
                   new_y=YPos.NEXT)
    below_map = top + map_w * ratio + 2

    def section(title: str, items: list[str], *, numbered: bool = False) -> None:
        if pdf.get_y() < below_map and pdf.get_x() < x2:
            pdf.set_y(below_map)
        x, w = (x2, w2) if pdf.get_y() < below_map else (pdf.l_margin, pdf.w - pdf.l_margin - pdf.r_margin)
        pdf.ln(1.2)
        pdf.set_x(x)
        pdf.set_font(_FONT, "B", size + 0.5)
        pdf.multi_cell(w, line + 0.4, title, new_x=XPos.LEFT, new_y=YPos.NEXT, align="L")
        pdf.set_font(_FONT, "", size)
        for i, item in enumerate(items, start=1):
            if pdf.get_y() >= below_map and x == x2:  # past the map: use the full width
                x, w = pdf.l_margin, pdf.w - pdf.l_margin - pdf.r_margin
            pdf.set_x(x)
            mark = f"{i}." if numbered else "•"
            pdf.multi_cell(w, line, _plain(f"{mark} {item}"), new_x=XPos.LEFT, new_y=YPos.NEXT, align="L")

    section("What stands in the way", answer.in_the_way)
    section("Next steps, in the usual order", answer.next_steps, numbered=True)
    section("What the Village must confirm", answer.village_confirms)
    section("Whom to ask", list(answer.contacts))
    pdf.set_y(max(pdf.get_y(), below_map))
    pdf.ln(1.5)
    pdf.set_font(_FONT, "I", size - 1.5)
    pdf.multi_cell(0, line - 0.3, _plain(answer.note + " Rules: Sloatsburg Code ch. 402, Article IX ("
                                         + ", ".join(answer.citations) + ")."), new_x=XPos.LMARGIN,
                   new_y=YPos.NEXT)
    return pdf


def _yield_sentence(r: dict) -> str:
    """The conventional yield (§ 402-48E, per district § 402-48I) in one sentence, a range kept a range."""
    from sloat_core.rules.cluster import yield_phrase

    if "conventional_yield" not in r:
        return ""
    cite = r.get("yield_citation") or "§ 402-48E"
    text = f" Lots it could be divided into, as a first estimate: {yield_phrase(r)} ({cite}; the Planning Board decides)."
    if r.get("conventional_yield_status") == "unknown":
        text = f" How many lots it could be divided into is not known yet ({cite})."
    return text


def handout_pdf_bytes(analysis, layerset, *, as_of: dt.date | None = None) -> bytes:
    """The one-page plain handout as PDF bytes.

    The type shrinks (from 10 pt down to 6.5 pt) until the page holds everything; the text is never cut.

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis
        From ``analyze_parcel``.
    layerset : LayerSet or None
        For the map's context (lot lines around, water, overlays).
    as_of : datetime.date, optional
        The date printed; default today.
    """
    as_of = as_of or dt.date.today()
    figure = map_png(analysis, layerset, width_in=3.2)
    pdf = None
    for size in (10.0, 9.0, 8.0, 7.2, 6.5):
        pdf = _build(analysis, layerset, as_of=as_of, size=size, figure=figure)
        if pdf.page_no() == 1:
            break
    return bytes(pdf.output())


def write_handout(analysis, layerset, out_path, *, as_of: dt.date | None = None) -> Path:
    """Write :func:`handout_pdf_bytes` to ``out_path`` (atomically); returns the path."""
    out = Path(out_path)
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(handout_pdf_bytes(analysis, layerset, as_of=as_of))
    tmp.replace(out)
    return out
