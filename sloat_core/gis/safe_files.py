"""Safety checks for files that come from outside: the upload limit, temporary folders, XML, names.

Everything here runs *before* a file is handed to GDAL, so a hostile upload is refused by size or by XML
declarations without being parsed or followed. Zip archives are checked in :mod:`sloat_core.gis.safe_zip`,
and every parse runs under a memory, processor-time and wall-clock limit in
:mod:`sloat_core.gis.bounded_parse`.

- :func:`check_upload_size` -- the byte limit, checked first.
- :func:`private_tempdir` -- a private temporary directory that is always removed.
- :func:`refuse_xml_declarations` -- refuses XML with a DOCTYPE or ENTITY declaration (XXE).
- :func:`safe_display_name` -- a file name reduced to plain printable text.

The upload limit is declared once, as ``server.maxUploadSize`` in ``.streamlit/config.toml`` (the
Streamlit server refuses larger uploads itself; the proxy in front takes the same number from
there); :data:`MAX_UPLOAD_BYTES` is read from it.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

from sloat_core.errors import SloatInputError

__all__ = [
    "MAX_UPLOAD_BYTES",
    "check_upload_size",
    "private_tempdir",
    "refuse_xml_declarations",
    "safe_display_name",
    "upload_limit_mb",
]

_CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"


def upload_limit_mb(config: Path = _CONFIG) -> int:
    """``server.maxUploadSize`` of the app's Streamlit configuration: the one declaration of the upload limit.

    Streamlit counts it in MiB (``maxUploadSize * 1024 * 1024`` bytes).
    """
    return int(tomllib.loads(config.read_text(encoding="utf-8"))["server"]["maxUploadSize"])


MAX_UPLOAD_BYTES = upload_limit_mb() * 1024 * 1024
"""Largest upload accepted, in bytes (``server.maxUploadSize`` MiB of .streamlit/config.toml)."""


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
            f"The file is {n_bytes / 2**20:,.1f} MB, larger than the {max_bytes / 2**20:,.1f} MB limit for uploads."
        )


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
