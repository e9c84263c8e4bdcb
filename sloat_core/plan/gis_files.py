"""Plan files GIS programs write: GeoPackage (layers by name), GeoJSON (a ``layer`` property on each feature)
and zipped shapefiles (one shapefile a layer, named by its file), each shape with its ``lot`` attribute and
brought into EPSG:2260 US survey feet.

The checks are the parcel files' own: the zip archive through :mod:`sloat_core.gis.safe_zip`, the GeoPackage
read-only first (``check_gpkg``), GeoJSON positions counted in the raw text before parsing, at most
:data:`~sloat_core.gis.parcels.file_limits.MAX_FEATURES` shapes a layer. A file's own coordinate system is
honoured (a shapefile's ``.prj``); GeoJSON without a ``crs`` member is longitude/latitude (RFC 7946); a
GeoPackage layer or a shapefile without one is taken as EPSG:2260 with a warning (coordinates that are not
near the Village are refused afterwards, never placed).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
import pyogrio
import shapely
from pyproj import CRS, Transformer
from pyproj.exceptions import CRSError
from shapely.geometry import shape

from sloat_core.errors import SloatInputError
from sloat_core.gis.parcels.file_limits import MAX_FEATURES, printable_name
from sloat_core.gis.parcels.gdal_files import check_gpkg
from sloat_core.gis.parcels.geojson_file import count_positions, parse_geojson, refuse_if_not_lonlat
from sloat_core.gis.parcels.placement import check_vertices
from sloat_core.gis.safe_files import private_tempdir
from sloat_core.gis.safe_zip import extract_members, inspect_zip
from sloat_core.plan.dxf import _Drawing, _Shape
from sloat_core.units import WGS84, WORK_CRS

__all__ = ["read_geojson_plan", "read_gpkg_plan", "read_zip_plan", "NO_LAYER"]

NO_LAYER = "(no layer)"
"""The layer of a GeoJSON feature without a ``layer`` property."""

_SIDECARS = (".shp", ".shx", ".dbf", ".prj", ".cpg")


def _to_work(geoms: list, crs: Any) -> list:
    """Shapes from ``crs`` to EPSG:2260 (heights dropped)."""
    arr = shapely.force_2d(np.asarray(geoms, dtype=object))
    if CRS.from_user_input(crs) == CRS.from_user_input(WORK_CRS):
        return list(arr)
    try:
        tr = Transformer.from_crs(crs, WORK_CRS, always_xy=True)
        out = shapely.transform(arr, lambda xy: np.column_stack(tr.transform(xy[:, 0], xy[:, 1])))
    except Exception as exc:  # noqa: BLE001 -- PROJ errors vary
        raise SloatInputError("The plan's coordinates cannot be placed on the map of New York.") from exc
    return list(out)


def _lot_value(value: Any) -> str | None:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = " ".join(str(value).split())
    return printable_name(text) if text else None


# ----------------------------------------------------------------------------------------------
# GeoJSON
# ----------------------------------------------------------------------------------------------


def read_geojson_plan(data: bytes, max_vertices: int) -> _Drawing:
    """A GeoJSON FeatureCollection whose features carry ``layer`` (and ``lot``) properties."""
    obj, crs = _geojson_collection(data, max_vertices)
    layers, rows = _geojson_rows(obj["features"])
    check_vertices(sum(int(shapely.get_num_coordinates(g)) for _, g, _ in rows), max_vertices)
    geoms = [g for _, g, _ in rows]
    if crs is None and geoms:
        refuse_if_not_lonlat(geoms, "The plan")
    placed = _to_work(geoms, crs or WGS84) if geoms else []
    shapes = [_Shape(layer, g, lot) for (layer, _, lot), g in zip(rows, placed)]
    return _Drawing(layers, shapes, [], [])


def _geojson_collection(data: bytes, max_vertices: int) -> tuple[dict, CRS | None]:
    """The FeatureCollection (positions counted before parsing) and the coordinate system it names, if any."""
    obj = parse_geojson(data, max_vertices)
    if not isinstance(obj, dict) or obj.get("type") != "FeatureCollection" or not isinstance(obj.get("features"), list):
        raise SloatInputError("A GeoJSON plan must be a FeatureCollection whose features carry a 'layer' property.")
    if len(obj["features"]) > MAX_FEATURES:
        raise SloatInputError(
            f"The plan holds {len(obj['features']):,} shapes, more than the {MAX_FEATURES:,} allowed."
        )
    if obj.get("crs") is None:
        return obj, None
    try:
        return obj, CRS.from_user_input(obj["crs"]["properties"]["name"])
    except (CRSError, KeyError, TypeError) as exc:
        raise SloatInputError("The GeoJSON file names a coordinate system that is not recognised.") from exc


def _geojson_rows(feats: list) -> tuple[list[str], list[tuple[str, Any, str | None]]]:
    """The layers in order of first appearance, and (layer, shape, lot) for each feature with coordinates."""
    layers: list[str] = []
    rows: list[tuple[str, Any, str | None]] = []
    for feat in feats:
        if not isinstance(feat, dict) or not isinstance(feat.get("geometry"), dict):
            continue
        props = feat.get("properties") if isinstance(feat.get("properties"), dict) else {}
        layer = printable_name(props["layer"]) if props.get("layer") not in (None, "") else NO_LAYER
        layers.append(layer)
        n, finite = count_positions(feat["geometry"].get("coordinates"))
        if not finite:
            raise SloatInputError("The plan has coordinates that are not numbers (NaN or infinite).")
        if n == 0:
            continue
        try:
            rows.append((layer, shape(feat["geometry"]), _lot_value(_get_ci(props, "lot"))))
        except (ValueError, TypeError, AttributeError, IndexError, shapely.errors.GEOSException) as exc:
            raise SloatInputError("The GeoJSON file holds a geometry that is not well formed.") from exc
    return list(dict.fromkeys(layers)), rows


def _get_ci(props: dict, key: str) -> Any:
    for k, v in props.items():
        if str(k).lower() == key:
            return v
    return None


# ----------------------------------------------------------------------------------------------
# GeoPackage and shapefiles (GDAL)
# ----------------------------------------------------------------------------------------------


def _read_table(path: Path, layer: str | None, name: str, kind: str, warnings: list[str]) -> list[_Shape]:
    """One GDAL layer's shapes with their ``lot`` attribute, in EPSG:2260."""
    try:
        info = pyogrio.read_info(path, layer=layer)
        if int(info.get("features") or 0) > MAX_FEATURES:
            raise SloatInputError(
                f"The plan's layer '{name}' holds {int(info['features']):,} shapes, more than the {MAX_FEATURES:,} "
                "allowed."
            )
        lot_field = next((f for f in info.get("fields", []) if str(f).lower() == "lot"), None)
        gdf = pyogrio.read_dataframe(path, layer=layer, max_features=MAX_FEATURES, read_geometry=True,
                                     columns=[lot_field] if lot_field else [])
    except SloatInputError:
        raise
    except Exception as exc:  # noqa: BLE001 -- GDAL raises many kinds; the user gets one sentence
        raise SloatInputError(f"The plan could not be read as {kind}.") from exc
    keep = [i for i, g in enumerate(gdf.geometry.values) if g is not None and not g.is_empty]
    if not keep:
        return []
    geoms = [gdf.geometry.values[i] for i in keep]
    crs = gdf.crs
    if crs is None:
        warnings.append(f"The layer '{name}' has no coordinate system; its coordinates were taken as New York "
                        "East state-plane feet (EPSG:2260).")
        crs = WORK_CRS
    placed = _to_work(geoms, crs)
    lots = [_lot_value(gdf[lot_field].iloc[i]) if lot_field else None for i in keep]
    return [_Shape(name, g, lot) for g, lot in zip(placed, lots)]


