"""Plans drawn in CAD: a DXF read with its layers, arcs, closures, labels, blocks and units, or refused in one
sentence. Every drawing is written here with ezdxf, on a real sample parcel of the Village."""

from __future__ import annotations

import math
import pickle

import pytest
from plan_files import X0, Y0, add_rect, lot_box, new_dxf, save, three_lots_dxf
from shapely.geometry import box

from sloat_core.errors import NoLotsLayerError, SloatInputError
from sloat_core.plan import LAYER_NAMES, ROLES, read_plan
from sloat_core.plan.dxf import MIN_ARC_STEPS

AREA_TOLERANCE = 0.001  # arcs within 0.1 % of their true area


def _refusal(exc: pytest.ExceptionInfo) -> str:
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text and "/" not in text.replace("N/A", "")
    assert text.count(". ") == 0 and text.endswith("."), f"one sentence: {text!r}"
    return text


# ----------------------------------------------------------------------------------------------
# Layers, labels, numbering
# ----------------------------------------------------------------------------------------------


def test_three_lots_are_read_with_their_text_labels_and_areas(tmp_path):
    plan = read_plan(three_lots_dxf(tmp_path / "plat.dxf"))
    lots = plan.of("lots")
    assert [f.label for f in lots] == ["A", "B", "C"]
    assert all(f.closed and f.geometry.geom_type == "Polygon" for f in lots)
    assert all(f.geometry.area == pytest.approx(15_000.0, rel=1e-9) for f in lots)
    assert lots[0].geometry.bounds == pytest.approx(lot_box(0).bounds, abs=1e-6)
    assert plan.roles == {"lots": "LOTS"} and "LOTS" in plan.layers


def test_lots_without_a_label_are_numbered_in_reading_order_skipping_numbers_already_used(tmp_path):
    plan = read_plan(three_lots_dxf(tmp_path / "plat.dxf", labels=(None, "1", None)))
    assert [f.label for f in plan.of("lots")] == ["2", "1", "3"]


def test_an_mtext_label_on_a_text_layer_named_after_the_lots_layer_labels_the_lot(tmp_path):
    doc = new_dxf()
    msp = doc.modelspace()
    add_rect(msp, lot_box(0), "C-PROP-LOTS")
    c = lot_box(0).centroid
    msp.add_text("21,780 SF", dxfattribs={"layer": "C-PROP-TEXT", "insert": (c.x, c.y - 20)})
    msp.add_mtext("LOT 7", dxfattribs={"layer": "C-PROP-LOTS-TEXT", "insert": (c.x, c.y + 10)})
    plan = read_plan(save(doc, tmp_path / "mtext.dxf"))
    assert [f.label for f in plan.of("lots")] == ["LOT 7"]


# ----------------------------------------------------------------------------------------------
# Arcs: bulges as true arcs, within 0.1 % of the true area
# ----------------------------------------------------------------------------------------------


def test_a_lot_drawn_as_a_circle_of_two_bulged_vertices_has_the_circles_area(tmp_path):
    r = 60.0
    doc = new_dxf()
    doc.modelspace().add_lwpolyline([(X0, Y0 + 100, 1.0), (X0 + 2 * r, Y0 + 100, 1.0)], format="xyb", close=True,
                                    dxfattribs={"layer": "lots"})
    lot = read_plan(save(doc, tmp_path / "circle.dxf")).of("lots")[0]
    assert lot.geometry.area == pytest.approx(math.pi * r * r, rel=AREA_TOLERANCE)
    assert lot.geometry.centroid.x == pytest.approx(X0 + r, abs=0.01)


