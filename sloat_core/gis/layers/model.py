"""Map layers: the manifest, schema adapters, reading, reprojection and a spatial index per layer.

A *manifest* (YAML) names one file -- or a list of files -- for each *role* the rules need
(floodplain, wetlands, water bodies, ...). :func:`load_manifest` reads every file, reprojects it
to EPSG:2260 (US survey feet), repairs invalid polygons, turns watercourse centre lines into
polygons of the stream width, and builds a shapely ``STRtree`` per role so that the analysis can
ask "what of this layer lies inside the parcel?" in a few milliseconds.

Manifest format (paths are relative to the manifest; absolute paths are accepted)::

    name: Sloatsburg sample (illustrative, not official)
    version: "2026-11-29"
    illustrative: true
    notice: "Illustrative sample, not official data."
    layers:
      floodplain:   {path: nfhl.gpkg, layer: S_FLD_HAZ_AR, schema: fema_nfhl}
      wetlands:     [{path: nwi.geojson, schema: nwi}, {path: local_wetlands.geojson}]
      watercourses: {path: streams.geojson, width_field: WIDTH_FT}
      parcels:      {path: parcels.gpkg, layer: parcels, id_field: SBL, district_field: ZONE,
                     address_field: ADDRESS}
      zoning:       {path: zoning.gpkg, layer: zoning, district_field: ZONE}
    dem: {path: dem.tif}

Schemas: ``generic`` (default, every feature), ``fema_nfhl`` (Special Flood Hazard Area only:
``SFHA_TF = 'T'``, or an A/V zone code when ``SFHA_TF`` is absent; X and D are not), ``nwi``
(National Wetlands Inventory: ponds and lakes go to ``water_bodies``, riverine to
``watercourses``, the rest to ``wetlands``, whatever role the entry sits under). An optional
``where`` keeps only some features: either a mapping ``{FIELD: value or [values]}`` or a small
expression such as ``ZONE in ('AE', 'A') and not STATIC_BFE = -9999`` (parsed here, never
``eval``-ed).

A role that the manifest does not name is *unknown*: ``LayerSet.get(role)`` returns ``None`` and
callers must report "unknown", never "none".
"""

from __future__ import annotations

import math
import operator
import re
import threading
import warnings as _warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely
import yaml
from shapely import STRtree
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import SloatInputError
from sloat_core.gis.safe_files import refuse_xml_declarations
from sloat_core.gis.terrain import DemUnitsError, PreparedDem, prepare_dem
from sloat_core.units import WGS84, WORK_CRS

__all__ = [
    "ROLES",
    "LINE_ROLES",
    "SCHEMAS",
    "FALLBACK_STREAM_WIDTH_FT",
    "Layer",
    "LayerSet",
    "ParcelsMeta",
    "load_manifest",
    "clear_manifest_cache",
    "is_sfha_zone",
    "ids_as_text",
    "polygonal_part",
]

# Every role a manifest may name, and those accepting lines: declared once in sloat_core.gis.roles.
from sloat_core.gis.roles import LINE_ROLES, ROLES  # noqa: E402

SCHEMAS: tuple[str, ...] = ("generic", "fema_nfhl", "nwi")
"""Schema adapters a manifest entry may name."""

FALLBACK_STREAM_WIDTH_FT = 10.0
"""Stream width used when neither the caller nor the local settings give one (a local setting, VERIFY)."""

_TOP_KEYS = {"name", "version", "illustrative", "notice", "layers", "dem", "clip_buffer_ft", "place", "created",
             "generated_by", "informational"}
_DEM_KEYS = {"path", "z_units", "source", "url", "query", "downloaded", "publisher_version", "publisher_date", "note"}
_ENTRY_KEYS = {"path", "layer", "schema", "where", "width_field", "id_field", "district_field", "address_field",
               "coverage", "source", "publisher", "url", "query", "downloaded", "publisher_version",
               "publisher_date"}
_POLY_TYPES = {"Polygon", "MultiPolygon"}
_LINE_TYPES = {"LineString", "MultiLineString", "LinearRing"}
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


def polygonal_part(geom: BaseGeometry | None) -> BaseGeometry:
    """The polygonal part of a geometry (a Polygon, a MultiPolygon or an empty Polygon).

    Examples
    --------
    >>> from shapely.geometry import GeometryCollection, LineString, box
    >>> polygonal_part(GeometryCollection([box(0, 0, 1, 1), LineString([(0, 0), (5, 5)])])).area
    1.0
    """
    if geom is None or geom.is_empty:
        return Polygon()
    kind = geom.geom_type
    if kind in _POLY_TYPES:
        return geom
    if kind == "GeometryCollection":
        polys: list[Polygon] = []
        for part in geom.geoms:
            sub = polygonal_part(part)
            if isinstance(sub, Polygon) and not sub.is_empty:
                polys.append(sub)
            elif isinstance(sub, MultiPolygon):
                polys.extend(sub.geoms)
        if not polys:
            return Polygon()
        return polys[0] if len(polys) == 1 else MultiPolygon(polys)
    return Polygon()


