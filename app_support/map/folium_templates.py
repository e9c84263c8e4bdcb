"""Faster map HTML: folium's constant strings are not compiled as Jinja templates on every rerun.

branca (0.8) wraps every piece of HTML and script a folium element renders in ``Element(text)``, whose
constructor compiles ``text`` as a Jinja template: each constraint layer's script, GeoJSON included,
is tokenised by Jinja on every rerun, although it holds no Jinja syntax. folium's GeoJSON tooltips
and pop-ups also compile the same constant template each time they render. Together that is about
half of the time ``st_folium`` takes to build the Parcel page's map (85 ms -> 40 ms here), paid on
every rerun, the first page included.

:func:`install` (called when :mod:`app_support.map.mapping` is imported) replaces the ``Template`` name
those two modules use with :func:`template`: a text with no Jinja delimiter becomes a constant that
renders exactly what Jinja would render (newlines normalised to ``\\n``, one trailing newline
dropped: Jinja's defaults); any other text up to 16 KB is compiled once per (class, text) and reused
(a compiled Jinja template is safe to render again and from several threads). The map's HTML is unchanged, byte
for byte (tests/app/test_folium_templates.py renders whole maps both ways).

Because branca compiles what it rendered, text from a layer file must never hold Jinja syntax when it
reaches the map: a wetland named "{% x" would stop the map with a Jinja syntax error (with or without
this module). :func:`map_html_text` and :func:`map_json` write its braces so that the browser
still shows them and Jinja sees none.
"""

from __future__ import annotations

import functools
import html
import json
import re
import types

import branca.element
import folium.features

__all__ = ["template", "install", "JINJA_DELIMITERS", "map_html_text", "map_json"]

#: Jinja's default block, variable and comment openers: a text without them is plain data to Jinja.
JINJA_DELIMITERS = ("{{", "{%", "{#")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_ORIGINAL = {branca.element: branca.element.Template, folium.features: folium.features.Template}


class ConstantTemplate:
    """A text with no Jinja syntax, rendered as Jinja's default environment renders it."""

    __slots__ = ("text",)
    #: What a compiled template's ``module`` holds for a text without macros: no header, html or script.
    module = types.SimpleNamespace()

    def __init__(self, source: str):
        lines = _NEWLINE.split(source)
        if lines[-1] == "":  # Jinja drops one trailing newline (keep_trailing_newline=False)
            lines.pop()
        self.text = "\n".join(lines)

    def render(self, *args, **kwargs) -> str:
        return self.text


@functools.lru_cache(maxsize=1024)
def _compiled(template_class: type, source: str):
    return template_class(source)


#: Templates longer than this are compiled each time, as the libraries do, and not kept: the libraries' own
#: templates are a few KB; a long text with Jinja syntax would be rendered output, different every time.
CACHE_MAX_CHARS = 16_384


def _for(template_class: type):
    def template(source: str):
        if isinstance(source, str) and not any(d in source for d in JINJA_DELIMITERS):
            return ConstantTemplate(source)
        if not isinstance(source, str) or len(source) > CACHE_MAX_CHARS:
            return template_class(source)
        return _compiled(template_class, source)

    template.__doc__ = f"A {template_class.__module__}.{template_class.__name__} for ``source``, made once."
    return template


#: The replacement for branca's ``Template`` (jinja2.Template).
template = _for(_ORIGINAL[branca.element])
_REPLACEMENT = {branca.element: template, folium.features: _for(_ORIGINAL[folium.features])}


#: branca's element names: ``get_name`` camel-cases the class name again on each call (about 300 calls a
#: session, 2-5 ms); the same function kept per name (a handful of class names) gives the same text.
_ORIGINAL_CAMELIFY = branca.element._camelify
_camelify = functools.lru_cache(maxsize=256)(_ORIGINAL_CAMELIFY)


def install() -> None:
    """Use the replacements in branca.element and folium.features (idempotent)."""
    for module, replacement in _REPLACEMENT.items():
        module.Template = replacement
    branca.element._camelify = _camelify


def uninstall() -> None:
    """Put the libraries' own ``Template`` and names back (for the equivalence test)."""
    for module, original in _ORIGINAL.items():
        module.Template = original
    branca.element._camelify = _ORIGINAL_CAMELIFY


def map_html_text(text) -> str:
    """``text`` (from a layer file) for the map's HTML (tooltips, pop-ups): HTML-escaped, and its braces as
    character references (``&#123;`` ``&#125;``), so no Jinja delimiter reaches branca."""
    return html.escape(str(text)).replace("{", "&#123;").replace("}", "&#125;")


def map_json(value) -> str:
    """``value`` (lists of numbers and strings, no objects) as JSON for the map's script: ``</`` and every
    brace written as escapes inside its strings (``<\\/``, ``\\u007b``, ``\\u007d``), which JavaScript reads
    as the characters themselves. With no objects, every brace in the text is inside a string."""

    def check(item) -> None:
        if isinstance(item, dict):
            raise TypeError("map_json takes lists of numbers and strings, not objects")
        if isinstance(item, (list, tuple)):
            for part in item:
                check(part)

    check(value)
    return (json.dumps(value, ensure_ascii=True).replace("</", "<\\/")
            .replace("{", "\\u007b").replace("}", "\\u007d"))


# Accessibility: folium's map header forbids pinch zoom (WCAG 1.4.4) and Leaflet's focus ring is faint
# (2.4.7, 1.4.11). Its header macro is wrapped once, so installed or not the map gets the same viewport and ring.
_MAP_HEADER = folium.Map._template.module.header
MAP_FOCUS_CSS = ("<style>:focus-visible{outline:3px solid #0b4f9c !important;outline-offset:-3px !important;"
                 "box-shadow:inset 0 0 0 5px #ffffff !important;}</style>")
folium.Map._template.module.header = lambda this, kwargs: re.sub(
    r",\s*maximum-scale=1\.0,\s*user-scalable=no", "", str(_MAP_HEADER(this, kwargs))) + MAP_FOCUS_CSS
