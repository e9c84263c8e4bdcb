"""§ 402-57H and I: the activities the wetland permit turns on, numbered as the law numbers them.

* § 402-57I: "the following activities" are regulated in a wetland, watercourse or buffer, (1) to (13)
  (a project's ``activities``);
* § 402-57H: exempt activities, (1) to (4) (a project's ``wetland_exemptions``), each in a few words for the
  permit's reason;
* § 402-57I(3) "dumping, filling or depositing" and I(6) "altering ... contours": the grading or fill that
  customary landscaping "involving minor grading or filling" (§ 402-55C(1)) may be.

The project form shows each clause in the law's own words (`sloat_core.law.text.clause`).
"""

from __future__ import annotations

__all__ = ["REGULATED_ACTIVITIES", "WETLAND_EXEMPTIONS", "EXEMPT_WORDS", "GRADING_FILL"]

#: § 402-57I lists thirteen regulated activities, numbered (1) to (13).
REGULATED_ACTIVITIES = tuple(range(1, 14))
#: § 402-57H lists four exempt activities, (1) to (4).
WETLAND_EXEMPTIONS = tuple(range(1, 5))
#: § 402-57H(1)-(4) in a few words, as the permit's reason names them.
EXEMPT_WORDS = {1: "normal ground maintenance around a dwelling", 2: "selective tree cutting",
                3: "decorative landscaping and planting in wetland buffers",
                4: "public health activities of the County or State Department of Health for emergencies"}
#: Regulated activities that grading or fill brings back under the permit (§ 402-57I(3), (6)).
GRADING_FILL = (3, 6)
