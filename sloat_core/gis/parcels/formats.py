"""Parcel files: one parcel outline from an upload or a drawing, whatever the format.

:func:`read_parcel` accepts GeoJSON (a geometry, a Feature or a FeatureCollection), KML (and KMZ),
a zipped shapefile (the ``.shp`` may sit in a sub-folder), a GeoPackage (first polygon layer),
FlatGeobuf and DXF (closed polylines). It decides the format from the content first and the file
name second, and returns a :class:`~sloat_core.gis.parcels.placement.Parcel` in EPSG:2260 (US survey
feet) or raises :class:`~sloat_core.errors.SloatInputError` with one plain sentence.
:func:`parcel_from_geojson` does the same for a GeoJSON object (a shape drawn on the map).

Each reader here only gets the shapes (and the file's coordinate system, if any) out of the file;
placing, repairing and checking them is :mod:`sloat_core.gis.parcels.placement`.

Bounds: the size is checked first, in the calling process; everything else runs in a worker process
under :data:`~sloat_core.gis.safe_files.PARSE_LIMITS` (memory, processor time, wall clock), so one file
cannot take more than that share of the server. Inside it, limits apply while reading: GeoJSON positions
are counted in the raw text before it is parsed; KML is read as a stream and its vertices counted as they
arrive; GDAL readers get the feature count first (at most :data:`MAX_FEATURES`) and ``max_features``;
a GeoPackage (any SQLite file) is first opened read-only and immutable, and refused when a layer of its
``gpkg_contents`` is an SQL view or a virtual table, or it holds a trigger GeoPackage writers do not make.

KML/KMZ: only placemarks' geometries are read. Ground, screen and photo overlays (an aerial photo's frame),
network links (never followed), styles, models and tracks are skipped; a KMZ's images are never opened.
A file of several polygon placemarks raises :class:`SeveralShapesError` listing them, unless ``choose``
says which one is the parcel (or ``"all"``).

What is refused: files over the size limit (checked first), hostile archives and XML
(:mod:`sloat_core.gis.safe_files`), empty files, points and lines, NaN or infinite coordinates,
more than ``max_vertices`` vertices (counted before any heavy work), a GeoJSON without a ``crs``
member whose numbers cannot be longitude/latitude (RFC 7946; never guessed), coordinates of other
formats that cannot be placed (no coordinate system and neither longitude/latitude nor New York East
state-plane feet near Sloatsburg), latitude/longitude swapped, parcels more than about 50 miles from Sloatsburg,
and parcels larger than ``max_acres``.

What is repaired, with a warning: a self-crossing outline (each ring made valid; overlapping parts
united; holes subtracted from their own shell, so a hole outside it removes nothing), several shapes
of a non-KML file (combined into one parcel), 3-D coordinates (the height is dropped), a shapefile without
``.shx`` (rebuilt), a file without a coordinate system whose numbers fit one plausible system.
An outline with holes keeps them (they are not part of the parcel) and says how much was left out.
"""

from __future__ import annotations

import io
import json
import math
import re
import sqlite3
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import pyogrio
import shapely
from pyproj import CRS
from pyproj.exceptions import CRSError
from shapely.geometry import LineString, Point, Polygon, shape
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SeveralShapesError, SloatInputError
from sloat_core.units import SQFT_PER_ACRE, WGS84, WORK_CRS
from sloat_core.gis.parcels.placement import (
    _NOT_FINITE,
    _POLY_TYPES,
    DEFAULT_MAX_ACRES,
    MAX_VERTICES,
    Parcel,
    _check_vertices,
    _finish,
    _Raw,
    _transformer,
)
from sloat_core.gis.safe_files import (
    MAX_UPLOAD_BYTES,
    check_upload_size,
    extract_members,
    inspect_zip,
    private_tempdir,
    refuse_xml_declarations,
    run_bounded,
    safe_display_name,
)

__all__ = ["read_parcel", "parcel_from_geojson", "SeveralShapesError", "MAX_FEATURES"]

MAX_FEATURES = 10_000
"""Most features (shapes) a parcel file may hold; counted before the shapes are read."""

ALL_SHAPES = "all"
"""``choose=ALL_SHAPES``: combine every polygon of a file that holds several into one parcel."""

