"""The approvals around Article IX sit below the Article IX rules: the rules read them, they read no rule, and
nothing of the approvals is in an import circle with the rules.

The rules read the state-law settings, the approval facts, the SEQR class (§ 402-46C asks it) and who decides;
the one list that puts Article IX's permits beside the approvals is the engine's (sloat_core.engine.approval_list).
The check follows every import, top-level or inside a function, through the whole core.
"""

from __future__ import annotations

from pathlib import Path

from source_imports import CORE, imported_modules


def _modules() -> dict[str, Path]:
    out = {}
    for path in CORE.rglob("*.py"):
        parts = path.relative_to(CORE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {name: {m for m in imported_modules(path) if m in mods and m != name} for name, path in mods.items()}


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_rules_read_the_approvals():
    graph = _graph()
    read = {m for name, deps in graph.items() if name.startswith("sloat_core.rules") for m in deps
            if m.startswith("sloat_core.approvals")}
    assert {"sloat_core.approvals.seqr", "sloat_core.approvals.deciders"} <= read, sorted(read)


def test_no_module_of_the_approvals_reaches_a_rule_or_the_engine():
    graph = _graph()
    for name in sorted(graph):
        if name.startswith("sloat_core.approvals"):
            reached = _reach(graph, name)
            above = sorted(m for m in reached if m.startswith(("sloat_core.rules", "sloat_core.engine")))
            assert not above, (name, above)


def test_no_module_of_the_approvals_is_in_an_import_circle():
    graph = _graph()
    for name in sorted(graph):
        if name.startswith("sloat_core.approvals"):
            assert name not in _reach(graph, name), name


def test_the_check_sees_a_circle(tmp_path):
    """The circle check would fail on a module that reaches itself (the check can fail)."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert "a" in _reach(graph, "a") and "c" not in _reach(graph, "c")
