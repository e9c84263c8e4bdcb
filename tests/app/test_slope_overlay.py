"""The map's slope picture means what it shows: each pixel is the slope class under its centre.

app_support/map/slope_overlay.py warps the slope classes (EPSG:2260) to Web Mercator itself, by nearest
neighbour, and clips them to the parcel's outline. These tests check the picture against what it must
mean, on the shipped sample DEM, recomputing every pixel centre's place with a pyproj transformer of
their own: the colour of each pixel, the clip, the bounds, the rectangles off or half off the DEM, and
a comparison with GDAL's own warp.
"""

from __future__ import annotations

import base64
import io
import math
from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import rasterio
import shapely
from PIL import Image
from pyproj import Transformer
from rasterio.warp import Resampling, calculate_default_transform, reproject
from shapely.geometry import Polygon

from app_support.analysis_door import law_day
from app_support.map import slope_overlay
from sloat_core.gis.terrain import SLOPE_CLASS_COLORS, slope_class_raster
from sloat_core.units import WGS84, WORK_CRS

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
DEM = SAMPLE / "dem.tif"
PALETTE = np.array([SLOPE_CLASS_COLORS[k] for k in range(5)], dtype=np.uint8)
#: Pixel centres closer than this (in source cells) to a cell edge are not judged: the overlay interpolates
#: the inverse projection between exactly projected points, off by about 1e-5 ft (cells are 5 ft).
EDGE_SLACK_CELLS = 1e-3
#: ... nor centres closer than this to the clip outline (metres in EPSG:3857): GDAL's rasterizer and
#: shapely may round a centre that lies on the outline either way.
OUTLINE_SLACK_M = 1e-3

_TO_MERC = Transformer.from_crs(WORK_CRS, "EPSG:3857", always_xy=True)
_FROM_MERC = Transformer.from_crs("EPSG:3857", WORK_CRS, always_xy=True)
_WGS_TO_MERC = Transformer.from_crs(WGS84, "EPSG:3857", always_xy=True)


def _dem_bounds():
    with rasterio.open(DEM) as src:
        return src.bounds


