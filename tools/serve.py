"""Start the dashboard: ``streamlit run app.py``, with the heavy work done before the first visitor.

Streamlit runs app.py only when a browser session opens, so the first visitor would pay for importing
folium, geopandas and plotly and for reading the layer set (about 2 s here). This launcher does that
work once in the server process, fills the same process-wide ``st.cache_resource`` caches the pages
use, makes every page run inside app.py's frame from the first visit on (deep links such as
``/walkthrough?case=...&mode=projector`` included: :func:`app_frame_first`), and then hands over to
Streamlit's own command line (``streamlit run app.py ...``) in this process. Start the app this way
(``make run`` and deploy/sloat-dashboard@.service do); a bare ``streamlit run app.py`` also runs a deep link
opened first inside the frame (each page asks for it: ``app_support.frame.deep_links.require``), only without the
warm-up.

It also switches off two Streamlit options a server pays for on every run (:data:`SERVING_DEFAULTS`), and makes
each connection the server accepts send its replies at once (:func:`no_delayed_replies`: without it each small
reply on a kept-alive connection waits 40 ms).

Usage: ``python tools/serve.py [streamlit run options]`` (``make run`` does this).
"""

from __future__ import annotations

import gc
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def warm() -> None:
    """Import what every page needs and load the layer set and settings into the shared caches."""
    sys.path.insert(0, str(ROOT))
    from streamlit import logger as st_logger

    # Outside a script run Streamlit warns of each cached call ("No runtime found, using
    # MemoryCacheStorageManager", "missing ScriptRunContext"): expected here, and three lines in the journal at
    # every start that nobody should have to read. Streamlit gives each of its loggers its own level (they do
    # not propagate), so the level is set through its own setter, for the warm-up only.
    level = st_logger.get_logger("streamlit").level
    st_logger.set_log_level(logging.ERROR)
    try:
        _warm()
    finally:
        st_logger.set_log_level(level)


def _warm() -> None:
    # Libraries only: a Streamlit component (streamlit_folium) must be declared after the runtime starts,
    # or its files are not served, so it is left to the first script run.
    import folium  # noqa: F401
    import folium.plugins  # noqa: F401
    import plotly.graph_objects  # noqa: F401
    import streamlit.emojis  # noqa: F401  (the page icon is checked against it at the first run: 0.2 s)

    from app_support import loaders
    from sloat_core.engine import analysis  # noqa: F401  (the rules and everything they import)
    # The answer's handout links (its web page, on every new parcel) import the handout and report modules,
    # matplotlib with them: 1-2 s the first visitor's first parcel would wait.
    from sloat_core.outputs import handout  # noqa: F401
    from sloat_core.errors import SloatInputError

    from app_support.frame.theme import LAYER_LABELS
    from app_support.map import layer_geojson

    try:
        layers = loaders.layerset()
        loaders.settings()
        for role in LAYER_LABELS:  # the map's GeoJSON, simplified for the browser (cached per layer)
            layer_geojson.display_geojson(layers, role)
        first_answer(layers, loaders.settings())
    except SloatInputError as exc:  # the app shows the same message to the first visitor
        print(f"Map layers not preloaded: {exc}", file=sys.stderr)


def first_answer(layers, settings) -> None:
    """Work out one tax parcel's answer, as a visitor's first pick would: what the engine reads and compiles
    once (the law's files, its patterns, the adjacent owners' rule) is then ready before the first visitor
    (about 0.5 s of the first pick). Nothing is kept or saved; a layer set with no tax parcel skips it."""
    from sloat_core.engine.analysis import analyze_parcel
    from sloat_core.engine.answer import lot_answer
    from sloat_core.gis import parcels as parcel_input

    lyr, meta = layers.get("parcels"), layers.parcels_meta
    if lyr is None or meta is None or lyr.gdf.empty:
        return
    sbl = next((str(v) for v in lyr.gdf[meta.id_field] if v is not None and str(v).strip()), None)
    if sbl is not None:
        lot_answer(analyze_parcel(parcel_input.parcel_by_sbl(layers, sbl), layers, settings=settings).result)


def app_frame_first() -> None:
    """Every page runs inside app.py's frame from the first visit on, deep links included.

    Streamlit decides once per process, when the first session starts, whether a ``pages/`` folder
    next to the main script makes this an old-style multipage app: it then runs a page's file on its
    own (``/walkthrough?case=...`` with no sidebar, no case, no display mode) until some session has
    run ``app.py``, whose ``st.navigation`` switches the process to the new style for good. The app
    always uses ``st.navigation``, so the launcher settles that before the first visitor.
    """
    from app_support.frame import deep_links

    deep_links.settle()


