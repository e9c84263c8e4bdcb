"""The app's side of the answers worked out ahead (app_support.analysis_door.result / prepared_result).

With today's answers in the data folder (``SLOAT_DATA_DIR``) a tax parcel's answer with no other fact, in its
tax record's district, is read from the file and the engine is not run; any other fact (a project, the Board's
answers, mitigation figures, another district, a day, other settings), another day's file or a drawn outline
is worked out as before. To tell a read answer from a worked-out one, the file is replaced (``os.replace``,
as ``prepare`` does) by a copy in which one parcel's stored answer carries a marker value.
Layer set: tests/app_fixtures.py (P1, P2 in R-15).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import shutil
import sqlite3
import sys
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support import analysis_door, loaders  # noqa: E402
from sloat_core.engine import analysis as engine  # noqa: E402
from sloat_core.engine.prepared import ANSWERS_FILE, answer_key, prepare  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl, parcel_from_geojson  # noqa: E402
from app_support.analysis_door import law_day  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MARKER = 123.0


@pytest.fixture()
def world(manifest, data_dir, monkeypatch):
    """The layer set, P1 and P2, with the app's caches empty (st.cache_resource works outside a run)."""
    run, store = analysis_door._run, analysis_door._prepared_store  # (a test may replace them)
    loaders._layerset.clear()
    run.clear()
    store.clear()
    monkeypatch.setattr(analysis_door, "_GENERATIONS", {})
    layers = loaders.layerset()
    yield layers, parcel_by_sbl(layers, fx.P1_SBL), parcel_by_sbl(layers, fx.P2_SBL)
    run.clear()
    store.clear()


def mark(data_dir: Path, key: str, sbl: str | None = None) -> None:
    """Replace the answers file by a copy whose answer under ``key`` has ``net_lot_area_sqft`` = MARKER (added
    with ``sbl`` when the file holds no answer under that key)."""
    path = data_dir / ANSWERS_FILE
    copy = data_dir / "marked.sqlite3"
    shutil.copyfile(path, copy)
    con = sqlite3.connect(copy)
    try:
        row = con.execute("SELECT result FROM answers WHERE parcel_key = ?", (key,)).fetchone()
        if row is None:
            row = con.execute("SELECT result FROM answers LIMIT 1").fetchone()
        result = json.loads(zlib.decompress(row[0]))
        result["net_lot_area_sqft"] = MARKER
        con.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)",
                    (key, sbl or "drawn", zlib.compress(json.dumps(result).encode("utf-8"))))
        con.commit()
    finally:
        con.close()
    os.replace(copy, path)


def prepared_and_marked(layers, parcel, data_dir, *, day: dt.date | None = None, district="tax record"):
    district = (parcel.district or None) if district == "tax record" else district
    prepare(layers, data_dir, as_of=day or dt.date.today())
    mark(data_dir, answer_key(parcel, district), parcel.sbl)


