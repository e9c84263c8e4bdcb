"""Slopes from the elevation model (DEM), measured over a parcel.

Article IX sorts land by slope: § 402-45A(2) deducts land "in excess of 25%" and "in excess of 40%"
from the lot area it counts, § 402-48 looks at slopes "over 15%", and the steep slope permit
(§ 402-55) covers slopes of "25% or greater". This module turns a DEM into those numbers.

Method
------
* Slope is computed by Horn's method in percent, exactly as ``gdaldem slope -p`` does it (scale 1,
  absolute cell sizes, no value at the raster edge or next to a nodata cell: gdaldem's default
  without ``-compute_edges``). See :func:`horn_slope_percent`.
* Only the window of the DEM around the parcel is read, padded by one cell so the 3 x 3 kernel has
  neighbours for every cell the parcel touches.
* Each DEM cell is a square of uniform slope. The share of each cell the parcel covers is computed
  exactly (:mod:`sloat_core.gis.coverage`), so a cell the parcel half covers counts for half its area. The part of the parcel not covered by a
  cell with a valid slope (outside the DEM, a nodata cell, or a DEM edge cell) is "unknown".
* Class edges (thresholds from the parameters file): ``"0-15"`` is s <= 15; ``"15-25"`` is
  15 < s <= 25; ``"25-40"`` is 25 < s <= 40; ``"over_40"`` is s > 40.

Coordinate systems
------------------
The DEM must be in EPSG:2260 (NAD83 / New York East, US survey feet), the working CRS of the whole
project, or an equivalent definition such as ESRI:102715 (used as it is, never resampled). Its
elevation unit must be known: a manifest's DEM goes through :func:`prepare_dem`, which takes the
unit from the file's vertical CRS or band unit, else from ``z_units`` on the manifest's ``dem``
entry, refuses a DEM with neither, and reads metres or international feet through a small VRT that
multiplies them into US survey feet (1 m = 3937/1200 US ft). A DEM opened directly (``slope_grid``)
whose file says its elevations are not in US survey feet is refused. A DEM in any other CRS is refused with a :class:`~sloat_core.errors.SloatInputError`
rather than resampled here: resampling changes slopes, so a DEM in another CRS should be warped
once, deliberately (``gdalwarp -t_srs EPSG:2260``), and the result checked. Geometries passed in
and returned are in EPSG:2260.
"""

from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import rasterio
import rasterio.features
import shapely
from affine import Affine
from pyproj import CRS
from rasterio.windows import Window
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.coverage import EdgePieces, edge_pieces, suffix_counts
from sloat_core.errors import DemUnitsError, SloatInputError
from sloat_core.law.params import param
from sloat_core.units import WORK_CRS

__all__ = [
    "PLAUSIBLE_ELEVATION_US_FT",
    "DemUnitsError",
    "PreparedDem",
    "Z_UNITS_TO_US_FT",
    "dem_vertical_unit",
    "normalize_z_units",
    "prepare_dem",
    "SLOPE_CLASS_COLORS",
    "SlopeGrid",
    "SlopeOverlay",
    "horn_slope_percent",
    "slope_class_labels",
    "slope_class_raster",
    "slope_classes",
    "slope_grid",
]

#: Overlay colours (RGBA) by class code: 0 unknown (transparent), then the four classes.
SLOPE_CLASS_COLORS: dict[int, tuple[int, int, int, int]] = {
    0: (0, 0, 0, 0),
    1: (0, 0, 0, 0),
    2: (255, 214, 0, 150),
    3: (255, 120, 0, 170),
    4: (200, 0, 0, 190),
}

# Window size (cells) above which the overlay is computed from a decimated read (approximate).
_OVERLAY_FULL_RES_MAX_CELLS = 16_000_000


def _thresholds_pct() -> tuple[float, float, float]:
    """The three class edges (15, 25, 40 today), read from the parameters file."""
    return (
        float(param("cluster_slope_threshold_pct").value),
        float(param("steep_slope_deduction_threshold_pct").value),
        float(param("very_steep_slope_threshold_pct").value),
    )


def slope_class_labels() -> tuple[str, str, str, str, str]:
    """Names of the slope classes, built from the thresholds in the parameters file.

    Returns
    -------
    tuple of str
        ``("0-15", "15-25", "25-40", "over_40", "unknown")`` with today's parameters; the order is
        class codes 1, 2, 3, 4 then unknown (code 0).
    """
    low, mid, high = (f"{t:g}" for t in _thresholds_pct())
    return (f"0-{low}", f"{low}-{mid}", f"{mid}-{high}", f"over_{high}", "unknown")


