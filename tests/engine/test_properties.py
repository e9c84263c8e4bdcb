"""Properties that must hold for any parcel and any layers (hypothesis).

The layer sets here are built in memory with the real `Layer` / `LayerSet` classes (no files), so that
hundreds of random worlds run in seconds.
"""

from pathlib import Path

import geopandas as gpd
import shapely
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import Polygon, box

from engine_world import X0, Y0
from sloat_core.engine.analysis import analyze
from sloat_core.rules.deductions import GRID_FT, lot_area
from sloat_core.errors import SloatInputError
from sloat_core.measure.parcel import parcel_findings
from sloat_core.gis.layers import Layer, LayerSet
from sloat_core.units import WORK_CRS
from law_day import LAW_DAY

ROLES = ("water_bodies", "watercourses", "wetlands", "floodplain", "rock_outcrops")


#: A role with no feature: the frame ``GeoDataFrame({"NAME": []}, geometry=[])`` built once (each layer takes its own
#: copy: ``Layer`` resets the index).
_NO_FEATURE = gpd.GeoDataFrame({"NAME": []}, geometry=[], crs=WORK_CRS)


def world(features: dict) -> LayerSet:
    """The roles' features as layers of one memory layer set: per role a GeoDataFrame (a column NAME, EPSG:2260),
    cut from one frame of all the world's features (building a GeoDataFrame was most of an example's time)."""
    geoms = [g for role in ROLES for g in features.get(role, [])]
    every = gpd.GeoDataFrame({"NAME": ["x"] * len(geoms)}, geometry=geoms, crs=WORK_CRS) if geoms else None
    roles, start = {}, 0
    for role in ROLES:
        end = start + len(features.get(role, []))
        roles[role] = Layer(role, every.iloc[start:end] if end > start else _NO_FEATURE, f"memory:{role}")
        start = end
    return LayerSet(name="memory", version="t", manifest_path=Path("memory"), illustrative=True, notice="",
                    roles=roles, dem_path=None, parcels_meta=None, zoning_district_field=None, warnings=())


coord = st.floats(min_value=0, max_value=1000, allow_nan=False)
size = st.floats(min_value=1, max_value=600, allow_nan=False)
rect = st.builds(lambda x, y, w, h: box(X0 + x, Y0 + y, X0 + x + w, Y0 + y + h), coord, coord, size, size)
features = st.fixed_dictionaries({r: st.lists(rect, max_size=3) for r in ROLES})
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def net(parcel, layers, width=100.0):
    return lot_area(parcel_findings(parcel, layers, buffer_width_ft=width, on=LAW_DAY))


def overlay_tolerance_sqft(lot) -> float:
    """How far the overlay's areas may drift from the measured rows, from the method itself.

    The rows are measured without building shapes; the shapes (each row's land and the unconstrained
    rest) come from overlays snap-rounded to a ``GRID_FT`` (0.001 ft) grid, and snap-rounding moves no
    boundary by more than one grid step. So each shape's area moves by at most its boundary length x
    ``GRID_FT``, and all of them together by at most the total boundary length x ``GRID_FT``. A fixed
    tolerance is wrong for long thin shapes: a 2 x 572 ft parcel has 1,148 ft of edge, up to 1.15 sq ft.
    """
    edges_ft = lot.unconstrained.length + sum(r.geometry.length for r in lot.rows if r.area_sqft is not None)
    return GRID_FT * edges_ft + 1e-6


# A failing example: Hypothesis found a 2 x 572 ft parcel where rows + unconstrained land
# came to 1143.4995 sq ft against a gross of 1144 (0.5005 sq ft short: more than the old fixed 0.5).
THIN_PARCEL = box(X0 + 0.0004999, Y0 + 0.0004999, X0 + 2.0004999, Y0 + 572.0004999)
THIN_FEATURES = {"water_bodies": [], "watercourses": [], "floodplain": [], "rock_outcrops": [],
                 "wetlands": [box(X0 + 1.0002, Y0 + 100.0003, X0 + 400.0001, Y0 + 200.0007)]}


