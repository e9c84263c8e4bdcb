"""The map frame's files asked for by the page itself, as the frame is made (a first visit's critical path).

On a first visit (an empty HTTP cache) the Parcel page's map frame loads its page and streamlit-folium's bundle, then
Leaflet, Leaflet.draw and their stylesheets, each requested only after the one before has run (streamlit-folium
awaits each script): three sequential round trips to the server before the base map's script can run.
:func:`install` puts a constant script in the page (in the sidebar, with the other page-wide scripts); it runs when
the page's first elements are drawn and asks for those files with ``<link rel="prefetch">`` as soon as the frame is
there (asked for earlier, they took the connections the page's own lazily loaded chunks needed, and the frame came
later). They arrive while the frame is still loading its own page and bundle, and the frame finds them in the browser's cache (Streamlit serves ``/app/static`` with a ``Last-Modified`` date, so they are
fresh for the visit). streamlit-folium's own page and bundle are asked for too, but Streamlit serves those as
``no-cache`` and without a validator, so the frame asks again (a prefetch that is not used costs one request).
Nothing is drawn or changed in the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import streamlit as st

from app_support.map.mapping import DRAW_CSS, DRAW_JS, MAP_CSS, MAP_JS

__all__ = ["COMPONENT", "frame_files", "prefetch_html", "install", "linked_urls", "layers_html", "install_layers"]

#: streamlit-folium's component, as Streamlit serves it: ``<base>/component/<name>/``.
COMPONENT = "streamlit_folium.st_folium"


def _bundle_files() -> list[str]:
    """streamlit-folium's page's own scripts and stylesheets (``static/...``), from its built ``index.html``."""
    try:
        import streamlit_folium
    except ImportError:  # pragma: no cover (a requirement)
        return []
    index = Path(streamlit_folium.__file__).parent / "frontend" / "build" / "index.html"
    try:
        text = index.read_text(encoding="utf-8")
    except OSError:  # pragma: no cover (a development build of the component serves from a dev server)
        return []
    return [m.removeprefix("./") for m in re.findall(r'(?:src|href)="(\./static/[^"<>]+\.(?:js|css))"', text)]


def _base(base_path: str) -> str:
    """``server.baseUrlPath`` as a path prefix: ``""`` or ``"/name"``."""
    return ("/" + base_path.strip("/")) if base_path.strip("/") else ""


def frame_files(base_path: str = "") -> list[str]:
    """Paths of what the map frame loads first, in the frame's order: streamlit-folium's under the app's base path
    (``server.baseUrlPath``), Leaflet's as the maps name them (:data:`app_support.map.mapping.VENDOR_URL`)."""
    component = f"{_base(base_path)}/component/{COMPONENT}/"
    return [component + f for f in _bundle_files()] + [url for _, url in [*MAP_JS, *DRAW_JS, *MAP_CSS, *DRAW_CSS]]


#: Waits for the map's frame (its title as Streamlit makes it, or the name app_support.frame.announce gives it), then
#: calls ``go``: asked for earlier, these requests would take the browser's connections from the page's own chunks.
_WHEN_FRAME = """
  function whenFrame(go) {
    var sel = 'iframe[title="streamlit_folium.st_folium"], iframe[data-sloat-frame="map"]';
    if (d.querySelector(sel)) { go(); return; }
    var seen = new MutationObserver(function () {
      if (d.querySelector(sel)) { seen.disconnect(); go(); }
    });
    seen.observe(d.documentElement, {childList: true, subtree: true});
  }"""

_JS = """<script>
(function () {
  var w = window, d = w.document;
  if (w.__sloatFramePrefetch) { return; }
  w.__sloatFramePrefetch = true;""" + _WHEN_FRAME + """
  var origin = w.location.origin, files = __FILES__;
  // The frame's own page first: Streamlit names the app's address in its query.
  files.unshift(__PAGE__ + '?streamlitUrl=' + encodeURIComponent(origin + __BASE__ + '/'));
  whenFrame(function () {
    files.forEach(function (f) {
      var link = d.createElement('link');
      link.rel = 'prefetch'; link.href = origin + f;
      d.head.appendChild(link);
    });
  });
})();
</script>"""


def prefetch_html(base_path: str = "") -> str:
    """The page's script: one ``<link rel="prefetch">`` for each of :func:`frame_files` and the frame's page.

    The paths go in as JSON strings with no ``<`` at all (nothing can close the script), and they are the server's
    own: its base path and the names of files on its disk."""
    base = _base(base_path)
    values = {"FILES": frame_files(base_path), "PAGE": f"{base}/component/{COMPONENT}/index.html", "BASE": base}
    return re.sub(r"__(FILES|PAGE|BASE)__", lambda m: json.dumps(values[m.group(1)]).replace("<", "\\u003c"), _JS)


def install() -> None:
    """Put the prefetch script in the page (it acts once per page load; a rerun finds it done)."""
    st.html(prefetch_html(st.get_option("server.baseUrlPath") or ""), unsafe_allow_javascript=True)


_LAYERS_JS = """<script>
(function () {
  var w = window, d = w.document;
  if (w.__sloatLinkedEarly) { return; }""" + _WHEN_FRAME + """
  var origin = w.location.origin, texts = {};
  // The map frame's loader takes each answer once (a later page load asks the server again).
  w.__sloatLinkedEarly = {take: function (url) { var t = texts[url] || null; delete texts[url]; return t; }};
  whenFrame(function () {
    __URLS__.forEach(function (u) {
      var url = origin + __BASE__ + u;
      texts[url] = fetch(url).then(function (r) { return r.status === 200 ? r.text() : null; })
        .catch(function () { return null; });
    });
  });
})();
</script>"""


def linked_urls(groups_script: str) -> list[str]:
    """The server paths (``/media/<id>.json``) of the layers a map's feature-group script reads by link."""
    from app_support.map.linked_layers import _LOADER_CALL

    urls = [json.loads(m.group("url")) for m in _LOADER_CALL.finditer(groups_script or "")]
    return list(dict.fromkeys(u.removeprefix("../..") for u in urls if u.startswith("../../media/")))


def layers_html(urls: list[str], base_path: str = "") -> str:
    """The page's script that asks for the linked layers ``urls`` once per page load and hands each answer to the
    map frame's loader (:class:`app_support.map.leaflet_elements.LinkedLayerLoader`). The paths are the server's
    own media names, as JSON strings with no ``<``."""
    values = {"URLS": list(urls), "BASE": _base(base_path)}
    return re.sub(r"__(URLS|BASE)__", lambda m: json.dumps(values[m.group(1)]).replace("<", "\\u003c"), _LAYERS_JS)


def install_layers(groups_script: str | None) -> None:
    """Before the map: on a page's first load its linked layers are asked for by the page, as the frame is made,
    not after the frame has loaded its page, its bundle, Leaflet and the base map's script."""
    urls = linked_urls(groups_script or "")
    if urls:
        st.html(layers_html(urls, st.get_option("server.baseUrlPath") or ""), unsafe_allow_javascript=True)