# ----------------------------------------------------------------------------------------------
# Layers
# ----------------------------------------------------------------------------------------------


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
            return Polygon()
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

    def uncovered(self, role: str, geom: BaseGeometry) -> BaseGeometry:
        """The part of ``geom`` outside the coverage of ``role`` (an empty Polygon when all covered)."""
        cov = self.coverages.get(role)
        if cov is None or geom is None or geom.is_empty:
            return Polygon()
        if cov.covers(geom):
            return Polygon()
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


# ----------------------------------------------------------------------------------------------
# "where" filters: a tiny expression language, parsed, never eval()-ed
# ----------------------------------------------------------------------------------------------

_TOKEN_RE = re.compile(
    r"""\s*(?:
        (?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
      | (?P<str>'(?:[^']|'')*'|"(?:[^"]|"")*")
      | (?P<op><=|>=|!=|<>|==|=|<|>)
      | (?P<punct>[(),])
      | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    )""",
    re.VERBOSE,
)
_KEYWORDS = {"and", "or", "not", "in", "is", "null"}
_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "=": operator.eq,
    "==": operator.eq,
    "!=": operator.ne,
    "<>": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}

_Pred = Callable[[pd.DataFrame], pd.Series]


class _WhereError(Exception):
    """A problem in a where filter (turned into SloatInputError naming the manifest line)."""


