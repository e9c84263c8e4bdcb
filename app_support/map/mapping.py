"""The offline folium map: local Leaflet assets, basemaps, constraint layers and drawing tools.

folium 0.20 and its Draw plugin load Leaflet, Leaflet.draw, jQuery, Bootstrap and Font Awesome
from public CDNs. Here they load from ``/app/static/vendor/`` (fetched by ``tools/fetch_assets.py``
and served by Streamlit's static file serving); the assets the app's maps do not use
(jQuery, Bootstrap, glyphicons, Font Awesome, awesome-markers) are dropped. The streamlit-folium
component iframe is served from the app's own origin, so origin-relative URLs resolve there.

The base map (centre, drawing tools) never changes between reruns, so the component keeps its
zoom and drawings; the basemap tiles, constraint layers, parcel outline and slope overlay are
passed as feature groups (``st_folium(feature_group_to_add=..., layer_control=...)``).

Here: the base map, the feature groups (and their scripts shared per layer set), each role's style and
the legend. The map's own scripts (labels, hatches, offline base, scroll guard) are in
:mod:`app_support.map.leaflet_elements`; what the drawing tool sends back is read by
:mod:`app_support.inputs.drawing_intake`.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict

import folium
from folium.plugins import Draw

from app_support.map import folium_templates, linked_layers
from app_support.map.leaflet_elements import (
    OFFLINE_BASE_CLASS,
    PARCEL_LINES_CLASS,
    HatchPatterns,
    FrameDocument,
    LinkedLayerLoader,
    OfflineBase,
    ParcelLabels,
    ScrollGuard,
)
from app_support.frame.theme import COLOURS, LAYER_LABELS, colour_for

folium_templates.install()  # the map's HTML, byte for byte, in half the time (see that module)

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
    "HATCH_KINDS",
    "hatch_kind",
    "hatch_fill",
    "offline_base_group",
    "offline_credit",
    "legend_html",
    "available_roles",
    "layer_style",
    "view_for",
    "install_group_cache",
    "uninstall_group_cache",
    "static_group_key",
]

VENDOR_URL = "/app/static/vendor"
#: The map frame loads these one after the other (streamlit-folium awaits each): jQuery is not among them, as
#: no script of the app's maps uses it (folium asks for it for its plain ``Popup``, ``keep_in_front`` and Vega, none
#: of which the app draws; Leaflet.draw does not need it).
MAP_JS = [
    ("leaflet", f"{VENDOR_URL}/leaflet/dist/leaflet.js"),
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
    """A folium map whose Leaflet comes from the app's static files."""

    default_js = MAP_JS
    default_css = MAP_CSS


class OfflineDraw(Draw):
    """folium's Draw plugin with Leaflet.draw from the app's static files."""

    default_js = DRAW_JS
    default_css = DRAW_CSS


#: The printed report's matplotlib hatch (sloat_core.gis.roles) -> the web map's pattern of the same shape.
_HATCH_KINDS = (("\\", "back"), ("/", "fwd"), (".", "dots"), ("-", "horiz"), ("|", "vert"), ("o", "rings"),
                ("x", "cross"), ("+", "grid"))
#: Every pattern the map and the legend can draw.
HATCH_KINDS = tuple(kind for _char, kind in _HATCH_KINDS)


def hatch_kind(role: str) -> str | None:
    """The map pattern of a role or derived row: the same shape as its hatch on the printed map.

    >>> hatch_kind("wetlands"), hatch_kind("floodplain"), hatch_kind("buffer"), hatch_kind("zoning")
    ('dots', 'back', 'fwd', None)
    """
    from sloat_core.gis.roles import style

    try:
        hatch = style(role).hatch
    except KeyError:
        return None
    for char, kind in _HATCH_KINDS:
        if hatch.startswith(char):
            return kind
    return None


def hatch_fill(role: str) -> str | None:
    """Leaflet ``fillColor`` of a hatched role: ``hatch:<kind>:<#rrggbb>``, drawn by :class:`HatchPatterns`."""
    kind = hatch_kind(role)
    return f"hatch:{kind}:{colour_for(role)}" if kind else None


