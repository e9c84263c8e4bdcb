"""Generate the embedded, illustrative Sloatsburg sample layer set.

Everything written here is INVENTED for demonstration and testing. The layers imitate the
schemas of the real sources (FEMA NFHL, USFWS NWI, NYSDEC, Rockland County GIS tax parcels,
USGS 3DEP) so that the same reading code works on official files, but no shape or attribute is
official data.

The generator is deterministic: fixed random seeds, fixed GeoPackage timestamps
(``OGR_CURRENT_DATE``), fixed zip member dates, stable sorts. Running it twice on one machine
gives byte-identical files. Across machines the last bits of floating-point results (libm, numpy's
FFT, GEOS builds) may differ, so tests/gis/test_sample_data.py compares a regeneration with the committed
files within stated tolerances (0.01 ft for outlines and DEM heights, one rounding step for
attributes).

Usage::

    python tools/make_sample_data.py            # writes data/sample/
    python tools/make_sample_data.py --out DIR  # writes somewhere else (tests use this)
    python tools/make_sample_data.py --out DIR --dem-zlevel 1  # the same DEM values, compressed faster

Geometry is built in a local frame (u east, v north, feet) centred on the village, then shifted
into EPSG:2260 (NAD83 / New York East, US survey feet). Most of the valley is described in river
coordinates (d, v) where ``d`` is the signed distance east of the Ramapo River centreline.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pyogrio
import rasterio
import rasterio.features
import shapely
from rasterio.transform import from_origin
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box, mapping

try:  # run as a script (tools/ on the path) or imported as tools.make_sample_data
    from sample_roads import write_roads
except ImportError:  # pragma: no cover
    from tools.sample_roads import write_roads

__all__ = [
    "WORK_CRS",
    "VERSION",
    "SWIS",
    "generate",
    "main",
]

WORK_CRS = "EPSG:2260"
WGS84 = "EPSG:4326"
NAD83 = "EPSG:4269"
SQFT_PER_ACRE = 43_560.0
VERSION = "2026-11-29"
SEED = 20261129
SWIS = "392403"  # illustrative 6-digit SWIS code, not checked against ORPTS
CX, CY = 578_000.0, 848_400.0  # local origin in EPSG:2260 (about 41.162 N, 74.188 W)
CELL_FT = 5.0
VILLAGE_SCALE = 1.048  # brings the outline to about 2.5 sq mi
NODATA = -9999.0
REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "data" / "sample"
NOTICE = (
    "Illustrative sample, not official data. Invented shapes and attributes that imitate the "
    "schemas of FEMA NFHL, USFWS NWI, NYSDEC, Rockland County GIS tax parcels and USGS 3DEP. "
    "Do not use for any permit, sale or legal decision."
)


# ----------------------------------------------------------------------------- frame helpers
def river_u(v):
    """East coordinate (local ft) of the Ramapo River centreline at northing ``v``."""
    v = np.asarray(v, dtype=float)
    return -300.0 + 260.0 * np.sin(v / 2600.0) + 110.0 * np.sin(v / 950.0 + 1.0)


def dv_to_uv(d, v):
    """River coordinates (d east of the river, v north) to local (u, v)."""
    d = np.asarray(d, dtype=float)
    v = np.asarray(v, dtype=float)
    return river_u(v) + d, v


def line_dv(points, step=40.0):
    """A LineString in local coordinates from (d, v) vertices, densified in (d, v)."""
    pts = np.asarray(points, dtype=float)
    out = [pts[0]]
    for a, b in zip(pts[:-1], pts[1:]):
        n = max(1, int(math.ceil(np.hypot(*(b - a)) / step)))
        t = np.arange(1, n + 1)[:, None] / n
        out.extend(a + (b - a) * t)
    arr = np.asarray(out)
    u, v = dv_to_uv(arr[:, 0], arr[:, 1])
    return LineString(np.column_stack([u, v]))


def along(d, v0, v1, step=40.0):
    """A street/band edge parallel to the river: constant offset ``d`` (float or callable)."""
    vs = np.arange(v0, v1 + step / 2, step)
    ds = d(vs) if callable(d) else np.full_like(vs, d)
    u, v = dv_to_uv(ds, vs)
    return LineString(np.column_stack([u, v]))


def across(v0, d0, d1, wiggle=60.0, phase=0.0, step=40.0):
    """A cross street from offset d0 to d1 near northing v0 (gently curved)."""
    n = max(2, int(abs(d1 - d0) / step) + 1)
    ds = np.linspace(d0, d1, n)
    vs = v0 + wiggle * np.sin(ds / 700.0 + phase) - wiggle * np.sin(phase)
    u, v = dv_to_uv(ds, vs)
    return LineString(np.column_stack([u, v]))


def band_dv(d_lo, d_hi, v0, v1, step=25.0):
    """Polygon between offsets d_lo(v) and d_hi(v) (floats or callables) for v0..v1."""
    vs = np.arange(v0, v1 + step / 2, step)
    lo = d_lo(vs) if callable(d_lo) else np.full_like(vs, d_lo)
    hi = d_hi(vs) if callable(d_hi) else np.full_like(vs, d_hi)
    ul, _ = dv_to_uv(lo, vs)
    uh, _ = dv_to_uv(hi, vs)
    ring = np.vstack([np.column_stack([ul, vs]), np.column_stack([uh, vs])[::-1]])
    return shapely.make_valid(Polygon(ring))


def blob(rng, cu, cv, r, irregular=0.25, n=28):
    """An irregular closed shape around (cu, cv) with mean radius r (local ft)."""
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    k = np.arange(1, 5)
    amp = rng.normal(0, irregular, size=(4,)) / k
    ph = rng.uniform(0, 2 * np.pi, size=(4,))
    rad = r * (1 + (amp[None, :] * np.sin(k[None, :] * ang[:, None] + ph[None, :])).sum(1))
    rad = np.clip(rad, 0.35 * r, None)
    return Polygon(np.column_stack([cu + rad * np.cos(ang), cv + rad * np.sin(ang)]))


def blob_dv(rng, d, v, r, irregular=0.25, n=28):
    """An irregular shape centred at river coordinates (d, v)."""
    u, _ = dv_to_uv(d, v)
    return blob(rng, float(u), float(v), r, irregular, n)


def scale_to_area(poly, area_sqft):
    """Scale ``poly`` about its centroid so that its area is exactly ``area_sqft``."""
    f = math.sqrt(area_sqft / poly.area)
    return affinity.scale(poly, f, f, origin=poly.centroid)


def to_work(geom):
    """Local frame to EPSG:2260 (repairing the rare shape the shift's rounding makes invalid)."""
    g = affinity.translate(geom, CX, CY)
    if g.is_valid:
        return g
    fixed = shapely.make_valid(g)
    if g.geom_type == "Polygon":
        return max(parts(fixed), key=lambda q: q.area)
    return fixed


def parts(geom, min_area=0.0):
    """Polygon parts of a geometry, dropping those under ``min_area``."""
    if geom is None or geom.is_empty:
        return []
    return [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon" and g.area > min_area]


# ----------------------------------------------------------------------------- writers
def write_geojson(gdf, path):
    """GeoJSON in EPSG:4326 (RFC 7946), 9 decimals (0.1 mm), deterministic."""
    g = gdf.to_crs(WGS84)
    if path.exists():
        path.unlink()
    pyogrio.write_dataframe(
        g, path, driver="GeoJSON", layer=path.stem,
        layer_options={"RFC7946": "YES", "COORDINATE_PRECISION": 9},
    )


def write_gpkg(gdf, path, layer, crs):
    """GeoPackage layer (timestamps fixed by OGR_CURRENT_DATE)."""
    if path.exists():
        path.unlink()
    pyogrio.write_dataframe(gdf.to_crs(crs), path, driver="GPKG", layer=layer)


def gdf_local(records, geoms):
    """GeoDataFrame in EPSG:2260 from records and local-frame geometries."""
    return gpd.GeoDataFrame(records, geometry=[to_work(g) for g in geoms], crs=WORK_CRS)


# ----------------------------------------------------------------------------- the village
def village_polygon():
    """Village of Sloatsburg outline (local frame). The west edge is the Orange County line."""
    pts = [
        (-3560, 4950), (-2300, 5150), (-1100, 5300), (300, 5200), (1500, 4750), (2700, 4300),
        (3350, 3050), (3200, 1300), (3600, -300), (3350, -2100), (2800, -3500), (1900, -4600),
        (800, -5200), (-600, -5150), (-2000, -4950), (-2950, -4850),
    ]
    return affinity.scale(Polygon(pts), VILLAGE_SCALE, VILLAGE_SCALE, origin=(0, 0))


def streets():
    """Street centrelines: list of dicts(name, geom, row_ft, addressable)."""
    s = []

    def add(name, geom, row=50.0, addressable=True):
        s.append({"name": name, "geom": geom, "row_ft": row, "addressable": addressable})

    add("Orange Tpke", along(330.0, -6000, 6000), 66.0)
    add("New York State Thruway", along(-480.0, -6000, 6000), 220.0, addressable=False)
    add("Ramapo Ave", along(-200.0, -4700, 2400), 44.0)
    add("Spring St", along(760.0, -3500, 3500))
    add("Hillside Ave", along(lambda v: 1180 + 40 * np.sin(v / 600), -3100, 3200))
    add("Laurel Rd", along(lambda v: 1620 + 80 * np.sin(v / 700), -2600, 2700))
    add("Ridge Rd", along(lambda v: 2250 + 150 * np.sin(v / 800), -1800, 2100))
    add("Johnsontown Rd", along(lambda v: -1050 + 60 * np.sin(v / 900), -3200, 4700))
    add("Glen Rd", along(lambda v: -1650 + 90 * np.sin(v / 750), -2300, 2500))
    for name, v0, d1, ph in [
        ("Eagle Valley Rd", -4300, 3900, 0.3), ("Kent Rd", -3350, 1180, 1.1),
        ("Academy St", -2500, 1620, 2.0), ("Church St", -1700, 2250, 0.7),
        ("Pine St", -900, 1180, 1.6), ("Washington Ave", -150, 3900, 0.2),
        ("Mill St", 600, 1180, 2.4), ("Lake Ave", 1450, 1620, 1.3),
        ("Maple Ave", 2200, 2250, 0.9), ("Oak St", 3000, 1180, 2.2),
        ("Liberty Rock Rd", 3900, 3900, 0.5),
    ]:
        add(name, across(v0, 330.0, d1, phase=ph))
    add("Seven Lakes Dr", across(2650, 330.0, -3900, wiggle=90, phase=0.4))
    add("Sterling Mine Rd", across(-1250, 330.0, -3900, wiggle=80, phase=1.9))
    add("Brook Ln", across(650, -590.0, -1650, phase=0.8))
    add("Bayard Ln", across(-2600, -590.0, -1650, phase=1.4))
    add("Chestnut St", across(-3650, -200.0, -1050, phase=2.6))
    add("Second St", across(-4100, -200.0, -1050, phase=0.1))
    return s


RIVER_HALF_FT = 35.0
POND_V = (800.0, 1700.0)  # Mill Pond between Sloat's Dam (south) and its head (north)


def mill_pond_half_width(v):
    """Half width of the Mill Pond (0 outside it)."""
    v = np.asarray(v, dtype=float)
    t = np.clip((v - POND_V[0]) / (POND_V[1] - POND_V[0]), 0, 1)
    return np.where((v > POND_V[0]) & (v < POND_V[1]), 170.0 * np.sin(np.pi * t) ** 0.6, 0.0)


def river_channel():
    """River channel polygon (local frame), excluding the Mill Pond."""
    ch = band_dv(-RIVER_HALF_FT, RIVER_HALF_FT, -6500, 6500)
    return ch.difference(mill_pond())


def mill_pond():
    """Mill Pond polygon (local frame)."""
    vs = np.arange(POND_V[0] - 10, POND_V[1] + 10.01, 10.0)
    hw = np.maximum(mill_pond_half_width(vs), RIVER_HALF_FT)
    lo = -hw * 0.8
    hi = hw * 1.1
    ul, _ = dv_to_uv(lo, vs)
    uh, _ = dv_to_uv(hi, vs)
    ring = np.vstack([np.column_stack([ul, vs]), np.column_stack([uh, vs])[::-1]])
    return Polygon(ring)


STREAMS = [
    # name, (d, v) vertices, width_ft (None = unknown)
    ("Stony Brook", [(-3700, 3950), (-2600, 3500), (-1800, 3300), (-1000, 3150), (-450, 3050),
                     (-30, 3000)], 24.0),
    ("Horse Stable Brook", [(3900, -2950), (2900, -2700), (2000, -2850), (1200, -3000),
                            (600, -3100), (30, -3150)], 12.0),
    ("Ramapo River tributary", [(3500, 1250), (2500, 1000), (1600, 1100), (800, 960),
                                (120, 1000)], None),
    ("Ramapo River tributary", [(-3500, -1750), (-2200, -1900), (-1300, -2100), (-600, -2150),
                                (-30, -2200)], None),
    ("Mill Brook", [(2700, 4700), (1800, 4450), (900, 4300), (30, 4250)], 8.0),
    ("Ramapo River tributary", [(2900, -600), (2200, -520), (1500, -560)], None),
]


def stream_lines():
    """Stream centrelines (local frame)."""
    return [(n, line_dv(p), w) for n, p, w in STREAMS]


SMALL_PONDS = [
    # name, d, v, radius
    ("Glen Pond", -1350, -450, 95.0),
    ("Laurel Pond", 1900, 2750, 70.0),
    ("Industrial Park basin", -620, -4250, 60.0),
]


def small_ponds(rng):
    """Small ponds (local frame)."""
    return [(n, blob_dv(rng, d, v, r, 0.18)) for n, d, v, r in SMALL_PONDS]


# ----------------------------------------------------------------------------- zoning
D_BREAKS = [-2500, -1750, -800, -380, -35, 600, 1350, 2000, 2700, 3300]
V_BREAKS = [-3600, -3000, -2800, -1800, -1300, 1300, 2800, 3600]


def zone_at(d, v):
    """Zoning district at river coordinates (d, v): the planned arrangement."""
    if -35 <= d < 600:
        if -1300 <= v < 1300:
            return "VC-1"
        if v >= 2800:
            return "MU-1"
        if v < -2800:
            return "MU-2"
        return "VC-2"
    if -800 <= d < -35:
        if v < -3000:
            return "IP"
        if v < -1800:
            return "O"
        if d >= -380 and -1300 <= v < 1300:
            return "MU-1"
        return "R-15"
    if 600 <= d < 1350:
        return "R-10" if -3600 <= v < 3600 else "R-15"
    if 1350 <= d < 2000:
        return "R-15"
    if 2000 <= d < 2700 or -1750 <= d < -800:
        return "R-40"
    if 2700 <= d < 3300 or -2500 <= d < -1750:
        return "R-80"
    return "OSR"


def zoning_cells():
    """A curved grid of cells in river coordinates that tile exactly, each with its district."""
    d_edges = [-9000.0] + [float(x) for x in D_BREAKS] + [9000.0]
    v_edges = [-6500.0] + [float(x) for x in V_BREAKS] + [6500.0]
    step = 25.0
    cells = []
    for i in range(len(d_edges) - 1):
        for j in range(len(v_edges) - 1):
            d0, d1, v0, v1 = d_edges[i], d_edges[i + 1], v_edges[j], v_edges[j + 1]
            vs = np.arange(v0, v1 + step / 2, step)
            left = np.column_stack(dv_to_uv(np.full_like(vs, d0), vs))
            right = np.column_stack(dv_to_uv(np.full_like(vs, d1), vs))
            ring = np.vstack([left[:1], right, left[::-1]])
            cells.append((zone_at((d0 + d1) / 2, (v0 + v1) / 2), Polygon(ring)))
    return cells


def zoning_polygons(village):
    """District polygons (local frame) clipped to the village: {code: geometry}."""
    by_zone = {}
    for z, cell in zoning_cells():
        by_zone.setdefault(z, []).append(cell)
    out = {}
    for z in sorted(by_zone):
        g = shapely.union_all(by_zone[z]).intersection(village)
        if not g.is_empty:
            out[z] = g
    return out


# ----------------------------------------------------------------------------- parcels
LOT_TARGET_SQFT = {
    "VC-1": 14_000, "VC-2": 18_000, "MU-1": 24_000, "MU-2": 30_000, "O": 60_000,
    "IP": 150_000, "R-10": 16_000, "R-15": 30_000, "R-40": 75_000, "R-80": 150_000,
    "OSR": 900_000,
}


def _along(xy, axis):
    """``xy . axis`` for points of two coordinates, written out: a matrix product (``@``) goes through the BLAS,
    whose kernel is chosen by the CPU (OpenBLAS's AVX-512 and AVX2 kernels round a dot product differently),
    and the recursive lot splitting turns that last bit into lots feet apart. Element-wise, every CPU
    gives the same bits."""
    xy = np.asarray(xy, dtype=np.float64)
    return xy[..., 0] * axis[0] + xy[..., 1] * axis[1]


def _low_half_plane(c, axis, t):
    """The side {x . axis < t} of the line {x . axis = t}, as a square 1e5 ft across beside it (``c``: a point
    the square is centred on along the line, the centroid of the polygon cut)."""
    perp = np.array([-axis[1], axis[0]])
    big = 1e5
    base = c + axis * (t - _along(c, axis))
    return shapely.polygons([base + perp * big, base - perp * big,
                             base - perp * big - axis * big, base + perp * big - axis * big])


def _cut(p, axis, t):
    """Split polygon p by the line {x . axis = t}: (low side, high side)."""
    lo = _low_half_plane(np.asarray(p.centroid.coords[0]), axis, t)
    return p.intersection(lo), p.difference(lo)


def split_block(poly, target, rng):
    """Recursively bisect ``poly`` across its long axis into lots of about ``target`` sq ft."""
    out = []
    stack = [poly]
    while stack:
        p = stack.pop()
        n = int(round(p.area / target))
        if n <= 1:
            out.append(p)
            continue
        env = np.asarray(shapely.oriented_envelope(p).exterior.coords)
        e1, e2 = env[1] - env[0], env[2] - env[1]
        axis = e1 if np.hypot(*e1) >= np.hypot(*e2) else e2
        axis = axis / np.hypot(*axis)
        proj = _along(p.exterior.coords, axis)
        lo, hi = proj.min(), proj.max()
        frac = (n // 2) / n + rng.uniform(-0.06, 0.06) / n
        want = frac * p.area
        a, b = lo, hi
        # The bisection needs only the low side's area: the high side (a difference) is cut once, at the end.
        c = np.asarray(p.centroid.coords[0])
        for _ in range(18):
            mid = 0.5 * (a + b)
            if p.intersection(_low_half_plane(c, axis, mid)).area < want:
                a = mid
            else:
                b = mid
        left, right = _cut(p, axis, 0.5 * (a + b))
        for side in (left, right):
            for q in parts(side, min_area=150.0):
                stack.append(q)
    return out


def make_parcels(village, zones, street_list, water, rng):
    """Tax lots tiling the village between streets. Returns list of dict(geom, zone_plan, block)."""
    row = shapely.union_all([st["geom"].buffer(st["row_ft"] / 2, quad_segs=4)
                             for st in street_list])
    land = village.difference(shapely.union_all([row, water]))
    blocks = sorted(parts(land, min_area=3000.0), key=lambda g: (-g.centroid.y, g.centroid.x))
    zone_items = list(zones.items())
    lots = []
    for bi, blk in enumerate(blocks):
        pieces = []
        for z, zg in zone_items:
            if not blk.intersects(zg):
                continue
            for q in parts(blk.intersection(zg), min_area=50.0):
                pieces.append([z, q])
        # merge small zone slivers into the neighbour sharing the longest edge (split-zoned lots)
        pieces.sort(key=lambda zq: zq[1].area)
        merged = True
        while merged:
            merged = False
            for i, (z, q) in enumerate(pieces):
                if q.area >= 4000.0 or len(pieces) == 1:
                    continue
                best, blen = None, 0.0
                for j, (z2, q2) in enumerate(pieces):
                    if j == i:
                        continue
                    ln = q.boundary.intersection(q2.buffer(0.01)).length
                    if ln > blen:
                        best, blen = j, ln
                if best is None or blen <= 0:
                    continue
                u = shapely.union_all([pieces[best][1], q])
                if u.geom_type != "Polygon":
                    continue
                pieces[best][1] = u
                pieces.pop(i)
                merged = True
                break
        for z, q in pieces:
            for lot in split_block(q, LOT_TARGET_SQFT[z], rng):
                lots.append({"geom": lot, "zone_plan": z, "block": bi})
    return lots


def force_straddlers(lots, zones, rng, wanted=5):
    """Merge a few neighbouring lots in different districts so they straddle a district line."""
    zone_lines = shapely.union_all([g.boundary for g in zones.values()])
    geoms = [lt["geom"] for lt in lots]
    tree = shapely.STRtree(geoms)
    near = tree.query(zone_lines, predicate="dwithin", distance=0.5)
    cand = sorted(set(int(i) for i in np.atleast_1d(near)))
    rng.shuffle(cand)
    used, merges = set(), []
    for i in cand:
        if len(merges) >= wanted:
            break
        if i in used:
            continue
        a = lots[i]
        if a["geom"].area > 120_000:
            continue
        for j in sorted(int(x) for x in tree.query(a["geom"], predicate="intersects")):
            if j == i or j in used:
                continue
            b = lots[j]
            if b["zone_plan"] == a["zone_plan"] or b["block"] != a["block"] or b["geom"].area > 120_000:
                continue
            shared = a["geom"].boundary.intersection(b["geom"].buffer(0.01)).length
            if shared < 40.0:
                continue
            u = shapely.union_all([a["geom"], b["geom"]])
            if u.geom_type != "Polygon":
                continue
            merges.append((i, j, u))
            used.update((i, j))
            break
    drop = set()
    for i, j, u in merges:
        lots[i]["geom"] = u
        drop.add(j)
    return [lt for k, lt in enumerate(lots) if k not in drop]


PROP_CLASS = {
    "VC-1": ["484", "481", "482", "210"], "VC-2": ["210", "484", "220"],
    "MU-1": ["210", "220", "484"], "MU-2": ["210", "464", "484"], "O": ["464", "330"],
    "IP": ["710", "449", "340"], "R-10": ["210", "210", "210", "220", "311"],
    "R-15": ["210", "210", "210", "311"], "R-40": ["210", "210", "311", "322"],
    "R-80": ["210", "311", "322"], "OSR": ["322", "910", "963"],
}


#: Invented owner names for the sample's OWNER field (§ 402-57K(4) lists owners of record): given initials and
#: surnames from trees of the Ramapos, each with "(sample)" so no one takes them for the assessment roll.
_OWNER_INITIALS = "ABCDEGHJKLMNPRSTW"
_OWNER_SURNAMES = ("Hemlock", "Tuliptree", "Sassafras", "Hickory", "Basswood", "Chestnut", "Sweetgum", "Tupelo",
                   "Hornbeam", "Witch-hazel", "Spicebush", "Butternut", "Hackberry", "Sourwood", "Ironwood",
                   "Redbud", "Serviceberry", "Larch", "Sycamore", "Cedar")


def sample_owner(sbl: str) -> str:
    """An invented owner name for a sample parcel, fixed by its SBL (no random draw: the other fields keep
    their values), marked "(sample)"."""
    h = sum((i + 1) * ord(ch) for i, ch in enumerate(sbl))
    if h % 11 == 0:
        return f"{_OWNER_SURNAMES[h % len(_OWNER_SURNAMES)]} Family Trust (sample)"
    return f"{_OWNER_INITIALS[h % len(_OWNER_INITIALS)]}. {_OWNER_SURNAMES[(h // 7) % len(_OWNER_SURNAMES)]} (sample)"


def attribute_parcels(lots, zones, street_list, rng):
    """Add SBL, ADDRESS, ZONE (majority district), ACRES, PROP_CLASS, OWNER (invented, see `sample_owner`)."""
    zone_codes = list(zones)
    zone_geoms = [zones[z] for z in zone_codes]
    for z in zone_geoms:
        shapely.prepare(z)
    addr_streets = [s for s in street_list if s["addressable"]]
    st_geoms = [s["geom"] for s in addr_streets]
    st_tree = shapely.STRtree(st_geoms)
    lots.sort(key=lambda lt: (-round(lt["geom"].centroid.y, 3), round(lt["geom"].centroid.x, 3)))
    sheet_blocks: dict[tuple, dict] = {}
    lot_counter: dict[tuple, int] = {}
    used_addr = set()
    rows = []
    for lt in lots:
        g = lt["geom"]
        if not g.is_valid:
            g = max(parts(shapely.make_valid(g)), key=lambda q: q.area)
        c = g.centroid
        col = int(np.clip((c.x + 4000) // 2000, 0, 3))
        rw = int(np.clip((5600 - c.y) // 2300, 0, 4))
        major = 155 + (col >= 2) + 7 * (rw >= 2)
        minor = 5 + rw * 4 + col
        sheet = (major, minor)
        blocks = sheet_blocks.setdefault(sheet, {})
        blk_no = blocks.setdefault(lt["block"], len(blocks) + 1)
        key = (sheet, blk_no)
        lot_counter[key] = lot_counter.get(key, 0) + 1
        sbl = f"{major}.{minor:02d}-{blk_no}-{lot_counter[key]}"

        areas = [g.intersection(zg).area if g.intersects(zg) else 0.0 for zg in zone_geoms]
        zone = zone_codes[int(np.argmax(areas))]

        j = int(st_tree.query_nearest(c)[0])
        st = addr_streets[j]
        line = st_geoms[j]
        dist = g.distance(line)
        if dist > 150.0:
            address = st["name"]  # vacant/back land: street name only, as on many tax rolls
        else:
            s = line.project(c)
            p0 = np.asarray(line.interpolate(max(s - 1, 0)).coords[0])
            p1 = np.asarray(line.interpolate(min(s + 1, line.length)).coords[0])
            cross = (p1 - p0)[0] * (c.y - p0[1]) - (p1 - p0)[1] * (c.x - p0[0])
            parity = 1 if cross > 0 else 0
            num = 2 * max(1, int(round(s / 45.0))) + parity
            while f"{num} {st['name']}" in used_addr:
                num += 2
            address = f"{num} {st['name']}"
            used_addr.add(address)
        acres = g.area / SQFT_PER_ACRE
        pc = PROP_CLASS[zone][int(rng.integers(len(PROP_CLASS[zone])))]
        if zone in ("R-40", "R-80", "OSR") and acres >= 10:
            pc = "322" if zone != "OSR" else pc
        rows.append({"SBL": sbl, "PRINT_KEY": sbl, "SWIS": SWIS, "ADDRESS": address,
                     "ZONE": zone, "ACRES": round(acres, 3), "PROP_CLASS": pc, "OWNER": sample_owner(sbl),
                     "geom": g})
    return rows


# ----------------------------------------------------------------------------- DEM
def gaussian_noise(rng, shape, sigma_cells):
    """Unit-variance white noise smoothed with a Gaussian of ``sigma_cells`` (via FFT)."""
    white = rng.standard_normal(shape)
    ky = np.fft.fftfreq(shape[0])[:, None]
    kx = np.fft.rfftfreq(shape[1])[None, :]
    g = np.exp(-2.0 * (np.pi ** 2) * sigma_cells ** 2 * (kx ** 2 + ky ** 2))
    out = np.fft.irfft2(np.fft.rfft2(white) * g, s=shape)
    return out / out.std()


def smoothstep(x):
    """Cubic smoothstep clipped to [0, 1]."""
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def make_dem(village, streams_local, ponds_local, rng):
    """Elevation grid (feet) over the village bbox plus a margin. Returns (z, transform)."""
    minx, miny, maxx, maxy = village.bounds
    margin = 500.0
    x0 = math.floor((minx + CX - margin) / CELL_FT) * CELL_FT
    y1 = math.ceil((maxy + CY + margin) / CELL_FT) * CELL_FT
    x1 = math.ceil((maxx + CX + margin) / CELL_FT) * CELL_FT
    y0 = math.floor((miny + CY - margin) / CELL_FT) * CELL_FT
    ncol = int(round((x1 - x0) / CELL_FT))
    nrow = int(round((y1 - y0) / CELL_FT))
    transform = from_origin(x0, y1, CELL_FT, CELL_FT)
    us = x0 - CX + (np.arange(ncol) + 0.5) * CELL_FT
    vs = y1 - CY - (np.arange(nrow) + 0.5) * CELL_FT
    U, V = np.meshgrid(us, vs)
    D = U - river_u(V)

    floor = 300.0 + 0.006 * (V + 6000.0)
    west = 630.0 * smoothstep((-D - 450.0) / 2700.0) * (1 + 0.08 * np.sin(V / 1700.0))
    east = 600.0 * smoothstep((D - 550.0) / 3000.0) * (1 + 0.07 * np.sin(V / 1500.0 + 2.0))
    cross = 0.03 * np.minimum(np.abs(D), 600.0)
    # ledges: short steep steps on both valley walls
    ledge = (45.0 * (1 + np.tanh((D - 1900.0 - 120 * np.sin(V / 900)) / 60.0))
             + 40.0 * (1 + np.tanh((-D - 1500.0 - 100 * np.sin(V / 800 + 1)) / 55.0)))
    z = floor + west + east + cross + ledge
    slope_w = np.clip(np.abs(D) / 1500.0, 0.15, 1.0)
    z += 22.0 * gaussian_noise(rng, z.shape, 90.0) * slope_w
    z += 5.0 * gaussian_noise(rng, z.shape, 18.0) * slope_w
    z += 0.6 * gaussian_noise(rng, z.shape, 3.0)

    # ravines along the streams
    for _, line, width in streams_local:
        w = (width or 10.0)
        bx0, by0, bx1, by1 = line.buffer(250).bounds
        c0 = max(0, int((bx0 + CX - x0) // CELL_FT))
        c1 = min(ncol, int((bx1 + CX - x0) // CELL_FT) + 1)
        r0 = max(0, int((y1 - (by1 + CY)) // CELL_FT))
        r1 = min(nrow, int((y1 - (by0 + CY)) // CELL_FT) + 1)
        pts = shapely.points(U[r0:r1, c0:c1].ravel(), V[r0:r1, c0:c1].ravel())
        dist = shapely.distance(pts, line).reshape(r1 - r0, c1 - c0)
        depth = np.clip(np.abs(D[r0:r1, c0:c1]) / 80.0, 0, 1) * (14.0 + w)
        z[r0:r1, c0:c1] -= depth * np.exp(-((dist / (45.0 + 2 * w)) ** 2))

    def mask_of(geom):
        return rasterio.features.rasterize(
            [(to_work(geom), 1)], out_shape=z.shape, transform=transform, fill=0,
            dtype="uint8").astype(bool)

    river = mask_of(band_dv(-RIVER_HALF_FT, RIVER_HALF_FT, -7000, 7000))
    z[river] = floor[river] - 6.0
    pond = mask_of(mill_pond())
    z[pond] = 300.0 + 0.006 * (POND_V[1] + 6000.0) - 3.0
    for _, geom in ponds_local:
        m = mask_of(geom)
        z[m] = np.percentile(z[m], 20)
    z = np.round(z, 2).astype(np.float32)
    return z, transform


#: DEFLATE level of the committed DEM (level 9 takes about 3 s here; the values do not depend on it).
DEM_ZLEVEL = 9


def write_dem(z, transform, path, zlevel: int = DEM_ZLEVEL):
    """Float32 GeoTIFF, EPSG:2260, nodata -9999, DEFLATE (level ``zlevel``) + floating-point predictor, tiled."""
    if path.exists():
        path.unlink()
    profile = {
        "driver": "GTiff", "height": z.shape[0], "width": z.shape[1], "count": 1,
        "dtype": "float32", "crs": WORK_CRS, "transform": transform, "nodata": NODATA,
        "compress": "deflate", "predictor": 3, "zlevel": zlevel, "tiled": True,
        "blockxsize": 256, "blockysize": 256,
    }
    with rasterio.Env(GDAL_PAM_ENABLED="NO"):
        with rasterio.open(path, "w", **profile) as dst:
            dst.write(z, 1)
            dst.update_tags(AREA_OR_POINT="Area", UNITS="US survey feet",
                            SOURCE="Illustrative sample imitating USGS 3DEP 1 m DEM; not official")
            dst.set_band_description(1, "elevation_ft")


# ----------------------------------------------------------------------------- layers
def slope_percent(z, cell):
    """Simple central-difference slope in percent (for choosing outcrop sites)."""
    gy, gx = np.gradient(z.astype(float), cell)
    return 100.0 * np.hypot(gx, gy)


def outcrops(rng, z, transform, village, demo_outcrop_site, ridge_site):
    """Rock outcrop polygons (local frame) with AREA_SQFT; includes near-50 sq ft cases."""
    s = slope_percent(z, CELL_FT)
    rows, cols = np.nonzero(s[::10, ::10] > 30)
    rows, cols = rows * 10, cols * 10
    order = rng.permutation(len(rows))
    feats = []
    shapely.prepare(village)
    areas = np.exp(rng.uniform(np.log(8.0), np.log(25_000.0), size=70))
    k = 0
    for idx in order:
        if k >= len(areas):
            break
        x, y = rasterio.transform.xy(transform, rows[idx], cols[idx])
        u, v = x - CX, y - CY
        if not village.contains(Point(u, v)):
            continue
        p = blob(rng, u, v, math.sqrt(areas[k] / math.pi), 0.3, n=16)
        if p.is_valid:
            feats.append(scale_to_area(p, float(areas[k])))
            k += 1
    # exact cases around the 50 sq ft line, on the demo outcrop lot
    cu, cv = demo_outcrop_site
    for i, a in enumerate([49.0, 49.5, 50.5, 51.0]):
        w = 7.0
        r = box(cu - 120 + 40 * i, cv + 30, cu - 120 + 40 * i + w, cv + 30 + a / w)
        feats.append(affinity.rotate(r, 17.0 * i, origin="centroid"))
    big = scale_to_area(blob(rng, cu + 40, cv - 60, 30.0, 0.25, n=16), 2400.0)
    tiny = scale_to_area(blob(rng, cu - 60, cv - 40, 3.0, 0.2, n=12), 20.0)
    feats.extend([big, tiny])
    ru, rv = ridge_site
    for du, dv, a in [(-150.0, 120.0, 60.0), (60.0, -90.0, 350.0), (180.0, 200.0, 1800.0)]:
        feats.append(scale_to_area(blob(rng, ru + du, rv + dv, 10.0, 0.25, n=16), a))
    return feats


def nwi_and_local_wetlands(rng, river_ch, pond, ponds_local):
    """NWI-style wetlands and a local delineated layer (local frame)."""
    nwi = []
    nwi.append(("R2UBH", "Riverine", river_ch))
    nwi.append(("L1UBHh", "Lake", pond))
    for _, g in ponds_local:
        nwi.append(("PUBHh", "Freshwater Pond", g))
    spots = [
        ("PEM1E", "Freshwater Emergent Wetland", 175, -2000, 120),
        ("PEM1E", "Freshwater Emergent Wetland", -250, 3300, 110),
        ("PEM1C", "Freshwater Emergent Wetland", -180, -600, 70),
        ("PFO1A", "Freshwater Forested/Shrub Wetland", -230, -3900, 150),
        ("PFO1E", "Freshwater Forested/Shrub Wetland", 1250, -2980, 90),
        ("PSS1C", "Freshwater Forested/Shrub Wetland", 210, 3700, 95),
        ("PSS1E", "Freshwater Forested/Shrub Wetland", -1900, 3350, 80),
    ]
    blobs = []
    for code, typ, d, v, r in spots:
        g = blob_dv(rng, d, v, r, 0.3).difference(river_ch).difference(pond)
        g = max(parts(g), key=lambda q: q.area)
        blobs.append(g)
        nwi.append((code, typ, g))
    local = []
    # partial overlaps with NWI (shifted / enlarged versions), plus wetlands NWI missed
    local.append(("SLB-W01", "Emergent", affinity.translate(blobs[0].buffer(25), 40, -30)))
    local.append(("SLB-W02", "Forested", affinity.translate(blobs[3], -60, 50)))
    local.append(("SLB-W03", "Scrub-shrub", blobs[5].buffer(15)))
    local.append(("SLB-W04", "Forested", blob_dv(rng, -1450, 1800, 85, 0.3)))
    local.append(("SLB-W05", "Emergent", blob_dv(rng, 2100, -550, 60, 0.3)))
    local = [(i, c, g.difference(river_ch).difference(pond)) for i, c, g in local]
    local = [(i, c, max(parts(g), key=lambda q: q.area)) for i, c, g in local]
    return nwi, local


def floodplain(extent, river_streams):
    """NFHL-style flood hazard areas (local frame) that tile ``extent``."""
    def w_ae(v):
        return 300.0 + 110.0 * np.sin(v / 1300.0) + 1.2 * mill_pond_half_width(v)

    ae = band_dv(lambda v: -w_ae(v), lambda v: w_ae(v) * 0.85, -7000, 7000).intersection(extent)
    a_zone = shapely.union_all([ln.buffer(85.0) for ln in river_streams]).difference(ae)
    a_zone = a_zone.intersection(extent)
    shaded = band_dv(lambda v: -w_ae(v) - 160.0, lambda v: w_ae(v) * 0.85 + 140.0,
                     -7000, 7000).intersection(extent)
    shaded = shaded.difference(ae).difference(a_zone)
    minimal = extent.difference(shapely.union_all([ae, a_zone, shaded]))
    feats = []
    reaches = [(-7000, -3800, 326.4), (-3800, -1200, 334.1), (-1200, 800, 339.6),
               (800, 1700, 352.0), (1700, 3800, 356.3), (3800, 7000, -9999.0)]
    for v0, v1, bfe in reaches:
        strip = box(-20000, v0, 20000, v1)
        for g in parts(ae.intersection(strip), 1.0):
            feats.append(("AE", None, "T", bfe, g))
    for g in parts(a_zone, 1.0):
        feats.append(("A", None, "T", -9999.0, g))
    for g in parts(shaded, 1.0):
        feats.append(("X", "0.2 PCT ANNUAL CHANCE FLOOD HAZARD", "F", -9999.0, g))
    for g in parts(minimal, 1.0):
        feats.append(("X", "AREA OF MINIMAL FLOOD HAZARD", "F", -9999.0, g))
    return feats


# ----------------------------------------------------------------------------- approvals layers
def harriman_edge(extent):
    """The illustrative edge of Harriman State Park on the west (the same shape as in recreation.geojson)."""
    return band_dv(lambda v: -5200 + 0 * v, lambda v: -2750 + 120 * np.sin(v / 900), 1000, 7000).intersection(extent)


def write_approval_layers(out, extent, village, street_list, river_ch, pond):
    """Layers in the schemas of their real sources for the county referral and the NYSDEC screen.

    parkland.geojson imitates NYS OPRHP state park boundaries; state_county_roads.geojson the NYSDOT
    Roadway Inventory (centre lines with the jurisdiction and an illustrative right-of-way width);
    public_institutions.geojson state or county land with a public building; ag_district_farms.geojson
    the NYS agricultural districts (a farm in Orange County, west of the village line);
    nysdec_wetlands.geojson the NYSDEC regulatory freshwater wetland map. All invented.
    """
    rng = np.random.default_rng(SEED + 10)
    write_geojson(gdf_local([{"NAME": "Harriman State Park (edge, illustrative)", "CATEGORY": "State Park",
                              "REGION": "Palisades", "OWNER_TYPE": "State", "MANAGER": "NYS OPRHP / PIPC"}],
                            [harriman_edge(extent)]), out / "parkland.geojson")
    by_name = {s["name"]: s for s in street_list}
    # JURISDICTION as the Roadway Inventory System codes it ("01 NYSDOT", "31 NYS Thruway", "02 County")
    roads = [("NY 17", "Orange Tpke", "01 NYSDOT", "Principal Arterial", "Orange Tpke"),
             ("I-87", "New York State Thruway", "31 NYS Thruway", "Interstate", "New York State Thruway"),
             ("CR 106", "Seven Lakes Dr", "02 County", "Minor Arterial", "Seven Lakes Dr")]
    recs, geoms = [], []
    for route, name, juris, fclass, street in roads:
        recs.append({"ROUTE": route, "ROAD_NAME": name, "JURISDICTION": juris, "FUNCTIONAL_CLASS": fclass,
                     "ROW_WIDTH_FT": float(by_name[street]["row_ft"])})
        geoms.append(by_name[street]["geom"])
    write_geojson(gpd.GeoDataFrame(recs, geometry=[shapely.set_precision(to_work(g), 0.01) for g in geoms],
                                   crs=WORK_CRS), out / "state_county_roads.geojson")
    write_geojson(gdf_local([{"NAME": "NYS Thruway Authority maintenance section (illustrative)",
                              "OWNER": "New York State Thruway Authority", "BUILDING": "Maintenance garage"}],
                            [blob_dv(rng, -700, -4300, 160, 0.15)]), out / "public_institutions.geojson")
    west = village.bounds[0]
    farm = box(west - 480, 2600, west - 20, 3900).intersection(extent).difference(village.buffer(15))
    farm = max(parts(farm), key=lambda q: q.area)
    write_geojson(gdf_local([{"AG_DISTRICT": "Orange County Agricultural District No. 1 (illustrative)",
                              "COUNTY": "Orange", "FARM_NAME": "Illustrative farm", "CERT_DATE": "2019-05-01"}],
                            [farm]), out / "ag_district_farms.geojson")
    wet = []
    for wid, cls, d, v, r in [("SL-3", "II", 175, -2000, 620), ("SL-5", "III", -230, -3900, 500)]:
        g = blob_dv(rng, d, v, r, 0.25).difference(river_ch).difference(pond)
        wet.append(({"WETLAND_ID": wid, "CLASS": cls, "ACRES": round(max(parts(g), key=lambda q: q.area).area
                                                                       / SQFT_PER_ACRE, 3),
                     "MAP_STATUS": "Regulatory map (pre-2025), illustrative"}, max(parts(g), key=lambda q: q.area)))
    write_geojson(gdf_local([r for r, _ in wet], [g for _, g in wet]), out / "nysdec_wetlands.geojson")


# ----------------------------------------------------------------------------- demo parcels
def demo_geoms():
    """Demo parcel outlines (local frame)."""
    riverside = shapely.simplify(band_dv(50.0, 290.0, -2170.0, -1820.0, step=50.0), 0.5)
    riverside = scale_to_area(riverside, 2.0 * SQFT_PER_ACRE)
    ue, _ = dv_to_uv(1850.0, 300.0)
    ridge = Polygon([(ue, 300), (ue + 700, 320), (ue + 690, 1060), (ue - 20, 1040)])
    ridge = scale_to_area(ridge, 12.0 * SQFT_PER_ACRE)
    uc, _ = dv_to_uv(470.0, 150.0)
    centre_lot = Polygon([(uc, 150), (uc + 150, 150), (uc + 150, 300), (uc, 300)])
    uw, _ = dv_to_uv(-1900.0, -900.0)
    west = Polygon([(uw, -900), (uw + 450, -880), (uw + 470, -400), (uw + 10, -420)])
    west = scale_to_area(west, 5.0 * SQFT_PER_ACRE)
    uo, _ = dv_to_uv(1500.0, 1900.0)
    outcrop_lot = Polygon([(uo - 180, 1720), (uo + 180, 1720), (uo + 180, 2060), (uo - 180, 2060)])
    return {"riverside": riverside, "ridge": ridge, "centre": centre_lot, "west": west,
            "outcrop": outcrop_lot}


def write_dxf(poly_work, path):
    """Minimal ASCII DXF (AC1015) with one closed LWPOLYLINE on layer PARCEL, no CRS."""
    coords = list(poly_work.exterior.coords)[:-1]
    lines = ["0", "SECTION", "2", "HEADER", "9", "$ACADVER", "1", "AC1015", "9", "$INSUNITS",
             "70", "2", "0", "ENDSEC", "0", "SECTION", "2", "ENTITIES", "0", "LWPOLYLINE",
             "5", "100", "100", "AcDbEntity", "8", "PARCEL", "100", "AcDbPolyline",
             "90", str(len(coords)), "70", "1"]
    for x, y in coords:
        lines += ["10", f"{x:.3f}", "20", f"{y:.3f}"]
    lines += ["0", "ENDSEC", "0", "EOF"]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")


def write_zip_shapefile(gdf, path, stem):
    """Zipped ESRI shapefile (with .prj and .cpg), fixed member dates."""
    with tempfile.TemporaryDirectory() as td:
        shp = Path(td) / f"{stem}.shp"
        pyogrio.write_dataframe(gdf, shp, driver="ESRI Shapefile", layer_options={"ENCODING": "UTF-8"})
        if path.exists():
            path.unlink()
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for f in sorted(Path(td).iterdir()):
                info = zipfile.ZipInfo(f.name, date_time=(2026, 11, 29, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, f.read_bytes())


def write_demo(out, demo, rng):
    """Ready test parcels in several formats plus a small project example."""
    dd = out / "demo_parcels"
    dd.mkdir(parents=True, exist_ok=True)

    def one(name, g, **props):
        return gpd.GeoDataFrame([{"NAME": name, **props}], geometry=[to_work(g)], crs=WORK_CRS)

    write_geojson(one("Riverside demo parcel (about 2 acres)", demo["riverside"]),
                  dd / "riverside_2ac.geojson")
    write_geojson(one("East ridge steep demo parcel (about 12 acres)", demo["ridge"]),
                  dd / "east_ridge_12ac.geojson")
    kml = dd / "village_centre_lot.kml"
    if kml.exists():
        kml.unlink()
    pyogrio.write_dataframe(one("Village centre demo lot", demo["centre"]).to_crs(WGS84), kml,
                            driver="KML", layer="village_centre_lot")
    write_zip_shapefile(one("West slope demo parcel (about 5 acres)", demo["west"]),
                        dd / "west_slope_5ac.zip", "west_slope_5ac")
    write_gpkg(one("Outcrop demo lot", demo["outcrop"]), dd / "outcrop_lot.gpkg", "parcel", WORK_CRS)
    write_dxf(to_work(demo["riverside"]), dd / "riverside_2ac.dxf")

    rv = demo["riverside"]
    minx, miny, maxx, maxy = rv.bounds
    foot = Polygon([(maxx - 150, miny + 90), (maxx - 40, miny + 90),
                    (maxx - 40, miny + 190), (maxx - 150, miny + 190)]).intersection(rv)
    foot_wgs = gpd.GeoSeries([to_work(foot)], crs=WORK_CRS).to_crs(WGS84).iloc[0]
    geom = json.loads(json.dumps(mapping(foot_wgs)))
    geom["coordinates"] = [[[round(x, 9), round(y, 9)] for x, y in ring]
                           for ring in geom["coordinates"]]
    project = {
        "application_type": "building_permit",
        "new_structure": True,
        "one_family_dwelling": True,
        "existing_use": "vacant",
        "disturbance_footprint": geom,
        "trees_removed": 3,
        "sanitary_facilities": True,
        "public_sewer_available": True,
        # § 402-57I: (1) structure, (3) filling, (6) altering contours, (10) clear cutting
        "activities": [1, 3, 6, 10],
    }
    (dd / "demo_project.json").write_text(json.dumps(project, indent=2) + "\n", encoding="utf-8")
    (dd / "README.md").write_text(DEMO_README, encoding="utf-8")


DEMO_README = """# Demo parcels (illustrative, not official data)

Ready-made test parcels that exercise every input format the dashboard accepts. All are invented.

| file | format / CRS | what it shows |
|---|---|---|
| riverside_2ac.geojson | GeoJSON, EPSG:4326 | about 2 acres by the Ramapo River: wetland, wetland buffer, AE and shaded X flood zones |
| riverside_2ac.dxf | DXF (one closed LWPOLYLINE), EPSG:2260 coordinates, no CRS in the file | same outline as above |
| east_ridge_12ac.geojson | GeoJSON, EPSG:4326 | about 12 acres of steep ground on the east ridge (all slope classes, ledges) |
| village_centre_lot.kml | KML, EPSG:4326 | a small lot in the VC-1 village centre |
| west_slope_5ac.zip | zipped ESRI shapefile with .prj, EPSG:2260 | about 5 acres on the west valley wall |
| outcrop_lot.gpkg (layer `parcel`) | GeoPackage, EPSG:2260 | a lot holding rock outcrops of 49.0, 49.5, 50.5 and 51.0 sq ft, one of 20 and one of 2,400 sq ft |
| demo_project.json | JSON | a project example (one-family dwelling) on the riverside parcel; `disturbance_footprint` is GeoJSON in WGS84 |

Generated by `tools/make_sample_data.py`.
"""


# ----------------------------------------------------------------------------- manifest/README
LAYERS_YAML = f"""name: Sloatsburg sample (illustrative, not official)
version: "{VERSION}"
illustrative: true
notice: "{NOTICE}"
# The sample's layers are drawn for the village: each declares the village boundary as its coverage.
layers:
  floodplain:    {{path: nfhl.gpkg, layer: S_FLD_HAZ_AR, schema: fema_nfhl, coverage: village_boundary}}
  wetlands:      [{{path: nwi_wetlands.geojson, schema: nwi, coverage: village_boundary}}, {{path: local_wetlands.geojson, coverage: village_boundary}}]
  water_bodies:  {{path: ponds.geojson, coverage: village_boundary}}
  watercourses:  {{path: streams.geojson, width_field: WIDTH_FT, coverage: village_boundary}}
  rock_outcrops: {{path: outcrops.geojson, coverage: village_boundary}}
  aquifer_cea:   {{path: ramapo_aquifer.geojson, coverage: village_boundary}}
  recreational_river: {{path: recreational_river.geojson, coverage: village_boundary}}
  rcda:          {{path: rcda.geojson, coverage: village_boundary}}
  historic:      {{path: historic.geojson, coverage: village_boundary}}
  habitats:      {{path: habitats.geojson, coverage: village_boundary}}
  viewsheds:     {{path: viewsheds.geojson, coverage: village_boundary}}
  recreation:    {{path: recreation.geojson, coverage: village_boundary}}
  zoning:        {{path: zoning.gpkg, layer: zoning, district_field: ZONE}}
  parcels:       {{path: parcels.gpkg, layer: parcels, id_field: SBL, district_field: ZONE, address_field: ADDRESS,
                  owner_field: OWNER}}
  village_boundary: {{path: village_boundary.geojson}}
  roads:         {{path: roads.gpkg, layer: roads, width_field: WIDTH_FT}}
  parkland:      {{path: parkland.geojson, coverage: everywhere}}
  state_county_roads: {{path: state_county_roads.geojson, width_field: ROW_WIDTH_FT, coverage: everywhere}}
  public_institutions: {{path: public_institutions.geojson, coverage: everywhere}}
  ag_district_farms: {{path: ag_district_farms.geojson, coverage: everywhere}}
  nysdec_wetlands: {{path: nysdec_wetlands.geojson, coverage: everywhere}}
dem: {{path: dem.tif, z_units: us_survey_foot}}
"""

README = """# Sloatsburg sample layer set: ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA

Every file in this folder is invented by `tools/make_sample_data.py` (fixed seeds; run
`make sample` or `python tools/make_sample_data.py` to rebuild it byte for byte). The shapes
only resemble the Village of Sloatsburg (Rockland County, NY): a valley with the Ramapo River
running north to south beside NY-17 (Orange Turnpike) and the Thruway, Sloat's Dam and the Mill
Pond, ridges rising east and west, Orange County on the west. Street names, addresses, tax map
numbers (SBL), zoning lines, wetlands, flood zones and elevations are NOT the real ones. Do not use
them for any permit, sale, appraisal or legal decision. For real work replace the layers with
official files by editing `layers.yaml` (same schemas).

The manifest is `layers.yaml` (paths relative to it). Working CRS: EPSG:2260 (NAD83 / New York
East, US survey feet). Files are written in the CRSs real sources use, so reprojection is exercised.

| file | imitates (real source) | CRS | schema notes |
|---|---|---|---|
| nfhl.gpkg, layer S_FLD_HAZ_AR | FEMA National Flood Hazard Layer (NFHL), flood hazard areas | EPSG:4269 (NAD83, as FEMA ships) | DFIRM_ID 36087C, VERSION_ID, FLD_AR_ID, STUDY_TYP, FLD_ZONE (AE, A, X), ZONE_SUBTY, SFHA_TF T/F, STATIC_BFE (-9999 = none), DEPTH, LEN_UNIT, V_DATUM, SOURCE_CIT. AE reaches carry an illustrative STATIC_BFE (real riverine AE zones usually carry BFEs as S_BFE lines instead); one AE reach has -9999 |
| nwi_wetlands.geojson | USFWS National Wetlands Inventory (NWI) | EPSG:4326 | ATTRIBUTE (Cowardin code), WETLAND_TYPE, ACRES |
| local_wetlands.geojson | local / NYSDEC delineated wetlands | EPSG:4326 | WETLAND_ID, SOURCE, CLASS, DELIN_DATE |
| streams.geojson | NYSDEC / NHD streams | EPSG:4326 | NAME, WIDTH_FT (channel width; null when unknown) |
| ponds.geojson | NHD / NYSDEC water bodies | EPSG:4326 | NAME, TYPE (River, Lake, Pond) |
| outcrops.geojson | rock outcrops from a site survey | EPSG:4326 | AREA_SQFT (informative only; measured in EPSG:2260) |
| dem.tif | USGS 3DEP 1 m lidar DEM, resampled | EPSG:2260 | float32 feet, 5 ft cells, nodata -9999, DEFLATE, tiled |
| ramapo_aquifer.geojson | EPA sole source aquifer (Ramapo River Basin Aquifer System, 57 FR 39201), § 402-46 CEA | EPSG:4326 | NAME, DESIGNATION |
| recreational_river.geojson | NYSDEC Wild, Scenic and Recreational Rivers (6 NYCRR 666) | EPSG:4326 | NAME, CLASS |
| rcda.geojson | Rockland County Drainage Agency stream jurisdiction | EPSG:4326 | NAME, AGENCY |
| historic.geojson | NYS OPRHP CRIS / National Register listings | EPSG:4326 | NAME, LISTING |
| habitats.geojson | NY Natural Heritage Program significant natural communities | EPSG:4326 | NAME, STATUS |
| viewsheds.geojson | local scenic viewshed mapping | EPSG:4326 | NAME, TYPE |
| recreation.geojson | NYS OPRHP parks, village parks | EPSG:4326 | NAME, TYPE, OWNER |
| zoning.gpkg, layer zoning | Village zoning map (Chapter 402) | EPSG:2260 | ZONE (OSR, R-80, R-40, R-15, R-10, MU-1, MU-2, VC-1, VC-2, O, IP), NAME |
| parcels.gpkg, layer parcels | Rockland County GIS tax parcels | EPSG:2260 | SBL, PRINT_KEY, SWIS (392403, illustrative), ADDRESS, ZONE (majority district), ACRES, PROP_CLASS, OWNER (invented names marked "(sample)", for § 402-57K(4)) |
| village_boundary.geojson | NYS civil boundaries | EPSG:4326 | NAME |
| roads.gpkg (layer roads) | street centrelines (offline base map only, no rule reads it) | EPSG:2260 | NAME, WIDTH_FT, ILLUSTRATIVE |
| parkland.geojson | NYS OPRHP state park boundaries (Harriman State Park's edge) | EPSG:4326 | NAME, CATEGORY, REGION, OWNER_TYPE, MANAGER |
| state_county_roads.geojson | NYSDOT Roadway Inventory System, state and county roads | EPSG:4326 | ROUTE, ROAD_NAME, JURISDICTION (inventory codes: "01 NYSDOT", "31 NYS Thruway", "02 County"), FUNCTIONAL_CLASS, ROW_WIDTH_FT (illustrative right-of-way) |
| public_institutions.geojson | state or county land with a public building (GML § 239-m(3)(b)(v)) | EPSG:4326 | NAME, OWNER, BUILDING |
| ag_district_farms.geojson | NYS Agricultural Districts (a farm in Orange County, west of the line) | EPSG:4326 | AG_DISTRICT, COUNTY, FARM_NAME, CERT_DATE |
| nysdec_wetlands.geojson | NYSDEC regulatory freshwater wetlands (ECL Article 24) | EPSG:4326 | WETLAND_ID, CLASS (I-IV), ACRES, MAP_STATUS |
| demo_parcels/ | test parcels in GeoJSON, KML, zipped shapefile, GeoPackage, DXF; a project example | see its README | |

Details worth knowing when testing:
- Parcels tile the land between street rights-of-way, the Thruway and the river; a few straddle
  two zoning districts (ZONE is the district covering most of the lot).
- Outcrops include cases just under and over 50 sq ft (49.0, 49.5, 50.5, 51.0 in EPSG:2260).
- NFHL X zones next to the AE zones are the shaded 0.2 percent annual chance zone (SFHA_TF 'F').
- The DEM covers the village bounding box plus 500 ft and has ground in every slope class.
"""


# ----------------------------------------------------------------------------- main
def generate(out: Path | str = DEFAULT_OUT, *, verbose: bool = False, dem_zlevel: int = DEM_ZLEVEL) -> dict:
    """Write the whole sample set into ``out``. Returns a small summary dict.

    Parameters
    ----------
    out : path-like
        Target folder (created if missing). Files already there are overwritten.
    verbose : bool
        Print the summary.
    dem_zlevel : int
        DEFLATE level of dem.tif (1-9). The committed file uses :data:`DEM_ZLEVEL`; a lower level gives the
        same heights in a somewhat bigger file, sooner (tests/gis/test_sample_data.py compares values).

    Returns
    -------
    dict
        Counts and sizes (parcels, straddlers, DEM shape, file sizes in bytes).
    """
    t0 = time.perf_counter()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": f"{VERSION}T00:00:00.000Z"})

    village = village_polygon()
    zones = zoning_polygons(village)
    street_list = streets()
    river_ch = river_channel()
    pond = mill_pond()
    sl = stream_lines()
    ponds_local = small_ponds(np.random.default_rng(SEED + 1))
    demo = demo_geoms()

    # DEM
    z, transform = make_dem(village, sl, ponds_local, np.random.default_rng(SEED + 2))
    write_dem(z, transform, out / "dem.tif", dem_zlevel)
    b = rasterio.transform.array_bounds(z.shape[0], z.shape[1], transform)
    extent = box(b[0] - CX, b[1] - CY, b[2] - CX, b[3] - CY)

    # village boundary
    write_geojson(gdf_local([{"NAME": "Village of Sloatsburg", "COUNTY": "Rockland",
                              "MUNI_TYPE": "Village"}], [village]), out / "village_boundary.geojson")

    write_roads(out, street_list, to_work)  # illustrative roads for the offline base map (tools/sample_roads.py)

    # zoning
    names = {"OSR": "Open Space and Recreation", "R-80": "Open Space Residential",
             "R-40": "Rural Residential", "R-15": "Suburban Residential",
             "R-10": "Village Residential", "MU-1": "Residential/Neighborhood Commercial",
             "MU-2": "Residential/Limited Commercial", "VC-1": "Village Center",
             "VC-2": "Village Center Extension", "O": "Office/Limited Commercial",
             "IP": "Industrial Park"}
    zrec, zgeo = [], []
    for code, g in zones.items():
        for p in parts(g, 1.0):
            zrec.append({"ZONE": code, "NAME": names[code]})
            zgeo.append(p)
    write_gpkg(gdf_local(zrec, zgeo), out / "zoning.gpkg", "zoning", WORK_CRS)

    # parcels
    water = shapely.union_all([river_ch, pond])
    lots = make_parcels(village, zones, street_list, water, np.random.default_rng(SEED + 3))
    lots = force_straddlers(lots, zones, np.random.default_rng(SEED + 4))
    prow = attribute_parcels(lots, zones, street_list, np.random.default_rng(SEED + 5))
    pgeo = [r.pop("geom") for r in prow]
    parcels = gdf_local(prow, pgeo)
    write_gpkg(parcels, out / "parcels.gpkg", "parcels", WORK_CRS)
    zone_geoms = list(zones.values())
    straddle = 0
    for g in pgeo:
        a = sorted((g.intersection(zg).area for zg in zone_geoms), reverse=True)
        if len(a) > 1 and a[1] > 100.0:
            straddle += 1

    # water
    write_geojson(gdf_local(
        [{"NAME": "Ramapo River", "TYPE": "River"}, {"NAME": "Mill Pond", "TYPE": "Lake"}]
        + [{"NAME": n, "TYPE": "Pond"} for n, _ in ponds_local],
        [river_ch.intersection(extent), pond] + [g for _, g in ponds_local]), out / "ponds.geojson")
    write_geojson(gdf_local([{"NAME": n, "WIDTH_FT": w} for n, _, w in sl],
                            [ln.intersection(extent) for _, ln, _ in sl]), out / "streams.geojson")

    # wetlands
    nwi, local = nwi_and_local_wetlands(np.random.default_rng(SEED + 6), river_ch.intersection(extent),
                                        pond, ponds_local)
    write_geojson(gdf_local(
        [{"ATTRIBUTE": c, "WETLAND_TYPE": t, "ACRES": round(g.area / SQFT_PER_ACRE, 4)}
         for c, t, g in nwi], [g for _, _, g in nwi]), out / "nwi_wetlands.geojson")
    write_geojson(gdf_local(
        [{"WETLAND_ID": i, "SOURCE": "Delineated 2025 (illustrative)", "CLASS": c,
          "DELIN_DATE": "2025-06-12"} for i, c, _ in local], [g for _, _, g in local]),
        out / "local_wetlands.geojson")

    # outcrops (AREA_SQFT measured after the EPSG:4326 round trip)
    oc = outcrops(np.random.default_rng(SEED + 7), z, transform, village,
                  demo["outcrop"].centroid.coords[0], demo["ridge"].centroid.coords[0])
    og = gpd.GeoSeries([to_work(g) for g in oc], crs=WORK_CRS)
    og_rt = og.to_crs(WGS84).set_precision(1e-9).to_crs(WORK_CRS)
    write_geojson(gpd.GeoDataFrame({"OUTCROP_ID": [f"RO-{i + 1:03d}" for i in range(len(oc))],
                                    "AREA_SQFT": np.round(og_rt.area.to_numpy(), 2)},
                                   geometry=og, crs=WORK_CRS), out / "outcrops.geojson")

    # floodplain
    fp = floodplain(extent, [sl[0][1], sl[1][1]])
    recs = []
    for k, (zone, sub, sfha, bfe, _) in enumerate(fp):
        recs.append({"DFIRM_ID": "36087C", "VERSION_ID": "1.1.1.0", "FLD_AR_ID": f"36087C_{k + 1:04d}",
                     "STUDY_TYP": "NP", "FLD_ZONE": zone, "ZONE_SUBTY": sub, "SFHA_TF": sfha,
                     "STATIC_BFE": bfe, "V_DATUM": "NAVD88" if bfe != -9999.0 else None,
                     "DEPTH": -9999.0, "LEN_UNIT": "Feet" if bfe != -9999.0 else None,
                     "SOURCE_CIT": "36087C_FIS1"})
    write_gpkg(gdf_local(recs, [g for *_, g in fp]), out / "nfhl.gpkg", "S_FLD_HAZ_AR", NAD83)

    # special areas
    aq = band_dv(lambda v: -1200 - 150 * np.sin(v / 1800), lambda v: 1150 + 120 * np.sin(v / 1500),
                 -7000, 7000).intersection(village)
    write_geojson(gdf_local([{"NAME": "Ramapo River Basin Aquifer System (Sloatsburg portion)",
                              "DESIGNATION": "EPA sole source aquifer, 57 FR 39201 (1992-08-28); "
                                             "critical environmental area, § 402-46"}], [aq]),
                  out / "ramapo_aquifer.geojson")
    rr = band_dv(lambda v: -560 - 60 * np.sin(v / 1100), lambda v: 520 + 70 * np.sin(v / 1300),
                 -7000, 7000).intersection(extent)
    write_geojson(gdf_local([{"NAME": "Ramapo River recreational river corridor (illustrative)",
                              "CLASS": "Recreational"}], [rr]), out / "recreational_river.geojson")
    rc1 = band_dv(-RIVER_HALF_FT - 100, RIVER_HALF_FT + 100, -7000, 7000).union(
        pond.buffer(100)).intersection(village)
    rc2 = sl[0][1].buffer(100).intersection(village).difference(rc1)
    write_geojson(gdf_local([{"NAME": "Ramapo River", "AGENCY": "Rockland County Drainage Agency"},
                             {"NAME": "Stony Brook", "AGENCY": "Rockland County Drainage Agency"}],
                            [rc1, rc2]), out / "rcda.geojson")
    hrng = np.random.default_rng(SEED + 8)
    write_geojson(gdf_local(
        [{"NAME": "Jacob Sloat House (illustrative)", "LISTING": "National Register"},
         {"NAME": "Sloat's Dam and mill site (illustrative)", "LISTING": "State Register"},
         {"NAME": "Orange Turnpike village centre (illustrative)", "LISTING": "Eligible (to confirm)"}],
        [blob_dv(hrng, 480, 420, 120, 0.15), blob_dv(hrng, 120, 760, 90, 0.15),
         band_dv(360, 600, -700, 300)]), out / "historic.geojson")
    write_geojson(gdf_local(
        [{"NAME": "Ramapo floodplain forest (illustrative)",
          "STATUS": "NYNHP significant natural community (illustrative)"},
         {"NAME": "East ridge chestnut oak forest (illustrative)",
          "STATUS": "NYNHP significant natural community (illustrative)"}],
        [band_dv(-380, -40, -4600, -2900).difference(river_ch),
         blob_dv(hrng, 3000, 600, 650, 0.2).intersection(extent)]), out / "habitats.geojson")
    write_geojson(gdf_local(
        [{"NAME": "East ridge skyline seen from NY-17 (illustrative)", "TYPE": "Scenic viewshed"},
         {"NAME": "West ridge seen from Seven Lakes Dr (illustrative)", "TYPE": "Scenic viewshed"}],
        [band_dv(2600, 4200, -2500, 3000).intersection(extent),
         band_dv(-4200, -2300, 1500, 5000).intersection(extent)]), out / "viewsheds.geojson")
    write_geojson(gdf_local(
        [{"NAME": "Harriman State Park (edge, illustrative)", "TYPE": "State park",
          "OWNER": "NYS OPRHP"},
         {"NAME": "Sloatsburg Village Park (illustrative)", "TYPE": "Village park",
          "OWNER": "Village of Sloatsburg"}],
        [band_dv(lambda v: -5200 + 0 * v, lambda v: -2750 + 120 * np.sin(v / 900), 1000, 7000)
         .intersection(extent),
         band_dv(40, 300, 1900, 2450)]), out / "recreation.geojson")

    # the layers the approvals around Article IX read (GML § 239-m triggers, the NYSDEC wetland map)
    write_approval_layers(out, extent, village, street_list, river_ch, pond)

    # manifest, readme, demo parcels
    (out / "layers.yaml").write_text(LAYERS_YAML, encoding="utf-8")
    (out / "README.md").write_text(README, encoding="utf-8")
    write_demo(out, demo, np.random.default_rng(SEED + 9))

    sizes = {p.relative_to(out).as_posix(): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}
    summary = {
        "parcels": len(parcels), "straddling_parcels": straddle,
        "village_sq_mi": round(village.area / 5280.0 ** 2, 3),
        "dem_shape": list(z.shape), "dem_min_ft": float(z.min()), "dem_max_ft": float(z.max()),
        "outcrops": len(oc), "floodplain_features": len(fp),
        "total_bytes": sum(sizes.values()), "sizes": sizes,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    if verbose:
        print(json.dumps(summary, indent=2))
    return summary


def main(argv=None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default data/sample)")
    ap.add_argument("--clean", action="store_true", help="empty the output folder first")
    ap.add_argument("--dem-zlevel", type=int, choices=range(1, 10), default=DEM_ZLEVEL, metavar="1-9",
                    help=f"DEFLATE level of dem.tif (default {DEM_ZLEVEL}, as committed; the heights do not depend on it)")
    args = ap.parse_args(argv)
    if args.clean and args.out.exists():
        shutil.rmtree(args.out)
    generate(args.out, verbose=True, dem_zlevel=args.dem_zlevel)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
