"""The one door from the app into the engine: every page's analysis comes through here.

One cached run of :func:`sloat_core.engine.analysis.analyze_parcel`, keyed by the parcel's geometry, the
project's facts (the form's project, the Board's answers, the mitigation figures), the district, the day,
the layer set's version and the settings in use. A tax parcel's answer with no project, in the district a pick
starts with (its tax record's), is read from the answers worked out ahead for the day when they hold it
(:mod:`sloat_core.engine.prepared`, ``python -m sloat_core prepare-answers``): the same result, not worked
out again in each process. The Parcel page's answer, the project form's, the cluster
and mitigation pages', the walk-through's pictures and a case's downloads are all the same run when their
facts are the same, so no page works out a different answer for the same inputs.

A plan (a proposed plat or site plan) is read and checked lot by lot here too (:func:`read_plan`,
:func:`plan_check`): the check is run once per distinct plan, parcel and facts, like the analysis.

The run's analysis holds the typed result (:class:`sloat_core.engine.result.ParcelResult`, frozen: shared, never
copied): :func:`result`, :func:`project_result` and the session's last project result hand the pages that result,
and the pages and views read it by attribute (a view takes a result dict at its door too, :func:`parcel_result`).
Its dict (the command line's JSON contract, ``to_dict()``) is written only where it leaves the app: a case's
snapshot in the store (:func:`copy_result`). :class:`AnalysisView` names the fields the app reads most.

It is the pages' only way into the core: what else a page (or a view drawing a result) takes from
``sloat_core`` -- the screening disclaimer, the input error, the timeline's clocks, the Law page's text,
the calendar file -- it takes from here too (:data:`CORE_NAMES`), so the app's dependence on the core is
read in one place.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass

import streamlit as st

from app_support import loaders
from sloat_core.approvals.county_referral import referral_bands_geojson
from sloat_core.approvals.facts import parse_approval_facts
from sloat_core.approvals.state_law import all_state_facts
from sloat_core.approvals.village_law import approval_events
from sloat_core.engine.analysis import DISCLAIMER
from sloat_core.engine.answer import lot_answer, permits_by_cause, what_if_sentence
from sloat_core.engine.result import Deduction, Mitigation, ParcelResult, parcel_result
from sloat_core.errors import NoLotsLayerError, SloatInputError
from sloat_core.gis.parcels import to_wgs84_geojson
from sloat_core.law import text as law_text
from sloat_core.law.not_modelled import not_modelled, not_modelled_groups
from sloat_core.rules.clocks import ITEM_KINDS, timeline_events
from sloat_core.rules.sections.s402_57_wetlands.mitigation import MAX_SQFT, mitigation
from sloat_core.rules.project import parse_project
from sloat_core.rules.sections.permit import Permit
from sloat_core.rules.sections.s402_48_cluster.cluster import Trigger, yield_phrase

__all__ = ["law_day", "analysis", "result", "copy_result", "prepared_result", "project_result", "mitigation_answer",
           "AnalysisView", "view",
           "read_plan", "plan_check", "plan_layer_names", "PLAN_KINDS",
           # the rest of the core the pages and the views use, passed on as the core declares it (same objects)
           "DISCLAIMER", "SloatInputError", "NoLotsLayerError", "ITEM_KINDS", "MAX_SQFT", "all_state_facts", "approval_events",
           "law_text", "lot_answer", "map_png", "mitigation", "not_modelled", "not_modelled_groups",
           "parcel_result", "parse_approval_facts", "parse_project", "permits_by_cause", "referral_bands_geojson",
           "timeline_events", "to_ics", "to_wgs84_geojson", "what_if_sentence", "yield_phrase", "csv_safe"]

#: What pages and views take from the core besides the analysis: through this door, never from ``sloat_core``.
CORE_NAMES = tuple(__all__[__all__.index("DISCLAIMER"):])


def law_day(as_of: dt.date | None = None) -> dt.date:
    """The day the app applies the law at: ``as_of`` when a page gives one, else today.

    The app's one "today" for the law: every analysis, plan check, mitigation figure and map label of the app
    reads Article IX (and the state law around it) as in effect on this day, passed down to the core, which
    never reads today itself.
    """
    return as_of or dt.date.today()


def _dumps(obj) -> str:
    return json.dumps(obj or {}, sort_keys=True, default=str)


def _parcel_key(parcel) -> str:
    """The parcel's geometry and what the result repeats of it (SBL, address, district, source)."""
    meta = [getattr(parcel, k, None) for k in ("sbl", "address", "district", "source")]
    return f"{loaders.parcel_key(parcel)}|{json.dumps(meta, default=str)}"


