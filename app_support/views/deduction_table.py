"""The deduction table: one row per deduction, its colour key, and the accessible HTML table drawn beside the map.

Pure builders over the typed result (:class:`sloat_core.engine.result.ParcelResult`: its ``deductions``, read by
attribute; no Streamlit, no law computed):
:func:`deduction_rows` (Standard's six columns, or Counter's three in everyday words, areas as text),
:func:`deduction_frame` (the same rows as a pandas frame), :func:`deduction_colours` (each row's
map-legend colour) and :func:`deduction_html` (the table as one HTML element: a caption, column and
row headers with their ``scope``, the colour key, the citations kept on one line). The table is drawn,
with its notes, by :func:`app_support.views.results.show_deductions`.
"""

from __future__ import annotations

from html import escape

from app_support.frame.theme import colour_for
from sloat_core.engine import plain

__all__ = [
    "IN_ROW",
    "SWATCH",
    "CITATION",
    "TABLE_CLASS",
    "is_present",
    "deduction_columns",
    "deduction_rows",
    "deduction_frame",
    "deduction_colours",
    "deduction_html",
]


def _sqft_cell(value: float | None, at_least: float | None = None) -> str:
    """An area as table text: "unknown" where not measured, with what is known of it where a layer maps the lot
    in part ("unknown, at least 10,000": the land the layer maps holds that much).

    >>> _sqft_cell(1234.4), _sqft_cell(None), _sqft_cell(None, 10_000.0)
    ('1,234', 'unknown', 'unknown, at least 10,000')
    """
    if value is None:
        return "unknown" if at_least is None else f"unknown, at least {at_least:,.0f}"
    return f"{value:,.0f}"


#: The area column of the deduction table: the land given to this row (each piece of land in one row only).
IN_ROW = "Counted in this row, sq ft"
SWATCH = "Map"  # the colour-key column of the deduction table (same colour as the map legend)
CITATION = "§"  # the citation column of the deduction table (Standard and Projector)
#: The class of the table's box (a page element of its own: the browser tests and the stylesheet find it by it).
TABLE_CLASS = "sloat-dtable"
_COLUMNS = [SWATCH, "Constraint", IN_ROW, "Counts", "Deducted, sq ft", CITATION]


def is_present(d) -> bool:
    """A deduction (a :class:`sloat_core.engine.result.Deduction`) that is on the parcel (some area) or could not
    be measured."""
    area = d.area_sqft
    return area is None or area >= 0.5


def deduction_columns(*, plain_words: bool = False) -> list[str]:
    """The table's column headings: Standard's six, or Counter's four in everyday words (the key first)."""
    if plain_words:
        terms = plain.PLAIN_TERMS
        return [SWATCH, terms["constraint"], terms["area"], terms["counted_share"]]
    return list(_COLUMNS)


def deduction_rows(result, *, plain_words: bool = False, present_only: bool = False) -> list[dict]:
    """The deduction table's rows: colour key (blank), constraint, area, counted share, deducted, §.

    Parameters
    ----------
    result : ParcelResult
        The analysis result (its ``deductions``).
    plain_words : bool
        Counter mode: everyday headings, three columns (what, how much, how much counts).
    present_only : bool
        Leave out the constraints with no area on the parcel (counter and projector).

    Returns
    -------
    list of dict
        One dict per deduction, in the result's order, keyed by :func:`deduction_columns`; every value
        is text (areas with thousands separators, "unknown" where not measured, "unknown, at least ..." where
        a layer maps the lot in part: the land it maps holds that much).
    """
    rows = [d for d in result.deductions if is_present(d) or not present_only]
    if plain_words:
        terms = plain.PLAIN_TERMS
        return [{
            SWATCH: "",
            terms["constraint"]: plain.plain_constraint(d.constraint or "", d.label).capitalize(),
            terms["area"]: _sqft_cell(d.area_sqft, d.known_area_sqft),
            terms["counted_share"]: plain.plain_share(d.countable_fraction).capitalize(),
        } for d in rows]
    return [{
        SWATCH: "",
        "Constraint": d.label or d.constraint,
        IN_ROW: _sqft_cell(d.area_sqft, d.known_area_sqft),
        "Counts": f"{(d.countable_fraction or 0.0) * 100:.0f}%",
        "Deducted, sq ft": _sqft_cell(d.deducted_sqft, d.known_deducted_sqft),
        CITATION: d.citation or "",
    } for d in rows]


def deduction_frame(result, *, plain_words: bool = False, present_only: bool = False):
    """:func:`deduction_rows` as a pandas DataFrame (same columns, same order)."""
    import pandas as pd

    return pd.DataFrame(deduction_rows(result, plain_words=plain_words, present_only=present_only),
                        columns=deduction_columns(plain_words=plain_words))


