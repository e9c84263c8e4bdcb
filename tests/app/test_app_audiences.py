"""AppTest checks of "the three audiences" on the hand-built layer set of app_fixtures.

Tax parcel P1 (1 Test Road) is a 200 ft x 200 ft square with a 50 ft wetland strip along its west
side; P2 (3 Test Road) a 100 ft square with nothing on it. Each test has its own case database.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader
from shapely.geometry import box
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
import html_tables  # noqa: E402

from app_support.frame import element_preload, state, theme  # noqa: E402
from app_support.map import leaflet_elements, mapping  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl, to_wgs84_geojson  # noqa: E402
from sloat_core.store import Case, CaseStore  # noqa: E402
from app_support.analysis_door import law_day  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture()
def manifest(module_layer_files, monkeypatch):
    """The layer set, written once for the module (its tests only read it: tests/conftest.py), served via
    ``SLOAT_LAYERS`` as the app reads it."""
    monkeypatch.setenv("SLOAT_LAYERS", str(module_layer_files))
    return module_layer_files


def _pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(p.extract_text() for p in reader.pages)


def _app(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    return at


def _qp(at: AppTest, key: str):
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def _texts(at: AppTest) -> str:
    kinds = ("markdown", "caption", "subheader", "success", "info", "warning", "error")
    # The app keeps a number and its unit together with no-break spaces (unit_text.nb); the claims read words.
    return "\n".join(str(e.value) for kind in kinds for e in at.get(kind)).replace("\u00a0", " ")


def _saved_case(manifest, data_dir, project: dict | None) -> Case:
    layers = load_manifest(manifest)
    parcel = parcel_by_sbl(layers, fx.P1_SBL)
    case = Case()
    case.parcel_geojson = to_wgs84_geojson(parcel.geometry)
    case.parcel_meta = {"sbl": fx.P1_SBL, "source": f"Tax parcel {fx.P1_SBL}", "note": f"Tax parcel {fx.P1_SBL}"}
    case.district = ""
    case.project = project or {}
    return CaseStore(data_dir).save(case)


def _footprint_over_the_wetland(manifest) -> dict:
    """A 60 ft x 60 ft footprint at P1's west edge: 50 ft x 60 ft of it on the wetland strip."""
    minx, miny, _, _ = parcel_by_sbl(load_manifest(manifest), fx.P1_SBL).geometry.bounds
    return to_wgs84_geojson(box(minx, miny + 70, minx + 60, miny + 130))


@pytest.mark.parametrize("word", ["counter", "projector", "standard", "COUNTER"])
def test_the_mode_in_the_link_sets_the_display_mode_and_stays_in_the_link(manifest, data_dir, word):
    at = _app(mode=word).run()
    assert not at.exception
    expected = {m.lower(): m for m in state.MODES}[word.lower()]
    assert at.session_state[state.MODE] == expected
    assert _qp(at, "mode") == word.lower()  # the link keeps it: a reload reads it again
    at.switch_page("pages/law.py").run()  # a page switch clears the parameters; the frame puts it back
    assert _qp(at, "mode") == word.lower()


def test_an_unknown_mode_in_the_link_is_standard_and_the_link_is_corrected(manifest, data_dir):
    at = _app(mode="disco").run()
    assert at.session_state[state.MODE] == state.STANDARD and _qp(at, "mode") == "standard"


def test_counter_and_projector_hide_streamlits_toolbar_and_menu_standard_keeps_it():
    for mode in (state.COUNTER, state.PROJECTOR):
        css = theme.stylesheet(mode)
        for selector in ('[data-testid="stToolbar"]', '[data-testid="stMainMenu"]',
                         '[data-testid="stAppDeployButton"]'):
            assert selector in css and "display:none" in css
    assert '[data-testid="stMainMenu"]' not in theme.stylesheet(state.STANDARD)
    config = (Path(APP).parent / ".streamlit" / "config.toml").read_text()
    assert 'toolbarMode = "viewer"' in config  # no Deploy button and no Clear cache for anyone


