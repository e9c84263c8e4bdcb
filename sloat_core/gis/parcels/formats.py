"""Parcel input: one parcel outline from an upload, a drawing, or the tax-parcel layer.

:func:`read_parcel` accepts GeoJSON (a geometry, a Feature or a FeatureCollection), KML (and KMZ),
a zipped shapefile (the ``.shp`` may sit in a sub-folder), a GeoPackage (first polygon layer),
FlatGeobuf and DXF (closed polylines). It decides the format from the content first and the file
name second, and returns a :class:`Parcel` in EPSG:2260 (US survey feet) or raises
:class:`~sloat_core.errors.SloatInputError` with one plain sentence.

What is refused: files over the size limit (checked first), hostile archives and XML
(:mod:`sloat_core.gis.safe_files`), empty files, points and lines, NaN or infinite coordinates,
more than ``max_vertices`` vertices (counted before any heavy work), coordinates that cannot be
placed (no coordinate system and neither longitude/latitude nor New York East state-plane feet
near Sloatsburg), latitude/longitude swapped, parcels more than about 50 miles from Sloatsburg,
and parcels larger than ``max_acres``.

What is repaired, with a warning: a self-crossing outline (each ring made valid; overlapping parts
united; holes subtracted from their own shell, so a hole outside it removes nothing), several shapes
(combined into one parcel), 3-D coordinates (the height is dropped), a shapefile without
``.shx`` (rebuilt), a file without a coordinate system whose numbers fit one plausible system.
An outline with holes keeps them (they are not part of the parcel) and says how much was left out.

A parcel outside the village boundary is not refused; :func:`outside_village_warning` gives the
caller the sentence to show.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import threading
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import pyogrio
import shapely
from pyproj import CRS, Geod, Transformer
from pyproj.exceptions import CRSError
from shapely.geometry import MultiPolygon, Polygon, shape
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import LayerSet, polygonal_part
from sloat_core.gis.safe_files import (
    MAX_UPLOAD_BYTES,
    check_upload_size,
    extract_members,
    inspect_zip,
    private_tempdir,
    refuse_xml_declarations,
    safe_display_name,
)
from sloat_core.units import SQFT_PER_ACRE, WGS84, WORK_CRS

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
    "SUFFIXES",
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
_SHP_SIDECARS = (".shp", ".shx", ".dbf", ".prj", ".cpg")
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


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------


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


def _sniff(data: bytes, name: str) -> str:
    ext = PurePosixPath(name.lower()).suffix
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if data.startswith(b"SQLite format 3\x00"):
        return "gpkg"
    if data.startswith(b"fgb\x03"):
        return "fgb"
    if ext in (".zip", ".kmz"):
        raise SloatInputError(f"The file {name} is not a valid zip archive.")
    if ext == ".gpkg":
        raise SloatInputError(f"The file {name} is not a valid GeoPackage.")
    if ext in (".shp", ".shx", ".dbf", ".prj", ".cpg"):
        raise SloatInputError(
            "A shapefile must be uploaded as one .zip file holding its .shp, .shx, .dbf and .prj files."
        )
    head = data[:4096].replace(b"\x00", b"")
    text = head.lstrip(b"\xef\xbb\xbf\xff\xfe").lstrip()
    if text[:1] in (b"{", b"["):
        return "geojson"
    if b"<kml" in head.lower() or text.startswith(b"<?xml") or ext == ".kml":
        return "kml"
    if ext == ".dxf" or re.match(rb"^0\s*\r?\n\s*SECTION", text):
        return "dxf"
    if ext in (".geojson", ".json"):
        return "geojson"
    raise SloatInputError(
        "The file type was not recognised; upload GeoJSON, KML, a zipped shapefile, a GeoPackage or a DXF drawing."
    )


def read_parcel(
    data: bytes | str | Path,
    filename: str | None = None,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    max_acres: float = DEFAULT_MAX_ACRES,
    max_vertices: int = MAX_VERTICES,
) -> Parcel:
    """Read one parcel outline from an uploaded file.

    Parameters
    ----------
    data : bytes, str or Path
        The file's bytes, or a path to it (a str starting with ``{`` or ``<`` is taken as GeoJSON or KML
        text).
    filename : str, optional
        The file's name (used as a format hint and in messages); defaults to the path's name.
    max_bytes : int
        Largest file accepted (checked before anything else).
    max_acres : float
        Largest parcel accepted.
    max_vertices : int
        Most vertices accepted.

    Returns
    -------
    Parcel

    Raises
    ------
    SloatInputError
        With one plain sentence saying what is wrong.
    """
    if isinstance(data, str) and data.lstrip()[:1] in ("{", "<"):
        data = data.encode("utf-8")  # GeoJSON or KML text rather than a path
    if isinstance(data, (str, Path)):
        path = Path(data)
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise SloatInputError(f"The file {safe_display_name(path.name)} was not found.") from exc
        if not path.is_file():
            raise SloatInputError(f"{safe_display_name(path.name)} is not a file.")
        check_upload_size(size, max_bytes)
        try:
            raw_bytes = path.read_bytes()
        except OSError as exc:
            raise SloatInputError(f"The file {safe_display_name(path.name)} could not be read.") from exc
        name = safe_display_name(filename or path.name)
    elif isinstance(data, (bytes, bytearray, memoryview)):
        check_upload_size(len(data), max_bytes)
        raw_bytes = bytes(data)
        name = safe_display_name(filename)
    else:
        raise SloatInputError("The parcel must be given as file contents or a file path.")
    if not raw_bytes.strip():
        raise SloatInputError(f"The file {name} is empty.")
    fmt = _sniff(raw_bytes, name)
    if fmt == "geojson":
        raw = _read_geojson_bytes(raw_bytes, max_vertices)
    elif fmt == "kml":
        refuse_xml_declarations(raw_bytes)
        raw = _read_with_gdal(raw_bytes, ".kml", "KML", all_layers=True)
    elif fmt == "zip":
        raw = _read_zip(raw_bytes, name)
    elif fmt == "gpkg":
        raw = _read_gpkg(raw_bytes)
    elif fmt == "fgb":
        raw = _read_with_gdal(raw_bytes, ".fgb", "FlatGeobuf")
    else:
        raw = _read_dxf(raw_bytes)
    return _finish(raw, f"uploaded file {name} ({raw.kind})", max_acres=max_acres, max_vertices=max_vertices)


def parcel_from_geojson(
    obj: dict | str,
    *,
    source: str = "outline drawn on the map",
    max_acres: float = DEFAULT_MAX_ACRES,
    max_vertices: int = MAX_VERTICES,
) -> Parcel:
    """A parcel from a GeoJSON object (geometry, Feature or FeatureCollection), e.g. a map drawing.

    Parameters
    ----------
    obj : dict or str
        GeoJSON, in WGS84 longitude/latitude unless it carries a ``crs`` member.
    source : str
        Plain-text description of where it came from.
    max_acres, max_vertices
        As for :func:`read_parcel`.

    Returns
    -------
    Parcel
    """
    if isinstance(obj, str):
        raw = _read_geojson_bytes(obj.encode("utf-8"), max_vertices)
    elif isinstance(obj, dict):
        raw = _read_geojson_obj(obj, max_vertices)
    else:
        raise SloatInputError("The drawing is not a GeoJSON object.")
    return _finish(raw, source, max_acres=max_acres, max_vertices=max_vertices)


def _count_positions(coords: Any, depth: int = 0) -> tuple[int, bool]:
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
        n, ok = _count_positions(c, depth + 1)
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


def _read_geojson_bytes(data: bytes, max_vertices: int) -> _Raw:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise SloatInputError("The GeoJSON file is not readable text.") from exc
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SloatInputError("The file is not valid GeoJSON.") from exc
    return _read_geojson_obj(obj, max_vertices)


def _read_geojson_obj(obj: Any, max_vertices: int) -> _Raw:
    geoms_json = _geojson_geometries(obj)
    counts = [_count_positions(g.get("coordinates")) for g in geoms_json]
    _check_vertices(sum(n for n, _ in counts), max_vertices)
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
    return _Raw(geoms, crs, "GeoJSON", lonlat_guess_warns=False)


def _check_vertices(n: int, max_vertices: int) -> None:
    if n > max_vertices:
        raise SloatInputError(
            f"The outline has {n:,} vertices, more than the {max_vertices:,} allowed; simplify it and try again."
        )


def _read_frames(path: Path, kind: str, layers: Iterable[str | None]) -> tuple[list[BaseGeometry], CRS | None]:
    geoms: list[BaseGeometry] = []
    crs = None
    try:
        for layer in layers:
            gdf = pyogrio.read_dataframe(path, layer=layer)
            if crs is None and gdf.crs is not None:
                crs = gdf.crs
            geoms.extend(g for g in gdf.geometry.values if g is not None)
    except SloatInputError:
        raise
    except Exception as exc:  # noqa: BLE001 -- GDAL raises many kinds; the user gets one sentence
        raise SloatInputError(f"The file could not be read as {kind}.") from exc
    return geoms, crs


def _layer_names(path: Path, kind: str) -> list[tuple[str, str]]:
    try:
        return [(str(n), str(t)) for n, t in pyogrio.list_layers(path)]
    except Exception as exc:  # noqa: BLE001
        raise SloatInputError(f"The file could not be read as {kind}.") from exc


def _read_with_gdal(data: bytes, ext: str, kind: str, *, all_layers: bool = False) -> _Raw:
    with private_tempdir() as tmp:
        path = tmp / f"upload{ext}"
        path.write_bytes(data)
        layers: list[str | None] = [n for n, _ in _layer_names(path, kind)] if all_layers else [None]
        geoms, crs = _read_frames(path, kind, layers or [None])
    return _Raw(geoms, crs, kind)


def _read_gpkg(data: bytes) -> _Raw:
    warnings: list[str] = []
    with private_tempdir() as tmp:
        path = tmp / "upload.gpkg"
        path.write_bytes(data)
        layers = _layer_names(path, "a GeoPackage")
        if not layers:
            raise SloatInputError("The GeoPackage holds no map layers.")
        polys = [n for n, t in layers if "polygon" in t.lower()]
        pick = polys[0] if polys else layers[0][0]
        if len(layers) > 1:
            warnings.append(
                f"The GeoPackage holds {len(layers)} layers; the parcel was taken from the layer "
                f"'{_printable(pick)}'."
            )
        geoms, crs = _read_frames(path, "a GeoPackage", [pick])
    return _Raw(geoms, crs, "GeoPackage", warnings)


def _printable(text: str, limit: int = 80) -> str:
    """A name from inside a file (a layer name) as one short line of printable characters."""
    clean = "".join(ch for ch in str(text) if ch.isprintable()).strip()
    return (clean[:limit] + "…" if len(clean) > limit else clean) or "(unnamed)"


def _read_dxf(data: bytes) -> _Raw:
    with private_tempdir() as tmp:
        path = tmp / "upload.dxf"
        path.write_bytes(data)
        geoms, _ = _read_frames(path, "a DXF drawing", [None])
    closed: list[BaseGeometry] = []
    for g in geoms:
        if g.is_empty:
            continue
        if g.geom_type in _POLY_TYPES:
            closed.append(g)
        elif g.geom_type == "LineString" and len(g.coords) >= 4 and g.coords[0] == g.coords[-1]:
            closed.append(Polygon(g.coords))
        elif g.geom_type == "MultiLineString":
            closed.extend(Polygon(p.coords) for p in g.geoms if len(p.coords) >= 4 and p.coords[0] == p.coords[-1])
    if not closed:
        raise SloatInputError("The DXF drawing has no closed polyline to use as the parcel outline.")
    return _Raw(closed, None, "DXF", no_crs_subject="The DXF drawing has no coordinate system", allow_lonlat_guess=False, dxf=True)


def _read_zip(data: bytes, name: str) -> _Raw:
    infos = inspect_zip(data)
    files = [
        i.filename
        for i in infos
        if not i.is_dir()
        and not i.filename.startswith("__MACOSX/")
        and not PurePosixPath(i.filename).name.startswith(".")
    ]
    shps = [f for f in files if f.lower().endswith(".shp")]
    if not shps:
        kmls = [f for f in files if f.lower().endswith(".kml")]
        if kmls:
            return _read_kmz(data, sorted(kmls, key=lambda f: (PurePosixPath(f).name.lower() != "doc.kml", f)))
        raise SloatInputError(f"The zip archive {name} holds no shapefile (.shp) or KML file.")
    by_stem: dict[str, dict[str, str]] = {}
    for f in files:
        p = PurePosixPath(f)
        if p.suffix.lower() in _SHP_SIDECARS:
            by_stem.setdefault(str(p.with_suffix("")).lower(), {})[p.suffix.lower()] = f
    warnings: list[str] = []
    chosen: _Raw | None = None
    with private_tempdir() as tmp:
        for i, shp in enumerate(shps):
            parts = by_stem[str(PurePosixPath(shp).with_suffix("")).lower()]
            raw = _read_one_shapefile(data, parts, tmp, i)
            if any(g is not None and g.geom_type in _POLY_TYPES for g in raw.geoms) or len(shps) == 1:
                chosen = raw
                if len(shps) > 1:
                    warnings.append(
                        f"The zip archive holds {len(shps)} shapefiles; the parcel was taken from "
                        f"{safe_display_name(PurePosixPath(shp).name)}."
                    )
                break
    if chosen is None:
        chosen = raw
    chosen.warnings = warnings + chosen.warnings
    return chosen


def _read_one_shapefile(data: bytes, parts: dict[str, str], tmp: Path, index: int) -> _Raw:
    wanted = {member: f"layer{index}{ext}" for ext, member in parts.items()}
    extract_members(data, wanted, tmp)
    path = tmp / f"layer{index}.shp"
    warnings: list[str] = []
    if ".dbf" not in parts:
        raise SloatInputError("The shapefile in the zip archive is missing its .dbf file, so it cannot be read.")
    restore = ".shx" not in parts
    if restore:
        warnings.append("The shapefile had no .shx index file; it was rebuilt from the .shp file.")
        pyogrio.set_gdal_config_options({"SHAPE_RESTORE_SHX": "YES"})
    try:
        geoms, crs = _read_frames(path, "a shapefile", [None])
    finally:
        if restore:
            pyogrio.set_gdal_config_options({"SHAPE_RESTORE_SHX": None})
    raw = _Raw(geoms, crs, "zipped shapefile", warnings, no_crs_subject="The shapefile has no .prj file, so no coordinate system")
    return raw


def _read_kmz(data: bytes, kmls: list[str]) -> _Raw:
    with private_tempdir() as tmp:
        extract_members(data, {kmls[0]: "doc.kml"}, tmp)
        path = tmp / "doc.kml"
        refuse_xml_declarations(path.read_bytes())
        layers: list[str | None] = [n for n, _ in _layer_names(path, "KMZ")]
        geoms, crs = _read_frames(path, "KMZ", layers or [None])
    return _Raw(geoms, crs, "KMZ")


# ----------------------------------------------------------------------------------------------
# Placement and repair
# ----------------------------------------------------------------------------------------------


def _finish(raw: _Raw, source: str, *, max_acres: float, max_vertices: int) -> Parcel:
    warnings = list(raw.warnings)
    geoms = [g for g in raw.geoms if g is not None and not g.is_empty]
    if not geoms:
        raise SloatInputError("The file contains no shapes.")
    arr = np.asarray(geoms, dtype=object)
    _check_vertices(int(shapely.get_num_coordinates(arr).sum()), max_vertices)
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
        arr[invalid] = [_repair(g) for g in arr[invalid]]
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
        geom = _repair(geom)
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


def _repair(geom: BaseGeometry) -> BaseGeometry:
    """A valid polygon or multipolygon covering what an invalid outline means: its shells less its holes.

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


