"""What a plan file holds once read: its features in roles (:class:`PlanFeature`) and the drawing
(:class:`PlanDrawing`), in EPSG:2260 US survey feet.

The reader (:func:`sloat_core.plan.reading.read_plan`) makes them; the plan check reads them.

>>> from shapely.geometry import box
>>> lot = PlanFeature(role="lots", label="1", geometry=box(0, 0, 100, 100), source_layer="LOTS")
>>> PlanDrawing(features=(lot,), layers=("LOTS",), roles={"lots": "LOTS"}).of("lots")[0].label
'1'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry.base import BaseGeometry

__all__ = ["ROLES", "PlanFeature", "PlanDrawing"]

ROLES = ("lots", "envelopes", "roads", "open_space", "disturbance")
"""The roles a plan's features can play: lots (required), building envelopes or proposed principal structures,
roads (rights-of-way), open space, limits of disturbance."""


@dataclass(frozen=True)
class PlanFeature:
    """One outline of a plan.

    Attributes
    ----------
    role : str
        One of :data:`ROLES`.
    label : str or None
        A lot's label: the TEXT/MTEXT inside the lot, else its ``lot`` attribute, else its number 1..N in
        reading order. Other roles carry their ``lot`` attribute when the file gives one, else None.
    geometry : shapely geometry
        A Polygon or MultiPolygon in EPSG:2260 US survey feet; a LineString when the outline does not close.
    closed : bool
        False for an outline that does not close (the plan check reports it as ``not_closed``).
    source_layer : str or None
        The layer it was read from.
    """

    role: str
    label: str | None
    geometry: BaseGeometry
    closed: bool = True
    source_layer: str | None = None


@dataclass(frozen=True)
class PlanDrawing:
    """A plan as read from one file.

    Attributes
    ----------
    features : tuple of PlanFeature
        Every feature taken into a role, in reading order.
    layers : tuple of str
        Every layer name in the file (for "choose the lots layer").
    roles : dict
        ``{role: the layer name it was read from}`` for the roles found.
    warnings : tuple of str
        What the reader assumed or repaired, one sentence each.
    """

    features: tuple[PlanFeature, ...]
    layers: tuple[str, ...]
    roles: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    def of(self, role: str) -> tuple[PlanFeature, ...]:
        """The features in ``role``, in reading order."""
        return tuple(f for f in self.features if f.role == role)
