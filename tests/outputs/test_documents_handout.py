"""The plain handout: never under 9 pt, body and disclaimer alike (read from the PDF's own text
operators); always one page, the lists shortened with what they leave out counted on the page, never smaller print;
the map key written as text inside the page, never cut; the approvals around Article IX that apply in the next
steps.

The lot with most to explain is the illustrative sample's tax parcel 155.06-1-42: of the sample's 1,294 lots its
answer card ("What this means for your lot") is among the longest (4,015 characters, measured 2026-12-02 by summing
the card's texts over every lot), the lot that had 7.2 pt body and a 5.7 pt disclaimer before, then two pages.
The other sample lots that stretch the page, each the longest of one part, are in :data:`STRETCHING` (measured
2026-12-04: every lot analysed, each list of its answer counted and summed); the longest of every list at once is
built by hand (:func:`worst_case`). Every one of the 1,294 sample lots was seen one page by hand (about 1 s a lot:
too slow for a test).
"""

from __future__ import annotations

import dataclasses
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

from sample_lot import DAY, MOST_TO_EXPLAIN, SAMPLE, SUBDIVISION, analysed_lot  # noqa: E402
from sloat_core.engine.analysis import analyze_parcel  # noqa: E402
from sloat_core.engine.answer import LotAnswer, lot_answer  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402
from sloat_core.outputs.handout import (  # noqa: E402
    MIN_PT,
    approval_steps,
    bounded_sections,
    handout_pdf_bytes,
    handout_steps,
)
from sloat_core.outputs.report.map import map_and_legend  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
#: Rounding of the text matrix and the font size as written (WeasyPrint writes sizes in CSS px, 0.75 pt each).
PT_TOL = 0.01


def sizes_and_pages(data: bytes) -> tuple[list[tuple[float, str]], list[str]]:
    """Every piece of text in the PDF with its size on the page in pt (the font size times the scale of the text
    and current transformation matrices: pypdf's text visitor), and each page's text, read in the same pass."""
    out, pages = [], []
    for page in PdfReader(io.BytesIO(data)).pages:
        def visit(text, cm, tm, font_dict, font_size, _out=out):
            if text.strip():
                a, b, c, d = (tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                              tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])
                _out.append((font_size * math.sqrt(abs(a * d - b * c)), text))
        pages.append(page.extract_text(visitor_text=visit))
    return out, pages


def text_sizes_pt(data: bytes) -> list[tuple[float, str]]:
    """Every piece of text in the PDF with its size on the page in pt (:func:`sizes_and_pages`)."""
    return sizes_and_pages(data)[0]


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


def one_page_with_nothing_silently_dropped(data: bytes, result) -> str:
    """The handout's one page, read in its reading order: each section of the answer under its heading, in order,
    with every item whole, or those left out counted there ("…and K more"); the verdict with the land that counts
    against the minimum, the first and the last step, whom to ask and the disclaimer always whole; nothing under
    9 pt. Returns the page's text."""
    sizes, pages = sizes_and_pages(data)
    assert len(pages) == 1, f"{len(pages)} pages"
    assert min(s for s, _ in sizes) >= MIN_PT - PT_TOL
    text = " ".join(pages[0].split())
    answer = lot_answer(result)
    steps = handout_steps(result, answer.next_steps)
    sections = answer.sections(steps)
    starts, at = [], 0
    for heading, _, _ in sections:
        at = text.index(heading, at)  # each heading, after the one before it
        starts.append(at)
    for n, (heading, items, _) in enumerate(sections):
        part = text[starts[n]:starts[n + 1] if n + 1 < len(starts) else len(text)]
        missing = [x for x in items if " ".join(x.split()) not in part]
        if missing:
            assert f"…and {len(missing)} more" in part, (heading, missing, part)
        else:
            assert "…and" not in part, (heading, part)
    for always in (answer.house, steps[0], steps[-1], *answer.contacts, answer.note):
        assert " ".join(always.split()) in text, always
    return text


def test_the_lot_with_most_to_explain_is_one_page_with_what_it_leaves_out_counted(sample, long_handout):
    _, analysis = sample
    text = one_page_with_nothing_silently_dropped(long_handout.read_bytes(), analysis.result)
    for heading in ("What your project needs", "What the parcel carries for any later work",
                    "Next steps, in the usual order", "What the Village must confirm", "Whom to ask"):
        assert heading in text
    assert "see the full summary, or ask the Building Department" in text  # where the rest is, in plain words
    # The land that does not count keeps its largest pieces: the very steep ground (24,533 sq ft), not the streams.
    assert "24,533 sq ft of very steep ground" in text and "more, each smaller" in text
    assert "page 1 of 1" in text


