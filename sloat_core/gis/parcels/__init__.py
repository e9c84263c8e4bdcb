"""Parcels: one parcel outline, from an uploaded file, a drawing on the map or the tax-parcel layer."""

from sloat_core.gis.parcels.formats import *  # noqa: F403
from sloat_core.gis.parcels.formats import NEAR_MISS_SCORE, __all__  # noqa: F401
