"""The Proposed project page takes a footprint without the map (WCAG 2.1.1 and 2.5.7): typed width and
depth at the parcel's point, moved by typed offsets; or the whole parcel. Hand-built layers (tests/app_fixtures.py):
P1 is 200 x 200 ft with a 50-ft wetland strip along its west side and its 100-ft buffer east of it."""

from __future__ import annotations

import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from app_support.widgets import forms  # noqa: E402
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _project_page(manifest) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    at.switch_page("pages/project.py").run()
    assert not at.exception, at.exception
    return at


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_a_typed_rectangle_is_measured_like_a_drawing(manifest):
    at = _project_page(manifest)
    at.number_input(key="fpi_width").set_value(40.0)
    at.number_input(key="fpi_depth").set_value(30.0)
    at.button(key="fpi_use_rectangle").click().run()
    assert not at.exception, at.exception
    metrics = _metrics(at)
    assert metrics["Footprint"] == "1,200 sq ft"  # 40 x 30 ft at the centre (100 ft from the west edge)
    assert metrics["Wetland"] == "0 sq ft"
    assert metrics["Wetland/watercourse buffer"] == "1,200 sq ft"  # 80-120 ft east: inside the 100-ft buffer
    assert any("Footprint set (40 by 30 ft): 1,200 sq ft." in s.value.replace("\\", "") for s in at.success)
    at.number_input(key="fpi_east").set_value(-75.0)  # centre 25 ft from the west edge: all in the wetland
    at.button(key="fpi_use_rectangle").click().run()
    assert _metrics(at)["Wetland"] == "1,200 sq ft"


def test_the_whole_parcel_is_one_press(manifest):
    at = _project_page(manifest)
    at.radio(key="fpi_how").set_value("The whole parcel").run()
    at.button(key="fpi_whole").click().run()
    assert not at.exception, at.exception
    metrics = _metrics(at)
    assert metrics["Footprint"] == "40,000 sq ft"
    assert metrics["Wetland"] == "10,000 sq ft"


def test_a_footprint_file_that_cannot_be_read_says_so_and_keeps_none(manifest):
    at = _project_page(manifest)
    at.radio(key="fpi_how").set_value("Upload its outline").run()
    at.file_uploader(key="fpi_file").upload("footprint.geojson", b"{not json").run()
    assert not at.exception, at.exception
    assert at.error and "Traceback" not in at.error[0].value
    assert forms.FOOTPRINT not in at.session_state or at.session_state[forms.FOOTPRINT] is None
    good = fx.wgs84_feature(fx.P1)  # the parcel's own outline as a GeoJSON file
    import json

    at.file_uploader(key="fpi_file").upload("work.geojson", json.dumps(
        {"type": "FeatureCollection", "features": [good]}).encode()).run()
    assert not at.exception, at.exception
    assert _metrics(at)["Footprint"] == "40,000 sq ft"
