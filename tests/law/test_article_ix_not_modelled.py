"""Nothing of Article IX is silently absent: every clause is either cited by the tool's code or parameters, or
listed once in data/law/not_modelled.yaml (rendered on the Law page and in the "Not modelled" list of
docs/law-and-readings.md)."""

import re
from pathlib import Path

from sloat_core.law import params
from sloat_core.law import text as law
from sloat_core.law.not_modelled import not_modelled, not_modelled_clauses, not_modelled_markdown
from law_day import LAW_DAY

ROOT = Path(__file__).resolve().parents[2]
_CITE = re.compile(r"§\s*402-\d+(?:[A-Z](?:\(\w{1,2}\)|\[\d+\])*)?(?:\s*-\s*(?:\(\w{1,2}\)|[A-Z]\b|\[\d+\])+)?")


def _code_citations() -> set[str]:
    """Clauses the core's code cites (its rules, texts and outputs; the law package's own examples aside)."""
    out: set[str] = set()
    for path in (ROOT / "sloat_core").rglob("*.py"):
        if path.parent.name == "law":
            continue
        for m in _CITE.finditer(path.read_text(encoding="utf-8")):
            try:
                out |= {c.citation for c in law._resolve(m.group(0))}
            except Exception:  # noqa: BLE001 - a citation shape the parser does not take (e.g. "§ 402-57Q-")
                continue
    return out


def _param_citations(*, read_only: bool = False) -> set[str]:
    return {c.citation for p in params.all_params(LAW_DAY).values() if not (read_only and p.informational)
            for c in law._resolve(p.citation)}


def _accounted(cited: set[str]) -> list[str]:
    """The clauses with no text of their own left unaccounted for: leaves neither cited (themselves, or a clause
    above them below the section) nor listed as not modelled."""
    listed = not_modelled_clauses()
    missing = []

    def walk(n: law.Clause, covered_above: bool) -> None:
        here = n.citation in listed or (n.citation in cited and (bool(n.path) or not n.children))
        if not n.children:
            if not (here or covered_above):
                missing.append(n.citation)
            return
        for k in n.children:
            walk(k, covered_above or here)

    for section in law.law_tree():
        walk(section, False)
    return missing


def test_every_clause_of_article_ix_is_modelled_or_listed_as_not_modelled():
    assert _accounted(_code_citations() | _param_citations()) == []


def test_the_clauses_the_issue_names_are_listed_as_not_modelled():
    listed = not_modelled_clauses()
    for clause in ("§ 402-57Q", "§ 402-57R", "§ 402-57S", "§ 402-57T", "§ 402-57U", "§ 402-57V",
                   "§ 402-58J(2)", "§ 402-58J(7)", "§ 402-57M", "§ 402-57N", "§ 402-55G", "§ 402-55G(1)"):
        assert clause in listed, clause


def test_nothing_listed_as_not_modelled_holds_a_number_a_rule_reads():
    assert sorted(_param_citations(read_only=True) & not_modelled_clauses()) == []


def test_nothing_listed_as_not_modelled_is_cited_by_the_core():
    # A clause the code cites is modelled (or at least spoken of): it must leave the list. Reserved sections
    # (no text) are only ever named, never modelled.
    reserved = {c for e in not_modelled() if e.group == "reserved" for c in e.clauses}
    assert sorted((_code_citations() & not_modelled_clauses()) - reserved) == []


def test_each_clause_is_listed_once():
    seen: dict[str, int] = {}
    for e in not_modelled():
        for c in e.clauses:
            for n in law._resolve(c):
                seen[n.citation] = seen.get(n.citation, 0) + 1
    assert [c for c, k in seen.items() if k > 1] == []


def test_the_law_and_readings_page_carries_the_list_as_the_file_declares_it():
    doc = (ROOT / "docs" / "law-and-readings.md").read_text(encoding="utf-8")
    block = doc.split("<!-- not-modelled:start -->")[1].split("<!-- not-modelled:end -->")[0]
    assert block.strip() == not_modelled_markdown().strip(), "run: python tools/readme_not_modelled.py"


def test_the_law_page_lists_what_is_not_modelled_in_the_section_shown_and_in_the_whole_article(manifest):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page("pages/law.py").run()
    at.selectbox[0].set_value("402-57").run()
    assert not at.exception, at.exception
    text = "\n".join(m.value for m in at.markdown).replace("\\", "")
    assert "Not modelled in § 402-57" in text
    assert "§ 402-57M, § 402-57N: The standards for wetland permit decisions" in text
    assert "§ 402-57Q-V: The wetland performance bond" in text
    box = next(e for e in at.expander if e.label.startswith("Not modelled"))
    inside = "\n".join(m.value for m in box.markdown).replace("\\", "")
    for entry in not_modelled():
        assert f"{entry.label}: {entry.what}" in inside
