"""The lot table's words, worked out once for every place that prints a checked plan's lots: the document
(:mod:`sloat_core.outputs.plan_document`, its PDF and web page), the Plan page and the Board walk-through's plan
screen. Each reads a lot of a checked plan (:class:`sloat_core.plan.lots.LotResult`) by its attributes; the places
keep their own layout (columns, headings, capitals), never their own words.

The words: whether the lot conforms (yes / no / unknown, or everyday words at the counter), its net lot area (a
range where land is unknown), the minimum it must meet (``(gross)`` for a cluster lot, § 402-48F), its shortfall,
and the permits it needs, each with its §, then those not known yet for this lot alone. A prohibition (§ 402-52) is
never a permit: it is said apart (:func:`prohibitions`).
"""

from __future__ import annotations

from collections.abc import Iterable

from sloat_core.engine.plain import is_prohibition

__all__ = ["CONFORMS_WORDS", "EVERYDAY_CONFORMS_WORDS", "number_text", "conforms_text", "net_text", "minimum_text",
           "shortfall_text", "permit_text", "asked", "shared_unknowns", "permits_text", "prohibitions"]

#: Whether a lot conforms, in a word.
CONFORMS_WORDS = {True: "yes", False: "no", None: "unknown"}
#: Whether a lot conforms, in everyday words (the counter).
EVERYDAY_CONFORMS_WORDS = {True: "yes, big enough", False: "no, too small", None: "not known"}


def number_text(value: float | None) -> str:
    """A figure in whole square feet, "unknown" for None.

    >>> number_text(43560.4), number_text(None)
    ('43,560', 'unknown')
    """
    return "unknown" if value is None else f"{value:,.0f}"


def conforms_text(lot, *, everyday: bool = False) -> str:
    """Whether the lot conforms, in a word (in everyday words with ``everyday``)."""
    return (EVERYDAY_CONFORMS_WORDS if everyday else CONFORMS_WORDS)[lot.conforms]


def net_text(lot) -> str:
    """The lot's net lot area, a range ("floor to net") where land is unknown."""
    la = lot.lot
    if la.fully_known:
        return number_text(la.net_lot_area_sqft)
    return f"{number_text(la.net_lot_area_min_sqft)} to {number_text(la.net_lot_area_sqft)}"


def minimum_text(lot) -> str:
    """The minimum the lot must meet, "(gross)" when compared with its gross area (§ 402-48F), or "not known"."""
    if lot.minimum.sqft is None:
        return "not known"
    return number_text(lot.minimum.sqft) + (" (gross)" if lot.minimum.gross else "")


def shortfall_text(lot) -> str:
    """How far short the lot falls: "none" when it conforms, "unknown" when that is not known."""
    if lot.conforms is True:
        return "none"
    return number_text(lot.shortfall_sqft)


def permit_text(p, *, cited: bool = True) -> str:
    """A permit by its title (its id when it has none), with its § in brackets unless ``cited`` is False."""
    name = p.title or p.id
    return f"{name} ({p.citation})" if cited else name


def asked(lot, required: bool | None) -> list:
    """The lot's permits needed (``required`` True) or not known yet (None), prohibitions left out."""
    return [p for p in lot.permits if p.required is required and not is_prohibition(p)]


def shared_unknowns(lots: Iterable, *, cited: bool = True) -> list[str]:
    """The permits not known yet for every lot (said once, under the table), in words."""
    lists = [[permit_text(p, cited=cited) for p in asked(lot, None)] for lot in lots]
    return [p for p in lists[0] if all(p in other for other in lists[1:])] if lists else []


def permits_text(lot, shared: list[str], *, cited: bool = True) -> str:
    """The permits the lot needs, each with its § (unless ``cited`` is False), then on a new line those not known
    yet for this lot alone (``shared``: the words of those not known yet for every lot, said under the table)."""
    words = "; ".join(permit_text(p, cited=cited) for p in asked(lot, True)) or "none"
    if own := [t for p in asked(lot, None) if (t := permit_text(p, cited=cited)) not in shared]:
        words += "\nnot known yet: " + "; ".join(own)
    return words


def prohibitions(lots: Iterable, *, cited: bool = True) -> list[str]:
    """The prohibitions (§ 402-52) any lot's project may touch (not answered no), each once, in words."""
    return list(dict.fromkeys(permit_text(p, cited=cited) for lot in lots for p in lot.permits
                              if is_prohibition(p) and p.required is not False))
