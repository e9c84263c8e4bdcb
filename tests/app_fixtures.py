"""A tiny hand-built layer set for the app tests (known areas, EPSG:2260 feet).

Tax parcel P1 is a 200 ft x 200 ft square (40,000 sq ft) in district R-15, with a wetland strip
50 ft x 200 ft (10,000 sq ft) along its west side; tax parcel P2 is a 100 ft x 100 ft square
(10,000 sq ft) with no mapped constraint. No elevation model, so slopes are unknown.
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
from shapely.geometry import box, mapping

from sloat_core.units import WGS84, WORK_CRS

__all__ = ["X0", "Y0", "P1", "P2", "WETLAND", "P1_SBL", "P2_SBL", "write_layerset", "wgs84_feature"]

X0, Y0 = 578_000.0, 848_300.0  # near the centre of Sloatsburg
P1 = box(X0, Y0, X0 + 200, Y0 + 200)
P2 = box(X0 + 400, Y0, X0 + 500, Y0 + 100)
WETLAND = box(X0, Y0, X0 + 50, Y0 + 200)
P1_SBL, P2_SBL = "156.14-1-23", "156.14-1-24"


def write_layerset(folder: Path) -> Path:
    """Write the layers and their manifest into ``folder``; return the manifest path."""
    parcels = gpd.GeoDataFrame(
        {"SBL": [P1_SBL, P2_SBL], "ADDRESS": ["1 Test Road", "3 Test Road"], "ZONE": ["R-15", "R-15"]},
        geometry=[P1, P2], crs=WORK_CRS)
    parcels.to_file(folder / "parcels.gpkg", layer="parcels", driver="GPKG")
    wetlands = gpd.GeoDataFrame({"name": ["Test <b>marsh</b>"]}, geometry=[WETLAND], crs=WORK_CRS)
    wetlands.to_file(folder / "wetlands.gpkg", layer="wetlands", driver="GPKG")
    manifest = folder / "layers.yaml"
    manifest.write_text(
        'name: App test layers\nversion: "test-1"\nillustrative: true\n'
        'notice: "Illustrative sample, not official data."\n'
        "layers:\n"
        "  wetlands: {path: wetlands.gpkg, layer: wetlands, coverage: everywhere}\n"
        "  parcels: {path: parcels.gpkg, layer: parcels, id_field: SBL, district_field: ZONE,"
        " address_field: ADDRESS}\n",
        encoding="utf-8")
    return manifest


def wgs84_feature(geom) -> dict:
    """A GeoJSON Feature in WGS84 of an EPSG:2260 geometry (what the map's drawing tool returns)."""
    g = gpd.GeoSeries([geom], crs=WORK_CRS).to_crs(WGS84).iloc[0]
    return json.loads(json.dumps({"type": "Feature", "properties": {}, "geometry": mapping(g)}))
