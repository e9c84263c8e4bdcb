"""The one colour dictionary and the constant stylesheets of the display modes.

The map legend, the map layers and the deduction table all take their colours from
:data:`COLOURS`, so a colour means the same thing everywhere. The stylesheets are constants:
nothing from a user or a file is ever put into the injected HTML.
"""

from __future__ import annotations

import streamlit as st

from app_support.frame import state
from sloat_core.gis.roles import DERIVED_STYLES, ROLE_DECLARATIONS
from sloat_core.measure.rows import DEDUCTION_ROWS

__all__ = ["COLOURS", "LAYER_LABELS", "colour_for", "MAP_HEIGHT_PX", "BODY_FONT_PX", "stylesheet", "apply_mode",
           "CAPTION_COLOUR", "FOCUS_COLOUR", "CONTROL_BORDER_COLOUR", "LINK_COLOUR", "contrast_ratio"]

# Layer roles and deduction constraints share one dictionary, read from the role declarations
# (sloat_core.gis.roles): a colour means the same thing on the map, in the table and in the legend.
COLOURS: dict[str, str] = {"parcel": "#111111"}
COLOURS.update({r.id: r.colour for r in ROLE_DECLARATIONS})
COLOURS.update({d.id: d.colour for d in DERIVED_STYLES})

LAYER_LABELS: dict[str, str] = {r.id: r.label for r in ROLE_DECLARATIONS}
# A deduction row drawn from the layer set with no role of its own (the buffer band around wetlands and
# watercourses) is a map layer too, named by its row's label. A layer's name is the same on every date: such a
# row's label states no number of the law (a label with one, "{...}", would need the date it is read at).
_ROWS_AS_LAYERS = [r for r in DEDUCTION_ROWS if r.map_layer is not None and r.map_layer not in LAYER_LABELS]
if any("{" in r.label for r in _ROWS_AS_LAYERS):
    raise ValueError("A map layer's name states a number of the law; name it by the date it is read at.")
LAYER_LABELS.update({r.map_layer: r.label for r in _ROWS_AS_LAYERS})
#: Roles the map draws only as the offline base (never in the constraint-layer list), from their `WebLook`.
BASE_ONLY_ROLES = frozenset(r.id for r in ROLE_DECLARATIONS if r.web.base_only)

_FALLBACK = "#888888"

MAP_HEIGHT_PX = {state.STANDARD: 560, state.COUNTER: 520, state.PROJECTOR: 760}


def colour_for(key: str) -> str:
    """Colour of a layer role or deduction constraint id.

    Parameters
    ----------
    key : str
        A layer role ("wetlands") or a deduction row's id ("slope_25_40"), as declared in
        sloat_core.gis.roles (every deduction row has its style there).

    Returns
    -------
    str
        A ``#rrggbb`` colour; grey for anything unknown.
    """
    return COLOURS.get(key, _FALLBACK)


#: Body type size of each mode, in px (None: Streamlit's own). The projector's is the smallest text
#: readable from the back of a meeting room; every text on its pages is at least this size.
BODY_FONT_PX = {state.STANDARD: None, state.COUNTER: 20, state.PROJECTOR: 24}

