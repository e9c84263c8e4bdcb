"""§ 402-46 Ramapo River Sole Source Aquifer Critical Environmental Area: the SEQRA evaluation of the CEA
(C), which the map and the project's SEQR class decide.

§ 402-46C concerns "any Type I or Unlisted Action": the parcel's land in the CEA is the first question
(the map); the project's SEQR class (`sloat_core.approvals.seqr.seqr_class`, from the project's facts) is
the second, read from the class the core gives the whole analysis (``Facts.seqr``, the approvals' own), not
decided again here. A Type II action (6 NYCRR 617.5(c): a garage, shed, deck or fence; a one- to three-family house
on an approved lot; maintenance or repair) has no SEQRA review, so no evaluation of the CEA; Type I and
Unlisted keep it; a class the facts do not settle leaves the answer unknown with the one question that
settles it (kept "required" when every class still possible is Type I or Unlisted).
"""

from __future__ import annotations

from sloat_core.approvals.seqr import seqr_class
from sloat_core.rules.project import Project
from sloat_core.rules.sections.permit import Facts, PermitDeclaration, Ruling, fixed, on_the_map, overlay_rule

#: Its land: the parcel's area of the aquifer cea layer.
_LAND = on_the_map("aquifer_cea")

_ON_THE_MAP = overlay_rule(_LAND.key, "Ramapo River Sole Source Aquifer CEA",
                           lambda on: "{area} sq ft of the lot is in the critical environmental area: the CEA must be "
                                   "evaluated in the determination of significance of any Type I or Unlisted "
                                   "action.")


def _rule(x: Facts) -> Ruling:
    """The map first (no CEA land: not required), then the SEQR class of the project."""
    ruling = _ON_THE_MAP(x)
    if ruling.required is False:
        return ruling
    if x.project == Project():  # no project described: the land's answer, as the village screen gives it
        if ruling.required:
            return Ruling(required=True, reason=f"{ruling.reason} (If the project turns out to be a Type II "
                          "action, such as a garage or a house on an approved lot, there is no SEQRA review.)")
        return ruling
    # The action's class, the core's own (the analysis's, with the map's parkland and its date: Facts.seqr);
    # worked out here only when no caller gave one.
    seqr = x.seqr if x.seqr is not None else seqr_class(x.project, x.project.approvals, on=x.as_of)
    cls = f"{seqr.seqr_class} ({seqr.clause})" if seqr.clause else seqr.seqr_class
    if seqr.seqr_class == "Type II":
        return Ruling(required=False, details=False, citations=(seqr.clause,) if seqr.clause else (),
                      reason=f"§ 402-46C concerns any Type I or Unlisted action; this project is {cls}: "
                             f"{seqr.reason} A Type II action has no SEQRA review, so no evaluation of the "
                             "CEA. It would apply if the work were not a Type II action (e.g. part of a "
                             "subdivision or site plan).")
    if seqr.seqr_class == "unknown" and "Type II" in seqr.possible:
        return Ruling(required=None, citations=(seqr.clause,) if seqr.clause else (),
                      reason=(f"Unknown: {ruling.reason} " if ruling.required else f"{ruling.reason} ")
                      + f"§ 402-46C concerns any Type I or Unlisted action, and the project's SEQR class is not "
                        f"settled ({seqr.reason.rstrip('.')}). The question that settles it: {seqr.question} "
                        "(a Type II action has no SEQRA review of the CEA).")
    if ruling.required is None:
        return ruling
    if seqr.seqr_class == "unknown":
        why = (f"The project is Type I or Unlisted ({seqr.reason}), never Type II, so § 402-46C applies to it. "
               f"{seqr.question or ''}").strip()
    else:
        why = (f"The project is {cls} ({seqr.reason.rstrip('.')}), so § 402-46C applies to it; it would not if "
               "the work were a Type II action.")
    return Ruling(required=True, citations=(seqr.clause,) if seqr.clause else (), reason=f"{ruling.reason} {why}")


SEQRA_CEA = PermitDeclaration(
    id="seqra_cea", order=100, title="SEQRA: impact on the Ramapo aquifer CEA", section="§ 402-46C",
    authority=fixed("The SEQRA lead agency (usually the Planning Board)"), decider="Planning Board",
    rule=_rule, turns_on_the_action=True,
    plain=("an environmental review (SEQRA) of the Ramapo aquifer area",
           "by the Planning Board or another lead agency"), land=_LAND)


PERMITS = (SEQRA_CEA,)
