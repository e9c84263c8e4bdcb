"""§ 402-48 cluster development: yield per district (§ 402-48I), yield on unknown land (§ 402-48E) and the
open-space exclusion (§ 402-48G(2)), as plain-English claims on hand-built parcels of known area.

The district minimums are the local settings' (R-40: 40,000 sq ft, R-80: 80,000 sq ft, R-15: 15,000 sq ft).
"""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_world import analyze_in, make_world, permits_in, sq  # noqa: E402
from sloat_core.engine.analysis import analyze  # noqa: E402
from sloat_core.law.params import param, value  # noqa: E402
from sloat_core.rules.sections.s402_48_cluster.cluster import part_yield, yield_estimate, yield_phrase  # noqa: E402
from law_day import LAW_DAY  # noqa: E402

PARCEL = sq(0, 0, 400)  # 400 ft x 400 ft = 160,000 sq ft


def _split(tmp_path, west, east, *, dem=0, omit=(), layers=None):
    """The parcel cut at x = 200 ft: 80,000 sq ft in `west`, 80,000 in `east`."""
    zoning = [(sq(-200, -200, 400, 800), {"ZONE": west}), (sq(200, -200, 400, 800), {"ZONE": east})]
    return make_world(tmp_path, {"zoning": zoning, **(layers or {})}, dem=dem, omit=omit)


# § 402-48I: each district's part yields whole conforming lots; the parts are added --------------------

def test_80000_net_in_r40_and_80000_in_r80_yield_2_plus_1_is_3_lots_not_4(tmp_path):
    out = analyze(PARCEL, _split(tmp_path, "R-40", "R-80"))
    parts = {p["district"]: p for p in out["per_district"]}
    assert parts["R-40"]["conventional_yield"] == 2
    assert parts["R-80"]["conventional_yield"] == 1
    assert out["conventional_yield"] == 3  # not 160,000 / 40,000 = 4
    assert out["conventional_yield_status"] == "known"
    assert out["yield_citation"] == "§ 402-48I"
    assert "§ 402-48I" in out["yield_caveat"]


def test_the_parts_add_whole_lots_not_fractions(tmp_path):
    # 80,000 / 15,000 = 5.33 -> 5 lots in R-15 and 80,000 / 40,000 = 2 in R-40: 7 lots (the parcel's net
    # over the larger district's minimum would be 160,000 / 15,000 -> 10).
    out = analyze(PARCEL, _split(tmp_path, "R-15", "R-40"))
    assert out["conventional_yield"] == 7


def test_the_sum_is_of_whole_lots_even_where_fractions_would_make_one_more():
    # 60,000 in R-40 is 1.5 lots -> 1, twice -> 2; adding the fractions first would give 3.
    parts = [{"district": "R-40", "net_lot_area_sqft": 60_000, "net_lot_area_min_sqft": 60_000,
              "min_lot_area_sqft": 40_000}] * 2
    assert yield_estimate(parts)["conventional_yield"] == 2


def test_a_part_of_exactly_the_minimum_yields_one_lot_and_one_square_foot_less_none():
    assert part_yield(40_000, 40_000, 40_000)["conventional_yield"] == 1
    assert part_yield(39_999, 39_999, 40_000)["conventional_yield"] == 0
    assert part_yield(80_000, 80_000, 80_000)["conventional_yield"] == 1
    assert part_yield(79_999, 79_999, 80_000)["conventional_yield"] == 0


def test_a_part_in_a_district_with_no_minimum_makes_the_parcel_yield_unknown_not_the_other_parts_alone(tmp_path):
    out = analyze(PARCEL, _split(tmp_path, "R-40", "MU-1"))  # MU-1: minimum not set in the settings
    assert out["conventional_yield"] is None
    assert out["conventional_yield_status"] == "unknown"
    assert "MU-1" in out["yield_caveat"]


