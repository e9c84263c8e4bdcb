"""What the layers and the DEM say about a parcel: its constraint land as shapes, and as measures.

Two records:

* :class:`Findings` -- the constraint land inside one parcel as geometry (`parcel_findings`), for maps,
  exports and the work a drawn footprint touches. A layer missing from the layer set is ``None``
  (unknown), never an empty geometry.
* :class:`Measures` -- the same knowledge as areas: each deduction row's own land, each layer's land,
  each slope set, the land of unknown slope and what the rows did with it, and (per role) the land a
  loaded layer does not cover. The rules that decide on land alone -- the net lot area and its worst
  case (§ 402-45), the ten cluster triggers (§ 402-48C), the land-only permits, meets-minimum -- are
  functions of this record. The single-parcel path (`deductions.lot_area`) and the tiled bulk sweep
  (`engine.screening`) both produce it, so one rule serves one parcel or a whole village (its fields
  are then arrays, one value per parcel, and every rule function works on them unchanged).

Unknown is ``nan`` in a measure: a missing layer, no elevation model. The record itself is
:mod:`sloat_core.measure.record`; the rules' three-valued logic over it is :mod:`sloat_core.rules.measures`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import EMPTY, GRID_FT, PRESENCE_MIN_SQFT, area_sqft, polygonal, union_all
from sloat_core.gis.roles import roles_of_kind
from sloat_core.gis.slope_grid import SlopeGrid, slope_grid
from sloat_core.law.params import value
from sloat_core.measure.record import NAN, OVERLAY_ROLES, RESOURCE_ROLES, SLOPE_SET_NAMES, slope_sets
from sloat_core.measure.rows import DEDUCTION_ROWS

#: The layer role of the outcrops (§ 402-45A(3), § 402-48C(9)), measured by their whole size.
OUTCROPS_ROLE = next(r.role for r in DEDUCTION_ROWS if r.land == "outcrops")

__all__ = ["OUTCROPS_ROLE", "Findings", "parcel_findings", "SlopeRegions", "findings_areas", "findings_uncovered", "buffer_band",
           "NAME_FIELDS", "NAME_MAX_CHARS"]


class SlopeRegions(Mapping):
    """The parcel's land in each slope set (and ``"unknown"``), as geometry, built when first asked for.

    Areas never need these shapes (see :meth:`Findings.slope_area_sqft_in`); maps, exports and the
    report do. Turning cells into polygons is the slowest step of an analysis, so it waits for them.
    """

    def __init__(self, grid: SlopeGrid, on: dt.date):
        self._grid = grid
        self._on = on  # the date the law is applied at: the slope sets' thresholds then

    def __getitem__(self, name: str) -> BaseGeometry:
        if name == "unknown":
            return self._grid.unknown_region()
        return self._grid.region(**slope_sets(self._on)[name])

    def __iter__(self):
        return iter((*SLOPE_SET_NAMES, "unknown"))

    def __len__(self) -> int:
        return len(SLOPE_SET_NAMES) + 1


@dataclass
class Findings:
    """Constraint geometry inside one parcel (EPSG:2260); ``None`` means the layer is missing."""

    parcel: BaseGeometry
    gross_area_sqft: float
    layers: dict[str, BaseGeometry | None]
    #: Outcrops over the § 402-45A(3) size, and those at or under it (not a constraint).
    outcrops_counted: BaseGeometry | None
    outcrops_small: BaseGeometry | None
    outcrop_sizes_sqft: list[float]
    #: Land inside the parcel of outcrops over the cluster trigger's size (None: no outcrop layer).
    outcrops_cluster_sqft: float | None
    buffer: BaseGeometry | None
    buffer_width_ft: float
    slope: SlopeGrid | None
    slope_area_sqft: dict[str, float]
    slope_regions: Mapping[str, BaseGeometry]
    feature_names: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: Land a layer maps on the parcel although it does not cover all of it (the role is unknown here):
    #: its deduction row is unknown, but the land stays taken by it in the deduction order.
    unknown_land: dict[str, BaseGeometry] = field(default_factory=dict)
    #: The same parcel in the worst case of its coverage gaps (`worst_case_findings`): each layer that does
    #: not cover all of it maps there what it maps, and all the land outside its coverage as its constraint.
    #: None when no layer a deduction reads leaves part of the parcel out. What the floor of the net reads.
    worst: Findings | None = field(default=None, repr=False)
    #: The date the law is applied at in measuring (the slope sets' thresholds, the outcrop sizes); what the
    #: deduction table and the rules over these findings read the law at too.
    as_of: dt.date = field(kw_only=True)

    def area(self, role: str) -> float | None:
        """Area in sq ft of a layer's land inside the parcel (None when the layer is missing)."""
        geom = self.layers.get(role)
        return None if geom is None else area_sqft(geom)

    @property
    def slope_unknown_sqft(self) -> float:
        return self.slope_area_sqft.get("unknown", self.gross_area_sqft)

    def slope_area_sqft_in(self, name: str, within: BaseGeometry | None = None) -> float:
        """Area in sq ft of the slope set ``name`` (a key of :func:`slope_sets`, or ``"unknown"``).

        ``within`` is a part of the parcel (default: the whole parcel). Measured on the DEM cells,
        exactly the area of ``slope_regions[name] & within`` without building that shape. Without a
        DEM every slope set is empty and all the land is unknown.
        """
        geom = self.parcel if within is None else within
        if self.slope is None:
            return area_sqft(geom) if name == "unknown" else 0.0
        if name == "unknown":
            if within is None:
                return self.slope_area_sqft.get("unknown", 0.0)
            return self.slope.class_areas_sqft(geom, on=self.as_of)["unknown"]
        return self.slope.area_sqft(geom, cells=self.slope.mask(**slope_sets(self.as_of)[name]))


