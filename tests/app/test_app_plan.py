"""AppTest checks of the Plan page: a plan uploaded (or drawn) on the sample parcel, checked lot by lot.

The plans are DXF drawings written here with ezdxf on the sample parcel 162.13-1-1 (tests/plan/plan_files.py):
lot A is 100 x 150 ft (15,000 sq ft), lot B beside it 80 x 150 ft (12,000 sq ft), both on land with no mapped
constraint. In R-15 (15,000 sq ft minimum) A conforms and B falls 3,000 sq ft short; in OSR, whose conventional
minimum the settings leave unset, both are unknown. Figures are checked against the hand-worked values and
against ``sloat_core.plan.check`` itself.
"""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path
from unittest import mock

import pytest
from shapely.geometry import box

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "plan"))
import app_fixtures as fx  # noqa: E402
import plan_files as pf  # noqa: E402

from app_support.frame import state  # noqa: E402
from app_support.inputs import plan_inputs  # noqa: E402
from app_support.map import plan_map  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402
from sloat_core.plan.check import check_plan  # noqa: E402
from sloat_core.plan.reading import read_plan  # noqa: E402

SAMPLE = ROOT / "data" / "sample" / "layers.yaml"
LOT_A = pf.lot_box(0)
LOT_B = box(pf.X0 + 100, pf.Y0, pf.X0 + 180, pf.Y0 + 150)


@pytest.fixture(scope="module")
def sample_parcel():
    return parcel_by_sbl(load_manifest(SAMPLE), pf.SAMPLE_SBL)


@pytest.fixture(autouse=True)
def sample_layers(monkeypatch):
    monkeypatch.delenv("SLOAT_LAYERS", raising=False)  # the sample layer set the plans are drawn on


def two_lots_dxf(path: Path, *, layer: str = "LOTS", labels=("A", "B"), lots=(LOT_A, LOT_B)) -> bytes:
    """A DXF of the lots on ``layer``, each with its TEXT label at its middle; its bytes."""
    doc = pf.new_dxf()
    msp = doc.modelspace()
    for label, lot in zip(labels, lots, strict=True):
        pf.add_rect(msp, lot, layer)
        msp.add_text(label, dxfattribs={"layer": layer, "height": 8, "insert": (lot.centroid.x, lot.centroid.y)})
    return pf.save(doc, path).read_bytes()


def _open(parcel, mode=None, **session):
    return fx.open_page("pages/plan.py", parcel=parcel, mode=mode, timeout=60, **session)


def _run(at):
    at.run()
    assert not at.exception, at.exception
    return at


def _upload(at, name: str, data: bytes, key: str = "plan_upload"):
    at.file_uploader(key=key).upload(name, data, "application/octet-stream")
    return _run(at)


def _table(at) -> list[dict]:
    """The lot table's rows as {heading: text}."""
    frame = at.table[0].value
    return frame.to_dict("records")


def _text(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [e.value for e in at.info]
    parts += [e.value for e in at.warning] + [e.value for e in at.error] + [e.value for e in at.success]
    return "\n".join(parts).replace("\\", "")


def _with_district(at, code: str):
    at.selectbox(key="plan_district_box").set_value(code)
    return _run(at)


def _lot_styles(groups) -> dict[str, dict]:
    """The map's lots: each one's label (as it goes to the map's HTML) -> its Leaflet style."""
    lots = next(g for g in groups if g.layer_name == "Lots of the plan")
    found = {}
    for child in lots._children.values():
        feature = child.data["features"][0] if "features" in child.data else child.data
        found[feature["properties"]["label"]] = child.style_function(feature)
    return found


def test_without_a_parcel_the_page_says_so_in_one_sentence_and_links_the_parcel_page():
    at = _open(None)
    assert [i.value for i in at.info] == ["No parcel is chosen yet: choose the parcel first, then check a plan of "
                                          "it here."]
    assert any(link.proto.label.startswith("Choose a parcel") for link in at.get("page_link"))
    assert not at.get("file_uploader")


def test_the_plan_page_follows_the_cluster_page_in_the_menu():
    import ast

    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    pages = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                 and getattr(n.targets[0], "id", "") == "PAGES")
    files = [p[0] for p in pages]
    assert files.index("pages/plan.py") == files.index("pages/cluster.py") + 1
    assert pages[files.index("pages/plan.py")][1] == "Plan, lot by lot"


