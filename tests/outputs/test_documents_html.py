"""The accessible web pages of the summary and the handout (each the HTML its PDF is made from), and their buttons
in the app:
the language, the title, one h1 and a heading per section, real tables with column (and row) headers, lists,
the map with its alternative text and its key as text, a print style sheet; the same words as the PDFs.
"""

from __future__ import annotations

import io
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from sample_lot import DAY  # noqa: E402
from sloat_core.engine.answer import lot_answer  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl, to_wgs84_geojson  # noqa: E402
from sloat_core.outputs.handout import HANDOUT_TITLE, handout_html, handout_steps  # noqa: E402
from sloat_core.outputs.report import REPORT_TITLE, report_pdf_bytes, summary_html  # noqa: E402
from sloat_core.store import Case, CaseStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


class Page(HTMLParser):
    """The elements of a page, each with its attributes, the text inside it and its parent's tag."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elems: list[dict] = []
        self._open: list[dict] = []
        self.feed(text)
        self.close()

    VOID = {"meta", "img", "br", "link", "input"}

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": "", "parent": self._open[-1]["tag"] if self._open else None}
        self.elems.append(e)
        if tag not in self.VOID:
            self._open.append(e)

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for e in self._open:
            e["text"] += data

    def all(self, tag: str) -> list[dict]:
        return [e for e in self.elems if e["tag"] == tag]


@pytest.fixture(scope="module")
def summary(subdivision_lot):
    layers, analysis = subdivision_lot
    return summary_html(analysis, layers, notes="Owner asked about the pond.", title="12 Test Rd", as_of=DAY)


@pytest.fixture(scope="module")
def handout(subdivision_lot):
    layers, analysis = subdivision_lot
    return handout_html(analysis, layers, as_of=DAY)


@pytest.mark.parametrize("which,title", [("summary", REPORT_TITLE), ("handout", HANDOUT_TITLE)])
def test_each_page_has_its_language_title_one_h1_and_print_styles(which, title, request):
    text = request.getfixturevalue(which)
    page = Page(text)
    assert page.all("html")[0]["attrs"]["lang"] == "en-US"
    assert page.all("title")[0]["text"].startswith(title)
    assert [h["text"] for h in page.all("h1")] == [title]
    assert len(page.all("h2")) >= 5 and page.all("main")
    assert "@media print" in text and "@page" in text
    assert page.all("meta")[0]["attrs"].get("charset") == "utf-8"
    assert "<script" not in text.lower()


def test_the_summary_tables_have_captions_and_column_headers(summary):
    page = Page(summary)
    tables = page.all("table")
    assert len(tables) >= 5
    heads = page.all("th")
    cols = [h for h in heads if h["attrs"].get("scope") == "col"]
    rows = [h for h in heads if h["attrs"].get("scope") == "row"]
    groups = [h for h in heads if h["attrs"].get("scope") == "rowgroup"]
    assert len(cols) >= 20 and len(rows) >= 20 and all(h["attrs"].get("scope") for h in heads)
    assert len(page.all("caption")) == len(tables)
    assert [g["text"].strip() for g in groups][:1] == ["Planning Board decides"]  # the approvals' row groups


def test_the_summary_carries_the_approvals_by_who_decides_with_clause_clock_and_step(subdivision_lot, summary):
    _, analysis = subdivision_lot
    page = Page(summary)
    groups = [g["text"].strip() for g in page.all("th") if g["attrs"].get("scope") == "rowgroup"]
    assert groups == [f"{g['decides']} decides" for g in analysis.to_dict()["approvals"]]
    body = " ".join(summary.split())
    for group in analysis.to_dict()["approvals"]:
        for item in group["items"]:
            assert item["clause"] is None or item["clause"].replace("&", "&amp;") in body
    state = analysis.to_dict()["state_wetlands"]
    assert state["message"] in body  # the state-wetland answer (noted missing in the PDF last session)
    assert "Coverage of the layers:" in body


def test_the_map_has_alternative_text_and_the_handouts_key_is_text(subdivision_lot, handout, summary):
    for text in (summary, handout):
        figures = [i for i in Page(text).all("img") if i["parent"] == "figure"]
        assert len(figures) == 1 and figures[0]["attrs"]["alt"].startswith("Map of the parcel")
    page = Page(handout)
    key = [e for e in page.all("ul") if "key" in e["attrs"].get("class", "").split()][0]
    assert "Parcel (gross area)" in key["text"]
    # Each key's swatch is decorative (the label beside says it): a background, never an image a reader announces
    # (in the PDF, an artifact: tests/outputs/test_documents_pdf.py).
    assert not [i for i in page.all("img") if i["parent"] == "li"]
    swatches = [s for s in page.all("span") if s["attrs"].get("class") == "swatch"]
    assert swatches and all("data:image/png;base64," in s["attrs"]["style"] for s in swatches)


def test_the_handout_page_says_what_the_pdf_says(subdivision_lot, handout):
    _, analysis = subdivision_lot
    page = Page(handout)
    answer = lot_answer(analysis.result)
    items = [" ".join(li["text"].split()) for li in page.all("li")]
    sections = answer.sections(handout_steps(analysis.result, answer.next_steps))
    for _, section_items, _ in sections:
        for item in section_items:
            assert " ".join(item.split()) in items
    # what the project needs first, then what the parcel carries for any later work
    assert [h["text"] for h in page.all("h2")] == ["Map key", "What your project needs",
                                                   "What the parcel carries for any later work",
                                                   *[h for h, _, _ in sections[2:]]]
    assert [h for h, _, _ in sections[-3:]] == ["Next steps, in the usual order", "What the Village must confirm",
                                                "Whom to ask"]
    assert page.all("ol")  # the steps are numbered, as a list


def test_the_summary_page_has_the_words_of_the_pdf(subdivision_lot, summary):
    layers, analysis = subdivision_lot
    pdf = " ".join(" ".join(p.extract_text().split()) for p in
                   PdfReader(io.BytesIO(report_pdf_bytes(analysis, layers, as_of=DAY))).pages)
    body = " ".join(" ".join(e["text"] for e in Page(summary).all("main")).split())
    for phrase in ("Land that does not count toward minimum lot area (§ 402-45)",
                   "Cluster development: sensitive features (§ 402-48C)",
                   "Permits, reviews and approvals, by who decides", "Please note"):
        assert phrase in pdf and phrase in body
    assert f"{analysis.to_dict()['net_lot_area_sqft']:,.0f} sq ft" in body


# The buttons in the app --------------------------------------------------------------------------------------


def _case(manifest, data_dir, title: str = "") -> Case:
    layers = load_manifest(manifest)
    parcel = parcel_by_sbl(layers, fx.P1_SBL)
    case = Case()
    case.title = title
    case.parcel_geojson = to_wgs84_geojson(parcel.geometry)
    case.parcel_meta = {"sbl": fx.P1_SBL, "source": f"Tax parcel {fx.P1_SBL}", "note": f"Tax parcel {fx.P1_SBL}"}
    case.district = ""
    return CaseStore(data_dir).save(case)


def test_the_handout_buttons_download_the_pdf_the_web_page_and_print_it(manifest, data_dir, media):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["mode"] = "counter"
    at.query_params["case"] = _case(manifest, data_dir).id
    at.run()
    assert not at.exception
    labels = {b.key: b.label for b in at.get("download_button")}
    assert labels["handout_pdf"] == "Download the one-page handout (PDF)"
    assert labels["handout_html"] == "The handout as a web page (HTML)"
    page = fx.download(at, media, "handout_html").decode("utf-8")
    assert Page(page).all("h1")[0]["text"] == HANDOUT_TITLE and fx.P1_SBL in page
    printing = next(b for b in at.button if b.key == "handout_print")
    assert printing.label == "Print the handout"
    def print_frames():  # (the page has other frames: the answer's announcement, app_support.frame.announce)
        return [e for e in at.get("iframe") if "print()" in (e.proto.srcdoc or "")]

    assert not print_frames()
    printing.click().run()
    assert not at.exception
    frames = print_frames()
    assert frames, "pressing Print put no print frame on the page"
    assert "print()" in frames[0].proto.srcdoc and HANDOUT_TITLE in frames[0].proto.srcdoc
    assert frames[0].proto.alt == "The handout, sent to the browser's print dialog"  # its title (not "st.iframe")


def test_the_case_downloads_hold_the_summary_as_a_web_page(manifest, data_dir, media):
    case = _case(manifest, data_dir, title="<b>Smith</b> lot")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["case"] = case.id
    at.run()
    at.switch_page("pages/case.py").run()
    assert not at.exception
    labels = {b.key: b.label for b in at.get("download_button")}
    assert labels["dl_html"] == "Download the summary as a web page (HTML)"
    page = fx.download(at, media, "dl_html").decode("utf-8")
    assert Page(page).all("h1")[0]["text"] == REPORT_TITLE
    assert "&lt;b&gt;Smith&lt;/b&gt; lot" in page and "<b>Smith</b>" not in page