def test_a_parcel_in_one_district_yields_its_net_over_that_minimum(world_once):
    out = analyze(PARCEL, world_once({}, dem=0), district="R-40")
    assert out["conventional_yield"] == 4
    assert out["yield_citation"] == "§ 402-48E"


# § 402-48E on unknown land: a yield is a range exactly when the net is ---------------------------------

def test_with_slopes_and_floodplain_unknown_the_yield_is_0_to_4_lots_never_the_best_case_alone(world_once):
    world = world_once({}, dem=None, omit=("floodplain",))
    out = analyze(PARCEL, world, district="R-40")
    assert out["net_lot_area_min_sqft"] == pytest.approx(0)
    assert out["net_lot_area_sqft"] == pytest.approx(160_000)
    assert out["conventional_yield"] is None
    assert (out["conventional_yield_min"], out["conventional_yield_max"]) == (0, 4)
    assert out["conventional_yield_status"] == "range"
    assert "0 to 4" in out["yield_caveat"]
    assert yield_phrase(out).startswith("0 to 4 lots")
    (part,) = out["per_district"]
    assert (part["conventional_yield"], part["conventional_yield_min"], part["conventional_yield_max"]) == (None, 0, 4)


def test_a_range_of_net_that_gives_the_same_whole_lots_is_one_yield():
    # 85,000 to 95,000 sq ft of net in R-40: 2 lots either way.
    y = part_yield(95_000, 85_000, 40_000)
    assert (y["conventional_yield"], y["conventional_yield_status"]) == (2, "known")
    # 79,999 to 95,000: 1 or 2 lots.
    y = part_yield(95_000, 79_999, 40_000)
    assert (y["conventional_yield"], y["conventional_yield_min"], y["conventional_yield_max"]) == (None, 1, 2)


def _dem_west_unknown(gx, gy):
    """Flat where x >= 190 ft; no data west of it (Horn's kernel leaves 190-195 unknown, 195 on known)."""
    return np.where(gx < 190.0, -9999.0, 500.0)


def test_in_a_split_parcel_unknown_land_in_one_part_widens_only_that_parts_yield(tmp_path):
    # The elevation model covers the east half and a strip of the west: the rest of the west
    # half has unknown slope, which could be over 40 % (counting nothing, § 402-45A(2)(b)).
    out = analyze(PARCEL, _split(tmp_path, "R-40", "R-80", dem=_dem_west_unknown))
    parts = {p["district"]: p for p in out["per_district"]}
    assert parts["R-80"]["conventional_yield"] == 1  # all known there: one number
    assert parts["R-80"]["conventional_yield_status"] == "known"
    assert parts["R-40"]["conventional_yield"] is None
    assert (parts["R-40"]["conventional_yield_min"], parts["R-40"]["conventional_yield_max"]) == (0, 2)
    assert out["conventional_yield"] is None
    assert (out["conventional_yield_min"], out["conventional_yield_max"]) == (1, 3)
    assert "1 to 3" in out["yield_caveat"]


def test_in_a_split_parcel_with_no_elevation_model_every_part_and_the_sum_are_ranges(tmp_path):
    out = analyze(PARCEL, _split(tmp_path, "R-40", "R-80", dem=None))
    parts = {p["district"]: p for p in out["per_district"]}
    assert parts["R-40"]["conventional_yield_status"] == "range"
    assert parts["R-80"]["conventional_yield_status"] == "range"
    assert out["conventional_yield"] is None
    assert (out["conventional_yield_min"], out["conventional_yield_max"]) == (0, 3)


# The screen's CSV states the same yield, a range kept a range --------------------------------------------

def _screen_world(tmp_path, dem, omit=()):
    zoning = [(sq(-200, -200, 400, 800), {"ZONE": "R-40"}), (sq(200, -200, 400, 800), {"ZONE": "R-80"})]
    parcels = [(PARCEL, {"SBL": "split", "ZONE": "", "ADDRESS": "1 Split Rd"}),
               (sq(0, 500, 180, 400), {"SBL": "west", "ZONE": "", "ADDRESS": "2 West Rd"})]  # 72,000 in R-40
    return make_world(tmp_path, {"zoning": zoning, "parcels": parcels}, dem=dem, omit=omit)


