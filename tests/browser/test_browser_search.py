"""At the clerk's 1366x768: the finder takes a full postal address and an SBL typed
without punctuation or with a letter for a digit (hand-built layers, tests/app_fixtures.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from browser.conftest import new_offline_page, shot_if_failed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import app_fixtures as fx  # noqa: E402


class _Clerk:
    """One page at 1366x768 for the three searches, one after another in the same finder (each the clerk's next
    lookup). A search waits for a parcel the page does not show yet: if it does (a search run alone after one that
    found the same parcel), the other test parcel is looked up first."""

    def __init__(self, contexts, url: str):
        self.contexts, self.url = contexts, url
        self.app = None

    def showing_another_than(self, sbl: str):
        if self.app is None:
            self.app = new_offline_page(self.contexts, self.url)
            self.app.page.set_viewport_size({"width": 1366, "height": 768})
            self.app.open()
        elif self.app.page.get_by_text(f"Tax parcel {sbl}", exact=False).filter(visible=True).count():
            other = fx.P2_SBL if sbl == fx.P1_SBL else fx.P1_SBL
            self.app.choose_parcel(other)
        return self.app


@pytest.fixture(scope="module")
def _clerk(contexts, app_url):
    shared = _Clerk(contexts, app_url)
    yield shared
    if shared.app is not None:
        shared.app.page.close()


@pytest.fixture()
def clerk(_clerk, request):
    """The module's page for the searches (_Clerk); a screenshot if the test failed."""
    yield _clerk
    if _clerk.app is not None:
        shot_if_failed(request, _clerk.app)


@pytest.mark.parametrize("typed, sbl", [
    ("3 Test Road, Sloatsburg, NY 10974", fx.P2_SBL),
    ("15614123", fx.P1_SBL),
    ("156.14-l-24", fx.P2_SBL),
])
def test_the_finder_takes_what_people_type(clerk, typed, sbl):
    app = clerk.showing_another_than(sbl)
    page = app.page
    box = page.get_by_label("Tax parcel (SBL", exact=False)
    assert "155.06-1-42" in (page.locator("label", has_text="Tax parcel (SBL").first.inner_text())
    assert not page.get_by_text(f"Tax parcel {sbl}", exact=False).filter(visible=True).count()
    box.fill(typed)
    box.press("Enter")
    app.wait_text(f"Tax parcel {sbl}")
    app.settle()
    app.shot(f"search_{sbl}_{typed[:12].replace(' ', '_').replace(',', '')}")
