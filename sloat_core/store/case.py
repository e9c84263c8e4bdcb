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
from typing import TYPE_CHECKING, Any

from sloat_core.errors import SloatInputError

if TYPE_CHECKING:
    from sloat_core.engine.result import ParcelResult

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
        Keyword arguments of ``sloat_core.rules.sections.s402_57_wetlands.mitigation.mitigation``.
    settings_overrides : dict
        Overrides of the local settings (``load_settings(overrides=...)``).
    plan : dict or None
        The Plan page's plan: ``name``, ``kind`` (conventional or cluster), ``district`` (or null: the zoning
        map), ``drawn``, and the features read as GeoJSON FeatureCollections in EPSG:2260 (``plan`` and, for a
        cluster's yield, ``conventional`` with its ``conventional_name``), each feature's ``layer`` its role and
        ``lot`` its label. Read again through the plan reader when the case reopens. ``warnings`` (and
        ``conventional_warnings``) keep what the reader assumed or repaired when the file itself was read (its
        units, say), one sentence each: the features kept are in feet already and cannot say it again.
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
    plan: dict | None = None
    analysis: dict | None = None
    params_version: str | None = None
    law_text_sha256: str | None = None
    layers_name: str | None = None
    layers_version: str | None = None
    created_at: str = field(default_factory=_now_iso)
    updated_at: str = field(default_factory=_now_iso)
    archived: bool = False
    revision: int = 0

    def record_analysis(self, result: ParcelResult | dict, *, owned: bool = False) -> None:
        """Keep `result` (the typed result, or its dict) as the snapshot, with the versions it used.

        The snapshot is the result's dict (``ParcelResult.to_dict()``, the command line's JSON): the typed result
        is written as it; a dict is copied through JSON, unless ``owned``: the caller hands over a result of plain
        JSON values (dicts, lists, strings, numbers, booleans, None: as ``analyze`` makes them) that nothing else
        holds, and it is kept as it is. :meth:`analysis_result` reads it back.
        """
        from sloat_core.engine.result import ParcelResult
        from sloat_core.law.text import LAW_TEXT_SHA256

        if isinstance(result, ParcelResult):
            typed, self.analysis = result, result.to_dict()
        else:
            typed, self.analysis = None, result if owned else json.loads(json.dumps(result))
        if typed is not None:
            self.params_version, self.layers_name = typed.params_version, typed.layers_name
            self.layers_version = typed.layers_version
        else:  # the app's dict (app_support.analysis_door)
            self.params_version = result.get("params_version")
            self.layers_name = result.get("layers_name")
            self.layers_version = result.get("layers_version")
        self.law_text_sha256 = LAW_TEXT_SHA256

    def analysis_result(self) -> ParcelResult | None:
        """The snapshot read back as the typed result (None without one).

        Raises
        ------
        sloat_core.errors.ResultShapeError
            The snapshot is not of the result's shape (one saved by an older version of the tool, whose keys
            differ): analyse the case again.
        """
        from sloat_core.engine.result import ParcelResult

        return None if self.analysis is None else ParcelResult.from_dict(self.analysis)

    def to_dict(self) -> dict:
        """All fields as a JSON-ready dict (a deep copy: the caller may change it)."""
        return dataclasses.asdict(self)

    def fields_view(self) -> dict:
        """All fields as a dict that shares its values with the case: read it (to write it out), never change it.

        One level, no copy: a save reads the fields once to check and write them, and the analysis
        snapshot alone is thousands of values that ``dataclasses.asdict`` would copy one by one.
        """
        return {name: getattr(self, name) for name in _FIELD_NAMES}

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
    "plan": (dict, type(None)),
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


#: The fields of :class:`Case`, in their order.
_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(Case))


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
        raise SloatInputError(f"The case file has a field this version does not know: {str(unknown[0])[:40]!r}.")
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


#: ``parcel_meta`` keys (what ``cases_ui`` writes), each a short text or null.
PARCEL_META_KEYS = ("source", "sbl", "address", "district", "note")
#: The Planning Board answers a case may hold (``app_support.widgets.forms.board_answer_inputs``): yes, no or unknown.
BOARD_ANSWER_KEYS = ("402-48C(4)", "402-48C(5)", "402-48C(6)")
#: ``mitigation_input`` keys that are areas in square feet (non-negative numbers or null).
MITIGATION_AREA_KEYS = ("impacted_wetland_sqft", "impacted_buffer_sqft", "proposed_mitigation_sqft",
                        "impacted_water_body_sqft")
