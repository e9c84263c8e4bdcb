"""What ``fetch-official`` does to a download, the same for live and recorded answers: to EPSG:2260, clipped
to the fetch area, written as a GeoPackage; the DEM warped to US survey feet; the manifest's YAML dumper."""

from __future__ import annotations

import datetime as dt
import json
import math
import zipfile
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import yaml
from shapely.geometry.base import BaseGeometry

from sloat_core.units import WORK_CRS


def _to_work(gdf: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    if gdf.crs is None:
        gdf = gdf.set_crs(4326)
    gdf = gdf.to_crs(WORK_CRS)
    if gdf.geometry.name != "geometry":
        gdf = gdf.rename_geometry("geometry")
    gdf = gdf[~(gdf.geometry.isna() | gdf.geometry.is_empty)]
    return gdf


def _clip(gdf: gpd.GeoDataFrame, area: BaseGeometry, *, cut: bool = True) -> gpd.GeoDataFrame:
    if not len(gdf):
        return gdf
    geoms = shapely.make_valid(np.asarray(gdf.geometry.values, dtype=object))
    keep = shapely.intersects(area, geoms)
    out = gdf[keep].copy()
    kept = geoms[keep]
    if cut:
        kept = shapely.intersection(kept, area)
    out = out.set_geometry(gpd.GeoSeries(kept, index=out.index, crs=WORK_CRS))
    return out[~out.geometry.is_empty]


def _plain_columns(gdf: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """Columns a GeoPackage can hold: lists and dicts (some services return them) become text."""
    for c in gdf.columns:
        if c == gdf.geometry.name:
            continue
        if gdf[c].map(lambda v: isinstance(v, (list, dict))).any():
            gdf[c] = gdf[c].map(lambda v: json.dumps(v) if isinstance(v, (list, dict)) else v)
    return gdf


def _write(gdf: gpd.GeoDataFrame, path: Path, layer: str) -> None:
    gdf = _plain_columns(gdf.copy())
    if not len(gdf):
        gdf = gpd.GeoDataFrame({"EMPTY": pd.Series([], dtype="str")}, geometry=gpd.GeoSeries([], crs=WORK_CRS))
    gdf.to_file(path, layer=layer, driver="GPKG")


def _uncovered_share(cover: gpd.GeoDataFrame, geom: BaseGeometry) -> float:
    """The share of ``geom`` outside the union of ``cover``."""
    if geom.is_empty or not geom.area:
        return 0.0
    union = shapely.union_all(shapely.make_valid(np.asarray(cover.geometry.values, dtype=object)))
    return float(geom.difference(union).area / geom.area)


def _nfhl_effective(panels: gpd.GeoDataFrame) -> str | None:
    """The FIRM panels' effective dates (publisher's version of the NFHL here), e.g. '2014-03-03 (2 panels)'."""
    col = next((c for c in panels.columns if c.upper() == "EFF_DATE"), None)
    if col is None or not len(panels):
        return None
    vals = panels[col].dropna()
    dates: list[str] = []
    for v in vals:
        if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
            dates.append(dt.datetime.fromtimestamp(float(v) / 1000.0, dt.timezone.utc).date().isoformat())
        else:
            dates.append(str(v)[:10].replace("/", "-"))
    uniq = sorted(set(dates))
    if not uniq:
        return None
    ids = next((c for c in panels.columns if c.upper() in ("FIRM_PAN", "PANEL")), None)
    n = len(panels) if ids is None else panels[ids].nunique()
    return f"FIRM panels effective {', '.join(uniq)} ({n} panel(s))"


def _warp_dem_to_us_feet(src_path: Path, dst_path: Path, area: BaseGeometry, z_factor: float) -> tuple[float, int]:
    """Warp a DEM (metres) to EPSG:2260 at about its own cell size, elevations times ``z_factor``."""
    import rasterio  # noqa: PLC0415
    from rasterio.warp import Resampling, calculate_default_transform, reproject  # noqa: PLC0415

    with rasterio.open(src_path) as src:
        minx, miny, maxx, maxy = area.bounds
        transform, width, height = calculate_default_transform(src.crs, WORK_CRS, src.width, src.height,
                                                               *src.bounds)
        cell = abs(transform.a)
        cell = max(round(cell, 3), 0.001)
        width, height = math.ceil((maxx - minx) / cell), math.ceil((maxy - miny) / cell)
        transform = rasterio.Affine(cell, 0, minx, 0, -cell, maxy)
        out = np.full((height, width), -9999.0, dtype="float32")
        reproject(rasterio.band(src, 1), out, src_transform=src.transform, src_crs=src.crs, src_nodata=src.nodata,
                  dst_transform=transform, dst_crs=WORK_CRS, dst_nodata=-9999.0, resampling=Resampling.bilinear)
    ok = out != -9999.0
    out[ok] = (out[ok].astype("float64") * z_factor).astype("float32")
    with rasterio.open(dst_path, "w", driver="GTiff", width=width, height=height, count=1, dtype="float32",
                       crs=WORK_CRS, transform=transform, nodata=-9999.0, compress="deflate", tiled=True,
                       blockxsize=256, blockysize=256) as dst:
        dst.write(out, 1)
        dst.update_tags(SOURCE="USGS 3DEP via py3dep", UNITS="US survey feet")
        dst.set_band_unit(1, "US survey foot")
    return cell, int(ok.sum())


class _PlainDumper(yaml.SafeDumper):
    """Writes repeated values out in full (no &anchors): the manifest is read by people too."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def make_recorded_fixture_zip(shp_dir: Path, out_zip: Path) -> None:
    """Zip a shapefile folder as TIGER/Line ships it (flat, one shapefile). Used by tools/make_official_fixtures.py."""
    with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(shp_dir.iterdir()):
            zf.write(p, p.name)
