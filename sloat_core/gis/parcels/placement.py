"""Placement and repair: from shapes read out of a file to one :class:`Parcel` in EPSG:2260.

A reader in :mod:`~sloat_core.gis.parcels.formats` hands over its shapes as a ``_Raw`` (shapes, the
file's coordinate system if it names one, and the warnings so far); :func:`_finish` keeps the polygons,
drops heights, decides the coordinate system (``_place``: the file's own, or a guess of New York East
state-plane feet or longitude/latitude when the numbers fit only near Sloatsburg; swapped, unplaceable
and far-away coordinates are refused), reprojects, repairs a self-crossing outline (``_repair``),
combines several shapes, checks the area and says how much the holes leave out.

Also here: the :class:`Parcel` every reader returns, the limits (:data:`DEFAULT_MAX_ACRES`,
:data:`MAX_VERTICES`, :data:`FAR_AWAY_MILES`), :func:`to_wgs84_geojson` for the map, and
:func:`outside_village_warning` (a parcel outside the village boundary is not refused; the caller
gets the sentence to show).
"""

from __future__ import annotations

import dataclasses
import json
import math
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from pyproj import CRS, Geod, Transformer
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import repair_outline
from sloat_core.gis.layers import LayerSet, polygonal_part
from sloat_core.units import SQFT_PER_ACRE, WGS84, WORK_CRS

__all__ = [
    "Parcel",
    "DEFAULT_MAX_ACRES",
    "MAX_VERTICES",
    "FAR_AWAY_MILES",
    "SLOATSBURG_LONLAT",
    "EPSG2260_PLAUSIBLE_BOUNDS",
    "to_wgs84_geojson",
    "outside_village_warning",
]

DEFAULT_MAX_ACRES = 5000.0
"""Largest parcel accepted, in acres (a sanity limit, not a law number)."""

MAX_VERTICES = 200_000
"""Most vertices accepted in one upload."""

FAR_AWAY_MILES = 50.0
"""A parcel whose centre is farther than this from Sloatsburg is refused as misplaced."""

SLOATSBURG_LONLAT = (-74.1932, 41.1545)
"""Approximate centre of the Village of Sloatsburg (longitude, latitude)."""

EPSG2260_PLAUSIBLE_BOUNDS = (530_000.0, 760_000.0, 690_000.0, 955_000.0)
"""(minx, miny, maxx, maxy) of EPSG:2260 feet covering Rockland County with a ~5-mile margin."""

_METERS_PER_MILE = 1609.344
_POLY_TYPES = {"Polygon", "MultiPolygon"}
_GEOD = Geod(ellps="WGS84")
_TLS = threading.local()

_ASSUMED_2260 = (
    "{subject}; its coordinates were taken as New York East state-plane feet "
    "(EPSG:2260) because they fall in that range near Sloatsburg."
)
_ASSUMED_WGS84 = (
    "{subject}; its coordinates were taken as longitude/latitude (WGS84) "
    "because they fit that range."
)
_NOT_FINITE = "The outline has coordinates that are not numbers (NaN or infinite)."
_MIN_AREA_SQFT = 1.0  # smaller is a slip of the mouse or a sliver of a bad file, not a parcel
_HEIGHTS_DROPPED = "The outline had heights (3-D coordinates); they were dropped and only the plan shape was used."
_HOLES_EXCLUDED = (
    "The outline has a hole (an inner ring) of {area:,.0f} sq ft in all, which is not part of the parcel "
    "and was left out of its area."
)
_REPAIRED = (
    "The parcel outline crossed itself; it was repaired by splitting it where the lines cross, "
    "so check that the shape is what you meant."
)


@dataclass(frozen=True)
class Parcel:
    """One parcel outline in EPSG:2260 (US survey feet).

    Attributes
    ----------
    geometry : shapely Polygon or MultiPolygon
        The outline; holes are excluded from its area.
    source : str
        Where it came from, as plain text (e.g. ``"uploaded file lot.kml (KML)"``).
    warnings : tuple of str
        Repairs and assumptions made while reading, one sentence each.
    sbl : str or None
        Tax-map identifier (section-block-lot), when taken from the tax-parcel layer.
    address : str or None
        Street address from the tax-parcel layer.
    district : str or None
        Zoning district code from the tax-parcel layer.
    """

    geometry: BaseGeometry
    source: str
    warnings: tuple[str, ...] = field(default_factory=tuple)
    sbl: str | None = None
    address: str | None = None
    district: str | None = None

    @property
    def area_sqft(self) -> float:
        """Area in square feet (holes excluded)."""
        return float(self.geometry.area)

    @property
    def area_acres(self) -> float:
        """Area in acres."""
        return self.area_sqft / SQFT_PER_ACRE

    def with_warning(self, message: str) -> Parcel:
        """A copy with one more warning."""
        return dataclasses.replace(self, warnings=(*self.warnings, message))


# ----------------------------------------------------------------------------------------------
# Coordinate helpers
# ----------------------------------------------------------------------------------------------


