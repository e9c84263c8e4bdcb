"""A Streamlit session at the protocol level: the browser's own HTTP requests and websocket messages.

Used by the serving test (tests/service/test_deploy.py), the deep-link test and the load bench
(bench/load.py). One :class:`Session` is one browser tab: it fetches the page (which, behind the
Village's nginx, sets the affinity cookie), asks ``/_stcore/health`` for the XSRF cookie as the
front end does, opens ``/_stcore/stream`` with the ``streamlit`` subprotocol and the XSRF token, and
sends ``BackMsg.rerun_script`` with the URL's query string and page name, widget values and the
browser's context. It reads ``ForwardMsg`` messages until the run is over and keeps the elements of
the last run by their delta path, so a caller can find a widget by its label, set its value and
rerun, read a metric, or upload a file (``file_urls_request``, then an HTTP PUT of the file to the
URL the server gives, with the XSRF header, as the front end does).

Bounded: every receive has a time-out, every run a deadline; nothing here retries without end.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import requests
from websockets.sync.client import connect

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ContextInfo
from streamlit.proto.Common_pb2 import FileUploaderState, UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

FINISHED = ForwardMsg.ScriptFinishedStatus
#: Widget element types and the WidgetState field their value goes in.
VALUE_FIELD = {"text_input": "string_value", "text_area": "string_value", "number_input": "double_value",
               "checkbox": "bool_value", "radio": "int_value", "selectbox": "int_value"}


class ProtocolError(AssertionError):
    """The server did not answer as a browser would expect (closed, timed out, or an error shown)."""


@dataclass
class Run:
    """What one script run sent: elements by delta path, the URL's new query string, timings."""

    elements: dict = field(default_factory=dict)
    #: labels of containers (expanders, tabs, popovers) by delta path
    blocks: dict = field(default_factory=dict)
    query_string: str | None = None
    navigation: object | None = None
    page_not_found: bool = False
    seconds: float = 0.0

    def of_type(self, kind: str) -> list:
        return [getattr(e, kind) for _, e in sorted(self.elements.items()) if e.WhichOneof("type") == kind]

    def texts(self) -> list[str]:
        """Every piece of text shown (markdown, headings, captions, alerts, metric labels and values)."""
        out = []
        for _, e in sorted(self.elements.items()):
            kind = e.WhichOneof("type")
            msg = getattr(e, kind)
            for name in ("body", "label", "text"):
                value = getattr(msg, name, None) if hasattr(msg, name) else None
                if isinstance(value, str) and value:
                    out.append(value)
        return out

    def has_text(self, needle: str) -> bool:
        """``needle`` shown anywhere (markdown escapes such as ``\\-`` ignored)."""
        shown = [*self.texts(), *self.blocks.values()]
        return any(needle in t or needle in t.replace("\\", "") for t in shown)

    def widget(self, kind: str, label_start: str):
        for w in self.of_type(kind):
            if w.label.startswith(label_start):
                return w
        raise ProtocolError(f"no {kind} labelled {label_start!r}; shown: {self.texts()[:40]}")

    def metric(self, label_start: str) -> str:
        for m in self.of_type("metric"):
            if m.label.startswith(label_start):
                return m.body
        raise ProtocolError(f"no metric {label_start!r}; shown: {self.texts()[:40]}")

    def exceptions(self) -> list[str]:
        return [f"{x.type}: {x.message}" for x in self.of_type("exception")]


