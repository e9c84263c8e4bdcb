"""The three rooms (display modes) under AppTest, on the hand-built layer set of app_fixtures.

Standard shows every control and column; Counter speaks plain words (the sentences of
``sloat_core.engine.plain``) with fewer controls; Projector applies a stylesheet whose smallest body
text is 24 px, with metric values larger still and table status colours left alone. In every
mode the result names who decides and the sample layers say they are not official, and the
colour key of the deduction table is the map legend's colour.

The mode is set before the first run: AppTest keeps the frame's elements (sidebar, stylesheet)
only from the first run of a session under ``st.navigation``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import app_fixtures as fx  # noqa: E402

from app_support import state, theme  # noqa: E402
from app_support.theme import colour_for  # noqa: E402
from sloat_core.gis import parcels as parcel_input
from sloat_core.engine import plain  # noqa: E402
from sloat_core.engine.answer import lot_answer  # noqa: E402
from sloat_core.engine.analysis import DISCLAIMER, analyze  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")
SAMPLE_NOTICE = "Map layers: illustrative sample, not official data"


def _run(manifest, mode: str, sbl: str = fx.P1_SBL) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), sbl)
    at.session_state[state.MODE] = mode
    at.run()
    assert not at.exception, at.exception
    return at


def _text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for kind in (at.info, at.success, at.warning) for e in kind]
    return "\n".join(parts).replace("\\", "")


def _rules(css: str) -> list[tuple[str, str]]:
    """(selector, declarations) pairs of a stylesheet without nesting."""
    body = re.sub(r"</?style>", "", css)
    return [(sel.strip(), decl.strip()) for sel, decl in re.findall(r"([^{}]+)\{([^{}]*)\}", body)]


def _px(declarations: str) -> float | None:
    match = re.search(r"font-size:\s*(\d+(?:\.\d+)?)px", declarations)
    return float(match.group(1)) if match else None


def _applied_css(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown if m.value.lstrip().startswith("<style>"))


def _body_px(css: str) -> float | None:
    sizes = [_px(decl) for sel, decl in _rules(css) if re.search(r"(^|,)\s*body\s*(,|$)", sel)]
    return max((s for s in sizes if s is not None), default=None)


def test_projector_stylesheet_sets_body_text_of_at_least_24px(manifest):
    css = _applied_css(_run(manifest, state.PROJECTOR))
    assert css, "no stylesheet was applied"
    assert _body_px(css) >= 24
    # running text, captions and table cells: no rule sets them below the body size
    for selector, decl in _rules(css):
        size = _px(decl)
        if size is not None and any(k in selector for k in ("p", "li", "td", "Caption", "label")):
            assert size >= 24, (selector, size)


def test_projector_metric_values_beat_the_paragraph_rule(manifest):
    css = _applied_css(_run(manifest, state.PROJECTOR))
    metric = [(s, d) for s, d in _rules(css) if "stMetricValue" in s and "stMetricValue\"] p" in s]
    assert metric, "no rule for the metric value's paragraph"
    selector, decl = metric[0]
    assert _px(decl) >= 2 * 24 and "!important" in decl
    # two attribute selectors + an element outrank the one-attribute paragraph rule
    assert selector.count("[data-testid=") >= 2


def test_projector_keeps_status_colours_in_tables(manifest):
    css = _applied_css(_run(manifest, state.PROJECTOR))
    for selector, decl in _rules(css):
        if re.search(r"\b(td|th)\b", selector):
            colours = [d for d in decl.split(";") if re.match(r"\s*color\s*:", d)]
            assert not [c for c in colours if "!important" in c], selector


def test_standard_and_counter_are_not_projector_size(manifest):
    assert _body_px(_applied_css(_run(manifest, state.STANDARD))) is None
    counter = _body_px(_applied_css(_run(manifest, state.COUNTER)))
    assert counter is not None and counter < 24
    assert theme.BODY_FONT_PX[state.PROJECTOR] == 24 and "font-size:24px" in theme.stylesheet(state.PROJECTOR)


def test_counter_speaks_plain_words_and_hides_expert_controls(manifest):
    at = _run(manifest, state.COUNTER)
    layers = load_manifest(manifest)
    result = analyze(parcel_input.parcel_by_sbl(layers, fx.P1_SBL), layers, district="R-15")
    text = _text(at).replace("\u00a0", " ")  # the app keeps a number and its unit together (results.nb)
    answer = lot_answer(result)  # each sentence once: the verdict, the answer card, the screening note
    for sentence in [plain.plain_verdict(result), answer.house, *answer.top, *answer.project_needs,
                     *answer.parcel_carries, answer.note]:
        assert sentence in text, sentence
    labels = [m.label for m in at.metric]
    assert any(label.startswith("Land that counts toward your lot") for label in labels), labels
    assert not any("Net lot area" in label or "Gross" in label for label in labels)
    table = at.table[0].value
    assert list(table.columns) == ["Map", "On your lot", "Sq ft", "How much counts"]
    assert "Wetland" in set(table["On your lot"])
    # expert controls are gone
    assert not [r for r in at.radio if r.key == state.BASEMAP]
    assert not [c for c in at.checkbox if c.key in (state.SLOPE_OVERLAY, state.PICK_BY_CLICK)]
    assert "Cluster development triggers (§ 402-48C)" not in text


def test_standard_shows_every_control_and_column(manifest):
    at = _run(manifest, state.STANDARD)
    assert at.radio(key=state.BASEMAP).options[-1] == "None (layers only)"
    assert {c.key for c in at.checkbox} >= {state.SLOPE_OVERLAY, state.PICK_BY_CLICK}
    assert at.multiselect(key=state.LAYERS_SHOWN).value
    assert {m.label for m in at.metric} >= {"Gross area, sq ft"}
    table = at.table[0].value
    assert list(table.columns) == ["Map", "Constraint", "Counted in this row, sq ft", "Counts", "Deducted, sq ft", "§"]
    assert len(table) == len(analyze(parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL),
                                     load_manifest(manifest))["deductions"])
    text = _text(at)
    assert "Cluster development triggers (§ 402-48C)" in text and "What the parcel carries for any later work" in text


def test_projector_lists_only_what_is_on_the_parcel(manifest):
    # P2 has no wetland and no buffer (measured: 0 sq ft); the layers it lacks are unknown, so listed.
    at = _run(manifest, state.PROJECTOR, fx.P2_SBL)
    layers = load_manifest(manifest)
    deductions = analyze(parcel_input.parcel_by_sbl(layers, fx.P2_SBL), layers)["deductions"]
    on_parcel = [d["label"] for d in deductions if d["area_sqft"] is None or d["area_sqft"] > 0]
    absent = [d["label"] for d in deductions if d["area_sqft"] == 0]
    assert absent == ["Wetlands", "Wetland and watercourse buffers"] and on_parcel, (on_parcel, absent)
    assert list(at.table[0].value["Constraint"]) == on_parcel
    assert f"Not on this parcel: {', '.join(absent)}." in _text(at)
    assert not [r for r in at.radio if r.key == state.BASEMAP]
    assert [e for e in at.expander if e.label == "Map layers"], "the layer picker folds away on a projector"


@pytest.mark.parametrize("mode", state.MODES)
def test_every_mode_says_screening_who_decides_and_sample_layers(manifest, mode):
    at = _run(manifest, mode)
    text = _text(at)
    assert DISCLAIMER in text  # beside the result, not only in the sidebar
    assert "Planning Board" in DISCLAIMER and "Building Inspector" in DISCLAIMER
    assert SAMPLE_NOTICE in text  # under the map


@pytest.mark.parametrize("mode", state.MODES)
def test_table_colour_key_matches_the_map_legend(manifest, mode):
    at = _run(manifest, mode)
    legend = "\n".join(m.value for m in at.markdown if "sloat-swatch" in m.value and "<style>" not in m.value)
    wetland_legend = re.search(r'background:(#[0-9a-f]{6})"></span>Wetlands', legend)
    assert wetland_legend, legend
    table = at.table[0]
    frame = table.value
    name_col = "On your lot" if mode == state.COUNTER else "Constraint"
    row = list(frame[name_col]).index("Wetland" if mode == state.COUNTER else "Wetlands")
    styles = table.proto.arrow_data.styler.styles
    swatch = re.search(rf"_row{row}_col0 \{{ background-color: (#[0-9a-f]{{6}})", styles)
    assert swatch and swatch.group(1) == wetland_legend.group(1) == colour_for("wetlands")
