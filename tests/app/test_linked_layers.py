"""The constraint layers reach the map by link (app_support/map/linked_layers.py): the script that reads
them is, with the links put back, byte for byte the script streamlit-folium makes, and nothing but the
server's own large GeoJSON literals is moved.

Streamlit's own in-memory media storage (``MemoryMediaFileStorage``, what a running server holds) stands in
for the server's: outside a server there is none, and nothing is linked.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import streamlit_folium
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app_support.map.layer_geojson import _display_geojson  # noqa: E402
from app_support.map import linked_layers, mapping  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from app_support.analysis_door import law_day  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample" / "layers.yaml"


@pytest.fixture(scope="module")
def sample_geojson():
    layers = load_manifest(SAMPLE)
    return {r: _display_geojson.__wrapped__("k", r, law_day(), layers) for r in ("wetlands", "roads", "village_boundary")}


@pytest.fixture
def storage(monkeypatch):
    store = MemoryMediaFileStorage("/media")
    monkeypatch.setattr(linked_layers, "_storage", lambda: store)
    mapping.uninstall_group_cache()  # no script kept from another test's storage
    mapping.install_group_cache()
    yield store
    mapping.uninstall_group_cache()
    mapping.install_group_cache()


def _plain_text(group, idx: int = 3) -> str:
    mapping.uninstall_group_cache()
    try:
        return streamlit_folium._get_feature_group_string(group, map=mapping.base_map(), idx=idx)
    finally:
        mapping.install_group_cache()


def test_a_layer_is_read_by_link_and_put_back_is_streamlit_folium_s_script(storage, sample_geojson):
    plain = _plain_text(mapping.layer_group("wetlands", sample_geojson["wetlands"]))
    linked, files = linked_layers.link(plain)
    assert len(files) == 1 and len(plain) > 4 * len(linked)  # the wetlands' GeoJSON (15 KB) left the script
    assert "__sloatLinkedLayers" in linked and '"../../media/' in linked
    assert linked_layers.embedded_again(linked) == plain
    data = json.loads(linked_layers.linked_bytes(storage.get_url(files[0])))
    assert data["features"] and data["features"][0]["geometry"]["type"] in ("Polygon", "MultiPolygon")


def test_without_a_server_nothing_is_linked(monkeypatch, sample_geojson):
    monkeypatch.setattr(linked_layers, "_storage", lambda: None)
    plain = _plain_text(mapping.layer_group("wetlands", sample_geojson["wetlands"]))
    assert linked_layers.link(plain) == (plain, ())


def test_a_small_literal_stays_in_the_script(storage):
    tiny = {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"label": "pond"},
            "geometry": {"type": "Point", "coordinates": [-74.19, 41.16]}}]}
    plain = _plain_text(mapping.layer_group("wetlands", tiny))
    assert linked_layers.link(plain) == (plain, ())


def test_the_shared_script_is_linked_once_and_its_file_lives_while_a_script_uses_it(storage, sample_geojson):
    def sent() -> str:
        return streamlit_folium._get_feature_group_string(
            mapping.offline_base_group(sample_geojson["village_boundary"], sample_geojson["roads"]),
            map=mapping.base_map(), idx=0)

    first, again = sent(), sent()
    assert first == again and first.count("(function (url, add)") >= 1  # the roads (a small boundary stays)
    ((_sources, _text, files),) = [v for (key, _idx), v in mapping._GROUP_TEXT.items() if key[0] == ("offline_base",
                                                                                                     None)]
    assert len(files) == first.count("(function (url, add)") and linked_layers.present(files)
    mapping.uninstall_group_cache()  # the shared scripts dropped: their files go too
    assert not linked_layers.present(files)
    with pytest.raises(LookupError):
        linked_layers.embedded_again(first)


def test_a_script_made_under_another_server_is_made_again(storage, monkeypatch, sample_geojson):
    group = lambda: mapping.layer_group("wetlands", sample_geojson["wetlands"])  # noqa: E731
    made = streamlit_folium._get_feature_group_string(group(), map=mapping.base_map(), idx=2)
    other = MemoryMediaFileStorage("/media")  # a new runtime (AppTest makes one per run): the files are not there
    monkeypatch.setattr(linked_layers, "_storage", lambda: other)
    again = streamlit_folium._get_feature_group_string(group(), map=mapping.base_map(), idx=2)
    assert again == made  # the same names (a hash of the bytes) ...
    assert linked_layers.embedded_again(again) == _plain_text(group(), idx=2)  # ... now held by this server


def test_only_files_the_server_made_are_served(storage):
    assert linked_layers.linked_bytes("../../media/" + "0" * 56 + ".bin") is None
    assert linked_layers.linked_bytes("../../media/../../etc/passwd") is None
