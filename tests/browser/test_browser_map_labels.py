"""The tax parcels' SBL labels on the map (app_support.map.leaflet_elements.ParcelLabels), in chromium, on the
hand-built layers with tax parcel P1 chosen: the map at street zoom, the tax parcel lines shown.

- On a still map the labels are drawn once and left alone. They once cleared and drew themselves again every 50 ms,
  each drawing answering the map's events for their own adding and clearing: a page left open kept its computer busy.
- They follow the map: gone below street zoom and while the tax parcel lines are turned off, back after; a move that
  keeps the same parcels in view leaves them as they are.
- A screen reader does not read them: they are out of the accessibility tree (up to 400 numbers, said one by one;
  the chosen parcel's SBL is in the page's text).

The claims share one page (a fresh page costs a new session, its map and a script run); the one that moves the map
puts it back as it found it. The map with its labels: tests/artifacts/map_labels_street_zoom.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
from browser.conftest import ARTIFACTS, MAP_IFRAME, SharedPage  # noqa: E402

from app_support.map.leaflet_elements import LABEL_MIN_ZOOM  # noqa: E402

pytestmark = pytest.mark.browser

#: The labels' texts on the map now.
LABELS_JS = "() => [...map_div.getContainer().querySelectorAll('.sloat-parcel-label')].map(e => e.textContent)"

#: Over one second of a still map: the labels shown at its end, and how many labels were added to the map or taken
#: off it meanwhile (anywhere in the map's panes).
LABELS_STILL_JS = """() => new Promise(done => {
  const root = map_div.getContainer();
  const label = n => n.nodeType === 1 && n.classList.contains('sloat-parcel-label');
  let changes = 0;
  const watch = new MutationObserver(found => { for (const m of found)
    changes += [...m.addedNodes].filter(label).length + [...m.removedNodes].filter(label).length; });
  watch.observe(root, {childList: true, subtree: true});
  setTimeout(() => { watch.disconnect();
    done({labels: [...root.querySelectorAll('.sloat-parcel-label')].map(e => e.textContent), changes}); }, 1000);
})"""

#: The labels (text, and whether the element is one marked before) after a move of 2 px, read once the labels have
#: answered the move: they answer 50 ms after it ends (moveend comes at once on a move without animation), and the
#: page's timers run in the order they fall due.
MOVED_2PX_JS = """() => new Promise(done => {
  const labels = () => [...map_div.getContainer().querySelectorAll('.sloat-parcel-label')];
  for (const e of labels()) e.dataset.seen = '1';
  map_div.panBy([2, 0], {animate: false});
  setTimeout(() => done(labels().map(e => [e.textContent, e.dataset.seen === '1'])), 300);
})"""

#: The tax parcel lines' layer, as the layer control holds it.
PARCEL_LINES_JS = "window.layer_control._layers.find(l => l.name === 'Tax parcel lines').layer"


class _ChosenPage(SharedPage):
    """The module's page: the app on the hand-built layers, P1 chosen by its SBL, the map zoomed to it."""

    def get(self):
        if self.app is None:
            self.renew().wait_map()
            self.app.choose_parcel(fx.P1_SBL)
            self.app.wait_map()
            self.app.wait_parcel_in_view()
        return self.app


@pytest.fixture(scope="module")
def _chosen_page(contexts, app_url):
    yield from _ChosenPage.for_module(contexts, app_url)


@pytest.fixture()
def chosen(_chosen_page, request):
    """The module's page with P1 chosen (_ChosenPage); a screenshot of it if the test failed."""
    yield _chosen_page.get()
    _chosen_page.shot_if_failed(request)


def _labels_become(app, test, what: str) -> list[str]:
    labels = app.poll_map(LABELS_JS, lambda v: v is not None and test(v), timeout_ms=10_000)
    assert labels is not None and test(labels), f"the labels never became {what}: {labels}"
    return labels


def test_the_labels_are_drawn_once_and_left_alone_while_the_map_is_still(chosen):
    zoom = chosen.map_frame().evaluate("() => map_div.getZoom()")
    assert zoom >= LABEL_MIN_ZOOM, f"P1 chosen, the map is at zoom {zoom}: not street zoom, no labels to watch"
    # a second in which the map was still (one just after the map moved may see the labels drawn once)
    found = chosen.poll_map(LABELS_STILL_JS, lambda v: bool(v) and fx.P1_SBL in v["labels"] and v["changes"] == 0,
                            timeout_ms=15_000)
    assert found and fx.P1_SBL in found["labels"], found
    assert found["changes"] == 0, found
    ARTIFACTS.mkdir(exist_ok=True)
    chosen.page.locator(MAP_IFRAME).screenshot(path=str(ARTIFACTS / "map_labels_street_zoom.png"))


def test_a_screen_reader_does_not_read_the_labels(chosen):
    _labels_become(chosen, lambda v: fx.P1_SBL in v, "P1's among others")
    frame = chosen.page.frame_locator(MAP_IFRAME)
    label = frame.locator(".sloat-parcel-label", has_text=fx.P1_SBL)
    assert label.is_visible()
    tree = frame.locator(".leaflet-container").aria_snapshot()  # what the accessibility tree holds of the map
    assert 'button "Zoom in"' in tree, tree  # the map's controls are read
    assert fx.P1_SBL not in tree, tree


def test_the_labels_follow_the_zoom_and_the_tax_parcel_lines_and_stay_put_on_a_small_move(chosen):
    frame = chosen.map_frame()
    zoom, centre = frame.evaluate("() => [map_div.getZoom(), map_div.getCenter()]")
    before = _labels_become(chosen, lambda v: fx.P1_SBL in v, "P1's among others")
    try:
        # a move of 2 px keeps the same parcels in view: the same label elements stay
        kept = frame.evaluate(MOVED_2PX_JS)
        assert sorted(text for text, _seen in kept) == sorted(before), kept
        assert all(seen for _text, seen in kept), kept

        frame.evaluate(f"() => map_div.setZoom({LABEL_MIN_ZOOM - 1}, {{animate: false}})")
        _labels_become(chosen, lambda v: v == [], "none below street zoom")
        frame.evaluate(f"() => map_div.setZoom({zoom}, {{animate: false}})")
        _labels_become(chosen, lambda v: fx.P1_SBL in v, "shown again at street zoom")

        frame.evaluate(f"() => map_div.removeLayer({PARCEL_LINES_JS})")  # as the layer control's box unticked
        _labels_become(chosen, lambda v: v == [], "none with the tax parcel lines off")
        frame.evaluate(f"() => map_div.addLayer({PARCEL_LINES_JS})")
        _labels_become(chosen, lambda v: fx.P1_SBL in v, "shown again with the tax parcel lines on")
    finally:  # the map as the choice left it
        frame.evaluate(f"(c) => {{ map_div.addLayer({PARCEL_LINES_JS}); map_div.setView(c, {zoom}, {{animate: false}}); }}",
                       centre)
