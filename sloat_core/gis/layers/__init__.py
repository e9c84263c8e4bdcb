"""Map layers (moved to :mod:`sloat_core.gis.layers.model`; re-exported here for every importer)."""

from sloat_core.gis.layers.model import *  # noqa: F403
from sloat_core.gis.layers.model import __all__  # noqa: F401