def test_an_uploaded_dxf_gives_a_row_per_lot_with_gross_net_minimum_answer_shortfall_and_section(
        tmp_path, sample_parcel):
    at = _open(sample_parcel)
    _with_district(at, "R-15")
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf"))
    rows = _table(at)
    assert [r["Lot"] for r in rows] == ["A", "B"]
    a, b = rows
    assert (a["Gross, sq ft"], a["Net lot area, sq ft"], a["Minimum, sq ft"]) == ("15,000", "15,000", "15,000")
    assert (a["Conforms"], a["Shortfall, sq ft"], a["§"]) == ("Yes", "none", "§ 402-45A")
    assert (b["Gross, sq ft"], b["Conforms"], b["Shortfall, sq ft"]) == ("12,000", "No", "3,000")
    # the same answer as the core's own check
    core = check_plan(sample_parcel, read_plan(tmp_path / "plat.dxf"), load_manifest(SAMPLE), district="R-15")
    assert [lot.conforms for lot in core.lots] == [True, False]
    assert "Conventional plan: 2 lots; 1 conforms, 1 does not conform." in _text(at)
    links = [link.proto.label for link in at.get("page_link")]
    assert "Minimum lot area: § 402-45A" in links and "Yield: § 402-48E" in links
    assert any(label.startswith("Open space: § 402-48G(2)") for label in links)


def test_the_answers_come_in_order_problems_map_lots_yield_open_space(tmp_path, sample_parcel):
    at = _open(sample_parcel)
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf"))
    assert [h.value for h in at.subheader] == ["Problems in the drawing", "The lots on the map", "Lot by lot",
                                               "Yield (§ 402-48E)", "Open space (§ 402-48G(2))"]
    rows = _table(at)  # OSR: its conventional minimum is not set, so neither lot's answer is known
    assert [(r["Minimum, sq ft"], r["Conforms"], r["Shortfall, sq ft"]) for r in rows] == [
        ("not known", "Unknown", "unknown")] * 2
    assert "No minimum lot area is set for OSR" in _text(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Lots in the plan"] == "2" and metrics["Open space drawn, sq ft"] == "0"


def test_problems_name_their_kind_the_lots_and_the_area(tmp_path, sample_parcel):
    overlapping = box(pf.X0 + 90, pf.Y0, pf.X0 + 190, pf.Y0 + 150)  # 10 x 150 ft of lot A's land
    at = _open(sample_parcel)
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf", labels=("A", "A"), lots=(LOT_A, overlapping)))
    warnings = [w.value.replace("\\", "") for w in at.warning]
    overlap = next(w for w in warnings if w.startswith("**Lots overlap**"))
    assert "1,500 sq ft" in overlap and "lot A" in overlap
    assert any(w.startswith("**Two lots with one label**") and "'A'" in w for w in warnings)
    assert not at.success


def test_a_file_with_no_lots_layer_offers_its_layers_and_reads_the_one_chosen(tmp_path, sample_parcel):
    at = _open(sample_parcel)
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf", layer="PARCELS-PROPOSED"))
    assert any("No layer of plat.dxf is recognised as the lots" in w.value.replace("\\", "") for w in at.warning)
    assert not at.table
    box_ = at.selectbox(key="plan_lots_layer")
    assert "PARCELS-PROPOSED" in box_.options
    box_.set_value("PARCELS-PROPOSED")
    _run(at)
    at.button(key="plan_lots_layer_use").click()
    _run(at)
    assert [r["Lot"] for r in _table(at)] == ["A", "B"]
    assert at.session_state[plan_inputs.PLAN].roles == {"lots": "PARCELS-PROPOSED"}


@pytest.mark.parametrize("name, data, words", [
    ("plat.dwg", b"AC1032\x00\x00\x00\x00\x00binary drawing",
     "DWG drawings cannot be read; save the plan as DXF (File > Save As > DXF) and upload that."),
    ("plat.dxf", b"0\nSECTION\n2\nENTITIES\n0\nLWPOLYLINE\n8\nLOTS\n90\nnot a number\n",
     "The file could not be read as a DXF drawing."),
])
def test_a_dwg_or_a_damaged_file_is_refused_in_one_sentence_and_the_plan_before_is_kept(
        tmp_path, sample_parcel, name, data, words):
    at = _open(sample_parcel)
    _upload(at, "good.dxf", two_lots_dxf(tmp_path / "plat.dxf"))
    before = _table(at)
    _upload(at, name, data)
    assert [e.value.replace("\\", "") for e in at.error] == [words]  # the core's one sentence, beside the uploader
    assert any(plan_inputs.KEPT_AFTER_REFUSAL in c.value.replace("\\", "") and "good.dxf" in c.value.replace("\\", "")
               for c in at.caption)
    assert _table(at) == before


def test_lots_drawn_on_the_map_are_checked_each_as_a_lot(sample_parcel):
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(LOT_A), fx.wgs84_feature(LOT_B)]})
    at = _open(sample_parcel)
    at.radio(key="plan_how_box").set_value(plan_inputs.DRAW)
    _with_district(at, "R-15")
    with fx.map_answers(fake):
        _run(at)
    rows = _table(at)
    assert [r["Lot"] for r in rows] == ["1", "2"]
    assert [r["Gross, sq ft"] for r in rows] == ["15,000", "12,000"]
    assert [r["Conforms"] for r in rows] == ["Yes", "No"]
    assert at.session_state[plan_inputs.PLAN].drawn


