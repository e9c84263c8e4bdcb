"""The measures record and its three-valued logic, for the rules (moved to :mod:`sloat_core.measure`).

Re-exports :mod:`sloat_core.measure.parcel`, so ``from sloat_core.rules.measures import Measures`` keeps working.
"""

from sloat_core.measure.parcel import (NAME_FIELDS, NAME_MAX_CHARS, NAN, OVERLAY_ROLES, RESOURCE_ROLES,  # noqa: F401
                                       Findings, Measures, SlopeRegions, __all__, answer, buffer_band,
                                       findings_areas, findings_uncovered, is_no, is_yes, measured_areas,
                                       parcel_findings, present, slope_set_cells, slope_sets, tri, tri_any)
