"""Reading one manifest line's file: GeoJSON, GeoPackage, KML, shapefiles (also zipped), File
Geodatabases (a ``.gdb`` folder or a ``.gdb.zip``), picking the layer, reading only what touches
the clip area, reprojecting to EPSG:2260; then clipping, identifier columns as text, and the shapes
a role needs (geometry types checked, polygons repaired, watercourse lines buffered to their width).
"""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import repair_outline
from sloat_core.gis.layers.entry import _Entry
from sloat_core.gis.layers.model import _POLY_TYPES, _is_missing, polygonal_part
from sloat_core.gis.layers.schemas import _field, _fields_listed
from sloat_core.gis.roles import LINE_ROLES
from sloat_core.gis.safe_files import refuse_xml_declarations
from sloat_core.units import WORK_CRS

__all__ = ["ids_as_text"]


_LINE_TYPES = {"LineString", "MultiLineString", "LinearRing"}


def _clip_to(gdf: gpd.GeoDataFrame, clip: BaseGeometry, *, cut: bool) -> gpd.GeoDataFrame:
    """Features touching ``clip``; with ``cut`` their shapes cut to it (parcels and zoning stay whole)."""
    geoms = np.asarray(gdf.geometry.values, dtype=object)
    shapely.prepare(clip)
    keep = shapely.intersects(clip, geoms)
    out = gdf[keep].copy()
    if cut and len(out):
        inside = shapely.covers(clip, geoms[keep])
        cut_geoms = geoms[keep].copy()
        cut_geoms[~inside] = shapely.intersection(cut_geoms[~inside], clip)
        out = out.set_geometry(gpd.GeoSeries(cut_geoms, index=out.index, crs=WORK_CRS))
        out = out[~out.geometry.is_empty]
    return out


def _text_columns(gdf: gpd.GeoDataFrame, fields: list[Any]) -> gpd.GeoDataFrame:
    """Identifier and code columns as text (see :func:`ids_as_text`)."""
    cols = [str(f) for f in fields if f is not None and str(f) in gdf.columns]
    if not cols:
        return gdf
    gdf = gdf.copy()
    for c in cols:
        gdf[c] = ids_as_text(gdf[c])
    return gdf


def _read_entry(entry: _Entry, warnings: list[str], clip: BaseGeometry | None = None) -> gpd.GeoDataFrame:
    """Read one manifest line's file into a GeoDataFrame in EPSG:2260 (geometry not yet repaired).

    Files as their publishers release them: GeoJSON, GeoPackage, shapefile, KML, a zip of one or
    several shapefiles, an Esri File Geodatabase (a ``.gdb`` folder or a ``.gdb.zip``). Where a file
    holds several map layers, ``layer`` must name one (matched ignoring case); the message lists
    them. With ``clip`` (EPSG:2260), only features touching it are read (by bounding box first).
    """
    path = entry.path
    assert path is not None
    is_gdb_dir = path.is_dir() and path.suffix.lower() == ".gdb"
    if not path.is_file() and not is_gdb_dir:
        if path.is_dir():
            raise entry.fail(f"{entry.filename} is a folder; name a file, or a File Geodatabase folder ending in .gdb")
        raise entry.fail(f"the file {entry.filename} was not found")
    layer = entry.spec.get("layer")
    suffix = path.suffix.lower()
    declared = _declared_crs(entry)
    try:
        if suffix == ".kml":
            refuse_xml_declarations(path.read_bytes())
        if suffix == ".kml" and layer is None:
            gdf = _read_all_layers(path)
        else:
            dataset = _zip_dataset(entry, path) if suffix == ".zip" else str(path)
            name, info = _layer_and_info(entry, dataset, path)
            file_crs = declared if declared is not None else info.get("crs")
            # Before any bounding-box read: projected numbers read as degrees would select nothing.
            _check_coordinates(entry, file_crs, info.get("total_bounds"), suffix, declared is not None)
            bbox = None
            if clip is not None and file_crs:
                bbox = _bbox_in_crs(file_crs, clip)
            gdf = pyogrio.read_dataframe(dataset, layer=name, bbox=bbox)
    except SloatInputError as exc:
        if str(exc).startswith("In the layer manifest"):
            raise
        raise entry.fail(str(exc).rstrip(".").lower()) from exc
    except (pyogrio.errors.DataLayerError,) as exc:
        raise entry.fail(f"the file has no layer named '{layer}'") from exc
    except Exception as exc:  # noqa: BLE001 -- GDAL raises many kinds; the message names the line
        raise entry.fail(f"the file {entry.filename} could not be read as map data") from exc
    if declared is not None:
        gdf = gdf.set_crs(declared, allow_override=True)
    if gdf.crs is None:
        raise entry.fail("the file has no coordinate system, so it cannot be placed on the map; declare it with "
                         "'crs:' on the manifest entry (e.g. crs: EPSG:2260)")
    if len(gdf):
        _check_coordinates(entry, gdf.crs, tuple(gdf.total_bounds), suffix, declared is not None)
        try:
            gdf = gdf.to_crs(WORK_CRS) if not _same_as_work_crs(gdf.crs) else gdf.set_crs(WORK_CRS, allow_override=True)
        except Exception as exc:  # noqa: BLE001
            raise entry.fail("the file's coordinate system could not be converted to EPSG:2260") from exc
        finite = np.isfinite(gdf.total_bounds).all() if not gdf.geometry.is_empty.all() else True
        if not finite:
            raise entry.fail(f"the file's coordinates cannot be in its coordinate system ({_crs_name(gdf.crs)}): "
                             "they do not convert to EPSG:2260; declare the right one with 'crs:' on the manifest "
                             "entry")
    else:
        gdf = gdf.set_crs(WORK_CRS, allow_override=True)
    if gdf.geometry.name != "geometry":
        gdf = gdf.rename_geometry("geometry")
    if not len(gdf):  # no feature: nothing to skip
        return gdf
    nulls = (gdf.geometry.isna() | gdf.geometry.is_empty).to_numpy()
    if nulls.any():
        _refuse_most_dropped(entry, int(nulls.sum()), len(gdf), "have no shape (an empty or null geometry)")
        warnings.append(f"{entry.source}: {int(nulls.sum())} feature(s) without a shape were skipped.")
        gdf = gdf[~nulls]
    return gdf


