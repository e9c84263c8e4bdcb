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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402
import html_tables  # noqa: E402

from app_support.frame import state, theme  # noqa: E402
from app_support.frame.theme import colour_for  # noqa: E402
from sloat_core.gis import parcels as parcel_input
from sloat_core.engine import plain  # noqa: E402
from sloat_core.engine.answer import lot_answer  # noqa: E402
from sloat_core.engine.analysis import DISCLAIMER, analyze, analyze_parcel  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SAMPLE_NOTICE = "Map layers: illustrative sample, not official data"


@pytest.fixture()
def manifest(module_layer_files, monkeypatch):
    """The layer set, written once for the module (its tests only read it: tests/conftest.py), served via
    ``SLOAT_LAYERS`` as the app reads it."""
    monkeypatch.setenv("SLOAT_LAYERS", str(module_layer_files))
    return module_layer_files


def _run(manifest, mode: str, sbl: str = fx.P1_SBL) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), sbl)
    at.session_state[state.MODE] = mode
    at.run()
    assert not at.exception, at.exception
    return at


def _text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [h.value for h in at.html] + [c.value for c in at.caption]
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
    """Every stylesheet the page put in: the mode's (``st.html``) and the deduction table's (markdown)."""
    return "\n".join(m.value for m in [*at.html, *at.markdown] if m.value.lstrip().startswith("<style>"))


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
    result = analyze_parcel(parcel_input.parcel_by_sbl(layers, fx.P1_SBL), layers, district="R-15").result
    text = _text(at).replace("\u00a0", " ")  # the app keeps a number and its unit together (unit_text.nb)
    answer = lot_answer(result)  # each sentence once: the verdict, the answer card, the screening note
    for sentence in [plain.plain_verdict(result), answer.headline, answer.why, *answer.top, *answer.project_needs,
                     *answer.parcel_carries, answer.note]:
        assert sentence in text, sentence
    labels = [m.label for m in at.metric]
    assert any(label.startswith("Land that counts toward your lot") for label in labels), labels
    assert not any("Net lot area" in label or "Gross" in label for label in labels)
    table = html_tables.deduction_tables(at)[0].value
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
    table = html_tables.deduction_tables(at)[0].value
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
    assert list(html_tables.deduction_tables(at)[0].value["Constraint"]) == on_parcel
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
    legend = "\n".join(m.value for m in at.html if "sloat-swatch" in m.value and "<style>" not in m.value)
    wetland_legend = re.search(r'background:(#[0-9a-f]{6})"></span>Wetlands', legend)
    assert wetland_legend, legend
    table = html_tables.deduction_tables(at)[0]
    frame = table.value
    name_col = "On your lot" if mode == state.COUNTER else "Constraint"
    row = list(frame[name_col]).index("Wetland" if mode == state.COUNTER else "Wetlands")
    assert table.key_colour(row) == wetland_legend.group(1) == colour_for("wetlands")


# ------------------------------------------------------------------------------------------------
# Getting around (and the one list of approvals on the walk-through)
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", state.MODES)
def test_every_mode_keeps_the_sidebars_open_button(mode):
    """Counter and Projector hide Streamlit's toolbar, which holds the sidebar's open button: on a phone that
    left no page menu. Every mode's stylesheet shows the toolbar box again and sizes the button."""
    css = theme.stylesheet(mode)
    rules = dict(_rules(css))
    shown = [d for s, d in rules.items() if 'header[data-testid="stHeader"] [data-testid="stToolbar"]' in s]
    assert shown and "display:flex !important" in shown[-1]
    opener = [d for s, d in rules.items() if s == '[data-testid="stExpandSidebarButton"]']
    assert opener and "min-width:44px" in opener[0] and "min-height:44px" in opener[0]
    # the rule that shows the toolbar comes after the one that hides it (same importance: the later wins)
    hide = css.find('[data-testid="stToolbar"], [data-testid="stMainMenu"]')
    assert hide == -1 or hide < css.find('header[data-testid="stHeader"] [data-testid="stToolbar"]')
    assert "stMainMenu" not in "".join(s for s, d in rules.items() if "display:flex" in d)  # its menu stays hidden


def test_the_clicker_script_clicks_the_buttons_the_page_draws():
    """The key listener finds the walk-through's buttons by their labels: the labels it has are the page's."""
    from app_support.frame import browser_nav

    js = browser_nav.WALKTHROUGH_KEYS_JS
    assert f'"{browser_nav.NEXT_LABEL}"' in js and f'"{browser_nav.PREVIOUS_LABEL}"' in js
    for key in ("PageDown", "PageUp", "ArrowRight", "ArrowLeft", '" "'):
        assert key in js, key
    page = (Path(APP).parent / "pages" / "walkthrough.py").read_text(encoding="utf-8")
    assert "browser_nav.NEXT_LABEL" in page and "browser_nav.PREVIOUS_LABEL" in page