_BASE_CSS = """
<style>
/* The map key, the notices, the answer's focus target and the deduction table are HTML put in by st.html, not
   markdown (which would make the page fetch and run Streamlit's HTML parser): they keep the place the markdown
   container gave them (1rem less below each), and the key's list is not indented by st.html's own rule for lists. */
[data-testid="stHtml"]:has(> .sloat-legend, > .sloat-notice, > .sloat-answer-target, > .sloat-dtable) {
  margin-bottom:-1rem;
  overflow-wrap:break-word;}
[data-testid="stHtml"] .sloat-legend, .sloat-legend {list-style:none;margin:0.25rem 0;padding:0;}
.sloat-legend li {margin:0 0 0.15rem 0;padding:0;}
.sloat-swatch {display:inline-block;width:0.9em;height:0.9em;border:1px solid #333;
  margin-right:0.35em;vertical-align:middle;}
.sloat-notice {background:#fff4ce;border-left:6px solid #b58900;padding:0.4em 0.6em;
  color:#3b3000;font-weight:600;}
[data-testid="stMetricLabel"] *, [data-testid="stMetricValue"] * {white-space:normal !important;
  overflow:visible !important;text-overflow:clip !important;}
[data-testid="stTable"] td:first-child {min-width:1.6em;}
.sloat-swatch.sloat-hatch-fwd {background-image:repeating-linear-gradient(135deg,
  rgba(255,255,255,.8) 0 1.5px, transparent 1.5px 4.5px) !important;}
.sloat-swatch.sloat-hatch-back {background-image:repeating-linear-gradient(45deg,
  rgba(255,255,255,.8) 0 1.5px, transparent 1.5px 4.5px) !important;}
.sloat-swatch.sloat-hatch-horiz {background-image:repeating-linear-gradient(0deg,
  rgba(255,255,255,.8) 0 1.5px, transparent 1.5px 4.5px) !important;}
.sloat-swatch.sloat-hatch-vert {background-image:repeating-linear-gradient(90deg,
  rgba(255,255,255,.8) 0 1.5px, transparent 1.5px 4.5px) !important;}
.sloat-swatch.sloat-hatch-cross {background-image:repeating-linear-gradient(45deg,
  rgba(255,255,255,.75) 0 1.2px, transparent 1.2px 4.5px), repeating-linear-gradient(135deg,
  rgba(255,255,255,.75) 0 1.2px, transparent 1.2px 4.5px) !important;}
.sloat-swatch.sloat-hatch-grid {background-image:repeating-linear-gradient(0deg,
  rgba(255,255,255,.75) 0 1.2px, transparent 1.2px 4.5px), repeating-linear-gradient(90deg,
  rgba(255,255,255,.75) 0 1.2px, transparent 1.2px 4.5px) !important;}
.sloat-swatch.sloat-hatch-dots {background-image:radial-gradient(circle, rgba(255,255,255,.9) 1px,
  transparent 1.4px) !important;background-size:4px 4px !important;}
.sloat-swatch.sloat-hatch-rings {background-image:radial-gradient(circle, transparent 1.2px,
  rgba(255,255,255,.9) 1.3px 2.1px, transparent 2.2px) !important;background-size:6px 6px !important;}
</style>
"""

# Streamlit's toolbar and its menu (Rerun, Settings, Print...) are not for the public or the Board.
_NO_TOOLBAR_CSS = """
<style>
[data-testid="stToolbar"], [data-testid="stMainMenu"], [data-testid="stAppDeployButton"],
[data-testid="stToolbarActions"], [data-testid="stDecoration"], #MainMenu {display:none !important;}
</style>
"""

_COUNTER_CSS = """
<style>
html, body, [data-testid="stAppViewContainer"] {font-size:20px;}
[data-testid="stAppViewContainer"] p, [data-testid="stAppViewContainer"] li {font-size:20px;line-height:1.5;}
[data-testid="stAppViewContainer"] [data-testid="stMetricValue"] p {font-size:2.4rem;font-weight:600;
  line-height:1.15;}
[data-testid="stAppViewContainer"] [data-testid="stTable"] td,
[data-testid="stAppViewContainer"] [data-testid="stTable"] th {font-size:20px;}
/* Streamlit's top padding is in rem and grew with the larger type (120 px); 80 px clears its header, as on a projector. */
[data-testid="stMainBlockContainer"] {padding-top:80px !important;}
/* The title's own padding (Streamlit's, in rem: 25 px above, 20 below) shrinks to 10 px each way: it pays for
   the answer's heading line ("The results for this parcel", the focus target), so the first screen still holds
   the verdict, what stands in the way, the next step and the handout button. */
[data-testid="stMain"] h1 {padding-top:0.5rem !important;padding-bottom:0.5rem !important;}
</style>
"""

