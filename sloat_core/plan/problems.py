"""What is wrong with a plan as drawn: lots that overlap, land outside the parcel, a lot in two districts,
two lots with one label, an outline left open.

A piece under `SLIVER_SQFT` is drafting noise (two lines drawn a hair apart), never a problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import area_sqft, polygonal

__all__ = ["SLIVER_SQFT", "Problem", "overlaps", "outside_parcel", "duplicate_labels", "not_closed", "two_districts"]

#: Pieces of land smaller than this (sq ft) between lots, or outside the parcel, are drafting slivers.
SLIVER_SQFT = 1.0

#: The kinds of problem, in the order the plan lists them.
KINDS = ("overlap", "outside_parcel", "two_districts", "duplicate_label", "not_closed")


@dataclass(frozen=True)
class Problem:
    kind: str
    lots: tuple[str, ...]
    area_sqft: float | None
    text: str

    def to_dict(self) -> dict:
        return {"kind": self.kind, "lots": list(self.lots),
                "area_sqft": None if self.area_sqft is None else round(self.area_sqft, 2), "text": self.text}


def _lot(label: str) -> str:
    return f"lot {label}"


def overlaps(labels: list[str], geoms: list[BaseGeometry]) -> list[Problem]:
    """Each pair of lots sharing land of at least `SLIVER_SQFT` (a lot's land belongs to one lot)."""
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    out = []
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i >= j:
            continue
        shared = area_sqft(polygonal(shapely.intersection(geoms[i], geoms[j])))
        if shared >= SLIVER_SQFT:
            out.append(Problem("overlap", (labels[i], labels[j]), shared,
                               f"Lot {labels[i]} and {_lot(labels[j])} overlap by {shared:,.0f} sq ft: "
                               "each piece of land belongs to one lot."))
    return out


def outside_parcel(labels: list[str], geoms: list[BaseGeometry], parcel: BaseGeometry) -> list[Problem]:
    """Each lot with land of at least `SLIVER_SQFT` outside the parcel."""
    out = []
    for label, geom in zip(labels, geoms, strict=True):
        outside = area_sqft(polygonal(shapely.difference(geom, parcel)))
        if outside >= SLIVER_SQFT:
            out.append(Problem("outside_parcel", (label,), outside,
                               f"{outside:,.0f} sq ft of {_lot(label)} lies outside the parcel."))
    return out


def two_districts(label: str, parts: list[tuple[str, float]]) -> Problem | None:
    """A lot whose land lies in more than one zoning district (each part at least `SLIVER_SQFT`)."""
    parts = [(c, a) for c, a in parts if a >= SLIVER_SQFT]
    if len(parts) < 2:
        return None
    rest = sum(a for _, a in parts[1:])
    return Problem("two_districts", (label,), rest,
                   f"Lot {label} lies in {len(parts)} zoning districts ("
                   + ", ".join(f"{c}: {a:,.0f} sq ft" for c, a in parts)
                   + "): which minimum applies is for the Building Inspector or the Planning Board.")


def duplicate_labels(labels: list[str | None], geoms: list[BaseGeometry]) -> list[Problem]:
    """Each label given to more than one lot (the lots cannot be told apart in the plan's table)."""
    counts = Counter(label for label in labels if label is not None)
    out = []
    for label, n in counts.items():
        if n > 1:
            area = sum(area_sqft(g) for g, lab in zip(geoms, labels, strict=True) if lab == label)
            out.append(Problem("duplicate_label", (label,) * n, area,
                               f"{n} lots are labelled '{label}': give each lot its own label."))
    return out


def not_closed(label: str, geom: BaseGeometry) -> Problem:
    """A lot outline drawn open (its area is measured as if closed by a straight line)."""
    return Problem("not_closed", (label,), area_sqft(geom) if not geom.is_empty else None,
                   f"The outline of {_lot(label)} is not closed: it is measured as if closed by a straight line "
                   "from its last point to its first; close it in the drawing.")
