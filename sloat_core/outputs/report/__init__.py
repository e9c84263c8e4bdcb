"""The "pre-application summary": a one-to-four page document a resident takes home from the counter, as a web
page and as a PDF made from that page.

It carries a static map of the parcel and its constraint pieces (drawn offline with matplotlib), gross and
net lot area against the district minimum, the § 402-45 deduction table, the § 402-48C cluster features,
the permits and reviews with their approval authority and §, the § 402-57P mitigation figures when there
are any, the timeline of deadlines, the quoted clauses behind the figures, the disclaimers, the date and
the versions of the law parameters, law text and data.

Printing in black and white: every constraint on the map has its own hatch pattern *and* grey level and is
named in the legend; statuses are words (yes / no / unknown), never colour alone.

Everything typed by a user or read from a file is written as plain text (escaped: no markup is interpreted).
The fonts are DejaVu Sans, shipped with matplotlib, which cover "§" and the dashes.

The modules, in the order a reader needs them:

* :mod:`~sloat_core.outputs.report.text`: the font, plain text, and the words for areas, numbers and dates;
* :mod:`~sloat_core.outputs.report.map`: the static map (:func:`map_png`) and its drawing helpers;
* :mod:`~sloat_core.outputs.report.reading`: what the sections read from the analysis, in words (no drawing);
* :mod:`~sloat_core.outputs.report.document`: the summary written once, as HTML (:func:`summary_html`), one
  function per section;
* :mod:`~sloat_core.outputs.report.build`: its PDF, laid out by WeasyPrint and fitted to four pages
  (:func:`report_pdf_bytes`, :func:`write_report`).
"""

from __future__ import annotations

from sloat_core.outputs.report.build import MAX_PAGES, fitted_summary, report_pdf_bytes, write_report
from sloat_core.outputs.report.document import REPORT_TITLE, summary_html
from sloat_core.outputs.report.map import map_png
from sloat_core.outputs.report.reading import events_to_show, status_text
from sloat_core.outputs.report.text import FONT_DIR

# Private names other modules and the tests use from here.
from sloat_core.outputs.report.map import _CONTEXT_ROLES, _OVERLAY_STYLES, PIECE_STYLES, _map_label  # noqa: F401
from sloat_core.outputs.report.text import _FONT, _date_text, _plain  # noqa: F401

__all__ = ["MAX_PAGES", "REPORT_TITLE", "FONT_DIR", "events_to_show", "fitted_summary", "map_png",
           "report_pdf_bytes", "status_text", "summary_html", "write_report"]
