"""The shipped text of Article IX as a tree of clauses, and citations into it.

The law lives in ``data/law/article_ix.txt`` exactly as published; this module parses it once
(cached) into sections ("§ 402-45 Environmental constraints."), subsections ("A."), paragraphs
("(1)"), subparagraphs ("(a)") and items ("[1]"), always nested in that order. Lines such as
"[Amended at time of adoption of Code ...]" and "[1] Editor's Note: ..." are notes, not clauses.

A citation names one clause ("§ 402-57J(4)", "§ 402-48G(3)(e)[5]", "§ 402-46") or a run of
sibling clauses ("§ 402-57P(1)(a)-(c)"); the text of a clause includes its children.

>>> "90 days prior" in clause("§ 402-57J(4)")
True
>>> normalize_citation("402-57 j (4)")
'§ 402-57J(4)'
>>> citation_anchor("§ 402-48G(3)(e)[5]")
'402-48G-3-e-5'
>>> find_quote("in excess of 40%")
'§ 402-45A(2)(b)'
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, NamedTuple

from sloat_core.errors import SloatInputError

__all__ = [
    "LAW_PATH",
    "LAW_TEXT_SHA256",
    "Section",
    "Clause",
    "Citation",
    "law_text",
    "law_tree",
    "sections",
    "all_clauses",
    "node",
    "clause",
    "citation_exists",
    "parse_citation",
    "normalize_citation",
    "citation_anchor",
    "quote_in_law",
    "quote_in_clause",
    "find_quote",
]

LAW_PATH = Path(__file__).resolve().parents[2] / "data" / "law" / "article_ix.txt"

LAW_TEXT_SHA256 = hashlib.sha256(LAW_PATH.read_bytes()).hexdigest()
"""SHA-256 of the shipped law text, for version stamps on results and reports."""

_SECTION_RE = re.compile(r"^§\s*(402-\d+)\s+(.+)$")
_NOTE_RE = re.compile(r"^(\[(?:Amended|Added|Adopted|Editor's Note)\b.*\]|\[\d+\]\s*Editor's Note:.*)$")
# (level, regex) for a clause label at the start of a line; the level fixes the nesting.
_LABEL_RES = (
    (1, re.compile(r"^([A-Z])\.\s+")),
    (2, re.compile(r"^\((\d+)\)\s+")),
    (3, re.compile(r"^\(([a-z]{1,2})\)\s+")),
    (4, re.compile(r"^\[(\d+)\]\s+")),
)


@dataclass(frozen=True)
class Section:
    """One section of Article IX.

    >>> sections()[0]
    Section(number='402-45', title='Environmental constraints.')
    """

    number: str
    title: str

    @property
    def citation(self) -> str:
        """The section's citation, e.g. "§ 402-45"."""
        return f"§ {self.number}"


@dataclass(frozen=True)
class Clause:
    """One node of the law tree: a section or a clause within it.

    Attributes
    ----------
    citation : str
        Canonical citation, e.g. "§ 402-57J(4)".
    section : str
        Section number, e.g. "402-57".
    path : tuple of str
        Labels below the section in citation form, e.g. ("J", "(4)").
    parts : tuple
        The node's own paragraphs (str) and child clauses (Clause), in document order.
    notes : tuple of str
        Bracketed notes printed inside the node ("[Amended ...]", editor's notes).
    """

    citation: str
    section: str
    path: tuple[str, ...]
    parts: tuple
    notes: tuple[str, ...] = ()

    @property
    def children(self) -> tuple["Clause", ...]:
        """Child clauses in document order."""
        return tuple(p for p in self.parts if isinstance(p, Clause))

    @property
    def text(self) -> str:
        """The clause with all its children, paragraphs separated by blank lines."""
        return "\n\n".join(p.text if isinstance(p, Clause) else p for p in self.parts)

    @property
    def heading(self) -> str:
        """The first line of the clause (its label and opening words)."""
        return self.parts[0] if self.parts and isinstance(self.parts[0], str) else ""


class Citation(NamedTuple):
    """A parsed citation: section number, labels below it, and an optional range end.

    >>> parse_citation("§ 402-57P(1)(a)-(c)")
    Citation(section='402-57', path=('P', '(1)', '(a)'), range_end='(c)')
    """

    section: str
    path: tuple[str, ...]
    range_end: str | None = None

    def __str__(self) -> str:
        text = f"§ {self.section}" + "".join(self.path)
        return text + (f"-{self.range_end}" if self.range_end else "")


class _Builder:
    """Mutable node used while parsing."""

    def __init__(self, level: int, section: str, path: tuple[str, ...]):
        self.level, self.section, self.path = level, section, path
        self.parts: list = []
        self.notes: list[str] = []

    def freeze(self) -> Clause:
        parts = tuple(p.freeze() if isinstance(p, _Builder) else p for p in self.parts)
        citation = str(Citation(self.section, self.path))
        return Clause(citation, self.section, self.path, parts, tuple(self.notes))


def _label_token(level: int, label: str) -> str:
    return {1: "{}", 2: "({})", 3: "({})", 4: "[{}]"}[level].format(label)


