"""The naive way, kept as a reference for the benchmark: no spatial index, no DEM window.

For one parcel it computes the gross area, the land given to each § 402-45 deduction row and the net
lot area, the straightforward way:

* every constraint layer is met with the parcel by ``geopandas.overlay`` over the *whole* layer;
* the buffer band is built from *every* wetland, watercourse and water-body feature of the layer set;
* outcrops are dissolved over the whole layer and kept when larger than the parameter's size;
* slopes: the *whole* DEM is read and its slope computed (Horn, the same kernel as
  ``sloat_core.gis.terrain`` so that the two compare), the cells the parcel touches are found by masking
  the whole raster (``rasterio.features.geometry_mask``), polygonised, and overlaid with the parcel;
* overlaps: the same rule as ``sloat_core.rules.deductions`` (each piece of land goes to the first row in
  ``DEDUCTION_ROWS`` sorted by lowest countable share), done with ``geopandas.overlay`` differences.

It reads parameters through ``sloat_core.law.params`` so that both sides use the same law numbers.
"""

from __future__ import annotations

import datetime as dt

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
import rasterio.features
import shapely
from shapely.geometry import shape

from sloat_core.measure.rows import DEDUCTION_ROWS
from sloat_core.law.params import value
from sloat_core.gis.slope import horn_slope_percent
from sloat_core.units import WORK_CRS

__all__ = ["naive_lot_area"]


def _gdf(geoms) -> gpd.GeoDataFrame:
    geoms = [g for g in geoms if g is not None and not g.is_empty]
    return gpd.GeoDataFrame(geometry=gpd.GeoSeries(geoms, crs=WORK_CRS), crs=WORK_CRS)


def _area(gdf: gpd.GeoDataFrame) -> float:
    return float(gdf.geometry.area.sum()) if len(gdf) else 0.0


def _overlay(a: gpd.GeoDataFrame, b: gpd.GeoDataFrame, how: str) -> gpd.GeoDataFrame:
    if len(a) == 0:
        return a
    if len(b) == 0:
        return a if how == "difference" else a.iloc[0:0]
    out = gpd.overlay(a[["geometry"]], b[["geometry"]], how=how, keep_geom_type=True)
    if len(out) > 1:  # overlapping features give overlapping pieces: dissolve them into one
        out = out[["geometry"]].dissolve()
    return out[["geometry"]]


def _slope_regions(dem_path, parcel, on: dt.date) -> dict[str, gpd.GeoDataFrame]:
    """Whole-DEM slope; the cells the parcel touches, by class, as polygons."""
    with rasterio.open(dem_path) as src:
        z = src.read(1, out_dtype=np.float64)  # the whole DEM
        t = src.transform
        slope = horn_slope_percent(z, t.a, t.e, nodata=src.nodata)
    touched = ~rasterio.features.geometry_mask([parcel], out_shape=slope.shape, transform=t, all_touched=True)
    over40 = float(value("very_steep_slope_threshold_pct", on))
    over25 = float(value("steep_slope_deduction_threshold_pct", on))
    masks = {
        "slope_over_40": touched & np.isfinite(slope) & (slope > over40),
        "slope_25_40": touched & np.isfinite(slope) & (slope > over25) & (slope <= over40),
    }
    out = {}
    for name, mask in masks.items():
        polys = [shape(g) for g, _ in rasterio.features.shapes(mask.astype(np.uint8), mask=mask, transform=t)]
        out[name] = _gdf(polys)
    return out


def naive_lot_area(parcel, layerset, *, buffer_width_ft: float, on: dt.date) -> dict:
    """Gross, per-row land and net of § 402-45 for ``parcel`` (EPSG:2260), the naive way, by the law of ``on``.

    Returns
    -------
    dict
        ``gross_area_sqft``, ``rows`` {constraint: sq ft given to the row, or None if unknown},
        ``net_lot_area_sqft``.
    """
    p = _gdf([parcel])
    constraint: dict[str, gpd.GeoDataFrame | None] = {}
    for role in ("water_bodies", "watercourses", "wetlands", "floodplain"):
        layer = layerset.get(role)
        constraint[role] = None if layer is None else _overlay(p, layer.gdf, "intersection")
    resources = [layerset.get(r).gdf for r in ("water_bodies", "watercourses", "wetlands") if layerset.get(r)]
    if resources:
        whole = pd.concat([r[["geometry"]] for r in resources], ignore_index=True)
        resource = shapely.union_all(whole.geometry.values)
        band = resource.buffer(buffer_width_ft, quad_segs=16).difference(resource)
        constraint["buffer"] = _overlay(p, _gdf([band]), "intersection")
    else:
        constraint["buffer"] = None
    outcrops = layerset.get("rock_outcrops")
    if outcrops is None:
        constraint["rock_outcrops"] = None
    else:
        dissolved = outcrops.gdf[["geometry"]].dissolve().explode(index_parts=False)
        big = dissolved[dissolved.geometry.area > float(value("rock_outcrop_min_area_sqft", on))]
        constraint["rock_outcrops"] = _overlay(p, big, "intersection")
    if layerset.dem_path is not None:
        for name, cells in _slope_regions(layerset.dem_path, parcel, on).items():
            constraint[name] = _overlay(p, cells, "intersection")
    else:
        constraint["slope_over_40"] = constraint["slope_25_40"] = None

    order = sorted(enumerate(DEDUCTION_ROWS), key=lambda item: (value(item[1].share, on), item[0]))
    remaining = p
    rows: dict[str, float | None] = {}
    deducted = 0.0
    for _, spec in order:
        cid, share_name = spec.id, spec.share
        c = constraint[cid]
        if c is None:
            rows[cid] = None
            continue
        piece = _overlay(c, remaining, "intersection")
        area = _area(piece)
        rows[cid] = area
        deducted += area * (1.0 - float(value(share_name, on)))
        if area > 0:
            remaining = _overlay(remaining, piece, "difference")
    gross = float(parcel.area)
    return {"gross_area_sqft": gross, "rows": rows, "net_lot_area_sqft": max(gross - deducted, 0.0)}
