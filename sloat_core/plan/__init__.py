"""Plans: a proposed plat or site plan checked against Article IX lot by lot (:mod:`.check`), read from the
files engineers make (:mod:`.reading`), as features in roles (:mod:`.drawing`), the layer names recognised for each role in one
table (:mod:`.layer_roles`), DXF drawings read with ezdxf (:mod:`.dxf`) and GIS files (:mod:`.gis_files`)."""

from sloat_core.plan.drawing import ROLES, PlanDrawing, PlanFeature
from sloat_core.plan.layer_roles import LAYER_NAMES
from sloat_core.plan.reading import VILLAGE_PLAUSIBLE_BOUNDS_2260, read_plan

__all__ = ["ROLES", "PlanFeature", "PlanDrawing", "LAYER_NAMES", "read_plan", "VILLAGE_PLAUSIBLE_BOUNDS_2260"]