def _parse(text: str) -> tuple[Clause, ...]:
    """Parse the law text into a tuple of section nodes."""
    roots: list[_Builder] = []
    stack: list[_Builder] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _SECTION_RE.match(line)
        if m:
            root = _Builder(0, m.group(1), ())
            root.parts.append(line)
            roots.append(root)
            stack = [root]
            continue
        if not stack:  # the document title above the first section
            continue
        if _NOTE_RE.match(line):
            stack[-1].notes.append(line)
            continue
        for level, regex in _LABEL_RES:
            lm = regex.match(line)
            if lm:
                while stack[-1].level >= level:
                    stack.pop()
                parent = stack[-1]
                child = _Builder(level, parent.section, parent.path + (_label_token(level, lm.group(1)),))
                key = (child.section, child.path)
                if key in seen:
                    raise ValueError(f"Duplicate clause {Citation(*key)} in the law text.")
                seen.add(key)
                child.parts.append(line)
                parent.parts.append(child)
                stack.append(child)
                break
        else:  # an unlabelled paragraph continues the current clause
            stack[-1].parts.append(line)
    return tuple(r.freeze() for r in roots)


@functools.lru_cache(maxsize=1)
def law_text() -> str:
    """The full shipped text of Article IX.

    >>> law_text().startswith("Village of Sloatsburg")
    True
    """
    return LAW_PATH.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def law_tree() -> tuple[Clause, ...]:
    """The parsed law: one :class:`Clause` per section, in order (cached)."""
    return _parse(law_text())


@functools.lru_cache(maxsize=1)
def _index() -> dict[tuple[str, tuple[str, ...]], Clause]:
    return {(n.section, n.path): n for n in all_clauses()}


def sections() -> list[Section]:
    """Every section of Article IX with its title, in order.

    >>> [s.number for s in sections()][:3]
    ['402-45', '402-46', '402-47']
    """
    out = []
    for root in law_tree():
        m = _SECTION_RE.match(root.heading)
        out.append(Section(root.section, m.group(2).strip()))
    return out


def all_clauses() -> Iterator[Clause]:
    """Every node of the tree (sections first, then their clauses), depth first."""

    def walk(n: Clause) -> Iterator[Clause]:
        yield n
        for c in n.children:
            yield from walk(c)

    for root in law_tree():
        yield from walk(root)


_CITE_HEAD_RE = re.compile(r"^\s*(?:§+|sections?\b\.?|sec\.)?\s*402\s*[-\u2010-\u2014]\s*(\d+)\s*", re.IGNORECASE)
_TOKEN_RES = (
    (re.compile(r"^\(\s*(\d+)\s*\)\s*"), "({})"),
    (re.compile(r"^\(\s*([a-z]{1,2})\s*\)\s*"), "({})"),
    (re.compile(r"^\[\s*(\d+)\s*\]\s*"), "[{}]"),
)
_RANGE_RE = re.compile(r"^(?:[-\u2010-\u2014]|to\b|through\b)\s*")


def _bad(s: object) -> SloatInputError:
    if not str(s).strip():
        return SloatInputError("No citation was given; write one like § 402-57J(4).")
    return SloatInputError(f"“{s}” is not a citation to Article IX; write it like § 402-57J(4).")


def parse_citation(s: str) -> Citation:
    """Parse a citation written in any common way.

    Raises :class:`SloatInputError` for text that is not a citation to Chapter 402
    (it does not check that the clause exists; see :func:`citation_exists`).

    >>> parse_citation("402-48G(3)(e)[5]")
    Citation(section='402-48', path=('G', '(3)', '(e)', '[5]'), range_end=None)
    >>> parse_citation("§402-57 J (4)").path
    ('J', '(4)')
    """
    if not isinstance(s, str):
        raise _bad(s)
    m = _CITE_HEAD_RE.match(s)
    if not m:
        raise _bad(s.strip())
    section, rest = f"402-{int(m.group(1))}", s[m.end():].rstrip(" .;,")
    path: list[str] = []
    letter = re.match(r"^([A-Za-z])(?![A-Za-z])\s*", rest)
    if letter:
        path.append(letter.group(1).upper())
        rest = rest[letter.end():]
    range_end = None
    while rest:
        rm = _RANGE_RE.match(rest)
        if rm and path:
            end = rest[rm.end():]
            range_end = _one_token(end, like=path[-1])
            if range_end is None:
                raise _bad(s.strip())
            break
        token = _one_token(rest)
        if token is None:
            raise _bad(s.strip())
        path.append(token[0])
        rest = rest[token[1]:]
    return Citation(section, tuple(path), range_end)


