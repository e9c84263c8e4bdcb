"""What of Article IX the tool does not model, declared once in ``data/law/not_modelled.yaml``.

The Law page and the README's "Not modelled" list are rendered from it (`not_modelled_markdown`). Every citation
is checked against the law text when the file is read: a clause the law does not have is refused.

>>> any("§ 402-57M" in p.clauses for p in not_modelled())
True
>>> "§ 402-57S" in not_modelled_clauses()
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import yaml

from sloat_core.law import text as law

__all__ = ["NOT_MODELLED_PATH", "NotModelled", "not_modelled", "not_modelled_groups", "not_modelled_clauses",
           "not_modelled_markdown"]

NOT_MODELLED_PATH = Path(__file__).resolve().parents[2] / "data" / "law" / "not_modelled.yaml"


@dataclass(frozen=True)
class NotModelled:
    """One entry: the clauses (as written in the file), its group id and title, and what the clauses do."""

    clauses: tuple[str, ...]
    group: str
    group_title: str
    what: str

    @property
    def label(self) -> str:
        """The clauses joined for display: "§ 402-57M, § 402-57N"."""
        return ", ".join(self.clauses)


@functools.lru_cache(maxsize=1)
def _load() -> tuple[tuple[tuple[str, str], ...], tuple[NotModelled, ...]]:
    doc = yaml.safe_load(NOT_MODELLED_PATH.read_text(encoding="utf-8"))
    groups = tuple((str(g["id"]), str(g["title"])) for g in doc["groups"])
    titles = dict(groups)
    out = []
    for i, entry in enumerate(doc["provisions"]):
        group = str(entry["group"])
        if group not in titles:
            raise ValueError(f"{NOT_MODELLED_PATH.name}: entry {i + 1} has the unknown group '{group}'")
        clauses = tuple(str(c) for c in entry["clauses"])
        for c in clauses:
            if not law.citation_exists(c):
                raise ValueError(f"{NOT_MODELLED_PATH.name}: entry {i + 1} cites {c}, which Article IX does not have")
        what = str(entry["what"]).strip()
        if not what:
            raise ValueError(f"{NOT_MODELLED_PATH.name}: entry {i + 1} says nothing about {clauses}")
        out.append(NotModelled(clauses, group, titles[group], what))
    order = {g: n for n, (g, _) in enumerate(groups)}
    return groups, tuple(sorted(out, key=lambda e: order[e.group]))


def not_modelled() -> tuple[NotModelled, ...]:
    """Every entry, in the order of the groups."""
    return _load()[1]


def not_modelled_groups() -> list[tuple[str, list[NotModelled]]]:
    """[(group title, its entries)] in the file's order of groups, groups with no entry left out."""
    groups, entries = _load()
    return [(title, [e for e in entries if e.group == gid]) for gid, title in groups
            if any(e.group == gid for e in entries)]


def not_modelled_clauses() -> frozenset[str]:
    """The canonical citation of every clause listed, with every clause inside it (ranges expanded)."""
    out: set[str] = set()

    def walk(n: law.Clause) -> None:
        out.add(n.citation)
        for k in n.children:
            walk(k)

    for e in not_modelled():
        for c in e.clauses:
            for n in law._resolve(c):
                walk(n)
    return frozenset(out)


def not_modelled_markdown() -> str:
    """The list as Markdown (the README block and the Law page), one line per entry under its group."""
    lines = []
    for title, entries in not_modelled_groups():
        lines.append(f"- *{title}*:")
        lines += [f"  - {e.label}: {e.what}" for e in entries]
    return "\n".join(lines)
