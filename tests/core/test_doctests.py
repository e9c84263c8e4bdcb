"""The examples in the core's docstrings run (doctests over every module of sloat_core).

A docstring example is documentation a reader trusts: it is run here, module by module, so an
example that no longer holds fails the suite.
"""

import doctest
import importlib
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "sloat_core"
MODULES = sorted(
    ".".join(p.relative_to(CORE.parent).with_suffix("").parts)
    for p in CORE.rglob("*.py")
    if p.name != "__main__.py"
)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name.removesuffix(".__init__"))
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} fail"


def test_the_core_has_examples_to_run():
    """Not a vacuous pass: the rules modules carry examples."""
    attempted = 0
    for name in ("sloat_core.rules.deductions", "sloat_core.rules.measures", "sloat_core.rules.sections.s402_48_cluster.cluster",
                 "sloat_core.law.params", "sloat_core.gis.roles"):
        attempted += doctest.testmod(importlib.import_module(name), optionflags=FLAGS).attempted
    assert attempted >= 20


#: Three-valued logic, not law: the helpers every rule uses to combine yes / no / unknown.
LOGIC = {"tri", "is_yes", "is_no", "tri_any", "answer"}


@pytest.mark.parametrize("name", ["sloat_core.rules.deductions", "sloat_core.rules.sections.s402_48_cluster.cluster",
                                  "sloat_core.rules.measures"])
def test_every_rule_function_cites_its_section(name):
    import ast

    path = CORE.parent / (name.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    uncited = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
               and n.name not in LOGIC and "§" not in (ast.get_docstring(n) or "")]
    assert uncited == []
