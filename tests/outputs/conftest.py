import pytest

from sample_lot import MOST_TO_EXPLAIN, SUBDIVISION, analysed_lot


@pytest.fixture(scope="module")
def subdivision_lot():
    """(the sample's layers, the analysis of its lot with most to explain with a subdivision project on DAY), read
    once per module (tests/outputs/sample_lot.py)."""
    return analysed_lot(MOST_TO_EXPLAIN, project=SUBDIVISION)