#: Fields a feature's name is read from for evidence text, first present wins.
NAME_FIELDS = ("NAME", "Name", "name", "LISTING", "STATUS", "WETLAND_TYPE", "FLD_ZONE")
#: Longest feature name carried into evidence text (names come from layer files: keep them short).
NAME_MAX_CHARS = 80


def _short(text: str) -> str:
    """A feature name fit for evidence text: one line, at most NAME_MAX_CHARS characters."""
    text = " ".join(text.split())
    return text if len(text) <= NAME_MAX_CHARS else text[: NAME_MAX_CHARS - 1] + "…"


def _clip(layerset, role: str, geom: BaseGeometry):
    """(union of the role's features clipped to geom, feature names) or (None, []) when missing."""
    layer = layerset.get(role) if layerset is not None else None
    if layer is None:
        return None, []
    # Positions first, the GeoDataFrame rows only when names are wanted: slicing the frame costs
    # more than the geometry work for a small parcel.
    idx = layer.query_indices(geom)
    if len(idx) == 0:
        return EMPTY, []
    parts = shapely.intersection(layer.geoms[idx], geom)
    inside = union_all(p for p in parts if not p.is_empty)
    names = []
    labels = layer.labels(NAME_FIELDS)
    if not inside.is_empty and labels is not None:
        touched = idx[np.fromiter((not p.is_empty and p.area > 0 for p in parts), dtype=bool, count=len(parts))]
        names = sorted({_short(v) for v in labels[touched] if v is not None})[:8]
    return inside, names


