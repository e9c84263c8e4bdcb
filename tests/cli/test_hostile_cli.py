"""Hostile and broken input through the command line.

Every case runs the CLI's own entry point, ``sloat_core.cli.main(argv)``, in one of two ways:

- in a child process (``python -m sloat_core ...``) with a 30 s timeout and a 3 GB address-space limit,
  for the cases about escapes (paths out of an archive, XML entities, network links, hostile file names)
  and resources (zip bombs, oversize files, vertex limits): a crash, a runaway or a write there must not
  touch the test process. A ``sitecustomize`` audit hook (tests/fixtures/hostile/audit) logs every path
  the child writes to. The child is forked from a server that has the libraries imported already
  (tests/forked_cli.py: the same entry point, environment, limits and captured file descriptors, a second
  of imports less each); the corpus run that checks the repository is left unchanged starts the
  interpreter itself for its accepted files;
- in-process, for the cases about the message's shape (bad forms, bad dates, repaired files): the same
  ``main(argv)`` with stdout/stderr captured, and the same audit of every path written (an audit hook
  in this process records while the call runs). This is what makes the corpus quick.

Either way, from a working directory inside ``tmp_path`` with ``TMPDIR`` pointing at a sandbox folder,
each case must:

- exit 2 with exactly one plain sentence on stderr (no traceback), or exit 0 with the repair or doubt
  named in the JSON ``warnings``;
- never print the contents of /etc/passwd ("root:");
- write nothing outside its sandbox (and the output path it was given), and leave the sandbox's temporary
  folder and the input's folder as they were.

Small inputs are committed in tests/fixtures/hostile (made by make_hostile.py); big ones (200,000 vertices,
a county-size parcel, a file over the upload limit, zip bombs, a GeoPackage with many layers, broken DEMs)
are built into ``tmp_path`` here.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import math
import multiprocessing.util
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
AUDIT = HOSTILE / "audit"
SAMPLE_LAYERS = ROOT / "data" / "sample" / "layers.yaml"
sys.path.insert(0, str(HOSTILE))
import make_hostile as mh  # noqa: E402

from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.rules.sections.s402_57_wetlands.mitigation import mitigation  # noqa: E402
from sloat_core.gis.safe_files import MAX_UPLOAD_BYTES  # noqa: E402
from sloat_core import cli  # noqa: E402
from sloat_core.gis import bounded_parse  # noqa: E402
import forked_cli  # noqa: E402
from law_day import LAW_DAY  # noqa: E402

#: One worker runs the module (``pytest -n 2``): one fork server (tests/forked_cli.py: its imports and the sample
#: layer set, a few seconds of processor time) for its child runs, not one on each worker.
pytestmark = pytest.mark.xdist_group("hostile_cli")

TIMEOUT_S = 30
MEMORY_LIMIT_BYTES = 3 * 1024**3


def _limit_memory() -> None:  # runs in the child before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    writes: list[tuple[str, str]]

    def json(self) -> dict:
        return json.loads(self.stdout)


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


def _load_audit():
    """The subprocess audit's own rules (tests/fixtures/hostile/audit/sitecustomize.py), loaded under another
    name so that this process does not start logging."""
    spec = importlib.util.spec_from_file_location("hostile_write_audit", AUDIT / "sitecustomize.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_audit = _load_audit()
_recording: list | None = None  # the writes of the in-process call running now, else None


def _in_process_hook(event, args):
    if _recording is not None:
        _recording.extend(_audit.written_paths(event, args))


sys.addaudithook(_in_process_hook)  # audit hooks cannot be removed; it records only during a call

# multiprocessing keeps one private folder per process (``pymp-*``, for a fork server's socket), made the first time
# a fork server starts and removed at the process's exit. The product makes it outside whatever folder ``tempfile``
# points at (gis/bounded_parse.py), but ``tempfile`` then reads TMPDIR, which an in-process call below sets to its
# sandbox: made here first, the test process's own folder never appears in a sandbox as the command's leftover.
multiprocessing.util.get_temp_dir()
# The test process has several threads (pytest-xdist's), so the product's bounded parses take their workers from a fork
# server, whose socket is made (and chmod-ed) in that folder when it first starts: started here, before any call is
# recorded, as a server starts it for its first visitor. (Seen in CI once this module became its own worker group:
# the first in-process call started it, and its socket was recorded as the command's write outside its sandbox.)
# Started whatever the number of threads now (``_context`` forks directly while the process has one thread), and
# made sure of again before each recorded call (:func:`_call_main`): seen in CI, started during a call all the same.
bounded_parse._forkserver_context()


def _call_main(args: list[str], cwd: Path, tmp: Path) -> tuple[int, str, str, list]:
    """``cli.main(args)`` in this process, as a shell would run it: working directory ``cwd``, ``TMPDIR``
    ``tmp``, no SLOAT_DEBUG / SLOAT_LAYERS, no bytecode written; stdout and stderr captured."""
    global _recording
    bounded_parse._forkserver_context()  # running before the call is recorded (a no-op while it runs)
    out, err = io.StringIO(), io.StringIO()
    saved_env = {k: os.environ.get(k) for k in ("SLOAT_DEBUG", "SLOAT_LAYERS", "TMPDIR")}
    saved_cwd, saved_tempdir, saved_bytecode = os.getcwd(), tempfile.tempdir, sys.dont_write_bytecode
    os.environ.pop("SLOAT_DEBUG", None)
    os.environ.pop("SLOAT_LAYERS", None)
    os.environ["TMPDIR"] = str(tmp)
    tempfile.tempdir = str(tmp)
    sys.dont_write_bytecode = True
    writes: list = []
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            _recording = writes
            try:
                code = cli.main(args)
            finally:
                _recording = None
    finally:
        os.chdir(saved_cwd)
        tempfile.tempdir, sys.dont_write_bytecode = saved_tempdir, saved_bytecode
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return code, out.getvalue(), err.getvalue(), writes


def run_cli(args: list, sandbox: Path, *, allowed: tuple[Path, ...] = (), subprocess_: bool = False,
            interpreter: bool = False) -> Run:
    """Run the CLI in ``sandbox`` (created) and check the rules every case shares.

    In-process by default; ``subprocess_=True`` for escape and resource cases (a child process with a
    timeout and a memory limit, its writes logged by the sitecustomize audit hook), forked from the
    imported libraries (tests/forked_cli.py), or with ``interpreter=True`` a new interpreter."""
    sandbox.mkdir(parents=True, exist_ok=True)
    cwd, tmp, log = sandbox / "cwd", sandbox / "tmp", sandbox / "writes.log"
    cwd.mkdir(exist_ok=True)
    tmp.mkdir(exist_ok=True)
    inputs = {Path(a).parent for a in map(str, args) if Path(a).is_file()}
    before = {d: _listing(d) for d in inputs}
    t0 = time.perf_counter()
    if subprocess_:
        env = {k: v for k, v in os.environ.items() if k not in ("SLOAT_DEBUG", "SLOAT_LAYERS")}
        env.update(PYTHONPATH=f"{ROOT}{os.pathsep}{AUDIT}", TMPDIR=str(tmp), PYTHONDONTWRITEBYTECODE="1",
                   SLOAT_WRITE_AUDIT=str(log), PYTHONWARNINGS="default")
        if interpreter:
            proc = subprocess.run([sys.executable, "-m", "sloat_core", *map(str, args)], cwd=cwd, env=env,
                                  capture_output=True, text=True, timeout=TIMEOUT_S, preexec_fn=_limit_memory)
        else:
            proc = forked_cli.run(args, cwd=cwd, env=env, timeout=TIMEOUT_S, memory_limit_bytes=MEMORY_LIMIT_BYTES)
        seconds = time.perf_counter() - t0
        writes = [tuple(line.split("\t", 1)) for line in log.read_text(encoding="utf-8").splitlines()] \
            if log.exists() else []
        run = Run(proc.returncode, proc.stdout, proc.stderr, seconds, writes)
    else:
        code, stdout, stderr, writes = _call_main([str(a) for a in args], cwd, tmp)
        run = Run(code, stdout, stderr, time.perf_counter() - t0, writes)
    # never a traceback, never a local file's contents
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout, run.stderr[-2000:]
    assert "root:" not in run.stdout and "root:" not in run.stderr
    assert run.returncode in (0, 2), (run.returncode, run.stderr[-2000:])
    # nothing written outside the sandbox and the allowed outputs; temporary files removed; inputs untouched
    roots = [str(sandbox.resolve())] + [str(Path(a).resolve()) for a in allowed] + ["/dev/null"]
    outside = [w for w in writes if not any(w[1] == r or w[1].startswith(r + os.sep) for r in roots)]
    assert not outside, outside
    assert _listing(tmp) == [], _listing(tmp)
    assert _listing(cwd) == [], _listing(cwd)
    for folder, names in before.items():
        assert _listing(folder) == names, f"files appeared beside the input in {folder}"
    return run


def assert_refused(run: Run, needle: str) -> str:
    """Exit 2 with exactly one plain sentence on stderr that contains ``needle``."""
    assert run.returncode == 2, (run.stdout[:500], run.stderr)
    message = run.stderr.strip()
    assert message and "\n" not in message, repr(run.stderr)
    assert not message[0].islower() and message.endswith("."), message
    assert len(message) < 400, message
    assert not re.search(r"\b(Error|Exception|errno|GDAL|pyogrio|shapely|fiona)\b", message), message
    assert needle.lower() in message.lower(), message
    assert run.stdout == ""
    return message


def assert_accepted(run: Run, warning: str | None) -> dict:
    """Exit 0, the JSON contract on stdout, on stderr only the warnings (each one line, each also in the
    JSON), and ``warning`` among the warnings."""
    assert run.returncode == 0, run.stderr
    out = run.json()
    for line in run.stderr.splitlines():
        assert line.startswith("Warning: ") and line[len("Warning: "):] in out["warnings"], run.stderr
    assert all(isinstance(w, str) and w.strip() for w in out["warnings"])
    if warning is not None:
        assert any(warning.lower() in w.lower() for w in out["warnings"]), out["warnings"]
    assert out["net_lot_area_sqft"] <= out["gross_area_sqft"] + 1e-6
    return out


def analyze(path: Path, sandbox: Path, *extra, layers: Path = SAMPLE_LAYERS, subprocess_: bool = False,
            interpreter: bool = False) -> Run:
    return run_cli(["analyze", path, "--layers", layers, "--json", *extra], sandbox, subprocess_=subprocess_,
                   interpreter=interpreter)


#: Files whose danger is an escape (out of an archive, through an XML entity): always run in a subprocess.
ESCAPES = {"traversal.zip", "absolute.zip", "xxe.kml", "xxe_parameter.kml", "xxe_utf16.kml", "xxe.kmz"}


# ------------------------------------------------------------------------------------------------
# Files that cannot be used: exit 2 and one sentence
# ------------------------------------------------------------------------------------------------

REFUSED = [
    ("not_geo.txt", "file type was not recognised"),
    ("png_named.geojson", "not readable text"),
    ("html_named.kml", "could not be read as KML"),
    ("empty_collection.geojson", "no shapes"),
    ("point.geojson", "points or lines"),
    ("linestring.geojson", "points or lines"),
    ("nan.geojson", "not numbers"),
    ("infinity.geojson", "not numbers"),
    ("overflow.geojson", "not numbers"),
    ("utm_nocrs.geojson", "must declare its CRS or be exported as longitude/latitude"),
    ("projected_nocrs.geojson", "must declare its CRS or be exported as longitude/latitude"),
    ("swapped.geojson", "swapped"),
    ("other_state.geojson", "miles from Sloatsburg"),
    ("traversal.zip", "points outside the archive"),
    ("absolute.zip", "points outside the archive"),
    ("not_a_zip.zip", "not a valid zip archive"),
    ("truncated.zip", "not a valid zip archive"),
    ("shp_no_dbf.zip", "missing its .dbf"),
    ("xxe.kml", "DOCTYPE or ENTITY"),
    ("xxe_parameter.kml", "DOCTYPE or ENTITY"),
    ("xxe_utf16.kml", "DOCTYPE or ENTITY"),
    ("xxe.kmz", "DOCTYPE or ENTITY"),
]


@pytest.mark.parametrize("name, needle", REFUSED, ids=[r[0] for r in REFUSED])
def test_unusable_file_exits_2_with_one_sentence(name, needle, tmp_path):
    assert_refused(analyze(HOSTILE / name, tmp_path, subprocess_=name in ESCAPES), needle)


def test_xxe_never_reads_the_local_file(tmp_path):
    """The entity names /etc/passwd; its contents ("root:") appear in no output (checked in run_cli too)."""
    assert "root:" in Path("/etc/passwd").read_text()  # the check below could fail
    for name in ("xxe.kml", "xxe_parameter.kml", "xxe_utf16.kml", "xxe.kmz"):
        run = analyze(HOSTILE / name, tmp_path / name, subprocess_=True)
        assert "root:" not in run.stdout + run.stderr and "/bin/" not in run.stdout + run.stderr


def test_kml_network_links_are_not_followed(tmp_path):
    """A NetworkLink to a local KML (another polygon) or to /etc/passwd is ignored: only the outline counts."""
    other = tmp_path / "linked" / "other.kml"
    other.parent.mkdir()
    other.write_text(mh._kml(mh.rect_ring_lonlat(1000, 0, 100, 100)), encoding="utf-8")
    link = (f"<NetworkLink><name>o</name><Link><href>{other}</href></Link></NetworkLink>"
            + (HOSTILE / "network_link.kml").read_text().split("<Document>")[1].split("<Placemark>")[0])
    kml = tmp_path / "in" / "linked.kml"
    kml.parent.mkdir()
    kml.write_text(mh._kml(mh.rect_ring_lonlat(), extra=link), encoding="utf-8")
    out = assert_accepted(analyze(kml, tmp_path / "run", subprocess_=True), None)
    assert out["gross_area_sqft"] == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-4)
    assert not any("combined" in w for w in out["warnings"])


def test_file_over_the_upload_limit_is_refused_before_reading(tmp_path):
    (tmp_path / "in").mkdir()
    big = mh.write_oversize(tmp_path / "in" / "big.geojson", MAX_UPLOAD_BYTES + 1024)
    run = analyze(big, tmp_path / "run", subprocess_=True)
    assert_refused(run, "limit for uploads")
    assert run.seconds < TIMEOUT_S


def test_file_just_under_the_upload_limit_is_read(tmp_path):
    (tmp_path / "in").mkdir()
    ok = mh.write_oversize(tmp_path / "in" / "padded.geojson", MAX_UPLOAD_BYTES - 1024)
    out = assert_accepted(analyze(ok, tmp_path / "run", subprocess_=True), None)
    assert out["gross_area_sqft"] == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-4)


def test_county_size_parcel_is_refused(tmp_path):
    (tmp_path / "in").mkdir()
    assert_refused(analyze(mh.write_county_size(tmp_path / "in" / "county.geojson"), tmp_path / "run",
                           subprocess_=True),
                   "acres allowed")


def test_zip_bomb_of_gigabytes_is_refused_quickly(tmp_path):
    (tmp_path / "in").mkdir()
    bomb = mh.write_zip_bomb(tmp_path / "in" / "bomb.zip", gigabytes=2.0)
    assert bomb.stat().st_size < MAX_UPLOAD_BYTES  # it gets past the size check
    run = analyze(bomb, tmp_path / "run", subprocess_=True)
    assert_refused(run, "zip bomb")
    assert run.seconds < 15


def test_zip_bomb_with_lying_headers_is_stopped_while_extracting(tmp_path):
    """Its headers declare 1,000 bytes; extraction is cut off when the bytes run past that."""
    (tmp_path / "in").mkdir()
    bomb = mh.write_lying_zip_bomb(tmp_path / "in" / "liar.zip")
    assert_refused(analyze(bomb, tmp_path / "run", subprocess_=True), "zip")


def test_vertex_limit_is_refused_with_a_message(tmp_path):
    (tmp_path / "in").mkdir()
    path = mh.write_many_vertices(tmp_path / "in" / "over.geojson", 200_001)
    run = analyze(path, tmp_path / "run", subprocess_=True)
    assert_refused(run, "200,001 vertices")
    assert run.seconds < 15


def test_200000_vertices_are_answered_within_the_time_limit(tmp_path):
    """At the limit the outline is analysed (a circle of radius 150 ft); run_cli's timeout is 30 s."""
    (tmp_path / "in").mkdir()
    path = mh.write_many_vertices(tmp_path / "in" / "circle.geojson", 200_000)
    out = assert_accepted(analyze(path, tmp_path / "run", subprocess_=True), None)
    assert out["gross_area_sqft"] == pytest.approx(math.pi * 150**2, rel=1e-4)


