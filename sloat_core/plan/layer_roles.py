"""Which layer of a plan file plays which role: the one table of layer names, and the choice it makes.

:data:`LAYER_NAMES` is the one place the recognised names live. Names are compared without regard to case,
and ``-``, ``_`` and spaces count as the same separator (``open_space`` = ``OPEN SPACE`` = ``Open-Space``).

Where the CAD names come from. The United States National CAD Standard (NCS, whose layer chapter is the AIA
CAD Layer Guidelines) names a layer Discipline-Major group[-Minor group], e.g. ``C-PROP-LINE``: discipline
``C`` (civil), major group ``PROP`` (property), minor group ``LINE``. The NCS text itself is sold by the
National Institute of Building Sciences and could not be read while this table was written, so every CAD
name below says where it was seen, and names that could not be confirmed anywhere are left out rather than
guessed (``C-ROAD-ROW``, ``L-PLNT`` as open space, a "limit of disturbance" layer: not recognised; an engineer
who uses them maps them with ``roles``):

* ``C-PROP-LOTS`` -- lots, beside ``C-PROP-LINE`` (property lines, the parcel boundary) and ``C-PROP-BNDY``
  in NCS-form civil layer lists published with Autodesk Civil 3D layer-standard checkers; Autodesk's Civil 3D
  API documentation (SettingsDrawing.ObjectLayerSettings) gives ``C-PROP`` as the layer of parcels and
  ``C-ROAD`` as that of alignments. ``C-PROP-LINE`` is the parcel line, so it is never taken for lots.
* ``C-BLDG`` -- proposed building footprints (the civil discipline's building major group in the same
  lists); read as the envelopes / proposed principal structures.
* ``C-ROAD`` -- roads (Autodesk, above); read as the roads role only when it holds closed outlines (a
  right-of-way polygon); its centre lines are open outlines and are reported as such.

Title blocks (``G-ANNO-TTLB``, ``BORDER``, ...), the parcel line (``C-PROP-LINE``), text, dimensions and
every other layer are never taken for a role.
"""

from __future__ import annotations

import re

from sloat_core.errors import NoLotsLayerError, SloatInputError
from sloat_core.plan.drawing import ROLES

__all__ = ["LAYER_NAMES", "assign_roles", "layer_key"]

#: (layer name, role, where the name comes from): the one table of recognised layer names, in order of
#: preference (when a file holds two layers for one role, the earlier line wins and the other is named in a
#: warning).
LAYER_NAMES: tuple[tuple[str, str, str], ...] = (
    ("lots", "lots", "this tool's default name"),
    ("C-PROP-LOTS", "lots", "NCS-form civil layer list (property: lots)"),
    ("proposed lots", "lots", "plain name"),
    ("envelopes", "envelopes", "this tool's default name"),
    ("building envelopes", "envelopes", "plain name"),
    ("C-BLDG", "envelopes", "NCS-form civil layer list (proposed building footprints)"),
    ("roads", "roads", "this tool's default name"),
    ("right of way", "roads", "plain name"),
    ("C-ROAD", "roads", "Autodesk Civil 3D object layers (roads)"),
    ("open_space", "open_space", "this tool's default name"),
    ("disturbance", "disturbance", "this tool's default name"),
    ("limit of disturbance", "disturbance", "plain name"),
    ("limits of disturbance", "disturbance", "plain name"),
    ("LOD", "disturbance", "the usual abbreviation on site plans"),
)


def layer_key(name: str) -> str:
    """A layer name as compared: upper case, runs of ``-``, ``_`` and spaces as one ``-``.

    >>> layer_key(" Open_space ") == layer_key("OPEN-SPACE")
    True
    """
    return re.sub(r"[-_\s]+", "-", str(name).strip()).upper()


_BY_KEY = {layer_key(name): role for name, role, _ in LAYER_NAMES}
_RANK = {layer_key(name): i for i, (name, _, _) in enumerate(LAYER_NAMES)}


def assign_roles(layers: tuple[str, ...], override: dict[str, str] | None = None) -> tuple[dict[str, str], list[str]]:
    """``{role: layer}`` for a file's layers, and the warnings the choice gives.

    Parameters
    ----------
    layers : tuple of str
        Every layer name in the file.
    override : dict, optional
        ``{role: layer name}`` chosen by the user (compared as :func:`layer_key` does); it wins over the table,
        and a layer it names serves that role only.

    Raises
    ------
    SloatInputError
        A role that does not exist, or a layer the file does not hold.
    NoLotsLayerError
        No layer is recognised (or chosen) as the lots.
    """
    by_key: dict[str, str] = {}
    for name in layers:
        by_key.setdefault(layer_key(name), name)
    chosen: dict[str, str] = {}
    for role, wanted in (override or {}).items():
        if role not in ROLES:
            raise SloatInputError(f"'{role}' is not a plan role; the roles are {', '.join(ROLES)}.")
        actual = by_key.get(layer_key(wanted))
        if actual is None:
            if role == "lots":
                raise NoLotsLayerError(layers)
            raise SloatInputError(f"The plan has no layer '{wanted}' for the {role.replace('_', ' ')}.")
        chosen[role] = actual
    taken = {layer_key(v) for v in chosen.values()}
    warnings: list[str] = []
    for key in sorted((k for k in by_key if k in _BY_KEY and k not in taken), key=_RANK.__getitem__):
        role = _BY_KEY[key]
        if role in chosen:
            if layer_key(chosen[role]) != key:
                warnings.append(
                    f"The layer '{by_key[key]}' was not read: the {role.replace('_', ' ')} were read from the layer "
                    f"'{chosen[role]}'."
                )
            continue
        chosen[role] = by_key[key]
    if "lots" not in chosen:
        raise NoLotsLayerError(layers)
    return {role: chosen[role] for role in ROLES if role in chosen}, warnings
