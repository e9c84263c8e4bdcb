"""Percent slopes of the DEM window around one parcel (`slope_grid`), and their land measured exactly.

Each DEM cell is a square of uniform slope (:mod:`sloat_core.gis.slope`). The share of each cell the
parcel covers is computed exactly (:mod:`sloat_core.gis.coverage`), so a cell the parcel half covers
counts for half its area. The part of the parcel not covered by a cell with a valid slope (outside the
DEM, a nodata cell, or a DEM edge cell) is "unknown". Geometries passed in and returned are in EPSG:2260.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import rasterio
import rasterio.features
import shapely
from affine import Affine
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.coverage import EdgePieces, edge_pieces, suffix_counts
from sloat_core.gis.dem import DEM_READERS, window_for_bounds
from sloat_core.gis.geometry import repair_outline
from sloat_core.gis.slope import horn_slope_percent, slope_class_labels, slope_classes, thresholds_pct

__all__ = ["SlopeGrid", "slope_grid"]


def _check_geom(geom: Any, what: str = "parcel") -> BaseGeometry:
    if not isinstance(geom, BaseGeometry) or geom.is_empty:
        raise SloatInputError(f"The {what} outline is empty or not a shape.")
    if geom.geom_type not in ("Polygon", "MultiPolygon"):
        if geom.geom_type == "GeometryCollection":
            geom = shapely.union_all([g for g in geom.geoms if g.geom_type in ("Polygon", "MultiPolygon")])
        if geom.is_empty or geom.geom_type not in ("Polygon", "MultiPolygon"):
            raise SloatInputError(f"The {what} outline must be an area (a polygon), not a line or a point.")
    if not geom.is_valid:
        geom = repair_outline(geom)
    return geom


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

    def classes_on(self, on: dt.date) -> np.ndarray:
        """Class codes per cell with the thresholds in effect on ``on`` (cached per thresholds)."""
        key = ("classes", thresholds_pct(on))
        if key not in self._cache:
            self._cache[key] = slope_classes(self.slope_pct, on)
        return self._cache[key]

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

    def _class_cells(self, code: int, on: dt.date) -> np.ndarray:
        key = ("class", code, thresholds_pct(on))
        if key not in self._cache:
            self._cache[key] = self.classes_on(on) == code
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

    def class_areas_sqft(self, geom: BaseGeometry | None = None, *, on: dt.date) -> dict[str, float]:
        """Area of ``geom`` (default: the parcel) in each slope class, in square feet.

        Parameters
        ----------
        geom : shapely Polygon or MultiPolygon, optional
            An area in EPSG:2260, normally the parcel or a part of it. Parts of it outside the window
            read for the parcel count as unknown.
        on : datetime.date
            The date the law is applied at: the classes' thresholds in effect then.

        Returns
        -------
        dict
            ``{"0-15", "15-25", "25-40", "over_40", "unknown"}`` -> square feet; the five values sum
            to the area of ``geom``. Unknown is the part not covered by a cell with a valid slope.
        """
        geom = self.geom if geom is None else _check_geom(geom, "area")
        labels = slope_class_labels(on)
        totals = np.zeros(5)
        pieces = self._pieces(geom)
        for k in range(1, 5):
            cells = self._class_cells(k, on)
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
    with DEM_READERS.reader(dem_path) as src:
        win = window_for_bounds(src.transform, src.width, src.height, geom.bounds, int(pad_cells))
        if win is None:
            return SlopeGrid(geom, np.zeros((0, 0)), src.transform, dem_path)
        z = src.read(1, window=win, out_dtype=np.float64)
        wt = src.window_transform(win)
        slope = horn_slope_percent(z, wt.a, wt.e, nodata=src.nodata)
    return SlopeGrid(geom, slope, wt, dem_path)
