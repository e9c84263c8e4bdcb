"""The village sweep's layers cut to its tiles: each source cut to a row of tiles once, then to its tiles all at
once; and the worst case of the layers' coverage (each layer a deduction reads grown, tile by tile, by the land
outside its coverage; the buffer the band around the resources so grown). Used by `village.build_pieces`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import EMPTY, polygonal
from sloat_core.measure.parcel import DEDUCTION_READS, OUTCROPS_ROLE, buffer_band
from sloat_core.measure.record import OVERLAY_ROLES, RESOURCE_ROLES

__all__ = ["as_tree_source", "grown", "strip_layers", "worst_world"]

_TOTAL_ROLES = RESOURCE_ROLES + OVERLAY_ROLES


@dataclass
class _Src:
    geoms: np.ndarray
    tree: shapely.STRtree


def as_tree_source(geoms) -> _Src:
    geoms = np.asarray(geoms, dtype=object)
    return _Src(geoms, shapely.STRtree(geoms))


def strip_layers(tiles: list, layers, sources) -> list[dict]:
    """Each layer, the buffer and the outcrops cut to each tile of one row of tiles (None for a layer not
    loaded). Each source is cut to the row's box first, so that a long feature (the river's band, a
    floodplain) is walked once per row of tiles, not once per tile; then to the tiles, all at once."""
    boxes = np.asarray(tiles, dtype=object)
    minx, miny, _, _ = shapely.bounds(boxes[0])
    _, _, maxx, maxy = shapely.bounds(boxes[-1])
    row_box = shapely.box(minx, miny, maxx, maxy)
    out = [{} for _ in tiles]
    srcs = dict(layers)
    if "buffer" in sources:
        band = sources["buffer"]
        srcs["buffer"] = as_tree_source([] if band.is_empty else [band])
    for key in ("outcrops", "outcrops_cluster"):
        if key in sources:
            srcs[key] = sources[key]
    for key, src in srcs.items():
        if src is None:
            for d in out:
                d[key] = None
            continue
        for d, g in zip(out, _clip_tiles(src, row_box, boxes), strict=True):
            d[key] = g
    return out


def _clip_tiles(src, row_box, boxes: np.ndarray) -> list:
    """A source's features cut to each tile box (the union of their parts; empty polygon when none), through
    the features cut to ``row_box``, the box of all the tiles."""
    got = [EMPTY] * len(boxes)
    idx = src.tree.query(row_box)
    if len(idx) == 0:
        return got
    in_row = shapely.intersection(src.geoms[idx], row_box)
    in_row = in_row[~shapely.is_empty(in_row)]
    if len(in_row) == 0:
        return got
    ti, fi = shapely.STRtree(in_row).query(boxes)
    if len(ti) == 0:
        return got
    parts = shapely.intersection(in_row[fi], boxes[ti])
    live = ~shapely.is_empty(parts)
    ti, parts = ti[live], parts[live]
    for t in np.unique(ti):
        got[t] = polygonal(shapely.union_all(parts[ti == t]))
    return got


def grown(tile, clipped: dict, grow=None) -> dict:
    """With ``grow`` ({layer or "outcrops": its coverage}, the worst case), each layer cut to the tile grown by
    the tile's land outside its coverage."""
    outside: dict = {}  # the tile's land outside a coverage, cut once per distinct coverage
    for key, cov in (grow or {}).items():
        if clipped.get(key) is None:
            continue
        if id(cov) not in outside:
            outside[id(cov)] = _outside(tile, cov)
        out = outside[id(cov)]
        if not out.is_empty:
            have = clipped[key]
            clipped[key] = out if have.is_empty else polygonal(shapely.union(have, out))
    return clipped


def _outside(tile, cov) -> BaseGeometry:
    """The part of a tile outside a coverage (prepared)."""
    if shapely.contains(cov, tile):
        return EMPTY
    if shapely.disjoint(cov, tile):
        return tile
    return polygonal(tile.difference(cov))


def worst_world(layerset, bounds, sources: dict, layers: dict, width_ft: float, water_bodies: bool,
                 margin: float) -> dict:
    """The worst case of the layers' coverage, as `parcel._worst_case` makes it for one parcel: returns
    {layer role or "outcrops": its coverage} for each layer a deduction reads that is limited to a coverage
    (grown tile by tile in `grown`), and makes ``sources["buffer"]`` the band around the resources
    plus all the land outside each resource layer's coverage (an unmapped wetland's buffer reaches into
    mapped land). One geometry object per distinct coverage, so a tile cuts each once."""
    distinct: dict = {}

    def cov_of(role):
        cov = layerset.coverage(role) if hasattr(layerset, "coverage") else None
        if cov is None or cov.is_empty:
            return None
        key = shapely.to_wkb(cov)
        if key not in distinct:
            shapely.prepare(cov)
            distinct[key] = cov
        return distinct[key]

    grow: dict = {}
    for r in _TOTAL_ROLES:
        if r in DEDUCTION_READS and layers.get(r) is not None and cov_of(r) is not None:
            grow[r] = cov_of(r)
    if "outcrops" in sources and cov_of(OUTCROPS_ROLE) is not None:
        grow["outcrops"] = cov_of(OUTCROPS_ROLE)
    roles = [r for r in RESOURCE_ROLES if layerset.get(r) is not None and (water_bodies or r != "water_bodies")]
    if roles:
        # The land outside each resource layer's coverage, over the area and well beyond the band's reach:
        # the band of the cut edge stays farther from every parcel than its width.
        minx, miny, maxx, maxy = bounds
        pad = margin + 3 * max(width_ft, 1.0)
        area = shapely.box(minx - pad, miny - pad, maxx + pad, maxy + pad)
        extra = [polygonal(area.difference(cov)) for cov in {id(c): c for c in map(cov_of, roles) if c is not None}.values()]
        extra = [g for g in extra if not g.is_empty]
        if extra:
            sources["buffer"] = buffer_band([g for r in roles for g in layerset.get(r).geoms] + extra, width_ft)
    return grow
