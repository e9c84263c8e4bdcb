"""AppTest checks of the Board walk-through's screen "The plan, lot by lot": a plan uploaded on the Plan page (lots of a
grid on the sample parcel 162.13-1-1, in R-15: tests/plan/plan_grid.py), then the walk-through opened on it.

Without a plan the walk-through has its six screens; with one, the plan's screen comes after the cluster triggers:
the plan in one sentence, the lot map (the Plan page's map: the constraint layers under the lots), the lot table in
large type, the yield check and the open space in one line each. A plan of more than twelve lots is paged.
"""

from __future__ import annotations

import sys
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "plan"))
import app_fixtures as fx  # noqa: E402
import plan_files as pf  # noqa: E402
import plan_grid  # noqa: E402

from app_support.frame import state  # noqa: E402
from app_support.views import plan_walk, walkthrough  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402
from sloat_core.plan.check import check_plan  # noqa: E402

SAMPLE = ROOT / "data" / "sample" / "layers.yaml"
PLAN_STEP = [s.id for s in walkthrough.screens(has_plan=True)].index("plan") + 1


@pytest.fixture(scope="module")
def sample_parcel():
    return parcel_by_sbl(load_manifest(SAMPLE), pf.SAMPLE_SBL)


@pytest.fixture(autouse=True)
def sample_layers(monkeypatch):
    monkeypatch.delenv("SLOAT_LAYERS", raising=False)


def _run(at):
    at.run()
    assert not at.exception, at.exception
    return at


def _with_plan(parcel, lots: int, mode=state.PROJECTOR):
    """The Plan page with ``lots`` grid lots uploaded in R-15, then the walk-through on the plan's screen."""
    at = fx.open_page("pages/plan.py", parcel=parcel, mode=mode, timeout=90)
    at.selectbox(key="plan_district_box").set_value(plan_grid.DISTRICT)
    _run(at)
    at.file_uploader(key="plan_upload").upload("plan.geojson", plan_grid.grid_geojson(lots), "application/geo+json")
    _run(at)
    at.query_params["step"] = str(PLAN_STEP)
    at.switch_page("pages/walkthrough.py")
    return _run(at)


def _rows(at) -> list[dict]:
    return at.table[0].value.to_dict("records")


def test_without_a_plan_the_walk_through_keeps_its_six_screens():
    assert walkthrough.screens(has_plan=False) == walkthrough.SCREENS and len(walkthrough.SCREENS) == 6
    ids = [s.id for s in walkthrough.screens(has_plan=True)]
    assert ids == ["parcel", "deductions", "net", "triggers", "plan", "permits", "timeline"]
    assert walkthrough.PLAN_SCREEN.citation.startswith("§")


def test_the_plan_screen_shows_the_plan_its_map_its_table_and_the_yield_and_open_space_in_a_line_each(
        sample_parcel):
    fake = mock.MagicMock(return_value={})
    with fx.map_answers(fake):
        at = _with_plan(sample_parcel, 12)
    assert at.title[0].value == "The plan, lot by lot"
    text = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert f"**{PLAN_STEP} of 7**" in text
    core = check_plan(sample_parcel.geometry, plan_grid.grid_drawing(12), load_manifest(SAMPLE),
                      district=plan_grid.DISTRICT)
    rows = _rows(at)
    assert list(rows[0]) == plan_walk.COLUMNS
    assert [r["Lot"] for r in rows] == [f"L{i + 1}" for i in range(12)]
    assert [r["Conforms"] for r in rows] == [{True: "Yes", False: "No", None: "Unknown"}[lot.conforms]
                                             for lot in core.lots]
    assert rows[0]["Minimum, sq ft"] == "15,000" and rows[0]["Shortfall, sq ft"] == "8,400"  # 60 x 110 ft
    assert f"Conventional plan: **12 lots**, {core.conforming_lots} conform" in text
    assert "Yield (§ 402-48E): 12 lots in the plan, within the" in text
    assert "Open space (§ 402-48G(2)): none drawn." in text
    assert not at.segmented_control  # twelve lots: one table
    # the Plan page's map: the constraint layers under the lots, each lot labelled
    names = [g.layer_name for g in fake.call_args.kwargs["feature_group_to_add"]]
    assert names.index("Wetlands") < names.index("Lots of the plan")
    assert fake.call_args.kwargs["key"] == "wt_plan_map"
    # Next goes on to the permits
    at.button(key="wt_next").click()
    _run(at)
    assert at.title[0].value == "Permits and reviews"


def test_a_plan_of_more_than_twelve_lots_pages_its_table(sample_parcel):
    with fx.map_answers(mock.MagicMock(return_value={})):
        at = _with_plan(sample_parcel, 30)
        assert len(_rows(at)) == plan_walk.LOTS_PER_SCREEN
        control = at.segmented_control[0]
        assert control.options == ["Lots 1 to 12", "Lots 13 to 24", "Lots 25 to 30"]
        assert "12 lots at a time" in control.label
        control.set_value("Lots 25 to 30")
        _run(at)
    assert [r["Lot"] for r in _rows(at)] == [f"L{i}" for i in range(25, 31)]


def test_a_plan_that_cannot_be_checked_says_so_in_one_sentence(sample_parcel):
    from app_support.inputs import plan_inputs

    with fx.map_answers(mock.MagicMock(return_value={})):
        at = _with_plan(sample_parcel, 3)
        at.session_state[plan_inputs.KIND] = "grid"  # a kind the check refuses
        _run(at)
    assert at.title[0].value == "The plan, lot by lot"
    assert [w.value.replace("\\", "").split(":")[0] for w in at.warning] == [plan_walk.NO_PLAN]
