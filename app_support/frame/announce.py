"""What a screen-reader or keyboard user needs around the answer (WCAG 2.4.1, 2.4.3, 4.1.2, 4.1.3).

One call per page, where the answer is (:func:`answer`). It puts a focus target before the answer and, through a
zero-height component frame, installs once in the page (``window.parent``) a small script that

- adds a "Skip to the results" link as the first Tab stop (2.4.1): the page's only one (the stylesheet hides
  Streamlit's own "Skip to main content", which goes to the top of the page, not to the answer); on a page with
  no answer it reads "Skip to the main content" and goes to the page's heading. :func:`install` puts it in
  every page (``app.py``);
- keeps a polite live region (``role="status"``, ``aria-live="polite"``), visually hidden, and writes the answer
  into it: the verdict and the net lot area, in the words of :func:`app_support.views.results.announcement` (4.1.3);
- names every map frame with :data:`MAP_TITLE` (its ``title`` and ``aria-label``: st_folium titles its iframe
  "streamlit_folium.st_folium", which a browser would then still give as the frame's description; the frame is
  marked ``data-sloat-frame="map"``, :data:`MAP_FRAME` finds it either way), again each time Streamlit re-creates
  the frame (4.1.2);
- leaves the live region the answer's one announcement (4.1.3 without repeats): where there is an answer, the
  answer's warning, info and success boxes lose the live role Streamlit gives them (``alert``, ``status``), so
  the verdict is heard once; error boxes and the finder's messages keep it;
- takes the zero-height component frames (this module's own) out of the Tab order: an empty stop (2.4.3); they
  are hidden from assistive technology and titled :data:`ANNOUNCER_TITLE` (Streamlit titles them "st.iframe");

and, when the parcel is new (after a search, an upload, a drawing or a click), moves the focus to the answer
(2.4.3): to its heading "The results for this parcel", a line of its own above the answer, so its focus ring
hides no control (2.4.11). A rerun for anything else (a layer switched on, a district chosen) neither moves the focus nor repeats
the announcement. Everything written into the page is a constant or JSON-encoded text set as ``textContent``:
nothing from a user or a file becomes HTML or script.
"""

from __future__ import annotations

import json
import logging

import streamlit as st
import streamlit.components.v1 as components


__all__ = ["ANNOUNCER_TITLE", "ANSWER_ID", "FINDER_TITLE", "LIVE_ID", "MAP_FRAME", "MAP_TITLE", "SKIP_TEXT",
           "SKIP_MAIN_TEXT", "answer", "forget", "install", "say", "announce_script"]

#: The focus target placed just before the answer.
ANSWER_ID = "sloat-answer"
#: The polite live region in the page.
LIVE_ID = "sloat-live"
SKIP_TEXT = "Skip to the results"
#: The skip link's words on a page with no answer (it goes to the page's heading).
SKIP_MAIN_TEXT = "Skip to the main content"
#: The Parcel page's finder (its expander's title): its messages are a search's own and keep their live role.
FINDER_TITLE = "Find or upload a parcel"
MAP_TITLE = "Map of the parcel and its constraint layers (everything on it is also in the tables beside it)"
#: The map's frame, named (``data-sloat-frame``) or not yet (st_folium's own title).
MAP_FRAME = 'iframe[data-sloat-frame="map"], iframe[title="streamlit_folium.st_folium"]'
#: The title of this module's zero-height frames (hidden from assistive technology: nothing in them to read).
ANNOUNCER_TITLE = "Announcer for screen readers (it writes the page's live region; nothing to read in it)"
_SEEN = "a11y_announced"
#: The start of the line Streamlit logs on every call of ``components.html`` (its ``show_once`` is off).
DEPRECATION_LINE = "Please replace `st.components.v1.html` with `st.iframe`"


