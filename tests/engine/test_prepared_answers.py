"""Tax-parcel answers worked out ahead (sloat_core.engine.prepared, ``python -m sloat_core prepare-answers``).

:func:`prepare` writes every tax parcel's ``analyze_parcel`` result for a day into ``answers.sqlite3``;
:class:`PreparedAnswers` reads one back only under the file's own generation (a hash of the day, the
manifest and the files it names, the settings file and the code), and gives None, never an exception, for
anything it does not hold: another generation, another parcel or district, no file, a foreign or damaged one.
Layer set: tests/app_fixtures.py (P1 40,000 sq ft with a wetland strip, P2 10,000 sq ft), with a third tax
parcel in two rows of one SBL and a row with no SBL added here.

The elevation model named in the short form, the rules' other files, a shapefile's sidecars, a path from the home
folder, a damaged row of the wrong type and an SBL spelled two ways each had a test here before they were right.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from shapely.geometry import box

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from sloat_core.engine import what_if  # noqa: E402
from sloat_core.engine.analysis import analyze_parcel  # noqa: E402
from sloat_core.engine.prepared import (  # noqa: E402
    picture_key,
    ANSWERS_FILE,
    PreparedAnswers,
    answer_key,
    generation,
    prepare,
)
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402
from sloat_core.law.settings import SETTINGS_PATH  # noqa: E402
from sloat_core.units import WORK_CRS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DAY = dt.date(2026, 12, 3)
NEXT_DAY = dt.date(2026, 12, 4)
#: A third tax parcel drawn in two rows (two 100 ft x 100 ft halves), in R-40.
P3_SBL = "156.14-1-25"
P3_WEST, P3_EAST = box(fx.X0 + 700, fx.Y0, fx.X0 + 800, fx.Y0 + 100), box(fx.X0 + 800, fx.Y0, fx.X0 + 900, fx.Y0 + 100)
SBLS = (fx.P1_SBL, fx.P2_SBL, P3_SBL)


def write_layers(folder: Path) -> Path:
    """The app fixtures' layer set with the parcels P1, P2, P3 (two rows) and a row with no SBL; the manifest."""
    manifest = fx.write_layerset(folder)
    parcels = gpd.GeoDataFrame(
        {"SBL": [fx.P1_SBL, fx.P2_SBL, P3_SBL, P3_SBL, None],
         "ADDRESS": ["1 Test Road", "3 Test Road", "5 Test Road", "5 Test Road", None],
         "ZONE": ["R-15", "R-15", "R-40", "R-40", "R-15"]},
        geometry=[fx.P1, fx.P2, P3_WEST, P3_EAST, box(fx.X0, fx.Y0 + 600, fx.X0 + 50, fx.Y0 + 650)], crs=WORK_CRS)
    parcels.to_file(folder / "parcels.gpkg", layer="parcels", driver="GPKG")
    return manifest


@pytest.fixture()
def manifest(tmp_path) -> Path:
    folder = tmp_path / "layers"
    folder.mkdir()
    return write_layers(folder)


@pytest.fixture()
def layers(manifest):
    return load_manifest(manifest)


@pytest.fixture()
def answers_dir(tmp_path) -> Path:
    return tmp_path / "data"


@pytest.fixture()
def settings_copy(tmp_path) -> Path:
    path = tmp_path / "local.yaml"
    shutil.copyfile(SETTINGS_PATH, path)
    return path


def key_of(layers, sbl: str, district: str | None = "tax record") -> str:
    parcel = parcel_by_sbl(layers, sbl)
    return answer_key(parcel, (parcel.district or None) if district == "tax record" else district)


def rewrite(path: Path, sql: str, params=()) -> None:
    """Change the answers file through a copy moved into place (a new inode: readers open it as immutable)."""
    copy = path.with_name("copy.sqlite3")
    shutil.copyfile(path, copy)
    con = sqlite3.connect(copy)
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()
    os.replace(copy, path)


def bump_mtime(path: Path, seconds: int = 5) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


# --- what prepare writes ------------------------------------------------------------------------------------


