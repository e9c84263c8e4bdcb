"""Local settings that are NOT in Article IX, read from ``data/settings/local.yaml``.

District minimum lot areas, the buffer width, the width assumed for a stream mapped as a line and
the like are facts the article relies on but does not state. Each setting carries a ``verify``
flag: ``True`` means "to confirm with the Village", and the app must show it as such.
Settings are immutable; edit with :meth:`LocalSettings.replace` (validated) and save a case's
settings with :meth:`LocalSettings.to_dict` / :meth:`LocalSettings.from_dict`.

>>> s = load_settings()
>>> s.buffer_width_ft, s.verify["buffer_width_ft"]
(100.0, True)
>>> s.district("R-40").min_lot_area_sqft
40000.0
>>> load_settings(overrides={"buffer_width_ft": 150}).buffer_width_ft
150.0
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sloat_core.errors import SloatInputError

__all__ = [
    "SETTINGS_PATH",
    "DISTRICT_KINDS",
    "SCALAR_SETTINGS",
    "District",
    "LocalSettings",
    "load_settings",
    "district",
    "file_stamp",
    "read_yaml_file",
]

SETTINGS_PATH = Path(__file__).resolve().parents[2] / "data" / "settings" / "local.yaml"

DISTRICT_KINDS = ("residence", "mixed_use", "other")

# name -> (plain label for messages, smallest allowed (exclusive), largest allowed (inclusive), whole number?)
SCALAR_SETTINGS: dict[str, tuple[str, float, float, bool]] = {
    "buffer_width_ft": ("The wetland/watercourse buffer width in feet", 0, 5280, False),
    "default_stream_width_ft": ("The default stream width in feet", 0, 1000, False),
    "land_development_min_acres": ("The land development threshold in acres", 0, 1000, False),
    "expiring_soon_days": ("The 'expiring soon' window in days", -1, 3650, True),
}
_OPTIONAL_SETTINGS = ("cluster_yard_requirements_ft", "buffer_around_water_bodies")
_SETTING_NAMES = tuple(SCALAR_SETTINGS) + _OPTIONAL_SETTINGS
_DISTRICT_FIELDS = ("name", "kind", "min_lot_area_sqft", "verify", "note")


def _number(value: Any, label: str, lo: float, hi: float, whole: bool = False) -> float | int:
    """A finite number with lo < value <= hi, or SloatInputError naming the setting."""
    if isinstance(value, bool):
        raise SloatInputError(f"{label} must be a number, not {value!r}.")
    try:
        num = float(value)
    except (TypeError, ValueError):
        raise SloatInputError(f"{label} must be a number, not {value!r}.") from None
    if not math.isfinite(num) or not (lo < num <= hi):
        low = "0 or more" if lo < 0 else f"more than {lo:g}"
        raise SloatInputError(f"{label} must be {low} and at most {hi:,g}; {value!r} was given.")
    if whole:
        if num != int(num):
            raise SloatInputError(f"{label} must be a whole number; {value!r} was given.")
        return int(num)
    return num


def _code_key(code: str) -> str:
    return re.sub(r"[\s\-_]", "", str(code).upper())


@dataclass(frozen=True)
class District:
    """A zoning district as the tool knows it.

    ``min_lot_area_sqft`` is None when unknown (the user enters it); ``verify`` True means the
    values are to be confirmed with the Village.

    >>> District("R-40", "Rural Residential", "residence", 40000, True).min_lot_area_sqft
    40000.0
    """

    code: str
    name: str
    kind: str
    min_lot_area_sqft: float | None
    verify: bool = True
    note: str = ""

    def __post_init__(self):
        if not isinstance(self.code, str) or not self.code.strip():
            raise SloatInputError("A zoning district needs a code such as R-40.")
        object.__setattr__(self, "code", self.code.strip())
        if self.kind not in DISTRICT_KINDS:
            raise SloatInputError(
                f"District {self.code} has kind {self.kind!r}; use residence, mixed_use or other."
            )
        if self.min_lot_area_sqft is not None:
            label = f"The minimum lot area of district {self.code} in square feet"
            object.__setattr__(self, "min_lot_area_sqft", _number(self.min_lot_area_sqft, label, 0, 1e9))
        if not isinstance(self.verify, bool):
            raise SloatInputError(f"The verify flag of district {self.code} must be true or false.")
        object.__setattr__(self, "name", str(self.name or self.code))
        object.__setattr__(self, "note", str(self.note or ""))

    def to_dict(self) -> dict:
        """Plain dict (without the code) as stored in the settings file."""
        return {k: getattr(self, k) for k in _DISTRICT_FIELDS}


@dataclass(frozen=True)
class LocalSettings:
    """Settings not in Article IX; immutable and validated.

    Attributes
    ----------
    buffer_width_ft, default_stream_width_ft, land_development_min_acres : float
    expiring_soon_days : int
        Display setting for the timeline.
    buffer_around_water_bodies : bool
        Ponds and other water bodies carry the buffer too (a reading of § 402-45A(1); default on).
    cluster_yard_requirements_ft : dict or None
        {district code: {yard name: feet}}; None when not entered.
    districts : dict[str, District]
    verify : dict[str, bool]
        Per setting name: True = to confirm with the Village.
    notes : dict[str, str]
        Per setting name: where the value comes from.
    """

    buffer_width_ft: float
    default_stream_width_ft: float
    expiring_soon_days: int
    districts: dict[str, District]
    land_development_min_acres: float = 1.0
    cluster_yard_requirements_ft: dict[str, dict[str, float]] | None = None
    #: § 402-45A(1) names a "watercourse or wetland buffer": whether ponds (water bodies) carry one too is a
    #: local reading, on by default (README "Readings").
    buffer_around_water_bodies: bool = True
    verify: dict[str, bool] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    title: str = "Local settings to confirm with the Village"
    notice: str = ""
    version: str = ""
    sources: tuple[str, ...] = ()

    def __post_init__(self):
        for name, (label, lo, hi, whole) in SCALAR_SETTINGS.items():
            object.__setattr__(self, name, _number(getattr(self, name), label, lo, hi, whole))
        object.__setattr__(self, "cluster_yard_requirements_ft", _yards(self.cluster_yard_requirements_ft))
        if self.buffer_around_water_bodies is None:
            object.__setattr__(self, "buffer_around_water_bodies", True)
        if not isinstance(self.buffer_around_water_bodies, bool):
            raise SloatInputError("Whether ponds carry a buffer must be true or false.")
        if not isinstance(self.districts, dict):
            raise SloatInputError("The districts setting must map district codes to districts.")
        for code, d in self.districts.items():
            if not isinstance(d, District) or d.code != code:
                raise SloatInputError(f"The district entry {code} does not match its code.")
        verify = {n: True for n in _SETTING_NAMES} | dict(self.verify or {})
        if any(not isinstance(v, bool) for v in verify.values()):
            raise SloatInputError("Each verify flag must be true or false.")
        object.__setattr__(self, "verify", verify)
        object.__setattr__(self, "notes", {str(k): str(v) for k, v in (self.notes or {}).items()})
        object.__setattr__(self, "sources", tuple(str(s) for s in self.sources or ()))

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    def district(self, code: str | None) -> District | None:
        """The district with this code (case, spaces and hyphens ignored), or None.

        >>> load_settings().district("r40").code
        'R-40'
        >>> load_settings().district("X-1") is None
        True
        """
        if code is None:
            return None
        key = _code_key(code)
        return next((d for c, d in self.districts.items() if _code_key(c) == key), None)

    def replace(self, **changes: Any) -> "LocalSettings":
        """A copy with some fields changed, validated like a loaded file.

        >>> load_settings().replace(default_stream_width_ft=12).default_stream_width_ft
        12.0
        """
        return dataclasses.replace(self, **changes)

    def to_verify(self) -> list[str]:
        """Names of settings and district codes still to confirm with the Village."""
        names = [n for n in _SETTING_NAMES if self.verify.get(n)]
        return names + [c for c, d in self.districts.items() if d.verify]

    def to_dict(self) -> dict:
        """Plain, JSON-ready dict in the shape of the settings file (for saving in a case)."""
        return {
            "title": self.title,
            "notice": self.notice,
            "version": self.version,
            "settings": {
                n: {"value": copy.deepcopy(getattr(self, n)), "verify": self.verify.get(n, True),
                    "note": self.notes.get(n, "")}
                for n in _SETTING_NAMES
            },
            "districts": {c: d.to_dict() for c, d in self.districts.items()},
            "sources": list(self.sources),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "LocalSettings":
        """Build from the settings-file shape (as written by :meth:`to_dict`), validating it.

        >>> s = load_settings()
        >>> LocalSettings.from_dict(s.to_dict()) == s
        True
        """
        if not isinstance(data, dict) or not isinstance(data.get("settings"), dict):
            raise SloatInputError("The settings have no “settings” section.")
        unknown = sorted(set(data["settings"]) - set(_SETTING_NAMES))
        if unknown:
            raise SloatInputError(f"Unknown setting {unknown[0]!r}; known settings are {', '.join(_SETTING_NAMES)}.")
        missing = [n for n in SCALAR_SETTINGS if n not in data["settings"]]
        if missing:
            raise SloatInputError(f"The setting {missing[0]!r} is missing.")
        values, verify, notes = {}, {}, {}
        for name, item in data["settings"].items():
            if not isinstance(item, dict) or "value" not in item:
                raise SloatInputError(f"The setting {name!r} needs a value.")
            values[name] = item["value"]
            verify[name] = item.get("verify", True)
            notes[name] = item.get("note", "") or ""
        districts = {}
        for code, d in (data.get("districts") or {}).items():
            if not isinstance(d, dict):
                raise SloatInputError(f"The district {code} needs a name, kind and minimum lot area.")
            extra = sorted(set(d) - set(_DISTRICT_FIELDS))
            if extra:
                raise SloatInputError(f"The district {code} has an unknown field {extra[0]!r}.")
            districts[str(code)] = District(
                code=str(code), name=d.get("name") or str(code), kind=d.get("kind", "other"),
                min_lot_area_sqft=d.get("min_lot_area_sqft"), verify=d.get("verify", True),
                note=d.get("note", "") or "",
            )
        return cls(
            **values, districts=districts, verify=verify, notes=notes,
            title=str(data.get("title") or "Local settings to confirm with the Village"),
            notice=str(data.get("notice") or ""), version=str(data.get("version") or ""),
            sources=tuple(data.get("sources") or ()),
        )


def _yards(value: Any) -> dict[str, dict[str, float]] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise SloatInputError("Cluster yard requirements must list feet per yard for each district.")
    out = {}
    for code, yards in value.items():
        if not isinstance(yards, dict) or not yards:
            raise SloatInputError(f"The yard requirements of district {code} must list feet per yard.")
        out[str(code)] = {
            str(y): _number(ft, f"The {y} yard requirement of district {code} in feet", -1, 5280)
            for y, ft in yards.items()
        }
    return out


def _merge(base: dict, overrides: dict) -> dict:
    """Apply flat overrides ({setting: value}, {"districts": {code: {field: value}}}) to file shape."""
    data = copy.deepcopy(base)
    for key, val in overrides.items():
        if key == "districts":
            if not isinstance(val, dict):
                raise SloatInputError("District overrides must map district codes to fields.")
            for code, fields in val.items():
                if not isinstance(fields, dict):
                    raise SloatInputError(f"The override for district {code} must list its fields.")
                data["districts"].setdefault(str(code), {}).update(fields)
        elif key == "verify":
            for name, flag in dict(val).items():
                data["settings"].setdefault(name, {})["verify"] = flag
        elif key in _SETTING_NAMES:
            data["settings"].setdefault(key, {})["value"] = val
        else:
            raise SloatInputError(f"Unknown setting {key!r}; known settings are {', '.join(_SETTING_NAMES)}.")
    return data


# ----------------------------------------------------------------------------------------------
# The local settings file's reading: the file's version stamp for the cache, its YAML, one sentence naming the
# file (never its folder) when it cannot be read or parsed. The dated facts (Article IX's parameters and the
# state-law facts) are read by sloat_core.law.facts, which refuses a file in the same words.
# ----------------------------------------------------------------------------------------------


def file_stamp(path: Path, unreadable: str) -> int:
    """The file's modification stamp (a cache key: an edited file is read again); ``unreadable`` is the one
    sentence raised when the file cannot be reached."""
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        raise SloatInputError(unreadable) from None


def read_yaml_file(path: Path, what: str) -> Any:
    """The YAML document in ``path``; "The <what> <name> cannot be read." / "... is not valid YAML." otherwise.

    >>> read_yaml_file(SETTINGS_PATH, "settings file")["title"]
    'Local settings to confirm with the Village'
    """
    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError:
        raise SloatInputError(f"The {what} {Path(path).name} cannot be read.") from None
    except yaml.YAMLError:
        raise SloatInputError(f"The {what} {Path(path).name} is not valid YAML.") from None


def load_settings(path: str | Path | None = None, overrides: dict | None = None) -> LocalSettings:
    """Read the local settings file (default: the shipped one) and apply overrides.

    Parameters
    ----------
    path : str or Path, optional
        A settings file in the shape of ``data/settings/local.yaml``.
    overrides : dict, optional
        ``{"buffer_width_ft": 150, "districts": {"OSR": {"min_lot_area_sqft": 200000}}}``.

    Raises
    ------
    SloatInputError
        When the file cannot be read or a value is out of range.

    >>> load_settings(overrides={"districts": {"OSR": {"min_lot_area_sqft": 200000}}}).district("OSR").min_lot_area_sqft
    200000.0
    """
    p = Path(path) if path is not None else SETTINGS_PATH
    if not overrides:
        stamp = file_stamp(p, f"The settings file {p.name} cannot be read.")
        return _load_file_cached(str(p.resolve()), stamp)
    return _load(p, overrides)


@functools.lru_cache(maxsize=16)
def _load_file_cached(path: str, _mtime_ns: int) -> LocalSettings:
    """One parse per file version: LocalSettings is immutable, so callers can share it."""
    return _load(Path(path), None)


def _load(p: Path, overrides: dict | None) -> LocalSettings:
    data = read_yaml_file(p, "settings file")
    if not isinstance(data, dict):
        raise SloatInputError(f"The settings file {p.name} is empty or not a mapping.")
    data.setdefault("districts", {})
    if overrides:
        if not isinstance(overrides, dict):
            raise SloatInputError("Setting overrides must be given as names and values.")
        data = _merge(data, overrides)
    return LocalSettings.from_dict(data)


def district(code: str | None, settings: LocalSettings | None = None) -> District | None:
    """The district with this code in ``settings`` (default: the shipped settings), or None.

    >>> district("MU-1").kind
    'mixed_use'
    """
    return (settings or load_settings()).district(code)
