"""The Plan page's map: each lot labelled with its name and its answer in words, marked by a pattern as well as a
colour, over the plan's envelopes, roads and open space and the parcel.

Under the plan lie the constraint layers the Parcel page's map shows (wetlands, buffers, floodplain, the slope
classes...: :func:`constraint_groups`, with the Parcel page's own layer builders), the lots on top; :func:`plan_view`
builds the whole map (its groups, its view and its key) for the Plan page and the Board walk-through alike.

The map opens on the lots (:func:`view_geometry`). A lot that conforms is drawn with a solid outline and a plain light fill; one that does not, with a solid outline
and a cross-hatch; one whose answer is unknown, with a dashed outline and dots. Each lot carries a permanent label
("Lot 3" over "does not conform"), so the answer is read without colour and without hovering; the table below the map
says the same in words. A label goes inside its lot, and only where it fits at the map's zoom
(:mod:`app_support.map.lot_labels`): a lot too small for it is labelled by its name alone, or not at all, and the
page names those lots under the map (``PlanView.label_note``). Every label is the lot's name from the file, escaped
for the map's HTML (:func:`~app_support.map.folium_templates.map_html_text`).
"""

from __future__ import annotations

from dataclasses import dataclass

import folium

from app_support.map import lot_labels, mapping
from app_support.map.folium_templates import map_html_text

__all__ = ["LOT_LOOKS", "LOT_LABEL_CLASS", "ROLE_LOOKS", "lot_word", "lot_label", "lot_name", "lot_label_html",
           "lot_name_html", "label_places", "view_geometry", "groups", "legend_rows", "constraint_groups",
           "plan_features", "PlanView", "plan_view", "LABEL_CSS", "LEGEND_WORDS"]

#: conforms (True / False / None) -> (word, colour, hatch kind or None, outline dash or None)
LOT_LOOKS = {
    True: ("conforms", "#1a6b2f", None, None),
    False: ("does not conform", "#b2182b", "cross", None),
    None: ("unknown", "#5e3c99", "dots", "8 5"),
}
#: The map key's words for each answer: the pattern named as well as the colour.
LEGEND_WORDS = {True: "Lot that conforms (solid outline, plain fill)",
                False: "Lot that does not conform (cross-hatched)",
                None: "Lot whose answer is unknown (dashed outline, dots)"}
#: The other roles of a plan: (legend label, colour, hatch kind or None, outline dash or None, fill opacity)
ROLE_LOOKS = {
    "roads": ("Roads (right of way)", "#555555", "horiz", None, 0.35),
    "open_space": ("Open space", "#1b7a8c", "vert", "3 4", 0.3),
    "envelopes": ("Building envelopes", "#222222", None, "2 3", 0.0),
    "disturbance": ("Limit of disturbance", "#d95f02", None, "10 4", 0.0),
}
#: The class of the lots' permanent labels (the browser test finds them by it).
LOT_LABEL_CLASS = "sloat-lot-label"
#: The labels' look in the map's frame, in the map's header once (a constant: no text from the plan in it). The
#: projector's larger labels are a second class on the label, so switching modes needs no new header.
LABEL_CSS = ("<style>.sloat-lot-label{font:600 12px/1.2 sans-serif;text-align:center;color:#111;"
             "background:rgba(255,255,255,.9);border:1px solid #333;padding:1px 4px;box-shadow:none;}"
             ".sloat-lot-label.sloat-lot-large{font:700 20px/1.2 sans-serif;color:#000;background:#fff;"
             "border:2px solid #000;padding:2px 6px;}</style>")
_MAX_LABEL_CHARS = 40


def lot_word(conforms: bool | None) -> str:
    """The lot's answer in words.

    >>> lot_word(True), lot_word(False), lot_word(None)
    ('conforms', 'does not conform', 'unknown')
    """
    return LOT_LOOKS[conforms][0]


def lot_label(label: str, conforms: bool | None) -> str:
    """A lot's label on the map, in plain text (escaped by :func:`groups`).

    >>> lot_label("3", False)
    'Lot 3: does not conform'
    """
    return f"Lot {lot_name(label)}: {lot_word(conforms)}"


def lot_name(label: str) -> str:
    """A lot's name as the map says it: on one line, cut at 40 characters (plain text).

    >>> lot_name("  3   A ")
    '3 A'
    """
    name = " ".join(str(label).split())
    return name if len(name) <= _MAX_LABEL_CHARS else name[:_MAX_LABEL_CHARS - 1] + "…"


def lot_label_html(label: str, conforms: bool | None) -> str:
    """A lot's label as the map's HTML: its name over its answer, each escaped (the name comes from the file).

    >>> lot_label_html("<3>", None)
    'Lot &lt;3&gt;<br>unknown'
    """
    name, word = lot_label(label, conforms).rsplit(": ", 1)
    return map_html_text(name) + "<br>" + map_html_text(word)