def _walkthrough(manifest, mode: str, step: str | None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    at.session_state[state.MODE] = mode
    if step is not None:
        at.query_params["step"] = step
    at.switch_page("pages/walkthrough.py").run()
    assert not at.exception, at.exception
    return at


def _title(at: AppTest) -> str:
    return at.title[0].value


def _step(at: AppTest) -> str:
    value = at.query_params.get("step")
    return value[0] if isinstance(value, list) else value


def test_the_walk_through_reads_its_screen_from_the_link_on_every_run(manifest):
    """Back and Forward rerun the page with that entry's link: the screen shown is the link's, not the session's."""
    from app_support.views import walkthrough

    at = _walkthrough(manifest, state.STANDARD, "3")
    assert _title(at) == walkthrough.SCREENS[2].title
    at.query_params["step"] = "2"  # what Back does: the same session, the earlier entry's link
    at.run()
    assert _title(at) == walkthrough.SCREENS[1].title
    at.button(key="wt_next").click().run()
    assert _title(at) == walkthrough.SCREENS[2].title and _step(at) == "3"


@pytest.mark.parametrize("raw, shown", [("99", 6), ("0", 1), ("abc", 1), ("-2", 1), ("1" * 50, 1)])
def test_a_hostile_step_in_the_link_opens_a_screen_that_exists(manifest, raw, shown):
    from app_support.views import walkthrough

    at = _walkthrough(manifest, state.STANDARD, raw)
    assert _title(at) == walkthrough.SCREENS[shown - 1].title
    assert _step(at) == str(shown)  # the link is corrected


def test_the_permits_screen_is_one_list_of_every_approval_by_who_decides(manifest):
    """Article IX's permits and the approvals around it in one list, by who decides, each with its
    clause, the step at which it usually comes and its clock; prohibitions apart."""
    from app_support.views import approvals_ui

    at = _walkthrough(manifest, state.PROJECTOR, "5")
    layers = load_manifest(manifest)
    result = analyze(parcel_input.parcel_by_sbl(layers, fx.P1_SBL), layers)
    text = "\n".join(m.value for m in at.markdown).replace("\\", "")
    groups = approvals_ui.board_items(result)
    from sloat_core.engine.approval_list import DECIDERS

    assert groups and {g.decides for g in groups} <= set(DECIDERS)
    for g in groups:
        assert f"**{g.decides}" in text, g.decides
        for item in g.items:
            assert item["name"] in text, item["name"]
            if item.get("clause"):
                assert item["clause"] in text, item["clause"]
    assert "step 3" in text or "step 2" in text
    captions = "\n".join(c.value for c in at.caption).replace("\\", "")
    assert "Usual order, by step" in captions
    # the project may include commercial excavation (unknown): § 402-52 is named apart, never among the approvals
    assert "Not allowed at all, if the project includes it: Commercial excavation (prohibited) (§ 402-52)." in captions
    assert "Commercial excavation" not in text
    permits = {p["id"] for p in result["permits"] if p.get("required") is not False}
    assert permits & {i["id"] for g in groups for i in g.items}, "Article IX's permits are in the list"


def test_short_clock_keeps_the_first_clock_and_its_section():
    from app_support.views.approvals_ui import short_clock

    joined = ("Valid 1 year from approval, or the other permit's period if later (§ 402-55H(2)).; Extension at "
              "most 1 year; request at least 1 month before expiry (§ 402-55H(3)).")
    assert short_clock(joined) == "Valid 1 year from approval (§ 402-55H(2))"
    assert short_clock("Granted for at most 1 year; may be extended 2 more years on a written request received "
                       "before expiry (§ 402-53D).") == "Granted for at most 1 year (§ 402-53D)"
    assert short_clock("The county reports within 30 days of receipt of a full statement; after that the board "
                       "may act without the report (GML § 239-m(4)(b)).") == (
        "The county reports within 30 days of receipt of a full statement (GML § 239-m(4)(b))")
    assert short_clock(None) is None and short_clock("") is None


def test_the_board_deals_every_item_once_in_order_into_balanced_columns():
    from app_support.views import approvals_ui

    from sloat_core.engine.result import ApprovalGroup

    groups = [ApprovalGroup(decides=who, items=tuple({"id": f"{who}{n}", "name": f"{who} item {n}",
                                                      "status": "required", "clause": "§ 402-57G", "step": 3,
                                                      "clock": None} for n in range(k)))
              for who, k in (("Planning Board", 9), ("Village Engineer", 2), ("County", 4), ("Federal", 1))]
    dealt = approvals_ui._deal(groups, 3, 50)
    names = [line for column in dealt for _heading, texts in column for line in texts]
    expected = [approvals_ui._board_line(i) for g in groups for i in g.items]
    assert names == expected  # each once, in the core's order
    headings = [h for column in dealt for h, _t in column]
    assert headings.count("Planning Board") == 1 and "Planning Board (continued)" in headings
    sizes = [sum(len(t) for _h, t in column) for column in dealt]
    assert max(sizes) - min(sizes) <= 2, sizes  # one-line items: the columns differ by a line or two