# ------------------------------------------------------------------------------------------------
# Repaired or doubtful: exit 0 with a warning
# ------------------------------------------------------------------------------------------------

ACCEPTED = [
    ("bowtie.geojson", "crossed itself", mh.BOWTIE_AREA_SQFT),
    ("hole.geojson", "hole (an inner ring) of 10,000 sq ft", mh.HOLE_AREA_SQFT),
    ("z3d.geojson", "3-D coordinates", mh.RECT_AREA_SQFT),
    ("shp_no_shx.zip", "no .shx index file", mh.RECT_AREA_SQFT),
    ("shp_no_prj.zip", "no .prj file", mh.RECT_AREA_SQFT),
    ("outside_village.geojson", "outside the Village of Sloatsburg", None),
]


@pytest.mark.parametrize("name, warning, area", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_repaired_or_doubtful_file_exits_0_with_a_warning(name, warning, area, tmp_path):
    out = assert_accepted(analyze(HOSTILE / name, tmp_path), warning)
    if area is not None:
        assert out["gross_area_sqft"] == pytest.approx(area, rel=1e-4)


def test_clean_parcel_has_none_of_those_warnings(tmp_path):
    """Control: the same rectangle, clean, inside the village, gets none of the repair warnings."""
    path = tmp_path / "in" / "clean.geojson"
    path.parent.mkdir()
    path.write_text(json.dumps(mh.feature_collection([{"type": "Polygon", "coordinates": [mh.rect_ring_lonlat()]}])))
    out = assert_accepted(analyze(path, tmp_path / "run"), None)
    assert out["gross_area_sqft"] == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-4)
    for _name, warning, _area in ACCEPTED:
        assert not any(warning.lower() in w.lower() for w in out["warnings"]), out["warnings"]


