"""The layer manifest: :func:`load_manifest` reads it into a :class:`~sloat_core.gis.layers.model.LayerSet`.

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
expression such as ``ZONE in ('AE', 'A') and not STATIC_BFE = -9999`` (parsed, never
``eval``-ed). The schemas live in :mod:`~sloat_core.gis.layers.schemas`, the ``where`` language in
:mod:`~sloat_core.gis.layers.where`, reading the files in :mod:`~sloat_core.gis.layers.readers`.

A role that the manifest does not name is *unknown*: ``LayerSet.get(role)`` returns ``None`` and
callers must report "unknown", never "none".
"""

from __future__ import annotations

import math
import threading
import warnings as _warnings
import dataclasses
from pathlib import Path

import geopandas as gpd
import pandas as pd
import shapely
import yaml
from shapely.geometry.base import BaseGeometry

from sloat_core.errors import ManifestError, SloatInputError
from sloat_core.gis.layers.entry import _beside, _Entry
from sloat_core.gis.layers.entry_coverage import EXTENT_ROLES, _bounds_box, _combined_state, _entry_coverage, _old_default
from sloat_core.gis.layers.model import Layer, LayerSet, ParcelsMeta, polygonal_part
from sloat_core.gis.layers.readers import _clip_to, _read_entry, _shape_for_role, _text_columns
from sloat_core.gis.layers.schemas import SCHEMAS, _adapt, _field, _fields_listed, _sniff_schema
from sloat_core.gis.layers.where import _compile_where, _WhereError
from sloat_core.gis.roles import ROLES
from sloat_core.gis.roles import role as role_decl
from sloat_core.gis.terrain import DemUnitsError, PreparedDem, prepare_dem
from sloat_core.units import WORK_CRS

__all__ = ["FALLBACK_STREAM_WIDTH_FT", "load_manifest", "clear_manifest_cache"]


FALLBACK_STREAM_WIDTH_FT = 10.0


_TOP_KEYS = {"name", "version", "illustrative", "notice", "layers", "dem", "clip_buffer_ft", "place", "created",
             "generated_by", "informational"}
_DEM_KEYS = {"path", "z_units", "source", "url", "query", "downloaded", "publisher_version", "publisher_date", "note"}
_ENTRY_KEYS = {"path", "layer", "crs", "schema", "where", "width_field", "id_field", "district_field", "address_field",
               "coverage", "source", "publisher", "url", "query", "downloaded", "publisher_version",
               "publisher_date"}
#: The parcel layer's owner names (§ 402-57K(4)), read by sloat_core.rules.sections.s402_57_wetlands.adjacent_owners.
_ENTRY_KEYS |= {"owner_field"}
#: What fetch-official records of each source besides its URL and query.
_ENTRY_KEYS |= {"service_type", "fields_used"}
_DEM_KEYS |= {"service_type", "fields_used"}