# ----------------------------------------------------------------------------------------------
# Tax parcels and the village boundary
# ----------------------------------------------------------------------------------------------

_SBL_INDEX: weakref.WeakKeyDictionary[LayerSet, dict[str, list[int]]] = weakref.WeakKeyDictionary()
_SBL_LOCK = threading.Lock()


def _norm(text: Any) -> str:
    return re.sub(r"\s+", "", str(text)).lower()


def _plain(value: Any) -> str | None:
    if value is None:
        return None
    try:
        if value != value:  # NaN / NA
            return None
    except (TypeError, ValueError):
        return None
    text = str(value).strip()
    return text or None


def _parcel_layer(layerset: LayerSet):
    lyr = layerset.get("parcels")
    meta = layerset.parcels_meta
    if lyr is None or meta is None:
        return None, None
    return lyr, meta


def _sbl_index(layerset: LayerSet) -> dict[str, list[int]]:
    with _SBL_LOCK:
        index = _SBL_INDEX.get(layerset)
        if index is None:
            lyr, meta = _parcel_layer(layerset)
            index = {}
            if lyr is not None:
                for i, value in enumerate(lyr.gdf[meta.id_field]):
                    key = _plain(value)
                    if key is not None:
                        index.setdefault(_norm(key), []).append(i)
            _SBL_INDEX[layerset] = index
        return index


