"""What a source file of the repository imports, read with ``ast`` (never run): for the tests on the core's
rooms and doors (tests/core/test_layout.py) and on the layers of the approvals
(tests/approvals/test_approvals_layers.py).

A relative import is resolved against the package of the file (``from ..store import sqlite`` in
``sloat_core/rules/x.py`` reads ``sloat_core.store``); every import counts, top-level or inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORE = REPO / "sloat_core"


def package_of(path: Path) -> str:
    """The dotted package a file of the repository stands in (``sloat_core/gis/__init__.py`` and
    ``sloat_core/gis/dem.py`` both stand in ``sloat_core.gis``; ``app.py`` in ``""``)."""
    return ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])


def from_module(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from ... import`` names, a relative one resolved against ``package``."""
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))
    return node.module or ""


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved against its package; ``from a import b`` counts
    both ``a`` and ``a.b`` (``b`` may be a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = package_of(path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = from_module(node, package)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found
