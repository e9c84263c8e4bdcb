"""WCAG 1.4.10 and 1.4.4: every page reflows at 320 and 640 CSS px, in all three modes.

A 1280 px window at 400 % zoom is 320 CSS px wide, at 200 % 640 px. One visitor's session (tax parcel P1, a
footprint drawn on the Proposed project page, one timeline item) opens each of the 9 pages at 1366 px, then narrows
the window and measures: no horizontal scroll of the page body (the window, Streamlit's main column), and no element
outside the window, except those that scroll or pan inside their own box (the map's frame, plotly charts, data
grids and wide tables: two-dimensional content, which 1.4.10 allows). Each (mode, page) is visited once for this
module and test_browser_axe.py together (tests/browser/a11y_visit.py: what pokes out is
:data:`browser.a11y_visit.OVERFLOW_JS`).

Screenshots: tests/artifacts/a11y_reflow_<mode>_<width>_<n>.png, one per page, width and mode.
"""

from __future__ import annotations

import pytest

from browser.a11y_visit import MODE_PAGES, WIDTHS

#: One worker walks the pages once for this module and test_browser_axe.py (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-a11y-visits")]


@pytest.mark.parametrize(("mode", "label", "heading"), MODE_PAGES,
                         ids=[f"{mode}-{label}" for mode, label, _ in MODE_PAGES])
def test_every_page_reflows_at_320_and_640_css_px(a11y_visits, mode, label, heading):
    """One page in one mode at both widths (every page in every mode, one test each), as its visit found it."""
    visit = a11y_visits.of(mode, label)
    found = {}
    for width, _height in WIDTHS:
        result = visit[f"reflow {width}"]
        if result["scrolls"] or result["out"]:
            found[(label, width)] = result
    assert not found, "\n".join(f"{label} at {width} px: {r}" for (label, width), r in found.items())
