"""The Parcel page's map component gets the very arguments ``st_folium`` would give it, the base map's parts made once.

``app_support.map.map_component.st_map`` keeps the base map's rendered parts per layer set and size; the browser must
get the same script, header, HTML, hash, groups, links and defaults as from ``streamlit_folium.st_folium``. Element ids
are random (``os.urandom``), so every map below draws them from a counter started afresh for it.
"""

from __future__ import annotations

import itertools
from unittest import mock

import folium
import pytest
import streamlit_folium
from branca.element import Element

import app_fixtures as fx
from app_support.map.layer_geojson import _display_geojson
from app_support.map import map_component, mapping
from sloat_core.gis.layers import load_manifest
from app_support.analysis_door import law_day

OUTLINE = {"type": "Feature", "properties": {}, "geometry": {
    "type": "Polygon", "coordinates": [[[-74.19, 41.16], [-74.18, 41.16], [-74.18, 41.17], [-74.19, 41.16]]]}}
LABELS = [[41.161, -74.187, "155.06-1-1"], [41.163, -74.186, "155.06-1-2"]]


@pytest.fixture(scope="module")
def layers(tmp_path_factory):
    return load_manifest(fx.write_layerset(tmp_path_factory.mktemp("map_component")))


def _groups(layers, with_parcel: bool):
    groups = [mapping.layer_group(role, gj, identify=True) for role in ["wetlands", "watercourses", "floodplain"]
              if (gj := _display_geojson.__wrapped__("k", role, law_day(), layers)) is not None]
    if with_parcel:
        groups.append(mapping.parcel_group(OUTLINE))
    return groups


def _sent(layers, call, *, large: bool, with_parcel: bool) -> dict:
    """What the component is given by ``call(map, groups)``, ids counted from 0."""
    counter = itertools.count()
    sent = {}
    with mock.patch.object(Element, "_generate_id", classmethod(lambda cls: f"id{next(counter):06d}")), \
            mock.patch.object(streamlit_folium, "_component_func", lambda on_change, **kw: sent.update(kw)):
        call(mapping.base_map(label_points=LABELS, large=large), _groups(layers, with_parcel))
    return sent


def _by_st_folium(fmap, groups):
    streamlit_folium.st_folium(fmap, key="parcel_map", height=600, use_container_width=True,
                               returned_objects=["all_drawings", "last_clicked"], feature_group_to_add=groups,
                               layer_control=folium.LayerControl(collapsed=True), center=(41.16, -74.19), zoom=17)


def _by_st_map(base_key):
    def call(fmap, groups):
        map_component.st_map(fmap, base_key, key="parcel_map", height=600,
                             returned_objects=["all_drawings", "last_clicked"], feature_group_to_add=groups,
                             layer_control=folium.LayerControl(collapsed=True), center=(41.16, -74.19), zoom=17)
    return call


@pytest.mark.parametrize("large", [False, True], ids=["standard", "projector"])
def test_the_component_gets_st_folium_s_arguments_on_the_first_and_every_later_run(layers, large):
    base_key = ("test base map", id(layers), large)
    map_component._PARTS.clear()
    for with_parcel in (False, True, False):  # the first page, a pick, back (the parts made on the first run)
        want = _sent(layers, _by_st_folium, large=large, with_parcel=with_parcel)
        got = _sent(layers, _by_st_map(base_key), large=large, with_parcel=with_parcel)
        assert want and set(got) == set(want)
        for name in want:
            assert got[name] == want[name], name
    assert len(map_component._PARTS) == 1  # made once


def test_a_projector_map_and_a_standard_map_keep_their_own_parts(layers):
    map_component._PARTS.clear()
    standard = _sent(layers, _by_st_map(("k", False)), large=False, with_parcel=False)
    projector = _sent(layers, _by_st_map(("k", True)), large=True, with_parcel=False)
    assert standard["header"] != projector["header"]  # the projector's larger controls
    assert _sent(layers, _by_st_map(("k", False)), large=False, with_parcel=False)["header"] == standard["header"]
