"""The constraint lines back to CAD: `python -m sloat_core constraints PARCEL --out FILE.dxf|.gpkg|.zip`.

A hand-built world of known areas (EPSG:2260 feet): the 400 ft square parcel; a 100 ft square wetland in its
middle (10,000 sq ft), whose buffer is a ring with the wetland as its hole; the floodplain as two 40 ft strips
along the south and north sides (16,000 sq ft each: a MultiPolygon); a 30 ft square rock outcrop (900 sq ft);
ground rising 30 % east of x = 300 ft (slopes over 25 %), flat elsewhere. No water body, watercourse or slope
over 40 %. Areas read back from the files are compared with the analysis's deduction table within 0.01 % or
0.5 sq ft, whichever is larger (the slope pieces are drawn from DEM cells measured by exact shares).
"""

from __future__ import annotations

import io
import zipfile

import ezdxf
import geopandas as gpd
import numpy as np
import pyogrio
import pytest
from ezdxf.colors import aci2rgb
from pyproj import CRS
from shapely.geometry import Polygon

from engine_world import SQUARE_400, X0, Y0, make_world, sq
from sloat_core.cli import main
from sloat_core.engine.analysis import analyze_parcel
from sloat_core.measure.rows import ROW_IDS
from sloat_core.outputs.cad import (CAD_LAYERS, NOTES_LAYER, constraint_layers, constraints_dxf, constraints_gpkg,
                                    constraints_zip)
from sloat_core.units import WORK_CRS

WETLAND = sq(150, 150, 100)
FLOOD_SOUTH, FLOOD_NORTH = sq(0, 0, 400, 40), sq(0, 360, 400, 40)
OUTCROP = sq(20, 300, 30)
SBL = "156.14-1-23"


def rising_east_of_300(gx, gy):
    return 500.0 + 0.30 * np.maximum(gx - 300.0, 0.0)


def close(a, b):
    return a == pytest.approx(b, rel=1e-4, abs=0.5)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cad_world")
    layers = make_world(folder, {"wetlands": [WETLAND], "floodplain": [FLOOD_SOUTH, FLOOD_NORTH],
                                 "rock_outcrops": [OUTCROP],
                                 "parcels": [(SQUARE_400, {"SBL": SBL, "ZONE": "R-40", "ADDRESS": "1 Test Rd"})]},
                        dem=rising_east_of_300)
    return folder, layers


@pytest.fixture(scope="module")
def analysis(world):
    return analyze_parcel(SQUARE_400, world[1], district="R-40")


@pytest.fixture(scope="module")
def table(analysis):
    """The deduction table's area of each row, by its layer name."""
    names = {c.key: c.name for c in CAD_LAYERS}
    return {names[r.constraint]: r.area_sqft for r in analysis.lot.rows}


@pytest.fixture(scope="module")
def dxf(analysis):
    return ezdxf.read(io.StringIO(constraints_dxf(analysis).decode("utf-8")))


def polylines(doc, layer):
    return [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == layer]


def ring(e) -> Polygon:
    return Polygon([(x, y) for x, y, *_ in e.get_points("xy")])


def layer_area(doc, layer) -> float:
    """The area a layer's closed polylines enclose, even-odd: an outline adds, a polyline inside it (a hole)
    takes away, an island inside that hole adds again."""
    rings = [ring(e) for e in polylines(doc, layer)]
    total = 0.0
    for i, r in enumerate(rings):
        depth = sum(1 for j, other in enumerate(rings) if j != i and other.contains(r.representative_point())
                    and other.area > r.area)
        total += r.area if depth % 2 == 0 else -r.area
    return total


def test_the_dxf_has_a_layer_for_each_constraint_on_the_parcel_and_none_for_those_it_lacks(dxf):
    names = {layer.dxf.name for layer in dxf.layers}
    assert {"SLOAT-PARCEL", "SLOAT-WETLAND", "SLOAT-WETLAND-BUFFER", "SLOAT-FLOODPLAIN", "SLOAT-ROCK-OUTCROP",
            "SLOAT-SLOPE-OVER-25", "SLOAT-NOT-COUNTED", "SLOAT-NOTES"} <= names
    assert not {"SLOAT-WATER-BODY", "SLOAT-WATERCOURSE", "SLOAT-SLOPE-OVER-40"} & names  # no land: no layer
    for c in CAD_LAYERS:
        if c.name in names:
            assert dxf.layers.get(c.name).dxf.color == c.aci
            assert polylines(dxf, c.name)  # no empty layer
    notes = " ".join(t.dxf.text for t in dxf.modelspace().query("TEXT") if t.dxf.layer == "SLOAT-NOTES")
    assert "SLOAT-WATER-BODY" in notes and "SLOAT-WATERCOURSE" in notes and "SLOAT-SLOPE-OVER-40" in notes