#: Sample tax parcels that stretch the handout, each the longest of one of its variable parts (see the module's
#: docstring): the most land that does not count (six rows), the most permits the land carries (twelve, and the
#: first lots seen on two pages), the longest permit sentences, the longest next steps, the longest verdict (a
#: district with no minimum: the what-if), and the longest answer. Each was two pages before the lists were
#: bounded. The sample's longest address (162.13-1-9, 20 characters) and its lots in two districts (156.08-1-9)
#: were one page already; the hand-built case below carries a longer address and two districts.
STRETCHING = {
    "155.09-1-2": "most land that does not count",
    "163.19-5-55": "longest land that does not count",
    "155.06-2-2": "most permits",
    "156.07-1-1": "most permits",
    "155.06-2-4": "most permits",
    "156.07-1-3": "most permits",
    "155.10-1-3": "longest permit sentences",
    "162.18-3-8": "longest next steps",
    "156.07-1-5": "longest verdict (no minimum: the what-if)",
    "155.10-3-2": "longest answer",
}


@pytest.fixture(scope="module")
def sample_layers():
    return load_manifest(SAMPLE)


@pytest.mark.parametrize("sbl", list(STRETCHING), ids=[f"{k} {v}" for k, v in STRETCHING.items()])
def test_a_sample_lot_that_stretches_the_handout_is_one_page(sample_layers, sbl):
    """As the CLI's ``report SBL --plain`` makes it: the tax parcel with its address and district."""
    analysis = analyze_parcel(parcel_by_sbl(sample_layers, sbl), sample_layers, as_of=DAY)
    one_page_with_nothing_silently_dropped(handout_pdf_bytes(analysis, sample_layers, as_of=DAY), analysis.result)


def test_a_project_that_needs_many_permits_is_one_page(sample_layers):
    """The lot with most to explain with a subdivision: what the project needs is a list of its own."""
    analysis = analyze_parcel(parcel_by_sbl(sample_layers, MOST_TO_EXPLAIN), sample_layers, as_of=DAY,
                              project=SUBDIVISION)
    assert len(lot_answer(analysis.result).project_needs) >= 5
    one_page_with_nothing_silently_dropped(handout_pdf_bytes(analysis, sample_layers, as_of=DAY), analysis.result)


#: A long address (the parcel layer's field is anyone's text): cut at 80 characters on the page.
LONG_ADDRESS = ("12345 Old Orange Turnpike East, Unit 1200, Rear Building, Lot 4 of the Johnsontown Road Subdivision "
                "Map filed 1957, Sloatsburg, New York 10974")


def worst_case(analysis) -> object:
    """The longest of every list at once, built by hand on the lot with most to explain and its map (the sample's
    map key with the most entries): every deduction row on the lot (the last two not measured), every permit
    required with a long reason (half of them the project's, half the land's), the prohibition, the state and
    federal wetland questions, the SEQR class, the county referral and the Board's time limits, every cluster
    trigger, two districts with no minimum (the what-if: the longest verdict), and a long address."""
    from sloat_core.engine import plain
    from sloat_core.measure.rows import DEDUCTION_ROWS
    from sloat_core.rules.permits import DECLARATIONS
    from sloat_core.rules.sections.permit import Permit

    from sloat_core.engine.result import ApprovalGroup, Deduction, DistrictArea, LotSizeWhatIf, WhatIfCase

    r = analysis.result
    what_if = LotSizeWhatIf(district="VC-2", cases=tuple(WhatIfCase(m, False, m - 11_111.0)
                                                         for m in (15_000, 20_000, 40_000)),
                            ask="the Building Department", verify=True, effective="2026-12-02", version="", note="")
    deductions = tuple(Deduction(constraint=row.id, label=row.label, area_sqft=11_111.0 * (i + 1),
                                 total_area_sqft=22_222.0 * (i + 1), countable_fraction=0.5,
                                 deducted_sqft=None if i >= len(DEDUCTION_ROWS) - 2 else 5_555.0 * (i + 1),
                                 citation="§ 402-45A(1)", status="known") for i, row in enumerate(DEDUCTION_ROWS))
    long_reason = ("The project's footprint of 123,456 sq ft reaches 98,765 sq ft of the land this permit is for, "
                   "well over what the law lets be disturbed without one, and more of it lies next door.")
    permits, land = [], []
    for i, d in enumerate(DECLARATIONS):
        p = Permit(id=d.id, title=d.title, required=True, reason=long_reason, citation=d.section,
                   authority="Planning Board (the Building Inspector issues it)")
        permits.append(p)
        if not plain.is_prohibition(p):  # even: changed by the project (its own); odd: the land's, untouched
            land.append(dataclasses.replace(p, reason="The land has it." if i % 2 == 0 else long_reason))
    wetlands = {"law": "ECL Article 24", "clause": "ECL Article 24; ECL § 24-0701(2)", "status": "unknown",
                "name": "State wetland permit", "authority": "the NYSDEC (state)"}
    approvals = (ApprovalGroup(decides="State and federal", items=(
        {**wetlands, "id": "state_wetlands"},
        {**wetlands, "id": "federal_wetlands", "law": "Clean Water Act § 404", "clause": "Clean Water Act § 404",
         "authority": "the Army Corps (New York District)"})),
        ApprovalGroup(decides="Planning Board", items=(
            {"id": "seqr", "status": "unknown", "law": "6 NYCRR Part 617", "clause": None},
            {"id": "county_referral", "status": "required", "law": "GML § 239-m",
             "clause": "GML § 239-m(3)(b)(i), GML § 239-n(3)(a)(iv)"},
            {"id": "subdivision_hearing", "status": "clock", "law": "Village Law § 7-728",
             "clause": "Village Law § 7-728(5)(d)"},
            {"id": "site_plan_decision", "status": "clock", "law": "Village Law § 7-725-a",
             "clause": "Village Law § 7-725-a(8)"})))
    r = dataclasses.replace(
        r, parcel=dataclasses.replace(r.parcel, sbl=MOST_TO_EXPLAIN, address=LONG_ADDRESS),
        districts=(DistrictArea("R-40", 60_000.0), DistrictArea("VC-2", 19_694.0)), district="VC-2",
        min_lot_area_sqft=None, meets_min_lot_area=None, net_lot_area_min_sqft=1_234.0, min_lot_area_what_if=what_if,
        deductions=deductions, permits=tuple(permits), land_permits=tuple(land), project_described=True,
        approvals=approvals, cluster_applies=None,
        cluster_triggers=tuple(dataclasses.replace(t, triggered=True) for t in r.cluster_triggers),
        conventional_yield_status="unknown")
    return dataclasses.replace(analysis, result=r)