def test_geopackage_with_many_layers_takes_the_polygon_layer(tmp_path):
    (tmp_path / "in").mkdir()
    name = "<script>alert(1)</script>\u202e\x1b[31m" + "x" * 200
    gpkg = mh.write_many_layers_gpkg(tmp_path / "in" / "survey.gpkg", n_layers=40, polygon_layer_name=name)
    out = assert_accepted(analyze(gpkg, tmp_path / "run", subprocess_=True), "holds 40 layers")
    assert out["gross_area_sqft"] == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-4)
    said = next(w for w in out["warnings"] if "40 layers" in w)
    # the layer's name, as a plain string: printable characters only, cut short
    assert "'<script>alert(1)</script>[31mxxx" in said and "\x1b" not in said and "\u202e" not in said
    assert len(said) < 200


def test_hostile_file_name_and_properties_come_back_as_plain_strings(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    path = folder / "<img src=x onerror=alert(1)> \u202egepj.geojson"
    shutil.copy(HOSTILE / "hostile_properties.geojson", path)
    run = analyze(path, tmp_path / "run", subprocess_=True)
    out = assert_accepted(run, None)
    assert out["gross_area_sqft"] == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-4)
    assert "<img src=x onerror=alert(1)>" in out["parcel"]["source"]  # a plain JSON string, as given
    # the feature's own properties are not carried into the result at all
    for key in ("script", "markdown", "long", "control"):
        assert mh.HOSTILE_TEXTS[key][:40] not in json.dumps(out, ensure_ascii=False)


