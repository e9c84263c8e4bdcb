"""Nothing from a file or a user is rendered as HTML or script: map tooltips, the PDF report, and
 the summary and the handout as web pages, and the handout's print page.

Map: folium's ``GeoJsonTooltip`` builds its table with ``innerHTML`` from the feature's properties, so the
text a browser receives must already be escaped. The app sends one property per feature, ``label``, built
by ``app_support.map.layer_geojson.display_geojson`` with ``html.escape``; ``app_support.map.mapping.layer_group`` puts
it in the tooltip. The tests load a layer whose feature names are markup and read the GeoJSON back out of
the rendered map page exactly as the browser's script would see it (JSON-decoded).

PDF: the report writes everything as plain text; the hostile SBL, address and notes must come back from
the extracted text literally, with no link or script action created.
"""

from __future__ import annotations

import html
import io
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
sys.path.insert(0, str(HOSTILE))
import make_hostile as mh  # noqa: E402

from app_support.frame.theme import LAYER_LABELS  # noqa: E402
from app_support.map import layer_geojson, mapping  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
NAMES = [SCRIPT, IMG, 'Marsh " onmouseover="alert(1)', "Pond & <b>bold</b>", mh.HOSTILE_TEXTS["rtl"]]


@pytest.fixture(scope="module")
def hostile_layers(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile_layers")
    return load_manifest(mh.write_manifest(folder, names=NAMES))


def _rendered_features(fmap) -> tuple[str, list[dict]]:
    """The map page's HTML, and every feature of the GeoJSON data it hands to Leaflet (JSON-decoded)."""
    page = fmap.get_root().render()
    features = []
    for match in re.finditer(r"_add\((\{.*?\})\);\n", page, flags=re.S):
        features.extend(json.loads(match.group(1)).get("features", []))
    return page, features


@pytest.mark.parametrize("role", ["wetlands", "historic"])
def test_map_tooltips_carry_escaped_text_only(hostile_layers, role):
    geojson = layer_geojson.display_geojson(hostile_layers, role)
    fmap = mapping.base_map()
    mapping.layer_group(role, geojson).add_to(fmap)
    page, features = _rendered_features(fmap)
    assert len(features) == len(NAMES)
    labels = [f["properties"]["label"] for f in features]
    for label in labels:  # what innerHTML receives: no tag can start, no attribute can be closed
        assert "<" not in label and ">" not in label and '"' not in label, label
    title = LAYER_LABELS[role]
    assert sorted(html.unescape(label) for label in labels) == sorted(f"{title}: {n}" for n in NAMES)
    assert f"{title}: &lt;script&gt;alert(1)&lt;/script&gt;" in labels
    assert f"{title}: &lt;img src=x onerror=alert(1)&gt;" in labels
    # and nowhere in the page source does a raw tag from the file appear
    assert SCRIPT not in page and IMG not in page and "<b>bold</b>" not in page
    # only the identify pop-up's escaped texts go to the browser: label, details (the attributes), row, §
    assert all(set(f["properties"]) == {"label", "details", "row", "citation"} for f in features)
    for f in features:
        for value in f["properties"].values():
            assert "<" not in value and ">" not in value and '"' not in value, value


def test_the_check_would_catch_an_unescaped_label():
    """Control: a layer group fed raw text hands a tag to innerHTML, and the assertion above would fail."""
    raw = {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"label": SCRIPT},
                                                      "geometry": {"type": "Point", "coordinates": [-74.19, 41.15]}}]}
    fmap = mapping.base_map()
    mapping.layer_group("wetlands", raw).add_to(fmap)
    _page, features = _rendered_features(fmap)
    assert features[0]["properties"]["label"] == SCRIPT  # decoded, this is what the tooltip would inject


def test_parcel_outline_on_the_map_carries_no_properties():
    fmap = mapping.base_map()
    outline = {"type": "Polygon", "coordinates": [mh.rect_ring_lonlat()]}
    mapping.parcel_group(outline).add_to(fmap)
    page, features = _rendered_features(fmap)
    assert SCRIPT not in page
    for f in features:
        assert not f.get("properties")


# ------------------------------------------------------------------------------------------------
# PDF report
# ------------------------------------------------------------------------------------------------

HOSTILE_NOTES = (
    "Notes: <script>alert(1)</script> **not bold** [click](javascript:alert(1)) "
    "<a href='javascript:alert(1)'>x</a> & done"
)


