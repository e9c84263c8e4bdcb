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
- :func:`run_bounded` -- runs a parse in its own worker process under a memory, processor-time and
  wall-clock limit, so that no single upload can use more than :data:`PARSE_LIMITS` of the server.

The upload limit is declared once, as ``server.maxUploadSize`` in ``.streamlit/config.toml`` (the
Streamlit server refuses larger uploads itself; the proxy in front takes the same number from
there); :data:`MAX_UPLOAD_BYTES` is read from it.
"""

from __future__ import annotations

import contextlib
import io
import logging
import multiprocessing
import multiprocessing.util
import re
import shutil
import signal
import stat
import tempfile
import threading
import time
import tomllib
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

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
    "ParseLimits",
    "PARSE_LIMITS",
    "run_bounded",
    "last_parse",
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
            f"The file is {n_bytes / 2**20:,.1f} MB, larger than the {max_bytes / 2**20:,.1f} MB limit for uploads."
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



# ------------------------------------------------------------------------------------------------
# Bounded parsing: a worker process with limits
# ------------------------------------------------------------------------------------------------

_log = logging.getLogger("sloat.safe_files")


@dataclass(frozen=True)
class ParseLimits:
    """What one parse may use of the server.

    Attributes
    ----------
    memory_bytes : int
        Address space the worker may add to what it holds when it starts (its code and libraries,
        about 0.5 GB of mostly shared pages): ``RLIMIT_AS`` is set to the start size plus this.
    cpu_seconds : int
        Processor time (``RLIMIT_CPU``); one parse never uses more than one core.
    wall_seconds : float
        Time in all, from the worker's start to its answer; the worker is killed after it.
    workers : int
        Parses run at once by one server process; the next waits (at most ``wall_seconds``) for a free one.
    """

    memory_bytes: int = 768 * 1024 * 1024
    cpu_seconds: int = 20
    wall_seconds: float = 30.0
    workers: int = 2


PARSE_LIMITS = ParseLimits()
"""The stated share of the server one upload may use: 768 MB, 20 s of one core, 30 s in all, 2 at once."""

_PRELOAD = ["sloat_core.gis.parcels.formats", "sloat_core.store.case"]
_ctx_lock = threading.Lock()
_ctx: Any = None
_slots: dict[int, threading.BoundedSemaphore] = {}


def _context() -> Any:
    """Where workers come from.

    A process with one thread (the command line) forks its worker directly: nothing can be holding a lock.
    A threaded server (Streamlit) uses a fork server: workers fork from a clean process that has the readers
    imported (about 10 ms a worker once it runs). If the fork server cannot start (its socket's folder path
    is too long, say), workers fork directly; a worker stuck on a lock is stopped by the wall-clock limit.
    """
    global _ctx
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    with _ctx_lock:
        if _ctx is None:
            _ctx = _forkserver_context()
        return _ctx


def _forkserver_context() -> Any:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(_PRELOAD)
    # multiprocessing keeps one private folder (for the fork server's socket) for the process's life:
    # make it in the system's temporary folder, not in whatever folder tempfile points at right now.
    saved, tempfile.tempdir = tempfile.tempdir, None
    try:
        multiprocessing.util.get_temp_dir()
        from multiprocessing import forkserver

        with _main_hidden():
            forkserver.ensure_running()
    except OSError as exc:
        _log.warning("parse fork server could not start (%s); workers fork directly", exc)
        return multiprocessing.get_context("fork")
    finally:
        tempfile.tempdir = saved
    return ctx


_main_lock = threading.Lock()


@contextlib.contextmanager
def _main_hidden() -> Iterator[None]:
    """Hide the main module's name and path while a fork-server process or worker is started.

    multiprocessing passes them along so that the fork server and every worker would import the main script
    (Streamlit's command line, pytest's) again; the readers, preloaded, are all a worker needs.
    """
    import sys

    with _main_lock:
        main = sys.modules.get("__main__")
        if main is None:
            yield
            return
        missing = object()
        saved = {k: main.__dict__.get(k, missing) for k in ("__file__", "__spec__")}
        main.__dict__.pop("__file__", None)
        main.__dict__["__spec__"] = None
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is missing:
                    main.__dict__.pop(k, None)
                else:
                    main.__dict__[k] = v


def _slot(limits: ParseLimits) -> threading.BoundedSemaphore:
    with _ctx_lock:
        return _slots.setdefault(limits.workers, threading.BoundedSemaphore(limits.workers))


def _vm_size_bytes() -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


_last = threading.local()


def last_parse() -> dict[str, float] | None:
    """What this thread's last :func:`run_bounded` worker used: ``peak_rss_bytes``, ``cpu_seconds``, ``wall_seconds``
    (``None`` before the first; the peak and processor time are missing when the worker was killed)."""
    return getattr(_last, "stats", None)


def _usage() -> dict[str, float]:
    import resource

    ru = resource.getrusage(resource.RUSAGE_SELF)
    peak = None
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return {"peak_rss_bytes": float(peak if peak is not None else ru.ru_maxrss * 1024),
            "cpu_seconds": ru.ru_utime + ru.ru_stime}


def _worker(conn: Any, fn: Callable[..., Any], args: tuple, kwargs: dict, limits: ParseLimits, tmpdir: str | None) -> None:
    """Runs in the worker process: set the limits, run ``fn``, send back ("ok", value) or ("input", sentence)."""
    try:
        import resource

        start = _vm_size_bytes()
        if start is not None:
            cap = start + limits.memory_bytes
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):  # not Linux: the wall-clock limit still holds
        pass
    if tmpdir:
        tempfile.tempdir = tmpdir
    try:
        result: tuple = ("ok", fn(*args, **kwargs))
    except SloatInputError as exc:  # sent whole: a subclass may carry more (the polygons to choose from)
        exc.__traceback__ = exc.__cause__ = exc.__context__ = None
        result = ("input", exc)
    except MemoryError:
        result = ("memory", "")
    except BaseException as exc:  # noqa: BLE001 -- the parent logs it and shows one sentence
        import traceback

        result = ("error", "".join(traceback.format_exception(exc))[-4000:])
    try:
        conn.send((*result, _usage()))
    except MemoryError:
        conn.send(("memory", "", {}))
    except Exception as exc:  # noqa: BLE001 -- e.g. an unpicklable value
        conn.send(("error", repr(exc)[:4000], {}))
    finally:
        conn.close()


def _too_much(limits: ParseLimits, what: str) -> SloatInputError:
    return SloatInputError(
        f"Reading the file needed more {what} than one upload may use "
        f"({limits.memory_bytes // 2**20:,} MB of memory, {limits.cpu_seconds} s of processor time, "
        f"{limits.wall_seconds:g} s in all), so it was refused; simplify the file and try again."
    )


def run_bounded(fn: Callable[..., Any], *args: Any, limits: ParseLimits = PARSE_LIMITS, **kwargs: Any) -> Any:
    """Run ``fn(*args, **kwargs)`` in a worker process with a memory, processor-time and wall-clock limit.

    ``fn`` must be a module-level function and its arguments and result picklable. The calling
    thread waits; the server's other sessions do not (the parse uses the worker's core and memory,
    never the server's). A worker past a limit is killed and the file refused in one sentence.

    Parameters
    ----------
    fn : callable
        The parse.
    limits : ParseLimits
        The share of the server it may use.

    Returns
    -------
    object
        What ``fn`` returned.

    Raises
    ------
    SloatInputError
        What ``fn`` raised, or one sentence saying which limit the parse passed.
    """
    started = time.monotonic()
    deadline = started + limits.wall_seconds
    _last.stats = None
    slot = _slot(limits)
    if not slot.acquire(timeout=limits.wall_seconds):
        raise SloatInputError("The server is busy reading other files; try the upload again in a minute.")
    try:
        ctx = _context()
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, args=(send, fn, args, kwargs, limits, tempfile.gettempdir()),
                           daemon=True, name="sloat-parse")
        if ctx.get_start_method() == "fork":
            proc.start()
        else:
            with _main_hidden():
                proc.start()
        send.close()
        try:
            ready = recv.poll(max(0.0, deadline - time.monotonic()))
            message = None
            if ready:
                try:
                    message = recv.recv()
                except (EOFError, OSError):
                    message = None
        finally:
            recv.close()
            if proc.is_alive() and message is None:
                proc.kill()
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join()
        _last.stats = {"wall_seconds": time.monotonic() - started, **(message[2] if message else {})}
        if message is None:
            code = proc.exitcode
            if not ready:
                _log.warning("parse worker killed after %.0f s (wall-clock limit)", limits.wall_seconds)
                raise _too_much(limits, "time")
            if code in (-signal.SIGXCPU, -signal.SIGKILL):
                _log.warning("parse worker stopped by its processor-time limit (exit %s)", code)
                raise _too_much(limits, "processor time")
            _log.warning("parse worker ended without an answer (exit %s)", code)
            raise _too_much(limits, "memory")
        kind, value, _ = message
        if kind == "ok":
            return value
        if kind == "input":
            raise value if isinstance(value, SloatInputError) else SloatInputError(str(value))
        if kind == "memory":
            _log.warning("parse worker ran out of its memory limit")
            raise _too_much(limits, "memory")
        _log.error("parse worker failed:\n%s", value)
        raise SloatInputError("The file could not be read (an unexpected problem inside it).")
    finally:
        slot.release()