def offline_credit(layers) -> str:
    """The map's credit for a base drawn from ``layers`` (shown when no tile loads, :class:`OfflineBase`): the
    layer set's name, "(illustrative sample)" added when the manifest says so and the name does not; escaped
    for the attribution's HTML (:func:`~app_support.map.folium_templates.map_html_text`)."""
    name = " ".join(str(layers.name or "").split()) or "unnamed"
    if layers.illustrative and "illustrative" not in name.lower():
        name += " (illustrative sample)"
    return folium_templates.map_html_text(f"Base drawn from the layer set: {name}")


def offline_base_group(boundary: dict | None, roads: dict | None,
                       credit: str | None = None) -> folium.FeatureGroup | None:
    """The village boundary and roads of the layer set, hidden until the tiles fail (:class:`OfflineBase`).

    ``credit`` (:func:`offline_credit`) is what the map's attribution says while they are drawn, instead of
    the tiles' credit: each GeoJSON layer carries it as ``sloatCredit`` (Leaflet's ``featureGroup`` would drop
    the group's own options: it reads its first argument as layers)."""
    if boundary is None and roads is None:
        return None
    group = _static(folium.FeatureGroup(name="Village base (offline)", control=False), ("offline_base", credit),
                    boundary, roads)
    if roads is not None:
        folium.GeoJson(roads, interactive=False, sloat_credit=credit, style_function=lambda _f: {
            "color": COLOURS["roads"], "weight": 1, "opacity": 0.0, "fillColor": "#ffffff", "fillOpacity": 0.0,
            "className": OFFLINE_BASE_CLASS}).add_to(group)
    if boundary is not None:
        folium.GeoJson(boundary, interactive=False, sloat_credit=credit, style_function=lambda _f: {
            "color": COLOURS["village_boundary"], "weight": 3, "dashArray": "10 6", "opacity": 0.0,
            "fillOpacity": 0.0, "className": OFFLINE_BASE_CLASS}).add_to(group)
    return group


#: Projector mode: larger zoom/draw/layer controls (the map is in its own frame: its own stylesheet).
_LARGE_CONTROLS_CSS = """<style>
.leaflet-control-zoom a {width:44px !important;height:44px !important;line-height:44px !important;
  font-size:26px !important;}
.leaflet-control-layers-toggle {width:52px !important;height:52px !important;}
.leaflet-control-layers label {font-size:20px !important;}
.leaflet-control-scale-line {font-size:16px !important;}
</style>"""


def base_map(zoom: int = 15, *, label_points: list | None = None, large: bool = False) -> OfflineMap:
    """The static base map: centred on Sloatsburg, no tiles, polygon and rectangle drawing.

    Parameters
    ----------
    zoom : int
        Initial zoom level.
    label_points : list, optional
        [lat, lon, SBL] of the tax parcels (:class:`ParcelLabels`).
    large : bool
        Projector mode: larger controls.
    """
    if _GROUP_CACHE_ON[0]:
        install_group_cache()
    fmap = OfflineMap(location=list(SLOATSBURG_CENTRE), zoom_start=zoom, tiles=None,
                      prefer_canvas=True, control_scale=True, max_zoom=20)
    fmap.add_child(HatchPatterns())
    if label_points:
        fmap.add_child(ParcelLabels(label_points))
    fmap.add_child(OfflineBase())
    fmap.add_child(ScrollGuard())
    fmap.add_child(FrameDocument())  # the frame's document: a title that says what it holds, and its language
    fmap.add_child(LinkedLayerLoader())  # the layers sent by link, read at once (app_support.map.linked_layers)
    if large:
        fmap.get_root().header.add_child(folium.Element(_LARGE_CONTROLS_CSS))
    OfflineDraw(
        draw_options={"polyline": False, "circle": False, "marker": False,
                      "circlemarker": False, "polygon": {"allowIntersection": False},
                      "rectangle": True},
        edit_options={"edit": True, "remove": True},
        show_geometry_on_click=False,
    ).add_to(fmap)
    return fmap


