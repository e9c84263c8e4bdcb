"""The plan's lot table as a document, offered by the Plan page (and printed in the case's summary): its PDF and its
web page, made by ``sloat_core.outputs.plan_document`` when a button is pressed (WeasyPrint loads then, not with
the page)."""

from __future__ import annotations

import datetime as dt

__all__ = ["PDF_LABEL", "HTML_LABEL", "pdf", "web_page"]

#: The Plan page's buttons.
PDF_LABEL = "Download the plan's lot table (PDF)"
HTML_LABEL = "The plan's lot table as a web page (HTML)"


def pdf(found, *, title: str | None = None, as_of: dt.date | None = None) -> bytes:
    """The plan's lot table as PDF/UA-1 bytes (``found``: the ``PlanResult`` the page shows)."""
    from sloat_core.outputs.plan_document import plan_pdf_bytes

    return plan_pdf_bytes(found, title=title, as_of=as_of)


def web_page(found, *, title: str | None = None, as_of: dt.date | None = None) -> bytes:
    """The plan's lot table as an accessible web page, UTF-8: the HTML its PDF is made from."""
    from sloat_core.outputs.plan_document import plan_html

    return plan_html(found, title=title, as_of=as_of).encode("utf-8")