def _transformer(src: Any, dst: Any) -> Transformer:
    """A per-thread cached always-xy transformer (pyproj transformers are not shared across threads)."""
    cache = getattr(_TLS, "cache", None)
    if cache is None:
        cache = _TLS.cache = {}
    key = (CRS.from_user_input(src).to_wkt(), str(dst))
    tr = cache.get(key)
    if tr is None:
        tr = cache[key] = Transformer.from_crs(src, dst, always_xy=True)
    return tr


def _miles_from_sloatsburg(lon: float, lat: float) -> float:
    if not (math.isfinite(lon) and math.isfinite(lat)) or abs(lat) > 90:
        return math.inf
    _, _, dist_m = _GEOD.inv(SLOATSBURG_LONLAT[0], SLOATSBURG_LONLAT[1], lon, lat)
    return dist_m / _METERS_PER_MILE


def _fits_lonlat(bounds: tuple[float, float, float, float]) -> bool:
    minx, miny, maxx, maxy = bounds
    return -180 <= minx and maxx <= 180 and -90 <= miny and maxy <= 90


def _fits_2260(bounds: tuple[float, float, float, float]) -> bool:
    lo_x, lo_y, hi_x, hi_y = EPSG2260_PLAUSIBLE_BOUNDS
    minx, miny, maxx, maxy = bounds
    return lo_x <= minx and maxx <= hi_x and lo_y <= miny and maxy <= hi_y


def to_wgs84_geojson(geom: BaseGeometry) -> dict:
    """A geometry in EPSG:2260 as a GeoJSON geometry dict in WGS84 longitude/latitude, for the map.

    Parameters
    ----------
    geom : shapely geometry
        In EPSG:2260.

    Returns
    -------
    dict
        A GeoJSON geometry (``{"type": ..., "coordinates": ...}``).

    Examples
    --------
    >>> from shapely.geometry import Point
    >>> g = to_wgs84_geojson(Point(576605.63, 845632.42))
    >>> [round(c, 2) for c in g["coordinates"]]
    [-74.19, 41.15]
    """
    tr = _transformer(WORK_CRS, WGS84)
    out = shapely.transform(geom, lambda xy: np.column_stack(tr.transform(xy[:, 0], xy[:, 1])))
    return json.loads(shapely.to_geojson(out))


@dataclass
class _Raw:
    """Shapes read from a file, before placement and repair."""

    geoms: list[BaseGeometry]
    crs: CRS | None
    kind: str
    warnings: list[str] = field(default_factory=list)
    no_crs_subject: str = "The file has no coordinate system"  # start of the assumption warnings
    allow_lonlat_guess: bool = True
    lonlat_guess_warns: bool = True
    dxf: bool = False


def check_vertices(n: int, max_vertices: int) -> None:
    if n > max_vertices:
        raise SloatInputError(
            f"The outline has {n:,} vertices, more than the {max_vertices:,} allowed; simplify it and try again."
        )


# ----------------------------------------------------------------------------------------------
# Placement and repair
# ----------------------------------------------------------------------------------------------


def _finish(raw: _Raw, source: str, *, max_acres: float, max_vertices: int) -> Parcel:
    warnings = list(raw.warnings)
    geoms = [g for g in raw.geoms if g is not None and not g.is_empty]
    if not geoms:
        raise SloatInputError("The file contains no shapes.")
    arr = np.asarray(geoms, dtype=object)
    check_vertices(int(shapely.get_num_coordinates(arr).sum()), max_vertices)
    coords = shapely.get_coordinates(arr)
    if not np.isfinite(coords).all():
        raise SloatInputError(_NOT_FINITE)

    polys: list[BaseGeometry] = []
    others = 0
    for g in arr:
        if g.geom_type in _POLY_TYPES:
            polys.append(g)
        elif g.geom_type == "GeometryCollection" and not polygonal_part(g).is_empty:
            polys.append(polygonal_part(g))
        else:
            others += 1
    if not polys:
        raise SloatInputError("The file contains only points or lines; a parcel must be a closed outline (a polygon).")
    if others:
        warnings.append(f"{others} point or line shape(s) in the file were ignored; only the outline was used.")
    arr = np.asarray(polys, dtype=object)
    if _has_heights(arr):
        warnings.append(_HEIGHTS_DROPPED)
    arr = shapely.force_2d(arr)

    crs = _place(raw, arr, warnings)
    tr = _transformer(crs, WORK_CRS)
    arr = shapely.transform(arr, lambda xy: np.column_stack(tr.transform(xy[:, 0], xy[:, 1])))
    if not np.isfinite(shapely.get_coordinates(arr)).all():
        raise SloatInputError("The coordinates in the file cannot be placed on the map of New York.")

    invalid = ~shapely.is_valid(arr)
    if invalid.any():
        arr = arr.copy()
        arr[invalid] = [repair_outline(g) for g in arr[invalid]]
        warnings.append(_REPAIRED)
    arr = arr[~shapely.is_empty(arr)]
    if len(arr) == 0:
        raise SloatInputError("The outline encloses no area.")
    if len(arr) > 1:
        warnings.append(f"The file held {len(arr)} shapes; they were combined into one parcel.")
        geom = polygonal_part(shapely.union_all(arr))
    else:
        geom = arr[0]
    if not geom.is_valid:
        geom = repair_outline(geom)
    area_sqft = float(geom.area)
    if geom.is_empty or area_sqft <= 0:
        raise SloatInputError("The outline encloses no area.")
    if area_sqft < _MIN_AREA_SQFT:
        raise SloatInputError("The outline encloses almost no area (less than one square foot); check the file.")
    if area_sqft > max_acres * SQFT_PER_ACRE:
        raise SloatInputError(
            f"The outline covers {area_sqft / SQFT_PER_ACRE:,.0f} acres, more than the "
            f"{max_acres:,.0f} acres allowed for one parcel."
        )
    if isinstance(geom, MultiPolygon) and len(geom.geoms) == 1:
        geom = geom.geoms[0]
    holes = _holes_area_sqft(geom)
    if holes > 0:
        warnings.append(_HOLES_EXCLUDED.format(area=holes))
    return Parcel(geometry=geom, source=source, warnings=tuple(dict.fromkeys(warnings)))


