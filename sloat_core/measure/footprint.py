"""What a drawn disturbance footprint touches: its land in each layer, on the parcel and off it (sq ft).

The work is measured where it lies (§ 402-57G): the analysis hands in the findings of the parcel plus the
footprint when the footprint leaves the parcel. The rules (the permits, the mitigation) read these areas.
"""

from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError

from sloat_core.gis.geometry import area_sqft, polygonal
from sloat_core.measure.parcel import Findings

__all__ = ["footprint_summary", "footprint_impacts", "rectangle_footprint", "MAX_SIDE_FT", "MAX_OFFSET_FT"]

#: Longest side of a typed footprint, and furthest its centre may sit from the parcel's point (ft): a bound on
#: hostile input, far beyond any lot in the Village (about 3 miles across).
MAX_SIDE_FT = 5_000.0
MAX_OFFSET_FT = 20_000.0


def _bounded(value, name: str, low: float, high: float, *, open_low: bool = False) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise SloatInputError(f"The {name} must be a number of feet.") from None
    if not math.isfinite(number) or number < low or number > high or (open_low and number <= low):
        raise SloatInputError(f"The {name} must be {'more than' if open_low else 'at least'} {low:,.0f} and "
                              f"at most {high:,.0f} ft.")
    return number


def rectangle_footprint(parcel: BaseGeometry, width_ft: float, depth_ft: float, *, east_ft: float = 0.0,
                        north_ft: float = 0.0, rotation_deg: float = 0.0) -> BaseGeometry:
    """A rectangular disturbance footprint typed instead of drawn (WCAG 2.1.1, 2.5.7), in EPSG:2260.

    Parameters
    ----------
    parcel : shapely geometry
        The parcel in EPSG:2260 (US survey feet). The rectangle is centred on its representative point (a
        point inside the parcel; the centroid when that lies inside), moved by ``east_ft`` and ``north_ft``.
    width_ft, depth_ft : float
        East-west and north-south sides before rotation, in feet (more than 0, at most :data:`MAX_SIDE_FT`).
    rotation_deg : float
        Counter-clockwise turn about its centre, -360 to 360 degrees.

    Returns
    -------
    shapely.geometry.Polygon
        Area ``width_ft * depth_ft`` sq ft exactly (up to floating point), whatever the turn.

    >>> from shapely.geometry import box
    >>> round(rectangle_footprint(box(0, 0, 200, 100), 30, 40).area, 6)
    1200.0
    """
    if parcel is None or parcel.is_empty:
        raise SloatInputError("Choose the parcel first: the footprint is placed on it.")
    width = _bounded(width_ft, "width", 0.0, MAX_SIDE_FT, open_low=True)
    depth = _bounded(depth_ft, "depth", 0.0, MAX_SIDE_FT, open_low=True)
    east = _bounded(east_ft, "offset east", -MAX_OFFSET_FT, MAX_OFFSET_FT)
    north = _bounded(north_ft, "offset north", -MAX_OFFSET_FT, MAX_OFFSET_FT)
    turn = _bounded(rotation_deg, "turn", -360.0, 360.0)
    centroid = parcel.centroid
    centre = centroid if parcel.contains(centroid) else parcel.representative_point()
    x, y = centre.x + east, centre.y + north
    rect = box(x - width / 2, y - depth / 2, x + width / 2, y + depth / 2)
    return affinity.rotate(rect, turn, origin=(x, y)) if turn else rect


def footprint_summary(f: Findings, fp: BaseGeometry | None, work: Findings | None = None) -> dict | None:
    """What the drawn disturbance footprint ``fp`` touches, where it lies (sq ft; None where the layer is missing).

    ``work`` holds the findings of the parcel plus the footprint when the footprint leaves the parcel.
    """
    if fp is None:
        return None
    inside = polygonal(fp.intersection(f.parcel))
    f = work or f
    fp_in = polygonal(fp.intersection(f.parcel))

    def touched(geom):
        return None if geom is None else round(area_sqft(polygonal(fp_in.intersection(geom))), 2)

    def on_slopes(name):
        return 0.0 if fp_in.is_empty else round(f.slope_area_sqft_in(name, fp_in), 2)

    return {
        "area_sqft": round(area_sqft(fp), 2),
        "inside_parcel_sqft": round(area_sqft(inside), 2),
        "outside_parcel_sqft": round(max(area_sqft(fp) - area_sqft(inside), 0.0), 2),
        "wetlands_sqft": touched(f.layers.get("wetlands")),
        "watercourses_sqft": touched(f.layers.get("watercourses")),
        "water_bodies_sqft": touched(f.layers.get("water_bodies")),
        "buffer_sqft": touched(f.buffer),
        "floodplain_sqft": touched(f.layers.get("floodplain")),
        "slope_25_or_more_sqft": None if f.slope is None else on_slopes("slope_ge_25"),
        "slope_unknown_sqft": on_slopes("unknown"),
    }


def footprint_impacts(work: Findings, fp: BaseGeometry | None, given: dict | None = None) -> dict:
    """The wetland mitigation's inputs (§ 402-57P): one source of truth for the impact.

    ``given["impact_source"]`` decides: ``"footprint"`` takes the footprint's wetland, buffer and pond land
    where it lies (the typed figures are kept in ``given`` but not used; with no footprint or no wetland
    layer the impact is unknown, None); ``"typed"`` takes what was typed. Without a source (older cases,
    the CLI), typed figures win when there are any, else the footprint is measured.
    """
    mi = dict(given or {})
    impact_keys = ("impacted_wetland_sqft", "impacted_buffer_sqft", "impacted_water_body_sqft")
    source = mi.get("impact_source")
    if source is None:
        typed = any(mi.get(k) is not None for k in impact_keys)
        source = "typed" if typed or fp is None else "footprint"
    mi["impact_source"] = source
    if source != "footprint":
        return mi
    for k in impact_keys:
        mi[k] = None
    if fp is not None and work.layers.get("wetlands") is not None:
        mi["impacted_wetland_sqft"] = area_sqft(polygonal(fp.intersection(work.layers["wetlands"])))
        if work.buffer is not None:
            mi["impacted_buffer_sqft"] = area_sqft(polygonal(fp.intersection(work.buffer)))
        ponds = work.layers.get("water_bodies")
        if ponds is not None:
            mi["impacted_water_body_sqft"] = area_sqft(polygonal(fp.intersection(ponds)))
    return mi
