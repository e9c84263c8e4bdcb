"""The Planning Board walk-through: a fixed sequence of projector screens with previous / next.

parcel and constraints -> deductions -> net lot area and yield -> cluster triggers -> permits -> timeline.
Each screen has a title, its § and draws from the analysis the other pages use (the project's,
when the case has a project). The screen number is in the link (``?step=3``), so a case link can
open the Board straight on a screen; the display mode stays in the link as everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

__all__ = ["Screen", "SCREENS", "STEP_PARAM", "STEP", "current_step", "go"]


@dataclass(frozen=True)
class Screen:
    """One screen: its id, title, the § it walks through (as shown) and the § its link opens."""

    id: str
    title: str
    citation: str
    link: str


SCREENS: tuple[Screen, ...] = (
    Screen("parcel", "The parcel and its constraints", "§ 402-45A", "§ 402-45A"),
    Screen("deductions", "Land that does not count", "§ 402-45A(1) to (3)", "§ 402-45A"),
    Screen("net", "Net lot area and yield", "§ 402-45A, § 402-48E", "§ 402-48E"),
    Screen("triggers", "Cluster triggers", "§ 402-48C", "§ 402-48C"),
    Screen("permits", "Permits and reviews", "§§ 402-49 to 402-57", "§ 402-57"),
    Screen("timeline", "Timeline", "§ 402-55H and the permit clocks", "§ 402-55H"),
)
#: The link's query parameter (1-based screen number) and the session key holding it (0-based).
STEP_PARAM = "step"
STEP = "walkthrough_step"


def current_step() -> int:
    """The screen shown (0-based): from the link on the page's first run, else from the session."""
    ss = st.session_state
    if STEP not in ss:
        try:
            ss[STEP] = int(st.query_params.get(STEP_PARAM) or 1) - 1
        except ValueError:
            ss[STEP] = 0
    ss[STEP] = max(0, min(len(SCREENS) - 1, int(ss[STEP])))
    if st.query_params.get(STEP_PARAM) != str(ss[STEP] + 1):
        st.query_params[STEP_PARAM] = str(ss[STEP] + 1)
    return ss[STEP]


def go(delta: int) -> None:
    """Button callback: move ``delta`` screens (kept within the sequence)."""
    st.session_state[STEP] = max(0, min(len(SCREENS) - 1, st.session_state.get(STEP, 0) + delta))
    st.query_params[STEP_PARAM] = str(st.session_state[STEP] + 1)