def _line_numbers(root: yaml.Node | None) -> dict[tuple[str, int | None], int]:
    """1-based line numbers of each ``layers`` entry (role, index), from the manifest's YAML node tree."""
    out: dict[tuple[str, int | None], int] = {}
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
    ManifestError (a SloatInputError)
        Bad YAML, an unknown role or schema, a missing file, a file without a coordinate system, the
        wrong geometry type for a role, a bad ``where``; the message names the manifest line.
    """
    manifest = Path(path).expanduser()
    try:
        resolved = manifest.resolve(strict=True)
        mtime = resolved.stat().st_mtime_ns
    except (OSError, RuntimeError) as exc:
        raise ManifestError(f"The layer manifest {manifest} was not found.") from exc
    if default_stream_width_ft is None:
        width = _default_stream_width_ft()
    else:
        width = float(default_stream_width_ft)
        if not (width > 0 and math.isfinite(width)):
            raise ManifestError("The default stream width must be a positive number of feet.")
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
    lines, doc = _read_manifest(manifest)
    warnings: list[str] = []
    for extra in sorted(set(map(str, doc)) - _TOP_KEYS):
        warnings.append(f"The layer manifest {name} has an unknown key '{extra}', which was ignored"
                        + _did_you_mean(extra, _TOP_KEYS) + ".")
    base = manifest.parent
    entries = _entries(name, doc["layers"], lines, base, warnings)
    got = _Collected(clip_ft=_clip_buffer_ft(doc, name))
    # The village boundary first: clipping and default coverage are measured against it.
    # Then the parcels: the village and its tax parcels are the area a layer is expected to map.
    entries.sort(key=lambda e: EXTENT_ROLES.index(e.role) if e.role in EXTENT_ROLES else len(EXTENT_ROLES))
    for k, entry in enumerate(entries):
        _load_entry(got, k, entry, width_ft, warnings)
    roles, coverages, coverage_states = _layers_by_role(got)

    if got.village is None and "village_boundary" in got.parts:  # a manifest naming no layer after the boundary
        got.village = _village_of(got.parts)
    if got.area is None:
        got.area = _expected_area(got.village, got.parts)
    informational, informational_cov = _informational(doc, name, base, got.village, got.area, got.clip, width_ft,
                                                      warnings)
    dem_path, dem = _load_dem(doc, name, base, warnings)

    return LayerSet(
        name=str(doc.get("name") or name),
        version=str(doc.get("version") or ""),
        manifest_path=manifest,
        illustrative=bool(doc.get("illustrative", False)),
        notice=str(doc.get("notice") or ""),
        roles=roles,
        dem_path=dem_path,
        dem=dem,
        parcels_meta=got.parcels_meta,
        zoning_district_field=got.zoning_field,
        warnings=tuple(warnings),
        coverages=coverages,
        coverage_states=coverage_states,
        clip_area=got.clip,
        informational=informational,
        informational_coverage=informational_cov,
    )


def _read_manifest(manifest: Path) -> tuple[dict[tuple[str, int | None], int], dict]:
    """The line numbers of the manifest's ``layers`` entries (:func:`_line_numbers`) and its YAML mapping, refused
    unless it has a ``layers`` mapping. The text is parsed once: what ``yaml.safe_load`` does, with the node tree
    kept for the line numbers (read before the mapping is built, which rewrites merge keys in the tree)."""
    name = manifest.name
    try:
        text = manifest.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"The layer manifest {name} could not be read as text.") from exc
    try:
        loader = yaml.SafeLoader(text)
        try:
            root = loader.get_single_node()
            lines = _line_numbers(root)
            doc = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise ManifestError(f"The layer manifest {name} is not valid YAML{at}.") from exc
    if not isinstance(doc, dict):
        raise ManifestError(f"The layer manifest {name} must be a YAML mapping with a 'layers' section.")
    if not isinstance(doc.get("layers"), dict):
        raise ManifestError(f"The layer manifest {name} has no 'layers' mapping.")
    return lines, doc


def _entries(name: str, layers_spec: dict, lines: dict[tuple[str, int | None], int], base: Path,
             warnings: list[str]) -> list[_Entry]:
    """The manifest lines of ``layers:``, in the order written, each checked (role, path, schema)."""
    entries: list[_Entry] = []
    for role, spec in layers_spec.items():
        role = str(role)
        specs = spec if isinstance(spec, list) else [spec]
        for i, one in enumerate(specs):
            idx = i if isinstance(spec, list) else None
            entries.append(_entry(name, role, idx, one, lines, base, warnings))
    return entries


def _entry(name: str, role: str, idx: int | None, one, lines: dict[tuple[str, int | None], int], base: Path,
           warnings: list[str]) -> _Entry:
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
    entry.path = _beside(base, one["path"])
    return entry


@dataclasses.dataclass
class _Collected:
    """What the entries read so far hold, by role; and the village boundary, the clip area and the area a layer
    is expected to map, measured from them."""

    clip_ft: float | None
    parts: dict[str, list[gpd.GeoDataFrame]] = dataclasses.field(default_factory=dict)
    line_parts: dict[str, list[gpd.GeoDataFrame]] = dataclasses.field(default_factory=dict)
    sources: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    covers: dict[str, list[BaseGeometry | None]] = dataclasses.field(default_factory=dict)
    states: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    parcels_meta: ParcelsMeta | None = None
    zoning_field: str | None = None
    village: BaseGeometry | None = None
    clip: BaseGeometry | None = None
    area: BaseGeometry | None = None


#: The field options of the roles read by a field: (the options, their defaults); their columns are kept as text.
_FIELD_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "parcels": (("id_field", "district_field", "address_field"), {"id_field": "SBL"}),
    "zoning": (("district_field",), {"district_field": "ZONE"}),
}


def _load_entry(got: _Collected, k: int, entry: _Entry, width_ft: float, warnings: list[str]) -> None:
    """Read the ``k``-th manifest line (in the order of :data:`EXTENT_ROLES`) into ``got``."""
    _measure_extent(got, k, entry)
    gdf, coverage, cover_state = _read_kept(got, entry, warnings)
    if entry.role in _FIELD_OPTIONS:
        keys, defaults = _FIELD_OPTIONS[entry.role]
        _resolve_fields(entry, gdf, keys, defaults)
        gdf = _text_columns(gdf, [entry.spec.get(key, defaults.get(key)) for key in keys])
    routed = _adapt(entry, str(entry.spec.get("schema", "generic")), gdf)
    for role, piece in routed.items():
        _add_piece(got, entry, role, piece, (coverage, cover_state), width_ft, warnings)
    if entry.role == "parcels":
        got.parcels_meta = _parcels_meta(entry, gdf, warnings)
    if entry.role == "zoning":
        got.zoning_field = str(entry.spec.get("district_field", "ZONE"))
        if got.zoning_field not in gdf.columns:
            raise entry.fail(f"the zoning layer has no field '{got.zoning_field}' (set district_field; "
                             f"{_fields_listed(gdf)})")


def _village_of(parts: dict[str, list[gpd.GeoDataFrame]]) -> BaseGeometry | None:
    """The village boundary read so far (its polygons), or None when it is empty."""
    village = polygonal_part(shapely.union_all(_concat(parts["village_boundary"]).geometry.values))
    return None if village.is_empty else village


def _expected_area(village: BaseGeometry | None, parts: dict[str, list[gpd.GeoDataFrame]]) -> BaseGeometry | None:
    """The area a layer is expected to map: the village boundary with the extent of the tax parcels (or None)."""
    extents = [g for g in (village, _bounds_box(_concat(parts["parcels"])) if "parcels" in parts else None)
               if g is not None]
    return shapely.union_all(extents) if extents else None


def _measure_extent(got: _Collected, k: int, entry: _Entry) -> None:
    """Before the first entry past the extent roles: the village, the clip area and the area expected mapped."""
    if got.village is None and entry.role != "village_boundary" and "village_boundary" in got.parts:
        got.village = _village_of(got.parts)
        if got.village is not None and got.clip_ft is not None:
            got.clip = got.village.buffer(got.clip_ft)
    if got.area is None and entry.role not in EXTENT_ROLES:
        got.area = _expected_area(got.village, got.parts)
    if got.clip_ft is not None and got.village is None and entry.role != "village_boundary" and k == 0:
        raise ManifestError(f"The layer manifest {entry.manifest_name} asks to clip to the village boundary, but "
                            "names no village_boundary layer.")


def _read_kept(got: _Collected, entry: _Entry, warnings: list[str]) -> tuple[gpd.GeoDataFrame,
                                                                           BaseGeometry | None, str]:
    """The entry's features (clipped, kept by its ``where``), with its coverage and coverage state."""
    gdf = _read_entry(entry, warnings, got.clip if entry.role != "village_boundary" else None)
    if got.clip is not None and entry.role != "village_boundary" and len(gdf):
        gdf = _clip_to(gdf, got.clip, cut=not role_decl(entry.role).kept_whole)
    coverage, cover_state = _entry_coverage(entry, gdf, got.village, got.area, got.clip, warnings)
    if "where" in entry.spec:
        try:
            mask = _compile_where(entry.spec["where"])(gdf)
        except _WhereError as exc:
            raise entry.fail(str(exc)) from exc
        gdf = gdf[mask.to_numpy()]
    _sniff_schema(entry, gdf, warnings)
    return gdf, coverage, cover_state


