"""Article IX, one module or package per section: ``s402_55_steep_slopes`` is § 402-55, and so on.

Each section module declares its permits (``PERMITS``: `permit.PermitDeclaration`) and, inside each
permit, its clocks (`clock.ClockDeclaration`): a module is found here by its name (``s402_<number>_<words>``),
so adding a section, a permit or a clock is one module plus its parameters (docs/architecture.md, "A permit").
A section that states more than its permits is a package of that name holding it whole (§ 402-48: the cluster
features, yield and lot rules; § 402-55: the design limits; § 402-57: the activities, the adjacent owners and
the mitigation), its ``__init__`` giving ``PERMITS``. Sections
that set neither a permit nor a clock (§ 402-45's lot-area deductions, in ``rules.deductions``; § 402-47 and
§ 402-59, reserved) have no module here.

* :data:`SECTIONS`: the section modules, by section number;
* :data:`PERMITS`: every permit, in the order the results list them (their ``order``);
* :data:`CLOCKS`: every clock of every permit, in the order the timeline's menu lists them (their ``order``).

The machinery the sections share is in `permit` (the answer, the facts, `decide`) and `clock` (the
clock declaration and the reader of a timeline item).
"""

from __future__ import annotations

import importlib
import pkgutil
import re

__all__ = ["SECTIONS", "PERMITS", "CLOCKS"]

_SECTION = re.compile(r"^s402_(\d+)_\w+$")


def _load() -> tuple:
    names = sorted((m.name for m in pkgutil.iter_modules(__path__) if _SECTION.match(m.name)),
                   key=lambda n: int(_SECTION.match(n).group(1)))
    return tuple(importlib.import_module(f"{__name__}.{n}") for n in names)


def _ordered(items: list, what: str) -> tuple:
    """``items`` by their ``order``; a repeated id or order is a declaration error, said at import."""
    for attr in ("id", "order"):
        seen: dict = {}
        for i in items:
            other = seen.setdefault(getattr(i, attr), i)
            if other is not i:
                raise ValueError(f"Two {what} share the {attr} {getattr(i, attr)!r}: {other.id} and {i.id}.")
    return tuple(sorted(items, key=lambda i: i.order))


SECTIONS = _load()
PERMITS = _ordered([d for s in SECTIONS for d in s.PERMITS], "permits")
CLOCKS = _ordered(list({id(c): c for d in PERMITS for c in d.clocks}.values()), "clocks")
