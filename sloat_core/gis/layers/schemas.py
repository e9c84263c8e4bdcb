"""Schema adapters: which of a publisher's features count for which role.

``generic`` (default, every feature), ``fema_nfhl`` (Special Flood Hazard Area only:
``SFHA_TF = 'T'``, or an A/V zone code when ``SFHA_TF`` is absent; X and D are not), ``nwi``
(National Wetlands Inventory: ponds and lakes go to ``water_bodies``, riverine to
``watercourses``, the rest to ``wetlands``, whatever role the entry sits under).
:func:`_sniff_schema` refuses or warns when a file with NFHL or NWI fields is read as generic.
"""

from __future__ import annotations

import math
import re
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd

from sloat_core.gis.layers.entry import _Entry
from sloat_core.gis.roles import roles_of_kind

__all__ = ["SCHEMAS", "is_sfha_zone"]


SCHEMAS: tuple[str, ...] = ("generic", "fema_nfhl", "nwi")


_NWI_ROUTES = {"freshwater pond": "water_bodies", "lake": "water_bodies", "riverine": "watercourses"}
_SFHA_CORE = r"(A|AE|AH|AO|AR|A99|V|VE|A([1-9]|[12][0-9]|30)|V([1-9]|[12][0-9]|30))"
_SFHA_RE = re.compile(rf"^({_SFHA_CORE}|AR/{_SFHA_CORE})$")


def is_sfha_zone(code: Any) -> bool:
    """True for a FEMA flood zone code inside the Special Flood Hazard Area (the 100-year floodplain).

    Examples
    --------
    >>> [is_sfha_zone(z) for z in ("AE", "A12", "VE", "X", "D", "A99", "AR/AE", None)]
    [True, True, True, False, False, True, True, False]
    """
    if code is None or (isinstance(code, float) and math.isnan(code)):
        return False
    return bool(_SFHA_RE.match(str(code).strip().upper().replace(" ", "")))


def _norm(name: str) -> str:
    """A field name as services vary it: case, spaces for underscores, and a table qualifier dropped.

    >>> [_norm(n) for n in ("Wetlands.WETLAND_TYPE", "wetland type", "S_FLD_HAZ_AR.FLD_ZONE")]
    ['wetland_type', 'wetland_type', 'fld_zone']
    """
    return str(name).rsplit(".", 1)[-1].strip().lower().replace(" ", "_")


def _field(gdf: pd.DataFrame, *names: str) -> str | None:
    """The column for the first of ``names`` the table has: matched exactly ignoring case, else by
    :func:`_norm` (ArcGIS MapServer layers qualify fields by table, ``Wetlands.WETLAND_TYPE``, and
    aliases vary in case), when that match is unique."""
    cols = [str(c) for c in gdf.columns if c != getattr(gdf, "_geometry_column_name", "geometry")]
    lower = {c.lower(): c for c in cols}
    for n in names:
        if n.lower() in lower:
            return lower[n.lower()]
    for n in names:
        hits = [c for c in cols if _norm(c) == _norm(n)]
        if len(hits) == 1:
            return hits[0]
    return None


def _fields_listed(gdf: pd.DataFrame, limit: int = 20) -> str:
    """The file's fields, for a message: ``it has: A, B, C`` (or ``it has no fields``)."""
    cols = [str(c) for c in gdf.columns if str(c) not in ("geometry", getattr(gdf, "_geometry_column_name", ""))]
    if not cols:
        return "it has no attribute fields"
    shown = ", ".join(cols[:limit]) + (f" and {len(cols) - limit} more" if len(cols) > limit else "")
    return f"it has: {shown}"


