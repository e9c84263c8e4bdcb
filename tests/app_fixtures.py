"""A tiny hand-built layer set for the app tests (known areas, EPSG:2260 feet).

Tax parcel P1 is a 200 ft x 200 ft square (40,000 sq ft) in district R-15, with a wetland strip
50 ft x 200 ft (10,000 sq ft) along its west side; tax parcel P2 is a 100 ft x 100 ft square
(10,000 sq ft) with no mapped constraint. No elevation model, so slopes are unknown.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from unittest import mock

import geopandas as gpd
from shapely.geometry import box, mapping

from sloat_core.units import WGS84, WORK_CRS

__all__ = ["X0", "Y0", "P1", "P2", "WETLAND", "P1_SBL", "P2_SBL", "APP", "write_layerset", "wgs84_feature",
           "write_split_layerset", "open_page", "download"]

X0, Y0 = 578_000.0, 848_300.0  # near the centre of Sloatsburg
P1 = box(X0, Y0, X0 + 200, Y0 + 200)
P2 = box(X0 + 400, Y0, X0 + 500, Y0 + 100)
WETLAND = box(X0, Y0, X0 + 50, Y0 + 200)
P1_SBL, P2_SBL = "156.14-1-23", "156.14-1-24"
#: The app's router, as the server runs it.
APP = str(Path(__file__).resolve().parent.parent / "app.py")


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


def write_split_layerset(folder: Path) -> Path:
    """The layers of ``write_layerset`` plus a zoning layer splitting P1 down the middle: R-40 west of x = 100 ft,
    R-15 east of it (P1 is 20,000 sq ft in each); return the manifest path."""
    path = write_layerset(folder)
    zoning = gpd.GeoDataFrame(
        {"ZONE": ["R-40", "R-15"]},
        geometry=[box(X0 - 500, Y0 - 500, X0 + 100, Y0 + 700), box(X0 + 100, Y0 - 500, X0 + 900, Y0 + 700)],
        crs=WORK_CRS)
    zoning.to_file(folder / "zoning.gpkg", layer="zoning", driver="GPKG")
    with path.open("a", encoding="utf-8") as fh:
        fh.write("  zoning: {path: zoning.gpkg, layer: zoning, district_field: ZONE}\n")
    return path


def wgs84_feature(geom) -> dict:
    """A GeoJSON Feature in WGS84 of an EPSG:2260 geometry (what the map's drawing tool returns)."""
    g = gpd.GeoSeries([geom], crs=WORK_CRS).to_crs(WGS84).iloc[0]
    return json.loads(json.dumps({"type": "Feature", "properties": {}, "geometry": mapping(g)}))


def open_page(page: str, *, parcel=None, mode: str | None = None, timeout: float = 30, **session):
    """An AppTest of the app switched to ``page`` and run, with ``parcel`` chosen, ``mode`` picked and the other
    session-state keys ``session`` set before; it asserts the run raised nothing."""
    from streamlit.testing.v1 import AppTest  # here, so that importing these fixtures does not import streamlit

    from app_support.frame import state

    at = AppTest.from_file(APP, default_timeout=timeout)
    if parcel is not None:
        at.session_state[state.PARCEL] = parcel
    if mode is not None:
        at.session_state[state.MODE] = mode
    for key, val in session.items():
        at.session_state[key] = val
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def download(at, media, key: str) -> bytes:
    """The bytes the download button ``key`` of an AppTest run serves (``media``: the conftest's fixture of the
    runs' media file managers, newest last)."""
    button = next(b for b in at.get("download_button") if b.key == key)
    manager = media[-1]
    url = button.proto.url or manager.execute_deferred(button.proto.deferred_file_id)
    return manager._storage.get_file(url.rsplit("/", 1)[1]).content


@contextlib.contextmanager
def map_answers(fake):
    """The browser's side of the maps, simulated: both map components (``st_folium``, and the Parcel page's
    ``app_support.map.map_component.st_map``) are ``fake``, whose return value is what the map sends back."""
    with mock.patch("streamlit_folium.st_folium", fake), mock.patch("app_support.map.map_component.st_map", fake):
        yield fake
