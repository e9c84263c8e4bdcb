"""No function of the product is above rank D in cyclomatic complexity (radon: D is 21-30 decisions).

A function with more decision points than that is several functions in one: split it, with a name for each
part. The product is the core, the app (app.py, pages/, app_support/) and the tools; tests and the bench are
left out.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("sloat_core", "app_support", "pages", "tools")
HIGHEST_RANK = "D"


def _product_files() -> list[Path]:
    return [ROOT / "app.py", *(p for folder in PRODUCT for p in sorted((ROOT / folder).rglob("*.py")))]


def _over(source: str, name: str) -> list[str]:
    return [f"{name}:{block.lineno} {block.fullname} rank {cc_rank(block.complexity)} ({block.complexity})"
            for block in cc_visit(source) if cc_rank(block.complexity) > HIGHEST_RANK]


def test_no_product_function_is_above_rank_d():
    over = [line for path in _product_files()
            for line in _over(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not over, "split these functions:\n" + "\n".join(over)


def test_the_check_finds_a_function_of_rank_e():
    """The check itself: 31 decision points are rank E, 30 are rank D."""
    def function(n: int) -> str:
        body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(n))
        return f"def f(x):\n{body}    return -1\n"

    assert _over(function(30), "probe.py") == ["probe.py:1 f rank E (31)"]
    assert _over(function(29), "probe.py") == []
