import gc
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


#: Rough seconds per test of the slowest files (their summed times over their tests, two clean-clone runs of
#: 2026-12-07 on this project's 2-core machine; bench/README.md keeps the dated figures). Used only to order the
#: work units (``_longest_first``).
_SECONDS_PER_TEST = {
    "test_browser_a11y_reflow.py": 3.2, "test_browser_audiences.py": 3.8, "test_browser_app.py": 2.5,
    "test_browser_cases.py": 4.3, "test_browser_walkthrough.py": 3.3, "test_browser_pages.py": 0.2,
    "test_browser_a11y_announcements.py": 4.8, "test_browser_a11y_keyboard.py": 8, "test_browser_plan.py": 7.3,
    "test_browser_screen_reader.py": 11, "test_browser_navigation.py": 3, "test_browser_a11y_answer_target.py": 6,
    "test_browser_a11y_charts.py": 0.2,
    "test_browser_numbers.py": 5.2, "test_browser_map_scroll.py": 5.7, "test_citation_nowrap.py": 0.2,
    "test_browser_documents.py": 8.3, "test_browser_deep_links.py": 3.9, "test_browser_axe.py": 0.2,
    "test_screen_parity.py": 0.9, "test_hostile_cli.py": 0.16, "test_report.py": 0.9, "test_documents_handout.py": 1,
    "test_sample_data.py": 0.2, "test_deploy_deep_links.py": 2.3, "test_hostile_bounded_uploads.py": 0.55,
    "test_real_data_layers.py": 0.6, "test_app_pages.py": 0.17, "test_properties.py": 1, "test_app_cases.py": 0.3,
    "test_app_plan.py": 0.34, "test_deploy_ops.py": 0.8, "test_documents_pdf.py": 0.5, "test_hostile_messages.py": 2.1,
    "test_deploy.py": 0.5, "test_official_answers.py": 0.45, "test_plan_cli.py": 0.4,
}
#: Every other browser test, and every other test.
_BROWSER_SECONDS, _OTHER_SECONDS = 2.5, 0.15
#: Single tests known to take far longer than their file's share: handed out with the first.
_SLOW_TESTS = {"test_screen_marks_parcels_off_the_firm_panels_unknown": 5,
               "test_screen_equals_analyze_on_every_sample_tax_parcel": 4,
               "test_regeneration_gives_the_same_dem_within_one_quantisation_step": 9}


def _group(item) -> str | None:
    """The item's xdist group: its own mark (the deploy tests share their servers), else one group per browser
    module (a worker starts the app's servers and chromium once, for every browser module it runs), else one
    group per module that defines a module-scoped fixture (built once, on one worker), else none (the test is
    spread on its own). A module whose tests should spread yet share a costly value defines it with session
    scope instead (built once per worker: tests/engine/test_screen_parity.py)."""
    for mark in item.iter_markers("xdist_group"):
        return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    if "browser" in item.path.parts:
        return f"browser-{item.path.stem}"
    module_id = item.nodeid.split("::", 1)[0]
    fixtureinfo = getattr(item, "_fixtureinfo", None)
    for defs in (fixtureinfo.name2fixturedefs.values() if fixtureinfo is not None else ()):
        if any(d.scope in ("module", "package") and d.baseid == module_id for d in defs):
            return item.path.stem
    return None