# Colour is forced only on running text (p, li, label, captions); table cells keep their inline
# status colours. Widths are in px so the page does not grow with the root font size.
_PROJECTOR_CSS = """
<style>
html, body, [data-testid="stAppViewContainer"], [data-testid="stSidebar"] {font-size:24px;
  color:#000000;background:#ffffff;}
[data-testid="stAppViewContainer"] p, [data-testid="stAppViewContainer"] li,
[data-testid="stAppViewContainer"] label, [data-testid="stAppViewContainer"] td,
[data-testid="stAppViewContainer"] th, [data-testid="stSidebar"] p,
[data-testid="stSidebar"] label, [data-testid="stSidebar"] li, [data-testid="stSidebar"] a,
[data-testid="stSidebar"] span, [data-testid="stAppViewContainer"] input,
[data-testid="stAppViewContainer"] textarea, [data-testid="stAppViewContainer"] [data-baseweb="select"] div,
[data-testid="stAppViewContainer"] [data-baseweb="tag"] span, [data-testid="stAppViewContainer"] button p,
[data-testid="stMultiSelectTagsContainer"] span, [data-testid="stDateInputFieldsScroller"] *,
[data-testid="stFileUploaderDropzoneInstructions"] span, [data-testid="stFileUploaderDropzoneInstructions"] div {
  font-size:24px !important;line-height:1.45;}
[data-testid="stAppViewContainer"] p, [data-testid="stAppViewContainer"] li,
[data-testid="stAppViewContainer"] label, [data-testid="stSidebar"] p, [data-testid="stSidebar"] label,
[data-testid="stSidebar"] li {color:#000000 !important;}
[data-testid="stAppViewContainer"] td, [data-testid="stAppViewContainer"] th {color:#000000;
  padding:0.25em 0.5em !important;}
[data-testid="stAppViewContainer"] h1 {font-size:56px !important;}
[data-testid="stAppViewContainer"] h2 {font-size:44px !important;}
[data-testid="stAppViewContainer"] h3 {font-size:36px !important;}
[data-testid="stAppViewContainer"] [data-testid="stMetricValue"],
[data-testid="stAppViewContainer"] [data-testid="stMetricValue"] p {font-size:48px !important;
  font-weight:700;line-height:1.1;color:#000000 !important;}
[data-testid="stAppViewContainer"] [data-testid="stMetricLabel"] p {font-size:26px !important;
  font-weight:600;}
[data-testid="stAppViewContainer"] [data-testid="stCaptionContainer"],
[data-testid="stAppViewContainer"] [data-testid="stCaptionContainer"] p,
[data-testid="stSidebar"] [data-testid="stCaptionContainer"],
[data-testid="stSidebar"] [data-testid="stCaptionContainer"] p {font-size:24px !important;
  color:#111111 !important;}
[data-testid="stPageLink"] span, [data-testid="stPageLink"] p {white-space:normal !important;
  overflow:visible !important;text-overflow:clip !important;}
[data-testid="stSidebarNav"] span {white-space:normal !important;overflow:visible !important;}
[data-testid="stSidebar"][data-collapsed="false"] {width:380px !important;min-width:380px !important;}
[data-testid="stMainBlockContainer"] {padding:80px 32px 96px 32px !important;max-width:100% !important;}
a {color:#0033cc !important;text-decoration:underline !important;}
[data-testid="stToolbar"], [data-testid="stDecoration"] {display:none !important;}
footer {display:none !important;}
.sloat-clutter {display:none !important;}
.sloat-answer-target {font-size:24px !important;}  /* the projector's smallest type, as the body's */
</style>
"""

