"""A plan of many lots on the sample parcel 162.13-1-1 (tests/plan/plan_files.py), for the documents and the
walk-through: 100 x 150 ft cells of a grid wholly inside the parcel, every third lot drawn 20 ft in from its cell (so
6,600 sq ft, short of R-15's 15,000), as a drawing read by the plan reader or as GeoJSON bytes."""

from __future__ import annotations

import json

from shapely.geometry import box, mapping

import plan_files as pf

#: The district the plans are checked in (15,000 sq ft minimum: the full cells conform where no land is deducted).
DISTRICT = "R-15"


def grid_lots(n: int, labels: list[str] | None = None, *, cell: tuple[float, float] = (100, 150)
              ) -> list[tuple[str, object]]:
    """(label, EPSG:2260 outline) of ``n`` lots, by default labelled L1..Ln (the cells ``cell`` ft wide and high)."""
    minx, miny, maxx, maxy = pf.PARCEL.bounds
    cells = []
    y = miny
    while y < maxy and len(cells) < n:
        x = minx
        while x < maxx and len(cells) < n:
            outline = box(x, y, x + cell[0], y + cell[1])
            if pf.PARCEL.contains(outline):
                cells.append(outline)
            x += cell[0]
        y += cell[1]
    assert len(cells) == n, f"the sample parcel holds {len(cells)} whole cells, not {n}"
    labels = labels or [f"L{i + 1}" for i in range(n)]
    return [(label, outline.buffer(-20, join_style=2) if i % 3 == 0 else outline)
            for i, (label, outline) in enumerate(zip(labels, cells, strict=True))]


def grid_geojson(n: int, labels: list[str] | None = None, *, cell: tuple[float, float] = (100, 150)) -> bytes:
    """The lots as a GeoJSON plan in EPSG:2260 (a ``crs`` member names it), each feature on the ``lots`` layer."""
    features = [{"type": "Feature", "properties": {"layer": "lots", "lot": label}, "geometry": mapping(g)}
                for label, g in grid_lots(n, labels, cell=cell)]
    return json.dumps({"type": "FeatureCollection", "crs": {"type": "name", "properties": {
        "name": "urn:ogc:def:crs:EPSG::2260"}}, "features": features}).encode("utf-8")


def grid_drawing(n: int, labels: list[str] | None = None, *, cell: tuple[float, float] = (100, 150)):
    """The lots read by the plan reader, as an uploaded GeoJSON plan is."""
    from sloat_core.plan.reading import read_plan

    return read_plan(grid_geojson(n, labels, cell=cell), filename="plan.geojson")


def split_geojson(outline, cols: int, rows: int) -> bytes:
    """Any parcel ``outline`` (EPSG:2260) cut by a ``cols`` x ``rows`` grid of its bounding box into lots 1..N (the
    cells that hold some of it, each cut to it), as a GeoJSON plan in EPSG:2260."""
    minx, miny, maxx, maxy = outline.bounds
    w, h = (maxx - minx) / cols, (maxy - miny) / rows
    lots = []
    for j in range(rows):
        for i in range(cols):
            part = outline.intersection(box(minx + i * w, miny + j * h, minx + (i + 1) * w, miny + (j + 1) * h))
            if part.area > 100:
                lots.append(part)
    features = [{"type": "Feature", "properties": {"layer": "lots", "lot": str(n)}, "geometry": mapping(g)}
                for n, g in enumerate(lots, start=1)]
    return json.dumps({"type": "FeatureCollection", "crs": {"type": "name", "properties": {
        "name": "urn:ogc:def:crs:EPSG::2260"}}, "features": features}).encode("utf-8")
