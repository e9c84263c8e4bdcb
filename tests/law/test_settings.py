"""Tests for sloat_core.law.settings and data/settings/local.yaml (local settings, not Article IX)."""

import json

import pytest
import yaml

from sloat_core.law import settings as st
from sloat_core.errors import SloatInputError

CODES = ["OSR", "R-80", "R-40", "R-15", "R-10", "MU-1", "MU-2", "VC-1", "VC-2", "O", "IP"]


def test_shipped_file_loads_with_expected_defaults():
    s = st.load_settings()
    assert s.buffer_width_ft == 100.0
    assert s.default_stream_width_ft == 10.0
    assert s.expiring_soon_days == 90 and type(s.expiring_soon_days) is int
    assert s.land_development_min_acres == 1.0
    assert s.cluster_yard_requirements_ft is None
    assert list(s.districts) == CODES


def test_file_is_marked_local_and_to_confirm():
    text = st.SETTINGS_PATH.read_text(encoding="utf-8")
    assert "LOCAL SETTINGS TO CONFIRM WITH THE VILLAGE" in text
    s = st.load_settings()
    assert "confirm with the Village" in s.title
    assert s.notice and s.sources
    assert "ECL 24-0701(2)" in s.notes["buffer_width_ft"]


def test_verify_flags_present_where_law_facts_say_verify():
    s = st.load_settings()
    raw = yaml.safe_load(st.SETTINGS_PATH.read_text(encoding="utf-8"))
    for name, item in raw["settings"].items():
        assert isinstance(item.get("verify"), bool), name  # every item states its flag
    for code, d in raw["districts"].items():
        assert isinstance(d.get("verify"), bool), code
    assert s.verify["buffer_width_ft"] is True
    assert s.verify["default_stream_width_ft"] is True
    assert s.verify["expiring_soon_days"] is False  # a display setting, nothing to confirm
    assert all(s.district(c).verify for c in CODES)
    assert "buffer_width_ft" in s.to_verify() and "R-40" in s.to_verify()
    assert "expiring_soon_days" not in s.to_verify()


@pytest.mark.parametrize(
    "code, name, kind, area",
    [
        ("OSR", "Open Space and Recreation", "residence", None),  # § 402-48F names OSR
        ("R-80", "Open Space Residential", "residence", 80000),
        ("R-40", "Rural Residential", "residence", 40000),
        ("R-15", "Suburban Residential", "residence", 15000),
        ("R-10", "Village Residential", "residence", 10000),
        ("MU-1", "Residential/Neighborhood Commercial", "mixed_use", None),
        ("MU-2", "Residential/Limited Commercial", "mixed_use", None),
        ("VC-1", "Village Center", "mixed_use", None),
        ("VC-2", "Village Center Extension", "mixed_use", None),
        ("O", "Office/Limited Commercial", "other", None),
        ("IP", "Industrial Park", "other", None),
    ],
)
def test_districts(code, name, kind, area):
    d = st.load_settings().district(code)
    assert (d.code, d.name, d.kind, d.min_lot_area_sqft) == (code, name, kind, area)


def test_district_lookup_forgiving_and_none_for_unknown():
    s = st.load_settings()
    assert s.district("r-40").code == "R-40"
    assert s.district(" R40 ").code == "R-40"
    assert s.district("mu 1").code == "MU-1"
    assert s.district("R-20") is None
    assert s.district(None) is None
    assert st.district("IP").name == "Industrial Park"


def test_overrides_scalar_and_district():
    s = st.load_settings(
        overrides={
            "buffer_width_ft": 150,
            "default_stream_width_ft": "12.5",
            "districts": {"OSR": {"min_lot_area_sqft": 200000}, "R-20": {"name": "New", "kind": "residence",
                                                                        "min_lot_area_sqft": 20000}},
            "verify": {"buffer_width_ft": False},
        }
    )
    assert s.buffer_width_ft == 150.0 and s.default_stream_width_ft == 12.5
    assert s.verify["buffer_width_ft"] is False
    assert s.district("OSR").min_lot_area_sqft == 200000.0
    assert s.district("OSR").name == "Open Space and Recreation"  # other fields kept
    assert s.district("R-20").kind == "residence"
    # the shipped defaults are untouched
    assert st.load_settings().buffer_width_ft == 100.0
    assert st.load_settings().district("OSR").min_lot_area_sqft is None