# --- Navigation block (owner: nav) ----------------------------------------------------------------------
# The sidebar's open button lives inside Streamlit's toolbar, which Counter and Projector hide: on a phone
# (where the sidebar starts closed) that left no page menu and no mode switch. The toolbar box stays shown
# (its menu, deploy button and actions stay hidden by the rules above) and the open button is at least
# 44 x 44 px; the header is 60 px tall in every mode (in rem it grew to 90 px with the projector's type and
# covered the top of each page's title). Elements that only hold a stylesheet or a script
# (app_support.frame.browser_nav) take no room (no gap).
_NAV_CSS = """
<style>
header[data-testid="stHeader"] [data-testid="stToolbar"] {display:flex !important;}
header[data-testid="stHeader"] {height:60px !important;min-height:60px !important;}
[data-testid="stExpandSidebarButton"] {display:flex !important;visibility:visible !important;
  min-width:44px !important;min-height:44px !important;align-items:center;justify-content:center;}
[data-testid="stExpandSidebarButton"] button {min-width:44px !important;min-height:44px !important;}
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > script:first-child):not(:has(> [data-testid="stHtml"] > :not(script))),
[data-testid="stElementContainer"]:has(> [data-testid="stMarkdown"] [data-testid="stMarkdownContainer"] > style:first-child):not(:has([data-testid="stMarkdownContainer"] > :not(style))) {
  display:none !important;}
</style>
"""
# --- end of the navigation block ------------------------------------------------------------------------

# Accessibility (WCAG 2.2 AA), in every mode. Colours are declared once here and measured by
# tests/app/test_a11y_contrast.py (on the page's white and the sidebar's grey) and tests/browser/test_browser_axe.py.
#: Caption and secondary text: 7.0:1 on white, 6.3:1 on the sidebar (Streamlit's own grey is 3.8-3.9:1).
CAPTION_COLOUR = "#595959"
#: The focus ring, drawn outside a white halo so it shows on any colour: 8.0:1 on white.
FOCUS_COLOUR = "#0b4f9c"
#: Borders of text boxes, menus, date and number inputs, check boxes and the upload box: 4.5:1 on white.
CONTROL_BORDER_COLOUR = "#767676"
#: Links in the page (§ links are page links): underlined, 6.4:1 on white.
LINK_COLOUR = "#0b57d0"
#: Backgrounds the colours above are measured against: the page and Streamlit's sidebar (as painted).
BACKGROUNDS = {"page": "#ffffff", "sidebar": "#f0f2f6", "sidebar as painted": "#f8f8f7"}