# The constraint layers' scripts, made once per layer set and shared by every session.
#
# ``st_folium`` turns each feature group into its Leaflet script on every run: the layer's GeoJSON is written
# out as JSON (half a megabyte for the Parcel page's first map on the sample) and the whole text is searched
# for folium's variable names, about 40 ms a run, the same for every visitor. A group made by
# :func:`layer_group`, :func:`offline_base_group` or :func:`basemap_group` from the app's cached display GeoJSON
# (``app_support.map.layer_geojson.display_geojson``: the same object for every session of a layer set) carries a key:
# what it is drawn from (kind, role, identify) and the identity of its GeoJSON. :func:`install_group_cache`
# makes streamlit-folium's ``_get_feature_group_string`` look the key up with the group's place on the map
# (the script names the group by its index) and return the text made the first time, after adding the group
# to the map as streamlit-folium does (the layer control lists it). A group without a key (the parcel under
# study, the slope picture, the footprint, any group built elsewhere) is made as before. The text is
# byte for byte what streamlit-folium makes (tests/app/test_folium_templates.py), except that in a running
# server its large GeoJSON literals are read by link, once per page load (:mod:`app_support.map.linked_layers`;
# put back, the text is again streamlit-folium's: tests/app/test_linked_layers.py). An entry keeps its GeoJSON
# alive, so the identity in its key cannot be taken by another object while the entry exists; entries are
# dropped oldest first beyond :data:`GROUP_CACHE_MAX_CHARS` characters in all.

#: Upper bound of the characters kept in the shared group scripts (about that many bytes).
GROUP_CACHE_MAX_CHARS = 64_000_000
_GROUP_TEXT: OrderedDict = OrderedDict()  # (key, idx) -> (sources, text, linked files)
_GROUP_LOCK = threading.Lock()
_GROUP_CHARS = [0]
_ORIGINAL_GROUP_STRING = []
_GROUP_CACHE_ON = [True]


def _static(group: folium.FeatureGroup, what: tuple, *sources) -> folium.FeatureGroup:
    """Mark ``group`` as drawn only from ``what`` and the objects ``sources`` (kept alive by the cache)."""
    group._sloat_static = (what, tuple(id(s) for s in sources))
    group._sloat_sources = sources
    return group


def static_group_key(group) -> tuple | None:
    """The shared-script key of a feature group (None: made on every run)."""
    return getattr(group, "_sloat_static", None)


def _group_string(feature_group_to_add, map, idx: int = 0) -> str:  # noqa: A002 (streamlit-folium's names)
    original = _ORIGINAL_GROUP_STRING[0]
    key = static_group_key(feature_group_to_add)
    if key is None:
        return original(feature_group_to_add, map=map, idx=idx)
    slot = (key, idx)
    with _GROUP_LOCK:
        hit = _GROUP_TEXT.get(slot)
        if hit is not None:
            _GROUP_TEXT.move_to_end(slot)
    if hit is not None and not linked_layers.present(hit[2]):  # made under another runtime (a test's): again
        with _GROUP_LOCK:
            gone = _GROUP_TEXT.pop(slot, None)
            if gone is not None:
                _GROUP_CHARS[0] -= len(gone[1])
        if gone is not None:
            linked_layers.release(gone[2])
        hit = None
    if hit is not None:
        feature_group_to_add._id = f"feature_group_{idx}"
        feature_group_to_add.add_to(map)
        return hit[1]
    text, files = linked_layers.link(original(feature_group_to_add, map=map, idx=idx))  # the GeoJSON by link
    dropped: list = []
    with _GROUP_LOCK:
        if slot in _GROUP_TEXT:
            dropped.append(files)  # made twice at once: the entry kept holds the same files (same names)
        elif len(text) <= GROUP_CACHE_MAX_CHARS:
            _GROUP_TEXT[slot] = (feature_group_to_add._sloat_sources, text, files)
            _GROUP_CHARS[0] += len(text)
            while _GROUP_CHARS[0] > GROUP_CACHE_MAX_CHARS:
                _slot, (_sources, old, old_files) = _GROUP_TEXT.popitem(last=False)
                _GROUP_CHARS[0] -= len(old)
                dropped.append(old_files)
        # (a script too long to keep is made on every run: its files stay, under the same names, for its links)
    for old_files in dropped:
        linked_layers.release(old_files)
    return text


