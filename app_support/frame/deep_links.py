"""Every page runs inside app.py's frame, even when a bare ``streamlit run app.py`` is opened at a deep link.

Streamlit decides once per process, when its first session starts, whether the ``pages/`` folder beside
app.py makes an old-style multipage app. Until some session has run app.py (whose ``st.navigation`` turns
that mode off for the process), a link such as ``/walkthrough?case=...&mode=projector`` opened first after a
start runs ``pages/walkthrough.py`` alone: no sidebar, no display mode, no case. ``tools/serve.py`` settles
this before the first visitor; :func:`require` settles it for any other start, from the page itself.

Why a private attribute (``PagesManager.uses_pages_directory``) and not ``st.navigation`` alone: in Streamlit
1.67 the first ``PagesManager`` sets that class attribute from whether ``pages/`` exists, and only
``st.navigation`` sets it back to False -- but in the old mode the script runner does not run app.py at all
(``_mpa_v1`` builds its own page list from the folder and runs the linked page's file), so app.py's
``st.navigation`` never gets the chance. Renaming ``pages/`` would end the old mode, but the design card names
that folder. So the attribute stays, set here and only here: without it
``tests/service/test_deploy_deep_links.py`` fails (a deep link opened first after a start, with
``tools/serve.py`` or a bare ``streamlit run``, runs the page alone under the folder's own page list: no
sidebar, no display mode, no case).
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def settle() -> None:
    """From now on every session of this process runs its pages through app.py (``st.navigation``'s mode)."""
    PagesManager.uses_pages_directory = False


def require() -> None:
    """Called first by every page: run alone in the old mode, the page asks for the same run through app.py.

    The rerun keeps the page (its hash is its URL name in both modes) and the link's query string, so
    app.py's ``st.navigation`` opens this page with its case and display mode. Inside the frame (always
    after the first run through app.py, and from the start under ``tools/serve.py``) nothing happens.
    """
    if PagesManager.uses_pages_directory:
        settle()
        st.rerun()