_SHP_SIDECARS = (".shp", ".shx", ".dbf", ".prj", ".cpg")


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
    choose: int | str | None = None,
) -> Parcel:
    """Read one parcel outline from an uploaded file.

    The size is checked here; everything else (sniffing, parsing, placing) runs in a worker process
    under :data:`~sloat_core.gis.safe_files.PARSE_LIMITS` (memory, processor time, wall clock).

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
    choose : int or "all", optional
        For a KML/KMZ file of several polygons: which one is the parcel (an index into
        :attr:`SeveralShapesError.choices`), or ``"all"`` to combine them.

    Returns
    -------
    Parcel

    Raises
    ------
    SeveralShapesError
        A KML/KMZ file holds several polygons and ``choose`` is not given (the message lists them).
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
    return run_bounded(_parse, raw_bytes, name, max_acres, max_vertices, choose)


def _parse(raw_bytes: bytes, name: str, max_acres: float, max_vertices: int, choose: int | str | None) -> Parcel:
    """The parse proper (in the worker process)."""
    fmt = _sniff(raw_bytes, name)
    if fmt == "geojson":
        raw = _read_geojson_bytes(raw_bytes, max_vertices, f"The file {name}")
    elif fmt == "kml":
        refuse_xml_declarations(raw_bytes)
        raw = _read_kml(raw_bytes, "KML", max_vertices, choose)
    elif fmt == "zip":
        raw = _read_zip(raw_bytes, name, max_vertices, choose)
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


def _read_geojson_bytes(data: bytes, max_vertices: int, subject: str = "The drawing") -> _Raw:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise SloatInputError("The GeoJSON file is not readable text.") from exc
    _precount_positions(text, max_vertices)
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise SloatInputError("The file is not valid GeoJSON.") from exc
    return _read_geojson_obj(obj, max_vertices, subject)


_POSITION_START = re.compile(r"\[\s*[-+.0-9]")


def _precount_positions(text: str, max_vertices: int) -> None:
    """Refuse GeoJSON text with more positions than ``max_vertices`` before it is parsed.

    Every position is written ``[x, y]``: an opening bracket followed by a number, so counting those
    (in the raw text, a single pass) bounds the number of vertices from above without building any
    object. A numeric array among the properties is counted too, which can only make the count larger.
    """
    if text.count("[") <= max_vertices:
        return
    n = sum(1 for _ in _POSITION_START.finditer(text))
    _check_vertices(n, max_vertices)


def _read_geojson_obj(obj: Any, max_vertices: int, subject: str = "The drawing") -> _Raw:
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
    if crs is None and geoms:
        _refuse_if_not_lonlat(geoms, subject)
    return _Raw(geoms, crs, "GeoJSON", lonlat_guess_warns=False)


def _refuse_if_not_lonlat(geoms: list, subject: str) -> None:
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


def _read_frames(path: Path, kind: str, layers: Iterable[str | None]) -> tuple[list[BaseGeometry], CRS | None]:
    geoms: list[BaseGeometry] = []
    crs = None
    try:
        for layer in layers:
            info = pyogrio.read_info(path, layer=layer)
            if int(info.get("features") or 0) > MAX_FEATURES:
                raise SloatInputError(
                    f"The file holds {int(info['features']):,} shapes, more than the {MAX_FEATURES:,} a parcel file "
                    "may hold; export only the parcel and try again."
                )
            gdf = pyogrio.read_dataframe(path, layer=layer, max_features=MAX_FEATURES + 1, read_geometry=True,
                                         columns=[])
            if len(gdf) > MAX_FEATURES:
                raise SloatInputError(f"The file holds more than the {MAX_FEATURES:,} shapes a parcel file may hold.")
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


#: Trigger names GeoPackage writers (GDAL, QGIS, ArcGIS) create for their own bookkeeping; they only fire on
#: writes, and the file is opened read-only, but a trigger of any other name is code nobody asked for.
_STANDARD_TRIGGER = re.compile(
    r"^(gpkg_[a-z_]+|rtree_.+_(insert|update\d*|delete)|trigger_(insert|delete)_feature_count_.+)$", re.IGNORECASE
)
_GPKG_CHECK_SECONDS = 5.0


def _check_gpkg(path: Path) -> None:
    """Open the SQLite file read-only and immutable, and refuse anything but real feature tables.

    Only the schema and ``gpkg_contents`` are read (a progress handler stops any query after a few seconds).
    Refused: a file without ``gpkg_contents``, a layer (any entry of ``gpkg_contents``) that is an SQL view
    or a virtual table rather than a table, and triggers GeoPackage writers do not create.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
    deadline = time.monotonic() + _GPKG_CHECK_SECONDS
    try:
        con = sqlite3.connect(uri, uri=True, timeout=0)
    except sqlite3.Error as exc:
        raise SloatInputError("The file could not be read as a GeoPackage.") from exc
    try:
        con.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10_000)
        con.execute("PRAGMA query_only = 1")
        con.execute("PRAGMA trusted_schema = 0")
        schema = con.execute("SELECT type, name, sql FROM sqlite_master LIMIT 100001").fetchall()
        kinds = {str(name).lower(): (str(kind), str(sql or "")) for kind, name, sql in schema}
        metas = ("gpkg_contents", "gpkg_geometry_columns", "gpkg_spatial_ref_sys")
        if "gpkg_contents" not in kinds or any(kinds.get(m, ("table", ""))[0] != "table" for m in metas):
            raise SloatInputError("The file is not a valid GeoPackage (its table of contents is missing or is not a table).")
        entries = con.execute("SELECT table_name, data_type FROM gpkg_contents LIMIT 1001").fetchall()
    except sqlite3.Error as exc:
        raise SloatInputError("The file could not be read as a GeoPackage.") from exc
    finally:
        con.close()
    if len(entries) > 1000:
        raise SloatInputError("The GeoPackage lists more than 1,000 layers, more than a parcel file holds.")
    for table, _data_type in entries:
        kind, sql = kinds.get(str(table).lower(), ("missing", ""))
        label = _printable(str(table))
        if kind == "view":
            raise SloatInputError(
                f"The GeoPackage's layer '{label}' is an SQL view, not a table of shapes, so the file was refused."
            )
        if kind != "table" or sql.lstrip().upper().startswith("CREATE VIRTUAL"):
            raise SloatInputError(f"The GeoPackage's layer '{label}' is not a table of shapes, so the file was refused.")
    odd = [name for name, (kind, _) in kinds.items() if kind == "trigger" and not _STANDARD_TRIGGER.match(name)]
    if odd:
        raise SloatInputError(
            f"The GeoPackage holds a trigger ('{_printable(odd[0])}') that map files never need, so it was refused."
        )


