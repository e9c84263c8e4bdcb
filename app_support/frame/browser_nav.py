"""What the browser does with Back and Forward, and the presenter's keys of the walk-through.

Streamlit's front end pushes a new history entry every time the script changes the query string
(``st.query_params``), and another when the page changes. Parameters that only mirror state (the display
mode ``?mode=``, the case ``?case=``, the law page's ``?section=``) then stack up: each page change made
two or three entries and Back seemed to do nothing. :data:`HISTORY_JS` sets one rule in the page: a URL
change that keeps the page *replaces* the current entry, except a change of the walk-through's screen
(``?step=N`` to another N), which is a step a person goes back to. So there is one entry per page change
and one per walk-through step, and Back / Forward move between them (Streamlit reruns the page with the
entry's query string; the walk-through reads its screen from it). On a narrow screen (a phone), choosing a
page in the sidebar's menu closes the sidebar, which otherwise covers the page.

:data:`WALKTHROUGH_KEYS_JS` lets a presenter's clicker step the walk-through: PageDown, Right, Down and
Space click "Next"; PageUp, Left and Up click "Previous" (not while typing in a field).

Both scripts are constants: nothing from a user or a file is put into them.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["HISTORY_JS", "WALKTHROUGH_KEYS_JS", "COLLAPSE_SIDEBAR_JS", "collapse_sidebar", "NEXT_LABEL", "PREVIOUS_LABEL", "install_history_rule",
           "install_walkthrough_keys"]

#: The walk-through's buttons, as the key listener finds them.
NEXT_LABEL = "Next ▶"
PREVIOUS_LABEL = "◀ Previous"

HISTORY_JS = """
<script>
(() => {
  const w = window;
  if (w.__sloatHistoryRule) { return; }
  w.__sloatHistoryRule = true;
  const push = w.history.pushState.bind(w.history);
  const replace = w.history.replaceState.bind(w.history);
  w.history.pushState = function (state, title, url) {
    if (url !== undefined && url !== null) {
      const next = new URL(String(url), w.location.href);
      // Leaving the walk-through: the sidebar it folded away (COLLAPSE_SIDEBAR_JS) opens again.
      if (w.__sloatFoldedByWalkthrough && !/\\/walkthrough\\/?$/.test(next.pathname)) {
        w.__sloatFoldedByWalkthrough = false;
        w.setTimeout(() => {
          const open = w.document.querySelector('[data-testid="stExpandSidebarButton"] button')
            || w.document.querySelector('[data-testid="stExpandSidebarButton"]');
          if (open && w.innerWidth > 768) { open.click(); }
        }, 100);
      }
      const was = new URLSearchParams(w.location.search).get("step");
      const now = next.searchParams.get("step");
      const samePage = next.pathname === w.location.pathname;
      const newStep = was !== null && now !== null && was !== now;
      if (samePage && !newStep) { return replace(state, title, url); }
    }
    return push(state, title, url);
  };
  // On a narrow screen the open sidebar covers the page: a choice in its page menu closes it again.
  w.document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('[data-testid="stSidebarNav"] a');
    if (!link || w.innerWidth > 768) { return; }
    w.setTimeout(() => {
      const close = w.document.querySelector('[data-testid="stSidebarCollapseButton"] button');
      if (close) { close.click(); }
    }, 50);
  }, true);
})();
</script>
"""

WALKTHROUGH_KEYS_JS = """
<script>
(() => {
  const w = window;
  if (w.__sloatWalkthroughKeys) { return; }
  w.__sloatWalkthroughKeys = true;
  const NEXT = ["PageDown", "ArrowRight", "ArrowDown", " ", "Spacebar"];
  const PREVIOUS = ["PageUp", "ArrowLeft", "ArrowUp"];
  const typing = (el) => !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
  const button = (label) => [...w.document.querySelectorAll('[data-testid="stMain"] button')]
    .find((b) => (b.innerText || "").trim() === label);
  w.document.addEventListener("keydown", (event) => {
    if (!/\\/walkthrough\\/?$/.test(w.location.pathname)) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) { return; }
    const label = NEXT.includes(event.key) ? "Next ▶" : PREVIOUS.includes(event.key) ? "◀ Previous" : null;
    if (label === null) { return; }
    event.preventDefault();
    if (event.repeat) { return; }
    const target = button(label);
    if (target && !target.disabled) { target.click(); }
  }, true);
})();
</script>
"""  # the labels are NEXT_LABEL and PREVIOUS_LABEL, written out (tests/app/test_app_modes.py checks they match)


#: Folds the sidebar away if it is open (the walk-through in Projector mode: the Board needs the whole width).
COLLAPSE_SIDEBAR_JS = """
<script>
(() => {
  const bar = window.document.querySelector('[data-testid="stSidebar"]');
  const close = window.document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (bar && close && bar.getBoundingClientRect().right > 1) {
    close.click();
    window.__sloatFoldedByWalkthrough = true;  // the history rule opens it again on leaving the walk-through
    // Streamlit remembers a folded sidebar (localStorage "stSidebarCollapsed-..."): this fold is the
    // walk-through's, not the person's, so no later visit or tab inherits it.
    window.setTimeout(() => {
      for (const key of Object.keys(window.localStorage)) {
        if (key.startsWith("stSidebarCollapsed-")) { window.localStorage.removeItem(key); }
      }
    }, 300);
  }
})();
</script>
"""


def install_history_rule() -> None:
    """Put :data:`HISTORY_JS` in the page (once per page load; a rerun finds it installed)."""
    st.html(HISTORY_JS, unsafe_allow_javascript=True)


def collapse_sidebar() -> None:
    """Fold the sidebar away when this element first shows (a page visit, not every rerun)."""
    st.html(COLLAPSE_SIDEBAR_JS, unsafe_allow_javascript=True)


def install_walkthrough_keys() -> None:
    """Put :data:`WALKTHROUGH_KEYS_JS` in the page (it acts only on the walk-through's page)."""
    st.html(WALKTHROUGH_KEYS_JS, unsafe_allow_javascript=True)