# ------------------------------------------------------------------------------------------------
# Layers and elevation models that are broken or hostile
# ------------------------------------------------------------------------------------------------


def _dem_world(tmp_path: Path, kind: str) -> Path:
    folder = tmp_path / "layers"
    folder.mkdir()
    return mh.write_manifest(folder, dem=mh.write_dem(folder / "dem.tif", kind))


def _clean_rect(tmp_path: Path) -> Path:
    path = tmp_path / "in" / "lot.geojson"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(mh.feature_collection([{"type": "Polygon", "coordinates": [mh.rect_ring_lonlat()]}])))
    return path


def test_good_dem_gives_known_slopes(tmp_path):
    """Control for the broken DEMs: a 30 % plane over the parcel puts it all in 25-40."""
    out = assert_accepted(analyze(_clean_rect(tmp_path), tmp_path / "run", layers=_dem_world(tmp_path, "good")),
                          None)
    slopes = out["slope_area_sqft"]
    assert slopes["25-40"] == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-6)
    assert slopes["unknown"] == pytest.approx(0.0, abs=1e-6)
    rows = {d["constraint"]: d for d in out["deductions"]}
    assert rows["slope_25_40"]["status"] == "known"


@pytest.mark.parametrize("kind", ["all_nodata", "elsewhere"])
def test_dem_without_data_on_the_parcel_gives_unknown_slopes_not_zero(kind, tmp_path):
    out = assert_accepted(analyze(_clean_rect(tmp_path), tmp_path / "run", layers=_dem_world(tmp_path, kind)),
                          "Slopes are unknown")
    slopes = out["slope_area_sqft"]
    assert slopes["unknown"] == pytest.approx(out["gross_area_sqft"], rel=1e-9)
    assert slopes["unknown"] == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-4)
    assert slopes["0-15"] == slopes["15-25"] == slopes["25-40"] == slopes["over_40"] == 0.0
    rows = {d["constraint"]: d for d in out["deductions"]}
    for key in ("slope_25_40", "slope_over_40"):
        assert rows[key]["status"] == "unknown" and rows[key]["area_sqft"] is None, rows[key]
    # the worst case allows for steep land under the unknown: the floor is below the net
    assert out["net_lot_area_min_sqft"] < out["net_lot_area_sqft"]