def test_a_lot_with_a_curved_front_has_the_rectangle_plus_the_circular_segment(tmp_path):
    # 100 ft frontage bulging outwards by a quarter circle arc (sweep 90 degrees): segment = r^2/2 (theta - sin theta)
    theta = math.pi / 2
    r = 50.0 / math.sin(theta / 2)
    segment = r * r / 2 * (theta - math.sin(theta))
    doc = new_dxf()
    bulge = math.tan(theta / 4)  # counter-clockwise from (X0, Y0) to (X0+100, Y0): the arc dips south, outside
    doc.modelspace().add_lwpolyline(
        [(X0, Y0, bulge), (X0 + 100, Y0, 0), (X0 + 100, Y0 + 150, 0), (X0, Y0 + 150, 0)], format="xyb",
        close=True, dxfattribs={"layer": "lots"})
    lot = read_plan(save(doc, tmp_path / "curve.dxf")).of("lots")[0]
    assert lot.geometry.area == pytest.approx(15_000 + segment, rel=AREA_TOLERANCE)
    assert lot.geometry.area - 15_000 == pytest.approx(segment, rel=AREA_TOLERANCE)
    assert lot.geometry.bounds[1] < Y0 - 10  # the curve is outside the chord, not inside


def test_a_flat_arc_alone_keeps_its_segment_area_within_a_tenth_of_a_percent(tmp_path):
    # an old-style 2-D POLYLINE: a shallow arc (sweep 20 degrees) closed by its chord
    theta = math.radians(20)
    r = 200.0
    chord = 2 * r * math.sin(theta / 2)
    doc = new_dxf()
    pl = doc.modelspace().add_polyline2d([(X0, Y0), (X0 + chord, Y0)], close=True, dxfattribs={"layer": "lots"})
    pl.vertices[0].dxf.bulge = math.tan(theta / 4)
    lot = read_plan(save(doc, tmp_path / "segment.dxf")).of("lots")[0]
    assert lot.geometry.area == pytest.approx(r * r / 2 * (theta - math.sin(theta)), rel=AREA_TOLERANCE)
    assert len(lot.geometry.exterior.coords) >= MIN_ARC_STEPS


# ----------------------------------------------------------------------------------------------
# Closure
# ----------------------------------------------------------------------------------------------


def test_a_lot_whose_ends_meet_is_closed_without_the_flag(tmp_path):
    doc = new_dxf()
    add_rect(doc.modelspace(), lot_box(0), "lots", closed=False, repeat_first=True)
    lot = read_plan(save(doc, tmp_path / "ends.dxf")).of("lots")[0]
    assert lot.closed and lot.geometry.geom_type == "Polygon"
    assert lot.geometry.area == pytest.approx(15_000.0, rel=1e-9)


def test_a_lot_outline_that_does_not_close_is_kept_as_an_open_line(tmp_path):
    doc = new_dxf()
    msp = doc.modelspace()
    add_rect(msp, lot_box(0), "lots")
    add_rect(msp, lot_box(1), "lots", closed=False)  # three sides, the fourth never drawn
    lots = read_plan(save(doc, tmp_path / "open.dxf")).of("lots")
    assert [f.closed for f in lots] == [True, False]
    assert lots[1].geometry.geom_type == "LineString" and lots[1].label == "2"


def test_lots_drawn_as_separate_lines_and_arcs_are_the_faces_they_enclose(tmp_path):
    doc = new_dxf()
    msp = doc.modelspace()
    a = {"layer": "lots"}
    for (x0, y0), (x1, y1) in [((0, 0), (100, 0)), ((100, 0), (200, 0)), ((200, 0), (200, 150)),
                               ((200, 150), (100, 150)), ((100, 150), (0, 150)), ((0, 150), (0, 0)),
                               ((100, 0), (100, 150)),  # the shared lot line, drawn once
                               ((200, 150), (260, 200))]:  # a stray line that encloses nothing
        msp.add_line((X0 + x0, Y0 + y0), (X0 + x1, Y0 + y1), dxfattribs=a)
    # a third lot north of the first: its north side is a half circle of radius 50 ft
    msp.add_line((X0, Y0 + 150), (X0, Y0 + 250), dxfattribs=a)
    msp.add_line((X0 + 100, Y0 + 150), (X0 + 100, Y0 + 250), dxfattribs=a)
    msp.add_arc((X0 + 50, Y0 + 250), 50, 0, 180, dxfattribs=a)
    lots = read_plan(save(doc, tmp_path / "lines.dxf")).of("lots")
    closed = sorted(f.geometry.area for f in lots if f.closed)
    assert closed[0] == pytest.approx(10_000 + math.pi * 50**2 / 2, rel=AREA_TOLERANCE)
    assert closed[1:] == [pytest.approx(15_000.0, rel=1e-9)] * 2
    assert [f.geometry.length for f in lots if not f.closed] == [pytest.approx(math.hypot(60, 50))]


