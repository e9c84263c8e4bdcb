"""AppTest checks of a plan drawn on the Plan page's map and kept in a case: reopened, its lots are on the map's
drawing layer again, so a lot drawn after is added to them and none is dropped.

The browser's side of the map is simulated (``st_folium`` answers what the map would send: ``all_drawings``, the
shapes of Leaflet.draw's layer, or None from a map that has sent nothing yet); what the page puts on the drawing
layer is read from the feature groups it hands the map. The lots are on the sample parcel 162.13-1-1 (R-15 chosen):
lot 1 is 100 x 150 ft (15,000 sq ft), lot 2 beside it 80 x 150 ft, a third lot 60 x 150 ft further east.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from unittest import mock

import pytest
from shapely.geometry import box

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "plan"))
import app_fixtures as fx  # noqa: E402
import plan_files as pf  # noqa: E402

from app_support.inputs import plan_inputs  # noqa: E402
from app_support.map import plan_drawing  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402

SAMPLE = ROOT / "data" / "sample" / "layers.yaml"
LOT_1 = pf.lot_box(0)
LOT_2 = box(pf.X0 + 100, pf.Y0, pf.X0 + 180, pf.Y0 + 150)
LOT_3 = box(pf.X0 + 180, pf.Y0, pf.X0 + 240, pf.Y0 + 150)


@pytest.fixture(scope="module")
def sample_parcel():
    return parcel_by_sbl(load_manifest(SAMPLE), pf.SAMPLE_SBL)


@pytest.fixture(autouse=True)
def sample_layers(monkeypatch):
    monkeypatch.delenv("SLOAT_LAYERS", raising=False)


def _run(at, answer=None):
    """Run the app with the map answering ``answer`` (what the browser would send); the fake map, to read what the
    page handed it."""
    fake = mock.MagicMock(return_value=answer or {})
    with fx.map_answers(fake):
        at.run()
    assert not at.exception, at.exception
    return fake


def _gross(at) -> list[str]:
    return [r["Gross, sq ft"] for r in at.table[0].value.to_dict("records")]


def _drawing_layer(fake) -> list:
    """The lots the page put on the map's drawing layer (the last run's), as [lon, lat] polygons' rings."""
    group = next(g for g in fake.call_args.kwargs["feature_group_to_add"]
                 if g.layer_name == plan_drawing.DRAWING_LAYER_NAME)
    (element,) = [c for c in group._children.values() if isinstance(c, plan_drawing.DrawnLots)]
    return json.loads(element.lots_json)


def _as_drawings(rings: list) -> list[dict]:
    """The drawing layer's lots as Leaflet.draw sends them back (``all_drawings``)."""
    return [{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": polygons[0]}}
            for polygons in rings]


def _drawn_case(sample_parcel) -> str:
    """A case whose plan is two lots drawn on the map; its id."""
    from app_support.cases import cases_ui

    at = fx.open_page("pages/plan.py", parcel=sample_parcel, timeout=60)
    at.radio(key="plan_how_box").set_value(plan_inputs.DRAW)
    at.selectbox(key="plan_district_box").set_value("R-15")
    _run(at, {"all_drawings": [fx.wgs84_feature(LOT_1), fx.wgs84_feature(LOT_2)]})
    assert _gross(at) == ["15,000", "12,000"]
    return at.session_state[cases_ui.CASE].id


def _reopen(case_id: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(fx.APP, default_timeout=60)
    at.query_params["case"] = case_id
    at.run()
    at.switch_page("pages/plan.py")
    return at


def test_a_reopened_drawn_plan_is_on_the_drawing_layer_and_a_lot_drawn_is_added_to_it(sample_parcel, data_dir):
    at = _reopen(_drawn_case(sample_parcel))
    fake = _run(at)  # the map made afresh: it has sent nothing yet, and the plan stays
    assert at.radio(key="plan_how_box").value == plan_inputs.DRAW  # a drawn plan reopens ready to be drawn to
    assert _gross(at) == ["15,000", "12,000"]
    on_layer = _drawing_layer(fake)
    assert len(on_layer) == 2  # both lots, on the layer Leaflet.draw sends back
    # the browser: the two lots of the drawing layer and one drawn now
    fake = _run(at, {"all_drawings": [*_as_drawings(on_layer), fx.wgs84_feature(LOT_3)]})
    assert [r["Lot"] for r in at.table[0].value.to_dict("records")] == ["1", "2", "3"]
    assert _gross(at) == ["15,000", "12,000", "9,000"]  # the reopened lots kept, to the foot
    assert len(_drawing_layer(fake)) == 3


def test_a_map_that_has_sent_nothing_yet_leaves_the_drawn_plan_and_one_that_sends_no_shape_removes_it(
        sample_parcel):
    at = fx.open_page("pages/plan.py", parcel=sample_parcel, timeout=60)
    at.radio(key="plan_how_box").set_value(plan_inputs.DRAW)
    _run(at, {"all_drawings": [fx.wgs84_feature(LOT_1)]})
    assert _gross(at) == ["15,000"]
    _run(at, {"all_drawings": None})  # the page visited again: a new map, nothing sent yet
    assert _gross(at) == ["15,000"]
    fake = _run(at, {"all_drawings": []})  # every shape deleted with the toolbar
    assert at.session_state[plan_inputs.PLAN] is None
    assert not at.table and _drawing_layer(fake) == []


def test_a_plan_read_from_a_file_leaves_the_drawing_layer_empty(tmp_path, sample_parcel):
    doc = pf.new_dxf()
    pf.add_rect(doc.modelspace(), LOT_1, "LOTS")
    at = fx.open_page("pages/plan.py", parcel=sample_parcel, timeout=60)
    at.file_uploader(key="plan_upload").upload("plat.dxf", pf.save(doc, tmp_path / "p.dxf").read_bytes(),
                                               "application/octet-stream")
    fake = _run(at)
    assert _gross(at) == ["15,000"] and _drawing_layer(fake) == []