def horn_slope_percent(
    z: np.ndarray, xres: float, yres: float, nodata: float | None = None, *, float32_sums: bool = True
) -> np.ndarray:
    """Percent slope by Horn's method, cell for cell as ``gdaldem slope -p`` computes it.

    For the 3 x 3 window ``a b c / d e f / g h i`` around a cell::

        dz/dx = ((c + 2f + i) - (a + 2d + g)) / (8 * |xres|)
        dz/dy = ((g + 2h + i) - (a + 2b + c)) / (8 * |yres|)
        slope = 100 * sqrt(dz/dx**2 + dz/dy**2)

    Parameters
    ----------
    z : ndarray, 2-D
        Elevations, in the same unit as the cell sizes.
    xres, yres : float
        Cell width and height (signs are ignored, as gdaldem does).
    nodata : float, optional
        The DEM's nodata value. NaN elevations are always treated as nodata.
    float32_sums : bool, default True
        Sum the window in single precision, in gdaldem's order (``a + d + d + g`` ...), as
        gdaldem does for non-integer DEMs; results then agree with gdaldem to the precision of
        its Float32 output. ``False`` sums in double precision (differences of about 0.003
        percentage points on 5-ft cells at Sloatsburg's elevations).

    Returns
    -------
    ndarray of float64, same shape as ``z``
        Percent slope; NaN on the outer ring of cells and wherever any of the 9 cells of the
        window is nodata (gdaldem's default without ``-compute_edges``).

    Examples
    --------
    >>> z = np.tile(np.arange(5.0), (5, 1))   # rises 1 ft per 4-ft cell toward the east
    >>> float(horn_slope_percent(z, 4.0, -4.0)[2, 2])
    25.0
    """
    z = np.asarray(z, dtype=np.float64)
    if z.ndim != 2:
        raise ValueError("horn_slope_percent expects a 2-D array of elevations.")
    xres = abs(float(xres))
    yres = abs(float(yres))
    if not (xres > 0 and yres > 0 and math.isfinite(xres) and math.isfinite(yres)):
        raise SloatInputError("The elevation model's cell size must be a positive number of feet.")
    out = np.full(z.shape, np.nan)
    rows, cols = z.shape
    if rows < 3 or cols < 3:
        return out
    bad = ~np.isfinite(z)
    if nodata is not None and not (isinstance(nodata, float) and math.isnan(nodata)):
        bad |= z == nodata
    any_bad = bool(bad.any())
    zf = (np.where(bad, 0.0, z) if any_bad else z).astype(np.float32 if float32_sums else np.float64)
    # Window cells w0..w8, row-major from the top-left, as gdaldem names them.
    w0, w1, w2 = zf[:-2, :-2], zf[:-2, 1:-1], zf[:-2, 2:]
    w3, w5 = zf[1:-1, :-2], zf[1:-1, 2:]
    w6, w7, w8 = zf[2:, :-2], zf[2:, 1:-1], zf[2:, 2:]
    sx = ((((w0 + w3) + w3) + w6) - (((w2 + w5) + w5) + w8)).astype(np.float64)
    sy = ((((w6 + w7) + w7) + w8) - (((w0 + w1) + w1) + w2)).astype(np.float64)
    # Multiplying by 100 before dividing keeps exact slopes (25, 40, 15 ...) exact in binary.
    # (In place: the same operations in the same order, without temporary arrays.)
    np.multiply(sx, 100.0, out=sx)
    np.divide(sx, 8.0 * xres, out=sx)
    np.multiply(sy, 100.0, out=sy)
    np.divide(sy, 8.0 * yres, out=sy)
    # sqrt(dx^2 + dy^2) as gdaldem writes it (numpy's hypot is ten times slower here); a slope
    # along one axis stays exact, since sqrt(x * x) == |x| in IEEE arithmetic.
    np.multiply(sx, sx, out=sx)
    np.multiply(sy, sy, out=sy)
    np.add(sx, sy, out=sx)
    inner = out[1:-1, 1:-1]
    np.sqrt(sx, out=inner)
    if any_bad:
        # A cell is computable only if none of its 9 window cells is bad.
        badi = bad.astype(np.int8)
        window_bad = np.zeros((rows - 2, cols - 2), dtype=np.int8)
        for dr in range(3):
            for dc in range(3):
                window_bad |= badi[dr : dr + rows - 2, dc : dc + cols - 2]
        inner[window_bad.astype(bool)] = np.nan
    return out


def slope_classes(slope_pct: np.ndarray) -> np.ndarray:
    """Class codes for percent slopes: 0 unknown (NaN), 1 ``0-15``, 2 ``15-25``, 3 ``25-40``, 4 ``over_40``.

    Edges: s <= 15 is 1; 15 < s <= 25 is 2; 25 < s <= 40 is 3; s > 40 is 4 (thresholds from the
    parameters file).
    """
    low, mid, high = _thresholds_pct()
    s = np.asarray(slope_pct, dtype=np.float64)
    codes = np.zeros(s.shape, dtype=np.uint8)
    valid = np.isfinite(s)
    codes[valid & (s <= low)] = 1
    codes[valid & (s > low) & (s <= mid)] = 2
    codes[valid & (s > mid) & (s <= high)] = 3
    codes[valid & (s > high)] = 4
    return codes


def _check_geom(geom: Any, what: str = "parcel") -> BaseGeometry:
    if not isinstance(geom, BaseGeometry) or geom.is_empty:
        raise SloatInputError(f"The {what} outline is empty or not a shape.")
    if geom.geom_type not in ("Polygon", "MultiPolygon"):
        if geom.geom_type == "GeometryCollection":
            geom = shapely.union_all([g for g in geom.geoms if g.geom_type in ("Polygon", "MultiPolygon")])
        if geom.is_empty or geom.geom_type not in ("Polygon", "MultiPolygon"):
            raise SloatInputError(f"The {what} outline must be an area (a polygon), not a line or a point.")
    if not geom.is_valid:
        geom = shapely.make_valid(geom)
    return geom


