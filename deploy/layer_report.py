"""What changed between two layer sets: ``python deploy/layer_report.py OLD/layers.yaml NEW/layers.yaml``.

First, layers of the old set that the new one lacks are carried over into it (files copied, entries
added to its manifest): fetch-official cannot fetch what the office supplies (the tax parcels, which
Rockland County does not publish as a service; zoning), and a refresh must not drop them. Then it prints one line per layer (added, removed, changed: feature count and content, unchanged) and the
manifest's own facts that moved (version, download dates, sources), for the journal. Checks that the
new set loads as the app loads it (``sloat_core.gis.layers.load_manifest``). Exit status: 0 when the
new set differs and loads, 3 when nothing changed, 1 when the new set does not load (the app keeps
the old one).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _entries(value) -> list[dict]:
    return value if isinstance(value, list) else [value]


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _content(path: Path, layer: str | None) -> tuple[int | None, str]:
    """(feature count, digest of the features' geometry and attributes); a raster's digest is its bytes'.

    A GeoPackage written twice with the same features differs in its bytes (timestamps inside), so
    vector layers are compared by what they hold."""
    if not path.exists():
        return None, "missing"
    if path.suffix.lower() in (".tif", ".tiff"):
        return None, _digest(path)
    try:
        import geopandas as gpd

        gdf = gpd.read_file(path, layer=layer) if layer else gpd.read_file(path)
    except Exception:  # noqa: BLE001 (unknown count and content: the load check decides)
        return None, _digest(path)
    h = hashlib.sha256(str(gdf.crs).encode())
    for wkb in gdf.geometry.to_wkb():
        h.update(wkb or b"")
    h.update(gdf.drop(columns=gdf.geometry.name).to_json(orient="split", default_handler=str).encode())
    return len(gdf), h.hexdigest()


def describe(manifest: Path) -> tuple[dict, dict]:
    """(layer role -> {"features", "sha256", "entry"}, the manifest's other top-level facts)."""
    doc = yaml.safe_load(manifest.read_text()) or {}
    layers = {}
    roles = dict(doc.get("layers") or {})
    if doc.get("dem"):
        roles["dem"] = doc["dem"]
    for role, value in roles.items():
        parts = []
        for entry in _entries(value):
            path = manifest.parent / entry["path"]
            count, digest = _content(path, entry.get("layer"))
            parts.append({"features": count, "sha256": digest,
                          "entry": {k: v for k, v in entry.items() if k != "path"}})
        layers[role] = parts
    facts = {k: v for k, v in doc.items() if k not in ("layers", "dem")}
    return layers, facts


def carry_over(old: Path, new: Path) -> list[str]:
    """Copy the layers (and DEM) of ``old`` that ``new`` lacks into ``new``; return their roles."""
    if not old.exists():
        return []
    import shutil

    old_doc = yaml.safe_load(old.read_text()) or {}
    new_doc = yaml.safe_load(new.read_text()) or {}
    new_doc.setdefault("layers", {})
    moved = []
    wanted = [(role, value, "layers") for role, value in (old_doc.get("layers") or {}).items()
              if role not in new_doc["layers"]]
    if old_doc.get("dem") and not new_doc.get("dem"):
        wanted.append(("dem", old_doc["dem"], None))
    for role, value, where in wanted:
        for entry in _entries(value):
            src = old.parent / entry["path"]
            dst = new.parent / entry["path"]
            if src.exists() and not dst.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
        if where:
            new_doc["layers"][role] = value
        else:
            new_doc["dem"] = value
        moved.append(role)
    if moved:
        new.write_text(yaml.safe_dump(new_doc, sort_keys=False, allow_unicode=True))
    return moved


def report(old: Path, new: Path) -> tuple[list[str], bool]:
    old_layers, old_facts = describe(old) if old.exists() else ({}, {})
    new_layers, new_facts = describe(new)
    lines, changed = [], False
    for role in sorted(set(old_layers) | set(new_layers)):
        a, b = old_layers.get(role), new_layers.get(role)
        if a is None:
            counts = ", ".join("raster" if p["features"] is None else f"{p['features']} features" for p in b)
            lines.append(f"{role}: added ({counts})")
            changed = True
        elif b is None:
            lines.append(f"{role}: removed")
            changed = True
        elif [p["sha256"] for p in a] != [p["sha256"] for p in b]:
            counts = f"{'+'.join(str(p['features']) for p in a)} -> {'+'.join(str(p['features']) for p in b)} features"
            moved = [k for p, q in zip(a, b) for k in set(p["entry"]) | set(q["entry"])
                     if p["entry"].get(k) != q["entry"].get(k)]
            lines.append(f"{role}: changed ({counts}" + (f"; {', '.join(sorted(set(moved)))} changed" if moved else "")
                         + ")")
            changed = True
        else:
            lines.append(f"{role}: unchanged")
    for key in sorted(set(old_facts) | set(new_facts)):
        if old_facts.get(key) != new_facts.get(key):
            lines.append(f"{key}: {old_facts.get(key)!r} -> {new_facts.get(key)!r}")
            changed = changed or key not in ("notice",)
    return lines, changed


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    old, new = Path(args[0]), Path(args[1])
    carried = carry_over(old, new)
    try:
        from sloat_core.gis.layers import load_manifest

        load_manifest(new)
    except Exception as exc:  # noqa: BLE001 (any failure keeps the old set)
        print(f"The new layer set does not load ({type(exc).__name__}: {exc}); the app keeps the old one.")
        return 1
    lines, changed = report(old, new)
    print(f"Layer set {old} -> {new}:")
    for role in carried:
        print(f"  {role}: carried over from the current set (not fetched: the office supplies it)")
    for line in lines:
        if line.split(":")[0] not in carried:
            print("  " + line)
    print("Changed." if changed else "Nothing changed.")
    return 0 if changed else 3


if __name__ == "__main__":
    sys.exit(main())