def test_dem_without_a_crs_gives_unknown_slopes_and_says_why(tmp_path):
    run = analyze(_clean_rect(tmp_path), tmp_path / "run", layers=_dem_world(tmp_path, "no_crs"))
    out = assert_accepted(run, "no coordinate system")
    assert out["slope_area_sqft"]["unknown"] == pytest.approx(out["gross_area_sqft"], rel=1e-9)
    rows = {d["constraint"]: d for d in out["deductions"]}
    assert rows["slope_25_40"]["status"] == rows["slope_over_40"]["status"] == "unknown"


def test_layer_properties_with_html_script_long_and_rtl_text_stay_plain_strings(tmp_path):
    folder = tmp_path / "layers"
    folder.mkdir()
    texts = list(mh.HOSTILE_TEXTS.values())
    manifest = mh.write_manifest(folder, names=texts)
    run = analyze(_clean_rect(tmp_path), tmp_path / "run", layers=manifest)
    out = assert_accepted(run, None)
    strings: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                assert isinstance(k, str)
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str):
            strings.append(node)

    walk(out)
    evidence = [s for s in strings if "<script>alert(1)</script>" in s]
    assert evidence, "the wetland and historic names are cited in the trigger evidence"
    for s in evidence:  # verbatim, never turned into markup or structure
        assert "<img src=x onerror=alert(1)>" in s and "&lt;" not in s
    assert any(mh.HOSTILE_TEXTS["rtl"] in s for s in strings)
    # the plain-text summary carries no terminal escape sequences
    text_run = run_cli(["analyze", _clean_rect(tmp_path), "--layers", manifest], tmp_path / "run_text")
    assert text_run.returncode == 0 and "\x1b" not in text_run.stdout