def _rect(dx: float, dy: float, half_w: float = 240, half_h: float = 245):
    left, bottom, right, top = _dem_bounds()
    cx, cy = (left + right) / 2 + dx, (bottom + top) / 2 + dy
    return cx, cy, (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


def _grid(picture, box):
    """The picture's pixel centres in EPSG:3857 (from its WGS84 box and shape) and their size."""
    height, width = picture.shape[:2]
    (lat_s, lon_w), (lat_n, lon_e) = box
    (west, east), (south, north) = _WGS_TO_MERC.transform([lon_w, lon_e], [lat_s, lat_n])
    res_x, res_y = (east - west) / width, (north - south) / height
    assert math.isclose(res_x, res_y, rel_tol=1e-9)  # square pixels
    mx, my = np.meshgrid(west + (np.arange(width) + 0.5) * res_x, north - (np.arange(height) + 0.5) * res_y)
    return mx, my, res_x


def _expected(picture, box, bounds, clip=None):
    """Per pixel: the class under its centre (-1 outside the source), and which pixels are fit to judge."""
    overlay = slope_class_raster(str(DEM), bounds, max_size=500, on=law_day())
    rows, cols = overlay.classes.shape
    minx, miny, maxx, maxy = overlay.bounds
    mx, my, _ = _grid(picture, box)
    sx, sy = _FROM_MERC.transform(mx, my)
    fc, fr = (sx - minx) / overlay.cell_size_ft, (maxy - sy) / overlay.cell_size_ft
    col, row = np.floor(fc).astype(int), np.floor(fr).astype(int)
    inside = (col >= 0) & (col < cols) & (row >= 0) & (row < rows)
    cls = np.full(picture.shape[:2], -1)
    cls[inside] = overlay.classes[row[inside], col[inside]]
    near_edge = lambda f: np.abs(f - np.round(f)) < EDGE_SLACK_CELLS  # noqa: E731
    fit = ~(near_edge(fc) | near_edge(fr))
    in_outline = np.ones(picture.shape[:2], dtype=bool)
    if clip is not None:
        outline = shapely.transform(clip, lambda xy: np.column_stack(_TO_MERC.transform(xy[:, 0], xy[:, 1])))
        in_outline = shapely.contains_xy(outline, mx, my)
        fit &= shapely.distance(outline.boundary, shapely.points(mx, my)) > OUTLINE_SLACK_M
    return cls, in_outline, fit


def _picture(bounds, clip=None):
    return slope_overlay.slope_picture.__wrapped__(str(DEM), bounds, clip_wkb=None if clip is None else clip.wkb,
                                                   on=law_day())


CASES = [(0, 0, False), (0, 0, True), (-900, 650, True), (1400, -700, False), (1400, -700, True)]


def _triangle(cx, cy):
    return Polygon([(cx - 200, cy - 200), (cx + 220, cy - 180), (cx - 190, cy + 210)])


def _case(dx, dy, clipped):
    """The picture of a rectangle ``(dx, dy)`` ft from the DEM's centre, clipped to a triangle or not, and what
    each of its pixels should be (:func:`_expected`)."""
    cx, cy, bounds = _rect(dx, dy)
    clip = _triangle(cx, cy) if clipped else None
    picture, box = _picture(bounds, clip)
    return (picture, *_expected(picture, box, bounds, clip))


@pytest.mark.parametrize("dx, dy, clipped", CASES)
def test_every_opaque_pixel_is_the_colour_of_the_class_under_its_centre(dx, dy, clipped):
    picture, cls, _, fit = _case(dx, dy, clipped)
    opaque = picture[:, :, 3] > 0
    assert np.count_nonzero(opaque) > 100  # slopes are painted here
    judged = opaque & fit
    assert np.count_nonzero(judged) > 0.99 * np.count_nonzero(opaque)
    assert (cls[judged] >= 0).all()  # nothing painted off the source
    assert np.array_equal(picture[judged], PALETTE[cls[judged]])


@pytest.mark.parametrize("dx, dy, clipped", CASES)
def test_outside_the_outline_transparent_inside_it_the_class_colour(dx, dy, clipped):
    picture, cls, in_outline, fit = _case(dx, dy, clipped)
    assert not picture[:, :, 3][~in_outline & fit].any()
    shown = in_outline & (cls >= 0) & fit  # inside the outline and on the DEM: painted as its class is
    assert np.count_nonzero(shown) > 1000
    assert np.array_equal(picture[shown], PALETTE[cls[shown]])
    if clipped:
        assert np.count_nonzero(~in_outline & fit & (cls >= 2)) > 100  # the clip did cut painted land away


def test_the_bounds_hold_the_parcel_and_are_the_padded_rectangle_within_a_pixel_and_the_dem_window():
    """The box is the DEM window read around the padded rectangle, widened to whole destination pixels on
    the east and south: it holds the padded rectangle, and passes it on any side by at most two DEM cells
    (the slope window's one-cell margin and its snapping to whole cells: 10 ft) and one destination pixel."""
    parcels = gpd.read_file(SAMPLE / "parcels.gpkg", layer="parcels").to_crs(WORK_CRS)
    largest = parcels.geometry.iloc[int(parcels.geometry.area.values.argmax())]
    for geom in (largest, parcels.geometry.iloc[0], _triangle(*_rect(0, 0)[:2])):
        minx, miny, maxx, maxy = geom.bounds
        pad = slope_overlay.PAD_FT
        padded = (minx - pad, miny - pad, maxx + pad, maxy + pad)
        picture, box = _picture(padded, geom)
        (lat_s, lon_w), (lat_n, lon_e) = box
        lon, lat = Transformer.from_crs(WORK_CRS, WGS84, always_xy=True).transform(
            *np.asarray(geom.exterior.coords).T)
        assert lon_w < lon.min() and lon.max() < lon_e and lat_s < lat.min() and lat.max() < lat_n
        west, south, east, north = _TO_MERC.transform_bounds(*padded, densify_pts=101)
        (bw, be), (bs, bn) = _WGS_TO_MERC.transform([lon_w, lon_e], [lat_s, lat_n])
        res = (be - bw) / picture.shape[1]
        cells = 2 * 5.0 * 0.3048006 / math.cos(math.radians(lat_n))  # two DEM cells, in Mercator metres
        hair = 1e-6
        assert bw <= west + hair and bs <= south + hair and be >= east - hair and bn >= north - hair
        assert west - bw <= cells and north - bn >= -cells  # the west and north edges: the window's
        assert be - east <= cells + res and south - bs <= cells + res  # east and south: and whole pixels


def test_a_rectangle_off_the_dem_has_no_picture():
    left, bottom, right, top = _dem_bounds()
    off = (right + 100, bottom + 500, right + 600, bottom + 1000)
    assert _picture(off) is None
    assert slope_overlay.slope_picture_url.__wrapped__(str(DEM), off, slope_overlay.MAX_SIZE, None, law_day()) is None


@pytest.mark.parametrize("corner", ["west edge", "south-west corner", "north-east corner"])
def test_a_rectangle_half_off_the_dem_is_transparent_where_the_dem_is_not(corner):
    """The picture covers the part of the rectangle on the DEM; its Mercator box (the DEM's edges are a
    little turned in Web Mercator) takes in some land off the DEM, which must stay transparent."""
    left, bottom, right, top = _dem_bounds()
    cy = (bottom + top) / 2
    bounds = {"west edge": (left - 300, cy - 1200, left + 300, cy + 1200),
              "south-west corner": (left - 300, bottom - 300, left + 1200, bottom + 1200),
              "north-east corner": (right - 1200, top - 1200, right + 300, top + 300)}[corner]
    picture, box = _picture(bounds)
    mx, my, res = _grid(picture, box)
    sx, sy = _FROM_MERC.transform(mx, my)
    slack = 1e-3
    off = (sx < left - slack) | (sx > right + slack) | (sy < bottom - slack) | (sy > top + slack)
    on = (sx > left + slack) & (sx < right - slack) & (sy > bottom + slack) & (sy < top - slack)
    assert np.count_nonzero(off) > 100
    assert not picture[:, :, 3][off].any()
    assert np.count_nonzero(picture[:, :, 3][on]) > 300
    cls, _, fit = _expected(picture, box, bounds)
    read = fit & (cls >= 0)  # under a cell of the DEM window read (the rectangle's part on the DEM)
    assert np.array_equal(picture[read], PALETTE[cls[read]])
    assert not picture[:, :, 3][fit & (cls < 0)].any()
    # Nor does the picture reach beyond the DEM's own Mercator box by more than a pixel.
    west, south, east, north = _TO_MERC.transform_bounds(left, bottom, right, top, densify_pts=101)
    (bw, be), (bs, bn) = _WGS_TO_MERC.transform([box[0][1], box[1][1]], [box[0][0], box[1][0]])
    assert bw >= west - res and be <= east + res and bs >= south - res and bn <= north + res


@pytest.mark.parametrize("dx, dy", [(0, 0), (-900, 650), (1400, -700)])
def test_gdal_warp_agrees_on_nearly_every_pixel(dx, dy):
    """GDAL's suggested grid is not the overlay's (other extents, a slightly other pixel size), so each
    nearest-neighbour boundary may move by a pixel between the two: not all pixels agree, 97% must."""
    _cx, _cy, bounds = _rect(dx, dy)
    picture, box = _picture(bounds)
    overlay = slope_class_raster(str(DEM), bounds, max_size=500, on=law_day())
    rows, cols = overlay.classes.shape
    src_transform = rasterio.transform.from_bounds(*overlay.bounds, cols, rows)
    dst_transform, width, height = calculate_default_transform(WORK_CRS, "EPSG:3857", cols, rows, *overlay.bounds)
    gdal = np.full((height, width), 255, dtype=np.uint8)
    reproject(overlay.classes, gdal, src_transform=src_transform, src_crs=WORK_CRS, dst_transform=dst_transform,
              dst_crs="EPSG:3857", resampling=Resampling.nearest, src_nodata=None, dst_nodata=255)
    mx, my, _ = _grid(picture, box)
    gc, gr = ~dst_transform * (mx, my)
    gc, gr = np.floor(gc).astype(int), np.floor(gr).astype(int)
    both = (gc >= 0) & (gc < width) & (gr >= 0) & (gr < height)
    theirs = gdal[gr[both], gc[both]]
    both_on = theirs != 255
    theirs_rgba = PALETTE[theirs[both_on]]
    assert both_on.sum() > 0.9 * picture.shape[0] * picture.shape[1]
    agree = np.all(picture[both][both_on] == theirs_rgba, axis=1).mean()
    assert agree >= 0.97, agree


@pytest.mark.parametrize("clipped", [False, True])
def test_the_png_handed_to_the_map_is_the_picture_exactly(clipped):
    cx, cy, bounds = _rect(-900, 650)
    clip = _triangle(cx, cy) if clipped else None
    picture, box = _picture(bounds, clip)
    url, url_box = slope_overlay.slope_picture_url.__wrapped__(str(DEM), bounds, slope_overlay.MAX_SIZE,
                                                               None if clip is None else clip.wkb, law_day())
    assert url.startswith("data:image/png;base64,") and url_box == box
    decoded = np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA"))
    assert decoded.shape == picture.shape and np.array_equal(decoded, picture)  # lossless
