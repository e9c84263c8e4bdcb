"""§ 402-56 dry sewers and wastewater, as plain-English claims on hand-built worlds."""

from engine_world import permits_in
from sloat_core.law.text import quote_in_clause


def test_a_road_extension_needs_dry_sewer_mains_approved_by_the_county_sewer_district(world_once):
    # § 402-56D: "This shall specifically include installation of sewer mains in the bed of any road extension.
    # Such mains shall be approved by the Rockland County Sewer District."
    assert quote_in_clause("installation of sewer mains in the bed of any road extension", "§ 402-56D")
    world = world_once({}, dem=0)
    p = permits_in(world, {"road_extension": True, "new_structure": False})["wastewater_approval"]
    assert p["required"] is True and p["citation"] == "§ 402-56D"
    both = permits_in(world, {"road_extension": True, "new_structure": True, "sanitary_facilities": True})
    assert "§ 402-56D" in both["wastewater_approval"]["citations"]
