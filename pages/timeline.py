"""Timeline: permits and applications with their dates, and every clock Article IX sets for them.

Items are added one at a time with their dates; the core (``sloat_core.rules.clocks``) works out the
expiries, extension-request deadlines, hearing and notice clocks and their status as of a day.
An item the core refuses (an expiry before its issue date, say) shows the core's one-sentence
message and is not added; the items already there and the form's values stay. The winter
no-bare-slope season is shaded; the dates download as an .ics calendar.

"From your project" lists the permits the Proposed project page found needed (or maybe needed)
for the parcel under study, with their §, and offers the timeline items that carry their clocks
(``app_support.inputs.timeline_prefill``); the user types the dates, and the core checks them as above.
"""

from __future__ import annotations

import datetime as dt

import streamlit as st

from app_support.analysis_door import DISCLAIMER, ITEM_KINDS, SloatInputError, timeline_events, to_ics
from app_support.frame import deep_links, state
from app_support.inputs import timeline_prefill
from app_support.views import project_result, timeline_view
from app_support.widgets import charts, forms
from app_support.widgets.citations import escape_markdown, law_link

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

CALENDAR_NAME = "Sloatsburg Article IX dates"
mode = state.mode()
large = mode == state.PROJECTOR

st.title("Timeline")
st.caption("Permits and applications with the dates Article IX sets for them: expiries, extension "
           "requests, hearings, notices and seasons.")
if state.current_parcel() is None:
    st.caption("No parcel is needed here: add the permits and applications you have.")

if state.TIMELINE_AS_OF not in st.session_state:
    st.session_state[state.TIMELINE_AS_OF] = st.session_state.get(state.AS_OF) or dt.date.today()
as_of = st.date_input("As of", key=state.TIMELINE_AS_OF, min_value=dt.date(1900, 1, 1), max_value=dt.date(2199, 12, 31),
                      format="YYYY-MM-DD")
st.session_state[state.AS_OF] = as_of
_kept = list(st.session_state.get(forms.TIMELINE_ITEMS) or [])
# The same item twice is one item (it would be twice in the .ics): an older case's repeat is dropped here.
items: list[dict] = timeline_view.unique_items(_kept)
if len(items) != len(_kept):
    st.session_state[forms.TIMELINE_ITEMS] = items


def _add(new: dict) -> bool:
    """Put ``new`` on the timeline if the core accepts it with the others; else show its message."""
    again = timeline_view.duplicate_sentence(items, new)  # the duplicate-item guard
    if again:
        st.info(again)
        return False
    try:
        timeline_events([*items, new], as_of)
    except SloatInputError as exc:
        st.error(str(exc))
        return False
    items.append(new)
    st.session_state[forms.TIMELINE_ITEMS] = items
    return True


def _project_key() -> str | None:
    parcel = state.current_parcel()
    return None if parcel is None else forms.project_result_key(parcel, st.session_state.get(state.DISTRICT))


def _from_project() -> list[str]:
    """The permits of the project page's analysis, and a form to add the dates of their clocks.

    Returns the timeline item kinds offered (empty when nothing is offered).
    """
    project_result.ensure_project_result()  # a case opened from its link has no project-page result yet
    result = timeline_prefill.stored_result(st.session_state.get(forms.LAST_PROJECT_RESULT), _project_key())
    if result is None:
        st.caption("To see here the permits your project needs, describe it on the Proposed project page.")
        if not large:
            st.page_link("pages/project.py", label="Go to the Proposed project page")
        return []
    st.subheader("From your project")
    found = timeline_prefill.suggestions(result, items)
    if not found:
        st.caption("The Proposed project page found no permit this project needs.")
        return []
    groups = [(True, "The Proposed project page found that your project needs:"),
              (None, "It may also need these; it depends on facts not known yet:")]
    for required, heading in groups:
        group = [s for s in found if s.required is required]
        if not group:
            continue
        st.markdown(heading)
        lines = [f"- {timeline_view.suggestion_line(s, standard=mode == state.STANDARD)}"
                 for s in group if s.has_clock]
        no_clock = [f"{escape_markdown(s.title)} ({escape_markdown(s.citation)})" for s in group if not s.has_clock]
        if no_clock:  # one line for these, to keep the page short
            lines.append("- " + "; ".join(no_clock) + ". Article IX sets no date for "
                         + ("it" if len(no_clock) == 1 else "these") + " that this timeline tracks.")
        st.markdown("\n".join(lines))
    added = st.session_state.pop(state.TIMELINE_PREFILL_ADDED, None)
    if added:
        st.success(f"Added: {added}.")
    offers = timeline_prefill.addable_kinds(found)
    if not offers:
        return []
    with st.expander("Add the dates of one of these", expanded=not large):
        if st.session_state.get(state.TIMELINE_PREFILL_KIND) not in offers:
            st.session_state.pop(state.TIMELINE_PREFILL_KIND, None)
        kind = st.selectbox("Which one", offers, key=state.TIMELINE_PREFILL_KIND,
                            format_func=lambda k: timeline_prefill.KIND_LABELS.get(k, ITEM_KINDS[k].capitalize()))
        new = forms.timeline_item_editor(kind, today=as_of, key_prefix=state.TIMELINE_PREFILL_PREFIX)
        if new is not None and _add(new):
            st.session_state[state.TIMELINE_PREFILL_ADDED] = ITEM_KINDS[kind]
            st.rerun()  # the list above then says it is on the timeline
    return offers


