"""What a drawn disturbance footprint touches: its land in each layer, on the parcel and off it (sq ft).

The work is measured where it lies (§ 402-57G): the analysis hands in the findings of the parcel plus the
footprint when the footprint leaves the parcel. The rules (the permits, the mitigation) read these areas.
"""

from __future__ import annotations

from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import area_sqft, polygonal
from sloat_core.measure.parcel import Findings

__all__ = ["footprint_summary", "footprint_impacts"]


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
    """The wetland mitigation's inputs (§ 402-57P): the footprint's wetland, buffer and pond land where it
    lies, unless typed in ``given`` (what was typed wins; without a footprint or a wetland layer, only it)."""
    mi = dict(given or {})
    if fp is not None and work.layers.get("wetlands") is not None:
        wet = area_sqft(polygonal(fp.intersection(work.layers["wetlands"])))
        buf = area_sqft(polygonal(fp.intersection(work.buffer))) if work.buffer is not None else None
        mi.setdefault("impacted_wetland_sqft", wet)
        mi.setdefault("impacted_buffer_sqft", buf)
        mi.setdefault("impact_source", "footprint")
        ponds = work.layers.get("water_bodies")
        if "impacted_water_body_sqft" not in mi and ponds is not None:
            mi["impacted_water_body_sqft"] = area_sqft(polygonal(fp.intersection(ponds)))
    return mi
