"""The map's constraint layers are sent once per page load, by link, by the served app (CPU a session).

Against the app as ``tools/serve.py`` serves it, on the shipped sample, at the protocol level: the map's
component message carries the layers' links, not their GeoJSON (it carried about 640 KB on every run, the
first page and every pick); each link answers with the JSON the map reads, from the process that made it;
a name the server did not make is not found.
"""

from __future__ import annotations

import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import app_fixtures as fx  # noqa: E402,F401  (the served-app launcher's layer fixtures)
from served_app import Launcher  # noqa: E402
from st_protocol import Session  # noqa: E402

pytestmark = pytest.mark.xdist_group("deploy")

#: Where the map's frame is served from: its links are relative to it.
FRAME = "/component/streamlit_folium.st_folium/index.html"
#: The map's whole message may hold the base map, the parcel and the slope picture, not the layers' data.
MAX_MAP_ARGS_BYTES = 100_000


def _map_args(run) -> dict:
    maps = [e.component_instance for _, e in sorted(run.elements.items())
            if e.WhichOneof("type") == "component_instance" and "folium" in e.component_instance.component_name]
    assert len(maps) == 1
    return json.loads(maps[0].json_args)


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    import os

    folder = tmp_path_factory.mktemp("linked")
    app = Launcher(dict(os.environ, SLOAT_DATA_DIR=str(folder / "data")), folder / "server.log")
    url = app.start()
    yield url
    app.stop()


def test_the_map_message_carries_links_not_the_layers_and_each_link_answers(served):
    with Session(served, timeout_s=120) as s:
        first = s.open("/")
        args = _map_args(first)
        pick = s.type_into("Tax parcel (SBL", "155.06-1-42")
        assert pick.metric("Net lot area")
        picked = _map_args(pick)
    for sent in (args, picked):
        assert len(json.dumps(sent)) < MAX_MAP_ARGS_BYTES
        assert "L.geoJson" in sent["feature_group"]  # the layers are still drawn by the map's own script
    links = re.findall(r'\}\)\(("\.\./\.\./media/[^"]+"), geo_json_\w+_add\);', args["feature_group"])
    assert len(links) >= 5  # the sample's constraint layers shown at first, the tax parcel lines, the roads
    assert links == re.findall(r'\}\)\(("\.\./\.\./media/[^"]+"), geo_json_\w+_add\);', picked["feature_group"])
    for link in links:
        status, body = _get(urllib.parse.urljoin(served + FRAME, json.loads(link)))
        assert status == 200
        data = json.loads(body)
        assert data["features"] and all("geometry" in f for f in data["features"])


def test_a_name_the_server_did_not_make_is_not_found(served):
    assert _get(served + "/media/" + "0" * 32 + ".bin")[0] == 404
    assert _get(served + "/media/..%2f..%2fapp.py")[0] in (400, 404)
