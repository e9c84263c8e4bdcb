"""Every output of a fixed set of parcels and projects, written to a folder and hashed: the check that a move is
behaviour-free.

    .venv/bin/python tools/golden_outputs.py OUT_DIR            # write the outputs and OUT_DIR/hashes.txt
    .venv/bin/python tools/golden_outputs.py OUT_DIR --check BASE_DIR   # ... and compare with an earlier run

The set: `analyze --json` of each demo parcel and of a dozen tax parcels, each without a project and with the demo
project; `timeline --json` and its `.ics` for one item of every kind; `screen` of the whole sample; the PDF summary
and the plain handout of two parcels (their text, page by page: a PDF's bytes carry its creation date). The date
of the analysis is fixed, so the outputs do not depend on the day they are made.
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

AS_OF = "2026-11-29"
LAYERS = str(ROOT / "data" / "sample" / "layers.yaml")
DEMO = ROOT / "data" / "sample" / "demo_parcels"
PROJECT = str(DEMO / "demo_project.json")
ITEMS = [
    {"id": "wetland_permit", "issued": "2026-03-02"},
    {"id": "wetland_permit_application", "complete": "2026-10-01", "hearing": "2026-12-10"},
    {"id": "wetland_activity_start", "start": "2026-05-04"},
    {"id": "wetland_delineation", "dated": "2025-12-31", "filing": "2026-11-30"},
    {"id": "mitigation_monitoring", "completed": "2024-02-29", "years": 4},
    {"id": "steep_slope_application", "complete": "2026-11-20"},
    {"id": "steep_slope_permit", "issued": "2025-07-04", "other_permit_expires": "2027-01-15"},
    {"id": "tree_removal_permit", "issued": "2026-06-30"},
    {"id": "biodiversity_study", "dated": "2025-01-31"},
    {"id": "grading", "final_grade": "2026-09-15"},
    {"id": "clearing", "grading_start": "2027-01-04"},
    {"id": "swppp_inspections", "start": "2026-10-05", "end": "2026-12-18"},
    {"id": "winter_season", "year": 2026},
    {"id": "inspection_notice", "planned": "2026-12-28"},
    {"id": "storm_event", "date": "2026-11-27"},
    {"id": "stormwater_notice_of_violation", "served": "2026-11-25"},
    {"id": "performance_guarantee", "final_acceptance": "2025-12-24"},
    {"id": "open_space_charge", "billed": "2026-07-03"},
]


def _run(argv: list[str]) -> tuple[int, str, str]:
    from sloat_core.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def _pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    pages = PdfReader(str(path)).pages
    return "\n\f\n".join(page.extract_text() or "" for page in pages)


def _sbls(n: int) -> list[str]:
    import geopandas as gpd

    from sloat_core.gis.layers import load_manifest  # noqa: F401 (the manifest names the parcel layer)

    parcels = gpd.read_file(ROOT / "data" / "sample" / "parcels.gpkg")
    field = next(c for c in parcels.columns if c.lower() in ("sbl", "print_key", "parcel_id"))
    ids = sorted(str(v) for v in parcels[field].dropna().unique())
    step = max(1, len(ids) // n)
    return ids[::step][:n]


def write_outputs(out_dir: Path) -> dict[str, str]:
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}

    def keep(name: str, text: str) -> None:
        # The tmp folder's name may appear in a message: make it stable.
        text = text.replace(str(out_dir), "<OUT>")
        (out_dir / name).write_text(text)
        files[name] = hashlib.sha256(text.encode()).hexdigest()

    parcels = sorted(p for p in DEMO.iterdir() if p.suffix in (".geojson", ".gpkg", ".dxf", ".kml", ".zip"))
    targets = [str(p) for p in parcels] + _sbls(12)
    for target in targets:
        stem = re.sub(r"[^A-Za-z0-9.-]+", "_", Path(target).name)
        for with_project in (False, True):
            argv = ["analyze", target, "--layers", LAYERS, "--as-of", AS_OF, "--json"]
            if with_project:
                argv += ["--project", PROJECT]
            rc, out, err = _run(argv)
            keep(f"analyze_{stem}{'_project' if with_project else ''}.json", f"rc={rc}\n{err}\n{out}")

    items = out_dir / "items.json"
    items.write_text(json.dumps({"items": ITEMS}, indent=1))
    ics = out_dir / "deadlines.ics"
    rc, out, err = _run(["timeline", str(items), "--as-of", AS_OF, "--json", "--ics", str(ics)])
    keep("timeline.json", f"rc={rc}\n{err}\n{out}")
    ics_text = re.sub(r"^(DTSTAMP|CREATED|LAST-MODIFIED):.*$", r"\1:<now>", ics.read_text(), flags=re.M)
    keep("timeline.ics", ics_text)

    csv_path = out_dir / "screen.csv"
    rc, out, err = _run(["screen", "--layers", LAYERS, "--out", str(csv_path), "--quiet"])
    keep("screen.csv", f"rc={rc}\n{err}\n{out}\n{csv_path.read_text()}")

    for target in (str(DEMO / "east_ridge_12ac.geojson"), str(DEMO / "riverside_2ac.geojson")):
        stem = Path(target).stem
        for plain in (False, True):
            pdf = out_dir / f"{stem}{'_handout' if plain else '_summary'}.pdf"
            argv = ["report", target, "--layers", LAYERS, "--as-of", AS_OF, "--project", PROJECT, "--out", str(pdf)]
            if plain:
                argv.append("--plain")
            rc, out, err = _run(argv)
            keep(pdf.with_suffix(".txt").name, f"rc={rc}\n{err}\n{out}\n{_pdf_text(pdf)}")

    (out_dir / "hashes.txt").write_text("".join(f"{h}  {n}\n" for n, h in sorted(files.items())))
    return files


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--check", type=Path, metavar="BASE_DIR", help="compare with the hashes of an earlier run")
    args = ap.parse_args()
    files = write_outputs(args.out_dir)
    print(f"{len(files)} outputs written to {args.out_dir}")
    if not args.check:
        return 0
    base = dict(reversed(line.split("  ", 1)) for line in (args.check / "hashes.txt").read_text().splitlines())
    base = {k.strip(): v for k, v in base.items()}
    differ = sorted(n for n in set(base) | set(files) if base.get(n) != files.get(n))
    for name in differ:
        print(f"DIFFERS: {name}")
    print("identical" if not differ else f"{len(differ)} of {len(files)} outputs differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