def _seconds(item) -> float:
    name = item.name.split("[", 1)[0]
    if name in _SLOW_TESTS:
        return _SLOW_TESTS[name]
    default = _BROWSER_SECONDS if "browser" in item.path.parts else _OTHER_SECONDS
    return _SECONDS_PER_TEST.get(item.path.name, default)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Groups for ``pytest -n 2 --dist loadgroup`` (see pytest.ini), marked before xdist reads the marks.

    Each browser module is one group, run on one worker with that worker's chromium and streamlit servers
    (on free ports; screenshots have distinct names); each module with a module-scoped fixture is one group,
    so the fixture is built once; the deploy tests share one group (their own mark). Everything else is
    spread over the workers test by test."""
    for item in items:
        group = _group(item)
        if group is not None and not list(item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.xdist_group(group))


def _longest_first(items) -> None:
    """The order of the work units on a worker (``--no-loadscope-reorder`` in pytest.ini): longest first.

    xdist hands out work units (a group, or a test alone) in the order of the collection, each to the first
    worker with at most two tests left. Sorted by their rough length (``_seconds``), the browser modules and
    the slow groups go out first and the many short tests fill in behind them, so both workers end at about
    the same time. The order is the same on every worker (xdist checks it); within a unit pytest's own order
    is kept. Run in one process (``-n 0``) the order is pytest's own."""
    unit_of = {id(item): (_group(item) or item.nodeid) for item in items}
    cost: dict[str, float] = {}
    first_seen: dict[str, int] = {}
    for i, item in enumerate(items):
        unit = unit_of[id(item)]
        cost[unit] = cost.get(unit, 0.0) + _seconds(item)
        first_seen.setdefault(unit, i)
    position = {id(item): i for i, item in enumerate(items)}
    items.sort(key=lambda item: (-cost[unit_of[id(item)]], first_seen[unit_of[id(item)]], position[id(item)]))


class _Order:
    """Sorts the collection after pytest (and its fixture order) and xdist have had their say."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if os.environ.get("PYTEST_XDIST_WORKER"):
            _longest_first(items)


def pytest_configure(config):
    config.pluginmanager.register(_Order(), "sloat-longest-first")


#: The test process's garbage collector, once the tests are collected: a collection's generations 0, 1 and 2 are
#: run after 10,000 net allocations (Python's default 700), every 10th of those and every 10th of those (10, 10).
TEST_GC_THRESHOLDS = (10_000, 10, 10)


def pytest_collection_finish(session):
    """What collecting imported and built (Streamlit, GeoPandas, Plotly, the project: most of a worker's heap, kept to
    the end) is moved out of the collector's way (``gc.freeze``), and the collector runs less often. A full
    collection scanned that whole heap, 0.2 s each, 40-50 times a worker: 12 of a worker's 82 CPU-s in tests/app,
    tests/engine and tests/outputs, 3.5 after (bench/README.md, "How long make test takes"). Objects are still
    freed as before (reference counts); only cycles wait longer. The app's server does the same (tools/serve.py)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*TEST_GC_THRESHOLDS)


def _bench_baseline():
    """bench/baseline.py, imported as the bench and its tests import it (bench/ on the path: it is not a package)."""
    bench = str(Path(__file__).resolve().parents[1] / "bench")
    if bench not in sys.path:
        sys.path.insert(0, bench)
    import baseline

    return baseline


#: The speed probe's seconds at the start of the run (the controller's).
_SPEED_AT_START = pytest.StashKey[float]()