def _read_gpkg(data: bytes) -> _Raw:
    warnings: list[str] = []
    with private_tempdir() as tmp:
        path = tmp / "upload.gpkg"
        path.write_bytes(data)
        _check_gpkg(path)
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


def _read_zip(data: bytes, name: str, max_vertices: int = MAX_VERTICES, choose: int | str | None = None) -> _Raw:
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
            return _read_kmz(data, sorted(kmls, key=lambda f: (PurePosixPath(f).name.lower() != "doc.kml", f)),
                             max_vertices, choose)
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


def _read_kmz(data: bytes, kmls: list[str], max_vertices: int, choose: int | str | None) -> _Raw:
    """The KMZ's main KML (``doc.kml``, else the first); its images, overlays and other files are never read."""
    with private_tempdir() as tmp:
        extract_members(data, {kmls[0]: "doc.kml"}, tmp)
        text = (tmp / "doc.kml").read_bytes()
    refuse_xml_declarations(text)
    return _read_kml(text, "KMZ", max_vertices, choose)


_KML_SKIP = {"GroundOverlay", "ScreenOverlay", "PhotoOverlay", "NetworkLink", "Style", "StyleMap", "Region",
             "LookAt", "Camera", "Model", "Track", "MultiTrack", "LatLonQuad", "LatLonBox", "ExtendedData"}


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _kml_coords(text: str | None) -> list[tuple[float, ...]]:
    out = []
    for token in (text or "").split():
        parts = token.split(",")
        if len(parts) < 2:
            raise SloatInputError("The KML file has a coordinate that is not a longitude,latitude pair.")
        try:
            out.append(tuple(float(v) for v in parts[:3]))
        except ValueError as exc:
            raise SloatInputError("The KML file has a coordinate that is not a number.") from exc
    return out