def parcel_by_sbl(layerset: LayerSet, sbl: str) -> Parcel:
    """The tax parcel with this SBL (exact match, ignoring case and spaces).

    Parameters
    ----------
    layerset : LayerSet
        Must have a ``parcels`` layer.
    sbl : str
        Section-block-lot, e.g. ``"156.18-1-23"``.

    Returns
    -------
    Parcel
        With ``sbl``, ``address`` and ``district`` from the tax layer.

    Raises
    ------
    SloatInputError
        No parcel layer, or no parcel with that SBL.
    """
    lyr, meta = _parcel_layer(layerset)
    if lyr is None:
        raise SloatInputError("This map data has no tax-parcel layer, so parcels cannot be looked up by SBL.")
    wanted = _norm(sbl or "")
    rows = _sbl_index(layerset).get(wanted) if wanted else None
    if not rows:
        shown = safe_display_name(str(sbl or "").strip(), default="(blank)")
        raise SloatInputError(f"No tax parcel has SBL {shown}.")
    geoms = lyr.geoms[rows]
    geom = geoms[0] if len(rows) == 1 else polygonal_part(shapely.union_all(geoms))
    first = lyr.gdf.iloc[rows[0]]
    sbl_text = _plain(first[meta.id_field]) or str(sbl)
    return Parcel(
        geometry=geom,
        source=f"tax parcel {sbl_text} ({layerset.name})",
        warnings=(),
        sbl=sbl_text,
        address=_plain(first[meta.address_field]) if meta.address_field else None,
        district=_plain(first[meta.district_field]) if meta.district_field else None,
    )


