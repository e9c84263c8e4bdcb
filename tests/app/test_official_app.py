"""The app shows load warnings beside the layer set's name, and coverage gaps as unknowns with the reason."""

from __future__ import annotations

from pathlib import Path

import app_fixtures as fx
import geopandas as gpd
from shapely.geometry import box
from streamlit.testing.v1 import AppTest

from app_support.frame import state
from sloat_core.gis import parcels as parcel_input
from sloat_core.gis.layers import load_manifest
from sloat_core.units import WORK_CRS

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _run(manifest: Path) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    at.run()
    assert not at.exception, at.exception
    return at


def test_sidebar_shows_the_load_warnings_beside_the_layer_set_name(tmp_path, monkeypatch):
    manifest = fx.write_layerset(tmp_path)
    manifest.write_text(manifest.read_text().replace("district_field: ZONE", "district_feild: ZONE"))
    monkeypatch.setenv("SLOAT_LAYERS", str(manifest))
    at = _run(manifest)
    captions = [c.value.replace("\\", "") for c in at.sidebar.caption]
    assert any("Layer set: App test layers" in c for c in captions)
    side = [w.value.replace("\\", "") for w in at.sidebar.warning]
    assert any("district_feild" in w and "did you mean 'district_field'" in w for w in side), side


def test_clean_layer_set_shows_no_warning_box(manifest):
    at = _run(manifest)
    assert not [w for w in at.sidebar.warning if "unknown key" in w.value]
    assert not [e for e in at.sidebar.expander if "warning(s) about these layers" in e.label]


def test_a_floodplain_of_another_area_reads_unknown_on_the_parcel_page(tmp_path, monkeypatch):
    manifest = fx.write_layerset(tmp_path)
    far = box(fx.X0 + 30_000, fx.Y0 + 30_000, fx.X0 + 31_000, fx.Y0 + 31_000)
    gpd.GeoDataFrame({"FLD_ZONE": ["AE"], "SFHA_TF": ["T"]}, geometry=[far], crs=WORK_CRS).to_file(
        tmp_path / "flood.gpkg", layer="flood", driver="GPKG")
    manifest.write_text(manifest.read_text() + "  floodplain: {path: flood.gpkg, layer: flood, schema: fema_nfhl}\n")
    monkeypatch.setenv("SLOAT_LAYERS", str(manifest))
    at = _run(manifest)
    texts = [c.value for c in at.caption] + [w.value for w in at.warning] + [m.value for m in at.markdown]
    joined = "\n".join(texts).replace("\\", "")
    assert "floodplain layer does not cover" in joined


def test_the_project_page_states_the_nysdec_answer_and_the_regime_used(tmp_path, monkeypatch):
    from unittest import mock

    manifest = fx.write_layerset(tmp_path)
    dec = box(fx.X0 + 20, fx.Y0 + 40, fx.X0 + 140, fx.Y0 + 160)  # a DEC-mapped wetland on P1
    gpd.GeoDataFrame({"WETID": ["RC-1"]}, geometry=[dec], crs=WORK_CRS).to_file(tmp_path / "dec.gpkg", layer="dec",
                                                                                  driver="GPKG")
    manifest.write_text(manifest.read_text() + "  nysdec_wetlands: {path: dec.gpkg, layer: dec, coverage: everywhere}\n")
    monkeypatch.setenv("SLOAT_LAYERS", str(manifest))
    footprint = box(fx.X0 + 25, fx.Y0 + 50, fx.X0 + 125, fx.Y0 + 150)
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(footprint)]})
    with fx.map_answers(fake):
        at = AppTest.from_file(APP, default_timeout=60)
        at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
        at.switch_page("pages/project.py").run()
    assert not at.exception, at.exception
    text = "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption]).replace("\\", "")
    assert "New York State wetlands (NYSDEC map):" in text
    assert "NYSDEC wetlands on the analysis date: " in text and "the map is " in text
