"""One source of truth for the wetland impact.

Layers: tests/app_fixtures.py (P1 a 200 ft square with a 50 ft x 200 ft wetland strip on its west side).
The footprint is a 100 ft x 100 ft square from 25 ft to 125 ft east of the west edge: 2,500 sq ft of wetland
(25 ft x 100 ft), 1.5 times that = 3,750 sq ft to replace. A typed 500 sq ft (750 to replace) must not reach
the PDF or the saved case once the source is switched back to the footprint, and it must come back when
"Typed in" is chosen again.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from pypdf import PdfReader
from shapely.geometry import box
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.cases import cases_ui  # noqa: E402
from app_support.frame import state  # noqa: E402
from app_support.widgets import forms  # noqa: E402
from sloat_core.store import CaseStore  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")
FOOTPRINT = box(fx.X0 + 25, fx.Y0 + 50, fx.X0 + 125, fx.Y0 + 150)


def _run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_switching_back_to_the_footprint_puts_its_figures_in_the_pdf_and_the_saved_case(manifest, data_dir, media):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="parcel_query").input(fx.P1_SBL)
    _run(at)
    at.session_state[state.PROJECT] = {"disturbance_footprint": fx.wgs84_feature(FOOTPRINT)["geometry"]}
    at.switch_page("pages/mitigation.py")
    _run(at)
    assert at.radio(key="mit_source").value == "From the drawn footprint"
    assert _metrics(at)["Wetland lost"] == "2,500 sq ft"

    at.radio(key="mit_source").set_value("Typed in")
    _run(at)
    at.number_input(key="mit_wetland").set_value(500.0)
    _run(at)
    assert _metrics(at)["Required replacement"] == "750 sq ft"

    at.radio(key="mit_source").set_value("From the drawn footprint")
    _run(at)
    assert _metrics(at)["Wetland lost"] == "2,500 sq ft"
    assert _metrics(at)["Required replacement"] == "3,750 sq ft"
    kept = at.session_state[forms.MITIGATION_INPUT]
    assert kept["impact_source"] == "footprint" and kept["impacted_wetland_sqft"] == 500.0  # kept, not used

    at.switch_page("pages/case.py")
    _run(at)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(fx.download(at, media, "dl_pdf"))).pages)
    assert "2,500" in text and "3,750" in text, text
    assert "750 sq ft" not in text.replace("3,750 sq ft", "")
    assert "from the drawn footprint" in text

    # The GeoJSON export holds the footprint too, with its wetland figure.
    pieces = json.loads(fx.download(at, media, "dl_geojson"))["features"]
    drawn = [f for f in pieces if f["properties"]["kind"] == "footprint"]
    assert len(drawn) == 1 and abs(drawn[0]["properties"]["wetlands_sqft"] - 2500) < 0.5

    whole = json.loads(fx.download(at, media, "dl_case"))
    mit = whole["case"]["analysis"]["mitigation"]
    assert mit["impact_source"] == "footprint"
    assert abs(mit["impacted_wetland_sqft"] - 2500) < 0.5  # tolerance: sq ft of a projected square
    assert abs(mit["required_mitigation_sqft"] - 3750) < 0.75
    saved = CaseStore(data_dir).open_case(at.session_state[cases_ui.CASE].id)
    assert abs(saved.analysis["mitigation"]["impacted_wetland_sqft"] - 2500) < 0.5
    assert saved.mitigation_input["impact_source"] == "footprint"

    # "Typed in" again: the typed figure is back, and it is what the case then uses.
    at.switch_page("pages/mitigation.py")
    _run(at)
    at.radio(key="mit_source").set_value("Typed in")
    _run(at)
    assert at.number_input(key="mit_wetland").value == 500.0
    assert _metrics(at)["Required replacement"] == "750 sq ft"
    at.switch_page("pages/case.py")
    _run(at)
    mit = json.loads(fx.download(at, media, "dl_case"))["case"]["analysis"]["mitigation"]
    assert mit["impact_source"] == "typed" and mit["impacted_wetland_sqft"] == 500.0