# ------------------------------------------------------------------------------------------------
# Project form (--project), mitigation calculator, timeline dates
# ------------------------------------------------------------------------------------------------

BIG_INT = "1" + "0" * 400  # parses as a Python int too large for a float
PROJECTS = [
    ('{"trees_removed": -1}', "negative"),
    ('{"trees_removed": NaN}', "finite"),
    ('{"disturbance_area_sqft": Infinity}', "finite"),
    ('{"disturbance_area_sqft": -Infinity}', "finite"),
    ('{"disturbance_area_sqft": 1e308}', "too large"),
    ('{"trees_removed": ' + BIG_INT + "}", "too large"),
    ('{"application_area_acres": "1e999"}', "finite"),
    ('{"trees_removed": 2.5}', "whole number"),
    ('{"trees_removed": "12abc"}', "number"),
    ('{"application_type": "<script>alert(1)</script>"}', "must be one of"),
    ('{"__proto__": 1}', "unknown field"),
    ('{"activities": [14]}', "1 to 13"),
    ('{"activities": ["1e400"]}', "1 to 13"),
    ("[]", "JSON object"),
    ('"<svg onload=alert(1)>"', "JSON object"),
    ("{not json", "not valid JSON"),
    ('{"trees_removed": ' + "9" * 5000 + "}", "not valid JSON"),  # over Python's 4,300-digit int limit
    ("[" * 100_000 + "]" * 100_000, "not valid JSON"),  # nested too deep for the parser
    ('{"disturbance_footprint": "<svg onload=alert(1)>"}', "GeoJSON"),
    ('{"disturbance_footprint": {"type": "Point", "coordinates": [-74.19, 41.15]}}', "polygon"),
    ('{"disturbance_footprint": {"type": "Polygon", "coordinates": [[[-74.19, 41.15], [NaN, 41.15], '
     '[-74.18, 41.16], [-74.19, 41.15]]]}}', "longitude and latitude"),
    ('{"disturbance_footprint": {"type": "Polygon", "coordinates": [[[-179, -89], [179, -89], [179, 89], '
     '[-179, 89], [-179, -89]]]}}', "too large to be real"),
]


@pytest.mark.parametrize("text, needle", PROJECTS, ids=[f"project{i}" for i in range(len(PROJECTS))])
def test_bad_project_form_exits_2_with_one_sentence(text, needle, tmp_path):
    project = tmp_path / "in" / "project.json"
    project.parent.mkdir()
    project.write_text(text, encoding="utf-8")
    run = analyze(HOSTILE / "hole.geojson", tmp_path / "run", "--project", project)
    assert_refused(run, needle)


@pytest.mark.parametrize("text", ['{"trees_removed": 0}', '{"disturbance_area_sqft": 0}',
                                  '{"disturbance_area_sqft": "  1200 "}', '{"activities": []}'])
def test_zero_and_blank_project_numbers_are_accepted(text, tmp_path):
    project = tmp_path / "in" / "project.json"
    project.parent.mkdir()
    project.write_text(text, encoding="utf-8")
    assert_accepted(analyze(HOSTILE / "hole.geojson", tmp_path / "run", "--project", project), None)


@pytest.mark.parametrize("value, needle", [
    (-1, "negative"), (-1e-9, "negative"), (float("nan"), "finite"), (float("inf"), "finite"),
    (float("-inf"), "finite"), (1e308, "too large"), (10**400, "too large"), ("abc", "number"),
    ("1e999", "finite"), (True, "number"), ([1], "number"), ({"a": 1}, "number"),
])
@pytest.mark.parametrize("field", ["impacted_wetland_sqft", "impacted_buffer_sqft", "proposed_mitigation_sqft"])
def test_mitigation_calculator_refuses_bad_numbers(field, value, needle):
    with pytest.raises(SloatInputError, match=needle):
        mitigation(**{field: value}, on=LAW_DAY)


def test_mitigation_calculator_zero_and_huge_but_real_numbers():
    zero = mitigation(impacted_wetland_sqft=0, proposed_mitigation_sqft=0, on=LAW_DAY)
    assert zero["required_mitigation_sqft"] == 0.0 and zero["shortfall_sqft"] == 0.0
    big = mitigation(impacted_wetland_sqft=1e9, proposed_mitigation_sqft="1e9", on=LAW_DAY)
    assert big["required_mitigation_sqft"] == pytest.approx(1.5e9)
    assert big["shortfall_sqft"] == pytest.approx(0.5e9)
    assert math.isfinite(big["required_mitigation_sqft"])