def test_the_screen_adds_each_district_parts_whole_lots_as_analyze_does(tmp_path):
    from sloat_core.engine.screening import screen_rows

    world = _screen_world(tmp_path, dem=0)
    rows = {r["sbl"]: r for r in screen_rows(world)}
    assert rows["split"]["conventional_yield"] == analyze(PARCEL, world)["conventional_yield"] == 3
    assert rows["west"]["conventional_yield"] == 1  # 72,000 / 40,000 = 1.8 -> 1 whole lot


def test_the_screen_keeps_a_yield_range_a_range(tmp_path):
    from sloat_core.engine.screening import screen_rows

    world = _screen_world(tmp_path, dem=None, omit=("floodplain",))
    rows = {r["sbl"]: r for r in screen_rows(world)}
    assert rows["split"]["conventional_yield"] == "0 to 3"
    assert (rows["split"]["conventional_yield_min"], rows["split"]["conventional_yield_max"]) == (0, 3)
    assert rows["west"]["conventional_yield"] == "0 to 1"
    out = analyze(PARCEL, world)
    assert (out["conventional_yield_min"], out["conventional_yield_max"]) == (0, 3)


# The app shows the parcel's yield first, each part's, and the open-space exclusion ----------------------

def _app_page(page, parcel, **session):
    import app_fixtures as fx

    return fx.open_page(page, parcel=parcel, **session)


def test_the_cluster_page_shows_the_parcels_summed_yield_first_and_each_parts(split_manifest):
    import app_fixtures as fx
    from sloat_core.gis import parcels as parcel_input
    from sloat_core.gis.layers import load_manifest

    parcel = parcel_input.parcel_by_sbl(load_manifest(split_manifest), fx.P1_SBL)
    out = analyze(parcel, load_manifest(split_manifest))
    at = _app_page("pages/cluster.py", parcel)
    labels = [m.label for m in at.metric]
    assert labels.index("Conventional yield of the parcel (estimate)") < labels.index("Conventional yield (estimate)")
    values = {m.label: m.value for m in at.metric}
    assert values["Conventional yield of the parcel (estimate)"] == yield_phrase(out).split(" (")[0]
    assert [m.value for m in at.metric if m.label == "Conventional yield (estimate)"] == [
        yield_phrase(p).split(" (")[0] for p in out["per_district"]]
    text = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert "each district's part yields whole lots" in text
    # § 402-48G(2), its number from the parameters: yards near a house are not open space.
    assert "private yards within 50 ft of any principal structure" in text
    assert "§ 402-48G(2)" in [el.proto.label.split(": ")[-1] for el in at.get("page_link")]


def test_the_parcel_page_states_the_yield_as_a_range_where_the_net_is_one(tmp_path, monkeypatch):
    import app_fixtures as fx
    import yaml
    from sloat_core.gis import parcels as parcel_input
    from sloat_core.gis.layers import load_manifest

    path = fx.write_layerset(tmp_path)
    doc = yaml.safe_load(path.read_text())
    doc.pop("dem", None)  # no elevation model: slopes unknown, the net a range
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    monkeypatch.setenv("SLOAT_LAYERS", str(path))
    parcel = parcel_input.parcel_by_sbl(load_manifest(path), fx.P1_SBL)
    out = analyze(parcel, load_manifest(path), district="R-15")
    assert out["conventional_yield_status"] == "range"
    from app_support.frame import state

    at = _app_page("pages/parcel.py", parcel, **{state.DISTRICT: "R-15"})
    text = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert f"{out['conventional_yield_min']} to {out['conventional_yield_max']} lots" in text


# The PDF report and the one-page handout print the same yield ----------------------------------------

