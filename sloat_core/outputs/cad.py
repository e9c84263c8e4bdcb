"""The parcel and its constraint lines back to CAD and GIS: DXF, GeoPackage and zipped shapefiles.

One layer per constraint of the § 402-45 deduction table, plus the parcel line and the land that does not
count. The shapes are the analysis's own pieces (what the GeoJSON export and the report draw,
`sloat_core.measure.lot_area.DeductionRow.geometry`): each piece of land is on one layer only, the layer of
its lowest countable share (overlaps count once), so the areas on the layers are the deduction table's areas
and add up to the land that does not count. Coordinates are EPSG:2260 (NAD83 / New York East, US survey
feet), as the analysis measures them, never moved or rounded.

* **DXF** (``ezdxf``): each ring a closed LWPOLYLINE on its layer (an outline counter-clockwise, each hole
  its own closed polyline inside it, clockwise; a MultiPolygon as several outlines); ``$INSUNITS`` 21 (US
  survey feet), ``$MEASUREMENT`` 0 (imperial); layer colours that print on white paper; notes (the screening
  caveat, what is unknown, what was omitted) as TEXT on the ``SLOAT-NOTES`` layer.
* **GeoPackage**: one layer per constraint in EPSG:2260, and the notes as a table without geometry.
* **.zip**: one shapefile per layer, each with its ``.prj`` (EPSG:2260), and the notes in ``README.txt``.

A constraint with no land on the parcel gets no layer (what CAD users expect: no empty layers); one that is
unknown (its layer missing or not covering the parcel) gets none either, and each is named in the notes.
"""

from __future__ import annotations

import datetime as dt
import io
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from sloat_core.engine.result import parcel_result
from sloat_core.errors import SloatInputError
from sloat_core.gis.geometry import GRID_FT, area_sqft, polygonal
from sloat_core.measure.rows import ROW_IDS, ROW_SPECS, deduction_label
from sloat_core.units import WORK_CRS

__all__ = ["CadLayer", "CAD_LAYERS", "NOTES_LAYER", "FORMATS", "ConstraintLayers", "constraint_layers",
           "constraints_dxf", "constraints_gpkg", "constraints_zip", "constraint_file", "check_output_path"]


@dataclass(frozen=True)
class CadLayer:
    """One layer of the CAD and GIS files: its key (a deduction row's id, ``parcel`` or ``not_counted``),
    its layer name, its AutoCAD Color Index (ACI) colour and what it holds, in words."""

    key: str
    name: str
    aci: int
    holds: str

    def what(self, on: dt.date) -> str:
        """What the layer holds: a deduction row's own label (its law numbers read from the parameters as in effect
        ``on`` the analysis's date) with the row's clause, or the words declared for the other layers."""
        return f"{deduction_label(self.key, on)}, {self.holds}" if self.key in ROW_IDS else self.holds


#: Every layer the files can hold, in drawing order (bottom first), declared once: name, ACI colour (each
#: dark enough to print on white paper: never white 7 or yellow 2), and what it holds (a deduction row's layer:
#: its clause; the row's label is the row's own).
CAD_LAYERS: tuple[CadLayer, ...] = (
    CadLayer("not_counted", "SLOAT-NOT-COUNTED", 230,
             "Land that does not count toward minimum lot area, in whole or in part (§ 402-45): every piece below"),
    CadLayer("floodplain", "SLOAT-FLOODPLAIN", 142, "§ 402-45A(1)"),
    CadLayer("buffer", "SLOAT-WETLAND-BUFFER", 84, "§ 402-45A(1)"),
    CadLayer("slope_25_40", "SLOAT-SLOPE-OVER-25", 32, "§ 402-45A(2)(a)"),
    CadLayer("slope_over_40", "SLOAT-SLOPE-OVER-40", 1, "§ 402-45A(2)(b)"),
    CadLayer("rock_outcrops", "SLOAT-ROCK-OUTCROP", 202, "§ 402-45A(3)"),
    CadLayer("wetlands", "SLOAT-WETLAND", 96, "§ 402-45A(1)"),
    CadLayer("water_bodies", "SLOAT-WATER-BODY", 162, "§ 402-45A(1)"),
    CadLayer("watercourses", "SLOAT-WATERCOURSE", 5, "§ 402-45A(1)"),
    CadLayer("parcel", "SLOAT-PARCEL", 250, "The parcel line"),
)
#: The layer of the notes (TEXT in the DXF).
NOTES_LAYER = CadLayer("notes", "SLOAT-NOTES", 251, "Notes: the screening caveat, what is unknown or omitted")
_BY_KEY = {c.key: c for c in CAD_LAYERS}