def _timeline(tmp_path: Path, items: list, *extra) -> Run:
    path = tmp_path / "in" / "items.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"as_of": "2026-11-29", "items": items}), encoding="utf-8")
    return run_cli(["timeline", path, "--json", *extra], tmp_path / "run",
                   allowed=tuple(Path(e) for e in extra if str(e).endswith(".ics")))


TIMELINE_REFUSED = [
    ([{"id": "wetland_permit", "issued": "2025-02-30"}], "not a real calendar date"),
    ([{"id": "wetland_permit", "issued": "2023-02-29"}], "not a real calendar date"),
    ([{"id": "wetland_permit", "issued": "2025-13-01"}], "not a real calendar date"),
    ([{"id": "wetland_permit", "issued": "next Tuesday"}], "YYYY-MM-DD"),
    ([{"id": "wetland_permit", "issued": 20250101}], "YYYY-MM-DD"),
    ([{"id": "wetland_permit", "issued": None}], "issue date"),
    ([{"id": "wetland_permit", "issued": "2026-03-01", "expires": "2026-01-01"}], "before its issue date"),
    ([{"id": "swppp_inspections", "start": "2026-05-01", "end": "2026-04-01"}], "before"),
    ([{"id": "wetland_permit", "issued": "9999-12-31"}], "outside the years"),
    ([{"id": "mitigation_monitoring", "completed": "9998-06-01", "years": 3}], "outside the years"),
    ([{"id": "swppp_inspections", "start": "2026-01-01", "end": "9999-12-31"}], "outside the years"),
    ([{"id": "steep_slope_permit", "issued": "2026-03-01", "other_permit_expires": "9999-12-31"}],
     "outside the years"),
    ([{"id": "wetland_permit", "issued": "0001-01-01"}], "outside the years"),
    ([{"id": "winter_season", "year": 10**30}], "out of range"),
    ([{"id": "tree_removal_permit", "issued": "2026-01-01", "term_months": 10**30}], "twelve months"),
    ([{"id": "<script>alert(1)</script>"}], "unknown id"),
    ([{"id": "wetland_permit", "issued": "2026-01-01", "onload": "x"}], "does not know"),
]


@pytest.mark.parametrize("items, needle", TIMELINE_REFUSED, ids=[f"timeline{i}" for i in range(len(TIMELINE_REFUSED))])
def test_bad_timeline_items_exit_2_with_one_sentence(items, needle, tmp_path):
    assert_refused(_timeline(tmp_path, items), needle)


@pytest.mark.parametrize("text", ['{"items": [{"id": "winter_season", "year": ' + "9" * 5000 + "}]}",
                                  "[" * 100_000 + "]" * 100_000, "\udcff"], ids=["huge_int", "deep", "not_utf8"])
def test_timeline_file_that_json_cannot_hold_exits_2(text, tmp_path):
    path = tmp_path / "in" / "items.json"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    assert_refused(run_cli(["timeline", path, "--json"], tmp_path / "run"), "not valid JSON")


