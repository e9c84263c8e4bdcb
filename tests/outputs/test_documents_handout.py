"""The plain handout (issue 24 item 6): never under 9 pt, body and disclaimer alike (read from the PDF's own text
operators); a second page when one does not hold it, never smaller print; the map key written as text inside the
page, never cut; the approvals around Article IX that apply in the next steps (issue 23).

The lot with most to explain is the illustrative sample's tax parcel 155.06-1-42: of the sample's 1,294 lots its
answer card ("What this means for your lot") is the longest (4,015 characters, measured 2026-12-02 by summing the
card's texts over every lot), the lot that had 7.2 pt body and a 5.7 pt disclaimer before.
"""

from __future__ import annotations

import io
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from sample_lot import DAY, MOST_TO_EXPLAIN, analysed_lot  # noqa: E402
from sloat_core.engine.analysis import analyze_parcel  # noqa: E402
from sloat_core.engine.answer import lot_answer  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.outputs.handout import MIN_PT, approval_steps, handout_pdf_bytes, handout_steps  # noqa: E402
from sloat_core.outputs.report.map import map_and_legend  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
#: Rounding of the text matrix and the font size as written (fpdf2 writes two decimals).
PT_TOL = 0.01


def text_sizes_pt(data: bytes) -> list[tuple[float, str]]:
    """Every piece of text in the PDF with its size on the page in pt: the font size times the scale of the text
    and current transformation matrices (pypdf's text visitor)."""
    out = []
    for page in PdfReader(io.BytesIO(data)).pages:
        def visit(text, cm, tm, font_dict, font_size, _out=out):
            if text.strip():
                a, b, c, d = (tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                              tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])
                _out.append((font_size * math.sqrt(abs(a * d - b * c)), text))
        page.extract_text(visitor_text=visit)
    return out


def words_with_boxes(pdf_path: Path) -> list[dict]:
    """Every word of the PDF with its page and its box in pt (poppler's pdftotext -bbox)."""
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext (Debian poppler-utils) is missing: run `make test`.")
    xml = subprocess.run(["pdftotext", "-bbox", str(pdf_path), "-"], capture_output=True, text=True, check=True,
                         timeout=60).stdout
    words = []
    for n, page in enumerate(re.findall(r"<page (.*?)</page>", xml, re.S), start=1):
        width, height = (float(x) for x in re.search(r'width="([\d.]+)" height="([\d.]+)"', page).groups())
        for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
                             page):
            x0, y0, x1, y1 = (float(v) for v in m.groups()[:4])
            words.append({"page": n, "text": m.group(5), "x0": x0, "y0": y0, "x1": x1, "y1": y1, "width": width,
                          "height": height})
    return words


@pytest.fixture(scope="module")
def sample():
    return analysed_lot(MOST_TO_EXPLAIN)


@pytest.fixture(scope="module")
def long_handout(sample, tmp_path_factory):
    layers, analysis = sample
    out = tmp_path_factory.mktemp("handout") / "handout.pdf"
    out.write_bytes(handout_pdf_bytes(analysis, layers, as_of=DAY))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(out, ARTIFACTS / "handout_most_to_explain.pdf")
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "70", "-png", str(out), str(ARTIFACTS / "handout_most_to_explain")],
                       check=True, timeout=120)
    return out


def test_the_lot_with_most_to_explain_is_never_printed_under_9_pt(long_handout):
    sizes = text_sizes_pt(long_handout.read_bytes())
    assert sizes, "no text read from the handout"
    smallest = min(sizes)
    assert smallest[0] >= MIN_PT - PT_TOL, f"{smallest[0]:.2f} pt: {smallest[1]!r}"
    assert MIN_PT == 9.0


def test_the_disclaimer_is_9_pt_too(long_handout):
    sizes = text_sizes_pt(long_handout.read_bytes())
    disclaimer = [s for s, t in sizes if "Screening estimate only" in t or "makes every determination" in t]
    assert disclaimer and min(disclaimer) >= MIN_PT - PT_TOL