def test_the_case_link_names_the_mode_outside_standard(manifest, data_dir):
    case = _saved_case(manifest, data_dir, None)
    at = _app(case=case.id, mode="projector").run()
    assert at.session_state[state.MODE] == state.PROJECTOR
    assert _qp(at, "case") == case.id and _qp(at, "mode") == "projector"
    at.session_state[state.MODE] = state.COUNTER
    at.run()
    assert _qp(at, "mode") == "counter"


def test_counter_answer_card_and_one_page_plain_handout(manifest, data_dir, media):
    at = _app(mode="counter", case=_saved_case(manifest, data_dir, None).id).run()
    assert not at.exception
    text = _texts(at)
    assert "What this means for your lot" in text
    for heading in ("What stands in the way", "Next steps, in the usual order", "What the Village must confirm",
                    "Whom to ask"):
        assert heading in text
    assert "Building Department" in text
    assert "sq ft of wetland does not count toward the lot size" in text
    pages, pdf = _pdf_text(fx.download(at, media, "handout_pdf"))
    assert pages == 1
    assert "What this means for your lot" in pdf and fx.P1_SBL in pdf and "Whom to ask" in pdf
    assert "Needed?" not in pdf  # the plain handout, not the technical table


def test_the_answer_card_is_the_counters_only(manifest, data_dir):
    at = _app(mode="standard", case=_saved_case(manifest, data_dir, None).id).run()
    assert "What this means for your lot" not in _texts(at)
    assert [b for b in at.get("download_button") if b.key == "handout_pdf"]  # the handout is one click away


def _walk(node):
    """The page's elements in their order on the page (depth first)."""
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for key in sorted(children):
        yield from _walk(children[key])


def test_projector_puts_net_lot_area_above_the_map(manifest, data_dir):
    at = _app(mode="projector", case=_saved_case(manifest, data_dir, None).id).run()
    assert not at.exception
    kinds = [getattr(e, "type", type(e).__name__) for e in _walk(at.main)]
    labels = [getattr(e, "label", None) for e in _walk(at.main)]
    net = next(i for i, x in enumerate(labels) if x and x.startswith("Net lot area"))
    component = next(i for i, k in enumerate(kinds) if k in ("component_instance", "iframe", "custom_component"))
    assert net < component, kinds


def test_the_timeline_opened_from_a_case_link_lists_the_projects_permits(manifest, data_dir):
    case = _saved_case(manifest, data_dir, {"application_type": "subdivision", "trees_removed": 3})
    at = _app(case=case.id)
    at.switch_page("pages/timeline.py").run()
    assert not at.exception
    text = _texts(at)
    assert "describe it on the Proposed project page" not in text
    assert "From your project" in text
    assert "The Proposed project page found that your project needs" in text or "It may also need" in text


def test_the_apps_pdf_includes_the_project_footprint_and_mitigation(manifest, data_dir, media):
    project = {"application_type": "building_permit", "new_structure": True,
               "disturbance_footprint": _footprint_over_the_wetland(manifest)}
    case = _saved_case(manifest, data_dir, project)
    at = _app(case=case.id)
    at.switch_page("pages/case.py").run()
    assert not at.exception
    _, text = _pdf_text(fx.download(at, media, "dl_pdf"))
    text = " ".join(text.split())  # the approvals table's narrower column wraps the reason
    assert "disturbance footprint touches" in text
    assert "Wetland mitigation" in text and "Wetland impacted" in text


def test_search_by_road_finds_rd_and_a_single_match_is_chosen_at_once(manifest, data_dir):
    at = _app().run()
    at.text_input(key="parcel_query").input("3 test rd").run()  # the layer says "3 Test Road"
    assert at.session_state[state.PARCEL].sbl == fx.P2_SBL
    at.text_input(key="parcel_query").input("1 Tset Road").run()  # one typo
    assert at.session_state[state.PARCEL].sbl == fx.P1_SBL
    assert "nearest" in _texts(at)


