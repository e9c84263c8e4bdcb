"""Write the "Not modelled" list of docs/law-and-readings.md from data/law/not_modelled.yaml (the one place it is
declared).

    python tools/readme_not_modelled.py          # rewrites the block between the not-modelled markers
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sloat_core.law.not_modelled import not_modelled_markdown  # noqa: E402

START, END = "<!-- not-modelled:start -->", "<!-- not-modelled:end -->"


def main() -> int:
    doc = ROOT / "docs" / "law-and-readings.md"
    text = doc.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    doc.write_text(f"{head}{START}\n{not_modelled_markdown()}\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
