"""AppTest checks of the Parcel & constraints page against a hand-built layer set.

The layer set (tests/app_fixtures.py) has a 40,000 sq ft tax parcel with a 10,000 sq ft wetland
strip; the page must show the gross area, the deductions and net lot area that
``sloat_core.engine.analysis.analyze`` computes, with § citations linking to the Law page.
"""

from __future__ import annotations

import sys
from pathlib import Path
from unittest import mock

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
import html_tables  # noqa: E402

from app_support.frame import announce, state, theme  # noqa: E402
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture()
def manifest(module_layer_files, monkeypatch):
    """The layer set, written once for the module (its tests only read it: tests/conftest.py), served via
    ``SLOAT_LAYERS`` as the app reads it."""
    monkeypatch.setenv("SLOAT_LAYERS", str(module_layer_files))
    return module_layer_files


def _page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [h.value for h in at.html] + [str(m.value) for m in at.metric]
    parts += [e.value for e in at.info] + [e.value for e in at.success] + [e.value for e in at.warning]
    parts += [c.value for c in at.caption]
    return "\n".join(parts).replace("\\", "")


def _page_links(at: AppTest) -> list:
    return [el for el in at.get("page_link")]


def _run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def test_landing_page_without_parcel_invites_a_drawing(manifest):
    at = _run(AppTest.from_file(APP, default_timeout=30))
    assert "Draw the parcel on the map" in _page_text(at)
    assert "Illustrative sample, not official data" in _page_text(at)
    assert "decides" in _page_text(at) or "determination" in _page_text(at)


@pytest.mark.parametrize("mode", state.MODES)
def test_the_first_page_sends_no_markdown_that_needs_the_browsers_html_parser(manifest, mode):
    """Markdown with ``unsafe_allow_html`` makes Streamlit's front end fetch and run its HTML parser (rehype-raw,
    188 KB) before it shows the block. The first page's HTML (the mode's stylesheet, the two sample notices, the map
    key) goes through ``st.html`` instead (bench/README.md, the first map)."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.MODE] = mode
    _run(at)
    assert [m.value[:60] for m in at.markdown if m.proto.allow_html] == []
    html = [h.value for h in at.html]
    assert theme.stylesheet(mode).strip() in [h.strip() for h in html]
    assert [h for h in html if h.startswith('<ul class="sloat-legend"')]
    assert len([h for h in html if 'class="sloat-notice"' in h]) == 2  # the sidebar's and the map's


@pytest.mark.parametrize("mode", state.MODES)
def test_the_answer_sends_no_markdown_that_needs_the_browsers_html_parser(manifest, mode):
    """Nor does the answer: the heading the focus moves to after a search (app_support.frame.announce; as markdown
    it was a placeholder until the parser had loaded) and the deduction table go through ``st.html``."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    at.session_state[state.MODE] = mode
    _run(at)
    assert [m.value[:60] for m in at.markdown if m.proto.allow_html] == []
    assert announce.ANSWER_TARGET_HTML in [h.value for h in at.html]
    assert len(html_tables.deduction_tables(at)) == 1


def test_drawn_parcel_shows_gross_net_and_citations(manifest):
    drawing = fx.wgs84_feature(fx.P1)
    fake = mock.MagicMock(return_value={"all_drawings": [drawing]})
    with fx.map_answers(fake):
        at = _run(AppTest.from_file(APP, default_timeout=30))
    expected = analyze(parcel_input.parcel_from_geojson(drawing), load_manifest(manifest))
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Gross area, sq ft"] == f"{expected['gross_area_sqft']:,.0f}" == "40,000"
    net_label = next(label for label in metrics if label.startswith("Net lot area"))
    assert metrics[net_label] == f"{expected['net_lot_area_sqft']:,.0f}"
    table = html_tables.deduction_tables(at)[0].value  # an HTML table with a colour key (wraps in the narrow column)
    wet = table[table["Constraint"] == "Wetlands"].iloc[0]
    assert wet["Counted in this row, sq ft"] == "10,000" and wet["Deducted, sq ft"] == "10,000"
    assert wet["§"] == "§ 402-45A(1)"
    assert "Drawn on the map" in _page_text(at)
    # st_folium was asked for the drawings only, with the layers as feature groups
    kwargs = fake.call_args.kwargs
    assert kwargs["returned_objects"] == ["all_drawings", "last_clicked"]
    assert kwargs["feature_group_to_add"]


def test_parcel_in_session_state_is_analysed_with_its_district(manifest):
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    at.session_state[state.DISTRICT] = "R-15"
    _run(at)
    text = _page_text(at)
    assert "R-15 minimum of 15,000 sq ft" in text
    assert "Cannot tell yet" in text  # floodplain, slopes and others are unknown here
    assert "Unknown: no map layer for" in text and "100-year floodplain" in text


