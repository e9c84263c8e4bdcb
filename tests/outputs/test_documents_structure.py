"""The documents a screen reader reads: the PDF summary and the handout carry a real structure
tree (H1/H2, P, L/LI, Table/TR/TH/TD with header cells scoped to their column, figures with alternative text), the
document's language and its title shown (DisplayDocTitle), read back with pypdf; and every marked-content id the
tree names is in the page's content, and every one in the content is in the tree (nothing orphaned).
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
from sloat_core.outputs.handout import HANDOUT_TITLE, handout_pdf_bytes  # noqa: E402
from sloat_core.outputs.report import REPORT_TITLE, report_pdf_bytes  # noqa: E402


def _obj(x):
    return x.get_object() if isinstance(x, IndirectObject) else x


class Tree:
    """A PDF's structure tree as read: each element's type, attributes, alternative text, marked-content ids
    (with their page) and kids."""

    def __init__(self, data: bytes):
        self.reader = PdfReader(io.BytesIO(data))
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
        for n, page in enumerate(self.reader.pages):
            content = page.get_contents().get_data().decode("latin-1")
            found |= {(n, int(m)) for m in re.findall(r"<<\s*/MCID (\d+)\s*>>\s*BDC", content)}
        return found


@pytest.fixture(scope="module")
def report(subdivision_lot):
    layers, analysis = subdivision_lot
    return Tree(report_pdf_bytes(analysis, layers, as_of=DAY, notes="<b>a note</b>"))


@pytest.fixture(scope="module")
def handout(subdivision_lot):
    layers, analysis = subdivision_lot
    return Tree(handout_pdf_bytes(analysis, layers, as_of=DAY))


@pytest.mark.parametrize("which,title", [("report", REPORT_TITLE), ("handout", HANDOUT_TITLE)])
def test_the_language_and_the_title_shown_are_set(which, title, request):
    tree = request.getfixturevalue(which)
    assert tree.catalog["/Lang"] == "en-US"
    assert tree.catalog["/MarkInfo"]["/Marked"] in (True, "true")
    assert _obj(tree.catalog["/ViewerPreferences"])["/DisplayDocTitle"] in (True, "true")
    assert tree.reader.metadata.title == title


def test_the_summary_has_headings_paragraphs_lists_and_tables(report):
    types = report.types()
    assert types["/H1"] == 1
    assert types["/H2"] >= 6  # a heading per section
    assert types["/P"] >= 10 and types["/L"] >= 1 and types["/LI"] >= 3
    assert types["/Table"] >= 3 and types["/TR"] >= 20 and types["/TH"] >= 10 and types["/TD"] >= 60


def test_tables_nest_rows_and_header_cells_scoped_to_their_column(report):
    tables = [e for e in report.elems if e["type"] == "/Table"]
    for t in tables:
        rows = t["kids"]
        assert rows and all(r["type"] == "/TR" for r in rows)
        heads = rows[0]["kids"]
        assert heads and all(c["type"] == "/TH" for c in heads)
        assert all(c["attrs"]["/Scope"] == "/Column" for c in heads)
        for r in rows[1:]:
            assert all(c["type"] == "/TD" for c in r["kids"])
            assert len(r["kids"]) == len(heads)
    # The approvals table has its own header cells.
    assert any(len(t["kids"][0]["kids"]) == 6 for t in tables)


def test_lists_hold_their_items(report, handout):
    for tree in (report, handout):
        lists = [e for e in tree.elems if e["type"] == "/L"]
        assert lists and all(k["type"] == "/LI" for lst in lists for k in lst["kids"])
        assert all(lst["kids"] for lst in lists)


def test_figures_carry_alternative_text_that_says_what_the_map_shows(report, handout):
    for tree in (report, handout):
        figures = [e for e in tree.elems if e["type"] == "/Figure"]
        assert len(figures) == 1
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
    # An element that runs onto the next page keeps one element with content on both pages.
    assert all(e["mcids"] or e["kids"] for e in tree.elems)


def test_the_reader_fails_on_an_untagged_pdf():
    """The checks above can fail: fpdf2's own output (no structure but a figure) has no headings."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(0, 10, "Pre-application summary")
    reader = PdfReader(io.BytesIO(bytes(pdf.output())))
    assert "/StructTreeRoot" not in reader.trailer["/Root"]


def test_a_paragraph_that_runs_onto_the_next_page_stays_one_element():
    from sloat_core.outputs.report.layout import _new_pdf, _para

    pdf = _new_pdf()
    pdf.add_page()
    pdf.set_y(250)  # near the foot of the page: the paragraph breaks onto page 2
    _para(pdf, "A long note from the counter. " * 60)
    tree = Tree(bytes(pdf.output()))
    paragraphs = [e for e in tree.elems if e["type"] == "/P"]
    assert len(paragraphs) == 1 and {page for page, _ in paragraphs[0]["mcids"]} == {0, 1}
    assert {m for e in tree.elems for m in e["mcids"]} == tree.content_mcids()
