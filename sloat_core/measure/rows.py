"""The rows of the § 402-45 deduction table, each declared once (`RowSpec`), and the order they take land in.

A row's declaration carries everything the rest of the tool reads about it: its label (law numbers filled
in from the parameters) and its short name in the printed map's legend (nothing else names a row), the parameter of its countable share, where its land comes from (a role's layer,
the outcrops counted, the buffer band, a slope set of the DEM), its everyday words and the study that
settles it on the ground. The layer role whose land a row counts names the row in its own declaration
(:attr:`sloat_core.gis.roles.LayerRole.deduction`). The measuring (:mod:`sloat_core.measure.lot_area`,
:mod:`sloat_core.measure.village`), the rules (:mod:`sloat_core.rules.deductions`), the plain words, the
answer card, the app's map and the report read these declarations.
"""

from __future__ import annotations

import datetime as dt

from dataclasses import dataclass

from sloat_core.gis.roles import ROLE_DECLARATIONS, role, roles_of_kind
from sloat_core.law.params import fill, value

__all__ = ["RowSpec", "ROW_LANDS", "DEDUCTION_ROWS", "ROW_SPECS", "ROW_IDS", "SLOPE_ROWS", "LAYER_ROWS",
           "MAP_LAYERS", "deduction_order", "deduction_label", "row_on_map_layer"]


@dataclass(frozen=True)
class RowSpec:
    """One row of the § 402-45 deduction table, declared once: everything else reads it.

    Attributes
    ----------
    id : str
        The row's constraint id (``"wetlands"``, ``"slope_25_40"``).
    label : str
        Plain label; a template whose law numbers are filled in from the parameters (`deduction_label`).
    legend : str
        Its short name in the printed map's legend (the report and the handout), a template like ``label``
        (`legend_text`).
    share : str
        The parameter holding its countable share (§ 402-45A(1)-(3)).
    land : str
        Where its land comes from, one of `ROW_LANDS`: ``layer`` (the features of its role's layer),
        ``outcrops`` (its role's outcrops over the size, measured whole), ``buffer`` (the band around the
        resource layers), ``slope`` (the DEM cells of the slope set of the same name).
    words : str
        Everyday words for it (the counter, the printed summary; numbers come from the label).
    study : str
        Who settles it on the ground before an application (the answer card's next steps).
    """

    id: str
    label: str
    legend: str
    share: str
    land: str
    words: str
    study: str

    def legend_text(self, on: dt.date) -> str:
        """The printed legend's short name, law numbers filled in from the parameters as in effect on ``on``
        (the date of the analysis the map draws).

        >>> ROW_SPECS["slope_25_40"].legend_text(dt.date(2026, 12, 1))
        'Slopes over 25% to 40%'
        """
        return fill(self.legend, on)

    @property
    def role(self) -> str | None:
        """The layer role whose land this row counts (declared by the role, `LayerRole.deduction`)."""
        return _ROLE_OF_ROW.get(self.id)

    @property
    def reads(self) -> tuple[str, ...]:
        """The layer roles its land is drawn from (a coverage gap in one of them makes it unknown)."""
        if self.land == "buffer":
            return roles_of_kind("resource")
        return () if self.role is None else (self.role,)

    @property
    def map_layer(self) -> str | None:
        """The app's map layer that shows its land (its role, or the buffer band); None for a slope set."""
        if self.land == "slope":
            return None
        return self.role or self.id


#: Where a row's land comes from (see `RowSpec.land`).
ROW_LANDS = ("layer", "outcrops", "buffer", "slope")

_DELINEATION = "a wetland scientist to mark the wetland edge on the ground (a delineation)"
_TOPO = "a surveyor to map the ground's slopes (a topographic survey)"

