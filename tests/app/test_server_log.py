"""The server's log holds what someone must read (logs in the journal): no line repeated on every pick.

Streamlit logs a deprecation warning on every call of ``components.html``, which the zero-height announcer
keeps (``st.iframe`` refuses a height of 0): two lines a pick in the journal before. Layers: tests/app_fixtures.py.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import announce  # noqa: E402
from app_support.inputs.parcel_inputs import QUERY_KEY  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


class _Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_a_pick_leaves_no_deprecation_line_in_the_log_and_other_lines_stay(manifest, data_dir):
    logger = logging.getLogger("streamlit.deprecation_util")
    lines = _Lines()
    logger.addHandler(lines)
    try:
        at = AppTest.from_file(APP, default_timeout=60).run()
        at.text_input(key=QUERY_KEY).input(fx.P1_SBL).run()
        assert not at.exception, at.exception
        assert at.session_state["a11y_announced"]  # the announcer ran for the pick (its frame was made)
        assert not [line for line in lines.lines if line.startswith(announce.DEPRECATION_LINE)], lines.lines
        logger.warning("Please replace `st.something_else` with `st.other`.")  # any other line is kept
        assert lines.lines[-1].startswith("Please replace `st.something_else`")
    finally:
        logger.removeHandler(lines)
