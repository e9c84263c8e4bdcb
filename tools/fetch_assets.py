"""Fetch the front-end files the map needs from the npm registry into static/vendor/ (git-ignored).

axe-core (the accessibility engine tests/browser/test_browser_axe.py injects into every page and frame)
comes the same way; the app itself never links to it.

folium 0.20 and folium.plugins.Draw load Leaflet, Leaflet.draw and jQuery from public CDNs; the app
points them at these local copies instead (app_support/map/mapping.py), so the map works with no internet.
Streamlit serves ./static at /app/static/ (server.enableStaticServing in .streamlit/config.toml).

No npm needed: for each pinned package this reads the registry's metadata for that version, downloads
the tarball it names, checks the tarball against the registry's published ``dist.integrity`` (a
Subresource-Integrity sha512 hash) before anything is unpacked, and unpacks only regular files and
folders that stay inside the package's folder (no links, no absolute paths, no ``..``).

Idempotent: packages already unpacked at the pinned version are kept; writes static/vendor/.stamp last.

Usage::

    python tools/fetch_assets.py            # into static/vendor/
    python tools/fetch_assets.py --dest DIR
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import tempfile
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DEST = REPO / "static" / "vendor"
REGISTRY = os.environ.get("NPM_REGISTRY", "https://registry.npmjs.org").rstrip("/")
PACKAGES = (("leaflet", "1.9.3"), ("leaflet-draw", "1.0.2"), ("jquery", "3.7.1"),
            ("axe-core", "4.14.1"))  # axe-core: the browser tests' accessibility check (never loaded by the app)
#: Files the app links to; the run fails if one is missing after unpacking.
REQUIRED = (
    "leaflet/dist/leaflet.js",
    "leaflet/dist/leaflet.css",
    "leaflet/dist/images/marker-icon.png",
    "leaflet-draw/dist/leaflet.draw.js",
    "leaflet-draw/dist/leaflet.draw.css",
    "leaflet-draw/dist/images/spritesheet.svg",
    "jquery/dist/jquery.min.js",
    "axe-core/axe.min.js",
)
MAX_TARBALL_BYTES = 20_000_000


class FetchError(RuntimeError):
    """A package could not be fetched, verified or unpacked (one sentence)."""


def _get(url: str, *, tries: int = 3) -> bytes:
    last: Exception | None = None
    for attempt in range(tries):
        try:
            req = urllib.request.Request(url, headers={"Accept": "application/json, */*",
                                                       "User-Agent": "sloatsburg-fetch-assets"})
            with urllib.request.urlopen(req, timeout=60) as resp:
                data = resp.read(MAX_TARBALL_BYTES + 1)
            if len(data) > MAX_TARBALL_BYTES:
                raise FetchError(f"{url} is larger than {MAX_TARBALL_BYTES:,} bytes.")
            return data
        except OSError as exc:
            last = exc
            time.sleep(1 + attempt)
    raise FetchError(f"Could not download {url}: {last}.")


def verify_integrity(data: bytes, integrity: str) -> None:
    """Check ``data`` against an SRI string such as ``sha512-<base64>`` (the strongest sha512 entry).

    >>> verify_integrity(b"x", "sha512-" + base64.b64encode(hashlib.sha512(b"x").digest()).decode())
    """
    wanted = [entry.split("-", 1)[1] for entry in integrity.split() if entry.startswith("sha512-")]
    if not wanted:
        raise FetchError(f"The registry published no sha512 integrity hash ({integrity!r}).")
    got = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if got not in wanted:
        raise FetchError("The downloaded tarball does not match the registry's published sha512 integrity hash.")


def safe_extract(data: bytes, dest: Path) -> None:
    """Unpack an npm tarball (files under ``package/``) into ``dest``: regular files and folders only,
    every path kept inside ``dest``."""
    dest.mkdir(parents=True)
    root = dest.resolve()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            parts = PurePosixPath(member.name).parts
            if not parts or parts[0] != "package" or PurePosixPath(member.name).is_absolute() or ".." in parts:
                raise FetchError(f"Refusing tarball entry {member.name!r} (outside package/).")
            rel = Path(*parts[1:]) if len(parts) > 1 else Path()
            target = (root / rel).resolve()
            if target != root and root not in target.parents:
                raise FetchError(f"Refusing tarball entry {member.name!r} (outside the destination).")
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
            elif member.isfile():
                target.parent.mkdir(parents=True, exist_ok=True)
                with tar.extractfile(member) as src, open(target, "wb") as out:
                    shutil.copyfileobj(src, out)
            else:
                raise FetchError(f"Refusing tarball entry {member.name!r} (links and devices are not unpacked).")


def installed_version(folder: Path) -> str | None:
    try:
        return json.loads((folder / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None


def fetch(name: str, version: str, vendor: Path) -> None:
    dest = vendor / name
    if installed_version(dest) == version:
        print(f"fetch_assets: {name}@{version} already present")
        return
    print(f"fetch_assets: fetching {name}@{version} from the npm registry")
    meta = json.loads(_get(f"{REGISTRY}/{name}/{version}"))
    dist = meta.get("dist") or {}
    tarball, integrity = dist.get("tarball"), dist.get("integrity")
    if not tarball or not integrity:
        raise FetchError(f"The registry's metadata for {name}@{version} names no tarball or integrity hash.")
    data = _get(tarball)
    verify_integrity(data, integrity)
    with tempfile.TemporaryDirectory(dir=vendor, prefix=f".{name}-") as tmp:
        unpacked = Path(tmp) / "package"
        safe_extract(data, unpacked)
        if installed_version(unpacked) != version:
            raise FetchError(f"The tarball of {name}@{version} holds another version.")
        if dest.exists():
            shutil.rmtree(dest)
        unpacked.rename(dest)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dest", type=Path, default=DEFAULT_DEST)
    args = ap.parse_args(argv)
    vendor = args.dest
    vendor.mkdir(parents=True, exist_ok=True)
    try:
        for name, version in PACKAGES:
            fetch(name, version, vendor)
    except FetchError as exc:
        print(f"fetch_assets: {exc}", file=sys.stderr)
        return 1
    missing = [f for f in REQUIRED if not (vendor / f).is_file() or (vendor / f).stat().st_size == 0]
    if missing:
        print(f"fetch_assets: missing after unpacking: {', '.join(missing)}", file=sys.stderr)
        return 1
    (vendor / ".stamp").write_text(datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") + "\n")
    print(f"fetch_assets: done ({vendor})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
