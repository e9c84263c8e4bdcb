"""§ 402-57K(4): the owners of record of lands adjacent to the wetland, watercourse and buffer of the work.

A wetland permit application contains "a list of the names of the owners of record of lands adjacent to the
wetland or watercourse and wetland/watercourse buffer in which the project is to be undertaken ... within 100
feet of the boundary of the property". Reading encoded here (README, "Readings"):

* the wetland, watercourse or water body "in which the project is to be undertaken" is each mapped feature whose
  land or buffer the work meets: the drawn disturbance footprint, or the parcel where no footprint is drawn (the
  work could then be anywhere on it); the feature is taken whole, as mapped, with its buffer (a local setting);
* of that land, the part within the distance of the parameters file (100 ft) of the property's boundary, inside
  the property or out, is where an adjacent land is looked for: every other tax parcel that meets it;
* the owners are the parcel layer's ``owner_field:`` (named in its manifest entry); without one the parcels
  are listed and the owners must come from the assessment roll. Sample owners are invented.

Unknown stays unknown: no tax parcel layer, or a wetland, watercourse or water-body layer not loaded, leaves the
list unknown (``parcels`` null) with the reason.
"""

from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from pathlib import Path

import numpy as np
import shapely
import yaml
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import EMPTY, area_sqft, polygonal
from sloat_core.law.params import param
from sloat_core.measure.parcel import buffer_band
from sloat_core.measure.record import RESOURCE_ROLES

__all__ = ["adjacent_owners", "owner_field"]

#: A parcel meets the resource land when it comes this close (ft): shared lot lines digitised apart.
_TOUCH_FT = 0.5
#: A tax parcel is the property itself when this share of it lies inside the parcel analysed.
_SAME_SHARE = 0.5


def owner_field(layerset) -> str | None:
    """§ 402-57K(4): the parcel layer's field of owner names (``owner_field:`` of its manifest entry), or None.

    Read from the layer set's parcel metadata where it carries one, else from the manifest's parcels entry.
    A name not among the layer's columns is None (the owners then come from the assessment roll).
    """
    layer = layerset.get("parcels") if layerset is not None else None
    if layer is None:
        return None
    name = getattr(getattr(layerset, "parcels_meta", None), "owner_field", None)
    if name is None:
        name = _manifest_owner_field(getattr(layerset, "manifest_path", None))
    return str(name) if name is not None and str(name) in layer.gdf.columns else None


def _manifest_owner_field(path) -> str | None:
    if not path:
        return None
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return _owner_field_in(str(path), stat.st_mtime_ns, stat.st_size)  # the manifest read once per version


@lru_cache(maxsize=32)
def _owner_field_in(path: str, _mtime_ns: int, _size: int) -> str | None:
    try:
        doc = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return None
    entries = ((doc or {}).get("layers") or {}).get("parcels") if isinstance(doc, dict) else None
    for entry in entries if isinstance(entries, list) else [entries]:
        if isinstance(entry, dict) and entry.get("owner_field") is not None:
            return str(entry["owner_field"])
    return None


def _text(v) -> str | None:
    if v is None or (isinstance(v, float) and v != v):
        return None
    s = str(v).strip()
    return s or None


