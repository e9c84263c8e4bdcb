"""§ 402-57 Wetlands and watercourses, whole: the wetland permit with its exemptions and clocks, the adjacent
owners of an application (K(4)), the activities it turns on (H, I) and the mitigation of wetland loss (P).

* :mod:`.permit`: the wetland permit's declaration (``DECLARATION``), its rule, exemptions and clocks;
* :mod:`.activities`: the regulated activities (I), the exempt ones (H) and the grading or fill among them;
* :mod:`.adjacent_owners`: the owners of record of the lands adjacent to the work's wetland (§ 402-57K(4));
* :mod:`.mitigation`: the replacement wetland and the mitigation plan (§ 402-57P).
"""

from sloat_core.rules.sections.s402_57_wetlands.permit import DECLARATION, PERMITS

__all__ = ["DECLARATION", "PERMITS"]
