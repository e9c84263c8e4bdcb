"""Safety checks for files that come from outside: uploads, zip archives, XML.

Everything here runs *before* a file is handed to GDAL, so a hostile upload is refused by size,
by archive layout or by XML declarations without being parsed, extracted or followed.

- :func:`check_upload_size` -- the byte limit, checked first.
- :func:`inspect_zip` -- refuses a "zip" that is not one, entry names that climb out (``..``) or are
  absolute, links, too many entries, and zip bombs (total uncompressed size or compression ratio),
  all from the central directory, before a single byte is inflated.
- :func:`extract_members` -- extracts chosen members into a directory under names *we* choose,
  streaming with a hard byte limit (a lying central directory cannot overrun it).
- :func:`private_tempdir` -- a private temporary directory that is always removed.
- :func:`refuse_xml_declarations` -- refuses XML with a DOCTYPE or ENTITY declaration (XXE).
- :func:`safe_display_name` -- a file name reduced to plain printable text.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath

from sloat_core.errors import SloatInputError

__all__ = [
    "MAX_UPLOAD_BYTES",
    "MAX_ZIP_UNCOMPRESSED_BYTES",
    "MAX_ZIP_RATIO",
    "MAX_ZIP_ENTRIES",
    "check_upload_size",
    "inspect_zip",
    "extract_members",
    "private_tempdir",
    "refuse_xml_declarations",
    "safe_display_name",
]

MAX_UPLOAD_BYTES = 25 * 1024 * 1024
"""Default largest upload accepted (25 MB)."""

MAX_ZIP_UNCOMPRESSED_BYTES = 200 * 1024 * 1024
"""Largest total uncompressed size of a zip archive (200 MB)."""

MAX_ZIP_RATIO = 100.0
"""Largest compression ratio (uncompressed / compressed) of a zip archive or of one big member."""

MAX_ZIP_ENTRIES = 1000
"""Largest number of members in a zip archive."""

_RATIO_MIN_BYTES = 1024 * 1024  # below 1 MB uncompressed the ratio says nothing about a bomb
_CHUNK = 64 * 1024


def check_upload_size(n_bytes: int, max_bytes: int = MAX_UPLOAD_BYTES) -> None:
    """Refuse an upload larger than ``max_bytes``.

    Parameters
    ----------
    n_bytes : int
        Size of the upload in bytes.
    max_bytes : int
        The limit in bytes.

    Raises
    ------
    SloatInputError
        If ``n_bytes`` exceeds the limit.

    Examples
    --------
    >>> check_upload_size(10, max_bytes=100)
    """
    if n_bytes > max_bytes:
        raise SloatInputError(
            f"The file is {n_bytes / 1e6:,.1f} MB, larger than the {max_bytes / 1e6:,.1f} MB limit for uploads."
        )


def _bad_member_name(name: str) -> bool:
    """True when a zip member name is absolute or climbs out of the extraction folder."""
    if not name:
        return True
    norm = name.replace("\\", "/")
    if norm.startswith("/") or re.match(r"^[A-Za-z]:", norm):
        return True
    if "\x00" in norm:
        return True
    return any(part == ".." for part in PurePosixPath(norm).parts)


def inspect_zip(
    source: bytes | str | Path,
    *,
    max_total_bytes: int = MAX_ZIP_UNCOMPRESSED_BYTES,
    max_ratio: float = MAX_ZIP_RATIO,
    max_entries: int = MAX_ZIP_ENTRIES,
) -> list[zipfile.ZipInfo]:
    """Check a zip archive from its central directory, without inflating anything.

    Parameters
    ----------
    source : bytes or path
        The archive.
    max_total_bytes : int
        Largest total uncompressed size allowed.
    max_ratio : float
        Largest compression ratio allowed (for the whole archive and for any member over 1 MB).
    max_entries : int
        Largest number of members allowed.

    Returns
    -------
    list of zipfile.ZipInfo
        The members (directories included), in archive order.

    Raises
    ------
    SloatInputError
        Not a zip; a member name with ``..`` or an absolute path; a link; too many members;
        too large once uncompressed; compressed suspiciously well (a zip bomb).
    """
    handle = io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source
    if not zipfile.is_zipfile(handle):
        raise SloatInputError("The file is not a valid zip archive.")
    if isinstance(handle, io.BytesIO):
        handle.seek(0)
    try:
        with zipfile.ZipFile(handle) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError) as exc:
        raise SloatInputError("The file is not a valid zip archive.") from exc
    if len(infos) > max_entries:
        raise SloatInputError(f"The zip archive holds {len(infos):,} files, more than the {max_entries:,} allowed.")
    total = 0
    total_compressed = 0
    for info in infos:
        if _bad_member_name(info.filename):
            raise SloatInputError(
                "The zip archive contains a file path that points outside the archive, so it was refused."
            )
        mode = (info.external_attr >> 16) & 0xFFFF
        if stat.S_ISLNK(mode):
            raise SloatInputError("The zip archive contains a link to another file, so it was refused.")
        if info.flag_bits & 0x1:
            raise SloatInputError("The zip archive is password-protected, so it cannot be read.")
        total += info.file_size
        total_compressed += info.compress_size
        if info.file_size > _RATIO_MIN_BYTES and info.file_size / max(info.compress_size, 1) > max_ratio:
            raise SloatInputError(
                "The zip archive expands far more than real map files do (a possible zip bomb), so it was refused."
            )
    if total > max_total_bytes:
        raise SloatInputError(
            f"The zip archive would expand to {total / 1e6:,.0f} MB, more than the "
            f"{max_total_bytes / 1e6:,.0f} MB allowed."
        )
    if total > _RATIO_MIN_BYTES and total / max(total_compressed, 1) > max_ratio:
        raise SloatInputError(
            "The zip archive expands far more than real map files do (a possible zip bomb), so it was refused."
        )
    return infos


def extract_members(
    source: bytes | str | Path,
    members: Mapping[str, str],
    dest: str | Path,
    *,
    max_total_bytes: int = MAX_ZIP_UNCOMPRESSED_BYTES,
) -> dict[str, Path]:
    """Extract chosen zip members into ``dest`` under names chosen by the caller.

    The archive's own paths are never used to build output paths; each output name must be a
    plain file name. Bytes are streamed and counted: extraction stops and is refused when a member
    grows past its declared size or the total passes ``max_total_bytes``.

    Parameters
    ----------
    source : bytes or path
        The archive (check it with :func:`inspect_zip` first).
    members : mapping
        ``{member name in the archive: plain output file name}``.
    dest : path
        An existing directory (normally from :func:`private_tempdir`).
    max_total_bytes : int
        Hard limit on the bytes written.

    Returns
    -------
    dict
        ``{member name: written path}``.

    Raises
    ------
    SloatInputError
        If an output name is not a plain file name or the limits are passed.
    """
    dest_dir = Path(dest).resolve()
    handle = io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source
    written = 0
    out: dict[str, Path] = {}
    with zipfile.ZipFile(handle) as zf:
        for member, out_name in members.items():
            if not out_name or Path(out_name).name != out_name or out_name in (".", ".."):
                raise SloatInputError("An output file name for the zip archive was not a plain file name.")
            target = (dest_dir / out_name).resolve()
            if target.parent != dest_dir:
                raise SloatInputError("An output file name for the zip archive was not a plain file name.")
            info = zf.getinfo(member)
            member_bytes = 0
            try:
                with zf.open(info) as src, open(target, "xb") as dst:
                    while True:
                        chunk = src.read(_CHUNK)
                        if not chunk:
                            break
                        member_bytes += len(chunk)
                        written += len(chunk)
                        if member_bytes > info.file_size or written > max_total_bytes:
                            raise SloatInputError(
                                "The zip archive expands to more than it declares (a possible zip bomb), "
                                "so it was refused."
                            )
                        dst.write(chunk)
            except (zipfile.BadZipFile, OSError, EOFError, RuntimeError) as exc:
                raise SloatInputError("A file inside the zip archive is damaged and could not be read.") from exc
            out[member] = target
    return out


@contextlib.contextmanager
def private_tempdir(prefix: str = "sloat-") -> Iterator[Path]:
    """A private temporary directory (mode 0700) that is always removed on exit.

    Yields
    ------
    pathlib.Path
        The directory.
    """
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


_XML_DECL = re.compile(rb"<!\s*(doctype|entity)", re.IGNORECASE)


def refuse_xml_declarations(data: bytes) -> None:
    """Refuse XML (KML) that carries a DOCTYPE or ENTITY declaration.

    KML never needs one; an external entity (``<!ENTITY x SYSTEM "file:///etc/passwd">``) would
    make the parser read local files. UTF-16 text is checked too (its zero bytes are ignored).

    Parameters
    ----------
    data : bytes
        The raw file.

    Raises
    ------
    SloatInputError
        If a declaration is present.

    Examples
    --------
    >>> refuse_xml_declarations(b"<kml><Placemark/></kml>")
    """
    probe = data.replace(b"\x00", b"")
    if _XML_DECL.search(probe):
        raise SloatInputError(
            "The KML file contains a DOCTYPE or ENTITY declaration, which map files never need, so it was refused."
        )


def safe_display_name(name: str | None, default: str = "upload") -> str:
    """A file name reduced to its last component, printable characters only, at most 80 characters.

    Examples
    --------
    >>> safe_display_name("../../etc/pa\\x00sswd")
    'passwd'
    """
    if not name:
        return default
    base = str(name).replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(ch for ch in base if ch.isprintable())
    base = base.strip()
    return base[:80] or default