#: The output formats, by file extension.
FORMATS = (".dxf", ".gpkg", ".zip")

#: DXF header values: $INSUNITS 21 is US survey feet; $MEASUREMENT 0 is imperial.
INSUNITS_US_SURVEY_FEET = 21
MEASUREMENT_IMPERIAL = 0
#: Height of the notes' text, feet.
NOTE_HEIGHT_FT = 4.0


@dataclass(frozen=True)
class Piece:
    """One layer's land, its attributes (the GeoPackage's and shapefiles' fields) and what the layer holds, in
    words (`CadLayer.what` on the analysis's date: the DXF layer's description, the ``what`` field)."""

    layer: CadLayer
    geometry: BaseGeometry  # Polygon or MultiPolygon, EPSG:2260
    attributes: dict
    what: str


@dataclass(frozen=True)
class ConstraintLayers:
    """What the files hold: the layers with land, and the notes (one sentence each).

    ``omitted`` lists the constraints with no land on the parcel; ``unknown`` one sentence per constraint
    that could not be measured (no layer written for it); ``cautions`` what a layer written may lack (a buffer
    drawn around only the water layers loaded, the land that does not count without what is unknown).
    """

    pieces: tuple[Piece, ...]
    omitted: tuple[str, ...]
    unknown: tuple[str, ...]
    caveat: tuple[str, ...] = field(default=())
    cautions: tuple[str, ...] = field(default=())

    @property
    def notes(self) -> list[str]:
        out = list(self.caveat) + list(self.unknown) + list(self.cautions)
        if self.omitted:
            out.append("Nothing on this parcel, so no layer: " + "; ".join(self.omitted) + ".")
        return out


def _unknown_sentence(row, layer: CadLayer) -> str:
    spec = ROW_SPECS[row.constraint]
    if spec.land == "slope":
        why = "no elevation model covers the parcel"
    elif row.known_area_sqft is not None:
        why = (f"its layer maps only part of the parcel (at least {row.known_area_sqft:,.0f} sq ft of it "
               "on the land mapped)")
    elif spec.land == "buffer":
        why = "a water layer it is drawn around is not loaded or does not cover the parcel"
    else:
        why = "its layer is not loaded or does not cover the parcel"
    return f"{row.label} is unknown ({why}), so there is no {layer.name} layer."


