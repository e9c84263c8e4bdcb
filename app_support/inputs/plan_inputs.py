"""The Plan page's inputs: a plan file uploaded (and, for a cluster, the conventional plat), or lots drawn on the map.

A plan is read through the door (:func:`app_support.analysis_door.read_plan`: the bounded worker, the parcel files'
size and vertex limits) and kept in the session as a :class:`PlanSource`: its name, the bytes it was read from, the
roles chosen and the drawing read. A file that cannot be used shows one sentence beside its uploader and leaves the
plan checked before, and its answer, as they were. A file with no layer recognised as the lots offers its layers in
a select box; the one chosen is read as the lots (``roles={"lots": layer}``).

Lots drawn on the map become a GeoJSON plan of the ``lots`` layer, read the same way, so a drawn lot is checked
exactly as an uploaded one; the map's drawing layer holds the drawn plan's lots, so that a lot drawn is added to
them (:mod:`app_support.map.plan_drawing`). The case keeps a plan as the features read, in GeoJSON
(:func:`plan_geojson`) with what the reader said of the file (its units, say), and reopens it with
:func:`restore` (a drawn plan in the drawing mode, the reader's warnings shown again).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import streamlit as st

from app_support.analysis_door import NoLotsLayerError, SloatInputError, plan_check, read_plan
from app_support.inputs import drawing_intake
from app_support.inputs.parcel_inputs import UPLOAD_MAX_MB
from app_support.widgets.citations import escape_markdown

__all__ = ["PLAN", "CONVENTIONAL", "KIND", "DISTRICT", "HOW", "UPLOAD", "DRAW", "PLAN_TYPES", "KEPT_AFTER_REFUSAL",
           "DRAWN_NAME", "PlanSource", "source_key", "current", "set_plan", "clear", "upload", "take_drawings",
           "plan_geojson", "case_key", "case_value", "restore", "checked"]

#: Session keys: the plan checked and the conventional plat (:class:`PlanSource` or None), and the options. All
#: start with ``plan_``: a case loaded forgets them (``state.CASE_WIDGET_PREFIXES``) and puts its own back.
PLAN = "plan_source"
CONVENTIONAL = "plan_conventional_source"
KIND = "plan_kind"
DISTRICT = "plan_district"
HOW = "plan_how"
UPLOAD, DRAW = "Upload a plan file", "Draw the lots on the map"
#: The uploader takes a DWG too, so that it is refused in the core's one sentence (save it as DXF), not by the widget.
PLAN_TYPES = ["dxf", "gpkg", "geojson", "json", "zip", "dwg"]
#: Said beside an uploader after a refused file: the plan checked before is still the one below.
KEPT_AFTER_REFUSAL = "Nothing was changed: the plan checked below is still the one from before"
#: The name a plan drawn on the map goes by.
DRAWN_NAME = "Lots drawn on the map"
_SLOTS = {PLAN: "plan", CONVENTIONAL: "plan_conv"}
_MAX_LABEL_CHARS = 60


@dataclass(frozen=True)
class PlanSource:
    """A plan as the session holds it: where it came from and the drawing read from it."""

    name: str
    data: bytes
    roles: dict | None
    drawing: object  # sloat_core.plan.drawing.PlanDrawing
    drawn: bool = False
    key: str = ""  # names the plan read: its bytes and the roles chosen (the check's cache key, :func:`source_key`)


def source_key(data: bytes, roles: dict | None) -> str:
    """The key of a plan read from ``data`` with ``roles``: two sources with one key are the same plan."""
    digest = hashlib.sha256(data)
    digest.update(json.dumps(roles or {}, sort_keys=True).encode())
    return digest.hexdigest()


def current(slot: str = PLAN) -> PlanSource | None:
    """The plan (``PLAN``) or the conventional plat (``CONVENTIONAL``) in the session, or None."""
    found = st.session_state.get(slot)
    return found if isinstance(found, PlanSource) else None


def set_plan(slot: str, name: str, data: bytes, roles: dict | None = None, *, drawn: bool = False,
             filename: str | None = None, kept_warnings: list | tuple = ()) -> PlanSource:
    """Read ``data`` (a file called ``filename``, by default ``name``) and make it the session's plan in ``slot``;
    raises (NoLotsLayerError, SloatInputError) and leaves the slot as it was when it cannot be read.

    ``kept_warnings``: what the reader said when the plan's own file was read (a case reopened keeps them: its
    features, in feet already, cannot say them again), put before the warnings of this reading."""
    import dataclasses

    drawing = read_plan(data, filename or name, roles=roles)
    key = source_key(data, roles)
    if kept_warnings:
        kept = tuple(dict.fromkeys([*(str(w) for w in kept_warnings), *drawing.warnings]))
        drawing = dataclasses.replace(drawing, warnings=kept)
        key = source_key(data + b"\0" + json.dumps(kept).encode(), roles)  # the warnings go in the documents
    source = PlanSource(name, data, dict(roles) if roles else None, drawing, drawn, key)
    st.session_state[slot] = source
    return source


def clear(slot: str = PLAN) -> None:
    """Forget the plan in ``slot`` (and anything waiting for a choice of its lots layer)."""
    prefix = _SLOTS[slot]
    for key in (slot, f"{prefix}_error", f"{prefix}_pending"):
        st.session_state[key] = None


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= _MAX_LABEL_CHARS else text[:_MAX_LABEL_CHARS - 1] + "…"


def upload(slot: str, label: str, *, help_text: str | None = None) -> None:
    """A plan uploader for ``slot``: the file read when it changes, its refusal in one sentence beside it, and,
    when no layer is recognised as the lots, the select box of its layers."""
    prefix = _SLOTS[slot]
    ss = st.session_state
    file = st.file_uploader(label, type=PLAN_TYPES, key=f"{prefix}_upload", max_upload_size=UPLOAD_MAX_MB,
                            help=help_text)
    if file is None:  # the file taken away: its sentence or its layers go with it (the plan read stays)
        ss[f"{prefix}_error"] = ss[f"{prefix}_pending"] = None
    elif ss.get(f"{prefix}_seen") != file.file_id:
        ss[f"{prefix}_seen"] = file.file_id
        ss[f"{prefix}_pending"] = None
        ss.pop(f"{prefix}_lots_layer", None)  # the last file's choice means nothing for this one
        _read(slot, file.name, file.getvalue(), None)
    pending = ss.get(f"{prefix}_pending")
    if pending:
        _choose_lots_layer(slot, *pending)
    error = ss.get(f"{prefix}_error")
    if error:
        st.error(escape_markdown(error))  # it may quote the file's name or its layers
        kept = current(slot)
        if kept is not None:
            st.caption(escape_markdown(f"{KEPT_AFTER_REFUSAL} ({_short(kept.name)})."))


def _read(slot: str, name: str, data: bytes, roles: dict | None) -> bool:
    """Read a file into ``slot``: True when it became the plan; else its sentence (or its layers to choose from)."""
    prefix = _SLOTS[slot]
    ss = st.session_state
    try:
        set_plan(slot, name, data, roles)
    except NoLotsLayerError as exc:
        if roles:  # the layer chosen is gone: say so, and offer the layers again
            ss[f"{prefix}_error"] = str(exc)
            return False
        ss[f"{prefix}_error"] = None
        ss[f"{prefix}_pending"] = (name, data, tuple(exc.layers))
        return False
    except SloatInputError as exc:  # the plan checked before stays as it was
        ss[f"{prefix}_error"] = str(exc)
        return False
    ss[f"{prefix}_error"] = None
    ss[f"{prefix}_pending"] = None
    return True


def _choose_lots_layer(slot: str, name: str, data: bytes, layers: tuple[str, ...]) -> None:
    """No layer of the file is recognised as the lots: the visitor names the one that holds them."""
    prefix = _SLOTS[slot]
    st.warning(escape_markdown(f"No layer of {_short(name)} is recognised as the lots: choose the layer that "
                               "holds the lot outlines."), icon=":material/layers:")
    if not layers:
        st.caption("The file has no named layers to choose from.")
        return
    chosen = st.selectbox("Layer that holds the lots", list(layers), index=None, key=f"{prefix}_lots_layer",
                          placeholder="Choose a layer", format_func=_short)
    if chosen is not None and st.button("Read the lots from this layer", key=f"{prefix}_lots_layer_use"):
        if _read(slot, name, data, {"lots": chosen}):
            st.rerun()  # the plan's answer below, for the lots now read


def take_drawings(all_drawings) -> bool:
    """The lots drawn on the map (each polygon or rectangle a lot) as the session's plan; True when it changed.

    The drawings come from the browser: they are checked first (:func:`drawing_intake.drawing_problem`). With no
    drawing left, a drawn plan is forgotten. ``None`` is a map that has sent nothing since it was made (a case
    reopened, the page visited again): the plan stays as it is. The map's drawing layer holds the drawn plan's
    lots (:func:`app_support.map.plan_drawing.drawing_layer_group`), so the drawings sent next are those lots and
    the ones drawn since, and a lot drawn is added to the plan."""
    ss = st.session_state
    if all_drawings is None:
        return False
    signature = drawing_intake.drawings_signature(all_drawings) or "nothing drawn"
    if signature == ss.get("plan_drawn_seen"):
        return False
    ss["plan_drawn_seen"] = signature
    if problem := drawing_intake.drawing_problem(all_drawings):
        ss["plan_error"] = problem
        return False
    lots = [f.get("geometry") for f in all_drawings or []
            if ((f or {}).get("geometry") or {}).get("type") in ("Polygon", "MultiPolygon")]
    if not lots:
        if (plan := current()) is not None and plan.drawn:
            clear(PLAN)
            return True
        return False
    features = [{"type": "Feature", "properties": {"layer": "lots", "lot": str(i)}, "geometry": g}
                for i, g in enumerate(lots, start=1)]
    data = json.dumps({"type": "FeatureCollection", "features": features}).encode()
    try:
        set_plan(PLAN, DRAWN_NAME, data, drawn=True, filename="drawn.geojson")
    except SloatInputError as exc:
        ss["plan_error"] = str(exc)
        return False
    ss["plan_error"] = None
    return True


def plan_geojson(source: PlanSource | None) -> dict | None:
    """The features read from a plan, as a GeoJSON FeatureCollection in EPSG:2260 US survey feet (a ``crs``
    member names it): each feature's ``layer`` is its role's own name and ``lot`` its label, so reading it back
    gives the same features in the same roles, to the foot."""
    from shapely.geometry import mapping

    if source is None:
        return None
    drawing = source.drawing
    features = [{"type": "Feature", "properties": {"layer": f.role, "lot": f.label},
                 "geometry": mapping(f.geometry)} for f in drawing.features]
    return {"type": "FeatureCollection", "name": source.name[:200],
            "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::2260"}}, "features": features}


def case_key() -> list | None:
    """What the case's fingerprint reads of the plan (cheap: the plans' keys and the options), or None."""
    plan = current(PLAN)
    if plan is None:
        return None
    conventional = current(CONVENTIONAL)
    return [plan.key, conventional.key if conventional else None, st.session_state.get(KIND) or "conventional",
            st.session_state.get(DISTRICT) or None]


def case_value() -> dict | None:
    """What a case keeps of the session's plan: its name, the options and the features read (GeoJSON), or None."""
    plan = current(PLAN)
    if plan is None:
        return None
    ss = st.session_state
    conventional = current(CONVENTIONAL)
    value = {"name": plan.name[:200], "drawn": plan.drawn, "kind": ss.get(KIND) or "conventional",
             "district": ss.get(DISTRICT) or None, "plan": plan_geojson(plan),
             "conventional": plan_geojson(conventional),
             "conventional_name": (conventional.name[:200] if conventional else None)}
    for key, source in (("warnings", plan), ("conventional_warnings", conventional)):
        if source is not None and source.drawing.warnings:
            value[key] = _kept_warnings(source.drawing.warnings)
    return value