def _outcrops(layerset, geom, on: dt.date):
    """Split outcrops touching the parcel by their whole size (not just the part inside), by the sizes in
    effect on ``on``."""
    layer = layerset.get(OUTCROPS_ROLE) if layerset is not None else None
    if layer is None:
        return None, None, [], None
    idx = layer.query_indices(geom)
    if len(idx) == 0:
        return EMPTY, EMPTY, [], 0.0
    # Touching or overlapping outcrop polygons are one outcrop: measure each dissolved part.
    whole = shapely.get_parts(shapely.union_all(layer.geoms[idx]))
    threshold = value("rock_outcrop_min_area_sqft", on)
    cluster_threshold = value("cluster_rock_outcrop_min_area_sqft", on)
    big, small, sizes = [], [], []
    cluster_sqft = 0.0
    for part in whole:
        inside = polygonal(part.intersection(geom))
        if inside.is_empty:
            continue
        size = float(part.area)
        if inside.area >= PRESENCE_MIN_SQFT:  # an outcrop merely touching the line is not on the parcel
            sizes.append(size)
        (big if size > threshold else small).append(inside)  # "in excess of" the § 402-45A(3) size
        if size > cluster_threshold:  # § 402-48C(9): "in excess of" its size, the whole outcrop's
            cluster_sqft += inside.area
    return union_all(big), union_all(small), sorted(sizes), cluster_sqft


def _buffer_roles(layerset, water_bodies: bool = True) -> list[str]:
    """The loaded resource roles that carry the § 402-45A(1) buffer (ponds unless the setting says not)."""
    return [r for r in RESOURCE_ROLES if layerset is not None and layerset.get(r) is not None
            and (water_bodies or r != "water_bodies")]


def _buffer(layerset, geom: BaseGeometry, width_ft: float, water_bodies: bool = True, *, unmapped: bool = False):
    """The band of `width_ft` around wetlands and watercourses, outside the resources, inside the parcel.

    Water bodies (ponds) carry it too unless ``water_bodies`` is False (local setting
    ``buffer_around_water_bodies``: § 402-45A(1) names a "watercourse or wetland buffer").

    ``unmapped``: the worst case of the layers' coverage, where all the land near the parcel outside a
    resource layer's coverage is that resource, so its band reaches into the mapped land too.
    """
    roles = _buffer_roles(layerset, water_bodies)
    if not roles:
        return None
    reach = geom.buffer(width_ft)
    resources = []
    for role in roles:
        layer = layerset.get(role)
        resources.extend(layer.geoms[layer.query_indices(reach)])
        if unmapped and hasattr(layerset, "uncovered"):
            # Twice the width: the band of this cut piece reaches no farther than the width in from its
            # cut edge, so the cut is never mistaken for the edge of a resource on the parcel.
            out = layerset.uncovered(role, geom.buffer(2 * width_ft if width_ft > 0 else 1.0))
            if not out.is_empty:
                resources.append(out)
    band = buffer_band(resources, width_ft)
    return band if band.is_empty else polygonal(band.intersection(geom))


def buffer_band(resources, width_ft: float) -> BaseGeometry:
    """The band of ``width_ft`` around the resources (wetlands, watercourses, water bodies), outside them.

    § 402-45A(1) "watercourse or wetland buffer"; the width is a local setting. One construction for the
    single parcel and the village screen.
    """
    resources = list(resources)
    if not resources:
        return EMPTY
    resource = shapely.union_all(resources)
    return polygonal(resource.buffer(width_ft, quad_segs=16).difference(resource))


