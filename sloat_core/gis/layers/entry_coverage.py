"""Where each manifest line maps the land: its coverage (declared, assumed and said so, or unknown), and
one role's coverage state from its lines' states.
"""

from __future__ import annotations

import math
from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.layers.entry import _beside, _Entry
from sloat_core.gis.layers.model import polygonal_part
from sloat_core.gis.layers.readers import _read_entry
from sloat_core.gis.layers.where import _compile_where, _WhereError
from sloat_core.gis.roles import ROLE_DECLARATIONS
from sloat_core.gis.roles import role as role_decl


def _bounds_box(gdf: gpd.GeoDataFrame) -> BaseGeometry | None:
    if not len(gdf):
        return None
    minx, miny, maxx, maxy = gdf.total_bounds
    if not all(math.isfinite(v) for v in (minx, miny, maxx, maxy)):
        return None
    return shapely.box(minx, miny, maxx, maxy) if maxx > minx and maxy > miny else None


#: Roles published by watershed (NHD/NHDPlus by HUC): the features' extent says nothing about where
#: there are none, so without ``coverage:`` they are unknown everywhere.
HYDROGRAPHY_ROLES = tuple(r.id for r in ROLE_DECLARATIONS if r.by_watershed)
#: Roles that say where the layer set is expected to map (the village boundary, then the tax parcels).
EXTENT_ROLES = tuple(r.id for r in ROLE_DECLARATIONS if r.extent)

COVERAGE_ASSUMED = "coverage assumed (the layer's extent)"
COVERAGE_ASSUMED_EVERYWHERE = "coverage assumed (not limited: no village boundary or parcels to measure it against)"
COVERAGE_UNKNOWN = "coverage unknown (no coverage: given; hydrography is published by watershed)"


def _entry_coverage(entry: _Entry, gdf: gpd.GeoDataFrame, village: BaseGeometry | None,
                    area: BaseGeometry | None, clip: BaseGeometry | None,
                    warnings: list[str]) -> tuple[BaseGeometry | None, str]:
    """Where this manifest line maps the land (EPSG:2260), or None when it is not limited; and how that
    is known (the coverage state shown with results).

    ``coverage:`` on the entry names it as the publisher cuts its data: ``everywhere``,
    ``village_boundary``, or a file (``{path, layer, where, crs}``, or a list of them) of coverage
    polygons: FEMA's FIRM panel index (NFHL ``S_FIRM_PAN``), NWI project areas, WBD HUC-8/HUC-12
    watershed boundaries, a county boundary. Without it the coverage is *assumed*, and said so (a
    warning, and the state ``coverage assumed (the layer's extent)``): the extent of the file's features,
    joined with ``area`` (the village boundary and the extent of the tax parcels) when that extent
    reaches it; a file without features covers ``area``; without a village boundary or parcels, the
    features' bounding box. For hydrography (watercourses, water bodies) the extent is no default: the
    role is unknown everywhere until ``coverage:`` is given. Cut to the clip area.
    """
    spec = entry.spec.get("coverage")
    if entry.role in EXTENT_ROLES:
        return None, "reference layer"
    if spec is None and role_decl(entry.role).kind == "reference":  # zoning, roads: no rule reads their absence
        return _old_default(gdf, area, clip), "reference layer"
    word = spec.strip().lower() if isinstance(spec, str) else None
    if word == "everywhere":
        return (None, "coverage declared: everywhere") if clip is None else (clip, "coverage declared: everywhere")
    if word == "village_boundary":
        if village is None:
            raise entry.fail("coverage: village_boundary needs a village_boundary layer in the manifest")
        cov, state = village, "coverage declared: the village boundary"
    elif isinstance(spec, (dict, list)) or word:
        cov, state = _declared_coverage(entry, spec, clip, warnings)
    elif spec is None:
        return _assumed_coverage(entry, gdf, area, clip, warnings)
    else:
        raise entry.fail("coverage must be everywhere, village_boundary or a file")
    return (cov if clip is None else polygonal_part(cov.intersection(clip))), state