def test_the_longest_of_every_list_at_once_is_one_page(sample):
    layers, analysis = sample
    worst = worst_case(analysis)
    answer = lot_answer(worst.result)
    steps = handout_steps(worst.result, answer.next_steps)
    # Each list as long as it gets: the case is what it says.
    assert answer.verdict == "unknown" and "What if" in answer.house
    assert len(answer.lot_limits) == 6 and len(answer.village_confirms) == 4
    assert len(answer.prohibited) == 1 and len(answer.project_needs) >= 5 and len(answer.parcel_carries) >= 5
    assert answer.cluster and len(steps) >= 7
    data = handout_pdf_bytes(worst, layers, as_of=DAY)
    (ARTIFACTS / "handout_longest_of_every_list.pdf").write_bytes(data)
    text = one_page_with_nothing_silently_dropped(data, worst.result)
    assert LONG_ADDRESS[:40] in text and LONG_ADDRESS not in text  # cut with an ellipsis, the SBL after it
    assert f"… · tax parcel {MOST_TO_EXPLAIN}" in text


def test_a_list_over_the_cap_counts_what_it_leaves_out_and_the_steps_keep_their_ends():
    """The shortening alone, on a hand-built answer: at most ``cap`` items a list, the rest counted; the next
    steps keep the first and the last, the answer's own steps before the approvals; whom to ask whole."""
    a = LotAnswer(verdict="likely", house="A house fits.", in_the_way=[], next_steps=["first", "hire", "last"],
                  village_confirms=["c1", "c2", "c3", "c4"], lot_limits=["small", "large", "middle"],
                  largest_limits=["large", "middle", "small"], parcel_carries=["p1", "p2"])
    steps = ["first", "ask the State", "hire", "county", "last"]
    got = {h: items for h, items, _ in bounded_sections(a, steps, 2, own_steps=a.next_steps)}
    more = "see the full summary, or ask the Building Department."
    assert got["What the Village must confirm"] == [("•", "c1"), ("•", "c2"), ("", f"…and 2 more: {more}")]
    assert got["Land that does not count toward the lot size"] == [
        ("•", "large"), ("•", "middle"), ("", f"…and 1 more, each smaller: {more}")]
    assert got["What the parcel carries for any later work"] == [("•", "p1"), ("•", "p2")]  # at the cap: whole
    assert got["Next steps, in the usual order"] == [
        ("1.", "first"), ("2.", "ask the State"), ("3.", "hire"), ("", f"…and 1 more step: {more}"), ("4.", "last")]
    assert len(got["Whom to ask"]) == len(a.contacts)
    everything = {h: items for h, items, _ in bounded_sections(a, steps, None, own_steps=a.next_steps)}
    assert [t for _, t in everything["Next steps, in the usual order"]] == steps


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
    from sloat_core.outputs.html_docs import page
    from sloat_core.outputs.pdf import pdf_bytes

    data = pdf_bytes(page("Small print", ['<p style="font-size: 5.7pt">Screening estimate only.</p>']))
    sizes = [s for s, t in text_sizes_pt(data) if "Screening" in t]
    assert sizes and abs(sizes[0] - 5.7) < PT_TOL