def test_find_by_sbl_a_single_match_is_chosen_at_once(manifest):
    at = _run(AppTest.from_file(APP, default_timeout=30))
    at.text_input(key="parcel_query").input(fx.P2_SBL).run()
    assert not at.exception
    assert not [b for b in at.button if b.key == "use_parcel"]  # no pick and no button for one match
    assert at.session_state[state.PARCEL].sbl == fx.P2_SBL
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Gross area, sq ft"] == "10,000"
    assert f"Tax parcel {fx.P2_SBL}" in _page_text(at)


def test_failed_upload_keeps_the_current_parcel(manifest):
    at = AppTest.from_file(APP, default_timeout=30)
    before = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    at.session_state[state.PARCEL] = before
    _run(at)
    at.file_uploader(key="parcel_upload").upload("bad.geojson", b"{ this is not json").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].endswith(".")
    assert at.session_state[state.PARCEL].geometry.equals(before.geometry)
    assert {m.label: m.value for m in at.metric}["Gross area, sq ft"] == "40,000"


def test_after_a_refused_upload_the_earlier_file_s_answer_stays_and_the_uploader_says_it_is_the_earlier_one(manifest):
    # A refused file touches nothing: the earlier file's parcel and its answer stay on screen as they were (they
    # were hidden behind a button), and the words beside the uploader say they are the earlier file's, so they are
    # not read as the refused file's.
    import json

    from app_support.inputs.parcel_inputs import KEPT_AFTER_REFUSAL

    at = _run(AppTest.from_file(APP, default_timeout=30))
    data = json.dumps({"type": "FeatureCollection", "features": [fx.wgs84_feature(fx.P2)]}).encode()
    at.file_uploader(key="parcel_upload").upload("lot.geojson", data, "application/geo+json").run()
    before = {m.label: m.value for m in at.metric}
    assert before["Gross area, sq ft"] == "10,000"
    at.file_uploader(key="parcel_upload").upload("bad.geojson", b"{ this is not json").run()
    assert not at.exception
    assert len(at.error) == 1
    assert {m.label: m.value for m in at.metric} == before  # the figures stay, as they were
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert f"{KEPT_AFTER_REFUSAL} (Uploaded file lot.geojson)." in captions
    assert "Uploaded file lot.geojson" in captions  # the answer still names its own file
    assert at.session_state[state.PARCEL].geometry.area == pytest.approx(10_000, abs=0.5)  # nothing lost


def test_good_upload_replaces_the_parcel(manifest):
    import json

    at = _run(AppTest.from_file(APP, default_timeout=30))
    data = json.dumps({"type": "FeatureCollection", "features": [fx.wgs84_feature(fx.P2)]}).encode()
    at.file_uploader(key="parcel_upload").upload("lot.geojson", data, "application/geo+json").run()
    assert not at.exception
    assert not at.error
    assert "Uploaded file lot.geojson" in _page_text(at)
    assert {m.label: m.value for m in at.metric}["Gross area, sq ft"] == "10,000"


def test_every_citation_links_to_the_law_page(manifest):
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    _run(at)
    links = _page_links(at)
    targets = {link.proto.page for link in links}
    labels = [link.proto.label for link in links]
    assert any("402-45A(1)" in label for label in labels)
    assert any("402-48C(2)" in label for label in labels)  # the wetland cluster trigger
    assert all(t.endswith("law") for t in targets if t), targets


@pytest.mark.parametrize("mode", [state.COUNTER, state.PROJECTOR])
def test_modes_keep_the_numbers_with_fewer_controls(manifest, mode):
    # The mode is set before the first run: AppTest drops the frame's elements (sidebar,
    # stylesheet) from its tree on reruns under st.navigation, so they are checked on run one.
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    at.session_state[state.MODE] = mode
    _run(at)
    assert at.sidebar.radio(key=state.MODE).value == mode
    gross_label = "Your whole lot, sq ft" if mode == state.COUNTER else "Gross area, sq ft"  # plain words
    assert {m.label: m.value for m in at.metric}[gross_label] == "40,000"
    assert [r.key for r in at.radio if r.key == state.BASEMAP] == []  # Standard mode only
    styles = "\n".join(m.value for m in at.html if "<style>" in m.value)
    assert ("font-size:24px" in styles) == (mode == state.PROJECTOR)


def test_standard_mode_has_map_controls(manifest):
    at = _run(AppTest.from_file(APP, default_timeout=30))
    assert at.radio(key=state.BASEMAP).options == ["Street map (OpenStreetMap)",
                                                   "Aerial imagery (Esri World Imagery)",
                                                   "None (layers only)"]
    assert "font-size:24px" not in "\n".join(m.value for m in [*at.html, *at.markdown])


