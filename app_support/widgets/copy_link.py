"""A link with a visible "Copy link" button.

The link sits in a read-only text box beside a real button, so it can be copied with a click or with
the keyboard (Tab to the button, Enter or Space). When the browser refuses the clipboard (no permission,
an old browser, a page not served over HTTPS), the link is selected in its box and one sentence says to
press Ctrl+C. The box and the button live in a small component frame: Streamlit's own copy icon on
``st.code`` shows only on hover and cannot be reached by the keyboard.
"""

from __future__ import annotations

import html
import json

import streamlit as st

from app_support.frame.theme import CONTROL_BORDER_COLOUR, FOCUS_COLOUR

__all__ = ["copy_link", "copy_link_html", "COPIED", "REFUSED"]

#: What the button's status line says after a copy, and when the browser refused the clipboard.
COPIED = "Copied: paste the link into an email, a note or a browser."
REFUSED = "The browser did not let this page copy: the link is selected, press Ctrl+C (Cmd+C on a Mac) to copy it."

_TEMPLATE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{label}</title><style>
body {{ margin: 0; font-family: "Source Sans Pro", "Source Sans 3", sans-serif; font-size: 16px; color: #31333f; }}
.row {{ display: flex; gap: 8px; align-items: stretch; }}
input {{ flex: 1 1 auto; min-width: 0; font: inherit; font-family: "Source Code Pro", monospace; font-size: 14px;
        padding: 6px 8px; border: 1px solid {border}; border-radius: 6px; background: #f7f8fa; color: #31333f; }}
button {{ flex: 0 0 auto; font: inherit; font-weight: 600; padding: 6px 14px; border-radius: 6px; cursor: pointer;
         border: 1px solid {border}; background: #fff; color: #31333f; }}
button:hover {{ border-color: #c62828; color: #c62828; }}
input:focus-visible, button:focus-visible {{ outline: 3px solid {focus}; outline-offset: 2px; }}
p {{ margin: 4px 0 0; font-size: 14px; min-height: 18px; }}
</style></head><body>
<div class="row"><input id="link" type="text" readonly value="{link}" aria-label="{label}">
<button id="copy" type="button">Copy link</button></div>
<p id="status" role="status" aria-live="polite"></p>
<script>
const box = document.getElementById("link"), note = document.getElementById("status");
const copied = {copied}, refused = {refused};
function fallback() {{ box.focus(); box.select(); note.textContent = refused; }}
document.getElementById("copy").addEventListener("click", async () => {{
  try {{
    if (!navigator.clipboard || !window.isSecureContext) throw new Error("no clipboard");
    await navigator.clipboard.writeText(box.value);
    note.textContent = copied;
  }} catch (e) {{ fallback(); }}
}});
box.addEventListener("focus", () => box.select());
</script></body></html>"""


def copy_link_html(link: str, *, label: str = "Link to this case") -> str:
    """The component's page: the link (escaped) in a read-only box, the button and its status line.

    >>> '&quot;' in copy_link_html('http://x/?case="1"')
    True
    """
    return _TEMPLATE.format(link=html.escape(link, quote=True), label=html.escape(label, quote=True),
                            copied=json.dumps(COPIED), refused=json.dumps(REFUSED),
                            border=CONTROL_BORDER_COLOUR, focus=FOCUS_COLOUR)


def copy_link(link: str, *, label: str = "Link to this case") -> None:
    """Draw the link with its "Copy link" button."""
    st.iframe(copy_link_html(link, label=label), height=72, alt=f"{label}, with a Copy link button")