def view_geometry(shapes: list[dict]) -> dict | None:
    """The box around WGS84 GeoJSON geometries (the map opens on the lots), or None without any."""
    from shapely.geometry import box, shape

    found = [shape(g) for g in shapes if g]
    if not found:
        return None
    bounds = [b for g in found for b in [g.bounds]]
    return box(min(b[0] for b in bounds), min(b[1] for b in bounds), max(b[2] for b in bounds),
               max(b[3] for b in bounds)).__geo_interface__


def _style(colour: str, hatch: str | None, dash: str | None, fill_opacity: float, weight: float) -> dict:
    style = {"color": colour, "weight": weight, "fillColor": f"hatch:{hatch}:{colour}" if hatch else colour,
             "fillOpacity": 0.55 if hatch else fill_opacity}
    if dash:
        style["dashArray"] = dash
    return style


def lot_name_html(label: str) -> str:
    """A lot's label on the map when only its name fits (the name alone, as the table says it), escaped (the name
    comes from the file).

    >>> lot_name_html("<3>")
    '&lt;3&gt;'
    """
    return map_html_text(lot_name(label))


def label_places(lots: list[tuple[str, bool | None, dict]], zoom: int | None, *, large: bool = False) -> list:
    """Where each lot's label goes at ``zoom`` (:func:`app_support.map.lot_labels.place_labels`): inside its lot,
    only where it fits."""
    texts = []
    for label, conforms, geom in lots:
        name, word = lot_label(label, conforms).rsplit(": ", 1)
        texts.append(([name, word], [lot_name(label)], geom))
    return lot_labels.place_labels(texts, zoom, large=large)


def groups(parcel_outline: dict, lots: list[tuple[str, bool | None, dict]], others: dict[str, list[dict]], *,
           large: bool = False, basemap: str | None = None, under: list | None = None,
           zoom: int | None = None, places: list | None = None) -> list:
    """Feature groups for ``st_folium(feature_group_to_add=...)``: basemap, the constraint layers ``under`` the plan
    (:func:`constraint_groups`), the parcel, the plan's other roles, then the lots, each with its permanent label
    where it fits at ``zoom`` (``places``, by default :func:`label_places`; without a zoom, every label at its
    lot's inside point).

    Parameters
    ----------
    parcel_outline : dict
        The parcel as a WGS84 GeoJSON geometry.
    lots : list of (label, conforms, WGS84 GeoJSON geometry)
    others : dict
        role -> WGS84 GeoJSON geometries of the plan's envelopes, roads, open space and disturbance.
    """
    out = [g for g in [mapping.basemap_group(basemap or next(iter(mapping.BASEMAPS)))] if g is not None]
    out += list(under or ())
    out.append(mapping.parcel_group(parcel_outline, large=large))
    weight = 5 if large else 3
    for role, (name, colour, hatch, dash, opacity) in ROLE_LOOKS.items():
        shapes = others.get(role) or []
        if not shapes:
            continue
        group = folium.FeatureGroup(name=name)
        style = _style(colour, hatch, dash, opacity, weight - 1)
        for geom in shapes:
            folium.GeoJson({"type": "Feature", "properties": {}, "geometry": geom}, interactive=False,
                           style_function=lambda _f, s=style: s).add_to(group)
        out.append(group)
    if lots:
        group = folium.FeatureGroup(name="Lots of the plan")
        css = LOT_LABEL_CLASS + (" sloat-lot-large" if large else "")
        places = places if places is not None else label_places(lots, zoom, large=large)
        for (label, conforms, geom), place in zip(lots, places, strict=True):
            _word, colour, hatch, dash = LOT_LOOKS[conforms]
            style = _style(colour, hatch, dash, 0.12, weight)
            feature = {"type": "Feature", "properties": {"label": lot_label_html(label, conforms)},
                       "geometry": geom}
            hover = None if place is not None and place.kind == lot_labels.FULL else folium.GeoJsonTooltip(
                fields=["label"], labels=False, sticky=True)  # a lot labelled by its name only, or not at all
            layer = folium.GeoJson(feature, style_function=lambda _f, s=style: s, tooltip=hover).add_to(group)
            if place is not None:
                layer.add_child(lot_labels.LotLabel(lot_label_html(label, conforms), lot_name_html(label), place, css))
        out.append(group)
    return out


