"""One hostile websocket message cannot take the server down: the browser's messages are bounded too.

Uploads go over HTTP and are bounded by ``server.maxUploadSize``; everything else a page sends back (a widget's
value, the map's drawings) is a websocket message, bounded by ``server.maxMessageSize``. Streamlit's default
is 200 MB, which a hostile page could fill with one drawing: the server would decode it (protobuf, then the
component's JSON) before any check of ours could refuse it. The app's limit (``.streamlit/config.toml``) is
far above the largest message the app itself sends (the Parcel page's map, under 1 MB on the sample) and far
below what would cost the server a large share of its memory.

Against the app as ``tools/serve.py`` serves it, at the protocol level (tools/st_protocol.py): a message over
the limit closes that visitor's connection at once, the server's memory does not grow by its size, and another
visitor's session goes on answering; a drawing just under the limit is refused in one sentence by the
drawing check, with no traceback.
"""

from __future__ import annotations

import json
import sys
import time
import tomllib
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import app_fixtures as fx  # noqa: E402
from served_app import Launcher  # noqa: E402
from st_protocol import ProtocolError, Session  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402

pytestmark = pytest.mark.xdist_group("deploy")

LIMIT_MB = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"]["maxMessageSize"]
LIMIT_BYTES = LIMIT_MB * 1_000_000  # Streamlit reads the option in MB of 10**6 bytes (runtime_util)


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _drawing_of(n_positions: int) -> str:
    """The map's drawings (st_folium's value) holding one polygon of ``n_positions`` positions, as JSON.

    The ring's positions are [-74.19 + i * 1e-9, 41.16], i = 0, 1, ...; its text is written straight from the
    longitudes (the same text ``json.dumps`` gives for the list of lists, without building a million lists)."""
    value = {"all_drawings": [{"type": "Feature", "properties": {},
                               "geometry": {"type": "Polygon", "coordinates": ["RING"]}}],
             "last_active_drawing": None, "zoom": 16, "center": {"lat": 41.16, "lng": -74.19},
             "bounds": {}, "last_clicked": None, "last_object_clicked": None}
    longitudes = (-74.19 + np.arange(n_positions) * 1e-9).tolist()  # as Python computes each: i * 1e-9 exact in i
    ring = "[" + ",".join(map("[{!r},41.16]".format, longitudes)) + "]"
    return json.dumps(value, separators=(",", ":")).replace('"RING"', ring, 1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    launcher = Launcher.on_hand_built_layers(tmp_path_factory.mktemp("hostile_messages"))
    launcher.start()
    yield launcher
    launcher.stop()


def test_the_message_limit_is_far_above_the_apps_own_largest_message_and_far_below_streamlits_default():
    assert 5 <= LIMIT_MB <= 50  # the sample's map message is under 1 MB; the default 200 MB


def test_a_message_over_the_limit_closes_that_connection_and_nobody_elses(server):
    with Session(server.url) as resident, Session(server.url) as hostile:
        resident.open("/")
        resident.type_into("Tax parcel (SBL", fx.P1_SBL)  # the server's caches warm before measuring
        hostile.open("/")
        rss_before = _rss_mb(server.proc.pid)
        back = BackMsg()
        back.rerun_script.query_string = ""
        back.rerun_script.page_name = ""
        state = WidgetState(id="$$ID-hostile", json_value="[" + "0," * (LIMIT_BYTES // 2) + "0]")
        back.rerun_script.widget_states.widgets.append(state)
        t0 = time.monotonic()
        with pytest.raises(ProtocolError, match="closed"):  # closed: 1009 message too big, or reset mid-send
            hostile._send(back)
            hostile._recv(time.monotonic() + 30)
        refused_s = time.monotonic() - t0
        grown = _rss_mb(server.proc.pid) - rss_before
        run = resident.type_into("Tax parcel (SBL", fx.P2_SBL)  # the other visitor goes on
        assert run.has_text(f"Tax parcel {fx.P2_SBL}") and not run.exceptions(), run.texts()[:20]
    assert refused_s < 15, f"the refusal took {refused_s:.1f} s"
    # accepted, the message would be held whole and then decoded (protobuf, then JSON) into several times its size
    assert grown < LIMIT_MB, f"the server grew by {grown:.0f} MB for a message it refused"


def test_a_drawing_of_a_million_positions_under_the_limit_is_refused_in_one_sentence(server):
    with Session(server.url) as s:
        run = s.open("/")
        run = s.type_into("Tax parcel (SBL", fx.P1_SBL)
        maps = [e for _, e in sorted(run.elements.items()) if e.WhichOneof("type") == "component_instance"
                and "folium" in e.component_instance.component_name]
        assert maps, "no map on the Parcel page"
        value = _drawing_of(1_000_000)
        assert len(value) < LIMIT_BYTES  # it reaches the app: the drawing check must refuse it
        s.widget_states[maps[0].component_instance.id] = WidgetState(id=maps[0].component_instance.id,
                                                                     json_value=value)
        run = s.rerun()
        assert not run.exceptions(), run.exceptions()
        assert run.has_text("The drawing has more than"), run.texts()[:30]
        assert not any("Traceback" in t or str(ROOT) in t for t in run.texts())
