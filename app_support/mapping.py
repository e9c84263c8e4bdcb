"""The offline folium map: local Leaflet assets, basemaps, constraint layers and drawing tools.

folium 0.20 and its Draw plugin load Leaflet, Leaflet.draw, jQuery, Bootstrap and Font Awesome
from public CDNs. Here they load from ``/app/static/vendor/`` (fetched by ``tools/fetch_assets.py``
and served by Streamlit's static file serving); the assets the app's maps do not use
(Bootstrap, glyphicons, Font Awesome, awesome-markers) are dropped. The streamlit-folium
component iframe is served from the app's own origin, so origin-relative URLs resolve there.

The base map (centre, drawing tools) never changes between reruns, so the component keeps its
zoom and drawings; the basemap tiles, constraint layers, parcel outline and slope overlay are
passed as feature groups (``st_folium(feature_group_to_add=..., layer_control=...)``).
"""

from __future__ import annotations

import json
import math

import folium
from folium.plugins import Draw

from app_support.theme import COLOURS, LAYER_LABELS, colour_for

__all__ = [
    "VENDOR_URL",
    "MAP_JS",
    "MAP_CSS",
    "DRAW_JS",
    "DRAW_CSS",
    "SLOATSBURG_CENTRE",
    "BASEMAPS",
    "NO_BASEMAP",
    "OfflineMap",
    "OfflineDraw",
    "base_map",
    "basemap_group",
    "layer_group",
    "parcel_group",
    "legend_html",
    "last_polygon",
    "drawings_signature",
    "view_for",
]

VENDOR_URL = "/app/static/vendor"
MAP_JS = [
    ("leaflet", f"{VENDOR_URL}/leaflet/dist/leaflet.js"),
    ("jquery", f"{VENDOR_URL}/jquery/dist/jquery.min.js"),
]
MAP_CSS = [("leaflet_css", f"{VENDOR_URL}/leaflet/dist/leaflet.css")]
DRAW_JS = [("leaflet_draw_js", f"{VENDOR_URL}/leaflet-draw/dist/leaflet.draw.js")]
DRAW_CSS = [("leaflet_draw_css", f"{VENDOR_URL}/leaflet-draw/dist/leaflet.draw.css")]

SLOATSBURG_CENTRE = (41.162, -74.188)
NO_BASEMAP = "None (layers only)"
# name -> (tile URL template, attribution). Tiles need the internet; without it the layers
# still show on the plain background.
BASEMAPS: dict[str, tuple[str, str] | None] = {
    "Street map (OpenStreetMap)": (
        "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        "&copy; OpenStreetMap contributors",
    ),
    "Aerial imagery (Esri World Imagery)": (
        "https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}",
        "Imagery &copy; Esri, Maxar, Earthstar Geographics",
    ),
    NO_BASEMAP: None,
}


class OfflineMap(folium.Map):
    """A folium map whose Leaflet and jQuery come from the app's static files."""

    default_js = MAP_JS
    default_css = MAP_CSS


class OfflineDraw(Draw):
    """folium's Draw plugin with Leaflet.draw from the app's static files."""

    default_js = DRAW_JS
    default_css = DRAW_CSS


def base_map(zoom: int = 15) -> OfflineMap:
    """The static base map: centred on Sloatsburg, no tiles, polygon and rectangle drawing.

    Parameters
    ----------
    zoom : int
        Initial zoom level.
    """
    fmap = OfflineMap(location=list(SLOATSBURG_CENTRE), zoom_start=zoom, tiles=None,
                      prefer_canvas=True, control_scale=True, max_zoom=20)
    OfflineDraw(
        draw_options={"polyline": False, "circle": False, "marker": False,
                      "circlemarker": False, "polygon": {"allowIntersection": False},
                      "rectangle": True},
        edit_options={"edit": True, "remove": True},
        show_geometry_on_click=False,
    ).add_to(fmap)
    return fmap


def basemap_group(name: str) -> folium.FeatureGroup | None:
    """The basemap tiles as a feature group (None for no basemap)."""
    spec = BASEMAPS.get(name)
    if spec is None:
        return None
    url, attribution = spec
    group = folium.FeatureGroup(name="Basemap", control=False)
    folium.TileLayer(tiles=url, attr=attribution, max_zoom=20, max_native_zoom=19).add_to(group)
    return group