def test_the_map_labels_each_lot_with_its_answer_in_words_and_marks_it_by_a_pattern(tmp_path, sample_parcel):
    fake = mock.MagicMock(return_value={})
    at = _open(sample_parcel)
    _with_district(at, "R-15")
    with fx.map_answers(fake):
        _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf"))
    groups = fake.call_args.kwargs["feature_group_to_add"]
    found = _lot_styles(groups)
    assert set(found) == {"Lot A<br>conforms", "Lot B<br>does not conform"}
    assert found["Lot B<br>does not conform"]["fillColor"].startswith("hatch:cross:")
    assert not found["Lot A<br>conforms"]["fillColor"].startswith("hatch:")
    legend = next(h.value for h in at.html if 'class="sloat-legend"' in h.value)
    assert "Lot that conforms" in legend and "cross-hatched" in legend


def test_a_lot_label_from_the_file_reaches_the_map_escaped():
    hostile = "<img src=x onerror=alert(1)>`${x}`"
    groups = plan_map.groups({"type": "Point", "coordinates": [-74.19, 41.16]},
                             [(hostile, None, {"type": "Point", "coordinates": [-74.19, 41.16]})], {})
    (label,) = _lot_styles(groups)
    assert label.endswith("<br>unknown") and label.startswith("Lot &lt;img")
    assert "<" not in label.replace("<br>", "") and "{" not in label


def test_the_csv_download_holds_the_lot_table_with_numbers_and_a_defused_label(tmp_path, sample_parcel, media):
    at = _open(sample_parcel)
    _with_district(at, "R-15")
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf", labels=("A", "=1+1")))
    rows = list(csv.DictReader(io.StringIO(fx.download(at, media, "plan_csv").decode("utf-8"))))
    assert [r["lot"] for r in rows] == ["A", "'=1+1"]
    assert [float(r["gross_sqft"]) for r in rows] == [15_000.0, 12_000.0]
    assert [r["conforms"] for r in rows] == ["yes", "no"] and rows[1]["shortfall_sqft"] == "3000.0"
    assert rows[0]["citation"] == "§ 402-45A"
    # A prohibition (§ 402-52) is never listed as a permit: it has a column of its own.
    assert all("excavation" not in (r["permits_required"] + r["permits_unknown"]).lower() for r in rows)
    assert all("excavation" in r["prohibited_if_included"].lower() for r in rows)


def test_a_cluster_plan_takes_its_yield_from_the_conforming_lots_of_the_conventional_plat(tmp_path, sample_parcel):
    at = _open(sample_parcel)
    at.radio(key="plan_kind_box").set_value("cluster")
    _with_district(at, "R-15")
    _upload(at, "cluster.dxf", two_lots_dxf(tmp_path / "cluster.dxf"))
    _upload(at, "conventional.dxf", two_lots_dxf(tmp_path / "conv.dxf"), key="plan_conv_upload")
    metrics = {m.label: m.value for m in at.metric}
    # the conventional plat has one conforming lot in R-15: two cluster lots are over the yield
    assert (metrics["Lots in the plan"], metrics["Lots permitted"], metrics["Yield check"]) == ("2", "1", "Over")
    # in R-15 the Planning Board sets a cluster lot's size with the layout (§ 402-48F): unknown here
    assert [(r["Minimum, sq ft"], r["Conforms"], r["§"]) for r in _table(at)] == [
        ("not known", "Unknown", "§ 402-48F")] * 2


