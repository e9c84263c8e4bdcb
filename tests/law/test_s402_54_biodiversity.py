"""§ 402-54 biodiversity, as plain-English claims: § 402-54B excepts "the development of a one-family
dwelling", not a subdivision of one-family lots."""

import pytest

from engine_world import permits_in
from sloat_core.law.text import quote_in_clause


@pytest.mark.parametrize("application_type", ["subdivision", "site_plan", "special_permit"])
def test_a_twelve_acre_subdivision_of_one_family_lots_is_not_the_development_of_a_one_family_dwelling(
        world_once, application_type):
    # § 402-54B excepts "the development of a one-family dwelling".
    assert quote_in_clause("the development of a one-family dwelling", "§ 402-54B")
    world = world_once({}, dem=0)
    p = permits_in(world, {"application_type": application_type, "one_family_dwelling": True,
                        "application_area_acres": 12})["biodiversity_study"]
    assert p["required"] is True and "§ 402-54B" in p["citations"]


def test_a_one_family_house_on_twelve_acres_is_still_excepted(world_once):
    world = world_once({}, dem=0)
    p = permits_in(world, {"application_type": "building_permit", "one_family_dwelling": True,
                        "application_area_acres": 12})["biodiversity_study"]
    assert p["required"] is False
