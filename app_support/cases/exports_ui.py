"""Downloads of a case (PDF, GeoJSON, the constraint lines as DXF, GeoPackage and zipped shapefiles, CSV,
iCalendar, the case as JSON) and the import of a case file.

The files are made by ``sloat_core`` (``report``, ``exports``, ``cases.case_to_json``); this module
names them, draws one ``st.download_button`` each and reads an uploaded case file back. The PDF
takes a second or two to draw, so it is made only when its button is pressed (deferred data).
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Callable

import streamlit as st

from app_support.cases import cases_ui
from app_support.widgets.citations import escape_links
from sloat_core.outputs import exports
from sloat_core.store import MAX_CASE_JSON_BYTES, Case, case_from_json, case_to_json
from sloat_core.errors import SloatInputError
from sloat_core.gis.bounded_parse import run_bounded
from sloat_core.rules.clocks import timeline_events

__all__ = [
    "IMPORT_KEY",
    "IMPORT_MAX_MB",
    "ExportFile",
    "case_events",
    "pdf_bytes",
    "summary_html",
    "HANDOUT_PDF_LABEL",
    "HANDOUT_HTML_LABEL",
    "handout_extras",
    "export_files",
    "CONSTRAINT_FILES",
    "constraint_files",
    "download_buttons",
    "import_case",
    "import_uploader",
]

#: Widget key of the case-file uploader.
IMPORT_KEY = "case_import"
#: Largest case file accepted, in MB (the core's own limit).
IMPORT_MAX_MB = MAX_CASE_JSON_BYTES // (1024 * 1024)
_SEEN_IMPORT = "case_import_seen"
_IMPORT_NOTE = "case_import_note"


@dataclass(frozen=True)
class ExportFile:
    """One download: its widget key, button label, file name, MIME type and data (or a maker of it)."""

    key: str
    label: str
    file_name: str
    mime: str
    data: str | bytes | Callable[[], bytes]


def case_events(case: Case, as_of: dt.date) -> list:
    """The dated events of the case's timeline items (``sloat_core.rules.clocks.timeline_events``).

    Raises
    ------
    sloat_core.errors.SloatInputError
        When an item cannot be read (the Timeline page refuses such items before they are kept).
    """
    kept = list(case.timeline_items or [])
    items = [it for i, it in enumerate(kept) if it not in kept[:i]]  # the same item twice is one item
    return timeline_events(items, as_of) if items else []


def pdf_bytes(case: Case, analysis, layers, *, as_of: dt.date, plan=None) -> bytes:
    """The pre-application summary of the case (``sloat_core.outputs.report.report_pdf_bytes``: its web page laid
    out as a PDF), with the plan's lot table when the case has a plan (``plan``: its ``PlanResult``)."""
    from sloat_core.outputs.report import report_pdf_bytes

    try:
        events = case_events(case, as_of)
    except SloatInputError:
        events = []
    return report_pdf_bytes(analysis, layers, timeline_events=events, notes=case.notes or None,
                            title=case.title or None, as_of=as_of, plan=plan)


def summary_html(case: Case, analysis, layers, *, as_of: dt.date, plan=None) -> bytes:
    """The pre-application summary as an accessible web page, UTF-8: the HTML its PDF is made from
    (``sloat_core.outputs.report.summary_html``), every text whole; with the plan's lot table when ``plan``."""
    from sloat_core.outputs.report import summary_html as page

    try:
        events = case_events(case, as_of)
    except SloatInputError:
        events = []
    return page(analysis, layers, timeline_events=events, notes=case.notes or None, title=case.title or None,
                as_of=as_of, plan=plan).encode("utf-8")


#: The handout's download button: always one page, its lists shortened with what they leave out counted.
HANDOUT_PDF_LABEL = "Download the one-page handout (PDF)"
#: Below it: the handout as a web page (the accessible version).
HANDOUT_HTML_LABEL = "The handout as a web page (HTML)"
#: The title of the one-pixel frame "Print the handout" puts on the page (it opens the print dialog).
PRINT_FRAME_TITLE = "The handout, sent to the browser's print dialog"


def handout_extras(make_html: Callable[[], str]) -> None:
    """Beside the handout's PDF button: the handout as a web page (HTML, the accessible version) and
    "Print the handout", one click that opens the browser's print dialog on it. The page is
    made only when one of them is pressed."""
    from sloat_core.outputs.html_docs import print_page

    with st.container(horizontal=True, wrap=True, gap="small"):  # side by side when there is room, never cut
        st.download_button(HANDOUT_HTML_LABEL, lambda: make_html().encode("utf-8"),
                           file_name="what-this-means-for-your-lot.html", mime="text/html", key="handout_html",
                           icon=":material/language:", on_click="ignore", width="content",
                           help="The handout as an accessible web page, for a screen reader or to read on a phone.")
        pressed = st.button("Print the handout", key="handout_print", icon=":material/print:", width="content")
    if pressed:
        st.iframe(print_page(make_html()), height=1, alt=PRINT_FRAME_TITLE)  # a frame named for what it holds