def _tokenize(text: str) -> list[tuple[str, Any]]:
    tokens: list[tuple[str, Any]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m or m.end() == pos:
            raise _WhereError(f"the where filter cannot be understood near {text[pos:pos + 15]!r}")
        pos = m.end()
        if m.group("num") is not None:
            num = float(m.group("num"))
            tokens.append(("value", int(num) if num.is_integer() and "." not in m.group("num") else num))
        elif m.group("str") is not None:
            raw = m.group("str")
            quote = raw[0]
            tokens.append(("value", raw[1:-1].replace(quote * 2, quote)))
        elif m.group("op") is not None:
            tokens.append(("op", m.group("op")))
        elif m.group("punct") is not None:
            tokens.append((m.group("punct"), m.group("punct")))
        else:
            word = m.group("name")
            if word.lower() in _KEYWORDS:
                tokens.append((word.lower(), word))
            else:
                tokens.append(("field", word))
    return tokens


def _column(df: pd.DataFrame, field: str) -> pd.Series:
    if field in df.columns:
        return df[field]
    for col in df.columns:
        if str(col).lower() == field.lower():
            return df[col]
    raise _WhereError(f"the where filter names the field {field!r}, which the file does not have")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _compare(col: pd.Series, op: str, value: Any) -> pd.Series:
    if _is_number(value):
        series = pd.to_numeric(col, errors="coerce")
    else:
        series = col.astype("string").str.strip()
        value = str(value)
    result = _OPS[op](series, value)
    return pd.Series(result, index=col.index).fillna(False).astype(bool)


def _isin(col: pd.Series, values: list[Any]) -> pd.Series:
    if values and all(_is_number(v) for v in values):
        series = pd.to_numeric(col, errors="coerce")
        return pd.Series(series.isin(values), index=col.index).fillna(False).astype(bool)
    series = col.astype("string").str.strip()
    return pd.Series(series.isin([str(v) for v in values]), index=col.index).fillna(False).astype(bool)


class _Parser:
    """Recursive-descent parser turning a where expression into a predicate over a DataFrame."""

    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.pos = 0

    def _peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def _take(self, kind: str) -> Any:
        if self._peek() != kind:
            got = self.tokens[self.pos][1] if self.pos < len(self.tokens) else "the end"
            raise _WhereError(f"the where filter expected {kind} but found {got!r}")
        value = self.tokens[self.pos][1]
        self.pos += 1
        return value

    def parse(self) -> _Pred:
        if not self.tokens:
            raise _WhereError("the where filter is empty")
        pred = self._or()
        if self.pos != len(self.tokens):
            raise _WhereError(f"the where filter has unexpected text at {self.tokens[self.pos][1]!r}")
        return pred

    def _or(self) -> _Pred:
        left = self._and()
        while self._peek() == "or":
            self.pos += 1
            right = self._and()
            left = (lambda a, b: lambda df: a(df) | b(df))(left, right)
        return left

    def _and(self) -> _Pred:
        left = self._not()
        while self._peek() == "and":
            self.pos += 1
            right = self._not()
            left = (lambda a, b: lambda df: a(df) & b(df))(left, right)
        return left

    def _not(self) -> _Pred:
        if self._peek() == "not":
            self.pos += 1
            inner = self._not()
            return lambda df: ~inner(df)
        return self._atom()

    def _atom(self) -> _Pred:
        if self._peek() == "(":
            self.pos += 1
            inner = self._or()
            self._take(")")
            return inner
        field = self._take("field")
        kind = self._peek()
        if kind == "op":
            op = self._take("op")
            value = self._take("value")
            return lambda df: _compare(_column(df, field), op, value)
        if kind == "is":
            self.pos += 1
            negate = self._peek() == "not"
            if negate:
                self.pos += 1
            self._take("null")
            if negate:
                return lambda df: _column(df, field).notna()
            return lambda df: _column(df, field).isna()
        negate = False
        if kind == "not":
            self.pos += 1
            negate = True
        self._take("in")
        self._take("(")
        values = [self._take("value")]
        while self._peek() == ",":
            self.pos += 1
            values.append(self._take("value"))
        self._take(")")
        if negate:
            return lambda df: ~_isin(_column(df, field), values)
        return lambda df: _isin(_column(df, field), values)


def _compile_where(where: Any) -> _Pred:
    """Compile a manifest ``where`` (expression string or ``{FIELD: value-or-list}`` mapping)."""
    if isinstance(where, str):
        return _Parser(where).parse()
    if isinstance(where, dict) and where:
        clauses: list[_Pred] = []
        for field, wanted in where.items():
            values = list(wanted) if isinstance(wanted, (list, tuple)) else [wanted]
            if any(isinstance(v, (dict, list)) for v in values):
                raise _WhereError(f"the where value for {field!r} must be a value or a list of values")
            clauses.append((lambda f, vs: lambda df: _isin(_column(df, str(f)), vs))(field, values))

        def _all(df: pd.DataFrame) -> pd.Series:
            mask = pd.Series(True, index=df.index)
            for clause in clauses:
                mask &= clause(df)
            return mask

        return _all
    raise _WhereError("the where filter must be an expression or a mapping of field to value(s)")


# ----------------------------------------------------------------------------------------------
# Manifest loading
# ----------------------------------------------------------------------------------------------


@dataclass
class _Entry:
    """One manifest line: a role and one source file."""

    manifest_name: str
    role: str
    index: int | None
    spec: dict[str, Any]
    line: int | None
    path: Path | None = None

    @property
    def filename(self) -> str:
        return str(self.spec.get("path", "?"))

    @property
    def source(self) -> str:
        """The ``_source`` text, e.g. ``layers.yaml: wetlands[1] (local_wetlands.geojson)``."""
        slot = self.role if self.index is None else f"{self.role}[{self.index}]"
        return f"{self.manifest_name}: {slot} ({Path(self.filename).name})"

    def fail(self, problem: str) -> SloatInputError:
        """An error naming this manifest line; ``problem`` is a lower-case clause."""
        where = f" line {self.line}" if self.line else ""
        slot = self.role if self.index is None else f"{self.role}[{self.index}]"
        return SloatInputError(
            f"In the layer manifest {self.manifest_name}{where} ({slot}, {self.filename}), {problem}."
        )


def _line_numbers(text: str) -> dict[tuple[str, int | None], int]:
    """1-based line numbers of each ``layers`` entry (role, index) in the manifest text."""
    out: dict[tuple[str, int | None], int] = {}
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return out
    if not isinstance(root, yaml.MappingNode):
        return out
    for key, value in root.value:
        if getattr(key, "value", None) != "layers" or not isinstance(value, yaml.MappingNode):
            continue
        for role_node, entry_node in value.value:
            role = str(role_node.value)
            out[(role, None)] = role_node.start_mark.line + 1
            if isinstance(entry_node, yaml.SequenceNode):
                for i, item in enumerate(entry_node.value):
                    out[(role, i)] = item.start_mark.line + 1
    return out


def _default_stream_width_ft() -> float:
    try:
        from sloat_core.law.settings import load_settings  # noqa: PLC0415 (optional, written by another module)

        width = float(load_settings().default_stream_width_ft)
    except Exception:  # noqa: BLE001 -- any failure of the optional settings falls back to the constant
        return FALLBACK_STREAM_WIDTH_FT
    return width if width > 0 and math.isfinite(width) else FALLBACK_STREAM_WIDTH_FT


_CACHE: dict[tuple[str, int, float], LayerSet] = {}
_CACHE_LOCK = threading.Lock()
_CACHE_MAX = 8


def clear_manifest_cache() -> None:
    """Forget every cached :class:`LayerSet` (tests, or after editing data files in place)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def load_manifest(path: str | Path, *, default_stream_width_ft: float | None = None) -> LayerSet:
    """Load every layer named by a manifest.

    Cached per process by (resolved path, manifest modification time, stream width).

    Parameters
    ----------
    path : str or Path
        The manifest (YAML).
    default_stream_width_ft : float, optional
        Width given to watercourse lines without a usable ``width_field`` value; defaults to the local
        setting ``default_stream_width_ft`` (sloat_core.law.settings), else 10 ft.

    Returns
    -------
    LayerSet

    Raises
    ------
    SloatInputError
        Bad YAML, an unknown role or schema, a missing file, a file without a coordinate system, the
        wrong geometry type for a role, a bad ``where``; the message names the manifest line.
    """
    manifest = Path(path).expanduser()
    try:
        resolved = manifest.resolve(strict=True)
        mtime = resolved.stat().st_mtime_ns
    except (OSError, RuntimeError) as exc:
        raise SloatInputError(f"The layer manifest {manifest} was not found.") from exc
    if default_stream_width_ft is None:
        width = _default_stream_width_ft()
    else:
        width = float(default_stream_width_ft)
        if not (width > 0 and math.isfinite(width)):
            raise SloatInputError("The default stream width must be a positive number of feet.")
    key = (str(resolved), mtime, width)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    layerset = _load(resolved, width)
    with _CACHE_LOCK:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = layerset
    return layerset


def _load(manifest: Path, width_ft: float) -> LayerSet:
    name = manifest.name
    try:
        text = manifest.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SloatInputError(f"The layer manifest {name} could not be read as text.") from exc
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise SloatInputError(f"The layer manifest {name} is not valid YAML{at}.") from exc
    if not isinstance(doc, dict):
        raise SloatInputError(f"The layer manifest {name} must be a YAML mapping with a 'layers' section.")
    layers_spec = doc.get("layers")
    if not isinstance(layers_spec, dict):
        raise SloatInputError(f"The layer manifest {name} has no 'layers' mapping.")

    warnings: list[str] = []
    for extra in sorted(set(map(str, doc)) - _TOP_KEYS):
        warnings.append(f"The layer manifest {name} has an unknown key '{extra}', which was ignored"
                        + _did_you_mean(extra, _TOP_KEYS) + ".")
    lines = _line_numbers(text)
    base = manifest.parent

    entries: list[_Entry] = []
    for role, spec in layers_spec.items():
        role = str(role)
        specs = spec if isinstance(spec, list) else [spec]
        for i, one in enumerate(specs):
            idx = i if isinstance(spec, list) else None
            entry = _Entry(name, role, idx, one if isinstance(one, dict) else {}, lines.get((role, idx)))
            if entry.line is None:
                entry.line = lines.get((role, None))
            if role not in ROLES:
                raise entry.fail(f"the role '{role}' is not one of the known roles ({', '.join(ROLES)})")
            if not isinstance(one, dict) or not one.get("path"):
                raise entry.fail("the entry needs a 'path' to a file")
            for extra in sorted(set(map(str, one)) - _ENTRY_KEYS):
                warnings.append(f"{entry.source}: unknown key '{extra}' was ignored"
                                + _did_you_mean(extra, _ENTRY_KEYS) + ".")
            schema = str(one.get("schema", "generic"))
            if schema not in SCHEMAS:
                raise entry.fail(f"the schema '{schema}' is not one of {', '.join(SCHEMAS)}")
            raw = Path(str(one["path"])).expanduser()
            entry.path = raw if raw.is_absolute() else base / raw
            entries.append(entry)

    parts: dict[str, list[gpd.GeoDataFrame]] = {}
    line_parts: dict[str, list[gpd.GeoDataFrame]] = {}
    sources: dict[str, list[str]] = {}
    covers: dict[str, list[BaseGeometry | None]] = {}
    parcels_meta: ParcelsMeta | None = None
    zoning_field: str | None = None
    clip_ft = _clip_buffer_ft(doc, name)
    village: BaseGeometry | None = None
    clip: BaseGeometry | None = None
    # The village boundary first: clipping and default coverage are measured against it.
    # Then the parcels: the village and its tax parcels are the area a layer is expected to map.
    entries.sort(key=lambda e: {"village_boundary": 0, "parcels": 1}.get(e.role, 2))
    area: BaseGeometry | None = None
    for k, entry in enumerate(entries):
        if village is None and entry.role != "village_boundary" and "village_boundary" in parts:
            village = polygonal_part(shapely.union_all(_concat(parts["village_boundary"]).geometry.values))
            if village.is_empty:
                village = None
            if village is not None and clip_ft is not None:
                clip = village.buffer(clip_ft)
        if area is None and entry.role not in ("village_boundary", "parcels"):
            extents = [g for g in (village, _bounds_box(_concat(parts["parcels"])) if "parcels" in parts else None)
                       if g is not None]
            area = shapely.union_all(extents) if extents else None
        if clip_ft is not None and village is None and entry.role != "village_boundary" and k == 0:
            raise SloatInputError(f"The layer manifest {name} asks to clip to the village boundary, but names no "
                                  "village_boundary layer.")
        gdf = _read_entry(entry, warnings, clip if entry.role != "village_boundary" else None)
        if clip is not None and entry.role != "village_boundary" and len(gdf):
            gdf = _clip_to(gdf, clip, cut=entry.role not in ("parcels", "zoning"))
        coverage = _entry_coverage(entry, gdf, village, area, clip, warnings)
        schema = str(entry.spec.get("schema", "generic"))
        if "where" in entry.spec:
            try:
                mask = _compile_where(entry.spec["where"])(gdf)
            except _WhereError as exc:
                raise entry.fail(str(exc)) from exc
            gdf = gdf[mask.to_numpy()]
        _sniff_schema(entry, gdf, warnings)
        if entry.role == "parcels":
            gdf = _text_columns(gdf, [entry.spec.get("id_field", "SBL"), entry.spec.get("district_field"),
                                      entry.spec.get("address_field")])
        if entry.role == "zoning":
            gdf = _text_columns(gdf, [entry.spec.get("district_field", "ZONE")])
        routed = _adapt(entry, schema, gdf)
        for role, piece in routed.items():
            polys, lns = _shape_for_role(entry, role, piece, width_ft, warnings)
            polys["_source"] = entry.source
            parts.setdefault(role, []).append(polys)
            covers.setdefault(role, []).append(coverage)
            if lns is not None:
                lns["_source"] = entry.source
                line_parts.setdefault(role, []).append(lns)
            if entry.source not in sources.setdefault(role, []):
                sources[role].append(entry.source)
        if entry.role == "parcels":
            parcels_meta = _parcels_meta(entry, gdf, warnings)
        if entry.role == "zoning":
            zoning_field = str(entry.spec.get("district_field", "ZONE"))
            if zoning_field not in gdf.columns:
                raise entry.fail(f"the zoning layer has no field '{zoning_field}' (set district_field)")

    roles: dict[str, Layer] = {}
    coverages: dict[str, BaseGeometry | None] = {}
    for role, pieces in parts.items():
        gdf = _concat(pieces)
        lines_gdf = _concat(line_parts[role]) if role in line_parts else None
        roles[role] = Layer(role, gdf, "; ".join(sources[role]), lines=lines_gdf)
        cov = covers.get(role, [None])
        coverages[role] = None if any(c is None for c in cov) else polygonal_part(shapely.union_all(cov))

    dem_path = None
    dem: PreparedDem | None = None
    dem_doc = doc.get("dem")
    if dem_doc is not None:
        dem_spec = dem_doc if isinstance(dem_doc, dict) else {"path": dem_doc}
        if not dem_spec.get("path"):
            raise SloatInputError(f"In the layer manifest {name}, the 'dem' entry needs a 'path'.")
        raw = Path(str(dem_spec["path"])).expanduser()
        dem_source = raw if raw.is_absolute() else base / raw
        if not dem_source.is_file():
            raise SloatInputError(f"In the layer manifest {name}, the elevation file {dem_spec['path']} was not found.")
        for extra in sorted(set(map(str, dem_spec)) - _DEM_KEYS):
            warnings.append(f"The layer manifest {name}'s dem entry has an unknown key '{extra}', which was ignored"
                            + _did_you_mean(extra, _DEM_KEYS) + ".")
        try:
            dem = prepare_dem(dem_source, dem_spec.get("z_units"))
        except DemUnitsError as exc:  # never read elevations in an unknown unit: refuse the manifest
            raise SloatInputError(f"In the layer manifest {name}, the dem entry ({dem_spec['path']}): "
                                  + _lower_first(str(exc))) from exc
        except SloatInputError as exc:
            # No or another coordinate system, unreadable: the layer set loads, slopes are unknown
            # and every analysis says why (the terrain module refuses the file again when asked).
            dem = None
            dem_path = dem_source
            warnings.append(f"The elevation model cannot be used, so slopes are unknown: {exc}")
        if dem is not None:
            dem_path = dem.path
            warnings.extend(dem.warnings)

    return LayerSet(
        name=str(doc.get("name") or name),
        version=str(doc.get("version") or ""),
        manifest_path=manifest,
        illustrative=bool(doc.get("illustrative", False)),
        notice=str(doc.get("notice") or ""),
        roles=roles,
        dem_path=dem_path,
        dem=dem,
        parcels_meta=parcels_meta,
        zoning_district_field=zoning_field,
        warnings=tuple(warnings),
        coverages=coverages,
        clip_area=clip,
    )


def _clip_buffer_ft(doc: dict, name: str) -> float | None:
    raw = doc.get("clip_buffer_ft")
    if raw is None or raw is False:
        return None
    try:
        value_ft = float(raw)
    except (TypeError, ValueError):
        value_ft = float("nan")
    if not (math.isfinite(value_ft) and value_ft >= 0):
        raise SloatInputError(f"In the layer manifest {name}, clip_buffer_ft must be a number of feet (0 or more).")
    return value_ft


def _clip_to(gdf: gpd.GeoDataFrame, clip: BaseGeometry, *, cut: bool) -> gpd.GeoDataFrame:
    """Features touching ``clip``; with ``cut`` their shapes cut to it (parcels and zoning stay whole)."""
    geoms = np.asarray(gdf.geometry.values, dtype=object)
    shapely.prepare(clip)
    keep = shapely.intersects(clip, geoms)
    out = gdf[keep].copy()
    if cut and len(out):
        inside = shapely.covers(clip, geoms[keep])
        cut_geoms = geoms[keep].copy()
        cut_geoms[~inside] = shapely.intersection(cut_geoms[~inside], clip)
        out = out.set_geometry(gpd.GeoSeries(cut_geoms, index=out.index, crs=WORK_CRS))
        out = out[~out.geometry.is_empty]
    return out


def _bounds_box(gdf: gpd.GeoDataFrame) -> BaseGeometry | None:
    if not len(gdf):
        return None
    minx, miny, maxx, maxy = gdf.total_bounds
    if not all(math.isfinite(v) for v in (minx, miny, maxx, maxy)):
        return None
    return shapely.box(minx, miny, maxx, maxy) if maxx > minx and maxy > miny else None


def _entry_coverage(entry: _Entry, gdf: gpd.GeoDataFrame, village: BaseGeometry | None,
                    area: BaseGeometry | None, clip: BaseGeometry | None, warnings: list[str]) -> BaseGeometry | None:
    """Where this manifest line maps the land (EPSG:2260), or None when it is not limited.

    ``coverage:`` on the entry names it: ``everywhere``, ``village_boundary``, or a file (``{path,
    layer, where}``) of coverage polygons, e.g. the FIRM panel index (NFHL ``S_FIRM_PAN``). Without
    it, the extent of the file's features, joined with ``area`` (the village boundary and the extent
    of the tax parcels) when that extent reaches it: a layer published for the village is taken to
    map all of it, a file of another area maps none of it. A file without features covers ``area``.
    Without a village boundary or parcels, not limited (None). Cut to the clip area.
    """
    spec = entry.spec.get("coverage")
    if entry.role in ("village_boundary", "parcels"):
        return None
    if isinstance(spec, str) and spec.strip().lower() == "everywhere":
        return None
    if isinstance(spec, str) and spec.strip().lower() == "village_boundary":
        cov = village
    elif isinstance(spec, dict) or (isinstance(spec, str) and spec.strip()):
        sub_spec = spec if isinstance(spec, dict) else {"path": spec}
        if not sub_spec.get("path"):
            raise entry.fail("the coverage entry needs a 'path' (or write everywhere or village_boundary)")
        raw = Path(str(sub_spec["path"])).expanduser()
        sub = _Entry(entry.manifest_name, entry.role, entry.index,
                     {k: v for k, v in sub_spec.items() if k in ("path", "layer", "where")}, entry.line)
        sub.path = raw if raw.is_absolute() else Path(entry.path).parent / raw  # type: ignore[arg-type]
        cov_gdf = _read_entry(sub, warnings, clip)
        if "where" in sub_spec:
            try:
                cov_gdf = cov_gdf[_compile_where(sub_spec["where"])(cov_gdf).to_numpy()]
            except _WhereError as exc:
                raise entry.fail("coverage " + str(exc)) from exc
        geoms = shapely.make_valid(np.asarray(cov_gdf.geometry.values, dtype=object))
        cov = polygonal_part(shapely.union_all(geoms)) if len(geoms) else Polygon()
    elif spec is None:
        box = _bounds_box(gdf)
        if area is None:  # no village boundary and no parcels to say what the file should map
            cov = None
        elif box is None:
            cov = area
        elif box.intersects(area):
            cov = shapely.union_all([box, area])
        else:
            cov = box
    else:
        raise entry.fail("coverage must be everywhere, village_boundary or a file")
    if cov is None:
        return None if clip is None else clip
    return cov if clip is None else polygonal_part(cov.intersection(clip))


def _text_columns(gdf: gpd.GeoDataFrame, fields: list[Any]) -> gpd.GeoDataFrame:
    """Identifier and code columns as text (see :func:`ids_as_text`)."""
    cols = [str(f) for f in fields if f is not None and str(f) in gdf.columns]
    if not cols:
        return gdf
    gdf = gdf.copy()
    for c in cols:
        gdf[c] = ids_as_text(gdf[c])
    return gdf


def _did_you_mean(word: str, known) -> str:
    import difflib  # noqa: PLC0415

    close = difflib.get_close_matches(str(word), sorted(known), n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _lower_first(text: str) -> str:
    text = text.strip()
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _concat(pieces: list[gpd.GeoDataFrame]) -> gpd.GeoDataFrame:
    if len(pieces) == 1:
        return pieces[0].reset_index(drop=True)
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore", FutureWarning)
        out = pd.concat(pieces, ignore_index=True)
    return gpd.GeoDataFrame(out, geometry="geometry", crs=WORK_CRS)


def _parcels_meta(entry: _Entry, gdf: gpd.GeoDataFrame, warnings: list[str]) -> ParcelsMeta:
    id_field = str(entry.spec.get("id_field", "SBL"))
    if id_field not in gdf.columns:
        raise entry.fail(f"the parcel layer has no field '{id_field}' (set id_field)")
    district = entry.spec.get("district_field")
    address = entry.spec.get("address_field")
    for label, field in (("district_field", district), ("address_field", address)):
        if field is not None and str(field) not in gdf.columns:
            warnings.append(f"{entry.source}: {label} '{field}' is not in the file and was ignored.")
    return ParcelsMeta(
        id_field=id_field,
        district_field=str(district) if district is not None and str(district) in gdf.columns else None,
        address_field=str(address) if address is not None and str(address) in gdf.columns else None,
    )


def _read_entry(entry: _Entry, warnings: list[str], clip: BaseGeometry | None = None) -> gpd.GeoDataFrame:
    """Read one manifest line's file into a GeoDataFrame in EPSG:2260 (geometry not yet repaired).

    Files as their publishers release them: GeoJSON, GeoPackage, shapefile, KML, a zip of one or
    several shapefiles, an Esri File Geodatabase (a ``.gdb`` folder or a ``.gdb.zip``). Where a file
    holds several map layers, ``layer`` must name one (matched ignoring case); the message lists
    them. With ``clip`` (EPSG:2260), only features touching it are read (by bounding box first).
    """
    path = entry.path
    assert path is not None
    is_gdb_dir = path.is_dir() and path.suffix.lower() == ".gdb"
    if not path.is_file() and not is_gdb_dir:
        if path.is_dir():
            raise entry.fail(f"{entry.filename} is a folder; name a file, or a File Geodatabase folder ending in .gdb")
        raise entry.fail(f"the file {entry.filename} was not found")
    layer = entry.spec.get("layer")
    suffix = path.suffix.lower()
    try:
        if suffix == ".kml":
            refuse_xml_declarations(path.read_bytes())
        if suffix == ".kml" and layer is None:
            gdf = _read_all_layers(path)
        else:
            dataset = _zip_dataset(entry, path) if suffix == ".zip" else str(path)
            name = _pick_layer(entry, dataset, path)
            bbox = None
            if clip is not None:
                bbox = _bbox_in_file_crs(dataset, name, clip)
            gdf = pyogrio.read_dataframe(dataset, layer=name, bbox=bbox)
    except SloatInputError as exc:
        if str(exc).startswith("In the layer manifest"):
            raise
        raise entry.fail(str(exc).rstrip(".").lower()) from exc
    except (pyogrio.errors.DataLayerError,) as exc:
        raise entry.fail(f"the file has no layer named '{layer}'") from exc
    except Exception as exc:  # noqa: BLE001 -- GDAL raises many kinds; the message names the line
        raise entry.fail(f"the file {entry.filename} could not be read as map data") from exc
    if gdf.crs is None:
        raise entry.fail("the file has no coordinate system, so it cannot be placed on the map")
    if len(gdf):
        try:
            gdf = gdf.to_crs(WORK_CRS) if not _same_as_work_crs(gdf.crs) else gdf.set_crs(WORK_CRS, allow_override=True)
        except Exception as exc:  # noqa: BLE001
            raise entry.fail("the file's coordinate system could not be converted to EPSG:2260") from exc
    else:
        gdf = gdf.set_crs(WORK_CRS, allow_override=True)
    if gdf.geometry.name != "geometry":
        gdf = gdf.rename_geometry("geometry")
    nulls = gdf.geometry.isna() | gdf.geometry.is_empty
    if nulls.any():
        warnings.append(f"{entry.source}: {int(nulls.sum())} feature(s) without a shape were skipped.")
        gdf = gdf[~nulls.to_numpy()]
    return gdf


def _same_as_work_crs(crs: Any) -> bool:
    """True for EPSG:2260 or an equivalent definition (ESRI:102715): coordinates are used as they are."""
    from pyproj import CRS  # noqa: PLC0415

    from sloat_core.gis.terrain import _is_work_crs  # noqa: PLC0415

    try:
        return _is_work_crs(CRS.from_user_input(crs))
    except Exception:  # noqa: BLE001
        return False


def _bbox_in_file_crs(dataset: str, layer: str | None, clip: BaseGeometry) -> tuple[float, float, float, float] | None:
    """The bounds of ``clip`` (EPSG:2260) in the file's coordinate system, for a bounding-box read."""
    try:
        info = pyogrio.read_info(dataset, layer=layer)
        crs = info.get("crs")
        if not crs:
            return None
        return tuple(gpd.GeoSeries([clip], crs=WORK_CRS).to_crs(crs).total_bounds.tolist())  # type: ignore[return-value]
    except Exception:  # noqa: BLE001 -- without a usable CRS the whole file is read (and refused later)
        return None