def layer_group(role: str, geojson: dict) -> folium.FeatureGroup:
    """One constraint layer, in its legend colour, with an escaped text tooltip per feature.

    Parameters
    ----------
    role : str
        Layer role (``sloat_core.gis.layers``), e.g. ``"wetlands"``.
    geojson : dict
        WGS84 FeatureCollection whose features carry an HTML-escaped ``label`` property
        (``app_support.loaders.display_geojson``).
    """
    colour = colour_for(role)
    group = folium.FeatureGroup(name=LAYER_LABELS.get(role, role))
    folium.GeoJson(
        geojson,
        name=LAYER_LABELS.get(role, role),
        style_function=lambda _f, c=colour: {"color": c, "weight": 1.5, "fillColor": c,
                                             "fillOpacity": 0.35},
        tooltip=folium.GeoJsonTooltip(fields=["label"], labels=False),
    ).add_to(group)
    return group


def parcel_group(geojson: dict) -> folium.FeatureGroup:
    """The parcel under study as a black dashed outline (no tooltip)."""
    group = folium.FeatureGroup(name="Parcel under study")
    folium.GeoJson(
        geojson,
        style_function=lambda _f: {"color": COLOURS["parcel"], "weight": 3, "dashArray": "6 4",
                                   "fillOpacity": 0.0},
        interactive=False,
    ).add_to(group)
    return group


def legend_html(roles: list[str], extra: list[tuple[str, str]] = ()) -> str:
    """Legend rows (swatch + label) for layer ``roles`` and ``extra`` (label, #rrggbb) pairs.

    Labels are HTML-escaped; colours must be ``#rrggbb`` constants (others are dropped).
    """
    import html
    import re

    pairs = [(LAYER_LABELS.get(r, r), colour_for(r)) for r in roles] + list(extra)
    rows = [f'<span class="sloat-swatch" style="background:{colour}"></span>{html.escape(label)}'
            for label, colour in pairs if re.fullmatch(r"#[0-9a-fA-F]{6}", colour)]
    return "<br>".join(rows)


def last_polygon(all_drawings: list | None) -> dict | None:
    """The most recent polygon or rectangle among the map's drawings, as a GeoJSON Feature."""
    for feature in reversed(all_drawings or []):
        geometry = (feature or {}).get("geometry") or {}
        if geometry.get("type") in ("Polygon", "MultiPolygon"):
            return feature
    return None


def drawings_signature(all_drawings: list | None) -> str | None:
    """A stable text signature of the drawings, to notice when they change."""
    if not all_drawings:
        return None
    geometries = [(f or {}).get("geometry") for f in all_drawings]
    return json.dumps(geometries, sort_keys=True)


def view_for(geojson: dict, *, width_px: int = 760, height_px: int = 540,
             max_zoom: int = 18) -> tuple[tuple[float, float], int]:
    """Centre (lat, lon) and the largest zoom at which a WGS84 geometry fits the map.

    >>> view_for({"type": "Polygon", "coordinates": [[[-74.19, 41.16], [-74.18, 41.16],
    ...     [-74.18, 41.17], [-74.19, 41.16]]]})
    ((41.165, -74.185), 15)
    """
    from shapely.geometry import shape

    minx, miny, maxx, maxy = shape(geojson).bounds
    centre = ((miny + maxy) / 2, (minx + maxx) / 2)

    def merc_y(lat: float) -> float:
        return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))

    # World width is 256 * 2**zoom pixels; leave a 20% margin around the geometry.
    span_x = max((maxx - minx) / 360.0, 1e-9)
    span_y = max((merc_y(maxy) - merc_y(miny)) / (2 * math.pi), 1e-9)
    zoom_x = math.log2(0.8 * width_px / (256 * span_x))
    zoom_y = math.log2(0.8 * height_px / (256 * span_y))
    return centre, int(max(1, min(max_zoom, math.floor(min(zoom_x, zoom_y)))))
