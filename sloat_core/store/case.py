"""One consultation as data: the :class:`Case`, its ids, and its versioned JSON export.

See :mod:`sloat_core.store` for the store as a whole.

>>> c = Case(id=new_case_id(), notes="Met at the counter.")
>>> case_from_json(case_to_json(c), keep_id=True).notes
'Met at the counter.'
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from sloat_core.errors import SloatInputError

#: Name and version of the case export format (``case_to_json``).
CASE_FORMAT = "sloat-case"
CASE_FORMAT_VERSION = 1
#: Largest case export accepted by ``case_from_json``.
MAX_CASE_JSON_BYTES = 5 * 1024 * 1024
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{22}$")
_MAX_NOTES_CHARS = 50_000
_MAX_TEXT_CHARS = 500
_MAX_TIMELINE_ITEMS = 200


def new_case_id() -> str:
    """A fresh unguessable case id (128 random bits, 22 URL-safe characters).

    >>> is_valid_case_id(new_case_id())
    True
    """
    return secrets.token_urlsafe(16)


def is_valid_case_id(case_id: Any) -> bool:
    """Whether `case_id` has the shape of an id made by :func:`new_case_id`.

    >>> is_valid_case_id("' OR 1=1 --"), is_valid_case_id("../../etc/passwd")
    (False, False)
    """
    return isinstance(case_id, str) and bool(_ID_RE.fullmatch(case_id))


# ----------------------------------------------------------------------------------------------
# The case
# ----------------------------------------------------------------------------------------------


def _now_iso() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


@dataclass
class Case:
    """One consultation. Plain JSON-ready data throughout.

    Attributes
    ----------
    id : str
        Unguessable id (the ``?case=`` of the link).
    title : str
        Short label for staff lists (e.g. an address).
    parcel_geojson : dict or None
        The parcel outline as a GeoJSON geometry in WGS84 longitude/latitude.
    parcel_meta : dict
        ``source``, ``sbl``, ``address``, ``district`` of the parcel as read.
    district : str or None
        District chosen by the user (None: from the zoning layer).
    project : dict
        The project description (``sloat_core.rules.project.parse_project`` shape).
    board_answers : dict
        Planning Board answers, e.g. ``{"402-48C(4)": True}``.
    timeline_items : list of dict
        Permits and their dates (``sloat_core.rules.clocks.timeline_events`` items).
    notes : str
        Free text.
    mitigation_input : dict
        Keyword arguments of ``sloat_core.rules.mitigation.mitigation``.
    settings_overrides : dict
        Overrides of the local settings (``load_settings(overrides=...)``).
    analysis : dict or None
        Snapshot of the last analysis result (the JSON contract).
    params_version, law_text_sha256, layers_name, layers_version : str or None
        Versions the snapshot used.
    created_at, updated_at : str
        ISO timestamps (UTC).
    archived : bool
    revision : int
        Saved revision (0 = never saved).
    """

    id: str = field(default_factory=new_case_id)
    title: str = ""
    parcel_geojson: dict | None = None
    parcel_meta: dict = field(default_factory=dict)
    district: str | None = None
    project: dict = field(default_factory=dict)
    board_answers: dict = field(default_factory=dict)
    timeline_items: list = field(default_factory=list)
    notes: str = ""
    mitigation_input: dict = field(default_factory=dict)
    settings_overrides: dict = field(default_factory=dict)
    analysis: dict | None = None
    params_version: str | None = None
    law_text_sha256: str | None = None
    layers_name: str | None = None
    layers_version: str | None = None
    created_at: str = field(default_factory=_now_iso)
    updated_at: str = field(default_factory=_now_iso)
    archived: bool = False
    revision: int = 0

    def record_analysis(self, result: dict) -> None:
        """Keep `result` (an analysis result dict) as the snapshot, with the versions it used."""
        from sloat_core.law.text import LAW_TEXT_SHA256

        self.analysis = json.loads(json.dumps(result))
        self.params_version = result.get("params_version")
        self.layers_name = result.get("layers_name")
        self.layers_version = result.get("layers_version")
        self.law_text_sha256 = LAW_TEXT_SHA256

    def to_dict(self) -> dict:
        """All fields as a JSON-ready dict."""
        return dataclasses.asdict(self)

    def search_text(self) -> str:
        """The text staff search looks through (lower case)."""
        meta = self.parcel_meta or {}
        bits = [self.id, self.title, self.district or "", meta.get("sbl") or "", meta.get("address") or "",
                meta.get("district") or "", self.notes]
        return " ".join(str(b) for b in bits if b).lower()


_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "title": (str,),
    "parcel_geojson": (dict, type(None)),
    "parcel_meta": (dict,),
    "district": (str, type(None)),
    "project": (dict,),
    "board_answers": (dict,),
    "timeline_items": (list,),
    "notes": (str,),
    "mitigation_input": (dict,),
    "settings_overrides": (dict,),
    "analysis": (dict, type(None)),
    "params_version": (str, type(None)),
    "law_text_sha256": (str, type(None)),
    "layers_name": (str, type(None)),
    "layers_version": (str, type(None)),
    "created_at": (str,),
    "updated_at": (str,),
    "archived": (bool,),
    "revision": (int,),
}
_FIELD_WORDS = {
    "parcel_geojson": "parcel outline", "parcel_meta": "parcel details", "board_answers": "Board answers",
    "timeline_items": "permit dates", "mitigation_input": "mitigation figures",
    "settings_overrides": "setting overrides", "analysis": "analysis snapshot",
}


def _check_finite(obj: Any, depth: int = 0) -> None:
    if depth > 40:
        raise SloatInputError("The case file is nested too deeply to be a case.")
    if isinstance(obj, float) and not math.isfinite(obj):
        raise SloatInputError("The case file holds a number that is not finite.")
    if isinstance(obj, dict):
        for v in obj.values():
            _check_finite(v, depth + 1)
    elif isinstance(obj, list):
        for v in obj:
            _check_finite(v, depth + 1)


def _validate_case_dict(data: dict) -> Case:
    if not isinstance(data, dict):
        raise SloatInputError("The case file has no case in it.")
    unknown = sorted(set(data) - set(_FIELD_TYPES))
    if unknown:
        raise SloatInputError(f"The case file has a field this version does not know: {unknown[0]!r}.")
    for name, types in _FIELD_TYPES.items():
        if name not in data:
            continue
        v = data[name]
        if (isinstance(v, bool) and bool not in types) or not isinstance(v, types):
            raise SloatInputError(f"The case's {_FIELD_WORDS.get(name, name.replace('_', ' '))} "
                                  "has the wrong kind of value.")
    if "id" in data and not is_valid_case_id(data["id"]):
        raise SloatInputError("The case id in the file is not a valid case id.")
    if len(data.get("notes", "")) > _MAX_NOTES_CHARS:
        raise SloatInputError(f"The notes are longer than {_MAX_NOTES_CHARS:,} characters.")
    for name in ("title", "district", "params_version", "law_text_sha256", "layers_name", "layers_version"):
        if isinstance(data.get(name), str) and len(data[name]) > _MAX_TEXT_CHARS:
            raise SloatInputError(f"The case's {name.replace('_', ' ')} is too long.")
    items = data.get("timeline_items", [])
    if len(items) > _MAX_TIMELINE_ITEMS or any(not isinstance(i, dict) for i in items):
        raise SloatInputError("The case's permit dates must be a list of dated items.")
    geo = data.get("parcel_geojson")
    if geo is not None and (not isinstance(geo.get("type"), str) or "coordinates" not in geo and "geometry" not in geo
                            and "features" not in geo):
        raise SloatInputError("The case's parcel outline is not a GeoJSON geometry.")
    for name in ("created_at", "updated_at"):
        if name in data:
            try:
                dt.datetime.fromisoformat(data[name])
            except ValueError:
                raise SloatInputError(f"The case's {name.replace('_', ' ')} is not a date and time.") from None
    if data.get("revision", 0) < 0:
        raise SloatInputError("The case's revision cannot be negative.")
    _check_finite(data)
    return Case(**data)


def case_to_json(case: Case) -> str:
    """The whole case as a versioned JSON document (UTF-8 text).

    Parameters
    ----------
    case : Case

    Returns
    -------
    str
        ``{"format": "sloat-case", "format_version": 1, "exported_at": ..., "case": {...}}``.
    """
    doc = {
        "format": CASE_FORMAT,
        "format_version": CASE_FORMAT_VERSION,
        "exported_at": _now_iso(),
        "case": case.to_dict(),
    }
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False)


def case_from_json(text: str | bytes, *, keep_id: bool = False, max_bytes: int = MAX_CASE_JSON_BYTES) -> Case:
    """Read a case written by :func:`case_to_json`, validating it.

    Parameters
    ----------
    text : str or bytes
        The JSON document.
    keep_id : bool
        Keep the id in the file (restoring a backup). By default the imported case gets a fresh id and
        revision 0, so importing never overwrites an existing case.
    max_bytes : int
        Larger documents are refused before they are parsed.

    Returns
    -------
    Case

    Raises
    ------
    SloatInputError
        Too large, not JSON, another format, an unknown format version, or a field of the wrong kind.
    """
    size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
    if size > max_bytes:
        raise SloatInputError(f"The case file is larger than {max_bytes // (1024 * 1024)} MB.")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # ValueError: bad JSON, bad UTF-8, or an integer of over 4,300 digits
        raise SloatInputError("The case file is not valid JSON.") from None
    if not isinstance(doc, dict) or doc.get("format") != CASE_FORMAT:
        raise SloatInputError("This file is not a Sloatsburg case file.")
    version = doc.get("format_version")
    if version != CASE_FORMAT_VERSION or isinstance(version, bool):
        raise SloatInputError(f"The case file has format version {version!r}; this tool reads version "
                              f"{CASE_FORMAT_VERSION}.")
    case = _validate_case_dict(doc.get("case"))
    if not keep_id:
        case.id = new_case_id()
        case.revision = 0
        case.archived = False
    return case


def analyze_case(case: Case, layerset, *, as_of: dt.date | None = None, settings_path=None):
    """Run the analysis on a case's inputs (the one function here that reaches up to the rules).

    Parameters
    ----------
    case : Case
    layerset : LayerSet
    as_of : datetime.date, optional
        Default today.
    settings_path : path, optional
        Local settings file (default the shipped one); the case's overrides are applied to it.

    Returns
    -------
    sloat_core.engine.analysis.Analysis
    """
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis.parcels import parcel_from_geojson
    from sloat_core.law.settings import load_settings

    if case.parcel_geojson is None:
        raise SloatInputError("This case has no parcel yet.")
    meta = case.parcel_meta or {}
    parcel = parcel_from_geojson(case.parcel_geojson, source=meta.get("source") or "saved case")
    parcel = dataclasses.replace(parcel, sbl=meta.get("sbl"), address=meta.get("address"),
                                 district=meta.get("district"))
    settings = load_settings(settings_path, overrides=case.settings_overrides or None)
    return analyze_parcel(
        parcel, layerset, district=case.district, project=case.project or None, settings=settings,
        as_of=as_of, board_answers=case.board_answers or None, mitigation_input=case.mitigation_input or None,
    )


