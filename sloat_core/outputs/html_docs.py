"""The documents as HTML, the one source of each: the web page a browser shows and prints, and the page
WeasyPrint lays out as the PDF (:mod:`sloat_core.outputs.pdf`).

This module is the kit the documents are written with; each document has one builder of its own:

* the pre-application summary: :func:`sloat_core.outputs.report.document.summary_html`;
* the plain handout: :func:`sloat_core.outputs.handout.handout_html`;
* the plan's lot table: :func:`sloat_core.outputs.plan_document.plan_html` (its section, printed in the summary too,
  :func:`~sloat_core.outputs.plan_document.plan_section`).

Every page is one self-contained HTML file (the map inlined as a PNG ``data:`` URI with its alternative text, no
script, no outside resource): ``lang``, a ``<title>``, one ``<h1>`` and an ``<h2>`` per section, real tables with
``<th scope="col">`` (and ``scope="row"`` / ``"rowgroup"`` where a row or a group is named) whose head repeats on
each printed page, lists as lists, and a print style sheet (:func:`page`): Letter, its margins, a running header
with the parcel and the date and a footer with the page number (CSS ``@page`` margin boxes), black on white.

Adding a document (as the plan's lot table was): write one builder, ``plan_html(plan, ...) -> str``,
that returns :func:`page` with the document's title, its body (:func:`table`, :func:`ul`, :func:`p`,
:func:`img`), its running header (:func:`page`'s ``header_left`` / ``header_right``) and its own print rules
(``print_css``); its PDF is then ``sloat_core.outputs.pdf.pdf_bytes(lot_table_html(...))``, and the tests of
tests/outputs/test_documents_pdf.py read it back the same way.

Everything typed by a user or read from a file (the case title, the notes, addresses, owners, layer notices)
is escaped with :func:`esc` before it is written (and with :func:`css_string` in the style sheet's running
header): no markup from the input is ever interpreted.
"""

from __future__ import annotations

import base64
import html
import re

__all__ = ["LANG", "css_string", "esc", "img", "p", "page", "print_page", "table", "ul"]

#: The documents' language (BCP 47): ``<html lang>``, and so the PDF's ``/Lang``.
LANG = "en-US"

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")