def _declared_crs(entry: _Entry) -> Any:
    """The ``crs:`` of the manifest entry (it replaces what the file says), checked; None if not given."""
    raw = entry.spec.get("crs")
    if raw is None:
        return None
    from pyproj import CRS  # noqa: PLC0415

    try:
        return CRS.from_user_input(str(raw).strip())
    except Exception as exc:  # noqa: BLE001 -- pyproj raises CRSError and others
        raise entry.fail(f"crs '{raw}' is not a coordinate system pyproj knows (write e.g. crs: EPSG:2260)") from exc


def _crs_name(crs: Any) -> str:
    from pyproj import CRS  # noqa: PLC0415

    try:
        c = CRS.from_user_input(crs)
    except Exception:  # noqa: BLE001
        return str(crs)
    auth = c.to_authority()
    return f"{auth[0]}:{auth[1]}" if auth else c.name


def _check_coordinates(entry: _Entry, crs: Any, bounds: Any, suffix: str, declared: bool) -> None:
    """Refuse coordinates that cannot be in ``crs``: in a geographic system, longitudes outside +/-180 or
    latitudes outside +/-90 (a GeoJSON file without a ``crs`` member is CRS84 by RFC 7946, so projected
    numbers in it are not degrees)."""
    if crs is None or bounds is None:
        return
    from pyproj import CRS  # noqa: PLC0415

    try:
        c = CRS.from_user_input(crs)
        minx, miny, maxx, maxy = (float(v) for v in bounds)
    except Exception:  # noqa: BLE001 -- no usable CRS or bounds: other checks apply
        return
    if not all(np.isfinite([minx, miny, maxx, maxy])) or not c.is_geographic:
        return
    if -180.0 <= minx and maxx <= 180.0 and -90.0 <= miny and miny <= 90.0 and -90.0 <= maxy <= 90.0:
        return
    if declared:
        said = f"the crs declared on the manifest entry ({_crs_name(c)}) measures in degrees"
    elif suffix in (".geojson", ".json"):
        said = ("a GeoJSON file without a 'crs' member is longitude/latitude (CRS84, RFC 7946)")
    else:
        said = f"the file says its coordinate system is {_crs_name(c)}, in degrees"
    raise entry.fail(
        f"the coordinates (x {minx:,.0f} to {maxx:,.0f}, y {miny:,.0f} to {maxy:,.0f}) cannot be longitude and "
        f"latitude, but {said}; declare the coordinate system they are in with 'crs:' on the manifest entry "
        "(e.g. crs: EPSG:2260 for New York East state-plane US survey feet)")


def _refuse_most_dropped(entry: _Entry, dropped: int, total: int, why: str) -> None:
    """A layer from which most features would be dropped is refused, not loaded half-empty."""
    if total and dropped * 2 > total:
        raise entry.fail(f"{dropped} of its {total} features {why}, so the layer would be loaded mostly empty; "
                         "it was refused (check the file and its coordinate system)")


def _info(dataset: str, layer: str | None) -> dict:
    try:
        return dict(pyogrio.read_info(dataset, layer=layer))
    except Exception:  # noqa: BLE001 -- reading it properly says what is wrong
        return {}


