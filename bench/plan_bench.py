"""`make bench`: a 40-lot plat on the sample checked by ``check_plan`` against 40 separate parcel analyses of the
same lots, in the same run (targets: at least 10x faster, and under 1.5 s warm)."""

from __future__ import annotations

import statistics
import time

import shapely

from parcels import PLACES
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["plat_40", "plan_vs_parcels"]


def plat_40(bounds, place=PLACES["west slope"], lot_acres: float = 1.0):
    """A rectangular parcel of 8 x 5 square lots of ``lot_acres`` each at a place in the sample (EPSG:2260)."""
    minx, miny, maxx, maxy = bounds
    side = (lot_acres * SQFT_PER_ACRE) ** 0.5
    x0 = minx + place[0] * (maxx - minx) - 4 * side
    y0 = miny + place[1] * (maxy - miny) - 2.5 * side
    lots = [shapely.box(x0 + i * side, y0 + j * side, x0 + (i + 1) * side, y0 + (j + 1) * side)
            for j in range(5) for i in range(8)]
    return shapely.box(x0, y0, x0 + 8 * side, y0 + 5 * side), lots


def plan_vs_parcels(layerset, settings, repeats: int = 3) -> dict:
    """Seconds for ``check_plan`` of the plat (warm, median of ``repeats``) and for ``analyze_parcel`` of each of
    its 40 lots one after another (the parcel analyses, warm), and the ratio."""
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.plan.check import check_plan
    from sloat_core.plan.drawing import PlanDrawing, PlanFeature

    parcel, lots = plat_40(shapely.total_bounds(layerset.get("parcels").geoms))
    drawing = PlanDrawing(tuple(PlanFeature("lots", str(i + 1), g) for i, g in enumerate(lots)), ("lots",),
                          {"lots": "lots"})
    check_plan(parcel, drawing, layerset, settings=settings)  # warm
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = check_plan(parcel, drawing, layerset, settings=settings)
        runs.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    for lot in lots:
        analyze_parcel(lot, layerset, settings=settings)
    separate = time.perf_counter() - t0
    plan_s = statistics.median(runs)
    return {"lots": len(result.lots), "plan_s": round(plan_s, 3), "separate_analyses_s": round(separate, 3),
            "times_faster": round(separate / plan_s, 1), "share_of_separate": round(plan_s / separate, 3)}