#: Street words and their USPS abbreviation (lower case): "Road" and "Rd" find the same parcels.
SUFFIXES: dict[str, str] = {
    "road": "rd", "street": "st", "turnpike": "tpke", "tpk": "tpke", "tpke": "tpke", "tnpk": "tpke",
    "avenue": "ave", "av": "ave", "drive": "dr", "lane": "ln", "court": "ct", "place": "pl",
    "boulevard": "blvd", "terrace": "ter", "highway": "hwy", "route": "rte", "rt": "rte", "circle": "cir",
    "parkway": "pkwy", "mountain": "mtn", "heights": "hts", "extension": "ext", "trail": "trl",
    "north": "n", "south": "s", "east": "e", "west": "w", "mount": "mt", "hill": "hl", "point": "pt",
}
#: Lowest rapidfuzz ``fuzz.ratio`` (0-100) of the street words for a near miss: one wrong, missing or
#: swapped letter in a street name of ten or more letters scores about 90; "Rock Rd" vs "Ridge Rd" 67.
NEAR_MISS_SCORE = 85.0


def normalise_address(text: Any) -> str:
    """Lower case, punctuation dropped, one space between words, street words abbreviated.

    >>> normalise_address("297  Johnsontown Road.")
    '297 johnsontown rd'
    >>> normalise_address("Orange Turnpike")
    'orange tpke'
    """
    words = re.sub(r"[.,#;:]", " ", str(text or "")).lower().split()
    return " ".join(SUFFIXES.get(w, w) for w in words)


