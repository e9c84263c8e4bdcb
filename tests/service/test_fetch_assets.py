"""tools/fetch_assets.py: the registry's integrity hash is checked before unpacking, and unpacking keeps
to the package's folder. Tarballs are built here (no network)."""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import fetch_assets as fa  # noqa: E402


def tarball(entries: dict[str, bytes | None], links: dict[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    return buf.getvalue()


def sri(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_a_tarball_matching_the_published_hash_passes_and_a_changed_byte_fails():
    data = tarball({"package/package.json": b'{"version": "1.0.0"}'})
    fa.verify_integrity(data, sri(data))
    with pytest.raises(fa.FetchError, match="does not match"):
        fa.verify_integrity(data[:-1] + bytes([data[-1] ^ 1]), sri(data))


def test_an_integrity_string_without_sha512_is_refused():
    data = b"x"
    sha1 = "sha1-" + base64.b64encode(hashlib.sha1(data).digest()).decode()
    with pytest.raises(fa.FetchError, match="no sha512"):
        fa.verify_integrity(data, sha1)


def test_unpacking_writes_the_package_files(tmp_path):
    data = tarball({"package/dist": None, "package/dist/a.js": b"1", "package/package.json": b"{}"})
    fa.safe_extract(data, tmp_path / "pkg")
    assert (tmp_path / "pkg" / "dist" / "a.js").read_bytes() == b"1"


@pytest.mark.parametrize("entries, links", [
    ({"package/../evil.js": b"x"}, None),
    ({"/etc/evil.js": b"x"}, None),
    ({"other/a.js": b"x"}, None),
    ({"package/a.js": b"x"}, {"package/link": "/etc/passwd"}),
], ids=["dotdot", "absolute", "outside-package", "symlink"])
def test_unpacking_refuses_entries_that_leave_the_package(entries, links, tmp_path):
    with pytest.raises(fa.FetchError, match="Refusing"):
        fa.safe_extract(tarball(entries, links), tmp_path / "pkg")
    assert not (tmp_path / "evil.js").exists()


def test_axe_core_is_fetched_at_a_pinned_version_and_its_script_is_required():
    """The accessibility check of the browser tests comes from the registry like the map's files."""
    versions = dict(fa.PACKAGES)
    assert versions.get("axe-core", "").count(".") == 2 and versions["axe-core"][0].isdigit()
    assert "axe-core/axe.min.js" in fa.REQUIRED
