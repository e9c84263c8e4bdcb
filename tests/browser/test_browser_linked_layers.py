"""The layers the map reads by link (app_support/map/linked_layers.py) are requested together and drawn in the
map script's order (app_support/map/leaflet_elements.LinkedLayerLoader): a layer that answers late is drawn in its
place, one whose link fails stays empty and the others are drawn, the parcel's outline stays on top, and a later
script (a rerun redraws the groups) adds the layers at once from what the frame kept.

No server: the map's frame is made as the app makes it (the base map's script, the feature groups' scripts with
their links, the layer control) and put together as streamlit-folium's frame does (its HTML, Leaflet and
Leaflet.draw from the app's static files, the base script, then ``eval`` of the groups and the control); the
browser's requests are answered by the test (the page, the static files, the linked files from Streamlit's
in-memory media storage, as a running server holds them).
"""

from __future__ import annotations

import json
from pathlib import Path

import folium
import pytest
import streamlit_folium
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from app_support.map import linked_layers, mapping
from app_support.map.map_component import _base_parts
from browser.conftest import POLL_MS

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "http://sloat.test"
FRAME = ORIGIN + "/component/streamlit_folium.st_folium/index.html"
ROLES = ("floodplain", "wetlands", "ponds")

#: The map's canvas, bottom to top: for each path drawn, the feature group it belongs to (its index in the map's
#: script, -1 for none); each group's features (null for a group of no GeoJSON layer); the links still on their way.
DRAWN_JS = """() => { const groups = window.feature_group.filter(g => map_div.hasLayer(g));
  const owner = new Map(), count = [];
  groups.forEach((g, i) => { let n = 0, geo = false; (function walk(l) { if (l instanceof L.GeoJSON) geo = true;
      if (l.eachLayer) l.eachLayer(walk); else { owner.set(l, i); if (l.feature) n++; } })(g);
    count.push(geo ? n : null); });
  const order = [];
  for (const k in map_div._layers) { const r = map_div._layers[k]; if (!(r instanceof L.Canvas)) continue;
    for (let o = r._drawFirst; o; o = o.next) order.push(owner.has(o.layer) ? owner.get(o.layer) : -1); }
  return {order, count, loading: window.__sloatLinkedLayers.loading()}; }"""
#: The component's rerun: the groups and the control removed, the same script evaluated again.
RERUN_JS = """(text) => { window.feature_group.forEach(g => map_div.removeLayer(g)); window.feature_group = [];
  map_div.removeControl(window.layer_control); eval(text); return window.__sloatLinkedLayers.loading(); }"""


def _squares(x0: float, n: int = 60) -> dict:
    """``n`` small squares in a row from longitude ``x0``: a GeoJSON long enough to be sent by link."""
    features = []
    for i in range(n):
        x, y = x0 + i * 0.0004, 41.162
        ring = [[x, y], [x + 0.0003, y], [x + 0.0003, y + 0.0003], [x, y + 0.0003], [x, y]]
        features.append({"type": "Feature", "properties": {"label": f"feature {i}"},
                         "geometry": {"type": "Polygon", "coordinates": [ring]}})
    return {"type": "FeatureCollection", "features": features}


@pytest.fixture
def storage(monkeypatch):
    store = MemoryMediaFileStorage("/media")
    monkeypatch.setattr(linked_layers, "_storage", lambda: store)
    mapping.uninstall_group_cache()  # no script kept from another test's storage
    mapping.install_group_cache()
    yield store
    mapping.uninstall_group_cache()
    mapping.install_group_cache()


def _frame(storage) -> tuple[str, str, int]:
    """The map's frame page, the groups' and control's script, and the number of links in it."""
    fmap = mapping.base_map()
    parts = _base_parts(fmap, "linked")
    layers = [_squares(-74.200 + 0.001 * k) for k in range(len(ROLES))]  # overlapping rows: the order shows
    parcel = {"type": "Polygon", "coordinates": [[[-74.2, 41.1621], [-74.17, 41.1621], [-74.17, 41.1624],
                                                  [-74.2, 41.1624], [-74.2, 41.1621]]]}
    groups = [mapping.layer_group(role, gj) for role, gj in zip(ROLES, layers)] + [mapping.parcel_group(parcel)]
    text = "".join(streamlit_folium._get_feature_group_string(g, map=fmap, idx=i) for i, g in enumerate(groups))
    text += streamlit_folium._get_layer_control_string(folium.LayerControl(), fmap)
    links = text.count("window.__sloatLinkedLayers.load(")
    scripts = "".join(f'<script src="{src}"></script>' for src in (mapping.MAP_JS[0][1], mapping.DRAW_JS[0][1]))
    page = (f"<!doctype html><html><head>{parts['header']}</head><body>"
            '<div id="map_div" style="width:600px;height:400px"></div>'  # the component's own page holds it
            f"{parts['html']}{scripts}<script>{parts['script']}</script>"
            f"<script>window.__groups = {json.dumps(text)};</script></body></html>")
    return page, text, links


def _serve_static(route, url: str) -> None:
    """The app's own static file (Leaflet, Leaflet.draw, their styles) the frame asks for, from the repository."""
    kind = "text/css" if url.endswith(".css") else "text/javascript"
    route.fulfill(status=200, content_type=kind, body=(ROOT / "static" / url.split("/app/static/", 1)[1]).read_bytes())


