"""The plan's lot table as a document: one HTML page (sloat_core/outputs/plan_document.py), its PDF laid out by the
same renderer as the summary's (PDF/UA-1, read back with the helpers of tests/outputs/test_documents_pdf.py), and its
section printed in the pre-application summary when a plan is given.

The plans are lots of a grid on the sample parcel 162.13-1-1, checked in R-15 (tests/plan/plan_grid.py): every third
lot is 6,600 sq ft, short of the 15,000 sq ft minimum; the others are whole 100 x 150 ft cells.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plan"))

import plan_files as pf  # noqa: E402
import plan_grid  # noqa: E402
from sample_lot import DAY, SAMPLE  # noqa: E402
from test_documents_pdf import Tree, _html_text, _obj, _rows, assert_pdf_says  # noqa: E402

from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.outputs.pdf import render  # noqa: E402
from sloat_core.outputs.plan_document import (CONFORMS_WORDS, LOT_COLUMNS, PLAN_TITLE, SECTION_HEADING,  # noqa: E402
                                              plan_html, plan_section)
from sloat_core.plan.check import check_plan  # noqa: E402

HOSTILE = "<b>Lot</b> & \"x\""


@pytest.fixture(scope="module")
def layers():
    return load_manifest(SAMPLE)


def _checked(layers, n: int, labels=None):
    return check_plan(pf.PARCEL, plan_grid.grid_drawing(n, labels), layers, district=plan_grid.DISTRICT, as_of=DAY)


@pytest.fixture(scope="module")
def plan(layers):
    """Twelve lots, one of them labelled with markup."""
    return _checked(layers, 12, [f"L{i + 1}" for i in range(11)] + [HOSTILE])


@pytest.fixture(scope="module")
def doc(plan):
    return render(plan_html(plan, title="Case <i>one</i>", as_of=DAY))


@pytest.fixture(scope="module")
def doc_pdf(doc) -> bytes:
    """The lot table's PDF, written once for the module's claims (each writing is a WeasyPrint run)."""
    return doc.pdf()


@pytest.fixture(scope="module")
def tree(doc_pdf):
    return Tree(doc_pdf)


@pytest.fixture(scope="module")
def long_doc(layers):
    """Forty lots: the table runs over more than one page."""
    return render(plan_html(_checked(layers, 40), as_of=DAY))


def _lot_rows(tree: Tree) -> list[tuple[str, dict]]:
    """The rows of the lot table (the tables of :data:`LOT_COLUMNS`' width), page after page."""
    return [row for t in tree.elems if t["type"] == "/Table"
            for row in _rows(t) if len(row[1]["kids"]) == len(LOT_COLUMNS)]


def _pdf_text(data: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages]


def test_the_plan_is_checked_as_the_fixture_says(plan):
    assert [lot.conforms for lot in plan.lots[:3]] == [False, True, True]
    assert plan.lots[0].lot.gross_area_sqft == pytest.approx(60 * 110, abs=1)


def test_the_pdf_is_pdf_ua_1_with_its_language_and_its_title_shown(tree):
    assert tree.catalog["/Lang"] == "en-US"
    assert tree.catalog["/MarkInfo"]["/Marked"] in (True, "true")
    assert _obj(tree.catalog["/ViewerPreferences"])["/DisplayDocTitle"] in (True, "true")
    xmp = tree.reader.xmp_metadata.stream.get_data().decode("utf-8")
    assert 'pdfuaid:part="1"' in xmp or "<pdfuaid:part>1</pdfuaid:part>" in xmp
    assert f">{PLAN_TITLE}: Case &lt;i&gt;one&lt;/i&gt;</rdf:li>" in xmp


def test_the_lot_table_is_a_real_table_with_its_header_cells_scoped(tree):
    types = tree.types()
    assert types["/H1"] == 1 and types["/H2"] >= 5
    rows = _lot_rows(tree)  # a table running onto the next page is tagged as one table per page
    assert [part for part, _ in rows][:1] == ["/THead"] and sum(part == "/TBody" for part, _ in rows) == 12
    assert all(c["attrs"]["/Scope"] == "/Column" for part, r in rows if part == "/THead" for c in r["kids"])
    assert all(r["kids"][0]["type"] == "/TH" and r["kids"][0]["attrs"]["/Scope"] == "/Row"
               for part, r in rows if part == "/TBody")
    in_tree = [m for e in tree.elems for m in e["mcids"]]
    assert set(in_tree) == tree.content_mcids()  # every marked content in the tree, the header and footer artifacts


def test_every_lots_label_and_its_conforms_word_appear_in_the_pdf(plan, doc, doc_pdf):
    flat = "".join("".join(_pdf_text(doc_pdf)).split())  # pypdf may glue two cells, or break a label: no spaces
    for lot in plan.lots:
        label = "".join(lot.label.split())
        # the row: the label, the district, gross, net and minimum, then the word
        found = re.search(re.escape(label) + r"R-15[\d,]+(yes|no|unknown)", flat)
        assert found, label
        assert found.group(1) == CONFORMS_WORDS[lot.conforms], (label, found.group(1))
    assert "<b>" not in doc.html and "&lt;b&gt;Lot&lt;/b&gt; &amp; &quot;x&quot;" in doc.html


def test_the_pdf_says_what_its_html_says_every_heading_in_order_and_its_words(doc, doc_pdf):
    headings, text = _html_text(doc.html)
    assert headings[:4] == [PLAN_TITLE, "Parcel and plan", "Problems in the drawing", "Lot by lot"]
    assert {"Yield (§ 402-48E)", "Open space (§ 402-48G(2))", "Please note"} <= set(headings)
    assert_pdf_says(doc_pdf, headings, text)


def test_a_long_table_repeats_its_head_on_every_page_and_never_splits_a_row(long_doc):
    assert long_doc.pages >= 2
    data = long_doc.pdf()
    pages = _pdf_text(data)
    with_lots = [n for n, text in enumerate(pages) if re.search(r"\bL\d+\s*R-15", text)]
    assert len(with_lots) >= 2
    assert all("Permits needed (§)" in pages[n] for n in with_lots)  # the head, on every page the table runs on
    tree = Tree(data)
    rows = [r for part, r in _lot_rows(tree) if part == "/TBody"]

    def pages_of(elem) -> set[int]:
        return {p for p, _ in elem["mcids"]} | {p for k in elem["kids"] for p in pages_of(k)}

    assert all(len(pages_of(r)) == 1 for r in rows)  # each row on one page
    assert len(rows) == 40


def test_the_summary_prints_the_same_plan_section_when_a_plan_is_given(plan, layers):
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.outputs.report import summary_html

    analysis = analyze_parcel(pf.PARCEL, layers, district=plan_grid.DISTRICT, as_of=DAY)
    without = summary_html(analysis, layers, as_of=DAY, figure=(b"png", 1.0))
    with_plan = summary_html(analysis, layers, as_of=DAY, figure=(b"png", 1.0), plan=plan)
    section = "\n".join(plan_section(plan))
    assert section in with_plan and f"<h2>{SECTION_HEADING}</h2>" in with_plan
    assert SECTION_HEADING not in without
    assert with_plan.index("<h2>Cluster development") < with_plan.index(f"<h2>{SECTION_HEADING}</h2>")


def test_the_pdf_ua_checker_finds_nothing_to_fix(doc_pdf, tmp_path):
    pdfua = pytest.importorskip("pdfua")
    from pdfua.model import Severity
    from pdfua.validator import Validator

    path = tmp_path / "lots.pdf"
    path.write_bytes(doc_pdf)
    report = Validator().validate(str(path))
    found = [(f.rule_id, f.message) for f in report.findings if f.severity >= Severity.WARNING]
    assert not found, (found[:5], pdfua.__version__)


def test_each_lot_carries_the_rules_permits_and_its_json_writes_their_rows(plan):
    from sloat_core.rules.permits import Permit

    for lot in plan.lots:
        assert lot.permits and all(isinstance(p, Permit) for p in lot.permits)
        assert lot.to_dict()["permits"] == [p.to_dict() for p in lot.permits]
        assert [Permit.from_dict(row) for row in lot.to_dict()["permits"]] == list(lot.permits)


def test_a_sixty_lot_plan_is_shortened_in_the_summarys_pdf_to_fit_its_four_pages_and_names_the_full_table(layers):
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.outputs.html_docs import esc
    from sloat_core.outputs.plan_document import more_lots_sentence
    from sloat_core.outputs.report import summary_html
    from sloat_core.outputs.report.build import MAX_PAGES, fitted_summary
    from sloat_core.outputs.report.document import LEVELS

    plan = check_plan(pf.PARCEL, plan_grid.grid_drawing(60, cell=(80, 120)), layers, district=plan_grid.DISTRICT,
                      as_of=DAY)
    assert len(plan.lots) == 60
    analysis = analyze_parcel(pf.PARCEL, layers, district=plan_grid.DISTRICT, as_of=DAY)
    fitted = fitted_summary(analysis, layers, as_of=DAY, plan=plan)
    assert fitted.pages <= MAX_PAGES
    level = next(fit for fit in LEVELS if f"(the first {fit.max_lots} of 60 lots)" in fitted.html)
    shown = _section(fitted.html)
    assert shown.count('<th scope="row">L') == level.max_lots  # the first lots, L1 on
    assert '<th scope="row">L1</th>' in shown and f'<th scope="row">L{level.max_lots + 1}</th>' not in shown
    sentence = more_lots_sentence(60 - level.max_lots)
    assert esc(sentence) in shown
    assert sentence.split(":")[0] in " ".join(_pdf_text(fitted.pdf()))  # "… and K more lots", in the PDF's text
    assert "“The plan's lot table”" in sentence
    # the web page holds every lot, and the counts are the whole plan's at every level
    page = summary_html(analysis, layers, as_of=DAY, figure=(b"png", 1.0), plan=plan)
    assert _section(page).count('<th scope="row">L') == 60 and "more lots" not in page
    assert "Conventional plan: 60 lots;" in fitted.html


def _section(page: str) -> str:
    """The plan's section of a summary page (up to the next section)."""
    return page.split(f"<h2>{SECTION_HEADING}</h2>", 1)[1].split("<h2>", 1)[0]
