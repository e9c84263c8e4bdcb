"""§ citations as URL query values, and links to the Law page.

A citation such as ``§ 402-57J(4)`` travels in the Law page's URL as ``?cite=402-57J-4``
(``§ 402-48G(3)(e)[5]`` as ``402-48G-3-e-5``); a whole section as ``?section=402-57``.
The parenthesised form (``?cite=402-57J(4)``) is accepted too.
"""

from __future__ import annotations

import re

import streamlit as st

from sloat_core.errors import SloatInputError

__all__ = ["LAW_PAGE", "cite_to_query", "query_to_cite", "section_of", "law_link", "escape_markdown", "escape_links"]

LAW_PAGE = "pages/law.py"
#: Longest citation a link may carry (the longest in Article IX, § 402-48G(3)(e)[5], has 18 characters).
MAX_CITE_CHARS = 40

_CITE = re.compile(r"^\s*§?\s*(402-\d{1,3})\s*([A-Z]?)\s*((?:\(\s*[0-9a-z]+\s*\)|\[\s*\d+\s*\])*)\s*$")
_QUERY = re.compile(r"^\s*(402-\d{1,3})([A-Z]?)((?:-[0-9a-z]+)*)\s*$")


def cite_to_query(citation: str) -> str:
    """URL-friendly form of a citation.

    >>> cite_to_query("§ 402-57J(4)")
    '402-57J-4'
    >>> cite_to_query("§ 402-48G(3)(e)[5]")
    '402-48G-3-e-5'

    Citations that are ranges or otherwise unusual are returned stripped of the § sign.
    """
    text = citation.strip()
    match = _CITE.match(text)
    if not match:
        return text.lstrip("§").strip()
    section, letter, rest = match.groups()
    parts = re.findall(r"[0-9a-z]+", rest)
    return section + letter + "".join(f"-{p}" for p in parts)


def query_to_cite(value: str) -> str:
    """Citation from its URL form (or from a parenthesised form).

    >>> query_to_cite("402-57J-4")
    '§ 402-57J(4)'
    >>> query_to_cite("402-48G-3-e-5")
    '§ 402-48G(3)(e)[5]'

    Raises
    ------
    SloatInputError
        If the value is not a citation of Article IX's form (or is longer than any citation).
    """
    text = (value or "").strip()
    if len(text) > MAX_CITE_CHARS:
        raise SloatInputError(f"“{text[:24]}…” is too long to be a citation of the form 402-57J-4.")
    match = _QUERY.match(text)
    if match:
        section, letter, rest = match.groups()
        parts = [p for p in rest.split("-") if p]
        if parts and not letter:
            raise SloatInputError(f"“{text[:MAX_CITE_CHARS]}” is not a citation of the form 402-57J-4.")
        body = "".join(f"({p})" if i < 2 else f"[{p}]" for i, p in enumerate(parts))
        return f"§ {section}{letter}{body}"
    match = _CITE.match(text)
    if match:
        section, letter, rest = match.groups()
        rest = re.sub(r"\s+", "", rest)
        return f"§ {section}{letter}{rest}"
    raise SloatInputError(f"“{text}” is not a citation of the form 402-57J-4.")


def section_of(citation: str) -> str:
    """Section number of a citation.

    >>> section_of("§ 402-57J(4)")
    '402-57'
    """
    match = re.search(r"402-\d{1,3}(?!\d)", citation[:MAX_CITE_CHARS])
    if not match:
        shown = citation if len(citation) <= MAX_CITE_CHARS else citation[:24] + "…"
        raise SloatInputError(f"“{shown}” does not name a section of Article IX.")
    return match.group(0)


def law_link(citation: str, *, label: str | None = None) -> None:
    """A link to the Law page opened at ``citation``.

    Parameters
    ----------
    citation : str
        For example ``"§ 402-45A(2)(a)"``.
    label : str, optional
        Link text; the citation itself by default.
    """
    st.page_link(_law_page(), label=label or citation, query_params={"cite": cite_to_query(citation)})


_LAW_PAGES: list = []


def _law_page():
    """The Law page as a ``st.Page`` (no icon or help of its own: a link shows its label only), made once per
    process: ``st.page_link`` given the file's path resolves it on the disk for every link (about ten an answer)."""
    if not _LAW_PAGES:
        _LAW_PAGES.append(st.Page(LAW_PAGE, title="Law"))
    return _LAW_PAGES[0]


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|$~:])")


def escape_markdown(text: str) -> str:
    """Text shown literally by ``st.markdown`` (no emphasis, links, HTML or maths).

    >>> escape_markdown("50% of *any* $5")
    '50% of \\\\*any\\\\* \\\\$5'
    """
    return _MD_SPECIAL.sub(r"\\\1", text)


_LINK_SPECIAL = re.compile(r"([\\\[\]<>])")


def escape_links(text: str) -> str:
    r"""A sentence shown by ``st.error``/``st.caption`` with no link, image or HTML that a browser would follow.

    Lighter than :func:`escape_markdown`: only what makes markdown fetch or link (``[``, ``]``, ``<``, ``>``;
    and the backslash) is escaped, so a sentence of the app's own reads the same in the page's text.

    >>> print(escape_links("![x](http://a.invalid/p.png) <img src=x> 50% (§ 402-57P(1))."))
    !\[x\](http://a.invalid/p.png) \<img src=x\> 50% (§ 402-57P(1)).
    """
    return _LINK_SPECIAL.sub(r"\\\1", text)