def keep_compiled_scripts() -> None:
    """The compiled app.py and pages stay compiled while no session is connected, when no file is watched.

    Streamlit empties its shared cache of compiled scripts whenever the last session disconnects (so that
    an edit made meanwhile is seen), and the next visitor's runs compile app.py and the page again with
    Streamlit's "magic" rewrite: about 25 ms of CPU on a quiet server, for a file that cannot have changed
    when the launcher runs with ``server.fileWatcherType none`` (:data:`SERVING_DEFAULTS`). With a file
    watcher (``--server.fileWatcherType auto`` while developing) the cache is emptied as before.
    """
    from streamlit import config
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    original = ScriptCache.clear
    if getattr(original, "_sloat_keeps", False):
        return

    def clear(self) -> None:
        if config.get_option("server.fileWatcherType") != "none":
            original(self)

    clear._sloat_keeps = True
    ScriptCache.clear = clear


def fast_cache_keys() -> None:
    """Streamlit's cached functions name their positional arguments without ``inspect.signature`` on each call.

    To make the key of an ``st.cache_data`` / ``st.cache_resource`` call, Streamlit asks ``inspect.signature``
    for the name of each positional argument, on every call (about 30 cached calls a session here: the layer
    set, the settings, the search, the analysis, the slope picture; 4 ms a session under cProfile). The name only
    depends on the function and the argument's place, so it is kept per (function, place), as Streamlit already
    does for its own telemetry (``metrics_util._get_arg_keywords_cached``); the keys and the cached values
    are the same.
    """
    import weakref

    from streamlit.runtime.caching import cache_utils

    original = cache_utils._get_positional_arg_name
    if getattr(original, "_sloat_keeps", False):
        return
    names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # a function dropped is forgotten

    def positional_arg_name(func, arg_index: int):
        try:
            per_place = names.get(func)
        except TypeError:  # not weakly referenceable: asked each time, as before
            return original(func, arg_index)
        if per_place is None:
            per_place = names[func] = {}
        if arg_index not in per_place:
            per_place[arg_index] = original(func, arg_index)
        return per_place[arg_index]

    positional_arg_name._sloat_keeps = True
    cache_utils._get_positional_arg_name = positional_arg_name


def no_delayed_replies() -> None:
    """Every connection the server accepts sends each reply at once (TCP_NODELAY), as asyncio means it to.

    asyncio switches Nagle's algorithm off on each TCP connection it serves, but only for a socket made with
    ``proto=IPPROTO_TCP``; Streamlit binds its own listening socket with ``socket.socket(family=...)`` (proto 0),
    so the connections it accepts keep Nagle's algorithm. On a kept-alive connection a reply's body then waits
    for the client to acknowledge its headers, which the client delays by 40 ms: each static file after a
    connection's first (the page's 120 or so scripts over six connections) and each burst of messages on the
    session's websocket stalled 40 ms. Linux gives an accepted socket the listening socket's TCP_NODELAY, so it
    is set there, once.
    """
    import socket

    from streamlit.web.server.starlette import starlette_server

    original = starlette_server._bind_socket
    if getattr(original, "_sloat_keeps", False):
        return

    def bind_socket(address: str, port: int, backlog: int) -> socket.socket:
        sock = original(address, port, backlog)
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock

    bind_socket._sloat_keeps = True
    starlette_server._bind_socket = bind_socket


#: Streamlit options this launcher sets unless the command line gives them (CPU per session: the first
#: page and a tax parcel picked, measured at the protocol level on this 2-core machine, 2026-12-01):
#:
#: * ``server.fileWatcherType none``: the file watcher walks every loaded module after each script run to
#:   offer a rerun when a source file changes (0.70 s against 0.52 s a session), for a server nobody
#:   edits; ``--server.fileWatcherType auto`` while developing.
#: * ``runner.postScriptGC false``: Streamlit runs a full garbage collection (``gc.collect(2)``) after each
#:   script run; with the layer sets, shapely and pandas objects in the process it costs more than the
#:   run (0.52 s against 0.28 s a session), and resident memory stays the same without it (330 MB after
#:   12 sessions either way): Python's own collector still runs.
SERVING_DEFAULTS = {"--server.fileWatcherType": "none", "--runner.postScriptGC": "false"}


def main(argv: list[str]) -> None:
    warm()
    # What the warm-up loaded (the layer sets, their display GeoJSON, the modules) lives as long as the process:
    # moved out of the collector's generations, the collections a visitor's run sets off no longer walk it.
    gc.collect()
    gc.freeze()
    app_frame_first()
    keep_compiled_scripts()
    fast_cache_keys()
    no_delayed_replies()
    from streamlit.web import cli

    given = {a.split("=", 1)[0] for a in argv if a.startswith("--")}
    defaults = [x for key, value in SERVING_DEFAULTS.items() if key not in given for x in (key, value)]
    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *argv, *defaults]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])