def test_linked_layers_are_drawn_in_their_order_the_parcel_on_top_one_late_one_failed(browser, storage):
    page_html, text, links = _frame(storage)
    assert links == len(ROLES)  # each layer by link, the parcel's small outline in the script
    asked: list[str] = []
    held: list = []

    def answer(route) -> None:
        url = route.request.url
        if url == FRAME:
            route.fulfill(status=200, content_type="text/html", body=page_html)
        elif "/app/static/" in url:
            _serve_static(route, url)
        elif "/media/" in url:
            asked.append(url)
            n = len(asked)  # (a handler's call into the browser lets the next request's handler run)
            if n == 1:
                held.append(route)  # the first is answered last: after every other link has been asked
            elif n == 2:
                route.abort()  # the second fails
            else:
                route.fulfill(status=200, content_type="application/json", body=linked_layers.linked_bytes(url))
            if n == links:
                first = held.pop()
                first.fulfill(status=200, content_type="application/json",
                              body=linked_layers.linked_bytes(first.request.url))
        else:
            route.abort()

    context = browser.new_context()
    try:
        page = context.new_page()
        page.route(f"{ORIGIN}/**", answer)
        page.goto(FRAME)
        page.evaluate("() => { eval(window.__groups); }")
        page.wait_for_function("() => window.__sloatLinkedLayers.loading() === 0", timeout=15_000, polling=POLL_MS)
        drawn = page.evaluate(DRAWN_JS)
        assert len(asked) == links, asked  # each link read once (the first answered only once all were asked)
        assert drawn["order"] == sorted(drawn["order"]), drawn  # each group's paths above the groups before it
        assert drawn["order"][-1] == len(ROLES), drawn  # the parcel's outline on top
        assert drawn["count"] == [60, 0, 60, 1], drawn  # the failed link's layer is empty, the others drawn
        # A rerun: the same script again adds the layers from what the frame kept, at once, and asks nothing.
        assert page.evaluate(RERUN_JS, text) == 0
        again = page.evaluate(DRAWN_JS)
        assert again["order"] == drawn["order"] and again["count"] == drawn["count"], again
        assert len(asked) == links
    finally:
        context.close()


def test_linked_layers_asked_for_by_the_page_are_taken_once_by_the_frame_one_failed(browser, storage):
    """The page asks for the map's linked layers as the frame is made (app_support.map.frame_prefetch.layers_html);
    the frame's loader takes those answers instead of asking again, with the same rules (a failed one leaves its
    layer empty), in the script's order; a second frame on the same page (a new component) asks the server."""
    from app_support.map import frame_prefetch

    page_html, text, links = _frame(storage)
    urls = frame_prefetch.linked_urls(text)
    assert len(urls) == links == len(ROLES)
    parent = (f"<!doctype html><html><head>{frame_prefetch.layers_html(urls)}</head><body>"
              f'<iframe id="map" title="streamlit_folium.st_folium" src="{FRAME}" style="width:620px;height:420px">'
              "</iframe></body></html>")  # the page asks once the frame is there, as Streamlit titles it
    asked: list[tuple[str, str]] = []

    def answer(route) -> None:
        url = route.request.url
        if url == ORIGIN + "/":
            route.fulfill(status=200, content_type="text/html", body=parent)
        elif url == FRAME:
            route.fulfill(status=200, content_type="text/html", body=page_html)
        elif "/app/static/" in url:
            _serve_static(route, url)
        elif "/media/" in url:
            asked.append((route.request.frame.url, url))
            if url.endswith(urls[1]):
                route.abort()  # the second layer's answer fails
            else:
                route.fulfill(status=200, content_type="application/json", body=linked_layers.linked_bytes(url))
        else:
            route.abort()

    context = browser.new_context()
    try:
        page = context.new_page()
        page.route(f"{ORIGIN}/**", answer)
        page.goto(ORIGIN + "/")
        page.wait_for_function("() => !!window.__sloatLinkedEarly", polling=POLL_MS)
        frame = page.frame_locator("#map").locator("#map_div").element_handle().owner_frame()
        frame.wait_for_function("() => !!window.__sloatLinkedLayers", polling=POLL_MS)
        frame.evaluate("() => { eval(window.__groups); }")
        frame.wait_for_function("() => window.__sloatLinkedLayers.loading() === 0", timeout=15_000, polling=POLL_MS)
        drawn = frame.evaluate(DRAWN_JS)
        assert sorted(u for _, u in asked) == sorted(ORIGIN + u for u in urls), asked  # each once, by the page
        assert all(f == ORIGIN + "/" for f, _ in asked), asked  # none by the frame
        assert drawn["order"] == sorted(drawn["order"]) and drawn["order"][-1] == len(ROLES), drawn
        assert drawn["count"] == [60, 0, 60, 1], drawn  # the failed answer's layer is empty, the others drawn
        # Taken once: a new frame (the component made again) asks the server for each layer itself.
        frame.evaluate("() => { window.__sloatOldFrame = true; }")  # the new frame's document is told apart by it
        page.evaluate("(src) => { const f = document.getElementById('map'); f.src = 'about:blank'; f.src = src; }",
                      FRAME)
        page.wait_for_function("""() => { const w = document.getElementById('map').contentWindow;
            return !!w && !w.__sloatOldFrame && !!w.__sloatLinkedLayers && !!w.__groups; }""", polling=POLL_MS)
        again = page.frame_locator("#map").locator("#map_div").element_handle().owner_frame()
        again.evaluate("() => { eval(window.__groups); }")
        again.wait_for_function("() => window.__sloatLinkedLayers.loading() === 0", timeout=15_000, polling=POLL_MS)
        assert sum(1 for f, _ in asked if f == FRAME) == links, asked
    finally:
        context.close()