# ----------------------------------------------------------------------------------------------
# Blocks
# ----------------------------------------------------------------------------------------------


def test_lots_inside_blocks_are_exploded_with_the_inserts_layer_and_attribute_labels(tmp_path):
    doc = new_dxf()
    block = doc.blocks.new("LOTBLOCK")
    block.add_lwpolyline([(0, 0), (100, 0), (100, 150), (0, 150)], close=True, dxfattribs={"layer": "0"})
    block.add_attdef("LOTNO", insert=(50, 75))
    outer = doc.blocks.new("TWOLOTS")
    outer.add_blockref("LOTBLOCK", (0, 0))
    outer.add_blockref("LOTBLOCK", (100, 0))
    msp = doc.modelspace()
    ref = msp.add_blockref("LOTBLOCK", (X0, Y0 + 200), dxfattribs={"layer": "LOTS"})
    ref.add_auto_attribs({"LOTNO": "9"})
    msp.add_blockref("TWOLOTS", (X0, Y0), dxfattribs={"layer": "LOTS"})
    lots = read_plan(save(doc, tmp_path / "blocks.dxf")).of("lots")
    assert [f.label for f in lots] == ["9", "1", "2"]
    assert [f.geometry.bounds for f in lots] == [
        pytest.approx(box(X0, Y0 + 200, X0 + 100, Y0 + 350).bounds, abs=1e-6),
        pytest.approx(lot_box(0).bounds, abs=1e-6), pytest.approx(lot_box(1).bounds, abs=1e-6)]


def test_a_curved_lot_in_a_mirrored_or_rotated_block_lands_where_cad_shows_it(tmp_path):
    doc = new_dxf()
    block = doc.blocks.new("ARCLOT")  # 100 x 150 ft with a half circle (radius 50 ft) below its south side
    block.add_lwpolyline([(0, 0, 1.0), (100, 0, 0), (100, 150, 0), (0, 150, 0)], format="xyb", close=True)
    msp = doc.modelspace()
    msp.add_blockref("ARCLOT", (X0 + 300, Y0), dxfattribs={"layer": "lots", "xscale": -1})  # mirrored
    msp.add_blockref("ARCLOT", (X0 + 900, Y0), dxfattribs={"layer": "lots", "rotation": 90})
    mirrored, rotated = read_plan(save(doc, tmp_path / "mirror.dxf")).of("lots")
    area = 15_000 + math.pi * 50**2 / 2
    assert mirrored.geometry.area == pytest.approx(area, rel=AREA_TOLERANCE)
    assert mirrored.geometry.bounds == pytest.approx((X0 + 200, Y0 - 50, X0 + 300, Y0 + 150), abs=0.01)
    assert rotated.geometry.area == pytest.approx(area, rel=AREA_TOLERANCE)
    assert rotated.geometry.bounds == pytest.approx((X0 + 750, Y0, X0 + 950, Y0 + 100), abs=0.01)


def test_a_block_bomb_is_refused_in_one_sentence(tmp_path):
    doc = new_dxf()
    doc.blocks.new("B0").add_lwpolyline([(0, 0), (1, 0), (1, 1)], close=True)
    for level in range(1, 7):  # 10^6 polylines once exploded
        blk = doc.blocks.new(f"B{level}")
        for k in range(10):
            blk.add_blockref(f"B{level - 1}", (k, 0))
    msp = doc.modelspace()
    add_rect(msp, lot_box(0), "lots")
    msp.add_blockref("B6", (X0, Y0), dxfattribs={"layer": "lots"})
    with pytest.raises(SloatInputError) as exc:
        read_plan(save(doc, tmp_path / "bomb.dxf"))
    assert "once its blocks are exploded" in _refusal(exc)


