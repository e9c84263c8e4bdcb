"""§ 402-55 Steep slope protection, whole: the steep slope permit with its authority, exemption and clocks,
and the § 402-55J design limits (the engineer's checklist and figures compared with the law's numbers).

* :mod:`.permit`: the permit's declaration (``DECLARATION``), its rule, authority and clocks;
* :mod:`.design`: the § 402-55J design limits, the checklist and the comparison of the engineer's figures.
"""

from sloat_core.rules.sections.s402_55_steep_slopes.permit import DECLARATION, PERMITS

__all__ = ["DECLARATION", "PERMITS"]
