"""The parcel finder takes what people type: a full postal address, the number after the
street, an SBL without punctuation or with a letter for a digit; the nearest is offered when nothing matches.
Layers: tests/app_fixtures.py (P1 156.14-1-23 at "1 Test Road", P2 156.14-1-24 at "3 Test Road")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from app_support.inputs.parcel_inputs import EXAMPLE_SBL, QUERY_KEY  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.mark.parametrize("typed, sbl", [
    ("1 Test Road, Sloatsburg, NY 10974", fx.P1_SBL),
    ("Test Road 3", fx.P2_SBL),
    ("15614124", fx.P2_SBL),
    ("156.14-l-23", fx.P1_SBL),
])
def test_a_single_match_of_what_people_type_is_chosen(manifest, data_dir, typed, sbl):
    at = AppTest.from_file(APP, default_timeout=60).run()
    box = at.text_input(key=QUERY_KEY)
    assert EXAMPLE_SBL in box.label
    box.input(typed).run()
    assert not at.exception, at.exception
    assert at.session_state[state.PARCEL].sbl == sbl


def test_an_sbl_not_there_offers_the_nearest(manifest, data_dir):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key=QUERY_KEY).input("156.14-1-29").run()
    assert not at.exception, at.exception
    assert any("the nearest" in c.value for c in at.caption)
    assert state.PARCEL not in at.session_state or at.session_state[state.PARCEL] is None


def test_a_prohibition_is_not_listed_among_the_permits(manifest, data_dir):
    # Commercial excavation (§ 402-52, prohibited) is not listed among the permits.
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[state.MODE] = state.STANDARD
    at.run()
    at.text_input(key=QUERY_KEY).input(fx.P1_SBL).run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption]
    unknown = [c for c in captions if c.startswith("Unknown on the layers available")]
    assert unknown and all("excavation" not in c.lower() for c in unknown)
    assert any(c.startswith("Not allowed at all, if the project includes it: Commercial excavation") for c in captions)


def test_a_single_match_is_chosen_before_the_page_runs_so_the_page_runs_once(manifest, data_dir, monkeypatch):
    # Server time per pick: the search box's callback chooses the parcel, so the pick's run draws the
    # frame, the finder, the map and the answer once; choosing it while the page ran meant st.rerun, and
    # everything above the finder was run twice per pick.
    import streamlit as st

    reruns = []
    original = st.rerun
    monkeypatch.setattr(st, "rerun", lambda *a, **k: (reruns.append(1), original(*a, **k)))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key=QUERY_KEY).input(fx.P2_SBL).run()
    assert not at.exception, at.exception
    assert at.session_state[state.PARCEL].sbl == fx.P2_SBL
    assert at.session_state[state.PARCEL_NOTE] == f"Tax parcel {fx.P2_SBL}"
    assert any(c.value.startswith("Found\\: 3 Test Road") for c in at.caption)  # escaped markdown
    assert reruns == []
