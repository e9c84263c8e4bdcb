"""The map credits what it draws: with no tiles (the browser tests run offline, as a Board room often is), the
base is drawn from the layer set, its note says so, and the street map's "© OpenStreetMap contributors" is not
shown under it. Where a tile has loaded the credit stays (Leaflet's own attribution control, unchanged)."""

from __future__ import annotations

import pytest

from browser.conftest import OfflinePage

pytestmark = pytest.mark.browser

CREDIT_JS = """() => { const a = document.querySelector('.leaflet-control-attribution');
  const n = document.querySelector('.sloat-offline-note');
  return n ? [a ? a.textContent : '', n.textContent] : null; }"""


def test_offline_the_base_is_credited_to_the_layer_set_not_to_openstreetmap(browser, app_url):
    context = browser.new_context()
    try:
        app = OfflinePage(context.new_page(), app_url, [])
        app.open("/")
        app.wait_map()
        found = app.poll_map(CREDIT_JS, bool, timeout_ms=20_000)
        assert found, "the offline note never showed (no tile error and no missing tile layer?)"
        attribution, note = found
        assert "base drawn from the layer set" in note
        assert "OpenStreetMap" not in attribution, attribution
        assert "Leaflet" in attribution  # the control itself stays, with the library's own credit
    finally:
        context.close()
