"""One manifest line (:class:`_Entry`): a role, one source file and its options, the label that
names it in ``_source`` and in warnings, and the error that names its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sloat_core.errors import ManifestError


@dataclass
class _Entry:
    """One manifest line: a role and one source file."""

    manifest_name: str
    role: str
    index: int | None
    spec: dict[str, Any]
    line: int | None
    path: Path | None = None

    @property
    def filename(self) -> str:
        return str(self.spec.get("path", "?"))

    @property
    def source(self) -> str:
        """The ``_source`` text, e.g. ``layers.yaml: wetlands[1] (local_wetlands.geojson)``."""
        slot = self.role if self.index is None else f"{self.role}[{self.index}]"
        return f"{self.manifest_name}: {slot} ({Path(self.filename).name})"

    def fail(self, problem: str) -> ManifestError:
        """An error naming this manifest line; ``problem`` is a lower-case clause."""
        where = f" line {self.line}" if self.line else ""
        slot = self.role if self.index is None else f"{self.role}[{self.index}]"
        return ManifestError(
            f"In the layer manifest {self.manifest_name}{where} ({slot}, {self.filename}), {problem}."
        )


def _beside(base: Path, path) -> Path:
    """A manifest path: absolute as written, else relative to ``base`` (the folder of the file naming it)."""
    raw = Path(str(path)).expanduser()
    return raw if raw.is_absolute() else base / raw