def test_case_file_that_json_cannot_hold_is_an_input_error():
    from sloat_core.store import case_from_json

    for data in (b'{"format": ' + b"9" * 5000 + b"}", b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe{"):
        with pytest.raises(SloatInputError, match="not valid JSON"):
            case_from_json(data)


def test_leap_days_follow_the_calendar(tmp_path):
    items = [{"id": "wetland_permit", "issued": "2024-02-29"},
             {"id": "tree_removal_permit", "issued": "2024-01-31", "term_months": 1},
             {"id": "biodiversity_study", "dated": "2024-02-29"}]
    ics = tmp_path / "out" / "deadlines.ics"
    ics.parent.mkdir()
    run = _timeline(tmp_path, items, "--ics", ics)
    assert run.returncode == 0, run.stderr
    events = {(e["item_id"], e["kind"]): e["date"] for e in run.json()["events"]}
    assert events[("wetland_permit", "expires")] == "2025-02-28"  # no 29 February in 2025
    assert events[("tree_removal_permit", "expires")] == "2024-02-29"  # one month from 31 January 2024
    assert events[("biodiversity_study", "valid_until")] == "2027-02-28"
    assert ics.read_text().startswith("BEGIN:VCALENDAR")


def test_timeline_label_from_a_hostile_ref_is_plain_text(tmp_path):
    ref = "<script>alert(1)</script>\u202e"
    run = _timeline(tmp_path, [{"id": "wetland_permit", "issued": "2026-03-01", "ref": ref}])
    assert run.returncode == 0, run.stderr
    for event in run.json()["events"]:
        assert re.fullmatch(r"[a-z0-9-]+", event["id"]), event["id"]  # ids are slugs
        assert "&lt;" not in event["label"]


def test_analysis_date_far_in_the_future_is_answered(tmp_path):
    out = assert_accepted(analyze(HOSTILE / "hole.geojson", tmp_path / "run", "--as-of", "9999-12-31"), None)
    assert out["as_of"] == "9999-12-31"
    assert_refused(analyze(HOSTILE / "hole.geojson", tmp_path / "run2", "--as-of", "2026-02-30"), "not a date")


# ------------------------------------------------------------------------------------------------
# Nothing written into the repository
# ------------------------------------------------------------------------------------------------


def test_a_corpus_run_leaves_the_repository_and_sample_data_unchanged(tmp_path):
    """The sample layers, the DEM folder and the fixtures gain no side files (.aux.xml, -wal, .shx...)."""
    watched = [ROOT / "data" / "sample", HOSTILE, ROOT / "sloat_core"]
    before = {d: _listing(d) for d in watched}
    for name in ("shp_no_shx.zip", "shp_no_prj.zip", "xxe.kmz", "hole.geojson", "traversal.zip"):
        analyze(HOSTILE / name, tmp_path / name, subprocess_=True, interpreter=name == "hole.geojson")
    assert_accepted(analyze(_clean_rect(tmp_path), tmp_path / "dem", layers=SAMPLE_LAYERS, subprocess_=True,
                            interpreter=True), None)
    for d in watched:
        assert _listing(d) == before[d], d


# ------------------------------------------------------------------------------------------------
# Core fixes found by this corpus
# ------------------------------------------------------------------------------------------------


def test_cell_areas_of_a_many_vertex_outline_match_the_direct_intersection():
    """terrain: a concave outline of 5,000 vertices: the class areas equal the direct intersection."""
    import numpy as np
    import shapely
    from rasterio.transform import from_origin

    from sloat_core.gis import terrain

    ang = np.linspace(0, 2 * np.pi, 5001)[:-1]
    r = 150 + 20 * np.sin(7 * ang)  # a wavy circle: 5,000 vertices, concave
    geom = shapely.Polygon(np.column_stack([1000 + r * np.cos(ang), 1000 + r * np.sin(ang)]))
    slope = np.full((80, 80), 30.0)
    slope[:40] = 10.0
    grid = terrain.SlopeGrid(geom, slope, from_origin(800, 1200, 5, 5), Path("x.tif"))
    areas = grid.class_areas_sqft(on=LAW_DAY)
    assert sum(areas.values()) == pytest.approx(geom.area, rel=1e-9)
    north = shapely.box(800, 1000, 1200, 1200).intersection(geom).area  # rows 0-39 (slope 10 %)
    assert areas["0-15"] == pytest.approx(north, rel=1e-9)
    assert areas["25-40"] == pytest.approx(geom.area - north, rel=1e-9)
    assert areas["unknown"] == pytest.approx(0.0, abs=1e-6)


def test_unknown_region_equals_the_parcel_minus_the_known_cells():
    """terrain: the unknown part is built from the nodata cells and the part outside the window; it is the
    same set as the parcel minus the known part (the slow overlay it replaces)."""
    import numpy as np
    import shapely
    from rasterio.transform import from_origin

    from sloat_core.gis import terrain

    ang = np.linspace(0, 2 * np.pi, 3001)[:-1]
    geom = shapely.Polygon(np.column_stack([1000 + 150 * np.cos(ang), 1000 + 150 * np.sin(ang)]))
    slope = np.full((50, 60), 12.0)  # window x 800-1100, y 950-1200: the parcel sticks out east and south
    slope[10:20, 5:30] = np.nan
    grid = terrain.SlopeGrid(geom, slope, from_origin(800, 1200, 5, 5), Path("x.tif"))
    unknown = grid.unknown_region()
    known = grid._mask_region(np.isfinite(slope))
    direct = geom.difference(known)
    assert unknown.symmetric_difference(direct).area == pytest.approx(0.0, abs=1e-3)
    hole = shapely.box(825, 1100, 950, 1150).intersection(geom).area
    outside = geom.difference(shapely.box(800, 950, 1100, 1200)).area
    assert unknown.area == pytest.approx(hole + outside, rel=1e-9)
    assert grid.class_areas_sqft(on=LAW_DAY)["unknown"] == pytest.approx(unknown.area, rel=1e-9)


def test_the_in_process_write_audit_sees_a_write(tmp_path):
    """The in-process runs' audit is live: a file opened for writing during a recorded call is logged."""
    global _recording
    target = tmp_path / "written.txt"
    _recording = seen = []
    try:
        target.write_text("x")
    finally:
        _recording = None
    assert ("open", str(target.resolve())) in seen