def _read_kml(data: bytes, kind: str, max_vertices: int, choose: int | str | None) -> _Raw:
    """Only the placemarks' geometries, read as the XML streams in (vertices counted as they arrive).

    Overlays (ground, screen, photo: an aerial image's frame is not land), network links (never followed),
    styles, models and tracks are skipped whole. A file of several polygon placemarks needs ``choose``.
    """
    stack: list[str] = []
    skip_depth = 0
    vertices = 0
    placemarks: list[tuple[str, list[BaseGeometry]]] = []
    others: list[BaseGeometry] = []
    current: list[BaseGeometry] | None = None
    name: str | None = None
    polygon: dict[str, Any] | None = None
    ring_role: str | None = None
    root_seen = False
    try:
        for event, elem in ET.iterparse(io.BytesIO(data), events=("start", "end")):
            tag = _local(elem.tag)
            if event == "start":
                if not root_seen:
                    root_seen = True
                    if tag != "kml":
                        raise SloatInputError(f"The file could not be read as {kind}.")
                stack.append(tag)
                if skip_depth or tag in _KML_SKIP:
                    skip_depth += 1
                    continue
                if tag == "Placemark" and current is None:
                    current, name = [], None
                elif current is not None and tag == "Polygon":
                    polygon = {"outer": None, "inner": []}
                elif polygon is not None and tag in ("outerBoundaryIs", "innerBoundaryIs"):
                    ring_role = tag
                continue
            stack.pop()
            if skip_depth:
                skip_depth -= 1
                elem.clear()
                continue
            if current is None:
                if tag in ("Document", "Folder"):
                    elem.clear()
                continue
            if tag == "name" and stack and stack[-1] == "Placemark":
                name = (elem.text or "").strip() or None
            elif tag == "coordinates":
                pts = _kml_coords(elem.text)
                vertices += len(pts)
                _check_vertices(vertices, max_vertices)
                parent = stack[-1] if stack else ""
                if polygon is not None and parent == "LinearRing":
                    if ring_role == "innerBoundaryIs":
                        polygon["inner"].append(pts)
                    elif polygon["outer"] is None:
                        polygon["outer"] = pts
                elif parent == "LineString" and len(pts) >= 2:
                    others.append(LineString(pts))
                elif parent == "Point" and pts:
                    others.append(Point(pts[0]))
                elem.clear()
            elif tag in ("outerBoundaryIs", "innerBoundaryIs"):
                ring_role = None
            elif tag == "Polygon" and polygon is not None:
                if polygon["outer"] and len(polygon["outer"]) >= 3:
                    holes = [h for h in polygon["inner"] if len(h) >= 3]
                    current.append(Polygon(polygon["outer"], holes))
                polygon = None
            elif tag == "Placemark":
                if current:
                    placemarks.append((name or "", current))
                current = None
                elem.clear()
                if len(placemarks) + len(others) > MAX_FEATURES:
                    raise SloatInputError(
                        f"The file holds more than the {MAX_FEATURES:,} shapes a parcel file may hold."
                    )
    except SloatInputError:
        raise
    except (ET.ParseError, ValueError, TypeError) as exc:
        raise SloatInputError(f"The file could not be read as {kind}.") from exc
    if not root_seen:
        raise SloatInputError(f"The file could not be read as {kind}.")
    warnings: list[str] = []
    if len(placemarks) > 1:
        labels = [_printable(n) if n else f"polygon {i + 1}" for i, (n, _) in enumerate(placemarks)]
        labels = [f"{lab} ({_rough_acres(g)})" for lab, (_, g) in zip(labels, placemarks)]
        if choose is None:
            raise SeveralShapesError(labels)
        if choose == ALL_SHAPES:
            geoms = [g for _, gs in placemarks for g in gs]
        else:
            try:
                index = int(choose)
                if not 0 <= index < len(placemarks):
                    raise IndexError(index)
            except (TypeError, ValueError, IndexError) as exc:
                raise SloatInputError("The polygon chosen is not one of the file's polygons.") from exc
            geoms = list(placemarks[index][1])
            warnings.append(f"The parcel is polygon {index + 1} of the file's {len(placemarks)}: {labels[index]}.")
        others = []
    else:
        geoms = [g for _, gs in placemarks for g in gs]
    return _Raw(geoms + others, CRS.from_epsg(4326), kind, warnings)


def _rough_acres(geoms: list[BaseGeometry]) -> str:
    """A polygon's size in plain words, for the list a user chooses from (longitude/latitude near Sloatsburg)."""
    try:
        tr = _transformer(WGS84, WORK_CRS)
        area = sum(float(shapely.transform(shapely.force_2d(g), lambda xy: np.column_stack(tr.transform(xy[:, 0], xy[:, 1]))).area)
                   for g in geoms)
    except Exception:  # noqa: BLE001 -- only a label
        return "size unknown"
    if not math.isfinite(area):
        return "size unknown"
    return f"about {area / SQFT_PER_ACRE:,.2f} acres"
