"""The Parcel page's first screen carries the answer's small element kinds, hidden."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from app_support.frame import element_preload

ROOT = Path(__file__).resolve().parents[2]


def test_first_screen_has_hidden_preload_and_no_answer_figure():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    labels = [m.label for m in at.metric]
    assert element_preload.PRELOAD_LABEL in labels  # the hidden metric that loads the metric's code
    assert not any("Net lot area" in label for label in labels)  # never the answer's own figure
    css = [h.proto.body for h in at.get("html")]
    assert any(".st-key-sloat_element_preload{display:none" in body for body in css)
    assert f".st-key-{element_preload.PRELOAD_KEY}{{" in element_preload._HIDE_CSS  # the constant names the key
