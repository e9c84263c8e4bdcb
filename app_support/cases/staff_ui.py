"""Staff mode of the case store: the passcode, the token, and the Staff box's list, search, open, archive, undo.

Split from :mod:`app_support.cases.cases_ui` (which binds the session to its case) without changing what either
does. :func:`unlock` checks the passcode against ``st.secrets["staff_passcode_hash"]`` (slowed
down after wrong tries, per client address); the token lives in the session only (``cases_ui.STAFF``).
Listing and searching need the token (``CaseStore`` enforces it).
"""

from __future__ import annotations

import datetime as dt

import streamlit as st

from app_support.cases.cases_ui import (CASE_PROBLEMS, STAFF, current_case, load_case, problem_sentence, store)
from app_support.widgets.citations import escape_links
from sloat_core.store import Case, CaseStoreError, StaffToken, UnlockResult

__all__ = [
    "STAFF_NOT_SET_UP",
    "passcode_hash",
    "client_key",
    "unlock",
    "staff_token",
    "lock",
    "open_by_staff",
    "undo_last_change",
    "staff_panel",
]

_STAFF_NOTE = "staff_note"
#: What the Staff box says on a server without a staff passcode: what staff mode does and who turns it on.
STAFF_NOT_SET_UP = ("Staff mode (listing, searching and archiving cases, undoing a change) is not turned on for "
                    "this server. Whoever looks after the server turns it on by putting a staff passcode hash in "
                    "its secrets file (.streamlit/secrets.toml, key staff_passcode_hash); until then every case "
                    "still opens from its own link.")


def open_by_staff(case_id: str) -> Case:
    """Open any case, archived ones too (staff only); it becomes the session's case."""
    case = store().open_case(case_id, staff=staff_token())
    load_case(case)
    return case


def undo_last_change() -> Case:
    """Bring back the current case's previous saved version (staff only)."""
    case = current_case()
    if staff_token() is None:
        raise CaseStoreError("Undo needs staff mode: unlock it with the staff passcode.")
    if case is None:
        raise CaseStoreError("There is no case to undo yet.")
    restored = store().undo(case)
    load_case(restored)
    return restored




def passcode_hash() -> str | None:
    """The staff passcode hash from ``st.secrets["staff_passcode_hash"]``, or None when not set up."""
    try:
        value = st.secrets["staff_passcode_hash"]
    except (KeyError, FileNotFoundError):
        return None
    return value if isinstance(value, str) and value.strip() else None


def client_key() -> str:
    """Whose wrong passcodes are counted together: the client's address when known, else everyone."""
    try:
        ip = st.context.ip_address
    except (AttributeError, RuntimeError):
        ip = None
    if isinstance(ip, str) and ip:
        return f"ip:{ip[:100]}"
    try:
        forwarded = st.context.headers.get("X-Forwarded-For")
    except (AttributeError, RuntimeError):
        forwarded = None
    if isinstance(forwarded, str) and forwarded.strip():
        return f"fwd:{forwarded.split(',')[0].strip()[:100]}"
    return "global"


def unlock(passcode: str) -> UnlockResult:
    """Check the staff passcode; on success the session holds a staff token."""
    secret = passcode_hash()
    if secret is None:
        return UnlockResult(False, "Staff mode is not set up on this server (no passcode hash in its secrets).")
    try:
        result = store().unlock_staff(passcode or "", secret, client_key=client_key())
    except CASE_PROBLEMS as exc:
        return UnlockResult(False, problem_sentence(exc))
    if result.ok:
        st.session_state[STAFF] = result.token
    return result


def staff_token() -> StaffToken | None:
    """This session's valid staff token, or None (public mode)."""
    token = st.session_state.get(STAFF)
    if isinstance(token, StaffToken) and token.is_valid():
        return token
    st.session_state[STAFF] = None
    return None


def lock() -> None:
    """Leave staff mode."""
    st.session_state[STAFF] = None


def _updated_text(iso: str) -> str:
    try:
        return dt.datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return iso


def _staff_action(action, *args) -> None:
    """Run a staff action from a button callback; its outcome is one sentence shown by the panel."""
    try:
        message = action(*args)
    except CASE_PROBLEMS as exc:
        st.session_state[_STAFF_NOTE] = (False, problem_sentence(exc))
    else:
        st.session_state[_STAFF_NOTE] = (True, message)


def _open(case_id: str) -> str:
    case = open_by_staff(case_id)
    return f"Opened {case.title or 'the case'}."


def _set_archived(case_id: str, flag: bool) -> str:
    token = staff_token()
    (store().archive if flag else store().unarchive)(token, case_id)
    current = current_case()
    if current is not None and current.id == case_id:
        load_case(store().open_case(case_id, staff=token))
    return ("Archived: its link now opens it read-only, and it can be restored here." if flag
            else "Restored: it can be changed again.")


def _undo() -> str:
    case = undo_last_change()
    return f"Back to the earlier version (now version {case.revision})."


def _staff_unlock_form() -> None:
    if passcode_hash() is None:
        st.info(STAFF_NOT_SET_UP)
        return
    with st.form("staff_unlock", clear_on_submit=True):
        code = st.text_input("Staff passcode", type="password", key="staff_passcode")
        pressed = st.form_submit_button("Unlock staff mode", key="staff_unlock_btn")
    if pressed:
        result = unlock(code)
        if result.ok:
            st.rerun()
        st.error(result.message)


def staff_panel() -> None:
    """Staff mode: the passcode form, or (unlocked) the list and search of cases, open, archive, undo."""
    import pandas as pd

    token = staff_token()
    if token is None:
        _staff_unlock_form()
        return
    note = st.session_state.pop(_STAFF_NOTE, None)
    if note:
        (st.success if note[0] else st.error)(escape_links(note[1]))  # "Opened <title>."
    top = st.columns([3, 1])
    top[0].success("Staff mode is on: every case can be listed, searched, opened and archived.")
    top[1].button("Lock staff mode", key="staff_lock", on_click=lock)
    query = st.text_input("Search cases (SBL, address, district, words in the notes)", key="staff_query")
    archived = st.checkbox("Include archived cases", key="staff_archived")
    try:
        found = store().list_cases(token, query, include_archived=archived, limit=100)
        metas = {s.id: (store().open_case(s.id, staff=token).parcel_meta or {}) for s in found}
    except CASE_PROBLEMS as exc:
        st.error(problem_sentence(exc))
        return
    if not found:
        st.caption("No case matches.")
    else:
        st.dataframe(pd.DataFrame([{
            "Title": s.title or "(no parcel yet)",
            "SBL / address": " · ".join(str(v) for v in (metas[s.id].get("sbl"), metas[s.id].get("address")) if v),
            "Updated": _updated_text(s.updated_at),
            "Archived": "yes" if s.archived else "",
        } for s in found]), hide_index=True, width="stretch")
        labels = {s.id: f"{s.title or '(no parcel yet)'} · {_updated_text(s.updated_at)}"
                  + (" · archived" if s.archived else "") for s in found}
        chosen = st.selectbox("Case", list(labels), format_func=labels.get, key="staff_choice")
        flag = next(s.archived for s in found if s.id == chosen)
        cols = st.columns(2)
        cols[0].button("Open this case", key="staff_open", on_click=_staff_action, args=(_open, chosen))
        cols[1].button("Restore it" if flag else "Archive it", key="staff_archive",
                       on_click=_staff_action, args=(_set_archived, chosen, not flag))
    if current_case() is not None:
        st.button("Undo the last change to the current case", key="staff_undo",
                  on_click=_staff_action, args=(_undo,))
