"""Official layers from the official sources: one command from the services to a layer manifest.

``python -m sloat_core fetch-official --out DIR`` finds the village's boundary (Census TIGER/Line),
buffers it, asks each publisher's service for what lies inside, and writes what the app and CLI
read as they are: GeoPackages and a DEM in EPSG:2260 (elevations in US survey feet) and
``DIR/layers.yaml``, recording for each layer its source, service URL, query, download date and the
publisher's version or date.

The network is reached only through the field's maintained clients (the HyRiver family and pygris),
an optional extra (``pip install -r requirements-official.txt``): :class:`LiveServices`. Everything
after the download -- clipping, reprojection, unit conversion, the manifest -- is the same code for
:class:`RecordedServices`, which replays service responses saved in their wire format (GeoJSON as an
ArcGIS REST ``query?f=geojson`` returns it, the TIGER/Line zipped shapefile, the 3DEP GeoTIFF). The
tests run on those; no test reaches the internet.

This module is part of ``gis``: it reads and writes map files and never imports the rules.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import math
import re
import shutil
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import yaml
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import ServiceAnswerError, SloatInputError, SourceError, SourceUnavailable
from sloat_core.units import WORK_CRS

__all__ = [
    "SOURCES",
    "Source",
    "FetchReport",
    "LiveServices",
    "RecordedServices",
    "INSTALL_HINT",
    "fetch_official",
    "parse_place",
    "sources_help",
]

from sloat_core.gis.official_sources import (  # noqa: E402 -- the light half, shared with --help
    DEP3_URL,
    INSTALL_HINT,
    M_TO_US_FT,
    NFHL_URL,
    NHD_URL,
    SOURCES,
    TIGER_COUNTY_URL,
    TIGER_URL,
    WBD_URL,
    Source,
    sources_help,
)

# ----------------------------------------------------------------------------------------------
# The place
# ----------------------------------------------------------------------------------------------

_STATE_FIPS = {
    "AL": "01", "AK": "02", "AZ": "04", "AR": "05", "CA": "06", "CO": "08", "CT": "09", "DE": "10", "DC": "11",
    "FL": "12", "GA": "13", "HI": "15", "ID": "16", "IL": "17", "IN": "18", "IA": "19", "KS": "20", "KY": "21",
    "LA": "22", "ME": "23", "MD": "24", "MA": "25", "MI": "26", "MN": "27", "MS": "28", "MO": "29", "MT": "30",
    "NE": "31", "NV": "32", "NH": "33", "NJ": "34", "NM": "35", "NY": "36", "NC": "37", "ND": "38", "OH": "39",
    "OK": "40", "OR": "41", "PA": "42", "RI": "44", "SC": "45", "SD": "46", "TN": "47", "TX": "48", "UT": "49",
    "VT": "50", "VA": "51", "WA": "53", "WV": "54", "WI": "55", "WY": "56", "PR": "72",
}


def parse_place(text: str) -> tuple[str, str, str]:
    """``"Sloatsburg village, NY"`` -> ``("Sloatsburg village", "NY", "36")`` (name as TIGER's NAMELSAD).

    Examples
    --------
    >>> parse_place("Sloatsburg village, NY")
    ('Sloatsburg village', 'NY', '36')
    """
    m = re.fullmatch(r"\s*(.+?)\s*,\s*([A-Za-z]{2})\s*", str(text or ""))
    if not m or m.group(2).upper() not in _STATE_FIPS:
        raise SloatInputError(
            f"The place '{text}' is not understood; write it as the Census names it, e.g. \"Sloatsburg village, NY\"."
        )
    state = m.group(2).upper()
    return m.group(1), state, _STATE_FIPS[state]


# ----------------------------------------------------------------------------------------------
# Services: live (HyRiver) and recorded (files in the wire format)
# ----------------------------------------------------------------------------------------------


@dataclass
class Download:
    """What a service returned: features (EPSG:4326 or as the service said) or a raster file, and facts."""

    gdf: gpd.GeoDataFrame | None = None
    raster: Path | None = None
    query: str = ""
    url: str = ""
    publisher_version: str | None = None
    nbytes: int = 0


def _names(exc: BaseException) -> set[str]:
    return {k.__name__ for k in type(exc).__mro__}


def arcgis_error_sentence(what: str, error: Any, url: str, query: str) -> str:
    """One sentence with the service's own code and message, the service and the query.

    >>> print(arcgis_error_sentence("NWI", {"code": 400, "message": "Bad query."}, "https://x/0", "q"))
    The NWI service answered with an error (code 400: Bad query.); service https://x/0, query q.
    """
    if isinstance(error, dict):
        code = error.get("code")
        message = str(error.get("message") or "no message").strip()
        details = [str(d).strip() for d in (error.get("details") or []) if str(d).strip()]
        if details:
            message = f"{message.rstrip('.')}: {'; '.join(details)}"
    else:
        code, message = None, str(error).strip()
    message = " ".join(message.split())[:400]
    head = f"code {code}: {message}" if code is not None else message
    return f"The {what} service answered with an error ({head}); service {url or 'not recorded'}, query {query or 'not recorded'}."


def _error_in_text(text: str) -> dict | None:
    """An ArcGIS error payload inside a client's error text, e.g. ``{'code': 400, 'message': '...'}``."""
    code = re.search(r"""["']?code["']?\s*[:=]\s*(\d{3})""", text)
    msg = re.search(r"""["']?message["']?\s*[:=]\s*["']([^"']+)["']""", text)
    if code or msg:
        return {"code": int(code.group(1)) if code else None, "message": msg.group(1) if msg else text}
    return None


def _service_call(what: str):
    """A client's answer as it comes: zero features (pygeoogc's ZeroMatchedError) is an empty answer, a
    service's error payload is its code and message (with the service and query), a failure to reach it
    the connection sentence. The service and query come from ``self._asked`` (set before the call)."""
    def wrap(fn):
        def inner(self, *args, **kwargs):
            self._asked = ("", "")
            try:
                return fn(self, *args, **kwargs)
            except SloatInputError:
                raise
            except Exception as exc:  # noqa: BLE001 -- network and service errors come in many kinds
                url, query = getattr(self, "_asked", ("", ""))
                names = _names(exc)
                if "ZeroMatchedError" in names:
                    return Download(gdf=gpd.GeoDataFrame(geometry=gpd.GeoSeries([], crs=4326)), url=url,
                                    query=f"{query} (the service returned no features)")
                text = str(exc)
                payload = _error_in_text(text)
                if "ServiceError" in names or payload is not None:
                    said = payload or ((text.splitlines() or [type(exc).__name__])[0])
                    raise ServiceAnswerError(arcgis_error_sentence(what, said, url, query)) from exc
                raise SourceUnavailable(
                    f"The {what} could not be fetched ({type(exc).__name__}); check the internet connection "
                    "and try again later."
                ) from exc
        inner.__name__ = fn.__name__
        inner.__doc__ = fn.__doc__
        return inner
    return wrap


class LiveServices:
    """The official services through the HyRiver clients and pygris (the optional extra).

    Raises
    ------
    SloatInputError
        When the extra is not installed (one sentence: how to install it).
    """

    def __init__(self, *, tiger_year: int = 2024) -> None:
        try:
            import py3dep  # noqa: F401, PLC0415
            import pygeohydro  # noqa: F401, PLC0415
            import pygeoogc  # noqa: F401, PLC0415
            import pygris  # noqa: F401, PLC0415
            import pynhd  # noqa: F401, PLC0415
        except ImportError as exc:
            raise SloatInputError(INSTALL_HINT) from exc
        self.tiger_year = int(tiger_year)

    @_service_call("Census TIGER/Line place file")
    def place(self, name: str, state: str, fips: str) -> Download:
        import pygris  # noqa: PLC0415

        url = TIGER_URL.format(year=self.tiger_year, fips=fips)
        self._asked = (url, f"NAMELSAD = '{name}'")
        # pygris prints its download messages on stdout; stdout is the command's own output: to stderr.
        with contextlib.redirect_stdout(sys.stderr):
            gdf = pygris.places(state=state, year=self.tiger_year, cache=False)
        return Download(gdf=gdf, url=url, query=f"NAMELSAD = '{name}'", publisher_version=f"TIGER/Line {self.tiger_year}")

    @_service_call("Census TIGER/Line county file")
    def county(self, state: str, fips: str, geom: BaseGeometry) -> Download:
        import pygris  # noqa: PLC0415

        url = TIGER_COUNTY_URL.format(year=self.tiger_year)
        self._asked = (url, f"STATEFP = '{fips}', counties meeting the fetch area")
        with contextlib.redirect_stdout(sys.stderr):
            gdf = pygris.counties(state=state, year=self.tiger_year, cache=False)
        return Download(gdf=gdf, url=url, query=self._asked[1], publisher_version=f"TIGER/Line {self.tiger_year}")

    @_service_call("FEMA NFHL layer")
    def nfhl(self, layer: str, geom: BaseGeometry) -> Download:
        from pygeohydro import NFHL  # noqa: PLC0415

        query = f"bygeom(intersects the fetch area), layer '{layer}'"
        self._asked = (_NFHL_LAYER_URL.get(layer, NFHL_URL), query)
        gdf = NFHL("NFHL", layer).bygeom(geom, geo_crs=4326)
        return Download(gdf=gdf, query=query, url=self._asked[0])

    @_service_call("ArcGIS REST layer")
    def arcgis(self, url: str, geom: BaseGeometry) -> Download:
        from pygeoogc import ArcGISRESTful  # noqa: PLC0415
        from pygeoutils import json2geodf  # noqa: PLC0415

        query = "query?geometry=<fetch area>&spatialRel=esriSpatialRelIntersects&outFields=*"
        self._asked = (url, query)
        base, _, layer = url.rpartition("/")
        client = ArcGISRESTful(base, int(layer), outfields="*", crs=4326)
        oids = client.oids_bygeom(geom, geo_crs=4326)
        resp = client.get_features(oids)
        gdf = json2geodf(resp, 4326, 4326) if resp else gpd.GeoDataFrame(geometry=[], crs=4326)
        return Download(gdf=gdf, query=query, url=url)

    @_service_call("USGS NHD layer")
    def nhd(self, layer: str, geom: BaseGeometry) -> Download:
        from pynhd import NHD  # noqa: PLC0415

        query = f"bygeom(intersects the fetch area), layer '{layer}'"
        self._asked = (NHD_URL, query)
        gdf = NHD(layer).bygeom(geom, geo_crs=4326)
        return Download(gdf=gdf, query=query, url=NHD_URL)

    @_service_call("USGS Watershed Boundary Dataset layer")
    def wbd(self, layer: str, geom: BaseGeometry) -> Download:
        from pynhd import WBD  # noqa: PLC0415

        query = f"bygeom(intersects the fetch area), layer '{layer}'"
        self._asked = (WBD_URL, query)
        gdf = WBD(layer).bygeom(geom, geo_crs=4326)
        return Download(gdf=gdf, query=query, url=WBD_URL)

    @_service_call("USGS 3DEP elevation model")
    def dem(self, geom: BaseGeometry, workdir: Path) -> Download:
        import py3dep  # noqa: PLC0415

        self._asked = (DEP3_URL, "get_dem(fetch area)")
        avail = py3dep.check_3dep_availability(geom.bounds, crs=4326)
        res = 1 if avail.get("1m") is True else (3 if avail.get("3m") is True else 10)
        da = py3dep.get_dem(geom, resolution=res, crs=4326)
        path = workdir / "3dep_dem.tif"
        da.rio.to_raster(path)
        return Download(raster=path, query=f"get_dem(fetch area, resolution={res} m)",
                        publisher_version=f"3DEP dynamic DEM, {res} m ({json.dumps(avail, sort_keys=True)})")


_NFHL_LAYER_URL = {"flood hazard zones": f"{NFHL_URL}/28", "firm panels": f"{NFHL_URL}/3",
                   "nfhl availability": f"{NFHL_URL}/0"}


class RecordedServices:
    """Service responses saved in their wire format, replayed (tests; or a fetch repeated offline).

    Files in ``folder``: ``tiger_place.zip`` (TIGER/Line place shapefile), ``<source key>.geojson``
    (an ArcGIS REST ``query?f=geojson`` response), ``3dep_dem.tif`` (the 3DEP GeoTIFF, metres) and
    ``recorded.json`` (per source: the URL, query and publisher version the response came with).
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SloatInputError(f"The folder of recorded responses {folder} was not found.")
        meta = self.folder / "recorded.json"
        self.meta = json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {}

    def _facts(self, key: str) -> dict:
        return self.meta.get(key, {})

    def _geojson(self, key: str) -> Download:
        """``<key>.geojson`` (``f=geojson``) or ``<key>.json`` (``f=json``: Esri JSON, read by GDAL's ESRIJSON
        driver with its ``spatialReference``); an ``{"error": ...}`` payload is the service's error."""
        path = self.folder / f"{key}.geojson"
        if not path.is_file() and (self.folder / f"{key}.json").is_file():
            path = self.folder / f"{key}.json"
        src = next((s for s in SOURCES if s.key == key), None)
        f = self._facts(key)
        url, query = f.get("url", "") or (src.url if src else ""), f.get("query", "")
        if not path.is_file():
            raise SourceUnavailable(f"No recorded response for {key} in {self.folder.name}.")
        data = path.read_bytes()
        try:
            doc = json.loads(data)
        except ValueError as exc:
            raise ServiceAnswerError(arcgis_error_sentence(src.title if src else key, "the answer is not JSON",
                                                           url, query)) from exc
        if isinstance(doc, dict) and "error" in doc:  # ArcGIS REST reports failures as {"error": {...}}, HTTP 200
            raise ServiceAnswerError(arcgis_error_sentence(src.title if src else key, doc["error"], url, query))
        feats = doc.get("features") or []
        if feats and isinstance(feats[0], dict) and "attributes" in feats[0]:  # Esri JSON (f=json)
            import pyogrio  # noqa: PLC0415

            gdf = pyogrio.read_dataframe(path)
            if gdf.crs is None:
                gdf = gdf.set_crs(4326)
        elif feats:
            gdf = gpd.GeoDataFrame.from_features(feats, crs=4326)
        else:
            gdf = gpd.GeoDataFrame(geometry=gpd.GeoSeries([], crs=4326))
        if not feats:
            query = f"{query} (the service returned no features)"
        return Download(gdf=gdf, query=query, url=url, publisher_version=f.get("publisher_version"), nbytes=len(data))

    def _zip(self, key: str, file: str, query: str) -> Download:
        path = self.folder / file
        if not path.is_file():
            raise SourceUnavailable(f"No recorded response for {key} in {self.folder.name}.")
        gdf = gpd.read_file(f"zip://{path}")
        f = self._facts(key)
        return Download(gdf=gdf, url=f.get("url", ""), query=query, publisher_version=f.get("publisher_version"),
                        nbytes=path.stat().st_size)

    def place(self, name: str, state: str, fips: str) -> Download:
        return self._zip("place", "tiger_place.zip", f"NAMELSAD = '{name}'")

    def county(self, state: str, fips: str, geom: BaseGeometry) -> Download:
        return self._zip("county", "tiger_county.zip", f"STATEFP = '{fips}', counties meeting the fetch area")

    def nfhl(self, layer: str, geom: BaseGeometry) -> Download:
        key = {"flood hazard zones": "nfhl_zones", "firm panels": "nfhl_panels",
               "nfhl availability": "nfhl_availability"}[layer]
        return self._geojson(key)

    def arcgis(self, url: str, geom: BaseGeometry) -> Download:
        key = next(s.key for s in SOURCES if s.url == url)
        return self._geojson(key)

    def nhd(self, layer: str, geom: BaseGeometry) -> Download:
        return self._geojson({"flowline_hr": "nhd_flowlines", "waterbody_hr": "nhd_waterbodies"}[layer])

    def wbd(self, layer: str, geom: BaseGeometry) -> Download:
        return self._geojson("wbd_huc12")

    def dem(self, geom: BaseGeometry, workdir: Path) -> Download:
        path = self.folder / "3dep_dem.tif"
        if not path.is_file():
            raise SourceUnavailable(f"No recorded response for dem in {self.folder.name}.")
        f = self._facts("dem")
        return Download(raster=path, query=f.get("query", ""), url=f.get("url", ""),
                        publisher_version=f.get("publisher_version"), nbytes=path.stat().st_size)


# ----------------------------------------------------------------------------------------------
# The pipeline
# ----------------------------------------------------------------------------------------------


@dataclass
class FetchReport:
    """What a fetch wrote and what needs the office's attention."""

    manifest: Path
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: Sources that failed, one sentence each ("role: why"); their roles are left out (unknown).
    missing: list[str] = field(default_factory=list)


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
        _write(gdf, out / s.file, "nysdec_wetlands")
        fetched("nysdec_wetlands", d, gdf)
        informational["nysdec_wetlands"] = {
            "path": s.file, "coverage": area_cov, **meta(s, d),
            "status": ("state wetland screen: its status follows the regime in force on the analysis date "
                       "(nysdec_wetland_regimes in data/settings/state_law.yaml); never a deduction")}

    informational: dict[str, Any] = {}
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
        for key, role, lyr in (("nhd_flowlines", "watercourses", "flowlines"),
                               ("nhd_waterbodies", "water_bodies", "waterbodies")):
            s = by_key[key]
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

    # 6. Zoning: the office's file.
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
    if informational:
        doc["informational"] = informational
    report.manifest.write_text(
        "# Written by fetch-official; each layer records its source, service URL, query, download date and the\n"
        "# publisher's version. Coverage as each publisher cuts its data: FIRM panels (NFHL), NWI project areas,\n"
        "# WBD HUC-12 watersheds (NHD), the county (parcels), the fetch area (the statewide NYSDEC map).\n"
        + "".join(f"# MISSING (unknown): {m}\n" for m in report.missing)
        + yaml.dump(doc, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
    shutil.rmtree(work, ignore_errors=True)
    return report


class _PlainDumper(yaml.SafeDumper):
    """Writes repeated values out in full (no &anchors): the manifest is read by people too."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def make_recorded_fixture_zip(shp_dir: Path, out_zip: Path) -> None:
    """Zip a shapefile folder as TIGER/Line ships it (flat, one shapefile). Used by tools/make_official_fixtures.py."""
    with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(shp_dir.iterdir()):
            zf.write(p, p.name)
