"""The official sources ``fetch-official`` reads: names, publishers, clients and service URLs.

Kept apart from :mod:`sloat_core.gis.official` so that ``--help`` lists them without importing any
map library or the optional HyRiver clients.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SOURCES", "Source", "SUPPLIED", "ToSupply", "INSTALL_HINT", "ZONING_NOTE", "M_TO_US_FT", "sources_help",
           "RIS_STATE_COUNTY_CODES", "NYSDEC_INFORMATIONAL_TITLE",
           "NYSDEC_MAP_STATUS_INFORMATIONAL"]

M_TO_US_FT = 3937.0 / 1200.0
"""US survey feet per metre (the survey foot's definition)."""

INSTALL_HINT = ("fetch-official needs the optional HyRiver clients; install them with "
                "pip install -r requirements-official.txt (no other command needs them).")

NFHL_URL = "https://hazards.fema.gov/arcgis/rest/services/public/NFHL/MapServer"
NWI_URL = "https://www.fws.gov/wetlandsmapservice/rest/services/Wetlands/MapServer"
#: DEC's service is named "informational_freshwater_wetlands": DEC describes it as "Informational Freshwater
#: Wetland Mapping ... not regulatory". The regulatory maps are published as county files (SUPPLIED below).
NYSDEC_INFORMATIONAL_TITLE = "NYSDEC Informational Freshwater Wetland Mapping"
#: Written on each fetched DEC feature (MAP_STATUS), read by the state wetland screen.
NYSDEC_MAP_STATUS_INFORMATIONAL = "DEC informational mapping (not the regulatory map)"
NYSDEC_WETLANDS_URL = "https://gisservices.dec.ny.gov/arcgis/rest/services/erm/informational_freshwater_wetlands/MapServer"
#: NYSDOT's roadway layer as a public web client queries it (Roadway Inventory System fields); layer to confirm.
NYSDOT_ROADWAY_URL = "https://gis.dot.ny.gov/hostingny/rest/services/Roadways/Roadway/FeatureServer"
#: Roadway Inventory System JURISDICTION codes that are state or county roads (GML § 239-m(3)(b)(iii): "state
#: or county parkway, thruway, expressway, road or highway"): 01 NYSDOT, 02 County, 11 State Parks, 21 Other
#: State agencies, 31 NYS Thruway. Town (03), city or village (04), federal and private roads are not triggers.
RIS_STATE_COUNTY_CODES = ("01", "02", "11", "21", "31")
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
    #: The kind of service asked (recorded in the manifest as ``service_type``).
    service: str = ""
    #: The fields the tool reads (recorded as ``fields_used``).
    fields: str = ""

    def help_line(self) -> str:
        return f"{self.title} ({self.publisher}; {self.client}) -> {self.role}"


@dataclass(frozen=True)
class ToSupply:
    """A layer the approvals need that no public query service is known to publish: the office supplies it."""

    role: str
    title: str
    publisher: str
    where: str
    how: str

    def note(self) -> str:
        return (f"{self.role}: {self.title} ({self.publisher}) is not fetched (no public query service is known: "
                f"{self.where}); supply it in layers.yaml as {self.how}")


SOURCES: tuple[Source, ...] = (
    Source("place", "Census TIGER/Line place boundary", "U.S. Census Bureau", "pygris.places",
           TIGER_URL, "place", "village_boundary", "village_boundary.gpkg", "file download (zipped shapefile)",
           "NAMELSAD, NAME (the place named)"),
    Source("nfhl_zones", "FEMA National Flood Hazard Layer: flood hazard zones", "FEMA", "pygeohydro.NFHL",
           f"{NFHL_URL}/28", "flood hazard zones", "floodplain", "nfhl.gpkg", "ArcGIS REST MapServer layer (query)",
           "FLD_ZONE, ZONE_SUBTY, SFHA_TF"),
    Source("nfhl_panels", "FEMA NFHL: FIRM panels (where the NFHL maps flood hazard)", "FEMA", "pygeohydro.NFHL",
           f"{NFHL_URL}/3", "firm panels", "floodplain coverage", "nfhl.gpkg", "ArcGIS REST MapServer layer (query)",
           "FIRM_PAN, EFF_DATE"),
    Source("nfhl_availability", "FEMA NFHL availability", "FEMA", "pygeohydro.NFHL",
           f"{NFHL_URL}/0", "nfhl availability", "floodplain coverage", "nfhl.gpkg", "ArcGIS REST MapServer layer (query)",
           "the features' extent"),
    Source("nwi", "USFWS National Wetlands Inventory", "U.S. Fish and Wildlife Service", "ArcGIS REST query",
           f"{NWI_URL}/0", "0", "wetlands (schema nwi: ponds and rivers sorted out)", "nwi.gpkg",
           "ArcGIS REST MapServer layer (query)", "ATTRIBUTE, WETLAND_TYPE"),
    Source("nwi_projects", "USFWS NWI: wetlands project areas (where NWI has mapped)",
           "U.S. Fish and Wildlife Service", "ArcGIS REST query", f"{NWI_URL}/1", "1", "wetlands coverage",
           "nwi_project_areas.gpkg", "ArcGIS REST MapServer layer (query)", "the features' extent"),
    Source("nysdec_wetlands", f"{NYSDEC_INFORMATIONAL_TITLE} (not the regulatory map)",
           "NYS Department of Environmental Conservation", "ArcGIS REST query", f"{NYSDEC_WETLANDS_URL}/0",
           "0", "nysdec_wetlands (state wetland screen, status by the regime in force on the analysis date; "
           "not a deduction)", "nysdec_wetlands.gpkg", "ArcGIS REST MapServer layer (query)",
           "the polygons; WETLAND_ID, NAME or CLASS to name them"),
    Source("nhd_flowlines", "USGS National Hydrography Dataset: streams (high resolution)", "USGS", "pynhd.NHD",
           NHD_URL, "flowline_hr", "watercourses", "nhd.gpkg", "ArcGIS REST MapServer layer (pynhd)",
           "the lines; GNIS_NAME to name them"),
    Source("nhd_waterbodies", "USGS National Hydrography Dataset: water bodies (high resolution)", "USGS",
           "pynhd.NHD", NHD_URL, "waterbody_hr", "water_bodies", "nhd.gpkg", "ArcGIS REST MapServer layer (pynhd)",
           "the polygons; GNIS_NAME to name them"),
    Source("wbd_huc12", "USGS Watershed Boundary Dataset: HUC-12 watersheds (where the NHD features come from)",
           "USGS", "pynhd.WBD", f"{WBD_URL}/6", "huc12", "watercourses and water bodies coverage", "wbd.gpkg",
           "ArcGIS REST MapServer layer (pynhd)", "HUC12, the features' extent"),
    Source("dem", "USGS 3D Elevation Program DEM (1 m where it exists)", "USGS", "py3dep.get_dem", DEP3_URL,
           "DEM", "dem (EPSG:2260, US survey feet)", "dem.tif", "ArcGIS REST ImageServer (exportImage)",
           "elevation, metres"),
    Source("parcels", "NYS GIS tax parcels (public counties)", "NYS Office of Information Technology Services",
           "ArcGIS REST query", f"{NYS_PARCELS_URL}/1", "1", "parcels", "parcels.gpkg",
           "ArcGIS REST MapServer layer (query)", "PRINT_KEY, SBL or SWIS_SBL_ID; PARCEL_ADDR"),
    Source("county", "Census TIGER/Line county boundary", "U.S. Census Bureau", "pygris.counties",
           TIGER_COUNTY_URL, "county", "parcels coverage (a county shares its parcels or not)", "county.gpkg",
           "file download (zipped shapefile)", "STATEFP, NAMELSAD"),
    Source("nysdot_ris", "NYSDOT Roadway Inventory System: state and county roads (by JURISDICTION)",
           "NYS Department of Transportation", "ArcGIS REST query", f"{NYSDOT_ROADWAY_URL}/3", "3",
           "state_county_roads (GML § 239-m(3)(b)(iii); centre lines, no right-of-way width)",
           "state_county_roads.gpkg", "ArcGIS REST FeatureServer layer (query)",
           "JURISDICTION (kept: " + ", ".join(RIS_STATE_COUNTY_CODES) + "), ROUTE, ROAD_NAME"),
)
"""Every source ``fetch-official`` reads, in the order it reads them."""

SUPPLIED: tuple[ToSupply, ...] = (
    ToSupply("parkland", "State and county park boundaries", "NYS OPRHP; Palisades Interstate Park Commission "
             "(Harriman State Park); Rockland County (county parks)",
             "NYS OPRHP publishes its park boundaries as a download on the NYS GIS Clearinghouse",
             "'parkland: {path: FILE, coverage: everywhere, source: ..., downloaded: YYYY-MM-DD}'"),
    ToSupply("public_institutions", "State or county land on which a public building or institution stands",
             "Rockland County Real Property Tax Service (owner of each parcel)",
             "no layer publishes it; select the state- and county-owned parcels with a building",
             "'public_institutions: {path: FILE, coverage: everywhere, source: ..., downloaded: YYYY-MM-DD}'"),
    ToSupply("ag_district_farms", "Farm operations in a NYS agricultural district",
             "NYS Department of Agriculture and Markets (district maps via Cornell IRIS, CUGIR); the county",
             "the districts are county shapefiles to download from CUGIR, and the trigger is a farm operation in a "
             "district, not the district",
             "'ag_district_farms: {path: FILE, coverage: everywhere, ...}' (an empty file with coverage: everywhere "
             "when the county has no farm in a district within reach)"),
    ToSupply("nysdec_wetlands", "NYS Regulatory Freshwater Wetlands (the official map's county coverage)",
             "NYS Department of Environmental Conservation",
             "DEC publishes the regulatory map as county files (Rockland County's last update 1998-02-02 by DEC's "
             "read-me); the service fetched is DEC's informational mapping",
             "'nysdec_wetlands: {path: FILE, coverage: everywhere, ...}' in place of the fetched informational map"),
)
"""The layers the approvals need that ``fetch-official`` cannot fetch: it says so, and how to give each."""

ZONING_NOTE = ("Village zoning: a file the office supplies (--zoning FILE --zoning-field FIELD); "
               "no public service publishes it.")


def sources_help() -> str:
    """The sources as lines for ``--help`` (no optional package needed)."""
    lines = [f"  - {s.help_line()}" for s in SOURCES]
    supplied = [f"  - {s.role}: {s.title} (supplied by the office)" for s in SUPPLIED]
    return "\n".join(["sources:", *lines, f"  - {ZONING_NOTE}", *supplied])


