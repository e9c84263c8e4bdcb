"""The § citations of the deduction table never break inside, in a real browser (offline).

At a 1500 x 900 window (and 1280 x 900 in Standard mode, a common laptop), tax parcel P1 (its case's link opened) is
shown in Standard and Projector mode; every cell of the table's "§" column must lay its text out on one line
("§ 402-45A(2)(b)", not "§ 402-" / "45A(2)(b)"), while the table still fits its column (the constraint labels wrap
instead). Counter mode has no § column (everyday words); its table must still fit. The Parcel page is the
accessibility visits' (tests/browser/a11y_visit.py, which read the table at these windows at the end of each mode's
Parcel page visit, the counter's figures opened). Screenshots go to tests/artifacts/citation_nowrap_<mode>_<width>.png
for a person to look at.
"""

from __future__ import annotations

import pytest

from app_support.frame import state
from browser.a11y_visit import CITATION_WINDOWS, PARCEL

#: One worker walks the pages once for this module and the other modules that read the visits (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-a11y-visits")]


def test_deduction_table_citations_stay_on_one_line(a11y_visits):
    for mode in (state.STANDARD, state.COUNTER, state.PROJECTOR):
        found = a11y_visits.of(mode, PARCEL)["citations"]
        assert set(found) == set(CITATION_WINDOWS[mode]), found
        for width, seen in found.items():
            cells = seen["cells"]
            if mode == state.COUNTER:
                assert cells == []  # everyday words: no § column in the counter's table
            else:
                assert cells, "no § column found in the deduction table"
                assert all(text.startswith("§ 402-45") for text, *_ in cells), cells
                broken = [text for text, lines, *_ in cells if lines != 1]
                assert broken == [], f"citations broken across lines in {mode} mode at {width} px: {broken}"
                clipped = [text for text, _, right, edge in cells if right > edge + 1]
                assert clipped == [], f"citation cells outside the table's box in {mode} mode at {width} px: {clipped}"
            assert seen["wider"] == [], f"deduction table wider than its column in {mode} mode at {width} px"
