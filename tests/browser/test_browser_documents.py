"""The handout in a real browser at 1366x768 (the counter): the lot with most to explain (297 Johnsontown Road,
155.06-1-42), its handout downloaded with the button that says what it does, never under 9 pt and on one page (the
lists shortened, what they leave out counted); "Print the handout" is one more click that opens the print dialog on the handout itself (the
browser's ``print`` is recorded, not shown); the handout as a web page beside it.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "outputs"))  # the handout tests' PDF reader
from test_documents_handout import PT_TOL, text_sizes_pt  # noqa: E402

from browser.case_links import new_case  # noqa: E402
from sloat_core.outputs.handout import HANDOUT_TITLE, MIN_PT  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ADDRESS, SBL = "297 Johnsontown Road", "155.06-1-42"

#: In every frame: ``print`` records the document it was asked to print instead of opening the dialog.
RECORD_PRINT = """window.print = function () {
  (window.__printed = window.__printed || []).push(document.title || '');
};"""


def test_the_counters_handout_downloads_prints_in_one_click_and_has_a_web_page(sample_app):
    page = sample_app.page
    page.set_viewport_size({"width": 1366, "height": 768})
    page.add_init_script(RECORD_PRINT)
    # the lot's case made at the protocol level (its address typed into the parcel finder, tests/browser/case_links.py)
    # and its link opened at the counter: the page is drawn once, with the lot (finding it in the browser has its own
    # tests)
    sample_app.open(f"/?case={new_case(sample_app.url, ADDRESS)}&mode=counter")
    sample_app.wait_text(f"Tax parcel {SBL}")
    sample_app.settle()

    pdf_button = page.get_by_role("button", name="Download the one-page handout (PDF)")
    pdf_button.scroll_into_view_if_needed()
    with page.expect_download(timeout=60_000) as download:
        pdf_button.click()
    data = Path(download.value.path()).read_bytes()
    assert data.startswith(b"%PDF")
    assert len(PdfReader(io.BytesIO(data)).pages) == 1  # the lot with most to explain, on one page
    assert min(s for s, _ in text_sizes_pt(data)) >= MIN_PT - PT_TOL
    (ARTIFACTS / "i24_6_handout_from_the_browser.pdf").write_bytes(data)

    html_button = page.get_by_role("button", name="The handout as a web page (HTML)")
    with page.expect_download(timeout=60_000) as download:
        html_button.click()
    assert f"<title>{HANDOUT_TITLE}</title>" in Path(download.value.path()).read_text(encoding="utf-8")

    printing = page.get_by_role("button", name="Print the handout")
    assert printing.is_visible()
    for button in (pdf_button, html_button, printing):  # each label whole, none cut with an ellipsis
        assert button.evaluate("b => [b, ...b.querySelectorAll('*')].filter(e => !e.closest("
                               "'[data-testid=stIconMaterial]')).every(e => e.scrollWidth <= e.clientWidth + 1)"), \
            button.inner_text()
        assert button.bounding_box()["x"] + button.bounding_box()["width"] <= 1366
    printing.click()

    def printed() -> list[str]:
        out = []
        for frame in page.frames:
            try:
                out += frame.evaluate("() => window.__printed || []")
            except Exception:  # a frame that went away between the listing and the call
                continue
        return out

    for _ in range(300):
        if printed():
            break
        page.wait_for_timeout(100)  # polling interval (at most 30 s in all)
    assert printed() == [HANDOUT_TITLE]  # the dialog opened once, on the handout itself
    sample_app.shot("i24_6_print_the_handout_1366x768")
