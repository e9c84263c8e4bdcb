"""The map credits what it draws: with no tiles (the browser tests run offline, as a Board room often is), the
base is drawn from the layer set, its note says so, and the attribution names the layer set, not the street
map's "© OpenStreetMap contributors". Where a tile has loaded the credit stays (Leaflet's own attribution
control, unchanged). A layer set with no roads and no village boundary draws no base: neither is credited."""

from __future__ import annotations

import pytest

from browser.conftest import OfflinePage

pytestmark = pytest.mark.browser

CREDIT_JS = """() => { const a = document.querySelector('.leaflet-control-attribution');
  const n = document.querySelector('.sloat-offline-note');
  return n ? [a ? a.textContent : '', n.textContent] : null; }"""


def _offline_credit(app: OfflinePage) -> tuple[str, str]:
    app.open("/")
    app.wait_map()
    found = app.poll_map(CREDIT_JS, bool, timeout_ms=20_000)
    assert found, "the offline note never showed (no tile error and no missing tile layer?)"
    return found


def test_offline_the_base_is_credited_to_the_layer_set_not_to_openstreetmap(sample_app):
    _offline_credit(sample_app)
    # the sample's roads and village boundary are drawn (their group may come after the note): the attribution
    # names where they come from
    attribution, note = sample_app.poll_map(CREDIT_JS, lambda v: bool(v) and "layer set" in v[0], timeout_ms=10_000)
    assert note == "No map tiles (offline): base drawn from the layer set"
    assert "Base drawn from the layer set: Sloatsburg sample (illustrative, not official)" in attribution, attribution
    assert "OpenStreetMap" not in attribution, attribution
    assert "Leaflet" in attribution  # the control itself stays, with the library's own credit


def test_offline_with_no_base_in_the_layer_set_nothing_is_credited_for_it(app):
    """(A page in the server's one browser context, its files cached as a returning visitor's: no new context.)"""
    attribution, note = _offline_credit(app)
    assert note == "No map tiles (offline)"  # the hand-built layers have no roads and no boundary
    assert "OpenStreetMap" not in attribution and "layer set" not in attribution, attribution
