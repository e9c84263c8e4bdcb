"""Zip archives from outside, checked before a single byte is inflated and extracted under names we choose.

- :func:`inspect_zip` -- refuses a "zip" that is not one, entry names that climb out (``..``) or are
  absolute, links, too many entries, and zip bombs (total uncompressed size or compression ratio),
  all from the central directory, before a single byte is inflated.
- :func:`extract_members` -- extracts chosen members into a directory under names *we* choose,
  streaming with a hard byte limit (a lying central directory cannot overrun it).
"""

from __future__ import annotations

import io
import re
import stat
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from sloat_core.errors import SloatInputError

__all__ = ["MAX_ZIP_UNCOMPRESSED_BYTES", "MAX_ZIP_RATIO", "MAX_ZIP_ENTRIES", "inspect_zip", "extract_members"]

MAX_ZIP_UNCOMPRESSED_BYTES = 200 * 1024 * 1024
"""Largest total uncompressed size of a zip archive (200 MB)."""

MAX_ZIP_RATIO = 100.0
"""Largest compression ratio (uncompressed / compressed) of a zip archive or of one big member."""

MAX_ZIP_ENTRIES = 1000
"""Largest number of members in a zip archive."""

_RATIO_MIN_BYTES = 1024 * 1024  # below 1 MB uncompressed the ratio says nothing about a bomb
_CHUNK = 64 * 1024


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
        An existing directory (normally from :func:`sloat_core.gis.safe_files.private_tempdir`).
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
