"""The approvals around Article IX and the Article IX rules read each other in one direction per module, never
in a circle.

Two layers of ``sloat_core.approvals``: the lower one (the state-law settings, the approval facts, the SEQR
class, who decides) is what the rules read (§ 402-46C asks the SEQR class; the project form carries the approval
facts; each permit declares its decider) and reads no rule; the upper one (county referral, Village Law clocks, the
wetland screens, the summary) counts days with the calendar (sloat_core.law.calendar) and writes the timeline's
events. The check follows every import, top-level or inside
a function, through the whole core.
"""

from __future__ import annotations

from pathlib import Path

from source_imports import CORE, imported_modules

#: What the rules may read of the approvals.
LOWER = {"sloat_core.approvals.state_law", "sloat_core.approvals.facts", "sloat_core.approvals.seqr",
         "sloat_core.approvals.deciders"}


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


def test_the_rules_read_only_the_lower_layer_of_the_approvals():
    graph = _graph()
    read = {m for name, deps in graph.items() if name.startswith("sloat_core.rules") for m in deps
            if m.startswith("sloat_core.approvals")}
    assert read and read <= LOWER | {"sloat_core.approvals"}, sorted(read - LOWER)


def test_the_lower_layer_of_the_approvals_never_reaches_a_rule():
    graph = _graph()
    for low in sorted(LOWER):
        reached = _reach(graph, low)
        assert not any(m.startswith("sloat_core.rules") for m in reached), (low, sorted(reached))


def test_no_module_of_the_approvals_is_in_an_import_circle_with_the_rules():
    graph = _graph()
    for name in sorted(graph):
        if name.startswith("sloat_core.approvals"):
            assert name not in _reach(graph, name), name


def test_the_check_sees_a_circle(tmp_path):
    """The circle check would fail on a module that reaches itself (the check can fail)."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert "a" in _reach(graph, "a") and "c" not in _reach(graph, "c")
