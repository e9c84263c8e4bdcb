"""Tests and code say what they claim, not which ticket asked for it.

No Python file of the product (``sloat_core``, ``app_support``, ``pages``, ``app.py``, ``tools``, ``bench``) or of the
tests names the tracker: the word "issue" (or "issues") followed by a number, as in a ticket reference. A comment or
docstring states the behaviour it guards; the history of why lives in git and in the dated notes under ``docs``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Where the product's and the tests' Python lives.
PLACES = ("sloat_core", "app_support", "pages", "tools", "bench", "tests")

#: The word "issue" or "issues", then an optional space and "#", then a digit.
TRACKER = re.compile(r"\b[Ii]ssues? ?#?\d")


def python_files() -> list[Path]:
    files = [ROOT / "app.py"]
    for place in PLACES:
        files.extend(sorted((ROOT / place).rglob("*.py")))
    return [f for f in files if f.is_file() and ".venv" not in f.parts]


def tracker_lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if TRACKER.search(line)]


def test_the_pattern_finds_a_ticket_reference_and_nothing_else():
    assert tracker_lines("x = 1  # see " + "issue" + " 7")
    assert tracker_lines('"""' + "Issues" + ' 12-15: the map."""')
    assert tracker_lines("# " + "issue" + "#3")
    assert not tracker_lines("# an issue with the map, 3 layers")
    assert not tracker_lines("tissue 3")


def test_no_python_file_names_the_tracker():
    found = []
    for path in python_files():
        for n, line in tracker_lines(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{n}: {line}")
    assert not found, "say what is claimed, not which ticket asked:\n" + "\n".join(found)
