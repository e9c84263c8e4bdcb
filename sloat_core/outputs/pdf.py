"""A document's PDF: its HTML (one builder per document) rendered by WeasyPrint as PDF/UA-1.

The documents (the pre-application summary, :mod:`sloat_core.outputs.report.document`; the plain handout,
:mod:`sloat_core.outputs.handout`) are each written once, as HTML (:mod:`sloat_core.outputs.html_docs`); the PDF
is that HTML laid out on Letter pages by WeasyPrint with ``pdf_variant="pdf/ua-1"``: the XMP metadata says
``pdfuaid:part 1``, the structure tree holds the headings, paragraphs, lists, tables (header cells ``TH``) and
figures (with their ``alt`` text), the catalog the document's language (``/Lang``, from ``<html lang>``) and
``DisplayDocTitle`` (the title shown is the ``<title>``).

Two things WeasyPrint leaves undone are finished here, on its PDF objects before they are written
(:func:`_finish`):

* the running header and footer (CSS ``@page`` margin boxes) are marked as pagination artifacts
  (``/Artifact <</Type /Pagination>> BDC``): WeasyPrint marks them as ``/Span`` content whose elements it keeps
  out of the tree (PDF 1.7 has no artifact element), so a reader would find content that belongs to no element;
* each header cell gets its ``/Scope``: ``/Column`` in the table's head, ``/Row`` in its body (a row's or a row
  group's name), besides the ``/Headers`` WeasyPrint gives the data cells.

What WeasyPrint does not do: an element that runs onto the next page (a long paragraph, a table) is tagged as
one element per page, one after the other in the tree. Readers read them in order; the words are all there.

The fonts are DejaVu Sans, shipped with matplotlib (:data:`sloat_core.outputs.report.text.FONT_DIR`), given to
WeasyPrint as ``@font-face`` rules here, so the PDF does not depend on the fonts the machine has; the web pages
name the family and fall back to the reader's own fonts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from sloat_core.outputs.report.text import FONT_DIR

__all__ = ["PDF_VARIANT", "Rendered", "pdf_bytes", "render", "write_atomic"]

#: The PDF variant WeasyPrint writes: PDF/UA-1 (ISO 14289-1), tagged.
PDF_VARIANT = "pdf/ua-1"

_FACES = (("DejaVuSans.ttf", "normal", "normal"), ("DejaVuSans-Bold.ttf", "bold", "normal"),
          ("DejaVuSans-Oblique.ttf", "normal", "italic"), ("DejaVuSans-BoldOblique.ttf", "bold", "italic"))


@functools.lru_cache(maxsize=1)
def _fonts():
    """The ``@font-face`` rules of DejaVu Sans (matplotlib's files) and WeasyPrint's font configuration."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    config = FontConfiguration()
    rules = "\n".join(f'@font-face {{ font-family: "DejaVu Sans"; src: url("{(FONT_DIR / name).as_uri()}"); '
                      f"font-weight: {weight}; font-style: {style}; }}"
                      for name, weight, style in _FACES if (FONT_DIR / name).is_file())
    return CSS(string=rules, font_config=config), config


@dataclass
class Rendered:
    """A document laid out on its pages: ``pages`` counts them, :meth:`pdf` writes the PDF/UA-1 bytes."""

    html: str
    document: object

    @property
    def pages(self) -> int:
        return len(self.document.pages)

    def pdf(self) -> bytes:
        return self.document.write_pdf(pdf_variant=PDF_VARIANT, finisher=_finish)


def render(html: str) -> Rendered:
    """Lay ``html`` out on pages (print media, its ``@page`` rules) with DejaVu Sans; nothing is fetched from
    outside (the documents inline their images as ``data:`` URIs)."""
    from weasyprint import HTML

    css, config = _fonts()
    document = HTML(string=html, url_fetcher=_fetcher()).render(stylesheets=[css], font_config=config)
    return Rendered(html=html, document=document)


def pdf_bytes(html: str) -> bytes:
    """``html`` as PDF/UA-1 bytes (:func:`render`, then :meth:`Rendered.pdf`)."""
    return render(html).pdf()


def write_atomic(out_path, data: bytes | str) -> Path:
    """Write ``data`` to ``out_path`` through a ``.part`` file renamed into place; returns the path."""
    out = Path(out_path)
    tmp = out.with_name(out.name + ".part")
    if isinstance(data, str):
        tmp.write_text(data, encoding="utf-8")
    else:
        tmp.write_bytes(data)
    tmp.replace(out)
    return out


@functools.lru_cache(maxsize=1)
def _fetcher():
    """WeasyPrint's fetcher for ``data:`` URIs and the font files named above; anything else is refused (a
    document never loads a resource from outside, whatever text it holds)."""
    from weasyprint.urls import URLFetcher

    fonts = FONT_DIR.as_uri()

    class _InlineOnly(URLFetcher):
        def fetch(self, url, headers=None):
            if not (url.startswith("data:") or url.startswith(fonts + "/")):
                raise ValueError(f"not fetched: {url[:60]}")
            return super().fetch(url, headers)

    return _InlineOnly(allowed_protocols=("data", "file"))


# ------------------------------------------------------------------------------------------------------------
# Finishing WeasyPrint's PDF objects (pydyf) before they are written
# ------------------------------------------------------------------------------------------------------------


def _num(ref) -> int:
    """The object number of a pydyf reference (``b"12 0 R"``)."""
    return int(bytes(ref).split()[0]) if isinstance(ref, (bytes, bytearray)) else int(str(ref).split()[0])


def _finish(document, pdf) -> None:
    """The margin boxes' content marked as pagination artifacts, header cells scoped (see the module's text)."""
    import pydyf

    objects = pdf.objects
    catalog = pdf.catalog
    if "StructTreeRoot" not in catalog:
        return
    root = objects[_num(catalog["StructTreeRoot"])]
    reachable: set[int] = set()
    stack = [objects[_num(k)] for k in root["K"]]
    while stack:
        elem = stack.pop()
        if elem.number in reachable:
            continue
        reachable.add(elem.number)
        for kid in elem.get("K", ()):
            if isinstance(kid, (bytes, bytearray)):
                obj = objects[_num(kid)]
                if isinstance(obj, pydyf.Dictionary) and obj.get("Type") == "/StructElem":
                    stack.append(obj)
    for number in reachable:
        elem = objects[number]
        if elem.get("S") == "/TH":
            row = objects[_num(elem["P"])]
            group = objects[_num(row["P"])] if "P" in row else None
            scope = "/Column" if group is not None and group.get("S") == "/THead" else "/Row"
            attrs = elem.get("A")
            if not isinstance(attrs, pydyf.Dictionary):
                attrs = elem["A"] = pydyf.Dictionary({"O": "/Table"})
            attrs["Scope"] = scope
    nums = objects[_num(root["ParentTree"])]["Nums"]
    page_refs = pdf.page_references
    for i in range(0, len(nums), 2):
        page_index, marks = nums[i], nums[i + 1]
        if not isinstance(marks, pydyf.Array) or page_index >= len(page_refs):
            continue
        orphans = {mcid for mcid, ref in enumerate(marks)
                   if isinstance(ref, (bytes, bytearray)) and _num(ref) not in reachable}
        if not orphans:
            continue
        for mcid in orphans:
            marks[mcid] = "null"
        page = objects[_num(page_refs[page_index])]
        contents = page["Contents"]
        for ref in contents if isinstance(contents, pydyf.Array) else [contents]:
            _mark_artifacts(objects[_num(ref)], orphans)


def _mark_artifacts(stream, mcids: set[int]) -> None:
    """In a content stream, each marked-content sequence of ``mcids`` (``/Tag <</MCID n>> BDC``) becomes a
    pagination artifact (``/Artifact <</Type /Pagination>> BDC``)."""
    import pydyf

    ops = stream.stream
    for j in range(1, len(ops) - 1):
        props = ops[j]
        if (isinstance(props, pydyf.Dictionary) and props.get("MCID") in mcids and ops[j + 1] == b"BDC"
                and isinstance(ops[j - 1], str) and ops[j - 1].startswith("/")):
            ops[j - 1] = "/Artifact"
            ops[j] = pydyf.Dictionary({"Type": "/Pagination"})