def test_click_picks_the_tax_parcel_only_when_picking_is_on(manifest):
    from pyproj import Transformer

    lon, lat = Transformer.from_crs("EPSG:2260", "EPSG:4326", always_xy=True).transform(
        fx.X0 + 450, fx.Y0 + 50)  # inside P2
    fake = mock.MagicMock(return_value={"all_drawings": None, "last_clicked": {"lat": lat, "lng": lon}})
    with fx.map_answers(fake):
        at = _run(AppTest.from_file(APP, default_timeout=30))
        assert at.session_state[state.PARCEL] is None  # picking is off: the click is ignored
        at.session_state[state.PICK_BY_CLICK] = True
        at.session_state[state.SEEN_CLICK] = None
        _run(at)
    assert at.session_state[state.PARCEL].sbl == fx.P2_SBL
    assert {m.label: m.value for m in at.metric}["Gross area, sq ft"] == "10,000"


def test_the_chosen_district_survives_a_visit_to_another_page(manifest):
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    _run(at)
    at.selectbox(key="district_picker").set_value("R-15").run()
    assert at.session_state[state.DISTRICT] == "R-15"
    _run(at.switch_page("pages/cluster.py"))
    _run(at.switch_page("pages/parcel.py"))
    assert at.session_state[state.DISTRICT] == "R-15"
    assert at.selectbox(key="district_picker").value == "R-15"
    assert "R-15 minimum of 15,000 sq ft" in _page_text(at)


@pytest.mark.parametrize("mode", [None, "Counter"])
def test_a_lot_the_layers_map_in_part_meets_the_minimum_on_the_page_and_at_the_counter(tmp_path, monkeypatch, mode):
    # The wetland and floodplain layers map the west 300 ft of a 400 ft square in R-40: the mapped land keeps
    # 100,000 sq ft whatever the east 100 ft holds (tests/law/test_s402_45_deductions.py): the answer is yes.
    from engine_world import SQUARE_400, WEST_300_FT, make_world

    world = make_world(tmp_path, {"parcels": [(SQUARE_400, {"SBL": "1.-1-1", "ZONE": "R-40", "ADDRESS": "1 Rd"})]},
                       dem=0, coverage={"wetlands": WEST_300_FT, "floodplain": WEST_300_FT})
    monkeypatch.setenv("SLOAT_LAYERS", str(tmp_path / "layers.yaml"))
    at = fx.open_page("pages/parcel.py", parcel=parcel_input.parcel_by_sbl(world, "1.-1-1"), mode=mode)
    text = _page_text(at)
    assert "Cannot tell yet" not in text
    if mode is None:
        assert "The net lot area meets the R-40 minimum of 40,000 sq ft" in text
    else:
        assert "Between 100,000 and 160,000 sq ft of it counts toward the lot size" in text
        assert "so your lot looks big enough." in text


@pytest.mark.parametrize("mode", [None, "Counter"])
def test_a_partly_mapped_lot_shows_its_known_wetland_as_at_least_in_the_table_and_the_chart(tmp_path, monkeypatch,
                                                                                             mode):
    # The layers map the west 300 ft of a 400 ft square in R-40 and show a 10,000 sq ft wetland there, with its
    # buffer: the wetland row is unknown (the east 100 ft is not mapped) but at least 10,000 sq ft, never a bare
    # "unknown" or a 0; the net at most is 127,146 sq ft (160,000 less what the mapped land is known to lose), and
    # the chart's bars run from the gross area to that net.
    from app_support.views.results import waterfall_figure
    from engine_world import SQUARE_400, WEST_300_FT, make_world, sq
    from sloat_core.engine.analysis import analyze

    world = make_world(tmp_path, {"wetlands": [sq(0, 150, 100)],
                                  "parcels": [(SQUARE_400, {"SBL": "1.-1-1", "ZONE": "R-40", "ADDRESS": "1 Rd"})]},
                       dem=0, coverage={"wetlands": WEST_300_FT, "floodplain": WEST_300_FT})
    monkeypatch.setenv("SLOAT_LAYERS", str(tmp_path / "layers.yaml"))
    at = fx.open_page("pages/parcel.py", parcel=parcel_input.parcel_by_sbl(world, "1.-1-1"), mode=mode)
    text = _page_text(at)
    assert "unknown, at least 10,000" in text  # the wetland row of the deduction table
    assert "160,000 sq ft of it counts" not in text and "127,1" in text
    if mode is None:
        assert "Net lot area (at most), sq ft" in [m.label for m in at.metric]
    else:
        assert "Not counted: at least 10,000 sq ft of wetland" in text

    result = analyze(SQUARE_400, world, district="R-40")
    trace = waterfall_figure(result).data[0]
    names = list(trace.x if trace.orientation != "h" else trace.y)
    values = list(trace.x if trace.orientation == "h" else trace.y)
    assert any(n.replace("<br>", " ") == "Wetlands (at least)" for n in names)  # the bar of what the map shows
    assert sum(values[:-1]) == pytest.approx(values[-1], abs=0.5) == pytest.approx(result["net_lot_area_sqft"])
