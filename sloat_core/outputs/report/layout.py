"""The report's page layout, built on fpdf2: the Letter document with its footer, section headings kept with
their first lines, paragraphs and tables.

A section starts with :func:`_heading`, given a measure of its opening lines (:func:`_first_lines` for a
paragraph, :func:`_first_rows` for a table); the heading moves to a new page only with those lines, and
the rest of the section flows on. All text is written through :func:`sloat_core.outputs.report.text._plain`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from fpdf import FPDF
from fpdf.enums import XPos, YPos
from fpdf.fonts import FontFace

from sloat_core.outputs.report.text import _FONT, FONT_DIR, _plain
from sloat_core.outputs.tagging import TaggedFPDF, TaggedTable, set_document

REPORT_TITLE = "Pre-application summary"


class _Report(TaggedFPDF):
    footer_text = ""
    footer_size = 7.0

    def footer(self):
        self.set_y(-11)
        self.set_font(_FONT, "", self.footer_size)
        self.set_text_color(60)
        self.cell(0, 4, f"{self.footer_text}  ·  page {self.page_no()} of {{nb}}", align="C")
        self.set_text_color(0)


_HEAD = FontFace(emphasis="BOLD", fill_color=(225, 225, 225))
#: Table layout: line height as a share of the font size (mm per pt), cell padding (mm).
_TABLE_LINE = 0.45
_TABLE_PAD_Y, _TABLE_PAD_X = 0.6, 1.2


def _new_pdf() -> _Report:
    pdf = _Report(orientation="portrait", unit="mm", format="Letter")
    pdf.set_margins(14, 12, 14)
    pdf.set_auto_page_break(True, margin=14)
    pdf.add_font(_FONT, "", str(FONT_DIR / "DejaVuSans.ttf"))
    pdf.add_font(_FONT, "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
    pdf.add_font(_FONT, "I", str(FONT_DIR / "DejaVuSans-Oblique.ttf"))
    set_document(pdf, REPORT_TITLE)
    pdf.set_creator("sloat_core")
    return pdf


def _heading_lines(pdf: FPDF, text: str) -> None:
    pdf.ln(2.2)
    pdf.set_font(_FONT, "B", 10.5)
    with pdf.tag("H2"):
        pdf.cell(0, 5.5, _plain(text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    y = pdf.get_y()
    pdf.set_line_width(0.3)
    with pdf.artifact():
        pdf.line(pdf.l_margin, y, pdf.w - pdf.r_margin, y)
    pdf.ln(1.2)
    pdf.set_font(_FONT, "", 8)


#: Height of a section heading as `_heading_lines` draws it (space, line, rule, space), in mm.
_HEADING_MM = 2.2 + 5.5 + 1.2


def _heading(pdf: FPDF, text: str, first: Callable[[Any], float] | None = None) -> None:
    """A section heading, kept with the first lines of its section; the rest flows onto the next page.

    The heading and the section's opening lines (a table's header and first row, or the first lines
    of a paragraph), measured by ``first``, start a new page only when they would not fit on what is
    left of this one. The section itself is then drawn by the caller and breaks between table rows or
    lines as needed.

    Parameters
    ----------
    pdf : FPDF
        The document.
    text : str
        The heading.
    first : callable, optional
        Measures the section's opening lines: ``first(pdf) -> height in mm`` (it draws nothing).
    """
    _keep_together(pdf, _HEADING_MM + (first(pdf) if first is not None else 0.0))
    _heading_lines(pdf, text)


def _keep_together(pdf: FPDF, height_mm: float) -> None:
    """Start a new page when ``height_mm`` of content would not fit on what is left of this one."""
    if pdf.get_y() + height_mm > pdf.page_break_trigger:
        pdf.add_page()


def _lines(pdf: FPDF, text: str, width_mm: float, h: float) -> int:
    """How many lines ``text`` takes in a ``width_mm`` column at the current font (nothing is drawn)."""
    return max(1, len(pdf.multi_cell(width_mm, h, _plain(text), align="L", dry_run=True, output="LINES")))


def _first_lines(text: str, *, size: float = 8, style: str = "", h: float = 3.8, lines: int = 2) -> Callable[[Any], float]:
    """Measures the opening ``lines`` lines of a paragraph, for :func:`_heading`."""

    def measure(pdf) -> float:
        pdf.set_font(_FONT, style, size)
        return h * min(lines, _lines(pdf, text, 0, h))

    return measure


def _first_rows(header: list[str], rows: list[list[str]], widths: tuple, align: tuple, *, size=7.5,
                lead: Callable[[Any], float] | None = None) -> Callable[[Any], float]:
    """Measures a table's header and first row (after ``lead``, an introductory paragraph), as `_table` draws them."""

    def row_height(pdf, cells: list[str], style: str) -> float:
        pdf.set_font(_FONT, style, size)
        line_h = size * _TABLE_LINE
        total = float(sum(widths))
        tallest = max(_lines(pdf, c, pdf.epw * w / total - 2 * _TABLE_PAD_X, line_h) for c, w in zip(cells, widths))
        return tallest * line_h + 2 * _TABLE_PAD_Y

    def measure(pdf) -> float:
        height = lead(pdf) if lead is not None else 0.0
        height += row_height(pdf, header, "B")
        if rows:
            height += row_height(pdf, rows[0], "")
        return height

    return measure


def _para(pdf: FPDF, text: str, size: float = 8, style: str = "", h: float = 3.8, tag: str = "P"):
    pdf.set_font(_FONT, style, size)
    with pdf.tag(tag):
        pdf.multi_cell(0, h, _plain(text), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _list(pdf: FPDF, items: Iterable[str], *, numbered: bool = False, size: float = 8, style: str = "",
          h: float = 3.8) -> None:
    """A list, one item a paragraph after its mark ("•", or "1." when ``numbered``)."""
    pdf.set_font(_FONT, style, size)
    with pdf.group("L", attrs="<</O /List /ListNumbering /Decimal>>" if numbered else None):
        for i, item in enumerate(items, start=1):
            mark = f"{i}." if numbered else "•"
            with pdf.tag("LI"):
                pdf.multi_cell(0, h, _plain(f"{mark} {item}"), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _table(pdf: FPDF, header: list[str], rows: list[list[str]], widths: tuple, align: tuple, *, size=7.5,
           bold_rows: Iterable[int] = ()):
    pdf.set_font(_FONT, "", size)
    bold = set(bold_rows)
    t = TaggedTable(pdf, col_widths=widths, text_align=align, line_height=size * _TABLE_LINE, headings_style=_HEAD,
                    borders_layout="SINGLE_TOP_LINE", padding=(_TABLE_PAD_Y, _TABLE_PAD_X), v_align="TOP",
                    width=pdf.epw, cell_fill_mode="ROWS", cell_fill_color=(243, 243, 243))
    head = t.row()
    for h in header:
        head.cell(_plain(h))
    for i, r in enumerate(rows):
        row = t.row()
        for c in r:
            row.cell(_plain(c), style=FontFace(emphasis="BOLD") if i in bold else None)
    t.render()