#: On screen: a readable web page (the print rules of each document are its own, :func:`page`).
_SCREEN_CSS = """
:root { color: #111; background: #fff; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; line-height: 1.45; }
h1, h2, h3 { line-height: 1.2; }
.notice { border: 2px solid #111; background: #eee; font-weight: bold; }
.verdict { border: 2px solid #111; font-weight: bold; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; }
thead { display: table-header-group; } tr { break-inside: avoid; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
figure img { height: auto; }
.key { list-style: none; padding-left: 0; }
.swatch { display: inline-block; background-size: 100% 100%; background-repeat: no-repeat; vertical-align: middle;
          border: 1px solid #999; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
blockquote { border-left: 3px solid #999; }
.notes { white-space: pre-wrap; }
.small { font-weight: normal; }
tr.total th, tr.total td { font-weight: bold; }
h2 { break-after: avoid; } h3 { break-after: avoid; }
@media screen {
  body { font-size: 1rem; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; }
  h1 { font-size: 1.8rem; margin: 0 0 .3rem; } h2 { font-size: 1.3rem; margin: 1.4rem 0 .4rem;
       border-bottom: 2px solid #333; } h3 { font-size: 1.05rem; margin: .8rem 0 .2rem; }
  .notice, .verdict { padding: .4rem .6rem; } .verdict { display: inline-block; }
  table { margin: .3rem 0; } th, td { border: 1px solid #777; padding: .25rem .4rem; }
  thead th { background: #e2e2e2; } tbody th[scope=rowgroup] { background: #f0f0f0; }
  figure { margin: .6rem 0; } figure img { max-width: min(100%, 30rem); border: 1px solid #777; }
  .swatch { width: 2.2rem; height: 1.25rem; margin-right: .4rem; }
  blockquote { margin: .2rem 0 .6rem 1rem; padding-left: .6rem; }
  .small { font-size: .95rem; }
  a:focus, a:hover { outline: 3px solid #1a4f9c; }
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


def css_string(value) -> str:
    r"""Any value as a CSS string (its quotes included) that nothing in it can end: every character but letters,
    digits, spaces and a few marks written as a CSS escape (so ``"``, ``\`` and ``</style>`` stay text).

    >>> css_string('12 Main St "A" </style>')
    '"12 Main St \\22 A\\22  \\3c /style\\3e "'
    """
    safe = " .,:;·§()-'_/#&+"
    return '"' + "".join(ch if ch.isalnum() or ch in safe else f"\\{ord(ch):x} " for ch in _CONTROL_RE.sub(
        "", " ".join(str(value or "").split()))) + '"'


def page(title: str, body: list[str], *, print_css: str = "", header_left: str = "", header_right: str = "",
         footer_left: str = "", margin_pt: float = 8.0) -> str:
    """A document: ``<html lang>``, its ``<title>``, the screen style, then its print rules: Letter with 12 mm
    above and 14 mm beside and below, a running header (``header_left`` and ``header_right``: the parcel and
    the date) and a footer (``footer_left``, and "page N of M") in the page's margins at ``margin_pt``, then
    the document's own ``print_css``. ``body`` is the HTML of the main content, already escaped."""
    margin = (f"font-family: \"DejaVu Sans\", Verdana, Arial, sans-serif; font-size: {margin_pt:g}pt; "
              "color: #333;")
    print_rules = f"""
@media print {{
  @page {{ size: Letter; margin: 12mm 14mm 14mm 14mm;
    @top-left {{ content: {css_string(header_left)}; {margin} vertical-align: bottom; padding-bottom: 1.5mm; }}
    @top-right {{ content: {css_string(header_right)}; {margin} vertical-align: bottom; padding-bottom: 1.5mm; }}
    @bottom-left {{ content: {css_string(footer_left)}; {margin} vertical-align: top; padding-top: 2mm; }}
    @bottom-right {{ content: "page " counter(page) " of " counter(pages); {margin} vertical-align: top;
                     padding-top: 2mm; white-space: nowrap; }} }}
  html {{ background: #fff; }} body {{ margin: 0; max-width: none; color: #000; }}
  /* the words as they are (no kerning split, no ligature), and each block painted in the HTML's order, a
     floated map too: the PDF's text reads in the page's order */
  body {{ font-kerning: none; font-variant-ligatures: none; }}
  main > * {{ position: relative; }}
  .noprint {{ display: none; }}
{print_css}
}}
"""
    return ("<!DOCTYPE html>\n"
            f'<html lang="{LANG}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{_SCREEN_CSS}{print_rules}</style>\n</head>\n<body>\n<main>\n"
            + "\n".join(body) + "\n</main>\n</body>\n</html>\n")


def _cls(cls: str) -> str:
    return f' class="{cls}"' if cls else ""


def img(png: bytes, alt: str) -> str:
    """An image inlined as a PNG ``data:`` URI with its alternative text."""
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{esc(alt)}">'


def table(caption: str, head: list[str], rows: list[list[str]], *, num_cols: tuple[int, ...] = (),
          row_headers: bool = True, cls: str = "", bold_rows: tuple[int, ...] = ()) -> str:
    """A real table: a caption, column headers (``scope="col"``) and, when ``row_headers``, each row's first cell
    as its header (``scope="row"``); ``num_cols`` are right-aligned, ``bold_rows`` (totals) in bold, ``cls`` names
    the table for the document's print rules (its column widths)."""
    out = [f"<table{_cls(cls)}>\n<caption>{esc(caption)}</caption>\n<thead><tr>"
           + "".join(f'<th scope="col">{esc(h)}</th>' for h in head) + "</tr></thead>\n<tbody>"]
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            text = esc(c).replace("\n", "<br>")
            if i == 0 and row_headers:
                cells.append(f'<th scope="row">{text}</th>')
            else:
                cells.append(f'<td{_cls("num" if i in num_cols else "")}>{text}</td>')
        out.append(f"<tr{_cls('total' if len(out) - 1 in bold_rows else '')}>" + "".join(cells) + "</tr>")
    out.append("</tbody>\n</table>")
    return "\n".join(out)


def ul(items, *, ordered: bool = False, cls: str = "") -> str:
    """A list, each item escaped (numbered when ``ordered``)."""
    tag = "ol" if ordered else "ul"
    return f"<{tag}{_cls(cls)}>" + "".join(f"<li>{esc(i)}</li>" for i in items) + f"</{tag}>"


def p(text, cls: str = "") -> str:
    """A paragraph of plain text (escaped)."""
    return f"<p{_cls(cls)}>{esc(text)}</p>"


def print_page(document_html: str, *, title: str | None = None) -> str:
    """A small page that holds ``document_html`` in a frame and opens the browser's print dialog on it as soon
    as it has loaded (the app's "Print the handout": one click). The document is escaped into ``srcdoc``; the
    frame is named ``title`` (default: the document's own title)."""
    if title is None:
        found = re.search(r"<title>(.*?)</title>", document_html, re.S)
        title = html.unescape(found.group(1)) if found else "The document"
    return (f'<iframe id="doc" title="{esc(title)}, to print" srcdoc="{esc(document_html)}" '
            'style="width:1px;height:1px;border:0;position:absolute;left:-9999px"></iframe>\n'
            "<script>\n"
            "const f = document.getElementById('doc');\n"
            "f.addEventListener('load', () => { f.contentWindow.focus(); f.contentWindow.print(); });\n"
            "</script>\n")
