"""A plan as drawn: its features, each in one role (lots, envelopes, roads, open space, disturbance)."""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry.base import BaseGeometry

__all__ = ["ROLES", "PlanFeature", "PlanDrawing"]

ROLES = ("lots", "envelopes", "roads", "open_space", "disturbance")


@dataclass(frozen=True)
class PlanFeature:
    role: str
    label: str | None
    geometry: BaseGeometry
    closed: bool = True
    source_layer: str | None = None


@dataclass(frozen=True)
class PlanDrawing:
    features: tuple[PlanFeature, ...]
    layers: tuple[str, ...]
    roles: dict[str, str]
    warnings: tuple[str, ...] = ()

    def of(self, role) -> tuple[PlanFeature, ...]:
        return tuple(f for f in self.features if f.role == role)
