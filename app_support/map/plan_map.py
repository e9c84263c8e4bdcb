"""The Plan page's map: each lot labelled with its name and its answer in words, marked by a pattern as well as a
colour, over the plan's envelopes, roads and open space and the parcel.

The map opens on the lots (:func:`view_geometry`). A lot that conforms is drawn with a solid outline and a plain light fill; one that does not, with a solid outline
and a cross-hatch; one whose answer is unknown, with a dashed outline and dots. Each lot carries a permanent label
("Lot 3" over "does not conform"), so the answer is read without colour and without hovering; the table below the map
says the same in words. Every label is the lot's name from the file, escaped for the map's HTML
(:func:`~app_support.map.folium_templates.map_html_text`).
"""

from __future__ import annotations

import folium

from app_support.map import mapping
from app_support.map.folium_templates import map_html_text

__all__ = ["LOT_LOOKS", "LOT_LABEL_CLASS", "ROLE_LOOKS", "lot_word", "lot_label", "lot_label_html", "view_geometry",
           "groups", "legend_rows",
           "LABEL_CSS", "LEGEND_WORDS"]

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
    name = " ".join(str(label).split())
    if len(name) > _MAX_LABEL_CHARS:
        name = name[:_MAX_LABEL_CHARS - 1] + "…"
    return f"Lot {name}: {lot_word(conforms)}"


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


def groups(parcel_outline: dict, lots: list[tuple[str, bool | None, dict]], others: dict[str, list[dict]], *,
           large: bool = False, basemap: str | None = None) -> list:
    """Feature groups for ``st_folium(feature_group_to_add=...)``: basemap, the parcel, the plan's other roles, then
    the lots, each with its permanent label.

    Parameters
    ----------
    parcel_outline : dict
        The parcel as a WGS84 GeoJSON geometry.
    lots : list of (label, conforms, WGS84 GeoJSON geometry)
    others : dict
        role -> WGS84 GeoJSON geometries of the plan's envelopes, roads, open space and disturbance.
    """
    out = [g for g in [mapping.basemap_group(basemap or next(iter(mapping.BASEMAPS)))] if g is not None]
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
        for label, conforms, geom in lots:
            _word, colour, hatch, dash = LOT_LOOKS[conforms]
            style = _style(colour, hatch, dash, 0.12, weight)
            feature = {"type": "Feature", "properties": {"label": lot_label_html(label, conforms)},
                       "geometry": geom}
            folium.GeoJson(feature, style_function=lambda _f, s=style: s,
                           tooltip=folium.GeoJsonTooltip(fields=["label"], labels=False, permanent=True,
                                                         direction="center", sticky=False,
                                                         class_name=LOT_LABEL_CLASS
                                                         + (" sloat-lot-large" if large else ""))).add_to(group)
        out.append(group)
    return out


def legend_rows(present: set) -> list[tuple[str, str, str | None]]:
    """The map key's rows (label, colour, hatch kind) for the lots' answers and the roles the plan shows
    (``present``: the answers True / False / None and the role names found)."""
    rows = [(LEGEND_WORDS[flag], colour, hatch) for flag, (_w, colour, hatch, _d) in LOT_LOOKS.items()
            if flag in present]
    return rows + [(name, colour, hatch) for role, (name, colour, hatch, _d, _o) in ROLE_LOOKS.items()
                   if role in present]
