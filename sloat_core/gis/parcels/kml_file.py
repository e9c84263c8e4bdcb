"""KML parcels, read as a stream: only placemarks' geometries, vertices counted as they arrive; overlays,
network links, styles, models and tracks skipped."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import shapely
from pyproj import CRS
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SeveralShapesError, SloatInputError
from sloat_core.gis.parcels.file_limits import ALL_SHAPES, MAX_FEATURES, printable_name
from sloat_core.gis.parcels.placement import (
    check_vertices,
    _Raw,
    _transformer,
)
from sloat_core.units import SQFT_PER_ACRE, WGS84, WORK_CRS

_KML_SKIP = {"GroundOverlay", "ScreenOverlay", "PhotoOverlay", "NetworkLink", "Style", "StyleMap", "Region",
             "LookAt", "Camera", "Model", "Track", "MultiTrack", "LatLonQuad", "LatLonBox", "ExtendedData"}


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _kml_coords(text: str | None) -> list[tuple[float, ...]]:
    out = []
    for token in (text or "").split():
        parts = token.split(",")
        if len(parts) < 2:
            raise SloatInputError("The KML file has a coordinate that is not a longitude,latitude pair.")
        try:
            out.append(tuple(float(v) for v in parts[:3]))
        except ValueError as exc:
            raise SloatInputError("The KML file has a coordinate that is not a number.") from exc
    return out


_RING_ROLES = ("outerBoundaryIs", "innerBoundaryIs")


class _KmlStream:
    """What the reader holds as the XML streams in: the open tags, the skipped depth, the vertices counted, the
    placemarks read, the loose lines and points, and the placemark, name, polygon and ring being read."""

    def __init__(self, kind: str, max_vertices: int) -> None:
        self.kind = kind
        self.max_vertices = max_vertices
        self.stack: list[str] = []
        self.skip_depth = 0
        self.vertices = 0
        self.placemarks: list[tuple[str, list[BaseGeometry]]] = []
        self.others: list[BaseGeometry] = []
        self.current: list[BaseGeometry] | None = None
        self.name: str | None = None
        self.polygon: dict[str, Any] | None = None
        self.ring_role: str | None = None
        self.root_seen = False

    def start(self, tag: str) -> None:
        """A tag opens: the root must be ``kml``; a skipped tag skips all within; a placemark, polygon or ring begins."""
        if not self.root_seen:
            self.root_seen = True
            if tag != "kml":
                raise SloatInputError(f"The file could not be read as {self.kind}.")
        self.stack.append(tag)
        if self.skip_depth or tag in _KML_SKIP:
            self.skip_depth += 1
        elif tag == "Placemark" and self.current is None:
            self.current, self.name = [], None
        elif self.current is not None and tag == "Polygon":
            self.polygon = {"outer": None, "inner": []}
        elif self.polygon is not None and tag in _RING_ROLES:
            self.ring_role = tag

    def end(self, tag: str, elem: ET.Element) -> None:
        """A tag closes: skipped ones and those outside a placemark are let go; within one, it is read."""
        self.stack.pop()
        if self.skip_depth:
            self.skip_depth -= 1
            elem.clear()
        elif self.current is None:
            if tag in ("Document", "Folder"):
                elem.clear()
        else:
            self._end_in_placemark(tag, elem)

    def _end_in_placemark(self, tag: str, elem: ET.Element) -> None:
        if tag == "name" and self.stack and self.stack[-1] == "Placemark":
            self.name = (elem.text or "").strip() or None
        elif tag == "coordinates":
            self._coordinates(elem)
        elif tag in _RING_ROLES:
            self.ring_role = None
        elif tag == "Polygon" and self.polygon is not None:
            self._end_polygon(self.polygon, self.current)
        elif tag == "Placemark":
            self._end_placemark(elem)

    def _coordinates(self, elem: ET.Element) -> None:
        """A geometry's vertices, counted against the limit, then kept by the kind of geometry they belong to."""
        pts = _kml_coords(elem.text)
        self.vertices += len(pts)
        check_vertices(self.vertices, self.max_vertices)
        parent = self.stack[-1] if self.stack else ""
        if self.polygon is not None and parent == "LinearRing":
            self._ring(self.polygon, pts)
        elif parent == "LineString" and len(pts) >= 2:
            self.others.append(LineString(pts))
        elif parent == "Point" and pts:
            self.others.append(Point(pts[0]))
        elem.clear()

    def _ring(self, polygon: dict[str, Any], pts: list[tuple[float, ...]]) -> None:
        """A polygon's ring: a hole, or its outer ring (the first one only)."""
        if self.ring_role == "innerBoundaryIs":
            polygon["inner"].append(pts)
        elif polygon["outer"] is None:
            polygon["outer"] = pts

    def _end_polygon(self, polygon: dict[str, Any], current: list[BaseGeometry]) -> None:
        """A polygon of an outer ring of 3 vertices or more (holes of fewer left out) joins its placemark."""
        outer = polygon["outer"]
        if outer and len(outer) >= 3:
            holes = [h for h in polygon["inner"] if len(h) >= 3]
            current.append(Polygon(outer, holes))
        self.polygon = None

    def _end_placemark(self, elem: ET.Element) -> None:
        """A placemark with polygons is kept under its name; the shapes are counted against the limit."""
        if self.current:
            self.placemarks.append((self.name or "", self.current))
        self.current = None
        elem.clear()
        if len(self.placemarks) + len(self.others) > MAX_FEATURES:
            raise SloatInputError(
                f"The file holds more than the {MAX_FEATURES:,} shapes a parcel file may hold."
            )


