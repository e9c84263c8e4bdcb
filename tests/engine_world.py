"""Hand-built worlds for the rules tests: layers of known geometry written as real files.

Everything is built in EPSG:2260 (US ft) around a local origin near Sloatsburg, written as FlatGeobuf files (a coverage
as a GeoPackage) and a GeoTIFF, described by a real layers.yaml and read back through `sloat_core.gis.layers.load_manifest` — the
same path official data take. Areas are exact: a 100 ft x 100 ft square is 10,000 sq ft.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
import yaml
from rasterio.transform import from_origin
from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.layers import load_manifest
from sloat_core.gis.roles import roles_of_kind
from sloat_core.units import WORK_CRS

#: A local origin in EPSG:2260 inside the Village of Sloatsburg.
X0, Y0 = 578_000.0, 848_000.0


def sq(x, y, w, h=None):
    """A rectangle with its lower-left corner (x, y) feet from the origin."""
    return box(X0 + x, Y0 + y, X0 + x + w, Y0 + y + (w if h is None else h))


def write_dem(path: Path, slope_pct, *, cell_ft: float = 5.0, x=-200.0, y=-200.0, size_ft=1400.0):
    """A GeoTIFF DEM of planes. `slope_pct` is a number (one plane rising east) or a function
    (col_x_ft_array, row_y_ft_array) -> elevation array."""
    n = int(size_ft / cell_ft)
    xs = x + (np.arange(n) + 0.5) * cell_ft
    ys = y + size_ft - (np.arange(n) + 0.5) * cell_ft
    gx, gy = np.meshgrid(xs, ys)
    if callable(slope_pct):
        z = slope_pct(gx, gy)
    else:
        z = 500.0 + gx * float(slope_pct) / 100.0
    transform = from_origin(X0 + x, Y0 + y + size_ft, cell_ft, cell_ft)
    with rasterio.open(path, "w", driver="GTiff", width=n, height=n, count=1, dtype="float64",
                       crs=WORK_CRS, transform=transform, nodata=-9999.0) as dst:
        dst.write(z.astype("float64"), 1)
    return path


def world_key(value):
    """A key naming a world's description (layers, elevation model, options): geometry by its WKB, containers by
    their items, a function (an elevation model's formula) by itself."""
    if isinstance(value, BaseGeometry):
        return ("geometry", value.wkb)
    if isinstance(value, dict):
        return ("dict", tuple((k, world_key(v)) for k, v in sorted(value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(world_key(v) for v in value))
    hash(value)  # numbers, text, None, functions (kept alive by the key: never confused with a later one)
    return value


_EMPTY_LAYERS: dict[str, Path] = {}


def _empty_layer(role: str) -> Path:
    """A FlatGeobuf file of the empty layer ``role`` (no feature: the role is known to be absent; its columns and
    coordinate system are in the file's header), written once per process and copied into each world (most worlds
    leave most roles empty). FlatGeobuf, not a GeoPackage: a file of one layer, read without listing its layers,
    and opened without SQLite: about 2 ms of the loader's time against 9 for an empty GeoPackage, for some fifteen
    empty roles in every world."""
    if role not in _EMPTY_LAYERS:
        folder = Path(tempfile.mkdtemp(prefix="sloat-empty-layers-"))
        columns = ["FLD_ZONE", "SFHA_TF"] if role == "floodplain" else ["NAME"]
        gdf = gpd.GeoDataFrame({c: pd.Series([], dtype="str") for c in columns},
                               geometry=gpd.GeoSeries([], crs=WORK_CRS), crs=WORK_CRS)
        gdf.to_file(folder / f"{role}.fgb", driver="FlatGeobuf")
        _EMPTY_LAYERS[role] = folder / f"{role}.fgb"
    return _EMPTY_LAYERS[role]


def make_world(tmp_path: Path, layers: dict, *, dem=None, omit=(), name="test world", assumed=(),
               coverage=None):
    """Write `layers` ({role: [geometry or (geometry, props)]}) and an optional DEM; load the manifest.

    Roles in `omit` are left out of the manifest (to test "unknown"). Every role of the resource and
    overlay lists not given is written empty (a FlatGeobuf file, :func:`_empty_layer`), so that it is known to be
    absent. Each declares
    ``coverage: everywhere`` (a test world maps all its land), except the roles in `assumed`, whose
    coverage is then assumed to be the layer's extent, and the roles in `coverage` ({role: polygon}),
    whose coverage is that polygon, written as a coverage file (as a publisher's index of map units).
    """
    coverage = dict(coverage or {})
    roles = list(roles_of_kind("resource", "overlay", "outcrops"))  # every role a rule reads
    manifest = {"name": name, "version": "test", "illustrative": True, "notice": "test data", "layers": {}}
    for role in roles + [r for r in layers if r not in roles]:
        if role in omit:
            continue
        feats = layers.get(role, [])
        geoms, props = [], []
        for item in feats:
            g, p = (item if isinstance(item, tuple) else (item, {}))
            geoms.append(g)
            props.append(p)
        if role == "floodplain":
            props = [{"FLD_ZONE": "AE", "SFHA_TF": "T", **p} for p in props]
        if geoms:  # FlatGeobuf without its spatial index, which would write the features in another order than given
            fname = f"{role}.fgb"
            cols = sorted({k for p in props for k in p}) or ["NAME"]
            data = {c: [p.get(c) for p in props] for c in cols}
            gpd.GeoDataFrame(data, geometry=geoms, crs=WORK_CRS).to_file(tmp_path / fname, driver="FlatGeobuf",
                                                                            SPATIAL_INDEX="NO")
            entry = {"path": fname}
        else:
            fname = f"{role}.fgb"
            shutil.copyfile(_empty_layer(role), tmp_path / fname)
            entry = {"path": fname}
        if role in coverage:
            cov_name = f"{role}_coverage.gpkg"
            gpd.GeoDataFrame({"NAME": ["mapped area"]}, geometry=[coverage[role]], crs=WORK_CRS).to_file(
                tmp_path / cov_name, layer="coverage", driver="GPKG")
            entry["coverage"] = {"path": cov_name, "layer": "coverage"}
        elif role in roles and role not in assumed:
            entry["coverage"] = "everywhere"  # a test world maps all of its land
        if role == "floodplain":
            entry["schema"] = "fema_nfhl"
        if role == "zoning":
            entry["district_field"] = "ZONE"
        if role == "parcels":
            entry.update(id_field="SBL", district_field="ZONE", address_field="ADDRESS")
        manifest["layers"][role] = entry
    if dem is not None:
        write_dem(tmp_path / "dem.tif", dem)
        manifest["dem"] = {"path": "dem.tif", "z_units": "us_survey_foot"}
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    return load_manifest(tmp_path / "layers.yaml")


#: The 400 ft x 400 ft parcel (160,000 sq ft) the legal-claim tests analyse unless they say otherwise.
SQUARE_400 = sq(0, 0, 400)
#: A layer's coverage (the area it maps) holding the west 300 ft of `SQUARE_400` and not its east 100 ft:
#: everything west of x = 300 ft, far beyond the parcel's other sides.
WEST_300_FT = sq(-2000, -2000, 2300, 4400)


def analyze_in(world, project=None, parcel=SQUARE_400, district="R-40", **kw) -> dict:
    """``analyze`` of ``parcel`` (default: the 400 ft square) in a hand-built world."""
    from sloat_core.engine.analysis import analyze

    return analyze(parcel, world, district=district, project=project, **kw)


def result_in(world, project=None, parcel=SQUARE_400, district="R-40", **kw):
    """The typed result (``analyze_parcel(...).result``) of ``parcel`` (default: the 400 ft square) in a
    hand-built world."""
    from sloat_core.engine.analysis import analyze_parcel

    return analyze_parcel(parcel, world, district=district, project=project, **kw).result


def permits_in(world, project=None, **kw) -> dict:
    """The permits of ``analyze_in``, by id."""
    return {p["id"]: p for p in analyze_in(world, project, **kw)["permits"]}


def footprint(geom) -> dict:
    """A disturbance footprint (GeoJSON, as the project form carries it) from a work-CRS geometry."""
    from sloat_core.gis.geometry import work_to_geojson

    return work_to_geojson(geom)


def plan_of(lots=(), **roles):
    """A plan drawing (`sloat_core.plan.drawing.PlanDrawing`): ``lots`` as (label, geometry) pairs or bare
    geometries (labelled 1..N by the check), the other roles (envelopes, roads, open_space, disturbance) as
    lists of geometries."""
    from sloat_core.plan.drawing import PlanDrawing, PlanFeature

    feats = [PlanFeature("lots", *(lot if isinstance(lot, tuple) else (None, lot))) for lot in lots]
    feats += [PlanFeature(role, None, g) for role, geoms in roles.items() for g in geoms]
    names = tuple(dict.fromkeys(f.role for f in feats))
    return PlanDrawing(tuple(feats), names, {n: n for n in names})


def plan_in(world, drawing, parcel=SQUARE_400, district="R-40", **kw) -> dict:
    """``check_plan(...).to_dict()`` of a plan on ``parcel`` (default: the 400 ft square) in a hand-built world."""
    from sloat_core.plan.check import check_plan

    return check_plan(parcel, drawing, world, district=district, **kw).to_dict()


# --- Typed results to change: a real analysis, then the parts a test is about replaced -------------------------

_BARE: dict = {}


def bare_result():
    """The typed result (:class:`sloat_core.engine.result.ParcelResult`) of a real analysis: the 400 ft square in
    R-40 of a hand-built world with nothing on it (flat ground, every layer mapped and empty), on 1 December 2026.
    Worked out once per process; the world's files live in a temporary folder removed at exit."""
    if "result" not in _BARE:
        import atexit
        import datetime as dt
        import tempfile

        from sloat_core.engine.analysis import analyze_parcel

        folder = tempfile.TemporaryDirectory(prefix="sloat-bare-world-")
        atexit.register(folder.cleanup)
        world = make_world(Path(folder.name), {}, dem=0)
        _BARE["result"] = analyze_parcel(SQUARE_400, world, district="R-40", as_of=dt.date(2026, 12, 1)).result
    return _BARE["result"]


def result_with(base=None, **over):
    """``base`` (default :func:`bare_result`) with the fields in ``over`` replaced (``dataclasses.replace``): a
    list becomes the result's tuple; parts are the result's own records (:func:`deduction`, :func:`permit`,
    :func:`trigger`)."""
    import dataclasses

    over = {k: tuple(v) if isinstance(v, list) else v for k, v in over.items()}
    return dataclasses.replace(bare_result() if base is None else base, **over)


def deduction(constraint: str, label: str, area_sqft: float | None, deducted_sqft: float | None,
              countable_fraction: float, **kw):
    """One row of the deduction table (:class:`sloat_core.engine.result.Deduction`); ``total_area_sqft`` defaults
    to ``area_sqft``, ``status`` to "known" (or "unknown" when the area is None)."""
    from sloat_core.engine.result import Deduction

    row = {"total_area_sqft": area_sqft, "citation": "§ 402-45A",
           "status": "known" if area_sqft is not None else "unknown", **kw}
    return Deduction(constraint=constraint, label=label, area_sqft=area_sqft, deducted_sqft=deducted_sqft,
                     countable_fraction=countable_fraction, **row)


def permit(id: str, required: bool | None, reason: str = "", **kw):
    """One permit's answer (:class:`sloat_core.rules.sections.permit.Permit`); title, citation and authority
    default to empty."""
    from sloat_core.rules.sections.permit import Permit

    return Permit(**{"id": id, "required": required, "reason": reason, "title": "", "citation": "",
                     "authority": "", **kw})


def trigger(number: int, triggered: bool | None, evidence: str = ""):
    """One cluster trigger of § 402-48C (:class:`sloat_core.rules.sections.s402_48_cluster.cluster.Trigger`), its
    title's numbers as in effect on the tests' day."""
    from law_day import LAW_DAY
    from sloat_core.rules.sections.s402_48_cluster.cluster import Trigger

    return Trigger(number, triggered, evidence, as_of=LAW_DAY)
