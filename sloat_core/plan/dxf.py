"""DXF plans read with ezdxf: layers, polylines with their bulges as true arcs, closure, text, units, blocks.

:func:`read_dxf_plan` turns a DXF file into the shapes of every layer (``_Shape``: a Polygon when the outline
closes, a LineString when it does not) and the texts with their positions, in EPSG:2260 US survey feet:

* LWPOLYLINE and POLYLINE (2-D and 3-D): a bulge is a true circular arc, densified into at least
  :data:`MIN_ARC_STEPS` chords and no chord over :data:`MAX_ARC_STEP_DEGREES`, so that a circle's area is
  off by less than 0.01 % and the segment between any arc and its chord by less than 0.07 % (the plan's
  areas must stay within 0.1 %).
* An outline closes by its closed flag or when its two ends lie within :data:`CLOSE_TOLERANCE_FT` of each other.
  Outlines drawn as separate LINE and ARC entities are joined on their layer (ends within the same tolerance):
  each face they enclose is a closed outline, the rest stay open. A CIRCLE is a closed outline.
* INSERT: blocks are exploded (their polylines, texts and nested blocks copied and transformed as
  ``virtual_entities`` does; other entities, such as a tree symbol's hatch, are never copied). The expansion is
  counted from the block definitions first, and refused past :data:`MAX_BLOCK_ENTITIES` entities or
  :data:`MAX_BLOCK_DEPTH` levels (a block "bomb"); an entity on layer ``0`` inside a block takes the INSERT's
  layer, as CAD shows it; the block's attributes (ATTRIB) are texts.
* TEXT, MTEXT and ATTRIB: their text and the point they stand at (labels for lots).
* ``$INSUNITS``: 21 (US survey feet) as is; 2 (feet) is international feet, scaled to US survey feet
  (x 0.999998; about 1.7 ft of shift at the Village's state-plane coordinates); 0 (unitless) is taken as US
  survey feet, because New York East state-plane plats are drawn in them and because a unitless drawing in any
  other unit does not land near the Village and is refused there (never placed); every other unit is refused.
Only model space is read (title blocks usually live in paper space).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import ezdxf
import numpy as np
import shapely
from ezdxf.lldxf.const import DXFError
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.parcels.file_limits import printable_name

__all__ = ["read_dxf_plan", "MIN_ARC_STEPS", "MAX_ARC_STEP_DEGREES", "CLOSE_TOLERANCE_FT", "MAX_BLOCK_ENTITIES",
           "MAX_BLOCK_DEPTH"]

MIN_ARC_STEPS = 40
"""Fewest chords an arc is cut into: the segment between an arc and its chord loses at most 1/40^2 (0.0625 %)
of its area, even for a flat arc."""

MAX_ARC_STEP_DEGREES = 2.0
"""Longest chord of an arc, as the angle it spans: a full circle is off by under 0.01 % of its area."""

CLOSE_TOLERANCE_FT = 0.001
"""Ends of an outline this close (feet) are one point: the outline is closed."""

MAX_BLOCK_ENTITIES = 20_000
"""Most polylines, texts and inserts the drawing may hold once its blocks are exploded (exploding costs about
1 ms an entity on the server; the parse limit allows 20 s)."""

MAX_BLOCK_DEPTH = 8
"""Deepest nesting of blocks read."""

#: $INSUNITS -> factor to US survey feet (None: unitless, taken as US survey feet).
# A plat placed in New York East state plane (EPSG:2260) has coordinates in US survey feet whatever CAD calls
# them: CAD's "feet" (2) does not say which foot, and scaling by the international foot (0.999998) would move a
# drawing about 2 ft at the Village's coordinates, off the very parcel it was drawn on. So 2 is read as 21.
_UNITS = {0: 1.0, 2: 1.0, 21: 1.0}
_UNIT_NAMES = {1: "inches", 3: "miles", 4: "millimetres", 5: "centimetres", 6: "metres", 7: "kilometres",
               8: "microinches", 9: "mils", 10: "yards", 11: "angstroms", 12: "nanometres", 13: "microns",
               14: "decimetres", 15: "decametres", 16: "hectometres", 17: "gigametres",
               18: "astronomical units", 19: "light years", 20: "parsecs", 22: "US survey inches",
               23: "US survey yards", 24: "US survey miles"}


@dataclass
class _Shape:
    layer: str
    geometry: BaseGeometry
    lot: str | None = None


@dataclass
class _Text:
    layer: str
    point: Point
    text: str


@dataclass
class _Drawing:
    layers: list[str]
    shapes: list[_Shape]
    texts: list[_Text]
    warnings: list[str]


def read_dxf_plan(path: Path) -> _Drawing:
    """Read a DXF file's model space into shapes and texts in US survey feet (see the module's notes).

    Raises
    ------
    SloatInputError
        Not a DXF file, a unit other than feet or US survey feet, too many entities once blocks are exploded.
    """
    try:
        doc = ezdxf.readfile(path)
    except (OSError, DXFError, ValueError, UnicodeError, IndexError, KeyError, TypeError) as exc:
        raise SloatInputError("The file could not be read as a DXF drawing.") from exc
    warnings: list[str] = []
    scale = _units_scale(doc, warnings)
    msp = doc.modelspace()
    _count_exploded(doc, msp)
    reader = _Reader(scale)
    for entity in msp:
        reader.entity(entity, None, 0)
    reader.close_segments()
    layers = list(dict.fromkeys([printable_name(layer.dxf.name) for layer in doc.layers] + reader.used_layers))
    return _Drawing(layers, reader.shapes, reader.texts, warnings + reader.warnings())


_READ = frozenset({"LWPOLYLINE", "POLYLINE", "LINE", "ARC", "CIRCLE", "TEXT", "MTEXT", "INSERT"})


def _count_exploded(doc, msp) -> None:
    """Refuse, before anything is exploded, a drawing whose blocks would expand past :data:`MAX_BLOCK_ENTITIES`
    read entities (polylines, texts, inserts) or nest deeper than :data:`MAX_BLOCK_DEPTH` (a block "bomb")."""
    sizes: dict[str, int] = {}

    def weight(e, depth: int) -> int:
        if e.dxftype() != "INSERT":
            return 1 if e.dxftype() in _READ else 0
        if depth >= MAX_BLOCK_DEPTH:
            raise SloatInputError(
                f"The drawing nests blocks more than {MAX_BLOCK_DEPTH} deep, more than a plan needs, so it was refused."
            )
        name = e.dxf.get("name", "")
        if name not in sizes:
            block = doc.blocks.get(name)
            sizes[name] = 0 if block is None else sum(weight(child, depth + 1) for child in block)
        return (1 + len(e.attribs) + sizes[name]) * max(1, int(e.mcount))

    total = 0
    for e in msp:
        total += weight(e, 0)
        if total > MAX_BLOCK_ENTITIES:
            raise SloatInputError(
                f"The drawing holds more than {MAX_BLOCK_ENTITIES:,} lines and texts once its blocks are exploded, "
                "more than a plan needs, so it was refused."
            )


def _units_scale(doc, warnings: list[str]) -> float:
    try:
        units = int(doc.header.get("$INSUNITS", 0) or 0)
    except (TypeError, ValueError):
        units = -1
    if units not in _UNITS:
        unit = _UNIT_NAMES.get(units, "a unit that is not recognised")
        raise SloatInputError(
            f"The drawing's units are {unit}; plans are read only in feet or US survey feet (New York East "
            "state plane), so it was refused."
        )
    if units == 0:
        warnings.append("The drawing does not say its units; its coordinates were taken as US survey feet "
                        "(New York East state plane).")
    elif units == 2:
        warnings.append("The drawing's units are feet; its New York East state plane coordinates were read as US "
                        "survey feet, the state plane's unit.")
    return _UNITS[units]


class _Reader:
    """Walks model space and the blocks inserted in it, gathering shapes and texts."""

    def __init__(self, scale: float):
        self.scale = scale
        self.shapes: list[_Shape] = []
        self.texts: list[_Text] = []
        self.used_layers: list[str] = []
        self.segments: dict[str, list[LineString]] = {}
        self.skipped_blocks = 0

    def warnings(self) -> list[str]:
        if self.skipped_blocks:
            return [f"{self.skipped_blocks} block(s) could not be exploded and were left out."]
        return []

    def entity(self, e, parent_layer: str | None, depth: int) -> None:
        kind = e.dxftype()
        if kind not in _READ:
            return
        layer = printable_name(e.dxf.get("layer", "0"))
        if parent_layer is not None and layer == "0":
            layer = parent_layer
        if kind == "INSERT":
            self._insert(e, layer, depth)
            return
        if kind in ("LWPOLYLINE", "POLYLINE"):
            geom = self._polyline(e, kind)
            if geom is not None:
                self.shapes.append(_Shape(layer, geom))
                self.used_layers.append(layer)
        elif kind in ("LINE", "ARC"):
            self.segments.setdefault(layer, []).append(self._segment(e, kind))
            self.used_layers.append(layer)
        elif kind == "CIRCLE":
            ring = _circle_points(e, 360.0)
            self.shapes.append(_Shape(layer, Polygon(np.asarray(ring[:-1]) * self.scale)))
            self.used_layers.append(layer)
        elif kind in ("TEXT", "MTEXT", "ATTRIB"):
            self._text(e, kind, layer)

    def _segment(self, e, kind: str) -> LineString:
        if kind == "LINE":
            pts = [tuple(e.dxf.start)[:2], tuple(e.dxf.end)[:2]]
        else:
            sweep = (e.dxf.end_angle - e.dxf.start_angle) % 360.0 or 360.0
            pts = _circle_points(e, sweep, e.dxf.start_angle)
        return LineString(np.asarray(pts, dtype=float) * self.scale)

    def close_segments(self) -> None:
        """Outlines drawn as separate LINEs and ARCs: on each layer, the faces they enclose become closed
        outlines; the lines that enclose nothing stay open outlines (ends within :data:`CLOSE_TOLERANCE_FT`
        meet)."""
        for layer, lines in self.segments.items():
            noded = shapely.set_precision(shapely.union_all(lines), CLOSE_TOLERANCE_FT)
            faces, cuts, dangles, invalid = shapely.polygonize_full([noded])
            self.shapes.extend(_Shape(layer, face) for face in faces.geoms)
            loose = shapely.line_merge(shapely.union_all([cuts, dangles, invalid]))
            if not loose.is_empty:
                parts = loose.geoms if hasattr(loose, "geoms") else [loose]
                self.shapes.extend(_Shape(layer, part) for part in parts if part.geom_type == "LineString")

    def _insert(self, e, layer: str, depth: int) -> None:
        """A block's polylines and texts, placed where the INSERT puts them (nested blocks in turn)."""
        for attrib in e.attribs:
            self._text(attrib, "ATTRIB", printable_name(attrib.dxf.get("layer", layer)))
        block = e.block()
        if block is None or depth >= MAX_BLOCK_DEPTH:
            return
        try:
            inserts = list(e.multi_insert()) if e.mcount > 1 else [e]
            children = []
            for one in inserts:
                matrix = one.matrix44()
                for child in block:
                    if child.dxftype() in _READ:
                        copy = child.copy()
                        copy.transform(matrix)
                        children.append(copy)
        except Exception:  # noqa: BLE001 -- ezdxf refuses some transformations (non-uniform scaling of arcs)
            self.skipped_blocks += 1
            return
        for child in children:
            self.entity(child, layer, depth + 1)

    def _polyline(self, e, kind: str) -> BaseGeometry | None:
        if kind == "LWPOLYLINE":
            pts = [(x, y, b) for x, y, b in e.get_points("xyb")]
            closed = bool(e.closed)
            ocs = e.ocs()
        else:
            if not (e.is_2d_polyline or e.is_3d_polyline):
                return None  # polyface and polygon meshes are not outlines
            pts = [(v.dxf.location.x, v.dxf.location.y, v.dxf.get("bulge", 0.0) if e.is_2d_polyline else 0.0)
                   for v in e.vertices]
            closed = bool(e.is_closed)
            ocs = e.ocs() if e.is_2d_polyline else None
        if len(pts) < 2:
            return None
        if not closed and len(pts) >= 3 and math.dist(pts[0][:2], pts[-1][:2]) <= CLOSE_TOLERANCE_FT / self.scale:
            closed = True
            pts = pts[:-1]
        xy = _densify(pts, closed)
        if ocs is not None and ocs.transform:
            xy = [tuple(ocs.to_wcs((x, y, 0.0)))[:2] for x, y in xy]
        arr = np.asarray(xy, dtype=float) * self.scale
        if closed:
            if len(arr) < 3:
                return None
            return Polygon(arr)
        return LineString(arr)

    def _text(self, e, kind: str, layer: str) -> None:
        try:
            if kind == "MTEXT":
                text = e.plain_text()
                point = e.dxf.insert
            else:
                text = e.plain_text()
                aligned = (e.dxf.get("halign", 0) or e.dxf.get("valign", 0)) and e.dxf.hasattr("align_point")
                point = e.ocs().to_wcs(e.dxf.align_point if aligned else e.dxf.insert)
        except Exception:  # noqa: BLE001 -- a damaged text is no label
            return
        text = " ".join(str(text).split())
        if text:
            self.texts.append(_Text(layer, Point(point.x * self.scale, point.y * self.scale), printable_name(text)))