def _declared_coverage(entry: _Entry, spec, clip: BaseGeometry | None,
                       warnings: list[str]) -> tuple[BaseGeometry, str]:
    """The coverage named by ``coverage:`` as a file or a list of files of polygons, and its state."""
    specs = spec if isinstance(spec, list) else [spec]
    if not specs:
        raise entry.fail("the coverage list is empty (name a file, or write everywhere or village_boundary)")
    pieces = []
    names = []
    for one in specs:
        sub_spec = one if isinstance(one, dict) else {"path": one}
        pieces.append(_coverage_file(entry, sub_spec, clip, warnings))
        names.append(Path(str(sub_spec["path"])).name + (f" {sub_spec['layer']}" if sub_spec.get("layer") else ""))
    return polygonal_part(shapely.union_all(pieces)), f"coverage declared: {', '.join(names)}"


def _coverage_file(entry: _Entry, sub_spec: dict, clip: BaseGeometry | None, warnings: list[str]) -> BaseGeometry:
    """The polygons of one coverage file (``{path, layer, where, crs}``), kept by its ``where``."""
    if not sub_spec.get("path"):
        raise entry.fail("the coverage entry needs a 'path' (or write everywhere or village_boundary)")
    sub = _Entry(entry.manifest_name, entry.role, entry.index,
                 {k: v for k, v in sub_spec.items() if k in ("path", "layer", "where", "crs")}, entry.line)
    sub.path = _beside(Path(entry.path).parent, sub_spec["path"])  # type: ignore[arg-type]
    cov_gdf = _read_entry(sub, warnings, clip)
    if "where" in sub_spec:
        try:
            cov_gdf = cov_gdf[_compile_where(sub_spec["where"])(cov_gdf).to_numpy()]
        except _WhereError as exc:
            raise entry.fail("coverage " + str(exc)) from exc
    kinds = set(cov_gdf.geom_type.dropna()) - {"Polygon", "MultiPolygon"}
    if kinds:
        raise entry.fail(f"the coverage file {sub.filename} holds {', '.join(sorted(kinds))} features; "
                         "coverage is the area mapped, so it needs polygons")
    geoms = shapely.make_valid(np.asarray(cov_gdf.geometry.values, dtype=object))
    return polygonal_part(shapely.union_all(geoms)) if len(geoms) else Polygon()


def _assumed_coverage(entry: _Entry, gdf: gpd.GeoDataFrame, area: BaseGeometry | None, clip: BaseGeometry | None,
                      warnings: list[str]) -> tuple[BaseGeometry | None, str]:
    """Without ``coverage:``: hydrography unknown everywhere; any other layer its extent, assumed and said so."""
    if entry.role in HYDROGRAPHY_ROLES:
        warnings.append(
            f"{entry.source}: no 'coverage:' is given, and hydrography is published by watershed (NHD by "
            f"HUC), so the features' extent does not say where there are none: {entry.role.replace('_', ' ')} "
            "is unknown until the entry names its coverage (a WBD HUC boundary file, village_boundary or "
            "everywhere).")
        return Polygon(), COVERAGE_UNKNOWN
    # No village boundary and no parcels to measure the file's extent against: not limited.
    state = COVERAGE_ASSUMED if area is not None else COVERAGE_ASSUMED_EVERYWHERE
    warnings.append(f"{entry.source}: no 'coverage:' is given, so the coverage is assumed"
                    + (" to be the layer's extent" if area is not None else " (not limited: the manifest has no "
                       "village boundary or parcels to measure the layer's extent against)")
                    + "; name where the publisher maps (a file of its map units, village_boundary or everywhere).")
    return _old_default(gdf, area, clip), state


def _old_default(gdf: gpd.GeoDataFrame, area: BaseGeometry | None, clip: BaseGeometry | None) -> BaseGeometry | None:
    """A reference layer's extent (with ``area`` where it reaches it); not limited without ``area``."""
    box = _bounds_box(gdf)
    if area is None:
        cov = None
    elif box is None:
        cov = area
    else:
        cov = shapely.union_all([box, area]) if box.intersects(area) else box
    if cov is None:
        return clip
    return cov if clip is None else polygonal_part(cov.intersection(clip))


def _combined_state(states: list[str]) -> str:
    """One role's coverage state from its entries': unknown or assumed if any entry's is."""
    uniq = list(dict.fromkeys(states))
    for worst in (COVERAGE_UNKNOWN, COVERAGE_ASSUMED, COVERAGE_ASSUMED_EVERYWHERE):
        if worst in uniq:
            return worst if len(uniq) == 1 else f"{worst} for part of it ({'; '.join(uniq)})"
    return "; ".join(uniq) if uniq else "reference layer"
