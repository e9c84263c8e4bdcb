"""Every map layer role, declared once: what it is, how it looks, which rules read it.

A *role* is what a layer of a manifest stands for (``wetlands``, ``floodplain`` ...). Each declaration
carries everything the rest of the tool needs to know about it -- the manifest loader (which roles
exist, which accept lines), the rules (which deduction row its land goes to, which triggers and
reviews read it), the app (colour, label, how the web map draws it: `WebLook`) and the printed report
(grey level, hatch or dash pattern, short legend name). Adding a role is adding one `LayerRole` here;
a deducted role also names its row, declared in :data:`sloat_core.measure.rows.DEDUCTION_ROWS`.

The deduction table also has rows drawn from no layer of their own (the buffer around wetlands and
watercourses, the two slope classes of the DEM): their looks are declared here too, in
`DERIVED_STYLES`, so the app and the report take every colour and pattern from this one module. The names of
the deduction rows, in the table and in the printed legend, are the rows' own (`sloat_core.measure.rows`).

>>> role("wetlands").deduction, role("wetlands").geometry
('wetlands', 'polygon')
>>> roles_of_kind("resource")
('wetlands', 'water_bodies', 'watercourses')
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields

from sloat_core.gis.slope import SLOPE_CLASS_COLORS
from sloat_core.law.params import fill

__all__ = ["WebLook", "LayerRole", "DerivedStyle", "ROLE_DECLARATIONS", "DERIVED_STYLES", "ROLES", "LINE_ROLES",
           "KINDS", "GEOMETRIES", "role", "roles_of_kind", "style"]

#: What a role is for.
#: ``resource``: land § 402-45A(1) deducts in full and that carries a buffer;
#: ``overlay``: land read by triggers and reviews (some deducted too: the floodplain);
#: ``outcrops``: rock outcrops, measured by their whole size (§ 402-45A(3), § 402-48C(9));
#: ``reference``: where things are (zoning districts, the village boundary, tax parcels), no rule reads its land.
KINDS = ("resource", "overlay", "outcrops", "reference")
#: Feature geometry a role accepts: polygons only, or polygons and centre lines (buffered to polygons).
GEOMETRIES = ("polygon", "polygon_or_line")


@dataclass(frozen=True)
class WebLook:
    """How the app's web map draws a role or a derived row (Leaflet path options).

    Attributes
    ----------
    line : bool
        Drawn as an outline only, never filled (reference lines: zoning, the village boundary, roads).
    weight : float
        Width of its outline in px.
    dash : str
        Leaflet ``dashArray`` of its outline ("" for a solid one).
    edge : str
        Colour of its outline when it is not the role's own ("" for its own colour).
    fill_opacity : tuple of float
        Opacity of its fill: (drawn with its hatch, drawn without one).
    base_only : bool
        Drawn only as the offline base map, never listed among the constraint layers.
    on_at_start : bool
        On the map when a visitor first opens the page (every deducted role is, whatever this says).
    """

    line: bool = False
    weight: float = 1.5
    dash: str = ""
    edge: str = ""
    fill_opacity: tuple[float, float] = (0.9, 0.35)
    base_only: bool = False
    on_at_start: bool = False


_FILL = WebLook()


@dataclass(frozen=True)
class LayerRole:
    """One layer role. Every field but the last three (what the manifest loader reads, false for most roles)
    is required (see `tests/rules/test_roles.py`).

    Attributes
    ----------
    id : str
        The role's name in a manifest.
    label : str
        Plain name on the app's map and layer lists.
    legend : str
        Short name in the printed report's legend; a template whose law numbers are filled in from the
        parameters (`legend_text`). Empty for a deducted role: the printed map shows its row's land, under the
        row's name (`sloat_core.measure.rows.RowSpec.legend`).
    colour : str
        ``#rrggbb`` on the app's map and in its deduction table.
    face : str
        Grey level of its fill on the printed map (matplotlib grey, "0" black to "1" white).
    hatch : str
        Hatch pattern on the printed map ("" for a role drawn as a dashed outline).
    dash : tuple
        Dash pattern of its outline on the printed map (matplotlib ``(offset, (on, off, ...))``); ``()``
        for a filled role.
    kind : str
        One of `KINDS`.
    geometry : str
        One of `GEOMETRIES`.
    deduction : str or None
        The § 402-45 deduction row its land goes to, or None.
    uses : tuple of str
        The clauses of Article IX whose rules read it (deductions, triggers, reviews); ``()`` for a
        reference layer.
    web : WebLook
        How the app's web map draws it.
    by_watershed : bool
        Published by watershed (hydrography: NHD by HUC), so the features' extent says nothing about where
        there are none: without a ``coverage:`` the layer is unknown everywhere (the manifest loader).
    extent : bool
        Says where the layer set is expected to map (the village boundary, the tax parcels): read first by the
        manifest loader, in declaration order, and a reference layer itself, never measured for coverage.
    kept_whole : bool
        Clipped to the manifest's clip area without cutting its features (a tax parcel or a zoning district
        crossing the clip line is kept whole).
    """

    id: str
    label: str
    legend: str
    colour: str
    face: str
    hatch: str
    dash: tuple
    kind: str
    geometry: str
    deduction: str | None
    uses: tuple[str, ...]
    web: WebLook
    by_watershed: bool = False
    extent: bool = False
    kept_whole: bool = False

    def legend_text(self, on: dt.date) -> str:
        """The legend name, law numbers filled in from the parameters as in effect on ``on`` (the date of the
        analysis the map draws)."""
        return fill(self.legend, on)

    @property
    def drawn_filled(self) -> bool:
        """Drawn as a hatched fill on the printed map (deduction land); else as a dashed outline."""
        return bool(self.hatch)


ROLE_DECLARATIONS: tuple[LayerRole, ...] = (
    LayerRole("floodplain", "100-year floodplain (FEMA)", "", "#1f78b4", "0.86", "\\\\\\", (),
              "overlay", "polygon", "floodplain", ("§ 402-45A(1)", "§ 402-48C(3)", "§ 402-49B"),
              WebLook(weight=2, dash="8 5", fill_opacity=(0.75, 0.12))),
    LayerRole("wetlands", "Wetlands", "", "#33a02c", "0.72", "...", (),
              "resource", "polygon", "wetlands", ("§ 402-45A(1)", "§ 402-48C(2)", "§ 402-57G"), _FILL),
    LayerRole("water_bodies", "Ponds and water bodies", "", "#0b4f9c", "0.55", "---", (),
              "resource", "polygon", "water_bodies", ("§ 402-45A(1)", "§ 402-48C(6)", "§ 402-57G"), _FILL,
              by_watershed=True),
    LayerRole("watercourses", "Streams and watercourses", "", "#00a6d6", "0.45", "|||", (),
              "resource", "polygon_or_line", "watercourses", ("§ 402-45A(1)", "§ 402-48C(6)", "§ 402-57G"), _FILL,
              by_watershed=True),
    LayerRole("rock_outcrops", "Rock outcrops", "", "#6a3d9a", "0.62", "oo", (),
              "outcrops", "polygon", "rock_outcrops", ("§ 402-45A(3)", "§ 402-48C(9)"), _FILL),
    LayerRole("aquifer_cea", "Ramapo River aquifer CEA", "Aquifer CEA (§ 402-46)", "#a6cee3", "1", "", (0, (10, 3)),
              "overlay", "polygon", None, ("§ 402-46C", "§ 402-48C(7)", "§ 402-48C(10)"), _FILL),
    LayerRole("recreational_river", "Recreational river corridor", "Recreational river corridor", "#1b9e77", "1", "",
              (0, (6, 2)), "overlay", "polygon", None, ("§ 402-51C",), _FILL),
    LayerRole("rcda", "Rockland County Drainage Agency streams", "County Drainage Agency streams", "#7570b3", "1", "",
              (0, (1, 1.2)), "overlay", "polygon", None, ("§ 402-50B",), _FILL),
    LayerRole("historic", "Historic sites", "Historic sites", "#8c510a", "1", "", (0, (5, 1.5, 1, 1.5)),
              "overlay", "polygon", None, ("§ 402-48C(4)",), _FILL),
    LayerRole("habitats", "Habitats", "Habitats", "#66a61e", "1", "", (0, (3, 1, 1, 1, 1, 1)),
              "overlay", "polygon", None, ("§ 402-48C(8)",), _FILL),
    LayerRole("viewsheds", "Viewsheds", "Viewsheds", "#e7298a", "1", "", (0, (8, 2, 2, 2)),
              "overlay", "polygon", None, ("§ 402-48C(5)",), _FILL),
    LayerRole("recreation", "Recreation areas", "Recreation land", "#a6761d", "1", "", (0, (2, 2)),
              "overlay", "polygon", None, ("§ 402-48C(6)",), _FILL),
    LayerRole("zoning", "Zoning districts", "Zoning districts", "#777777", "1", "", (0, (4, 4)),
              "reference", "polygon", None, (), WebLook(line=True, weight=1.5), kept_whole=True),
    LayerRole("village_boundary", "Village boundary", "Village boundary", "#444444", "1", "", (0, (12, 4)),
              "reference", "polygon", None, (), WebLook(line=True, weight=2.5), extent=True),
    LayerRole("parcels", "Tax parcel lines", "Tax parcels", "#999999", "1", "", (0, (1, 3)),
              "reference", "polygon", None, (), WebLook(line=True, weight=1, edge="#555555", on_at_start=True), extent=True,
              kept_whole=True),
    # Road centre lines (widened to their right-of-way): the app's offline base map only; no rule reads them.
    LayerRole("roads", "Roads (illustrative base map)", "Roads", "#8a8a8a", "1", "", (0, (2, 1)),
              "reference", "polygon_or_line", None, (), WebLook(line=True, weight=2.5, base_only=True)),
    # Read by the approvals around Article IX (sloat_core.approvals: GML § 239-m/239-n county referral, the
    # ECL Article 24 screen), by no Article IX rule: reference roles.
    LayerRole("parkland", "State and county parks", "State/county parks", "#4d9221", "1", "", (0, (6, 3)),
              "reference", "polygon", None, (), WebLook(line=True, weight=2)),
    LayerRole("state_county_roads", "State and county roads (right-of-way)", "State/county roads", "#b35806", "1", "",
              (0, (9, 3)), "reference", "polygon_or_line", None, (), WebLook(line=True, weight=2)),
    LayerRole("public_institutions", "State or county land with a public building", "State/county public land",
              "#5e3c99", "1", "", (0, (4, 2)), "reference", "polygon", None, (), WebLook(line=True, weight=2)),
    LayerRole("ag_district_farms", "Farms in an agricultural district", "Farms in an agricultural district",
              "#d8b365", "1", "", (0, (3, 3)), "reference", "polygon", None, (), WebLook(line=True, weight=2)),
    LayerRole("nysdec_wetlands", "NYSDEC freshwater wetlands (map)", "NYSDEC wetlands (map)", "#01665e", "1", "",
              (0, (2, 2, 6, 2)), "reference", "polygon", None, (), WebLook(line=True, weight=2)),
)


@dataclass(frozen=True)
class DerivedStyle:
    """Looks of a deduction row drawn from no layer of its own (the buffer, a slope class); its name is the
    row's (`sloat_core.measure.rows.RowSpec`)."""

    id: str
    colour: str
    face: str
    hatch: str
    web: WebLook = _FILL