_A11Y_CSS = f"""
<style>
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] p,
[data-testid="stWidgetLabel"] [data-testid="stCaptionContainer"] p,
[data-testid="stMetricDelta"], [data-testid="stTooltipHoverTarget"] svg {{color:{CAPTION_COLOUR} !important;
  opacity:1 !important;}}
button:disabled, button:disabled p, [aria-disabled="true"] p, label:has(input:disabled) p {{
  color:{CAPTION_COLOUR} !important;opacity:1 !important;}}
:focus-visible {{outline:3px solid {FOCUS_COLOUR} !important;outline-offset:2px !important;
  box-shadow:0 0 0 2px #ffffff !important;}}
[data-baseweb="input"]:focus-within, [data-baseweb="textarea"]:focus-within,
[data-baseweb="select"] > div:focus-within, label:has(input:focus-visible),
[data-testid="stFileUploaderDropzone"]:focus-within {{outline:3px solid {FOCUS_COLOUR} !important;
  outline-offset:2px !important;}}
[data-baseweb="input"] input:focus-visible, [data-baseweb="textarea"] textarea:focus-visible,
[data-baseweb="select"] input:focus-visible, label input:focus-visible {{outline:none !important;
  box-shadow:none !important;}}
[data-testid="stTextInputRootElement"], [data-testid="stNumberInputContainer"], [data-testid="stTextAreaRootElement"],
[data-testid="stDateInputField"], [data-testid="stFileUploaderDropzone"] {{
  border:1px solid {CONTROL_BORDER_COLOUR} !important;}}
/* Streamlit draws menus, check boxes and radio circles in its light theme border (about 1.4:1); where one of their
   parts has a border, it takes the control colour. */
[data-testid="stSelectbox"] *, [data-testid="stMultiSelect"] *, [data-testid="stRadioOption"] *,
[data-testid="stCheckbox"] label * {{border-color:{CONTROL_BORDER_COLOUR} !important;}}
span[role="spinbutton"] {{display:inline-flex !important;align-items:center;justify-content:center;
  min-width:24px;min-height:24px;}}
[data-testid="stMain"] [data-testid="stPageLink"] a span, [data-testid="stMain"] [data-testid="stPageLink"] a p,
[data-testid="stMain"] [data-testid="stMarkdownContainer"] a {{color:{LINK_COLOUR} !important;
  text-decoration:underline !important;}}
[data-testid="stCode"] pre, [data-testid="stCode"] code {{white-space:pre-wrap !important;
  overflow-wrap:anywhere !important;word-break:break-all;}}
/* A wide table written in markdown (the timeline's table) scrolls sideways inside its own box at 320 CSS px
   (WCAG 1.4.10: two-dimensional content); the page itself does not. */
[data-testid="stMarkdownContainer"]:has(table) {{overflow-x:auto;max-width:100%;}}
[data-testid="stMain"] button {{max-width:100%;}}
[data-testid="stMain"] button p {{white-space:normal !important;overflow-wrap:anywhere;}}
[data-testid="stMultiSelectTagsContainer"], [data-baseweb="select"] > div > div:first-child {{flex-wrap:wrap !important;}}
[data-baseweb="tag"] {{max-width:100% !important;}}
.sloat-sr-only {{position:absolute !important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;
  clip:rect(0,0,0,0);white-space:nowrap;border:0;}}
/* The answer's focus target (app_support.frame.announce) is a heading on a line of its own, always: focused, its ring
   goes round it and covers no control (an overlay drawn over what followed hid the handout button, WCAG 2.4.11),
   and nothing moves as the focus comes or goes (a line taken only while focused moved what was under the
   pointer). */
.sloat-answer-target {{display:block;font-weight:600;font-size:0.9rem;line-height:1.3;margin:0;padding:2px 4px;}}
.sloat-answer-target:focus {{outline:3px solid {FOCUS_COLOUR} !important;outline-offset:-3px !important;
  box-shadow:none !important;}}
[data-testid="stElementContainer"]:has(.sloat-answer-target) {{margin-bottom:-0.75rem !important;}}
[data-testid="stElementContainer"]:has(> iframe[height="0"]),
[data-testid="stElementContainer"]:has(> div > iframe[height="0"]) {{position:absolute !important;width:0 !important;
  height:0 !important;overflow:hidden !important;}}
/* One skip link per page: ours (app_support.frame.announce), which goes to the answer; Streamlit's own goes to the
   top of the page and would be a second "skip" stop. */
[data-testid="stSkipToContent"] {{display:none !important;}}
.sloat-skip {{position:absolute;left:-10000px;top:auto;}}
.sloat-skip:focus {{outline:3px solid {FOCUS_COLOUR} !important;outline-offset:2px;position:fixed;left:8px;top:8px;z-index:1000000;background:#ffffff;color:{FOCUS_COLOUR};
  padding:8px 12px;font-weight:700;}}
</style>
"""

_CSS = {state.STANDARD: _BASE_CSS + _NAV_CSS, state.COUNTER: _BASE_CSS + _COUNTER_CSS + _NO_TOOLBAR_CSS + _NAV_CSS,
        state.PROJECTOR: _BASE_CSS + _PROJECTOR_CSS + _NO_TOOLBAR_CSS + _NAV_CSS}
_CSS = {mode: css + _A11Y_CSS for mode, css in _CSS.items()}  # the accessibility rules last, in every mode


def stylesheet(mode: str) -> str:
    """The constant ``<style>`` block of ``mode`` (Standard's for an unknown mode), accessibility rules last."""
    return _CSS.get(mode, _CSS[state.STANDARD])


def apply_mode(mode: str) -> None:
    """Inject the constant stylesheet of ``mode`` (one of :data:`app_support.frame.state.MODES`).

    Through ``st.html``: a block of ``<style>`` alone goes to Streamlit's event container and takes no room in the
    page. As markdown with ``unsafe_allow_html`` it made the front end fetch and run its HTML parser (rehype-raw,
    188 KB) on every first page, parse the sheet as markdown and then as HTML, and show a placeholder until then."""
    st.html(stylesheet(mode))


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(foreground: str, background: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast_ratio("#000000", "#ffffff"), 1)
    21.0
    >>> round(contrast_ratio("#767676", "#ffffff"), 2)
    4.54
    """
    hi, lo = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
