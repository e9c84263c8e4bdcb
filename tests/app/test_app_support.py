"""Tests of the app-side helpers: offline map assets, escaping, citations in URLs, map views."""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import folium
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
import html_tables  # noqa: E402
from result_sample import deduction, sample  # noqa: E402

from app_support.frame import theme  # noqa: E402
from app_support.inputs import drawing_intake  # noqa: E402
from app_support.map import mapping  # noqa: E402
from app_support.views import deduction_table, results  # noqa: E402
from app_support.widgets.citations import escape_markdown  # noqa: E402
from sloat_core.gis.roles import DERIVED_STYLES, ROLE_DECLARATIONS, style  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from app_support.analysis_door import law_day  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _asset_links(fmap: folium.Map) -> list[str]:
    """Every JS/CSS link streamlit-folium would load for this map (its own walk of the tree)."""
    links = []

    def walk(element):
        links.extend(href for _, href in getattr(element, "default_js", []))
        links.extend(href for _, href in getattr(element, "default_css", []))
        for child in getattr(element, "_children", {}).values():
            walk(child)

    walk(fmap)
    return links


def test_map_loads_only_local_assets_that_the_fetch_script_provides():
    fmap = mapping.base_map()
    feature = dict(fx.wgs84_feature(fx.WETLAND), properties={"label": "Wetlands"})
    mapping.layer_group("wetlands", {"type": "FeatureCollection", "features": [feature]}).add_to(fmap)
    folium.raster_layers.ImageOverlay(np.zeros((2, 2, 4), dtype=np.uint8),
                                      bounds=[[41.1, -74.2], [41.2, -74.1]]).add_to(fmap)
    links = _asset_links(fmap)
    assert links and all(link.startswith("/app/static/vendor/") for link in links), links
    script = (ROOT / "tools" / "fetch_assets.py").read_text()
    for link in set(links):
        relative = link.removeprefix("/app/static/vendor/")
        assert relative in script, f"{relative} is not checked by tools/fetch_assets.py"
    html = fmap.get_root().render()
    assert not re.search(r"(src|href)=\"https?://", html)


def test_no_script_of_the_maps_uses_jquery_which_the_map_frame_does_not_load():
    fmap = mapping.base_map(label_points=[[41.16, -74.19, "155.06-1-42"]], large=True)
    feature = dict(fx.wgs84_feature(fx.WETLAND), properties={"label": "Wetlands", "details": "d", "row": "r"})
    for group in (mapping.basemap_group(next(iter(mapping.BASEMAPS))),
                  mapping.layer_group("wetlands", {"type": "FeatureCollection", "features": [feature]}),
                  mapping.parcel_group(feature["geometry"])):
        group.add_to(fmap)
    folium.LayerControl().add_to(fmap)
    html = fmap.get_root().render()
    assert "jquery" not in " ".join(_asset_links(fmap)).lower()
    assert not re.search(r"jQuery|(?<![\w$])\$(\(|\.)", html), re.search(r".{60}(jQuery|\$[(.]).{60}", html)


def test_fetched_assets_exist_when_fetched():
    vendor = ROOT / "static" / "vendor"
    if not (vendor / ".stamp").exists():
        pytest.fail("static/vendor is missing: `make test` runs tools/fetch_assets.py")
    for _, link in mapping.MAP_JS + mapping.MAP_CSS + mapping.DRAW_JS + mapping.DRAW_CSS:
        assert (vendor / link.removeprefix("/app/static/vendor/")).stat().st_size > 1000


def test_tooltips_carry_escaped_text_only(tmp_path):
    layers = load_manifest(fx.write_layerset(tmp_path))
    from app_support.map.layer_geojson import _display_geojson

    geojson = _display_geojson.__wrapped__("k", "wetlands", law_day(), layers)
    labels = [f["properties"]["label"] for f in geojson["features"]]
    assert labels == ["Wetlands: Test &lt;b&gt;marsh&lt;/b&gt;"]
    props = geojson["features"][0]["properties"]
    assert set(props) == {"label", "details", "row", "citation"}
    assert "<" not in props["details"] and "&lt;b&gt;" in props["details"]  # the attributes, escaped
    assert props["row"] == "Lot-area deduction row: Wetlands (none of it counts)"
    assert props["citation"] == "§ 402-45A(1)"


def test_identify_row_names_the_deduction_row_and_its_section():
    from app_support.map.layer_geojson import identify_row

    assert identify_row("buffer", law_day()) == ("Lot-area deduction row: Wetland and watercourse buffers "
                                      "(at most 50% of it counts)", "§ 402-45A(1)")
    assert identify_row("aquifer_cea", law_day())[1] == ""  # an overlay: no deduction row
    # The row's label has its law numbers filled in (the template's braces never reach the pop-up).
    assert identify_row("rock_outcrops", law_day()) == ("Lot-area deduction row: Rock outcrops over 50 sq ft "
                                             "(at most 50% of it counts)", "§ 402-45A(3)")