def test_pdf_report_shows_hostile_sbl_address_and_notes_literally(hostile_layers, tmp_path):
    report = pytest.importorskip("sloat_core.outputs.report")
    from pypdf import PdfReader

    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis.parcels import Parcel
    from shapely.geometry import Polygon

    parcel = Parcel(geometry=Polygon(mh.rect_ring_2260()), source="uploaded file <b>x</b>.geojson (GeoJSON)",
                    sbl="<script>alert(1)</script>", address="<b>1 Main St</b> & <i>Co</i>", district="R-40")
    analysis = analyze_parcel(parcel, hostile_layers)
    data = report.report_pdf_bytes(analysis, hostile_layers, notes=HOSTILE_NOTES)
    assert data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    flat = " ".join(text.split())
    assert "<script>alert(1)</script>" in flat
    assert "<b>1 Main St</b> & <i>Co</i>" in flat
    assert "**not bold**" in flat and "[click](javascript:alert(1))" in flat
    # no action or link was made from the text
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A") or {}
            assert "javascript" not in str(action.get("/URI", "")).lower()
    assert b"/JavaScript" not in data and b"/JS " not in data


# The summary and the handout as web pages (written with sloat_core.outputs.html_docs) escape every text they
# carry: the parcel's SBL, address and source, the layers' feature names, the case's title and its notes.

#: The only elements the documents write themselves (no script, no link, no form, no frame).
HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "h3", "p", "strong", "span",
             "br", "table", "caption", "thead", "tbody", "tr", "th", "td", "ul", "ol", "li", "figure", "figcaption",
             "img", "blockquote"}


def _parse(page: str):
    """Every start tag with its attributes, and the text, as a browser's parser reads the page."""
    from html.parser import HTMLParser

    class Reader(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.tags, self.text = [], []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))

        def handle_startendtag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))

        def handle_data(self, data):
            self.text.append(data)

    reader = Reader()
    reader.feed(page)
    reader.close()
    return reader.tags, " ".join(" ".join(reader.text).split())


def _assert_inert(page: str) -> str:
    tags, text = _parse(page)
    names = {t for t, _ in tags}
    assert names <= HTML_TAGS, names - HTML_TAGS
    for tag, attrs in tags:
        assert not any(k.lower().startswith("on") for k in attrs), (tag, attrs)
        for k in ("src", "href"):
            value = (attrs.get(k) or "").strip().lower()
            assert not value or value.startswith("data:image/png;base64,"), (tag, k, value[:40])
        style = attrs.get("style")  # the handout's map key: each swatch an inlined PNG, nothing else
        assert style is None or re.fullmatch(r"background-image: url\(data:image/png;base64,[A-Za-z0-9+/=]+\)",
                                             style), (tag, style[:60])
    return text


@pytest.fixture(scope="module")
def hostile_analysis(hostile_layers):
    from shapely.geometry import Polygon

    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.gis.parcels import Parcel

    parcel = Parcel(geometry=Polygon(mh.rect_ring_2260()), source=f"uploaded file {IMG}.geojson (GeoJSON)",
                    sbl=SCRIPT, address="<b>1 Main St</b> & <i>Co</i>", district="R-40")
    return analyze_parcel(parcel, hostile_layers)


def test_the_summary_web_page_shows_hostile_text_literally_and_runs_nothing(hostile_layers, hostile_analysis):
    from sloat_core.outputs.report import summary_html

    page = summary_html(hostile_analysis, hostile_layers, notes=HOSTILE_NOTES, title=IMG + ' " onload="x')
    text = _assert_inert(page)
    assert SCRIPT in text and "<b>1 Main St</b> & <i>Co</i>" in text and IMG in text
    assert "**not bold**" in text and "[click](javascript:alert(1))" in text
    assert "<a href='javascript:alert(1)'>x</a>" in text
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "<img" not in title and "&lt;img" in title and "&quot;" in title


def test_the_handout_web_page_shows_hostile_text_literally_and_runs_nothing(hostile_layers, hostile_analysis):
    from sloat_core.outputs.handout import handout_html

    text = _assert_inert(handout_html(hostile_analysis, hostile_layers))
    assert SCRIPT in text and "<b>1 Main St</b> & <i>Co</i>" in text


def test_the_print_page_holds_the_document_escaped_in_its_frame(hostile_layers, hostile_analysis):
    from sloat_core.outputs.handout import handout_html
    from sloat_core.outputs.html_docs import print_page

    document = handout_html(hostile_analysis, hostile_layers)
    tags, _ = _parse(print_page(document))
    frames = [a for t, a in tags if t == "iframe"]
    assert [t for t, _ in tags] == ["iframe", "script"]  # its own print script, nothing from the document
    assert frames[0]["srcdoc"] == document  # the browser reads back the document exactly
    _assert_inert(frames[0]["srcdoc"])


def test_the_html_check_would_catch_markup_let_through():
    with pytest.raises(AssertionError):
        _assert_inert(f"<p>{IMG}</p>")
    with pytest.raises(AssertionError):
        _assert_inert(f"<p>{SCRIPT}</p>")
