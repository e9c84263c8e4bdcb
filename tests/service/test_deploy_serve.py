"""tools/serve.py's settings for a server nobody edits: compiled scripts are kept while no session is connected;
the connections it accepts send their replies at once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit import config
from streamlit.runtime.scriptrunner.script_cache import ScriptCache

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import serve  # noqa: E402


@pytest.fixture
def launcher_cache(monkeypatch):
    monkeypatch.setattr(ScriptCache, "clear", ScriptCache.clear)  # put back after the test
    watcher = config.get_option("server.fileWatcherType")
    serve.keep_compiled_scripts()
    serve.keep_compiled_scripts()  # idempotent: wrapped once
    assert ScriptCache.clear._sloat_keeps
    cache = ScriptCache()
    cache.get_bytecode(str(Path(serve.ROOT) / "tools" / "serve.py"))
    yield cache
    config.set_option("server.fileWatcherType", watcher)


def test_without_a_file_watcher_the_compiled_scripts_stay(launcher_cache):
    config.set_option("server.fileWatcherType", "none")
    launcher_cache.clear()  # what Streamlit does when the last session disconnects
    assert len(launcher_cache._cache) == 1


def test_with_a_file_watcher_they_are_dropped_as_before(launcher_cache):
    config.set_option("server.fileWatcherType", "auto")
    launcher_cache.clear()
    assert launcher_cache._cache == {}


def test_cached_functions_name_their_arguments_as_streamlit_does(monkeypatch):
    """The launcher keeps each cached function's positional argument names (fast_cache_keys): the same names
    Streamlit's own look-up gives, for every place and kind of parameter, and the look-up is asked once."""
    import gc
    import weakref

    from streamlit.runtime.caching import cache_utils

    original = cache_utils._get_positional_arg_name
    monkeypatch.setattr(cache_utils, "_get_positional_arg_name", original)  # put back after the test
    asked = []

    def counting(func, arg_index):
        asked.append((id(func), arg_index))
        return original(func, arg_index)

    monkeypatch.setattr(cache_utils, "_get_positional_arg_name", counting)
    serve.fast_cache_keys()
    serve.fast_cache_keys()  # idempotent: wrapped once
    kept = cache_utils._get_positional_arg_name
    assert kept._sloat_keeps

    def plain(a, _b, /, c, *args, d=1, **kw): ...
    class Called:
        def __call__(self, x): ...

    for func in (plain, Called(), cache_utils._make_value_key):
        for place in range(-1, 7):
            assert kept(func, place) == original(func, place), (func, place)
            assert kept(func, place) == original(func, place)
    assert kept(plain, 0) == "a" and kept(plain, 1) == "_b" and kept(plain, 2) == "c" and kept(plain, 3) is None
    assert len(asked) == len(set(asked)) == 3 * 8  # each (function, place) asked once
    ref = weakref.ref(plain)
    del plain
    gc.collect()
    assert ref() is None  # a function dropped is not kept alive by the names


def _accepted_nodelay(bind_socket) -> int:
    """TCP_NODELAY of a connection accepted on a listening socket made by ``bind_socket``, as the server makes its
    own (address, port, backlog)."""
    import socket

    listener = bind_socket("127.0.0.1", 0, 8)
    try:
        with socket.create_connection(listener.getsockname()[:2], timeout=5):
            listener.setblocking(True)
            listener.settimeout(5)
            accepted, _ = listener.accept()
            with accepted:
                return accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        listener.close()


def test_each_connection_the_launched_server_accepts_sends_its_replies_at_once(monkeypatch):
    """Streamlit binds its listening socket itself, with proto 0, so asyncio leaves Nagle's algorithm on for the
    connections it accepts (on a kept-alive connection each small reply then waited 40 ms for the browser's delayed
    acknowledgement); the launcher's listening socket hands TCP_NODELAY to every connection it accepts."""
    from streamlit.web.server.starlette import starlette_server

    original = starlette_server._bind_socket
    monkeypatch.setattr(starlette_server, "_bind_socket", original)  # put back after the test
    assert _accepted_nodelay(original) == 0, "Streamlit now switches Nagle off itself: the launcher's fix can go"
    serve.no_delayed_replies()
    serve.no_delayed_replies()  # idempotent: wrapped once
    assert starlette_server._bind_socket._sloat_keeps
    assert _accepted_nodelay(starlette_server._bind_socket) != 0