def _is_work_crs(crs: CRS) -> bool:
    """True for EPSG:2260 or an equivalent definition (e.g. ESRI:102715, a .prj written by ArcGIS).

    Equivalent means: same projection to the hundredth of a foot at points around New York East and
    the same unit, so the grid can be used as it is, without resampling.
    """
    work = CRS.from_user_input(WORK_CRS)
    if crs.equals(work, ignore_axis_order=True) or crs.to_epsg() == 2260:
        return True
    if not crs.is_projected:
        return False
    try:
        unit = crs.axis_info[0].unit_conversion_factor
        if abs(unit - work.axis_info[0].unit_conversion_factor) > 1e-12:
            return False
        from pyproj import Transformer  # noqa: PLC0415

        tr = Transformer.from_crs(crs, work, always_xy=True)
        pts = [(400_000.0, 700_000.0), (573_765.0, 854_455.0), (700_000.0, 1_100_000.0)]
        for x, y in pts:
            x2, y2 = tr.transform(x, y)
            if abs(x2 - x) > 0.01 or abs(y2 - y) > 0.01:
                return False
    except Exception:  # noqa: BLE001 -- a CRS pyproj cannot transform is not equivalent
        return False
    return True


#: Vertical units a manifest may declare (``z_units:`` on the ``dem`` entry), with the factor that
#: turns them into US survey feet. 1 m = 3937/1200 US survey ft exactly (the survey foot's
#: definition); 1 international ft = 0.3048 m.
Z_UNITS_TO_US_FT: dict[str, float] = {
    "metre": 3937.0 / 1200.0,
    "foot": 0.3048 * 3937.0 / 1200.0,
    "us_survey_foot": 1.0,
}
_Z_ALIASES = {
    "metre": "metre", "meter": "metre", "metres": "metre", "meters": "metre", "m": "metre",
    "foot": "foot", "feet": "foot", "ft": "foot", "international foot": "foot", "international_foot": "foot",
    "us_survey_foot": "us_survey_foot", "us survey foot": "us_survey_foot", "us survey feet": "us_survey_foot",
    "us_survey_feet": "us_survey_foot", "ftus": "us_survey_foot", "us_ft": "us_survey_foot",
    "us-ft": "us_survey_foot", "foot_us": "us_survey_foot", "us foot": "us_survey_foot",
}

#: Elevations (US survey feet) no land surface has: below the Dead Sea shore or above Everest.
PLAUSIBLE_ELEVATION_US_FT = (-1_500.0, 29_100.0)


def normalize_z_units(text: Any) -> str | None:
    """A vertical unit name as one of :data:`Z_UNITS_TO_US_FT`'s keys, or None when not recognised.

    Examples
    --------
    >>> [normalize_z_units(u) for u in ("m", "Meter", "US survey foot", "ft", "cubits")]
    ['metre', 'metre', 'us_survey_foot', 'foot', None]
    """
    if text is None:
        return None
    key = str(text).strip().lower().replace("-", " ").replace("  ", " ")
    return _Z_ALIASES.get(key) or _Z_ALIASES.get(key.replace(" ", "_"))


def _vertical_unit_of_crs(crs: CRS) -> str | None:
    """The unit of a compound CRS's vertical part, normalised, or None (no vertical part)."""
    if not (crs.is_compound and len(crs.sub_crs_list) > 1):
        return None
    vert = crs.sub_crs_list[1]
    if not vert.axis_info:
        return None
    info = vert.axis_info[0]
    name = normalize_z_units(info.unit_name)
    if name is not None:
        return name
    factor = info.unit_conversion_factor
    for unit, to_ft in Z_UNITS_TO_US_FT.items():
        if abs(to_ft * 1200.0 / 3937.0 - factor) < 1e-9:
            return unit
    return "unrecognised:" + str(info.unit_name)


def dem_vertical_unit(src: rasterio.io.DatasetReader) -> tuple[str | None, str]:
    """What the file itself says about its elevation unit: ``(unit or None, where it says so)``.

    The vertical CRS of a compound CRS first; else the band's unit type (GDAL metadata), if any.
    """
    if src.crs is not None:
        crs = CRS.from_wkt(src.crs.to_wkt())
        unit = _vertical_unit_of_crs(crs)
        if unit is not None:
            return unit, f"its vertical coordinate system ({crs.sub_crs_list[1].name})"
    band_unit = (src.units or (None,))[0] if src.count else None
    if band_unit:
        unit = normalize_z_units(band_unit)
        return (unit or "unrecognised:" + str(band_unit)), f"its band unit ('{band_unit}')"
    return None, ""


