"""The page's prefetch of the map frame's files (app_support.map.frame_prefetch): what it names is what the frame
loads, from files the server has."""

from __future__ import annotations

import json
import re
from pathlib import Path

import streamlit_folium
from streamlit.testing.v1 import AppTest

from app_support.map import frame_prefetch, mapping

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(streamlit_folium.__file__).parent / "frontend" / "build"


def _files(script: str) -> list[str]:
    return json.loads(re.search(r"files = (\[.*?\]);", script).group(1))


def test_the_prefetch_names_the_frames_bundle_and_every_leaflet_file_the_maps_declare():
    files = frame_prefetch.frame_files()
    # streamlit-folium's bundle, as its built page names it (a new version's hashed name follows by itself)
    bundle = re.findall(r'src="\./(static/js/main\.[0-9a-f]+\.js)"', (BUILD / "index.html").read_text())
    assert bundle and [f"/component/{frame_prefetch.COMPONENT}/{b}" for b in bundle] == files[:len(bundle)]
    assert all((BUILD / b).is_file() for b in bundle)
    # Leaflet and Leaflet.draw, scripts and stylesheets, exactly as the maps ask for them, served from static/
    declared = [url for _, url in [*mapping.MAP_JS, *mapping.DRAW_JS, *mapping.MAP_CSS, *mapping.DRAW_CSS]]
    assert files[len(bundle):] == declared
    assert all(u.startswith(mapping.VENDOR_URL + "/") for u in declared)
    assert all((ROOT / "static" / u.removeprefix("/app/static/")).is_file() for u in declared)
    assert _files(frame_prefetch.prefetch_html()) == files


def test_the_component_is_the_one_the_map_uses_and_a_base_path_is_followed():
    assert streamlit_folium._component_func.name == frame_prefetch.COMPONENT
    script = frame_prefetch.prefetch_html("/sloat/")
    assert all(f.startswith(("/sloat/component/", "/app/static/vendor/")) for f in _files(script))
    assert f'"/sloat/component/{frame_prefetch.COMPONENT}/index.html" + \'?streamlitUrl=\'' in script
    assert '"/component/' in frame_prefetch.prefetch_html("")


def test_every_page_puts_the_prefetch_in_the_sidebar_once():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    scripts = [e for e in at.sidebar if getattr(e, "type", "") == "html" and "__sloatFramePrefetch" in str(
        getattr(e, "proto", ""))]
    assert len(scripts) == 1


def test_the_layers_asked_for_by_the_page_are_the_links_of_the_groups_script():
    script = ('  (function (url, add) { window.__sloatLinkedLayers.load(url, add); })("../../media/a1.json", '
              'geo_json_1_add);\n'
              '  (function (url, add) { window.__sloatLinkedLayers.load(url, add); })("../../media/b2.json", '
              'geo_json_2_add);\n'
              '  (function (url, add) { window.__sloatLinkedLayers.load(url, add); })("../../media/a1.json", '
              'geo_json_3_add);\n'
              '  geo_json_4_add({"type": "FeatureCollection", "features": []});\n')
    assert frame_prefetch.linked_urls(script) == ["/media/a1.json", "/media/b2.json"]  # each once, in order
    assert frame_prefetch.linked_urls("") == [] and frame_prefetch.linked_urls(None) == []
    html = frame_prefetch.layers_html(["/media/a1.json"], "/sloat")
    assert '["/media/a1.json"].forEach' in html and 'origin + "/sloat" + u' in html