def export_files(case: Case, analysis, layers, *, as_of: dt.date, plan=None) -> list[ExportFile]:
    """Every download of the case; those that need a parcel only when it has one.

    Parameters
    ----------
    case : Case
        The saved case.
    analysis : sloat_core.engine.analysis.Analysis or None
        Its analysis (None without a parcel).
    layers : LayerSet or None
    as_of : datetime.date
        The day the report and the deadlines are worked out for.
    plan : sloat_core.plan.check.PlanResult, optional
        The case's plan checked: the summary prints its lot table.
    """
    stem = f"sloatsburg-case-{case.id[:8]}"
    files: list[ExportFile] = []
    if analysis is not None:
        result = analysis.result
        files += [
            ExportFile("dl_pdf", "Pre-application summary (PDF)", f"{stem}.pdf", "application/pdf",
                       lambda: pdf_bytes(case, analysis, layers, as_of=as_of, plan=plan)),
            ExportFile("dl_html", "Download the summary as a web page (HTML)", f"{stem}.html", "text/html",
                       lambda: summary_html(case, analysis, layers, as_of=as_of, plan=plan)),
            ExportFile("dl_geojson", "Parcel, footprint and constraint pieces (GeoJSON)"
                       if getattr(analysis.project, "disturbance_footprint", None) is not None
                       else "Parcel and constraint pieces (GeoJSON)", f"{stem}-pieces.geojson",
                       "application/geo+json", json.dumps(exports.pieces_geojson(analysis), ensure_ascii=False)),
            *constraint_files(analysis, stem),
            ExportFile("dl_deductions", "Lot-area deductions (CSV)", f"{stem}-deductions.csv", "text/csv",
                       exports.deductions_csv(result)),
            ExportFile("dl_permits", "Permits and reviews (CSV)", f"{stem}-permits.csv", "text/csv",
                       exports.permits_csv(result)),
            ExportFile("dl_triggers", "Cluster triggers (CSV)", f"{stem}-cluster-triggers.csv", "text/csv",
                       exports.triggers_csv(result)),
        ]
        if result.adjacent_owners is not None and result.adjacent_owners.parcels:
            files.append(ExportFile("dl_owners", "Owners of adjacent lands, § 402-57K(4) (CSV)",
                                    f"{stem}-adjacent-owners.csv", "text/csv", exports.adjacent_owners_csv(result)))
    try:
        events = case_events(case, as_of)
    except SloatInputError:
        events = []
    if events:
        files.append(ExportFile("dl_ics", "Deadlines (calendar, .ics)", f"{stem}-deadlines.ics", "text/calendar",
                                exports.events_ics(events)))
    files.append(ExportFile("dl_case", "The whole case (JSON, to import later)", f"{stem}.json",
                            "application/json", case_to_json(case)))
    return files


#: The constraint lines back to CAD and GIS (``sloat_core.outputs.cad``, as ``constraints`` writes them): key, label,
#: extension, MIME type.
CONSTRAINT_FILES = (
    ("dl_dxf", "Constraint lines for CAD (DXF)", ".dxf", "image/vnd.dxf"),
    ("dl_gpkg", "Constraint layers for GIS (GeoPackage)", ".gpkg", "application/geopackage+sqlite3"),
    ("dl_shp", "Constraint layers as shapefiles (.zip)", ".zip", "application/zip"),
)


def constraint_files(analysis, stem: str) -> list[ExportFile]:
    """The parcel and its constraint pieces, one layer each, as DXF, GeoPackage and zipped shapefiles (EPSG:2260);
    each made only when its button is pressed."""
    from sloat_core.outputs.cad import constraint_file

    return [ExportFile(key, label, f"{stem}-constraints{ext}", mime,
                       lambda ext=ext: constraint_file(analysis, ext)[0])
            for key, label, ext, mime in CONSTRAINT_FILES]


def download_buttons(files: list[ExportFile], *, columns: int = 2) -> None:
    """One download button per file, in a grid."""
    cols = st.columns(columns)
    for i, f in enumerate(files):
        with cols[i % columns]:
            st.download_button(f.label, f.data, file_name=f.file_name, mime=f.mime, key=f.key,
                               icon=":material/download:", on_click="ignore", width="stretch")


def import_case(data: bytes) -> Case:
    """Save a case file as a new case (new link) and make it the session's case.

    The file's inputs are analysed again: the new case's snapshot is today's analysis of them.

    Raises
    ------
    sloat_core.errors.SloatInputError
        The file is not a readable case, or its parcel cannot be analysed (nothing is changed).
    sloat_core.store.CaseStoreError
        It could not be saved (nothing is changed).
    """
    case = run_bounded(case_from_json, data)  # parsed and checked in a worker with limits, like a parcel file
    cases_ui.parcel_of(case)  # an unreadable outline is refused before anything is saved
    analysis = cases_ui.case_analysis(case)
    if analysis is not None:
        case.record_analysis(analysis.result)
    cases_ui.store().save(case)
    cases_ui.load_case(case)
    return case


def _on_upload() -> None:
    upload = st.session_state.get(IMPORT_KEY)
    if upload is None or st.session_state.get(_SEEN_IMPORT) == upload.file_id:
        return
    st.session_state[_SEEN_IMPORT] = upload.file_id
    try:
        case = import_case(upload.getvalue())
    except cases_ui.CASE_PROBLEMS as exc:  # the current case stays as it was
        st.session_state[_IMPORT_NOTE] = (False, cases_ui.problem_sentence(exc))
    else:
        st.session_state[_IMPORT_NOTE] = (True, f"Imported as a new case: {case.title or 'no parcel'}.")


def import_uploader() -> None:
    """The "Import a case" uploader (a case JSON file, at most :data:`IMPORT_MAX_MB` MB)."""
    st.file_uploader("Import a case (a .json file downloaded from this tool)", type=["json"], key=IMPORT_KEY,
                     max_upload_size=IMPORT_MAX_MB, on_change=_on_upload)
    note = st.session_state.pop(_IMPORT_NOTE, None)
    if note:
        (st.success if note[0] else st.error)(escape_links(note[1]))  # it may quote the file's title