def _same_as_work_crs(crs: Any) -> bool:
    """True for EPSG:2260 or an equivalent definition (ESRI:102715): coordinates are used as they are."""
    from pyproj import CRS  # noqa: PLC0415

    from sloat_core.gis.dem import is_work_crs  # noqa: PLC0415

    try:
        return is_work_crs(CRS.from_user_input(crs))
    except Exception:  # noqa: BLE001
        return False


def _bbox_in_crs(crs: Any, clip: BaseGeometry) -> tuple[float, float, float, float] | None:
    """The bounds of ``clip`` (EPSG:2260) in the file's coordinate system, for a bounding-box read."""
    try:
        return tuple(gpd.GeoSeries([clip], crs=WORK_CRS).to_crs(crs).total_bounds.tolist())  # type: ignore[return-value]
    except Exception:  # noqa: BLE001 -- without a usable CRS the whole file is read (and refused later)
        return None


def _spatial_layers(dataset: str) -> list[str]:
    """Names of the layers that hold geometry (File GDBs also hold plain tables)."""
    return [str(n) for n, t in pyogrio.list_layers(dataset) if t is not None]


def _layer_and_info(entry: _Entry, dataset: str, path: Path) -> tuple[str | None, dict]:
    """The layer to read (:func:`_pick_layer`) and what the file says of it (:func:`_info`).

    A ``layer`` the file holds under that very name, with geometry, is the one :func:`_pick_layer` would pick:
    its information is read straight away, without listing the file's layers (each listing opens the file
    again: about 1.5 ms for a GeoPackage). Otherwise the layers are listed, matched and refused as before.
    """
    wanted = entry.spec.get("layer")
    if wanted is not None:
        info = _info(dataset, str(wanted))
        if info.get("layer_name") == str(wanted) and info.get("geometry_type") is not None:
            return str(wanted), info
    name = _pick_layer(entry, dataset, path)
    return name, _info(dataset, name)


def _pick_layer(entry: _Entry, dataset: str, path: Path) -> str | None:
    """The layer to read: ``layer`` matched ignoring case, or the only map layer; else refuse, listing them."""
    wanted = entry.spec.get("layer")
    suffix = path.suffix.lower()
    if wanted is None and suffix in (".geojson", ".json", ".shp", ".fgb", ".csv"):
        return None
    names = _spatial_layers(dataset)
    if wanted is not None:
        exact = [n for n in names if n == str(wanted)]
        loose = exact or [n for n in names if n.lower() == str(wanted).lower()]
        if not loose:
            raise entry.fail(f"the file has no map layer named '{wanted}' (it has: {_list_names(names)})")
        return loose[0]
    if len(names) > 1:
        raise entry.fail(f"the file holds several map layers ({_list_names(names)}), so name one with 'layer'")
    return names[0] if names else None


def _list_names(names: list[str], limit: int = 15) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "") if names else "none"


