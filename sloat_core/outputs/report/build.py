"""The report put together: the sections in order, fitted to at most four pages, as bytes or a file.

The report is fitted to at most :data:`MAX_PAGES` pages: if the full text would run longer, it is built
again at the next fitting level, where long explanations are shorter (quotes, then evidence and reasons,
notes, the number of dates and warnings listed) until it fits.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from sloat_core.outputs.report import closing, page_one, tables
from sloat_core.outputs.report.layout import REPORT_TITLE, _new_pdf
from sloat_core.outputs.report.map import map_png
from sloat_core.outputs.report.reading import with_approval_events
from sloat_core.outputs.report.text import _date_text

MAX_PAGES = 4


@dataclass(frozen=True)
class _Fit:
    """How much of the long texts one fitting level keeps (characters, or how many items)."""

    quote_len: int
    reason_len: int
    evidence_len: int
    notes_len: int
    max_events: int
    max_warnings: int
    clock_len: int


#: The fitting levels, fullest first; the report takes the first that fits in :data:`MAX_PAGES` pages.
_LEVELS = (
    _Fit(quote_len=420, reason_len=170, evidence_len=150, notes_len=2500, max_events=60, max_warnings=12, clock_len=120),
    _Fit(quote_len=220, reason_len=110, evidence_len=100, notes_len=1500, max_events=30, max_warnings=8, clock_len=110),
    _Fit(quote_len=160, reason_len=80, evidence_len=70, notes_len=800, max_events=16, max_warnings=5, clock_len=80),
    _Fit(quote_len=130, reason_len=0, evidence_len=0, notes_len=400, max_events=8, max_warnings=3, clock_len=60),
)


def _build(analysis, layerset, *, events, notes, as_of: dt.date, level: int, figure=None) -> FPDF:
    """The report at one fitting level (0 to 3, see ``_LEVELS``): the document, not yet written out.

    ``figure`` is the map as :func:`map_png` returns it (drawn once, then reused at each level); without it
    the map is drawn here.
    """
    r = analysis.result
    fit = _LEVELS[level]
    illustrative = bool(getattr(layerset, "illustrative", None) if layerset is not None
                        else r.get("layers_illustrative"))

    pdf = _new_pdf()
    pdf.footer_text = (f"{REPORT_TITLE} · {_date_text(as_of)} · screening estimate, not a determination "
                       "(Sloatsburg Code ch. 402, Art. IX)")
    pdf.add_page()
    page_one.title_block(pdf, r, layerset, as_of, illustrative)
    page_one.parcel_and_district(pdf, r)
    page_one.map_and_key_figures(pdf, r, figure or map_png(analysis, layerset))
    tables.deductions(pdf, r)
    tables.cluster_features(pdf, r, fit.evidence_len)
    tables.approvals(pdf, r, min(fit.reason_len, 110), fit.clock_len)
    tables.mitigation(pdf, r)
    tables.deadlines(pdf, with_approval_events(events, r), fit.max_events)
    closing.notes_section(pdf, notes, fit.notes_len)
    closing.points_to_check(pdf, r, layerset, fit.max_warnings)
    closing.law_quotes(pdf, r, level, fit.quote_len)
    closing.please_note(pdf, r, illustrative)
    closing.versions(pdf, r, as_of, illustrative)
    tables.adjacent_owners(pdf, r)
    return pdf


def report_pdf_bytes(analysis, layerset, *, timeline_events=None, notes: str | None = None,
                     as_of: dt.date | None = None) -> bytes:
    """The pre-application summary as PDF bytes (one to four Letter pages).

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
    for level in range(len(_LEVELS)):
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
