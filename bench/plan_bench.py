"""`make bench`: a 40-lot plat on the sample checked at once against 40 separate parcel analyses of the same lots,
in the same run (targets: at least 10x faster, and under 1.5 s warm).

Two comparisons are printed. As a user meets them (``plan_vs_commands``): ``python -m sloat_core plan`` on the plat,
one command, against ``python -m sloat_core analyze`` on each of its 40 lots, 40 commands, one after another, each
a new process that reads the layer set (what checking a plat lot by lot took before the plan check). Inside one warm
process (``plan_vs_parcels``): ``check_plan`` against ``analyze_parcel`` of each lot, the layers read and indexed
once for both; there the lots share little that a warm analysis does not already have (bench/README.md).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import shapely

from parcels import PLACES
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["plat_40", "plan_vs_commands", "plan_vs_parcels"]

ROOT = Path(__file__).resolve().parents[1]


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


def _write_geojson(path: Path, features: list[tuple[dict, object]]) -> None:
    """Features (properties, EPSG:2260 geometry) as RFC 7946 GeoJSON (longitude, latitude)."""
    import geopandas as gpd

    from sloat_core.units import WGS84, WORK_CRS

    frame = gpd.GeoDataFrame([p for p, _ in features], geometry=[g for _, g in features], crs=WORK_CRS).to_crs(WGS84)
    path.write_text(frame.to_json(drop_id=True), encoding="utf-8")


def _command_seconds(args: list[str]) -> float:
    """Wall seconds of one ``python -m sloat_core ...`` command in a new process; its JSON is checked to parse."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "sloat_core", *args, "--json"], cwd=ROOT, capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), check=False)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"sloat_core {args[0]} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    json.loads(done.stdout)
    return seconds


def plan_vs_commands(layerset, manifest: str) -> dict:
    """Seconds for ``python -m sloat_core plan`` on the 40-lot plat (one command) and for ``python -m sloat_core
    analyze`` on each of its lots (40 commands, one after another), each a new process reading ``manifest``."""
    parcel, lots = plat_40(shapely.total_bounds(layerset.get("parcels").geoms))
    with tempfile.TemporaryDirectory(prefix="sloat-plan-bench-") as tmp:
        folder = Path(tmp)
        _write_geojson(folder / "parcel.geojson", [({"name": "plat"}, parcel)])
        _write_geojson(folder / "plan.geojson", [({"layer": "lots", "lot": str(i + 1)}, g) for i, g in enumerate(lots)])
        for i, lot in enumerate(lots):
            _write_geojson(folder / f"lot{i + 1}.geojson", [({"name": f"lot {i + 1}"}, lot)])
        plan_s = _command_seconds(["plan", str(folder / "parcel.geojson"), str(folder / "plan.geojson"),
                                   "--layers", manifest])
        separate = sum(_command_seconds(["analyze", str(folder / f"lot{i + 1}.geojson"), "--layers", manifest])
                       for i in range(len(lots)))
    return {"lots": len(lots), "plan_command_s": round(plan_s, 3), "analyze_commands_s": round(separate, 3),
            "times_faster": round(separate / plan_s, 1), "share_of_separate": round(plan_s / separate, 3)}
