"""The constraint layers' GeoJSON reaches the map by link, once per page load (CPU per session).

The Parcel page's map gets the script of every feature group in each script run (streamlit-folium's
``feature_group`` argument). The constraint layers' and the offline base's scripts are made once per layer set
(:func:`app_support.map.mapping.install_group_cache`), but each run still sent their GeoJSON inside the component's
message: about 640 KB per run on the sample, JSON-encoded, serialised, hashed and written to the websocket, the
same for every visitor and every pick.

Here each large GeoJSON literal of a shared script, ``geo_json_<name>_add({...});`` as folium writes it, is
kept once in Streamlit's in-memory media storage (served by every start of the app: ``streamlit run``,
``tools/serve.py`` and the processes behind the deploy's nginx, whose session affinity keeps a session's
requests on its process) under a name made from a SHA-256 of its bytes. The script then reads it by link
through the base map's loader (:class:`app_support.map.leaflet_elements.LinkedLayerLoader`): the first time,
the requests of all the links start together and the layers are added when all have arrived, in the script's
order, what follows them brought to the front again (the canvas draws them in that order, and the parcel's
outline stays on top); the parsed objects are kept in the frame for every later rerun (a pick redraws the
groups, and the data is added at once), so a page load fetches each layer once. The linked file holds exactly
the text folium embedded (:func:`embedded_again` puts it back, byte for byte: tests/app/test_linked_layers.py).

Only the server's own layer data is linked, under names it made; a visitor cannot name a file. Without a
Streamlit runtime (a script outside a server, the tests of the map's text) nothing is linked and the script is
what streamlit-folium made. Files are kept while a shared script uses them (:func:`release`).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading

__all__ = ["MIN_LINKED_CHARS", "MIME", "link", "release", "present", "embedded_again", "linked_bytes"]

#: Literals shorter than this stay in the script (a link would cost more than it saves).
MIN_LINKED_CHARS = 4096
MIME = "application/json"
#: folium's GeoJson template: the data handed to the layer's ``_add`` function, on a line of its own.
_ADD_CALL = re.compile(r"^(?P<indent>[ \t]*)(?P<fn>geo_json_[A-Za-z0-9_]+_add)\((?P<data>\{.*\})\);(?=[ \t]*$)", re.M)
#: A link in the script. The map's frame is ``<app>/component/<name>/index.html``: the link is relative to it, so a
#: ``server.baseUrlPath`` is followed. The base map's loader reads it (a failed request leaves that layer empty,
#: as a failed tile would).
_LOADER = '{indent}(function (url, add) {{ window.__sloatLinkedLayers.load(url, add); }})({url}, {fn});'
_LOADER_CALL = re.compile(r'^[ \t]*\(function \(url, add\) \{ window\.__sloatLinkedLayers\.load\(url, add\); '
                          r'\}\)\((?P<url>"[^"]+"), (?P<fn>geo_json_[A-Za-z0-9_]+_add)\);(?=[ \t]*$)', re.M)
_LOCK = threading.Lock()
_USES: dict[str, int] = {}  # media file id -> shared scripts using it


def _storage():
    """Streamlit's in-memory media storage of the running server, or None (no runtime, another storage)."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
    except ImportError:  # pragma: no cover (Streamlit is a requirement)
        return None
    if not Runtime.exists():
        return None
    storage = getattr(Runtime.instance().media_file_mgr, "_storage", None)
    return storage if isinstance(storage, MemoryMediaFileStorage) else None


def link(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` (a shared group script) with each large GeoJSON literal read by link; and the files it uses.

    Without a runtime's in-memory media storage: ``text`` unchanged and no file.
    """
    storage = _storage()
    if storage is None:
        return text, ()
    from streamlit.runtime.media_file_storage import MediaFileKind

    used: list[str] = []

    def linked(match: re.Match) -> str:
        data = match.group("data")
        if len(data) < MIN_LINKED_CHARS:
            return match.group(0)
        try:
            json.loads(data)  # only a whole JSON literal is moved (folium's ``tojson``)
        except ValueError:
            return match.group(0)
        raw = data.encode("utf-8")
        name = hashlib.sha256(raw).hexdigest()
        with _LOCK:
            file_id = storage.load_and_get_id(raw, MIME, MediaFileKind.MEDIA, filename=f"{name}.json")
            _USES[file_id] = _USES.get(file_id, 0) + 1
        used.append(file_id)
        url = "../.." + storage.get_url(file_id)  # from <app>/component/<name>/index.html to <app>/media/<id>.json
        return _LOADER.format(indent=match.group("indent"), url=json.dumps(url), fn=match.group("fn"))

    return _ADD_CALL.sub(linked, text), tuple(used)


def release(file_ids: tuple[str, ...]) -> None:
    """A shared script that used ``file_ids`` was dropped: delete the files no other script uses."""
    storage = _storage()
    with _LOCK:
        for file_id in file_ids:
            left = _USES.get(file_id, 0) - 1
            if left > 0:
                _USES[file_id] = left
                continue
            _USES.pop(file_id, None)
            if storage is not None:
                storage.delete_file(file_id)


def present(file_ids: tuple[str, ...]) -> bool:
    """Whether the running server still holds every one of ``file_ids`` (a test's runtime may have gone)."""
    if not file_ids:
        return True
    storage = _storage()
    if storage is None:
        return False
    from streamlit.runtime.media_file_storage import MediaFileStorageError

    try:
        for file_id in file_ids:
            storage.get_file(file_id)
    except MediaFileStorageError:
        return False
    return True


def linked_bytes(url: str) -> bytes | None:
    """The bytes the running server serves at a link of :func:`link` (None if it has no such file)."""
    storage = _storage()
    if storage is None:
        return None
    from streamlit.runtime.media_file_storage import MediaFileStorageError

    try:
        return storage.get_file(url.rsplit("/", 1)[-1]).content
    except MediaFileStorageError:
        return None


def embedded_again(text: str) -> str:
    """A linked script with each link replaced by the data it reads: the script as streamlit-folium made it."""

    def embedded(match: re.Match) -> str:
        data = linked_bytes(json.loads(match.group("url")))
        if data is None:
            raise LookupError(f"no linked file at {match.group('url')}")
        indent = re.match(r"[ \t]*", match.group(0)).group(0)
        return f"{indent}{match.group('fn')}({data.decode('utf-8')});"

    return _LOADER_CALL.sub(embedded, text)
