"""The pre-application summary PDF: its text carries the figures, citations and disclaimers; its pages,
turned into PNG under tests/artifacts/, are looked at; it prints in black and white; 1 to 4 pages (MAX_PAGES)."""

import datetime as dt
import functools
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import geopandas as gpd
import pytest
import yaml
import numpy as np
from PIL import Image
from pypdf import PdfReader

from engine_world import WEST_300_FT, make_world, sq
from sloat_core.engine.analysis import analyze_parcel
from sloat_core.law.text import LAW_TEXT_SHA256
from sloat_core.gis.layers import load_manifest
from sloat_core.law.params import PARAMS_VERSION
from sloat_core.outputs.report import MAX_PAGES, _plain, map_png, report_pdf_bytes, write_report
from sloat_core.rules.clocks import timeline_events
from sloat_core.units import WORK_CRS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
DAY = dt.date(2026, 5, 1)


@functools.lru_cache(maxsize=4)
def pdf_text(data: bytes) -> tuple[str, int]:
    """The PDF's text, its lines joined (a line broken after a "/" or a "-" joined whole), and its page count.

    Read once per document and test process (pypdf's text extraction is the costliest step of these tests; the
    module's summary is read by several claims): the same bytes give the same text."""
    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    text = re.sub(r"(?<=[/-])\n", "", text)
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")), len(reader.pages)


def to_png(pdf_path: Path, prefix: str) -> list[Path]:
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm (Debian poppler-utils) is missing: run `make test`, which installs the system "
                    "packages the tests need.")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob(f"{prefix}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-r", "90", "-png", str(pdf_path), str(ARTIFACTS / prefix)], check=True,
                   timeout=120)
    return sorted(ARTIFACTS.glob(f"{prefix}-*.png"))


def page_count(data: bytes) -> int:
    """The PDF's number of pages (its text not read)."""
    return len(PdfReader(io.BytesIO(data)).pages)


def colour_share(img: Image.Image) -> float:
    """Share of pixels whose red, green and blue differ noticeably (0 for a grey-only page)."""
    px = np.asarray(img.convert("RGB"), dtype=np.int16)
    coloured = int(np.count_nonzero(px.max(axis=2) - px.min(axis=2) > 12))
    return coloured / (px.shape[0] * px.shape[1])


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    layers = make_world(tmp, {
        "wetlands": [sq(150, 150, 100)],
        "floodplain": [sq(-100, 0, 600, 40)],
        "rock_outcrops": [sq(20, 330, 30)],
        "historic": [sq(300, -100, 300, 250)],
        "zoning": [(sq(-200, -200, 1400, 1400), {"ZONE": "R-40"})],
        "parcels": [(sq(0, 0, 400), {"SBL": "156.14-1-23", "ZONE": "R-40", "ADDRESS": "12 Test Rd"}),
                    (sq(400, 0, 300), {"SBL": "156.14-1-24", "ZONE": "R-40", "ADDRESS": "14 Test Rd"})],
    }, dem=lambda x, y: 500 + 0.2 * x + 0.0015 * (x - 200) ** 2)
    return tmp, layers


@pytest.fixture(scope="module")
def analysis(world):
    _, layers = world
    return analyze_parcel(sq(0, 0, 400), layers, as_of=DAY,
                          project={"application_type": "subdivision", "disturbance_area_sqft": 50_000},
                          mitigation_input={"impacted_wetland_sqft": 2000, "proposed_mitigation_sqft": 2500})


@pytest.fixture(scope="module")
def events():
    return timeline_events([{"id": "wetland_permit", "issued": "2026-03-02"},
                            {"id": "steep_slope_application", "complete": "2026-04-20"}], DAY,
                           expiring_soon_days=90)


@pytest.fixture(scope="module")
def report(world, analysis, events):
    _, layers = world
    out = ARTIFACTS / "report_sample.pdf"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    write_report(analysis, layers, out, timeline_events=events, as_of=dt.date(2026, 5, 2),
                 notes="Owner asked about the pond. <b>not bold</b> **not markdown** =HYPERLINK(x)")
    return out


