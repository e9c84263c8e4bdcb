"""GeoJSON parcels (an upload or a drawing): positions counted in the raw text before parsing, longitude/
latitude required (RFC 7946), geometries gathered from a geometry, a Feature or a FeatureCollection."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np
import shapely
from pyproj import CRS
from pyproj.exceptions import CRSError
from shapely.geometry import shape

from sloat_core.errors import SloatInputError
from sloat_core.gis.parcels.placement import (
    _NOT_FINITE,
    check_vertices,
    _Raw,
)


def count_positions(coords: Any, depth: int = 0) -> tuple[int, bool]:
    """(number of positions, all coordinates finite) of a GeoJSON ``coordinates`` value."""
    if depth > 6:
        raise SloatInputError("The GeoJSON coordinates are nested too deeply to be a parcel outline.")
    if not isinstance(coords, list) or not coords:
        return 0, True
    if not isinstance(coords[0], list):
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in coords):
            raise SloatInputError("The GeoJSON file has a coordinate that is not a number.")
        return 1, all(math.isfinite(v) for v in coords)
    total, finite = 0, True
    for c in coords:
        n, ok = count_positions(c, depth + 1)
        total += n
        finite = finite and ok
    return total, finite


def _geojson_geometries(obj: Any) -> list[dict]:
    if not isinstance(obj, dict):
        raise SloatInputError("The GeoJSON file does not hold a geometry, Feature or FeatureCollection.")
    kind = obj.get("type")
    if kind == "FeatureCollection":
        feats = obj.get("features")
        if not isinstance(feats, list):
            raise SloatInputError("The GeoJSON FeatureCollection has no list of features.")
        out: list[dict] = []
        for feat in feats:
            out.extend(_geojson_geometries(feat))
        return out
    if kind == "Feature":
        geom = obj.get("geometry")
        return [] if geom is None else _geojson_geometries(geom)
    if kind == "GeometryCollection":
        parts = obj.get("geometries")
        if not isinstance(parts, list):
            raise SloatInputError("The GeoJSON GeometryCollection has no list of geometries.")
        out = []
        for part in parts:
            out.extend(_geojson_geometries(part))
        return out
    if kind in ("Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon"):
        return [obj]
    raise SloatInputError("The GeoJSON file does not hold a geometry, Feature or FeatureCollection.")


def parse_geojson(data: bytes, max_vertices: int) -> Any:
    """The JSON of a GeoJSON file (UTF-8, with or without a byte-order mark, or UTF-16), its positions counted
    against ``max_vertices`` before it is parsed; one sentence when it is not readable or not JSON."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise SloatInputError("The GeoJSON file is not readable text.") from exc
    precount_positions(text, max_vertices)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SloatInputError("The file is not valid GeoJSON.") from exc


def _read_geojson_bytes(data: bytes, max_vertices: int, subject: str = "The drawing") -> _Raw:
    return _read_geojson_obj(parse_geojson(data, max_vertices), max_vertices, subject)


_POSITION_START = re.compile(r"\[\s*[-+.0-9]")


def precount_positions(text: str, max_vertices: int) -> None:
    """Refuse GeoJSON text with more positions than ``max_vertices`` before it is parsed.

    Every position is written ``[x, y]``: an opening bracket followed by a number, so counting those
    (in the raw text, a single pass) bounds the number of vertices from above without building any
    object. A numeric array among the properties is counted too, which can only make the count larger.
    """
    if text.count("[") <= max_vertices:
        return
    n = sum(1 for _ in _POSITION_START.finditer(text))
    check_vertices(n, max_vertices)


def _read_geojson_obj(obj: Any, max_vertices: int, subject: str = "The drawing") -> _Raw:
    geoms_json = _geojson_geometries(obj)
    counts = [count_positions(g.get("coordinates")) for g in geoms_json]
    check_vertices(sum(n for n, _ in counts), max_vertices)
    if not all(ok for _, ok in counts):
        raise SloatInputError(_NOT_FINITE)
    crs = None
    crs_member = obj.get("crs") if isinstance(obj, dict) else None
    if crs_member is not None:
        try:
            crs = CRS.from_user_input(crs_member["properties"]["name"])
        except (CRSError, KeyError, TypeError) as exc:
            raise SloatInputError("The GeoJSON file names a coordinate system that is not recognised.") from exc
    geoms = []
    for g in geoms_json:
        coords = g.get("coordinates")
        if not coords:
            continue
        try:
            geoms.append(shape(g))
        except (ValueError, TypeError, AttributeError, IndexError, shapely.errors.GEOSException) as exc:
            raise SloatInputError("The GeoJSON file holds a geometry that is not well formed.") from exc
    if crs is None and geoms:
        refuse_if_not_lonlat(geoms, subject)
    return _Raw(geoms, crs, "GeoJSON", lonlat_guess_warns=False)


def refuse_if_not_lonlat(geoms: list, subject: str) -> None:
    """A GeoJSON without a ``crs`` member is longitude/latitude (RFC 7946): other numbers are refused, not guessed.

    A longitude outside -180..180 or a latitude outside -90..90 cannot be degrees (a projected export, such
    as state-plane feet, that dropped its coordinate system); reading it in any system would be a guess.
    """
    minx, miny, maxx, maxy = (float(v) for v in shapely.total_bounds(np.asarray(geoms, dtype=object)))
    if minx >= -180 and maxx <= 180 and miny >= -90 and maxy <= 90:
        return
    raise SloatInputError(
        f"{subject} has coordinates that cannot be longitude/latitude and declares no coordinate system "
        "(GeoJSON is longitude/latitude by RFC 7946), so it must declare its CRS or be exported as "
        "longitude/latitude."
    )