def _has_heights(arr: np.ndarray) -> bool:
    """True when some shape has 3-D coordinates with a real (non-zero) height.

    KML and DXF readers give every shape a height of 0; dropping that changes nothing and needs no warning.
    """
    with_z = arr[shapely.has_z(arr)]
    if len(with_z) == 0:
        return False
    z = shapely.get_coordinates(with_z, include_z=True)[:, 2]
    return bool(np.any(np.nan_to_num(np.abs(z)) > 0))


def _holes_area_sqft(geom: BaseGeometry) -> float:
    """Total area of the holes (inner rings) of a polygon or multipolygon."""
    parts = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    return float(sum(Polygon(ring).area for part in parts for ring in part.interiors))


def _place(raw: _Raw, arr: np.ndarray, warnings: list[str]) -> CRS:
    """Decide the coordinate system; refuse swapped, unplaceable or far-away coordinates."""
    bounds = tuple(float(v) for v in shapely.total_bounds(arr))
    crs = raw.crs
    if crs is None:
        if _fits_2260(bounds):
            warnings.append(_ASSUMED_2260.format(subject=raw.no_crs_subject))
            crs = CRS.from_user_input(WORK_CRS)
        elif raw.dxf:
            raise SloatInputError(
                "The DXF drawing has no coordinate system and its coordinates are not New York East "
                "state-plane feet near Sloatsburg, so it cannot be placed."
            )
        elif raw.allow_lonlat_guess and _fits_lonlat(bounds):
            crs = CRS.from_user_input(WGS84)
            if raw.lonlat_guess_warns:
                warnings.append(_ASSUMED_WGS84.format(subject=raw.no_crs_subject))
        else:
            raise SloatInputError(
                "The coordinates in the file cannot be placed: there is no coordinate system and the numbers "
                "are neither longitude/latitude nor New York East state-plane feet."
            )
    cx, cy = (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
    if crs.is_geographic:
        if _miles_from_sloatsburg(cx, cy) > FAR_AWAY_MILES and _miles_from_sloatsburg(cy, cx) <= FAR_AWAY_MILES:
            raise SloatInputError(
                "The coordinates look swapped (latitude first, then longitude); save the file with longitude "
                "first, about -74.19, 41.15 for Sloatsburg."
            )
        lon, lat = cx, cy
    else:
        try:
            lon, lat = _transformer(crs, WGS84).transform(cx, cy)
        except Exception as exc:  # noqa: BLE001 -- PROJ errors vary
            raise SloatInputError("The coordinates in the file cannot be placed on the map.") from exc
    miles = _miles_from_sloatsburg(lon, lat)
    if not math.isfinite(miles):
        raise SloatInputError("The coordinates in the file cannot be placed on the map.")
    if miles > FAR_AWAY_MILES:
        raise SloatInputError(
            f"The outline is about {miles:,.0f} miles from Sloatsburg, too far away to be a village parcel; "
            "check the file's coordinate system."
        )
    return crs


def outside_village_warning(parcel: Parcel, layerset: LayerSet) -> str | None:
    """A warning when the parcel lies wholly or partly outside the village boundary.

    Parameters
    ----------
    parcel : Parcel
        The parcel.
    layerset : LayerSet
        Map data; without a ``village_boundary`` layer nothing can be said and None is returned.

    Returns
    -------
    str or None
        One sentence, or None when the parcel is inside (or the boundary is unknown).
    """
    boundary = layerset.village_boundary
    if boundary is None or boundary.is_empty:
        return None
    geom = parcel.geometry
    area = geom.area
    if area <= 0:
        return None
    outside = geom.difference(boundary).area
    if outside <= max(1.0, area * 1e-6):
        return None
    if outside >= area * (1 - 1e-6):
        return (
            "This parcel lies outside the Village of Sloatsburg boundary, where Article IX does not apply; "
            "results are for information only."
        )
    return (
        f"About {outside:,.0f} sq ft ({outside / area:.0%}) of this parcel lies outside the Village of "
        "Sloatsburg boundary, where Article IX does not apply."
    )
