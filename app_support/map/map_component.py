"""``st_folium`` for the app's base map, with the base map's own text made once per process.

``streamlit_folium.st_folium`` renders the whole folium map on every run (jinja templates, the tax parcels' label
points as JSON, regular expressions over the result, a hash of the script): about 2-3 ms a run, twice in a
resident's session, the same text for every visitor. The app's base map (:func:`app_support.map.mapping.base_map`)
depends only on its arguments (zoom, the label points' object, projector size), so :func:`st_map` makes its
parts (HTML, header, script, the script's hash, bounds and zoom) the first time
for those arguments and hands the same parts to the component afterwards. Everything that changes between runs
(the feature groups, the layer control, centre and zoom) is made as ``st_folium`` makes it, on the run's own map.

The component receives exactly the arguments ``st_folium`` gives it (tests/app/test_map_component.py compares
them); only the work of making them is not repeated.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable

import folium
import streamlit as st

__all__ = ["st_map", "BASE_PARTS_MAX"]

#: Base maps whose parts are kept (zoom x projector size x layer sets: a handful in practice).
BASE_PARTS_MAX = 16
_PARTS: OrderedDict = OrderedDict()  # base key -> parts
_LOCK = threading.Lock()


def _links(folium_map) -> tuple[list[str], list[str]]:
    """The stylesheet and script links of the map's elements, as ``st_folium`` collects them."""
    import branca

    def walk(fig):
        if isinstance(fig, branca.colormap.ColorMap):
            yield fig
        if isinstance(fig, folium.elements.JSCSSMixin):
            yield fig
        if hasattr(fig, "_children"):
            for child in fig._children.values():
                yield from walk(child)

    css: list[str] = []
    js: list[str] = []
    for elem in walk(folium_map):
        if isinstance(elem, branca.colormap.ColorMap):
            js.insert(0, "https://cdnjs.cloudflare.com/ajax/libs/d3/3.5.5/d3.min.js")
            js.insert(0, "https://d3js.org/d3.v4.min.js")
        css.extend(href for _, href in getattr(elem, "default_css", []))
        js.extend(src for _, src in getattr(elem, "default_js", []))
    return list(dict.fromkeys(css)), list(dict.fromkeys(js))


def _base_parts(fmap: folium.Map, key: str | None) -> dict:
    """What ``st_folium`` makes of the map itself before the feature groups are added."""
    import streamlit_folium as sf

    fmap.get_root().render()
    fmap.render()
    html = sf._get_html(fmap)
    header = sf._get_header(fmap)
    leaflet = sf._get_map_string(fmap)  # (renames the map's elements: the map becomes map_0)
    try:
        bounds = fmap.get_bounds()
    except AttributeError:
        bounds = [[None, None], [None, None]]
    return {"html": html, "header": header, "script": leaflet, "full_id": sf.get_full_id(fmap),
            "bounds": bounds, "zoom": fmap.options.get("zoom") if hasattr(fmap, "options") else {},
            "hash_key": sf.generate_js_hash(leaflet, key, False)}


def st_map(fmap: folium.Map, base_key: tuple, *, key: str, height: int, returned_objects: Iterable[str],
           feature_group_to_add: list, layer_control: folium.LayerControl | None, center=None, zoom=None,
           use_container_width: bool = True, on_change: Callable | None = None):
    """``st_folium(fmap, key=..., ...)`` where ``base_key`` names everything ``fmap`` was made from.

    ``fmap`` must hold only what its maker put in it (no feature group yet); two maps with the same ``base_key``
    must be made alike (:func:`app_support.map.mapping.base_map` with the same arguments).
    """
    import streamlit_folium as sf

    with _LOCK:
        parts = _PARTS.get((base_key, key))
        if parts is not None:
            _PARTS.move_to_end((base_key, key))
    if parts is None:
        parts = _base_parts(fmap, key)
        with _LOCK:
            _PARTS[(base_key, key)] = parts
            while len(_PARTS) > BASE_PARTS_MAX:
                _PARTS.popitem(last=False)
    southwest, northeast = parts["bounds"]
    defaults_all = {
        "last_clicked": None, "last_object_clicked": None, "last_object_clicked_count": None,
        "last_object_clicked_tooltip": None, "last_object_clicked_popup": None, "all_drawings": None,
        "last_active_drawing": None,
        "bounds": {"_southWest": {"lat": southwest[0], "lng": southwest[1]},
                   "_northEast": {"lat": northeast[0], "lng": northeast[1]}},
        "zoom": parts["zoom"], "last_circle_radius": None, "last_circle_polygon": None, "selected_layers": None,
        "selected_tags": None, "last_geocoder_result": None,
    }
    defaults = {k: v for k, v in defaults_all.items() if returned_objects is None or k in returned_objects}
    groups = None
    if feature_group_to_add is not None:
        if isinstance(feature_group_to_add, folium.FeatureGroup):
            feature_group_to_add = [feature_group_to_add]
        # sf._get_feature_group_string is looked up here, so the app's shared group scripts apply
        # (app_support.map.mapping.install_group_cache)
        groups = "".join(sf._get_feature_group_string(g, map=fmap, idx=i) for i, g in enumerate(feature_group_to_add))
    from app_support.map import frame_prefetch

    frame_prefetch.install_layers(groups)  # the linked layers asked for by the page as the frame is made
    control = sf._get_layer_control_string(layer_control, fmap) if layer_control is not None else None
    css_links, js_links = _links(fmap)  # with the groups' own, as st_folium collects them
    hash_key = parts["hash_key"]

    def _on_change():
        st.session_state[key] = st.session_state.get(hash_key, {})
        if on_change is not None:
            on_change()

    return sf._component_func(
        script=parts["script"], header=parts["header"], html=parts["html"], id=parts["full_id"], key=hash_key,
        height=height, width=None if use_container_width else 500, returned_objects=returned_objects,
        default=defaults, zoom=zoom, center=center, feature_group=groups, return_on_hover=False,
        layer_control=control, pixelated=False, css_links=css_links, js_links=js_links,
        on_change=_on_change, wrap_longitude=False)
