"""The SBL labels the Parcel page's map draws are also said in words (app_support.map.parcel_map).

On the shipped illustrative sample (data/sample/layers.yaml, 1,294 tax parcels): tax parcel 155.06-1-42 and the
lots around it; an outline drawn across two lots; and, on the hand-built app layers, a lot with no neighbour.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from shapely.geometry import box

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import app_fixtures as fx  # noqa: E402

from app_support.map import parcel_map  # noqa: E402

SAMPLE = ROOT / "data" / "sample" / "layers.yaml"
SBL = "155.06-1-42"


@pytest.fixture(scope="module")
def sample():
    from sloat_core.gis.layers import load_manifest

    if not SAMPLE.exists():
        pytest.fail(f"{SAMPLE} is missing: `make sample` writes it.")
    return load_manifest(SAMPLE)


def _lot(layers, sbl):
    gdf, field = layers.get("parcels").gdf, layers.parcels_meta.id_field
    return gdf[gdf[field] == sbl].geometry.iloc[0]


def test_a_tax_parcel_and_every_lot_within_5_ft_of_it_are_named(sample):
    lot = _lot(sample, SBL)
    under, beside = parcel_map.tax_parcels_on_map(sample, lot)
    assert under == [SBL]
    assert beside == ["155.06-1-39", "155.06-1-40", "155.06-1-45", "155.10-3-2", "155.10-3-3"]
    # What "next to it" means, checked on the layer itself: every lot within 5 ft is named, no other.
    gdf, field = sample.get("parcels").gdf, sample.parcels_meta.id_field
    near = {str(s) for s, g in zip(gdf[field], gdf.geometry) if g.distance(lot) <= parcel_map.NEIGHBOUR_DISTANCE_FT}
    assert near - {SBL} == set(beside)
    words = parcel_map.tax_parcel_sentence(sample, lot)
    assert words.startswith(f"This outline lies on tax parcel {SBL}. Tax parcels next to it: 155.06-1-39, ")
    assert "155.10-3-2 and 155.10-3-3." in words and "found by its SBL or address" in words
    nearby = parcel_map.tax_parcels_nearby(sample, lot, under + beside)
    within = {str(s) for s, g in zip(gdf[field], gdf.geometry) if g.distance(lot) <= parcel_map.NEARBY_FT}
    assert set(nearby) == within - near and nearby  # the lots further off that the first view shows
    assert f"Other tax parcels within 250 ft: {nearby[0]}" in words


def test_an_outline_across_two_lots_lies_on_both(sample):
    a, b = _lot(sample, SBL), _lot(sample, "155.06-1-45")
    across = box(*a.centroid.buffer(30).bounds).union(box(*b.centroid.buffer(30).bounds)).convex_hull
    under, beside = parcel_map.tax_parcels_on_map(sample, across)
    assert SBL in under and "155.06-1-45" in under
    assert not set(under) & set(beside)
    assert "lies on tax parcels" in parcel_map.tax_parcel_sentence(sample, across)


def test_a_lot_with_no_neighbour_says_so(tmp_path):
    from sloat_core.gis.layers import load_manifest

    layers = load_manifest(fx.write_layerset(tmp_path))
    words = parcel_map.tax_parcel_sentence(layers, fx.P1)
    assert words.startswith(f"This outline lies on tax parcel {fx.P1_SBL}. No other tax parcel is next to it. "
                            f"Other tax parcels within 250 ft: {fx.P2_SBL}.")  # 200 ft off, labelled on the map
    assert parcel_map.tax_parcel_sentence(layers, box(0, 0, 10, 10)) == ""  # far from every lot: nothing to say