def test_the_report_carries_the_figures_the_analysis_found(report, analysis):
    text, pages = pdf_text(report.read_bytes())
    r = analysis.result
    assert 1 <= pages <= MAX_PAGES
    assert "Pre-application summary" in text
    assert "160,000 sq ft (3.67 acres)" in text
    assert f"{r.net_lot_area_sqft:,.0f} sq ft" in text
    assert f"{r.deducted_sqft:,.0f} sq ft" in text
    assert "40,000 sq ft" in text and "MEETS the district minimum" in text
    for d in r.deductions:
        assert d.label in text
        assert f"{d.deducted_sqft:,.0f}" in text


def test_the_report_cites_the_law_behind_each_figure(report, analysis):
    text, _ = pdf_text(report.read_bytes())
    for cite in ("§ 402-45A(1)", "§ 402-45A(2)(a)", "§ 402-45A(2)(b)", "§ 402-45A(3)", "§ 402-45A",
                 "§ 402-48C(1)", "§ 402-48C(2)", "§ 402-48C(10)", "§ 402-57P(2)"):
        assert cite in text, cite
    for p in analysis.result.permits:
        assert p.citation in text, p.citation
        assert p.title in text
    # Quoted clauses, not just numbers.
    assert "Slopes over 15% on 25% or more of the property." in text
    assert "by a ratio of at least 1.5 to one" in text


def test_the_report_shows_authorities_mitigation_and_deadlines(report, analysis, events):
    text, _ = pdf_text(report.read_bytes())
    assert "Planning Board (§ 402-55D(1))" in text
    assert "Village Engineer" in text
    assert "3,000 sq ft" in text and "500 sq ft" in text and "at least 1.5 to 1" in text  # 2,000 x 1.5; shortfall
    for e in events:
        assert e.date.strftime("%b %d, %Y") in text
        assert e.citation.split(",")[0] in text
    assert "Mar 02, 2027" in text  # the wetland permit expires a year after issue


def test_the_report_carries_disclaimers_date_and_versions(report):
    text, _ = pdf_text(report.read_bytes())
    assert "Screening estimate only" in text
    assert "Planning Board, the Building Inspector or the Village Engineer makes every determination" in text
    assert "ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA" in text
    assert "Illustrative sample, not official data" in text
    assert "May 2, 2026" in text
    assert PARAMS_VERSION in text
    assert LAW_TEXT_SHA256[:16] in text
    assert "test world version test" in text


def test_user_text_is_printed_as_plain_text(report):
    text, _ = pdf_text(report.read_bytes())
    assert "<b>not bold</b>" in text and "**not markdown**" in text and "=HYPERLINK(x)" in text