@pytest.mark.parametrize("mode", state.MODES)
def test_every_mode_shows_the_table_and_the_counter_says_it_in_plain_words(tmp_path, sample_parcel, mode):
    at = _open(sample_parcel, mode=mode)
    _with_district(at, "R-15")
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf"))
    rows = _table(at)
    if mode == state.COUNTER:
        assert [r["Big enough?"] for r in rows] == ["Yes, big enough", "No, too small"]
        assert "2 lots drawn: 1 big enough, 1 too small." in _text(at)
    else:
        assert [r["Conforms"] for r in rows] == ["Yes", "No"]
    for link in at.get("page_link"):
        if link.proto.label.startswith("§") or ": §" in link.proto.label:
            assert link.proto.page.endswith("law")


def test_the_map_key_draws_each_rows_pattern_and_only_the_patterns_it_knows():
    from app_support.map import mapping

    key = mapping.legend_html([], [("Lot that does not conform", "#b2182b", "cross"),
                                   ("<b>x</b>", "#123456", 'dots" onmouseover="x')])
    assert 'class="sloat-swatch sloat-hatch-cross"' in key
    assert "onmouseover" not in key and "&lt;b&gt;x&lt;/b&gt;" in key
    assert key.count('class="sloat-swatch"') == 1  # an unknown pattern: a plain swatch


def test_the_case_keeps_the_plan_and_its_link_reopens_it(tmp_path, sample_parcel, data_dir):
    from streamlit.testing.v1 import AppTest

    from app_support.cases import cases_ui

    at = _open(sample_parcel)
    at.radio(key="plan_kind_box").set_value("cluster")
    _with_district(at, "R-15")
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf", lots=(LOT_A, box(pf.X0 + 90, pf.Y0, pf.X0 + 180,
                                                                                     pf.Y0 + 150))))
    before = _table(at)
    problems = [w.value for w in at.warning]
    case = at.session_state[cases_ui.CASE]
    saved = cases_ui.store().open_case(case.id)
    assert saved.plan["name"] == "plat.dxf" and saved.plan["kind"] == "cluster" and saved.plan["district"] == "R-15"
    assert [f["properties"]["lot"] for f in saved.plan["plan"]["features"]] == ["A", "B"]

    again = AppTest.from_file(fx.APP, default_timeout=60)
    again.query_params["case"] = case.id
    again.run()
    again.switch_page("pages/plan.py")
    _run(again)
    assert _table(again) == before and [w.value for w in again.warning] == problems  # the overlap, as before
    assert again.session_state[plan_inputs.KIND] == "cluster"
    assert not again.error


def test_a_case_file_whose_plan_is_not_a_plan_is_refused_in_one_sentence():
    import json

    from sloat_core.errors import SloatInputError
    from sloat_core.store import Case, case_from_json, case_to_json

    for plan, words in [({"kind": "grid"}, "kind"), ({"plan": {"type": "FeatureCollection", "features": []}}, "lots"),
                        ({"colour": "red"}, "colour")]:
        doc = json.loads(case_to_json(Case()))
        doc["case"]["plan"] = plan
        with pytest.raises(SloatInputError, match="The case's plan cannot be used") as err:
            case_from_json(json.dumps(doc))
        assert words in str(err.value)


def test_the_plan_page_offers_its_lot_table_as_a_pdf_and_a_web_page(tmp_path, sample_parcel, media):
    from app_support.views import plan_documents

    at = _open(sample_parcel)
    _with_district(at, "R-15")
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf", labels=("A", "<b>B</b>")))
    labels = {b.key: b.proto.label for b in at.get("download_button")}
    assert labels["plan_pdf"] == plan_documents.PDF_LABEL == "Download the plan's lot table (PDF)"
    assert labels["plan_html"] == plan_documents.HTML_LABEL
    assert fx.download(at, media, "plan_pdf").startswith(b"%PDF-")
    page = fx.download(at, media, "plan_html").decode("utf-8")
    assert '<th scope="row">A</th>' in page and '<th scope="row">&lt;b&gt;B&lt;/b&gt;</th>' in page
    assert "<td>yes</td>" in page and "<td>no</td>" in page  # A conforms, B falls 3,000 sq ft short