class Session:
    """One browser tab on ``base`` (``http://127.0.0.1:PORT``), through a proxy or straight to a process."""

    def __init__(self, base: str, *, http: requests.Session | None = None, timeout_s: float = 60.0):
        self.base = base.rstrip("/")
        self.http = http or requests.Session()  # a browser's cookie jar (shared by its tabs)
        self.timeout_s = timeout_s
        self.ws = None
        self.session_id: str | None = None
        self.widget_states: dict[str, WidgetState] = {}
        self.page_name = ""
        self.query_string = ""
        self.last: Run | None = None

    # -- connection ---------------------------------------------------------------------------
    def open(self, path: str = "/") -> Run:
        """Load ``path`` (e.g. ``/walkthrough?case=X&mode=projector``) as a browser does; return the first run."""
        parts = urlsplit(path)
        self.page_name = parts.path.strip("/")
        self.query_string = parts.query
        page = self.http.get(self.base + path, timeout=self.timeout_s)
        page.raise_for_status()
        self.http.get(self.base + "/_stcore/health", timeout=self.timeout_s).raise_for_status()
        xsrf = self.http.cookies.get("_streamlit_xsrf") or ""
        host = urlsplit(self.base).netloc
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies)
        self.ws = connect(f"ws://{host}/_stcore/stream", subprotocols=["streamlit", xsrf],
                          additional_headers={"Origin": self.base, "Cookie": cookie},
                          open_timeout=self.timeout_s, max_size=2**28, compression=None)
        return self.rerun()

    def close(self) -> None:
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:  # noqa: BLE001 (a process already gone)
                pass
            self.ws = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- messages -----------------------------------------------------------------------------
    def _send(self, back: BackMsg) -> None:
        try:
            self.ws.send(back.SerializeToString())
        except Exception as exc:  # noqa: BLE001 (closed by the server or the proxy)
            raise ProtocolError(f"the connection closed: {type(exc).__name__}: {exc}") from exc

    def _recv(self, deadline: float) -> ForwardMsg:
        left = deadline - time.monotonic()
        if left <= 0:
            raise ProtocolError(f"no answer within {self.timeout_s:.0f} s")
        try:
            data = self.ws.recv(timeout=left)
        except TimeoutError as exc:
            raise ProtocolError(f"no answer within {self.timeout_s:.0f} s") from exc
        except Exception as exc:  # noqa: BLE001 (closed by the server or the proxy)
            raise ProtocolError(f"the connection closed: {type(exc).__name__}: {exc}") from exc
        msg = ForwardMsg()
        msg.ParseFromString(data)
        return msg

    def rerun(self) -> Run:
        """Send the browser's rerun request (query string, page, every widget value); wait for the run."""
        back = BackMsg()
        cs = back.rerun_script
        cs.query_string = self.query_string
        cs.page_name = self.page_name
        cs.widget_states.widgets.extend(self.widget_states.values())
        cs.context_info.CopyFrom(ContextInfo(timezone="America/New_York", timezone_offset=300, locale="en-US",
                                             url=f"{self.base}/{self.page_name}", is_embedded=False))
        t0 = time.monotonic()
        self._send(back)
        run = self._wait_run(t0 + self.timeout_s)
        run.seconds = time.monotonic() - t0
        self.last = run
        return run

    def _wait_run(self, deadline: float) -> Run:
        run = Run()
        started = False
        while True:
            msg = self._recv(deadline)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
                started = True
                run = Run(navigation=run.navigation)
            elif kind == "session_status_changed" and msg.session_status_changed.script_is_running:
                started = True
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                run.elements[tuple(msg.metadata.delta_path)] = msg.delta.new_element
            elif kind == "delta" and msg.delta.WhichOneof("type") == "add_block":
                block = msg.delta.add_block
                which = block.WhichOneof("type")
                label = getattr(getattr(block, which), "label", "") if which else ""
                if label:
                    run.blocks[tuple(msg.metadata.delta_path)] = label
            elif kind == "page_info_changed":
                run.query_string = msg.page_info_changed.query_string
                self.query_string = run.query_string
            elif kind == "navigation":
                run.navigation = msg.navigation
            elif kind == "page_not_found":
                run.page_not_found = True
            elif kind == "script_finished":
                status = msg.script_finished
                if status == FINISHED.FINISHED_WITH_COMPILE_ERROR:
                    raise ProtocolError("the script did not compile")
                if status in (FINISHED.FINISHED_SUCCESSFULLY, FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY) and started:
                    return run
                # FINISHED_EARLY_FOR_RERUN: st.rerun() or a newer request; the next run follows

    # -- a user's actions ---------------------------------------------------------------------
    def set_widget(self, widget, value, kind: str) -> Run:
        """Give ``widget`` (an element from the last run) ``value`` and rerun, as typing plus Enter does."""
        state = WidgetState(id=widget.id)
        setattr(state, VALUE_FIELD[kind], value)
        self.widget_states[widget.id] = state
        return self.rerun()

    def type_into(self, label_start: str, text: str) -> Run:
        return self.set_widget(self.last.widget("text_input", label_start), text, "text_input")

    def go(self, page_name: str, query_string: str | None = None) -> Run:
        """Switch page in the same session (the sidebar's page list)."""
        self.page_name = page_name
        if query_string is not None:
            self.query_string = query_string
        self.widget_states.clear()
        return self.rerun()

    def upload(self, label_start: str, name: str, data: bytes, content_type: str = "application/octet-stream"
               ) -> tuple[requests.Response, Run | None]:
        """Upload ``data`` into the file uploader labelled ``label_start`` as the front end does.

        Returns the PUT's response and, when it was accepted, the run that follows."""
        widget = self.last.widget("file_uploader", label_start)
        back = BackMsg()
        request_id = uuid.uuid4().hex
        back.file_urls_request.request_id = request_id
        back.file_urls_request.file_names.append(name)
        back.file_urls_request.session_id = self.session_id or ""
        self._send(back)
        deadline = time.monotonic() + self.timeout_s
        while True:
            msg = self._recv(deadline)
            if msg.WhichOneof("type") == "file_urls_response" and msg.file_urls_response.response_id == request_id:
                break
        if msg.file_urls_response.error_msg:
            raise ProtocolError(msg.file_urls_response.error_msg)
        urls = msg.file_urls_response.file_urls[0]
        upload_url = urls.upload_url if "://" in urls.upload_url else self.base + "/" + urls.upload_url.lstrip("/")
        put = self.http.put(upload_url, files={"file": (name, data, content_type)},
                            headers={"X-Xsrftoken": self.http.cookies.get("_streamlit_xsrf") or "",
                                     "Origin": self.base}, timeout=self.timeout_s)
        if put.status_code not in (200, 204):
            return put, None
        info = UploadedFileInfo(name=name, size=len(data), file_id=urls.file_id)
        info.file_urls.CopyFrom(urls)
        state = WidgetState(id=widget.id)
        state.file_uploader_state_value.CopyFrom(FileUploaderState(uploaded_file_info=[info]))
        self.widget_states[widget.id] = state
        return put, self.rerun()
