"""Slopes from the elevation model (DEM), measured over a parcel: the door to the terrain modules.

Article IX sorts land by slope: § 402-45A(2) deducts land "in excess of 25%" and "in excess of 40%"
from the lot area it counts, § 402-48 looks at slopes "over 15%", and the steep slope permit
(§ 402-55) covers slopes of "25% or greater". Four modules turn a DEM into those numbers:

* :mod:`sloat_core.gis.slope` -- the maths: Horn's slope in percent (as ``gdaldem slope -p``), the
  slope classes and their colours;
* :mod:`sloat_core.gis.dem` -- the DEM as it comes in: its coordinate system, its elevation unit
  (a manifest's ``z_units``), the VRT that converts metres, one open handle per file;
* :mod:`sloat_core.gis.slope_grid` -- one parcel's window of slopes and its land measured exactly;
* :mod:`sloat_core.gis.slope_picture` -- the picture of the slope classes on the map, and
  :mod:`sloat_core.gis.slope_web` -- that picture warped to Web Mercator and encoded for the web map.

This module re-exports their public names, so ``from sloat_core.gis.terrain import slope_grid`` keeps
working.
"""

from __future__ import annotations

from sloat_core.errors import DemUnitsError
from sloat_core.gis.dem import (DEM_READERS, PLAUSIBLE_ELEVATION_US_FT, Z_UNITS_TO_US_FT, PreparedDem,
                                check_dem_crs, dem_vertical_unit, is_work_crs, normalize_z_units, open_dem,
                                prepare_dem)
from sloat_core.gis.slope import SLOPE_CLASS_COLORS, horn_slope_percent, slope_class_labels, slope_classes
from sloat_core.gis.slope_grid import SlopeGrid, slope_grid
from sloat_core.gis.slope_picture import SlopeOverlay, slope_class_raster

__all__ = [
    "PLAUSIBLE_ELEVATION_US_FT",
    "DEM_READERS",
    "DemUnitsError",
    "PreparedDem",
    "Z_UNITS_TO_US_FT",
    "check_dem_crs",
    "dem_vertical_unit",
    "is_work_crs",
    "normalize_z_units",
    "open_dem",
    "prepare_dem",
    "SLOPE_CLASS_COLORS",
    "SlopeGrid",
    "SlopeOverlay",
    "horn_slope_percent",
    "slope_class_labels",
    "slope_class_raster",
    "slope_classes",
    "slope_grid",
]
