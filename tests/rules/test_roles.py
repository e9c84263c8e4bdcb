"""Each layer role (sloat_core.gis.roles) and each deduction row (sloat_core.measure.rows) is declared
once and completely; the loader, the measures, the sweep, the plain words, the answer card, the app's
map and the report's legend derive from them (no second list to keep in step, so none is compared here).
"""

import re

import pytest

from sloat_core.gis import roles
from sloat_core.law.text import citation_exists
from sloat_core.law.params import param
from sloat_core.measure import record as measures
from sloat_core.measure.rows import DEDUCTION_ROWS, ROW_IDS, ROW_LANDS, deduction_label
from law_day import LAW_DAY

ALL_KEYS = [r.id for r in roles.ROLE_DECLARATIONS] + [d.id for d in roles.DERIVED_STYLES]


@pytest.mark.parametrize("decl", roles.ROLE_DECLARATIONS, ids=lambda r: r.id)
def test_every_role_declaration_is_complete(decl):
    assert re.fullmatch(r"[a-z_]+", decl.id)
    assert decl.label.strip()
    # the printed legend names a role's own land; a deducted role's land is shown as its row, under the row's name
    assert bool(decl.legend_text(LAW_DAY).strip()) == (decl.deduction is None), decl.id
    assert re.fullmatch(r"#[0-9a-f]{6}", decl.colour)
    assert 0.0 <= float(decl.face) <= 1.0
    assert decl.kind in roles.KINDS and decl.geometry in roles.GEOMETRIES
    # Drawn either as a hatched fill or as a dashed outline on the printed map, never neither.
    assert bool(decl.hatch) != bool(decl.dash), decl.id
    if decl.deduction is not None:
        assert decl.deduction in set(ROW_IDS)
        assert decl.hatch, "deducted land is drawn filled"
    if decl.kind == "reference":
        assert decl.uses == () and decl.deduction is None
    else:
        assert decl.uses and all(citation_exists(c) for c in decl.uses), decl.id


@pytest.mark.parametrize("d", roles.DERIVED_STYLES, ids=lambda d: d.id)
def test_every_derived_row_style_is_complete(d):
    assert d.id in set(ROW_IDS)
    assert d.hatch and re.fullmatch(r"#[0-9a-f]{6}", d.colour)


def test_every_deduction_row_has_one_style():
    styled = [r.deduction for r in roles.ROLE_DECLARATIONS if r.deduction] + [d.id for d in roles.DERIVED_STYLES]
    assert sorted(styled) == sorted(ROW_IDS)
    assert len(set(ALL_KEYS)) == len(ALL_KEYS)


@pytest.mark.parametrize("row", DEDUCTION_ROWS, ids=lambda r: r.id)
def test_every_deduction_row_declaration_is_complete(row):
    """Label, share (a parameter of the law with its §), where its land comes from, plain words, study."""
    assert row.land in ROW_LANDS
    assert deduction_label(row.id, LAW_DAY).strip() and "{" not in deduction_label(row.id, LAW_DAY)
    assert row.legend_text(LAW_DAY).strip() and "{" not in row.legend_text(LAW_DAY)
    assert param(row.share, LAW_DAY).citation.startswith("§ 402-45A")
    assert row.words.strip() and row.words == row.words.lower()
    assert row.study.strip()
    if row.land in ("layer", "outcrops"):  # read from a role's layer: that role names this row
        assert roles.role(row.role).deduction == row.id
        assert row.reads == (row.role,) and row.map_layer == row.role
    else:
        assert row.role is None
    if row.land == "slope":
        assert row.id in measures.slope_sets(LAW_DAY) and row.reads == () and row.map_layer is None
    if row.land == "buffer":
        assert row.reads == roles.roles_of_kind("resource") and row.map_layer == row.id


def test_a_deduction_row_is_named_only_by_its_own_declaration():
    """A row's label (the table, the CSV, the map's pop-up) and its short name in the printed legend are declared
    with the row; no role and no derived style names it a second time, and the report's legend reads the row."""
    from sloat_core.outputs.report import map as report_map

    assert [r.id for r in roles.ROLE_DECLARATIONS if r.deduction is not None and r.legend] == []
    assert [d.id for d in roles.DERIVED_STYLES if hasattr(d, "legend")] == []
    assert [report_map._map_label(r.id, LAW_DAY) for r in DEDUCTION_ROWS] == [r.legend_text(LAW_DAY) for r in DEDUCTION_ROWS]
    assert report_map._map_label("slope_25_40", LAW_DAY) == "Slopes over 25% to 40%"  # the legend's short form


def test_line_roles_are_drawn_as_lines_on_the_web_map():
    from app_support.map import mapping

    for decl in roles.ROLE_DECLARATIONS:
        st = mapping.layer_style(decl.id)
        if decl.web.line:
            assert st["fillOpacity"] == 0.0 and "fillColor" not in st
        else:
            assert st["fillOpacity"] > 0.0
        assert st["weight"] == decl.web.weight and st.get("dashArray", "") == decl.web.dash


def test_a_base_only_role_is_never_listed_as_a_constraint_layer():
    from app_support.map import mapping

    class Everything:
        def has(self, _role):
            return True

    listed = mapping.available_roles(Everything())
    base = [r.id for r in roles.ROLE_DECLARATIONS if r.web.base_only]
    assert base and not set(base) & set(listed)
    assert "buffer" in listed  # a row with a layer of its own but no role