def _check_dem_crs(src: rasterio.io.DatasetReader, dem_path: Path) -> None:
    if src.crs is None:
        raise SloatInputError(
            f"The elevation model {dem_path.name} has no coordinate system; it must be in EPSG:2260 "
            "(NAD83 / New York East, US survey feet)."
        )
    crs = CRS.from_wkt(src.crs.to_wkt())
    vertical, _ = dem_vertical_unit(src)
    if crs.is_compound and crs.sub_crs_list:
        crs = crs.sub_crs_list[0]
    if not _is_work_crs(crs):
        raise SloatInputError(
            f"The elevation model must be in EPSG:2260 (NAD83 / New York East, US survey feet), but "
            f"{dem_path.name} is in {crs.name}; warp it once with gdalwarp -t_srs EPSG:2260 and name it "
            "in the layer manifest with its elevation unit (z_units: metre, foot or us_survey_foot)."
        )
    if vertical is not None and vertical != "us_survey_foot":
        raise SloatInputError(
            f"The elevations of {dem_path.name} are in {vertical.split(':')[-1]}, not US survey feet; "
            "name it in the layer manifest's dem entry, which converts them."
        )
    t = src.transform
    if t.b != 0 or t.d != 0 or t.a <= 0 or t.e >= 0:
        raise SloatInputError(
            f"The elevation model {dem_path.name} must be a north-up grid without rotation."
        )


@dataclass(frozen=True)
class PreparedDem:
    """A DEM named by a manifest, ready for slopes: a path to read, in EPSG:2260 and US survey feet.

    Attributes
    ----------
    path : pathlib.Path
        The file to read: the original, or a small GDAL VRT next to nothing the office owns (in the
        temporary directory) that multiplies elevations by ``z_factor`` and states EPSG:2260. The
        grid is never resampled.
    source : pathlib.Path
        The file the manifest names.
    z_units : str
        The elevation unit of ``source`` (a key of :data:`Z_UNITS_TO_US_FT`).
    z_units_from : str
        Where the unit came from ("its vertical coordinate system (...)", "z_units in the manifest").
    z_factor : float
        Multiplier to US survey feet.
    elevation_range_us_ft : tuple of float or None
        Lowest and highest elevation in US survey feet (from a decimated read), None if all nodata.
    warnings : tuple of str
        Things to show (implausible elevations).
    """

    path: Path
    source: Path
    z_units: str
    z_units_from: str
    z_factor: float
    elevation_range_us_ft: tuple[float, float] | None
    warnings: tuple[str, ...] = ()


def _vrt_text(src: rasterio.io.DatasetReader, source: Path, factor: float) -> str:
    from xml.sax.saxutils import escape  # noqa: PLC0415

    t = src.transform
    wkt = escape(CRS.from_user_input(WORK_CRS).to_wkt())
    nodata = src.nodata
    nd = "" if nodata is None else f"<NoDataValue>{nodata!r}</NoDataValue>"
    src_nd = "" if nodata is None else f"<NODATA>{nodata!r}</NODATA>"
    w, h = src.width, src.height
    return (
        f'<VRTDataset rasterXSize="{w}" rasterYSize="{h}">\n'
        f"  <SRS>{wkt}</SRS>\n"
        f"  <GeoTransform>{t.c!r}, {t.a!r}, {t.b!r}, {t.f!r}, {t.d!r}, {t.e!r}</GeoTransform>\n"
        f'  <VRTRasterBand dataType="Float64" band="1">\n    {nd}\n'
        "    <UnitType>US survey foot</UnitType>\n"
        "    <ComplexSource>\n"
        f'      <SourceFilename relativeToVRT="0">{escape(str(source))}</SourceFilename>\n'
        "      <SourceBand>1</SourceBand>\n"
        f'      <SrcRect xOff="0" yOff="0" xSize="{w}" ySize="{h}"/>\n'
        f'      <DstRect xOff="0" yOff="0" xSize="{w}" ySize="{h}"/>\n'
        f"      {src_nd}\n"
        f"      <ScaleOffset>0</ScaleOffset><ScaleRatio>{factor!r}</ScaleRatio>\n"
        "    </ComplexSource>\n  </VRTRasterBand>\n</VRTDataset>\n"
    )


def _vrt_path(source: Path, factor: float) -> Path:
    import hashlib  # noqa: PLC0415
    import os  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    st = source.stat()
    key = f"{source.resolve()}|{st.st_size}|{st.st_mtime_ns}|{factor!r}".encode()
    folder = Path(tempfile.gettempdir()) / f"sloat-dem-{os.getuid() if hasattr(os, 'getuid') else 'u'}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"{source.stem[:40]}-{hashlib.sha256(key).hexdigest()[:16]}.vrt"


