"""The official services: live (the HyRiver clients and pygris, the optional extra) and recorded (responses
saved in their wire format, replayed by the tests or by a fetch repeated offline). Both answer a
:class:`Download`; a service's error payload or a failure to reach it is one sentence."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import geopandas as gpd
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import ServiceAnswerError, SloatInputError, SourceUnavailable
from sloat_core.gis.official_sources import (
    DEP3_URL,
    INSTALL_HINT,
    NFHL_URL,
    NHD_URL,
    SOURCES,
    TIGER_COUNTY_URL,
    TIGER_URL,
    WBD_URL,
)

__all__ = ["Download", "LiveServices", "RecordedServices", "arcgis_error_sentence"]


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

        return self._layer_in(lambda: NFHL("NFHL", layer), _NFHL_LAYER_URL.get(layer, NFHL_URL), layer, geom)

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

        return self._layer_in(lambda: NHD(layer), NHD_URL, layer, geom)

    @_service_call("USGS Watershed Boundary Dataset layer")
    def wbd(self, layer: str, geom: BaseGeometry) -> Download:
        from pynhd import WBD  # noqa: PLC0415

        return self._layer_in(lambda: WBD(layer), WBD_URL, layer, geom)

    def _layer_in(self, client: Callable[[], Any], url: str, layer: str, geom: BaseGeometry) -> Download:
        """One named layer's features meeting the fetch area, from a HyRiver client's ``bygeom`` (NFHL, NHD, WBD);
        the client is made after ``self._asked`` is set, so a service that fails as it is reached is named."""
        query = f"bygeom(intersects the fetch area), layer '{layer}'"
        self._asked = (url, query)
        gdf = client().bygeom(geom, geo_crs=4326)
        return Download(gdf=gdf, query=query, url=url)

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