def test_every_polyline_is_a_closed_lwpolyline_of_at_least_three_vertices(dxf):
    entities = [e for e in dxf.modelspace() if e.dxf.layer != NOTES_LAYER.name]
    assert entities and {e.dxftype() for e in entities} == {"LWPOLYLINE"}
    for e in entities:
        assert e.closed and len(e) >= 3


def test_the_areas_on_each_dxf_layer_equal_the_deduction_table(dxf, table, analysis):
    assert close(layer_area(dxf, "SLOAT-WETLAND"), 10_000)
    assert close(layer_area(dxf, "SLOAT-FLOODPLAIN"), 32_000)
    assert close(layer_area(dxf, "SLOAT-ROCK-OUTCROP"), 900)
    assert close(layer_area(dxf, "SLOAT-PARCEL"), 160_000)
    for name in ("SLOAT-WETLAND-BUFFER", "SLOAT-SLOPE-OVER-25"):
        assert table[name] > 1_000 and close(layer_area(dxf, name), table[name])
    # The land that does not count is every piece together, each once.
    assert close(layer_area(dxf, "SLOAT-NOT-COUNTED"), sum(a for a in table.values() if a))


def test_a_hole_is_its_own_closed_polyline_inside_its_outline(dxf):
    outline, hole = sorted((ring(e) for e in polylines(dxf, "SLOAT-WETLAND-BUFFER")), key=lambda r: -r.area)
    assert outline.contains(hole)
    assert hole.symmetric_difference(WETLAND).area < 0.5  # the buffer's hole is the wetland


def test_a_multipolygon_is_several_closed_polylines(dxf):
    strips = sorted((ring(e) for e in polylines(dxf, "SLOAT-FLOODPLAIN")), key=lambda r: r.bounds[1])
    assert len(strips) == 2
    assert strips[0].symmetric_difference(FLOOD_SOUTH).area < 0.5
    assert strips[1].symmetric_difference(FLOOD_NORTH).area < 0.5


def test_the_dxf_is_in_us_survey_feet_with_the_epsg_2260_coordinates_as_they_are(dxf):
    assert dxf.header["$INSUNITS"] == 21 and dxf.units == 21  # US survey feet
    assert dxf.header["$MEASUREMENT"] == 0  # imperial
    (parcel,) = polylines(dxf, "SLOAT-PARCEL")
    corners = {(round(x, 3), round(y, 3)) for x, y in parcel.get_points("xy")}
    assert corners == {(X0, Y0), (X0 + 400, Y0), (X0 + 400, Y0 + 400), (X0, Y0 + 400)}
    assert dxf.audit().has_errors is False


def contrast_with_white(aci: int) -> float:
    def channel(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = aci2rgb(aci)
    return 1.05 / (0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b) + 0.05)


def test_layer_names_and_colours_are_declared_once_and_print_on_white_paper():
    layers = (*CAD_LAYERS, NOTES_LAYER)
    assert set(ROW_IDS) <= {c.key for c in CAD_LAYERS}  # every deduction row has its layer
    assert len({c.name for c in layers}) == len(layers) and len({c.key for c in layers}) == len(layers)
    for c in layers:
        assert c.name.startswith("SLOAT-") and c.name == c.name.upper()
        assert c.aci not in (2, 7), c  # neither yellow nor white
        assert contrast_with_white(c.aci) >= 3.0, c  # WCAG's 3:1 for graphics, on white paper


def test_the_geopackage_is_in_epsg_2260_with_the_same_areas(tmp_path, world, table, capsys):
    folder, _ = world
    out = tmp_path / "constraints.GPKG"
    assert main(["constraints", SBL, "--layers", str(folder / "layers.yaml"), "--out", str(out)]) == 0  # by SBL
    names = {name for name, _ in pyogrio.list_layers(out)}
    assert {"SLOAT-PARCEL", "SLOAT-WETLAND", "SLOAT-WETLAND-BUFFER", "SLOAT-SLOPE-OVER-25"} <= names
    assert "SLOAT-WATERCOURSE" not in names
    for name, area in table.items():
        if not area:
            continue
        frame = gpd.read_file(out, layer=name)
        assert CRS(frame.crs).to_epsg() == 2260
        assert close(frame.geometry.area.sum(), area) and close(float(frame["area_sqft"].sum()), area)
    assert close(gpd.read_file(out, layer="SLOAT-PARCEL").geometry.area.sum(), 160_000)
    err = capsys.readouterr().err
    assert "Omitted (nothing on this parcel)" in err and "SLOAT-WATER-BODY" in err