def test_type_ahead_list_picks_a_parcel(manifest, data_dir):
    at = _app().run()
    box_ = at.selectbox(key="parcel_typeahead")
    assert fx.P1_SBL in box_.options[0] or any(fx.P1_SBL in o for o in box_.options)
    box_.select(fx.P2_SBL).run()
    assert at.session_state[state.PARCEL].sbl == fx.P2_SBL


def test_buffer_and_tax_parcel_line_layers_are_on_the_map(manifest, data_dir):
    layers = load_manifest(manifest)
    roles = mapping.available_roles(layers)
    assert "buffer" in roles and "parcels" in roles
    assert theme.LAYER_LABELS["buffer"] == "Wetland and watercourse buffers"
    assert theme.LAYER_LABELS["parcels"] == "Tax parcel lines"
    at = _app(case=_saved_case(manifest, data_dir, None).id).run()
    shown = at.multiselect(key=state.LAYERS_SHOWN).value
    assert "buffer" in shown and "parcels" in shown
    legend = "\n".join(h.value for h in at.html if 'class="sloat-legend"' in h.value)
    assert "Wetland and watercourse buffers" in legend and "Tax parcel lines" in legend


def test_the_buffer_band_lies_around_the_wetland_at_the_local_width(manifest):
    from shapely.geometry import shape

    from app_support.map.layer_geojson import _buffer_geojson
    from sloat_core.units import WGS84, WORK_CRS
    import geopandas as gpd

    layers = load_manifest(manifest)
    gj = _buffer_geojson.__wrapped__("k", 100.0, law_day(), layers)
    band = gpd.GeoSeries([shape(f["geometry"]) for f in gj["features"]], crs=WGS84).to_crs(WORK_CRS).union_all()
    wetland = layers.get("wetlands").geoms[0]
    # A 50 ft x 200 ft strip: its 100 ft band is (250 x 400 - 50 x 200) less the rounded corners' cut
    # (4 x (1 - pi/4) x 100^2). The display simplification (3 ft) turns each round corner into chords
    # about 28 degrees apart (a 3 ft sagitta on a 100 ft radius): a 12-gon's area is 3.0 r^2 against
    # pi r^2, so up to 0.14 x 100^2 = 1,416 sq ft less (1.7%); 2.5% allows for it and nothing more.
    expected = 250 * 400 - 50 * 200 - 4 * (1 - 3.141592653589793 / 4) * 100 ** 2
    assert band.area == pytest.approx(expected, rel=0.025)
    assert band.area <= expected + 1.0
    # The map's coordinates are kept to 1e-6 degree (app_support/map/layer_geojson.py): a vertex moves at most half
    # of that, 0.19 ft north-south here (0.14 ft east-west), so the band's inner edge may cover the wetland by at
    # most a strip that wide along the wetland's outline; a band laid over the wetland would cover far more.
    assert band.intersection(wetland).area < wetland.length * 0.19


def test_parcel_labels_go_in_as_text_not_html():
    rendered = mapping.base_map(label_points=[[41.16, -74.19, "</script><b>x"]]).get_root().render()
    assert "</script><b>" not in rendered  # the JSON cannot close the script
    assert "el.textContent = p[2]" in rendered  # the SBL is text, never HTML


