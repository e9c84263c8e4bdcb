"""Every page in a real browser, with a parcel chosen, in Standard and Projector mode (offline).

The pages are those of the accessibility visits' session (tests/browser/a11y_visit.py: a visitor's case of tax parcel
P1, found by its SBL, with a footprint drawn and a timeline item, opened by its link; each page reached from the
sidebar's menu in each mode in turn, at 1366 x 900), one test a page: what each visit found the page showing. On each
page: no exception, no error box and no traceback, and no request that left the machine but the base map's tiles; in
Projector mode no visible text smaller than 24 px (plotly's SVG and the map iframe aside) and metric values at least
twice that; in Standard mode body type under 24 px. On the parcel page the colour key of the deduction table is the
legend's colour, the screening note and the sample notice are on screen next to the map, and in Projector mode the map
is the bigger one. Screenshots: the visits' tests/artifacts/axe_<mode>_<page>.png, for a person to look at.
"""

from __future__ import annotations

import pytest

from app_support.frame import state
from browser.a11y_visit import PARCEL, PROJECTOR_MIN_PX

#: One worker walks the pages once for this module, test_browser_axe.py and test_browser_a11y_reflow.py
#: (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-a11y-visits")]

#: The sidebar's pages with a parcel's own content (the walk-through and the case page have their own tests).
PAGES = [PARCEL, "Proposed project", "Cluster", "Plan, lot by lot", "Wetland mitigation", "Timeline", "Law"]
#: The Wetlands colour of the theme (#33a02c), as the browser paints it.
WETLANDS_RGB = "rgb(51, 160, 44)"
#: The Projector map's least height, px (a bigger map, the results below it at full width).
PROJECTOR_MAP_MIN_PX = 700


@pytest.mark.parametrize(("mode", "label"), [(mode, label) for mode in (state.STANDARD, state.PROJECTOR)
                                             for label in PAGES],
                         ids=[f"{mode}-{label}" for mode in (state.STANDARD, state.PROJECTOR) for label in PAGES])
def test_every_page_with_a_parcel(a11y_visits, mode, label):
    """Page ``label`` of the sidebar's menu in ``mode``, as the visit reached it from the menu (one test a page, so a
    page's problem fails its own test)."""
    visit = a11y_visits.of(mode, label)
    seen = visit["page"]
    assert seen["exceptions"] == 0 and seen["error boxes"] == 0 and not seen["traceback"], (label, seen)
    if label == PARCEL:
        assert seen["screening note"] and seen["sample notice"], seen
        colours = seen["wetlands colours"]
        assert colours["legend"] == colours["key"] == WETLANDS_RGB, colours
        if mode == state.PROJECTOR:
            assert seen["map height"] >= PROJECTOR_MAP_MIN_PX, seen["map height"]
    if mode == state.PROJECTOR:
        assert seen["small text"] == [], (label, seen["small text"][:8])
        if seen["metric px"] is not None:
            assert seen["metric px"] >= 2 * PROJECTOR_MIN_PX, (label, seen["metric px"])
    else:
        assert seen["body px"] < PROJECTOR_MIN_PX
    assert visit["blocked"] == [], visit["blocked"]
