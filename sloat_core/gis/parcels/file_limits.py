"""Limits and small helpers every parcel-file reader shares: the feature count, the ``choose`` word for
"every shape", printable names."""

from __future__ import annotations

MAX_FEATURES = 10_000
"""Most features (shapes) a parcel file may hold; counted before the shapes are read."""

ALL_SHAPES = "all"
"""``choose=ALL_SHAPES``: combine every polygon of a file that holds several into one parcel."""


def printable_name(text: str, limit: int = 80) -> str:
    """A name from inside a file (a layer name) as one short line of printable characters."""
    clean = "".join(ch for ch in str(text) if ch.isprintable()).strip()
    return (clean[:limit] + "…" if len(clean) > limit else clean) or "(unnamed)"
