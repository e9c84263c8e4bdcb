"""Plans written by the tests: a real sample parcel of the Village, lots drawn on it, and DXF drawings made with
ezdxf (so every fixture says what it holds)."""

from __future__ import annotations

from pathlib import Path

import ezdxf
import geopandas as gpd
from shapely.geometry import box

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_SBL = "162.13-1-1"
"""The sample parcel the plans are drawn on (about 24 acres in OSR)."""


def sample_parcel():
    """The sample parcel's outline (EPSG:2260 US survey feet)."""
    parcels = gpd.read_file(ROOT / "data" / "sample" / "parcels.gpkg", layer="parcels")
    return parcels.loc[parcels["SBL"] == SAMPLE_SBL].geometry.iloc[0]


PARCEL = sample_parcel()
_P = PARCEL.representative_point()
X0, Y0 = float(round(_P.x)), float(round(_P.y))
"""A point inside the parcel, in whole feet: the plans' lots are drawn from here."""


def lot_box(i: int, w: float = 100.0, h: float = 150.0):
    """The i-th lot: a w x h ft rectangle, side by side eastwards from (X0, Y0)."""
    return box(X0 + i * w, Y0, X0 + (i + 1) * w, Y0 + h)


assert all(PARCEL.contains(lot_box(i)) for i in range(3)), "the test lots must lie on the sample parcel"


def new_dxf(units: int | None = 21):
    """A new DXF document with ``$INSUNITS`` set (None: left unset)."""
    doc = ezdxf.new("R2010")
    if units is not None:
        doc.header["$INSUNITS"] = units
    return doc


def add_rect(msp, geom, layer: str, *, closed: bool = True, repeat_first: bool = False):
    """A rectangle (a shapely box) as an LWPOLYLINE on ``layer``."""
    pts = list(geom.exterior.coords)[:-1]
    if repeat_first:
        pts.append(pts[0])
    return msp.add_lwpolyline(pts, close=closed, dxfattribs={"layer": layer})


def save(doc, path: Path) -> Path:
    doc.saveas(path)
    return path


def three_lots_dxf(path: Path, *, layer: str = "LOTS", units: int | None = 21, labels=("A", "B", "C")) -> Path:
    """Three 100 x 150 ft lots on ``layer``, each with its TEXT label at its middle."""
    doc = new_dxf(units)
    msp = doc.modelspace()
    for i, label in enumerate(labels):
        lot = lot_box(i)
        add_rect(msp, lot, layer)
        if label is not None:
            c = lot.centroid
            msp.add_text(label, dxfattribs={"layer": layer, "height": 8, "insert": (c.x, c.y)})
    return save(doc, path)