def deduction_colours(result, *, present_only: bool = False) -> list[str]:
    """The legend colour of each row of :func:`deduction_rows` (same order and filter)."""
    return [colour_for(d.constraint or "") for d in result.deductions
            if is_present(d) or not present_only]


#: The look of Streamlit's own table (``st.table``: its border, rule and heading colours, its padding), for the
#: table's class only. Cell sizes are the mode's (``{font}``); the citation column never wraps. Constants only:
#: no text from the result goes into the CSS.
_CSS = (".{c}{{font-size:{font};line-height:{lh};border:1px solid #e8e5e2;border-radius:0.5rem;overflow:auto;"
        "max-width:100%;margin:0;position:relative;overscroll-behavior-x:contain;}}"
        ".{c} table{{border-spacing:0;border-collapse:separate;border:none;min-width:100%;margin:0;"
        "color:{text};font-size:inherit;display:table;}}"
        ".{c} th,.{c} td{{border:none;border-bottom:1px solid #e8e5e2;border-right:1px solid #e8e5e2;"
        "vertical-align:middle;padding:{pad};font-weight:400;text-align:left;font-size:inherit;"
        "line-height:inherit;background:transparent;color:{text};}}"
        ".{c} thead th{{color:{head};padding:{headpad};}}"
        ".{c} tr > :last-child{{border-right:none;}}"
        ".{c} tbody tr:last-child > *{{border-bottom:none;}}"
        ".{c} td.sloat-dkey{{border:1px solid #333;width:1.4em;min-width:1.6em;}}"
        ".{c} .sloat-dcite{{white-space:nowrap;}}"
        ".{c} caption{{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
        "clip:rect(0,0,0,0);white-space:nowrap;border:0;}}")
#: Type size, text colours and cell padding of each look (Standard's, Counter's 20 px, the projector's 24 px).
_LOOKS = {
    "standard": {"font": "0.875rem", "lh": "1.5", "text": "#2f2d2b", "head": "rgba(47,45,43,0.7)",
                 "pad": "0.25rem 0.25em", "headpad": "0.25rem 0.25em"},
    "counter": {"font": "20px", "lh": "1.5", "text": "#2f2d2b", "head": "rgba(47,45,43,0.7)",
                "pad": "0.25rem 0.375rem", "headpad": "0.25rem 0.375rem 0.25rem 0.5rem"},
    "projector": {"font": "24px", "lh": "1.45", "text": "#000000", "head": "#000000",
                  "pad": "0.25rem 0.5rem", "headpad": "0.25rem 0.5rem"},
}
_STYLE = {look: "<style>" + _CSS.format(c=TABLE_CLASS, **v) + "</style>" for look, v in _LOOKS.items()}


def _cell(text: object) -> str:
    """Cell text as HTML text: escaped, on one line (a blank line would end the HTML block in markdown)."""
    return escape(" ".join(str(text).split()), quote=True)


def deduction_html(result, *, plain_words: bool = False, present_only: bool = False,
                   look: str = "standard", caption: str | None = None) -> str:
    """The deduction table as one accessible HTML table (for ``st.html``).

    A caption names the table (read by screen readers, not shown: the page's heading above says it);
    the column headings are ``<th scope="col">``, each row's constraint a ``<th scope="row">``; the first
    cell of a row is its map-legend colour, the § cells never break. Every text from the result is
    escaped; the style block is a constant of ``look``.

    Parameters
    ----------
    result : ParcelResult
        The analysis result (its ``deductions``).
    plain_words, present_only : bool
        As :func:`deduction_rows`.
    look : str
        "standard", "counter" or "projector" (type size and colours).
    caption : str, optional
        The caption (a default that says what the rows are).

    Returns
    -------
    str
        ``<style>`` and ``<div class="sloat-dtable"><table>...</table></div>`` on one line.
    """
    columns = deduction_columns(plain_words=plain_words)
    rows = deduction_rows(result, plain_words=plain_words, present_only=present_only)
    colours = deduction_colours(result, present_only=present_only)
    if caption is None:
        caption = ("What is left out of the land that counts toward your lot" if plain_words
                   else "Lot-area deductions: each constraint, the land counted in its row, the share that "
                        "counts, the area deducted and its section")
    head = "".join(f'<th scope="col">{_cell(c)}</th>' for c in columns)
    body = []
    for row, colour in zip(rows, colours):
        cells = [f'<td class="sloat-dkey" style="background-color:{escape(colour, quote=True)}"></td>',
                 f'<th scope="row">{_cell(row[columns[1]])}</th>']
        for c in columns[2:]:
            cite = ' class="sloat-dcite"' if c == CITATION else ""
            cells.append(f"<td{cite}>{_cell(row[c])}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (_STYLE.get(look, _STYLE["standard"]) + f'<div class="{TABLE_CLASS}"><table><caption>{_cell(caption)}'
            f"</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")
