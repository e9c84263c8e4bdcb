"""Parcel files GDAL reads (a zipped shapefile, a GeoPackage, FlatGeobuf, DXF), the GeoPackage checked
read-only before GDAL opens it, and the archives (zip, KMZ) that hold them."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

import pyogrio
from pyproj import CRS
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.parcels.file_limits import MAX_FEATURES, printable_name
from sloat_core.gis.parcels.kml_file import _read_kml
from sloat_core.gis.parcels.placement import (
    _POLY_TYPES,
    MAX_VERTICES,
    _Raw,
)
from sloat_core.gis.safe_files import private_tempdir, refuse_xml_declarations, safe_display_name
from sloat_core.gis.safe_zip import extract_members, inspect_zip

_SHP_SIDECARS = (".shp", ".shx", ".dbf", ".prj", ".cpg")


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


def check_gpkg(path: Path) -> None:
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
        label = printable_name(str(table))
        if kind == "view":
            raise SloatInputError(
                f"The GeoPackage's layer '{label}' is an SQL view, not a table of shapes, so the file was refused."
            )
        if kind != "table" or sql.lstrip().upper().startswith("CREATE VIRTUAL"):
            raise SloatInputError(f"The GeoPackage's layer '{label}' is not a table of shapes, so the file was refused.")
    odd = [name for name, (kind, _) in kinds.items() if kind == "trigger" and not _STANDARD_TRIGGER.match(name)]
    if odd:
        raise SloatInputError(
            f"The GeoPackage holds a trigger ('{printable_name(odd[0])}') that map files never need, so it was refused."
        )


def _read_gpkg(data: bytes) -> _Raw:
    warnings: list[str] = []
    with private_tempdir() as tmp:
        path = tmp / "upload.gpkg"
        path.write_bytes(data)
        check_gpkg(path)
        layers = _layer_names(path, "a GeoPackage")
        if not layers:
            raise SloatInputError("The GeoPackage holds no map layers.")
        polys = [n for n, t in layers if "polygon" in t.lower()]
        pick = polys[0] if polys else layers[0][0]
        if len(layers) > 1:
            warnings.append(
                f"The GeoPackage holds {len(layers)} layers; the parcel was taken from the layer "
                f"'{printable_name(pick)}'."
            )
        geoms, crs = _read_frames(path, "a GeoPackage", [pick])
    return _Raw(geoms, crs, "GeoPackage", warnings)


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
