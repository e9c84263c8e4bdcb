"""Sloatsburg environmental-controls dashboard: the router and the frame.

Run with ``make run`` (or ``streamlit run app.py``). This file sets the page, the session-state
defaults, the sidebar (display mode, the layer-set notice, the screening disclaimer) and the
page list; pages only gather input, call ``sloat_core`` and render.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from app_support.cases import cases_ui
from app_support.frame import announce, browser_nav, state, theme
from app_support.map import frame_prefetch
from app_support.widgets.citations import escape_markdown
from app_support.analysis_door import DISCLAIMER, SloatInputError

ROOT = Path(__file__).resolve().parent
_log = logging.getLogger("sloat.app")
#: What a visitor sees when a page fails unexpectedly (the trace goes to the server's log, under the reference).
UNEXPECTED = ("This part of the page hit an unexpected problem and could not be shown; reload the page, "
              "or quote reference {ref} at the Village office.")


def guarded(step: Callable[[], object], what: str) -> None:
    """Run one step of the page; an unexpected error becomes one sentence here and a logged trace.

    Streamlit's own reruns and stops (``st.rerun``, ``st.stop``, ``st.switch_page``) are BaseExceptions and pass.
    """
    try:
        step()
    except Exception:  # noqa: BLE001 -- the guard of last resort: a visitor never sees a traceback
        ref = secrets.token_hex(4)
        _log.exception("unexpected error in %s (reference %s)", what, ref)
        st.error(UNEXPECTED.format(ref=ref), icon=":material/error:")

# (file, title, icon); pages written later join the menu as soon as their file exists.
PAGES = [
    ("pages/parcel.py", "Parcel & constraints", ":material/map:"),
    ("pages/project.py", "Proposed project", ":material/construction:"),
    ("pages/cluster.py", "Cluster", ":material/grid_view:"),
    ("pages/plan.py", "Plan, lot by lot", ":material/dashboard:"),
    ("pages/mitigation.py", "Wetland mitigation", ":material/water:"),
    ("pages/timeline.py", "Timeline", ":material/event:"),
    ("pages/walkthrough.py", "Board walk-through", ":material/slideshow:"),
    ("pages/law.py", "Law", ":material/gavel:"),
    ("pages/case.py", "Case & exports", ":material/folder_open:"),
]

st.set_page_config(page_title="Sloatsburg environmental controls", page_icon="🌲",
                   layout="wide")
state.init_state()
state.mode_from_url()  # ?mode=counter|projector|standard, read once per session
guarded(cases_ui.begin, "opening the linked case")  # opens the case of ?case=<id> on a session's first run

pages = [st.Page(path, title=title, icon=icon, default=(i == 0))
         for i, (path, title, icon) in enumerate(PAGES) if (ROOT / path).exists()]
navigation = st.navigation(pages)

with st.sidebar:
    st.radio("Display mode", state.MODES, key=state.MODE, horizontal=False,
             captions=["All controls", "Plain words, fewer controls", "Large type for a screen"])
    try:
        from app_support.loaders import layerset

        layers = layerset()
    except SloatInputError as exc:  # the frame still shows; the message names the problem
        layers = None
        st.error(f"The map layers could not be loaded: {escape_markdown(str(exc))}")  # it quotes file names
    if layers is not None:
        if layers.illustrative:
            st.html('<div class="sloat-notice">Illustrative sample, not official data</div>')
            if layers.notice and "not official data" not in layers.notice.lower():
                st.caption(layers.notice)
        st.caption(escape_markdown(f"Layer set: {layers.name} (version {layers.version})"))
        if layers.warnings:  # load warnings sit beside the layer set's name (they may quote file names)
            with st.expander(f"{len(layers.warnings)} warning(s) about these layers", expanded=True):
                for w in layers.warnings:
                    st.warning(escape_markdown(w), icon=":material/warning:")
    st.caption(DISCLAIMER)
    browser_nav.install_history_rule()  # one history entry per page change or walk-through step
    announce.install()  # the page's one skip link, its live region and the map frame's name
    frame_prefetch.install()  # the map frame's files asked for now, before the frame is made (a first visit)

theme.apply_mode(state.mode())
state.sync_mode_url()
guarded(navigation.run, "the page")
guarded(cases_ui.autosave, "saving the case")  # saves the case when the page changed it
state.sync_mode_url()  # a page switch clears the link's parameters