def legend_rows(present: set) -> list[tuple[str, str, str | None]]:
    """The map key's rows (label, colour, hatch kind) for the lots' answers and the roles the plan shows
    (``present``: the answers True / False / None and the role names found)."""
    rows = [(LEGEND_WORDS[flag], colour, hatch) for flag, (_w, colour, hatch, _d) in LOT_LOOKS.items()
            if flag in present]
    return rows + [(name, colour, hatch) for role, (name, colour, hatch, _d, _o) in ROLE_LOOKS.items()
                   if role in present]


def constraint_groups(layers, parcel_geometry, shown: list[str], *, show_slope: bool, on) -> tuple[list, list[str], list]:
    """The constraint layers under the plan, as the Parcel page's map draws them (its layer builders): each role of
    ``shown`` the layer set has, then the slope classes of the parcel (``show_slope``, with an elevation model: a
    picture laid under every line and area).
    Returns (feature groups, the roles drawn, the slope classes' key rows, named by the law of ``on``: the day the
    plan is checked for). Nothing opens on a click: the map is the plan's."""
    from app_support.frame.theme import LAYER_LABELS
    from app_support.map import layer_geojson
    from app_support.map.slope_overlay import slope_group, slope_legend

    available = set(mapping.available_roles(layers))
    drawn, out = [], []
    for role in shown:
        if role in available and role in LAYER_LABELS and (gj := layer_geojson.display_geojson(layers, role)):
            out.append(mapping.layer_group(role, gj, identify=False))
            drawn.append(role)
    extra = []
    if show_slope and getattr(layers, "dem_path", None) and parcel_geometry is not None:
        if (slope := slope_group(layers, parcel_geometry, on, zindex=-1)) is not None:  # under the lots' lines
            out.append(slope)
            extra = slope_legend(on)
    return out, drawn, extra


def plan_features(found, drawing) -> tuple[list, dict, set]:
    """What the map draws of a checked plan: the lots as (label, conforms, WGS84 GeoJSON), the drawing's other roles
    (role -> WGS84 GeoJSON geometries) and what is present (the lots' answers and the roles found), for the key."""
    from app_support.frame import warm_thread

    if found is None:
        return [], {}, set()
    return warm_thread.run(_plan_features, found, drawing)  # many outlines: PROJ set up once there, not per run


def _plan_features(found, drawing) -> tuple[list, dict, set]:
    from app_support.analysis_door import to_wgs84_geojson

    lots = [(lot.label, lot.conforms, to_wgs84_geojson(lot.geometry)) for lot in found.lots]
    present: set = {lot.conforms for lot in found.lots}
    others = {}
    for role in ROLE_LOOKS:
        shapes = [to_wgs84_geojson(f.geometry) for f in drawing.of(role) if not f.geometry.is_empty]
        if shapes:
            others[role], present = shapes, present | {role}
    return lots, others, present


@dataclass
class PlanView:
    """The plan's map: its feature groups (constraint layers, parcel, plan, lots), where it opens and its key's
    rows (the layer roles drawn and the other rows: written by the reviewed `mapping.legend_html` where it is
    shown, so the scan of `unsafe_allow_html` sees the builder)."""

    groups: list
    centre: tuple[float, float]
    zoom: int
    key_roles: list
    key_rows: list
    label_note: str | None = None  # the lots whose answer the map does not write at its zoom (plain text), or None


def plan_view(parcel, layers, found, plan, *, shown: list[str], show_slope: bool, large: bool, basemap: str | None,
              width_px: int, height_px: int, on) -> PlanView:
    """The whole map of a plan on ``parcel``: the constraint layers ``shown`` (and the slope classes) under the
    plan's roles and its lots, labelled; it opens on the lots of a plan read from a file, else on the parcel (lots
    being drawn on it). ``found`` is the plan's check (or None), ``plan`` the session's plan source (or None);
    ``on`` the day the plan is checked for (the slope classes' law)."""
    from app_support import loaders

    outline = loaders.wgs84_outline(parcel.geometry)
    lots, others, present = plan_features(found, plan.drawing if plan is not None else None)
    under, drawn, slope_rows = constraint_groups(layers, parcel.geometry, shown, show_slope=show_slope, on=on)
    in_view = (view_geometry([g for _l, _c, g in lots]) if plan is not None and not plan.drawn else None) or outline
    # the map spans its column; small lots come close enough for their labels
    centre, zoom = mapping.view_for(in_view, width_px=width_px, height_px=height_px, max_zoom=20)
    places = label_places(lots, zoom, large=large)
    feature_groups = groups(outline, lots, others, large=large, basemap=basemap, under=under, zoom=zoom,
                            places=places)
    note = lot_labels.unlabelled_note([lot_name(label) for label, _c, _g in lots],
                                      [p.kind if p is not None else None for p in places])
    return PlanView(feature_groups, centre, zoom, list(drawn), legend_rows(present) + slope_rows, note)