def _add_piece(got: _Collected, entry: _Entry, role: str, piece: gpd.GeoDataFrame,
               cover: tuple[BaseGeometry | None, str], width_ft: float, warnings: list[str]) -> None:
    """The features an entry's schema routes to ``role``, shaped for it, added with the entry's coverage."""
    polys, lns = _shape_for_role(entry, role, piece, width_ft, warnings)
    polys["_source"] = entry.source
    got.parts.setdefault(role, []).append(polys)
    # A schema routes some features to other roles (NWI's riverine to watercourses): its coverage
    # speaks for those roles only where no entry of their own says where they are mapped.
    key = role if role == entry.role else f"routed:{role}"
    got.covers.setdefault(key, []).append(cover[0])
    got.states.setdefault(key, []).append(cover[1])
    if lns is not None:
        lns["_source"] = entry.source
        got.line_parts.setdefault(role, []).append(lns)
    if entry.source not in got.sources.setdefault(role, []):
        got.sources[role].append(entry.source)


def _layers_by_role(got: _Collected) -> tuple[dict[str, Layer], dict[str, BaseGeometry | None], dict[str, str]]:
    """Each role's layer, coverage and coverage state, from the pieces of all its entries."""
    roles: dict[str, Layer] = {}
    coverages: dict[str, BaseGeometry | None] = {}
    coverage_states: dict[str, str] = {}
    for role, pieces in got.parts.items():
        gdf = _concat(pieces)
        lines_gdf = _concat(got.line_parts[role]) if role in got.line_parts else None
        roles[role] = Layer(role, gdf, "; ".join(got.sources[role]), lines=lines_gdf)
        own = role if role in got.covers else f"routed:{role}"
        cov = got.covers.get(own, [None])
        coverages[role] = None if any(c is None for c in cov) else polygonal_part(shapely.union_all(cov))
        coverage_states[role] = _combined_state(got.states.get(own, []))
    return roles, coverages, coverage_states


