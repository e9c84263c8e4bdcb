"""At the clerk's 1366x768: the finder takes a full postal address and an SBL typed
without punctuation or with a letter for a digit (hand-built layers, tests/app_fixtures.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import app_fixtures as fx  # noqa: E402


@pytest.mark.parametrize("typed, sbl", [
    ("3 Test Road, Sloatsburg, NY 10974", fx.P2_SBL),
    ("15614123", fx.P1_SBL),
    ("156.14-l-24", fx.P2_SBL),
])
def test_the_finder_takes_what_people_type(app, typed, sbl):
    page = app.page
    page.set_viewport_size({"width": 1366, "height": 768})
    app.open()
    box = page.get_by_label("Tax parcel (SBL", exact=False)
    assert "155.06-1-42" in (page.locator("label", has_text="Tax parcel (SBL").first.inner_text())
    box.fill(typed)
    box.press("Enter")
    app.wait_text(f"Tax parcel {sbl}")
    app.settle()
    app.shot(f"search_{sbl}_{typed[:12].replace(' ', '_').replace(',', '')}")
