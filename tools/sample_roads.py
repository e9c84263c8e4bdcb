"""The sample's illustrative roads layer (``data/sample/roads.gpkg``), from the invented street centrelines.

``tools/make_sample_data.py`` calls :func:`write_roads` with its own street list, so the roads run
where the sample's addresses are. The layer is for the offline base map only (no Article IX rule
reads it). Coordinates are snapped to a 0.01 ft grid so the file is the same on every machine.
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import shapely

WORK_CRS = "EPSG:2260"
#: Grid the vertices are snapped to, in US survey feet.
GRID_FT = 0.01


def roads_frame(street_list: list[dict], to_work) -> gpd.GeoDataFrame:
    """One row per street: NAME, WIDTH_FT (the right-of-way), ILLUSTRATIVE, and its centreline (EPSG:2260).

    Parameters
    ----------
    street_list : list of dict
        ``make_sample_data.streets()``: ``name``, ``geom`` (local frame), ``row_ft``.
    to_work : callable
        The local-frame to EPSG:2260 shift of ``make_sample_data``.
    """
    geoms = [shapely.set_precision(to_work(s["geom"]), GRID_FT) for s in street_list]
    return gpd.GeoDataFrame({"NAME": [s["name"] for s in street_list],
                             "WIDTH_FT": [float(s["row_ft"]) for s in street_list],
                             "ILLUSTRATIVE": ["yes"] * len(street_list)}, geometry=geoms, crs=WORK_CRS)


def write_roads(out: Path, street_list: list[dict], to_work) -> Path:
    """Write ``roads.gpkg`` (layer ``roads``) into ``out``; returns its path."""
    path = Path(out) / "roads.gpkg"
    if path.exists():
        path.unlink()
    roads_frame(street_list, to_work).to_file(path, layer="roads", driver="GPKG")
    return path