#: The deduction rows in the order of the law's text. Ties in share keep this order.
DEDUCTION_ROWS: tuple[RowSpec, ...] = (
    RowSpec("water_bodies", "Ponds and other water bodies", "Ponds, water bodies", "surface_water_countable_fraction",
            "layer", "ponds and other open water", "a surveyor to locate the pond edges"),
    RowSpec("watercourses", "Streams and watercourses", "Streams, watercourses", "surface_water_countable_fraction",
            "layer", "streams", "a surveyor to locate the stream banks"),
    RowSpec("wetlands", "Wetlands", "Wetlands", "surface_water_countable_fraction", "layer", "wetland", _DELINEATION),
    RowSpec("floodplain", "100-year floodplain (FEMA)", "100-year floodplain", "surface_water_countable_fraction",
            "layer", "flood zone",
            "a surveyor to check the flood zone line and ground levels (an elevation certificate)"),
    RowSpec("slope_over_40", "Slopes over {very_steep_slope_threshold_pct:g}%",
            "Slopes over {very_steep_slope_threshold_pct:g}%", "very_steep_slope_countable_fraction", "slope",
            "very steep ground", _TOPO),
    RowSpec("buffer", "Wetland and watercourse buffers", "Wetland/stream buffer", "buffer_countable_fraction",
            "buffer", "land next to a wetland or stream", _DELINEATION),
    RowSpec("slope_25_40", "Slopes over {steep_slope_deduction_threshold_pct:g}% up to {very_steep_slope_threshold_pct:g}%",
            "Slopes over {steep_slope_deduction_threshold_pct:g}% to {very_steep_slope_threshold_pct:g}%",
            "steep_slope_countable_fraction", "slope", "steep ground", _TOPO),
    RowSpec("rock_outcrops", "Rock outcrops over {rock_outcrop_min_area_sqft:,g} sq ft",
            "Rock outcrops > {rock_outcrop_min_area_sqft:,g} sq ft", "rock_outcrop_countable_fraction", "outcrops",
            "bare rock", "a surveyor to map the rock outcrops"),
)
#: Row id -> its declaration.
ROW_SPECS: dict[str, RowSpec] = {r.id: r for r in DEDUCTION_ROWS}
#: Row ids in the order of the law's text.
ROW_IDS: tuple[str, ...] = tuple(ROW_SPECS)
_ROLE_OF_ROW = {r.deduction: r.id for r in ROLE_DECLARATIONS if r.deduction is not None}


def row_on_map_layer(layer: str) -> RowSpec | None:
    """The § 402-45A deduction row whose land a map layer shows (a role, or the buffer band), or None.

    >>> row_on_map_layer("wetlands").id, row_on_map_layer("buffer").id, row_on_map_layer("aquifer_cea")
    ('wetlands', 'buffer', None)
    """
    return next((r for r in DEDUCTION_ROWS if r.map_layer == layer), None)


def deduction_label(constraint: str, on: dt.date) -> str:
    """The plain label of a deduction row, its law numbers read from the parameters as in effect on ``on``
    (the date the law is applied at: the analysis's, or the app's day for its map) (§ 402-45A).

    >>> day = dt.date(2026, 12, 1)
    >>> deduction_label("slope_25_40", day), deduction_label("rock_outcrops", day)
    ('Slopes over 25% up to 40%', 'Rock outcrops over 50 sq ft')
    """
    return fill(ROW_SPECS[constraint].label, on)


def _drawn_from_the_bottom(layer: str) -> tuple[int, int]:
    """Overlays first (the floodplain, the broadest land), then the buffer band beneath the resources it
    surrounds, then the resources and outcrops; in declaration order within each."""
    order = [r.id for r in ROLE_DECLARATIONS]
    if layer not in order:
        return (1, 0)
    return (0 if role(layer).kind == "overlay" else 2, order.index(layer))


#: Every map layer that shows a deduction row's land (slope rows come as the slope picture), bottom to top:
#: floodplain, buffer, wetlands, water bodies, watercourses, rock outcrops.
MAP_LAYERS: tuple[str, ...] = tuple(sorted({r.map_layer for r in DEDUCTION_ROWS if r.map_layer is not None},
                                           key=_drawn_from_the_bottom))

#: Rows that are sets of DEM cells (the rest are shapes from the layers).
SLOPE_ROWS = tuple(r.id for r in DEDUCTION_ROWS if r.land == "slope")
#: Rows that are shapes from the layers (and the buffer drawn around them).
LAYER_ROWS = tuple(r.id for r in DEDUCTION_ROWS if r.land != "slope")


def deduction_order(on: dt.date) -> list[RowSpec]:
    """`DEDUCTION_ROWS` sorted by countable share as in effect on ``on`` (lowest first), ties in the fixed order.

    The order in which rows take land (§ 402-45: each piece counts once, at its lowest share). The
    single-parcel table and the bulk sweep both cut their pieces in this order.

    >>> [r.id for r in deduction_order(dt.date(2026, 12, 1))][:2]
    ['water_bodies', 'watercourses']
    """
    return [row for _, row in sorted(enumerate(DEDUCTION_ROWS), key=lambda item: (value(item[1].share, on), item[0]))]
