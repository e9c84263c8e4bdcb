"""The map's slope picture: one warp of the four bands is each band warped alone, pixel for pixel.

app_support/slope_overlay.py warps the RGBA slope classes to Web Mercator in one call, with its pyproj
transformers made once per process.
Nearest neighbour moves whole pixels, so the picture must be exactly the one the band-by-band warp gives:
compared here on the shipped sample DEM, clipped to a triangle and not.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import rasterio
from pyproj import Transformer
from rasterio.transform import array_bounds, from_bounds
from rasterio.warp import Resampling, calculate_default_transform, reproject
from shapely.geometry import Polygon

from app_support import slope_overlay
from sloat_core.gis.terrain import slope_class_raster
from sloat_core.units import WGS84, WORK_CRS

DEM = Path(__file__).resolve().parents[2] / "data" / "sample" / "dem.tif"


def _band_by_band(dem: str, bounds, clip=None):
    """The picture as the overlay made it before: a warp per band, transformers made for the call."""
    import shapely
    from rasterio.features import geometry_mask
    from shapely.ops import transform as shp_transform

    overlay = slope_class_raster(dem, bounds, max_size=500)
    rows, cols = overlay.rgba.shape[:2]
    src_transform = from_bounds(*overlay.bounds, cols, rows)
    dst_transform, width, height = calculate_default_transform(WORK_CRS, "EPSG:3857", cols, rows, *overlay.bounds)
    picture = np.zeros((4, height, width), dtype=np.uint8)
    for band in range(4):
        reproject(np.ascontiguousarray(overlay.rgba[:, :, band]), picture[band], src_transform=src_transform,
                  src_crs=WORK_CRS, dst_transform=dst_transform, dst_crs="EPSG:3857",
                  resampling=Resampling.nearest, src_nodata=None, dst_nodata=0)
    if clip is not None:
        to_merc = Transformer.from_crs(WORK_CRS, "EPSG:3857", always_xy=True)
        outside = geometry_mask([shp_transform(to_merc.transform, shapely.from_wkb(clip))],
                                out_shape=(height, width), transform=dst_transform)
        picture[3][outside] = 0
    west, south, east, north = array_bounds(height, width, dst_transform)
    (lon_w, lon_e), (lat_s, lat_n) = Transformer.from_crs("EPSG:3857", WGS84, always_xy=True).transform(
        [west, east], [south, north])
    return np.transpose(picture, (1, 2, 0)), [[lat_s, lon_w], [lat_n, lon_e]]


@pytest.mark.parametrize("offset_ft", [(0, 0), (-900, 650), (1400, -700)])
@pytest.mark.parametrize("clipped", [False, True])
def test_one_warp_of_four_bands_is_the_band_by_band_picture(offset_ft, clipped):
    with rasterio.open(DEM) as src:
        left, bottom, right, top = src.bounds
    cx, cy = (left + right) / 2 + offset_ft[0], (bottom + top) / 2 + offset_ft[1]
    bounds = (cx - 230, cy - 260, cx + 250, cy + 230)
    clip = Polygon([(cx - 200, cy - 200), (cx + 220, cy - 180), (cx - 190, cy + 210)]).wkb if clipped else None
    expected, expected_box = _band_by_band(str(DEM), bounds, clip)
    got, box = slope_overlay.slope_picture.__wrapped__(str(DEM), bounds, clip_wkb=clip)
    assert np.count_nonzero(got[:, :, 3]) > 100  # slopes are painted here
    assert got.shape == expected.shape and np.array_equal(got, expected)
    assert np.allclose(box, expected_box, rtol=0, atol=1e-12)  # degrees: the same transform, same figures
