"""Hostile-input property test: random valid and invalid outlines and project forms through the whole analysis.

Random GeoJSON (rings of random points that cross themselves, NaN and infinite numbers, huge coordinates,
multipolygons with overlapping parts, holes outside their shell, rings too short to close, junk where a
number should be) goes through ``parcel_input.parcel_from_geojson`` and then ``analysis.analyze`` on the
illustrative SAMPLE layer set (with its DEM), with a random project form. The only exception allowed to
escape is ``SloatInputError``; whenever an answer comes back, net lot area never exceeds gross.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sloat_core.engine.analysis import analyze
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.parcels import parcel_from_geojson

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample" / "layers.yaml"

# Inside and around the Village of Sloatsburg (lon, lat).
LON0, LAT0 = -74.19, 41.16


@functools.lru_cache(maxsize=1)
def sample_layers():
    return load_manifest(SAMPLE)


# ------------------------------------------------------------------------------------------------
# Outlines
# ------------------------------------------------------------------------------------------------

bad_number = st.sampled_from([math.nan, math.inf, -math.inf, 1e300, -1e308, 1e20, 5e-324])
junk = st.sampled_from([None, "74.19", True, [], {}, "NaN"])
offset = st.floats(min_value=-0.004, max_value=0.004, allow_nan=False)  # about +-300 m


@st.composite
def position(draw, *, hostile: bool):
    lon, lat = LON0 + draw(offset), LAT0 + draw(offset)
    if hostile and draw(st.integers(0, 29)) == 0:
        pick = draw(st.integers(0, 3))
        if pick == 0:
            lon = draw(bad_number)
        elif pick == 1:
            lat = draw(bad_number)
        elif pick == 2:
            lon, lat = lat, lon  # swapped
        else:
            return [lon, draw(junk)]
    if hostile and draw(st.integers(0, 7)) == 0:
        return [lon, lat, draw(st.floats(-1e3, 1e3, allow_nan=False))]  # 3-D (mixed with 2-D in a ring)
    return [lon, lat]


@st.composite
def ring(draw, *, hostile: bool, centre=None, radius=None):
    if centre is not None and draw(st.booleans()):  # a tidy convex ring around a centre
        n = draw(st.integers(3, 12))
        cx, cy = centre
        pts = [[cx + radius * math.cos(2 * math.pi * i / n), cy + radius * math.sin(2 * math.pi * i / n)]
               for i in range(n)]
    else:
        pts = draw(st.lists(position(hostile=hostile), min_size=1 if hostile else 3, max_size=12))
    if not (hostile and draw(st.integers(0, 5)) == 0):  # sometimes left open
        pts = pts + [pts[0]]
    return pts


@st.composite
def polygon_coords(draw, *, hostile: bool):
    cx, cy = LON0 + draw(offset), LAT0 + draw(offset)
    r = draw(st.floats(0.0002, 0.002))
    shell = draw(ring(hostile=hostile, centre=(cx, cy), radius=r))
    holes = []
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):  # a hole inside the shell
            holes.append(draw(ring(hostile=False, centre=(cx, cy), radius=r * draw(st.floats(0.1, 0.9)))))
        else:  # a hole outside its shell
            far = (cx + 3 * r, cy)
            holes.append(draw(ring(hostile=False, centre=far, radius=r / 2)))
    return [shell, *holes]


@st.composite
def geometry(draw, hostile: bool = True):
    kind = draw(st.sampled_from(["Polygon", "Polygon", "MultiPolygon", "overlapping", "Point", "LineString",
                                 "junk"] if hostile else ["Polygon", "MultiPolygon", "overlapping"]))
    if kind == "Polygon":
        return {"type": "Polygon", "coordinates": draw(polygon_coords(hostile=hostile))}
    if kind == "MultiPolygon":
        parts = draw(st.lists(polygon_coords(hostile=hostile), min_size=1, max_size=3))
        return {"type": "MultiPolygon", "coordinates": parts}
    if kind == "overlapping":  # two parts of one multipolygon covering each other in part
        cx, cy = LON0 + draw(offset), LAT0 + draw(offset)
        d = draw(st.floats(0.0002, 0.001))
        sq = lambda x, y: [[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]  # noqa: E731
        shift = draw(st.floats(0.0, 1.0)) * d
        return {"type": "MultiPolygon", "coordinates": [[sq(cx, cy)], [sq(cx + shift, cy + shift / 2)]]}
    if kind == "Point":
        return {"type": "Point", "coordinates": draw(position(hostile=hostile))}
    if kind == "LineString":
        return {"type": "LineString", "coordinates": draw(st.lists(position(hostile=hostile), min_size=2,
                                                                   max_size=5))}
    return {"type": draw(st.sampled_from(["Polygon", "Circle", None])),
            "coordinates": draw(st.sampled_from([[], [[]], [[[0, 0]]], "0,0", None, [[["a", "b"]]]]))}


@st.composite
def geojson(draw):
    g = draw(geometry())
    wrap = draw(st.sampled_from(["bare", "feature", "collection"]))
    if wrap == "feature":
        return {"type": "Feature", "properties": {"name": "<script>alert(1)</script>"}, "geometry": g}
    if wrap == "collection":
        more = draw(st.lists(geometry(), max_size=2))
        return {"type": "FeatureCollection",
                "features": [{"type": "Feature", "properties": {}, "geometry": x} for x in [g, *more]]}
    return g


# ------------------------------------------------------------------------------------------------
# Project forms
# ------------------------------------------------------------------------------------------------

any_number = st.one_of(
    st.none(),
    st.floats(min_value=0, max_value=1e6),
    st.integers(min_value=0, max_value=500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**400),
    st.sampled_from(["", "12", " 7 ", "1e999", "-3", "abc", "NaN", None, True]),
)
project_form = st.fixed_dictionaries({}, optional={
    "application_type": st.sampled_from(["building_permit", "site_plan", "subdivision", "special_permit",
                                         "<script>", "", None, 3]),
    "new_structure": st.sampled_from([True, False, None, "yes", "no", "maybe", 1]),
    "one_family_dwelling": st.sampled_from([True, False, None, "true"]),
    "existing_use": st.sampled_from(["vacant", "one_family", "two_family", "other", "castle", None]),
    "disturbance_area_sqft": any_number,
    "application_area_acres": any_number,
    "trees_removed": any_number,
    "sanitary_facilities": st.sampled_from([True, False, None]),
    "public_sewer_available": st.sampled_from([True, False, None]),
    "commercial_excavation": st.sampled_from([True, False, None]),
    "activities": st.one_of(st.none(), st.lists(st.one_of(st.integers(-2, 15), st.sampled_from(["3", "x", 2.5])),
                                                max_size=4), st.just("1,2")),
    "landscaping_only": st.sampled_from([True, False, None]),
    "disturbance_footprint": st.one_of(st.none(), geometry(hostile=True), st.just("<svg onload=alert(1)>")),
})


# ------------------------------------------------------------------------------------------------
# The property
# ------------------------------------------------------------------------------------------------

HOSTILE_SETTINGS = settings(max_examples=100, deadline=None,
                            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _check(result: dict) -> None:
    gross, net = result["gross_area_sqft"], result["net_lot_area_sqft"]
    assert gross > 0 and math.isfinite(gross)
    assert 0 <= net <= gross + 1e-6
    assert result["net_lot_area_min_sqft"] <= net + 1e-6
    slopes = result["slope_area_sqft"]
    assert all(v >= -1e-6 for v in slopes.values())
    assert sum(slopes.values()) == pytest.approx(gross, rel=1e-6, abs=1.0)
    assert all(isinstance(w, str) and w for w in result["warnings"])


@HOSTILE_SETTINGS
@given(obj=geojson(), project=st.one_of(st.none(), project_form))
def test_only_input_errors_escape_and_net_never_exceeds_gross(obj, project):
    layers = sample_layers()
    try:
        parcel = parcel_from_geojson(obj)
    except SloatInputError as exc:
        assert str(exc).strip() and "\n" not in str(exc)
        event("outline refused")
        return
    assert parcel.geometry.is_valid and not parcel.geometry.is_empty
    try:
        result = analyze(parcel, layers, project=project)
    except SloatInputError as exc:
        assert str(exc).strip() and "\n" not in str(exc)
        event("project refused")
        return
    event("analysed")
    _check(result)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(obj=geometry(hostile=False))
def test_valid_random_outlines_are_analysed(obj):
    """Valid-ish outlines (possibly self-crossing or overlapping) are repaired and analysed, not refused."""
    try:
        parcel = parcel_from_geojson(obj)
    except SloatInputError as exc:
        # a drawn outline may still enclose no area (all points on a line), or a hole may swallow it
        assert "area" in str(exc) or "no shapes" in str(exc), str(exc)
        return
    _check(analyze(parcel, sample_layers()))


# ------------------------------------------------------------------------------------------------
# What the property test found in parcel_input, pinned with hand-built shapes (EPSG:2260 feet)
# ------------------------------------------------------------------------------------------------

X0, Y0 = 576_000.0, 845_000.0


def _sq(x, y, w, h=None):
    h = w if h is None else h
    return [[X0 + x, Y0 + y], [X0 + x + w, Y0 + y], [X0 + x + w, Y0 + y + h], [X0 + x, Y0 + y + h], [X0 + x, Y0 + y]]


def _in_2260(geometry: dict) -> dict:
    return {**geometry, "crs": {"type": "name", "properties": {"name": "EPSG:2260"}}}


@pytest.mark.parametrize("shift_ft, area_sqft", [(50.0, 20_000.0 - 50 * 50), (0.001, 10_000.0 + 2 * 100 * 0.001 - 1e-6)])
def test_overlapping_parts_are_united_not_cut_out(shift_ft, area_sqft):
    """Two overlapping squares of one MultiPolygon: the parcel is their union (make_valid's default would
    cut the overlap out of both, leaving two thin slivers for nearly identical squares)."""
    obj = _in_2260({"type": "MultiPolygon", "coordinates": [[_sq(0, 0, 100)], [_sq(shift_ft, shift_ft, 100)]]})
    parcel = parcel_from_geojson(obj)
    assert parcel.area_sqft == pytest.approx(area_sqft, rel=1e-6)
    assert any("crossed itself" in w for w in parcel.warnings)


@pytest.mark.parametrize("hole, area_sqft", [
    (_sq(500, 0, 100), 120_000.0),  # wholly outside the shell: removes nothing (not +10,000)
    (_sq(250, 100, 100), 120_000.0 - 50 * 100),  # half outside: only the inside half is removed
])
def test_a_hole_outside_its_shell_adds_no_land(hole, area_sqft):
    obj = _in_2260({"type": "Polygon", "coordinates": [_sq(0, 0, 300, 400), hole]})
    assert parcel_from_geojson(obj).area_sqft == pytest.approx(area_sqft, rel=1e-9)


def test_bowtie_keeps_both_lobes():
    x, y = X0, Y0
    bow = [[x, y], [x + 300, y + 400], [x + 300, y], [x, y + 400], [x, y]]
    assert parcel_from_geojson(_in_2260({"type": "Polygon", "coordinates": [bow]})).area_sqft == pytest.approx(60_000)


@pytest.mark.parametrize("side_ft, refused", [(0.9, True), (1.1, False)])
def test_an_outline_under_one_square_foot_is_refused(side_ft, refused):
    obj = _in_2260({"type": "Polygon", "coordinates": [_sq(0, 0, side_ft)]})
    if refused:
        with pytest.raises(SloatInputError, match="almost no area"):
            parcel_from_geojson(obj)
    else:
        assert parcel_from_geojson(obj).area_sqft == pytest.approx(side_ft**2)
