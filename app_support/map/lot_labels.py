"""Where the plan map's lot labels go: each inside its lot, and only where it fits at the map's zoom.

A lot's label ("Lot 3" over "does not conform") is placed at the point of the lot farthest from its edges (the
pole of inaccessibility, found in the map's pixels at the zoom it opens at) when a box of the label's estimated
size (:func:`text_box`) fits inside the lot there and overlaps no label placed before it. A lot too small for its
full label gets its name alone (its answer is read from its pattern and from the table), and one too small even for
that gets no label on the map: the page says which (:func:`unlabelled_note`), and the table below the map gives
every lot's answer in words. So no two labels ever cover each other, however small and close the lots.

Each label knows the zoom it was fitted at: zoomed further out the map hides it (it no longer fits); zoomed in it
shows again (:class:`LotLabel`). The label text is the lot's name from the file, escaped for the map's HTML by the
caller; it goes into the script as a JSON string (:func:`~app_support.map.folium_templates.map_json`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from branca.element import MacroElement
from jinja2 import Template

from app_support.map.folium_templates import map_json

__all__ = ["FULL", "NAME", "LabelPlace", "text_box", "to_pixels", "from_pixels", "place_labels", "LotLabel",
           "unlabelled_note"]

FULL, NAME = "full", "name"
#: The label's type and box, as plan_map.LABEL_CSS sets them: (font px, line height, horizontal and vertical
#: padding plus border, px). The width of a character is estimated at 0.62 of the font's size (bold sans-serif:
#: wider than most of its letters are), and each box is given 4 px more each way, a margin between labels.
_LOOK = {False: (12, 1.2, 5, 2), True: (20, 1.2, 8, 4)}
_CHAR_EM = 0.62
_MARGIN_PX = 4.0


def text_box(lines: list[str], *, large: bool = False) -> tuple[float, float]:
    """The estimated (width, height) in pixels of a label of ``lines`` (plain text), margin included.

    >>> text_box(["Lot 3", "does not conform"])
    (133.04, 36.8)
    """
    font, line, pad_x, pad_y = _LOOK[large]
    width = max((len(s) for s in lines), default=0) * _CHAR_EM * font + 2 * pad_x + _MARGIN_PX
    height = len(lines) * line * font + 2 * pad_y + _MARGIN_PX
    return round(width, 2), round(height, 2)


def to_pixels(lon: float, lat: float, zoom: float) -> tuple[float, float]:
    """A WGS84 position as the map's world pixels at ``zoom`` (Web Mercator, 256-pixel tiles)."""
    scale = 256.0 * 2.0 ** zoom
    lat = max(min(lat, 85.05112878), -85.05112878)
    y = (1.0 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2.0 * scale
    return (lon + 180.0) / 360.0 * scale, y


def from_pixels(x: float, y: float, zoom: float) -> tuple[float, float]:
    """World pixels at ``zoom`` as a WGS84 (longitude, latitude)."""
    scale = 256.0 * 2.0 ** zoom
    return x / scale * 360.0 - 180.0, math.degrees(math.atan(math.sinh(math.pi * (1.0 - 2.0 * y / scale))))


@dataclass(frozen=True)
class LabelPlace:
    """Where a lot's label goes: ``lat``/``lon`` its middle (the lot's inside point); ``kind`` what it shows at the
    zoom the map opens at: :data:`FULL` (its name over its answer), :data:`NAME` (its name alone) or None (no
    label); ``box`` its estimated box there in world pixels (x0, y0, x1, y1), None without a label or a zoom;
    ``levels`` what it shows at each zoom from a little below the opening one to the closest ((zoom, kind), ...;
    empty without a zoom: the label shown in full at every zoom)."""

    kind: str | None
    lat: float
    lon: float
    box: tuple[float, float, float, float] | None
    zoom: int | None
    levels: tuple = ()


def _largest(geometry):
    if geometry.geom_type == "MultiPolygon":
        return max(geometry.geoms, key=lambda g: g.area)
    if geometry.geom_type == "GeometryCollection":
        parts = [g for g in geometry.geoms if g.geom_type in ("Polygon", "MultiPolygon")]
        return _largest(max(parts, key=lambda g: g.area)) if parts else geometry
    return geometry


def _inside_point(polygon):
    """The point of ``polygon`` farthest from its edges (to a pixel), or a point on it when that cannot be found."""
    from shapely.ops import polylabel

    if polygon.geom_type == "Polygon" and not polygon.is_empty and polygon.area > 0:
        try:
            return polylabel(polygon if polygon.is_valid else polygon.buffer(0), tolerance=1.0)
        except Exception:  # noqa: BLE001 (a broken outline: any point of it will do)
            pass
    return polygon.representative_point() if not polygon.is_empty else None


#: Labels are fitted from this many zooms below the opening one (zoomed out a little, the labels that still fit
#: stay) up to the map's closest zoom.
ZOOMS_BELOW = 2
MAX_ZOOM = 20


def place_labels(lots: list[tuple[list[str], list[str], dict]], zoom: int | None, *, large: bool = False,
                 max_zoom: int = MAX_ZOOM) -> list[LabelPlace | None]:
    """Each lot's label place, in the lots' order.

    At each zoom, each lot in turn gets its full label if a box of its size (:func:`text_box`) fits inside the lot
    around its inside point and overlaps no label placed before it at that zoom, else its name alone on the same
    terms, else no label.

    Parameters
    ----------
    lots : list of (full label lines, name-only lines, WGS84 GeoJSON geometry)
    zoom : int or None
        The zoom the map opens at. None: no fitting (every lot labelled in full at its inside point).

    Returns None for a lot with nothing to put a label on (with a zoom: no area)."""
    import shapely
    from shapely.affinity import scale
    from shapely.geometry import box, shape

    shapes = []
    for _full, _name, geojson in lots:
        try:
            geometry = _largest(shape(geojson)) if geojson else None
        except Exception:  # noqa: BLE001 (nothing to label)
            geometry = None
        shapes.append(geometry if geometry is not None and not geometry.is_empty else None)
    if zoom is None:
        return [None if g is None else LabelPlace(FULL, (p := _inside_point(g)).y, p.x, None, None) for g in shapes]
    pixels = [None if g is None else shapely.transform(g, lambda xy: _project(xy, zoom)) for g in shapes]
    points = [None if g is None else _inside_point(g) for g in pixels]
    kinds: list[dict] = [{} for _ in lots]
    boxes: list[dict] = [{} for _ in lots]
    for level in range(max(1, zoom - ZOOMS_BELOW), max(max_zoom, zoom) + 1):
        factor, placed = 2.0 ** (level - zoom), []
        for i, (full, name, _g) in enumerate(lots):
            outline, point = pixels[i], points[i]
            kinds[i][level] = None
            if outline is None or outline.geom_type != "Polygon":
                continue
            outline = scale(outline, factor, factor, origin=(0, 0)) if factor != 1 else outline
            cx, cy = point.x * factor, point.y * factor
            for kind, lines in ((FULL, full), (NAME, name)):
                width, height = text_box(lines, large=large)
                candidate = box(cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
                if outline.contains(candidate) and not any(candidate.intersects(p) for p in placed):
                    placed.append(candidate)
                    kinds[i][level], boxes[i][level] = kind, tuple(round(v, 2) for v in candidate.bounds)
                    break
    out: list[LabelPlace | None] = []
    for i, point in enumerate(points):
        if point is None or pixels[i].geom_type != "Polygon":
            out.append(None)
            continue
        lon, lat = from_pixels(point.x, point.y, zoom)
        out.append(LabelPlace(kinds[i][zoom], lat, lon, boxes[i].get(zoom), zoom, tuple(sorted(kinds[i].items()))))
    return out


def _project(lonlat, zoom):
    """(N, 2) longitudes and latitudes as world pixels at ``zoom`` (:func:`to_pixels`, for many at once)."""
    import numpy as np

    scale = 256.0 * 2.0 ** zoom
    lat = np.radians(np.clip(lonlat[:, 1], -85.05112878, 85.05112878))
    return np.column_stack([(lonlat[:, 0] + 180.0) / 360.0 * scale,
                            (1.0 - np.arcsinh(np.tan(lat)) / np.pi) / 2.0 * scale])


class LotLabel(MacroElement):
    """A lot's permanent label at its place: a Leaflet tooltip of class ``css_class``, added to the lot's own layer
    (so it comes and goes with the lots in the layer control). It shows ``full_html`` or ``name_html`` (each already
    escaped for the map) or nothing, as its place's ``levels`` say for the map's zoom (below the first level:
    nothing; above the last: the last); without levels, ``full_html`` at every zoom."""

    _template = Template("""
{% macro script(this, kwargs) %}
(function(){
  var texts = {{ this.texts_json }}, levels = {{ this.levels_json }}, shown = -1;
  var tip = L.tooltip({permanent: true, direction: "center", interactive: false, opacity: 1,
                       className: {{ this.css_json }}}).setLatLng({{ this.latlng_json }}).setContent(texts[0]);
  function kind(zoom){
    if (!levels.length) return 2;
    if (zoom < levels[0][0]) return 0;
    var k = levels[levels.length - 1][1];
    for (var i = 0; i < levels.length; i++) if (levels[i][0] === Math.round(zoom)) k = levels[i][1];
    return k;
  }
  function fit(){
    var el = tip.getElement(), k = tip._map ? kind(tip._map.getZoom()) : 2;
    if (!el) return;
    if (k !== shown && k > 0) { tip.setContent(texts[k === 2 ? 0 : 1]); }  // set again: placed again
    el.style.visibility = k > 0 ? "" : "hidden";
    shown = k;
  }
  tip.on("add", function(){ tip._map.on("zoomend", fit); fit(); });
  tip.on("remove", function(e){ if (e.target && e.target._map) e.target._map.off("zoomend", fit); shown = -1; });
  {{ this._parent.get_name() }}.addLayer(tip);
})();
{% endmacro %}
""")

    def __init__(self, full_html: str, name_html: str, place: LabelPlace, css_class: str):
        super().__init__()
        self._name = "LotLabel"
        self.texts = (full_html, name_html)
        self.texts_json = map_json([full_html, name_html])
        self.css_json = map_json([css_class])[1:-1]
        self.latlng_json = map_json([round(float(place.lat), 8), round(float(place.lon), 8)])
        self.levels_json = map_json([[int(z), {FULL: 2, NAME: 1}.get(k, 0)] for z, k in place.levels])


def unlabelled_note(names: list[str], kinds: list[str | None]) -> str | None:
    """The sentence under the map naming the lots whose answer is not written on the map (plain text), or None.

    >>> unlabelled_note(["1", "2", "3"], ["full", "name", None])
    'Too small for their labels at this scale: lot 2 is labelled by its name only, lot 3 not at all; zoom in on the map, or read each answer in the lot table.'
    """
    named = [n for n, k in zip(names, kinds, strict=True) if k == NAME]
    bare = [n for n, k in zip(names, kinds, strict=True) if k is None]
    if not named and not bare:
        return None

    def lots(found: list[str]) -> str:
        shown = ", ".join(found[:12]) + (f" and {len(found) - 12} more" if len(found) > 12 else "")
        return f"lot{'s' * (len(found) != 1)} {shown}"

    parts = []
    if named:
        one = len(named) == 1
        parts.append(f"{lots(named)} {'is' if one else 'are'} labelled by {'its' if one else 'their'} name only")
    if bare:
        parts.append(f"{lots(bare)} not at all")
    return ("Too small for their labels at this scale: " + ", ".join(parts)
            + "; zoom in on the map, or read each answer in the lot table.")