def read_gpkg_plan(data: bytes) -> _Drawing:
    """A GeoPackage: each layer by its name."""
    warnings: list[str] = []
    shapes: list[_Shape] = []
    with private_tempdir() as tmp:
        path = tmp / "plan.gpkg"
        path.write_bytes(data)
        check_gpkg(path)
        try:
            names = [str(n) for n, _ in pyogrio.list_layers(path)]
        except Exception as exc:  # noqa: BLE001
            raise SloatInputError("The plan could not be read as a GeoPackage.") from exc
        if not names:
            raise SloatInputError("The GeoPackage holds no map layers.")
        for name in names:
            shapes.extend(_read_table(path, name, printable_name(name), "a GeoPackage", warnings))
    return _Drawing([printable_name(n) for n in names], shapes, [], warnings)


def read_zip_plan(data: bytes) -> _Drawing:
    """A zip archive of shapefiles, one a layer, each named by its file (``lots.shp`` is the layer ``lots``)."""
    infos = inspect_zip(data)
    files = [i.filename for i in infos if not i.is_dir() and not i.filename.startswith("__MACOSX/")
             and not PurePosixPath(i.filename).name.startswith(".")]
    shps = [f for f in files if f.lower().endswith(".shp")]
    if not shps:
        raise SloatInputError("The zip archive holds no shapefile (.shp), so it cannot be read as a plan.")
    by_stem: dict[str, dict[str, str]] = {}
    for f in files:
        p = PurePosixPath(f)
        if p.suffix.lower() in _SIDECARS:
            by_stem.setdefault(str(p.with_suffix("")).lower(), {})[p.suffix.lower()] = f
    warnings: list[str] = []
    shapes: list[_Shape] = []
    names: list[str] = []
    with private_tempdir() as tmp:
        for i, shp in enumerate(shps):
            parts = by_stem[str(PurePosixPath(shp).with_suffix("")).lower()]
            name = printable_name(PurePosixPath(shp).stem)
            names.append(name)
            if ".dbf" not in parts or ".shx" not in parts:
                raise SloatInputError(
                    f"The shapefile '{name}' in the zip archive is missing its .shx or .dbf file, so it cannot be read."
                )
            extract_members(data, {member: f"layer{i}{ext}" for ext, member in parts.items()}, tmp)
            shapes.extend(_read_table(tmp / f"layer{i}.shp", None, name, "a shapefile", warnings))
    return _Drawing(names, shapes, [], warnings)
