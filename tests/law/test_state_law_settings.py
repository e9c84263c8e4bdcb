"""The state-law settings file (data/settings/state_law.yaml): dated, cited, checked, editable, "to confirm".

Every number the approvals use is read from it (none written in their code); the loader refuses a value that
its statement does not state, an unknown unit, a missing field; a changed copy changes the answers.
"""

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml

from sloat_core.approvals import state_law
from sloat_core.approvals.facts import parse_approval_facts
from sloat_core.approvals.seqr import seqr_class
from sloat_core.approvals.state_law import STATE_LAW_PATH, all_state_facts, state_param, using_state_law
from sloat_core.errors import SloatInputError
from law_day import LAW_DAY

APPROVALS = Path(state_law.__file__).parent


def _copy(tmp_path, edit) -> Path:
    doc = yaml.safe_load(STATE_LAW_PATH.read_text(encoding="utf-8"))
    edit(doc)
    out = tmp_path / "state_law.yaml"
    out.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return out


def test_every_fact_has_its_clause_source_unit_and_a_verify_flag():
    facts = all_state_facts(LAW_DAY)
    assert len(facts) >= 20
    for f in facts.values():
        assert f.citation and f.source and f.description and isinstance(f.verify, bool)
        assert f.unit in state_law.STATE_UNITS


def test_what_law_facts_marks_verify_stays_to_confirm():
    for name in ("subdivision_hearing_days", "subdivision_decision_days", "final_plat_filing_days",
                 "site_plan_decision_days", "seqr_parkland_threshold_pct", "seqr_type2_residence",
                 "seqr_type2_accessory", "rockland_executive_order"):
        assert state_param(name, LAW_DAY).verify, name
    assert not state_param("county_referral_distance_ft", LAW_DAY).verify


def test_no_approval_module_writes_a_law_number_in_its_code():
    # 500, 30, 62, 200, 50, 25 and 10 live in the settings file only
    for path in APPROVALS.glob("*.py"):
        if path.name == "state_law.py":
            continue
        code = re.sub(r'""".*?"""', "", path.read_text(encoding="utf-8"), flags=re.S)  # prose may state them
        code = re.sub(r"#.*", "", code)
        for n in ("500", "62", "30", "200", "12.4"):
            assert not re.search(rf"(?<![\w.]){re.escape(n)}(?![\w.])", code), f"{path.name} writes {n}"


def test_a_value_its_statement_does_not_state_is_refused(tmp_path):
    def edit(doc):
        doc["facts"]["subdivision_hearing_days"]["values"][0]["value"] = 60
    with pytest.raises(SloatInputError, match="subdivision_hearing_days.*does not state"):
        with using_state_law(_copy(tmp_path, edit)):
            pass


@pytest.mark.parametrize("field", ["citation", "source", "verify", "values"])
def test_an_entry_without_a_required_field_is_refused(tmp_path, field):
    def edit(doc):
        del doc["facts"]["county_review_days"][field]
    with pytest.raises(SloatInputError, match="county_review_days"):
        with using_state_law(_copy(tmp_path, edit)):
            pass


def test_an_unknown_unit_is_refused(tmp_path):
    def edit(doc):
        doc["facts"]["county_review_days"]["unit"] = "fortnights"
    with pytest.raises(SloatInputError, match="unknown unit"):
        with using_state_law(_copy(tmp_path, edit)):
            pass


def test_a_new_dated_value_applies_from_its_date_and_the_old_one_before(tmp_path):
    def edit(doc):
        doc["facts"]["seqr_parkland_threshold_pct"]["values"].append(
            {"effective": dt.date(2027, 1, 1), "value": 10,
             "statement": "any Unlisted action that exceeds 10 percent of any threshold"})
    with using_state_law(_copy(tmp_path, edit)):
        assert state_param("seqr_parkland_threshold_pct", dt.date(2026, 12, 31)).value == 25
        assert state_param("seqr_parkland_threshold_pct", dt.date(2027, 1, 1)).value == 10
        facts = parse_approval_facts({"lots": 6, "public_water_sewer": False, "parkland_contiguous": True})
        before = seqr_class(None, facts, on=dt.date(2026, 12, 31))
        after = seqr_class(None, facts, on=dt.date(2027, 1, 1))
    assert (before.seqr_class, after.seqr_class) == ("Unlisted", "Type I")  # 6 > 10 % of 50, not > 25 %


