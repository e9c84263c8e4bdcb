"""The map's HTML is the same, byte for byte, with app_support.map.folium_templates installed or not.

The module saves Jinja compiling constant text on every rerun; it must change nothing the browser gets.
Element ids are random (``os.urandom``), so both renderings draw them from the same counter.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from unittest import mock

import folium
import jinja2
import pytest
import streamlit_folium
from branca.element import Element

import app_fixtures as fx
from app_support.map.layer_geojson import _display_geojson
from app_support.map import folium_templates, mapping
from sloat_core.gis.layers import load_manifest
from app_support.analysis_door import law_day


@pytest.mark.parametrize("text", [
    "", "\n", "plain", "ends with a newline\n", "two newlines\n\n", "windows\r\nlines\r\n", "old mac\rline\r",
    "  leading and trailing spaces  ", "{ a: 1, b: {c: 2} }", "} {", "a single { brace", "100% {x}",
])
def test_a_constant_renders_as_jinja_renders_it(text):
    assert folium_templates.ConstantTemplate(text).render(this=None, kwargs={}) == jinja2.Template(text).render()


@pytest.mark.parametrize("text", ["{{ 1 + 1 }}", "{% if true %}yes{% endif %}", "{# note #}kept"])
def test_text_with_jinja_syntax_is_still_compiled(text):
    made = folium_templates.template(text)
    assert isinstance(made, jinja2.Template)
    assert made.render() == jinja2.Template(text).render()
    assert folium_templates.template(text) is made  # compiled once


def _parcel_page_map_html(layers) -> dict:
    """Everything the Parcel page's st_folium call sends to the browser, for the hand-built layers."""
    groups = [mapping.layer_group(role, gj, identify=True)
              for role in ["wetlands", "watercourses", "water", "floodplain", "outcrops"]
              if (gj := _display_geojson.__wrapped__("k", role, law_day(), layers)) is not None]
    outline = {"type": "Feature", "properties": {}, "geometry": {
        "type": "Polygon", "coordinates": [[[-74.19, 41.16], [-74.18, 41.16], [-74.18, 41.17], [-74.19, 41.16]]]}}
    groups.append(mapping.parcel_group(outline))
    counter = itertools.count()
    sent = {}
    with mock.patch.object(Element, "_generate_id", classmethod(lambda cls: f"id{next(counter):06d}")), \
            mock.patch.object(streamlit_folium, "_component_func", lambda on_change, **kw: sent.update(kw)):
        streamlit_folium.st_folium(mapping.base_map(label_points=[]), key="parcel_map", height=600,
                                   returned_objects=["all_drawings"], feature_group_to_add=groups,
                                   layer_control=folium.LayerControl(collapsed=True))
    return sent


def test_the_parcel_maps_html_is_unchanged_byte_for_byte(tmp_path):
    layers = load_manifest(fx.write_layerset(tmp_path))
    mapping.uninstall_group_cache()  # every group made here, both ways (the shared scripts: the next tests)
    try:
        folium_templates.uninstall()
        try:
            assert isinstance(Element("<b>x</b>")._template, jinja2.Template)
            as_the_libraries_make_it = _parcel_page_map_html(layers)
        finally:
            folium_templates.install()
        assert isinstance(Element("<b>x</b>")._template, folium_templates.ConstantTemplate)  # installed again
        faster = _parcel_page_map_html(layers)
    finally:
        mapping.install_group_cache()
    assert faster["script"] and faster["feature_group"] and "L.geoJson" in faster["feature_group"]
    assert faster == as_the_libraries_make_it


def _page_map(groups, first_id: int) -> dict:
    """What st_folium sends for the base map and ``groups``, element ids counted from ``first_id``."""
    counter = itertools.count(first_id)
    sent = {}
    with mock.patch.object(Element, "_generate_id", classmethod(lambda cls: f"id{next(counter):06d}")), \
            mock.patch.object(streamlit_folium, "_component_func", lambda on_change, **kw: sent.update(kw)):
        streamlit_folium.st_folium(mapping.base_map(label_points=[[41.16, -74.19, "155.06-1-42"]]), key="parcel_map",
                                   height=600, returned_objects=["all_drawings"], feature_group_to_add=groups,
                                   layer_control=folium.LayerControl(collapsed=True))
    sent.pop("id")  # the map's own element id (the component's key is the same: st_folium strips ids from it)
    return sent


def _layer_sets(geojson: dict) -> dict:
    """Three ways the Parcel page puts the layers on the map: the groups at different places, one layer off,
    picking on (no identify pop-ups), with the basemap and the offline base, and the parcel under study."""
    outline = {"type": "Feature", "properties": {}, "geometry": {
        "type": "Polygon", "coordinates": [[[-74.19, 41.16], [-74.18, 41.16], [-74.18, 41.17], [-74.19, 41.16]]]}}

    def groups(roles, *, identify=True, basemap=None):
        out = [g for g in [mapping.basemap_group(basemap) if basemap else None,
                           mapping.offline_base_group(geojson["village_boundary"], geojson["roads"])] if g]
        return out + [mapping.layer_group(r, geojson[r], identify=identify) for r in roles] + \
            [mapping.parcel_group(outline)]

    return {"all": lambda: groups(["wetlands", "watercourses", "water_bodies", "floodplain"]),
            "one off, tiles": lambda: groups(["wetlands", "floodplain"], basemap=next(iter(mapping.BASEMAPS))),
            "picking": lambda: groups(["wetlands", "watercourses", "water_bodies", "floodplain"], identify=False)}