def install_group_cache() -> None:
    """Let streamlit-folium reuse the shared scripts of keyed groups (idempotent; :func:`base_map` calls it).

    Done when the first map is made, not when this module is imported: streamlit-folium declares its
    component when imported, which must happen after the Streamlit runtime has started (tools/serve.py).
    """
    import streamlit_folium

    _GROUP_CACHE_ON[0] = True
    if streamlit_folium._get_feature_group_string is not _group_string:
        _ORIGINAL_GROUP_STRING[:] = [streamlit_folium._get_feature_group_string]
        streamlit_folium._get_feature_group_string = _group_string


def uninstall_group_cache() -> None:
    """streamlit-folium's own ``_get_feature_group_string`` again, the shared scripts dropped, until
    :func:`install_group_cache` is called (for the equivalence test)."""
    import streamlit_folium

    _GROUP_CACHE_ON[0] = False
    if _ORIGINAL_GROUP_STRING:
        streamlit_folium._get_feature_group_string = _ORIGINAL_GROUP_STRING[0]
    with _GROUP_LOCK:
        dropped = [files for (_sources, _text, files) in _GROUP_TEXT.values()]
        _GROUP_TEXT.clear()
        _GROUP_CHARS[0] = 0
    for files in dropped:
        linked_layers.release(files)


def basemap_group(name: str) -> folium.FeatureGroup | None:
    """The basemap tiles as a feature group (None for no basemap)."""
    spec = BASEMAPS.get(name)
    if spec is None:
        return None
    url, attribution = spec
    group = _static(folium.FeatureGroup(name="Basemap", control=False), ("basemap", name))
    folium.TileLayer(tiles=_tile_provider(name), attr=attribution, max_zoom=20, max_native_zoom=19,
                     name="".join(url.lower().split())).add_to(group)
    return group


@functools.lru_cache(maxsize=None)
def _tile_provider(name: str):
    """A basemap's tile URL as an xyzservices provider, made once: given a string, folium first looks it up
    among every provider xyzservices knows (2 ms a map, always a miss for a URL). The layer's tiles, options
    and name come out the same (its name given as folium derives it from a URL)."""
    import xyzservices

    url, attribution = BASEMAPS[name]
    return xyzservices.TileProvider(name=name, url=url, attribution=attribution)


def layer_group(role: str, geojson: dict, *, identify: bool = True) -> folium.FeatureGroup:
    """One constraint layer, in its legend colour, with an escaped text tooltip per feature.

    Parameters
    ----------
    role : str
        Layer role (``sloat_core.gis.layers``), e.g. ``"wetlands"``.
    geojson : dict
        WGS84 FeatureCollection whose features carry an HTML-escaped ``label`` property
        (``app_support.map.layer_geojson.display_geojson``).
    identify : bool
        A click opens the identify pop-up (layer, attributes, deduction row, §). Off while a click
        picks a tax parcel: the features then let the click through to the map.
    """
    style = layer_style(role)
    group = _static(folium.FeatureGroup(name=LAYER_LABELS.get(role, role)), ("layer", role, bool(identify)), geojson)
    props = ((geojson.get("features") or [{}])[0].get("properties") or {})
    fields = [f for f in ("label", "details", "row", "citation") if f in props]
    folium.GeoJson(
        geojson,
        name=LAYER_LABELS.get(role, role),
        style_function=lambda _f, st=style: st,
        tooltip=folium.GeoJsonTooltip(fields=["label"], labels=False) if identify else None,
        popup=folium.GeoJsonPopup(fields=fields, labels=False, max_width=320)
        if identify and len(fields) > 1 else None,
        interactive=identify,
    ).add_to(group)
    return group


