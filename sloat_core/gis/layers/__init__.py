"""Map layers: the manifest, schema adapters, reading, reprojection and a spatial index per layer.

A *manifest* (YAML) names one file -- or a list of files -- for each *role* the rules need
(floodplain, wetlands, water bodies, ...). :func:`load_manifest` reads every file, reprojects it
to EPSG:2260 (US survey feet), repairs invalid polygons, turns watercourse centre lines into
polygons of the stream width, and builds a shapely ``STRtree`` per role. A role the manifest does
not name is *unknown* (``LayerSet.get(role)`` is ``None``), never "none".

The modules, in the order a reader needs them:

- :mod:`~sloat_core.gis.layers.model` -- ``Layer`` (one role's features and index), ``LayerSet``
  (all layers of a manifest, each role's coverage, zoning districts, map display), ``ParcelsMeta``,
  ``polygonal_part``.
- :mod:`~sloat_core.gis.layers.manifest` -- ``load_manifest`` (the manifest format, its keys, the
  warnings, the cache, the DEM entry, per-line coverage), ``clear_manifest_cache``.
- :mod:`~sloat_core.gis.layers.entry` -- one manifest line and the error naming it.
- :mod:`~sloat_core.gis.layers.readers` -- reading a line's file (GeoJSON, GeoPackage, KML,
  shapefiles and zips, File Geodatabases), clipping, ids as text, the shapes a role needs.
- :mod:`~sloat_core.gis.layers.schemas` -- the ``generic``, ``fema_nfhl`` and ``nwi`` adapters and
  the sniffing of publishers' fields read as generic; ``is_sfha_zone``.
- :mod:`~sloat_core.gis.layers.where` -- the ``where`` filter language (parsed, never ``eval``-ed).

Every public name is importable from here, as before the split (``from sloat_core.gis.layers import
load_manifest``).
"""

from sloat_core.gis.layers.manifest import FALLBACK_STREAM_WIDTH_FT, clear_manifest_cache, load_manifest
from sloat_core.gis.layers.model import Layer, LayerSet, ParcelsMeta, polygonal_part
from sloat_core.gis.layers.readers import ids_as_text
from sloat_core.gis.layers.schemas import SCHEMAS, is_sfha_zone

# Every role a manifest may name, and those accepting lines: declared once in sloat_core.gis.roles.
from sloat_core.gis.roles import LINE_ROLES, ROLES

__all__ = [
    "ROLES",
    "LINE_ROLES",
    "SCHEMAS",
    "FALLBACK_STREAM_WIDTH_FT",
    "Layer",
    "LayerSet",
    "ParcelsMeta",
    "load_manifest",
    "clear_manifest_cache",
    "is_sfha_zone",
    "ids_as_text",
    "polygonal_part",
]