offered = _from_project()
# With the project's own permits offered above, the form for any other item starts folded.
with st.expander("Add a permit, application or date", expanded=(not items or not large) and not offered):
    kind = st.selectbox("What", list(ITEM_KINDS), key="tl_kind", format_func=lambda k: ITEM_KINDS[k].capitalize())
    new = forms.timeline_item_editor(kind, today=as_of)
    if new is not None and _add(new):
        st.success(f"Added: {ITEM_KINDS[kind]}.")


if items:
    with st.expander(f"Your items ({len(items)})", expanded=mode == state.STANDARD):
        for n, item in enumerate(items, start=1):
            text_col, button_col = st.columns([5, 1])
            dates = ", ".join(f"{k} {v}" for k, v in item.items() if k not in ("id", "ref"))
            text_col.markdown(f"**{escape_markdown(timeline_view.item_name(n, item))}**: {escape_markdown(dates)}")
            if button_col.button("Remove", key=f"tl_remove_{n}"):
                st.session_state[forms.TIMELINE_ITEMS] = items[:n - 1] + items[n:]
                st.rerun()

# The project's state-law clocks (Village Law § 7-728 / § 7-725-a, the county's 30 days) from the dates the
# Proposed project page was given, when that page's analysis is of the parcel under study.
project_events = timeline_view.project_clock_events(st.session_state.get(state.PROJECT), as_of) \
    if timeline_prefill.stored_result(st.session_state.get(forms.LAST_PROJECT_RESULT), _project_key()) else []
if project_events:
    st.caption(f"With the state-law dates of your project ({timeline_view.PROJECT_CLOCKS_ITEM}), from the dates "
               "given on the Proposed project page.")
try:
    rows, events, seasons, season_events = timeline_view.timeline_rows(items, as_of, project_events)
except SloatInputError as exc:
    st.error(str(exc))
    st.stop()

if not rows:
    st.info("No dates yet: add a permit or an application above.")
charts.show_chart(charts.timeline_figure(rows, as_of, seasons, large=large), width="stretch")
first_season = next(((s, e) for s, e in seasons if e >= as_of), seasons[-1])
st.caption(f"Shaded: the winter and spring-thaw season ({first_season[0]:%d %B} to {first_season[1]:%d %B}), "
           "when no disturbed steep slope may be left bare.")
law_link(season_events[0].citation, label=f"No bare slopes in winter: {season_events[0].citation}")

if rows:
    frame = timeline_view.events_frame(rows, large=large)
    colour_by_label = {charts.STATUS_LABELS[k]: v for k, v in charts.STATUS_COLOURS.items()}
    styled = frame.style.map(lambda v: f"color:{colour_by_label[v]};font-weight:700"
                             if v in colour_by_label else "", subset=["Status"])
    if large:
        st.table(styled.hide(axis="index"))
    else:
        st.dataframe(styled, hide_index=True, width="stretch", column_config=charts.TIMELINE_COLUMNS)
    cites = timeline_view.row_citations(rows)
    link_cols = st.columns(4)
    for i, citation in enumerate(cites):
        with link_cols[i % 4]:
            law_link(citation)
    st.download_button("Download the dates as a calendar (.ics)", to_ics(events, calendar_name=CALENDAR_NAME),
                       file_name="sloatsburg-article-ix-dates.ics", mime="text/calendar", key="tl_ics",
                       icon=":material/calendar_month:")
    st.caption("Dates are worked out from the law's text and the dates you entered; confirm each one with "
               "the Village before relying on it.")
st.caption(DISCLAIMER)