def _stream_kml(data: bytes, kind: str, max_vertices: int) -> _KmlStream:
    """The file read as it streams in; any refusal is the first one met, in the file's order."""
    reader = _KmlStream(kind, max_vertices)
    try:
        for event, elem in ET.iterparse(io.BytesIO(data), events=("start", "end")):
            tag = _local(elem.tag)
            if event == "start":
                reader.start(tag)
            else:
                reader.end(tag, elem)
    except SloatInputError:
        raise
    except (ET.ParseError, ValueError, TypeError) as exc:
        raise SloatInputError(f"The file could not be read as {kind}.") from exc
    if not reader.root_seen:
        raise SloatInputError(f"The file could not be read as {kind}.")
    return reader


def _chosen_index(choose: int | str, count: int) -> int:
    try:
        index = int(choose)
        if not 0 <= index < count:
            raise IndexError(index)
    except (TypeError, ValueError, IndexError) as exc:
        raise SloatInputError("The polygon chosen is not one of the file's polygons.") from exc
    return index


def _chosen_shapes(placemarks: list[tuple[str, list[BaseGeometry]]], others: list[BaseGeometry],
                   choose: int | str | None) -> tuple[list[BaseGeometry], list[str]]:
    """The shapes kept and the warnings: of several polygon placemarks, the one chosen (or all), lines and points
    left out; else all the file's shapes."""
    if len(placemarks) <= 1:
        return [g for _, gs in placemarks for g in gs] + others, []
    labels = [printable_name(n) if n else f"polygon {i + 1}" for i, (n, _) in enumerate(placemarks)]
    labels = [f"{lab} ({_rough_acres(g)})" for lab, (_, g) in zip(labels, placemarks)]
    if choose is None:
        raise SeveralShapesError(labels)
    if choose == ALL_SHAPES:
        return [g for _, gs in placemarks for g in gs], []
    index = _chosen_index(choose, len(placemarks))
    return (list(placemarks[index][1]),
            [f"The parcel is polygon {index + 1} of the file's {len(placemarks)}: {labels[index]}."])


def _read_kml(data: bytes, kind: str, max_vertices: int, choose: int | str | None) -> _Raw:
    """Only the placemarks' geometries, read as the XML streams in (vertices counted as they arrive).

    Overlays (ground, screen, photo: an aerial image's frame is not land), network links (never followed),
    styles, models and tracks are skipped whole. A file of several polygon placemarks needs ``choose``.
    """
    reader = _stream_kml(data, kind, max_vertices)
    geoms, warnings = _chosen_shapes(reader.placemarks, reader.others, choose)
    return _Raw(geoms, CRS.from_epsg(4326), kind, warnings)


def _rough_acres(geoms: list[BaseGeometry]) -> str:
    """A polygon's size in plain words, for the list a user chooses from (longitude/latitude near Sloatsburg)."""
    try:
        tr = _transformer(WGS84, WORK_CRS)
        area = sum(float(shapely.transform(shapely.force_2d(g), lambda xy: np.column_stack(tr.transform(xy[:, 0], xy[:, 1]))).area)
                   for g in geoms)
    except Exception:  # noqa: BLE001 -- only a label
        return "size unknown"
    if not math.isfinite(area):
        return "size unknown"
    return f"about {area / SQFT_PER_ACRE:,.2f} acres"
