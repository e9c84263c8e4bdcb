"""The report's font and its words for values: plain text, shortened text, areas, numbers and dates.

The fonts are DejaVu Sans, shipped with matplotlib, which cover "§" and the dashes. Everything typed by a
user or read from a file goes through :func:`_plain` before it is written: plain text, no markup, and a
character the font lacks becomes "?".
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from pathlib import Path
from typing import Any

import matplotlib

#: DejaVu Sans from matplotlib's bundled fonts (covers §, en and em dashes).
FONT_DIR = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
_FONT = "DejaVu"

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


@functools.lru_cache(maxsize=1)
def _font_codepoints() -> frozenset[int]:
    from fontTools.ttLib import TTFont

    with TTFont(str(FONT_DIR / "DejaVuSans.ttf"), lazy=True) as f:
        return frozenset(f.getBestCmap())


def _plain(text: Any) -> str:
    """Any value as printable plain text in the report font (unknown characters become '?')."""
    if text is None:
        return ""
    s = _CONTROL_RE.sub("", str(text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " "))
    cps = _font_codepoints()
    return "".join(ch if ch == "\n" or ord(ch) in cps else "?" for ch in s)


def _shorten(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    for mark in (". ", "; ", ", "):
        i = cut.rfind(mark)
        if i > limit * 0.6:
            return cut[: i + 1].rstrip(",;") + " …"
    return cut.rsplit(" ", 1)[0] + " …"


def _sqft(x: float | None) -> str:
    return "unknown" if x is None else f"{x:,.0f} sq ft"


def _num(x: float | None) -> str:
    return "unknown" if x is None else f"{x:,.0f}"


def _acres(x: float | None) -> str:
    return "" if x is None else f" ({x / 43_560:,.2f} acres)"


def _date_text(d: dt.date) -> str:
    return f"{d:%B} {d.day}, {d.year}"