def test_cluster_yards_override():
    s = st.load_settings(overrides={"cluster_yard_requirements_ft": {"R-40": {"front": 50, "side": 25}}})
    assert s.cluster_yard_requirements_ft == {"R-40": {"front": 50.0, "side": 25.0}}


@pytest.mark.parametrize(
    "overrides",
    [
        {"buffer_width_ft": -5},
        {"buffer_width_ft": 0},
        {"buffer_width_ft": "wide"},
        {"buffer_width_ft": True},
        {"buffer_width_ft": float("nan")},
        {"buffer_width_ft": 6000},
        {"default_stream_width_ft": -1},
        {"land_development_min_acres": 0},
        {"expiring_soon_days": -1},
        {"expiring_soon_days": 2.5},
        {"districts": {"R-40": {"min_lot_area_sqft": -40000}}},
        {"districts": {"R-40": {"min_lot_area_sqft": 0}}},
        {"districts": {"R-40": {"kind": "farm"}}},
        {"districts": {"R-40": {"colour": "green"}}},
        {"districts": {"R-40": {"verify": "maybe"}}},
        {"cluster_yard_requirements_ft": {"R-40": {"front": -1}}},
        {"cluster_yard_requirements_ft": [50, 25]},
        {"no_such_setting": 1},
    ],
)
def test_invalid_values_raise_plain_error(overrides):
    with pytest.raises(SloatInputError) as exc:
        st.load_settings(overrides=overrides)
    msg = str(exc.value)
    assert msg.endswith(".") and "\n" not in msg


def test_boundaries_accepted():
    s = st.load_settings(overrides={"expiring_soon_days": 0, "buffer_width_ft": 5280, "default_stream_width_ft": 0.5})
    assert (s.expiring_soon_days, s.buffer_width_ft, s.default_stream_width_ft) == (0, 5280.0, 0.5)


def test_replace_validates_and_is_immutable():
    s = st.load_settings()
    t = s.replace(buffer_width_ft=50)
    assert t.buffer_width_ft == 50.0 and s.buffer_width_ft == 100.0
    with pytest.raises(SloatInputError):
        s.replace(default_stream_width_ft=-3)
    with pytest.raises(AttributeError):
        s.buffer_width_ft = 10


def test_to_dict_from_dict_round_trip_and_json():
    s = st.load_settings(overrides={"districts": {"O": {"min_lot_area_sqft": 30000}}, "buffer_width_ft": 75})
    d = s.to_dict()
    back = st.LocalSettings.from_dict(json.loads(json.dumps(d)))
    assert back == s
    assert hash(back) == hash(s)
    assert back.district("O").min_lot_area_sqft == 30000.0
    assert d["settings"]["buffer_width_ft"] == {"value": 75.0, "verify": True, "note": s.notes["buffer_width_ft"]}


def test_from_dict_rejects_missing_or_broken_sections():
    d = st.load_settings().to_dict()
    del d["settings"]["buffer_width_ft"]
    with pytest.raises(SloatInputError, match="buffer_width_ft"):
        st.LocalSettings.from_dict(d)
    with pytest.raises(SloatInputError):
        st.LocalSettings.from_dict({"districts": {}})


def test_load_from_other_path_and_bad_files(tmp_path):
    d = st.load_settings().to_dict()
    d["settings"]["buffer_width_ft"]["value"] = 120
    p = tmp_path / "local.yaml"
    p.write_text(yaml.safe_dump(d, sort_keys=False), encoding="utf-8")
    assert st.load_settings(p).buffer_width_ft == 120.0
    with pytest.raises(SloatInputError):
        st.load_settings(tmp_path / "missing.yaml")
    p.write_text("settings: [unclosed", encoding="utf-8")
    with pytest.raises(SloatInputError):
        st.load_settings(p)
    p.write_text("", encoding="utf-8")
    with pytest.raises(SloatInputError):
        st.load_settings(p)


def test_docstring_examples_run():
    import doctest

    from sloat_core.law import settings as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
