"""Parcel files: one parcel outline from an upload or a drawing, whatever the format.

:func:`read_parcel` accepts GeoJSON (a geometry, a Feature or a FeatureCollection), KML (and KMZ),
a zipped shapefile (the ``.shp`` may sit in a sub-folder), a GeoPackage (first polygon layer),
FlatGeobuf and DXF (closed polylines). It decides the format from the content first and the file
name second, and returns a :class:`~sloat_core.gis.parcels.placement.Parcel` in EPSG:2260 (US survey
feet) or raises :class:`~sloat_core.errors.SloatInputError` with one plain sentence.
:func:`parcel_from_geojson` does the same for a GeoJSON object (a shape drawn on the map).

Each reader (:mod:`.geojson_file`, :mod:`.kml_file`, :mod:`.gdal_files`) only gets the shapes (and the file's
coordinate system, if any) out of the file; placing, repairing and checking them is :mod:`sloat_core.gis.parcels.placement`.

Bounds: the size is checked first, in the calling process; everything else runs in a worker process
under :data:`~sloat_core.gis.bounded_parse.PARSE_LIMITS` (memory, processor time, wall clock), so one file
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
(:mod:`sloat_core.gis.safe_files`, :mod:`sloat_core.gis.safe_zip`), empty files, points and lines, NaN or infinite coordinates,
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

import re
from pathlib import Path, PurePosixPath

from sloat_core.errors import SeveralShapesError, SloatInputError
from sloat_core.gis.parcels.file_limits import ALL_SHAPES, MAX_FEATURES
from sloat_core.gis.parcels.gdal_files import _read_dxf, _read_gpkg, _read_with_gdal, _read_zip
from sloat_core.gis.parcels.geojson_file import _read_geojson_bytes, _read_geojson_obj
from sloat_core.gis.parcels.kml_file import _read_kml
from sloat_core.gis.parcels.placement import (
    DEFAULT_MAX_ACRES,
    MAX_VERTICES,
    Parcel,
    _finish,
)
from sloat_core.gis.bounded_parse import run_bounded
from sloat_core.gis.safe_files import (
    MAX_UPLOAD_BYTES,
    check_upload_size,
    refuse_xml_declarations,
    safe_display_name,
)

__all__ = ["read_parcel", "parcel_from_geojson", "SeveralShapesError", "MAX_FEATURES", "ALL_SHAPES"]


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
    under :data:`~sloat_core.gis.bounded_parse.PARSE_LIMITS` (memory, processor time, wall clock).

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
