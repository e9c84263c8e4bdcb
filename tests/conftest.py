import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Cases made by tests (in-process AppTests and the servers the browser tests start, which inherit the
# environment) go to a private folder, never into the working tree's ./var/. One folder per process:
# parallel workers (pytest-xdist sets PYTEST_XDIST_WORKER) inherit the controller's environment, and
# must not share one SQLite case store.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
os.environ["SLOAT_DATA_DIR"] = tempfile.mkdtemp(prefix=f"sloat-test-data-{_WORKER}-")


import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Hypothesis profiles. "ci" (CI=... in the environment, and `make test`) is derandomised: every run tries
# the same examples, so a red run is reproducible and a green one is not luck; print_blob prints the
# reproduction blob of any failure; no deadline (a shared 2-core machine is slow by moments, and speed
# is measured in `make bench`, never asserted); no example database written into the tree.
# "dev" (the default elsewhere) explores new random examples each run. HYPOTHESIS_PROFILE overrides both.
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None, database=None)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


#: Test modules whose module-scoped fixtures are costly (a sample regeneration, a PDF, a case store):
#: their tests stay together on one parallel worker so the fixture is built once.
_KEEP_TOGETHER = {"test_sample_data.py", "test_report.py", "test_exports.py", "test_cases.py",
                  "test_no_html_injection.py", "test_properties.py"}

#: Browser test files of the first group (the rest form the second); measured one by one, the two groups
#: take about as long (app + cases + nowrap 149 s, audiences + pages 153 s, 2026-12-01).
# Balanced from the per-file times of a whole run (2026-12-02: A 329 s, B 494 s before the a11y files moved to A).
_BROWSER_A = {"test_browser_app.py", "test_browser_cases.py", "test_citation_nowrap.py", "test_browser_axe.py",
              "test_browser_cluster.py", "test_browser_a11y_charts.py", "test_browser_a11y_keyboard.py",
              "test_browser_a11y_parcel.py", "test_browser_screen_reader.py"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Groups for ``pytest -n 2 --dist loadgroup`` (see pytest.ini): the browser tests form two groups of
    about equal length, each run on one worker (its own chromium and streamlit servers on free ports;
    screenshots have distinct names), and the modules above each run on one worker. Everything else is
    spread over the workers test by test."""
    for item in items:
        path = item.path
        if "browser" in path.parts:
            group = "browser-a" if path.name in _BROWSER_A else "browser-b"
            item.add_marker(pytest.mark.xdist_group(group))
        elif path.name in _KEEP_TOGETHER:
            item.add_marker(pytest.mark.xdist_group(path.stem))


@pytest.fixture(autouse=True)
def router_as_served(monkeypatch):
    """Run app.py (the router, its sidebar and its save) on every AppTest run, as the server does.

    AppTest resets ``PagesManager.uses_pages_directory`` before each run; with a ``pages/`` folder
    beside app.py its runs after the first then execute the page file alone (the old folder-based
    multipage mode), skipping app.py. The server decides once per process, and app.py's
    ``st.navigation`` turns that mode off, so every server run goes through app.py.
    """
    import streamlit.testing.v1.app_test as app_test_module

    real = app_test_module.PagesManager

    class AsServed(real):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            real.uses_pages_directory = False

    monkeypatch.setattr(app_test_module, "PagesManager", AsServed)


@pytest.fixture()
def manifest(tmp_path, monkeypatch):
    """The AppTests' hand-built layer set (tests/app_fixtures.py), written to tmp_path and served via
    ``SLOAT_LAYERS`` as the app reads it."""
    import app_fixtures as fx

    path = fx.write_layerset(tmp_path)
    monkeypatch.setenv("SLOAT_LAYERS", str(path))
    return path


@pytest.fixture()
def split_manifest(tmp_path, monkeypatch):
    """The same layer set with a zoning layer splitting P1 down the middle (R-40 west, R-15 east:
    ``app_fixtures.write_split_layerset``), served via ``SLOAT_LAYERS``."""
    import app_fixtures as fx

    path = fx.write_split_layerset(tmp_path)
    monkeypatch.setenv("SLOAT_LAYERS", str(path))
    return path


@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    """A fresh case store for the test (``SLOAT_DATA_DIR``)."""
    folder = tmp_path / "cases"
    monkeypatch.setenv("SLOAT_DATA_DIR", str(folder))
    return folder


@pytest.fixture()
def media(monkeypatch):
    """The media file managers of the AppTest runs (newest last), to read download bytes from."""
    import streamlit.testing.v1.app_test as app_test_module
    from streamlit.runtime.media_file_manager import MediaFileManager

    managers: list[MediaFileManager] = []

    class Recording(MediaFileManager):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            managers.append(self)

    monkeypatch.setattr(app_test_module, "MediaFileManager", Recording)
    return managers
