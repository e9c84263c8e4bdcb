"""The command line: ``python -m sloat_core analyze | plan | timeline | screen | report | constraints | law |
fetch-official | prepare-answers``.

A stable contract that other tools rely on. Exit 0 on success; exit 2 with one plain sentence on stderr
for input that cannot be used (never a traceback); ``fetch-official`` exits 3 when some sources could not be
fetched (the layer set is written without them, and stderr names each).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from sloat_core.errors import SloatInputError

if TYPE_CHECKING:
    from sloat_core.engine.result import ParcelResult

__all__ = ["main"]


def _date(text: str | None) -> dt.date | None:
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise SloatInputError(f"'{text}' is not a date; write it as YYYY-MM-DD.") from None


def _read_json(path: str, what: str):
    p = Path(path)
    if not p.is_file():
        raise SloatInputError(f"The {what} file '{path}' does not exist.")
    if p.stat().st_size > 20 * 1024 * 1024:
        raise SloatInputError(f"The {what} file '{path}' is too large.")
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except (ValueError, RecursionError):  # bad JSON or UTF-8, an integer of over 4,300 digits, deep nesting
        raise SloatInputError(f"The {what} file '{path}' is not valid JSON.") from None


def progress_bar(total, desc: str, unit: str, *, quiet: bool = False, unit_scale: bool = False):
    """A tqdm progress bar on stderr, silent when ``quiet`` or when stderr is not a terminal."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, unit_scale=unit_scale, file=sys.stderr, leave=False,
                disable=quiet or not sys.stderr.isatty(), dynamic_ncols=True)


def _layers(path: str | None):
    """Load the layer set and show its load warnings on stderr (each once per run)."""
    from sloat_core.gis.layers import load_manifest

    if path is None:
        path = os.environ.get("SLOAT_LAYERS") or str(Path(__file__).resolve().parent.parent / "data/sample/layers.yaml")
    layerset = load_manifest(path)
    for w in layer_warnings(layerset):
        print(f"Warning: {w}", file=sys.stderr)
    return layerset


def layer_warnings(layerset) -> list[str]:
    """The layer set's load warnings, each prefixed so a reader knows they concern the map data."""
    return [f"Layer set '{layerset.name}': {w}" for w in getattr(layerset, "warnings", ()) or ()]


def _with_layer_warnings(result: dict, layerset) -> dict:
    """The analysis result with the layer set's load warnings first in ``warnings``."""
    loaded = layer_warnings(layerset)
    if loaded:
        result = {**result, "warnings": loaded + [w for w in result.get("warnings") or [] if w not in loaded]}
    return result


def _parcel(spec: str, layerset):
    from sloat_core.gis.parcels import parcel_by_sbl, read_parcel

    p = Path(spec)
    if p.is_file():
        return read_parcel(p, p.name)
    if spec.lower().startswith("sbl:"):
        return parcel_by_sbl(layerset, spec[4:])
    geo_ext = (".geojson", ".json", ".kml", ".zip", ".gpkg", ".dxf", ".shp", ".fgb")
    if "/" not in spec and not spec.lower().endswith(geo_ext) and layerset.get("parcels") is not None:
        try:
            return parcel_by_sbl(layerset, spec)
        except SloatInputError:
            pass
    raise SloatInputError(f"The parcel '{spec}' is neither a readable file nor a tax parcel SBL.")


def _analysis_inputs(args):
    layerset = _layers(args.layers)
    parcel = _parcel(args.parcel, layerset)
    project = _read_json(args.project, "project") if args.project else None
    if project is not None and isinstance(project, dict) and "project" in project and len(project) <= 3:
        project = project["project"]
    return layerset, parcel, project


