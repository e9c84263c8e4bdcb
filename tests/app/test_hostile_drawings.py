"""A drawing from the map is bounded before shapely (or anything else) reads it.

The map's drawings come back from the browser (streamlit-folium's ``all_drawings``): a hostile page can send
a million vertices, NaN, text or nesting where Leaflet.draw sends a few dozen positions. Every position is
counted and checked first (``app_support.inputs.drawing_intake.drawing_problem``), stopping at the first fault or the
parcel reader's vertex limit; the Parcel and Project pages then say one sentence and keep what they had.
"""

from __future__ import annotations

import functools
from pathlib import Path
from unittest import mock

import pytest
from streamlit.testing.v1 import AppTest

import app_fixtures as fx
from app_support.frame import state
from app_support.inputs import drawing_intake
from sloat_core.errors import SloatInputError
from sloat_core.gis.parcels.placement import MAX_VERTICES

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _polygon(ring: list) -> dict:
    return {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [ring]}}


@functools.cache
def _million() -> dict:
    """A polygon of a million vertices, built once (a second and a half each time; nothing here changes it)."""
    return _polygon([[-74.19 + i * 1e-9, 41.16] for i in range(1_000_000)] + [[-74.19, 41.16]])


SQUARE = [[-74.19, 41.16], [-74.18, 41.16], [-74.18, 41.17], [-74.19, 41.17], [-74.19, 41.16]]
HOSTILE = {
    "a million vertices": lambda: [_million()],
    "NaN": lambda: [_polygon([[float("nan"), 41.16], *SQUARE[1:]])],
    "infinity": lambda: [_polygon([[-74.19, float("inf")], *SQUARE[1:]])],
    "text for a number": lambda: [_polygon([["-74.19", 41.16], *SQUARE[1:]])],
    "a boolean for a number": lambda: [_polygon([[True, 41.16], *SQUARE[1:]])],
    "not degrees": lambda: [_polygon([[650_000.0, 790_000.0], *SQUARE[1:]])],
    "nested without end": lambda: [{"geometry": {"type": "Polygon", "coordinates": [[[[[[[[SQUARE]]]]]]]]}}],
    "a geometry that is text": lambda: [{"geometry": "POLYGON ((0 0, 1 0, 1 1, 0 0))"}],
    "a feature that is a number": lambda: [7],
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_each_hostile_drawing_is_refused_in_one_sentence(name):
    drawings = HOSTILE[name]()
    problem = drawing_intake.drawing_problem(drawings)
    assert problem and problem.endswith(".") and problem.count(". ") == 0 and "Traceback" not in problem
    with pytest.raises(SloatInputError) as refused:
        drawing_intake.last_polygon(drawings)
    assert str(refused.value) == problem
    assert drawing_intake.drawings_signature(drawings).startswith("refused ")  # not written out as text


class _CountedPosition(list):
    """A position that notes when the check reads it (its length is the first thing read)."""

    read: set = set()

    def __len__(self):
        type(self).read.add(id(self))
        return super().__len__()


def test_a_million_vertices_are_refused_after_reading_no_more_than_the_limit():
    """The walk stops at the limit: of a million positions it reads the limit's worth and one more, not all."""
    _CountedPosition.read = set()
    ring = [_CountedPosition([-74.19 + i * 1e-9, 41.16]) for i in range(1_000_000)]
    problem = drawing_intake.drawing_problem([_polygon([*ring, _CountedPosition([-74.19, 41.16])])])
    assert f"more than {MAX_VERTICES:,} vertices" in problem
    assert 0 < len(_CountedPosition.read) <= MAX_VERTICES + 1


def test_a_drawn_square_and_a_rectangle_pass():
    rect = _polygon(SQUARE)
    assert drawing_intake.drawing_problem([rect, _polygon(SQUARE)]) is None
    assert drawing_intake.last_polygon([rect]) is rect
    assert drawing_intake.drawing_problem(None) is None and drawing_intake.last_polygon([]) is None


@pytest.mark.parametrize("name", ["a million vertices", "NaN"])
def test_the_parcel_page_says_one_sentence_and_keeps_its_parcel(manifest, data_dir, name):
    good = fx.wgs84_feature(fx.P1)
    with fx.map_answers(mock.MagicMock(return_value={"all_drawings": [good]})):
        at = AppTest.from_file(APP, default_timeout=60)
        at.run()
    assert not at.exception
    kept = at.session_state[state.PARCEL]
    assert kept is not None
    with fx.map_answers(mock.MagicMock(return_value={"all_drawings": HOSTILE[name]()})):
        at.run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any(e == drawing_intake.drawing_problem(HOSTILE[name]()) for e in errors), errors
    assert at.session_state[state.PARCEL].geometry.equals(kept.geometry)