def _kept_warnings(warnings) -> list[str]:
    """A plan's reader warnings as a case keeps them (:data:`sloat_core.store.case.MAX_PLAN_WARNINGS` sentences of
    at most 500 characters)."""
    from sloat_core.store.case import MAX_PLAN_WARNINGS

    return [w if len(w) <= 500 else w[:499] + "…" for w in dict.fromkeys(str(w) for w in warnings)][
        :MAX_PLAN_WARNINGS]


def restore(saved: dict | None) -> str | None:
    """Put a case's plan back in the session (read again from its GeoJSON, through the same bounded reader).

    Returns None, or one sentence when the saved plan cannot be read (the case opens without it)."""
    ss = st.session_state
    for slot in (PLAN, CONVENTIONAL):
        clear(slot)
    ss[KIND], ss[DISTRICT], ss[HOW] = "conventional", None, UPLOAD
    if not saved:
        return None
    try:
        for slot, key, name_key in ((PLAN, "plan", "name"), (CONVENTIONAL, "conventional", "conventional_name")):
            if saved.get(key):
                data = json.dumps(saved[key]).encode()
                set_plan(slot, str(saved.get(name_key) or "Saved plan"), data, filename="saved.geojson",
                         drawn=bool(saved.get("drawn")) and slot == PLAN,
                         kept_warnings=saved.get("warnings" if slot == PLAN else "conventional_warnings") or ())
    except SloatInputError as exc:
        clear(PLAN)
        clear(CONVENTIONAL)
        return f"The case's plan could not be read again: {exc}"
    ss[KIND] = saved.get("kind") if saved.get("kind") in ("conventional", "cluster") else "conventional"
    ss[DISTRICT] = saved.get("district") or None
    if saved.get("drawn"):
        ss[HOW] = DRAW  # a drawn plan reopens with its lots on the drawing layer, ready to be drawn to
    return None


def checked(parcel, layers):
    """The session's plan checked on ``parcel`` with the session's options (its kind, its district, the conventional
    plat of a cluster, the project): (the ``PlanResult``, None), (None, the sentence saying why it cannot be
    checked), or (None, None) without a plan. The Plan page, the walk-through and the case's summary read the one
    answer (the check runs once per distinct plan and facts, :func:`app_support.analysis_door.plan_check`)."""
    from app_support.frame import state

    plan = current()
    if plan is None or parcel is None:
        return None, None
    ss = st.session_state
    kind = ss.get(KIND) or "conventional"
    conventional = current(CONVENTIONAL) if kind == "cluster" else None
    try:
        found = plan_check(parcel, layers, plan.drawing, plan.key, kind=kind, district=ss.get(DISTRICT) or None,
                           conventional=conventional.drawing if conventional else None,
                           conventional_key=conventional.key if conventional else None,
                           project=ss.get(state.PROJECT) or None)
    except SloatInputError as exc:
        return None, str(exc)
    return found, None