# ----------------------------------------------------------------------------------------------
# What is never a lot: the title block, the parcel line, other layers
# ----------------------------------------------------------------------------------------------


def test_the_title_block_the_parcel_line_and_other_layers_are_never_taken_for_lots(tmp_path):
    doc = new_dxf()
    msp = doc.modelspace()
    for i in range(2):
        add_rect(msp, lot_box(i), "C-PROP-LOTS")
    add_rect(msp, box(X0 - 50, Y0 - 50, X0 + 400, Y0 + 300), "C-PROP-LINE")  # the parcel line
    add_rect(msp, box(0, 0, 36, 24), "G-ANNO-TTLB")  # a sheet border drawn at 0,0 in model space
    tb = doc.blocks.new("TITLE")
    tb.add_lwpolyline([(0, 0), (34, 0), (34, 6), (0, 6)], close=True)
    tb.add_text("SUBDIVISION PLAT - SHEET 1 OF 1", dxfattribs={"insert": (1, 1)})
    msp.add_blockref("TITLE", (1, 1), dxfattribs={"layer": "BORDER"})
    add_rect(msp, box(X0 + 10, Y0 + 10, X0 + 60, Y0 + 60), "C-BLDG")
    plan = read_plan(save(doc, tmp_path / "sheet.dxf"))
    assert len(plan.of("lots")) == 2
    assert {f.source_layer for f in plan.of("lots")} == {"C-PROP-LOTS"}
    assert [f.source_layer for f in plan.features if f.role != "lots"] == ["C-BLDG"]
    assert {"C-PROP-LINE", "G-ANNO-TTLB", "BORDER"} <= set(plan.layers)


# ----------------------------------------------------------------------------------------------
# Roles: the layer table and the override
# ----------------------------------------------------------------------------------------------


def test_cad_layer_names_are_read_in_their_roles_in_any_case(tmp_path):
    doc = new_dxf()
    msp = doc.modelspace()
    add_rect(msp, lot_box(0), "c-prop-lots")
    add_rect(msp, box(X0 + 20, Y0 + 20, X0 + 70, Y0 + 80), "C-BLDG")
    add_rect(msp, box(X0, Y0 - 50, X0 + 300, Y0), "C-ROAD")
    add_rect(msp, lot_box(2), "Open Space")
    add_rect(msp, box(X0 + 10, Y0 + 10, X0 + 90, Y0 + 120), "LOD")
    plan = read_plan(save(doc, tmp_path / "ncs.dxf"))
    assert plan.roles == {"lots": "c-prop-lots", "envelopes": "C-BLDG", "roads": "C-ROAD", "open_space": "Open Space",
                          "disturbance": "LOD"}
    assert [len(plan.of(role)) for role in ROLES] == [1, 1, 1, 1, 1]
    assert all(f.label is None for f in plan.features if f.role != "lots")


def test_the_layer_table_names_each_role_and_never_takes_the_parcel_line_for_lots():
    assert {role for _, role, _ in LAYER_NAMES} == set(ROLES)
    assert all(source for _, _, source in LAYER_NAMES)
    names = {name.upper(): role for name, role, _ in LAYER_NAMES}
    assert names["C-PROP-LOTS"] == "lots" and "C-PROP-LINE" not in names


def test_a_role_override_reads_the_lots_from_any_layer(tmp_path):
    path = three_lots_dxf(tmp_path / "mine.dxf", layer="MY LAYER")
    plan = read_plan(path, roles={"lots": "my layer"})
    assert plan.roles == {"lots": "MY LAYER"} and len(plan.of("lots")) == 3