def parcel_findings(parcel_geom: BaseGeometry, layerset, *, buffer_width_ft: float,
                    buffer_water_bodies: bool = True, on: dt.date) -> Findings:
    """Everything the layer set and DEM say about the land inside `parcel_geom` (EPSG:2260): the
    constraints of § 402-45A and the features of § 402-48C, as geometry.

    ``on`` is the date the law is applied at (the analysis's ``as_of``): the slope classes' thresholds and the
    outcrop sizes in effect then. The findings carry it (``as_of``)."""
    # Snap the parcel to the overlay grid once, so that the gross area and every piece cut from it
    # share one precision (see geometry.GRID_FT).
    snapped = polygonal(shapely.set_precision(parcel_geom, GRID_FT))
    if not snapped.is_empty:
        parcel_geom = snapped
    gross = area_sqft(parcel_geom)
    layers: dict[str, BaseGeometry | None] = {}
    names: dict[str, list[str]] = {}
    for role in RESOURCE_ROLES + OVERLAY_ROLES:
        layers[role], names[role] = _clip(layerset, role, parcel_geom)
    big, small, sizes, cluster_sqft = _outcrops(layerset, parcel_geom, on)
    buffer = _buffer(layerset, parcel_geom, buffer_width_ft, buffer_water_bodies)
    warnings: list[str] = []
    # Land outside a layer's coverage (another area, beyond the FIRM panels) is unknown for that
    # layer, never free of it: the whole role is unknown on this parcel.
    gaps = (layerset.coverage_gaps(parcel_geom, (*RESOURCE_ROLES, *OVERLAY_ROLES, *roles_of_kind("outcrops")))
            if hasattr(layerset, "coverage_gaps") else {})
    worst = None
    if set(gaps) & DEDUCTION_READS:
        worst = _worst_case(parcel_geom, gross, layerset, gaps, layers, big, buffer_width_ft, buffer_water_bodies)
    # What such a layer does map stays taken by its (unknown) deduction row, so that the rows after it in
    # the deduction order measure the same land as the village screen's pieces (`unknown_land`).
    unknown_land: dict[str, BaseGeometry] = {}
    for role, gap in gaps.items():
        warnings.append(f"The {role.replace('_', ' ')} layer does not cover {gap:,.0f} sq ft of the parcel "
                        f"(outside the area it maps), so {role.replace('_', ' ')} is unknown here.")
        if role == OUTCROPS_ROLE:
            if big is not None:
                unknown_land[role] = big
            big = small = cluster_sqft = None
            sizes = []
        else:
            if layers[role] is not None:
                unknown_land[role] = layers[role]
            layers[role], names[role] = None, []
    if buffer is not None and set(gaps) & set(RESOURCE_ROLES):
        unknown_land["buffer"] = buffer
        buffer = None  # the band around a resource the layer may not show is unknown too

    dem_path = getattr(layerset, "dem_path", None) if layerset is not None else None
    grid = None
    dem_problem = None
    if dem_path is not None:
        try:
            grid = slope_grid(dem_path, parcel_geom)
        except SloatInputError as exc:  # no CRS, wrong CRS, unreadable: slopes unknown, never flat
            dem_problem = str(exc)
    if grid is not None:
        slope_area = grid.class_areas_sqft(parcel_geom, on=on)
        regions: Mapping[str, BaseGeometry] = SlopeRegions(grid, on)
    else:
        slope_area = {"0-15": 0.0, "15-25": 0.0, "25-40": 0.0, "over_40": 0.0, "unknown": gross}
        regions = {k: EMPTY for k in SLOPE_SET_NAMES}
        regions["unknown"] = parcel_geom
        if dem_problem:
            warnings.append(f"The elevation model cannot be used, so slopes are unknown: {dem_problem}")
        else:
            warnings.append("No elevation model (DEM) is loaded, so slopes are unknown.")
    if slope_area.get("unknown", 0.0) > 0.5 and grid is not None:
        warnings.append(
            f"Slopes are unknown on {slope_area['unknown']:,.0f} sq ft of the parcel "
            "(outside the elevation model or no data there)."
        )
    missing = [r for r in RESOURCE_ROLES + OVERLAY_ROLES + roles_of_kind("outcrops")
               if layerset is None or layerset.get(r) is None]
    if missing:
        warnings.append("These layers are not loaded, so what depends on them is unknown: "
                        + ", ".join(m.replace("_", " ") for m in missing) + ".")
    found = Findings(
        parcel=parcel_geom,
        gross_area_sqft=gross,
        layers=layers,
        outcrops_counted=big,
        outcrops_small=small,
        outcrop_sizes_sqft=sizes,
        outcrops_cluster_sqft=cluster_sqft,
        buffer=buffer,
        unknown_land=unknown_land,
        buffer_width_ft=buffer_width_ft,
        slope=grid,
        slope_area_sqft=slope_area,
        slope_regions=regions,
        feature_names=names,
        warnings=warnings,
        as_of=on,
    )
    if worst is not None:
        found.worst = replace(found, layers=worst["layers"], outcrops_counted=worst["outcrops"],
                              buffer=worst["buffer"], unknown_land={}, feature_names={}, warnings=[], worst=None)
    return found