def test_an_edited_copy_changes_the_referral_distance(tmp_path):
    def edit(doc):
        doc["facts"]["county_referral_distance_ft"]["values"][0].update(
            value=600, statement="within a distance of six hundred feet")
    with using_state_law(_copy(tmp_path, edit)):
        assert state_param("county_referral_distance_ft", LAW_DAY).value == 600
    assert state_param("county_referral_distance_ft", LAW_DAY).value == 500


def test_the_regimes_are_dated_and_each_names_its_status_and_source():
    regs = state_law.regimes()
    assert [r.effective.isoformat() for r in regs] == ["1975-09-01", "2025-01-01", "2026-04-08"]
    assert all(r.status and r.source and r.citation for r in regs)


def test_the_village_neighbours_are_a_dated_setting_to_confirm_and_a_bad_sector_is_refused(tmp_path):
    """The municipalities across the village line (GML § 239-m(3)(b)(i)): the Town of Ramapo, and the Town of
    Tuxedo (Orange County) on the west; to confirm. A sector that is not two bearings is refused in one sentence."""
    from sloat_core.approvals.state_law import neighbours_on

    nset = neighbours_on(dt.date(2026, 12, 1))
    assert nset.verify is True
    assert {n.name for n in nset.neighbours} == {"Town of Ramapo", "Town of Tuxedo"}
    assert nset.across(270.0).county == "Orange County" and nset.across(10.0).name == "Town of Ramapo"

    def edit(doc):
        doc["municipal_neighbours"][0]["neighbours"][1]["sector"] = [225]
    with pytest.raises(SloatInputError, match=r"municipal_neighbours\[0\].*two bearings"):
        with using_state_law(_copy(tmp_path, edit)):
            pass

    def two_defaults(doc):
        doc["municipal_neighbours"][0]["neighbours"][1].pop("sector")
    with pytest.raises(SloatInputError, match="exactly one neighbour without a sector"):
        with using_state_law(_copy(tmp_path, two_defaults)):
            pass


def test_both_settings_files_are_read_by_the_one_loader_and_refused_in_the_same_words(tmp_path):
    """local.yaml (sloat_core.law.settings) and state_law.yaml (sloat_core.law.facts) are refused in the same
    words: a file that is not YAML, in one sentence naming the file, never its folder."""
    from sloat_core.law.settings import load_settings

    bad = tmp_path / "broken.yaml"
    bad.write_text("facts: [unclosed\n", encoding="utf-8")
    with pytest.raises(SloatInputError) as local:
        load_settings(bad)
    with pytest.raises(SloatInputError) as state:
        with using_state_law(bad):
            pass
    assert str(local.value) == "The settings file broken.yaml is not valid YAML."
    assert str(state.value) == "The state-law settings file broken.yaml is not valid YAML."
    assert str(tmp_path) not in str(local.value) + str(state.value)


def test_the_state_law_facts_and_article_ix_s_numbers_are_read_by_one_loader_into_one_kind_of_fact():
    from sloat_core.law import params
    from sloat_core.law.facts import Fact, FactFile

    assert isinstance(state_law.STATE_LAW, FactFile) and isinstance(params.ARTICLE_IX, FactFile)
    assert type(state_law.STATE_LAW).table is type(params.ARTICLE_IX).table
    on = dt.date(2026, 12, 1)
    referral, hearing = state_param("county_referral_distance_ft", on), params.param("wetland_hearing_days", on)
    assert type(referral) is type(hearing) is Fact
    assert referral.statement == referral.quote and hearing.quote == "within 62 days of a complete application"


def test_a_state_law_fact_is_read_at_the_date_passed_in_and_today_without_one(tmp_path):
    """The SEQR parkland threshold becomes 10 % from 2090 in a copy: asked with no date, even inside one reading
    of Article IX's parameters for an analysis, the fact is today's (25 %); asked with 2091, it is 10 %."""
    from sloat_core.law.params import one_reading

    def edit(doc):
        doc["facts"]["seqr_parkland_threshold_pct"]["values"].append(
            {"effective": dt.date(2090, 1, 1), "value": 10,
             "statement": "any Unlisted action that exceeds 10 percent of any threshold"})
    with using_state_law(_copy(tmp_path, edit)):
        with one_reading():
            assert state_param("seqr_parkland_threshold_pct", LAW_DAY).value == 25
            assert state_param("seqr_parkland_threshold_pct", dt.date(2091, 1, 1)).value == 10
