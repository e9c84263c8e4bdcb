"""Cached loaders: the layer set, the local settings, the parcel's outline and parcel search.

The layer set and its spatial indexes are shared singletons (``st.cache_resource``). Analyses are not here:
they go through the one cached door, :mod:`app_support.analysis_door`, which reads the layer set's key and
the settings from this module (never the other way round), and so do the layers as the maps draw them
(:mod:`app_support.map.layer_geojson`).
The manifest path is ``data/sample/layers.yaml`` unless the ``SLOAT_LAYERS`` environment
variable names another one.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import streamlit as st

__all__ = [
    "DEFAULT_MANIFEST",
    "manifest_path",
    "layerset",
    "settings",
    "layers_key",
    "parcel_key",
    "search_parcels",
    "parcel_at",
]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = ROOT / "data" / "sample" / "layers.yaml"


def manifest_path() -> Path:
    """The layer manifest in use (``SLOAT_LAYERS`` or the illustrative sample)."""
    return Path(os.environ.get("SLOAT_LAYERS") or DEFAULT_MANIFEST)


@st.cache_resource(show_spinner="Loading the map layers…")
def _layerset(path: str, mtime: float):
    from sloat_core.gis.layers import load_manifest

    return load_manifest(path)


SETTINGS_FILE = ROOT / "data" / "settings" / "local.yaml"


@st.cache_resource(show_spinner=False)
def _settings(mtime: float):
    from sloat_core.law.settings import load_settings

    return load_settings()


def settings():
    """The local settings (``sloat_core.law.settings.LocalSettings``), reloaded when the file changes."""
    return _settings(SETTINGS_FILE.stat().st_mtime if SETTINGS_FILE.exists() else 0.0)


def layerset():
    """The layer set (``sloat_core.gis.layers.LayerSet``), loaded once per manifest version.

    The default stream width comes from the local settings inside ``load_manifest``.
    """
    path = manifest_path()
    mtime = path.stat().st_mtime if path.exists() else 0.0
    return _layerset(str(path), mtime)


def layers_key(layers) -> str:
    """A short key naming a layer set and its version (for caches)."""
    return f"{layers.manifest_path}|{layers.version}"


def parcel_key(parcel) -> str:
    """A short key naming a parcel's geometry (for caches)."""
    return hashlib.sha256(parcel.geometry.wkb).hexdigest()[:20]


@st.cache_data(show_spinner=False, max_entries=256)
def _wgs84_outline(key: str, _geom) -> dict:
    from app_support.frame import warm_thread
    from sloat_core.gis.parcels import to_wgs84_geojson

    return warm_thread.run(to_wgs84_geojson, _geom)


def wgs84_outline(geom) -> dict:
    """``sloat_core.gis.parcels.to_wgs84_geojson(geom)``, kept per geometry for every session (a copy).

    The parcel's outline is drawn on every run of the parcel page and saved with the case; it is
    projected once, on a warm thread (:mod:`app_support.frame.warm_thread`: a fresh run's thread would set
    up PROJ's transformation again, about 10 ms).
    """
    return _wgs84_outline(hashlib.sha256(geom.wkb).hexdigest(), geom)


#: Longest search text whose result is kept (a longer one is searched each time: nobody types an address that long).
_SEARCH_CACHE_MAX_CHARS = 200


@st.cache_data(show_spinner=False, max_entries=512)
def _search(lkey: str, text: str, limit: int, _layers):
    from sloat_core.gis.parcels import search_parcels

    return search_parcels(_layers, text, limit=limit)


def search_parcels(layers, text: str, limit: int = 10):
    """``sloat_core.gis.parcels.search_parcels``, its answer kept per layer set and text for every session.

    The text stays in the finder's box, so every later run of the page (each widget a visitor touches)
    searches it again: about 25 ms over the sample's 1,294 parcels, now once per text. A copy is returned
    (``st.cache_data``).
    """
    if len(text) > _SEARCH_CACHE_MAX_CHARS:
        from sloat_core.gis.parcels import search_parcels as search

        return search(layers, text, limit=limit)
    return _search(layers_key(layers), text, int(limit), layers)


def parcel_at(layers, lat: float, lng: float):
    """The tax parcel under a clicked point (WGS84).

    Raises
    ------
    sloat_core.errors.SloatInputError
        When there is no tax-parcel layer or no parcel under the point.
    """
    from pyproj import Transformer
    from shapely.geometry import Point

    from sloat_core.errors import SloatInputError
    from sloat_core.gis.parcels import parcel_by_sbl
    from sloat_core.units import WGS84, WORK_CRS

    parcels = layers.get("parcels")
    meta = layers.parcels_meta
    if parcels is None or meta is None:
        raise SloatInputError("This layer set has no tax parcels to pick from.")
    x, y = Transformer.from_crs(WGS84, WORK_CRS, always_xy=True).transform(lng, lat)
    point = Point(x, y)
    hits = parcels.query(point)
    hits = hits[hits.geometry.covers(point)]
    if hits.empty or meta.id_field not in hits.columns:
        raise SloatInputError("There is no tax parcel where you clicked.")
    return parcel_by_sbl(layers, str(hits.iloc[0][meta.id_field]))