def test_the_zip_has_a_prj_in_epsg_2260_beside_every_shapefile_and_a_readme(tmp_path, analysis, table):
    data = constraints_zip(analysis)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        files = zf.namelist()
        shps = [f for f in files if f.endswith(".shp")]
        assert len(shps) == len(constraint_layers(analysis).pieces) >= 7
        for shp in shps:
            stem = shp[:-4]
            assert f"{stem}.prj" in files and f"{stem}.dbf" in files and f"{stem}.shx" in files
            assert CRS.from_wkt(zf.read(f"{stem}.prj").decode()).to_epsg() == 2260
        readme = zf.read("README.txt").decode("utf-8")
        assert "SLOAT-WATERCOURSE" in readme and "no layer" in readme
        zf.extractall(tmp_path)
    frame = gpd.read_file(tmp_path / "SLOAT-WETLAND-BUFFER.shp")
    assert close(frame.geometry.area.sum(), table["SLOAT-WETLAND-BUFFER"])


def test_an_unknown_constraint_is_said_on_stderr_and_as_a_note_in_the_dxf(tmp_path, capsys):
    make_world(tmp_path, {"floodplain": [FLOOD_SOUTH]}, omit=("wetlands",))  # no wetland layer, no DEM
    parcel = tmp_path / "parcel.gpkg"
    gpd.GeoDataFrame(geometry=[SQUARE_400], crs=WORK_CRS).to_file(parcel, driver="GPKG")
    out = tmp_path / "constraints.dxf"
    assert main(["constraints", str(parcel), "--layers", str(tmp_path / "layers.yaml"), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "Unknown: Wetlands is unknown" in err and "Slopes over 40% is unknown" in err
    doc = ezdxf.readfile(out)
    notes = [t.dxf.text for t in doc.modelspace().query("TEXT") if t.dxf.layer == "SLOAT-NOTES"]
    assert any(n.startswith("Wetlands is unknown") for n in notes)
    assert any(n.startswith("Slopes over 25% up to 40% is unknown") for n in notes)
    assert "SLOAT-WETLAND" not in {layer.dxf.name for layer in doc.layers}
    assert close(layer_area(doc, "SLOAT-FLOODPLAIN"), 16_000)


@pytest.mark.parametrize("name, words", [("plan.dwg", "DWG"), ("plan.pdf", ".dxf, .gpkg or .zip"),
                                         ("plan", ".dxf, .gpkg or .zip")])
def test_an_output_that_is_not_dxf_gpkg_or_zip_exits_2_with_one_sentence(tmp_path, world, capsys, name, words):
    folder, _ = world
    out = tmp_path / name
    assert main(["constraints", SBL, "--layers", str(folder / "layers.yaml"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and err.endswith(".") and "Traceback" not in err
    assert not out.exists()


def test_the_geopackage_and_zip_writers_hold_the_same_layers_as_the_dxf(analysis, tmp_path):
    path = tmp_path / "c.gpkg"
    path.write_bytes(constraints_gpkg(analysis))
    spatial = [n for n, kind in pyogrio.list_layers(path) if kind is not None]
    assert spatial == [p.layer.name for p in constraint_layers(analysis).pieces]
    notes = pyogrio.read_dataframe(path, layer="SLOAT-NOTES", read_geometry=False)
    assert notes["note"].str.contains("screening estimate").any()


def test_the_layer_table_of_the_command_line_docs_is_the_declared_one():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "command-line.md").read_text(encoding="utf-8")
    shown = [tuple(cell.strip(" `") for cell in line.strip("|").split("|")[:2])
             for line in text.splitlines() if line.startswith("| `SLOAT-")]
    assert shown == [(c.name, str(c.aci)) for c in (*CAD_LAYERS, NOTES_LAYER)]


def test_a_buffer_drawn_around_only_the_water_layers_loaded_is_written_with_a_caution(tmp_path, capsys):
    make_world(tmp_path, {"wetlands": [WETLAND]}, omit=("watercourses",), dem=0)  # no watercourse layer
    parcel = tmp_path / "parcel.gpkg"
    gpd.GeoDataFrame(geometry=[SQUARE_400], crs=WORK_CRS).to_file(parcel, driver="GPKG")
    out = tmp_path / "constraints.dxf"
    assert main(["constraints", str(parcel), "--layers", str(tmp_path / "layers.yaml"), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "Unknown: Streams and watercourses is unknown" in err
    assert "Note: Wetland and watercourse buffers (SLOAT-WETLAND-BUFFER): Built only from the loaded layers" in err
    doc = ezdxf.readfile(out)
    assert polylines(doc, "SLOAT-WETLAND-BUFFER")  # the buffer it could draw is there
    notes = [t.dxf.text for t in doc.modelspace().query("TEXT") if t.dxf.layer == "SLOAT-NOTES"]
    assert any("watercourses layer is not loaded" in n for n in notes)