def pytest_sessionstart(session):
    """The machine's speed as the run starts (the controller only): printed with the run's end."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        session.config.stash[_SPEED_AT_START] = _bench_baseline().speed_probe_s()


def pytest_terminal_summary(terminalreporter, config):
    """The machine's speed at the start and the end of the run, beside its time: the bench's fixed piece of pure
    Python (bench/baseline.py ``speed_probe_s``) and what it took when the bench's baseline was kept. This virtual
    machine's speed changes by a third within the hour (bench/README.md), so a run's time is read with it."""
    if os.environ.get("PYTEST_XDIST_WORKER") or _SPEED_AT_START not in config.stash:
        return
    bench = _bench_baseline()
    now, kept = bench.speed_probe_s(), ((bench.load_baseline() or {}).get("machine") or {}).get("speed_probe_s")
    said = f"; {kept:.3f} s when bench/baseline.json was kept" if kept else ""
    terminalreporter.write_line(f"Machine speed probe (bench/baseline.py): {config.stash[_SPEED_AT_START]:.3f} s at "
                                f"the start, {now:.3f} s at the end{said}")


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


#: Streamlit's scan of the installed packages for components, done once per test process (see below).
_COMPONENT_SCAN: list = []


@pytest.fixture(autouse=True)
def components_scanned_once(monkeypatch):
    """Each new AppTest scans every installed distribution's metadata for Streamlit components (about a hundred
    packages parsed: most of a short AppTest's time); the server scans once per process, at its start. The
    installed packages do not change during a test run, so the scan is done once per test process and each
    AppTest registers the same components from it."""
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests

    def scanned_once(*args, **kwargs):
        if not _COMPONENT_SCAN:
            _COMPONENT_SCAN.append(scan(*args, **kwargs))
        return list(_COMPONENT_SCAN[0])

    monkeypatch.setattr(manifest_scanner, "scan_component_manifests", scanned_once)


#: The app's scripts compiled for the AppTests: (path, its time and size, magic on) -> code (see below).
_COMPILED_SCRIPTS: dict = {}


@pytest.fixture(autouse=True)
def scripts_compiled_once(monkeypatch):
    """Each AppTest run reads, parses (Streamlit's "magic" rewrites the syntax tree) and compiles app.py and its
    page again, in a new script cache: about half of a short run's time. The server keeps one script cache for
    all its sessions and runs, cleared when a file changes; here the compiled code is kept for the test process,
    keyed by the file's path, time and size (a changed file is compiled again)."""
    import streamlit.testing.v1.app_test as app_test_module
    from streamlit import config
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    class CompiledOnce(ScriptCache):
        def get_bytecode(self, script_path: str):
            path = os.path.abspath(script_path)
            try:
                stat = os.stat(path)
            except OSError:  # Streamlit's own error for a script it cannot read
                return ScriptCache().get_bytecode(path)
            key = (path, stat.st_mtime_ns, stat.st_size, config.get_option("runner.magicEnabled"))
            if key not in _COMPILED_SCRIPTS:
                _COMPILED_SCRIPTS[key] = ScriptCache().get_bytecode(path)  # compiled as the server compiles it
            return _COMPILED_SCRIPTS[key]

    monkeypatch.setattr(app_test_module, "ScriptCache", CompiledOnce)


@pytest.fixture()
def manifest(tmp_path, monkeypatch):
    """The AppTests' hand-built layer set (tests/app_fixtures.py), written to tmp_path and served via
    ``SLOAT_LAYERS`` as the app reads it."""
    import app_fixtures as fx

    path = fx.write_layerset(tmp_path)
    monkeypatch.setenv("SLOAT_LAYERS", str(path))
    return path


@pytest.fixture(scope="module")
def module_layer_files(tmp_path_factory):
    """The AppTests' layer set written once for a module whose tests only read it (such a module names it in its
    own ``manifest`` fixture): the app's caches, keyed by the manifest's path and time, then load it and work out
    each parcel's answer once, not once a test. Defined here, not in the module, so that the module's tests still
    spread over the workers (each worker writes its own copy)."""
    import app_fixtures as fx

    return fx.write_layerset(tmp_path_factory.mktemp("layers"))


@pytest.fixture()
def split_manifest(tmp_path, monkeypatch):
    """The same layer set with a zoning layer splitting P1 down the middle (R-40 west, R-15 east:
    ``app_fixtures.write_split_layerset``), served via ``SLOAT_LAYERS``."""
    import app_fixtures as fx

    path = fx.write_split_layerset(tmp_path)
    monkeypatch.setenv("SLOAT_LAYERS", str(path))
    return path


@pytest.fixture(scope="session")
def world_once(tmp_path_factory):
    """``make_world`` (tests/engine_world.py) for tests that only read their world: each distinct world (its
    layers, elevation model and options) is written and read back through ``load_manifest`` once per test process
    and handed to every test that asks for the same. A test that changes its world's files or objects builds its
    own with ``make_world``."""
    from engine_world import make_world, world_key

    built: dict = {}

    def world(layers: dict, **options):
        key = world_key((layers, options))
        if key not in built:
            built[key] = make_world(tmp_path_factory.mktemp("world"), layers, **options)
        return built[key]

    return world


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