def test_the_shared_layer_scripts_are_what_streamlit_folium_makes():
    """The constraint layers' scripts are made once per layer set (mapping.install_group_cache) and reused by
    every session: what the browser gets is byte for byte what streamlit-folium makes, at every place of a
    group on the map, with pop-ups or without, and element ids do not leak into it (the shipped sample)."""
    layers = load_manifest(Path(__file__).resolve().parents[2] / "data" / "sample" / "layers.yaml")
    roles = ["wetlands", "watercourses", "water_bodies", "floodplain", "village_boundary", "roads"]
    geojson = {r: _display_geojson.__wrapped__("k", r, law_day(), layers) for r in roles}
    assert all(geojson[r] for r in ["wetlands", "watercourses", "water_bodies", "floodplain"])
    sets = _layer_sets(geojson)
    mapping.uninstall_group_cache()
    try:
        plain = {name: _page_map(make(), 0) for name, make in sets.items()}
        assert plain["all"] == _page_map(sets["all"](), 50_000)  # the text does not depend on the element ids
    finally:
        mapping.install_group_cache()
    made = {name: _page_map(make(), 100_000) for name, make in sets.items()}  # first time: made and kept
    again = {name: _page_map(make(), 200_000) for name, make in sets.items()}  # reused
    assert made == plain and again == plain
    assert plain["all"]["feature_group"] != plain["picking"]["feature_group"]
    keys = {mapping.static_group_key(g) for g in sets["all"]()}
    assert None in keys and len(keys) == 6  # the parcel outline is made every time; the others are shared
    assert {k for (k, _idx) in mapping._GROUP_TEXT} >= keys - {None}


def test_a_shared_script_is_not_reused_for_another_geojson(tmp_path):
    """The key holds the GeoJSON's identity and the entry keeps that object alive: a different layer text
    (a new layer set) gets its own script, even with the same role and place."""
    layers = load_manifest(fx.write_layerset(tmp_path))
    first = _display_geojson.__wrapped__("k", "wetlands", law_day(), layers)
    second = _display_geojson.__wrapped__("k", "wetlands", law_day(), layers)
    second["features"][0]["properties"]["label"] = "Wetlands: renamed in the new layer set"
    a = _page_map([mapping.layer_group("wetlands", first)], 0)["feature_group"]
    b = _page_map([mapping.layer_group("wetlands", second)], 0)["feature_group"]
    assert "renamed in the new layer set" in b and "renamed in the new layer set" not in a
    assert _page_map([mapping.layer_group("wetlands", first)], 0)["feature_group"] == a


HOSTILE_NAMES = ["{% bad tag", "{{ 7*7 }} marsh", "{# open comment", "}} {{", "a {b} c"]


def _render(groups, label_points=()) -> dict:
    sent = {}
    with mock.patch.object(streamlit_folium, "_component_func", lambda on_change, **kw: sent.update(kw)):
        streamlit_folium.st_folium(mapping.base_map(label_points=list(label_points)), key="parcel_map", height=600,
                                   returned_objects=[], feature_group_to_add=groups,
                                   layer_control=folium.LayerControl(collapsed=True))
    return sent


def test_jinja_syntax_in_raw_map_text_would_stop_the_map():
    """Why layer text is written with its braces escaped: branca compiles what it rendered."""
    raw = {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {
        "label": "{% bad tag", "details": "", "row": "", "citation": ""}, "geometry": {
        "type": "Point", "coordinates": [-74.19, 41.16]}}]}
    with pytest.raises(jinja2.TemplateSyntaxError):
        _render([mapping.layer_group("wetlands", raw, identify=True)])


def test_a_layer_whose_names_hold_jinja_syntax_still_draws_and_shows_them(tmp_path):
    import geopandas as gpd

    from sloat_core.units import WORK_CRS

    path = fx.write_layerset(tmp_path)
    gpd.GeoDataFrame({"name": HOSTILE_NAMES}, geometry=[fx.WETLAND.buffer(-i) for i in range(len(HOSTILE_NAMES))],
                     crs=WORK_CRS).to_file(tmp_path / "wetlands.gpkg", layer="wetlands", driver="GPKG")
    layers = load_manifest(path)
    geojson = _display_geojson.__wrapped__("k", "wetlands", law_day(), layers)
    labels = sorted(f["properties"]["label"] for f in geojson["features"])
    assert "Wetlands: &#123;% bad tag" in labels and "Wetlands: a &#123;b&#125; c" in labels
    sent = _render([mapping.layer_group("wetlands", geojson, identify=True)])
    # In the script's JSON "&" is written \u0026: the pop-up's HTML gets "&#123;&#123; 7*7 &#125;&#125; marsh",
    # which the browser shows as "{{ 7*7 }} marsh".
    assert "\\u0026#123;\\u0026#123; 7*7 \\u0026#125;\\u0026#125; marsh" in sent["feature_group"]
    for name in HOSTILE_NAMES:
        assert name not in sent["feature_group"]


def test_parcel_labels_with_braces_are_written_as_escapes_javascript_reads_back():
    import json

    points = [[41.16, -74.19, "155.06-1-42"], [41.161, -74.191, "{% x }}"]]
    sent = _render([], label_points=points)
    assert "{% x" not in sent["script"] and "\\u007b% x \\u007d\\u007d" in sent["script"]
    assert json.loads(folium_templates.map_json(points)) == points  # JSON (and JavaScript) read the braces back
    with pytest.raises(TypeError):
        folium_templates.map_json([{"sbl": "1"}])


def test_long_templates_are_not_kept():
    long_text = "{{ 1 }}" + "x" * folium_templates.CACHE_MAX_CHARS
    assert folium_templates.template(long_text) is not folium_templates.template(long_text)
    assert folium_templates.template(long_text).render() == "1" + "x" * folium_templates.CACHE_MAX_CHARS
