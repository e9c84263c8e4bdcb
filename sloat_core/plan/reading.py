"""The plan door: :func:`read_plan` reads a proposed plat or site plan, as engineers make it, into a
:class:`~sloat_core.plan.drawing.PlanDrawing` in EPSG:2260 US survey feet, or refuses it in one sentence.

Formats: DXF (:mod:`sloat_core.plan.dxf`), GeoPackage, GeoJSON and zipped shapefiles
(:mod:`sloat_core.plan.gis_files`); a DWG is refused (save it as DXF). The bounds are the parcel files': the
size is checked here, in the calling process, and everything else runs in a worker process under
:data:`~sloat_core.gis.bounded_parse.PARSE_LIMITS`.

Then, for every format alike:

* the roles: layers are matched to roles by the one table of :mod:`sloat_core.plan.layer_roles`, or by the
  caller's ``roles``; no lots layer raises :class:`~sloat_core.errors.NoLotsLayerError` carrying the layers;
* the outlines: a polygon is closed; a line is closed when its ends meet (within
  :data:`~sloat_core.plan.dxf.CLOSE_TOLERANCE_FT`), else it stays an open LineString (``closed=False``);
  points are left out; a self-crossing outline is repaired, with a warning;
* the place: every outline in a role must lie within :data:`VILLAGE_PLAUSIBLE_BOUNDS_2260`; a drawing in local
  coordinates (a plat drawn around 0,0) is refused, never placed;
* the labels: a lot's TEXT/MTEXT inside it, else its ``lot`` attribute, else a number 1..N in reading order
  (numbers already used as labels are skipped).
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

import numpy as np
import shapely
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.bounded_parse import run_bounded
from sloat_core.gis.geometry import polygonal_part, repair_outline
from sloat_core.gis.parcels.placement import MAX_VERTICES, check_vertices
from sloat_core.gis.safe_files import MAX_UPLOAD_BYTES, check_upload_size, private_tempdir, safe_display_name
from sloat_core.plan.drawing import PlanDrawing, PlanFeature
from sloat_core.plan.dxf import CLOSE_TOLERANCE_FT, _Drawing, _Shape, _Text, read_dxf_plan
from sloat_core.plan.gis_files import read_geojson_plan, read_gpkg_plan, read_zip_plan
from sloat_core.plan.layer_roles import assign_roles, layer_key

__all__ = ["read_plan", "VILLAGE_PLAUSIBLE_BOUNDS_2260"]

VILLAGE_PLAUSIBLE_BOUNDS_2260 = (558_000.0, 827_000.0, 598_000.0, 870_000.0)
"""(minx, miny, maxx, maxy), EPSG:2260 US survey feet, where a plan's outlines must lie: the sample village
boundary's extent (574,269-581,773 E, 842,950-853,954 N) with a 3-mile (15,840 ft) margin on every side,
rounded outwards to the thousand feet. A plat in local coordinates (0,0 at a corner) is nowhere near it."""

_DWG = re.compile(rb"^AC(1\d{3}|[12]\.\d\d)")
_BINARY_DXF = b"AutoCAD Binary DXF"
_LOT_LABEL = re.compile(r"^(lot\s*(no\.?|#)?\s*)?[a-z]?\d{1,4}[a-z]?$", re.IGNORECASE)


def read_plan(
    path: bytes | str | Path,
    *,
    roles: dict[str, str] | None = None,
    filename: str | None = None,
    max_bytes: int = MAX_UPLOAD_BYTES,
    max_vertices: int = MAX_VERTICES,
) -> PlanDrawing:
    """Read a plan file (a path on disk, or an upload's bytes) into its features in roles.

    Parameters
    ----------
    path : path or bytes
        The file, or its contents (an upload).
    roles : dict, optional
        ``{role: layer name}`` for layers the table does not know (``{"lots": "MY LAYER"}``); wins over it.
    filename : str, optional
        The file's name, as a format hint (defaults to the path's name).
    max_bytes, max_vertices : int
        The upload limit and the most vertices in all, as for parcel files.

    Returns
    -------
    PlanDrawing

    Raises
    ------
    NoLotsLayerError
        No layer is recognised or chosen as the lots (it carries the file's layers).
    SloatInputError
        Anything else that cannot be read, in one sentence (no path, no traceback).
    """
    if isinstance(path, (bytes, bytearray, memoryview)):
        check_upload_size(len(path), max_bytes)
        raw, name = bytes(path), safe_display_name(filename, "plan")
    else:
        p = Path(path)
        name = safe_display_name(filename or p.name, "plan")
        try:
            if not p.is_file():
                raise SloatInputError(f"The plan file {name} was not found.")
            check_upload_size(p.stat().st_size, max_bytes)
            raw = p.read_bytes()
        except OSError as exc:
            raise SloatInputError(f"The plan file {name} could not be read.") from exc
    if not raw.strip():
        raise SloatInputError(f"The plan file {name} is empty.")
    return run_bounded(_parse, raw, name, dict(roles or {}), max_vertices)


def _sniff(data: bytes, name: str) -> str:
    ext = PurePosixPath(name.lower()).suffix
    if _DWG.match(data[:8]) or ext == ".dwg":
        raise SloatInputError("DWG drawings cannot be read; save the plan as DXF (File > Save As > DXF) and upload that.")
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if data.startswith(b"SQLite format 3\x00"):
        return "gpkg"
    if data.startswith(_BINARY_DXF):
        return "dxf"
    text = data[:4096].lstrip(b"\xef\xbb\xbf").lstrip()
    if text[:1] in (b"{", b"["):
        return "geojson"
    if ext == ".dxf" or re.match(rb"^(999\s*\r?\n.*\r?\n\s*)?0\s*\r?\n\s*SECTION", text):
        return "dxf"
    raise SloatInputError("The plan's file type was not recognised; upload a DXF drawing, a GeoPackage, GeoJSON or "
                          "zipped shapefiles.")


def _parse(raw: bytes, name: str, roles: dict[str, str], max_vertices: int) -> PlanDrawing:
    """The parse proper (in the worker process)."""
    fmt = _sniff(raw, name)
    if fmt == "geojson":
        drawing = read_geojson_plan(raw, max_vertices)
    elif fmt == "gpkg":
        drawing = read_gpkg_plan(raw)
    elif fmt == "zip":
        drawing = read_zip_plan(raw)
    else:
        with private_tempdir() as tmp:
            path = tmp / "plan.dxf"
            path.write_bytes(raw)
            drawing = read_dxf_plan(path)
    return _assemble(drawing, roles, max_vertices)


def _assemble(drawing: _Drawing, override: dict[str, str], max_vertices: int) -> PlanDrawing:
    layers = tuple(drawing.layers)
    role_of, warnings = assign_roles(layers, override)
    warnings = drawing.warnings + warnings
    by_layer = {layer: role for role, layer in role_of.items()}
    taken: list[tuple[str, _Shape, BaseGeometry, bool]] = []
    dropped = 0
    for s in drawing.shapes:
        role = by_layer.get(s.layer)
        if role is None:
            continue
        outlines = _outlines(s.geometry)
        dropped += not outlines
        taken.extend((role, s, geom, closed) for geom, closed in outlines)
    if dropped:
        warnings.append(f"{dropped} point shape(s) on the plan's layers were left out; only outlines are read.")
    if not any(role == "lots" for role, *_ in taken):
        raise SloatInputError(f"The plan's lots layer '{role_of['lots']}' holds no lot outlines.")
    geoms = np.asarray([g for _, _, g, _ in taken], dtype=object)
    check_vertices(int(shapely.get_num_coordinates(geoms).sum()), max_vertices)
    _check_place(geoms)
    repaired, features = 0, []
    for role, s, geom, closed in taken:
        if closed and not geom.is_valid:
            geom, repaired = repair_outline(geom), repaired + 1
            if geom.is_empty:
                continue
        features.append(PlanFeature(role=role, label=s.lot, geometry=geom, closed=closed, source_layer=s.layer))
    if repaired:
        warnings.append(f"{repaired} self-crossing outline(s) were repaired before they were measured.")
    features, label_warnings = _label_lots(features, drawing.texts, role_of["lots"])
    return PlanDrawing(features=tuple(features), layers=layers, roles=role_of,
                       warnings=tuple(dict.fromkeys(warnings + label_warnings)))


def _outlines(geom: BaseGeometry) -> list[tuple[BaseGeometry, bool]]:
    """(outline, closed) for each outline of a shape: polygons as they are, lines closed when their ends meet."""
    if geom is None or geom.is_empty:
        return []
    geom = shapely.force_2d(geom)
    kind = geom.geom_type
    if kind in ("Polygon", "MultiPolygon"):
        return [(geom, True)]
    if kind == "LineString":
        coords = list(geom.coords)
        if len(coords) >= 4 and np.hypot(*np.subtract(coords[0], coords[-1])) <= CLOSE_TOLERANCE_FT:
            return [(Polygon(coords[:-1] + [coords[0]]), True)]
        return [(geom, False)] if len(coords) >= 2 else []
    if kind == "MultiLineString":
        return [o for part in geom.geoms for o in _outlines(part)]
    if kind == "GeometryCollection":
        poly = polygonal_part(geom)
        lines = [p for p in geom.geoms if isinstance(p, (LineString, MultiLineString))]
        return ([(poly, True)] if not poly.is_empty else []) + [o for part in lines for o in _outlines(part)]
    return []


def _check_place(geoms: np.ndarray) -> None:
    coords = shapely.get_coordinates(geoms)
    if not np.isfinite(coords).all():
        raise SloatInputError("The plan has coordinates that are not numbers (NaN or infinite).")
    lo_x, lo_y, hi_x, hi_y = VILLAGE_PLAUSIBLE_BOUNDS_2260
    minx, miny, maxx, maxy = shapely.total_bounds(geoms)
    if minx < lo_x or miny < lo_y or maxx > hi_x or maxy > hi_y:
        raise SloatInputError(
            "The plan's coordinates are not New York East state-plane feet near the Village of Sloatsburg (a "
            "drawing in local coordinates, such as one drawn around 0,0, cannot be placed), so it was refused."
        )


def _label_lots(features: list[PlanFeature], texts: list[_Text], lots_layer: str) -> tuple[list[PlanFeature], list[str]]:
    """Each lot's label: its text, else its ``lot`` attribute, else the next free number in reading order."""
    warnings: list[str] = []
    out: list[PlanFeature] = []
    for f in features:
        if f.role == "lots" and f.closed and texts:
            label, several = _text_label(f.geometry, texts, lots_layer)
            if label is not None:
                if several:
                    warnings.append(f"The lot labelled '{label}' holds several texts that could be its label "
                                    "({}); the first was used.".format(", ".join(several)))
                f = PlanFeature(f.role, label, f.geometry, f.closed, f.source_layer)
        out.append(f)
    used = {f.label for f in out if f.role == "lots" and f.label is not None}
    number = 0
    for i, f in enumerate(out):
        if f.role == "lots" and f.label is None:
            number += 1
            while str(number) in used:
                number += 1
            out[i] = PlanFeature(f.role, str(number), f.geometry, f.closed, f.source_layer)
    return out, warnings


def _text_label(lot: BaseGeometry, texts: list[_Text], lots_layer: str) -> tuple[str | None, list[str]]:
    """The text inside ``lot`` that labels it, and the other candidates of the same rank.

    Ranked: a lot-number text ("3", "LOT 3", "12A") on the lots layer or a layer named after it
    (``C-PROP-LOTS-TEXT``); a lot-number text on any layer; any text on the lots layer; the only text inside.
    """
    inside = [t for t in texts if lot.contains(t.point)]
    if not inside:
        return None, []
    key = layer_key(lots_layer)

    def rank(t: _Text) -> int:
        own = layer_key(t.layer) == key or layer_key(t.layer).startswith(key + "-")
        number = bool(_LOT_LABEL.match(t.text))
        return 0 if own and number else 1 if number else 2 if own else 3

    best = min(rank(t) for t in inside)
    if best == 3 and len(inside) > 1:
        return None, []
    tier = list(dict.fromkeys(t.text for t in inside if rank(t) == best))
    return tier[0], tier[1:]
