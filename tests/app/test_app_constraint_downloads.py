"""The Case & exports page offers the constraint lines as the `constraints` command writes them: DXF, GeoPackage
and zipped shapefiles, each read back. Tax parcel P1 of tests/app_fixtures.py is a 200 ft square (40,000 sq ft)
with a 50 ft x 200 ft wetland strip (10,000 sq ft) along its west side."""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

import ezdxf
import geopandas as gpd
import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from shapely.geometry import Polygon  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_the_case_page_offers_the_constraint_lines_as_dxf_geopackage_and_zipped_shapefiles(
        manifest, data_dir, media, tmp_path):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="parcel_query").input(fx.P1_SBL).run()
    at.switch_page("pages/case.py").run()
    assert not at.exception
    buttons = {b.key: b for b in at.get("download_button")}
    assert {"dl_dxf", "dl_gpkg", "dl_shp"} <= set(buttons)

    doc = ezdxf.read(io.StringIO(fx.download(at, media, "dl_dxf").decode("utf-8")))
    assert doc.header["$INSUNITS"] == 21
    (wetland,) = [e for e in doc.modelspace().query("LWPOLYLINE") if e.dxf.layer == "SLOAT-WETLAND"]
    assert wetland.closed and Polygon(list(wetland.get_points("xy"))).area == pytest.approx(10_000, rel=1e-4)

    gpkg = tmp_path / "c.gpkg"
    gpkg.write_bytes(fx.download(at, media, "dl_gpkg"))
    frame = gpd.read_file(gpkg, layer="SLOAT-PARCEL")
    assert frame.crs.to_epsg() == 2260 and frame.geometry.area.sum() == pytest.approx(40_000, rel=1e-4)

    with zipfile.ZipFile(io.BytesIO(fx.download(at, media, "dl_shp"))) as zf:
        names = zf.namelist()
        shps = [n for n in names if n.endswith(".shp")]
        assert "SLOAT-WETLAND.shp" in shps and all(n[:-4] + ".prj" in names for n in shps)
        assert "README.txt" in names
