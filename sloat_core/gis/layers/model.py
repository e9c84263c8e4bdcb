"""The layer model: one role's features with a spatial index (:class:`Layer`), all layers of a
manifest with their coverage (:class:`LayerSet`), the tax-parcel field names (:class:`ParcelsMeta`).

A role that the manifest does not name is *unknown*: ``LayerSet.get(role)`` returns ``None`` and
callers must report "unknown", never "none". Land outside a role's coverage is unknown for that
role, not free of it (:meth:`LayerSet.uncovered`, :meth:`LayerSet.coverage_gaps`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
from shapely import STRtree
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.gis.geometry import polygonal_part
from sloat_core.gis.terrain import PreparedDem
from sloat_core.units import WGS84, WORK_CRS

__all__ = ["Layer", "LayerSet", "ParcelsMeta", "polygonal_part"]

#: The empty polygon (shapely geometries are immutable: one shared, not built from WKT on every call).
_EMPTY = Polygon()


_POLY_TYPES = {"Polygon", "MultiPolygon"}


@dataclass(frozen=True)
class ParcelsMeta:
    """Field names of the tax-parcel layer.

    Attributes
    ----------
    id_field : str
        Field holding the SBL (section-block-lot) identifier.
    district_field : str or None
        Field holding the zoning district code.
    address_field : str or None
        Field holding the street address.
    """

    id_field: str = "SBL"
    district_field: str | None = None
    address_field: str | None = None


class Layer:
    """One role's features in EPSG:2260, with a spatial index.

    Parameters
    ----------
    role : str
        The role (one of :data:`ROLES`).
    gdf : geopandas.GeoDataFrame
        Valid polygons in EPSG:2260, with a ``_source`` column naming the manifest line.
    source : str
        The manifest line(s) the features came from.
    lines : geopandas.GeoDataFrame, optional
        Original watercourse centre lines (EPSG:2260), for ``watercourses``.

    Attributes
    ----------
    role, gdf, source, lines
        As given.
    geoms : numpy.ndarray
        The geometries as a shapely array (same order as ``gdf``).
    tree : shapely.STRtree
        Index over ``geoms``.
    """

    def __init__(
        self, role: str, gdf: gpd.GeoDataFrame, source: str, lines: gpd.GeoDataFrame | None = None
    ) -> None:
        self.role = role
        self.gdf = gdf.reset_index(drop=True)
        self.source = source
        self.lines = lines
        self.geoms = np.asarray(self.gdf.geometry.values, dtype=object)
        self.tree = STRtree(self.geoms)
        self._labels: dict[tuple[str, ...], np.ndarray | None] = {}

    def labels(self, fields: tuple[str, ...]) -> np.ndarray | None:
        """Each feature's value of the first of ``fields`` the layer has, as text (None where missing).

        An object array in the order of :attr:`gdf`, built once per field list: reading names for
        evidence text then costs an index, not a slice of the GeoDataFrame. None when the layer has
        none of the fields.
        """
        if fields not in self._labels:
            column = next((c for c in fields if c in self.gdf.columns), None)
            if column is None:
                self._labels[fields] = None
            else:
                values = self.gdf[column]
                self._labels[fields] = np.array(
                    [None if _is_missing(v) else str(v) for v in values.tolist()], dtype=object)
        return self._labels[fields]

    def __len__(self) -> int:
        return len(self.gdf)

    def __repr__(self) -> str:
        return f"Layer({self.role!r}, {len(self)} features, source={self.source!r})"

    def query_indices(self, geom: BaseGeometry) -> np.ndarray:
        """Sorted positions of features whose bounding box intersects ``geom``'s bounding box."""
        if geom is None or geom.is_empty or len(self.geoms) == 0:
            return np.empty(0, dtype=np.intp)
        return np.sort(self.tree.query(geom))

    def query(self, geom: BaseGeometry) -> gpd.GeoDataFrame:
        """Features whose bounding box intersects ``geom`` (a cheap pre-filter, not an exact test).

        Parameters
        ----------
        geom : shapely geometry
            In EPSG:2260.

        Returns
        -------
        geopandas.GeoDataFrame
            A slice of :attr:`gdf`.
        """
        return self.gdf.iloc[self.query_indices(geom)]

    def union_within(self, geom: BaseGeometry) -> BaseGeometry:
        """The union of this layer's features clipped to ``geom``.

        Parameters
        ----------
        geom : shapely geometry
            Usually a parcel polygon in EPSG:2260.

        Returns
        -------
        shapely geometry
            Polygonal (for a polygonal ``geom``); an empty Polygon when nothing intersects.

        Examples
        --------
        >>> from shapely.geometry import box
        >>> lyr = Layer("wetlands", gpd.GeoDataFrame(geometry=[box(0, 0, 10, 10)], crs=WORK_CRS), "x")
        >>> lyr.union_within(box(5, 5, 20, 20)).area
        25.0
        """
        idx = self.query_indices(geom)
        if len(idx) == 0:
            return _EMPTY
        parts = shapely.intersection(self.geoms[idx], geom)
        merged = shapely.union_all(parts)
        if geom.geom_type in _POLY_TYPES:
            return polygonal_part(merged)
        return merged