_MITIGATION_SOURCES = ("typed", "footprint")


def _refuse(words: str, reason: str) -> SloatInputError:
    reason = reason.strip().rstrip(".")
    if reason[:1].isupper() and not reason[1:2].isupper():
        reason = reason[0].lower() + reason[1:]
    return SloatInputError(f"The case's {words} cannot be used: {reason}.")


def _tri(value: Any) -> bool:
    return value is None or isinstance(value, bool)


def _check_parts(data: dict) -> None:
    """Each part of an imported case checked against what the pages and the rules accept (one sentence naming it).

    The parts the rules validate themselves (the project, the permit dates, the mitigation figures, the setting
    overrides, the parcel outline) are handed to those validators, so the checks are the rules' own.
    """
    for check in _PART_CHECKS:
        check(data)


def _check_parcel_meta(data: dict) -> None:
    meta = data.get("parcel_meta") or {}
    unknown = sorted(set(meta) - set(PARCEL_META_KEYS))
    if unknown:
        raise _refuse("parcel details", f"the field {str(unknown[0])[:40]!r} is not one this version knows")
    for k, v in meta.items():
        if v is not None and not isinstance(v, str) or isinstance(v, str) and len(v) > _MAX_TEXT_CHARS:
            raise _refuse("parcel details", f"the {k} must be a short text")


def _check_board_answers(data: dict) -> None:
    answers = data.get("board_answers") or {}
    unknown = sorted(set(answers) - set(BOARD_ANSWER_KEYS))
    if unknown:
        raise _refuse("Board answers", f"{str(unknown[0])[:40]!r} is not one of the Board's questions "
                      f"({', '.join(BOARD_ANSWER_KEYS)})")
    for k, v in answers.items():
        if not _tri(v):
            raise _refuse("Board answers", f"the answer to § {k} must be yes, no or unknown (true, false or null), "
                          f"not {str(v)[:40]!r}")


def _check_mitigation_input(data: dict) -> None:
    """The mitigation figures: their fields and kinds here, then the mitigation rule's own checks."""
    mit = data.get("mitigation_input") or {}
    known = set(MITIGATION_AREA_KEYS) | {"onsite_possible", "gate", "impact_source"}
    unknown = sorted(set(mit) - known)
    if unknown:
        raise _refuse("mitigation figures", f"the field {str(unknown[0])[:40]!r} is not one this version knows")
    for k in MITIGATION_AREA_KEYS:
        v = mit.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise _refuse("mitigation figures", f"the {k.replace('_sqft', '').replace('_', ' ')} must be a number of "
                          "square feet")
    if not _tri(mit.get("onsite_possible")):
        raise _refuse("mitigation figures", "whether on-site mitigation is possible must be yes, no or unknown")
    if "impact_source" in mit and mit["impact_source"] not in _MITIGATION_SOURCES:
        raise _refuse("mitigation figures", "the impact source must be 'typed' or 'footprint'")
    gate = mit.get("gate")
    if gate is not None:
        from sloat_core.rules.sections.s402_57_wetlands.mitigation import GATE

        if not isinstance(gate, dict) or set(gate) - set(GATE) or not all(_tri(v) for v in gate.values()):
            raise _refuse("mitigation figures", "the § 402-57P(1) criteria must be yes, no or unknown")
    if mit:
        from sloat_core.rules.sections.s402_57_wetlands.mitigation import check_figures

        try:
            check_figures(**mit)
        except SloatInputError as exc:
            raise _refuse("mitigation figures", str(exc)) from None


def _check_project(data: dict) -> None:
    if data.get("project"):
        from sloat_core.rules.project import parse_project

        try:
            parse_project(data["project"])
        except SloatInputError as exc:
            raise _refuse("project description", str(exc)) from None


