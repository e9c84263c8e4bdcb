"""The Plan page's drawing layer holds the lots of the drawn plan, so that drawing again adds to them.

Leaflet.draw keeps what is drawn in one layer (``window.drawnItems`` in the map's frame), and ``st_folium`` sends
that layer's shapes back as ``all_drawings``: each shape one lot (:func:`app_support.inputs.plan_inputs.
take_drawings`). A map made afresh (a case reopened, the page visited again) starts with that layer empty: the lots
of the plan would be drawn on the map, but not in it, and the next lot drawn would be the plan's only lot.
:func:`drawing_layer_group` puts them back: a feature group whose script empties the drawing layer and puts the
drawn plan's lots in it, as Leaflet.draw's own shapes (edited and deleted by its toolbar like any shape drawn). The
script runs when the map's feature groups change (when the plan changes), so the layer always holds the plan's
lots; a plan read from a file leaves the drawing layer empty (drawing replaces it). Only numbers go into the
script (:func:`~app_support.map.folium_templates.map_json`).
"""

from __future__ import annotations

import folium
from branca.element import MacroElement
from jinja2 import Template

from app_support.map.folium_templates import map_json

__all__ = ["DRAWING_LAYER_NAME", "DrawnLots", "drawn_rings", "drawing_layer_group"]

#: The name of the (unlisted) feature group that fills the drawing layer.
DRAWING_LAYER_NAME = "Lots on the drawing layer"
_DIGITS = 8  # decimal degrees to about a millimetre


class DrawnLots(MacroElement):
    """Empty Leaflet.draw's layer and put ``rings`` in it: each lot a list of polygons, each polygon a list of
    rings of [longitude, latitude] positions (GeoJSON order), drawn as Leaflet.draw draws a new shape."""

    _template = Template("""
{% macro script(this, kwargs) %}
(function(lots){
  var items = window.drawnItems;
  if (!items || typeof items.clearLayers !== "function") return;
  items.clearLayers();
  lots.forEach(function(polygons){
    polygons.forEach(function(rings){
      var latlngs = rings.map(function(ring){ return ring.map(function(p){ return [p[1], p[0]]; }); });
      items.addLayer(L.polygon(latlngs, {color: "#3388ff", weight: 4, opacity: 0.5, fillOpacity: 0.2}));
    });
  });
})({{ this.lots_json }});
{% endmacro %}
""")

    def __init__(self, rings: list):
        super().__init__()
        self._name = "DrawnLots"
        self.lots_json = map_json(rings)


def drawn_rings(plan) -> list:
    """The lots of a drawn plan (a ``PlanSource`` with ``drawn``) as WGS84 polygons' rings, in the plan's order;
    an empty list for no plan or a plan read from a file."""
    from app_support.analysis_door import to_wgs84_geojson

    if plan is None or not plan.drawn:
        return []
    out = []
    for feature in plan.drawing.of("lots"):
        if feature.geometry.is_empty:
            continue
        geometry = to_wgs84_geojson(feature.geometry)
        polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" else (
            geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [])
        out.append([[[[round(float(v), _DIGITS) for v in position[:2]] for position in ring] for ring in polygon]
                    for polygon in polygons])
    return out


def drawing_layer_group(plan) -> folium.FeatureGroup:
    """The feature group (not listed in the layer control) that makes the drawing layer hold ``plan``'s drawn
    lots, or nothing at all for a plan read from a file or no plan."""
    group = folium.FeatureGroup(name=DRAWING_LAYER_NAME, control=False)
    group.add_child(DrawnLots(drawn_rings(plan)))
    return group
