"""tools/serve.py's settings for a server nobody edits: compiled scripts are kept while no session is connected."""

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
