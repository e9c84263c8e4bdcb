"""The core's rooms and their doors: which part of sloat_core may import which.

``gis`` (geometry and files) knows no rule; ``measure`` (clipping, cutting, tiling land into measures)
knows no rule either; ``rules`` knows no store, output or screen; nothing in the
core imports streamlit (the CLI and the app are two faces of the same core).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from source_imports import from_module, imported_modules

CORE = Path(__file__).resolve().parents[2] / "sloat_core"

#: room -> rooms (and outside packages) it must never import
FORBIDDEN = {
    "gis": ("sloat_core.rules", "sloat_core.engine", "sloat_core.store", "sloat_core.outputs", "streamlit"),
    "law": ("sloat_core.gis", "sloat_core.rules", "sloat_core.engine", "sloat_core.store", "sloat_core.outputs",
            "streamlit"),
    "measure": ("sloat_core.rules", "sloat_core.engine", "sloat_core.store", "sloat_core.outputs", "streamlit"),
    "rules": ("sloat_core.engine", "sloat_core.store", "sloat_core.outputs", "streamlit"),
    "engine": ("sloat_core.store", "sloat_core.outputs", "streamlit"),
    "approvals": ("sloat_core.engine", "sloat_core.store", "sloat_core.outputs", "streamlit"),
}


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


# ------------------------------------------------------------------------------------------------
# Private names stay in their room
# ------------------------------------------------------------------------------------------------

REPO = CORE.parent
#: Private names still imported across rooms, each waiting for a change on another branch
#: (the clocks rewrite makes the period kinds public). The test fails when one is gone from the code,
#: so the list can only shrink.
KNOWN_CROSSINGS: set[tuple[str, str, str]] = set()


def room_of(module: str) -> str:
    """The room a module lives in: ``sloat_core.<room>`` (a subpackage or a top-level module), or the
    top-level package outside the core (``app_support``, ``pages``)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "sloat_core" and len(parts) > 1 else parts[0]