#: The layer roles a § 402-45A deduction row reads (a coverage gap in one of them leaves land unknown).
DEDUCTION_READS = frozenset(r for spec in DEDUCTION_ROWS for r in spec.reads)


def _worst_case(parcel_geom, gross, layerset, gaps, layers, big, width_ft, water_bodies) -> dict:
    """The land of each deduction row in the worst case of the layers' coverage on one parcel.

    Land outside a layer's coverage is unknown for that layer: at worst it is all its constraint (a wetland,
    a flood zone, an outcrop over the § 402-45A(3) size). Inside the coverage the layer says what there is.
    So a layer with a gap maps, in the worst case, what it maps plus all the parcel it does not cover; the
    buffer is the band around the resources so grown (an unmapped wetland's buffer reaches into mapped
    land). A layer not loaded at all stays unknown (None): its worst case is the rules' own.

    Measured as a parcel of its own by the same deduction table, each piece of land counts once at its
    lowest share there too (§ 402-45A), so nothing is subtracted twice.
    """
    def grown(known, role):
        out = layerset.uncovered(role, parcel_geom) if role in gaps else EMPTY
        if known is None or known.is_empty:
            return out
        return known if out.is_empty else polygonal(shapely.union(known, out, grid_size=GRID_FT))

    worst_layers = dict(layers)
    for role in RESOURCE_ROLES + OVERLAY_ROLES:
        if role in DEDUCTION_READS and layers.get(role) is not None:
            worst_layers[role] = grown(layers[role], role)
    outcrops = None if big is None else grown(big, OUTCROPS_ROLE)
    buffer = _buffer(layerset, parcel_geom, width_ft, water_bodies, unmapped=True)
    return {"layers": worst_layers, "outcrops": outcrops, "buffer": buffer}


def _area_or_nan(geom: BaseGeometry | None) -> float:
    return NAN if geom is None else area_sqft(geom)


def findings_areas(f: Findings, known: dict[str, float] | None = None) -> dict[str, float]:
    """The :attr:`Measures.areas` of one parcel, measured on its findings (nan where unknown): the land of
    each layer role (§ 402-45A, § 402-48C), the wetland permit's region (§ 402-57G) and the slope sets.

    ``known`` holds areas already measured (the slope rows' totals of the deduction table): not
    measured twice.
    """
    known_areas = known or {}
    out = {role: _area_or_nan(f.layers.get(role)) for role in RESOURCE_ROLES + OVERLAY_ROLES}
    parts = [f.layers.get(r) for r in RESOURCE_ROLES] + [f.buffer]
    known = [g for g in parts if g is not None and not g.is_empty]
    if all(g is None for g in parts):
        out["wetland_region"] = NAN
    else:
        out["wetland_region"] = 0.0 if not known else area_sqft(
            known[0] if len(known) == 1 else polygonal(shapely.union_all(known)))
    out["outcrops_cluster"] = NAN if f.outcrops_cluster_sqft is None else f.outcrops_cluster_sqft
    for name in SLOPE_SET_NAMES:
        if name in known_areas:
            out[name] = known_areas[name]
        else:
            out[name] = NAN if f.slope is None else f.slope_area_sqft_in(name)
    return out


def findings_uncovered(f: Findings) -> dict[str, float]:
    """Land of the parcel each measure's layers do not cover (:attr:`Measures.uncovered_sqft`); for the
    wetland permit's region of § 402-57G.

    The wetland permit's region is unknown wherever one of its layers is not loaded (a missing
    wetland layer says nothing about wetlands even where the stream layer is loaded): all the parcel.
    """
    missing = [r for r in RESOURCE_ROLES if f.layers.get(r) is None]
    if missing and len(missing) < len(RESOURCE_ROLES):
        return {"wetland_region": f.gross_area_sqft}
    return {}
