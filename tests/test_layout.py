"""The core's rooms and their doors: which part of sloat_core may import which.

``gis`` (geometry and files) knows no rule; ``rules`` knows no store, output or screen; nothing in the
core imports streamlit (the CLI and the app are two faces of the same core).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "sloat_core"

#: room -> rooms (and outside packages) it must never import
FORBIDDEN = {
    "gis": ("sloat_core.rules", "sloat_core.engine", "sloat_core.store", "sloat_core.outputs", "streamlit"),
    "law": ("sloat_core.gis", "sloat_core.rules", "sloat_core.engine", "sloat_core.store", "sloat_core.outputs",
            "streamlit"),
    "rules": ("sloat_core.engine", "sloat_core.store", "sloat_core.outputs", "streamlit"),
    "engine": ("sloat_core.store", "sloat_core.outputs", "streamlit"),
    "approvals": ("sloat_core.engine", "sloat_core.store", "sloat_core.outputs", "streamlit"),
}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved against its package."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(CORE.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def core_files(room: str | None = None) -> list[Path]:
    root = CORE / room if room else CORE
    return sorted(root.rglob("*.py"))


def _breaks(module: str, forbidden: str) -> bool:
    return module == forbidden or module.startswith(forbidden + ".")


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_each_room_imports_only_what_it_may(room):
    offences = [
        f"{path.relative_to(CORE.parent)} imports {module}"
        for path in core_files(room)
        for module in sorted(imported_modules(path))
        if any(_breaks(module, f) for f in FORBIDDEN[room])
    ]
    assert offences == []


def test_nothing_in_the_core_imports_streamlit():
    offences = [
        f"{path.relative_to(CORE.parent)} imports {module}"
        for path in core_files()
        for module in sorted(imported_modules(path))
        if _breaks(module, "streamlit") or _breaks(module, "streamlit_folium")
    ]
    assert offences == []


def test_the_check_sees_a_forbidden_import(tmp_path):
    """The checker is not blind: a rules file importing the store is caught, relative or absolute."""
    fake = CORE / "rules" / "_probe_for_layout_test.py"
    try:
        fake.write_text("from ..store import sqlite\nimport streamlit as st\n")
        found = imported_modules(fake)
        assert "sloat_core.store" in found and "streamlit" in found
    finally:
        fake.unlink()
