"""Copy the real published files the tests read into tests/fixtures/real-data/, cutting the one large file.

The tests must need nothing outside the repository, so the published files they read live in
``tests/fixtures/real-data/`` (see its README for each file's publisher, source and licence). Every file
is copied byte for byte, except FEMA's ``flood_zones.geojson`` (1.9 MB): its one county-wide zone X
feature ("AREA OF MINIMAL FLOOD HAZARD", 14.5 billion sq ft, 1.6 MB of coordinates) is cut to a window
around the FIRM panels (the panels' bounds +/- 0.10 degree of longitude and 0.08 degree of latitude,
about 28,000 ft each way). The cut is ``shapely.clip_by_rect`` in the file's own CRS84 coordinates:
the vertices inside the window are the publisher's, unchanged; new vertices lie on the window's edge.
The other features, the properties, the ``crs`` member and the feature order are as published.

Usage: python tools/cut_real_data.py [--src /path/to/real-data] [--out tests/fixtures/real-data]
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import shapely
from shapely.geometry import mapping, shape

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("dem_srtm_pysheds/dem.tif", "fema_nfhl_extract/firm_panels.geojson",
          "nyc_mappluto_lot/geodatabase.gdb.zip",
          "nyc_mappluto_lot/shapefile_single_pluto_feature_with_metadata.shp.zip")
CUT = "fema_nfhl_extract/flood_zones.geojson"
PAD_LON, PAD_LAT = 0.10, 0.08


def _coords(obj):
    """GeoJSON coordinates from shapely's tuples (lists, as the publisher wrote them)."""
    if isinstance(obj, (list, tuple)) and obj and isinstance(obj[0], (int, float)):
        return [float(v) for v in obj]
    return [_coords(o) for o in obj]


def cut_zones(src: Path, panels: Path, dst: Path) -> tuple[int, int]:
    """Write ``src`` with every feature reaching beyond the window cut to it; (features cut, features)."""
    doc = json.loads(src.read_text(encoding="utf-8"))
    pdoc = json.loads(panels.read_text(encoding="utf-8"))
    minx, miny, maxx, maxy = shapely.union_all([shape(f["geometry"]) for f in pdoc["features"]]).bounds
    window = (minx - PAD_LON, miny - PAD_LAT, maxx + PAD_LON, maxy + PAD_LAT)
    box = shapely.box(*window)
    n_cut = 0
    for f in doc["features"]:
        geom = shape(f["geometry"])
        if box.covers(geom):
            continue
        clipped = shapely.clip_by_rect(geom, *window)
        if clipped.geom_type == "Polygon":
            clipped = shapely.MultiPolygon([clipped])
        f["geometry"] = {"type": clipped.geom_type, "coordinates": _coords(mapping(clipped)["coordinates"])}
        n_cut += 1
    doc["features"] = [f for f in doc["features"] if f["geometry"]["coordinates"]]
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    return n_cut, len(doc["features"])


def main(src: Path, out: Path) -> None:
    for rel in COPIED:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, out / rel)
    n_cut, n = cut_zones(src / CUT, src / "fema_nfhl_extract" / "firm_panels.geojson", out / CUT)
    print(f"copied {len(COPIED)} file(s); {CUT}: {n_cut} of {n} feature(s) cut to the window")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default=str(ROOT.parent / "shared" / "real-data"))
    ap.add_argument("--out", default=str(ROOT / "tests" / "fixtures" / "real-data"))
    args = ap.parse_args()
    main(Path(args.src), Path(args.out))