def prepare_dem(dem_path: str | Path, z_units: Any = None) -> PreparedDem:
    """Check a DEM named by a manifest and make its elevations read as US survey feet.

    The elevation unit comes from the file (its vertical CRS, else its band unit type) or from
    ``z_units`` (``metre``, ``foot``, ``us_survey_foot``); a DEM with neither is refused, never read
    silently as feet, and so is a declared unit that contradicts the file. Elevations outside
    :data:`PLAUSIBLE_ELEVATION_US_FT` after conversion are refused too (the unit must be wrong).

    Raises
    ------
    SloatInputError
        One sentence, saying how to declare the unit where it is missing.
    """
    source = Path(dem_path)
    if not source.is_file():
        raise SloatInputError(f"The elevation model file {source.name} was not found.")
    declared = None
    if z_units is not None:
        declared = normalize_z_units(z_units)
        if declared is None:
            raise DemUnitsError(
                f"The dem entry's z_units '{z_units}' is not one of metre, foot or us_survey_foot."
            )
    try:
        src = rasterio.open(source)
    except rasterio.errors.RasterioIOError as exc:
        raise SloatInputError(f"The elevation model {source.name} could not be read as a raster.") from exc
    with src:
        if src.crs is None:
            raise SloatInputError(
                f"The elevation model {source.name} has no coordinate system; it must be in EPSG:2260 "
                "(NAD83 / New York East, US survey feet)."
            )
        crs = CRS.from_wkt(src.crs.to_wkt())
        horizontal = crs.sub_crs_list[0] if crs.is_compound and crs.sub_crs_list else crs
        if not _is_work_crs(horizontal):
            raise SloatInputError(
                f"The elevation model must be in EPSG:2260 (NAD83 / New York East, US survey feet), but "
                f"{source.name} is in {horizontal.name}; warp it once with gdalwarp -t_srs EPSG:2260 "
                "(elevations may stay in metres: declare them with z_units: metre on the dem entry)."
            )
        t = src.transform
        if t.b != 0 or t.d != 0 or t.a <= 0 or t.e >= 0:
            raise SloatInputError(f"The elevation model {source.name} must be a north-up grid without rotation.")
        found, where = dem_vertical_unit(src)
        if found is not None and found.startswith("unrecognised:"):
            if declared is None:
                raise DemUnitsError(
                    f"The elevation model {source.name} gives its elevation unit as "
                    f"'{found.split(':', 1)[1]}', which is not known here; declare it with z_units: metre, "
                    "foot or us_survey_foot on the manifest's dem entry."
                )
            found = None
        if found is not None and declared is not None and found != declared:
            raise DemUnitsError(
                f"The manifest's dem entry says z_units: {declared}, but {source.name} says by {where} that "
                f"its elevations are in {found}; correct or remove z_units."
            )
        unit = found or declared
        if unit is None:
            raise DemUnitsError(
                f"The elevation model {source.name} does not say whether its elevations are in metres or feet; "
                "declare it on the manifest's dem entry, e.g. dem: {path: " + source.name + ", z_units: metre} "
                "(or foot, us_survey_foot)."
            )
        origin = where if found else "z_units in the manifest"
        factor = Z_UNITS_TO_US_FT[unit]
        # Range check on a decimated read (at most ~1 million cells).
        step = max(1, math.ceil(math.sqrt(src.width * src.height / 1_000_000)))
        shape = (max(1, src.height // step), max(1, src.width // step))
        z = src.read(1, out_shape=shape, masked=True, resampling=rasterio.enums.Resampling.nearest)
        vals = np.asarray(z.compressed(), dtype=np.float64)
        vals = vals[np.isfinite(vals)]
        erange = None
        if vals.size:
            erange = (float(vals.min()) * factor, float(vals.max()) * factor)
            lo, hi = PLAUSIBLE_ELEVATION_US_FT
            if erange[0] < lo or erange[1] > hi:
                raise DemUnitsError(
                    f"The elevations of {source.name} read as {unit.replace('_', ' ')} run from "
                    f"{erange[0]:,.0f} to {erange[1]:,.0f} US survey feet, which no land has; "
                    "check the unit (z_units on the manifest's dem entry) and the nodata value."
                )
        needs_vrt = factor != 1.0 or not (crs.to_epsg() == 2260 or horizontal.to_epsg() == 2260) or crs.is_compound
        path = source
        if needs_vrt:
            path = _vrt_path(source, factor)
            if not path.is_file():
                tmp = path.with_suffix(f".{threading.get_ident()}.tmp")
                tmp.write_text(_vrt_text(src, source.resolve(), factor), encoding="utf-8")
                tmp.replace(path)
    return PreparedDem(path=path, source=source, z_units=unit, z_units_from=origin, z_factor=factor,
                       elevation_range_us_ft=erange)


def _open_dem(dem_path: str | Path) -> tuple[Path, rasterio.io.DatasetReader]:
    dem_path = Path(dem_path)
    if not dem_path.exists():
        raise SloatInputError(f"The elevation model file {dem_path.name} was not found.")
    try:
        src = rasterio.open(dem_path)
    except rasterio.errors.RasterioIOError as exc:
        raise SloatInputError(f"The elevation model {dem_path.name} could not be read as a raster.") from exc
    try:
        _check_dem_crs(src, dem_path)
    except Exception:
        src.close()
        raise
    return dem_path, src


class _OpenDems:
    """DEMs kept open between analyses, one checked handle per file, each read under its own lock.

    Opening a DEM and checking its coordinate system costs about a millisecond, and closing it drops
    the blocks GDAL has decompressed: reading the window of a 100-acre parcel from a fresh handle of
    a DEFLATE-compressed GeoTIFF costs more than computing its slopes. A file that changes on disk
    (size, time or inode) is opened and checked again. Handles are not shared between threads
    without the lock: rasterio datasets are not thread-safe.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[Path, tuple[tuple, rasterio.io.DatasetReader, threading.Lock]] = {}

    @contextlib.contextmanager
    def reader(self, dem_path: str | Path):
        """The open, checked dataset for ``dem_path``, held under its lock for the ``with`` block."""
        path = Path(dem_path)
        try:
            st = path.stat()
        except OSError:
            raise SloatInputError(f"The elevation model file {path.name} was not found.") from None
        key = (st.st_size, st.st_mtime_ns, st.st_ino)
        with self._lock:
            entry = self._open.get(path)
            if entry is None or entry[0] != key:
                if entry is not None:
                    with entry[2]:
                        entry[1].close()
                _, src = _open_dem(path)
                entry = (key, src, threading.Lock())
                self._open[path] = entry
        with entry[2]:
            yield entry[1]

    def close_all(self) -> None:
        with self._lock:
            for _, src, lock in self._open.values():
                with lock:
                    src.close()
            self._open.clear()


_DEMS = _OpenDems()


def _window_for_bounds(transform: Affine, width: int, height: int, bounds, pad_cells: int) -> Window | None:
    """Whole-cell window covering ``bounds`` plus ``pad_cells``, clipped to the raster; None if empty."""
    minx, miny, maxx, maxy = bounds
    col0 = math.floor((minx - transform.c) / transform.a) - pad_cells
    col1 = math.ceil((maxx - transform.c) / transform.a) + pad_cells
    row0 = math.floor((maxy - transform.f) / transform.e) - pad_cells
    row1 = math.ceil((miny - transform.f) / transform.e) + pad_cells
    col0, col1 = max(col0, 0), min(col1, width)
    row0, row1 = max(row0, 0), min(row1, height)
    if col1 <= col0 or row1 <= row0:
        return None
    return Window(col0, row0, col1 - col0, row1 - row0)


@dataclass(frozen=True, eq=False)
class SlopeGrid:
    """Percent slopes for the DEM window around one parcel.

    Attributes
    ----------
    geom : shapely Polygon or MultiPolygon
        The parcel (EPSG:2260) the grid was read for.
    slope_pct : ndarray of float64
        Percent slope per cell of the window (NaN where unknown). Shape (0, 0) when the parcel lies
        wholly outside the DEM.
    transform : affine.Affine
        Geotransform of the window (EPSG:2260, feet).
    dem_path : pathlib.Path
        The DEM file.
    """

    geom: BaseGeometry
    slope_pct: np.ndarray
    transform: Affine
    dem_path: Path
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def cell_area_sqft(self) -> float:
        """Area of one DEM cell in square feet."""
        return abs(self.transform.a * self.transform.e)

    @property
    def classes(self) -> np.ndarray:
        """Class codes per cell (see :func:`slope_classes`)."""
        if "classes" not in self._cache:
            self._cache["classes"] = slope_classes(self.slope_pct)
        return self._cache["classes"]

    # -- cell bookkeeping -------------------------------------------------------------------
    def _pieces(self, geom: BaseGeometry) -> EdgePieces:
        """The outline of ``geom`` cut at the window's cell lines; cached per geometry."""
        key = ("pieces", geom.wkb)
        if key not in self._cache:
            self._cache[key] = edge_pieces(geom, self.transform, self.slope_pct.shape)
        return self._cache[key]

    def _suffix(self, cells: np.ndarray) -> np.ndarray:
        """`suffix_counts` of a set of cells, cached per array (kept alive here, so its id is unique)."""
        key = ("suffix", id(cells))
        entry = self._cache.get(key)
        if entry is None or entry[0] is not cells:
            entry = (cells, suffix_counts(cells))
            self._cache[key] = entry
        return entry[1]

    def coverage(self, geom: BaseGeometry | None = None) -> np.ndarray:
        """Share (0 to 1) of each cell of the window covered by ``geom`` (default: the parcel).

        Exact for any polygon (:func:`sloat_core.gis.coverage.cell_coverage`); parts of ``geom`` outside
        the window cover nothing here.
        """
        return self._pieces(self.geom if geom is None else geom).dense()

    def _class_cells(self, code: int) -> np.ndarray:
        key = ("class", code)
        if key not in self._cache:
            self._cache[key] = self.classes == code
        return self._cache[key]

    def mask(self, *, gt: float | None = None, ge: float | None = None, le: float | None = None,
             lt: float | None = None) -> np.ndarray:
        """Cells whose slope is known and satisfies the bounds (> gt, >= ge, <= le, < lt percent)."""
        key = ("mask", gt, ge, le, lt)
        if key not in self._cache:
            s = self.slope_pct
            m = np.isfinite(s)
            with np.errstate(invalid="ignore"):
                if gt is not None:
                    m &= s > gt
                if ge is not None:
                    m &= s >= ge
                if le is not None:
                    m &= s <= le
                if lt is not None:
                    m &= s < lt
            self._cache[key] = m
        return self._cache[key]

    def area_sqft(self, geom: BaseGeometry | None = None, *, cells: np.ndarray | None = None) -> float:
        """Area of ``geom`` (default: the parcel) lying on the window's ``cells`` (a boolean mask), sq ft.

        ``grid.area_sqft(g, cells=grid.mask(ge=25))`` is the land of ``g`` on slopes of 25 % or greater:
        the same number as ``grid.region(ge=25).intersection(g).area``, without building the region.
        """
        pieces = self._pieces(self.geom if geom is None else geom)
        if cells is None:
            return pieces.share_of() * self.cell_area_sqft
        return pieces.share_of(cells, self._suffix(cells)) * self.cell_area_sqft

    def class_areas_sqft(self, geom: BaseGeometry | None = None) -> dict[str, float]:
        """Area of ``geom`` (default: the parcel) in each slope class, in square feet.

        Parameters
        ----------
        geom : shapely Polygon or MultiPolygon, optional
            An area in EPSG:2260, normally the parcel or a part of it. Parts of it outside the window
            read for the parcel count as unknown.

        Returns
        -------
        dict
            ``{"0-15", "15-25", "25-40", "over_40", "unknown"}`` -> square feet; the five values sum
            to the area of ``geom``. Unknown is the part not covered by a cell with a valid slope.
        """
        geom = self.geom if geom is None else _check_geom(geom, "area")
        labels = slope_class_labels()
        totals = np.zeros(5)
        pieces = self._pieces(geom)
        for k in range(1, 5):
            cells = self._class_cells(k)
            totals[k] = pieces.share_of(cells, self._suffix(cells)) * self.cell_area_sqft
        total_area = geom.area
        known = float(totals[1:].sum())
        result = {labels[k - 1]: float(totals[k]) for k in range(1, 5)}
        result[labels[4]] = max(total_area - known, 0.0)
        return result

    # -- geometries -------------------------------------------------------------------------
    def _mask_region(self, mask: np.ndarray) -> BaseGeometry:
        """The part of the parcel covered by cells where ``mask`` is true."""
        if not mask.any():
            return shapely.Polygon()
        mask = mask & (self.coverage() > 0)
        if not mask.any():
            return shapely.Polygon()
        # Polygonize only the rows and columns that hold masked cells (same cells, same corners).
        rows_any = np.nonzero(mask.any(axis=1))[0]
        cols_any = np.nonzero(mask.any(axis=0))[0]
        r0, r1 = int(rows_any[0]), int(rows_any[-1]) + 1
        c0, c1 = int(cols_any[0]), int(cols_any[-1]) + 1
        sub = np.ascontiguousarray(mask[r0:r1, c0:c1])
        transform = self.transform * Affine.translation(c0, r0) if (r0 or c0) else self.transform
        cells = shapely.coverage_union_all(_polygons(
            rasterio.features.shapes(sub.astype(np.uint8), mask=sub, transform=transform, connectivity=4)
        ))
        out = shapely.intersection(cells, self.geom)
        return _polygonal(out)

    def region(
        self,
        *,
        gt: float | None = None,
        ge: float | None = None,
        le: float | None = None,
        lt: float | None = None,
        lo_exclusive: float | None = None,
        lo_inclusive: float | None = None,
        hi_inclusive: float | None = None,
    ) -> BaseGeometry:
        """The part of the parcel where the slope satisfies the given bounds (EPSG:2260).

        Parameters
        ----------
        gt, ge, le, lt : float, optional
            Slope > gt, >= ge, <= le, < lt (percent). ``region(gt=25, le=40)`` is the 25-40 class,
            ``region(gt=40)`` land "in excess of 40%", ``region(ge=25)`` the steep slope permit's
            "25% or greater". Cells of unknown slope are never included.
        lo_exclusive, lo_inclusive, hi_inclusive : float, optional
            Aliases of ``gt``, ``ge`` and ``le`` (the names in the module map).

        Returns
        -------
        shapely Polygon or MultiPolygon (possibly empty)
        """
        gt = gt if gt is not None else lo_exclusive
        ge = ge if ge is not None else lo_inclusive
        le = le if le is not None else hi_inclusive
        key = ("region", gt, ge, le, lt)
        if key not in self._cache:
            self._cache[key] = self._mask_region(self.mask(gt=gt, ge=ge, le=le, lt=lt))
        return self._cache[key]

    def unknown_region(self) -> BaseGeometry:
        """The part of the parcel without a valid slope (outside the DEM, nodata, or DEM edge)."""
        if "unknown" not in self._cache:
            # The cells of unknown slope plus the part of the parcel outside the window read. Subtracting
            # the known part from the parcel instead gives the same set, but overlaying two nearly
            # identical outlines is GEOS's slowest case (minutes for 200,000 vertices).
            n_rows, n_cols = self.slope_pct.shape
            if n_rows == 0 or n_cols == 0:
                self._cache["unknown"] = _polygonal(self.geom)
            else:
                t = self.transform
                xs, ys = (t.c, t.c + n_cols * t.a), (t.f, t.f + n_rows * t.e)
                window = shapely.box(min(xs), min(ys), max(xs), max(ys))
                outside = shapely.Polygon() if window.covers(self.geom) else self.geom.difference(window)
                no_data = self._mask_region(~np.isfinite(self.slope_pct))
                parts = [g for g in (no_data, _polygonal(outside)) if not g.is_empty]
                self._cache["unknown"] = _polygonal(shapely.union_all(parts)) if parts else shapely.Polygon()
        return self._cache["unknown"]


def _polygons(shapes) -> np.ndarray:
    """Polygons from ``rasterio.features.shapes`` output, built in one vectorised call."""
    coords: list = []
    ring_ends = [0]
    poly_ends = [0]
    for g, _v in shapes:
        for ring in g["coordinates"]:
            coords.extend(ring)
            ring_ends.append(len(coords))
        poly_ends.append(len(ring_ends) - 1)
    return shapely.from_ragged_array(
        shapely.GeometryType.POLYGON,
        np.asarray(coords, dtype=np.float64).reshape(-1, 2),
        (np.asarray(ring_ends, dtype=np.int64), np.asarray(poly_ends, dtype=np.int64)),
    )


def _polygonal(geom: BaseGeometry) -> BaseGeometry:
    """Keep only the areal part of an overlay result (drop slivers of lines and points)."""
    if geom.is_empty:
        return shapely.Polygon()
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        return geom
    parts = [g for g in shapely.get_parts(geom) if g.geom_type in ("Polygon", "MultiPolygon")]
    if not parts:
        return shapely.Polygon()
    return shapely.union_all(parts)


def slope_grid(dem_path: str | Path, geom: BaseGeometry, pad_cells: int = 1) -> SlopeGrid:
    """Read the DEM window around a parcel and compute its slopes.

    Parameters
    ----------
    dem_path : str or Path
        A single-band DEM in EPSG:2260 with elevations in US survey feet.
    geom : shapely Polygon or MultiPolygon
        The parcel, in EPSG:2260.
    pad_cells : int, default 1
        Extra cells read around the parcel's bounds so the Horn kernel has neighbours (at least 1).

    Returns
    -------
    SlopeGrid

    Raises
    ------
    SloatInputError
        The DEM is missing, unreadable, without a coordinate system, or not in EPSG:2260; the
        parcel is empty or not an area.
    """
    if int(pad_cells) < 1:
        raise ValueError("pad_cells must be at least 1 so the slope kernel has neighbours.")
    geom = _check_geom(geom)
    dem_path = Path(dem_path)
    with _DEMS.reader(dem_path) as src:
        win = _window_for_bounds(src.transform, src.width, src.height, geom.bounds, int(pad_cells))
        if win is None:
            return SlopeGrid(geom, np.zeros((0, 0)), src.transform, dem_path)
        z = src.read(1, window=win, out_dtype=np.float64)
        wt = src.window_transform(win)
        slope = horn_slope_percent(z, wt.a, wt.e, nodata=src.nodata)
    return SlopeGrid(geom, slope, wt, dem_path)


@dataclass(frozen=True)
class SlopeOverlay:
    """A small picture of the slope classes for a map.

    Attributes
    ----------
    rgba : ndarray of uint8, shape (rows, cols, 4)
        Colours from :data:`SLOPE_CLASS_COLORS` (flat and unknown land transparent).
    classes : ndarray of uint8, shape (rows, cols)
        Class codes (see :func:`slope_classes`).
    bounds : tuple of float
        (minx, miny, maxx, maxy) of the picture in EPSG:2260.
    cell_size_ft : float
        Ground size of one picture cell.
    labels : tuple of str
        Class names for codes 1-4 then unknown.
    """

    rgba: np.ndarray
    classes: np.ndarray
    bounds: tuple[float, float, float, float]
    cell_size_ft: float
    labels: tuple[str, ...]


def slope_class_raster(
    dem_path: str | Path, bounds: tuple[float, float, float, float], *, max_size: int = 1000
) -> SlopeOverlay | None:
    """Slope classes over a rectangle, downsampled for a map overlay.

    Slopes are computed at the DEM's full resolution and then thinned by taking every n-th cell
    (nearest neighbour), so that neither side exceeds ``max_size`` cells. Very large areas (over
    16 million cells) are read decimated first, which smooths slopes: the picture is for looking,
    the numbers come from :func:`slope_grid`.

    Parameters
    ----------
    dem_path : str or Path
        DEM in EPSG:2260.
    bounds : tuple
        (minx, miny, maxx, maxy) in EPSG:2260.
    max_size : int, default 1000
        Largest number of picture cells on either side.

    Returns
    -------
    SlopeOverlay or None
        None when the rectangle misses the DEM.
    """
    dem_path, src = _open_dem(dem_path)
    with src:
        win = _window_for_bounds(src.transform, src.width, src.height, bounds, 1)
        if win is None:
            return None
        h, w = int(win.height), int(win.width)
        wt = src.window_transform(win)
        if h * w > _OVERLAY_FULL_RES_MAX_CELLS:
            factor = math.ceil(math.sqrt(h * w / _OVERLAY_FULL_RES_MAX_CELLS))
            out_shape = (max(h // factor, 3), max(w // factor, 3))
            z = src.read(1, window=win, out_shape=out_shape, out_dtype=np.float64,
                         resampling=rasterio.enums.Resampling.average)
            wt = wt @ Affine.scale(w / out_shape[1], h / out_shape[0])
        else:
            z = src.read(1, window=win, out_dtype=np.float64)
        slope = horn_slope_percent(z, wt.a, wt.e, nodata=src.nodata)
    codes = slope_classes(slope)
    step = max(1, math.ceil(max(codes.shape) / max_size))
    codes = codes[::step, ::step]
    palette = np.array([SLOPE_CLASS_COLORS[k] for k in range(5)], dtype=np.uint8)
    rgba = palette[codes]
    cell_w, cell_h = wt.a * step, -wt.e * step
    minx = wt.c
    maxy = wt.f
    maxx = minx + codes.shape[1] * cell_w
    miny = maxy - codes.shape[0] * cell_h
    return SlopeOverlay(rgba, codes, (minx, miny, maxx, maxy), float(cell_w), slope_class_labels())