def _zip_dataset(entry: _Entry, path: Path) -> str:
    """The GDAL path of the data inside a zip: a shapefile (``layer`` picks one of several, ignoring
    case) or a File Geodatabase folder."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except zipfile.BadZipFile as exc:
        raise entry.fail(f"the file {entry.filename} is not a valid zip archive") from exc
    names = [n for n in names if not n.startswith("__MACOSX/")]
    shps = [n for n in names if n.lower().endswith(".shp")]
    gdbs = sorted({n[: n.lower().index(".gdb/") + 4] for n in names if ".gdb/" in n.lower()})
    if gdbs and not shps:
        if len(gdbs) > 1:
            raise entry.fail(f"the zip archive holds several File Geodatabases ({_list_names(gdbs)}); unzip the one to use")
        return f"/vsizip/{path}/{gdbs[0]}"
    if not shps:
        raise entry.fail("the zip archive holds no shapefile (.shp) and no File Geodatabase (.gdb)")
    wanted = entry.spec.get("layer")
    stems = [PurePosixPath(n).stem for n in shps]
    if wanted:
        pick = [n for n, st in zip(shps, stems, strict=True) if st == str(wanted)] or [
            n for n, st in zip(shps, stems, strict=True) if st.lower() == str(wanted).lower()]
        if not pick:
            raise entry.fail(f"the zip archive has no shapefile named '{wanted}' (it has: {_list_names(stems)})")
        entry.spec = {**entry.spec, "layer": None}  # the shapefile is the dataset: its one layer
        return f"/vsizip/{path}/{pick[0]}"
    if len(shps) > 1:
        raise entry.fail(f"the zip archive holds several shapefiles ({_list_names(stems)}), so name one with 'layer'")
    return f"/vsizip/{path}/{shps[0]}"


def _read_all_layers(path: Path) -> gpd.GeoDataFrame:
    names = [str(n) for n, _ in pyogrio.list_layers(path)]
    frames = [pyogrio.read_dataframe(path, layer=n) for n in names]
    frames = [f for f in frames if len(f)] or frames[:1]
    if len(frames) == 1:
        return frames[0]
    return gpd.GeoDataFrame(pd.concat(frames, ignore_index=True), geometry="geometry", crs=frames[0].crs)


def ids_as_text(values: pd.Series) -> pd.Series:
    """A column of identifiers as text, as the publisher wrote them: a numeric id (MapPLUTO's BBL, read
    from a shapefile or File GDB as a float) is ``"1000010010"``, never ``"1000010010.0"``.

    Examples
    --------
    >>> ids_as_text(pd.Series([1000010010.0, None, 12.5, " 155.06-1-1 "])).tolist()
    ['1000010010', None, '12.5', '155.06-1-1']
    """
    def one(v: Any) -> str | None:
        if _is_missing(v):
            return None
        if isinstance(v, (float, np.floating)):
            f = float(v)
            if f.is_integer() and abs(f) < 2**53:
                return str(int(f))
            return repr(f)
        if isinstance(v, (bytes, bytearray)):
            v = v.decode("utf-8", "replace")
        text = str(v).strip()
        return text or None

    return pd.Series([one(v) for v in values.tolist()], index=values.index, dtype=object)


def _shape_for_role(
    entry: _Entry, role: str, gdf: gpd.GeoDataFrame, width_ft: float, warnings: list[str]
) -> tuple[gpd.GeoDataFrame, gpd.GeoDataFrame | None]:
    """Check geometry types for ``role``, repair polygons, buffer watercourse lines.

    Returns (polygons GeoDataFrame, original lines GeoDataFrame or None).
    """
    if not len(gdf):  # no feature: no type to check, nothing to repair
        return gdf.reset_index(drop=True), None
    types = gdf.geom_type.to_numpy()
    allowed = _POLY_TYPES | {"GeometryCollection"} | (_LINE_TYPES if role in LINE_ROLES else set())
    bad = sorted({str(t) for t in types} - allowed)
    if bad:
        wants = "polygons or lines" if role in LINE_ROLES else "polygons (areas)"
        raise entry.fail(f"the file holds {', '.join(bad)} features, but the {role} layer needs {wants}")
    geoms = shapely.force_2d(np.asarray(gdf.geometry.values, dtype=object))
    is_line = np.isin(types, list(_LINE_TYPES))
    lines_gdf = None
    if is_line.any():
        line_rows = gdf[is_line].copy()
        line_rows = line_rows.set_geometry(gpd.GeoSeries(geoms[is_line], index=line_rows.index, crs=WORK_CRS))
        widths = np.full(len(line_rows), width_ft, dtype=float)
        wf = entry.spec.get("width_field")
        if wf:
            col = _field(line_rows, str(wf))
            if col is None:
                warnings.append(f"{entry.source}: width_field '{wf}' is not in the file ({_fields_listed(line_rows)}); "
                                f"{width_ft:g} ft was used.")
            else:
                given = pd.to_numeric(line_rows[col], errors="coerce").to_numpy(dtype=float)
                ok = np.isfinite(given) & (given > 0)
                widths = np.where(ok, given, width_ft)
        lines_gdf = line_rows.reset_index(drop=True)
        buffered = shapely.buffer(geoms[is_line], widths / 2.0, cap_style="flat")
        geoms = geoms.copy()
        geoms[is_line] = buffered
    invalid = ~shapely.is_valid(geoms)
    if invalid.any():
        geoms = geoms.copy()
        # Tax parcels are outlines: the one outline policy (shells less holes), as for an uploaded parcel.
        geoms[invalid] = ([repair_outline(g) for g in geoms[invalid]] if role == "parcels"
                          else shapely.make_valid(geoms[invalid]))
    needs_extract = ~np.isin(shapely.get_type_id(geoms), [3, 6])  # Polygon, MultiPolygon
    if needs_extract.any():
        geoms = geoms.copy()
        geoms[needs_extract] = [polygonal_part(g) for g in geoms[needs_extract]]
    keep = ~shapely.is_empty(geoms)
    dropped = int((~keep).sum())
    _refuse_most_dropped(entry, dropped, len(keep), "have no area after repair (collapsed or degenerate outlines)")
    if dropped:
        warnings.append(f"{entry.source}: {dropped} feature(s) had no area after repair and were skipped.")
    out = gdf if keep.all() else gdf[keep]  # set_geometry gives a new frame: no copy needed before it
    out = out.set_geometry(gpd.GeoSeries(geoms[keep], index=out.index, crs=WORK_CRS))
    return out.reset_index(drop=True), lines_gdf
