"""Parcels: one parcel outline, from an uploaded file, a drawing on the map or the tax-parcel layer.

The package in the order a reader needs it:

* :mod:`~sloat_core.gis.parcels.formats` -- the file door: :func:`read_parcel` (GeoJSON, KML/KMZ,
  zipped shapefile, GeoPackage, FlatGeobuf, DXF; format sniffed from the content) and
  :func:`parcel_from_geojson` (a drawing); the readers it dispatches to are :mod:`.geojson_file`,
  :mod:`.kml_file` and :mod:`.gdal_files` (shapefile, GeoPackage, FlatGeobuf, DXF, zip, KMZ), with the
  limits they share in :mod:`.file_limits`.
* :mod:`~sloat_core.gis.parcels.placement` -- what every reader's shapes go through: the
  :class:`Parcel` model and its limits, choosing (or guessing) the coordinate system, refusing
  misplaced outlines, repairing self-crossing ones; :func:`to_wgs84_geojson` for the map and
  :func:`outside_village_warning`.
* :mod:`~sloat_core.gis.parcels.tax_parcels` -- the tax-parcel layer: :func:`parcel_by_sbl`,
  :func:`search_parcels` / :func:`find_parcels` and :func:`normalise_address`.

Every public name is re-exported here, so ``from sloat_core.gis.parcels import read_parcel`` and
``parcels.parcel_by_sbl`` work as before the package was split.
"""

from sloat_core.gis.parcels.formats import parcel_from_geojson, read_parcel
from sloat_core.gis.parcels.placement import (
    DEFAULT_MAX_ACRES,
    EPSG2260_PLAUSIBLE_BOUNDS,
    FAR_AWAY_MILES,
    MAX_VERTICES,
    SLOATSBURG_LONLAT,
    Parcel,
    outside_village_warning,
    to_wgs84_geojson,
)
from sloat_core.gis.parcels.tax_parcels import (
    NEAR_MISS_SCORE,
    SUFFIXES,
    ParcelSearch,
    find_parcels,
    normalise_address,
    parcel_by_sbl,
    sbl_identity,
    search_parcels,
)

__all__ = [
    "Parcel",
    "DEFAULT_MAX_ACRES",
    "MAX_VERTICES",
    "FAR_AWAY_MILES",
    "SLOATSBURG_LONLAT",
    "EPSG2260_PLAUSIBLE_BOUNDS",
    "read_parcel",
    "parcel_from_geojson",
    "parcel_by_sbl",
    "find_parcels",
    "search_parcels",
    "ParcelSearch",
    "normalise_address",
    "sbl_identity",
    "SUFFIXES",
    "NEAR_MISS_SCORE",
    "to_wgs84_geojson",
    "outside_village_warning",
]
