"""Each layer role is declared once (sloat_core.gis.roles), completely, and everything reads it.

A role's label, colour, print style, kind, geometry type and the rules that use it live in one
declaration; the manifest loader, the measures, the app's colours and labels and the report's legend
are checked here to take them from there (no second list to keep in step).
"""

import re

import pytest

from sloat_core.gis import layers, roles
from sloat_core.law.text import citation_exists
from sloat_core.rules import measures
from sloat_core.rules.deductions import DEDUCTION_ORDER

ALL_KEYS = [r.id for r in roles.ROLE_DECLARATIONS] + [d.id for d in roles.DERIVED_STYLES]


@pytest.mark.parametrize("decl", roles.ROLE_DECLARATIONS, ids=lambda r: r.id)
def test_every_role_declaration_is_complete(decl):
    assert re.fullmatch(r"[a-z_]+", decl.id)
    assert decl.label.strip() and decl.legend_text().strip()
    assert re.fullmatch(r"#[0-9a-f]{6}", decl.colour)
    assert 0.0 <= float(decl.face) <= 1.0
    assert decl.kind in roles.KINDS and decl.geometry in roles.GEOMETRIES
    # Drawn either as a hatched fill or as a dashed outline on the printed map, never neither.
    assert bool(decl.hatch) != bool(decl.dash), decl.id
    if decl.deduction is not None:
        assert decl.deduction in {c for c, _, _ in DEDUCTION_ORDER}
        assert decl.hatch, "deducted land is drawn filled"
    if decl.kind == "reference":
        assert decl.uses == () and decl.deduction is None
    else:
        assert decl.uses and all(citation_exists(c) for c in decl.uses), decl.id


@pytest.mark.parametrize("d", roles.DERIVED_STYLES, ids=lambda d: d.id)
def test_every_derived_row_style_is_complete(d):
    assert d.id in {c for c, _, _ in DEDUCTION_ORDER}
    assert d.legend_text().strip() and d.hatch and re.fullmatch(r"#[0-9a-f]{6}", d.colour)


def test_every_deduction_row_has_one_style():
    styled = [r.deduction for r in roles.ROLE_DECLARATIONS if r.deduction] + [d.id for d in roles.DERIVED_STYLES]
    assert sorted(styled) == sorted(c for c, _, _ in DEDUCTION_ORDER)
    assert len(set(ALL_KEYS)) == len(ALL_KEYS)


def test_the_loader_and_the_rules_read_the_declarations():
    assert layers.ROLES == tuple(r.id for r in roles.ROLE_DECLARATIONS)
    assert layers.LINE_ROLES == {r.id for r in roles.ROLE_DECLARATIONS if r.geometry == "polygon_or_line"}
    assert measures.RESOURCE_ROLES == roles.roles_of_kind("resource")
    assert measures.OVERLAY_ROLES == roles.roles_of_kind("overlay")
    assert set(measures.measured_areas()) >= set(roles.roles_of_kind("resource", "overlay"))


def test_the_app_theme_reads_the_declarations():
    from app_support import theme

    for decl in roles.ROLE_DECLARATIONS:
        assert theme.COLOURS[decl.id] == decl.colour and theme.LAYER_LABELS[decl.id] == decl.label
        assert theme.colour_for(decl.id) == decl.colour
    for d in roles.DERIVED_STYLES:
        assert theme.colour_for(d.id) == d.colour
    # every role, and the buffer band the map draws from the layer set (a derived row with a layer of its own)
    assert set(theme.LAYER_LABELS) == set(layers.ROLES) | {"buffer"}


def test_the_report_legend_reads_the_declarations():
    from sloat_core.outputs import report

    for c, _, _ in DEDUCTION_ORDER:
        s = roles.style(c)
        assert report.PIECE_STYLES[c] == {"face": s.face, "hatch": s.hatch}
        assert report._map_label(c) == s.legend_text()
    overlays = [r for r in roles.ROLE_DECLARATIONS if r.kind == "overlay" and not r.hatch]
    assert report._OVERLAY_STYLES == {r.id: (r.legend, r.dash) for r in overlays}
    assert set(report._CONTEXT_ROLES) == {r.id for r in roles.ROLE_DECLARATIONS if r.deduction}
