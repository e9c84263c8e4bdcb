"""The plan map's lot labels go inside their lots and only where they fit: however small and close the lots, no two
labels cover each other at any zoom, a lot too small for its label is named under the map, and every label stays
escaped.

The plans are on the sample parcel 162.13-1-1 (tests/plan/plan_files.py): a block of 24 lots 25 x 30 ft (far too
small for "Lot 7 / does not conform" at the zoom the map opens at), one large lot beside them, and two lots drawn on
the same land (a drawing problem: their labels would fall on each other).
"""

from __future__ import annotations

import json
import sys
from itertools import combinations
from pathlib import Path

import pytest
from shapely.geometry import Polygon, box, shape

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "plan"))
import app_fixtures as fx  # noqa: E402
import plan_files as pf  # noqa: E402

from app_support.analysis_door import to_wgs84_geojson  # noqa: E402
from app_support.map import lot_labels, mapping, plan_map  # noqa: E402

TINY = [box(pf.X0 + i * 25, pf.Y0 + j * 30, pf.X0 + i * 25 + 25, pf.Y0 + j * 30 + 30)
        for i in range(6) for j in range(4)]
LARGE = box(pf.X0 + 200, pf.Y0, pf.X0 + 350, pf.Y0 + 200)


def _lots(shapes, conforms=False) -> list:
    return [(str(i), conforms, to_wgs84_geojson(g)) for i, g in enumerate(shapes, start=1)]


def _opening_zoom(lots, width_px=860, height_px=600) -> int:
    return mapping.view_for(plan_map.view_geometry([g for _l, _c, g in lots]), width_px=width_px,
                            height_px=height_px, max_zoom=20)[1]


def _boxes_at(lots, places, zoom, large=False) -> list:
    """Each label shown at ``zoom``: its estimated box in world pixels around its place."""
    out = []
    for (label, conforms, _g), place in zip(lots, places, strict=True):
        kind = dict(place.levels).get(zoom) if place is not None else None
        if kind is None:
            continue
        name, word = plan_map.lot_label(label, conforms).rsplit(": ", 1)
        width, height = lot_labels.text_box([name, word] if kind == lot_labels.FULL else [plan_map.lot_name(label)],
                                            large=large)
        x, y = lot_labels.to_pixels(place.lon, place.lat, zoom)
        out.append(box(x - width / 2, y - height / 2, x + width / 2, y + height / 2))
    return out


@pytest.mark.parametrize("large", [False, True])
def test_a_plan_of_tiny_lots_gives_no_two_label_boxes_overlapping_at_any_zoom(large):
    lots = _lots([*TINY, LARGE])
    zoom = _opening_zoom(lots)
    places = plan_map.label_places(lots, zoom, large=large)
    zooms = sorted({z for p in places for z, _k in p.levels})
    assert zooms[0] < zoom < zooms[-1] == 20
    for level in zooms:
        boxes = _boxes_at(lots, places, level, large)
        assert all(not a.intersects(b) for a, b in combinations(boxes, 2)), level
    # and each label shown lies inside its own lot
    for (_l, _c, geom), place in zip(lots, places, strict=True):
        for level, kind in place.levels:
            if kind is not None:
                (label_box,) = _boxes_at([(_l, _c, geom)], [place], level, large)
                outline = Polygon([lot_labels.to_pixels(x, y, level) for x, y in shape(geom).exterior.coords])
                assert outline.contains(label_box), (level, kind)


def test_at_the_opening_zoom_the_large_lot_is_labelled_in_full_and_the_tiny_ones_are_named_under_the_map():
    lots = _lots([*TINY, LARGE])
    zoom = _opening_zoom(lots)
    places = plan_map.label_places(lots, zoom)
    assert places[-1].kind == lot_labels.FULL
    assert all(p.kind != lot_labels.FULL for p in places[:-1])
    assert all(dict(p.levels)[20] is not None for p in places)  # closest in, every lot has a label
    note = lot_labels.unlabelled_note([label for label, _c, _g in lots], [p.kind for p in places])
    assert note.startswith("Too small for their labels at this scale: lots 1, 2, 3")
    assert "and 12 more" in note and "read each answer in the lot table" in note


def test_two_lots_on_the_same_land_do_not_get_labels_on_top_of_each_other():
    lots = _lots([LARGE, LARGE])
    zoom = _opening_zoom(lots)
    first, second = plan_map.label_places(lots, zoom)
    assert first.kind == lot_labels.FULL and second.kind is None
    assert all(kind is None for _z, kind in second.levels)  # the first label holds the place at every zoom


def test_lots_that_each_hold_their_label_are_labelled_in_full():
    lots = _lots([pf.lot_box(0), pf.lot_box(1), pf.lot_box(2)], conforms=True)
    zoom = _opening_zoom(lots)
    places = plan_map.label_places(lots, zoom)
    assert [p.kind for p in places] == [lot_labels.FULL] * 3
    assert lot_labels.unlabelled_note(["1", "2", "3"], [p.kind for p in places]) is None


def test_each_label_goes_on_the_map_escaped_in_full_and_by_name():
    hostile = "<img src=x onerror=alert(1)>`${x}`</script>"
    lots = [(hostile, None, to_wgs84_geojson(LARGE))]
    groups = plan_map.groups({"type": "Point", "coordinates": [-74.19, 41.16]}, lots, {}, zoom=_opening_zoom(lots))
    group = next(g for g in groups if g.layer_name == "Lots of the plan")
    (layer,) = group._children.values()
    (label,) = [c for c in layer._children.values() if isinstance(c, lot_labels.LotLabel)]
    full, name = label.texts
    assert full.startswith("Lot &lt;img") and full.endswith("<br>unknown") and name.startswith("&lt;img")
    for text in (full.replace("<br>", ""), name):
        assert "<" not in text and "{" not in text
    script = label._template.module.script(label, {})
    assert "<img" not in script and "</script" not in script
    assert json.loads(label.texts_json) == [full, name]


def test_the_plan_page_names_under_its_map_the_lots_too_small_for_their_labels(tmp_path):
    from sloat_core.gis.layers import load_manifest
    from sloat_core.gis.parcels import parcel_by_sbl

    doc = pf.new_dxf()
    for i in range(8):  # 15 x 20 ft: "Lot 1 / unknown" does not fit even closest in
        pf.add_rect(doc.modelspace(), box(pf.X0 + i * 15, pf.Y0, pf.X0 + i * 15 + 15, pf.Y0 + 20), "LOTS")
    parcel = parcel_by_sbl(load_manifest(ROOT / "data" / "sample" / "layers.yaml"), pf.SAMPLE_SBL)
    at = fx.open_page("pages/plan.py", parcel=parcel, timeout=60)
    at.file_uploader(key="plan_upload").upload("tiny.dxf", pf.save(doc, tmp_path / "t.dxf").read_bytes(),
                                               "application/octet-stream")
    at.run()
    assert not at.exception
    notes = [c.value.replace("\\", "") for c in at.caption if "Too small for their labels" in c.value]
    assert len(notes) == 1 and "read each answer in the lot table" in notes[0]


@pytest.fixture(autouse=True)
def sample_layers(monkeypatch):
    monkeypatch.delenv("SLOAT_LAYERS", raising=False)