def private_imports(source: str, path: Path) -> list[tuple[str, str]]:
    """(module, name) for each ``from module import _name`` of a file (relative imports resolved)."""
    module_of_file = ".".join(path.relative_to(REPO).with_suffix("").parts)
    package = module_of_file.rsplit(".", 1)[0] if "." in module_of_file else ""
    if path.name == "__init__.py":
        package = module_of_file.removesuffix(".__init__")
    out = []
    for node in ast.walk(ast.parse(source, filename=str(path))):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = from_module(node, package)
        out += [(module, a.name) for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    return out + private_attributes(source, path, package)


def _is_module(module: str) -> bool:
    path = REPO.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def private_attributes(source: str, path: Path, package: str) -> list[tuple[str, str]]:
    """(module, name) for each ``alias._name`` where ``alias`` is a module the file imported (``import a.b as
    alias``, ``from a import b`` with ``b`` a module): the same crossing as ``from a.b import _name``."""
    tree = ast.parse(source, filename=str(path))
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    modules[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom):
            parent = from_module(node, package)
            for a in node.names:
                if _is_module(f"{parent}.{a.name}"):
                    modules[a.asname or a.name] = f"{parent}.{a.name}"
    return [(modules[n.value.id], n.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in modules
            and n.attr.startswith("_") and not n.attr.startswith("__")]


def crossings(source: str, path: Path) -> list[tuple[str, str, str]]:
    here = room_of(".".join(path.relative_to(REPO).with_suffix("").parts))
    return [(path.relative_to(REPO).as_posix(), module, name) for module, name in private_imports(source, path)
            if module.startswith(("sloat_core", "app_support")) and room_of(module) != here]


def _product_files() -> list[Path]:
    return [*core_files(), *sorted((REPO / "app_support").rglob("*.py")), *sorted((REPO / "pages").rglob("*.py")),
            REPO / "app.py"]


def test_no_private_name_is_imported_from_another_room():
    """A leading underscore means "this room's own": another room (gis, rules, engine, outputs, store,
    the app) reads only public names, so a room can change its insides without breaking its neighbours."""
    found = {c for path in _product_files() for c in crossings(path.read_text(), path)}
    assert found - KNOWN_CROSSINGS == set()
    assert KNOWN_CROSSINGS <= found, "a known crossing is gone: remove it from KNOWN_CROSSINGS"


def test_the_private_name_check_sees_a_crossing_and_allows_one_inside_a_room():
    engine_file = CORE / "engine" / "probe.py"
    source = ("from sloat_core.gis.dem import _OpenDems\nfrom ..rules.measures import _clip\n"
              "from sloat_core.engine.analysis import _private_helper\nfrom .plain import _join\n"
              "from sloat_core.gis.dem import check_dem_crs\n")
    assert crossings(source, engine_file) == [("sloat_core/engine/probe.py", "sloat_core.gis.dem", "_OpenDems"),
                                               ("sloat_core/engine/probe.py", "sloat_core.rules.measures", "_clip")]
    page = REPO / "pages" / "probe.py"
    assert crossings("from app_support.frame.theme import _FALLBACK\n", page) == [
        ("pages/probe.py", "app_support.frame.theme", "_FALLBACK")]
    attribute = ("from sloat_core.gis import dem\nimport sloat_core.rules.measures as m\nfrom . import plain\n"
                 "dem._OpenDems, m._clip, plain._join, dem.__name__, dem.check_dem_crs\n")
    assert crossings(attribute, engine_file) == [("sloat_core/engine/probe.py", "sloat_core.gis.dem", "_OpenDems"),
                                                  ("sloat_core/engine/probe.py", "sloat_core.rules.measures", "_clip")]


# ------------------------------------------------------------------------------------------------
# No module of the product is over 600 lines
# ------------------------------------------------------------------------------------------------

#: Most lines one module of the product may hold (a newcomer reads a module in one sitting).
MAX_MODULE_LINES = 600


def long_modules(files: list[Path], limit: int = MAX_MODULE_LINES, root: Path = REPO) -> list[str]:
    """``path: n lines`` (relative to ``root``) for each file over ``limit`` lines."""
    out = []
    for path in files:
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out.append(f"{path.relative_to(root).as_posix()}: {n} lines")
    return out


def test_no_module_of_the_product_is_over_600_lines():
    """The product is sloat_core, app_support, pages and app.py; tools/ (the maintainers' scripts) and bench/
    (the timings) are not the product and are not counted, nor are the tests."""
    assert long_modules(_product_files()) == []


def test_the_line_count_sees_a_long_module(tmp_path):
    """The count is not blind: a file of 601 lines is named, one of 600 is not."""
    probe = tmp_path / "probe.py"
    probe.write_text("x = 1\n" * 600)
    assert long_modules([probe], root=tmp_path) == []
    probe.write_text("x = 1\n" * 601)
    assert long_modules([probe], root=tmp_path) == ["probe.py: 601 lines"]


# ------------------------------------------------------------------------------------------------
# The app: its support code grouped by kind, and one door into the core
# ------------------------------------------------------------------------------------------------

APP_SUPPORT = REPO / "app_support"
DOOR = "app_support.analysis_door"
#: Most modules app_support/ may hold loose, beside its sub-packages (frame, map, widgets, views, cases, inputs).
MAX_LOOSE_MODULES = 12


def door_names() -> set[str]:
    """What the door passes on: the names of its ``__all__``, read from its source (nothing is run)."""
    tree = ast.parse((APP_SUPPORT / "analysis_door.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise AssertionError("the door declares no __all__")


def door_bypasses(source: str, name: str, *, passed_on: set[str] | None = None) -> list[str]:
    """``name imports module`` for each import of the core in ``source``; with ``passed_on``, only those taking
    a name the door passes on (``from sloat_core.x import y`` with ``y`` in ``passed_on``)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            modules = [(node.module or "", a.name) for a in node.names]
        else:
            continue
        out += [f"{name} imports {module}" + (f".{what}" if what else "") for module, what in modules
                if _breaks(module, "sloat_core") and (passed_on is None or what in passed_on)]
    return out


def test_the_app_support_code_is_grouped_with_at_most_twelve_modules_loose():
    loose = sorted(p.name for p in APP_SUPPORT.glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= MAX_LOOSE_MODULES, loose
    assert all((d / "__init__.py").is_file() for d in APP_SUPPORT.iterdir() if d.is_dir() and d.name != "__pycache__")


def test_the_pages_and_the_router_take_the_core_only_through_the_door():
    """Pages gather input, call the core through app_support.analysis_door and render: no page (nor app.py)
    imports ``sloat_core`` itself, so what the app asks of the core is read in one place."""
    files = [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]
    assert [b for path in files for b in door_bypasses(path.read_text(encoding="utf-8"), path.name)] == []


#: The core's calls a view makes on a result or a project: each passed on by the door.
VIEW_CALLS = {"lot_answer", "permits_by_cause", "what_if_sentence", "yield_phrase", "timeline_events",
              "approval_events", "parse_project", "all_state_facts"}


def test_the_views_take_what_the_door_passes_on_through_the_door():
    """A view drawing a result calls the engine (the lot's answer, the permits by cause, the timeline's events)
    through the door as the pages do; wording helpers and declarations it may read from the core."""
    names = door_names()
    assert VIEW_CALLS <= names
    found = [b for path in sorted((APP_SUPPORT / "views").glob("*.py"))
             for b in door_bypasses(path.read_text(encoding="utf-8"), f"views/{path.name}", passed_on=names)]
    assert found == []


def test_the_door_checks_see_an_import_of_the_core():
    page = ("import streamlit as st\nfrom app_support.analysis_door import DISCLAIMER\n"
            "from sloat_core.rules.clocks import timeline_events\nimport sloat_core.errors as errors\n"
            "def f():\n    from sloat_core.engine import plain\n")
    assert door_bypasses(page, "probe.py") == [
        "probe.py imports sloat_core.rules.clocks.timeline_events", "probe.py imports sloat_core.errors",
        "probe.py imports sloat_core.engine.plain"]
    assert door_bypasses(page, "probe.py", passed_on={"timeline_events"}) == [
        "probe.py imports sloat_core.rules.clocks.timeline_events"]
    assert {"analysis", "result", "timeline_events", "SloatInputError"} <= door_names()
