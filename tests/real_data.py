"""Helpers for tests on the real published files in tests/fixtures/real-data (read only; derived copies go to tmp).

The files are in the repository, with their publisher, source, licence and how each was cut in that
folder's README (tools/cut_real_data.py): the tests read nothing outside the repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import rasterio
import yaml
from rasterio.warp import Resampling, calculate_default_transform, reproject

ROOT = Path(__file__).resolve().parent.parent
#: The published files, kept in the repository (tests/fixtures/real-data/README.md).
REAL = ROOT / "tests" / "fixtures" / "real-data"
SRTM = REAL / "dem_srtm_pysheds" / "dem.tif"
NFHL_ZONES = REAL / "fema_nfhl_extract" / "flood_zones.geojson"
NFHL_PANELS = REAL / "fema_nfhl_extract" / "firm_panels.geojson"
PLUTO_SHP_ZIP = REAL / "nyc_mappluto_lot" / "shapefile_single_pluto_feature_with_metadata.shp.zip"
PLUTO_GDB_ZIP = REAL / "nyc_mappluto_lot" / "geodatabase.gdb.zip"
PLUTO_BBL = "1000010010"


#: Upper-left corner of the sample DEM (Sloatsburg), EPSG:2260 feet.
SLOATSBURG_UL = (573_765.0, 854_455.0)


def warp_to_2260(src_path: Path, dst_path: Path, *, crs: str = "EPSG:2260", scale: float = 1.0,
                 move_to: tuple[float, float] | None = SLOATSBURG_UL) -> Path:
    """Warp a DEM to EPSG:2260 (bilinear), as the old error message advised: elevations stay as they are
    (times ``scale``), the vertical unit is not recorded unless ``crs`` is compound.

    ``move_to`` shifts the warped grid (not its cells) so its upper-left corner lies at Sloatsburg: the
    parcel readers refuse outlines hundreds of miles away, and the terrain stays the real terrain."""
    with rasterio.open(src_path) as src:
        transform, width, height = calculate_default_transform(src.crs, "EPSG:2260", src.width, src.height,
                                                               *src.bounds)
        out = np.full((height, width), -9999.0, dtype="float32")
        reproject(rasterio.band(src, 1), out, src_transform=src.transform, src_crs=src.crs,
                  src_nodata=src.nodata, dst_transform=transform, dst_crs="EPSG:2260", dst_nodata=-9999.0,
                  resampling=Resampling.bilinear)
    out = np.where(out == -9999.0, out, out * scale).astype("float32")
    if move_to is not None:
        transform = rasterio.Affine(transform.a, 0.0, move_to[0], 0.0, transform.e, move_to[1])
    with rasterio.open(dst_path, "w", driver="GTiff", width=width, height=height, count=1, dtype="float32",
                       crs=crs, transform=transform, nodata=-9999.0) as dst:
        dst.write(out, 1)
    return dst_path


def write_manifest(folder: Path, layers: dict, dem: dict | None = None, **top) -> Path:
    doc = {"name": "real-data test", "version": "test", "illustrative": False, **top, "layers": layers}
    if dem is not None:
        doc["dem"] = dem
    path = folder / "layers.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def run_cli(*args: str, cwd: Path | str = ROOT) -> subprocess.CompletedProcess:
    """The CLI's own entry point, ``sloat_core.cli.main(args)``, run in this process from ``cwd`` (the
    repository folder unless named), with its exit status, standard output and standard error as a shell would
    see them (no interpreter start-up per call; `run_cli_subprocess` runs ``python -m sloat_core`` for real)."""
    import contextlib
    import io

    from sloat_core import cli

    args = tuple(map(str, args))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(args))
    return subprocess.CompletedProcess(["python", "-m", "sloat_core", *args], code, out.getvalue(), err.getvalue())


def run_cli_subprocess(*args: str) -> subprocess.CompletedProcess:
    """``python -m sloat_core ARGS`` in a child process (the entry point as installed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sloat_core", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)


def cli_json(*args: str) -> dict:
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


#: The official services' responses in their wire formats, replayed by ``fetch-official --replay``
#: (tests/fixtures/official: constructed by tools/make_official_fixtures.py, not recorded live).
RECORDED = ROOT / "tests" / "fixtures" / "official"


def fetch_replayed(out: Path, recorded: Path = RECORDED) -> subprocess.CompletedProcess:
    """``fetch-official --out OUT`` replaying the responses in ``recorded`` (nothing from the network)."""
    return run_cli("fetch-official", "--out", str(out), "--replay", str(recorded), "--quiet")


def manifest_entries(manifest: Path) -> list[dict]:
    """The elevation model's entry, then every layer's (a role may hold a list of entries), of a written
    manifest."""
    doc = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    entries = [doc["dem"]]
    for spec in doc["layers"].values():
        entries += spec if isinstance(spec, list) else [spec]
    return entries
