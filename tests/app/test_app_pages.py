"""AppTest checks of the Proposed project, Cluster, Wetland mitigation and Timeline pages.

The layer set is tests/app_fixtures.py: tax parcel P1, a 200 ft x 200 ft square (40,000 sq ft),
with a 50 ft x 200 ft wetland strip (10,000 sq ft) along its west side. The footprint drawn here is a
100 ft x 100 ft square (10,000 sq ft) from 25 ft to 125 ft east of the west edge: 2,500 sq ft of it
lies in the wetland and 7,500 sq ft in the 100-ft buffer. Numbers on the pages are checked against
``sloat_core`` itself and, where the geometry makes them plain, against hand-worked values.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from unittest import mock

import pytest
from dateutil.relativedelta import relativedelta
from shapely.geometry import box
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from app_support.widgets import charts, forms  # noqa: E402
from sloat_core.law import text as law
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.law.params import value  # noqa: E402
from app_support.analysis_door import law_day  # noqa: E402

PAGES = ["pages/project.py", "pages/cluster.py", "pages/mitigation.py", "pages/timeline.py"]
FOOTPRINT = box(fx.X0 + 25, fx.Y0 + 50, fx.X0 + 125, fx.Y0 + 150)


#: The app on a page, its session seeded (tests/app_fixtures.py).
_page = fx.open_page


@pytest.fixture()
def manifest(module_layer_files, monkeypatch):
    """The layer set, written once for the module (its tests only read it: tests/conftest.py), served via
    ``SLOAT_LAYERS`` as the app reads it."""
    monkeypatch.setenv("SLOAT_LAYERS", str(module_layer_files))
    return module_layer_files


def _p1(manifest):
    return parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)


def _text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.info] + [e.value for e in at.success] + [e.value for e in at.warning]
    parts += [e.value for e in at.error]
    return "\n".join(parts).replace("\\", "")


def _links(at: AppTest) -> list[tuple[str, str]]:
    return [(el.proto.label, el.proto.page) for el in at.get("page_link")]


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def beside(at: AppTest, key: str) -> str | None:
    """The error shown right under the widget ``key`` (the next element of its block), else None."""
    def walk(node):
        children = list(getattr(node, "children", {}).values())
        for i, child in enumerate(children):
            if getattr(child, "key", None) == key:
                nxt = children[i + 1] if i + 1 < len(children) else None
                return nxt.value if nxt is not None and nxt.type == "error" else None
            found = walk(child)
            if found is not None:
                return found
        return None
    return walk(at._tree)


def _after(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


# ---------------------------------------------------------------------------------------- every page


@pytest.mark.parametrize("page", PAGES)
def test_page_without_a_parcel_runs_and_says_who_decides(manifest, page):
    at = _page(page)
    text = _text(at)
    assert "Screening estimate only" in text and "Planning Board" in text
    if page != "pages/timeline.py":
        assert "No parcel is chosen yet" in text
        assert any(page_ == "" or "parcel" in page_ for _label, page_ in _links(at))
        assert any("Parcel & constraints" in label for label, _p in _links(at))


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("mode", state.MODES)
def test_page_with_a_parcel_runs_in_every_mode(manifest, page, mode):
    at = _page(page, parcel=_p1(manifest), mode=mode)
    assert "No parcel is chosen yet" not in _text(at)
    assert "Screening estimate only" in _text(at)
    for label, target in _links(at):
        if label.startswith("§") or ": §" in label:
            assert target.endswith("law"), (label, target)


def test_projector_mode_draws_charts_in_large_type(manifest):
    at = _page("pages/mitigation.py", mode=state.PROJECTOR)
    at.number_input(key="mit_wetland").set_value(1000.0)
    _after(at)
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["font"]["size"] >= 24  # the projector body size
    at = _page("pages/mitigation.py", mode=state.STANDARD)
    at.number_input(key="mit_wetland").set_value(1000.0)
    _after(at)
    assert json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]["font"]["size"] == 13


# ---------------------------------------------------------------------------------------- mitigation


def test_mitigation_typed_in_shows_required_area_at_the_law_ratio(manifest):
    at = _page("pages/mitigation.py")
    at.number_input(key="mit_wetland").set_value(1000.0)
    _after(at)
    ratio = float(value("wetland_mitigation_ratio", law_day()))
    metrics = _metrics(at)
    assert metrics["Required replacement"] == f"{1000 * ratio:,.0f} sq ft" == "1,500 sq ft"
    assert metrics["Ratio (at least)"] == f"{ratio:g} : 1"
    labels = [label for label, _p in _links(at)]
    assert "Replacement ratio: § 402-57P(2)" in labels
    assert any(label.startswith("§ 402-57P(4)(j)") for label in labels)  # the plan checklist
    assert "§ 402-57P(5)" in labels and "3 to 5 years" in _text(at)
    assert at.get("plotly_chart"), "the gauge is drawn"


def test_mitigation_shortfall_and_gate(manifest):
    at = _page("pages/mitigation.py")
    at.number_input(key="mit_wetland").set_value(1000.0)
    at.number_input(key="mit_proposed").set_value(1200.0)
    _after(at)
    assert _metrics(at)["Shortfall"] == "300 sq ft"
    assert "300 sq ft short" in _text(at)
    at.radio(key="gate_no_onsite_alternative").set_value("No")
    _after(at)
    errors = [e.value for e in at.error]
    assert any("not 'necessary and unavoidable'" in e and "§ 402-57P(1)(b)" in e for e in errors)
    at.radio(key="mit_onsite").set_value("No")
    _after(at)
    assert "Off-site mitigation" in _text(at)


def test_mitigation_refuses_bad_numbers_with_one_sentence(manifest):
    # A bad number is not silently ignored; the field and its range are named, no result.
    at = _page("pages/mitigation.py")
    at.number_input(key="mit_wetland").set_value(1000.0)
    _after(at)
    assert _metrics(at)["Required replacement"] == "1,500 sq ft"
    for bad in (-500.0, 1e15):
        at.number_input(key="mit_wetland").set_value(bad)
        _after(at)
        errors = [e.value for e in at.error]
        assert errors == ['"Wetland to be lost" must be a number from 0 to 10,000,000,000 sq ft.']
        assert not at.metric and not at.get("plotly_chart")  # no result, not the last valid one
        assert "No result is shown" in _text(at)
        assert at.session_state[forms.MITIGATION_INPUT]["impacted_wetland_sqft"] == 1000.0  # nothing lost
        # the rest of the page (plan checklist, forms) is still there
        assert any(label == "§ 402-57P(4)(a)" for label, _p in _links(at))
    at.number_input(key="mit_proposed").set_value(-1.0)
    at.number_input(key="mit_wetland").set_value(2000.0)
    _after(at)
    assert [e.value for e in at.error] == ['"Replacement wetland proposed" must be a number from 0 to '
                                           '10,000,000,000 sq ft.']
    at.number_input(key="mit_proposed").set_value(3000.0)
    _after(at)
    assert not at.error and _metrics(at)["Required replacement"] == "3,000 sq ft"


def test_mitigation_from_the_drawn_footprint(manifest):
    project = {"disturbance_footprint": fx.wgs84_feature(FOOTPRINT)["geometry"]}
    at = _page("pages/mitigation.py", parcel=_p1(manifest), **{state.PROJECT: project})
    assert at.radio(key="mit_source").value == "From the drawn footprint"
    ratio = float(value("wetland_mitigation_ratio", law_day()))
    metrics = _metrics(at)
    assert metrics["Wetland lost"] == "2,500 sq ft"
    assert metrics["Required replacement"] == f"{2500 * ratio:,.0f} sq ft"
    assert "Buffer disturbed: 7,500 sq ft" in _text(at)


# ---------------------------------------------------------------------------------------- project


def _project_with_drawing(manifest, drawing_geom=FOOTPRINT):
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(drawing_geom)]})
    with fx.map_answers(fake):
        at = _page("pages/project.py", parcel=_p1(manifest))
    return at, fake


def test_project_footprint_touches_and_permits(manifest):
    at, fake = _project_with_drawing(manifest)
    assert fake.call_args.kwargs["returned_objects"] == ["all_drawings"]
    metrics = _metrics(at)
    assert metrics["Footprint"] == "10,000 sq ft"
    assert metrics["Wetland"] == "2,500 sq ft"
    assert metrics["Wetland/watercourse buffer"] == "7,500 sq ft"
    assert metrics["Slopes of 25% or more"] == "unknown (no elevation data)"
    stored = at.session_state[state.PROJECT]
    expected = analyze(_p1(manifest), load_manifest(manifest), project=stored)
    wetland = next(p for p in expected["permits"] if p["id"] == "wetland_permit")
    assert wetland["required"] is True
    titles = [e.label for e in at.expander]
    assert "Wetland permit: needed" in titles
    text = _text(at)
    assert wetland["authority"].replace("(", "").replace(")", "") in text.replace("(", "").replace(")", "")
    labels = [label for label, _p in _links(at)]
    assert f"The rule: {wetland['citation']}" in labels
    for item in wetland["submissions"]:
        assert item["citation"] in labels
    assert "Hearing within" in text  # the clocks
    assert "Wetland mitigation for this footprint" in labels


def test_project_bad_number_is_named_beside_its_field_and_shows_no_result(manifest):
    # Not the last valid result under a number the person no longer sees.
    at, _fake = _project_with_drawing(manifest)
    assert _metrics(at)["Footprint"] == "10,000 sq ft"
    at.number_input(key="pf_trees").set_value(5e6)
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(FOOTPRINT)]})
    with fx.map_answers(fake):
        _after(at)
    errors = [e.value for e in at.error]
    assert errors[0] == '"Trees to be removed" must be a whole number from 0 to 1,000,000.'
    assert len(errors) == 2 and errors[1].startswith("No result is shown")
    assert not at.metric and not [e for e in at.expander if e.label.startswith("Wetland permit")]
    assert "last valid values" not in _text(at)
    assert beside(at, "pf_trees") == errors[0]  # right under its field
    at.number_input(key="pf_trees").set_value(3)
    with fx.map_answers(fake):
        _after(at)
    assert not at.error and _metrics(at)["Footprint"] == "10,000 sq ft"
    assert at.session_state[state.PROJECT]["trees_removed"] == 3


def test_project_refused_by_the_core_keeps_the_last_valid_result(manifest):
    # A value the form cannot check (a drawn footprint too large to be real) is the core's sentence, and the
    # last valid result stays, said to be so.
    at, _fake = _project_with_drawing(manifest)
    before = _metrics(at)
    huge = box(fx.X0, fx.Y0, fx.X0 + 40_000, fx.Y0 + 40_000)
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(huge)]})
    with fx.map_answers(fake):
        _after(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "too large to be real" in errors[0]
    with pytest.raises(SloatInputError, match="too large to be real"):
        from sloat_core.rules.project import parse_project

        parse_project({"disturbance_footprint": fx.wgs84_feature(huge)["geometry"]})
    assert _metrics(at) == before
    assert "last valid values" in _text(at)


def test_project_form_values_reach_the_engine(manifest):
    at, _fake = _project_with_drawing(manifest)
    at.selectbox(key="pf_application_type").set_value("subdivision")
    at.multiselect(key="pf_activities").set_value([1, 10])
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(FOOTPRINT)]})
    with fx.map_answers(fake):
        _after(at)
    stored = at.session_state[state.PROJECT]
    assert stored["application_type"] == "subdivision" and stored["activities"] == [1, 10]
    assert "Regulated activities: (1), (10) of § 402-57I" in _text(at)
    # The chosen activities read in full under the menu (the options were cut off).
    full = forms.activity_labels()[1]
    assert full == "(1) Placement or construction of any structure"
    shown = [c.value.replace("\\", "") for c in at.caption]  # markdown escapes dropped
    assert any(full in c and "(10) Clear cutting" in c for c in shown)


def test_project_exemptions_on_the_form_reach_the_engine(manifest):
    # § 402-57H(1) normal ground maintenance; § 402-58D(10) landscaping with an existing structure.
    at, _fake = _project_with_drawing(manifest)
    at.multiselect(key="pf_wetland_exemptions").set_value([1])
    at.multiselect(key="pf_swppp_exemptions").set_value([10])
    at.selectbox(key="pf_design_cut_height").set_value("met")
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(FOOTPRINT)]})
    with fx.map_answers(fake):
        _after(at)
    stored = at.session_state[state.PROJECT]
    assert stored["wetland_exemptions"] == [1] and stored["swppp_exemptions"] == [10]
    assert stored["design_limits"] == {"cut_height": True}
    expected = analyze(_p1(manifest), load_manifest(manifest), project=stored)
    wetland = next(p for p in expected["permits"] if p["id"] == "wetland_permit")
    assert wetland["required"] is False and wetland["citation"] == "§ 402-57H(1)"
    assert "Wetland permit: needed" not in [e.label for e in at.expander]
    assert "Wetland permit" in next(c.value for c in at.caption if c.value.startswith("Not needed on what is known"))
    labels = forms.exemption_labels("§ 402-58D", (10,))
    assert labels[10].startswith("(10) Landscaping and horticultural activities")


def test_activity_labels_are_the_laws_own_words_whole():
    labels = forms.activity_labels()
    assert sorted(labels) == list(range(1, 14))
    assert labels[10] == "(10) Clear cutting"
    for n, label in labels.items():
        words = " ".join(law.clause(f"§ 402-57I({n})").split())
        assert "…" not in label and words.rstrip(";,.") == label, (n, label)
    # (5) is the longest clause; it is not cut short any more.
    assert labels[5].endswith("so as to drain into a wetland")


def test_activity_menu_words_are_short_and_numbered_by_clause():
    # Short enough for a menu tag in the form column at 1366 px (about 50 characters), with the clause number.
    menu = forms.activity_menu_labels()
    assert sorted(menu) == list(range(1, 14))
    for n, label in menu.items():
        assert label.startswith(f"({n}) ") and len(label) <= 55 and "…" not in label, (n, label)


def test_project_without_a_parcel_keeps_the_form(manifest):
    at = _page("pages/project.py")
    at.selectbox(key="pf_application_type").set_value("site_plan")
    _after(at)
    assert at.session_state[state.PROJECT]["application_type"] == "site_plan"


# ---------------------------------------------------------------------------------------- cluster


def test_cluster_triggers_and_board_answers(manifest):
    at = _page("pages/cluster.py", parcel=_p1(manifest))
    table = at.table[0].value
    assert list(table["§"]) == [f"§ 402-48C({n})" for n in range(1, 11)]
    wet = table[table["§"] == "§ 402-48C(2)"].iloc[0]
    assert wet["Found"] == "Yes" and "10,000 sq ft" in wet["Evidence"]
    assert table[table["§"] == "§ 402-48C(5)"].iloc[0]["Found"] == "Unknown"
    at.radio(key="board_5").set_value("Yes")
    _after(at)
    row = at.table[0].value.iloc[4]
    assert row["Found"] == "Yes" and row["Evidence"].startswith("Board's answer: yes")
    assert at.session_state[state.BOARD_ANSWERS]["402-48C(5)"] is True
    labels = [label for label, _p in _links(at)]
    assert "§ 402-48B" in labels and "§ 402-48C(2) yes" in labels


def test_cluster_applicability_follows_the_application_type(manifest):
    at = _page("pages/cluster.py", parcel=_p1(manifest), **{state.DISTRICT: "R-40",
                                                           state.PROJECT: {"application_type": "subdivision"}})
    assert "A subdivision or site plan in a residence or mixed-use district" in _text(at)
    metrics = _metrics(at)
    assert metrics["District minimum lot"] == "40,000 sq ft"
    assert metrics["Cluster lot minimum"] == f"{value('cluster_min_lot_area_sqft', law_day()):,.0f} sq ft gross"
    at = _page("pages/cluster.py", parcel=_p1(manifest), **{state.PROJECT: {"application_type": "building_permit"}})
    assert "subdivision and site plan applications only" in _text(at)


def test_cluster_split_parcel_shows_each_district(split_manifest):
    parcel = _p1(split_manifest)
    at = _page("pages/cluster.py", parcel=parcel)
    expected = analyze(parcel, load_manifest(split_manifest))["per_district"]
    assert sorted(p["district"] for p in expected) == ["R-15", "R-40"]
    text = _text(at)
    for part in expected:
        assert part["gross_area_sqft"] == pytest.approx(20_000, abs=0.5)  # each half of P1
        assert f"District {part['district']}" in text
        assert f"{part['net_lot_area_sqft']:,.0f} sq ft" in text
    assert "more than one zoning district" in text
    assert "§ 402-48I" in [label for label, _p in _links(at)]


# ---------------------------------------------------------------------------------------- timeline


def _add_wetland_permit(at: AppTest, issued: dt.date, expires: dt.date | None = None) -> AppTest:
    at.selectbox(key="tl_kind").set_value("wetland_permit")
    _after(at)
    at.date_input(key="tl_wetland_permit_issued").set_value(issued)
    if expires is not None:
        at.date_input(key="tl_wetland_permit_expires").set_value(expires)
    at.button(key="tl_add_wetland_permit").click()
    return _after(at)


def test_timeline_adds_a_permit_and_shows_its_clocks(manifest):
    at = _page("pages/timeline.py")
    at.date_input(key="tl_as_of").set_value(dt.date(2026, 6, 1))
    _after(at)
    _add_wetland_permit(at, dt.date(2026, 3, 1))
    issued = dt.date(2026, 3, 1)  # a clock reads the law of the day it starts
    expires = issued + relativedelta(years=value("wetland_permit_term_years", issued))
    ask_by = expires - relativedelta(days=value("wetland_extension_request_days", issued))
    table = at.dataframe[0].value
    rows = {r["Date"]: r for _i, r in table.iterrows()}
    assert rows[expires.isoformat()]["Status"] == "Active"
    assert rows[ask_by.isoformat()]["Status"] == "Upcoming"
    assert rows[ask_by.isoformat()]["§"] == "§ 402-57J(4)"
    labels = [label for label, _p in _links(at)]
    assert "§ 402-57J(4)" in labels and any("402-55J(19)" in label for label in labels)
    assert [b.proto.label for b in at.get("download_button")] == ["Download the dates as a calendar (.ics)"]
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    shapes = spec["layout"]["shapes"]
    assert any(s["type"] == "rect" for s in shapes)  # the winter season
    assert any(s["type"] == "line" and str(s["x0"]).startswith("2026-06-01") for s in shapes)  # as of


def test_timeline_refuses_an_impossible_item_and_loses_nothing(manifest):
    at = _page("pages/timeline.py")
    _add_wetland_permit(at, dt.date(2026, 3, 1))
    assert len(at.session_state[forms.TIMELINE_ITEMS]) == 1
    _add_wetland_permit(at, dt.date(2026, 5, 1), expires=dt.date(2025, 5, 1))
    errors = [e.value for e in at.error]
    assert errors == ["The wetland permit's expiry date (2025-05-01) is before its issue date (2026-05-01)."]
    assert len(at.session_state[forms.TIMELINE_ITEMS]) == 1  # the first item is still there
    assert at.date_input(key="tl_wetland_permit_expires").value == dt.date(2025, 5, 1)  # the typing too
    assert len(at.dataframe[0].value) == 2


def test_timeline_the_same_item_is_not_added_twice_nor_twice_in_the_ics(manifest, media):
    # The same permit with the same dates is added once, and is once in the .ics.
    at = _page("pages/timeline.py")
    _add_wetland_permit(at, dt.date(2026, 3, 1))
    rows = len(at.dataframe[0].value)
    _add_wetland_permit(at, dt.date(2026, 3, 1))
    assert len(at.session_state[forms.TIMELINE_ITEMS]) == 1
    assert any("already on the timeline (item 1)" in i.value for i in at.info)
    assert len(at.dataframe[0].value) == rows
    _add_wetland_permit(at, dt.date(2026, 4, 1))  # other dates: another permit
    assert len(at.session_state[forms.TIMELINE_ITEMS]) == 2

    # An older case holding the item twice: one item, once in the calendar file.
    item = {"id": "wetland_permit", "issued": "2026-03-02"}
    at = _page("pages/timeline.py", **{forms.TIMELINE_ITEMS: [item, dict(item)]})
    assert at.session_state[forms.TIMELINE_ITEMS] == [item]
    ics = fx.download(at, media, "tl_ics").decode("utf-8")
    once = ics.count("BEGIN:VEVENT")
    single = _page("pages/timeline.py", **{forms.TIMELINE_ITEMS: [item]})
    assert once == len(single.dataframe[0].value) > 0


def test_timeline_status_colours_and_removal(manifest):
    items = [{"id": "tree_removal_permit", "issued": "2025-01-10"},
             {"id": "wetland_permit_application", "complete": "2026-05-20", "ref": "WP-7"}]
    at = _page("pages/timeline.py", **{forms.TIMELINE_ITEMS: items, "tl_as_of": dt.date(2026, 6, 1)})
    table = at.dataframe[0].value
    assert "Expired" in set(table["Status"]) and "Due soon" in set(table["Status"])
    assert any("WP-7" in item for item in table["Item"])
    at.button(key="tl_remove_1").click()
    _after(at)
    assert at.session_state[forms.TIMELINE_ITEMS] == [items[1]]


# ---------------------------------------------------------------------------------------- charts


def test_gauge_marks_the_requirement_and_colours_a_shortfall():
    short = charts.mitigation_gauge(1500.0, 1200.0)
    gauge = short.data[0].gauge
    assert gauge.threshold.value == 1500.0
    assert gauge.bar.color == charts.STATUS_COLOURS["expired"]
    enough = charts.mitigation_gauge(1500.0, 1500.0)
    assert enough.data[0].gauge.bar.color == charts.STATUS_COLOURS["active"]
    assert charts.mitigation_gauge(1500.0, None).data[0].mode == "gauge"


def test_timeline_figure_colours_by_status():
    rows = [{"item": "1. Wetland permit", "date": dt.date(2026, 1, 1), "label": "x", "status": "expired",
             "citation": "§ 402-57J(4)", "kind": "expires"},
            {"item": "1. Wetland permit", "date": dt.date(2027, 1, 1), "label": "y", "status": "upcoming",
             "citation": "§ 402-57J(4)", "kind": "extension_request_deadline"}]
    fig = charts.timeline_figure(rows, dt.date(2026, 6, 1), [(dt.date(2025, 12, 15), dt.date(2026, 4, 15))])
    colours = {trace.name: trace.marker.color for trace in fig.data if trace.name in charts.STATUS_LABELS.values()}
    assert any(trace.name.startswith("Winter season") for trace in fig.data)  # the shading's legend entry
    assert colours == {"Expired": charts.STATUS_COLOURS["expired"], "Upcoming": charts.STATUS_COLOURS["upcoming"]}
    rect = next(s for s in fig.layout.shapes if s.type == "rect")
    assert rect.x0 == dt.date(2025, 12, 15) and rect.x1 == dt.date(2026, 4, 16)  # last day included


def test_projector_mode_uses_html_tables_in_large_type(manifest):
    items = [{"id": "wetland_permit", "issued": "2026-03-01"}]
    at = _page("pages/timeline.py", mode=state.PROJECTOR, **{forms.TIMELINE_ITEMS: items,
                                                             "tl_as_of": dt.date(2026, 6, 1)})
    assert not at.dataframe and len(at.table) == 1
    table = at.table[0].value
    assert list(table.columns) == ["Date", "What", "Status", "§"] and "2027-03-01" in set(table["Date"])
    at = _page("pages/cluster.py", parcel=_p1(manifest), mode=state.PROJECTOR)
    assert not at.dataframe and len(at.table[0].value) == 10


def test_counter_mode_says_the_permits_in_plain_words_on_the_project_page(manifest):
    from sloat_core.engine.answer import lot_answer
    from sloat_core.engine.result import parcel_result

    at = _page("pages/project.py", parcel=_p1(manifest), mode=state.COUNTER)
    result = analyze(_p1(manifest), load_manifest(manifest), project=at.session_state[state.PROJECT])
    answer = lot_answer(parcel_result(result))  # what the project needs, then what the parcel carries
    sentences = answer.project_needs + answer.parcel_carries
    assert sentences
    text = _text(at).replace("\u00a0", " ")
    for sentence in sentences:
        assert sentence.replace("\\", "")[:60] in text.replace("\\", "")


def test_the_project_form_keeps_the_design_figures_and_asks_the_new_round_three_facts(manifest):
    """design_figures survive the form's rebuild of the project (§ 402-55J), in both modes; the form asks
    Condition A (§ 402-58E(2)(a)), the area open at once (§ 402-58E(1)(d)) and the specimens (§ 402-53A)."""
    figures = {"retaining_wall_length_ft": 120.0, "cut_height_ft": 12.0}
    for mode in (None, state.COUNTER):
        at = _page("pages/project.py", parcel=_p1(manifest), mode=mode,
                   **{state.PROJECT: {"trees_removed": 3, "design_figures": figures}})
        assert at.session_state[state.PROJECT]["design_figures"] == figures, mode
    at.session_state[state.MODE] = None
    at = _page("pages/project.py", parcel=_p1(manifest), **{state.PROJECT: {"trees_removed": 3}})
    at.number_input(key="pf_fig_cut_height_ft").set_value(25.0).run()
    at.number_input(key="pf_at_once").set_value(6.0).run()
    at.number_input(key="pf_specimens").set_value(2).run()
    assert not at.exception
    kept = at.session_state[state.PROJECT]
    assert kept["design_figures"] == {"cut_height_ft": 25.0}
    assert kept["disturbed_at_one_time_acres"] == 6.0 and kept["substantial_specimens_removed"] == 2
    assert kept.get("impaired_water_drainage") is None  # unassessed stays unknown


# ---------------------------------------------------------------------------------------- every number field

#: Each kind of number field of the project form: (widget key, the sentence for a value out of range, a good value).
_PROJECT_FIELDS = [
    ("pf_disturbed", '"Area to be disturbed" must be a number from 0 to 1,000,000,000 sq ft.', 5000.0),
    ("pf_app_acres", '"Area of the whole application" must be a number from 0 to 20,000 acres.', 2.0),
    ("pf_at_once", '"Most acres disturbed at any one time" must be a number from 0 to 20,000 acres.', 1.0),
    ("pf_trees", '"Trees to be removed" must be a whole number from 0 to 1,000,000.', 3),
    ("pf_specimens", '"Substantial tree specimens among the trees removed" must be a whole number from 0 to '
                     '1,000,000.', 1),
    ("pf_fig_cut_height_ft", '"Highest cut for a building site, road or driveway, feet" must be a number from 0 '
                             'to 100,000 ft.', 12.0),
    ("appr_lots", '"Lots in the subdivision" must be a whole number from 0 to 100,000.', 4),
]


@pytest.mark.parametrize("key,sentence,good", _PROJECT_FIELDS, ids=[f[0] for f in _PROJECT_FIELDS])
@pytest.mark.parametrize("bad", [-500.0, 1e15], ids=["negative", "huge"])
def test_every_project_number_field_names_what_is_wrong_and_shows_no_result(manifest, key, sentence, good, bad):
    # The same helper as the mitigation calculator, on every kind of field of the form.
    at = _page("pages/project.py", parcel=_p1(manifest), **{state.PROJECT: {"trees_removed": 2}})
    assert [p for p in at.expander if p.label.startswith("Tree removal permit")]  # a result to lose
    at.number_input(key=key).set_value(bad)
    _after(at)
    assert beside(at, key) == sentence
    assert [e.value for e in at.error][0] == sentence
    assert not [p for p in at.expander if ": " in p.label and p.label.split(": ")[0].endswith("permit")]
    assert at.session_state[state.PROJECT] == {"trees_removed": 2}  # nothing saved from the bad figure
    at.number_input(key=key).set_value(good)
    _after(at)
    assert not at.error and [p for p in at.expander if p.label.startswith("Tree removal permit")]


def test_nan_reaches_the_page_as_an_empty_field_not_a_number(manifest):
    # Streamlit hands a NaN to the script as "nothing typed": the field reads empty and the answer is for an
    # unknown figure, never for the last one typed (the helper itself refuses NaN: numbers.refused).
    at = _page("pages/project.py", parcel=_p1(manifest), **{state.PROJECT: {"trees_removed": 2}})
    at.number_input(key="pf_trees").set_value(float("nan"))
    _after(at)
    assert at.number_input(key="pf_trees").value is None and not at.error
    assert "trees_removed" not in at.session_state[state.PROJECT]
    assert not [p for p in at.expander if p.label == "Tree removal permit: needed"]


def test_a_whole_number_field_refuses_a_fraction(manifest):
    at = _page("pages/project.py", parcel=_p1(manifest))
    at.number_input(key="pf_trees").set_value(2.5)
    _after(at)
    assert beside(at, "pf_trees") == '"Trees to be removed" must be a whole number from 0 to 1,000,000.'


def test_the_form_limits_are_where_the_core_refuses():
    """The form's ranges are the core's: its maximum is accepted, and just above it the core refuses too."""
    from sloat_core.approvals.facts import parse_approval_facts
    from sloat_core.rules.project import parse_project

    for key in ("application_area_acres", "disturbed_at_one_time_acres"):  # a round figure under the core's
        parse_project({key: forms.ACRES_MAX})
        with pytest.raises(SloatInputError):
            parse_project({key: forms.AREA_MAX_SQFT / 43_560 + 1})
    for key, top in (("disturbance_area_sqft", forms.AREA_MAX_SQFT), ("trees_removed", forms.TREES_MAX),
                     ("substantial_specimens_removed", forms.TREES_MAX)):
        parse_project({key: top, **({"trees_removed": top} if key == "substantial_specimens_removed" else {})})
        with pytest.raises(SloatInputError):
            parse_project({key: top * 1.001 + 1})
    parse_project({"design_figures": {"cut_height_ft": forms.DESIGN_FIGURE_MAX}})
    with pytest.raises(SloatInputError):
        parse_project({"design_figures": {"cut_height_ft": forms.DESIGN_FIGURE_MAX + 1}})
    assert parse_approval_facts({"lots": forms.LOTS_MAX}).lots == forms.LOTS_MAX
    with pytest.raises(SloatInputError):
        parse_approval_facts({"lots": forms.LOTS_MAX + 1})


@pytest.mark.parametrize("kind,field,bad,sentence", [
    ("storm_event", "rainfall_in", 1e15, '"Rainfall" must be a number from 0 to 100 inches.'),
    ("storm_event", "rainfall_in", -0.5, '"Rainfall" must be a number from 0 to 100 inches.'),
    ("tree_removal_permit", "term_months", -500, '"Term" must be a whole number from 0 to 9,999.'),
    ("mitigation_monitoring", "years", 1e15, '"Monitoring years" must be a whole number from 0 to 9,999.'),
    ("winter_season", "year", 12_000, '"Season starting in the year" must be a whole number from 1900 to 2199.'),
])
def test_timeline_number_fields_name_what_is_wrong_and_add_nothing(manifest, kind, field, bad, sentence):
    at = _page("pages/timeline.py")
    at.selectbox(key="tl_kind").set_value(kind)
    _after(at)
    at.number_input(key=f"tl_{kind}_{field}").set_value(bad)
    at.button(key=f"tl_add_{kind}").click()
    _after(at)
    assert beside(at, f"tl_{kind}_{field}") == sentence
    assert forms.TIMELINE_ITEMS not in at.session_state or not at.session_state[forms.TIMELINE_ITEMS]
    assert "Added:" not in _text(at)