def constraint_layers(analysis) -> ConstraintLayers:
    """The parcel, each constraint piece of the analysis and the land that does not count, as layers.

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis

    Returns
    -------
    ConstraintLayers
        Pieces in the order of `CAD_LAYERS` (bottom first); a constraint without land is omitted, one that
        is unknown is a note.
    """
    r = parcel_result(analysis.result)
    on = r.as_of  # the layers' words state the law the analysis applied
    rows = {row.constraint: row for row in analysis.lot.rows}
    pieces: dict[str, Piece] = {}
    omitted: list[str] = []
    unknown: list[str] = []
    cautions: list[str] = []
    status = {d.constraint: d for d in r.deductions}
    for constraint in ROW_IDS:
        row = rows[constraint]
        layer = _BY_KEY[constraint]
        if row.area_sqft is None:
            unknown.append(_unknown_sentence(row, layer))
            continue
        geom = polygonal(row.geometry)
        if geom.is_empty or not row.area_sqft:
            omitted.append(f"{row.label} ({layer.name})")
            continue
        pieces[constraint] = Piece(layer, geom, {
            "constraint": constraint, "label": row.label, "area_sqft": round(row.area_sqft, 2),
            "countable": row.countable_fraction, "ded_sqft": round(row.deducted_sqft or 0.0, 2),
            "citation": row.citation}, layer.what(on))
        shown = status.get(constraint)
        if shown is not None and shown.status == "partial" and shown.note:
            cautions.append(f"{row.label} ({layer.name}): {shown.note}")
    taken = [p.geometry for p in pieces.values()]
    if taken:
        land = polygonal(shapely.union_all(taken, grid_size=GRID_FT))
        pieces["not_counted"] = Piece(_BY_KEY["not_counted"], land, {
            "constraint": "not_counted", "label": "Land that does not count toward minimum lot area",
            "area_sqft": round(sum(p.attributes["area_sqft"] for p in pieces.values()), 2), "countable": None,
            "ded_sqft": round(sum(p.attributes["ded_sqft"] for p in pieces.values()), 2),
            "citation": "§ 402-45A"}, _BY_KEY["not_counted"].what(on))
    if unknown and taken:
        cautions.append("The land that does not count (SLOAT-NOT-COUNTED) leaves out what is unknown.")
    pieces["parcel"] = Piece(_BY_KEY["parcel"], polygonal(analysis.parcel), {
        "constraint": "parcel", "label": "Parcel", "area_sqft": round(r.gross_area_sqft or area_sqft(analysis.parcel), 2),
        "countable": None, "ded_sqft": None, "citation": r.lot_area_citation or "§ 402-45",
        "sbl": r.parcel.sbl, "district": r.district, "net_sqft": _round(r.net_lot_area_sqft)},
        _BY_KEY["parcel"].what(on))
    caveat = ["Article IX screening estimate (Sloatsburg Code ch. 402), not a survey: "
              "EPSG:2260, US survey feet; each piece of land on one layer, at its lowest countable share."]
    if r.layers_illustrative:
        caveat.append(f"Drawn from illustrative sample layers ({r.layers_name}), not official data.")
    ordered = tuple(pieces[c.key] for c in CAD_LAYERS if c.key in pieces)
    return ConstraintLayers(ordered, tuple(omitted), tuple(unknown), tuple(caveat), tuple(cautions))


def _round(x):
    return None if x is None else round(float(x), 2)


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [] if geom.is_empty else [geom]
    if isinstance(geom, MultiPolygon):
        return [g for g in geom.geoms if not g.is_empty]
    return [g for g in shapely.get_parts(polygonal(geom)) if isinstance(g, Polygon) and not g.is_empty]


def _ring_points(ring) -> list[tuple[float, float]]:
    pts = [(float(x), float(y)) for x, y, *_ in ring.coords]
    return pts[:-1] if len(pts) > 1 and pts[0] == pts[-1] else pts


def constraints_dxf(analysis, layers: ConstraintLayers | None = None) -> bytes:
    """The layers as a DXF drawing (R2010, UTF-8): closed LWPOLYLINEs, notes as TEXT on ``SLOAT-NOTES``."""
    import ezdxf

    layers = layers or constraint_layers(analysis)
    doc = ezdxf.new("R2010", setup=True)
    doc.units = INSUNITS_US_SURVEY_FEET
    doc.header["$INSUNITS"] = INSUNITS_US_SURVEY_FEET
    doc.header["$MEASUREMENT"] = MEASUREMENT_IMPERIAL
    msp = doc.modelspace()
    whats = {p.layer.key: p.what for p in layers.pieces}
    for c in (*CAD_LAYERS, NOTES_LAYER):
        if c is NOTES_LAYER or c.key in whats:
            entry = doc.layers.add(c.name, color=c.aci)
            entry.description = whats.get(c.key, c.holds)
    for p in layers.pieces:
        for poly in _polygons(p.geometry):
            poly = orient(poly, 1.0)  # outline counter-clockwise, holes clockwise
            for ring in (poly.exterior, *poly.interiors):
                pts = _ring_points(ring)
                if len(pts) >= 3:
                    msp.add_lwpolyline(pts, format="xy", close=True, dxfattribs={"layer": p.layer.name})
    minx, miny, _, _ = analysis.parcel.bounds
    for i, note in enumerate(layers.notes):
        text = msp.add_text(note, height=NOTE_HEIGHT_FT, dxfattribs={"layer": NOTES_LAYER.name})
        text.set_placement((minx, miny - (i + 2) * NOTE_HEIGHT_FT * 1.8))
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode("utf-8")


