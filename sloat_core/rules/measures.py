"""What the layers and the DEM say about one parcel: every constraint's land inside it.

`parcel_findings` is computed once per parcel and read by every rule (deductions, cluster triggers,
permits, mitigation). A constraint whose layer is missing from the layer set is ``None`` (unknown),
never an empty geometry: the rules report it as unknown, not as absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import EMPTY, GRID_FT, PRESENCE_MIN_SQFT, area_sqft, polygonal, union_all
from sloat_core.law.params import value
from sloat_core.gis.terrain import SlopeGrid, slope_grid

__all__ = ["Findings", "parcel_findings", "slope_sets", "SlopeRegions", "RESOURCE_ROLES", "OVERLAY_ROLES"]

#: Layers of land that § 402-45A(1) deducts in full, and that carry a buffer. Water bodies carry one
#: too: the river channel and ponds are mapped as polygons (NWI "Lake"/"Freshwater Pond", the river
#: channel), and § 402-45A(1) names "streams and watercourses" without limiting them to lines.
RESOURCE_ROLES = ("water_bodies", "watercourses", "wetlands")
#: Map overlays that only matter for triggers and reviews (inside or not, how much).
OVERLAY_ROLES = (
    "floodplain",
    "aquifer_cea",
    "recreational_river",
    "rcda",
    "historic",
    "habitats",
    "viewsheds",
    "recreation",
)


def slope_sets() -> dict[str, dict[str, float]]:
    """The slope sets the rules read, as bounds on percent slope (thresholds from the parameters file).

    ``slope_25_40`` and ``slope_over_40`` are the § 402-45A(2) deductions ("in excess of"),
    ``slope_ge_25`` the steep slope permit's "25% or greater" (§ 402-55), ``slope_over_15`` the
    cluster trigger of § 402-48C(1).
    """
    return {
        "slope_25_40": {"gt": value("steep_slope_deduction_threshold_pct"),
                        "le": value("very_steep_slope_threshold_pct")},
        "slope_over_40": {"gt": value("very_steep_slope_threshold_pct")},
        "slope_ge_25": {"ge": value("steep_slope_permit_threshold_pct")},
        "slope_over_15": {"gt": value("cluster_slope_threshold_pct")},
    }


class SlopeRegions(Mapping):
    """The parcel's land in each slope set (and ``"unknown"``), as geometry, built when first asked for.

    Areas never need these shapes (see :meth:`Findings.slope_area_sqft_in`); maps, exports and the
    report do. Turning cells into polygons is the slowest step of an analysis, so it waits for them.
    """

    def __init__(self, grid: SlopeGrid):
        self._grid = grid

    def __getitem__(self, name: str) -> BaseGeometry:
        if name == "unknown":
            return self._grid.unknown_region()
        return self._grid.region(**slope_sets()[name])

    def __iter__(self):
        return iter((*slope_sets(), "unknown"))

    def __len__(self) -> int:
        return len(slope_sets()) + 1


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
    buffer: BaseGeometry | None
    buffer_width_ft: float
    slope: SlopeGrid | None
    slope_area_sqft: dict[str, float]
    slope_regions: Mapping[str, BaseGeometry]
    feature_names: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

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
            return self.slope.class_areas_sqft(geom)["unknown"]
        return self.slope.area_sqft(geom, cells=self.slope.mask(**slope_sets()[name]))


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


def _outcrops(layerset, geom):
    """Split outcrops touching the parcel by their whole size (not just the part inside)."""
    layer = layerset.get("rock_outcrops") if layerset is not None else None
    if layer is None:
        return None, None, []
    idx = layer.query_indices(geom)
    if len(idx) == 0:
        return EMPTY, EMPTY, []
    # Touching or overlapping outcrop polygons are one outcrop: measure each dissolved part.
    whole = shapely.get_parts(shapely.union_all(layer.geoms[idx]))
    threshold = value("rock_outcrop_min_area_sqft")
    big, small, sizes = [], [], []
    for part in whole:
        inside = polygonal(part.intersection(geom))
        if inside.is_empty:
            continue
        size = float(part.area)
        if inside.area >= PRESENCE_MIN_SQFT:  # an outcrop merely touching the line is not on the parcel
            sizes.append(size)
        (big if size > threshold else small).append(inside)  # "in excess of 50 square feet"
    return union_all(big), union_all(small), sorted(sizes)


def _buffer(layerset, geom: BaseGeometry, width_ft: float, water_bodies: bool = True):
    """The band of `width_ft` around wetlands and watercourses, outside the resources, inside the parcel.

    Water bodies (ponds) carry it too unless ``water_bodies`` is False (local setting
    ``buffer_around_water_bodies``: § 402-45A(1) names a "watercourse or wetland buffer").
    """
    roles = [r for r in RESOURCE_ROLES if layerset is not None and layerset.get(r) is not None
             and (water_bodies or r != "water_bodies")]
    if not roles:
        return None
    reach = geom.buffer(width_ft)
    resources = []
    for role in roles:
        layer = layerset.get(role)
        resources.extend(layer.geoms[layer.query_indices(reach)])
    if not resources:
        return EMPTY
    resource = shapely.union_all(resources)
    band = resource.buffer(width_ft, quad_segs=16).difference(resource)
    return polygonal(band.intersection(geom))


def parcel_findings(parcel_geom: BaseGeometry, layerset, *, buffer_width_ft: float,
                    buffer_water_bodies: bool = True) -> Findings:
    """Everything the layer set and DEM say about the land inside `parcel_geom` (EPSG:2260)."""
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
    big, small, sizes = _outcrops(layerset, parcel_geom)
    buffer = _buffer(layerset, parcel_geom, buffer_width_ft, buffer_water_bodies)
    warnings: list[str] = []
    # Land outside a layer's coverage (another area, beyond the FIRM panels) is unknown for that
    # layer, never free of it: the whole role is unknown on this parcel.
    gaps = (layerset.coverage_gaps(parcel_geom, (*RESOURCE_ROLES, *OVERLAY_ROLES, "rock_outcrops"))
            if hasattr(layerset, "coverage_gaps") else {})
    for role, gap in gaps.items():
        warnings.append(f"The {role.replace('_', ' ')} layer does not cover {gap:,.0f} sq ft of the parcel "
                        f"(outside the area it maps), so {role.replace('_', ' ')} is unknown here.")
        if role == "rock_outcrops":
            big = small = None
            sizes = []
        else:
            layers[role], names[role] = None, []
    if buffer is not None and set(gaps) & set(RESOURCE_ROLES):
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
        slope_area = grid.class_areas_sqft(parcel_geom)
        regions: Mapping[str, BaseGeometry] = SlopeRegions(grid)
    else:
        slope_area = {"0-15": 0.0, "15-25": 0.0, "25-40": 0.0, "over_40": 0.0, "unknown": gross}
        regions = {k: EMPTY for k in slope_sets()}
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
    missing = [r for r in RESOURCE_ROLES + OVERLAY_ROLES + ("rock_outcrops",)
               if layerset is None or layerset.get(r) is None]
    if missing:
        warnings.append("These layers are not loaded, so what depends on them is unknown: "
                        + ", ".join(m.replace("_", " ") for m in missing) + ".")
    return Findings(
        parcel=parcel_geom,
        gross_area_sqft=gross,
        layers=layers,
        outcrops_counted=big,
        outcrops_small=small,
        outcrop_sizes_sqft=sizes,
        buffer=buffer,
        buffer_width_ft=buffer_width_ft,
        slope=grid,
        slope_area_sqft=slope_area,
        slope_regions=regions,
        feature_names=names,
        warnings=warnings,
    )