def _pdf_text(data: bytes) -> str:
    import io
    import re

    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in reader.pages).replace("\u00a0", " "))


def test_the_report_and_the_handout_print_the_summed_yield_of_a_split_parcel(tmp_path):
    import datetime as dt

    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.outputs.handout import handout_pdf_bytes
    from sloat_core.outputs.report import report_pdf_bytes

    world = _split(tmp_path, "R-40", "R-80")
    a = analyze_parcel(PARCEL, world, as_of=dt.date(2026, 12, 1))
    report = _pdf_text(report_pdf_bytes(a, world, as_of=dt.date(2026, 12, 1)))
    assert "3 lots (estimate)" in report
    assert "R-40: net 80,000 sq ft, 2 lots" in report and "R-80: net 80,000 sq ft, 1 lot" in report
    handout = _pdf_text(handout_pdf_bytes(a, world, as_of=dt.date(2026, 12, 1)))
    assert "first estimate: 3 lots (§ 402-48I" in handout


def test_the_report_and_the_handout_print_a_yield_range_not_the_best_case(world_once):
    import datetime as dt

    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.outputs.handout import handout_pdf_bytes
    from sloat_core.outputs.report import report_pdf_bytes

    world = world_once({}, dem=None, omit=("floodplain",))
    a = analyze_parcel(PARCEL, world, district="R-40", as_of=dt.date(2026, 12, 1))
    report = _pdf_text(report_pdf_bytes(a, world, as_of=dt.date(2026, 12, 1)))
    assert "0 to 4 lots" in report
    handout = _pdf_text(handout_pdf_bytes(a, world, as_of=dt.date(2026, 12, 1)))
    assert "0 to 4 lots" in handout


def test_the_walk_through_shows_the_parcels_summed_yield_on_its_net_screen(split_manifest):
    from streamlit.testing.v1 import AppTest

    import app_fixtures as fx
    from app_support.frame import state
    from app_support.views import walkthrough
    from sloat_core.gis import parcels as parcel_input
    from sloat_core.gis.layers import load_manifest

    parcel = parcel_input.parcel_by_sbl(load_manifest(split_manifest), fx.P1_SBL)
    out = analyze(parcel, load_manifest(split_manifest))
    net_step = [s.id for s in walkthrough.SCREENS].index("net") + 1
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=30)
    at.query_params["step"] = str(net_step)
    at.session_state[state.PARCEL] = parcel
    at.switch_page("pages/walkthrough.py").run()
    assert not at.exception, at.exception
    values = {m.label: m.value for m in at.metric}
    assert values["Conventional yield (lots), estimate"] == yield_phrase(out)
    assert any("§ 402-48I" in c.value.replace("\\", "") for c in at.caption)


def test_the_ip_district_gets_no_cluster_lot_rule(world_once):
    # § 402-48F: "In the OSR, R-80, and R-40 Zoning Districts ... In any other residential or mixed use district"
    world = world_once({}, dem=0)
    cluster = analyze_in(world, district="IP")["per_district"][0]["cluster"]
    assert cluster["cluster_min_lot_area_sqft"] is None and "residence and mixed-use districts only" in \
        cluster["lot_rule"]
    assert analyze_in(world, district="R-15")["per_district"][0]["cluster"]["min_yard_fraction"] == \
        float(param("cluster_min_yard_fraction", LAW_DAY).value)


def test_a_required_cluster_names_the_written_resolution_and_the_open_space_requirements(world_once):
    # § 402-48D: "The Planning Board must identify in writing, by resolution, those elements of the site";
    # § 402-48G(3): "Open space requirements".
    world = world_once({"wetlands": [sq(100, 100, 100)]}, dem=0)
    c = permits_in(world, {"application_type": "subdivision"})["cluster_review"]
    assert c["required"] is True
    assert "§ 402-48D" in c["citations"] and "in writing, by resolution" in c["reason"]
    subs = [s["citation"] for s in c["submissions"]]
    assert "§ 402-48G(3)(b)" in subs and "§ 402-48G(3)(c)" in subs
    assert any("§ 402-48G(3)(f)[2]" in k and f"{value('open_space_lien_days', LAW_DAY)} days" in k for k in c["clocks"])