def engine_must_not_run(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the engine was run for an answer worked out ahead")

    monkeypatch.setattr(engine, "analyze_parcel", refuse)


def test_a_tax_parcels_answer_is_read_from_todays_file_and_the_engine_is_not_run(world, data_dir, monkeypatch):
    layers, p1, p2 = world
    prepared_and_marked(layers, p1, data_dir)
    engine_must_not_run(monkeypatch)
    got = analysis_door.result(p1, layers, district=p1.district or None)
    assert got.net_lot_area_sqft == MARKER
    assert got.as_of == dt.date.today()
    assert analysis_door.prepared_result(p1, layers, p1.district).net_lot_area_sqft == MARKER
    assert analysis_door.result(p2, layers, district=p2.district).net_lot_area_sqft == pytest.approx(10_000)


def test_the_answer_read_ahead_is_the_one_the_engine_gives(world, data_dir):
    layers, p1, _ = world
    prepare(layers, data_dir, as_of=dt.date.today())
    stored = analysis_door.prepared_result(p1, layers, p1.district)
    assert stored is not None
    worked_out = analysis_door.analysis(p1, layers, district=p1.district).to_dict()
    assert stored.to_dict() == json.loads(json.dumps(worked_out))
    assert analysis_door.result(p1, layers, district=p1.district) is stored  # the typed result read ahead


def test_the_answer_read_ahead_is_frozen_and_its_dict_a_copy_the_caller_may_change(world, data_dir, monkeypatch):
    layers, p1, _ = world
    prepared_and_marked(layers, p1, data_dir)
    engine_must_not_run(monkeypatch)
    first = analysis_door.result(p1, layers, district=p1.district)
    with pytest.raises(dataclasses.FrozenInstanceError):  # shared by every session: nobody changes it
        first.net_lot_area_sqft = 1.0
    kept = analysis_door.copy_result(first)  # a dict of the caller's own (a case's snapshot)
    kept["net_lot_area_sqft"] = 1.0
    kept["permits"].clear()
    again = analysis_door.result(p1, layers, district=p1.district)
    assert again.net_lot_area_sqft == MARKER and again.permits


FACTS = {
    "a project": lambda: {"project": {"trees_removed": 3}},
    "the Board's answers": lambda: {"board_answers": {"402-48C(4)": True}},
    "mitigation figures": lambda: {"mitigation_input": {"proposed_mitigation_sqft": 4000.0}},
    "a day, even today": lambda: {"as_of": dt.date.today()},
    "other settings": lambda: {"settings": loaders.settings(), "settings_id": "a case's overrides"},
    "another district": lambda: {"district": "R-40"},
    "the zoning map's district": lambda: {"district": None},
}


@pytest.mark.parametrize("fact", FACTS)
def test_with_any_other_fact_the_answer_is_worked_out_not_read(fact, world, data_dir):
    layers, p1, _ = world
    prepared_and_marked(layers, p1, data_dir)
    facts = {"district": p1.district, **FACTS[fact]()}
    got = analysis_door.result(p1, layers, **facts)
    assert got.net_lot_area_sqft != MARKER
    assert got is analysis_door.analysis(p1, layers, **facts).result
    assert analysis_door.result(p1, layers, district=p1.district).net_lot_area_sqft == MARKER  # the control


def test_another_days_answers_are_not_read(world, data_dir):
    layers, p1, _ = world
    prepared_and_marked(layers, p1, data_dir, day=dt.date.today() - dt.timedelta(days=1))
    got = analysis_door.result(p1, layers, district=p1.district)
    assert got.net_lot_area_sqft != MARKER
    assert got.as_of == dt.date.today()
    assert analysis_door.prepared_result(p1, layers, p1.district) is None


def test_answers_made_before_the_settings_file_changed_are_not_read(world, data_dir, tmp_path, monkeypatch):
    layers, p1, _ = world
    prepared_and_marked(layers, p1, data_dir)
    edited = tmp_path / "local.yaml"
    edited.write_bytes(loaders.SETTINGS_FILE.read_bytes() + b"\n# edited after the answers were made\n")
    monkeypatch.setattr(loaders, "SETTINGS_FILE", edited)
    assert analysis_door.result(p1, layers, district=p1.district).net_lot_area_sqft != MARKER


@pytest.mark.parametrize("module, env", [("sloat_core.approvals.state_law", "STATE_LAW_ENV"),
                                         ("sloat_core.engine.what_if", "WHAT_IF_ENV")])
def test_answers_read_before_another_settings_file_was_edited_are_not_read_after_it(module, env, world, data_dir,
                                                                                      tmp_path, monkeypatch):
    """The state-law settings or the lot-size candidates are edited while the app runs (after a pick read its
    answer from the file): the next pick does not read the answers made before the edit."""
    import importlib

    mod = importlib.import_module(module)
    shipped = Path(getattr(mod, "STATE_LAW_PATH" if "state_law" in module else "WHAT_IF_PATH"))
    named = tmp_path / shipped.name
    named.write_bytes(shipped.read_bytes())
    monkeypatch.setenv(getattr(mod, env), str(named))
    layers, p1, _ = world
    prepared_and_marked(layers, p1, data_dir)
    assert analysis_door.result(p1, layers, district=p1.district).net_lot_area_sqft == MARKER
    named.write_bytes(named.read_bytes() + b"\n# edited after the answers were made\n")
    assert analysis_door.result(p1, layers, district=p1.district).net_lot_area_sqft != MARKER


def test_answers_replaced_by_a_new_days_file_are_noticed(world, data_dir):
    layers, p1, _ = world
    prepared_and_marked(layers, p1, data_dir)
    assert analysis_door.result(p1, layers, district=p1.district).net_lot_area_sqft == MARKER
    prepare(layers, data_dir, as_of=dt.date.today() - dt.timedelta(days=1))  # replaces the file whole
    assert analysis_door.result(p1, layers, district=p1.district).net_lot_area_sqft != MARKER


def test_a_drawn_parcel_never_reads_the_answers(world, data_dir, monkeypatch):
    layers, p1, _ = world
    drawn = parcel_from_geojson(fx.wgs84_feature(fx.P1))
    assert drawn.sbl is None
    prepare(layers, data_dir, as_of=dt.date.today())
    for district in (None, "R-15"):  # answers stored under the drawing's own keys
        mark(data_dir, answer_key(drawn, district))
    for district in (None, "R-15"):
        assert analysis_door.result(drawn, layers, district=district).net_lot_area_sqft != MARKER
    assert analysis_door.prepared_result(drawn, layers, None) is None

    def no_store(*args, **kwargs):
        raise AssertionError("the answers file was opened for a drawn parcel")

    monkeypatch.setattr(analysis_door, "_prepared_store", no_store)
    assert analysis_door.result(drawn, layers, district="R-15").gross_area_sqft == pytest.approx(40_000, abs=1)


def test_without_an_answers_file_the_answer_is_worked_out(world, data_dir):
    layers, p1, _ = world
    assert not (data_dir / ANSWERS_FILE).exists()
    assert analysis_door.prepared_result(p1, layers, p1.district) is None
    got = analysis_door.result(p1, layers, district=p1.district)
    assert got is analysis_door.analysis(p1, layers, district=p1.district).result


# --- the slope picture on the map ---------------------------------------------------------------------------


def _overlay_url(group) -> str:
    import folium

    (overlay,) = [c for c in group._children.values() if isinstance(c, folium.raster_layers.ImageOverlay)]
    return overlay.url


def test_a_tax_parcels_slope_picture_is_the_one_made_ahead_and_an_edited_outline_is_made_as_before(
        manifest, data_dir, monkeypatch):
    """With the sample's elevation model: the map's slope overlay of a picked tax parcel is the picture stored
    beside its answer (here replaced by a marker picture) and none is made; an edited outline's is made."""
    import base64

    from app_support.map import slope_overlay
    from sloat_core.engine.prepared import picture_key
    from sloat_core.gis.slope_web import picture_request, png_data_url

    with manifest.open("a", encoding="utf-8") as fh:
        fh.write(f"dem: {{path: {ROOT / 'data' / 'sample' / 'dem.tif'}, z_units: us_survey_foot}}\n")
    loaders._layerset.clear()
    analysis_door._prepared_store.clear()
    slope_overlay.slope_picture_url.clear()
    monkeypatch.setattr(analysis_door, "_GENERATIONS", {})
    layers = loaders.layerset()
    p1 = parcel_by_sbl(layers, fx.P1_SBL)
    assert prepare(layers, data_dir, as_of=dt.date.today()).pictures == 2
    key = picture_key(picture_request(layers.dem_path, p1.geometry, law_day()))
    marker = png_data_url(*picture_request(layers.dem_path, fx.P2, law_day()))[0]  # another parcel's picture
    path = data_dir / ANSWERS_FILE
    copy = data_dir / "marked.sqlite3"
    shutil.copyfile(path, copy)
    con = sqlite3.connect(copy)
    try:
        con.execute("UPDATE pictures SET png = ? WHERE picture_key = ?",
                    (base64.b64decode(marker.split(",", 1)[1]), key))
        con.commit()
    finally:
        con.close()
    os.replace(copy, path)
    made = []
    monkeypatch.setattr(slope_overlay, "png_data_url", lambda *a: made.append(a) or png_data_url(*a))
    assert _overlay_url(slope_overlay.slope_group(layers, p1.geometry, law_day())) == marker and made == []
    from shapely.geometry import box

    edited = box(fx.X0, fx.Y0, fx.X0 + 150, fx.Y0 + 200)
    url = _overlay_url(slope_overlay.slope_group(layers, edited, law_day()))
    assert len(made) == 1 and url == png_data_url(*picture_request(layers.dem_path, edited, law_day()))[0] != marker
    analysis_door._prepared_store.clear()
    slope_overlay.slope_picture_url.clear()
    loaders._layerset.clear()
