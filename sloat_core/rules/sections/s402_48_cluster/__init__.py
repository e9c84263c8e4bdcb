"""§ 402-48 Cluster development, whole: the ten sensitive features of § 402-48C, whether the section applies
(B), the cluster lot rules (F), the yield (E, I) and the open space (G), and the cluster review with its clock.

* :mod:`.cluster`: the triggers (their titles and evidence), applicability, lot rules, yield and open space;
* :mod:`.permit`: the cluster review's declaration (``DECLARATION``) and the open space charge's clock.
"""

from sloat_core.rules.sections.s402_48_cluster.permit import DECLARATION, PERMITS

__all__ = ["DECLARATION", "PERMITS"]