# § 402-48C: each of the ten features declared once, its title and its everyday words together ----------

def test_each_of_the_ten_features_has_its_title_and_its_everyday_words_in_one_declaration():
    from sloat_core.engine.plain import plain_cluster
    from sloat_core.rules.sections.s402_48_cluster.cluster import FEATURES, TRIGGER_WORDS, trigger_title

    assert [f.number for f in FEATURES] == list(range(1, 11))
    assert all(trigger_title(f.number, LAW_DAY) and f.words for f in FEATURES)
    assert {f.number for f in FEATURES if f.board_judgment} == {4, 5}  # historic eligibility, viewshed significance
    from engine_world import result_with, trigger

    said = plain_cluster(result_with(cluster_applies=None, cluster_triggers=[trigger(f.number, True)
                                                                             for f in FEATURES]))
    assert all(TRIGGER_WORDS[f"402-48C({f.number})"] in said for f in FEATURES)


# A cluster plan, lot by lot: § 402-48F (lot size), § 402-48E (yield), § 402-48G(2) (open space) ------------

def _plan(world, lots, parcel=PARCEL, **kw):
    from engine_world import plan_in, plan_of

    roles = {k: kw.pop(k) for k in ("envelopes", "open_space", "roads") if k in kw}
    return plan_in(world, plan_of(lots, **roles), parcel=parcel, **kw)


def _by_label(out) -> dict:
    return {lot["lot"]: lot for lot in out["lots"]}


def test_a_cluster_lot_in_r40_is_10000_sq_ft_gross_with_its_constraints_not_subtracted(world_once):
    # Lot A, 100 x 100 = 10,000 sq ft gross, is half floodplain: it conforms (§ 402-48F, gross). Lot B,
    # 100 x 99.99 = 9,999 sq ft, does not, by 1 sq ft. In a conventional plan neither is near 40,000.
    world = world_once({"floodplain": [sq(0, 0, 50, 100)], "zoning": [(sq(-200, -200, 900), {"ZONE": "R-40"})]},
                       dem=0)
    lots = [("A", sq(0, 0, 100)), ("B", sq(100, 0, 100, 99.99))]
    out = _plan(world, lots, parcel=sq(0, 0, 200, 100), district=None, kind="cluster")
    a, b = _by_label(out)["A"], _by_label(out)["B"]
    assert a["district"] == "R-40" and a["min_lot_area_sqft"] == 10_000 and a["citation"] == "§ 402-48F"
    assert a["net_lot_area_sqft"] == pytest.approx(5_000, abs=0.01)  # the constraint is still shown
    assert (a["conforms"], a["shortfall_sqft"]) == (True, 0.0)
    assert b["conforms"] is False and b["shortfall_sqft"] == pytest.approx(1.0, abs=0.01)
    conventional = _plan(world, lots, parcel=sq(0, 0, 200, 100), district=None)
    assert [lot["conforms"] for lot in conventional["lots"]] == [False, False]


def test_a_cluster_lot_outside_osr_r80_and_r40_has_the_minimum_the_board_sets_never_one_invented(world_once):
    world = world_once({}, dem=0)
    out = _plan(world, [("A", sq(0, 0, 100))], parcel=sq(0, 0, 100), district="R-15", kind="cluster")
    lot = out["lots"][0]
    assert lot["min_lot_area_sqft"] is None and lot["conforms"] is None and lot["shortfall_sqft"] is None
    assert "Planning Board" in lot["min_lot_area_reason"]
    assert out["conforming_lots"] == 0


def _row(n, w=80.0):
    """``n`` lots of w x 100 ft side by side from the origin."""
    return [(str(i + 1), sq(i * w, 0, w, 100)) for i in range(n)]


