"""The Planning Board walk-through: a fixed sequence of projector screens with previous / next.

parcel and constraints -> deductions -> net lot area and yield -> cluster triggers -> permits -> timeline, and,
when the session has a plan, "The plan, lot by lot" after the cluster triggers (:func:`screens`;
:mod:`app_support.views.plan_walk`). Each screen has a title, its § and draws from the analysis the other pages use (the project's,
when the case has a project). The screen number is in the link (``?step=3``), so a case link can
open the Board straight on a screen; the display mode stays in the link as everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from app_support.frame import state

__all__ = ["Screen", "SCREENS", "PLAN_SCREEN", "screens", "STEP_PARAM", "STEP", "FIGURE_HEIGHT_PX", "MAP_HEIGHT_PX", "NAV_CSS", "PROJECTOR_CSS",
           "apply_css", "current_step", "go"]


@dataclass(frozen=True)
class Screen:
    """One screen: its id, title, the § it walks through (as shown), the § its link opens, and its name in
    the one-line list of screens under the title."""

    id: str
    title: str
    citation: str
    link: str
    short: str


SCREENS: tuple[Screen, ...] = (
    Screen("parcel", "The parcel and its constraints", "§ 402-45A", "§ 402-45A", "Parcel"),
    Screen("deductions", "Land that does not count", "§ 402-45A(1) to (3)", "§ 402-45A", "Deductions"),
    Screen("net", "Net lot area and yield", "§ 402-45A, § 402-48E", "§ 402-48E", "Net lot area"),
    Screen("triggers", "Cluster triggers", "§ 402-48C", "§ 402-48C", "Cluster triggers"),
    Screen("permits", "Permits and reviews", "§§ 402-49 to 402-57", "§ 402-57", "Permits"),
    Screen("timeline", "Timeline", "§ 402-55H and the permit clocks", "§ 402-55H", "Timeline"),
)
#: The screen of a session with a plan, after the cluster triggers (a walk-through without a plan has no such screen).
PLAN_SCREEN = Screen("plan", "The plan, lot by lot", "§ 402-45A, § 402-48E", "§ 402-45A", "Plan")


def screens(has_plan: bool = False) -> tuple[Screen, ...]:
    """The screens shown, in order: :data:`SCREENS`, with :data:`PLAN_SCREEN` after the cluster triggers when the
    session has a plan."""
    if not has_plan:
        return SCREENS
    at = [s.id for s in SCREENS].index("triggers") + 1
    return SCREENS[:at] + (PLAN_SCREEN,) + SCREENS[at:]


#: The link's query parameter (1-based screen number) and the session key holding it (0-based).
STEP_PARAM = state.STEP_PARAM
STEP = state.WALKTHROUGH_STEP
#: The tallest a screen's picture or chart may be: what 1080 px leave under the title row and above the note.
FIGURE_HEIGHT_PX = 600
#: The parcel screen's map (with its legend) has the screen to itself below the title: a little taller.
MAP_HEIGHT_PX = 640

# The walk-through's own rules (constants). In every mode the Previous / Next buttons keep
# their whole label on one line and their column is as wide as the label needs. The deductions table and its
# chart stand side by side on a wide screen (1920 px: both on the one screen) and one above the other on a
# narrower one (1366 px), where side by side would cut the table's § column and crowd the chart's labels.
NAV_CSS = """
<style>
.st-key-wt_prev button p, .st-key-wt_next button p {white-space:nowrap !important;overflow:visible !important;
  text-overflow:clip !important;}
[data-testid="stColumn"]:has(.st-key-wt_prev), [data-testid="stColumn"]:has(.st-key-wt_next) {
  min-width:max-content !important;}
@media (max-width: 1599px) {
  .st-key-wt_side_by_side [data-testid="stHorizontalBlock"] {flex-wrap:wrap !important;}
  .st-key-wt_side_by_side [data-testid="stColumn"] {min-width:100% !important;}
}
</style>
"""
# Projector: the title sits between the buttons and the page's bottom margin is small, so each screen fits
# 1920x1080 with the sidebar folded (the smallest type stays 24 px).
PROJECTOR_CSS = """
<style>
[data-testid="stMainBlockContainer"] {padding-top:68px !important;padding-bottom:24px !important;}
[data-testid="stMainBlockContainer"] h1 {padding-top:0 !important;padding-bottom:0.1em !important;}
[data-testid="stMainBlockContainer"] li {line-height:1.3 !important;}
.st-key-wt_board li {line-height:1.25 !important;margin-top:0 !important;margin-bottom:0.15em !important;}
.st-key-wt_board p {margin-bottom:0.25em !important;}
.st-key-wt_board ul {margin-bottom:0.5em !important;}
</style>
"""


def apply_css(projector: bool) -> None:
    """Inject the walk-through's constant stylesheet (:data:`NAV_CSS`, and :data:`PROJECTOR_CSS` on a projector).

    Through ``st.html``, as the mode's stylesheet (:func:`app_support.frame.theme.apply_mode`): both go to
    Streamlit's event container, this one after the mode's, so its rules still win where they meet (the
    projector's padding above the title)."""
    st.html(NAV_CSS)
    if projector:
        st.html(PROJECTOR_CSS)


def _step_in_link() -> int | None:
    """The 0-based screen named by ``?step=`` (None when the link has none or it is not a number)."""
    raw = (st.query_params.get(STEP_PARAM) or "").strip()
    if not raw.isdigit() or len(raw) > 3:
        return None
    return int(raw) - 1


def _clamp(step: int, count: int) -> int:
    return max(0, min(count - 1, int(step)))


def current_step(count: int = len(SCREENS)) -> int:
    """The screen shown (0-based), read from the link on every run.

    The link is the source of truth, so Back and Forward (which rerun the page with that entry's link)
    show that entry's screen. A link without a step (the page chosen from the menu) opens the screen last
    shown in this session, or the first; the link is then corrected to name it (a replaced entry, not a
    new one: see ``app_support.frame.browser_nav``). ``count``: how many screens there are (:func:`screens`).
    """
    ss = st.session_state
    wanted = _step_in_link()
    ss[STEP] = _clamp(wanted if wanted is not None else ss.get(STEP, 0), count)
    if st.query_params.get(STEP_PARAM) != str(ss[STEP] + 1):
        st.query_params[STEP_PARAM] = str(ss[STEP] + 1)
    return ss[STEP]


def go(delta: int, count: int = len(SCREENS)) -> None:
    """Button callback: move ``delta`` screens (kept within the ``count`` screens); the new step is a new history
    entry."""
    here = _step_in_link()
    st.session_state[STEP] = _clamp((here if here is not None else st.session_state.get(STEP, 0)) + delta, count)
    st.query_params[STEP_PARAM] = str(st.session_state[STEP] + 1)