def _spatial_layers(dataset: str) -> list[str]:
    """Names of the layers that hold geometry (File GDBs also hold plain tables)."""
    return [str(n) for n, t in pyogrio.list_layers(dataset) if t is not None]


def _pick_layer(entry: _Entry, dataset: str, path: Path) -> str | None:
    """The layer to read: ``layer`` matched ignoring case, or the only map layer; else refuse, listing them."""
    wanted = entry.spec.get("layer")
    suffix = path.suffix.lower()
    if wanted is None and suffix in (".geojson", ".json", ".shp", ".fgb", ".csv"):
        return None
    names = _spatial_layers(dataset)
    if wanted is not None:
        exact = [n for n in names if n == str(wanted)]
        loose = exact or [n for n in names if n.lower() == str(wanted).lower()]
        if not loose:
            raise entry.fail(f"the file has no map layer named '{wanted}' (it has: {_list_names(names)})")
        return loose[0]
    if len(names) > 1:
        raise entry.fail(f"the file holds several map layers ({_list_names(names)}), so name one with 'layer'")
    return names[0] if names else None


def _list_names(names: list[str], limit: int = 15) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "") if names else "none"


def _zip_dataset(entry: _Entry, path: Path) -> str:
    """The GDAL path of the data inside a zip: a shapefile (``layer`` picks one of several, ignoring
    case) or a File Geodatabase folder."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except zipfile.BadZipFile as exc:
        raise entry.fail(f"the file {entry.filename} is not a valid zip archive") from exc
    names = [n for n in names if not n.startswith("__MACOSX/")]
    shps = [n for n in names if n.lower().endswith(".shp")]
    gdbs = sorted({n[: n.lower().index(".gdb/") + 4] for n in names if ".gdb/" in n.lower()})
    if gdbs and not shps:
        if len(gdbs) > 1:
            raise entry.fail(f"the zip archive holds several File Geodatabases ({_list_names(gdbs)}); unzip the one to use")
        return f"/vsizip/{path}/{gdbs[0]}"
    if not shps:
        raise entry.fail("the zip archive holds no shapefile (.shp) and no File Geodatabase (.gdb)")
    wanted = entry.spec.get("layer")
    stems = [PurePosixPath(n).stem for n in shps]
    if wanted:
        pick = [n for n, st in zip(shps, stems, strict=True) if st == str(wanted)] or [
            n for n, st in zip(shps, stems, strict=True) if st.lower() == str(wanted).lower()]
        if not pick:
            raise entry.fail(f"the zip archive has no shapefile named '{wanted}' (it has: {_list_names(stems)})")
        entry.spec = {**entry.spec, "layer": None}  # the shapefile is the dataset: its one layer
        return f"/vsizip/{path}/{pick[0]}"
    if len(shps) > 1:
        raise entry.fail(f"the zip archive holds several shapefiles ({_list_names(stems)}), so name one with 'layer'")
    return f"/vsizip/{path}/{shps[0]}"


def _read_all_layers(path: Path) -> gpd.GeoDataFrame:
    names = [str(n) for n, _ in pyogrio.list_layers(path)]
    frames = [pyogrio.read_dataframe(path, layer=n) for n in names]
    frames = [f for f in frames if len(f)] or frames[:1]
    if len(frames) == 1:
        return frames[0]
    return gpd.GeoDataFrame(pd.concat(frames, ignore_index=True), geometry="geometry", crs=frames[0].crs)


def ids_as_text(values: pd.Series) -> pd.Series:
    """A column of identifiers as text, as the publisher wrote them: a numeric id (MapPLUTO's BBL, read
    from a shapefile or File GDB as a float) is ``"1000010010"``, never ``"1000010010.0"``.

    Examples
    --------
    >>> ids_as_text(pd.Series([1000010010.0, None, 12.5, " 155.06-1-1 "])).tolist()
    ['1000010010', None, '12.5', '155.06-1-1']
    """
    def one(v: Any) -> str | None:
        if _is_missing(v):
            return None
        if isinstance(v, (float, np.floating)):
            f = float(v)
            if f.is_integer() and abs(f) < 2**53:
                return str(int(f))
            return repr(f)
        if isinstance(v, (bytes, bytearray)):
            v = v.decode("utf-8", "replace")
        text = str(v).strip()
        return text or None

    return pd.Series([one(v) for v in values.tolist()], index=values.index, dtype=object)


def _field(gdf: pd.DataFrame, *names: str) -> str | None:
    lower = {str(c).lower(): str(c) for c in gdf.columns}
    for n in names:
        if n.lower() in lower:
            return lower[n.lower()]
    return None


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
        if other and not explicit and entry.role in ("wetlands", "water_bodies", "watercourses"):
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
    if schema == "fema_nfhl":
        sfha_col = _field(gdf, "SFHA_TF")
        zone_col = _field(gdf, "FLD_ZONE")
        if sfha_col is None and zone_col is None:
            raise entry.fail("the fema_nfhl schema needs an SFHA_TF or FLD_ZONE field, and the file has neither")
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
        raise entry.fail("the nwi schema needs a WETLAND_TYPE (or WETLAND_TY) field, and the file has neither")
    kinds = gdf[type_col].astype("string").str.strip().str.lower().fillna("")
    target = np.array([_NWI_ROUTES.get(k, "wetlands") for k in kinds], dtype=object)
    return {role: gdf[target == role] for role in ("wetlands", "water_bodies", "watercourses")}


def _shape_for_role(
    entry: _Entry, role: str, gdf: gpd.GeoDataFrame, width_ft: float, warnings: list[str]
) -> tuple[gpd.GeoDataFrame, gpd.GeoDataFrame | None]:
    """Check geometry types for ``role``, repair polygons, buffer watercourse lines.

    Returns (polygons GeoDataFrame, original lines GeoDataFrame or None).
    """
    types = gdf.geom_type.to_numpy()
    allowed = _POLY_TYPES | {"GeometryCollection"} | (_LINE_TYPES if role in LINE_ROLES else set())
    bad = sorted({str(t) for t in types} - allowed)
    if bad:
        wants = "polygons or lines" if role in LINE_ROLES else "polygons (areas)"
        raise entry.fail(f"the file holds {', '.join(bad)} features, but the {role} layer needs {wants}")
    geoms = shapely.force_2d(np.asarray(gdf.geometry.values, dtype=object))
    is_line = np.isin(types, list(_LINE_TYPES))
    lines_gdf = None
    if is_line.any():
        line_rows = gdf[is_line].copy()
        line_rows = line_rows.set_geometry(gpd.GeoSeries(geoms[is_line], index=line_rows.index, crs=WORK_CRS))
        widths = np.full(len(line_rows), width_ft, dtype=float)
        wf = entry.spec.get("width_field")
        if wf:
            col = _field(line_rows, str(wf))
            if col is None:
                warnings.append(f"{entry.source}: width_field '{wf}' is not in the file; {width_ft:g} ft was used.")
            else:
                given = pd.to_numeric(line_rows[col], errors="coerce").to_numpy(dtype=float)
                ok = np.isfinite(given) & (given > 0)
                widths = np.where(ok, given, width_ft)
        lines_gdf = line_rows.reset_index(drop=True)
        buffered = shapely.buffer(geoms[is_line], widths / 2.0, cap_style="flat")
        geoms = geoms.copy()
        geoms[is_line] = buffered
    invalid = ~shapely.is_valid(geoms)
    if invalid.any():
        geoms = geoms.copy()
        geoms[invalid] = shapely.make_valid(geoms[invalid])
    needs_extract = ~np.isin(shapely.get_type_id(geoms), [3, 6])  # Polygon, MultiPolygon
    if needs_extract.any():
        geoms = geoms.copy()
        geoms[needs_extract] = [polygonal_part(g) for g in geoms[needs_extract]]
    keep = ~shapely.is_empty(geoms)
    dropped = int((~keep).sum())
    if dropped:
        warnings.append(f"{entry.source}: {dropped} feature(s) had no area after repair and were skipped.")
    out = gdf[keep].copy()
    out = out.set_geometry(gpd.GeoSeries(geoms[keep], index=out.index, crs=WORK_CRS))
    return out.reset_index(drop=True), lines_gdf
