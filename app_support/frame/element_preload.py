"""The front-end code of the answer's small element kinds, loaded with the first page.

Streamlit's front end fetches and evaluates the code of an element kind the first time the page shows one.
The Parcel page's first screen (no parcel yet) shows no metric, button, download button or page link; the
answer after a search shows all of them, so the browser fetched their code after Enter and the net lot area
(a metric) waited for it, behind the chart's and the table's code (bench/answer_timeline.py). With one of each
in a hidden container on the first screen, their code is already evaluated when the answer comes, and the
metric is drawn in the first update, before the heavy chart and table code arrives (``make bench``: the
found address to the answer on screen, bench/README.md).

The container is ``display: none``: not seen, not in the accessibility tree, not focusable. Its metric has a
neutral label (never "Net lot area": the bench and the tests look for the real one). The heavy kinds (Plotly
chart, table) are left out on purpose: evaluating them would delay the first map.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["PRELOAD_KEY", "PRELOAD_LABEL", "preload_answer_elements"]

#: The hidden container's key (Streamlit gives it the class ``st-key-<key>``).
PRELOAD_KEY = "sloat_element_preload"
#: The hidden elements' label (a neutral word, never a figure's name).
PRELOAD_LABEL = "Loading"
# A constant (the unsafe-HTML scan accepts constants): the class Streamlit gives the container of PRELOAD_KEY.
_HIDE_CSS = "<style>.st-key-sloat_element_preload{display:none !important}</style>"


def preload_answer_elements() -> None:
    """One hidden metric, button, download button and page link (call only while no parcel is chosen)."""
    st.html(_HIDE_CSS)
    with st.container(key=PRELOAD_KEY):
        st.metric(PRELOAD_LABEL, "-")
        st.button(PRELOAD_LABEL, key=f"{PRELOAD_KEY}_button", disabled=True)
        st.download_button(PRELOAD_LABEL, b"", file_name="empty.txt", key=f"{PRELOAD_KEY}_download", disabled=True)
        st.page_link("pages/parcel.py", label=PRELOAD_LABEL, disabled=True)
