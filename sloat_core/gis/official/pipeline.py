"""``fetch_official``: the village's boundary, then each source in turn, to a folder and its ``layers.yaml``."""

from __future__ import annotations

import datetime as dt
import math
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import geopandas as gpd
import pandas as pd
import shapely
import yaml

from sloat_core.errors import ServiceAnswerError, SloatInputError, SourceError
from sloat_core.gis.official.convert import (
    _clip,
    _nfhl_effective,
    _PlainDumper,
    _to_work,
    _uncovered_share,
    _warp_dem_to_us_feet,
    _write,
)
from sloat_core.gis.official.place import parse_place
from sloat_core.gis.official.services import Download, LiveServices
from sloat_core.gis.official_sources import (
    M_TO_US_FT,
    NYSDEC_MAP_STATUS_INFORMATIONAL,
    RIS_STATE_COUNTY_CODES,
    SOURCES,
    SUPPLIED,
    Source,
)
from sloat_core.units import WORK_CRS

__all__ = ["FetchReport", "fetch_official", "NYSDEC_STATUS_COMMENT", "state_county_roads"]

#: The manifest's word on the NYSDEC map (the role ``nysdec_wetlands``): read by the state wetland screen only.
NYSDEC_STATUS_COMMENT = (
    "# nysdec_wetlands: the state wetland screen's map (ECL Article 24); whether it is regulatory or informational\n"
    "# follows the regime in force on the analysis date (nysdec_wetland_regimes in data/settings/state_law.yaml);\n"
    "# never a deduction.\n")


def state_county_roads(gdf: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """The state and county roads of a Roadway Inventory System answer: the features whose JURISDICTION code
    (``"01 NYSDOT"``, or the bare code ``"01"`` / ``1``) is one of :data:`RIS_STATE_COUNTY_CODES`.

    Raises
    ------
    SourceError
        When the answer has no JURISDICTION field (the roads would be unknown, not none).
    """
    col = next((c for c in gdf.columns if str(c).upper() == "JURISDICTION"), None)
    if col is None:
        if not len(gdf):
            return gdf
        raise ServiceAnswerError("The NYSDOT road inventory answered without a JURISDICTION field, so state and "
                                 "county roads cannot be told from town roads.")
    return gdf[gdf[col].map(_ris_code).isin(RIS_STATE_COUNTY_CODES)].copy()


#: The inventory's names of the kept codes, for an answer that gives the name without its code.
_RIS_NAMES = {"NYSDOT": "01", "COUNTY": "02", "STATE PARKS": "11", "OTHER STATE AGENCIES": "21",
              "NYS THRUWAY": "31", "THRUWAY AUTHORITY": "31"}


def _ris_code(value) -> str:
    """``"01 NYSDOT"``, ``"01"``, ``1`` or ``"NYSDOT"`` -> ``"01"``; anything else -> its code or ``""``.

    >>> [_ris_code(v) for v in ("02 County", 31, "NYSDOT", "03 Town", None)]
    ['02', '31', '01', '03', '']
    """
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, (int, float)):
        return f"{int(value):02d}" if value == value else ""
    text = str(value).strip()
    digits = re.match(r"\d+", text)
    if digits:
        return digits.group(0).zfill(2)
    return _RIS_NAMES.get(" ".join(text.upper().split()), "")


@dataclass
class FetchReport:
    """What a fetch wrote and what needs the office's attention."""

    manifest: Path
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: Sources that failed, one sentence each ("role: why"); their roles are left out (unknown).
    missing: list[str] = field(default_factory=list)


