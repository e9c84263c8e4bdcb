"""Downloads of one analysis: the parcel and its constraint pieces as GeoJSON, the tables as CSV,
the deadlines as CSV and iCalendar.

The tables read the typed result (:class:`sloat_core.engine.result.ParcelResult`); a result dict (the app's) is
read back into it first.

CSV files are UTF-8 with a header row and CRLF line ends (what spreadsheets expect). A cell whose text
starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is prefixed with ``'`` so a
spreadsheet shows it as text instead of running it as a formula (CSV injection).

>>> csv_safe("=HYPERLINK(\\"http://x\\")"), csv_safe("§ 402-45A(1)"), csv_safe(0.5)
('\\'=HYPERLINK("http://x")', '§ 402-45A(1)', '0.5')
"""

from __future__ import annotations

import csv
import io
from typing import Any, Iterable

from sloat_core.engine.result import ParcelResult, parcel_result
from sloat_core.gis.parcels import to_wgs84_geojson
from sloat_core.outputs.ics import to_ics
from sloat_core.law.events import Event

__all__ = [
    "CALENDAR_NAME",
    "csv_safe",
    "deductions_csv",
    "events_csv",
    "events_ics",
    "permits_csv",
    "pieces_geojson",
    "triggers_csv",
    "adjacent_owners_csv",
]

#: Calendar name of the .ics download.
CALENDAR_NAME = "Sloatsburg Article IX deadlines"

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_YES_NO = {True: "yes", False: "no", None: "unknown"}


def csv_safe(value: Any) -> str:
    """One cell as text, defused against formula injection; None is an empty cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _YES_NO[value]
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _csv(header: list[str], rows: Iterable[list[Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_safe(v) for v in row])
    return buf.getvalue()


def _geojson(geom) -> dict:
    return to_wgs84_geojson(geom)


def pieces_geojson(analysis) -> dict:
    """The parcel and each deduction piece as a GeoJSON FeatureCollection in WGS84 longitude/latitude.

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis

    Returns
    -------
    dict
        The first feature is the parcel (``kind: "parcel"``, gross and net area, district); then one
        feature per non-empty deduction piece (``kind: "deduction"``) with ``constraint``, ``label``,
        ``area_sqft``, ``countable_fraction``, ``deducted_sqft`` and ``citation``. Each piece of land is
        in one feature only (overlaps count once), so the deducted figures add up to gross minus net.
        Coordinates are not rounded: the pieces' areas in feet come back to the sq ft. With a project
        footprint, a last feature (``kind: "footprint"``) holds it with what it touches (``area_sqft``,
        ``wetlands_sqft``, ``buffer_sqft`` ...), as on the Proposed project page.
    """
    r = parcel_result(analysis.result)
    features = [{
        "type": "Feature",
        "geometry": _geojson(analysis.parcel),
        "properties": {
            "kind": "parcel",
            "sbl": r.parcel.sbl,
            "address": r.parcel.address,
            "district": r.district,
            "gross_area_sqft": r.gross_area_sqft,
            "net_lot_area_sqft": r.net_lot_area_sqft,
            "min_lot_area_sqft": r.min_lot_area_sqft,
            "citation": r.lot_area_citation,
            "as_of": r.as_of.isoformat(),
        },
    }]
    for row in analysis.lot.rows:
        if row.geometry is None or row.geometry.is_empty or not row.area_sqft:
            continue
        features.append({
            "type": "Feature",
            "geometry": _geojson(row.geometry),
            "properties": {
                "kind": "deduction",
                "constraint": row.constraint,
                "label": row.label,
                "area_sqft": round(row.area_sqft, 2),
                "countable_fraction": row.countable_fraction,
                "deducted_sqft": round(row.deducted_sqft or 0.0, 2),
                "citation": row.citation,
            },
        })
    fp = getattr(analysis.project, "disturbance_footprint", None)
    if fp is not None and not fp.is_empty:
        measured = r.footprint.to_dict() if r.footprint is not None else {}
        features.append({
            "type": "Feature",
            "geometry": _geojson(fp),
            "properties": {"kind": "footprint", "label": "Disturbance footprint (drawn or uploaded)", **measured},
        })
    return {
        "type": "FeatureCollection",
        "name": "Article IX lot-area deductions",
        "params_version": r.params_version,
        "layers": {"name": r.layers_name, "version": r.layers_version, "illustrative": r.layers_illustrative},
        "disclaimer": r.disclaimer,
        "features": features,
    }


def deductions_csv(result: ParcelResult) -> str:
    """The § 402-45 deduction table; unknown areas are empty cells with status ``unknown``."""
    header = ["constraint", "label", "area_sqft", "countable_fraction", "deducted_sqft", "citation", "status"]
    rows = [[d.constraint, d.label, d.area_sqft, d.countable_fraction, d.deducted_sqft, d.citation, d.status]
            for d in parcel_result(result).deductions]
    return _csv(header, rows)


def permits_csv(result: ParcelResult) -> str:
    """Permits and reviews: whether each is needed (yes/no/unknown), who approves it and the §."""
    header = ["id", "title", "required", "authority", "citation", "reason", "citations"]
    rows = [[p.id, p.title, _YES_NO[p.required], p.authority, p.citation, p.reason, "; ".join(p.all_citations)]
            for p in parcel_result(result).permits]
    return _csv(header, rows)


def adjacent_owners_csv(result: ParcelResult) -> str:
    """§ 402-57K(4): the tax parcels adjacent to the wetland, watercourse and buffer of the work, with their
    owners of record (empty with ``owner_source`` naming the assessment roll when the layer has none)."""
    a = parcel_result(result).adjacent_owners
    header = ["sbl", "address", "owner", "owner_source", "within_ft", "citation"]
    rows = [[x.sbl, x.address, x.owner, a.owners_source, a.radius_ft, a.citation]
            for x in (a.parcels or () if a is not None else ())]
    return _csv(header, rows)


def triggers_csv(result: ParcelResult) -> str:
    """The ten cluster features of § 402-48C: triggered (yes/no/unknown) with the evidence."""
    header = ["id", "title", "triggered", "needs_board_judgment", "evidence", "citation"]
    rows = [[t.id, t.title, _YES_NO[t.triggered], _YES_NO[t.needs_board_judgment], t.evidence, t.citation]
            for t in parcel_result(result).cluster_triggers]
    return _csv(header, rows)


def _event_dict(e) -> dict:
    if isinstance(e, Event):
        return e.to_dict()
    if isinstance(e, dict):
        return e
    raise TypeError("events must be timeline Events or their dicts")


def events_csv(events: Iterable[Event | dict]) -> str:
    """The timeline's dated events (from ``timeline_events``), one row each, in date order.

    ``note`` carries the General Construction Law § 25-a note of a deadline that falls on a Saturday,
    Sunday or public holiday (blank otherwise).
    """
    header = ["date", "label", "kind", "status", "citation", "item_id", "id", "detail", "note"]
    rows = []
    for e in events:
        d = _event_dict(e)
        rows.append([d.get("date"), d.get("label"), d.get("kind"), d.get("status"), d.get("citation"),
                     d.get("item_id"), d.get("id"), d.get("detail"), d.get("note")])
    rows.sort(key=lambda r: (str(r[0]), str(r[6])))
    return _csv(header, rows)


def events_ics(events: Iterable[Event], *, calendar_name: str = CALENDAR_NAME, dtstamp=None) -> str:
    """The deadlines as an iCalendar file (see ``sloat_core.outputs.ics.to_ics``)."""
    return to_ics(list(events), calendar_name=calendar_name, dtstamp=dtstamp)