def test_the_pages_print_in_black_and_white_and_are_looked_at(report):
    pngs = to_png(report, "report_sample")
    assert 1 <= len(pngs) <= MAX_PAGES
    for png in pngs:
        img = Image.open(png)
        assert img.width > 600
        assert colour_share(img) < 0.001, f"{png.name} uses colour"
    first = Image.open(pngs[0]).convert("L")
    # The map is drawn: a good share of the upper-left quarter is not white.
    w, h = first.size
    crop = first.crop((0, int(h * 0.15), w // 2, int(h * 0.6)))
    dark = np.count_nonzero(np.asarray(crop) < 200) / (crop.width * crop.height)
    assert dark > 0.08


def test_the_map_draws_pieces_with_patterns_in_grey(analysis, world):
    _, layers = world
    png, ratio = map_png(analysis, layers)
    img = Image.open(io.BytesIO(png))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and ratio > 1.0  # the legend strip sits below the square map
    assert colour_share(img) < 0.001
    grey = img.convert("L")
    levels = set(np.unique(np.asarray(grey) // 16).tolist())
    assert len(levels) >= 6  # several grey levels, not one flat tone


def test_a_long_case_still_fits_the_page_limit(world, analysis):
    _, layers = world
    items = [{"id": "wetland_permit", "issued": f"2026-{m:02d}-01", "ref": f"WP-{m}-{k}"}
             for m in range(1, 13) for k in range(3)]
    evs = timeline_events(items, dt.date(2027, 3, 15), expiring_soon_days=90)
    assert any(e.status in ("passed", "expired") for e in evs)
    data = report_pdf_bytes(analysis, layers, timeline_events=evs, notes="Long note. " * 800, as_of=DAY)
    text, pages = pdf_text(data)
    assert pages <= MAX_PAGES
    assert "160,000 sq ft" in text and "§ 402-45A(1)" in text and "Screening estimate only" in text
    assert "more dates: see the calendar" in text
    # (a table's cells read one after the other: pypdf may glue them without a space)
    shown = [e for e in evs if re.search(re.escape(e.date.strftime("%b %d, %Y")) + " ?" + re.escape(e.label), text)]
    assert shown and all(e.status not in ("passed", "expired") for e in shown)  # what is ahead comes first


def test_unknown_layers_read_unknown_and_official_data_has_no_sample_banner(tmp_path):
    make_world(tmp_path, {"floodplain": [sq(0, 0, 400, 100)]}, omit=("wetlands",), dem=0)
    manifest = yaml.safe_load((tmp_path / "layers.yaml").read_text())
    manifest.update(illustrative=False, notice="County data", name="official set", version="2026.1")
    (tmp_path / "layers.yaml").write_text(yaml.safe_dump(manifest))
    layers = load_manifest(tmp_path / "layers.yaml")
    a = analyze_parcel(sq(0, 0, 400), layers, district="R-40", as_of=DAY)
    text, pages = pdf_text(report_pdf_bytes(a, layers, as_of=DAY))
    assert pages <= MAX_PAGES
    assert "ILLUSTRATIVE SAMPLE" not in text and "Illustrative sample" not in text
    assert "unknown (no data)" in text  # the wetland layer is missing
    assert "CANNOT TELL" in text  # a missing wetland layer could cover everything
    assert "official set version 2026.1" in text


def test_an_exact_net_area_is_printed_exactly(world_once):
    layers = world_once({"floodplain": [sq(0, 0, 400, 100)]}, dem=0)
    a = analyze_parcel(sq(0, 0, 400), layers, district="R-40", as_of=DAY)
    text, _ = pdf_text(report_pdf_bytes(a, layers, as_of=DAY))
    assert "Net lot area" in text and "120,000 sq ft (2.75 acres)" in text
    assert "40,000" in text  # the floodplain deduction


def test_a_lot_the_layers_map_in_part_reads_meets_with_the_floor_it_keeps(world_once):
    # The wetland and floodplain layers map the west 300 ft of the 400 ft square: whatever the east 100 ft
    # holds, the mapped land keeps 100,000 sq ft (tests/law/test_s402_45_deductions.py), over R-40's 40,000.
    layers = world_once({}, dem=0, coverage={"wetlands": WEST_300_FT, "floodplain": WEST_300_FT})
    a = analyze_parcel(sq(0, 0, 400), layers, district="R-40", as_of=DAY)
    text, _ = pdf_text(report_pdf_bytes(a, layers, as_of=DAY))
    assert "MEETS the district minimum lot area." in text and "CANNOT TELL" not in text
    assert "at least 100,000 sq ft" in text  # the floor, beside the net


def test_the_font_covers_section_signs_and_dashes():
    assert _plain("§ 402-45 – a — b “c”") == "§ 402-45 – a — b “c”"
    assert _plain("pond \U0001F986\x07") == "pond ?"


# ---------------------------------------------------------------------------------------------- CLI


def run(*args):
    """The CLI's entry point in this process (tests/real_data.run_cli); test_cli.py runs it as a child."""
    from real_data import run_cli

    return run_cli(*map(str, args))


def test_cli_report_writes_the_same_pdf(world, tmp_path):
    wdir, _ = world
    parcel = tmp_path / "parcel.geojson"
    gpd.GeoDataFrame(geometry=[sq(0, 0, 400)], crs=WORK_CRS).to_crs(4326).to_file(parcel, driver="GeoJSON")
    project = tmp_path / "project.json"
    project.write_text(json.dumps({"application_type": "subdivision", "disturbance_area_sqft": 50_000}))
    out = tmp_path / "summary.pdf"
    r = run("report", parcel, "--layers", wdir / "layers.yaml", "--district", "R-15", "--project", project,
            "--out", out)
    assert r.returncode == 0, r.stderr
    assert out.is_file() and out.read_bytes()[:5] == b"%PDF-"
    text, pages = pdf_text(out.read_bytes())
    assert 1 <= pages <= MAX_PAGES
    assert "160,000 sq ft" in text and "R-15" in text and "§ 402-45A(1)" in text
    assert "Stormwater pollution prevention plan (SWPPP)" in text  # the project's 50,000 sq ft disturbance
    analyze = run("analyze", parcel, "--layers", wdir / "layers.yaml", "--district", "R-15", "--project", project,
                  "--json")
    net = json.loads(analyze.stdout)["net_lot_area_sqft"]
    assert f"{net:,.0f} sq ft" in text


def test_cli_report_refuses_a_missing_parcel_plainly(world, tmp_path):
    wdir, _ = world
    r = run("report", tmp_path / "nope.geojson", "--layers", wdir / "layers.yaml", "--out", tmp_path / "x.pdf")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and r.stderr.strip()
    assert not (tmp_path / "x.pdf").exists()


SAMPLE = ROOT / "data" / "sample" / "layers.yaml"


def test_cli_report_on_the_illustrative_sample(tmp_path):
    out = tmp_path / "sample.pdf"
    parcel = ROOT / "data" / "sample" / "demo_parcels" / "riverside_2ac.geojson"
    r = run("report", parcel, "--layers", SAMPLE, "--out", out)
    assert r.returncode == 0, r.stderr
    text, pages = pdf_text(out.read_bytes())
    assert 1 <= pages <= MAX_PAGES
    assert text.count("ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA") == 1
    assert "Illustrative sample, not official data." not in text.split("Please note")[0]  # not said twice
    assert "§ 402-45A(1)" in text and "Screening estimate only" in text


#: Sample tax parcels whose cluster section used to start on page 2 under a third of a page of white.
FLOW_SBLS = ("162.18-2-3", "163.19-5-39", "162.22-4-2", "162.22-4-1", "156.11-1-43")
#: Page 1 may end this far above the bottom margin at most (a table row or a heading with its first
#: lines that did not fit); a whole section pushed over leaves 25 mm or more.
MAX_PAGE_END_GAP_MM = 15.0
PT_MM = 25.4 / 72
HEADINGS = ("Land that does not count", "Cluster development", "Permits and reviews", "Wetland mitigation",
            "Deadlines and expiry dates", "Notes", "Points to check", "The law behind", "Please note")


def page_lines(pdf_path: Path, page: int) -> tuple[float, list[tuple[float, str]]]:
    """Page height (mm) and the text lines of a page above the footer: (bottom edge in mm, text)."""
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext (Debian poppler-utils) is missing: run `make test`.")
    out = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox-layout", str(pdf_path), "-"],
                         capture_output=True, text=True, check=True, timeout=60).stdout
    height = float(re.search(r'<page width="[\d.]+" height="([\d.]+)"', out).group(1)) * PT_MM
    lines = []
    for m in re.finditer(r'<line xMin="[\d.]+" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)">(.*?)</line>', out,
                         re.S):
        words = re.findall(r">([^<]*)</word>", m.group(2))
        bottom = float(m.group(1)) * PT_MM
        if bottom < height - 14:  # the footer sits in the bottom margin
            lines.append((bottom, " ".join(words)))
    return height, sorted(lines)


@pytest.mark.parametrize("sbl", FLOW_SBLS)
def test_sections_flow_so_page_one_is_filled_before_page_two(sbl, tmp_path):
    layers = load_manifest(SAMPLE)
    parcels = gpd.read_file(ROOT / "data" / "sample" / "parcels.gpkg")
    geom = parcels.loc[parcels["SBL"] == sbl, "geometry"].iloc[0]
    out = tmp_path / "flow.pdf"
    write_report(analyze_parcel(geom, layers, as_of=DAY), layers, out, as_of=dt.date(2026, 5, 2))
    pages = page_count(out.read_bytes())
    assert 1 <= pages <= MAX_PAGES
    if pages == 1:
        return
    height, lines = page_lines(out, 1)
    gap = (height - 14) - lines[-1][0]
    assert gap <= MAX_PAGE_END_GAP_MM, f"page 1 of {sbl} ends {gap:.0f} mm above its bottom margin"
    # A heading is never left alone at the foot of page 1: its first lines come with it.
    assert not lines[-1][1].startswith(HEADINGS), lines[-1]
    _, next_lines = page_lines(out, 2)
    assert next_lines, "page 2 is empty"
    if sbl == FLOW_SBLS[0]:
        shutil.copy(out, ARTIFACTS / "report_flow.pdf")
        to_png(out, "report_flow")


# A "not before" day has its own status words, and one that has come is not "still ahead".
# § 402-48G(3)(f)[2]: charges unpaid "more than 60 days" may become a lien: billed 2026-01-02, the lien is
# possible from 2026-03-04 ("reached" on 2026-05-01); § 402-58I(1): the guarantee runs "not less than one
# year from the date of final acceptance": accepted 2026-02-01, not before 2027-02-01 ("not_yet").
NOT_BEFORE_ITEMS = [{"id": "open_space_charge", "billed": "2026-01-02"},
                    {"id": "performance_guarantee", "final_acceptance": "2026-02-01"},
                    {"id": "wetland_permit", "issued": "2026-03-02"}]


def test_a_not_before_day_that_has_come_is_not_kept_as_still_ahead():
    from sloat_core.outputs.report import events_to_show

    evs = [e.to_dict() for e in timeline_events(NOT_BEFORE_ITEMS, DAY, expiring_soon_days=90)]
    status = {e["kind"]: e["status"] for e in evs}
    assert status["lien_possible"] == "reached" and status["guarantee_earliest_end"] == "not_yet"
    ahead = [e for e in evs if e["status"] not in ("passed", "expired", "met", "missed", "reached")]
    shown = events_to_show(evs, len(ahead))
    assert [e["id"] for e in shown] == [e["id"] for e in ahead]  # every date still ahead, in date order
    kinds = {e["kind"] for e in shown}
    assert "guarantee_earliest_end" in kinds  # not_yet: still to come
    assert "lien_possible" not in kinds  # reached: it has come, like a passed deadline
    assert events_to_show(evs, len(evs)) == evs  # room for all: all shown


def test_the_report_words_not_before_statuses(analysis, world):
    _, layers = world
    events = timeline_events(NOT_BEFORE_ITEMS, DAY, expiring_soon_days=90)
    text, _pages = pdf_text(report_pdf_bytes(analysis, layers, timeline_events=events, as_of=DAY))
    flat = " ".join(text.split())
    assert "From this day on" in flat and "Not before this day" in flat
    # The deadlines table (other sections may say "reached" in their own sense: a SEQR threshold reached).
    table = flat.split("Deadlines and expiry dates", 1)[1].split("Dates are worked out", 1)[0]
    assert not re.search(r"\b(reached|not yet|not_yet|due_soon)\b", table)


def test_a_partly_mapped_lot_prints_its_known_wetland_as_at_least_never_as_nothing_deducted(world_once):
    # The layers map the west 300 ft of the 400 ft square and show a 10,000 sq ft wetland there: its row is
    # unknown (the east 100 ft is not mapped) but at least 10,000 sq ft, and the net counts it: 127,146 at most.
    layers = world_once({"wetlands": [sq(0, 150, 100)]}, dem=0,
                        coverage={"wetlands": WEST_300_FT, "floodplain": WEST_300_FT})
    a = analyze_parcel(sq(0, 0, 400), layers, district="R-40", as_of=DAY)
    text, _ = pdf_text(report_pdf_bytes(a, layers, as_of=DAY))
    flat = " ".join(text.split())
    assert "unknown (at least 10,000)" in flat  # the wetland row: its area and what it deducts
    assert re.search(r"Total deducted 32,8\d\d", flat)  # 10,000 + half of the 45,683 sq ft buffer drawn
    assert "160,000 Net lot area" not in flat and re.search(r"Net lot area 127,1\d\d", flat)


def test_cli_report_writes_the_web_page_when_the_name_ends_in_html(tmp_path):
    """The same command, ``--out X.html``: the summary's web page (the HTML its PDF is made of), not a PDF; with
    ``--plain`` the handout's."""
    parcel = ROOT / "data" / "sample" / "demo_parcels" / "riverside_2ac.geojson"
    for plain, title in ((False, "Pre-application summary"), (True, "What this means for your lot")):
        out = tmp_path / f"doc{int(plain)}.html"
        r = run("report", parcel, "--layers", SAMPLE, "--out", out, *(["--plain"] if plain else []))
        assert r.returncode == 0, r.stderr
        page = out.read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and f"<title>{title}</title>" in page
        assert '<html lang="en-US">' in page and "@page" in page
