"""Small geometry helpers shared by the rooms (EPSG:2260, areas in sq ft), and the outline policy.

Every outline that comes in -- an uploaded or drawn parcel, a drawn footprint, the tax-parcel layer, a shape
handed to the analysis or the village screen -- is checked by `check_parcels` or repaired by `repair_outline`,
the same way whatever the door.

>>> from shapely.geometry import box
>>> area_sqft(box(0, 0, 100, 50))
5000.0
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from pyproj import Transformer
from shapely.geometry import MultiPolygon, Polygon, mapping, shape
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.units import WGS84, WORK_CRS

__all__ = [
    "EMPTY",
    "GRID_FT",
    "PRESENCE_MIN_SQFT",
    "area_sqft",
    "polygonal",
    "polygonal_part",
    "repair_outline",
    "check_parcels",
    "union_all",
    "geojson_to_work",
    "work_to_geojson",
]

EMPTY = shapely.Polygon()
#: Precision of the rules' overlays, in feet. Successive differences of buffers, slope cells and parcels
#: leave near-flat slivers on which floating-point overlay can return wrong areas (seen with GEOS 3.14 on
#: sample parcels: land counted in two rows). Snap-rounding to a 0.001 ft grid makes each step robust and
#: moves no boundary by more than a thousandth of a foot.
GRID_FT = 0.001
#: A layer is *present* on a parcel (for triggers and reviews) when at least this much of it lies inside.
#: Contact along a shared boundary, or a sliver under a square foot left by digitising, is not presence.
#: Deduction areas are still reported to the square foot, however small.
PRESENCE_MIN_SQFT = 1.0
_TO_WORK = Transformer.from_crs(WGS84, WORK_CRS, always_xy=True)
_TO_WGS84 = Transformer.from_crs(WORK_CRS, WGS84, always_xy=True)


def area_sqft(geom: BaseGeometry | None) -> float:
    """Area of a geometry in EPSG:2260, in square feet (0.0 for None or empty)."""
    if geom is None or geom.is_empty:
        return 0.0
    return float(geom.area)


def polygonal(geom: BaseGeometry | None) -> BaseGeometry:
    """Keep only the polygonal parts of a geometry (intersections can leave lines and points)."""
    if geom is None or geom.is_empty:
        return EMPTY
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        return geom
    parts = [g for g in shapely.get_parts(geom) if g.geom_type in ("Polygon", "MultiPolygon")]
    if not parts:
        return EMPTY
    return shapely.union_all(parts)


def polygonal_part(geom: BaseGeometry | None) -> BaseGeometry:
    """The polygonal part of a geometry (a Polygon, a MultiPolygon or an empty Polygon).

    Examples
    --------
    >>> from shapely.geometry import GeometryCollection, LineString, box
    >>> polygonal_part(GeometryCollection([box(0, 0, 1, 1), LineString([(0, 0), (5, 5)])])).area
    1.0
    """
    if geom is None or geom.is_empty:
        return EMPTY
    kind = geom.geom_type
    if kind in ("Polygon", "MultiPolygon"):
        return geom
    if kind == "GeometryCollection":
        polys: list[Polygon] = []
        for part in geom.geoms:
            sub = polygonal_part(part)
            if isinstance(sub, Polygon) and not sub.is_empty:
                polys.append(sub)
            elif isinstance(sub, MultiPolygon):
                polys.extend(sub.geoms)
        if not polys:
            return EMPTY
        return polys[0] if len(polys) == 1 else MultiPolygon(polys)
    return EMPTY


def repair_outline(geom: BaseGeometry) -> BaseGeometry:
    """The one outline policy: a valid polygon or multipolygon covering what an invalid outline means,
    its shells less its holes. Every door an outline comes in by (an uploaded file, a drawing, a drawn
    footprint, the tax-parcel layer, a shape handed to the analysis) repairs with it, so the same
    invalid outline measures the same whatever door it came through.

    Each shell ring is made valid on its own (a self-crossing ring becomes its lobes), overlapping parts
    are united, and each polygon's holes are subtracted from its own shell, so a hole drawn outside its
    shell removes nothing. (``shapely.make_valid``'s default would turn such a hole into land, and would
    cut the overlap of two parts out of both.)
    """
    parts = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    pieces = []
    for part in parts:
        if not isinstance(part, Polygon) or part.is_empty:
            pieces.append(polygonal_part(shapely.make_valid(part)))
            continue
        shell = polygonal_part(shapely.make_valid(Polygon(part.exterior.coords)))
        if part.interiors:
            holes = [polygonal_part(shapely.make_valid(Polygon(r.coords))) for r in part.interiors]
            shell = polygonal_part(shell.difference(shapely.union_all(holes)))
        pieces.append(shell)
    return polygonal_part(shapely.union_all(pieces))


#: The sentences a parcel shape is refused with.
NO_PARCEL = "There is no parcel to analyse."
NOT_POLYGON = "The parcel must be a polygon, not a point or a line."
NOT_NUMBERS = "The parcel has coordinates that are not numbers."
NO_AREA = "The parcel has no area."


def check_parcels(geoms: np.ndarray) -> tuple[np.ndarray, list[str | None], list[bool]]:
    """Repair or reject parcel shapes, many at once: the check of the single-parcel analysis and the screen.

    Returns the geometries to use, an error sentence per parcel (None when fine) and whether each
    was repaired (an invalid outline is repaired by the one outline policy, `repair_outline`).
    """
    out = geoms.copy()
    errors: list[str | None] = [None] * len(geoms)
    repaired = [False] * len(geoms)
    is_geom = np.array([isinstance(g, BaseGeometry) for g in geoms], dtype=bool)
    for i in np.nonzero(~is_geom)[0]:
        errors[i] = NO_PARCEL
        out[i] = None
    idx = np.nonzero(is_geom)[0]
    g = geoms[idx]
    empty = shapely.is_empty(g)
    types = shapely.get_type_id(g)
    poly = (types == 3) | (types == 6)
    coords, where = shapely.get_coordinates(g, return_index=True)
    bad_coord = np.zeros(len(g), dtype=bool)
    if len(coords):
        nonfinite = ~np.isfinite(coords).all(axis=1)
        bad_coord[np.unique(where[nonfinite])] = True
    for j, i in enumerate(idx):
        if empty[j]:
            errors[i] = NO_PARCEL
        elif not poly[j]:
            errors[i] = NOT_POLYGON
        elif bad_coord[j]:
            errors[i] = NOT_NUMBERS
        if errors[i] is not None:
            out[i] = None
    ok = np.array([e is None for e in errors], dtype=bool)
    okidx = np.nonzero(ok)[0]
    if len(okidx):
        valid = shapely.is_valid(out[okidx].astype(object))
        for i in okidx[~valid]:
            fixed = repair_outline(out[i])
            repaired[i] = True
            out[i] = fixed
            if fixed.is_empty or not math.isfinite(fixed.area) or fixed.area <= 0:
                errors[i] = NO_AREA
                out[i] = None
        areas = shapely.area(out[okidx].astype(object))
        for i, a in zip(okidx, areas):
            if errors[i] is None and not (a > 0):
                errors[i] = NO_AREA
                out[i] = None
    return out, errors, repaired


def union_all(geoms) -> BaseGeometry:
    """Union of an iterable of geometries (empty polygon when there are none)."""
    geoms = [g for g in geoms if g is not None and not g.is_empty]
    if not geoms:
        return EMPTY
    return polygonal(shapely.union_all(geoms))


def geojson_to_work(obj: dict) -> BaseGeometry:
    """A GeoJSON geometry in WGS84 (lon, lat) to a polygonal geometry in EPSG:2260.

    Raises SloatInputError when the object is not a usable polygon.
    """
    if isinstance(obj, dict) and obj.get("type") == "Feature":
        obj = obj.get("geometry") or {}
    try:
        geom = shape(obj)
    except Exception as exc:  # shapely raises several types for malformed GeoJSON
        raise SloatInputError("The drawn area is not a valid GeoJSON geometry.") from exc
    if geom.is_empty or geom.geom_type not in ("Polygon", "MultiPolygon"):
        raise SloatInputError("The drawn area must be a polygon, not a point or a line.")
    coords = shapely.get_coordinates(geom)
    if not (abs(coords[:, 0]) <= 180).all() or not (abs(coords[:, 1]) <= 90).all():
        raise SloatInputError("The drawn area's coordinates are not longitude and latitude.")
    geom = shapely.force_2d(geom)
    work = shapely.transform(geom, lambda xy: _stack(*_TO_WORK.transform(xy[:, 0], xy[:, 1])))
    if not work.is_valid:
        work = repair_outline(work)
    return work


def work_to_geojson(geom: BaseGeometry) -> dict:
    """A geometry in EPSG:2260 to a GeoJSON geometry mapping in WGS84."""
    wgs = shapely.transform(geom, lambda xy: _stack(*_TO_WGS84.transform(xy[:, 0], xy[:, 1])))
    return mapping(wgs)


def _stack(x, y):
    return np.column_stack([x, y])