@FAST
@given(parcel=rect, feats=features)
@example(parcel=THIN_PARCEL, feats=THIN_FEATURES)
def test_net_never_exceeds_gross_and_rows_sum_exactly(parcel, feats):
    lot = net(parcel, world(feats))
    assert -1e-6 <= lot.net_lot_area_sqft <= lot.gross_area_sqft + 1e-6
    assert sum(r.deducted_sqft for r in lot.rows if r.deducted_sqft is not None) == pytest.approx(
        lot.gross_area_sqft - lot.net_lot_area_sqft, abs=0.01)  # the overlay snaps to a 0.001 ft grid
    assigned = sum(r.area_sqft for r in lot.rows if r.area_sqft is not None) + lot.unconstrained.area
    # each piece in exactly one row, up to the overlay's snapping
    assert assigned == pytest.approx(lot.gross_area_sqft, rel=1e-6, abs=overlay_tolerance_sqft(lot))


def test_the_thin_parcel_of_issue_11_is_within_the_methods_tolerance():
    """The regression case: the 0.5005 sq ft the overlay lost on a 2 x 572 ft parcel is within
    perimeter x grid (1,148 ft x 0.001 ft = 1.148 sq ft), and the rows still add up to the gross."""
    lot = net(THIN_PARCEL, world(THIN_FEATURES))
    assert overlay_tolerance_sqft(lot) >= 1148 * GRID_FT > 0.5005
    assigned = sum(r.area_sqft for r in lot.rows if r.area_sqft is not None) + lot.unconstrained.area
    assert assigned == pytest.approx(lot.gross_area_sqft, rel=1e-6, abs=overlay_tolerance_sqft(lot))
    assert lot.gross_area_sqft == pytest.approx(2 * 572, abs=1e-6)


@FAST
@given(parcel=rect, feats=features)
@example(parcel=THIN_PARCEL, feats=THIN_FEATURES)
def test_each_rows_area_is_the_area_of_its_shape(parcel, feats):
    # The table measures rows without building their shapes (cells and unions); the shapes drawn on
    # maps and exported are built by overlays. The two must describe the same land.
    lot = net(parcel, world(feats))
    for r in lot.rows:
        if r.area_sqft is not None:
            assert r.area_sqft == pytest.approx(r.geometry.area, rel=1e-6, abs=overlay_tolerance_sqft(lot)), \
                r.constraint


@FAST
@given(parcel=rect, feats=features, role=st.sampled_from(ROLES), extra=rect)
def test_adding_a_constraint_never_raises_the_net(parcel, feats, role, extra):
    before = net(parcel, world(feats)).net_lot_area_sqft
    more = {**feats, role: feats[role] + [extra]}
    after = net(parcel, world(more)).net_lot_area_sqft
    assert after <= before + 1e-3


@FAST
@given(parcel=rect, feats=features, dx=st.floats(-5000, 5000), dy=st.floats(-5000, 5000))
def test_moving_parcel_and_layers_together_changes_nothing(parcel, feats, dx, dy):
    a = net(parcel, world(feats))
    moved = {r: [affinity.translate(g, dx, dy) for g in gs] for r, gs in feats.items()}
    b = net(affinity.translate(parcel, dx, dy), world(moved))
    # the overlay snaps to a 0.001 ft grid fixed in space, so a move shifts areas by at most a few
    # thousandths of a foot times the perimeter
    tolerance = 0.002 * parcel.length + 0.01
    assert b.net_lot_area_sqft == pytest.approx(a.net_lot_area_sqft, rel=1e-6, abs=tolerance)


_num = st.one_of(st.floats(-2000, 2000), st.sampled_from([float("nan"), float("inf"), -float("inf")]))
ring = st.lists(st.tuples(_num, _num), min_size=0, max_size=8)
project = st.fixed_dictionaries({}, optional={
    "application_type": st.sampled_from(["building_permit", "site_plan", "subdivision", "special_permit", "x", 3]),
    "trees_removed": st.one_of(st.none(), st.integers(-5, 10**7), st.floats(allow_nan=True), st.text(max_size=3)),
    "disturbance_area_sqft": st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)),
    "application_area_acres": st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True)),
    "one_family_dwelling": st.one_of(st.none(), st.booleans(), st.text(max_size=3)),
    "existing_use": st.sampled_from(["vacant", "one_family", "two_family", "other", "castle"]),
    "activities": st.one_of(st.none(), st.lists(st.one_of(st.integers(-2, 20), st.text(max_size=2)), max_size=4)),
})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(points=ring, proj=project, feats=features)
def test_random_polygons_and_forms_only_ever_raise_the_input_error(points, proj, feats):
    shifted = [(X0 + x, Y0 + y) for x, y in points]
    try:
        parcel = Polygon(shifted) if len(shifted) >= 3 else Polygon()
    except (ValueError, TypeError, shapely.errors.GEOSException):
        return
    try:
        r = analyze(parcel, world(feats), district="R-40", project=proj)
    except SloatInputError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert r["net_lot_area_sqft"] <= r["gross_area_sqft"] + 1e-6