def _split_number(norm: str) -> tuple[str | None, str]:
    """("297", "johnsontown rd") from "297 johnsontown rd"; (None, text) without a house number."""
    m = re.match(r"^(\d+[a-z]?)\s+(.*)$", norm)
    return (m.group(1), m.group(2)) if m else (None, norm)


@dataclass(frozen=True)
class ParcelSearch:
    """What a parcel search found.

    Attributes
    ----------
    matches : list of dict
        At most ``limit`` rows ``{"sbl", "address", "district"}``, best first.
    total : int
        How many parcels matched in all (more than ``len(matches)`` when the list was capped).
    near_miss : bool
        True when nothing matched the words as typed and the matches are near misses (a typo).
    """

    matches: list[dict[str, str | None]]
    total: int
    near_miss: bool = False


def search_parcels(layerset: LayerSet, text: str, limit: int = 10) -> ParcelSearch:
    """Tax parcels by SBL prefix or address, street words normalised, with near misses as a fallback.

    The address and the words typed are compared after :func:`normalise_address` (case, punctuation,
    "Road" = "Rd", "Turnpike" = "Tpke" ...). When no SBL or address contains the words, addresses whose
    street words are within one or two letters (rapidfuzz ratio of at least :data:`NEAR_MISS_SCORE`)
    are offered instead; a house number typed must then be the parcel's own.

    Parameters
    ----------
    layerset : LayerSet
        The map data.
    text : str
        What the user typed.
    limit : int
        Most rows returned (``total`` counts them all).

    Returns
    -------
    ParcelSearch
        Empty when nothing matches, the text is blank or there is no parcel layer.
    """
    lyr, meta = _parcel_layer(layerset)
    query = (text or "").strip()
    if lyr is None or not query or limit <= 0:
        return ParcelSearch([], 0)
    q_sbl = _norm(query)
    q_addr = normalise_address(query)
    gdf = lyr.gdf
    sbls = [_plain(v) for v in gdf[meta.id_field]]
    addrs = [_plain(v) for v in gdf[meta.address_field]] if meta.address_field else [None] * len(gdf)
    dists = [_plain(v) for v in gdf[meta.district_field]] if meta.district_field else [None] * len(gdf)
    hits: dict[str, tuple[float, dict[str, str | None]]] = {}
    rows = [(sbl, addr, dist, normalise_address(addr) if addr else None)
            for sbl, addr, dist in zip(sbls, addrs, dists, strict=True) if sbl is not None]
    for sbl, addr, dist, naddr in rows:
        rank = None
        if _norm(sbl).startswith(q_sbl):
            rank = 0.0
        elif naddr is not None and q_addr and q_addr in naddr:
            rank = 1.0
        if rank is not None and (sbl not in hits or hits[sbl][0] > rank):
            hits[sbl] = (rank, {"sbl": sbl, "address": addr, "district": dist})
    near = False
    if not hits and len(q_addr) >= 4:
        from rapidfuzz import fuzz

        q_num, q_street = _split_number(q_addr)
        for sbl, addr, dist, naddr in rows:
            if naddr is None:
                continue
            a_num, a_street = _split_number(naddr)
            if q_num is not None and q_num != a_num:
                continue
            score = fuzz.ratio(q_street, a_street)
            if score >= NEAR_MISS_SCORE:
                hits[sbl] = (2.0 + (100.0 - score) / 100.0, {"sbl": sbl, "address": addr, "district": dist})
        near = bool(hits)
    ordered = sorted(hits.values(), key=lambda item: (item[0], _natural_key(item[1]["sbl"] or "")))
    return ParcelSearch([row for _, row in ordered[:limit]], len(ordered), near)


def find_parcels(layerset: LayerSet, text: str, limit: int = 10) -> list[dict[str, str | None]]:
    """Tax parcels whose SBL starts with ``text`` or whose address contains it (see :func:`search_parcels`).

    Parameters
    ----------
    layerset : LayerSet
        The map data.
    text : str
        What the user typed.
    limit : int
        Most results returned.

    Returns
    -------
    list of dict
        ``{"sbl", "address", "district"}`` as plain strings (or None), SBL matches first, each group
        sorted by SBL. Empty when nothing matches, the text is blank or there is no parcel layer.
    """
    return search_parcels(layerset, text, limit).matches


def _natural_key(text: str) -> list[Any]:
    return [(0, int(p), "") if p.isdigit() else (1, 0, p.lower()) for p in re.split(r"(\d+)", text) if p]


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
