"""Write the recorded service responses ``fetch-official`` is tested on (tests/fixtures/official/).

CONSTRUCTED, NOT RECORDED LIVE: this machine has no internet. Each file follows the wire format its
service returns, as the services document it:

- ``<key>.geojson``: an ArcGIS REST ``/query?f=geojson`` response (a GeoJSON FeatureCollection in
  EPSG:4326; dates as epoch milliseconds, as ArcGIS returns them), with the publisher's field names
  (FEMA NFHL ``FLD_ZONE``/``SFHA_TF``/``FIRM_PAN``/``EFF_DATE``, USFWS NWI ``ATTRIBUTE``/``WETLAND_TYPE``,
  NHD ``GNIS_NAME``/``FCODE``/``FTYPE``);
- ``tiger_place.zip``: a TIGER/Line place file as the Census ships it (a zipped shapefile in NAD83,
  EPSG:4269, with ``STATEFP``/``NAME``/``NAMELSAD``/``LSAD``);
- ``3dep_dem.tif``: a GeoTIFF in EPSG:4326 with elevations in metres, as 3DEP's exportImage returns it
  (the elevations are a window of the real SRTM DEM in tests/fixtures/real-data, placed at Sloatsburg);
- ``parcels.geojson``: an empty FeatureCollection, as the NYS public tax-parcel service answers for a
  county that does not share its parcels;
- ``nwi_projects.geojson`` (NWI Wetlands Project Metadata), ``wbd_huc12.geojson`` (WBD HUC-12 watersheds),
  ``tiger_county.zip`` (TIGER/Line counties): the coverage of NWI, NHD and the parcels;
- ``published/``: files in shapes publishers and clients produce that must be refused or read right (a
  projected GeoJSON without ``crs``, mostly degenerate features, table-qualified NWI fields, a flood layer
  without NFHL fields, an ArcGIS error payload, a coverage made of lines).
- ``nysdot_ris.geojson``: NYSDOT Roadway Inventory System roads (the sample's state and county roads, a village
  and a town road), JURISDICTION as the inventory codes it.

Shapes come from the illustrative sample (data/sample), so they are NOT official either.

Usage: python tools/make_official_fixtures.py [--out tests/fixtures/official]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
import shapely

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sloat_core.gis.official import make_recorded_fixture_zip  # noqa: E402
from sloat_core.gis.official_sources import (NFHL_URL, NHD_URL, NWI_URL, NYS_PARCELS_URL,  # noqa: E402
                                             NYSDEC_WETLANDS_URL, NYSDOT_ROADWAY_URL, TIGER_COUNTY_URL, TIGER_URL,
                                             WBD_URL)

SAMPLE = ROOT / "data" / "sample"
SRTM = ROOT / "tests" / "fixtures" / "real-data" / "dem_srtm_pysheds" / "dem.tif"
MS_2014_03_03 = 1393804800000  # 2014-03-03T00:00:00Z in epoch ms (a constructed effective date)


def _fc(gdf: gpd.GeoDataFrame, tol_deg: float = 2e-5) -> dict:
    g = gdf.to_crs(4326).copy()
    g.geometry = g.geometry.simplify(tol_deg).set_precision(1e-6)
    doc = json.loads(g.to_json(drop_id=True))
    doc.pop("crs", None)
    for i, f in enumerate(doc["features"], start=1):
        f["id"] = i  # ArcGIS puts the object id beside the properties
    return {"type": "FeatureCollection", "features": doc["features"]}


def _dump(doc: dict, path: Path) -> None:
    path.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    village = gpd.read_file(SAMPLE / "village_boundary.geojson").to_crs(2260)
    v = village.union_all()
    area = v.buffer(1000.0)
    minx, miny, maxx, maxy = area.bounds

    # TIGER/Line place: the village and a neighbour (to test the match by NAMELSAD).
    neighbour = shapely.box(maxx + 2000, miny, maxx + 9000, miny + 6000)
    places = gpd.GeoDataFrame(
        {"STATEFP": ["36", "36"], "NAME": ["Sloatsburg", "Hillburn"],
         "NAMELSAD": ["Sloatsburg village", "Hillburn village"], "LSAD": ["47", "47"], "FUNCSTAT": ["A", "A"]},
        geometry=[v.simplify(20), neighbour], crs=2260).to_crs(4269)
    with tempfile.TemporaryDirectory() as tmp:
        shp = Path(tmp) / "shp"
        shp.mkdir()
        places.to_file(shp / "tl_2024_36_place.shp")
        make_recorded_fixture_zip(shp, out / "tiger_place.zip")

    # NFHL flood hazard zones (the sample's S_FLD_HAZ_AR, which imitates the schema) and zone X.
    zones = gpd.read_file(SAMPLE / "nfhl.gpkg", layer="S_FLD_HAZ_AR").to_crs(2260)
    zones = zones[["DFIRM_ID", "FLD_AR_ID", "FLD_ZONE", "ZONE_SUBTY", "SFHA_TF", "STATIC_BFE", "geometry"]]
    _dump(_fc(zones), out / "nfhl_zones.geojson")
    # FIRM panels: two panels over the west 60 % of the fetch area; the east is unmapped here.
    cut = minx + 0.6 * (maxx - minx)
    midy = (miny + maxy) / 2
    panels = gpd.GeoDataFrame(
        {"DFIRM_ID": ["36087C", "36087C"], "FIRM_PAN": ["36087C0069G", "36087C0088G"], "PANEL_TYP":
         ["Countywide, Panel Printed"] * 2, "EFF_DATE": [MS_2014_03_03, MS_2014_03_03]},
        geometry=[shapely.box(minx - 500, midy, cut, maxy + 500), shapely.box(minx - 500, miny - 500, cut, midy)],
        crs=2260)
    _dump(_fc(panels), out / "nfhl_panels.geojson")
    avail = gpd.GeoDataFrame({"DFIRM_ID": ["36087C"], "VERSION_ID": ["1.1.1.0"], "EFF_DATE": [MS_2014_03_03]},
                             geometry=[shapely.box(minx - 500, miny - 500, cut, maxy + 500)], crs=2260)
    _dump(_fc(avail), out / "nfhl_availability.geojson")

    nwi = gpd.read_file(SAMPLE / "nwi_wetlands.geojson").to_crs(2260)[["ATTRIBUTE", "WETLAND_TYPE", "ACRES", "geometry"]]
    _dump(_fc(nwi), out / "nwi.geojson")
    dec = gpd.read_file(SAMPLE / "local_wetlands.geojson").to_crs(2260)
    dec = gpd.GeoDataFrame({"WETID": [f"RC-{i + 1}" for i in range(len(dec))], "CLASS": ["II"] * len(dec)},
                           geometry=dec.geometry.values, crs=2260)
    _dump(_fc(dec), out / "nysdec_wetlands.geojson")
    # NYSDOT Roadway Inventory System (ArcGIS REST f=geojson): the sample's state and county roads, and a village
    # and a town road that fetch-official must leave out, JURISDICTION coded as the inventory codes it.
    ris = gpd.read_file(SAMPLE / "state_county_roads.geojson").to_crs(2260)[["ROUTE", "ROAD_NAME", "JURISDICTION",
                                                                              "geometry"]]
    local = gpd.read_file(SAMPLE / "roads.gpkg", layer="roads").to_crs(2260)
    local = local[local["NAME"].isin(["Ramapo Ave", "Spring St"])].sort_values("NAME")
    local = gpd.GeoDataFrame({"ROUTE": [None] * len(local), "ROAD_NAME": local["NAME"].values,
                              "JURISDICTION": ["04 City or village", "03 Town"][: len(local)]},
                             geometry=local.geometry.values, crs=2260)
    ris = gpd.GeoDataFrame(pd.concat([ris, local], ignore_index=True), crs=2260)
    ris["OWNING_JURISDICTION"] = ris["JURISDICTION"]
    _dump(_fc(ris), out / "nysdot_ris.geojson")
    streams = gpd.read_file(SAMPLE / "streams.geojson").to_crs(2260)
    streams = gpd.GeoDataFrame({"GNIS_NAME": streams["NAME"], "FTYPE": [460] * len(streams),
                                "FCODE": [46006] * len(streams)}, geometry=streams.geometry.values, crs=2260)
    _dump(_fc(streams), out / "nhd_flowlines.geojson")
    ponds = gpd.read_file(SAMPLE / "ponds.geojson").to_crs(2260)
    ponds = gpd.GeoDataFrame({"GNIS_NAME": ponds["NAME"], "FTYPE": [390] * len(ponds), "FCODE": [39004] * len(ponds)},
                             geometry=ponds.geometry.values, crs=2260)
    _dump(_fc(ponds), out / "nhd_waterbodies.geojson")
    _dump({"type": "FeatureCollection", "features": []}, out / "parcels.geojson")

    # NWI "Wetlands Project Metadata" (MapServer/1): one mapping project over the whole fetch area.
    projects = gpd.GeoDataFrame({"PROJECT_NAME": ["NY_Rockland_2011"], "STATUS": ["Complete"], "IMAGE_YR": [2011]},
                                geometry=[shapely.box(minx - 500, miny - 500, maxx + 500, maxy + 500)], crs=2260)
    _dump(_fc(projects), out / "nwi_projects.geojson")
    # WBD HUC-12 (wbd/MapServer/6, field names in lower case as WBD publishes them): two watersheds that
    # meet north-south through the fetch area; together they cover it.
    midx = (minx + maxx) / 2
    hucs = gpd.GeoDataFrame({"huc12": ["020301030101", "020301030102"],
                             "name": ["Upper Ramapo River (constructed)", "Stony Brook (constructed)"],
                             "areasqkm": [40.0, 35.0], "states": ["NY,NJ", "NY"]},
                            geometry=[shapely.box(minx - 800, miny - 800, midx, maxy + 800),
                                      shapely.box(midx, miny - 800, maxx + 800, maxy + 800)], crs=2260)
    _dump(_fc(hucs), out / "wbd_huc12.geojson")
    # TIGER/Line counties: Rockland over the fetch area, Orange County (to the west) beside it.
    counties = gpd.GeoDataFrame(
        {"STATEFP": ["36", "36"], "COUNTYFP": ["087", "071"], "GEOID": ["36087", "36071"],
         "NAME": ["Rockland", "Orange"], "NAMELSAD": ["Rockland County", "Orange County"]},
        geometry=[shapely.box(minx - 300, miny - 3000, maxx + 3000, maxy + 3000),
                  shapely.box(minx - 9000, miny - 3000, minx - 300, maxy + 3000)], crs=2260).to_crs(4269)
    with tempfile.TemporaryDirectory() as tmp:
        shp = Path(tmp) / "shp"
        shp.mkdir()
        counties.to_file(shp / "tl_2024_us_county.shp")
        make_recorded_fixture_zip(shp, out / "tiger_county.zip")
    published(out / "published", v, nwi)

    # 3DEP GeoTIFF (metres, EPSG:4326): real SRTM elevations placed over the fetch area.
    lon0, lat0, lon1, lat1 = gpd.GeoSeries([area], crs=2260).to_crs(4326).total_bounds
    res = 0.0008333333333333
    cols, rows = int(np.ceil((lon1 - lon0) / res)) + 2, int(np.ceil((lat1 - lat0) / res)) + 2
    with rasterio.open(SRTM) as src:
        z = src.read(1, window=rasterio.windows.Window(100, 100, cols, rows)).astype("float32")
    transform = rasterio.Affine(res, 0, lon0 - res, 0, -res, lat1 + res)
    with rasterio.open(out / "3dep_dem.tif", "w", driver="GTiff", width=cols, height=rows, count=1, dtype="float32",
                       crs="EPSG:4326", transform=transform, nodata=-3.4028234663852886e38, compress="deflate") as dst:
        dst.write(z, 1)

    recorded = {
        "place": {"url": TIGER_URL.format(year=2024, fips="36"), "publisher_version": "TIGER/Line 2024"},
        "nfhl_zones": {"url": f"{NFHL_URL}/28", "query": "query?geometry=<fetch area>&outFields=*&f=geojson"},
        "nfhl_panels": {"url": f"{NFHL_URL}/3", "query": "query?geometry=<fetch area>&outFields=*&f=geojson"},
        "nfhl_availability": {"url": f"{NFHL_URL}/0", "query": "query?geometry=<fetch area>&outFields=*&f=geojson"},
        "nwi": {"url": f"{NWI_URL}/0", "query": "query?geometry=<fetch area>&outFields=*&f=geojson",
                "publisher_version": "NWI (constructed response)"},
        "nysdec_wetlands": {"url": f"{NYSDEC_WETLANDS_URL}/0", "query": "query?geometry=<fetch area>&f=geojson"},
        "nhd_flowlines": {"url": NHD_URL, "query": "layer flowline_hr, geometry=<fetch area>"},
        "nhd_waterbodies": {"url": NHD_URL, "query": "layer waterbody_hr, geometry=<fetch area>"},
        "dem": {"url": "https://elevation.nationalmap.gov/arcgis/rest/services/3DEPElevation/ImageServer/exportImage",
                "query": "get_dem(fetch area, resolution=90 m) (constructed)",
                "publisher_version": "3DEP (constructed from SRTM values)"},
        "parcels": {"url": f"{NYS_PARCELS_URL}/1", "query": "query?geometry=<fetch area>&outFields=*&f=geojson"},
        "nwi_projects": {"url": f"{NWI_URL}/1", "query": "query?geometry=<fetch area>&outFields=*&f=geojson"},
        "wbd_huc12": {"url": f"{WBD_URL}/6", "query": "layer huc12, geometry=<fetch area>"},
        "county": {"url": TIGER_COUNTY_URL.format(year=2024), "publisher_version": "TIGER/Line 2024"},
        "nysdot_ris": {"url": f"{NYSDOT_ROADWAY_URL}/3", "query": "query?geometry=<fetch area>&outFields=*&f=geojson",
                       "publisher_version": "Roadway Inventory System (constructed response: the sample's roads, "
                                            "JURISDICTION coded as the inventory codes it)"},
        "_note": "CONSTRUCTED in the services' wire formats by tools/make_official_fixtures.py, not recorded live.",
    }
    (out / "recorded.json").write_text(json.dumps(recorded, indent=1), encoding="utf-8")


def published(out: Path, village, nwi: gpd.GeoDataFrame) -> None:
    """Files in the shapes publishers and their clients produce that must be refused or read right
    (tests/fixtures/official/published/; each is named by the test that reads it)."""
    out.mkdir(parents=True, exist_ok=True)
    c = village.centroid
    # 1. A GeoJSON export in New York East state-plane feet that carries no "crs" member (RFC 7946: CRS84).
    wet = gpd.GeoDataFrame({"NAME": ["Marsh A", "Marsh B"]},
                           geometry=[shapely.box(c.x - 300, c.y - 200, c.x - 100, c.y),
                                     shapely.box(c.x + 100, c.y, c.x + 260, c.y + 140)], crs=2260)
    doc = json.loads(wet.to_json(drop_id=True))
    doc.pop("crs", None)
    _dump(doc, out / "projected_nocrs.geojson")
    # 2. Most features collapse to no area (rings that go out and back along one segment, as a digitising
    # slip or a snapped export leaves them), one is a real polygon.
    flat = [shapely.Polygon([(c.x + i * 50, c.y), (c.x + i * 50 + 40, c.y), (c.x + i * 50 + 40, c.y),
                             (c.x + i * 50, c.y)]) for i in range(3)]
    deg = gpd.GeoDataFrame({"NAME": ["flat 1", "flat 2", "flat 3", "real"]},
                           geometry=[*flat, shapely.box(c.x, c.y + 100, c.x + 80, c.y + 180)], crs=2260)
    g = deg.to_crs(4326)
    doc = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"NAME": n}, "geometry": shapely.geometry.mapping(geom)}
        for n, geom in zip(g["NAME"], g.geometry, strict=True)]}
    path = out / "mostly_degenerate.geojson"
    path.write_text(json.dumps(doc), encoding="utf-8")
    # 3. The NWI MapServer's own field names, qualified by table (Wetlands.ATTRIBUTE, Wetlands.WETLAND_TYPE).
    q = nwi.rename(columns={"ATTRIBUTE": "Wetlands.ATTRIBUTE", "WETLAND_TYPE": "Wetlands.WETLAND_TYPE",
                            "ACRES": "Wetlands.ACRES"})
    _dump(_fc(q), out / "nwi_qualified.geojson")
    # 3b. The same as an ArcGIS REST f=json answer (Esri JSON: attributes and rings, Web Mercator, fields
    # declared with their table-qualified names and aliases), as pygeoogc receives it.
    g = gpd.read_file(out / "nwi_qualified.geojson").drop(columns=["id"], errors="ignore").to_crs(3857)
    feats = []
    for i, (attrs, geom) in enumerate(zip(g.drop(columns="geometry").to_dict("records"), g.geometry, strict=True)):
        rings = []
        for poly in getattr(geom, "geoms", [geom]):
            poly = shapely.set_precision(shapely.geometry.polygon.orient(poly, sign=-1.0), 0.01)
            rings.append([list(xy) for xy in poly.exterior.coords])
            rings += [[list(xy) for xy in r.coords] for r in poly.interiors]
        feats.append({"attributes": {"OBJECTID": i + 1, **attrs}, "geometry": {"rings": rings}})
    fields = [{"name": "OBJECTID", "type": "esriFieldTypeOID", "alias": "OBJECTID"}] + [
        {"name": c, "type": "esriFieldTypeDouble" if c.endswith("ACRES") else "esriFieldTypeString",
         "alias": c.split(".")[-1]} for c in g.columns if c != "geometry"]
    _dump({"displayFieldName": "Wetlands.ATTRIBUTE", "geometryType": "esriGeometryPolygon",
           "spatialReference": {"wkid": 102100, "latestWkid": 3857}, "fields": fields, "features": feats},
          out / "nwi_esri.json")
    # 4. A flood layer without FLD_ZONE or SFHA_TF (e.g. a county's own export) for schema: fema_nfhl.
    nz = gpd.GeoDataFrame({"ZONE_CODE": ["AE"], "PANEL_NO": ["0069G"]},
                          geometry=[shapely.box(c.x, c.y, c.x + 200, c.y + 200)], crs=2260)
    _dump(_fc(nz), out / "flood_without_zone_fields.geojson")
    # 5. An ArcGIS REST error payload (HTTP 200, as the services send it).
    _dump({"error": {"code": 400, "message": "Unable to complete operation.",
                     "details": ["Invalid query parameters."]}}, out / "arcgis_error.json")
    # 6. A coverage "file" of lines (a HUC boundary exported as lines): coverage needs polygons.
    lines = gpd.GeoDataFrame({"huc12": ["020301030101"]},
                             geometry=[shapely.LineString([(c.x - 5000, c.y), (c.x + 5000, c.y)])], crs=2260)
    _dump(_fc(lines), out / "huc_as_lines.geojson")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "tests" / "fixtures" / "official"))
    main(Path(ap.parse_args().out))
