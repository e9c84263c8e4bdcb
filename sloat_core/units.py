"""Units and the working coordinate system.

All areas are in US survey feet squared, in EPSG:2260 (NAD83 / New York East (ftUS)).
"""

__all__ = ["WORK_CRS", "WGS84", "SQFT_PER_ACRE", "sqft_to_acres", "acres_to_sqft"]

WORK_CRS = "EPSG:2260"
WGS84 = "EPSG:4326"
SQFT_PER_ACRE = 43_560.0


def sqft_to_acres(area_sqft: float) -> float:
    """Square feet to acres (1 acre = 43,560 sq ft exactly).

    >>> sqft_to_acres(43_560)
    1.0
    """
    return area_sqft / SQFT_PER_ACRE


def acres_to_sqft(area_acres: float) -> float:
    """Acres to square feet.

    >>> acres_to_sqft(10)
    435600.0
    """
    return area_acres * SQFT_PER_ACRE