class _AnnouncerDeprecation(logging.Filter):
    """Keeps Streamlit's deprecation line for ``components.html`` out of the server's log.

    The announcer is a zero-height frame, and ``st.iframe`` refuses a height of 0 (``validate_height``), so this
    module keeps ``components.html`` (Streamlit is pinned in requirements.txt; its removal shows in the tests when
    it is upgraded). Streamlit logs the line as a warning on every call: twice a pick, in the journal of a service
    whose warnings someone reads. Every other line of that logger is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(DEPRECATION_LINE)


_deprecations = logging.getLogger("streamlit.deprecation_util")
if not any(isinstance(f, _AnnouncerDeprecation) for f in _deprecations.filters):
    _deprecations.addFilter(_AnnouncerDeprecation())
#: The focus target before the answer: a constant (the answer's words go to the live region, as text). It is a
#: visible heading on its own line, always (not only while focused): its focus ring goes round it and covers no
#: control, and nothing moves when the focus comes or goes (the line is there from the moment the answer is).
ANSWER_TARGET_HTML = ('<div id="sloat-answer" role="heading" aria-level="2" tabindex="-1" '
                      'class="sloat-answer-target">The results for this parcel</div>')

_INSTALL_JS = """
(function () {
  var w = window.parent, d = w.document;
  if (!w.sloatA11y) {
    var code = "(" + function (answerId, liveId, skipText, mainText, mapTitle, finderTitle, announcerTitle) {
      var live = document.createElement('div');
      live.id = liveId; live.className = 'sloat-sr-only';
      live.setAttribute('role', 'status'); live.setAttribute('aria-live', 'polite');
      document.body.appendChild(live);
      var skip = document.createElement('a');
      skip.href = '#' + answerId; skip.className = 'sloat-skip'; skip.textContent = skipText;
      // The page's one skip link (Streamlit's own "Skip to main content" is hidden by the stylesheet): to the
      // answer where there is one, else to the page's heading; its words say which, as the focus reaches it.
      skip.addEventListener('focus', function () {
        skip.textContent = document.getElementById(answerId) ? skipText : mainText;
      });
      skip.addEventListener('click', function (e) {
        e.preventDefault();
        var t = document.getElementById(answerId) || document.querySelector('[data-testid="stMain"] h1');
        if (t) { if (!t.hasAttribute('tabindex')) t.setAttribute('tabindex', '-1'); t.focus(); t.scrollIntoView(); }
      });
      document.body.insertBefore(skip, document.body.firstChild);
      function nameFrames() {
        document.querySelectorAll('iframe[title="streamlit_folium.st_folium"]').forEach(function (f) {
          f.setAttribute('data-sloat-frame', 'map'); f.setAttribute('aria-label', mapTitle);
          f.setAttribute('title', mapTitle);
        });
        // A zero-height component frame (this announcer's) holds nothing to read or press: no Tab stop.
        document.querySelectorAll('iframe[srcdoc*="sloatA11y"]:not([tabindex])').forEach(function (f) {
          f.setAttribute('tabindex', '-1'); f.setAttribute('aria-hidden', 'true');
          f.setAttribute('title', announcerTitle);
        });
        // One announcement per answer: the live region's. Streamlit makes each warning box an alert and each
        // info or success box a status (both live regions), so the verdict box was heard a second time (and
        // the unknowns' boxes with it). Where there is an answer, its boxes are plain text; an error box,
        // and any box of the finder (a search's own message), keep their role and are still said at once.
        if (document.getElementById(answerId)) {
          document.querySelectorAll('[data-testid="stMain"] .stAlertContainer[role]').forEach(function (a) {
            if (a.querySelector('[data-testid="stAlertContentError"]')) { return; }
            var x = a.closest('[data-testid="stExpander"]'), s = x && x.querySelector('summary');
            if (s && s.textContent.indexOf(finderTitle) >= 0) { return; }
            a.removeAttribute('role');
          });
        }
      }
      nameFrames();
      new MutationObserver(nameFrames).observe(document.body, {childList: true, subtree: true});
      window.sloatA11y = {
        say: function (text) {  // a change of text is what a screen reader announces
          live.textContent = '';
          setTimeout(function () { live.textContent = text; }, 150);
        },
        focusAnswer: function () {
          var t = document.getElementById(answerId);
          if (t) { t.focus({preventScroll: false}); }
        }
      };
    } + ")(" + JSON.stringify([ANSWER, LIVE, SKIP, MAIN, TITLE, FINDER, ANNOUNCER]).slice(1, -1) + ");";
    var s = d.createElement('script');
    s.textContent = code;
    d.head.appendChild(s);
  }
  var say = SAY, focus = FOCUS;
  if (say) { w.sloatA11y.say(say); }
  if (focus) { setTimeout(function () { w.sloatA11y.focusAnswer(); }, 300); }
})();
"""


def _js(value) -> str:
    """``value`` as a JavaScript literal that cannot close the script element (no ``<`` at all)."""
    return json.dumps(value, ensure_ascii=True).replace("<", "\\u003c")


def announce_script(say: str | None, focus: bool) -> str:
    """The component's HTML: install the page's helpers once, then announce ``say`` and move the focus."""
    code = (_INSTALL_JS.replace("ANSWER, LIVE, SKIP, MAIN, TITLE, FINDER, ANNOUNCER", ", ".join(_js(v) for v in (
        ANSWER_ID, LIVE_ID, SKIP_TEXT, SKIP_MAIN_TEXT, MAP_TITLE, FINDER_TITLE, ANNOUNCER_TITLE)))
            .replace("SAY", _js(say)).replace("FOCUS", _js(bool(focus))))
    return f"<script>{code}</script>"


def install() -> None:
    """The page's skip link, live region and map names, on every page (``app.py`` calls it once per run): run in
    the page itself (no frame), it installs once and then does nothing."""
    st.html(announce_script(None, False), unsafe_allow_javascript=True)


def say(text: str, *, key: str) -> None:
    """Announce ``text`` once in the live region (again only when it changes), without moving the focus."""
    seen = st.session_state.get(_SEEN + key)
    st.session_state[_SEEN + key] = text
    components.html(announce_script(text if text != seen else None, False), height=0)


def forget(key: str) -> None:
    """What :func:`say` last said under ``key`` is no longer current (the finder found a parcel, or its box was
    emptied): the same text, said again later, is announced again."""
    st.session_state.pop(_SEEN + key, None)


def answer(text: str, parcel_key: str) -> None:
    """Before the answer: its focus target; the page's skip link, live region and map names; and, when the
    parcel (``parcel_key``) is new, the announcement of ``text`` and the focus moved here. The words are the
    answer's (:func:`app_support.views.results.announcement`)."""
    new = st.session_state.get(_SEEN) != parcel_key
    changed = st.session_state.get(_SEEN + "text") != text
    st.session_state[_SEEN], st.session_state[_SEEN + "text"] = parcel_key, text
    st.html(ANSWER_TARGET_HTML)
    components.html(announce_script(text if (new or changed) else None, new), height=0)
