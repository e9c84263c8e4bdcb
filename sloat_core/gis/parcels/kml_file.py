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
from sloat_core.gis.parcels.file_limits import ALL_SHAPES, MAX_FEATURES, _printable
from sloat_core.gis.parcels.placement import (
    _check_vertices,
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


def _read_kml(data: bytes, kind: str, max_vertices: int, choose: int | str | None) -> _Raw:
    """Only the placemarks' geometries, read as the XML streams in (vertices counted as they arrive).

    Overlays (ground, screen, photo: an aerial image's frame is not land), network links (never followed),
    styles, models and tracks are skipped whole. A file of several polygon placemarks needs ``choose``.
    """
    stack: list[str] = []
    skip_depth = 0
    vertices = 0
    placemarks: list[tuple[str, list[BaseGeometry]]] = []
    others: list[BaseGeometry] = []
    current: list[BaseGeometry] | None = None
    name: str | None = None
    polygon: dict[str, Any] | None = None
    ring_role: str | None = None
    root_seen = False
    try:
        for event, elem in ET.iterparse(io.BytesIO(data), events=("start", "end")):
            tag = _local(elem.tag)
            if event == "start":
                if not root_seen:
                    root_seen = True
                    if tag != "kml":
                        raise SloatInputError(f"The file could not be read as {kind}.")
                stack.append(tag)
                if skip_depth or tag in _KML_SKIP:
                    skip_depth += 1
                    continue
                if tag == "Placemark" and current is None:
                    current, name = [], None
                elif current is not None and tag == "Polygon":
                    polygon = {"outer": None, "inner": []}
                elif polygon is not None and tag in ("outerBoundaryIs", "innerBoundaryIs"):
                    ring_role = tag
                continue
            stack.pop()
            if skip_depth:
                skip_depth -= 1
                elem.clear()
                continue
            if current is None:
                if tag in ("Document", "Folder"):
                    elem.clear()
                continue
            if tag == "name" and stack and stack[-1] == "Placemark":
                name = (elem.text or "").strip() or None
            elif tag == "coordinates":
                pts = _kml_coords(elem.text)
                vertices += len(pts)
                _check_vertices(vertices, max_vertices)
                parent = stack[-1] if stack else ""
                if polygon is not None and parent == "LinearRing":
                    if ring_role == "innerBoundaryIs":
                        polygon["inner"].append(pts)
                    elif polygon["outer"] is None:
                        polygon["outer"] = pts
                elif parent == "LineString" and len(pts) >= 2:
                    others.append(LineString(pts))
                elif parent == "Point" and pts:
                    others.append(Point(pts[0]))
                elem.clear()
            elif tag in ("outerBoundaryIs", "innerBoundaryIs"):
                ring_role = None
            elif tag == "Polygon" and polygon is not None:
                if polygon["outer"] and len(polygon["outer"]) >= 3:
                    holes = [h for h in polygon["inner"] if len(h) >= 3]
                    current.append(Polygon(polygon["outer"], holes))
                polygon = None
            elif tag == "Placemark":
                if current:
                    placemarks.append((name or "", current))
                current = None
                elem.clear()
                if len(placemarks) + len(others) > MAX_FEATURES:
                    raise SloatInputError(
                        f"The file holds more than the {MAX_FEATURES:,} shapes a parcel file may hold."
                    )
    except SloatInputError:
        raise
    except (ET.ParseError, ValueError, TypeError) as exc:
        raise SloatInputError(f"The file could not be read as {kind}.") from exc
    if not root_seen:
        raise SloatInputError(f"The file could not be read as {kind}.")
    warnings: list[str] = []
    if len(placemarks) > 1:
        labels = [_printable(n) if n else f"polygon {i + 1}" for i, (n, _) in enumerate(placemarks)]
        labels = [f"{lab} ({_rough_acres(g)})" for lab, (_, g) in zip(labels, placemarks)]
        if choose is None:
            raise SeveralShapesError(labels)
        if choose == ALL_SHAPES:
            geoms = [g for _, gs in placemarks for g in gs]
        else:
            try:
                index = int(choose)
                if not 0 <= index < len(placemarks):
                    raise IndexError(index)
            except (TypeError, ValueError, IndexError) as exc:
                raise SloatInputError("The polygon chosen is not one of the file's polygons.") from exc
            geoms = list(placemarks[index][1])
            warnings.append(f"The parcel is polygon {index + 1} of the file's {len(placemarks)}: {labels[index]}.")
        others = []
    else:
        geoms = [g for _, gs in placemarks for g in gs]
    return _Raw(geoms + others, CRS.from_epsg(4326), kind, warnings)


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