@st.cache_resource(show_spinner="Working out the answer…", max_entries=64)
def _run(pkey: str, lkey: str, skey: str, district: str | None, project_json: str, answers_json: str,
         mit_json: str, as_of: str, _parcel, _layers, _settings):
    from sloat_core.engine.analysis import analyze_parcel

    return analyze_parcel(_parcel, _layers, district=district, project=json.loads(project_json) or None,
                          settings=_settings, as_of=dt.date.fromisoformat(as_of),
                          board_answers=json.loads(answers_json) or None,
                          mitigation_input=json.loads(mit_json) or None)


def analysis(parcel, layers, *, district: str | None = None, project: dict | None = None,
             board_answers: dict | None = None, mitigation_input: dict | None = None,
             as_of: dt.date | None = None, settings=None, settings_id: str | None = None):
    """The engine's ``Analysis`` (result and geometry) for these facts, run once per distinct set of them.

    The object is shared between sessions: read it, do not change it (its result is frozen).

    Parameters
    ----------
    settings, settings_id
        The local settings (default :func:`app_support.loaders.settings`) and a key naming them when they
        are not the shipped file's (a case's overrides).

    Raises
    ------
    sloat_core.errors.SloatInputError
        One plain sentence when a value cannot be used.
    """
    if settings is None:
        settings, skey = loaders.settings(), "local"
    else:
        skey = settings_id or f"object {id(settings)}"
    day = law_day(as_of).isoformat()
    return _run(_parcel_key(parcel), loaders.layers_key(layers), skey, district or None, _dumps(project),
                _dumps(board_answers), _dumps(mitigation_input), day, parcel, layers, settings)


_ATOMS = (str, int, float, bool, type(None))


def _copy(obj):
    """``copy.deepcopy`` of a result made of dicts, lists and plain values, in about half its time.

    Other types (and tuples holding them) go through ``copy.deepcopy``; plain values are shared, as
    ``deepcopy`` shares them.
    """
    kind = type(obj)
    if kind is dict:
        return {k: _copy(v) for k, v in obj.items()}
    if kind is list:
        return [_copy(v) for v in obj]
    if kind in _ATOMS:
        return obj
    if kind is tuple:
        return tuple(_copy(v) for v in obj)
    return copy.deepcopy(obj)


@st.cache_resource(show_spinner=False)
def _prepared_store(data_dir: str):
    from sloat_core.engine.prepared import PreparedAnswers

    return PreparedAnswers(data_dir)


_GENERATIONS: dict = {}
_GENERATIONS_LOCK = threading.Lock()


def _generation(layers, day: dt.date) -> str:
    """The generation of answers this process would make today from its layer set and settings (worked out once
    per layer set, state of the settings files and day)."""
    from sloat_core.engine.prepared import generation, settings_stamp

    settings_file = loaders.SETTINGS_FILE
    # every settings file the answers are made from (local, state law, lot-size candidates), not local.yaml alone
    key = (id(layers), loaders.layers_key(layers), settings_stamp(settings_file), day)
    with _GENERATIONS_LOCK:
        found = _GENERATIONS.get(key)
    if found is None:
        found = generation(layers.manifest_path, day, settings_file)
        with _GENERATIONS_LOCK:
            if len(_GENERATIONS) > 16:
                _GENERATIONS.clear()
            _GENERATIONS[key] = found
    return found


def prepared_result(parcel, layers, district: str | None) -> ParcelResult | None:
    """The parcel's answer in ``district`` (no project, today, the local settings) from the answers worked out
    ahead, if they hold it for this parcel, district, layer set, settings, code and day; else None (frozen:
    shared, read it)."""
    from sloat_core.engine.prepared import answer_key
    from sloat_core.store.sqlite import default_data_dir

    if getattr(layers, "manifest_path", None) is None or getattr(parcel, "sbl", None) is None:
        return None  # only tax parcels are worked out ahead
    reader = _prepared_store(str(default_data_dir().resolve()))
    stamp = reader.file_stamp()
    if stamp is None:
        return None  # no file: nothing worked out ahead (a damaged or foreign one is found by get())
    key = (stamp, _generation(layers, law_day()), answer_key(parcel, district))
    with _DECODED_LOCK:
        found = _DECODED.get(key)
    if found is None:  # a pick reads its answer twice (the case's snapshot, the page): decoded once
        found = reader.get(key[1], key[2])
        if found is None:
            return None
        with _DECODED_LOCK:
            _DECODED[key] = found
            while len(_DECODED) > _DECODED_MAX:
                _DECODED.popitem(last=False)
    return found  # the typed result read back from the file, as the pages read it