def _sniff_schema(entry: _Entry, gdf: gpd.GeoDataFrame, warnings: list[str]) -> None:
    """A file with a known publisher's fields (FEMA NFHL, USFWS NWI) read as ``generic``: refuse or warn.

    Read as generic, every feature counts for the role: an NFHL file's zone X (outside the 100-year
    floodplain) would count as floodplain, an NWI file's lakes and rivers as wetlands. When the schema
    is left out and that would happen, the entry is refused (name the schema, or filter with
    ``where``); when ``schema: generic`` is written, or a ``where`` filter is given, or no feature
    would be miscounted, a warning names the schema.
    """
    if str(entry.spec.get("schema", "generic")) != "generic":
        return
    explicit = "schema" in entry.spec or "where" in entry.spec
    zone_col, sfha_col = _field(gdf, "FLD_ZONE"), _field(gdf, "SFHA_TF")
    if zone_col is not None or sfha_col is not None:
        fields = ", ".join(c for c in (zone_col, sfha_col) if c)
        outside = 0
        if len(gdf):
            routed = _adapt(entry, "fema_nfhl", gdf)[entry.role]
            outside = len(gdf) - len(routed)
        if entry.role == "floodplain" and outside and not explicit:
            raise entry.fail(
                f"the file has FEMA NFHL fields ({fields}) and {outside} of its {len(gdf)} features lie outside the "
                "Special Flood Hazard Area (zone X, D ...), which would count as floodplain; add 'schema: fema_nfhl'"
            )
        warnings.append(
            f"{entry.source}: the file has FEMA NFHL fields ({fields}) but is read as generic, so every feature "
            f"counts ({outside} outside the Special Flood Hazard Area); 'schema: fema_nfhl' keeps only the 100-year floodplain."
        )
        return
    type_col = _field(gdf, "WETLAND_TYPE", "WETLAND_TY")
    attr_col = _field(gdf, "ATTRIBUTE")
    if type_col is not None and attr_col is not None:
        kinds = gdf[type_col].astype("string").str.strip().str.lower().fillna("")
        other = int(sum(_NWI_ROUTES.get(k, "wetlands") != entry.role for k in kinds))
        if other and not explicit and entry.role in roles_of_kind("resource"):
            raise entry.fail(
                f"the file has USFWS NWI fields ({attr_col}, {type_col}) and {other} of its {len(gdf)} features are "
                f"not {entry.role.replace('_', ' ')} (ponds, lakes, rivers or wetlands); add 'schema: nwi' "
                "so each goes to its own layer"
            )
        warnings.append(
            f"{entry.source}: the file has USFWS NWI fields ({attr_col}, {type_col}) but is read as generic, so every "
            f"feature counts as {entry.role.replace('_', ' ')}; 'schema: nwi' sorts wetlands, ponds and rivers."
        )


def _adapt(entry: _Entry, schema: str, gdf: gpd.GeoDataFrame) -> dict[str, gpd.GeoDataFrame]:
    """Apply a schema adapter: ``{target role: features}``."""
    if schema == "generic":
        return {entry.role: gdf}
    if not len(gdf):  # an empty answer (the service had nothing here) carries no fields to sort by
        return {entry.role: gdf} if schema == "fema_nfhl" else {r: gdf for r in roles_of_kind("resource")}
    if schema == "fema_nfhl":
        sfha_col = _field(gdf, "SFHA_TF")
        zone_col = _field(gdf, "FLD_ZONE")
        if sfha_col is None and zone_col is None:
            raise entry.fail("the fema_nfhl schema needs an SFHA_TF or FLD_ZONE field, and the file has neither "
                             f"({_fields_listed(gdf)})")
        keep = np.zeros(len(gdf), dtype=bool)
        undecided = np.ones(len(gdf), dtype=bool)
        if sfha_col is not None:
            flag = gdf[sfha_col].astype("string").str.strip().str.upper()
            known = flag.isin(["T", "F"]).fillna(False).to_numpy(dtype=bool)
            keep = (flag == "T").fillna(False).to_numpy(dtype=bool)
            undecided = ~known
        if zone_col is not None:
            by_zone = np.fromiter((is_sfha_zone(z) for z in gdf[zone_col]), dtype=bool, count=len(gdf))
            keep = keep | (undecided & by_zone)
        return {entry.role: gdf[keep]}
    # nwi
    type_col = _field(gdf, "WETLAND_TYPE", "WETLAND_TY")
    if type_col is None:
        raise entry.fail("the nwi schema needs a WETLAND_TYPE (or WETLAND_TY) field, and the file has neither "
                         f"({_fields_listed(gdf)})")
    kinds = gdf[type_col].astype("string").str.strip().str.lower().fillna("")
    target = np.array([_NWI_ROUTES.get(k, "wetlands") for k in kinds], dtype=object)
    return {role: gdf[target == role] for role in roles_of_kind("resource")}
