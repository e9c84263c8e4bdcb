"""Cached loaders: the layer set, the local settings, display geometry and analysis results.

The layer set and its spatial indexes are shared singletons (``st.cache_resource``); analysis
results are cached per parcel geometry, district and layer-set version (``st.cache_data``).
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
    "display_geojson",
    "analysis_for",
    "parcel_at",
]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = ROOT / "data" / "sample" / "layers.yaml"

# Tolerance (feet) for simplifying layer outlines before they go to the browser.
_DISPLAY_SIMPLIFY_FT = 3.0


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


# Fields tried, in order, for a feature's name in its tooltip.
_NAME_FIELDS = ("name", "NAME", "Name", "label", "FLD_ZONE", "WETLAND_TYPE", "WETLAND_TY", "ATTRIBUTE")


@st.cache_resource(show_spinner=False, max_entries=64)
def _display_geojson(lkey: str, role: str, _layers) -> dict | None:
    import html

    from app_support.theme import LAYER_LABELS

    gdf = _layers.display_gdf(role, simplify_ft=_DISPLAY_SIMPLIFY_FT)
    if gdf is None or gdf.empty:
        return None
    title = LAYER_LABELS.get(role, role)
    name_col = next((c for c in _NAME_FIELDS if c in gdf.columns), None)
    names = gdf[name_col] if name_col else [""] * len(gdf)
    out = gdf[[gdf.geometry.name]].copy()
    out["label"] = [html.escape(f"{title}: {n}" if n else title) for n in names]
    return out.__geo_interface__


def display_geojson(layers, role: str) -> dict | None:
    """Simplified WGS84 GeoJSON of one layer, with one escaped ``label`` property per feature.

    Returns None when the layer set does not have ``role``.
    """
    return _display_geojson(layers_key(layers), role, layers)


@st.cache_data(show_spinner="Measuring the parcel…", max_entries=128)
def _analysis(pkey: str, district: str | None, lkey: str, _parcel, _layers, _settings) -> dict:
    from sloat_core.engine.analysis import analyze

    return analyze(_parcel, _layers, district=district, settings=_settings)


def analysis_for(parcel, layers, district: str | None) -> dict:
    """``sloat_core.engine.analysis.analyze`` for the parcel, cached per geometry, district and layers.

    Raises
    ------
    sloat_core.errors.SloatInputError
        From ``analyze`` when the parcel cannot be analysed.
    """
    return _analysis(parcel_key(parcel), district, layers_key(layers), parcel, layers, settings())


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
