"""A lot of the shipped illustrative sample (data/sample, inside the repository) read and analysed, for the tests on
the documents (the summary and the handout, as PDF and as web page)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import geopandas as gpd

from sloat_core.engine.analysis import analyze_parcel
from sloat_core.gis.layers import load_manifest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample" / "layers.yaml"
DAY = dt.date(2026, 5, 1)
#: The lot with most to explain (tests/outputs/test_documents_handout.py says how it was found).
MOST_TO_EXPLAIN = "155.06-1-42"
#: The project the documents' tests ask about on it.
SUBDIVISION = {"application_type": "subdivision", "disturbance_area_sqft": 50_000}


def lot_geometry(sbl: str):
    """The outline of the sample's tax parcel ``sbl``."""
    parcels = gpd.read_file(ROOT / "data" / "sample" / "parcels.gpkg")
    return parcels.loc[parcels["SBL"] == sbl, "geometry"].iloc[0]


def analysed_lot(sbl: str = MOST_TO_EXPLAIN, project: dict | None = None, as_of: dt.date = DAY):
    """(the sample's layers, the analysis of tax parcel ``sbl`` with ``project`` on ``as_of``)."""
    layers = load_manifest(SAMPLE)
    return layers, analyze_parcel(lot_geometry(sbl), layers, as_of=as_of, project=project)
