"""Plain-language summaries (sloat_core.engine.plain): what a resident reads at the counter.

A real analysis of a bare hand-built world, its parts replaced (tests/engine_world.py: ``result_with``), checks
each branch of the wording; one real analysis of the app's hand-built layer set (40,000 sq ft lot, 10,000 sq ft of wetland) checks that the sentences carry
the core's own numbers and verdict on both sides of the district minimum.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
from engine_world import deduction, permit, result_with, trigger  # noqa: E402

from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.engine.analysis import DISCLAIMER, analyze_parcel  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.engine.plain import (  # noqa: E402
    PLAIN_TERMS,
    plain_cluster,
    plain_constraint,
    plain_permits,
    plain_share,
    plain_summary,
    plain_verdict,
    screening_note,
)


def _result(**over):
    base = {"gross_area_sqft": 50_000.0, "net_lot_area_sqft": 42_000.0, "net_lot_area_min_sqft": 42_000.0,
            "district": "R-40", "min_lot_area_sqft": 40_000.0, "min_lot_area_verify": False,
            "meets_min_lot_area": True, "deductions": [
                deduction("wetlands", "Wetlands", 6_000.0, 6_000.0, 0.0),
                deduction("slope_25_40", "Slopes over 25% up to 40%", 4_000.0, 2_000.0, 0.5),
                deduction("rock_outcrops", "Rock outcrops over 50 sq ft", 0.0, 0.0, 0.5)],
            "permits": [], "cluster_triggers": [], "cluster_applies": None, "disclaimer": DISCLAIMER,
            "layers_illustrative": False}
    base.update(over)
    return result_with(**base)


def test_verdict_names_what_counts_and_what_does_not():
    text = plain_verdict(_result())
    assert text.startswith("Your lot is about 50,000 sq ft (1.15 acres).")
    assert "About 42,000 sq ft of it counts toward the lot size." in text
    assert "6,000 sq ft of wetland" in text
    assert "half of the 4,000 sq ft of steep ground (slopes over 25% up to 40%)" in text
    assert "rock" not in text  # nothing deducted for it
    assert text.endswith("The R-40 district needs at least 40,000 sq ft, so your lot looks big enough.")
    assert "net lot area" not in text.lower() and "gross" not in text.lower()


def test_verdict_below_the_minimum_says_how_far_short():
    text = plain_verdict(_result(net_lot_area_sqft=39_999.0, net_lot_area_min_sqft=39_999.0,
                                 meets_min_lot_area=False))
    assert text.endswith("so your lot is about 1 sq ft short.")


def test_verdict_follows_the_core_not_its_own_arithmetic():
    # The core decides; the sentence only reports it (here the core said "cannot tell").
    text = plain_verdict(_result(meets_min_lot_area=None, net_lot_area_min_sqft=30_000.0, deductions=[
        deduction("floodplain", "100-year floodplain (FEMA)", None, None, 0.0)]))
    assert "Between 30,000 and 42,000 sq ft of it counts" in text
    assert "flood zone (100-year floodplain) could not be measured" in text
    assert text.endswith("so we cannot tell yet whether your lot is big enough.")


def test_verdict_without_a_minimum_or_a_district_sends_the_resident_to_the_inspector():
    no_min = plain_verdict(_result(min_lot_area_sqft=None, meets_min_lot_area=None, district="MU-1"))
    assert "No minimum lot size is recorded here for the MU-1 district" in no_min
    assert "Building Inspector" in no_min
    no_district = plain_verdict(_result(district=None, min_lot_area_sqft=None, meets_min_lot_area=None))
    assert "could not tell which zoning district" in no_district


def test_a_minimum_to_confirm_says_so():
    assert "(a figure to confirm with the Village)" in plain_verdict(_result(min_lot_area_verify=True))


def test_permits_in_plain_words_with_who_and_why():
    result = _result(permits=[
        permit("wetland_permit", True, "The disturbance footprint touches 1,200 sq ft of wetland, watercourse or "
               "100-ft buffer (buffer width: local setting).", title="Wetland permit",
               authority="Planning Board approval (§ 402-57G)"),
        permit("steep_slope_permit", None, "The parcel has 3,000 sq ft of slopes of 25% or greater; it depends on "
               "where the work happens (draw the disturbance footprint).", title="Steep slope permit",
               authority="Planning Board"),
        permit("tree_removal_permit", None, "Unknown: say how many trees will be removed.",
               title="Tree removal permit", authority="Planning Board (§ 402-53B)"),
        permit("rcda_review", False, "The parcel is not in the Rockland County Drainage Agency stream "
               "jurisdiction.", title="Rockland County Drainage Agency review", authority="RCDA"),
        permit("commercial_excavation_prohibited", True, "Material is to be excavated for commercial sale "
               "(§ 402-56D).", title="Commercial excavation (prohibited)", authority="Building Inspector"),
    ])
    sentences = plain_permits(result)
    assert sentences[0] == ("You will likely need a wetland permit from the Planning Board (the Building Inspector "
                            "issues it), because the work you plan touches 1,200 sq ft of wetland, watercourse or "
                            "100-ft buffer.")
    assert sentences[1].startswith("You may need a steep slope permit from the Planning Board")
    assert "your lot has 3,000 sq ft of slopes" in sentences[1] and "(draw" not in sentences[1]
    assert sentences[2].startswith("Digging out earth or rock to sell is not allowed here")
    # What is unknown is the project, so the sentence names the fact to give.
    assert sentences[3] == "Whether you also need a tree removal permit depends on the project: say how many trees " \
                           "will be removed."
    assert not any("Drainage Agency" in s for s in sentences)  # not needed: not mentioned
    assert not any("§" in s for s in sentences)


def test_no_permits_found_is_said_plainly():
    assert plain_permits(_result()) == ["No permit under these rules shows up on the maps used here."]


def test_cluster_sentence_only_when_a_feature_is_found_and_cluster_may_apply():
    triggers = [trigger(2, True), trigger(5, None)]
    text = plain_cluster(_result(cluster_triggers=triggers))
    assert text.startswith("Because your lot has wetland, the Planning Board may ask")
    assert "viewshed" not in text.lower()  # unknown is not found
    assert plain_cluster(_result(cluster_triggers=triggers, cluster_applies=False)) is None
    assert plain_cluster(_result(cluster_triggers=triggers[1:])) is None


def test_every_summary_ends_with_the_screening_note_and_who_decides():
    sentences = plain_summary(_result(layers_illustrative=True))
    assert sentences[0] == plain_verdict(_result())
    last = sentences[-1]
    assert last.startswith("Screening estimate only.") and "Planning Board" in last
    assert last.endswith("The maps used are an illustrative sample, not official data.")
    assert screening_note(_result(disclaimer="")) == DISCLAIMER  # the core's disclaimer when the result has none


def test_words_for_terms_and_shares():
    assert PLAIN_TERMS["net_lot_area"] == "Land that counts toward your lot"
    assert plain_constraint("floodplain", "100-year floodplain (FEMA)") == "flood zone (100-year floodplain)"
    assert plain_constraint("mystery_layer", "Mystery layer") == "mystery layer"
    assert [plain_share(f) for f in (0.0, 0.5, 1.0)] == ["none of it counts", "half of it counts",
                                                          "all of it counts"]


@pytest.mark.parametrize("district, ending", [
    ("R-15", "so we cannot tell yet whether your lot is big enough."),
    ("R-40", "so your lot is at least 20,000 sq ft short."),
])
def test_real_analysis_on_both_sides_of_the_minimum(tmp_path, district, ending):
    # P1: 40,000 sq ft, 10,000 sq ft of wetland (not counted) and 20,000 sq ft of its buffer (half counts):
    # at most 20,000 sq ft counts; with no floodplain, water or slope layer it could be as little as 0.
    # R-15 needs 15,000: the core cannot tell. R-40 needs 40,000: short by 20,000 even at best.
    layers = load_manifest(fx.write_layerset(tmp_path))
    result = analyze_parcel(parcel_input.parcel_by_sbl(layers, fx.P1_SBL), layers, district=district).result
    assert result.net_lot_area_sqft == pytest.approx(20_000.0)
    assert result.meets_min_lot_area is (None if district == "R-15" else False)
    text = plain_summary(result)[0]
    assert text.startswith("Your lot is about 40,000 sq ft (0.92 acres). Between 0 and 20,000 sq ft of it counts")
    assert "flood zone (100-year floodplain)" in text  # named as not measured
    assert "Not counted: 10,000 sq ft of wetland and half of the 20,000 sq ft of land next to a wetland" in text
    assert text.endswith(ending)


def test_a_lot_the_layers_map_in_part_looks_big_enough_on_the_land_they_map(tmp_path):
    # The wetland and floodplain layers map the west 300 ft of a 400 ft square in R-40: at worst the east
    # 100 ft counts nothing and the buffer a wetland there could cast counts half, which leaves 100,000 sq ft.
    from engine_world import WEST_300_FT, make_world, result_in

    world = make_world(tmp_path, {}, dem=0, coverage={"wetlands": WEST_300_FT, "floodplain": WEST_300_FT})
    text = plain_verdict(result_in(world))
    assert "Between 100,000 and 160,000 sq ft of it counts toward the lot size" in text
    assert text.endswith("so your lot looks big enough.")