def _load_dem(doc: dict, name: str, base: Path, warnings: list[str]) -> tuple[Path | None, PreparedDem | None]:
    """The manifest's ``dem:`` (path, prepared elevations): (None, None) without one; the path and None when
    the file cannot be used (slopes are then unknown, and said so)."""
    dem_doc = doc.get("dem")
    if dem_doc is None:
        return None, None
    dem_spec = dem_doc if isinstance(dem_doc, dict) else {"path": dem_doc}
    if not dem_spec.get("path"):
        raise ManifestError(f"In the layer manifest {name}, the 'dem' entry needs a 'path'.")
    dem_source = _beside(base, dem_spec["path"])
    if not dem_source.is_file():
        raise ManifestError(f"In the layer manifest {name}, the elevation file {dem_spec['path']} was not found.")
    for extra in sorted(set(map(str, dem_spec)) - _DEM_KEYS):
        warnings.append(f"The layer manifest {name}'s dem entry has an unknown key '{extra}', which was ignored"
                        + _did_you_mean(extra, _DEM_KEYS) + ".")
    try:
        dem = prepare_dem(dem_source, dem_spec.get("z_units"))
    except DemUnitsError as exc:  # never read elevations in an unknown unit: refuse the manifest
        raise ManifestError(f"In the layer manifest {name}, the dem entry ({dem_spec['path']}): "
                              + _lower_first(str(exc))) from exc
    except SloatInputError as exc:
        # No or another coordinate system, unreadable: the layer set loads, slopes are unknown
        # and every analysis says why (the terrain module refuses the file again when asked).
        warnings.append(f"The elevation model cannot be used, so slopes are unknown: {exc}")
        return dem_source, None
    warnings.extend(dem.warnings)
    return dem.path, dem


