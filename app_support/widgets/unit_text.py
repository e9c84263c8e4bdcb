"""Keep a number and its unit on one line: the one place the app does it."""

from __future__ import annotations

import re

__all__ = ["nb"]


def nb(text: str) -> str:
    """Keep a number and its unit on one line ("12,345\u00a0sq\u00a0ft"): the one place the app does it.

    >>> nb("about 5,246 sq ft and 100 ft") == "about 5,246\u00a0sq\u00a0ft and 100\u00a0ft"
    True
    """
    return _UNIT.sub(lambda m: f"{m.group(1)}\u00a0{m.group(2).replace(' ', chr(0xa0))}", text)


_UNIT = re.compile(r"(\d)\s(sq ft|acres?|ft)\b")