def test_the_slope_overlay_is_clipped_to_the_parcel():
    import numpy as np
    import rasterio
    from shapely.geometry import Polygon

    from app_support.map.slope_overlay import slope_picture

    dem = Path(APP).parent / "data" / "sample" / "dem.tif"
    with rasterio.open(dem) as src:
        left, bottom, right, top = src.bounds
    cx, cy = (left + right) / 2, (bottom + top) / 2
    triangle = Polygon([(cx - 200, cy - 200), (cx + 200, cy - 200), (cx - 200, cy + 200)])
    bounds = (cx - 230, cy - 230, cx + 230, cy + 230)
    whole, _ = slope_picture.__wrapped__(str(dem), bounds, on=law_day())
    clipped, _ = slope_picture.__wrapped__(str(dem), bounds, clip_wkb=triangle.wkb, on=law_day())
    painted_whole = np.count_nonzero(whole[:, :, 3])
    painted_clipped = np.count_nonzero(clipped[:, :, 3])
    # The triangle is 80,000 of the 211,600 sq ft read: under half the picture stays painted (flat
    # cells are transparent in both), and the corner opposite the triangle is empty.
    assert 0 < painted_clipped < 0.5 * painted_whole
    assert not clipped[: clipped.shape[0] // 4, -clipped.shape[1] // 4:, 3].any()


def test_counter_cluster_page_has_no_board_judgment_questions(manifest, data_dir):
    case = _saved_case(manifest, data_dir, None)
    counter = _app(case=case.id, mode="counter")
    counter.switch_page("pages/cluster.py").run()
    assert not counter.exception
    standard = _app(case=case.id, mode="standard")
    standard.switch_page("pages/cluster.py").run()
    n_inputs = lambda at: len(at.radio) + len(at.checkbox) + len(at.selectbox)  # noqa: E731
    assert n_inputs(standard) > n_inputs(counter)  # the Board's questions are inputs only outside Counter
    assert not [e for e in counter.expander if "Planning Board's judgment" in e.label]
    assert [e for e in standard.expander if "Planning Board's judgment" in e.label]


def test_the_deduction_table_says_what_its_area_measures(manifest, data_dir):
    at = _app(case=_saved_case(manifest, data_dir, None).id).run()
    frame = html_tables.deduction_tables(at)[0].value
    assert "Counted in this row, sq ft" in list(frame.columns)


@pytest.mark.parametrize("mode", ["projector", "standard", "counter"])
def test_the_board_walk_through_steps_with_previous_and_next_from_a_case_link(manifest, data_dir, mode):
    from app_support.views import walkthrough

    case = _saved_case(manifest, data_dir, {"application_type": "subdivision"})
    at = _app(case=case.id, mode=mode, step="2")
    at.switch_page("pages/walkthrough.py").run()
    assert not at.exception
    titles = [t.value for t in at.title]
    assert walkthrough.SCREENS[1].title in titles  # ?step=2 opens the second screen
    assert _qp(at, "step") == "2" and _qp(at, "case") == case.id
    for n in range(2, len(walkthrough.SCREENS)):
        at.button(key="wt_next").click().run()
        assert not at.exception, walkthrough.SCREENS[n].id
        assert walkthrough.SCREENS[n].title in [t.value for t in at.title]
        assert _qp(at, "step") == str(n + 1)
    assert at.button(key="wt_next").disabled
    at.button(key="wt_prev").click().run()
    assert walkthrough.SCREENS[-2].title in [t.value for t in at.title]
    for screen in walkthrough.SCREENS:  # every screen names its §
        assert screen.citation.startswith("§")


def test_the_offline_base_is_drawn_from_the_layer_set_and_waits_for_a_tile_error():
    from sloat_core.gis.layers import load_manifest as load

    sample = load(Path(APP).parent / "data" / "sample" / "layers.yaml")
    assert sample.has("roads") and sample.has("village_boundary")  # the sample's illustrative roads
    from app_support.map.layer_geojson import _display_geojson

    roads = _display_geojson.__wrapped__("k", "roads", law_day(), sample)
    boundary = _display_geojson.__wrapped__("k", "village_boundary", law_day(), sample)
    group = mapping.offline_base_group(boundary, roads)
    fmap = mapping.base_map()
    group.add_to(fmap)
    html = fmap.get_root().render()
    assert '"tileerror", show' in html and leaflet_elements.OFFLINE_BASE_CLASS in html
    assert "No map tiles (offline): base drawn from the layer set" in html
    assert "Orange Tpke" in json_dumps(roads)


def test_the_maps_credit_says_what_is_drawn_the_layer_set_offline_and_the_tiles_credit_only_with_tiles():
    """The offline base's group carries the layer set's credit (its name, escaped), never OpenStreetMap's; the
    OfflineBase script puts that credit in the attribution when the base is drawn. OpenStreetMap is credited by
    the street map's tile layer only: with no basemap, the map's HTML names it nowhere."""
    from app_support.map import parcel_map

    sample = load_manifest(Path(APP).parent / "data" / "sample" / "layers.yaml")
    credit = "Base drawn from the layer set: Sloatsburg sample (illustrative, not official)"
    assert mapping.offline_credit(sample) == credit

    def map_html(basemap: str) -> tuple[str, list]:
        view = parcel_map.feature_groups(sample, None, [], basemap=basemap, show_slope=False, picking=False,
                                         large=False, drawn=False, height_px=560, on=law_day())
        fmap = mapping.base_map()
        offline = [g for g in view.groups if g.layer_name == "Village base (offline)"]
        assert len(offline) == 1
        for group in view.groups:
            group.add_to(fmap)
        return fmap.get_root().render(), [c.options for c in offline[0]._children.values() if hasattr(c, "options")]

    html, options = map_html(mapping.NO_BASEMAP)
    assert [o.get("sloat_credit") for o in options] == [credit, credit]  # roads and boundary; options.sloatCredit
    assert "OpenStreetMap" not in html and "sloatCredit" in html
    assert "map.attributionControl.addAttribution(c)" in html  # the OfflineBase script credits it when shown
    street = next(name for name, spec in mapping.BASEMAPS.items() if spec and "openstreetmap" in spec[0])
    html, options = map_html(street)
    assert [o.get("sloat_credit") for o in options] == [credit, credit]  # added by the script, offline only
    assert html.count("OpenStreetMap contributors") == 1  # the tile layer's own attribution

    class Named:  # a manifest's name is text from a file: escaped, and no Jinja delimiter reaches the map
        name, illustrative = "Rockland <b>GIS</b> {% 2026", False

    assert mapping.offline_credit(Named) == "Base drawn from the layer set: Rockland &lt;b&gt;GIS&lt;/b&gt; &#123;% 2026"
    Named.name, Named.illustrative = "App test layers", True
    assert mapping.offline_credit(Named).endswith("App test layers (illustrative sample)")


def json_dumps(obj) -> str:
    import json

    return json.dumps(obj)


def test_the_footprint_map_shows_every_constraint_layer():
    from app_support.map import footprint_map
    from sloat_core.measure.rows import DEDUCTION_ROWS

    layer_rows = {r.map_layer for r in DEDUCTION_ROWS if r.map_layer is not None}
    assert layer_rows <= set(footprint_map.CONSTRAINT_ROLES)  # slopes come as the clipped slope picture


def test_clear_all_removes_the_drawn_parcel_and_its_figures_with_undo(manifest, data_dir):
    from unittest import mock

    drawing = fx.wgs84_feature(fx.P1)
    with fx.map_answers(mock.MagicMock(return_value={"all_drawings": [drawing]})):
        at = _app().run()
    assert at.session_state[state.PARCEL] is not None and at.metric
    with fx.map_answers(mock.MagicMock(return_value={"all_drawings": []})):
        at.run()  # Leaflet.draw's "Clear all"
        assert not at.exception
        assert at.session_state[state.PARCEL] is None
        # the figures went with the drawing (the first screen's hidden, unlabelled preload is not a figure)
        assert [m.label for m in at.metric] == [element_preload.PRELOAD_LABEL]
        assert "The drawing and its figures were cleared." in _texts(at)
        at.button(key="undo_clear").click().run()
        assert at.session_state[state.PARCEL] is not None
        assert any(m.label == "Gross area, sq ft" and m.value == "40,000" for m in at.metric)


def test_clear_all_leaves_a_tax_parcel_alone(manifest, data_dir):
    from unittest import mock

    at = _app(case=_saved_case(manifest, data_dir, None).id).run()
    with fx.map_answers(mock.MagicMock(return_value={"all_drawings": []})):
        at.session_state[state.SEEN_DRAWINGS] = "something drawn earlier"
        at.run()
    assert at.session_state[state.SEEN_DRAWINGS] is None  # the "Clear all" was seen...
    assert at.session_state[state.PARCEL].sbl == fx.P1_SBL  # ...and the tax parcel stays
