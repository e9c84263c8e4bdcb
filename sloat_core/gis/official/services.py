"""The official services: live (the HyRiver clients and pygris, the optional extra; the ArcGIS REST layers by
:func:`arcgis_layer`'s own query) and recorded (responses saved in their wire format, replayed by the tests or by
a fetch repeated offline). Both answer a :class:`Download`; a service's error payload or a failure to reach it is
one sentence, never an empty layer: a live ArcGIS answer and a recorded one are read by one function
(:func:`read_arcgis_answer`)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import geopandas as gpd
import pandas as pd
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

__all__ = ["Download", "LiveServices", "RecordedServices", "arcgis_error_sentence", "arcgis_layer",
           "read_arcgis_answer"]


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


#: What pygeoogc's ZeroMatchedError carries when the service matched nothing (``oids_bygeom``'s own words).
_NO_MATCH = "No matched records"


def _zero_matched_message(exc: BaseException) -> str | None:
    """The service's own words inside pygeoogc's ZeroMatchedError, or None when it means "no features".

    pygeoogc raises ZeroMatchedError for an answer of no features, but also for an ArcGIS error payload (its
    message after "error message:") and for an answer that is not JSON (the ValueError it comes from): those are
    errors, never an empty layer.

    >>> class ZeroMatchedError(ValueError): pass
    >>> _zero_matched_message(ZeroMatchedError("Service returned no features."))
    >>> _zero_matched_message(ZeroMatchedError("Service returned no features with the following error message:\\n"
    ...                                         "No matched records"))
    >>> _zero_matched_message(ZeroMatchedError("Service returned no features with the following error message:\\n"
    ...                                         "Unable to complete operation."))
    'Unable to complete operation.'
    """
    text = str(getattr(exc, "message", None) or exc).strip()
    head, sep, said = text.partition("error message:")
    said = " ".join(said.split())
    if sep and said and said != _NO_MATCH:
        return said
    cause = exc.__cause__
    if cause is not None and not sep:  # the client could not read the answer (not JSON)
        return f"the answer could not be read ({type(cause).__name__})"
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
                text = str(exc)
                if "ZeroMatchedError" in names:
                    said = _zero_matched_message(exc)
                    if said is None:
                        return Download(gdf=gpd.GeoDataFrame(geometry=gpd.GeoSeries([], crs=4326)), url=url,
                                        query=f"{query} (the service returned no features)")
                    raise ServiceAnswerError(arcgis_error_sentence(what, _error_in_text(said) or said, url,
                                                                   query)) from exc
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


def read_arcgis_answer(data: bytes, what: str, url: str, query: str) -> tuple[gpd.GeoDataFrame, int, bool]:
    """An ArcGIS REST query's answer as it comes, live or recorded: its features (``f=geojson``, or Esri JSON
    ``f=json`` read by GDAL with its ``spatialReference``), their number, and whether the service has more
    (``exceededTransferLimit``, at the top or, in some servers' GeoJSON, under ``properties``).

    Raises
    ------
    ServiceAnswerError
        The answer is an ``{"error": ...}`` payload (ArcGIS REST reports failures so, often with HTTP 200) or is not
        JSON with features: one sentence with the service's own code and message, the service and the query.
    """
    try:
        doc = json.loads(data)
    except ValueError as exc:
        raise ServiceAnswerError(arcgis_error_sentence(what, "the answer is not JSON", url, query)) from exc
    if isinstance(doc, dict) and "error" in doc:
        raise ServiceAnswerError(arcgis_error_sentence(what, doc["error"], url, query))
    if not isinstance(doc, dict) or not isinstance(doc.get("features", []), list):
        raise ServiceAnswerError(arcgis_error_sentence(what, "the answer holds no list of features", url, query))
    feats = doc.get("features") or []
    if feats and isinstance(feats[0], dict) and "attributes" in feats[0]:  # Esri JSON (f=json)
        import pyogrio  # noqa: PLC0415

        gdf = pyogrio.read_dataframe(io.BytesIO(data))
        if gdf.crs is None:
            gdf = gdf.set_crs(4326)
    elif feats:
        gdf = gpd.GeoDataFrame.from_features(feats, crs=4326)
    else:
        gdf = gpd.GeoDataFrame(geometry=gpd.GeoSeries([], crs=4326))
    props = doc.get("properties") if isinstance(doc.get("properties"), dict) else {}
    more = bool(doc.get("exceededTransferLimit", props.get("exceededTransferLimit", False)))
    return gdf, len(feats), more


def _esri_polygon(geom: BaseGeometry) -> str:
    """``geom`` (EPSG:4326) as an Esri JSON polygon: outer rings clockwise, holes counter-clockwise."""
    from shapely.geometry.polygon import orient  # noqa: PLC0415

    rings = []
    for part in getattr(geom, "geoms", [geom]):
        part = orient(part, sign=-1.0)
        rings.append([list(c) for c in part.exterior.coords])
        rings.extend([list(c) for c in r.coords] for r in part.interiors)
    return json.dumps({"rings": rings, "spatialReference": {"wkid": 4326}})


def _http_error_said(exc) -> dict:
    """An HTTP error status's words: the ArcGIS error payload in its body if there is one, else the status."""
    with contextlib.suppress(Exception):
        doc = json.loads(exc.read(100_000))
        if isinstance(doc, dict) and isinstance(doc.get("error"), dict):
            return doc["error"]
    return {"code": exc.code, "message": f"HTTP {exc.code} {exc.reason}"}


#: Features asked for in one page of an ArcGIS REST query, and the most pages read (a bound, not a target).
ARCGIS_PAGE = 1000
ARCGIS_MAX_PAGES = 200
#: ``LiveServices``' ArcGIS query, in words (the manifest's ``query``; the service's error names it).
ARCGIS_QUERY = "query?geometry=<fetch area>&spatialRel=esriSpatialRelIntersects&outFields=*"


def arcgis_layer(url: str, geom: BaseGeometry, *, what: str = "ArcGIS REST layer",
                 timeout_s: float = 120.0) -> Download:
    """The features of the ArcGIS REST layer ``url`` (``.../MapServer/<n>``) meeting ``geom`` (EPSG:4326).

    Asked as ``query`` with ``f=geojson`` page by page (``resultOffset``) until the service says no more; every
    answer is read by :func:`read_arcgis_answer`, as a recorded one is, so a service's error payload is the error
    it is, with its message, on the live path as on a replayed one: never an empty layer.

    Raises
    ------
    ServiceAnswerError
        The service answered with an error (an ``{"error": ...}`` payload, or an HTTP error status).
    SourceUnavailable
        The service could not be reached.
    """
    import urllib.error  # noqa: PLC0415
    import urllib.parse  # noqa: PLC0415
    import urllib.request  # noqa: PLC0415

    form = {"geometry": _esri_polygon(geom), "geometryType": "esriGeometryPolygon", "inSR": "4326",
            "spatialRel": "esriSpatialRelIntersects", "outFields": "*", "returnGeometry": "true", "outSR": "4326",
            "f": "geojson", "resultRecordCount": str(ARCGIS_PAGE)}
    frames, nbytes, offset = [], 0, 0
    for _ in range(ARCGIS_MAX_PAGES):
        body = urllib.parse.urlencode({**form, "resultOffset": str(offset)}).encode("ascii")
        request = urllib.request.Request(f"{url.rstrip('/')}/query", data=body, method="POST",
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as resp:  # noqa: S310 (the sources' https URLs)
                data = resp.read()
        except urllib.error.HTTPError as exc:  # an error status: the service's own payload if it sent one
            raise ServiceAnswerError(arcgis_error_sentence(what, _http_error_said(exc), url, ARCGIS_QUERY)) from exc
        except (urllib.error.URLError, OSError) as exc:
            raise SourceUnavailable(f"The {what} could not be fetched ({type(exc).__name__}); check the internet "
                                    "connection and try again later.") from exc
        nbytes += len(data)
        gdf, n, more = read_arcgis_answer(data, what, url, ARCGIS_QUERY)
        frames.append(gdf)
        offset += n
        if not n or not more:
            break
    else:
        raise ServiceAnswerError(arcgis_error_sentence(
            what, f"more than {ARCGIS_PAGE * ARCGIS_MAX_PAGES:,} features in the fetch area", url, ARCGIS_QUERY))
    gdf = frames[0] if len(frames) == 1 else gpd.GeoDataFrame(pd.concat(frames, ignore_index=True), crs=4326)
    query = ARCGIS_QUERY if len(gdf) else f"{ARCGIS_QUERY} (the service returned no features)"
    return Download(gdf=gdf, query=query, url=url, nbytes=nbytes)


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
        self._asked = (url, ARCGIS_QUERY)
        layer = url.partition("/rest/services/")[2]  # the layer's path names its source on any host
        src = next((s for s in SOURCES if s.url == url or layer and s.url.partition("/rest/services/")[2] == layer),
                   None)
        return arcgis_layer(url, geom, what=src.title if src else "ArcGIS REST layer")

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
        # ArcGIS REST reports failures as {"error": {...}}, often with HTTP 200: read as the live answer is
        gdf, n, _ = read_arcgis_answer(data, src.title if src else key, url, query)
        if not n:
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