def prepared_picture(layers, request) -> tuple[str, list[list[float]]] | None:
    """The slope picture for ``request`` (:func:`sloat_core.gis.slope_web.picture_request`) from the answers
    worked out ahead (a PNG data URL and its WGS84 bounds), if they hold it for this layer set, settings, code
    and day; else None (the caller makes it)."""
    from sloat_core.engine.prepared import picture_key
    from sloat_core.store.sqlite import default_data_dir

    if getattr(layers, "manifest_path", None) is None:
        return None
    reader = _prepared_store(str(default_data_dir().resolve()))
    if reader.file_stamp() is None:
        return None
    return reader.picture(_generation(layers, law_day()), picture_key(request))


#: Answers read from the file lately, decoded (the file's stamp, the app's generation, the parcel's key -> result).
_DECODED: OrderedDict = OrderedDict()
_DECODED_MAX = 32
_DECODED_LOCK = threading.Lock()


def copy_result(obj) -> dict:
    """A result dict the caller may change and keep (a case's snapshot, the JSON the store writes): the typed
    result's ``to_dict()`` (a new dict), or a copy of a result dict (:func:`_copy`)."""
    return obj.to_dict() if hasattr(obj, "to_dict") else _copy(obj)


def result(parcel, layers, **facts) -> ParcelResult:
    """The typed result of :func:`analysis` (frozen: shared between sessions, read it; :func:`copy_result` for a
    dict to keep).

    With no fact but the parcel and its district, the answer worked out ahead when there is one
    (:func:`prepared_result`)."""
    district = facts.get("district")
    if (not any(v for k, v in facts.items() if k != "district")
            and (found := prepared_result(parcel, layers, district)) is not None):
        return found
    return analysis(parcel, layers, **facts).result


def project_result(parcel, layers, **facts) -> tuple[ParcelResult, dict]:
    """The typed result (frozen, shared) and what the drawn footprint touches: ``footprint_sqft``, ``outside_parcel_sqft``,
    ``wetland_sqft``, ``watercourse_sqft``, ``water_body_sqft``, ``buffer_sqft``, ``steep_slope_sqft``
    (None where the layer is missing; empty without a footprint)."""
    a = analysis(parcel, layers, **facts)
    out = a.result
    summary = out.footprint
    touches: dict = {}
    if a.project.disturbance_footprint is not None and summary is not None:
        # The core's summary measures the footprint where it lies, on or off the parcel (§ 402-57G).
        touches = {
            "footprint_sqft": summary.area_sqft,
            "outside_parcel_sqft": summary.outside_parcel_sqft,
            "wetland_sqft": summary.wetlands_sqft,
            "watercourse_sqft": summary.watercourses_sqft,
            "water_body_sqft": summary.water_bodies_sqft,
            "buffer_sqft": summary.buffer_sqft,
            "steep_slope_sqft": summary.slope_25_or_more_sqft,
        }
    return out, touches


def mitigation_answer(*, on: dt.date | None = None, **figures) -> Mitigation:
    """:func:`sloat_core.rules.sections.s402_57_wetlands.mitigation.mitigation` of typed figures alone (no parcel),
    as the typed result's part (:class:`sloat_core.engine.result.Mitigation`), read as a result's is; by the law
    of ``on`` (default: the app's day, :func:`law_day`)."""
    return Mitigation.from_dict(mitigation(**figures, on=law_day(on)))


@dataclass(frozen=True)
class AnalysisView:
    """The fields of the result the app reads most (None where the result says unknown)."""

    gross_area_sqft: float | None
    net_lot_area_sqft: float | None
    min_lot_area_sqft: float | None
    meets_min_lot_area: bool | None
    district: str | None
    as_of: str
    permits: tuple[Permit, ...]
    deductions: tuple[Deduction, ...]
    cluster_triggers: tuple[Trigger, ...]
    cluster_applies: bool | None
    mitigation: Mitigation | None
    warnings: tuple[str, ...]

    @classmethod
    def of(cls, result: ParcelResult) -> "AnalysisView":
        return cls(
            gross_area_sqft=result.gross_area_sqft, net_lot_area_sqft=result.net_lot_area_sqft,
            min_lot_area_sqft=result.min_lot_area_sqft, meets_min_lot_area=result.meets_min_lot_area,
            district=result.district, as_of=result.as_of.isoformat(), permits=result.permits,
            deductions=result.deductions, cluster_triggers=result.cluster_triggers,
            cluster_applies=result.cluster_applies, mitigation=result.mitigation, warnings=result.warnings)


