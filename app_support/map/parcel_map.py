"""What the Parcel page's map shows, and the handout it offers, decided outside the page.

The page (``pages/parcel.py``) gathers input, calls these and renders. Here:

- :func:`feature_groups`: the map's feature groups (basemap, offline village base, the constraint layers shown,
  the parcel under study, the slope classes) and the view (centre and zoom) that fits the parcel;
- :func:`handout_pdf` and :func:`handout_html`: the one-page handout, made when its button is pressed;
- :func:`tax_parcels_on_map` and :func:`tax_parcel_sentence`: the SBL labels the map draws around the parcel,
  as text ("the map's content is fully in the text").
"""

from __future__ import annotations

from dataclasses import dataclass

from app_support import analysis_door, loaders
from app_support.map import layer_geojson, mapping
from app_support.map.leaflet_elements import LABEL_MIN_ZOOM
from app_support.map.slope_overlay import slope_group
from sloat_core.gis.roles import DERIVED_STYLES, ROLE_DECLARATIONS

__all__ = ["DEDUCTION_ROLES", "ON_AT_START", "MapView", "feature_groups", "handout_pdf", "handout_html",
           "missing_layers", "tax_parcels_nearby", "tax_parcels_on_map", "tax_parcel_sentence"]

#: Roles whose land is deducted from the lot area.
DEDUCTION_ROLES = [r.id for r in ROLE_DECLARATIONS if r.deduction]
#: The layers on the map when a visitor first opens the page.
ON_AT_START = [*DEDUCTION_ROLES, *(d.id for d in (*DERIVED_STYLES, *ROLE_DECLARATIONS)
                                    if d.web.on_at_start and d.id not in DEDUCTION_ROLES)]
#: How far (feet, EPSG:2260) from the parcel's outline a tax parcel still counts as its neighbour.
NEIGHBOUR_DISTANCE_FT = 5.0
#: How far (feet) the sentence looks for the other lots the map's first view labels around a parcel.
NEARBY_FT = 250.0
#: Most neighbours named in the sentence (a drawn outline over a whole block would otherwise list dozens).
NEIGHBOURS_NAMED = 24


@dataclass
class MapView:
    """The feature groups of the map and the view to open it at (``None``: where it already is)."""

    groups: list
    centre: tuple[float, float] | None = None
    zoom: int | None = None


def feature_groups(layers, parcel, shown: list[str], *, basemap: str, show_slope: bool, picking: bool,
                   large: bool, drawn: bool, height_px: int, on) -> MapView:
    """The map's feature groups, in drawing order, and its view; the slope classes by the law of ``on`` (the day
    the page's answer is worked out for, :func:`app_support.analysis_door.law_day`).

    ``picking``: clicks go through to pick a tax parcel, so the layers give no pop-up of their own. ``large``: the
    projector's thick outline. ``drawn``: the parcel was drawn on the map, which is already in view, so the view
    is left alone.
    """
    groups = [g for g in [mapping.basemap_group(basemap), mapping.offline_base_group(
        layer_geojson.display_geojson(layers, "village_boundary"), layer_geojson.display_geojson(layers, "roads"),
        mapping.offline_credit(layers))]
        if g is not None]
    groups += [mapping.layer_group(r, gj, identify=not picking) for r in shown
               if (gj := layer_geojson.display_geojson(layers, r)) is not None]
    view = MapView(groups)
    if parcel is not None:
        outline = loaders.wgs84_outline(parcel.geometry)  # kept per geometry, projected on a warm thread
        groups.append(mapping.parcel_group(outline, large=large))
        if show_slope and (slope := slope_group(layers, parcel.geometry, on)) is not None:
            groups.append(slope)
        if not drawn:
            view.centre, view.zoom = mapping.view_for(outline, height_px=height_px)
    return view


def missing_layers(layers) -> list[str]:
    """What the results say is missing: the deducted layers the set lacks, and the elevation model."""
    return ([r for r in DEDUCTION_ROLES if not layers.has(r)]
            + ([] if layers.dem_path else ["elevation model (slopes)"]))