def test_a_cluster_plan_is_within_the_yield_of_its_conventional_plat_and_one_lot_more_is_over(world_once):
    # The conventional plat: four 200 x 200 lots of exactly 40,000 sq ft in R-40, all conforming (§ 402-48E).
    from engine_world import plan_of
    from sloat_core.plan.check import check_plan

    world = world_once({}, dem=0)
    conventional = plan_of([sq(0, 0, 200), sq(200, 0, 200), sq(0, 200, 200), sq(200, 200, 200)])
    for n, status in ((4, "within"), (5, "over")):
        out = check_plan(PARCEL, plan_of(_row(n)), world, district="R-40", kind="cluster",
                         conventional=conventional).to_dict()
        assert out["yield_check"]["plan_lots"] == n
        assert out["yield_check"]["permitted"] == 4
        assert out["yield_check"]["status"] == status
        assert out["yield_check"]["citation"] == "§ 402-48E"


def test_without_a_conventional_plat_a_cluster_plan_is_held_to_the_parcel_yield_estimate(tmp_path):
    # 160,000 sq ft net in R-40: the parcel's estimate is 4 lots. Without a DEM the net is a range (0 to 4):
    # 3 lots are then neither within nor over: unknown.
    (tmp_path / "flat").mkdir()
    (tmp_path / "nodem").mkdir()
    flat = make_world(tmp_path / "flat", {}, dem=0)
    out = _plan(flat, _row(5), kind="cluster")
    assert (out["yield_check"]["permitted"], out["yield_check"]["status"]) == (4, "over")
    out = _plan(flat, _row(4), kind="cluster")
    assert out["yield_check"]["status"] == "within"
    out = _plan(make_world(tmp_path / "nodem", {}), _row(3), kind="cluster")
    assert out["yield_check"]["permitted"] is None and out["yield_check"]["status"] == "unknown"


def test_open_space_within_50_ft_of_a_building_envelope_is_not_counted(world_once):
    # Open space: the east half (200 x 400 = 80,000 sq ft). An envelope 20 ft wide along its whole west edge:
    # the strip of open space within 50 ft of it (50 x 400 = 20,000 sq ft) is a private yard (§ 402-48G(2)).
    world = world_once({}, dem=0)
    out = _plan(world, [("1", sq(0, 0, 200, 400))], envelopes=[sq(180, 0, 20, 400)],
                open_space=[sq(200, 0, 200, 400)], kind="cluster")
    space = out["open_space"]
    assert space["gross_sqft"] == pytest.approx(80_000, abs=0.01)
    assert space["yards_excluded_sqft"] == pytest.approx(20_000, rel=1e-4)
    assert space["counted_sqft"] == pytest.approx(60_000, rel=1e-4)
    assert space["citation"] == param("open_space_yard_exclusion_ft", LAW_DAY).citation == "§ 402-48G(2)"
    assert out["unallocated_sqft"] == pytest.approx(0, abs=0.01)


def test_open_space_49_ft_from_an_envelope_is_a_yard_and_51_ft_is_not(world_once):
    world = world_once({}, dem=0)
    for gap, excluded in ((49.0, True), (51.0, False)):
        out = _plan(world, [("1", sq(0, 0, 200, 400))], envelopes=[sq(200 - 20 - gap, 0, 20, 400)],
                    open_space=[sq(200, 0, 200, 400)], kind="cluster")
        assert (out["open_space"]["yards_excluded_sqft"] > 0) is excluded


def test_open_space_without_any_envelope_drawn_is_unknown_not_all_counted(world_once):
    world = world_once({}, dem=0)
    out = _plan(world, [("1", sq(0, 0, 200, 400))], open_space=[sq(200, 0, 200, 400)], kind="cluster")
    assert out["open_space"]["gross_sqft"] == pytest.approx(80_000, abs=0.01)
    assert out["open_space"]["counted_sqft"] is None and out["open_space"]["yards_excluded_sqft"] is None
