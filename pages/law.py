"""Law page: Article IX browsable by section, with deep links.

``?section=402-57`` opens a section; ``?cite=402-57J-4`` (or ``?cite=402-57J(4)``) opens the
section and shows the cited clause first. Every § link in the app points here.
"""

from __future__ import annotations

import streamlit as st

from app_support.analysis_door import SloatInputError, not_modelled, not_modelled_groups
from app_support.analysis_door import law_text as law
from app_support.frame import deep_links, state
from app_support.widgets.citations import escape_links, escape_markdown, query_to_cite, section_of

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

SECTION_KEY = "law_section"
APPLIED_KEY = "law_applied_query"

st.title("Article IX · Environmental Controls")
st.caption("Village of Sloatsburg Code, Chapter 402, §§ 402-45 to 402-59. The text as shipped "
           "with this tool; the Village Clerk holds the official code.")

sections = law.sections()
numbers = [s.number for s in sections]
titles = {s.number: s.title for s in sections}

# A deep link: ?cite= wins over ?section=.
cited, wanted, problem = None, None, None
raw_cite = st.query_params.get("cite")
raw_section = st.query_params.get("section")
try:
    if raw_cite:
        cited = law.normalize_citation(query_to_cite(raw_cite))
        law.clause(cited)
        wanted = section_of(cited)
    elif raw_section:
        wanted = section_of(raw_section)
        if wanted not in numbers:
            raise SloatInputError(f"Article IX has no section {wanted}.")
except SloatInputError as exc:
    problem, cited, wanted = str(exc), None, None

query_now = (raw_cite, raw_section)
if wanted and st.session_state.get(APPLIED_KEY) != query_now:
    st.session_state[SECTION_KEY] = wanted
st.session_state[APPLIED_KEY] = query_now


def _section_changed() -> None:
    st.query_params.clear()
    st.query_params["section"] = st.session_state[SECTION_KEY]


number = st.selectbox("Section", numbers, key=SECTION_KEY, on_change=_section_changed,
                      format_func=lambda n: f"§ {n} {titles[n]}")
if problem:
    st.error(escape_links(problem))  # it quotes the link's text

if cited and section_of(cited) == number:
    with st.container(border=True):
        st.markdown(f"**You followed a link to {escape_markdown(cited)}**")
        for paragraph in law.clause(cited).split("\n"):
            if paragraph.strip():
                st.markdown(escape_markdown(paragraph.strip()))

search = ""
if state.mode() == state.STANDARD:
    search = st.text_input("Find words in this section", key="law_search").strip()

st.header(f"§ {number} {titles[number]}")
paragraphs = [p.strip() for p in law.clause(f"§ {number}").split("\n") if p.strip()]
if paragraphs and paragraphs[0].startswith("§"):  # the heading, already shown above
    paragraphs = paragraphs[1:]
shown = [p for p in paragraphs if search.lower() in p.lower()] if search else paragraphs
if search and not shown:
    st.write("Those words are not in this section.")
for paragraph in shown:
    st.markdown(escape_markdown(paragraph))

# What of this section, and of the whole article, the tool does not model (declared in data/law/not_modelled.yaml).
here = [e for e in not_modelled() if any(section_of(c) == number for c in e.clauses)]
if here:
    with st.container(border=True):
        st.markdown(f"**Not modelled in § {number}**: the tool does not compute, ask or check these clauses; "
                    "the approval authority applies them.")
        for e in here:
            st.markdown(f"- {escape_markdown(e.label)}: {escape_markdown(e.what)}")
with st.expander("Not modelled: every clause of Article IX this tool leaves to the Village", expanded=False):
    for title, entries in not_modelled_groups():
        st.markdown(f"**{escape_markdown(title)}**")
        st.markdown("\n".join(f"- {escape_markdown(e.label)}: {escape_markdown(e.what)}" for e in entries))