# --- With an elevation model: slope rows measured on cells, shapes built by overlays ---------------------


@pytest.fixture(scope="module")
def sloped_dem(tmp_path_factory):
    """A DEM over x, y in [-50, 1100] ft whose slope grows eastward from 0 to about 66 %, with a hole of
    nodata: every slope class, and land of unknown slope (the hole, and parcels running off the DEM east)."""
    import numpy as np

    from engine_world import write_dem

    def surface(gx, gy):
        z = 500.0 + 300.0 * (gx / 1000.0) ** 2 + 0.05 * gy
        z[(np.abs(gx - 300) < 40) & (np.abs(gy - 600) < 40)] = -9999.0
        return z

    return write_dem(tmp_path_factory.mktemp("dem") / "dem.tif", surface, x=-50.0, y=-50.0, size_ft=1150.0)


def sloped_world(features: dict, dem_path) -> LayerSet:
    base = world(features)
    return LayerSet(name="memory", version="t", manifest_path=Path("memory"), illustrative=True, notice="",
                    roles=base.roles, dem_path=dem_path, parcels_meta=None, zoning_district_field=None,
                    warnings=())


@FAST
@given(parcel=rect, feats=features)
def test_with_slopes_rows_match_their_shapes_and_add_up(sloped_dem, parcel, feats):
    lot = net(parcel, sloped_world(feats, sloped_dem))
    # Every layer row is known; a slope row is unknown only on a parcel that lies wholly on land of unknown slope
    # (a cell of nodata, or one whose Horn window holds one: a 1 x 1 ft lot beside the hole), and then the net is
    # a range from 0, never a silent zero.
    unknown = {r.constraint for r in lot.rows if r.area_sqft is None}
    assert unknown <= {"slope_25_40", "slope_over_40"}
    if unknown:
        assert lot.net_lot_area_min_sqft == pytest.approx(0.0, abs=1e-6)
        assert lot.net_lot_area_sqft == pytest.approx(lot.gross_area_sqft, rel=1e-6)
        return
    tolerance = overlay_tolerance_sqft(lot)  # perimeter x grid, see overlay_tolerance_sqft
    for r in lot.rows:
        assert r.area_sqft == pytest.approx(r.geometry.area, rel=1e-6, abs=tolerance), r.constraint
    assigned = sum(r.area_sqft for r in lot.rows) + lot.unconstrained.area
    assert assigned == pytest.approx(lot.gross_area_sqft, rel=1e-6, abs=tolerance)
    assert lot.net_lot_area_min_sqft <= lot.net_lot_area_sqft + 1e-6


@FAST
@given(parcel=rect, feats=features, role=st.sampled_from(ROLES), extra=rect)
def test_with_slopes_adding_a_constraint_never_raises_the_net(sloped_dem, parcel, feats, role, extra):
    before = net(parcel, sloped_world(feats, sloped_dem)).net_lot_area_sqft
    more = {**feats, role: feats[role] + [extra]}
    after = net(parcel, sloped_world(more, sloped_dem)).net_lot_area_sqft
    assert after <= before + 1e-3


def test_a_lot_wholly_on_land_of_unknown_slope_has_unknown_slope_rows_and_a_net_from_zero(sloped_dem):
    """A 1 x 1 ft lot beside the DEM's hole of nodata: its one cell's Horn window reaches the hole, so its slope
    is unknown; the slope rows say unknown (None) and the net runs from 0 to the whole lot (found by Hypothesis)."""
    feats = {k: [] for k in ROLES}
    lot = net(box(X0 + 255, Y0 + 555, X0 + 256, Y0 + 556), sloped_world(feats, sloped_dem))
    assert {r.constraint for r in lot.rows if r.area_sqft is None} == {"slope_25_40", "slope_over_40"}
    assert lot.net_lot_area_min_sqft == pytest.approx(0.0, abs=1e-6)
    assert lot.net_lot_area_sqft == pytest.approx(1.0, rel=1e-6)
