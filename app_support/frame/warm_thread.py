"""Coordinate work on long-lived threads, where PROJ and GDAL keep what they set up.

Streamlit runs every script run on a new thread. PROJ (through pyproj and through GDAL) keeps its
context and the transformations it has built per thread, so in a fresh thread the first pyproj
transform costs about 13 ms and rasterio's ``calculate_default_transform`` about 18 ms instead of
5 ms (this 2-core machine, 2026-12-02): for the slope picture and the parcel's outline that is about
40 ms of CPU on each run that draws them, in every session. :func:`run` calls a function on one of a
few threads that live as long as the process, where that set-up is done once; the function and its
answer are the same (the same library calls, only another thread).

Only plain computations go here (no Streamlit calls: the worker threads have no script context).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["WORKERS", "run"]

#: Worker threads (the machine's two cores; a call waits while both are busy).
WORKERS = 2
_PREFIX = "sloat-warm"
_POOL: ThreadPoolExecutor | None = None
_LOCK = threading.Lock()
T = TypeVar("T")


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix=_PREFIX)
        return _POOL


def run(fn: Callable[..., T], *args, **kwargs) -> T:
    """``fn(*args, **kwargs)`` on a warm worker thread; its answer, or the exception it raised.

    Called from a worker thread itself, ``fn`` runs right there (a worker never waits for another).
    """
    if threading.current_thread().name.startswith(_PREFIX):
        return fn(*args, **kwargs)
    return _pool().submit(fn, *args, **kwargs).result()