def handout_pdf(parcel, layers, district) -> bytes:
    """The one-page handout, made when its button is pressed. The PDF renderer (WeasyPrint) loads then, once per
    server, not with the page: the first page a visitor opens does not wait for it."""
    from sloat_core.outputs.handout import handout_pdf_bytes

    return handout_pdf_bytes(analysis_door.analysis(parcel, layers, district=district), layers)


def handout_html(parcel, layers, district) -> str:
    """The handout as a web page (the HTML its PDF is made from), made when its button is pressed."""
    from sloat_core.outputs.handout import handout_html as handout_page

    return handout_page(analysis_door.analysis(parcel, layers, district=district), layers)


def _near(layers, geometry, distance_ft: float):
    """(SBLs, geometries) of the tax parcels within ``distance_ft`` of ``geometry``, in the layer's order."""
    import numpy as np

    gdf = layers.get("parcels").gdf
    rows = np.sort(gdf.sindex.query(geometry, predicate="dwithin", distance=distance_ft))
    return gdf[layers.parcels_meta.id_field].to_numpy()[rows], gdf.geometry.array[rows]


def _has_parcels(layers, geometry) -> bool:
    return (layers.get("parcels") is not None and getattr(layers, "parcels_meta", None) is not None
            and geometry is not None and not geometry.is_empty)


def tax_parcels_on_map(layers, geometry) -> tuple[list[str], list[str]]:
    """The SBLs of the tax parcels the map labels at and around ``geometry`` (EPSG:2260).

    Returns (``under``, ``beside``): the tax parcels the outline lies on (more than 1 % and 1 sq ft of each, in the
    layer's order), and those within :data:`NEIGHBOUR_DISTANCE_FT` of it that it does not cover, sorted. Both empty without
    a tax-parcel layer.
    """
    import shapely

    if not _has_parcels(layers, geometry):
        return [], []
    sbls, geoms = _near(layers, geometry, NEIGHBOUR_DISTANCE_FT)
    keep = [i for i, (sbl, geom) in enumerate(zip(sbls, geoms)) if sbl is not None and geom is not None and not geom.is_empty]
    sbls, geoms = [sbls[i] for i in keep], geoms[keep]
    shared = shapely.area(shapely.intersection(geoms, geometry))  # a sliver where two outlines overlap is not "on"
    under, beside = [], []
    for sbl, area, own in zip(sbls, shared, shapely.area(geoms)):
        (under if area > max(1.0, 0.01 * own) else beside).append(str(sbl))
    return list(dict.fromkeys(under)), sorted(set(beside) - set(under))


def tax_parcels_nearby(layers, geometry, named: list[str]) -> list[str]:
    """The SBLs of the other tax parcels within :data:`NEARBY_FT` of ``geometry`` (not in ``named``), sorted."""
    if not _has_parcels(layers, geometry):
        return []
    sbls, _ = _near(layers, geometry, NEARBY_FT)
    return sorted({str(s) for s in sbls if s is not None} - set(named))


def _names(sbls: list[str]) -> str:
    more = len(sbls) - NEIGHBOURS_NAMED
    return _listed(sbls[:NEIGHBOURS_NAMED]) + (f" and {more} more" if more > 0 else "")


def tax_parcel_sentence(layers, geometry) -> str:
    """The tax parcels the map labels with their SBL, as one plain sentence ("" without a tax-parcel layer)."""
    under, beside = tax_parcels_on_map(layers, geometry)
    if not under and not beside:
        return ""
    parts = []
    if under:
        parts.append(f"This outline lies on tax parcel{'s' if len(under) > 1 else ''} {_listed(under)}.")
    if beside:
        parts.append(f"Tax parcels next to it: {_names(beside)}.")
    else:
        parts.append("No other tax parcel is next to it.")
    if nearby := tax_parcels_nearby(layers, geometry, under + beside):
        parts.append(f"Other tax parcels within {NEARBY_FT:,.0f} ft: {_names(nearby)}.")
    parts.append(f"The map labels each tax parcel with its SBL from zoom {LABEL_MIN_ZOOM} "
                 "(while \"Tax parcel lines\" is shown); any of them can be found by its SBL or address above.")
    return " ".join(parts)


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