def fetch_official(
    out_dir: str | Path,
    *,
    place: str = "Sloatsburg village, NY",
    buffer_ft: float = 1000.0,
    services: Any = None,
    zoning: str | Path | None = None,
    zoning_field: str = "ZONE",
    today: dt.date | None = None,
    progress: Callable[[str, str], Any] | None = None,
) -> FetchReport:
    """Download, clip and convert the official layers for ``place`` into ``out_dir``; write ``layers.yaml``.

    Parameters
    ----------
    out_dir : path
        Created if missing; files in it with the same names are replaced.
    place : str
        The Census place, as ``"<NAMELSAD>, <state>"``.
    buffer_ft : float
        Distance around the boundary fetched too (US survey feet).
    services : LiveServices or RecordedServices, optional
        Default: the live services (needs the extra).
    zoning : path, optional
        The office's zoning file (any format the manifest reads); copied as ``zoning.gpkg``.
    zoning_field : str
        Its district code field.
    today : date, optional
        The download date recorded (default: today).
    progress : callable, optional
        ``progress(source title, "done: <what>")`` after each source.

    Returns
    -------
    FetchReport
    """
    if not (isinstance(buffer_ft, (int, float)) and math.isfinite(buffer_ft) and 0 <= buffer_ft <= 52_800):
        raise SloatInputError("The buffer must be a number of feet from 0 to 52,800 (10 miles).")
    name, state, fips = parse_place(place)
    services = services if services is not None else LiveServices()
    today = today or dt.date.today()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = out / ".download"
    work.mkdir(exist_ok=True)
    report = FetchReport(manifest=out / "layers.yaml")
    tell = progress or (lambda *_: None)
    by_key = {s.key: s for s in SOURCES}

    def meta(src: Source, dl: Download, **extra) -> dict:
        doc = {"source": f"{src.title} ({src.publisher})", "url": dl.url or src.url, "query": dl.query,
               "downloaded": today.isoformat()}
        if dl.publisher_version:
            doc["publisher_version"] = dl.publisher_version
        if src.service:
            doc["service_type"] = src.service
        if src.fields:
            doc["fields_used"] = src.fields
        doc.update(extra)
        return doc

    # 1. The boundary.
    src = by_key["place"]
    dl = services.place(name, state, fips)
    places = dl.gdf
    col = next((c for c in ("NAMELSAD", "NAME") if c in places.columns), None)
    if col is None:
        raise SloatInputError("The TIGER/Line place file has no NAMELSAD or NAME field.")
    hit = places[places[col].astype(str).str.lower() == name.lower()]
    if not len(hit) and col == "NAMELSAD" and "NAME" in places.columns:
        hit = places[places["NAME"].astype(str).str.lower() == name.lower()]
    if not len(hit):
        import difflib  # noqa: PLC0415

        close = difflib.get_close_matches(name, places[col].astype(str).tolist(), n=3)
        hint = f" Close names: {', '.join(close)}." if close else ""
        raise SloatInputError(f"The Census has no place named '{name}' in {state}.{hint}")
    boundary = _to_work(hit)
    village = shapely.union_all(boundary.geometry.values)
    area = village.buffer(float(buffer_ft))
    area_4326 = gpd.GeoSeries([area], crs=WORK_CRS).to_crs(4326).iloc[0].simplify(1e-5)
    _write(boundary, out / src.file, "village_boundary")
    _write(gpd.GeoDataFrame({"NAME": [f"{name} + {buffer_ft:g} ft"]}, geometry=[area], crs=WORK_CRS),
           out / "fetch_area.gpkg", "fetch_area")
    layers: dict[str, Any] = {"village_boundary": {"path": src.file, **meta(src, dl)}}
    report.counts["place"] = len(boundary)
    tell(src.title, f"{len(boundary)} feature(s), {dl.nbytes:,} bytes")
    area_cov = {"path": "fetch_area.gpkg"}

    def attempt(what: str, roles: str, fn: Callable[[], Any]) -> Any:
        """Run one source; a source that fails is reported and its role left out (hence unknown)."""
        try:
            return fn()
        except SourceError as exc:
            report.missing.append(f"{roles}: {exc}")
            tell(what, "failed")
            return None

    def fetched(key: str, dl: Download, gdf: gpd.GeoDataFrame) -> None:
        report.counts[key] = len(gdf)
        tell(by_key[key].title, f"{len(gdf)} feature(s), {dl.nbytes:,} bytes")

    # 2. Flood hazard (NFHL): zones, and the FIRM panels (where FEMA maps flood hazard digitally).
    def nfhl() -> None:
        zones_dl = services.nfhl("flood hazard zones", area_4326)
        zones = _clip(_to_work(zones_dl.gdf), area)
        fetched("nfhl_zones", zones_dl, zones)
        panels_dl = services.nfhl("firm panels", area_4326)
        panels = _clip(_to_work(panels_dl.gdf), area)
        fetched("nfhl_panels", panels_dl, panels)
        avail_dl = services.nfhl("nfhl availability", area_4326)
        avail = _clip(_to_work(avail_dl.gdf), area)
        fetched("nfhl_availability", avail_dl, avail)
        nfhl_path = out / "nfhl.gpkg"
        if nfhl_path.exists():
            nfhl_path.unlink()
        _write(zones, nfhl_path, "S_FLD_HAZ_AR")
        _write(panels, nfhl_path, "S_FIRM_PAN")
        _write(avail, nfhl_path, "NFHL_AVAILABILITY")
        version = _nfhl_effective(panels) or zones_dl.publisher_version
        layers["floodplain"] = {"path": "nfhl.gpkg", "layer": "S_FLD_HAZ_AR", "schema": "fema_nfhl",
                                "coverage": {"path": "nfhl.gpkg", "layer": "S_FIRM_PAN"},
                                **meta(by_key["nfhl_zones"], zones_dl, publisher_version=version or "not stated")}
        if not len(panels):
            report.notes.append("FEMA's NFHL has no FIRM panel here (an area FEMA does not map digitally): the "
                                "floodplain stays unknown; get the paper FIRM from FEMA's Map Service Center.")
        elif _uncovered_share(panels, village) > 0.001:
            report.notes.append("FEMA's FIRM panels do not cover all of the village: the floodplain is unknown "
                                "off the panels.")

    attempt("FEMA NFHL", "floodplain", nfhl)

    # 3. Wetlands: NWI with its project areas (where NWI has mapped), the NYSDEC map (statewide).
    def nwi() -> None:
        s = by_key["nwi"]
        d = services.arcgis(s.url, area_4326)
        gdf = _clip(_to_work(d.gdf), area)
        ps = by_key["nwi_projects"]
        pd_ = services.arcgis(ps.url, area_4326)
        projects = _clip(_to_work(pd_.gdf), area)
        _write(gdf, out / s.file, "nwi")
        _write(projects, out / ps.file, "project_areas")
        fetched("nwi", d, gdf)
        fetched("nwi_projects", pd_, projects)
        layers["wetlands"] = [{"path": s.file, "schema": "nwi",
                               "coverage": {"path": ps.file, "layer": "project_areas"}, **meta(s, d)}]
        if not len(projects):
            report.notes.append("NWI has no mapping project here: wetlands stay unknown.")

    attempt("USFWS NWI", "wetlands", nwi)

    def nysdec() -> None:
        s = by_key["nysdec_wetlands"]
        d = services.arcgis(s.url, area_4326)
        gdf = _clip(_to_work(d.gdf), area)
        gdf["MAP_STATUS"] = NYSDEC_MAP_STATUS_INFORMATIONAL  # read by the state wetland screen
        _write(gdf, out / s.file, "nysdec_wetlands")
        fetched("nysdec_wetlands", d, gdf)
        layers["nysdec_wetlands"] = {"path": s.file, "layer": "nysdec_wetlands", "coverage": area_cov, **meta(s, d)}

    attempt("NYSDEC wetlands", "NYSDEC wetland map", nysdec)

    # Streams and water bodies (NHD), mapped by watershed: the WBD HUC-12s they come from are the coverage.
    def nhd() -> None:
        ws = by_key["wbd_huc12"]
        wd = services.wbd(ws.layer, area_4326)
        hucs = _clip(_to_work(wd.gdf), area)
        wbd_path = out / ws.file
        if wbd_path.exists():
            wbd_path.unlink()
        _write(hucs, wbd_path, "huc12")
        fetched("wbd_huc12", wd, hucs)
        nhd_path = out / "nhd.gpkg"
        if nhd_path.exists():
            nhd_path.unlink()
        for key, lyr in (("nhd_flowlines", "flowlines"), ("nhd_waterbodies", "waterbodies")):
            s = by_key[key]
            role = s.role
            d = services.nhd(s.layer, area_4326)
            gdf = _clip(_to_work(d.gdf), area)
            _write(gdf, nhd_path, lyr)
            fetched(key, d, gdf)
            layers[role] = {"path": "nhd.gpkg", "layer": lyr, "coverage": {"path": ws.file, "layer": "huc12"},
                            **meta(s, d)}
        if not len(hucs):
            report.notes.append("The Watershed Boundary Dataset returned no HUC-12 here: streams and water "
                                "bodies stay unknown.")

    attempt("USGS NHD and WBD", "watercourses and water bodies", nhd)

    # 4. Elevation (3DEP), to EPSG:2260 and US survey feet.
    def dem() -> dict:
        s = by_key["dem"]
        d = services.dem(area_4326, work)
        cell, n_cells = _warp_dem_to_us_feet(d.raster, out / s.file, area, M_TO_US_FT)
        report.counts["dem_cells"] = n_cells
        tell(s.title, f"{n_cells:,} cells of {cell:g} ft, {d.nbytes:,} bytes")
        return {"path": s.file, "z_units": "us_survey_foot", **meta(s, d),
                "note": f"warped to EPSG:2260 at {cell:g} ft cells (bilinear); metres x 3937/1200"}

    dem_doc = attempt("USGS 3DEP", "dem (slopes)", dem)

    # 5. Tax parcels (NYS public service; some counties do not share theirs), within their county.
    def parcels_step() -> None:
        cs = by_key["county"]
        cd = services.county(state, fips, area_4326)
        counties = _to_work(cd.gdf)
        if "STATEFP" in counties.columns:
            counties = counties[counties["STATEFP"].astype(str) == fips]
        counties = _clip(counties, area)
        _write(counties, out / cs.file, "county")
        fetched("county", cd, counties)
        s = by_key["parcels"]
        d = services.arcgis(s.url, area_4326)
        parcels = _clip(_to_work(d.gdf), area, cut=False)
        fetched("parcels", d, parcels)
        county_names = [str(v) for v in counties.get("NAMELSAD", counties.get("NAME", pd.Series([], dtype=str)))]
        cov = {"path": cs.file, "layer": "county"}
        if len(parcels):
            _write(parcels, out / s.file, "parcels")
            id_field = next((c for c in ("PRINT_KEY", "SBL", "SWIS_SBL_ID") if c in parcels.columns), None)
            entry = {"path": s.file, "layer": "parcels", "coverage": cov, **meta(s, d)}
            if id_field:
                entry["id_field"] = id_field
            if "PARCEL_ADDR" in parcels.columns:
                entry["address_field"] = "PARCEL_ADDR"
            layers["parcels"] = entry
        else:
            county = (county_names[0] if county_names else
                      ("Rockland County" if name.lower().startswith("sloatsburg") else "this county"))
            report.notes.append(
                f"The NYS GIS tax parcel service has no public parcels here: {county} does not share its parcels "
                "through it; get them from the county's GIS office and add them to layers.yaml as 'parcels'.")

    attempt("NYS tax parcels", "parcels", parcels_step)

    # 6. State and county roads (GML § 239-m(3)(b)(iii)): NYSDOT's Roadway Inventory System, kept by JURISDICTION.
    def roads() -> None:
        s = by_key["nysdot_ris"]
        d = services.arcgis(s.url, area_4326)
        gdf = _clip(_to_work(d.gdf), area, cut=False)
        kept = state_county_roads(gdf)
        _write(kept, out / s.file, "state_county_roads")
        fetched("nysdot_ris", d, kept)
        layers["state_county_roads"] = {"path": s.file, "layer": "state_county_roads", "coverage": area_cov,
                                        **meta(s, d)}
        report.notes.append(
            "NYSDOT's road inventory gives centre lines, not rights-of-way: the distance to a state or county road "
            "is measured from its centre line (widened by the manifest's default width); a parcel a little beyond "
            "500 ft of a centre line may be within 500 ft of the right-of-way: check the right-of-way, or add its "
            "width as width_field.")

    attempt("NYSDOT road inventory", "state_county_roads", roads)

    # 7. What the approvals need and no public query service publishes: said, with how to give each.
    for sup in SUPPLIED:
        report.notes.append(sup.note())

    # 8. Zoning: the office's file.
    if zoning is not None:
        zpath = Path(zoning)
        try:
            zgdf = gpd.read_file(zpath)
        except Exception as exc:  # noqa: BLE001
            raise SloatInputError(f"The zoning file {zpath.name} could not be read as map data.") from exc
        if zoning_field not in zgdf.columns:
            raise SloatInputError(f"The zoning file {zpath.name} has no field '{zoning_field}' (use --zoning-field).")
        if zgdf.crs is None:
            raise SloatInputError(f"The zoning file {zpath.name} has no coordinate system.")
        _write(_to_work(zgdf), out / "zoning.gpkg", "zoning")
        layers["zoning"] = {"path": "zoning.gpkg", "layer": "zoning", "district_field": zoning_field,
                            "source": f"Village of {name.split()[0]} zoning map (supplied by the office: {zpath.name})",
                            "downloaded": today.isoformat()}
    else:
        report.notes.append("Zoning is not fetched (no public service): add the village's zoning map with "
                            "--zoning FILE --zoning-field FIELD, or as 'zoning' in layers.yaml.")

    doc = {
        "name": f"Official layers for {name}, {state}",
        "version": today.isoformat(),
        "illustrative": False,
        "notice": ("Official data as published, fetched by fetch-official on " + today.isoformat()
                   + "; the office must confirm wetland delineations and supply zoning."),
        "place": place,
        "created": today.isoformat(),
        "generated_by": f"python -m sloat_core fetch-official --place \"{place}\" --buffer-ft {buffer_ft:g}",
        "layers": layers,
        "dem": dem_doc,
    }
    if dem_doc is None:
        del doc["dem"]
    report.manifest.write_text(
        "# Written by fetch-official; each layer records its source, service URL, query, download date and the\n"
        "# publisher's version. Coverage as each publisher cuts its data: FIRM panels (NFHL), NWI project areas,\n"
        "# WBD HUC-12 watersheds (NHD), the county (parcels), the fetch area (the statewide NYSDEC map).\n"
        + NYSDEC_STATUS_COMMENT
        + "".join(f"# MISSING (unknown): {m}\n" for m in report.missing)
        + "".join(f"# TO SUPPLY: {s.role}: {s.title} ({s.publisher}); as {s.how}\n" for s in SUPPLIED)
        + yaml.dump(doc, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
    shutil.rmtree(work, ignore_errors=True)
    return report