def view(parcel, layers, **facts) -> AnalysisView:
    """:class:`AnalysisView` of :func:`analysis`."""
    return AnalysisView.of(analysis(parcel, layers, **facts).result)


def to_ics(events, **options) -> str:
    """:func:`sloat_core.outputs.ics.to_ics`: the deadlines as an iCalendar file (icalendar, about 0.2 s to import,
    loaded when the Timeline page first offers the file, as before)."""
    from sloat_core.outputs.ics import to_ics as write

    return write(events, **options)


@st.cache_resource(show_spinner=False, max_entries=32)
def _map_png(pkey: str, lkey: str, district: str | None, day: str, width_in: float, _parcel, _layers):
    from sloat_core.outputs.report import map_png as draw

    return draw(analysis(_parcel, _layers, district=district, as_of=dt.date.fromisoformat(day)), _layers,
                width_in=width_in)


def map_png(parcel, layers, *, district: str | None = None, width_in: float = 6.0) -> tuple[bytes, float | None]:
    """:func:`sloat_core.outputs.report.map_png` of the parcel's analysis (the shipped settings, no project): the
    report's map as a PNG and its height-to-width ratio, drawn once per parcel, layer set, district and day and
    shared between sessions (about a second of CPU to draw; the walk-through's first screen shows it on every
    run). Its drawing code is loaded when first asked for: the report is the heaviest part of the core."""
    return _map_png(_parcel_key(parcel), loaders.layers_key(layers), district or None, law_day().isoformat(),
                    float(width_in), parcel, layers)


#: The kinds of plan the check knows (``sloat_core.plan.lots.KINDS``): a conventional plat or a cluster.
PLAN_KINDS = ("conventional", "cluster")


def read_plan(data: bytes, filename: str, *, roles: dict[str, str] | None = None):
    """:func:`sloat_core.plan.reading.read_plan` of an upload's bytes: a ``PlanDrawing``, read in the bounded worker
    under the parcel files' size and vertex limits (the reader loads ezdxf, so it is imported when first asked for).

    Raises
    ------
    NoLotsLayerError
        No layer is recognised (or chosen) as the lots: it carries the file's layers.
    SloatInputError
        Anything else the file cannot give, in one sentence (a DWG, a damaged file, a plat in local coordinates).
    """
    from sloat_core.plan.reading import read_plan as read

    return read(data, roles=roles, filename=filename)


def plan_layer_names() -> tuple[tuple[str, str, str], ...]:
    """(layer name, role, where the name comes from) of every layer name a plan's roles are recognised by."""
    from sloat_core.plan.layer_roles import LAYER_NAMES

    return LAYER_NAMES


@st.cache_resource(show_spinner="Checking the plan lot by lot…", max_entries=16)
def _plan_run(pkey: str, lkey: str, dkey: str, ckey: str | None, district: str | None, kind: str,
              project_json: str, as_of: str, _parcel, _layers, _drawing, _conventional, _settings):
    from sloat_core.plan.check import check_plan

    return check_plan(_parcel, _drawing, _layers, district=district, kind=kind, conventional=_conventional,
                      project=json.loads(project_json) or None, as_of=dt.date.fromisoformat(as_of),
                      settings=_settings)


def plan_check(parcel, layers, drawing, drawing_key: str, *, conventional=None, conventional_key: str | None = None,
               district: str | None = None, kind: str = "conventional", project: dict | None = None,
               as_of: dt.date | None = None):
    """:func:`sloat_core.plan.check.check_plan` of a plan on the parcel, run once per distinct set of facts.

    ``drawing_key`` (and ``conventional_key``) name the plan read (its file's bytes and the roles chosen): two
    drawings with one key must be the same plan. The ``PlanResult`` is shared between sessions: read it.

    Raises
    ------
    sloat_core.errors.SloatInputError
        One plain sentence when the plan cannot be checked on this parcel.
    """
    if kind not in PLAN_KINDS:
        raise SloatInputError(f"'{kind}' is not a kind of plan; choose conventional or cluster.")
    day = law_day(as_of).isoformat()
    return _plan_run(_parcel_key(parcel), loaders.layers_key(layers), drawing_key,
                     conventional_key if conventional is not None else None, district or None, kind,
                     _dumps(project), day, parcel, layers, drawing, conventional, loaders.settings())


def csv_safe(value) -> str:
    """:func:`sloat_core.outputs.exports.csv_safe`: one CSV cell defused against formula injection (the exports
    module loads the calendar library, so it is imported when a table is first downloaded)."""
    from sloat_core.outputs.exports import csv_safe as safe

    return safe(value)
