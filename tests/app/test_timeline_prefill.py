"""The Timeline page's "From your project": permits of the project analysis turned into timeline items.

Pure tests of :mod:`app_support.inputs.timeline_prefill` (mapping a result dict to suggestions), and AppTest
runs of the real app: the Proposed project page analyses a footprint on tax parcel P1 (it touches the
wetland strip, so a wetland permit is needed), then the Timeline page lists that permit with its §
and adds its clocks from the dates the user types.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from unittest import mock

import pytest
from dateutil.relativedelta import relativedelta
from shapely.geometry import box

from sloat_core.rules.permits import PROHIBITED_IDS  # noqa: E402
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
from result_sample import sample  # noqa: E402

from app_support.frame import state  # noqa: E402
from app_support.widgets import forms  # noqa: E402
from app_support.inputs.timeline_prefill import (  # noqa: E402
    KIND_LABELS,
    PERMIT_TIMELINE_KINDS,
    Suggestion,
    addable_kinds,
    stored_result,
    suggestions,
)
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.law.params import value  # noqa: E402
from sloat_core.rules.permits import PERMIT_IDS  # noqa: E402
from sloat_core.rules.sections.permit import Permit  # noqa: E402
from sloat_core.rules.clocks import ITEM_KINDS, timeline_events  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")
FOOTPRINT = box(fx.X0 + 25, fx.Y0 + 50, fx.X0 + 125, fx.Y0 + 150)  # 2,500 sq ft of it in the wetland


@pytest.fixture()
def manifest(module_layer_files, monkeypatch):
    """The layer set, written once for the module (its tests only read it: tests/conftest.py), served via
    ``SLOAT_LAYERS`` as the app reads it."""
    monkeypatch.setenv("SLOAT_LAYERS", str(module_layer_files))
    return module_layer_files


def _permit(pid: str, required, citation: str = "§ 402-00X", title: str | None = None) -> Permit:
    return Permit(id=pid, title=title or pid.replace("_", " ").capitalize(), required=required,
                  reason=f"Because of {pid}.", citation=citation, authority="Planning Board", citations=(citation,))


def _result(*permits: Permit):
    """A real typed result (P1's) holding these permits."""
    return sample(permits=permits)


RESULT = _result(
    _permit("steep_slope_permit", None, "§ 402-55C(2)"),
    _permit("wetland_permit", True, "§ 402-57G", "Wetland permit"),
    _permit("tree_removal_permit", False, "§ 402-53B"),
    _permit("swppp", True, "§ 402-58E"),
    _permit("biodiversity_study", None, "§ 402-54B"),
    _permit("seqra_cea", True, "§ 402-46C"),
    _permit("flood_hazard_review", None, "§ 402-49B"),
)


# ---------------------------------------------------------------------------------------- pure mapping


def test_mapping_names_real_permits_and_real_timeline_items():
    assert set(PERMIT_TIMELINE_KINDS) <= set(PERMIT_IDS)
    for pid, kinds in PERMIT_TIMELINE_KINDS.items():
        assert kinds and set(kinds) <= set(ITEM_KINDS), pid
        assert set(kinds) <= set(KIND_LABELS), pid
    assert PERMIT_TIMELINE_KINDS["swppp"] == ("swppp_inspections",)
    assert PERMIT_TIMELINE_KINDS["wetland_permit"][-1] == "wetland_permit"
    assert PERMIT_TIMELINE_KINDS["steep_slope_permit"] == ("steep_slope_application", "steep_slope_permit")


def test_required_first_then_maybe_and_not_required_left_out():
    found = suggestions(RESULT)
    assert [(s.permit_id, s.required) for s in found] == [
        ("wetland_permit", True), ("swppp", True), ("seqra_cea", True),
        ("steep_slope_permit", None), ("biodiversity_study", None), ("flood_hazard_review", None)]
    assert "tree_removal_permit" not in {s.permit_id for s in found}
    wetland = found[0]
    assert wetland.title == "Wetland permit" and wetland.citation == "§ 402-57G"
    assert wetland.reason == "Because of wetland_permit."
    assert wetland.to_add == ("wetland_delineation", "wetland_permit_application", "wetland_permit")
    assert not wetland.already_added and wetland.on_timeline == ()


def test_a_not_required_permit_is_offered_nothing_even_with_a_clock():
    only_no = _result(_permit("tree_removal_permit", False), _permit("wetland_permit", False))
    assert suggestions(only_no) == []
    assert addable_kinds(suggestions(only_no)) == []


def test_permit_without_a_timeline_kind_is_listed_with_nothing_to_add():
    seqra = next(s for s in suggestions(RESULT) if s.permit_id == "seqra_cea")
    assert seqra.required is True and seqra.citation == "§ 402-46C"
    assert not seqra.has_clock and seqra.to_add == () and not seqra.already_added


def test_already_on_the_timeline_is_not_offered_again():
    items = [{"id": "wetland_permit", "issued": "2026-03-01"}, {"id": "swppp_inspections",
                                                                "start": "2026-04-01", "end": "2026-09-01"}]
    found = {s.permit_id: s for s in suggestions(RESULT, items)}
    assert found["wetland_permit"].already_added and found["wetland_permit"].to_add == ()
    assert found["swppp"].already_added and found["swppp"].on_timeline == ("swppp_inspections",)
    offered = addable_kinds(list(found.values()))
    assert offered == ["steep_slope_application", "steep_slope_permit", "biodiversity_study"]


def test_an_application_on_the_timeline_still_offers_the_permit():
    items = [{"id": "steep_slope_application", "complete": "2026-02-01"}]
    steep = next(s for s in suggestions(RESULT, items) if s.permit_id == "steep_slope_permit")
    assert not steep.already_added
    assert steep.on_timeline == ("steep_slope_application",) and steep.to_add == ("steep_slope_permit",)


def test_no_result_gives_no_suggestions():
    assert suggestions(None) == [] and suggestions(_result()) == []


def test_stored_result_only_for_the_parcel_under_study():
    result = _result(_permit("swppp", True))
    last = ("key-1", (result, {}))
    assert stored_result(last, "key-1") is result
    assert stored_result(last, "key-2") is None
    assert stored_result(last, None) is None
    assert stored_result(None, "key-1") is None
    assert stored_result(("key-1", ({"no": "permits"}, {})), "key-1") is None


def test_addable_kinds_once_each_in_order():
    a = Suggestion("wetland_permit", "Wetland permit", True, "", "§ 402-57G", ("wetland_permit",))
    b = Suggestion("steep_slope_permit", "Steep", None, "", "§ 402-55C(2)", ("steep_slope_permit",
                                                                             "wetland_permit"))
    assert addable_kinds([a, b]) == ["wetland_permit", "steep_slope_permit"]


# ---------------------------------------------------------------------------------------- the page


def _run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.success] + [e.value for e in at.error]
    return "\n".join(parts).replace("\\", "")


