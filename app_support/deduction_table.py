"""The deduction table as data: one row per deduction, its colour key and its citation column's styles.

Pure builders over the plain dict of the CLI JSON contract (pandas and CSS constants, no Streamlit, no
law computed): :func:`deduction_frame` (Standard's six columns, or Counter's three in everyday words),
:func:`deduction_colours` (each row's map-legend colour) and :func:`citation_nowrap_styles`. The table
is drawn, with its notes, by :func:`app_support.results.show_deductions`.
"""

from __future__ import annotations

import pandas as pd

from app_support.theme import colour_for
from sloat_core.engine import plain

__all__ = [
    "IN_ROW",
    "SWATCH",
    "CITATION",
    "CITATION_CELL_CSS",
    "CELL_PADDING_CSS",
    "is_present",
    "deduction_frame",
    "citation_nowrap_styles",
    "deduction_colours",
]


def _sqft_cell(value: float | None) -> str:
    return "unknown" if value is None else f"{value:,.0f}"


#: The area column of the deduction table: the land given to this row (each piece of land in one row only).
IN_ROW = "Counted in this row, sq ft"
SWATCH = "Map"  # the colour-key column of the deduction table (same colour as the map legend)
CITATION = "§"  # the citation column of the deduction table (Standard and Projector)
#: Style of the citation cells: a citation is read as one token and never broken across lines.
CITATION_CELL_CSS = [("white-space", "nowrap")]
#: Side padding of the six-column table's cells (Streamlit's is 6-8 px): room for the citations.
CELL_PADDING_CSS = [("padding-left", "0.25em"), ("padding-right", "0.25em")]


def is_present(d: dict) -> bool:
    """A deduction that is on the parcel (some area) or could not be measured."""
    area = d.get("area_sqft")
    return area is None or area >= 0.5


def deduction_frame(result: dict, *, plain_words: bool = False, present_only: bool = False) -> pd.DataFrame:
    """The deduction table: colour key, constraint, area, counted share, deducted, § (areas as text).

    Parameters
    ----------
    result : dict
        The analysis result.
    plain_words : bool
        Counter mode: everyday headings, three columns (what, how much, how much counts).
    present_only : bool
        Leave out the constraints with no area on the parcel (counter and projector).

    Returns
    -------
    pandas.DataFrame
        One row per deduction, in the result's order; the ``Map`` column is blank and takes the
        legend colour of its row when styled (:func:`deduction_colours`).
    """
    rows = [d for d in result.get("deductions") or [] if is_present(d) or not present_only]
    if plain_words:
        terms = plain.PLAIN_TERMS
        columns = [SWATCH, terms["constraint"], terms["area"], terms["counted_share"]]
        data = [{
            SWATCH: "",
            terms["constraint"]: plain.plain_constraint(d.get("constraint") or "", d.get("label")).capitalize(),
            terms["area"]: _sqft_cell(d.get("area_sqft")),
            terms["counted_share"]: plain.plain_share(d.get("countable_fraction")).capitalize(),
        } for d in rows]
        return pd.DataFrame(data, columns=columns)
    data = [{
        SWATCH: "",
        "Constraint": d.get("label") or d.get("constraint"),
        IN_ROW: _sqft_cell(d.get("area_sqft")),
        "Counts": f"{(d.get('countable_fraction') or 0.0) * 100:.0f}%",
        "Deducted, sq ft": _sqft_cell(d.get("deducted_sqft")),
        CITATION: d.get("citation") or "",
    } for d in rows]
    return pd.DataFrame(data, columns=[SWATCH, "Constraint", IN_ROW, "Counts", "Deducted, sq ft", CITATION])


def citation_nowrap_styles(frame: pd.DataFrame) -> list[dict]:
    """Styler table styles that keep every cell of the citation column on one line.

    A citation is never broken inside ("§ 402-" / "45A(2)(b)"): its cells do not wrap and the
    other columns (the constraint labels) wrap instead. This is CSS rather than U+2011 / U+00A0 in
    the text, so a copy of the cell gives the plain citation. Streamlit puts each cell's text in a
    markdown block that sets ``white-space: normal`` itself, so the rule is given to the cell and to
    everything inside it. The selectors and declarations are constants and a column number: no text
    from the result goes into the CSS. The cells' side padding is narrowed so that the six columns,
    with a whole citation, fit the results column beside the map of a 1500 px window.

    Parameters
    ----------
    frame : pandas.DataFrame
        A :func:`deduction_frame`.

    Returns
    -------
    list of dict
        ``Styler.set_table_styles`` entries (empty when the frame has no citation column).
    """
    if CITATION not in frame.columns:
        return []
    col = int(frame.columns.get_loc(CITATION))
    return [{"selector": "th, td", "props": list(CELL_PADDING_CSS)},
            {"selector": f"td.col{col}", "props": list(CITATION_CELL_CSS)},
            {"selector": f"td.col{col} *", "props": list(CITATION_CELL_CSS)}]


def deduction_colours(result: dict, *, present_only: bool = False) -> list[str]:
    """The legend colour of each row of :func:`deduction_frame` (same order and filter)."""
    return [colour_for(d.get("constraint") or "") for d in result.get("deductions") or []
            if is_present(d) or not present_only]