#: Slope classes take the slope overlay's colours (sloat_core.gis.slope.SLOPE_CLASS_COLORS), so the
#: deduction rows match the picture on the map.
DERIVED_STYLES: tuple[DerivedStyle, ...] = (
    DerivedStyle("buffer", "#b2df8a", "0.93", "///",
                 WebLook(dash="2 4", edge="#6a9f3a", fill_opacity=(0.8, 0.3), on_at_start=True)),
    DerivedStyle("slope_over_40", "#{:02x}{:02x}{:02x}".format(*SLOPE_CLASS_COLORS[4][:3]), "0.40", "xxx"),
    DerivedStyle("slope_25_40", "#{:02x}{:02x}{:02x}".format(*SLOPE_CLASS_COLORS[3][:3]), "0.80", "++"),
)

#: Every role a manifest may name.
ROLES: tuple[str, ...] = tuple(r.id for r in ROLE_DECLARATIONS)
#: Roles that accept line features (buffered to polygons); all other roles need polygons.
LINE_ROLES: frozenset[str] = frozenset(r.id for r in ROLE_DECLARATIONS if r.geometry == "polygon_or_line")

_BY_ID = {r.id: r for r in ROLE_DECLARATIONS}
_DERIVED = {d.id: d for d in DERIVED_STYLES}


def role(role_id: str) -> LayerRole:
    """The declaration of a role (KeyError for an unknown one)."""
    return _BY_ID[role_id]


def roles_of_kind(*kinds: str) -> tuple[str, ...]:
    """Ids of the roles of the given kinds, in declaration order.

    >>> roles_of_kind("outcrops")
    ('rock_outcrops',)
    """
    return tuple(r.id for r in ROLE_DECLARATIONS if r.kind in kinds)


def style(key: str) -> LayerRole | DerivedStyle:
    """The looks of a role or a derived deduction row (buffer, slope classes)."""
    return _BY_ID[key] if key in _BY_ID else _DERIVED[key]


def _fields(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