def _analysed(manifest, mode: str | None = None) -> AppTest:
    """The app after the Proposed project page analysed FOOTPRINT on P1, now on the Timeline page."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    if mode is not None:
        at.session_state[state.MODE] = mode
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(FOOTPRINT)]})
    with fx.map_answers(fake):
        at.switch_page("pages/project.py").run()
    assert not at.exception, at.exception
    at.switch_page("pages/timeline.py")
    _run(at)
    at.date_input(key="tl_as_of").set_value(dt.date(2026, 6, 1))
    return _run(at)


def _add_from_project(at: AppTest, kind: str, **dates: dt.date) -> AppTest:
    at.selectbox(key="tlp_kind").set_value(kind)
    _run(at)
    for key, day in dates.items():
        at.date_input(key=f"tlp_{kind}_{key}").set_value(day)
    at.button(key=f"tlp_add_{kind}").click()
    return _run(at)


def test_without_an_analysis_the_page_says_where_to_get_one(manifest):
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("pages/timeline.py")
    _run(at)
    assert "describe it on the Proposed project page" in _text(at)
    assert ("Go to the Proposed project page", "project") in [
        (el.proto.label, el.proto.page) for el in at.get("page_link")]
    assert "From your project" not in [h.value for h in at.subheader]
    with pytest.raises(KeyError):
        at.selectbox(key="tlp_kind")


def test_after_an_analysis_the_page_lists_the_permits_and_adds_one_with_its_clocks(manifest):
    at = _analysed(manifest)
    result = at.session_state[forms.LAST_PROJECT_RESULT][1][0]
    wetland = next(p for p in result.permits if p.id == "wetland_permit")
    assert wetland.required is True
    assert "From your project" in [h.value for h in at.subheader]
    text = _text(at)
    assert "your project needs:" in text and "It may also need these" in text
    assert f"Wetland permit** ({wetland.citation})" in text
    for p in result.permits:
        if p.required is not False and p.id not in PROHIBITED_IDS:  # a prohibition is no permit to date
            assert p.citation in text, p.id
    assert "Add its dates below: wetland delineation, wetland permit application, wetland permit." in text
    assert KIND_LABELS["wetland_permit"] in at.selectbox(key="tlp_kind").options
    assert not at.session_state[forms.TIMELINE_ITEMS] if forms.TIMELINE_ITEMS in at.session_state else True

    issued = dt.date(2026, 3, 1)
    _add_from_project(at, "wetland_permit", issued=issued)
    assert at.session_state[forms.TIMELINE_ITEMS] == [{"id": "wetland_permit", "issued": issued.isoformat()}]
    assert "Added: wetland permit." in [s.value for s in at.success]
    assert "**Wetland permit** (§ 402-57G). " in _text(at) and "Already on your timeline." in _text(at)
    assert KIND_LABELS["wetland_permit"] not in at.selectbox(key="tlp_kind").options
    expires = issued + relativedelta(years=value("wetland_permit_term_years", issued))  # the law of the clock's start
    ask_by = expires - relativedelta(days=value("wetland_extension_request_days", issued))
    expected = {e.date.isoformat() for e in timeline_events([{"id": "wetland_permit", "issued": issued}],
                                                            dt.date(2026, 6, 1))}
    rows = {r["Date"]: r for _i, r in at.dataframe[0].value.iterrows()}
    assert set(rows) == expected and {expires.isoformat(), ask_by.isoformat()} <= set(rows)
    assert rows[expires.isoformat()]["Status"] == "Active"
    assert rows[ask_by.isoformat()]["§"] == "§ 402-57J(4)"


def test_a_bad_date_shows_the_cores_message_and_keeps_the_items(manifest):
    at = _analysed(manifest)
    _add_from_project(at, "tree_removal_permit", issued=dt.date(2026, 1, 10))
    first = list(at.session_state[forms.TIMELINE_ITEMS])
    assert first == [{"id": "tree_removal_permit", "issued": "2026-01-10"}]
    _add_from_project(at, "wetland_permit", issued=dt.date(2026, 5, 1), expires=dt.date(2025, 5, 1))
    errors = [e.value for e in at.error]
    assert errors == ["The wetland permit's expiry date (2025-05-01) is before its issue date (2026-05-01)."]
    assert at.session_state[forms.TIMELINE_ITEMS] == first  # nothing lost, nothing added
    assert at.date_input(key="tlp_wetland_permit_expires").value == dt.date(2025, 5, 1)  # the typing kept
    assert at.selectbox(key="tlp_kind").value == "wetland_permit"
    assert "Already on your timeline." in _text(at)  # the tree removal permit
    assert len(at.dataframe[0].value) == len(timeline_events(first, dt.date(2026, 6, 1)))


@pytest.mark.parametrize("mode", [state.PROJECTOR, state.COUNTER])
def test_projector_and_counter_modes_list_the_permits_plainly(manifest, mode):
    at = _analysed(manifest, mode=mode)
    text = _text(at)
    assert "**Wetland permit** (§ 402-57G). Add its dates below" in text
    assert "The disturbance footprint touches" not in text  # the engine's reasons stay on the project page
    expanders = {e.label: e for e in at.expander}
    assert "Add the dates of one of these" in expanders
    assert expanders["Add a permit, application or date"].proto.expanded is False
    if mode == state.PROJECTOR:
        assert expanders["Add the dates of one of these"].proto.expanded is False


def test_a_result_for_another_district_is_not_offered(manifest):
    # The district chosen on the Parcel page changed after the project was analysed: the permits may
    # differ (cluster review depends on the district), so the old result is not offered: the page works
    # the project out again for the new district (as it does for a case opened from its link).
    at = _analysed(manifest)
    assert "From your project" in [h.value for h in at.subheader]
    old_key = at.session_state[forms.LAST_PROJECT_RESULT][0]
    at.session_state[state.DISTRICT] = "R-15"
    _run(at)
    new_key = at.session_state[forms.LAST_PROJECT_RESULT][0]
    assert new_key != old_key and new_key == forms.project_result_key(at.session_state[state.PARCEL], "R-15")
    assert "From your project" in [h.value for h in at.subheader]


def test_a_prohibition_is_not_offered_as_a_permit_to_put_on_the_timeline():
    result = _result(
        _permit("commercial_excavation_prohibited", None, "§ 402-52", "Commercial excavation (prohibited)"),
        _permit("tree_removal_permit", None, "§ 402-53B", "Tree removal permit"))
    assert [s.permit_id for s in suggestions(result)] == ["tree_removal_permit"]
