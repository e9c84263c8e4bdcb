"""One reconciled set of numbers: the same quantity never shows two values.

A deduction row counts each piece of land once (floodplain inside a wetland is counted as wetland),
while the permit reasons and the cluster evidence measure a layer on the lot as a whole. Both are right,
so every figure says which it is: "on the lot" or "counted in this row". These tests analyse a parcel of
the illustrative sample layer set whose floodplain row is smaller than the floodplain on the lot
(watercourse land inside the floodplain is counted in the streams row), collect every area figure the
Parcel, Cluster and Proposed project pages render together with what it measures, and check that one
label never carries two numbers.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import html_tables  # noqa: E402

from app_support.frame import state  # noqa: E402
from app_support.views import deduction_table  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.gis.parcels import parcel_by_sbl  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample" / "layers.yaml"
#: A sample parcel in the FEMA floodplain with a stream across it: 25,217 sq ft of floodplain on the lot,
#: about 24,116 counted in the floodplain row (the stream's land is counted in the streams row).
SBL = "155.06-3-2"
PAGES = ("pages/parcel.py", "pages/cluster.py", "pages/project.py")

ON_LOT, IN_ROW = "on the lot", "counted in this row"
_NUMBER = r"(\d[\d,]*)"  # the unit after it may be joined by non-breaking spaces (unit_text.nb): \s takes both
# "<row label>: 25,217 sq ft on the lot, 24,116 counted in this row" (under the deduction table)
_RECONCILED = re.compile(r"([^;:.]+): " + _NUMBER + r"\ssq\sft on the lot, " + _NUMBER + " counted in this row")
# "25,217 sq ft of the lot is in the FEMA Special Flood Hazard Area" (the flood hazard review's reason)
_FLOOD_REASON = re.compile(_NUMBER + r"\ssq\sft of the lot is in the FEMA Special Flood Hazard Area")
# "...: 25,217 sq ft on the lot (100.0% of the parcel)" (a cluster trigger's evidence)
_ON_LOT = re.compile(_NUMBER + r"\ssq\sft on the lot\b")
# "- **100-year floodplain**: <evidence or reason>" (the Parcel page's short lists)
_ITEM = re.compile(r"^- \*\*([^*]+)\*\*: (.*)$", re.MULTILINE)


def quantity(label: str) -> str | None:
    """The layer a row label or trigger title is about (None: not one these tests follow)."""
    words = label.lower()
    if "buffer" in words:
        return "wetland and watercourse buffer"
    for key, name in (("flood", "floodplain"), ("wetland", "wetland"), ("stream", "streams")):
        if key in words:
            return name
    return None


def _value(text: str) -> int:
    return int(text.replace(",", ""))


def figures(page: str, texts: list[str], frames: list[pd.DataFrame]) -> list[tuple[str, int, str]]:
    """Every (quantity and what it measures, value, where) found in one page's texts and tables."""
    found: list[tuple[str, int, str]] = []

    def add(what: str | None, measure: str, value: str, where: str) -> None:
        if what is not None:
            found.append((f"{what} {measure}", _value(value), f"{page}: {where}"))

    for text in texts:
        for label, lot, row in _RECONCILED.findall(text):
            add(quantity(label), ON_LOT, lot, "note under the deduction table")
            add(quantity(label), IN_ROW, row, "note under the deduction table")
        for value in _FLOOD_REASON.findall(text):
            add("floodplain", ON_LOT, value, "flood hazard review")
        for title, detail in _ITEM.findall(text):
            for value in _ON_LOT.findall(detail):
                add(quantity(title), ON_LOT, value, f"list item {title}")
    for frame in frames:
        if deduction_table.IN_ROW in frame.columns and "Constraint" in frame.columns:
            for label, value in zip(frame["Constraint"], frame[deduction_table.IN_ROW]):
                if re.fullmatch(_NUMBER, str(value)):
                    add(quantity(str(label)), IN_ROW, str(value), "deduction table")
        if "Feature" in frame.columns and "Evidence" in frame.columns:
            for title, evidence in zip(frame["Feature"], frame["Evidence"]):
                for value in _ON_LOT.findall(str(evidence)):
                    add(quantity(str(title)), ON_LOT, value, f"cluster table {title}")
    return found


def _page_contents(at: AppTest) -> tuple[list[str], list[pd.DataFrame]]:
    kinds = ("markdown", "caption", "success", "info", "warning", "error")
    texts = [str(e.value) for kind in kinds for e in at.get(kind) if html_tables.MARKER not in str(e.value)]
    texts += [str(e.proto.label) for e in at.get("expandable")]
    frames = [t.value for t in html_tables.deduction_tables(at)]  # the deduction table's HTML, as sent
    frames += [e.value for e in at.get("table")] + [e.value for e in at.get("arrow_data_frame")]
    frames += [e.value for e in at.dataframe]
    return texts, [f.data if hasattr(f, "data") else f for f in frames]


def collect(monkeypatch) -> list[tuple[str, int, str]]:
    """Analyse the sample parcel in Standard mode and collect the figures of the three pages."""
    monkeypatch.delenv("SLOAT_LAYERS", raising=False)
    at = AppTest.from_file(APP, default_timeout=90)
    at.session_state[state.PARCEL] = parcel_by_sbl(load_manifest(SAMPLE), SBL)
    found: list[tuple[str, int, str]] = []
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, at.exception
        found += figures(page, *_page_contents(at))
    return found


def conflicts(found: list[tuple[str, int, str]]) -> dict[str, dict[int, list[str]]]:
    """The labels that carry more than one value, with where each value appears."""
    by_label: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for label, value, where in found:
        by_label[label][value].append(where)
    return {label: dict(values) for label, values in by_label.items() if len(values) > 1}


def test_the_same_quantity_never_shows_two_values(monkeypatch):
    found = collect(monkeypatch)
    assert conflicts(found) == {}
    values = {label: value for label, value, _where in found}
    # The parcel shows both measures of its floodplain, on every page that speaks of it, and they differ:
    # the test reads pages where the two figures really are different numbers.
    assert values["floodplain on the lot"] == pytest.approx(25_217, abs=2)
    assert values["floodplain counted in this row"] == pytest.approx(24_116, abs=2)
    pages = {where.split(":")[0] for label, _v, where in found if label == "floodplain on the lot"}
    assert pages == set(PAGES), pages  # the deduction note, the trigger evidence and the flood review


def test_a_whole_layer_area_under_the_rows_label_is_caught(monkeypatch):
    """The check can fail: a deduction table that printed each layer's whole area on the lot in its
    "counted in this row" column gives the floodplain row two values, and the check names both."""
    honest = deduction_table.deduction_rows

    def whole_layer_in_the_row(result, **kw) -> list[dict]:
        rows = honest(result, **kw)
        for row, d in zip(rows, result.deductions):  # Standard: every row, in order
            if deduction_table.IN_ROW in row:
                row[deduction_table.IN_ROW] = deduction_table._sqft_cell(d.total_area_sqft)
        return rows

    monkeypatch.setattr(deduction_table, "deduction_rows", whole_layer_in_the_row)
    wrong = conflicts(collect(monkeypatch))
    assert "floodplain counted in this row" in wrong
    two = sorted(wrong["floodplain counted in this row"])
    assert two[0] == pytest.approx(24_116, abs=2) and two[-1] == pytest.approx(25_217, abs=2), two