class LayerSet:
    """All layers of one manifest.

    Attributes
    ----------
    name, version : str
        From the manifest.
    manifest_path : pathlib.Path
        Resolved path of the manifest.
    illustrative : bool
        True when the data are an illustrative sample, not official.
    notice : str
        A notice to show with every result.
    roles : dict[str, Layer]
        Loaded roles.
    coverages : dict[str, shapely geometry or None]
        Each role's coverage (see :meth:`coverage`).
    coverage_states : dict[str, str]
        How each role's coverage is known, to show with results (:meth:`coverage_state`).
    informational : dict[str, Layer]
        Layers no deduction reads (``informational:`` in the manifest, e.g. ``nysdec_wetlands``, read by
        :mod:`sloat_core.approvals.wetland_screens`), with ``informational_coverage`` (None: everywhere).
    clip_area : shapely geometry or None
        The village boundary plus ``clip_buffer_ft``, when the manifest asks to clip on read.
    dem_path : pathlib.Path or None
        The elevation model to read, if named: in EPSG:2260 with elevations in US survey feet (the
        file itself, or a VRT over it that converts metres; see :func:`~sloat_core.gis.terrain.prepare_dem`).
    dem : PreparedDem or None
        The DEM as named (source file, elevation unit and where it came from, elevation range).
    parcels_meta : ParcelsMeta or None
        Field names of the tax-parcel layer, if there is one.
    zoning_district_field : str or None
        Field holding the district code in the zoning layer.
    warnings : tuple of str
        Things noticed while loading (unknown keys, dropped features, ...).
    """

    def __init__(
        self,
        *,
        name: str,
        version: str,
        manifest_path: Path,
        illustrative: bool,
        notice: str,
        roles: dict[str, Layer],
        dem_path: Path | None,
        parcels_meta: ParcelsMeta | None,
        dem: PreparedDem | None = None,
        zoning_district_field: str | None,
        warnings: tuple[str, ...],
        coverages: dict[str, BaseGeometry | None] | None = None,
        coverage_states: dict[str, str] | None = None,
        informational: dict[str, Layer] | None = None,
        informational_coverage: dict[str, BaseGeometry | None] | None = None,
        clip_area: BaseGeometry | None = None,
    ) -> None:
        self.name = name
        self.version = version
        self.manifest_path = manifest_path
        self.illustrative = illustrative
        self.notice = notice
        self.roles = roles
        self.dem_path = dem_path
        self.dem = dem
        self.coverages = dict(coverages or {})
        for cov in self.coverages.values():
            if cov is not None:
                shapely.prepare(cov)  # many parcels are tested against each coverage
        self.coverage_states = dict(coverage_states or {})
        self.informational = dict(informational or {})
        self.informational_coverage = dict(informational_coverage or {})
        self.clip_area = clip_area
        self.parcels_meta = parcels_meta
        self.zoning_district_field = zoning_district_field
        self.warnings = warnings
        self._lock = threading.Lock()
        self._display: dict[tuple[str, float], gpd.GeoDataFrame] = {}
        self._village: BaseGeometry | None | bool = False

    def __repr__(self) -> str:
        return f"LayerSet({self.name!r}, version={self.version!r}, roles={sorted(self.roles)})"

    def get(self, role: str) -> Layer | None:
        """The layer for ``role``, or None when the manifest does not name it (unknown, not "none")."""
        return self.roles.get(role)

    def coverage(self, role: str) -> BaseGeometry | None:
        """Where the ``role`` layer is known to map the land (EPSG:2260), or None when not limited.

        From the manifest entry's ``coverage`` (e.g. the FEMA FIRM panels for NFHL), else the extent
        of the file's features (with the village boundary, when the file reaches it), cut to the clip
        area. Land outside is *unknown* for this role, not free of it.
        """
        return self.coverages.get(role)

    def coverage_state(self, role: str) -> str | None:
        """How the coverage of ``role`` is known: ``"coverage declared: nfhl.gpkg S_FIRM_PAN"``,
        ``"coverage declared: the village boundary"``, ``"coverage assumed (the layer's extent)"`` (no
        ``coverage:`` given), ``"coverage unknown (...)"`` (hydrography without ``coverage:``); None for
        a role the manifest does not name."""
        if role not in self.roles:
            return None
        return self.coverage_states.get(role, "coverage assumed (the layer's extent)")

    def uncovered(self, role: str, geom: BaseGeometry) -> BaseGeometry:
        """The part of ``geom`` outside the coverage of ``role`` (an empty Polygon when all covered)."""
        cov = self.coverages.get(role)
        if cov is None or geom is None or geom.is_empty:
            return _EMPTY
        if cov.covers(geom):
            return _EMPTY
        return polygonal_part(geom.difference(cov))

    def coverage_gaps(self, geom: BaseGeometry, roles, *, min_sqft: float = 1.0) -> dict[str, float]:
        """``{role: sq ft of geom outside that role's coverage}`` for the loaded ``roles`` with a gap
        over ``min_sqft`` (slivers along a coverage edge are not gaps)."""
        gaps: dict[str, float] = {}
        for role in roles:
            if role not in self.roles:
                continue
            area = float(self.uncovered(role, geom).area)
            if area > min_sqft:
                gaps[role] = area
        return gaps

    def has(self, role: str) -> bool:
        """True when the manifest names ``role``."""
        return role in self.roles

    @property
    def village_boundary(self) -> BaseGeometry | None:
        """The village boundary (union of the ``village_boundary`` layer) in EPSG:2260, or None."""
        with self._lock:
            if self._village is False:
                lyr = self.get("village_boundary")
                if lyr is None or len(lyr) == 0:
                    self._village = None
                else:
                    self._village = polygonal_part(shapely.union_all(lyr.geoms))
            return self._village  # type: ignore[return-value]

    def districts_within(self, geom: BaseGeometry) -> list[tuple[str, float]]:
        """Zoning districts under ``geom`` with the area of each, largest first.

        Parameters
        ----------
        geom : shapely geometry
            A polygon in EPSG:2260.

        Returns
        -------
        list of (str, float)
            ``(district code, area_sqft)``; empty when there is no zoning layer or no overlap.
        """
        return [(code, area) for code, _, area in self.district_parts(geom)]

    def district_parts(self, geom: BaseGeometry) -> list[tuple[str, BaseGeometry, float]]:
        """The part of ``geom`` in each zoning district: ``(code, part, area_sqft)``, largest first.

        Parts of zero area are left out; so is land in no district (the parts then do not cover
        ``geom``). Empty when there is no zoning layer.
        """
        lyr = self.get("zoning")
        field = self.zoning_district_field
        if lyr is None or field is None or field not in lyr.gdf.columns:
            return []
        idx = lyr.query_indices(geom)
        if len(idx) == 0:
            return []
        pieces = shapely.intersection(lyr.geoms[idx], geom)
        codes = lyr.labels((field,))[idx]
        by_code: dict[str, list[BaseGeometry]] = {}
        for code, piece in zip(codes, pieces, strict=True):
            if code is None or piece.is_empty or piece.area <= 0:
                continue
            by_code.setdefault(code.strip(), []).append(piece)
        out = []
        for code, parts in by_code.items():
            part = polygonal_part(parts[0] if len(parts) == 1 else shapely.union_all(parts))
            out.append((code, part, float(part.area)))
        return sorted(out, key=lambda t: (-t[2], t[0]))

    def display_gdf(self, role: str, simplify_ft: float = 5.0) -> gpd.GeoDataFrame | None:
        """A role's features for a web map: simplified, in WGS84, properties as plain strings.

        Parameters
        ----------
        role : str
            The role.
        simplify_ft : float
            Douglas-Peucker tolerance in feet (topology preserved); 0 keeps every vertex.

        Returns
        -------
        geopandas.GeoDataFrame or None
            None when the role is unknown. The result is cached; do not modify it.
        """
        lyr = self.get(role)
        if lyr is None:
            return None
        key = (role, float(simplify_ft))
        with self._lock:
            cached = self._display.get(key)
        if cached is not None:
            return cached
        geoms = lyr.gdf.geometry
        if simplify_ft > 0:
            geoms = geoms.simplify(simplify_ft, preserve_topology=True)
        props = pd.DataFrame(index=lyr.gdf.index)
        for col in lyr.gdf.columns:
            if col == lyr.gdf.geometry.name:
                continue
            values = lyr.gdf[col]
            props[str(col)] = [("" if _is_missing(v) else str(v)) for v in values]
        out = gpd.GeoDataFrame(props, geometry=gpd.GeoSeries(geoms.values, crs=WORK_CRS)).to_crs(WGS84)
        with self._lock:
            self._display[key] = out
        return out


def _is_missing(value: Any) -> bool:
    try:
        return value is None or bool(pd.isna(value))
    except (TypeError, ValueError):
        return False
