"""The PDFs are their HTML laid out by WeasyPrint as PDF/UA-1, and a screen reader reads them: the summary and the
handout carry the PDF/UA identification (XMP ``pdfuaid:part`` 1), a real structure tree (H1/H2, P, L/LI,
Table/THead/TBody/TR/TH/TD with header cells scoped, figures with alternative text), the document's language and
its title shown (DisplayDocTitle), read back with pypdf; every marked-content id the tree names is in the page's
content and every one in the content is in the tree, the running header and footer being artifacts; the PDF says
what its HTML says (every heading in order, and its words); and the PDF/UA checker of PyPI finds nothing.
"""

from __future__ import annotations

import io
import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NumberObject

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sample_lot import DAY  # noqa: E402
from sloat_core.outputs.handout import HANDOUT_TITLE, fitted_handout  # noqa: E402
from sloat_core.outputs.html_docs import page  # noqa: E402
from sloat_core.outputs.pdf import pdf_bytes  # noqa: E402
from sloat_core.outputs.report import REPORT_TITLE, fitted_summary  # noqa: E402


def _obj(x):
    return x.get_object() if isinstance(x, IndirectObject) else x


def _read_object_streams(reader: PdfReader) -> None:
    """Every object the PDF keeps in its object streams, read in one pass per stream into the reader's cache.

    pypdf reads such an object by walking its stream's index from the start each time (quadratic in the objects:
    a tagged summary's structure tree holds over a thousand, most of this module's time); read here in one walk,
    each is the object pypdf would read (:func:`pypdf.generic.read_object` at the index's offset)."""
    from pypdf._utils import read_non_whitespace
    from pypdf.generic import read_object

    streams: dict[int, set[int]] = {}
    for idnum, (stmnum, _idx) in reader.xref_objStm.items():
        streams.setdefault(stmnum, set()).add(idnum)
    for stmnum, wanted in streams.items():
        stm = IndirectObject(stmnum, 0, reader).get_object()
        data = stm.get_data()
        first, count = int(stm["/First"]), int(stm["/N"])
        index = [int(v) for v in data[:first].split()[:2 * count]]
        stream = io.BytesIO(data)
        for objnum, offset in zip(index[0::2], index[1::2], strict=True):
            if objnum not in wanted or reader.cache_get_indirect_object(0, objnum) is not None:
                continue
            stream.seek(first + offset)
            read_non_whitespace(stream)
            stream.seek(-1, 1)
            reader.cache_indirect_object(0, objnum, read_object(stream, reader))


class Tree:
    """A PDF's structure tree as read: each element's type, attributes, alternative text, marked-content ids
    (with their page) and kids."""

    def __init__(self, data: bytes):
        self.reader = PdfReader(io.BytesIO(data))
        _read_object_streams(self.reader)
        self.catalog = self.reader.trailer["/Root"]
        self.page_ids = {p.indirect_reference.idnum: n for n, p in enumerate(self.reader.pages)}
        self.elems: list[dict] = []
        root = _obj(self.catalog["/StructTreeRoot"])
        self.top = [self._read(k, None, None) for k in self._kids(root)]

    @staticmethod
    def _kids(node) -> list:
        if "/K" not in node:
            return []
        k = _obj(node.raw_get("/K"))
        return list(k) if isinstance(k, ArrayObject) else [k]

    def _read(self, node, parent, page):
        node = _obj(node)
        pg = node.raw_get("/Pg") if "/Pg" in node else None
        page = self.page_ids[pg.idnum] if isinstance(pg, IndirectObject) else page
        elem = {"type": str(node.get("/S")), "alt": node.get("/Alt"), "attrs": _obj(node.get("/A")),
                "parent": parent, "mcids": [], "kids": []}
        self.elems.append(elem)
        for kid in self._kids(node):
            if isinstance(kid, NumberObject) or isinstance(kid, int):
                elem["mcids"].append((page, int(kid)))
            elif isinstance(_obj(kid), DictionaryObject) and _obj(kid).get("/Type") == "/MCR":
                mcr = _obj(kid)
                elem["mcids"].append((self.page_ids[mcr.raw_get("/Pg").idnum], int(mcr["/MCID"])))
            else:
                elem["kids"].append(self._read(kid, elem, page))
        return elem

    def types(self) -> Counter:
        return Counter(e["type"] for e in self.elems)

    def content_mcids(self) -> set[tuple[int, int]]:
        found = set()
        for n, pg in enumerate(self.reader.pages):
            content = pg.get_contents().get_data().decode("latin-1")
            found |= {(n, int(m)) for m in re.findall(r"<<\s*/MCID (\d+)\s*>>\s*BDC", content)}
        return found

    def artifacts(self, n: int) -> list[str]:
        """The text shown inside the pagination artifacts of page ``n`` (the running header and footer), as the
        glyph runs of the content stream (``(...)``/``<...>`` strings of its text operators), counted."""
        content = self.reader.pages[n].get_contents().get_data().decode("latin-1")
        return re.findall(r"/Artifact\s*<<\s*/Type /Pagination\s*>>\s*BDC(.*?)EMC", content, re.S)


