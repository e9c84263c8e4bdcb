"""The "pre-application summary": a one-to-three page PDF a resident takes home from the counter.

It carries a static map of the parcel and its constraint pieces (drawn offline with matplotlib), gross and
net lot area against the district minimum, the § 402-45 deduction table, the § 402-48C cluster features,
the permits and reviews with their approval authority and §, the § 402-57P mitigation figures when there
are any, the timeline of deadlines, the quoted clauses behind the figures, the disclaimers, the date and
the versions of the law parameters, law text and data.

Printing in black and white: every constraint on the map has its own hatch pattern *and* grey level and is
named in the legend; statuses are words (yes / no / unknown), never colour alone.

Everything typed by a user or read from a file is written as plain text (no markup is interpreted).
The fonts are DejaVu Sans, shipped with matplotlib, which cover "§" and the dashes.

The report is fitted to at most three pages: if the full text would run longer, long explanations are
shortened step by step (quotes, then evidence and reasons) until it fits.
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import re
from pathlib import Path
from typing import Any, Callable, Iterable

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the Agg backend)
import shapely  # noqa: E402
from fpdf import FPDF  # noqa: E402
from fpdf.enums import XPos, YPos  # noqa: E402
from fpdf.fonts import FontFace  # noqa: E402
from matplotlib.patches import PathPatch, Patch, Rectangle  # noqa: E402
from matplotlib.path import Path as MplPath  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from shapely.geometry import box  # noqa: E402

from sloat_core.gis.roles import ROLE_DECLARATIONS, style  # noqa: E402
from sloat_core.law.params import fill  # noqa: E402
from sloat_core.law.text import LAW_TEXT_SHA256, clause  # noqa: E402
from sloat_core.rules.clocks import DONE_STATUSES, STATUS_WORDS  # noqa: E402
from sloat_core.rules.deductions import DEDUCTION_ORDER  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402

__all__ = ["MAX_PAGES", "REPORT_TITLE", "FONT_DIR", "events_to_show", "map_png", "report_pdf_bytes", "status_text",
           "write_report"]

REPORT_TITLE = "Pre-application summary"
MAX_PAGES = 3
#: DejaVu Sans from matplotlib's bundled fonts (covers §, en and em dashes).
FONT_DIR = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
_FONT = "DejaVu"

#: Map style per deduction constraint: grey level of the fill and hatch pattern (distinct in B/W), from
#: the role declarations (sloat_core.gis.roles) and the derived rows' styles (buffer, slope classes).
PIECE_STYLES: dict[str, dict[str, str]] = {
    c: {"face": style(c).face, "hatch": style(c).hatch} for c, _, _ in DEDUCTION_ORDER
}


def _map_label(constraint: str) -> str:
    """Short legend name of a deduction row (its law numbers filled in from the parameters)."""
    return style(constraint).legend_text()


#: Context outside the parcel: the same patterns, lighter (the roles whose land is deducted).
_CONTEXT_ROLES = tuple(r.id for r in ROLE_DECLARATIONS if r.deduction is not None)
#: Overlays drawn as dashed boundaries when they reach the map.
_OVERLAY_STYLES = {r.id: (r.legend, r.dash) for r in ROLE_DECLARATIONS
                   if r.kind == "overlay" and not r.drawn_filled}
_YES_NO = {True: "yes", False: "no", None: "unknown"}
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


# ----------------------------------------------------------------------------------------------
# Text helpers
# ----------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _font_codepoints() -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(str(FONT_DIR / "DejaVuSans.ttf"), lazy=True) as f:
        return frozenset(f.getBestCmap())


def _plain(text: Any) -> str:
    """Any value as printable plain text in the report font (unknown characters become '?')."""
    if text is None:
        return ""
    s = _CONTROL_RE.sub("", str(text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " "))
    cps = _font_codepoints()
    return "".join(ch if ch == "\n" or ord(ch) in cps else "?" for ch in s)


def _shorten(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    for mark in (". ", "; ", ", "):
        i = cut.rfind(mark)
        if i > limit * 0.6:
            return cut[: i + 1].rstrip(",;") + " …"
    return cut.rsplit(" ", 1)[0] + " …"


def _sqft(x: float | None) -> str:
    return "unknown" if x is None else f"{x:,.0f} sq ft"


def _num(x: float | None) -> str:
    return "unknown" if x is None else f"{x:,.0f}"


def _acres(x: float | None) -> str:
    return "" if x is None else f" ({x / 43_560:,.2f} acres)"


def _date_text(d: dt.date) -> str:
    return f"{d:%B} {d.day}, {d.year}"


# ----------------------------------------------------------------------------------------------
# The map
# ----------------------------------------------------------------------------------------------


def _path(geom) -> MplPath | None:
    """A matplotlib path for a (multi)polygon, holes included."""
    polys = [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon" and not g.is_empty]
    if not polys:
        return None
    paths = []
    for p in polys:
        for ring in [p.exterior, *p.interiors]:
            coords = list(ring.coords)
            codes = [MplPath.MOVETO] + [MplPath.LINETO] * (len(coords) - 2) + [MplPath.CLOSEPOLY]
            paths.append(MplPath(coords, codes))
    return MplPath.make_compound_path(*paths)


def _draw(ax, geom, **kw) -> bool:
    if geom is None or geom.is_empty:
        return False
    path = _path(geom)
    if path is None:
        return False
    ax.add_patch(PathPatch(path, **kw))
    return True


def _nice_length(span_ft: float) -> float:
    target = span_ft / 4
    for n in (5000, 2500, 2000, 1000, 500, 250, 200, 100, 50, 25, 20, 10, 5):
        if n <= target:
            return float(n)
    return 5.0


def _scale_bar(ax, x0, y0, length, height):
    half = length / 2
    ax.add_patch(Rectangle((x0, y0), half, height, facecolor="black", edgecolor="black", lw=0.6, zorder=20))
    ax.add_patch(Rectangle((x0 + half, y0), half, height, facecolor="white", edgecolor="black", lw=0.6, zorder=20))
    for x, label in ((x0, "0"), (x0 + half, f"{half:g}"), (x0 + length, f"{length:g} ft")):
        ax.text(x, y0 + height * 1.6, label, ha="center", va="bottom", fontsize=6, zorder=21,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.3, "alpha": 0.85})


def _north_arrow(ax):
    ax.annotate("", xy=(0.93, 0.97), xytext=(0.93, 0.84), xycoords="axes fraction",
                arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.2}, zorder=22)
    ax.text(0.93, 0.80, "N", transform=ax.transAxes, ha="center", va="top", fontsize=8, fontweight="bold",
            zorder=22, bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5, "alpha": 0.85})


def _view_box(parcel, aspect: float = 1.0):
    minx, miny, maxx, maxy = parcel.bounds
    w, h = maxx - minx, maxy - miny
    pad = max(0.25 * max(w, h), 60.0)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = max(w, h) / 2 + pad
    return box(cx - half * aspect, cy - half, cx + half * aspect, cy + half)


def map_png(analysis, layerset, *, width_in: float = 4.2, dpi: int = 200) -> tuple[bytes, float]:
    """The static map as PNG bytes, and its height/width ratio.

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis
    layerset : LayerSet or None
        For the context drawn around the parcel (nearby resources, tax parcels, overlay boundaries).
    width_in : float
        Figure width in inches.
    dpi : int

    Returns
    -------
    (bytes, float)
    """
    parcel = analysis.parcel
    view = _view_box(parcel)
    handles: list[Any] = []
    with plt.rc_context({"hatch.linewidth": 0.5, "font.family": "DejaVu Sans"}):
        fig = plt.figure(figsize=(width_in, width_in), dpi=dpi)
        ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
        ax.set_facecolor("white")

        def context(role):
            layer = layerset.get(role) if layerset is not None else None
            if layer is None:
                return None
            hits = layer.query(view)
            if len(hits) == 0:
                return None
            return shapely.union_all(shapely.intersection(hits.geometry.values, view))

        tax = context("parcels")
        if tax is not None:
            edges = shapely.intersection(tax.boundary, view)
            for line in shapely.get_parts(edges):
                if line.geom_type in ("LineString", "LinearRing"):
                    xs, ys = line.xy
                    ax.plot(xs, ys, color="0.55", lw=0.5, zorder=1)
            handles.append(Line2D([], [], color="0.55", lw=0.6, label="Tax parcel lines"))
        drew_context = False
        for role in _CONTEXT_ROLES:
            geom = context(role)
            if geom is None:
                continue
            outside = geom.difference(parcel)
            st = PIECE_STYLES[role]
            drew_context |= _draw(ax, outside, facecolor="white", edgecolor="0.6", hatch=st["hatch"], lw=0.4,
                                  zorder=2)
        overlay_handles = []
        for role, (label, dash) in _OVERLAY_STYLES.items():
            geom = context(role)
            if geom is None or geom.is_empty:
                continue
            edges = shapely.intersection(geom.boundary, view.buffer(-1))
            drawn = False
            for line in shapely.get_parts(edges):
                if line.geom_type in ("LineString", "LinearRing") and line.length > 0:
                    xs, ys = line.xy
                    ax.plot(xs, ys, color="black", lw=0.8, linestyle=dash, zorder=6)
                    drawn = True
            covers = geom.covers(parcel)
            if drawn or covers:
                text = fill(label) + (" (covers the parcel)" if covers else "")
                overlay_handles.append(Line2D([], [], color="black", lw=0.8, linestyle=dash, label=text))

        for row in analysis.lot.rows:
            if row.geometry is None or row.geometry.is_empty or not row.area_sqft:
                continue
            st = PIECE_STYLES.get(row.constraint, {"face": "0.8", "hatch": "//"})
            _draw(ax, row.geometry, facecolor=st["face"], edgecolor="black", hatch=st["hatch"], lw=0.3, zorder=4)
            short = _map_label(row.constraint)
            handles.append(Patch(facecolor=st["face"], edgecolor="black", hatch=st["hatch"],
                                 label=f"{short}: counts {row.countable_fraction:.0%}"))
        _draw(ax, parcel, facecolor="none", edgecolor="black", lw=2.0, zorder=8)
        handles.insert(0, Line2D([], [], color="black", lw=2.0, label="Parcel (gross area)"))
        if drew_context:
            handles.append(Patch(facecolor="white", edgecolor="0.6", hatch="...",
                                 label="Same patterns, lighter: outside the parcel"))
        handles.extend(overlay_handles)

        minx, miny, maxx, maxy = view.bounds
        ax.set_xlim(minx, maxx)
        ax.set_ylim(miny, maxy)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_linewidth(0.6)
        span = maxx - minx
        length = _nice_length(span)
        _scale_bar(ax, minx + span * 0.04, miny + span * 0.04, length, span * 0.012)
        _north_arrow(ax)

        # The legend sits below the map in its own strip.
        rows = (len(handles) + 1) // 2
        legend_h = 0.13 + 0.16 * rows
        total_h = width_in + legend_h
        fig.set_size_inches(width_in, total_h)
        ax.set_position((0.01, legend_h / total_h, 0.98, width_in / total_h * 0.98))
        fig.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 0.0), ncol=2, fontsize=6,
                   frameon=False, handlelength=2.2, handleheight=1.1, columnspacing=1.0, borderaxespad=0.3)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
        plt.close(fig)
    return buf.getvalue(), total_h / width_in


# ----------------------------------------------------------------------------------------------
# The PDF
# ----------------------------------------------------------------------------------------------


class _Report(FPDF):
    footer_text = ""

    def footer(self):
        self.set_y(-11)
        self.set_font(_FONT, "", 7)
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
    pdf.set_title(REPORT_TITLE)
    pdf.set_creator("sloat_core")
    return pdf


def _heading_lines(pdf: FPDF, text: str) -> None:
    pdf.ln(2.2)
    pdf.set_font(_FONT, "B", 10.5)
    pdf.cell(0, 5.5, _plain(text), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    y = pdf.get_y()
    pdf.set_line_width(0.3)
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


def _para(pdf: FPDF, text: str, size: float = 8, style: str = "", h: float = 3.8):
    pdf.set_font(_FONT, style, size)
    pdf.multi_cell(0, h, _plain(text), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)


def _table(pdf: FPDF, header: list[str], rows: list[list[str]], widths: tuple, align: tuple, *, size=7.5,
           bold_rows: Iterable[int] = ()):
    pdf.set_font(_FONT, "", size)
    bold = set(bold_rows)
    with pdf.table(col_widths=widths, text_align=align, line_height=size * _TABLE_LINE, headings_style=_HEAD,
                   borders_layout="SINGLE_TOP_LINE", padding=(_TABLE_PAD_Y, _TABLE_PAD_X), v_align="TOP",
                   width=pdf.epw,
                   cell_fill_mode="ROWS", cell_fill_color=(243, 243, 243)) as t:
        head = t.row()
        for h in header:
            head.cell(_plain(h))
        for i, r in enumerate(rows):
            row = t.row()
            for c in r:
                row.cell(_plain(c), style=FontFace(emphasis="BOLD") if i in bold else None)


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


def _events(events) -> list[dict]:
    out = []
    for e in events or []:
        d = e.to_dict() if hasattr(e, "to_dict") else dict(e)
        out.append(d)
    return sorted(out, key=lambda d: (str(d.get("date")), str(d.get("id"))))


def _build(analysis, layerset, *, events, notes, as_of: dt.date, level: int, figure=None) -> FPDF:
    r = analysis.result
    quote_len = (420, 220, 160, 130)[level]
    reason_len = (170, 110, 80, 0)[level]
    evidence_len = (150, 100, 70, 0)[level]
    notes_len = (2500, 1500, 800, 400)[level]
    max_events = (60, 30, 16, 8)[level]
    max_warnings = (12, 8, 5, 3)[level]
    illustrative = bool(getattr(layerset, "illustrative", None) if layerset is not None
                        else r.get("layers_illustrative"))

    pdf = _new_pdf()
    pdf.footer_text = (f"{REPORT_TITLE} · {_date_text(as_of)} · screening estimate, not a determination "
                       "(Sloatsburg Code ch. 402, Art. IX)")
    pdf.add_page()

    # Title block.
    pdf.set_font(_FONT, "B", 17)
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
        pdf.multi_cell(0, 4.2, _plain("ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA. " + _shorten(notice, 260)),
                       border=1, fill=True, align="L", padding=1.2, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_line_width(0.2)
    pdf.ln(1.5)
    parcel = r.get("parcel") or {}
    bits = []
    if parcel.get("sbl"):
        bits.append(f"SBL {parcel['sbl']}")
    if parcel.get("address"):
        bits.append(str(parcel["address"]))
    if parcel.get("source"):
        bits.append(f"outline: {_shorten(parcel['source'], 80)}")
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
    pdf.set_font(_FONT, "B", 9)
    pdf.cell(18, 4.5, "District:")
    pdf.set_font(_FONT, "", 9)
    pdf.multi_cell(0, 4.5, _plain(dtext), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)

    # Map (left) and key figures (right).
    png, ratio = figure or map_png(analysis, layerset)
    map_w = 92.0
    map_h = map_w * ratio
    top = pdf.get_y()
    pdf.image(io.BytesIO(png), x=pdf.l_margin, y=top, w=map_w, h=map_h,
              alt_text="Map of the parcel and its constraint pieces")
    x2 = pdf.l_margin + map_w + 5
    w2 = pdf.w - pdf.r_margin - x2
    pdf.set_xy(x2, top)

    def fig(label, value, *, bold=False, size=9):
        pdf.set_x(x2)
        pdf.set_font(_FONT, "", 7.5)
        pdf.set_text_color(70)
        pdf.cell(w2, 3.6, _plain(label), new_x=XPos.LEFT, new_y=YPos.NEXT)
        pdf.set_text_color(0)
        pdf.set_x(x2)
        pdf.set_font(_FONT, "B" if bold else "", size)
        pdf.multi_cell(w2, size * 0.47, _plain(value), align="L", new_x=XPos.LEFT, new_y=YPos.NEXT)
        pdf.ln(1.3)

    pdf.set_font(_FONT, "B", 10.5)
    pdf.set_x(x2)
    pdf.cell(w2, 5.5, "Lot area (§ 402-45A)", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.ln(0.8)
    fig("Gross area", _sqft(r.get("gross_area_sqft")) + _acres(r.get("gross_area_sqft")), bold=True, size=10)
    fig("Deducted for environmental constraints", _sqft(r.get("deducted_sqft")))
    net = r.get("net_lot_area_sqft")
    net_text = _sqft(net) + _acres(net)
    if r.get("net_lot_area_min_sqft") is not None and net is not None and r["net_lot_area_min_sqft"] < net - 0.5:
        net_text += f"; at least {_sqft(r['net_lot_area_min_sqft'])} if every unknown were constrained"
    fig("Net lot area (counts toward the minimum)", net_text, bold=True, size=10)
    mn = r.get("min_lot_area_sqft")
    fig(f"District minimum lot area{' (' + r['district'] + ')' if r.get('district') else ''}",
        (_sqft(mn) if mn is not None else "not set") + (" (local setting, to confirm with the Village)"
                                                       if r.get("min_lot_area_verify") else ""))
    # The verdict in a box: words, not colour.
    pdf.set_x(x2)
    pdf.set_line_width(0.6)
    pdf.set_font(_FONT, "B", 9.5)
    pdf.multi_cell(w2, 4.8, _plain(_verdict(r)), border=1, align="L", padding=1.5, new_x=XPos.LEFT,
                   new_y=YPos.NEXT)
    pdf.set_line_width(0.2)
    pdf.ln(2)
    if r.get("conventional_yield") is not None:
        fig("Lots of the district minimum the net area could hold",
            f"{r['conventional_yield']} (estimate; the Planning Board decides yield from a conventional "
            "plat, § 402-48E)", size=8)
    per = r.get("per_district") or []
    if len(per) > 1:
        fig("Split parcel, computed per district (§ 402-48I)",
            "; ".join(f"{p['district']}: net {_sqft(p['net_lot_area_sqft'])}" for p in per), size=8)
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
    fig("Cluster features (§ 402-48C)", ctext, size=8)
    needed = [p for p in r.get("permits", []) if p.get("required") is True]
    maybe = [p for p in r.get("permits", []) if p.get("required") is None]
    fig("Permits and reviews", f"{len(needed)} needed, {len(maybe)} to be determined (see page 2)"
        if needed or maybe else "None found", size=8)
    pdf.set_y(max(pdf.get_y(), top + map_h) + 2)

    # Deduction table.
    rows, bold = [], []
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
    rows.append(["Net lot area", _num(net), "", "", r.get("lot_area_citation", "§ 402-45A")])
    bold = [len(rows) - 3, len(rows) - 1]
    head = ["Constraint", "Area in parcel (sq ft)", "Counts", "Deducted (sq ft)", "§"]
    widths, align = (62, 32, 16, 30, 32), ("LEFT", "RIGHT", "RIGHT", "RIGHT", "LEFT")
    _heading(pdf, "Land that does not count toward minimum lot area (§ 402-45)",
             _first_rows(head, rows, widths, align))
    _table(pdf, head, rows, widths, align, bold_rows=bold)
    _para(pdf, "Where constraints overlap, each piece of land is counted once, at the lowest share that applies.",
          size=7, style="I", h=3.4)

    # Cluster features.
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

    # Permits and reviews.
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

    # Mitigation.
    m = r.get("mitigation") or {}
    if m.get("impacted_wetland_sqft") is not None:
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

    # Timeline.
    evs = _events(events)
    if evs:
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

    if notes and str(notes).strip():
        note_text = _shorten(str(notes), notes_len) if len(str(notes)) > notes_len else str(notes)
        _heading(pdf, "Notes", _first_lines(note_text, size=8))
        _para(pdf, note_text, size=8)

    # Load warnings of the layer set (unknown manifest keys, skipped features, schema doubts) come first.
    loaded = [f"Layer set: {w}" for w in (getattr(layerset, "warnings", ()) or ())]
    warnings = loaded + [w for w in r.get("warnings") or [] if w not in loaded]
    if warnings:
        _heading(pdf, "Points to check", _first_lines("• " + _shorten(warnings[0], 300), size=7.5, h=3.5))
        for w in warnings[:max_warnings]:
            _para(pdf, "• " + _shorten(w, 300), size=7.5, h=3.5)
        if len(warnings) > max_warnings:
            _para(pdf, f"• … and {len(warnings) - max_warnings} more in the on-screen analysis.", size=7.5, h=3.5)

    # The law behind the figures.
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

    def quote_opening(cite: str, quote: str) -> Callable[[Any], float]:
        def measure(p) -> float:  # the citation with the first two lines of its words
            p.set_font(_FONT, "B", 7.5)
            return 3.5 * _lines(p, cite, 0, 3.5) + _first_lines(quote, size=7.2, h=3.3)(p)
        return measure

    _heading(pdf, "The law behind these figures (quoted, shortened)", quote_opening(*quotes[0]) if quotes else None)
    for i, (cite, quote) in enumerate(quotes):
        if i:
            _keep_together(pdf, quote_opening(cite, quote)(pdf))
        pdf.set_font(_FONT, "B", 7.5)
        pdf.multi_cell(0, 3.5, _plain(cite), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font(_FONT, "", 7.2)
        pdf.multi_cell(0, 3.3, _plain(quote), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(0.6)

    # Disclaimers and versions.
    _heading(pdf, "Please note", _first_lines(r.get("disclaimer") or "", size=7.5, h=3.5))
    _para(pdf, r.get("disclaimer") or "", size=7.5, h=3.5)
    _para(pdf, "Who decides: the Planning Board, the Building Inspector and the Village Engineer, as named for "
               "each permit above; the County and State agencies listed decide their own reviews.", size=7.5, h=3.5)
    if illustrative:
        _para(pdf, "Illustrative sample, not official data: the map layers are made up for demonstration. "
                   "Do not rely on them for any property.", size=7.5, style="B", h=3.5)
    if r.get("min_lot_area_verify") or r.get("buffer_width_ft") is not None:
        _para(pdf, f"Local settings used (to confirm with the Village): buffer width {r.get('buffer_width_ft'):g} ft"
                   + (f"; minimum lot area {_sqft(mn)}" if mn is not None else "") + ".", size=7.5, h=3.5)
        if r.get("buffer_note"):
            _para(pdf, r["buffer_note"], size=7.5, h=3.5)
    pdf.ln(1)
    layers = f"{r.get('layers_name') or 'none'} version {r.get('layers_version') or 'unknown'}"
    _para(pdf, f"Date: {_date_text(as_of)}. Law parameters: {r.get('params_version')}. Law text sha256: "
               f"{LAW_TEXT_SHA256[:16]}. Data: {layers}"
               f"{' (illustrative sample)' if illustrative else ''}. sloat_core {r.get('tool_version')}.",
          size=7, h=3.3)
    return pdf


def report_pdf_bytes(analysis, layerset, *, timeline_events=None, notes: str | None = None,
                     as_of: dt.date | None = None) -> bytes:
    """The pre-application summary as PDF bytes (one to three Letter pages).

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis
        From ``analyze_parcel``.
    layerset : LayerSet or None
        For the map's context and the "illustrative sample" notice.
    timeline_events : list of Event or dict, optional
        Deadlines to list (``sloat_core.rules.clocks.timeline_events``).
    notes : str, optional
        Free text, printed as plain text.
    as_of : datetime.date, optional
        The date printed on the report; default today.

    Returns
    -------
    bytes
    """
    as_of = as_of or dt.date.today()
    pdf = None
    figure = map_png(analysis, layerset)
    for level in range(4):
        pdf = _build(analysis, layerset, events=timeline_events, notes=notes, as_of=as_of, level=level,
                     figure=figure)
        if pdf.page_no() <= MAX_PAGES:
            break
    return bytes(pdf.output())


def write_report(analysis, layerset, out_path, *, timeline_events=None, notes: str | None = None,
                 as_of: dt.date | None = None) -> Path:
    """Write the pre-application summary PDF to `out_path` (see :func:`report_pdf_bytes`); returns the path."""
    data = report_pdf_bytes(analysis, layerset, timeline_events=timeline_events, notes=notes, as_of=as_of)
    out = Path(out_path)
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(out)
    return out
