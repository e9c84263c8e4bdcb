"""The Proposed project page's map: every constraint under the footprint being drawn.

Floodplain, wetlands, ponds, streams, rock outcrops, the wetland and watercourse buffers, the
slope classes (clipped to the parcel) and the tax parcel lines, in the Parcel page's colours, so the
applicant sees what the footprint is drawn into; then the parcel outline and the footprint.
"""

from __future__ import annotations

import folium
import streamlit as st

from app_support import loaders
from app_support.frame import state
from app_support.map import layer_geojson, mapping
from app_support.map.slope_overlay import slope_group
from sloat_core.measure.rows import MAP_LAYERS

__all__ = ["CONSTRAINT_ROLES", "groups"]

#: Every layer with a lot-area deduction or a permit under the footprint, bottom to top, then the tax parcel lines.
CONSTRAINT_ROLES = (*MAP_LAYERS, "parcels")


def groups(layers, parcel, footprint: dict | None, on) -> list:
    """Feature groups for ``st_folium(feature_group_to_add=...)`` on the project page; the slope classes by the law
    of ``on`` (the day the page's answer is worked out for)."""
    large = state.mode() == state.PROJECTOR
    basemap = st.session_state.get(state.BASEMAP) or next(iter(mapping.BASEMAPS))
    out = [g for g in [mapping.basemap_group(basemap), mapping.offline_base_group(
        layer_geojson.display_geojson(layers, "village_boundary"), layer_geojson.display_geojson(layers, "roads"),
        mapping.offline_credit(layers))]
        if g is not None]
    if (slopes := slope_group(layers, parcel.geometry, on)) is not None:
        out.append(slopes)
    out += [mapping.layer_group(r, gj) for r in CONSTRAINT_ROLES if (gj := layer_geojson.display_geojson(layers, r))]
    out.append(mapping.parcel_group(loaders.wgs84_outline(parcel.geometry), large=large))
    if footprint:
        group = folium.FeatureGroup(name="Disturbance footprint")
        folium.GeoJson(footprint, style_function=lambda _f: {"color": "#d95f02", "weight": 3, "fillColor": "#d95f02",
                                                             "fillOpacity": 0.25}, interactive=False).add_to(group)
        out.append(group)
    return out