@pytest.fixture(scope="module")
def report_doc(subdivision_lot):
    layers, analysis = subdivision_lot
    return fitted_summary(analysis, layers, as_of=DAY, notes="<b>a note</b>")


@pytest.fixture(scope="module")
def handout_doc(subdivision_lot):
    layers, analysis = subdivision_lot
    return fitted_handout(analysis, layers, as_of=DAY)


@pytest.fixture(scope="module")
def report_pdf(report_doc) -> bytes:
    """The summary's PDF, written once for the module's claims (each writing is a WeasyPrint run)."""
    return report_doc.pdf()


@pytest.fixture(scope="module")
def handout_pdf(handout_doc) -> bytes:
    """The handout's PDF, written once for the module's claims."""
    return handout_doc.pdf()


@pytest.fixture(scope="module")
def report(report_pdf):
    return Tree(report_pdf)


@pytest.fixture(scope="module")
def handout(handout_pdf):
    return Tree(handout_pdf)


@pytest.mark.parametrize("which,title", [("report", REPORT_TITLE), ("handout", HANDOUT_TITLE)])
def test_the_language_the_title_shown_and_the_pdf_ua_identification_are_set(which, title, request):
    tree = request.getfixturevalue(which)
    assert tree.catalog["/Lang"] == "en-US"
    assert tree.catalog["/MarkInfo"]["/Marked"] in (True, "true")
    assert _obj(tree.catalog["/ViewerPreferences"])["/DisplayDocTitle"] in (True, "true")
    xmp = tree.reader.xmp_metadata.stream.get_data().decode("utf-8")
    assert 'pdfuaid:part="1"' in xmp or "<pdfuaid:part>1</pdfuaid:part>" in xmp
    assert f">{title}</rdf:li>" in xmp  # dc:title, the title shown


def test_the_summary_has_headings_paragraphs_lists_and_tables(report):
    types = report.types()
    assert types["/H1"] == 1
    assert types["/H2"] >= 6  # a heading per section
    assert types["/P"] >= 10 and types["/L"] >= 1 and types["/LI"] >= 3
    assert types["/Table"] >= 3 and types["/TR"] >= 20 and types["/TH"] >= 10 and types["/TD"] >= 60


def _rows(table: dict) -> list[tuple[str, dict]]:
    """A table's rows with the part they sit in (/THead or /TBody)."""
    return [(part["type"], row) for part in table["kids"] if part["type"] in ("/THead", "/TBody")
            for row in part["kids"] if row["type"] == "/TR"]


def test_tables_nest_rows_and_header_cells_scoped_to_their_column_or_row(report):
    tables = [e for e in report.elems if e["type"] == "/Table"]
    for t in tables:
        rows = _rows(t)
        assert rows and all(r["type"] == "/TR" for _, r in rows)
        assert {k["type"] for k in t["kids"]} <= {"/Caption", "/THead", "/TBody"}
        part, head = rows[0]
        assert part == "/THead" and head["kids"] and all(c["type"] == "/TH" for c in head["kids"])
        assert all(c["attrs"]["/Scope"] == "/Column" for c in head["kids"])
        for part, r in rows[1:]:
            assert part == "/TBody"
            assert all(c["type"] in ("/TH", "/TD") for c in r["kids"])
            assert all(c["attrs"]["/Scope"] == "/Row" for c in r["kids"] if c["type"] == "/TH")
            assert all(c["attrs"].get("/Headers") for c in r["kids"] if c["type"] == "/TD")  # its header cells
    # The approvals table has its own header cells.
    assert any(len(_rows(t)[0][1]["kids"]) == 5 for t in tables)


def test_lists_hold_their_items(report, handout):
    for tree in (report, handout):
        lists = [e for e in tree.elems if e["type"] == "/L"]
        assert lists and all(k["type"] == "/LI" for lst in lists for k in lst["kids"])
        assert all(lst["kids"] for lst in lists)


def test_figures_carry_alternative_text_that_says_what_the_map_shows(report, handout):
    for tree in (report, handout):
        figures = [e for e in tree.elems if e["type"] == "/Figure"]
        assert len(figures) == 1  # the map; the handout's key swatches are decorative, not figures
        alt = str(figures[0]["alt"])
        assert alt.startswith("Map of the parcel") and "hatched" in alt