def test_no_lots_layer_raises_an_error_that_lists_the_files_layers(tmp_path):
    path = three_lots_dxf(tmp_path / "mine.dxf", layer="PARCELS-PROPOSED")
    with pytest.raises(NoLotsLayerError) as exc:
        read_plan(path)
    assert "PARCELS-PROPOSED" in exc.value.layers and "0" in exc.value.layers
    assert "PARCELS-PROPOSED" in _refusal(exc)
    again = pickle.loads(pickle.dumps(exc.value))
    assert again.layers == exc.value.layers and str(again) == str(exc.value)


def test_a_role_override_naming_a_missing_layer_offers_the_files_layers(tmp_path):
    with pytest.raises(NoLotsLayerError) as exc:
        read_plan(three_lots_dxf(tmp_path / "p.dxf"), roles={"lots": "NOPE"})
    assert "LOTS" in exc.value.layers


# ----------------------------------------------------------------------------------------------
# Units and place
# ----------------------------------------------------------------------------------------------


def test_a_drawing_in_feet_is_read_in_the_state_planes_us_survey_feet_and_says_so(tmp_path):
    # CAD's "feet" does not say which foot; New York East state plane coordinates are US survey feet, and
    # scaling by the international foot would move the lots about 1.2 ft at this easting, off their parcel.
    plan = read_plan(three_lots_dxf(tmp_path / "ft.dxf", units=2))
    assert plan.of("lots")[0].geometry.bounds[0] == X0
    assert any("read as US survey feet" in w for w in plan.warnings)


def test_a_drawing_in_us_survey_feet_is_read_as_it_is(tmp_path):
    plan = read_plan(three_lots_dxf(tmp_path / "usft.dxf", units=21))
    assert plan.of("lots")[0].geometry.bounds[0] == X0 and plan.warnings == ()


def test_a_unitless_drawing_is_taken_as_us_survey_feet_and_says_so(tmp_path):
    plan = read_plan(three_lots_dxf(tmp_path / "none.dxf", units=0))
    assert plan.of("lots")[0].geometry.bounds[0] == X0
    assert any("does not say its units" in w for w in plan.warnings)


@pytest.mark.parametrize("units,word", [(6, "metres"), (1, "inches"), (99, "not recognised")])
def test_a_drawing_in_other_units_is_refused_in_one_sentence(tmp_path, units, word):
    with pytest.raises(SloatInputError) as exc:
        read_plan(three_lots_dxf(tmp_path / "m.dxf", units=units))
    assert word in _refusal(exc)


def test_a_plat_drawn_in_local_coordinates_is_refused_never_placed(tmp_path):
    doc = new_dxf()
    add_rect(doc.modelspace(), box(0, 0, 100, 150), "lots")
    with pytest.raises(SloatInputError) as exc:
        read_plan(save(doc, tmp_path / "local.dxf"))
    assert "local coordinates" in _refusal(exc)


# ----------------------------------------------------------------------------------------------
# Files that are not plans
# ----------------------------------------------------------------------------------------------


def test_a_dwg_is_refused_in_one_sentence(tmp_path):
    path = tmp_path / "plat.dwg"
    path.write_bytes(b"AC1032" + bytes(200))
    with pytest.raises(SloatInputError) as exc:
        read_plan(path)
    assert "DWG" in _refusal(exc) and "DXF" in str(exc.value)
    with pytest.raises(SloatInputError, match="DWG"):
        read_plan(b"AC1027" + bytes(200), filename="renamed.dxf")


def test_a_damaged_dxf_is_refused_in_one_sentence(tmp_path):
    path = tmp_path / "bad.dxf"
    path.write_text("0\nSECTION\n2\nENTITIES\n0\nLWPOLYLINE\n10\nnot-a-number\n")
    with pytest.raises(SloatInputError) as exc:
        read_plan(path)
    _refusal(exc)


def test_an_empty_lots_layer_is_refused(tmp_path):
    doc = new_dxf()
    doc.layers.add("LOTS")
    doc.modelspace().add_point((X0, Y0), dxfattribs={"layer": "LOTS"})
    with pytest.raises(SloatInputError) as exc:
        read_plan(save(doc, tmp_path / "empty.dxf"))
    assert "holds no lot outlines" in _refusal(exc)