def _one_token(text: str, like: str | None = None):
    """Read one label from the start of ``text``.

    With ``like`` given (range end), the whole text must be one label of the same form as ``like``
    and the label is returned; otherwise returns (label, length consumed) or None.
    """
    if like is not None:
        if like.isalpha():
            m = re.fullmatch(r"([A-Za-z])\s*", text)
            return m.group(1).upper() if m else None
        for regex, fmt in _TOKEN_RES:
            m = regex.match(text)
            if m and m.end() == len(text) and fmt.format(m.group(1))[0] == like[0]:
                token = fmt.format(m.group(1))
                return token if token[1:-1].isdigit() == like[1:-1].isdigit() else None
        return None
    for regex, fmt in _TOKEN_RES:
        m = regex.match(text)
        if m:
            return fmt.format(m.group(1)), m.end()
    return None


def normalize_citation(s: str) -> str:
    """The canonical spelling of a citation ("§ 402-57J(4)").

    >>> normalize_citation("Section 402-57P(1)(a) - (c)")
    '§ 402-57P(1)(a)-(c)'
    """
    return str(parse_citation(s))


def citation_anchor(citation: str) -> str:
    """A stable slug for a citation, safe as a URL query value or HTML id.

    >>> citation_anchor("§ 402-57J(4)")
    '402-57J-4'
    >>> citation_anchor("§ 402-57P(1)(a)-(c)")
    '402-57P-1-a-to-c'
    """
    c = parse_citation(citation)
    labels = [re.sub(r"[()\[\]]", "", p) for p in c.path]
    slug = c.section + (labels[0] if labels else "")
    slug += "".join(f"-{x}" for x in labels[1:])
    if c.range_end:
        slug += "-to-" + re.sub(r"[()\[\]]", "", c.range_end)
    return slug


def _resolve(citation: str) -> list[Clause]:
    c = parse_citation(citation)
    index = _index()
    if c.range_end is None:
        n = index.get((c.section, c.path))
        if n is None:
            raise _missing(c)
        return [n]
    parent = index.get((c.section, c.path[:-1]))
    if parent is None:
        raise _missing(c)
    labels = [k.path[-1] for k in parent.children]
    if c.path[-1] not in labels or c.range_end not in labels:
        raise _missing(c)
    i, j = labels.index(c.path[-1]), labels.index(c.range_end)
    if j < i:
        raise SloatInputError(f"The range in “{c}” runs backwards; write the first clause first.")
    return list(parent.children[i : j + 1])


def _missing(c: Citation) -> SloatInputError:
    return SloatInputError(f"There is no {c} in Article IX (§§ 402-45 to 402-59) as shipped with this tool.")


def node(citation: str) -> Clause:
    """The :class:`Clause` for a single-clause citation (not a range).

    >>> node("§ 402-55H").children[2].citation
    '§ 402-55H(3)'
    """
    found = _resolve(citation)
    if len(found) != 1 or parse_citation(citation).range_end:
        raise SloatInputError(f"“{citation}” names several clauses; name one clause.")
    return found[0]


def clause(citation: str) -> str:
    """The text of the cited clause (with its children), or of a run of clauses.

    Raises :class:`SloatInputError` when the citation is malformed or names no clause.

    >>> clause("§ 402-45A(2)(b)").startswith("(b) No portion")
    True
    >>> clause("§ 402-57P(1)(a)-(c)").count("\\n\\n")
    2
    """
    return "\n\n".join(n.text for n in _resolve(citation))


def citation_exists(citation: str) -> bool:
    """Whether the citation names a clause of the shipped text.

    >>> citation_exists("§ 402-45A(3)"), citation_exists("§ 402-94"), citation_exists("hello")
    (True, False, False)
    """
    try:
        _resolve(citation)
    except SloatInputError:
        return False
    return True


def _quote_regex(quote: str) -> re.Pattern:
    words = quote.split() if isinstance(quote, str) else []
    if not words:
        raise SloatInputError("The quotation to look for is empty.")
    body = r"\s+".join(re.escape(w) for w in words)
    start = r"(?<!\w)" if re.match(r"\w", words[0]) else ""
    end = r"(?!\w)" if re.search(r"\w$", words[-1]) else ""
    return re.compile(start + body + end)


def quote_in_law(quote: str) -> bool:
    """Whether the exact words appear in the law (whitespace-insensitive, whole words).

    >>> quote_in_law("in excess of  40%"), quote_in_law("0 days prior")
    (True, False)
    """
    return _quote_regex(quote).search(law_text()) is not None


def quote_in_clause(quote: str, citation: str) -> bool:
    """Whether the exact words appear inside the cited clause (or run of clauses).

    >>> quote_in_clause("one month prior", "§ 402-55H(3)")
    True
    >>> quote_in_clause("one month prior", "§ 402-55H(2)")
    False
    """
    return _quote_regex(quote).search(clause(citation)) is not None


def find_quote(quote: str) -> str | None:
    """The citation of the smallest clause containing the quote, or None.

    >>> find_quote("at least five days in advance")
    '§ 402-57O(1)(c)'
    >>> find_quote("not in the law at all") is None
    True
    """
    regex = _quote_regex(quote)
    for root in law_tree():
        if regex.search(root.text):
            n = root
            while True:
                inner = next((c for c in n.children if regex.search(c.text)), None)
                if inner is None:
                    return n.citation
                n = inner
    return None
