"""Read the deduction table that the app sent, as the browser gets it: the HTML of its ``st.html`` element.

The page draws the table as one ``st.html`` element holding ``<div class="sloat-dtable"><table>``
(app_support.views.deduction_table.deduction_html). These helpers parse that HTML with the standard library's
parser (no app code), so a test reads the cells, headings and colour keys the visitor is sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pandas as pd

MARKER = 'class="sloat-dtable"'


@dataclass
class Table:
    caption: str = ""
    columns: list[str] = field(default_factory=list)
    header_scopes: list[str | None] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    row_cells: list[list[tuple[str, dict]]] = field(default_factory=list)  # (tag, attributes) of each cell

    @property
    def value(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows, columns=self.columns)

    def key_colour(self, row: int) -> str | None:
        """The colour-key cell's background colour of ``row`` (from its style attribute)."""
        style = self.row_cells[row][0][1].get("style") or ""
        found = re.search(r"background-color:\s*(#[0-9a-fA-F]{6})", style)
        return found.group(1).lower() if found else None


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self._in: str | None = None  # "caption", "th" or "td"
        self._section: str | None = None
        self._text: list[str] = []
        self._attrs: dict = {}

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append(Table())
        elif tag in ("thead", "tbody"):
            self._section = tag
        elif tag == "tr" and self._section == "tbody":
            self.tables[-1].rows.append([])
            self.tables[-1].row_cells.append([])
        elif tag in ("caption", "th", "td"):
            self._in, self._text, self._attrs = tag, [], dict(attrs)

    def handle_data(self, data):
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag != self._in:
            return
        text = " ".join("".join(self._text).split())
        table = self.tables[-1]
        if tag == "caption":
            table.caption = text
        elif self._section == "thead":
            table.columns.append(text)
            table.header_scopes.append(self._attrs.get("scope"))
        else:
            table.rows[-1].append(text)
            table.row_cells[-1].append((tag, self._attrs))
        self._in = None


def parse(html: str) -> list[Table]:
    parser = _Parser()
    parser.feed(html)
    return parser.tables


def deduction_tables(at) -> list[Table]:
    """Every deduction table on an AppTest page, in page order."""
    return [t for h in at.html if MARKER in h.value for t in parse(h.value)]
