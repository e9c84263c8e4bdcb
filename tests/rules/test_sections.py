"""Article IX's sections as modules (sloat_core.rules.sections): each declares its permits and their clocks,
and everything else (the results' order, the decision order, the village screen's permits, the timeline's
items, forms and labels) is derived from the declarations."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import sys
import types

import pytest

from engine_world import analyze_in, footprint, make_world, permits_in, sq
from sloat_core.law.text import clause
from sloat_core.rules import permits, sections
from sloat_core.law.calendar import count
from sloat_core.rules.permits import DECLARATIONS, PERMIT_IDS
from sloat_core.rules.sections import CLOCKS, PERMITS, SECTIONS
from sloat_core.rules.sections import s402_53_trees
from sloat_core.rules.sections.s402_55_steep_slopes import permit as s402_55_steep_slopes


def _number(module) -> str:
    return re.match(r".*\.s402_(\d+)_", module.__name__).group(1)


def test_each_section_module_declares_the_permits_of_its_own_section():
    for module in SECTIONS:
        for d in module.PERMITS:
            assert d.section.startswith(f"§ 402-{_number(module)}"), (module.__name__, d.id)
    assert [int(_number(m)) for m in SECTIONS] == sorted(int(_number(m)) for m in SECTIONS)


def test_every_permit_and_every_clock_is_declared_once():
    assert len({d.id for d in PERMITS}) == len(PERMITS) == len({d.order for d in PERMITS})
    assert len({c.id for c in CLOCKS}) == len(CLOCKS) == len({c.order for c in CLOCKS})
    assert set(CLOCKS) == {c for d in PERMITS for c in d.clocks}


def test_the_timeline_offers_a_permits_own_clocks_each_saying_the_date_it_starts_from():
    for d in PERMITS:
        for c in d.timeline:
            assert c in d.clocks and c.starts, (d.id, c.id)


def test_two_permits_with_the_same_order_are_refused():
    a, b = PERMITS[0], dataclasses.replace(PERMITS[1], order=PERMITS[0].order)
    with pytest.raises(ValueError, match="share the order"):
        sections._ordered([a, b], "permits")


def test_a_new_section_module_is_found_by_its_name(tmp_path, monkeypatch):
    # The recipe of docs/architecture.md ("A permit"): a module named s402_<number>_<words>.py in rules/sections
    # is a section.
    (tmp_path / "s402_47_probe.py").write_text("PERMITS = ()\n")
    monkeypatch.setattr(sections, "__path__", [*sections.__path__, str(tmp_path)])
    try:
        names = [m.__name__.rsplit(".", 1)[1] for m in sections._load()]
    finally:
        sys.modules.pop("sloat_core.rules.sections.s402_47_probe", None)
    assert names.index("s402_47_probe") == names.index("s402_48_cluster") - 1


def test_the_steep_slope_permit_and_the_swppp_are_decided_after_the_planning_boards_permits():
    # § 402-55D(1): the Planning Board decides the steep slope permit when the proposal "requires the issuance
    # of a permit or approval by it"; § 402-58C(4) likewise for the SWPPP.
    board = [d.id for d in PERMITS if d.planning_board_permit]
    assert board == ["wetland_permit", "tree_removal_permit"]
    order = permits._DECISION_ORDER
    for pid in ("steep_slope_permit", "swppp"):
        assert permits._DEPENDS_ON[pid] == tuple(board)
        assert all(order.index(b) < order.index(pid) for b in board)


def test_a_permit_depending_on_a_permit_not_declared_is_refused():
    bad = dataclasses.replace(permits.declaration("swppp"), depends_on=("no_such_permit",))
    with pytest.raises(ValueError, match="no_such_permit"):
        permits._dependencies(bad)


def test_permits_depending_on_each_other_in_a_circle_are_refused(monkeypatch):
    circle = dict(permits._DEPENDS_ON, wetland_permit=("steep_slope_permit",))
    monkeypatch.setattr(permits, "_DEPENDS_ON", circle)
    with pytest.raises(ValueError, match="circle"):
        permits._decision_order()


def test_the_village_screen_answers_the_permits_with_a_land_answer():
    assert set(permits.LAND_PERMITS) == {d.id for d in PERMITS if d.land is not None}
    # where the work happens first, then the map's reviews, then the others (the screen's columns)
    assert [permits.declaration(p).land.group for p in permits.LAND_PERMITS] == sorted(
        permits.declaration(p).land.group for p in permits.LAND_PERMITS)


#: What a clock's words read of the facts: the date the rules are applied at (``Facts.as_of``).
_ON_A_DAY = types.SimpleNamespace(as_of=dt.date(2026, 12, 1))


@pytest.mark.parametrize("n, words", [(1, "1 year"), (2, "2 years")])
def test_a_clock_line_says_its_number_with_the_right_plural(monkeypatch, n, words):
    real = s402_55_steep_slopes.value
    monkeypatch.setattr(s402_55_steep_slopes, "value",
                        lambda name, on=None: n if name == "steep_slope_permit_term_years" else real(name, on))
    assert s402_55_steep_slopes.PERMIT_CLOCK.words(_ON_A_DAY)[0].startswith(f"Valid {words} from approval")


def test_the_tree_permit_line_says_one_more_year_not_one_more_years(monkeypatch):
    real = s402_53_trees.value
    monkeypatch.setattr(s402_53_trees, "value",
                        lambda name, on=None: 1 if name == "tree_permit_extension_years" else real(name, on))
    assert "may be extended 1 more year on a written request" in s402_53_trees.PERMIT_CLOCK.words(_ON_A_DAY)[0]
    assert count(3, "more year") == "3 more years"


def test_every_permit_is_declared_once_and_completely():
    assert len(PERMIT_IDS) == len(set(PERMIT_IDS))
    for d in DECLARATIONS:
        assert d.id and d.title and d.section and d.plain[0], d.id
        clause(d.section)
        for e in d.exceptions:  # ordered, cited exception clauses
            assert e.name and clause(e.citation), (d.id, e.citation)
        assert d.authority and d.rule
        assert set(d.timeline) <= set(d.clocks), d.id  # the timeline offers the permit's own clocks
        for c in d.submissions():
            clause(c)


def test_every_new_citation_resolves_in_the_law_for_a_deep_link(world_once):
    world = world_once({"wetlands": [sq(-100, 0, 100, 400)]}, dem=30)
    projects = [
        {"wetland_exemptions": [1, 3], "activities": [3], "disturbance_footprint": footprint(sq(20, 20, 20))},
        {"swppp_exemptions": list(range(1, 11)), "disturbance_area_sqft": 100_000, "grandfathered": True},
        {"trees_removed": 1, "public_agency_work": True}, {"trees_removed": 1, "hazard_trees_only": True},
        {"road_extension": True, "application_type": "subdivision"},
    ]
    for project in projects:
        r = analyze_in(world, project)
        for p in r["permits"]:
            for c in p["citations"] + [s["citation"] for s in p["submissions"]]:
                assert clause(c), c
        for item in r["steep_slope_design_limits"]:
            assert clause(item["citation"])


def test_officials_article_ix_does_not_name_are_marked_to_confirm(world_once):
    world = world_once({"floodplain": [sq(0, 0, 400, 50)]}, dem=0)
    p = permits_in(world, {"commercial_excavation": True})
    for pid in ("flood_hazard_review", "commercial_excavation_prohibited"):
        assert "to confirm with the Village" in p[pid]["authority"] and "names no" in p[pid]["authority"]


def test_every_permit_declares_who_decides_it_as_a_value_never_read_from_its_authority_text():
    from sloat_core.approvals.deciders import DECIDERS

    for d in PERMITS:
        assert isinstance(d.decider, str) and d.decider in DECIDERS or callable(d.decider), d.id
    fixed_ones = {d.id: d.decider for d in PERMITS if isinstance(d.decider, str)}
    # who decides, whatever the authority's words name first or besides ("permit issued by the Building
    # Inspector", "then the Planning Board or Building Inspector", "usually the Planning Board")
    assert (fixed_ones["wetland_permit"], fixed_ones["rcda_review"], fixed_ones["seqra_cea"]) == (
        "Planning Board", "County", "Planning Board")
    assert (fixed_ones["swppp"], fixed_ones["wastewater_approval"]) == ("Village Engineer", "County")
    assert [d.id for d in PERMITS if not isinstance(d.decider, str)] == ["steep_slope_permit"]  # § 402-55D


def test_a_permit_declaring_a_decider_the_approvals_list_does_not_know_is_refused():
    with pytest.raises(ValueError, match="not one of"):
        dataclasses.replace(PERMITS[0], decider="the Mayor")
    odd = dataclasses.replace(permits.declaration("steep_slope_permit"), decider=lambda x: "the Mayor")
    with pytest.raises(ValueError, match="not one of"):
        odd.decider_for(None)


def _steep_slope_group(tmp_path, project) -> str:
    world = make_world(tmp_path, {"wetlands": [sq(100, 100, 100)]}, dem=30)
    groups = analyze_in(world, project)["approvals"]
    return next(g["decides"] for g in groups for i in g["items"] if i["id"] == "steep_slope_permit")


def test_the_steep_slope_permit_is_listed_under_the_planning_board_when_the_proposal_is_before_it(tmp_path):
    # § 402-55D(1): the Planning Board for an application "which requires the issuance of a permit or approval by
    # it" (here the wetland permit); § 402-55D(2): the Village Engineer for "all other regulated activities".
    work = footprint(sq(120, 120, 40))
    assert _steep_slope_group(tmp_path, {"application_type": "building_permit", "trees_removed": 0,
                                         "disturbance_footprint": work}) == "Planning Board"
    assert _steep_slope_group(tmp_path, {"application_type": "building_permit", "trees_removed": 0,
                                         "disturbance_footprint": footprint(sq(320, 320, 40))}) == "Village Engineer"
