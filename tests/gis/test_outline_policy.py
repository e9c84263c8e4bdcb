"""One outline policy for every door: an invalid outline measures the same whatever door it came in by.

An outline that crosses itself, or whose hole sticks out of its shell, is repaired one way
(:func:`sloat_core.gis.geometry.repair_outline`: each ring made valid on its own, the shells less their
holes), whether it was uploaded as a file, drawn on the map as the parcel, drawn as the project's
disturbance footprint, read from the tax-parcel layer, or handed to the analysis as a shape. (The
default of ``shapely.make_valid`` would turn the part of a hole outside its shell into land.)
Fixtures: tests/fixtures/parcels (hand-built by tests/fixtures/make_fixtures.py, EPSG:2260).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import shapely
from pyproj import Transformer
from shapely.geometry import mapping, shape

from engine_world import make_world
from sloat_core.engine.analysis import analyze_parcel, check_parcels
from sloat_core.gis.geometry import geojson_to_work, repair_outline
from sloat_core.gis.parcels import parcel_by_sbl, parcel_from_geojson, read_parcel
from sloat_core.gis.slope_grid import slope_grid

GOOD = Path(__file__).resolve().parents[1] / "fixtures" / "parcels"
SAMPLE_DEM = Path(__file__).resolve().parents[2] / "data" / "sample" / "dem.tif"
_TO_WGS84 = Transformer.from_crs("EPSG:2260", "EPSG:4326", always_xy=True)

#: fixture -> the area its outline means, sq ft (300 x 400 ft lot; 100 x 100 ft of hole inside it)
OUTLINES = {
    "bowtie_2260.geojson": 60_000.0,  # two triangles of 30,000 sq ft meeting at the crossing
    "hole_2260.geojson": 110_000.0,  # a valid hole: removed
    "hole_out_2260.geojson": 110_000.0,  # the hole's half outside the shell removes nothing
}
#: Reprojection to longitude and latitude and back moves a corner by far less than a thousandth of a foot.
REL = 1e-6


def _outline(name: str):
    return shape(json.loads((GOOD / name).read_text())["features"][0]["geometry"])


def _wgs84(geom) -> dict:
    return mapping(shapely.transform(geom, lambda xy: np.column_stack(_TO_WGS84.transform(xy[:, 0], xy[:, 1]))))


@pytest.mark.parametrize("name", OUTLINES)
def test_every_door_repairs_an_invalid_outline_the_same_way(name, tmp_path):
    geom, want = _outline(name), OUTLINES[name]
    if name != "hole_2260.geojson":
        assert not geom.is_valid  # the fixture is what the test claims
    world = make_world(tmp_path, {"parcels": [(geom, {"SBL": "1-1-1", "ZONE": "R-40", "ADDRESS": "1 Test Rd"})]})
    doors = {
        "upload": read_parcel(GOOD / name).area_sqft,
        "drawing": parcel_from_geojson({"type": "Feature", "properties": {}, "geometry": _wgs84(geom)}).area_sqft,
        "footprint": geojson_to_work(_wgs84(geom)).area,
        "tax-parcel layer": parcel_by_sbl(world, "1-1-1").geometry.area,
        "analysis": check_parcels(np.array([geom], dtype=object))[0][0].area,
        "slope grid": slope_grid(SAMPLE_DEM, geom).geom.area,
        "policy": repair_outline(geom).area,
    }
    assert doors == {door: pytest.approx(want, rel=REL) for door in doors}


def test_a_hole_outside_its_shell_is_not_land_in_the_analysis(tmp_path):
    """The parcel's gross area is its shell less the hole's part inside it; the rest of the hole adds nothing."""
    world = make_world(tmp_path, {})
    result = analyze_parcel(_outline("hole_out_2260.geojson"), world)
    assert result.lot.gross_area_sqft == pytest.approx(110_000.0, rel=REL)
    assert shapely.make_valid(_outline("hole_out_2260.geojson")).area == pytest.approx(120_000.0)  # the other policy