def test_every_tax_parcels_stored_answer_is_the_engines_answer_for_that_day(layers, answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    reader = PreparedAnswers(answers_dir)
    for sbl in SBLS:
        parcel = parcel_by_sbl(layers, sbl)
        expected = analyze_parcel(parcel, layers, district=parcel.district or None, as_of=DAY).result
        got = reader.get(report.generation, answer_key(parcel, parcel.district or None))
        assert got == expected and got.to_dict() == expected.to_dict(), sbl  # read back as the typed result
        assert got.as_of == DAY
    assert reader.get(report.generation, key_of(layers, P3_SBL)).gross_area_sqft == pytest.approx(20_000)


def test_the_report_counts_each_distinct_sbl_once_and_the_file_holds_as_many_answers(layers, answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    assert report.answers == len(SBLS) == 3  # P3's two rows are one parcel; the row with no SBL is none
    assert report.refused == {}
    assert report.path == answers_dir / ANSWERS_FILE
    assert f"3 tax-parcel answers worked out ahead for {DAY.isoformat()}" in report.summary()
    con = sqlite3.connect(report.path)
    try:
        assert sorted(s for (s,) in con.execute("SELECT sbl FROM answers")) == sorted(SBLS)
        meta = dict(con.execute("SELECT key, value FROM meta"))
    finally:
        con.close()
    assert meta["generation"] == report.generation
    assert (meta["as_of"], meta["answers"]) == (DAY.isoformat(), "3")


def test_the_files_generation_is_the_one_worked_out_for_its_manifest_settings_and_day(layers, manifest,
                                                                                        answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    assert report.generation == generation(manifest, DAY) == generation(manifest, DAY, SETTINGS_PATH)
    assert PreparedAnswers(answers_dir).generation() == report.generation


def test_prepare_leaves_nothing_but_the_answers_and_their_lock_file(layers, answers_dir):
    prepare(layers, answers_dir, as_of=DAY)
    prepare(layers, answers_dir, as_of=NEXT_DAY)
    assert sorted(p.name for p in answers_dir.iterdir()) == [ANSWERS_FILE, ANSWERS_FILE + ".lock"]


# --- the generation -----------------------------------------------------------------------------------------


def test_the_generation_stays_the_same_when_nothing_changed(manifest, settings_copy):
    assert generation(manifest, DAY, settings_copy) == generation(manifest, DAY, settings_copy)


def test_the_generation_changes_with_the_day(manifest, settings_copy):
    assert generation(manifest, DAY, settings_copy) != generation(manifest, NEXT_DAY, settings_copy)


def test_the_generation_changes_when_the_settings_files_bytes_change(manifest, settings_copy):
    before = generation(manifest, DAY, settings_copy)
    st = settings_copy.stat()
    settings_copy.write_bytes(settings_copy.read_bytes() + b"\n# edited\n")
    os.utime(settings_copy, ns=(st.st_atime_ns, st.st_mtime_ns))  # the bytes, not the time, tell
    assert generation(manifest, DAY, settings_copy) != before


@pytest.mark.parametrize("name", ["local.yaml", "state_law.yaml", "lot_size_what_if.yaml"])
def test_a_process_started_before_a_setting_was_edited_names_the_answers_as_one_started_after_it(
        name, manifest, tmp_path, monkeypatch):
    """The app's processes run for weeks; the office edits a file of data/settings; the answers job, a new
    process, makes the file under the generation the running app works out (else the app never reads it)."""
    from sloat_core.approvals import state_law
    from sloat_core.engine import prepared
    from sloat_core.law import settings as settings_module

    root = tmp_path / "app"
    (root / "data").mkdir(parents=True)
    (root / "sloat_core").symlink_to(ROOT / "sloat_core")
    shutil.copytree(ROOT / "data" / "law", root / "data" / "law")
    shutil.copytree(ROOT / "data" / "settings", root / "data" / "settings")
    folder = root / "data" / "settings"
    for var in (state_law.STATE_LAW_ENV, what_if.WHAT_IF_ENV):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(prepared, "_ROOT", root)
    monkeypatch.setattr(settings_module, "SETTINGS_PATH", folder / "local.yaml")
    monkeypatch.setattr(state_law, "STATE_LAW_PATH", folder / "state_law.yaml")
    monkeypatch.setattr(what_if, "WHAT_IF_PATH", folder / "lot_size_what_if.yaml")
    monkeypatch.setattr(prepared, "_CODE", [])
    running = generation(manifest, DAY)  # the running app's, worked out before the edit
    edited = folder / name
    edited.write_bytes(edited.read_bytes() + b"\n# edited by the office\n")
    after_in_the_running_process = generation(manifest, DAY)
    monkeypatch.setattr(prepared, "_CODE", [])  # a new process: nothing worked out yet
    in_a_new_process = generation(manifest, DAY)
    assert after_in_the_running_process == in_a_new_process != running


def test_the_generation_changes_when_a_layer_file_is_touched(manifest, settings_copy):
    before = generation(manifest, DAY, settings_copy)
    bump_mtime(manifest.parent / "wetlands.gpkg")
    assert generation(manifest, DAY, settings_copy) != before


def test_the_generation_changes_when_a_layer_files_size_changes_at_the_same_time(manifest, settings_copy):
    path = manifest.parent / "parcels.gpkg"
    before, st = generation(manifest, DAY, settings_copy), path.stat()
    with path.open("ab") as fh:
        fh.write(b"\0" * 1024)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_mtime_ns == st.st_mtime_ns and path.stat().st_size != st.st_size
    assert generation(manifest, DAY, settings_copy) != before


def test_the_generation_changes_when_the_manifests_bytes_change(manifest, settings_copy):
    before, st = generation(manifest, DAY, settings_copy), manifest.stat()
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('version: "test-1"', 'version: "test-2"'), encoding="utf-8")
    os.utime(manifest, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert manifest.stat().st_size == st.st_size  # same size and time: only the bytes differ
    assert generation(manifest, DAY, settings_copy) != before


def test_the_generation_changes_when_the_settings_file_is_another_one(manifest, settings_copy, tmp_path):
    other = tmp_path / "other.yaml"
    other.write_bytes(settings_copy.read_bytes() + b"\n# another office\n")
    assert generation(manifest, DAY, settings_copy) != generation(manifest, DAY, other)


def test_the_generation_changes_when_an_elevation_model_named_in_the_short_form_changes(manifest, settings_copy):
    (manifest.parent / "dem.tif").write_bytes(b"\0" * 64)  # generation() only looks at its size and time
    with manifest.open("a", encoding="utf-8") as fh:
        fh.write("dem: dem.tif\n")
    before = generation(manifest, DAY, settings_copy)
    (manifest.parent / "dem.tif").write_bytes(b"\0" * 128)
    bump_mtime(manifest.parent / "dem.tif")
    assert generation(manifest, DAY, settings_copy) != before


@pytest.mark.parametrize("how", ["the shipped file edited", "SLOAT_LOT_SIZE_WHAT_IF"])
def test_the_generation_changes_when_the_lot_size_what_if_candidates_change(how, manifest, layers, settings_copy,
                                                                            tmp_path, monkeypatch):
    candidates = tmp_path / "lot_size_what_if.yaml"
    shutil.copyfile(what_if.WHAT_IF_PATH, candidates)
    monkeypatch.delenv(what_if.WHAT_IF_ENV, raising=False)
    if how == "SLOAT_LOT_SIZE_WHAT_IF":
        monkeypatch.setenv(what_if.WHAT_IF_ENV, str(candidates))
    else:  # the shipped file, as its header invites ("Edit them here"), here a copy in its place
        monkeypatch.setattr(what_if, "WHAT_IF_PATH", candidates)
    parcel = parcel_by_sbl(layers, fx.P1_SBL)

    def answer():
        return analyze_parcel(parcel, layers, district="VC-1", as_of=DAY).result.min_lot_area_what_if.cases

    before, gen_before = answer(), generation(manifest, DAY, settings_copy)
    text = candidates.read_text(encoding="utf-8")
    assert "VC-1: [10000, 15000]" in text
    candidates.write_text(text.replace("VC-1: [10000, 15000]", "VC-1: [20000, 30000]"), encoding="utf-8")
    bump_mtime(candidates)
    assert answer() != before  # the answer depends on the file...
    assert generation(manifest, DAY, settings_copy) != gen_before  # ...so its generation must


def test_the_generation_changes_when_a_shapefiles_attribute_table_changes(manifest, settings_copy):
    folder = manifest.parent
    for suffix in (".shp", ".shx", ".dbf", ".prj"):
        (folder / f"zoning{suffix}").write_bytes(b"\0" * 100)  # generation() only looks at sizes and times
    with manifest.open("a", encoding="utf-8") as fh:
        fh.write("  zoning: {path: zoning.shp, district_field: ZONE}\n")
    before = generation(manifest, DAY, settings_copy)
    (folder / "zoning.dbf").write_bytes(b"\1" * 200)  # a district renamed: only the table is rewritten
    bump_mtime(folder / "zoning.dbf")
    assert generation(manifest, DAY, settings_copy) != before


def test_the_generation_changes_when_a_layer_file_named_from_the_home_folder_changes(manifest, settings_copy,
                                                                                     tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    shutil.copyfile(manifest.parent / "wetlands.gpkg", home / "wetlands.gpkg")
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("{path: wetlands.gpkg", "{path: ~/wetlands.gpkg"), encoding="utf-8")
    assert load_manifest(manifest).get("wetlands") is not None  # the loader reads the file in the home folder
    before = generation(manifest, DAY, settings_copy)
    bump_mtime(home / "wetlands.gpkg")
    assert generation(manifest, DAY, settings_copy) != before


# --- reading -------------------------------------------------------------------------------------------------


def test_get_gives_none_for_another_generation_an_unknown_key_and_another_district(layers, answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    reader = PreparedAnswers(answers_dir)
    assert reader.get(report.generation, key_of(layers, fx.P1_SBL)) is not None  # the control
    assert reader.get(generation(layers.manifest_path, NEXT_DAY), key_of(layers, fx.P1_SBL)) is None
    assert reader.get("0" * 32, key_of(layers, fx.P1_SBL)) is None
    assert reader.get(report.generation, "f" * 64) is None
    assert reader.get(report.generation, key_of(layers, fx.P1_SBL, district="R-40")) is None
    assert reader.get(report.generation, key_of(layers, fx.P1_SBL, district=None)) is None


def _foreign_sqlite(path: Path, gen: str, key: str) -> None:
    """An SQLite file with the answers' tables and rows, but no application_id."""
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("CREATE TABLE answers (parcel_key TEXT PRIMARY KEY, sbl TEXT NOT NULL, result BLOB NOT NULL)")
    con.execute("INSERT INTO meta VALUES ('generation', ?)", (gen,))
    con.execute("INSERT INTO answers VALUES (?, ?, ?)", (key, fx.P1_SBL, zlib.compress(b'{"net_lot_area_sqft": 1}')))
    con.commit()
    con.close()


@pytest.mark.parametrize("kind", ["no file", "an empty file", "a foreign SQLite file", "random bytes",
                                  "a folder"])
def test_get_gives_none_without_a_usable_file_and_raises_nothing(kind, layers, answers_dir):
    gen, key = generation(layers.manifest_path, DAY), key_of(layers, fx.P1_SBL)
    answers_dir.mkdir()
    path = answers_dir / ANSWERS_FILE
    if kind == "an empty file":
        path.write_bytes(b"")
    elif kind == "a foreign SQLite file":
        _foreign_sqlite(path, gen, key)
    elif kind == "random bytes":
        path.write_bytes(random.Random(20261203).randbytes(8192))
    elif kind == "a folder":
        path.mkdir()
    reader = PreparedAnswers(answers_dir)
    assert reader.generation() is None
    assert reader.get(gen, key) is None
    assert reader.get(gen, key) is None  # and again (the file is not retried into an exception)


def test_a_reader_opened_on_the_old_file_reads_the_new_one_after_prepare_runs_again(layers, answers_dir):
    first = prepare(layers, answers_dir, as_of=DAY)
    reader = PreparedAnswers(answers_dir)
    key = key_of(layers, fx.P1_SBL)
    assert reader.generation() == first.generation
    assert reader.get(first.generation, key).as_of == DAY
    second = prepare(layers, answers_dir, as_of=NEXT_DAY)
    assert second.generation != first.generation
    assert reader.generation() == second.generation
    assert reader.get(first.generation, key) is None
    assert reader.get(second.generation, key).as_of == NEXT_DAY


def test_get_reads_the_answer_back_anew_each_time(layers, answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    reader = PreparedAnswers(answers_dir)
    key = key_of(layers, fx.P1_SBL)
    got = reader.get(report.generation, key)
    out = got.to_dict()
    out["deductions"].clear()
    again = reader.get(report.generation, key)
    assert again is not got and again == got and again.deductions


def test_a_stored_answer_not_of_the_results_shape_gives_none(layers, answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    rewrite(report.path, "UPDATE answers SET result = ? WHERE sbl = ?", (zlib.compress(b'{"a": 1}'), fx.P1_SBL))
    assert PreparedAnswers(answers_dir).get(report.generation, key_of(layers, fx.P1_SBL)) is None


@pytest.mark.parametrize("blob", [b"not zlib at all", zlib.compress(b"{not json"), zlib.compress(b"\xff\xfe\x00"),
                                  zlib.compress(b'{"a": 1}')[:-3]],
                         ids=["not zlib", "not JSON", "not UTF-8", "cut short"])
def test_a_damaged_stored_answer_gives_none_and_the_others_still_read(blob, layers, answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    reader = PreparedAnswers(answers_dir)
    assert reader.get(report.generation, key_of(layers, fx.P1_SBL)) is not None
    rewrite(report.path, "UPDATE answers SET result = ? WHERE sbl = ?", (blob, fx.P1_SBL))
    assert reader.get(report.generation, key_of(layers, fx.P1_SBL)) is None
    assert reader.get(report.generation, key_of(layers, fx.P2_SBL)).as_of == DAY


@pytest.mark.parametrize("value", ["text, not bytes", 42], ids=["text", "integer"])
def test_a_stored_answer_of_the_wrong_type_gives_none(value, layers, answers_dir):
    report = prepare(layers, answers_dir, as_of=DAY)
    rewrite(report.path, "UPDATE answers SET result = ? WHERE sbl = ?", (value, fx.P1_SBL))
    assert PreparedAnswers(answers_dir).get(report.generation, key_of(layers, fx.P1_SBL)) is None


def test_the_report_counts_one_parcel_once_when_its_sbl_is_spelled_two_ways(tmp_path):
    folder = tmp_path / "layers"
    folder.mkdir()
    manifest = fx.write_layerset(folder)
    gpd.GeoDataFrame({"SBL": [fx.P1_SBL, "156.14-1-24a", "156.14-1-24A"], "ZONE": ["R-15"] * 3,
                      "ADDRESS": ["1 Test Road", "3 Test Road", "3 Test Road"]},
                     geometry=[fx.P1, fx.P2, fx.P2], crs=WORK_CRS).to_file(folder / "parcels.gpkg", layer="parcels",
                                                                          driver="GPKG")
    report = prepare(load_manifest(manifest), tmp_path / "data", as_of=DAY)
    con = sqlite3.connect(report.path)
    try:
        stored = con.execute("SELECT count(*) FROM answers").fetchone()[0]
    finally:
        con.close()
    assert report.answers == stored == 2


# --- the slope pictures of the web map ------------------------------------------------------------------------


@pytest.fixture()
def dem_manifest(manifest) -> Path:
    """The layer set with the sample's elevation model (it covers the fixture parcels near the village centre)."""
    with manifest.open("a", encoding="utf-8") as fh:
        fh.write(f"dem: {{path: {ROOT / 'data' / 'sample' / 'dem.tif'}, z_units: us_survey_foot}}\n")
    return manifest


def test_each_tax_parcels_slope_picture_is_stored_as_the_web_map_would_make_it(dem_manifest, answers_dir):
    from sloat_core.gis.slope_web import picture_request, png_data_url

    layers = load_manifest(dem_manifest)
    report = prepare(layers, answers_dir, as_of=DAY)
    assert report.pictures == len(SBLS) == 3 and "with 3 slope pictures" in report.summary()
    reader = PreparedAnswers(answers_dir)
    for sbl in SBLS:
        request = picture_request(layers.dem_path, parcel_by_sbl(layers, sbl).geometry, DAY)
        stored = reader.picture(report.generation, picture_key(request))
        # the same code on the same machine: the same PNG byte for byte, the same bounds (JSON keeps floats)
        assert stored == png_data_url(*request), sbl
    other = picture_request(layers.dem_path, box(fx.X0, fx.Y0, fx.X0 + 150, fx.Y0 + 200), DAY)  # an edited outline
    assert reader.picture(report.generation, picture_key(other)) is None
    assert reader.picture(generation(dem_manifest, NEXT_DAY), picture_key(request)) is None


def test_without_an_elevation_model_no_picture_is_stored_and_the_answers_are(layers, answers_dir):
    from sloat_core.gis.slope_web import picture_request

    report = prepare(layers, answers_dir, as_of=DAY)
    assert layers.dem_path is None and report.pictures == 0 and report.answers == 3
    assert "slope pictures" not in report.summary()
    request = picture_request(ROOT / "data" / "sample" / "dem.tif", parcel_by_sbl(layers, fx.P1_SBL).geometry, DAY)
    assert PreparedAnswers(answers_dir).picture(report.generation, picture_key(request)) is None


@pytest.mark.parametrize("png, bounds", [(b"not a png", "[[41.1, -74.2], [41.2, -74.1]]"),
                                         (b"\x89PNG\r\n\x1a\nrest", "[[41.1, -74.2]]"),
                                         (b"\x89PNG\r\n\x1a\nrest", '[["a", -74.2], [41.2, -74.1]]'),
                                         (b"\x89PNG\r\n\x1a\nrest", "not json"),
                                         ("a text", "[[41.1, -74.2], [41.2, -74.1]]")],
                         ids=["not a PNG", "one corner", "a text corner", "bounds not JSON", "text for the PNG"])
def test_a_damaged_stored_picture_gives_none(png, bounds, dem_manifest, answers_dir):
    from sloat_core.gis.slope_web import picture_request

    layers = load_manifest(dem_manifest)
    report = prepare(layers, answers_dir, as_of=DAY)
    key = picture_key(picture_request(layers.dem_path, parcel_by_sbl(layers, fx.P1_SBL).geometry, DAY))
    rewrite(report.path, "UPDATE pictures SET png = ?, bounds = ? WHERE picture_key = ?", (png, bounds, key))
    assert PreparedAnswers(answers_dir).picture(report.generation, key) is None


# --- what changes during a run -------------------------------------------------------------------------------


def _during_the_run(monkeypatch, change, times: int = 1) -> list[int]:
    """Call ``change()`` as the first parcel of each of the first ``times`` runs is analysed; the calls counted."""
    from sloat_core.engine import analysis

    real, calls = analysis.analyze_parcel, []

    def analyse_and_change(parcel, *args, **kwargs):
        if parcel.sbl == fx.P1_SBL and len(calls) < times:  # P1 is analysed once in each run
            calls.append(len(calls) + 1)
            change()
        return real(parcel, *args, **kwargs)

    monkeypatch.setattr(analysis, "analyze_parcel", analyse_and_change)
    return calls


def test_a_setting_edited_during_the_run_is_in_every_answer_and_in_the_files_name(layers, manifest, answers_dir,
                                                                                     settings_copy, monkeypatch):
    """The staff edit R-40's minimum while the answers are being made: the run is made again, and the file holds
    the new minimum's answers under the new settings' generation (not answers of both under the old one)."""
    from sloat_core.law import settings as settings_module

    monkeypatch.setattr(settings_module, "SETTINGS_PATH", settings_copy)
    before = prepare(layers, answers_dir, as_of=DAY)
    p3 = parcel_by_sbl(layers, P3_SBL)
    old_answer = PreparedAnswers(answers_dir).get(before.generation, key_of(layers, P3_SBL))

    def edit():
        text = settings_copy.read_text(encoding="utf-8")
        assert "min_lot_area_sqft: 40000" in text
        settings_copy.write_text(text.replace("min_lot_area_sqft: 40000", "min_lot_area_sqft: 20000"), "utf-8")
        bump_mtime(settings_copy)

    calls = _during_the_run(monkeypatch, edit)
    report = prepare(layers, answers_dir, as_of=DAY)
    assert calls == [1] and report.attempts == 2 and report.installed
    assert report.generation == generation(manifest, DAY) != before.generation
    assert "made 2 times" in report.summary()
    reader = PreparedAnswers(answers_dir)
    assert reader.generation() == report.generation
    got = reader.get(report.generation, key_of(layers, P3_SBL))
    expected = analyze_parcel(p3, layers, district="R-40", as_of=DAY).result
    assert got == expected != old_answer  # the 20,000 sq ft minimum's answer, not the 40,000's


def test_a_layer_file_replaced_during_the_run_is_read_anew_before_the_answers_are_made_again(manifest, answers_dir,
                                                                                               monkeypatch):
    """The tax parcels are replaced in place (the manifest's own time unchanged) while the answers are made: the
    next run reads the new file, so P3 is the new 150 ft x 100 ft lot, not the 200 ft x 100 ft one."""
    layers = load_manifest(manifest)
    parcels_file = manifest.parent / "parcels.gpkg"
    manifest_mtime = manifest.stat().st_mtime_ns

    def replace_the_parcels():
        table = gpd.read_file(parcels_file)
        table = table[table["SBL"] != P3_SBL]
        p3 = gpd.GeoDataFrame({"SBL": [P3_SBL], "ADDRESS": ["5 Test Road"], "ZONE": ["R-40"]},
                              geometry=[box(fx.X0 + 700, fx.Y0, fx.X0 + 850, fx.Y0 + 100)], crs=WORK_CRS)
        new = gpd.GeoDataFrame(pd.concat([table, p3], ignore_index=True), crs=WORK_CRS)
        staged = parcels_file.with_name("staged.gpkg")
        new.to_file(staged, layer="parcels", driver="GPKG")
        os.replace(staged, parcels_file)
        bump_mtime(parcels_file)

    calls = _during_the_run(monkeypatch, replace_the_parcels)
    report = prepare(layers, answers_dir, as_of=DAY)
    assert calls == [1] and report.attempts == 2 and report.installed
    assert manifest.stat().st_mtime_ns == manifest_mtime
    assert report.generation == generation(manifest, DAY)
    fresh = load_manifest(manifest)
    got = PreparedAnswers(answers_dir).get(report.generation, key_of(fresh, P3_SBL))
    assert got is not None and got.gross_area_sqft == pytest.approx(15_000)  # exact rectangles: 1e-6 sq ft


def test_when_what_the_answers_are_made_from_keeps_changing_the_old_file_stays_and_the_command_fails(
        layers, manifest, answers_dir, monkeypatch, capsys):
    from sloat_core import cli

    before = prepare(layers, answers_dir, as_of=DAY)
    old = (answers_dir / ANSWERS_FILE).read_bytes()
    calls = _during_the_run(monkeypatch, lambda: bump_mtime(manifest.parent / "parcels.gpkg"), times=99)
    report = prepare(layers, answers_dir, as_of=DAY, attempts=3)
    assert len(calls) == 3 and report.attempts == 3 and not report.installed
    assert (answers_dir / ANSWERS_FILE).read_bytes() == old
    assert PreparedAnswers(answers_dir).generation() == before.generation
    assert sorted(p.name for p in answers_dir.iterdir()) == [ANSWERS_FILE, ANSWERS_FILE + ".lock"]
    assert "changed during each of 3 runs" in report.summary() and "not replaced" in report.summary()
    code = cli.main(["prepare-answers", "--layers", str(manifest), "--data-dir", str(answers_dir),
                     "--as-of", DAY.isoformat()])
    assert code == 1
    assert "were not replaced" in capsys.readouterr().err
    assert (answers_dir / ANSWERS_FILE).read_bytes() == old


# --- the command line ----------------------------------------------------------------------------------------


def test_the_command_writes_the_answers_and_says_how_many_on_stderr(manifest, answers_dir):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "sloat_core", "prepare-answers", "--layers", str(manifest),
                           "--data-dir", str(answers_dir), "--as-of", DAY.isoformat()],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert f"3 tax-parcel answers worked out ahead for {DAY.isoformat()}" in proc.stderr
    assert str(answers_dir / ANSWERS_FILE) in proc.stderr
    reader = PreparedAnswers(answers_dir)
    assert reader.generation() == generation(manifest, DAY)
    assert reader.get(reader.generation(), key_of(load_manifest(manifest), P3_SBL)).as_of == DAY