def _check_timeline_items(data: dict) -> None:
    items = data.get("timeline_items") or []
    if items:
        from sloat_core.rules.clocks import timeline_events

        try:
            timeline_events(items, dt.date.today(), expiring_soon_days=90)
        except SloatInputError as exc:
            raise _refuse("permit dates", str(exc)) from None
        except (TypeError, ValueError, KeyError, AttributeError, OverflowError):
            raise _refuse("permit dates", "an item is not a permit with its dates") from None


def _check_settings_overrides(data: dict) -> None:
    if data.get("settings_overrides"):
        from sloat_core.law.settings import load_settings

        try:
            load_settings(overrides=data["settings_overrides"])
        except SloatInputError as exc:
            raise _refuse("setting overrides", str(exc)) from None
        except (TypeError, ValueError, KeyError, AttributeError):
            raise _refuse("setting overrides", "a value is not of the setting's kind") from None


def _check_parcel_outline(data: dict) -> None:
    if data.get("parcel_geojson") is not None:
        from sloat_core.gis.parcels import parcel_from_geojson

        try:
            parcel_from_geojson(data["parcel_geojson"], source="case file")
        except SloatInputError as exc:
            raise _refuse("parcel outline", str(exc)) from None
        except (TypeError, ValueError, KeyError, AttributeError):
            raise _refuse("parcel outline", "it is not a GeoJSON geometry") from None


#: The keys of a case's plan (:attr:`Case.plan`).
PLAN_KEYS = ("name", "kind", "district", "drawn", "plan", "conventional", "conventional_name", "warnings",
             "conventional_warnings")
#: Most sentences a plan's ``warnings`` keep (a reader's notes: a handful).
MAX_PLAN_WARNINGS = 50
#: Largest plan a case keeps, as JSON (its drawings are read again, under the plan reader's own limits, when
#: the case reopens).
MAX_PLAN_JSON_BYTES = 4 * 1024 * 1024


def _check_plan(data: dict) -> None:
    """The plan: its keys and kinds here, then each drawing read by the plan reader itself (the bounded worker)."""
    plan = data.get("plan")
    if plan is None:
        return
    unknown = sorted(set(plan) - set(PLAN_KEYS))
    if unknown:
        raise _refuse("plan", f"the field {str(unknown[0])[:40]!r} is not one this version knows")
    if plan.get("kind", "conventional") not in ("conventional", "cluster"):
        raise _refuse("plan", "its kind must be 'conventional' or 'cluster'")
    for k in ("name", "district", "conventional_name"):
        v = plan.get(k)
        if v is not None and (not isinstance(v, str) or len(v) > _MAX_TEXT_CHARS):
            raise _refuse("plan", f"the {k.replace('_', ' ')} must be a short text")
    if not isinstance(plan.get("drawn", False), bool):
        raise _refuse("plan", "whether it was drawn must be true or false")
    for k in ("warnings", "conventional_warnings"):
        v = plan.get(k, [])
        if not isinstance(v, list) or len(v) > MAX_PLAN_WARNINGS or not all(
                isinstance(w, str) and len(w) <= _MAX_TEXT_CHARS for w in v):
            raise _refuse("plan", f"its {k.replace('_', ' ')} must be a list of at most {MAX_PLAN_WARNINGS} short "
                                  "texts")
    text = json.dumps(plan, allow_nan=False)
    if len(text.encode("utf-8")) > MAX_PLAN_JSON_BYTES:
        raise _refuse("plan", f"it is larger than {MAX_PLAN_JSON_BYTES // (1024 * 1024)} MB")
    from sloat_core.plan.reading import read_plan

    for k in ("plan", "conventional"):
        drawing = plan.get(k)
        if drawing is None:
            continue
        if not isinstance(drawing, dict):
            raise _refuse("plan", f"its {k} drawing is not a GeoJSON FeatureCollection")
        try:
            read_plan(json.dumps(drawing).encode("utf-8"), filename=f"{k}.geojson")
        except SloatInputError as exc:
            raise _refuse("plan", str(exc)) from None


#: The checks of :func:`_check_parts`, in the order a case's parts are checked (the first refusal is the one said).
_PART_CHECKS = (_check_parcel_meta, _check_board_answers, _check_mitigation_input, _check_project,
                _check_timeline_items, _check_settings_overrides, _check_parcel_outline, _check_plan)


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
    _check_parts(doc["case"])  # a file from outside: every part as the pages and the rules accept it
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


