"""Board walk-through: parcel -> deductions -> net lot area and yield -> triggers -> (the plan, lot by lot, when the
session has one) -> permits -> timeline.

One screen at a time, large type, previous / next, each screen with its §. The figures come from
the same analysis as the other pages (with the case's project when it has one).
"""

from __future__ import annotations

import datetime as dt

import streamlit as st

from app_support import analysis_door, loaders
from app_support.analysis_door import DISCLAIMER, ITEM_KINDS, SloatInputError, timeline_events, yield_phrase
from app_support.frame import browser_nav, deep_links, state
from app_support.inputs import plan_inputs
from app_support.views import approvals_ui, plan_walk, project_result, results, walkthrough
from app_support.widgets import forms
from app_support.widgets.citations import escape_markdown, law_link

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

mode = state.mode()
deck = walkthrough.screens(has_plan=plan_inputs.current() is not None)
step = walkthrough.current_step(len(deck))
screen = deck[step]
parcel = state.current_parcel()
browser_nav.install_walkthrough_keys()  # a presenter's clicker steps the screens
# "◀ Previous" and "Next ▶" never cut; on the Board's screen the sidebar folds away, every screen fits 1920x1080
walkthrough.apply_css(projector=mode == state.PROJECTOR)
if mode == state.PROJECTOR:
    browser_nav.collapse_sidebar()

nav_prev, nav_title, nav_next = st.columns([1, 6, 1], vertical_alignment="center")
nav_prev.button(browser_nav.PREVIOUS_LABEL, key="wt_prev", on_click=walkthrough.go, args=(-1, len(deck)),
                disabled=step == 0, width="stretch")
nav_next.button(browser_nav.NEXT_LABEL, key="wt_next", on_click=walkthrough.go, args=(1, len(deck)),
                disabled=step == len(deck) - 1, width="stretch")
with nav_title:
    st.title(screen.title)
    where, rule = st.columns([3, 2], vertical_alignment="center")
    where.markdown(f"**{step + 1} of {len(deck)}** · "
                   + " → ".join(f"**{s.short}**" if i == step else s.short for i, s in enumerate(deck)))
    with rule:
        law_link(screen.link, label=f"The rule: {screen.citation}")

if parcel is None:
    st.info("Choose a parcel (or open a case) first: the walk-through shows its figures.")
    st.page_link("pages/parcel.py", label="Choose a parcel on the Parcel & constraints page")
    st.stop()

layers = loaders.layerset()
district = st.session_state.get(state.DISTRICT) or None
try:
    project_result.ensure_project_result()
    last = st.session_state.get(forms.LAST_PROJECT_RESULT)
    key = forms.project_result_key(parcel, st.session_state.get(state.DISTRICT))
    result = last[1][0] if last and last[0] == key else analysis_door.result(parcel, layers, district=district)
except SloatInputError as exc:
    st.error(str(exc))
    st.stop()

if screen.id == "parcel":
    picture, ratio = analysis_door.map_png(parcel, layers, district=district, width_in=6.0)
    left, right = st.columns([1, 1])
    # no taller than the screen leaves (walkthrough.MAP_HEIGHT_PX), whatever the parcel's shape
    left.image(picture, width=int(walkthrough.MAP_HEIGHT_PX / max(ratio or 1.0, 0.2)),
               alt="Map of the parcel and its constraint pieces (listed beside it)")
    with right:
        st.metric("Gross area, sq ft", f"{result.gross_area_sqft or 0:,.0f}")
        st.metric("Zoning district", result.district or "unknown")
        present = [d.label for d in result.deductions if (d.area_sqft or d.known_area_sqft or 0) >= 0.5]
        st.markdown("**On the lot:** " + escape_markdown(", ".join(present) or "no constraint found"))
elif screen.id == "deductions":  # the table and its chart side by side: both on the one screen
    table, chart = st.container(key="wt_side_by_side").columns([1, 1], gap="medium")
    with table:
        results.show_deductions(result, fold_notes=mode == state.PROJECTOR)
    figure = results.waterfall_figure(result, large=mode == state.PROJECTOR)
    figure.update_layout(height=min(figure.layout.height or walkthrough.FIGURE_HEIGHT_PX, walkthrough.FIGURE_HEIGHT_PX))
    chart.plotly_chart(figure, width="stretch", theme=None)
elif screen.id == "net":
    results.show_headline(result, show_yield=False)
    st.metric("Conventional yield (lots), estimate", yield_phrase(result))
    st.caption(escape_markdown(result.yield_caveat or ""))
elif screen.id == "triggers":
    st.markdown("**§ 402-48C: the Planning Board may require a cluster layout where the property shows any of "
                "these.**")
    marks = {True: "✔ Found", None: "? Unknown", False: "✘ Not found"}
    lines = [f"- **{marks[t.triggered]}**: {escape_markdown(t.title or '')} ({escape_markdown(t.citation or '')})"
             for t in result.cluster_triggers]
    half = (len(lines) + 1) // 2  # two columns: the whole list on one screen
    for column, part in zip(st.columns(2, gap="medium"), (lines[:half], lines[half:])):
        column.markdown("\n".join(part))
elif screen.id == "plan":  # the session's plan: its map, its lot table, the yield and the open space
    plan_walk.show(parcel, layers, mode)
elif screen.id == "permits":  # Article IX's permits and the approvals around it, one list
    with st.container(key="wt_board"):  # the board's own spacing (walkthrough.PROJECTOR_CSS)
        approvals_ui.show_approvals_board(result, footnote=DISCLAIMER)  # the disclaimer in the last column
elif screen.id == "timeline":
    items = list(st.session_state.get(forms.TIMELINE_ITEMS) or [])
    if not items:
        st.info("No permit dates on this case yet: the Timeline page adds them.")
    else:
        try:
            events = timeline_events(items, st.session_state.get(state.AS_OF) or dt.date.today())
        except SloatInputError as exc:
            st.error(str(exc))
            events = []
        rows = [{"Date": e.date.isoformat(), "What": e.label, "§": e.citation} for e in events]
        st.table(rows)
        st.caption("Kinds: " + ", ".join(ITEM_KINDS[i["id"]] for i in items if i.get("id") in ITEM_KINDS))
if screen.id not in ("net", "permits"):  # the net lot area screen says it under its figures, the permits board
    # in its last column
    st.caption(DISCLAIMER)