def _circle_points(e, sweep_degrees: float, start_degrees: float = 0.0) -> list[tuple[float, float]]:
    """Points along a CIRCLE or ARC (counter-clockwise from its start angle, in its OCS), ends included, in WCS."""
    cx, cy = e.dxf.center.x, e.dxf.center.y
    r = e.dxf.radius
    steps = max(MIN_ARC_STEPS, math.ceil(sweep_degrees / MAX_ARC_STEP_DEGREES))
    pts = [(cx + r * math.cos(math.radians(start_degrees + sweep_degrees * k / steps)),
            cy + r * math.sin(math.radians(start_degrees + sweep_degrees * k / steps))) for k in range(steps + 1)]
    ocs = e.ocs()
    if ocs.transform:
        pts = [tuple(ocs.to_wcs((x, y, e.dxf.center.z)))[:2] for x, y in pts]
    return pts


def _densify(pts: list[tuple[float, float, float]], closed: bool) -> list[tuple[float, float]]:
    """The polyline's points with every bulged segment replaced by points along its true arc."""
    out: list[tuple[float, float]] = []
    n = len(pts)
    segments = n if closed else n - 1
    for i in range(segments):
        x0, y0, bulge = pts[i]
        x1, y1, _ = pts[(i + 1) % n]
        out.append((x0, y0))
        if bulge and abs(bulge) > 1e-12 and (x0, y0) != (x1, y1):
            out.extend(_arc_points((x0, y0), (x1, y1), bulge))
    if not closed:
        out.append(pts[-1][:2])
    return out


def _arc_points(p0: tuple[float, float], p1: tuple[float, float], bulge: float) -> list[tuple[float, float]]:
    """The points strictly between ``p0`` and ``p1`` along the arc of this bulge (tan of a quarter of the
    signed sweep; positive is counter-clockwise)."""
    sweep = 4.0 * math.atan(bulge)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    chord = math.hypot(dx, dy)
    offset = (chord / 2.0) / math.tan(sweep / 2.0)  # from the chord's middle to the centre, leftwards
    cx = (p0[0] + p1[0]) / 2.0 - dy / chord * offset
    cy = (p0[1] + p1[1]) / 2.0 + dx / chord * offset
    radius = math.hypot(p0[0] - cx, p0[1] - cy)
    start = math.atan2(p0[1] - cy, p0[0] - cx)
    steps = max(MIN_ARC_STEPS, math.ceil(abs(sweep) / math.radians(MAX_ARC_STEP_DEGREES)))
    return [(cx + radius * math.cos(start + sweep * k / steps), cy + radius * math.sin(start + sweep * k / steps))
            for k in range(1, steps)]