def cmd_analyze(args) -> int:
    from sloat_core.engine.analysis import analyze_parcel

    layerset, parcel, project = _analysis_inputs(args)
    result = analyze_parcel(parcel, layerset, district=args.district, project=project,
                            as_of=_date(args.as_of)).result
    loaded = layer_warnings(layerset)
    if loaded:  # the layer set's load warnings first
        result = dataclasses.replace(result, warnings=(*loaded, *(w for w in result.warnings if w not in loaded)))
    if args.json:
        for w in result.warnings:
            if w not in loaded:  # load warnings were printed when the layers were read
                print(f"Warning: {w}", file=sys.stderr)
        json.dump(result.to_dict(), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(_summary(result))
    return 0


def _roles(pairs: list[str] | None) -> dict[str, str] | None:
    """``--role ROLE=LAYER`` options as {role: layer}."""
    out = {}
    for pair in pairs or ():
        role, sep, layer = pair.partition("=")
        if not sep or not role.strip() or not layer.strip():
            raise SloatInputError(f"'{pair}' is not ROLE=LAYER (for example lots=PROPERTY LINES).")
        out[role.strip().lower()] = layer.strip()
    return out or None


def _plan_drawing(path: str, roles: dict[str, str] | None):
    from sloat_core.plan.reading import read_plan

    if Path(path).suffix.lower() == ".dwg":
        raise SloatInputError(f"'{Path(path).name}' is a DWG drawing, which cannot be read: save it as DXF.")
    return read_plan(path, roles=roles)


def cmd_plan(args) -> int:
    from sloat_core.plan.check import check_plan

    if args.out is not None:  # refused before the plan is read
        _document_path(args.out)
    roles = _roles(args.role)
    drawing = _plan_drawing(args.plan, roles)
    conventional = _plan_drawing(args.conventional, roles) if args.conventional else None
    layerset, parcel, project = _analysis_inputs(args)
    result = check_plan(parcel, drawing, layerset, district=args.district, kind=args.kind,
                        conventional=conventional, project=project, as_of=_date(args.as_of))
    out = _with_layer_warnings(result.to_dict(), layerset)
    if args.json:
        json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(_plan_summary(out))
    if args.out is not None:
        from sloat_core.outputs.plan_document import write_plan_document

        write_plan_document(result, args.out, as_of=_date(args.as_of))
        print(f"Wrote {args.out}.", file=sys.stderr)
    return 0


def _document_path(path: str) -> Path:
    """A document's path: a PDF, or a web page (.html, .htm), in a folder that exists."""
    out = Path(path)
    if out.suffix.lower() not in (".pdf", ".html", ".htm"):
        raise SloatInputError(f"'{out.name}' must end in .pdf or .html: the plan's lot table is written as a PDF "
                              "or a web page.")
    if not out.parent.is_dir():
        raise SloatInputError(f"The folder of '{path}' does not exist.")
    return out


def _plan_summary(r: dict) -> str:
    yes = {True: "yes", False: "no", None: "unknown"}
    lines = [f"{r['kind'].capitalize()} plan: {r['lot_count']} lots, {r['conforming_lots']} conforming."]
    lines += [f"Problem ({p['kind'].replace('_', ' ')}): {p['text']}" for p in r["problems"]]
    for lot in r["lots"]:
        net = (_fmt(lot["net_lot_area_sqft"]) if lot["net_lot_area_sqft"] is not None
               else f"{_fmt(lot['net_lot_area_min_sqft'])} to {_fmt(lot['net_lot_area_max_sqft'])}")
        lines.append(f"  Lot {lot['lot']}: gross {_fmt(lot['gross_sqft'])}, net {net}, minimum "
                     f"{_fmt(lot['min_lot_area_sqft'])} ({lot['district'] or 'district unknown'}), conforms "
                     f"{yes[lot['conforms']]} ({lot['citation']})")
    lines.append(f"Yield: {r['yield_check']['text']}")
    lines.append(f"Open space: {r['open_space']['text']}")
    lines.append(f"Land in no lot, road or open space: {_fmt(r['unallocated_sqft'])}")
    lines += [f"Warning: {w}" for w in r["warnings"]]
    lines.append(r["disclaimer"])
    return "\n".join(lines) + "\n"


def _fmt(x, unit=" sq ft"):
    return "unknown" if x is None else f"{x:,.0f}{unit}"


def _summary(r: ParcelResult) -> str:
    yes = {True: "yes", False: "no", None: "unknown"}
    lines = [
        f"Gross area: {_fmt(r.gross_area_sqft)} ({r.gross_area_acres:.2f} acres)",
        f"District: {r.district or 'unknown'}; minimum lot area: {_fmt(r.min_lot_area_sqft)}",
        "Deductions (§ 402-45):",
    ]
    for d in r.deductions:
        area, deducted = _fmt(d.area_sqft), _fmt(d.deducted_sqft)
        if d.area_sqft is None and d.known_area_sqft is not None:  # a layer maps the parcel in part
            area = f"at least {_fmt(d.known_area_sqft)}"
            deducted = f"unknown, at least {_fmt(d.known_deducted_sqft)}"
        lines.append(f"  {d.label:<34} {area:>16}  counts {d.countable_fraction:.0%}"
                     f"  deducted {deducted}  {d.citation}")
    lines.append(f"Net lot area: {_fmt(r.net_lot_area_sqft)}; meets the minimum: {yes[r.meets_min_lot_area]}")
    lines.append("Cluster triggers (§ 402-48C):")
    for t in r.cluster_triggers:
        lines.append(f"  ({t.number}) {t.title}: {yes[t.triggered]}")
    lines.append("Permits and reviews:")
    for p in r.permits:
        lines.append(f"  {p.title}: {yes[p.required]} ({p.citation})")
    if r.approvals_detail is not None:  # the approvals around Article IX (sloat_core.approvals), as they write them
        seqr, screens = r.approvals_detail.seqr, r.approvals_detail.wetland_screens
        lines.append("Approvals around Article IX (state and federal law, screening estimates):")
        lines.append(f"  SEQR: {' or '.join(seqr['possible'])} ({seqr['clause'] or 'no clause decided it'})"
                     + (f"; to settle it: {seqr['question']}" if seqr["question"] else ""))
        lines.append(f"  {r.approvals_detail.county_referral['headline']}")
        for key in ("state", "federal"):
            lines.append(f"  {screens[key]['message']} ({screens[key]['citation']})")
    for w in r.warnings:
        lines.append(f"Warning: {w}")
    lines.append(r.disclaimer)
    return "\n".join(lines) + "\n"


def timeline_items_table() -> str:
    """Every timeline item id with its keys (optional ones marked ``?``), what it is and the permit and § it
    belongs to, in the timeline's order: read from the clock declarations (``timeline --list-items``)."""
    from sloat_core.rules.sections import CLOCKS, PERMITS

    owner = {c.id: d for d in PERMITS for c in d.clocks}
    rows = [("id", "keys", "what it is", "permit (§)")]
    for c in CLOCKS:
        keys = ", ".join(f.key + ("" if f.required else "?") for f in c.fields)
        rows.append((c.id, keys, c.label, f"{owner[c.id].title} ({owner[c.id].section})"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3] for r in rows) + "\n"


def cmd_timeline(args) -> int:
    from sloat_core.outputs.ics import to_ics
    from sloat_core.rules.clocks import timeline_events

    if args.list_items:
        sys.stdout.write(timeline_items_table())
        return 0
    if not args.items:
        raise SloatInputError("Give the timeline file (ITEMS.json), or --list-items to see the item ids.")
    data = _read_json(args.items, "timeline")
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise SloatInputError("The timeline file must be a JSON object with a list called 'items'.")
    as_of = _date(args.as_of) or _date(data.get("as_of")) or dt.date.today()
    events = timeline_events(data["items"], as_of)
    if data.get("project") is not None:  # the Village Law and county clocks of the project (sloat_core.approvals)
        from sloat_core.approvals.village_law import approval_events
        from sloat_core.rules.project import parse_project

        proj = parse_project(data["project"])
        events = sorted(events + approval_events(proj.application_type, proj.approvals, as_of),
                        key=lambda e: (e.date, e.id))
    if args.ics:
        Path(args.ics).write_text(to_ics(events, calendar_name="Sloatsburg Article IX deadlines"),
                                  encoding="utf-8", newline="")
    payload = {"as_of": as_of.isoformat(), "events": [e.to_dict() for e in events]}
    if args.json or not args.ics:
        json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    return 0


def cmd_screen(args) -> int:
    from sloat_core.engine.screening import screen_to_csv

    layerset = _layers(args.layers)
    parcels = layerset.get("parcels")
    with progress_bar(len(parcels) if parcels is not None else None, "Screening", "parcel",
                      quiet=args.quiet) as bar:
        n = screen_to_csv(layerset, args.out, progress=bar.update, as_of=_date(args.as_of))
    print(f"Screened {n} parcels into {args.out}.", file=sys.stderr)
    return 0


def cmd_report(args) -> int:
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.outputs.report import write_report

    layerset, parcel, project = _analysis_inputs(args)
    as_of = _date(args.as_of)
    analysis = analyze_parcel(parcel, layerset, district=args.district, project=project, as_of=as_of)
    if getattr(args, "plain", False):
        from sloat_core.outputs.handout import write_handout

        write_handout(analysis, layerset, args.out, as_of=as_of)
    else:
        write_report(analysis, layerset, args.out, as_of=as_of)
    print(f"Wrote {args.out}.", file=sys.stderr)
    return 0


def cmd_constraints(args) -> int:
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.outputs.cad import check_output_path, constraint_file

    fmt = check_output_path(args.out)  # refused before any analysis
    out = Path(args.out)
    if not out.parent.is_dir():
        raise SloatInputError(f"The folder of '{args.out}' does not exist.")
    layerset, parcel, _ = _analysis_inputs(args)
    analysis = analyze_parcel(parcel, layerset, district=args.district, as_of=_date(args.as_of))
    data, layers = constraint_file(analysis, fmt)
    out.write_bytes(data)
    names = ", ".join(p.layer.name for p in layers.pieces)
    print(f"Wrote {args.out}: {len(layers.pieces)} layers ({names}).", file=sys.stderr)
    for note in layers.unknown:
        print(f"Unknown: {note}", file=sys.stderr)
    for note in layers.cautions:
        print(f"Note: {note}", file=sys.stderr)
    if layers.omitted:
        print("Omitted (nothing on this parcel): " + "; ".join(layers.omitted) + ".", file=sys.stderr)
    return 0


def cmd_fetch_official(args) -> int:
    from sloat_core.gis.official import SOURCES, LiveServices, RecordedServices, fetch_official

    services = RecordedServices(args.replay) if args.replay else LiveServices()
    with progress_bar(len(SOURCES), "Fetching", "source", quiet=args.quiet) as bar:
        def step(title: str, what: str) -> None:
            bar.set_description_str(title[:40])
            bar.set_postfix_str(what)
            bar.update(1)

        report = fetch_official(args.out, place=args.place, buffer_ft=args.buffer_ft, services=services,
                                zoning=args.zoning, zoning_field=args.zoning_field, progress=step)
    for name, n in report.counts.items():
        print(f"{name}: {n:,}", file=sys.stderr)
    for note in report.notes:
        print(f"Note: {note}", file=sys.stderr)
    print(f"Wrote {report.manifest}; use it with --layers {report.manifest} or SLOAT_LAYERS.", file=sys.stderr)
    if report.missing:  # the layer set is written without them (unknown there); the run did not fully succeed
        for what in report.missing:
            print(f"Missing: {what}", file=sys.stderr)
        print(f"{len(report.missing)} source(s) could not be fetched; their layers are missing (unknown) from "
              f"{report.manifest.name}: run fetch-official again later.", file=sys.stderr)
        return 3
    return 0


def cmd_prepare_answers(args) -> int:
    from sloat_core.engine.prepared import prepare
    from sloat_core.store.sqlite import default_data_dir

    layerset = _layers(args.layers)
    as_of = dt.date.fromisoformat(args.as_of) if args.as_of else None
    report = prepare(layerset, args.data_dir or default_data_dir(), as_of=as_of)
    if not report.installed:  # the unit's run fails in the journal; the next one (or the night's) makes them
        print(f"{report.summary()}.", file=sys.stderr)
        return 1
    print(f"{report.summary()}: {report.path}", file=sys.stderr)
    for sbl, problem in list(report.refused.items())[:20]:
        print(f"Not worked out ahead: {sbl}: {problem}", file=sys.stderr)
    return 0


def cmd_law(args) -> int:
    from sloat_core.law.text import clause, sections

    if args.citation:
        print(clause(args.citation))
    else:
        for s in sections():
            print(f"§ {s.number} {s.title}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m sloat_core",
                                 description="Article IX (Sloatsburg Code ch. 402) screening from the command line.")
    sub = ap.add_subparsers(dest="command", required=True)

    def parcel_args(p):
        p.add_argument("parcel", help="parcel file (GeoJSON, KML, zipped shapefile, GeoPackage, DXF) or an SBL")
        p.add_argument("--layers", help="layer manifest (default: the illustrative sample)")
        p.add_argument("--district", help="zoning district code (default: from the zoning layer)")
        p.add_argument("--project", help="project description JSON")
        p.add_argument("--as-of", dest="as_of", help="date of the analysis, YYYY-MM-DD")

    a = sub.add_parser("analyze", help="analyse one parcel")
    parcel_args(a)
    a.add_argument("--json", action="store_true", help="print one JSON object")
    a.set_defaults(func=cmd_analyze)

    pl = sub.add_parser("plan", help="check a proposed plat or site plan lot by lot")
    parcel_args(pl)
    pl.add_argument("plan", help="the plan (GeoJSON with a 'layer' property on each feature, ...)")
    pl.add_argument("--kind", choices=("conventional", "cluster"), default="conventional",
                    help="a conventional plat or a cluster (default: %(default)s)")
    pl.add_argument("--role", action="append", metavar="ROLE=LAYER",
                    help="take the drawing's LAYER as ROLE (lots, envelopes, roads, open_space, disturbance)")
    pl.add_argument("--conventional", metavar="PLAN2", help="the conventional plat a cluster's yield is set by")
    pl.add_argument("--json", action="store_true", help="print one JSON object")
    pl.add_argument("--out", metavar="FILE", help="also write the plan's lot table: FILE.pdf (PDF/UA-1) or FILE.html")
    pl.set_defaults(func=cmd_plan)

    t = sub.add_parser("timeline", help="deadlines and expirations from permit dates")
    t.add_argument("items", nargs="?", help="ITEMS.json")
    t.add_argument("--list-items", dest="list_items", action="store_true",
                   help="list every timeline item id with its keys and the permit it belongs to, and exit")
    t.add_argument("--as-of", dest="as_of")
    t.add_argument("--json", action="store_true")
    t.add_argument("--ics", help="also write the deadlines as an iCalendar file")
    t.set_defaults(func=cmd_timeline)

    s = sub.add_parser("screen", help="screen every tax parcel of a layer set into a CSV file")
    s.add_argument("--layers")
    s.add_argument("--out", required=True)
    s.add_argument("--quiet", action="store_true", help="no progress bar (it shows only on a terminal anyway)")
    s.add_argument("--as-of", dest="as_of", help="date of the law's numbers, YYYY-MM-DD (default: today)")
    s.set_defaults(func=cmd_screen)

    r = sub.add_parser("report", help="write the pre-application summary (or, with --plain, the one-page plain "
                                      "handout for a resident): a PDF, or a web page when --out ends in .html")
    parcel_args(r)
    r.add_argument("--out", required=True, help="the file to write: .pdf for the PDF, .html for the web page")
    r.add_argument("--plain", action="store_true",
                   help="the one-page plain handout ('What this means for your lot') instead of the summary")
    r.set_defaults(func=cmd_report)

    c = sub.add_parser("constraints", help="write the parcel and its constraint lines, one layer each, as a DXF, "
                                           "a GeoPackage or zipped shapefiles (EPSG:2260, US survey feet)")
    c.add_argument("parcel", help="parcel file (GeoJSON, KML, zipped shapefile, GeoPackage, DXF) or an SBL")
    c.add_argument("--layers", help="layer manifest (default: the illustrative sample)")
    c.add_argument("--out", required=True, metavar="FILE",
                   help="FILE.dxf, FILE.gpkg or FILE.zip: the extension decides the format")
    c.add_argument("--district", help="zoning district code (default: from the zoning layer)")
    c.add_argument("--as-of", dest="as_of", help="date of the law's numbers, YYYY-MM-DD")
    c.set_defaults(func=cmd_constraints, project=None)

    from sloat_core.gis.official_sources import sources_help  # no map library or optional package imported

    f = sub.add_parser(
        "fetch-official", help="download the official layers for the village into a layer set",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=("Download the official layers for a place (plus a buffer), clip them, write GeoPackages and a\n"
                     "DEM in EPSG:2260 with elevations in US survey feet, and DIR/layers.yaml (source, service URL,\n"
                     "query, download date and publisher's version of each layer). Needs the optional HyRiver\n"
                     "clients: pip install -r requirements-official.txt."),
        epilog=sources_help())
    f.add_argument("--out", required=True, metavar="DIR", help="folder to write the layer set into")
    f.add_argument("--place", default="Sloatsburg village, NY", help='Census place (default: "%(default)s")')
    f.add_argument("--buffer-ft", dest="buffer_ft", type=float, default=1000.0,
                   help="distance around the boundary to fetch too, US survey feet (default: %(default)g)")
    f.add_argument("--zoning", help="the village's zoning map (a file the office supplies)")
    f.add_argument("--zoning-field", dest="zoning_field", default="ZONE", help="its district field (default: ZONE)")
    f.add_argument("--replay", metavar="DIR", help="replay recorded service responses from DIR (no network)")
    f.add_argument("--quiet", action="store_true", help="no progress bar (it shows only on a terminal anyway)")
    f.set_defaults(func=cmd_fetch_official)

    pa = sub.add_parser("prepare-answers", help="work out every tax parcel's answer for the day, ahead, into the data "
                                                "folder's answers.sqlite3 (the app reads them instead of working "
                                                "them out again)")
    pa.add_argument("--layers", help="layer manifest (default: $SLOAT_LAYERS, else the illustrative sample)")
    pa.add_argument("--data-dir", dest="data_dir", help="the data folder (default: $SLOAT_DATA_DIR, else ./var)")
    pa.add_argument("--as-of", dest="as_of", metavar="YYYY-MM-DD", help="the day (default: today)")
    pa.set_defaults(func=cmd_prepare_answers)

    law = sub.add_parser("law", help="list the sections, or print the text of a citation")
    law.add_argument("citation", nargs="?")
    law.set_defaults(func=cmd_law)
    return ap


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if exc.code in (0, None) else 2
    try:
        with warnings.catch_warnings():
            # Library warnings (GDAL, shapely, pyogrio) about a bad input would add lines to the one sentence.
            warnings.simplefilter("ignore")
            return args.func(args)
    except SloatInputError as exc:
        print(str(exc).strip().splitlines()[0] if str(exc).strip() else "The input cannot be used.", file=sys.stderr)
        return 2
    except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
        print(f"The file '{exc.filename}' cannot be read.", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # last resort: one line, no traceback, unless debugging
        if os.environ.get("SLOAT_DEBUG"):
            raise
        print(f"Internal error ({type(exc).__name__}); set SLOAT_DEBUG=1 for details.", file=sys.stderr)
        return 1