def layer_style(role: str) -> dict:
    """Leaflet path style of a layer: fills light enough that overlaps stay readable.

    Land that is deducted is hatched as on the printed map (:func:`hatch_kind`: wetlands dotted,
    floodplain back-slashed, buffer slashed, ponds horizontal, streams vertical, outcrops ringed), a
    light tint under lines of the full colour, so where layers overlap each pattern stays readable
    rather than mixing into a colour not in the legend. Outline, dash and opacity are the role's
    declared `WebLook` (sloat_core.gis.roles): the floodplain has a dashed outline and the buffer a
    dotted one; tax parcels, zoning, the village boundary and roads are lines only. Tax parcel lines
    also carry the class that lets a click through to the map (the parcel picker).
    """
    colour = colour_for(role)
    look = web_look(role)
    out = {"color": look.edge or colour, "weight": look.weight}
    if look.line:
        out["fillOpacity"] = 0.0
        if role == "parcels":
            out["className"] = PARCEL_LINES_CLASS
        return out
    fill = hatch_fill(role)
    if look.dash:
        out["dashArray"] = look.dash
    out["fillColor"] = fill or colour
    out["fillOpacity"] = look.fill_opacity[0] if fill else look.fill_opacity[1]
    return out


def web_look(role: str):
    """How the web map draws a role or derived row (its declaration's `WebLook`; a plain fill if undeclared)."""
    from sloat_core.gis.roles import WebLook, style

    try:
        return style(role).web
    except KeyError:
        return WebLook()


def parcel_group(geojson: dict, *, large: bool = False) -> folium.FeatureGroup:
    """The parcel under study as a black outline (no tooltip): dashed, and solid and thick in Projector mode."""
    group = folium.FeatureGroup(name="Parcel under study")
    style = ({"color": COLOURS["parcel"], "weight": 6, "fillOpacity": 0.0} if large else
             {"color": COLOURS["parcel"], "weight": 3.5, "dashArray": "8 4", "fillOpacity": 0.0})
    folium.GeoJson(
        geojson,
        style_function=lambda _f, st=style: st,
        interactive=False,
    ).add_to(group)
    return group


def available_roles(layers) -> list[str]:
    """The layer roles the map can show for this layer set, in legend order, and the map layers of deduction
    rows with no role of their own (the buffer band) when the set has a layer to draw them from
    (`RowSpec.reads`: wetlands, watercourses or ponds)."""
    from sloat_core.gis.roles import ROLES
    from sloat_core.measure.rows import row_on_map_layer

    from app_support.frame.theme import BASE_ONLY_ROLES

    out = []
    for role in LAYER_LABELS:
        if role in BASE_ONLY_ROLES:
            continue
        if role in ROLES:
            if layers.has(role):
                out.append(role)
        elif (row := row_on_map_layer(role)) is not None and any(layers.has(r) for r in row.reads):
            out.append(role)
    return out


def _swatch_class(kind: str | None) -> str:
    """The legend swatch's classes: its hatch drawn by the constant stylesheet (app_support.frame.theme)."""
    return f"sloat-swatch sloat-hatch-{kind}" if kind in HATCH_KINDS else "sloat-swatch"


def legend_html(roles: list[str], extra: list[tuple] = ()) -> str:
    """The map key: a named list of rows (swatch + label) for layer ``roles`` and ``extra`` rows, each
    (label, #rrggbb) or (label, #rrggbb, hatch kind).

    Labels are HTML-escaped; colours must be ``#rrggbb`` constants (others are dropped). A hatched row's
    swatch shows its map pattern (white over the colour) through a class of the constant stylesheet (a kind
    not in :data:`HATCH_KINDS` gives a plain swatch).
    """
    import html
    import re

    triples = [(LAYER_LABELS.get(r, r), colour_for(r), hatch_kind(r)) for r in roles]
    triples += [(row[0], row[1], row[2] if len(row) > 2 else None) for row in extra]
    rows = [f'<li><span class="{_swatch_class(kind)}" style="background:{colour}"></span>{html.escape(label)}</li>'
            for label, colour, kind in triples if re.fullmatch(r"#[0-9a-fA-F]{6}", colour)]
    # a list with a name: a screen reader says "Map key, list, 6 items", one layer per item
    return f'<ul class="sloat-legend" aria-label="Map key">{"".join(rows)}</ul>' if rows else ""


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