def test_legend_escapes_labels_and_drops_odd_colours():
    html = mapping.legend_html(["wetlands"], [("<img>", "#ff0000"), ("x", "red;background:url(x)")])
    assert "&lt;img&gt;" in html and "<img>" not in html
    assert "url(" not in html
    assert theme.COLOURS["wetlands"] in html
    # a named list, one layer per item (a screen reader reads a list, not one run-on paragraph)
    assert html.startswith('<ul class="sloat-legend" aria-label="Map key">') and html.count("<li>") == 2


def test_deduction_colours_match_the_map_legend():
    assert theme.colour_for("wetlands") == theme.COLOURS["wetlands"]
    assert theme.colour_for("slope_25_40") != theme.colour_for("slope_over_40")
    assert theme.colour_for("no_such_constraint") == "#888888"


def test_last_polygon_takes_the_latest_polygon_and_ignores_points():
    square = fx.wgs84_feature(fx.P1)
    point = {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-74.1, 41.1]}}
    assert drawing_intake.last_polygon([square, point]) == square
    assert drawing_intake.last_polygon([point]) is None
    assert drawing_intake.drawings_signature(None) is None
    assert drawing_intake.drawings_signature([square]) != drawing_intake.drawings_signature([square, square])


def test_view_fits_a_small_parcel_closer_than_a_large_one():
    small = fx.wgs84_feature(fx.P2)["geometry"]
    large = fx.wgs84_feature(fx.P1.buffer(3000))["geometry"]
    (lat, lon), zoom_small = mapping.view_for(small)
    _, zoom_large = mapping.view_for(large)
    assert zoom_small > zoom_large
    assert 41.1 < lat < 41.2 and -74.25 < lon < -74.1


def test_markdown_escaping_keeps_text_literal():
    assert escape_markdown("**bold** [link](x)") == "\\*\\*bold\\*\\* \\[link\\]\\(x\\)"


def test_verdict_and_deduction_table_from_a_result():
    result = sample(gross_area_sqft=40000.0, net_lot_area_sqft=20000.0, net_lot_area_min_sqft=20000.0,
                    min_lot_area_sqft=15000.0, min_lot_area_verify=False, meets_min_lot_area=True, district="R-15",
                    deductions=(deduction("wetlands", "Wetlands", 10000.0, 0.0, 10000.0, "§ 402-45A(1)"),
                                deduction("floodplain", "Floodplain", None, 0.0, None, "§ 402-45A(1)")))
    assert results.verdict_sentence(result) == "The net lot area meets the R-15 minimum of 15,000 sq ft."
    frame = deduction_table.deduction_frame(result)
    assert list(frame["Deducted, sq ft"]) == ["10,000", "unknown"]
    assert list(frame["Counts"]) == ["0%", "0%"]
    fig = results.waterfall_figure(result)
    assert list(fig.data[0].y) == [40000.0, -10000.0, 20000.0]
    below = dataclasses.replace(result, meets_min_lot_area=False, min_lot_area_sqft=25000.0)
    assert "is below the R-15 minimum of 25,000 sq ft" in results.verdict_sentence(below)


def test_citation_column_never_wraps_and_its_css_takes_no_text_from_the_result():
    hostile = "§ 402-45A</style><script>alert(1)</script>"
    result = sample(deductions=(deduction("wetlands", "<b>x</b>\n\n**y**", 1.0, 0.0, 1.0, hostile),))
    html = deduction_table.deduction_html(result)
    style, table = html.split("</style>", 1)
    # The style block is a constant of the look: no text from the result goes into the CSS.
    assert "script" not in style and "402" not in style and "<b>" not in style
    assert all(deduction_table.deduction_html(sample(deductions=()), look=look).split("</style>")[0] in
               deduction_table.deduction_html(result, look=look) for look in ("standard", "counter", "projector"))
    assert ".sloat-dtable .sloat-dcite{white-space:nowrap;}" in style
    # Every text from the result is escaped, on one line (a blank line would end markdown's HTML block).
    assert "<script>" not in table and "<b>" not in table and "\n" not in html
    assert "&lt;b&gt;x&lt;/b&gt; **y**" in table and "§ 402-45A&lt;/style&gt;&lt;script&gt;" in table
    parsed = html_tables.parse(html)[0]
    assert parsed.rows == [["", "<b>x</b> **y**", "1", "0%", "1", hostile]]
    cite = parsed.columns.index(deduction_table.CITATION)
    assert parsed.row_cells[0][cite][1].get("class") == "sloat-dcite"  # the § cell never wraps
    assert [c for c, _ in parsed.row_cells[0]] == ["td", "th", "td", "td", "td", "td"]  # the constraint heads its row
    # Counter mode's everyday table has no citation column: nothing to keep on one line.
    assert "sloat-dcite\"" not in deduction_table.deduction_html(result, plain_words=True).split("</style>", 1)[1]


