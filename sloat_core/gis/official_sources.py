"""The official sources ``fetch-official`` reads: names, publishers, clients and service URLs.

Kept apart from :mod:`sloat_core.gis.official` so that ``--help`` lists them without importing any
map library or the optional HyRiver clients.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SOURCES", "Source", "INSTALL_HINT", "ZONING_NOTE", "M_TO_US_FT", "sources_help"]

M_TO_US_FT = 3937.0 / 1200.0
"""US survey feet per metre (the survey foot's definition)."""

INSTALL_HINT = ("fetch-official needs the optional HyRiver clients; install them with "
                "pip install -r requirements-official.txt (no other command needs them).")

NFHL_URL = "https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer"
NWI_URL = "https://www.fws.gov/wetlandsmapservice/rest/services/Wetlands/MapServer"
NYSDEC_WETLANDS_URL = "https://gisservices.dec.ny.gov/arcgis/rest/services/erm/informational_freshwater_wetlands/MapServer"
NHD_URL = "https://hydro.nationalmap.gov/arcgis/rest/services/nhd/MapServer"
WBD_URL = "https://hydro.nationalmap.gov/arcgis/rest/services/wbd/MapServer"
DEP3_URL = "https://elevation.nationalmap.gov/arcgis/rest/services/3DEPElevation/ImageServer"
NYS_PARCELS_URL = "https://gisservices.its.ny.gov/arcgis/rest/services/NYS_Tax_Parcels_Public/MapServer"
TIGER_URL = "https://www2.census.gov/geo/tiger/TIGER{year}/PLACE/tl_{year}_{fips}_place.zip"
TIGER_COUNTY_URL = "https://www2.census.gov/geo/tiger/TIGER{year}/COUNTY/tl_{year}_us_county.zip"


@dataclass(frozen=True)
class Source:
    """One official source: what it is, who publishes it, how it is fetched, where it goes."""

    key: str
    title: str
    publisher: str
    client: str
    url: str
    layer: str
    role: str
    file: str

    def help_line(self) -> str:
        return f"{self.title} ({self.publisher}; {self.client}) -> {self.role}"


SOURCES: tuple[Source, ...] = (
    Source("place", "Census TIGER/Line place boundary", "U.S. Census Bureau", "pygris.places",
           TIGER_URL, "place", "village_boundary", "village_boundary.gpkg"),
    Source("nfhl_zones", "FEMA National Flood Hazard Layer: flood hazard zones", "FEMA", "pygeohydro.NFHL",
           f"{NFHL_URL}/28", "flood hazard zones", "floodplain", "nfhl.gpkg"),
    Source("nfhl_panels", "FEMA NFHL: FIRM panels (where the NFHL maps flood hazard)", "FEMA", "pygeohydro.NFHL",
           f"{NFHL_URL}/3", "firm panels", "floodplain coverage", "nfhl.gpkg"),
    Source("nfhl_availability", "FEMA NFHL availability", "FEMA", "pygeohydro.NFHL",
           f"{NFHL_URL}/0", "nfhl availability", "floodplain coverage", "nfhl.gpkg"),
    Source("nwi", "USFWS National Wetlands Inventory", "U.S. Fish and Wildlife Service", "pygeoogc.ArcGISRESTful",
           f"{NWI_URL}/0", "0", "wetlands (schema nwi: ponds and rivers sorted out)", "nwi.gpkg"),
    Source("nwi_projects", "USFWS NWI: wetlands project areas (where NWI has mapped)",
           "U.S. Fish and Wildlife Service", "pygeoogc.ArcGISRESTful", f"{NWI_URL}/1", "1", "wetlands coverage",
           "nwi_project_areas.gpkg"),
    Source("nysdec_wetlands", "NYSDEC regulated freshwater wetlands map",
           "NYS Department of Environmental Conservation", "pygeoogc.ArcGISRESTful", f"{NYSDEC_WETLANDS_URL}/0",
           "0", "state wetland screen (status by the regime in force on the analysis date; not a deduction)",
           "nysdec_wetlands.gpkg"),
    Source("nhd_flowlines", "USGS National Hydrography Dataset: streams (high resolution)", "USGS", "pynhd.NHD",
           NHD_URL, "flowline_hr", "watercourses", "nhd.gpkg"),
    Source("nhd_waterbodies", "USGS National Hydrography Dataset: water bodies (high resolution)", "USGS",
           "pynhd.NHD", NHD_URL, "waterbody_hr", "water_bodies", "nhd.gpkg"),
    Source("wbd_huc12", "USGS Watershed Boundary Dataset: HUC-12 watersheds (where the NHD features come from)",
           "USGS", "pynhd.WBD", f"{WBD_URL}/6", "huc12", "watercourses and water bodies coverage", "wbd.gpkg"),
    Source("dem", "USGS 3D Elevation Program DEM (1 m where it exists)", "USGS", "py3dep.get_dem", DEP3_URL,
           "DEM", "dem (EPSG:2260, US survey feet)", "dem.tif"),
    Source("parcels", "NYS GIS tax parcels (public counties)", "NYS Office of Information Technology Services",
           "pygeoogc.ArcGISRESTful", f"{NYS_PARCELS_URL}/1", "1", "parcels", "parcels.gpkg"),
    Source("county", "Census TIGER/Line county boundary", "U.S. Census Bureau", "pygris.counties",
           TIGER_COUNTY_URL, "county", "parcels coverage (a county shares its parcels or not)", "county.gpkg"),
)
"""Every source ``fetch-official`` reads, in the order it reads them."""

ZONING_NOTE = ("Village zoning: a file the office supplies (--zoning FILE --zoning-field FIELD); "
               "no public service publishes it.")


def sources_help() -> str:
    """The sources as lines for ``--help`` (no optional package needed)."""
    lines = [f"  - {s.help_line()}" for s in SOURCES]
    return "\n".join(["sources:", *lines, f"  - {ZONING_NOTE}"])


