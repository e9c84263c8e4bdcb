"""The one colour dictionary and the constant stylesheets of the display modes.

The map legend, the map layers and the deduction table all take their colours from
:data:`COLOURS`, so a colour means the same thing everywhere. The stylesheets are constants:
nothing from a user or a file is ever put into the injected HTML.
"""

from __future__ import annotations

import streamlit as st

from app_support import state
from sloat_core.gis.roles import DERIVED_STYLES, ROLE_DECLARATIONS
from sloat_core.measure.rows import DEDUCTION_ROWS, deduction_label

__all__ = ["COLOURS", "LAYER_LABELS", "colour_for", "MAP_HEIGHT_PX", "BODY_FONT_PX", "stylesheet", "apply_mode"]

# Layer roles and deduction constraints share one dictionary, read from the role declarations
# (sloat_core.gis.roles): a colour means the same thing on the map, in the table and in the legend.
COLOURS: dict[str, str] = {"parcel": "#111111"}
COLOURS.update({r.id: r.colour for r in ROLE_DECLARATIONS})
COLOURS.update({d.id: d.colour for d in DERIVED_STYLES})

LAYER_LABELS: dict[str, str] = {r.id: r.label for r in ROLE_DECLARATIONS}
# A deduction row drawn from the layer set with no role of its own (the buffer band around wetlands and
# watercourses) is a map layer too, named by its row's label.
LAYER_LABELS.update({r.map_layer: deduction_label(r.id) for r in DEDUCTION_ROWS
                     if r.map_layer is not None and r.map_layer not in LAYER_LABELS})
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
</style>
"""

# --- Navigation block (owner: nav; issue 24 items 2 and 7) -------------------------------------------------
# The sidebar's open button lives inside Streamlit's toolbar, which Counter and Projector hide: on a phone
# (where the sidebar starts closed) that left no page menu and no mode switch. The toolbar box stays shown
# (its menu, deploy button and actions stay hidden by the rules above) and the open button is at least
# 44 x 44 px; the header is 60 px tall in every mode (in rem it grew to 90 px with the projector's type and
# covered the top of each page's title). Elements that only hold a stylesheet or a script (app_support.browser_nav) take no room (no gap).
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

_CSS = {state.STANDARD: _BASE_CSS + _NAV_CSS, state.COUNTER: _BASE_CSS + _COUNTER_CSS + _NO_TOOLBAR_CSS + _NAV_CSS,
        state.PROJECTOR: _BASE_CSS + _PROJECTOR_CSS + _NO_TOOLBAR_CSS + _NAV_CSS}


def stylesheet(mode: str) -> str:
    """The constant ``<style>`` block of ``mode`` (Standard's for an unknown mode)."""
    return _CSS.get(mode, _CSS[state.STANDARD])


def apply_mode(mode: str) -> None:
    """Inject the constant stylesheet of ``mode`` (one of :data:`app_support.state.MODES`)."""
    st.markdown(stylesheet(mode), unsafe_allow_html=True)