def test_the_deduction_table_is_an_accessible_html_table_with_the_frames_cells():
    result = sample(deductions=(deduction("wetlands", "Wetlands", 10000.0, 0.0, 10000.0, "§ 402-45A(1)"),
                                deduction("slope_over_40", "Slopes over 40%", None, 0.0, None, "§ 402-45A(2)(b)"),
                                deduction("rock", "Rock", 0.0, 0.5, 0.0, "§ 402-45A(3)")))
    for plain_words, present_only in [(False, False), (True, True), (False, True)]:
        frame = deduction_table.deduction_frame(result, plain_words=plain_words, present_only=present_only)
        table = html_tables.parse(deduction_table.deduction_html(result, plain_words=plain_words,
                                                                 present_only=present_only))[0]
        assert table.columns == list(frame.columns)
        assert table.header_scopes == ["col"] * len(frame.columns)
        assert table.rows == frame.astype(str).values.tolist()
        assert [table.key_colour(i) for i in range(len(table.rows))] == \
            deduction_table.deduction_colours(result, present_only=present_only)
        assert all(cells[1] == ("th", {"scope": "row"}) for cells in table.row_cells)
        assert table.caption  # the table is named for a screen reader
    assert [r[2] for r in html_tables.parse(deduction_table.deduction_html(result))[0].rows] == \
        ["10,000", "unknown", "0"]  # unknowns stay "unknown", never a zero
    assert len(html_tables.parse(deduction_table.deduction_html(result, present_only=True))[0].rows) == 2


def test_the_verdict_sentences_read_as_documented():
    import doctest

    import app_support.views.results as results_module
    from app_support.views import permits_view
    from app_support.widgets import unit_text

    outcome = doctest.testmod(results_module)
    assert outcome.attempted >= 3 and outcome.failed == 0
    for module in (permits_view, unit_text):  # status words and nb, split from results
        outcome = doctest.testmod(module)
        assert outcome.attempted >= 1 and outcome.failed == 0


# --- The map's hatches are the printed report's hatches ("symbology that matches the PDF's hatches") ---

@pytest.mark.parametrize("role", [r.id for r in ROLE_DECLARATIONS if r.hatch] + [d.id for d in DERIVED_STYLES
                                                                                 if d.id == "buffer"])
def test_every_hatched_role_is_hatched_on_the_map_with_the_reports_pattern(role):
    """Each role the PDF hatches gets the map pattern of the same shape, in its legend colour."""
    hatch = style(role).hatch
    kind = mapping.hatch_kind(role)
    shape = {"\\": "back", "/": "fwd", ".": "dots", "-": "horiz", "|": "vert", "o": "rings",
             "x": "cross", "+": "grid"}[hatch[0]]
    assert kind == shape
    assert mapping.layer_style(role)["fillColor"] == f"hatch:{kind}:{theme.colour_for(role)}"


def test_the_hatches_of_overlapping_layers_differ():
    """Where floodplain, wetlands, buffer, ponds and streams overlap, no two share a pattern."""
    kinds = [mapping.hatch_kind(r) for r in ("floodplain", "wetlands", "buffer", "water_bodies", "watercourses",
                                            "rock_outcrops")]
    assert None not in kinds and len(set(kinds)) == len(kinds)


def test_outline_roles_are_not_hatched():
    for role in ("parcels", "zoning", "aquifer_cea", "village_boundary", "roads"):
        assert mapping.hatch_kind(role) is None
        assert not str(mapping.layer_style(role).get("fillColor", "")).startswith("hatch:")


def test_the_legend_swatch_shows_the_hatch_through_a_constant_class():
    html = mapping.legend_html(["wetlands", "floodplain", "aquifer_cea"])
    assert 'class="sloat-swatch sloat-hatch-dots" style="background:#33a02c"' in html
    assert "sloat-hatch-back" in html
    assert 'class="sloat-swatch" style="background:' + theme.colour_for("aquifer_cea") in html
    for kind in mapping.HATCH_KINDS:  # each class the legend can name is drawn by the stylesheet
        assert f".sloat-swatch.sloat-hatch-{kind} " in theme.stylesheet("standard")


def test_the_base_map_installs_the_hatch_patterns_once():
    html = mapping.base_map().get_root().render()
    assert html.count("L.Canvas.prototype._sloatHatch = true") == 1
    assert "createPattern" in html