def _informational(doc: dict, name: str, base: Path, village, area, clip, width_ft: float,
                   warnings: list[str]) -> tuple[dict[str, Layer], dict[str, BaseGeometry | None]]:
    """Layers no deduction reads, shown and screened by their own rules (the NYSDEC wetland map, whose
    status follows the state regime in force on the analysis date): ``informational: {name: {path, ...}}``."""
    spec = doc.get("informational") or {}
    if not isinstance(spec, dict):
        raise ManifestError(f"In the layer manifest {name}, 'informational' must be a mapping of named layers.")
    layers: dict[str, Layer] = {}
    covs: dict[str, BaseGeometry | None] = {}
    if "nysdec_wetlands" in spec:  # one way in for the NYSDEC map: the role
        raise ManifestError(f"In the layer manifest {name}, the NYSDEC map is now a layer role: move "
                            "'nysdec_wetlands' from 'informational:' to 'layers:' (same path and coverage), "
                            "or run fetch-official again.")
    for key, one in spec.items():
        entry = _Entry(name, str(key), None, one if isinstance(one, dict) else {}, None)
        if not isinstance(one, dict) or not one.get("path"):
            raise entry.fail("the informational entry needs a 'path' to a file")
        entry.path = _beside(base, one["path"])
        gdf = _read_entry(entry, warnings, clip)
        if clip is not None and len(gdf):
            gdf = _clip_to(gdf, clip, cut=True)
        if one.get("coverage") is None:  # assumed, and said so: the features' extent (with the village)
            covs[str(key)] = _old_default(gdf, area, clip)
            warnings.append(f"{entry.source}: no 'coverage:' is given, so the coverage is assumed to be the layer's "
                            "extent; name where the publisher maps (a file of its map units, village_boundary or "
                            "everywhere, as fetch-official writes for the statewide NYSDEC map).")
        else:
            covs[str(key)], _ = _entry_coverage(entry, gdf, village, area, clip, warnings)
        polys, _ = _shape_for_role(entry, "wetlands", gdf, width_ft, warnings)
        polys["_source"] = entry.source
        layers[str(key)] = Layer(str(key), polys.reset_index(drop=True), entry.source)
    return layers, covs


def _clip_buffer_ft(doc: dict, name: str) -> float | None:
    raw = doc.get("clip_buffer_ft")
    if raw is None or raw is False:
        return None
    try:
        value_ft = float(raw)
    except (TypeError, ValueError):
        value_ft = float("nan")
    if not (math.isfinite(value_ft) and value_ft >= 0):
        raise ManifestError(f"In the layer manifest {name}, clip_buffer_ft must be a number of feet (0 or more).")
    return value_ft


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


def _resolve_fields(entry: _Entry, gdf: gpd.GeoDataFrame, keys: tuple[str, ...], defaults: dict[str, str]) -> None:
    """Field options as the file spells them: ``id_field: SBL`` finds ``Parcels.SBL`` or ``sbl`` (see
    :func:`~sloat_core.gis.layers.schemas._field`); the entry then names the file's own column."""
    for key in keys:
        wanted = entry.spec.get(key, defaults.get(key))
        if wanted is None or str(wanted) in gdf.columns:
            continue
        col = _field(gdf, str(wanted))
        if col is not None:
            entry.spec = {**entry.spec, key: col}


def _parcels_meta(entry: _Entry, gdf: gpd.GeoDataFrame, warnings: list[str]) -> ParcelsMeta:
    id_field = str(entry.spec.get("id_field", "SBL"))
    if id_field not in gdf.columns:
        raise entry.fail(f"the parcel layer has no field '{id_field}' (set id_field; {_fields_listed(gdf)})")
    district = entry.spec.get("district_field")
    address = entry.spec.get("address_field")
    for label, field in (("district_field", district), ("address_field", address)):
        if field is not None and str(field) not in gdf.columns:
            warnings.append(f"{entry.source}: {label} '{field}' is not in the file and was ignored "
                            f"({_fields_listed(gdf)}).")
    return ParcelsMeta(
        id_field=id_field,
        district_field=str(district) if district is not None and str(district) in gdf.columns else None,
        address_field=str(address) if address is not None and str(address) in gdf.columns else None,
    )
