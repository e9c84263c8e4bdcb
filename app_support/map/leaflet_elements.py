"""The map's own Leaflet elements: small scripts added to the folium map, each with its stylesheet.

- :class:`ParcelLabels`: the tax parcels' SBL labels at street zoom, while the tax parcel lines are shown;
- :class:`HatchPatterns`: hatched fills on the map's canvas, the shapes of the printed report's hatches;
- :class:`OfflineBase`: the base drawn from the layer set (village boundary, roads) when the tiles cannot load;
- :class:`ScrollGuard`: the page scrolls over the map until the map is used;
- :class:`FrameDocument`: the map frame's own document gets a title and a language (``<html lang="en">``);
- :class:`LinkedLayerLoader`: the layers the server sends by link, read at once and drawn in their order.

Each is a branca ``MacroElement`` whose script names the map it is added to; no text from a layer file
goes into a script as code (label text goes in with ``textContent``). The map that carries them, the
layer styles and the legend are in :mod:`app_support.map.mapping`.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict

from branca.element import MacroElement
from jinja2 import Template

from app_support.map import folium_templates

__all__ = [
    "PARCEL_LINES_CLASS",
    "LABEL_MIN_ZOOM",
    "LABELS_PANE",
    "ParcelLabels",
    "HatchPatterns",
    "OFFLINE_BASE_CLASS",
    "OfflineBase",
    "ScrollGuard",
    "MAP_DOCUMENT_TITLE",
    "FrameDocument",
    "LinkedLayerLoader",
]

#: Leaflet className of the tax-parcel line features: the labels show only while they are on the map.
PARCEL_LINES_CLASS = "sloat-parcel-lines"
#: The title of the map frame's own document (what a screen reader names the document as it enters the frame).
MAP_DOCUMENT_TITLE = "Map of the parcel and its constraints"
#: The map pane of the SBL labels (Leaflet gives it the class ``leaflet-sloatLabels-pane``).
LABELS_PANE = "sloatLabels"
#: Zoom from which the tax parcels are labelled with their SBL ("street zoom").
LABEL_MIN_ZOOM = 17


class ParcelLabels(MacroElement):
    """SBL labels of the tax parcels in view, at street zoom, while the "Tax parcel lines" layer is shown.

    The points are constants of the layer set (so the base map stays the same between reruns); the
    text goes in with ``textContent``, never as HTML. The labels are drawn again only when the parcels to
    label change: after the map is moved or zoomed, or another layer is added or removed; never in answer to
    their own adding and clearing (that once redrew them every 50 ms for as long as they were shown). They sit
    in a pane of their own, just under the markers, hidden from assistive technology: a screen reader would read
    out up to 400 numbers, and the chosen parcel's SBL is in the page's text.
    """

    _template = Template("""
{% macro header(this, kwargs) %}
<style>.sloat-parcel-label span{font:11px/1.1 sans-serif;color:#222;background:rgba(255,255,255,0.75);
padding:0 2px;white-space:nowrap;position:relative;left:-50%;}</style>
{% endmacro %}
{% macro script(this, kwargs) %}
(function(){
  var map = {{ this._parent.get_name() }};
  var pts = {{ this.points_json }};
  var pane = map.getPane("{{ this.pane }}") || map.createPane("{{ this.pane }}");
  pane.style.zIndex = 590; pane.setAttribute("aria-hidden", "true");
  var group = L.layerGroup(), drawn = "";
  function shown(){
    var on = false;
    map.eachLayer(function(l){ if (l !== group && l.options && l.options.className === "{{ this.css_class }}") on = true; });
    return on;
  }
  function inView(){
    var out = [];
    if (map.getZoom() < {{ this.min_zoom }} || !shown()) return out;
    var b = map.getBounds();
    for (var i = 0; i < pts.length && out.length < 400; i++) if (b.contains([pts[i][0], pts[i][1]])) out.push(i);
    return out;
  }
  function update(){
    var want = inView(), key = want.join(",");
    if (key === drawn) return;  // the same parcels: Leaflet keeps their labels in place as the map moves
    drawn = key;
    group.clearLayers();
    for (var j = 0; j < want.length; j++) {
      var p = pts[want[j]], el = document.createElement("span"); el.textContent = p[2];
      L.marker([p[0], p[1]], {pane: "{{ this.pane }}", interactive: false, keyboard: false,
               icon: L.divIcon({className: "sloat-parcel-label", html: el, iconSize: null})}).addTo(group);
    }
    if (want.length && !map.hasLayer(group)) group.addTo(map);
    else if (!want.length && map.hasLayer(group)) map.removeLayer(group);
  }
  var timer = null;
  function later(e){
    if (e && e.layer && (e.layer === group || group.hasLayer(e.layer))) return;  // the labels' own adding and clearing
    clearTimeout(timer); timer = setTimeout(update, 50);
  }
  map.on("zoomend moveend layeradd layerremove", later);
  later();
})();
{% endmacro %}
""")

    def __init__(self, points: list, min_zoom: int = LABEL_MIN_ZOOM):
        super().__init__()
        self._name = "ParcelLabels"
        self.points_json = _points_json(points)
        self.min_zoom = int(min_zoom)
        self.css_class = PARCEL_LINES_CLASS
        self.pane = LABELS_PANE


_POINTS_JSON: OrderedDict = OrderedDict()  # id(points) -> (points, json): the cached label points of a layer set
_POINTS_LOCK = threading.Lock()


def _points_json(points: list) -> str:
    """``map_json(points)``, written once per list object (the layer set's cached label points are one list)."""
    with _POINTS_LOCK:
        hit = _POINTS_JSON.get(id(points))
    if hit is not None and hit[0] is points:
        return hit[1]
    text = folium_templates.map_json(points)
    with _POINTS_LOCK:
        _POINTS_JSON[id(points)] = (points, text)  # the entry keeps the list alive: its id stays its own
        while len(_POINTS_JSON) > 4:
            _POINTS_JSON.popitem(last=False)
    return text


class HatchPatterns(MacroElement):
    """Hatched fills on the map's canvas, the same shapes as the printed report's hatches.

    Layers whose ``fillColor`` is ``hatch:<kind>:<#rrggbb>`` are filled with a light tint of the colour
    crossed by lines (or dots, rings) of the full colour, so where two layers overlap both patterns
    stay readable instead of the colours mixing into one that is not in the legend. Leaflet's canvas
    renderer takes a ``CanvasPattern`` as a fill; each pattern is made once per canvas and kind and colour,
    not on every redraw.
    """

    _template = Template("""
{% macro script(this, kwargs) %}
(function(){
  if (!L.Canvas || L.Canvas.prototype._sloatHatch) return;
  var N = 9, tiles = {};
  function tile(kind, colour){
    var c = document.createElement("canvas"); c.width = c.height = N;
    var g = c.getContext("2d");
    g.globalAlpha = 0.28; g.fillStyle = colour; g.fillRect(0, 0, N, N); g.globalAlpha = 1;
    g.strokeStyle = colour; g.fillStyle = colour; g.lineWidth = 1.6; g.lineCap = "square";
    function line(x1, y1, x2, y2){ g.beginPath(); g.moveTo(x1, y1); g.lineTo(x2, y2); g.stroke(); }
    function fwd(){ line(-1, N + 1, N + 1, -1); line(-1, 1, 1, -1); line(N - 1, N + 1, N + 1, N - 1); }
    function back(){ line(-1, -1, N + 1, N + 1); line(N - 1, -1, N + 1, 1); line(-1, N - 1, 1, N + 1); }
    if (kind === "fwd") fwd();
    else if (kind === "back") back();
    else if (kind === "cross") { fwd(); back(); }
    else if (kind === "horiz") line(0, N / 2, N, N / 2);
    else if (kind === "vert") line(N / 2, 0, N / 2, N);
    else if (kind === "grid") { line(0, N / 2, N, N / 2); line(N / 2, 0, N / 2, N); }
    else if (kind === "dots") { g.beginPath(); g.arc(N / 2, N / 2, 1.5, 0, 2 * Math.PI); g.fill(); }
    else if (kind === "rings") { g.lineWidth = 1.2; g.beginPath(); g.arc(N / 2, N / 2, 2.6, 0, 2 * Math.PI); g.stroke(); }
    return c;
  }
  window.sloatHatchPattern = function(ctx, spec){  // one pattern per context and spec, made on first use
    var made = ctx._sloatPatterns || (ctx._sloatPatterns = {});
    if (!made[spec]) {
      if (!tiles[spec]) { var p = spec.split(":"); tiles[spec] = tile(p[1], p[2]); }
      made[spec] = ctx.createPattern(tiles[spec], "repeat");
    }
    return made[spec];
  };
  var fillStroke = L.Canvas.prototype._fillStroke;
  L.Canvas.prototype._fillStroke = function(ctx, layer){
    var o = layer.options, spec = o.fillColor;
    if (typeof spec !== "string" || spec.lastIndexOf("hatch:", 0) !== 0) return fillStroke.call(this, ctx, layer);
    o.fillColor = window.sloatHatchPattern(ctx, spec);
    try { fillStroke.call(this, ctx, layer); } finally { o.fillColor = spec; }
  };
  L.Canvas.prototype._sloatHatch = true;
})();
{% endmacro %}
""")

    def __init__(self):
        super().__init__()
        self._name = "HatchPatterns"


#: Leaflet className of the offline base's features: hidden while the basemap tiles load.
OFFLINE_BASE_CLASS = "sloat-offline-base"


class OfflineBase(MacroElement):
    """Shows the base drawn from the layer set (village boundary, roads) when the tiles cannot load.

    A Board room often has no internet: on the first tile error, or when no tile layer is on the map,
    the map gets a paper background, the features of :data:`OFFLINE_BASE_CLASS` become visible and
    a note says where the base comes from. The attribution then says what is drawn: the credit of a tile layer
    none of whose tiles has loaded leaves it (no "© OpenStreetMap contributors" under a base drawn from the
    layer set; it comes back with the layer's first tile), and a layer carrying ``sloatCredit`` (the offline
    base's group, :func:`app_support.map.mapping.offline_base_group`: the layer set's name) is credited while it is
    on the map. With no such layer the note says only that there are no tiles.
    """

    _template = Template("""
{% macro script(this, kwargs) %}
(function(){
  var map = {{ this._parent.get_name() }};
  var offline = false, note = null, credited = 0;
  function reveal(l){
    if (l.options && l.options.className === "{{ this.css_class }}" && l.setStyle) { l.setStyle({opacity: 0.9}); }
  }
  function uncredit(l){
    if (l instanceof L.TileLayer && !l._sloatLoaded && !l._sloatUncredited && map.attributionControl
        && l.getAttribution && l.getAttribution()) {
      map.attributionControl.removeAttribution(l.getAttribution()); l._sloatUncredited = true;
    }
  }
  function say(){ if (note) note.textContent = credited > 0 ? "{{ this.note }}" : "{{ this.bare }}"; }
  function credit(l){
    var c = l.options && l.options.sloatCredit;
    if (c && !l._sloatCredited && map.attributionControl) {
      map.attributionControl.addAttribution(c); l._sloatCredited = true; credited++; say();
    }
  }
  function show(){
    if (offline) return; offline = true;
    map.getContainer().style.background = "#f4f2ec";
    map.eachLayer(reveal);
    map.eachLayer(uncredit);
    var box = L.control({position: "bottomleft"});
    box.onAdd = function(){ note = L.DomUtil.create("div", "sloat-offline-note");
      note.style.cssText = "background:rgba(255,255,255,0.85);padding:2px 6px;font:12px sans-serif;color:#333;";
      say(); return note; };
    box.addTo(map);
    map.eachLayer(credit);
  }
  map.on("layeradd", function(e){
    if (e.layer instanceof L.TileLayer) {
      var t = e.layer;
      t.on("tileerror", show);
      t.on("tileload", function(){
        t._sloatLoaded = true;
        if (t._sloatUncredited && map.attributionControl) {
          map.attributionControl.addAttribution(t.getAttribution()); t._sloatUncredited = false;
        }
      });
    }
    if (offline) { reveal(e.layer); uncredit(e.layer); credit(e.layer); }
  });
  map.on("layerremove", function(e){
    var l = e.layer;
    if (l._sloatCredited && map.attributionControl) {
      map.attributionControl.removeAttribution(l.options.sloatCredit); l._sloatCredited = false; credited--; say();
    }
  });
  setTimeout(function(){
    var tiles = false;
    map.eachLayer(function(l){ if (l instanceof L.TileLayer) tiles = true; });
    if (!tiles) show();
  }, 1200);
})();
{% endmacro %}
""")

    def __init__(self, note: str = "No map tiles (offline): base drawn from the layer set",
                 bare: str = "No map tiles (offline)"):
        super().__init__()
        self._name = "OfflineBase"
        self.css_class = OFFLINE_BASE_CLASS
        self.note, self.bare = (t.replace('"', "'").replace("<", "").replace("\\", "") for t in (note, bare))


class ScrollGuard(MacroElement):
    """The page scrolls over the map until the map is used, as embedded maps do.

    The wheel over the map scrolls the page and a hint says "Ctrl + scroll to zoom the map"; with Ctrl
    (or Cmd) held, or once the map has been clicked or given the keyboard focus, the wheel zooms it, until
    the pointer leaves the map or the page gets the focus back. A wheel event not for the map is stopped
    before it reaches Leaflet (in the capture phase, without ``preventDefault``), so the browser scrolls the
    page around the map's frame. On a touch screen (a coarse primary pointer) one finger scrolls the page
    and two fingers move and zoom the map (Leaflet's one-finger dragging off: the map's ``touch-action``
    becomes ``pan-x pan-y``), with the hint "Use two fingers to move the map".
    """

    _template = Template("""
{% macro header(this, kwargs) %}
<style>.sloat-scroll-hint{position:absolute;inset:0;z-index:1000;display:flex;align-items:center;
justify-content:center;background:rgba(0,0,0,0.45);color:#fff;font:600 20px/1.3 sans-serif;text-align:center;
padding:0 12px;pointer-events:none;opacity:0;transition:opacity .25s;}
.sloat-scroll-hint.sloat-shown{opacity:1;}</style>
{% endmacro %}
{% macro script(this, kwargs) %}
(function(){
  var map = {{ this._parent.get_name() }};
  var box = map.getContainer();
  var active = false, timer = null;
  var mac = /Mac|iPhone|iPad/.test(navigator.platform || "");
  var hint = document.createElement("div");
  hint.className = "sloat-scroll-hint"; hint.setAttribute("aria-hidden", "true");
  box.appendChild(hint);
  function show(text){
    hint.textContent = text; hint.classList.add("sloat-shown");
    clearTimeout(timer); timer = setTimeout(function(){ hint.classList.remove("sloat-shown"); }, 1200);
  }
  function on(){ active = true; box.setAttribute("data-sloat-wheel", "zoom"); hint.classList.remove("sloat-shown"); }
  function off(){ active = false; box.setAttribute("data-sloat-wheel", "page"); }
  off();
  box.addEventListener("mousedown", on, true);
  box.addEventListener("focusin", on, true);
  box.addEventListener("mouseleave", off);
  window.addEventListener("blur", off);
  document.addEventListener("wheel", function(e){
    if (!box.contains(e.target) || active || e.ctrlKey || e.metaKey) return;
    e.stopPropagation();
    show(mac ? "\u2318 + scroll to zoom the map" : "Ctrl + scroll to zoom the map");
  }, {capture: true, passive: true});
  var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (coarse && map.dragging) {
    map.dragging.disable();
    box.addEventListener("touchmove", function(e){
      if (e.touches && e.touches.length === 1) show("Use two fingers to move the map");
    }, {passive: true});
  }
})();
{% endmacro %}
""")

    def __init__(self):
        super().__init__()
        self._name = "ScrollGuard"


class FrameDocument(MacroElement):
    """The map frame's document: its ``<title>`` and ``<html lang>`` (WCAG 2.4.2 and 3.1.1, axe's
    ``document-title`` and ``html-has-lang`` run inside the frame).

    The frame is streamlit-folium's component page, whose title names the component ("Streamlit Folium
    Component"), not what the frame holds; the map's script sets both on the frame's own document, each time
    the map is drawn. The title is a constant of this module (``json.dumps``: a string literal, never code).
    """

    _template = Template("""
{% macro script(this, kwargs) %}
document.title = {{ this.title_js }};
document.documentElement.setAttribute("lang", {{ this.lang_js }});
{% endmacro %}
""")

    def __init__(self, title: str = MAP_DOCUMENT_TITLE, lang: str = "en"):
        super().__init__()
        self._name = "FrameDocument"
        self.title_js, self.lang_js = json.dumps(title).replace("<", "\\u003c"), json.dumps(lang)


class LinkedLayerLoader(MacroElement):
    """Reads the layers the server sends by link (:mod:`app_support.map.linked_layers`) all at once, and draws
    them in the order the map's script declares them.

    Each link in the feature groups' script calls ``window.__sloatLinkedLayers.load(url, add)``. The first time,
    the requests of all the links of one script start together (they were synchronous requests, one after
    the other); when every one has arrived, each layer's data is handed to its ``add`` in the script's order, and
    what the script put on the map after that link (the layers that follow, the parcel's outline) is brought to
    the front again in its own order, so the canvas draws everything in the script's order, as before. A link
    that fails (no answer, another status than 200, not JSON) leaves its layer empty, as a failed tile would;
    the others are drawn. The data is kept in the frame: a later script (a pick redraws the groups) adds it at
    once, as before. ``loading()`` counts the links read but not yet drawn (the tests and the bench wait for 0).
    A link whose answer the page itself asked for as the frame was made (:func:`app_support.map.frame_prefetch.
    install_layers`) takes that answer (once; the same status and JSON rules) instead of asking again.
    """

    _template = Template("""
{% macro script(this, kwargs) %}
(function(){
  var map = {{ this._parent.get_name() }};
  var kept = {}, asked = {}, open = null, waiting = 0;
  function early(url){  // the text the page asked for as the frame was made (frame_prefetch.install_layers), once
    try { var e = window.parent !== window && window.parent.__sloatLinkedEarly;
          return e ? e.take(new URL(url, window.location.href).href) : null; }
    catch (err) { return null; }
  }
  function read(url){
    if (!(url in asked)) {
      var text = early(url);
      asked[url] = (text ? text.then(function(t){ return t === null ? null : JSON.parse(t); })
                         : fetch(url).then(function(r){ return r.status === 200 ? r.json() : null; }))
        .catch(function(){ return null; }).then(function(data){ kept[url] = data; return data; });
    }
    return asked[url];
  }
  function added(e){ open.links[open.links.length - 1].after.push(e.layer); }
  function front(l){ if (l._map && (l instanceof L.Path || l instanceof L.ImageOverlay)) l.bringToFront(); }
  function draw(links){
    links.forEach(function(link){
      try { if (kept[link.url]) link.add(kept[link.url]); link.after.forEach(front); }
      catch (e) { console.error(e); }
      waiting--;
    });
  }
  window.__sloatLinkedLayers = {
    load: function(url, add){
      if (!open && url in kept) { if (kept[url]) add(kept[url]); return; }
      if (!open) {
        var script = open = {links: []};
        map.on("layeradd", added);
        Promise.resolve().then(function(){
          map.off("layeradd", added); open = null;
          return Promise.all(script.links.map(function(link){ return read(link.url); }));
        }).then(function(){ draw(script.links); });
      }
      open.links.push({url: url, add: add, after: []});
      waiting++;
      read(url);
    },
    loading: function(){ return waiting; }
  };
})();
{% endmacro %}
""")

    def __init__(self):
        super().__init__()
        self._name = "LinkedLayerLoader"
