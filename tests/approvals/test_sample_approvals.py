"""The illustrative sample carries what the approvals need, in its sources' schemas, and answers with it."""

from pathlib import Path

import geopandas as gpd
import pytest

from sloat_core.approvals.county_referral import county_referral
from sloat_core.approvals.wetland_screens import state_wetland_screen
from sloat_core.gis import parcels as parcel_input
from sloat_core.gis.layers import load_manifest
from sloat_core.units import SQFT_PER_ACRE
from law_day import LAW_DAY

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"


@pytest.fixture(scope="module")
def sample():
    return load_manifest(SAMPLE / "layers.yaml")


def _parcel(name):
    return parcel_input.read_parcel(SAMPLE / "demo_parcels" / name).geometry


def test_the_sample_has_harriman_state_park_as_parkland_and_says_illustrative(sample):
    park = gpd.read_file(SAMPLE / "parkland.geojson")
    assert park["NAME"].str.contains("Harriman State Park").all() and (park["CATEGORY"] == "State Park").all()
    assert sample.illustrative and "illustrative" in (SAMPLE / "README.md").read_text().lower()


def test_the_sample_roads_carry_their_jurisdiction_and_right_of_way():
    roads = gpd.read_file(SAMPLE / "state_county_roads.geojson")
    assert set(roads["JURISDICTION"]) == {"01 NYSDOT", "31 NYS Thruway", "02 County"}  # the inventory's codes
    assert (roads["ROW_WIDTH_FT"] > 0).all() and "NY 17" in set(roads["ROUTE"])


def test_the_sample_nysdec_wetlands_are_of_the_mapped_size():
    dec = gpd.read_file(SAMPLE / "nysdec_wetlands.geojson").to_crs("EPSG:2260")
    assert (dec.area / SQFT_PER_ACRE >= 12.4).all()
    assert set(dec["CLASS"]) <= {"I", "II", "III", "IV"}


def test_the_village_centre_lot_is_within_500_ft_of_ny_17(sample):
    r = county_referral(_parcel("village_centre_lot.kml"), sample, application_type="site_plan", on=LAW_DAY)
    road = next(t for t in r.triggers if t.trigger == "state_county_road")
    assert road.answer == "yes" and road.distance_ft < 500 and r.required is True
    assert all(t.answer in ("yes", "no") for t in r.triggers), [t.reason for t in r.triggers]


def test_the_riverside_parcel_lies_in_a_mapped_state_wetland(sample):
    import datetime as dt

    s = state_wetland_screen(_parcel("riverside_2ac.geojson"), None, sample, dt.date(2026, 12, 1))
    assert s.answer == "likely" and "SL-3" in s.reason
