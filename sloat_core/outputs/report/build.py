"""The summary's PDF: its HTML (:func:`sloat_core.outputs.report.document.summary_html`) laid out by WeasyPrint
as PDF/UA-1 (:mod:`sloat_core.outputs.pdf`), fitted to at most four pages.

The PDF is fitted to at most :data:`MAX_PAGES` pages: if the full text would run longer, the page is written
again at the next fitting level (:data:`~sloat_core.outputs.report.document.LEVELS`), where long explanations
are shorter (quotes, then evidence and reasons, notes, the number of dates and warnings listed) until it fits.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sloat_core.outputs.report.document import LEVELS, summary_html
from sloat_core.outputs.report.map import map_png

MAX_PAGES = 4


def fitted_summary(analysis, layerset, *, timeline_events=None, notes: str | None = None,
                   title: str | None = None, as_of: dt.date | None = None, plan=None):
    """The summary laid out on at most :data:`MAX_PAGES` pages (:class:`sloat_core.outputs.pdf.Rendered`: its
    HTML and its PDF), at the first fitting level that holds them (the last level whatever its length)."""
    from sloat_core.outputs.pdf import render

    as_of = as_of or dt.date.today()
    figure = map_png(analysis, layerset)
    rendered = None
    for level, fit in enumerate(LEVELS):
        rendered = render(summary_html(analysis, layerset, timeline_events=timeline_events, notes=notes,
                                       title=title, as_of=as_of, fit=fit, level=level, figure=figure,
                                       plan=plan))
        if rendered.pages <= MAX_PAGES:
            break
    return rendered


def report_pdf_bytes(analysis, layerset, *, timeline_events=None, notes: str | None = None,
                     as_of: dt.date | None = None, title: str | None = None, plan=None) -> bytes:
    """The pre-application summary as PDF/UA-1 bytes (one to four Letter pages, :func:`fitted_summary`).

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
    title : str, optional
        The case's title (printed as plain text).
    plan : sloat_core.plan.check.PlanResult, optional
        A checked plan: the summary prints its lot table (its section follows the cluster features).

    Returns
    -------
    bytes
    """
    return fitted_summary(analysis, layerset, timeline_events=timeline_events, notes=notes, title=title,
                          as_of=as_of, plan=plan).pdf()


def write_report(analysis, layerset, out_path, *, timeline_events=None, notes: str | None = None,
                 as_of: dt.date | None = None) -> Path:
    """Write the pre-application summary to `out_path` (atomically): its PDF (:func:`report_pdf_bytes`), or its
    web page, every text whole, when the name ends in ``.html`` (or ``.htm``); returns the path."""
    from sloat_core.outputs.pdf import write_atomic

    if Path(out_path).suffix.lower() in (".html", ".htm"):
        return write_atomic(out_path, summary_html(analysis, layerset, timeline_events=timeline_events, notes=notes,
                                                   as_of=as_of))
    return write_atomic(out_path, report_pdf_bytes(analysis, layerset, timeline_events=timeline_events,
                                                   notes=notes, as_of=as_of))