def _frames(layers: ConstraintLayers):
    import geopandas as gpd

    for p in layers.pieces:
        attrs = {k: [v] for k, v in p.attributes.items()}
        attrs["what"] = [p.what]
        yield p.layer.name, gpd.GeoDataFrame(attrs, geometry=[p.geometry], crs=WORK_CRS)


def constraints_gpkg(analysis, layers: ConstraintLayers | None = None) -> bytes:
    """The layers as a GeoPackage in EPSG:2260, one layer each, and the notes as the table ``SLOAT-NOTES``."""
    import pandas as pd
    import pyogrio

    layers = layers or constraint_layers(analysis)
    with tempfile.TemporaryDirectory(prefix="sloat-cad-") as tmp:
        path = Path(tmp) / "constraints.gpkg"
        for name, frame in _frames(layers):
            pyogrio.write_dataframe(frame, path, layer=name, driver="GPKG", promote_to_multi=True)
        pyogrio.write_dataframe(pd.DataFrame({"note": layers.notes}), path, layer=NOTES_LAYER.name, driver="GPKG")
        return path.read_bytes()


def constraints_zip(analysis, layers: ConstraintLayers | None = None) -> bytes:
    """The layers as zipped shapefiles, one per layer, each with its ``.prj``; the notes in ``README.txt``."""
    import pyogrio

    layers = layers or constraint_layers(analysis)
    buf = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="sloat-cad-") as tmp, \
            zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, frame in _frames(layers):
            path = Path(tmp) / f"{name}.shp"
            pyogrio.write_dataframe(frame, path, driver="ESRI Shapefile", promote_to_multi=True,
                                    layer_options={"ENCODING": "UTF-8"})
            for part in sorted(Path(tmp).glob(f"{name}.*")):
                zf.write(part, part.name)
        readme = ["The parcel and its Article IX constraint lines, one shapefile per layer (EPSG:2260, US survey "
                  "feet; the .prj beside each .shp).", ""]
        readme += [f"{p.layer.name}.shp: {p.what}" for p in layers.pieces]
        readme += [""] + layers.notes
        zf.writestr("README.txt", "\r\n".join(readme) + "\r\n")
    return buf.getvalue()


_WRITERS = {".dxf": constraints_dxf, ".gpkg": constraints_gpkg, ".zip": constraints_zip}


def check_output_path(path: str | Path) -> str:
    """The format (``.dxf``, ``.gpkg`` or ``.zip``) its extension names; refused in one sentence otherwise."""
    ext = Path(path).suffix.lower()
    if ext == ".dwg":
        raise SloatInputError("DWG is a closed format this tool cannot write: write a .dxf, which every CAD "
                              "program opens.")
    if ext not in _WRITERS:
        raise SloatInputError(f"The output '{Path(path).name}' must end in .dxf, .gpkg or .zip (the extension "
                              "decides the format).")
    return ext


def constraint_file(analysis, fmt: str) -> tuple[bytes, ConstraintLayers]:
    """The file's bytes in format ``fmt`` (``.dxf``, ``.gpkg`` or ``.zip``), and what it holds."""
    layers = constraint_layers(analysis)
    return _WRITERS[check_output_path("x" + fmt)](analysis, layers), layers
