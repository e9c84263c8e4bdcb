"""Screen every tax parcel of a layer set: one CSV row per parcel, streamed to the file.

Each row: id, address, district, gross and net area, the share of the parcel in each constraint, the ten
cluster triggers and the permit flags that follow from the land alone (no project). A parcel that fails
gets its error in the ``error`` column; the run goes on.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from .cluster import cluster_triggers
from .deductions import DEDUCTION_ORDER, lot_area
from .errors import SloatInputError
from .findings import parcel_findings
from .permits import permits_for
from .project import Project
from .settings import load_settings

__all__ = ["screen_rows", "screen_to_csv", "SCREEN_COLUMNS"]

_LAND_PERMITS = ("steep_slope_permit", "wetland_permit", "nysdec_recreational_river", "rcda_review",
                 "flood_hazard_review", "seqra_cea", "biodiversity_study")

SCREEN_COLUMNS = (
    ["sbl", "address", "district", "gross_area_sqft", "net_lot_area_sqft", "min_lot_area_sqft",
     "meets_min_lot_area"]
    + [f"share_{c}" for c, _, _ in DEDUCTION_ORDER]
    + ["share_slope_unknown"]
    + [f"trigger_{n}" for n in range(1, 11)]
    + [f"permit_{p}" for p in _LAND_PERMITS]
    + ["error"]
)


def _flag(x) -> str:
    return "" if x is None else ("yes" if x else "no")


def screen_rows(layerset, settings=None) -> Iterator[dict]:
    """Yield one row per tax parcel (a generator: nothing is held in memory)."""
    settings = settings or load_settings()
    parcels = layerset.get("parcels")
    if parcels is None:
        raise SloatInputError("The layer set has no tax parcel layer to screen.")
    meta = layerset.parcels_meta
    id_f = getattr(meta, "id_field", "SBL")
    d_f, a_f = getattr(meta, "district_field", None), getattr(meta, "address_field", None)
    empty = Project()
    width = float(settings.buffer_width_ft)
    gdf = parcels.gdf
    ids = gdf[id_f].astype(str).tolist() if id_f in gdf.columns else [str(i) for i in range(len(gdf))]
    dists = gdf[d_f].tolist() if d_f and d_f in gdf.columns else [None] * len(gdf)
    addrs = gdf[a_f].tolist() if a_f and a_f in gdf.columns else [None] * len(gdf)
    for sbl, district, address, geom in zip(ids, dists, addrs, gdf.geometry.values):
        row = {"sbl": sbl, "address": address or "", "district": district or ""}
        try:
            f = parcel_findings(geom, layerset, buffer_width_ft=width)
            lot = lot_area(f)
            gross = f.gross_area_sqft
            d = settings.district(district) if district else None
            minimum = d.min_lot_area_sqft if d else None
            row.update(
                gross_area_sqft=round(gross, 1),
                net_lot_area_sqft=round(lot.net_lot_area_sqft, 1),
                min_lot_area_sqft="" if minimum is None else minimum,
                meets_min_lot_area=_flag(None if minimum is None else
                                         (True if lot.net_lot_area_min_sqft >= minimum else
                                          False if lot.net_lot_area_sqft < minimum else None)),
            )
            for r in lot.rows:
                row[f"share_{r.constraint}"] = "" if r.area_sqft is None else round(r.area_sqft / gross, 4)
            row["share_slope_unknown"] = round(f.slope_area_sqft.get("unknown", gross) / gross, 4)
            for t in cluster_triggers(f):
                row[f"trigger_{t.number}"] = _flag(t.triggered)
            for p in permits_for(f, empty, settings=settings, subdividable=None, cluster_applies=None,
                                 any_trigger=None):
                if p.id in _LAND_PERMITS:
                    row[f"permit_{p.id}"] = _flag(p.required)
        except SloatInputError as exc:
            row["error"] = str(exc)
        yield row


def screen_to_csv(layerset, out_path, settings=None) -> int:
    """Write the screening CSV; returns the number of parcels."""
    out = Path(out_path)
    if out.parent and not out.parent.exists():
        raise SloatInputError(f"The folder for '{out_path}' does not exist.")
    n = 0
    with out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=SCREEN_COLUMNS, extrasaction="ignore")
        w.writeheader()
        for row in screen_rows(layerset, settings):
            w.writerow(row)
            n += 1
    return n