def test_the_cases_summary_prints_the_plans_lot_table_when_the_session_has_a_plan(tmp_path, sample_parcel, media):
    from sloat_core.outputs.plan_document import SECTION_HEADING

    at = _open(sample_parcel)
    at.switch_page("pages/case.py")
    _run(at)
    without = fx.download(at, media, "dl_html").decode("utf-8")
    assert SECTION_HEADING not in without
    at.switch_page("pages/plan.py")
    _run(at)
    _with_district(at, "R-15")
    _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf"))
    at.switch_page("pages/case.py")
    _run(at)
    summary = fx.download(at, media, "dl_html").decode("utf-8")
    assert f"<h2>{SECTION_HEADING}</h2>" in summary
    assert '<th scope="row">A</th>' in summary and '<th scope="row">B</th>' in summary


def test_the_plan_map_draws_the_parcel_pages_constraint_layers_under_the_lots(tmp_path, sample_parcel):
    from app_support.frame.theme import LAYER_LABELS
    from app_support.map import mapping
    from app_support.map.parcel_map import ON_AT_START

    fake = mock.MagicMock(return_value={})
    at = _open(sample_parcel)
    with fx.map_answers(fake):
        _upload(at, "plat.dxf", two_lots_dxf(tmp_path / "plat.dxf"))
    names = [g.layer_name for g in fake.call_args.kwargs["feature_group_to_add"]]
    layers = load_manifest(SAMPLE)
    shown = [LAYER_LABELS[r] for r in ON_AT_START if r in mapping.available_roles(layers) and r in LAYER_LABELS]
    assert {"Wetlands", "100-year floodplain (FEMA)", "Wetland and watercourse buffers"} <= set(shown)  # the sample's
    for name in shown:
        assert name in names, name
        assert names.index(name) < names.index("Lots of the plan")  # under the lots
    assert any("slope" in n.lower() for n in names)  # the slope classes, from the elevation model
    legend = next(h.value for h in at.html if 'class="sloat-legend"' in h.value)
    assert all(name.split(" (")[0] in legend for name in shown)  # the key names each layer, and the lots
    assert "Lot whose answer is unknown" in legend
    # the layers follow the Parcel page's choice
    at.session_state[state.LAYERS_SHOWN] = ["wetlands"]
    with fx.map_answers(fake):
        _run(at)
    names = [g.layer_name for g in fake.call_args.kwargs["feature_group_to_add"]]
    assert LAYER_LABELS["wetlands"] in names and not set(shown) - {LAYER_LABELS["wetlands"]} & set(names)


def test_the_page_and_the_walk_through_say_the_lot_table_in_the_documents_words():
    import plan_grid

    from app_support.views import plan_view, plan_walk
    from sloat_core.outputs.plan_document import LOT_COLUMNS, lot_rows

    found = check_plan(pf.PARCEL, plan_grid.grid_drawing(4), load_manifest(SAMPLE), district=plan_grid.DISTRICT)
    document = [dict(zip(LOT_COLUMNS, row, strict=True)) for row in lot_rows(found)]
    page = plan_view.lot_rows(found)
    walk = plan_walk.table_rows(found)
    for doc_row, page_row, walk_row in zip(document, page, walk, strict=True):
        assert (page_row["Net lot area, sq ft"], page_row["Minimum, sq ft"], page_row["Conforms"].lower(),
                page_row["Shortfall, sq ft"], page_row["Permits"]) == (
            doc_row["Net lot area (sq ft)"], doc_row["Minimum (sq ft)"], doc_row["Conforms"],
            doc_row["Shortfall (sq ft)"], doc_row["Permits needed (§)"])
        assert (walk_row["Net lot area, sq ft"], walk_row["Minimum, sq ft"], walk_row["Conforms"].lower(),
                walk_row["Shortfall, sq ft"]) == (doc_row["Net lot area (sq ft)"], doc_row["Minimum (sq ft)"],
                                                  doc_row["Conforms"], doc_row["Shortfall (sq ft)"])
