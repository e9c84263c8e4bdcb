"""The elevation model (DEM) as it comes in: its coordinate system, its elevation unit, one open handle per file.

The DEM must be in EPSG:2260 (NAD83 / New York East, US survey feet), the working CRS of the whole
project, or an equivalent definition such as ESRI:102715 (used as it is, never resampled). Its
elevation unit must be known: a manifest's DEM goes through :func:`prepare_dem`, which takes the
unit from the file's vertical CRS or band unit, else from ``z_units`` on the manifest's ``dem``
entry, refuses a DEM with neither, and reads metres or international feet through a small VRT that
multiplies them into US survey feet (1 m = 3937/1200 US ft). A DEM opened directly (:func:`open_dem`)
whose file says its elevations are not in US survey feet is refused. A DEM in any other CRS is refused
with a :class:`~sloat_core.errors.SloatInputError` rather than resampled here: resampling changes slopes,
so a DEM in another CRS should be warped once, deliberately (``gdalwarp -t_srs EPSG:2260``), and the
result checked.

The slopes themselves are :mod:`sloat_core.gis.slope` (the maths), :mod:`sloat_core.gis.slope_grid` (one
parcel's window) and :mod:`sloat_core.gis.slope_picture` (the map's picture).
"""

from __future__ import annotations

import contextlib
import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import rasterio
from affine import Affine
from pyproj import CRS
from rasterio.windows import Window

from sloat_core.errors import DemUnitsError, SloatInputError
from sloat_core.units import WORK_CRS

__all__ = [
    "PLAUSIBLE_ELEVATION_US_FT",
    "DemUnitsError",
    "PreparedDem",
    "Z_UNITS_TO_US_FT",
    "DEM_READERS",
    "check_dem_crs",
    "dem_vertical_unit",
    "is_work_crs",
    "normalize_z_units",
    "open_dem",
    "prepare_dem",
    "window_for_bounds",
]


def is_work_crs(crs: CRS) -> bool:
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


def check_dem_crs(src: rasterio.io.DatasetReader, dem_path: Path) -> None:
    if src.crs is None:
        raise SloatInputError(
            f"The elevation model {dem_path.name} has no coordinate system; it must be in EPSG:2260 "
            "(NAD83 / New York East, US survey feet)."
        )
    crs = CRS.from_wkt(src.crs.to_wkt())
    vertical, _ = dem_vertical_unit(src)
    if crs.is_compound and crs.sub_crs_list:
        crs = crs.sub_crs_list[0]
    if not is_work_crs(crs):
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
        if not is_work_crs(horizontal):
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


def open_dem(dem_path: str | Path) -> tuple[Path, rasterio.io.DatasetReader]:
    dem_path = Path(dem_path)
    if not dem_path.exists():
        raise SloatInputError(f"The elevation model file {dem_path.name} was not found.")
    try:
        src = rasterio.open(dem_path)
    except rasterio.errors.RasterioIOError as exc:
        raise SloatInputError(f"The elevation model {dem_path.name} could not be read as a raster.") from exc
    try:
        check_dem_crs(src, dem_path)
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
                _, src = open_dem(path)
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


#: The DEM handles kept open between analyses (`_OpenDems`); ``DEM_READERS.close_all()`` drops them.
DEM_READERS = _OpenDems()


def window_for_bounds(transform: Affine, width: int, height: int, bounds, pad_cells: int) -> Window | None:
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