def adjacent_owners(parcel: BaseGeometry, layerset, *, footprint: BaseGeometry | None = None,
                    buffer_width_ft: float, buffer_water_bodies: bool = True, permit_required=None,
                    parcel_id: str | None = None, on: _dt.date) -> dict:
    """§ 402-57K(4): the tax parcels (and, with an owner field, their owners of record) adjacent to the wetland,
    watercourse and buffer where the work is, within the parameters' distance of the property's boundary.

    ``permit_required`` is the wetland permit's answer (§ 402-57G): False means no application, so no list.
    Returns ``applies`` (True / False / None), ``parcels`` ([{sbl, address, owner}] or None when unknown),
    ``owner_field``, ``owners_source``, ``reason`` and the clause with its number and quote. ``on`` is the date
    the law is applied at (the analysis's ``as_of``): the distance in effect then.
    """
    p = param("wetland_adjacent_owner_radius_ft", on)
    radius = float(p.value)
    out = {"citation": p.citation, "radius_ft": radius, "quote": p.quote, "applies": None, "parcels": None,
           "owner_field": None, "owners_source": None, "reason": "", "illustrative": bool(
               getattr(layerset, "illustrative", False))}
    if permit_required is False:
        out.update(applies=False, parcels=[], reason=f"No wetland permit application is needed, so no list of adjacent owners "
                                         f"({p.citation}).")
        return out
    roles = [r for r in RESOURCE_ROLES if buffer_water_bodies or r != "water_bodies"]
    missing = [r for r in RESOURCE_ROLES if layerset is None or layerset.get(r) is None]
    if missing:
        out["reason"] = ("Unknown: the " + ", ".join(r.replace("_", " ") for r in missing) + " layer(s) are not "
                         f"loaded, so the wetland and watercourse land of the work is unknown ({p.citation}).")
        return out
    reach = parcel.buffer(radius, quad_segs=16)
    work = footprint if footprint is not None and not footprint.is_empty else parcel
    where = "the drawn work" if work is not parcel else "the parcel (no work area drawn)"
    touched = _resource_land_met(layerset, reach, work, buffer_width_ft, roles)
    if not touched:
        out.update(applies=False, parcels=[], reason=(
            f"{where[:1].upper()}{where[1:]} meets no mapped wetland, watercourse or their buffer: there are no "
            f"adjacent lands to list ({p.citation})."))
        return out
    target = polygonal(shapely.intersection(shapely.union_all(touched), reach))
    out["applies"] = True if permit_required is True else None
    lots = layerset.get("parcels") if layerset is not None else None
    if lots is None:
        out["reason"] = (f"Unknown: no tax parcel layer is loaded, so the lands adjacent to the wetland and "
                         f"watercourse land of the work are unknown ({p.citation}).")
        return out
    own_f = owner_field(layerset)
    rows = _adjacent_rows(lots, target, parcel, parcel_id, getattr(layerset, "parcels_meta", None), own_f)
    out.update(parcels=rows, owner_field=own_f)
    what = (f"the wetland, watercourse and buffer land that {where} meets, within {radius:g} ft of the "
            f"property's boundary")
    out["owners_source"] = _owners_source(own_f, out["illustrative"])
    n = len(rows)
    out["reason"] = (f"{n} tax parcel{'s' * (n != 1)} adjacent to {what}" if n else
                     f"No other tax parcel meets {what}") + f" ({p.citation}). Owners: {out['owners_source']}."
    return out


def _resource_land_met(layerset, reach: BaseGeometry, work: BaseGeometry, buffer_width_ft: float,
                       roles: list[str]) -> list[BaseGeometry]:
    """Each mapped wetland, watercourse and water body near ``reach``, whole and with its buffer (for the buffered
    ``roles``), whose land meets the work."""
    search = reach.buffer(buffer_width_ft, quad_segs=8)
    features = []
    for role in RESOURCE_ROLES:
        lyr = layerset.get(role)
        # the layer's geometries by position (the features query() would slice out of its frame, in its order)
        geoms = [g for g in lyr.geoms[lyr.query_indices(search)] if g is not None and not g.is_empty]
        features += [(role, g) for g in geoms]
    touched = []
    for role, g in features:
        band = buffer_band([g], buffer_width_ft) if (role in roles) else EMPTY
        land = polygonal(shapely.union(g, band)) if not band.is_empty else polygonal(g)
        if land.intersects(work):
            touched.append(land)
    return touched


def _adjacent_rows(lots, target: BaseGeometry, parcel: BaseGeometry, parcel_id: str | None, meta,
                   own_f: str | None) -> list[dict]:
    """The other tax parcels that meet ``target`` ({sbl, address, owner}), sorted by SBL then address."""
    id_f = getattr(meta, "id_field", "SBL")
    addr_f = getattr(meta, "address_field", None)
    idx = lots.query_indices(target.buffer(_TOUCH_FT)) if not target.is_empty else np.empty(0, dtype=np.intp)
    # the frame's rows are made only for the parcels that meet the target (a geometry test needs none)
    meets = [i for i, g in zip(idx, lots.geoms[idx]) if g is not None and not g.is_empty
             and g.distance(target) <= _TOUCH_FT]
    rows = []
    for _, row in lots.gdf.iloc[meets].iterrows():
        g = row.geometry
        sbl = _text(row.get(id_f))
        if parcel_id is not None and sbl == parcel_id:
            continue
        if area_sqft(polygonal(g.intersection(parcel))) >= _SAME_SHARE * area_sqft(g):
            continue  # the property itself (or a piece of it)
        rows.append({"sbl": sbl, "address": _text(row.get(addr_f)) if addr_f else None,
                     "owner": _text(row.get(own_f)) if own_f else None})
    rows.sort(key=lambda r: (r["sbl"] or "", r["address"] or ""))
    return rows


def _owners_source(own_f: str | None, illustrative: bool) -> str:
    """Where the owners' names come from: the parcel layer's owner field, else the assessment roll."""
    if own_f:
        return (f"the parcel layer's field {own_f}"
                + (" (invented sample names, not the assessment roll)" if illustrative else
                   "; to check against the assessment roll"))
    return "the Village's assessment roll (the parcel layer names no owner field)"