def test_a_handout_that_does_not_fit_one_page_flows_to_a_second_with_nothing_cut(sample, long_handout):
    _, analysis = sample
    reader = PdfReader(io.BytesIO(long_handout.read_bytes()))
    assert len(reader.pages) == 2  # a second page, not smaller print
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    answer = lot_answer(analysis.result)
    for heading in ("What your project needs", "What the parcel carries for any later work",
                    "Next steps, in the usual order", "What the Village must confirm", "Whom to ask"):
        assert heading in text
    assert text.index("What your project needs") < text.index("What the parcel carries for any later work")
    last = " ".join(answer.note.split())[-40:]
    assert last in text.replace("- ", "-")  # the disclaimer's end, on the last page
    assert "page 2 of 2" in text


def test_the_common_lot_stays_on_one_page(tmp_path):
    layers = load_manifest(fx.write_layerset(tmp_path))
    geom = fx.P1  # tax parcel 156.14-1-23 of the app fixtures: a lot with a wetland and its buffer
    data = handout_pdf_bytes(analyze_parcel(geom, layers, as_of=DAY), layers, as_of=DAY)
    assert len(PdfReader(io.BytesIO(data)).pages) == 1
    assert min(s for s, _ in text_sizes_pt(data)) >= MIN_PT - PT_TOL


def test_the_map_key_is_text_fully_inside_the_page_and_never_cut(sample, long_handout):
    layers, analysis = sample
    _, _, legend = map_and_legend(analysis, layers)
    assert len(legend) >= 5  # this lot's map has many entries: two columns used to be cut at the right
    words = words_with_boxes(long_handout)
    assert all(0 <= w["x0"] and w["x1"] <= w["width"] and 0 <= w["y0"] and w["y1"] <= w["height"] for w in words)
    # The key sits in the map's column (66 mm wide from the 14 mm margin), left of the answer beside it:
    # read that column alone, line by line, and find each entry whole in it.
    column_right_pt = (14 + 66) * 72 / 25.4
    key = next(w for w in words if w["page"] == 1 and w["text"] == "key")
    column = sorted((w for w in words if w["page"] == 1 and w["y0"] > key["y1"] - 0.5
                     and w["x1"] <= column_right_pt + 0.5), key=lambda w: (round(w["y0"]), w["x0"]))
    text = " ".join(w["text"] for w in column).replace("&amp;", "&")
    for label, _swatch in legend:
        assert " ".join(label.split()) in text, label  # each entry whole, in the map's column


def test_the_next_steps_carry_the_approvals_that_apply_in_plain_words(sample):
    _, analysis = sample
    r = analysis.result
    before, during = approval_steps(r)
    steps = handout_steps(r, lot_answer(r).next_steps)
    assert steps[0].startswith("Bring this sheet")
    assert steps[-1].startswith("Then apply for the building permit")
    assert before and before[0].startswith("Before applying, ask") and "Army Corps" in before[0]
    assert any("Rockland County Department of Planning" in s and "30 days" in s for s in during)
    assert any("SEQR" in s for s in during)
    assert all(s in steps for s in before + during)
    assert steps.index(before[0]) < steps.index(during[0]) < len(steps) - 1


def test_the_size_reader_sees_small_print():
    """The reader above can fail: a 5.7 pt line (the old handout's disclaimer) is read as 5.7 pt."""
    from sloat_core.outputs.report import _FONT, _new_pdf

    pdf = _new_pdf()
    pdf.add_page()
    pdf.set_font(_FONT, "", 5.7)
    pdf.cell(0, 3, "Screening estimate only.")
    sizes = [s for s, t in text_sizes_pt(bytes(pdf.output())) if "Screening" in t]
    assert sizes and abs(sizes[0] - 5.7) < PT_TOL