def test_the_handout_has_its_headings_and_lists(handout):
    types = handout.types()
    assert types["/H1"] == 1 and types["/H2"] >= 5  # the map key and the four sections
    assert types["/LI"] >= 15 and types["/P"] >= 3


@pytest.mark.parametrize("which", ["report", "handout"])
def test_every_marked_content_is_in_the_tree_and_every_tree_leaf_in_the_content(which, request):
    tree = request.getfixturevalue(which)
    in_tree = [m for e in tree.elems for m in e["mcids"]]
    assert len(in_tree) == len(set(in_tree))  # no content claimed twice
    assert set(in_tree) == tree.content_mcids()
    # Every element holds content, but an empty cell, WeasyPrint's NonStruct of a box that draws nothing and the
    # span of a map key's swatch (drawn as a background: an artifact).
    assert all(e["mcids"] or e["kids"] or e["type"] in ("/TD", "/TH", "/NonStruct", "/Span") for e in tree.elems)


@pytest.mark.parametrize("which", ["report", "handout"])
def test_the_running_header_and_footer_are_artifacts_on_every_page(which, request):
    tree = request.getfixturevalue(which)
    for n in range(len(tree.reader.pages)):
        runs = tree.artifacts(n)
        assert len(runs) >= 3, runs  # the parcel (or the title), the date, the page number
        assert all(re.search(r"T[Jj]", run) for run in runs)  # each holds text, shown as an artifact


def _words(text: str) -> list[str]:
    return [w for w in " ".join(text.replace("\u00a0", " ").split()).split(" ") if w]


def _html_text(html_page: str) -> tuple[list[str], str]:
    """The headings of a page (h1, h2, h3, in order) and the text of its body."""
    import html as html_lib

    body = html_page.split("<main>", 1)[1].split("</main>", 1)[0]
    headings = [" ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", h)).split())
                for h in re.findall(r"<h[123][^>]*>(.*?)</h[123]>", body, re.S)]
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", body.replace("<br>", " ")))
    return headings, text


def assert_pdf_says(data: bytes, headings: list[str], text: str) -> None:
    """Every heading of the HTML is in the PDF, in order, and every word of its body, in order (pypdf may glue two
    table cells together: the spaces are set aside; the PDF's running header and footer, list marks and repeated
    table heads come between them)."""
    pdf = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)
    at = 0
    for heading in headings:
        found = pdf.find(heading, at)
        assert found >= 0, f"heading {heading!r} missing, or out of order, in the PDF"
        at = found + len(heading)
    flat, at = "".join(pdf.split()), 0
    for n, word in enumerate(_words(text)):
        found = flat.find(word, at)
        assert found >= 0, f"word {n} {word!r} of the HTML missing, or out of order, in the PDF: {flat[at:at + 80]!r}"
        at = found + len(word)


@pytest.mark.parametrize("which", ["report_doc", "handout_doc"])
def test_the_pdf_says_what_its_html_says_every_heading_in_order_and_its_words(which, request):
    doc = request.getfixturevalue(which)
    headings, text = _html_text(doc.html)
    assert_pdf_says(request.getfixturevalue(which.replace("_doc", "_pdf")), headings, text)


def test_the_pdf_ua_checker_finds_nothing_to_fix(report_pdf, handout_pdf, tmp_path):
    """The machine-checkable part of PDF/UA-1 that the ``pdfua`` package of PyPI checks (requirements-test.txt);
    a conformance claim needs veraPDF besides."""
    pdfua = pytest.importorskip("pdfua")
    from pdfua.model import Severity
    from pdfua.validator import Validator

    for name, data in (("summary", report_pdf), ("handout", handout_pdf)):
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(data)
        report = Validator().validate(str(path))
        found = [(f.rule_id, f.message) for f in report.findings if f.severity >= Severity.WARNING]
        assert not found, (name, found[:5], pdfua.__version__)


def test_the_reader_fails_on_an_untagged_pdf():
    """The checks above can fail: WeasyPrint without the PDF/UA variant writes no structure tree."""
    from weasyprint import HTML

    data = HTML(string=page(REPORT_TITLE, ["<h1>Pre-application summary</h1>"])).write_pdf()
    reader = PdfReader(io.BytesIO(data))
    assert "/StructTreeRoot" not in reader.trailer["/Root"]
    assert "/StructTreeRoot" in PdfReader(io.BytesIO(pdf_bytes(page(REPORT_TITLE, ["<h1>x</h1>"])))).trailer["/Root"]
