"""Bounded parsing: each parse of a file from outside runs in its own worker process under a memory,
processor-time and wall-clock limit, so that no single upload can use more than :data:`PARSE_LIMITS` of
the server.

- :class:`ParseLimits` and :data:`PARSE_LIMITS` -- the share of the server one parse may use.
- :func:`run_bounded` -- runs a parse in a worker under those limits; a worker past one is killed and the
  file refused in one sentence.
- :func:`last_parse` -- what this thread's last worker used.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import multiprocessing.util
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sloat_core.errors import SloatInputError

__all__ = ["ParseLimits", "PARSE_LIMITS", "run_bounded", "last_parse"]

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

_PRELOAD = ["sloat_core.gis.parcels.formats", "sloat_core.store.case", "sloat_core.plan.reading"]
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
