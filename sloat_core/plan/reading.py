"""Reading a plan file into a :class:`~sloat_core.plan.drawing.PlanDrawing` (GeoJSON: a ``layer`` property on
each feature names its layer; a ``lot`` property is the lot's label)."""

from __future__ import annotations

from pathlib import Path

from sloat_core.errors import SloatInputError
from sloat_core.plan.drawing import ROLES, PlanDrawing, PlanFeature

__all__ = ["read_plan"]

#: Largest plan file read (bytes).
MAX_PLAN_BYTES = 20 * 1024 * 1024


def _roles(layers: tuple[str, ...], given: dict[str, str] | None) -> dict[str, str]:
    """{layer name: role}: a layer named as a role (any case), or mapped to one by ``given`` ({role: layer})."""
    out = {name: name.lower() for name in layers if name.lower() in ROLES}
    for role, layer in (given or {}).items():
        if role not in ROLES:
            raise SloatInputError(f"'{role}' is not a plan role; the roles are {', '.join(ROLES)}.")
        if layer not in layers:
            raise SloatInputError(f"The plan has no layer '{layer}'.")
        out = {k: v for k, v in out.items() if v != role} | {layer: role}
    return out


def _lon_lat(bounds) -> bool:
    minx, miny, maxx, maxy = bounds
    return -180 <= minx <= maxx <= 180 and -90 <= miny <= maxy <= 90


def read_plan(path, *, roles: dict[str, str] | None = None) -> PlanDrawing:
    """The features of a GeoJSON plan (WGS84, or the CRS it declares), in EPSG:2260."""
    import geopandas as gpd

    from sloat_core.units import WORK_CRS

    p = Path(path)
    if p.suffix.lower() == ".dwg":
        raise SloatInputError("A DWG drawing cannot be read: save it as DXF from the CAD program.")
    if not p.is_file():
        raise SloatInputError(f"The plan file '{p.name}' does not exist.")
    if p.stat().st_size > MAX_PLAN_BYTES:
        raise SloatInputError(f"The plan file '{p.name}' is too large.")
    try:
        gdf = gpd.read_file(p)
    except Exception:  # the readers raise many types for a file that is not GeoJSON
        raise SloatInputError(f"The plan file '{p.name}' cannot be read as GeoJSON.") from None
    if gdf.crs is None:
        raise SloatInputError("The plan has no coordinate system, so it cannot be placed.")
    if gdf.crs.is_geographic and len(gdf) and not _lon_lat(gdf.total_bounds):
        raise SloatInputError("The plan's coordinates are not longitude and latitude (a drawing in local "
                              "coordinates cannot be placed): export it in EPSG:2260 or WGS84.")
    gdf = gdf.to_crs(WORK_CRS)
    names = [str(v) if v is not None else "" for v in gdf.get("layer", [None] * len(gdf))]
    layers = tuple(dict.fromkeys(n for n in names if n))
    mapping = _roles(layers, roles)
    labels = gdf["lot"] if "lot" in gdf else [None] * len(gdf)
    features = []
    for name, label, geom in zip(names, labels, gdf.geometry, strict=True):
        role = mapping.get(name)
        if role is None or geom is None or geom.is_empty:
            continue
        closed = geom.geom_type in ("Polygon", "MultiPolygon")
        text = None if label is None or label != label else str(label)
        features.append(PlanFeature(role, text, geom, closed, name))
    return PlanDrawing(tuple(features), layers, mapping)
