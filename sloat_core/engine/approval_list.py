"""One list of answers: Article IX's permits and the approvals around it, grouped by who decides.

:func:`approvals_for` runs the four screens of this package for one parcel and project (county referral,
the Village Law clocks, the SEQR class, the state and federal wetland screens) and puts them with the
Article IX permits of the analysis into one list grouped by who decides (Planning Board, Village Engineer,
Building Inspector, county, state, federal), each with its clause, the clock it starts and the step at
which it usually comes. Nothing here changes an Article IX answer.
"""

from __future__ import annotations

import datetime as _dt

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from sloat_core.approvals.county_referral import ReferralResult, county_referral
from sloat_core.approvals.deciders import DECIDERS
from sloat_core.approvals.facts import ApprovalFacts
from sloat_core.approvals.seqr import SeqrResult, seqr_class
from sloat_core.approvals.state_law import all_state_facts, state_law_notice, state_law_version
from sloat_core.approvals.village_law import approval_events, clock_rules
from sloat_core.approvals.wetland_screens import wetland_screens
from sloat_core.rules.permits import PROHIBITED_IDS, Permit

__all__ = ["DECIDERS", "STEPS", "approvals_for", "action_class"]

#: The order in which approvals usually run (a reading of common practice, not law).
STEPS = {
    1: "Before applying: ask the State and the Corps about their jurisdiction",
    2: "Application complete: SEQR class and EAF; refer to the county",
    3: "Review and public hearing(s) before the Planning Board",
    4: "Decision (after the county's report or the end of its review period)",
    5: "After approval: file the plat; permits issued; work begins",
}


class _NoLayers:
    """Stands for a missing layer set: every layer unknown."""

    version = None
    village_boundary = None

    def get(self, role):
        return None

    def uncovered(self, role, geom):
        return Polygon()

    def coverage_gaps(self, geom, roles, *, min_sqft=1.0):
        return {}


_STEP_OF = {"Planning Board": 3, "Village Engineer": 3, "Building Inspector": 5, "County": 4, "State": 1,
            "Federal": 1, "Village (other)": 3}


def _permit_items(permits: list[Permit]) -> list[dict]:
    """Article IX's permits and reviews as approvals, each under the decider its declaration names
    (`PermitDeclaration.decider`). A prohibition (§ 402-52, its declaration's ``prohibited``) is not one: no board
    or official can grant it, so it is never listed as something to obtain; the answer's permits say "not allowed
    at all" where it applies.

    >>> def answer(pid, required, decider):
    ...     return Permit(id=pid, title=pid, required=required, reason="", citation="", authority="",
    ...                   decider=decider)
    >>> [(i["id"], i["decides"]) for i in _permit_items([
    ...     answer("commercial_excavation_prohibited", True, "Building Inspector"),
    ...     answer("wetland_permit", None, "Planning Board")])]
    [('wetland_permit', 'Planning Board')]
    """
    out = []
    for p in permits or []:
        if p.required is False or p.id in PROHIBITED_IDS:
            continue
        who = p.decider
        out.append({"id": p.id, "name": p.title or p.id, "law": "Article IX",
                    "decides": who, "authority": p.authority, "clause": p.citation,
                    "status": "required" if p.required else "unknown", "reason": p.reason,
                    "clock": "; ".join(p.clocks) or None, "step": _STEP_OF[who]})
    return out


def action_class(parcel: BaseGeometry, layerset, project, as_of: _dt.date, *,
                 in_cea: bool | None = None) -> tuple[ReferralResult, SeqrResult]:
    """The county referral and the project's SEQR class, worked out once for an analysis: the class reads the
    distance to public parkland that the referral measures. The analysis gives both to :func:`approvals_for`
    and the class to the Article IX reviews that turn on it (§ 402-46C), so every answer reads one class."""
    layerset = layerset if layerset is not None else _NoLayers()
    facts: ApprovalFacts = getattr(project, "approvals", None) or ApprovalFacts()
    app = getattr(project, "application_type", None)
    referral = county_referral(parcel, layerset, application_type=app, facts=facts, on=as_of)
    park = next((t.distance_ft for t in referral.triggers if t.trigger == "parkland"), None)
    return referral, seqr_class(project, facts, parkland_distance_ft=park, in_cea=in_cea, on=as_of)


def approvals_for(parcel: BaseGeometry, layerset, project, as_of: _dt.date, *, permits: list[Permit] | None = None,
                  in_cea: bool | None = None,
                  worked_out: tuple[ReferralResult, SeqrResult] | None = None) -> dict:
    """Every approval around Article IX for a parcel (EPSG:2260) and a parsed project, as JSON-ready values.

    ``permits``: the analysis's Article IX answers (`rules.sections.permit.Permit`), listed by their decider.
    ``worked_out``: the referral and the SEQR class :func:`action_class` gave the analysis (else worked out here).
    """
    layerset = layerset if layerset is not None else _NoLayers()
    facts: ApprovalFacts = getattr(project, "approvals", None) or ApprovalFacts()
    app = getattr(project, "application_type", None)
    footprint = getattr(project, "disturbance_footprint", None)

    referral, seqr = worked_out or action_class(parcel, layerset, project, as_of, in_cea=in_cea)
    rules = clock_rules(app if app in ("subdivision", "site_plan") else None, on=as_of) \
        if app in (None, "subdivision", "site_plan") else []
    events = approval_events(app, facts, as_of)
    wet = wetland_screens(parcel, footprint, layerset, as_of)

    items = _permit_items(permits or [])
    seqr_name = f"SEQR: {seqr.seqr_class}" + (f" ({' or '.join(seqr.possible)})" if len(seqr.possible) > 1 else "")
    items.append({"id": "seqr", "name": seqr_name, "law": "6 NYCRR Part 617",
                  "decides": "Planning Board", "authority": "The SEQR lead agency (usually the Planning Board)",
                  "clause": seqr.clause, "status": seqr.seqr_class, "reason": seqr.reason,
                  "question": seqr.question, "clock": "Starts with the EAF filed with a complete application",
                  "step": 2})
    if referral.required is not False:
        items.append({"id": "county_referral", "name": "County referral (Rockland County Department of Planning)",
                      "law": referral.statute or "GML § 239-m", "decides": "County",
                      "authority": "Rockland County Department of Planning", "clause": next(
                          (t.clause for t in referral.triggers if t.answer == "yes"), referral.statute),
                      "status": {True: "required", None: "unknown"}[referral.required], "reason": referral.headline,
                      "clock": referral.clock["rule"], "step": 2})
    for r in rules:
        items.append({"id": r.id, "name": f"{r.applies_to[0].upper()}{r.applies_to[1:]}: {r.ends}",
                      "law": r.citation.split("(")[0].strip(), "decides": "Planning Board" if r.id != "final_plat_filing"
                      else "County", "authority": "Planning Board" if r.id != "final_plat_filing"
                      else "Rockland County Clerk", "clause": r.citation, "status": "clock",
                      "reason": f"Within {r.days} days of {r.starts}.", "clock": f"{r.days} days from {r.starts}",
                      "step": 5 if r.id == "final_plat_filing" else (4 if "decision" in r.id else 3),
                      "verify": r.verify})
    for key, who in (("state", "State"), ("federal", "Federal")):
        s = wet[key]
        if s["answer"] in ("likely", "possible", "ask", "unknown"):
            items.append({"id": f"{key}_wetlands", "name": s["message"], "law": s["citation"], "decides": who,
                          "authority": s["agency"], "clause": s["citation"], "status": s["answer"],
                          "reason": s["reason"], "clock": None, "step": 1})
    groups = []
    for who in DECIDERS:
        mine = sorted((i for i in items if i["decides"] == who), key=lambda i: (i["step"], i["name"]))
        if mine:
            groups.append({"decides": who, "items": [dict(i, step_text=STEPS[i["step"]]) for i in mine]})
    verify = sorted({f.citation for f in all_state_facts(as_of).values() if f.verify})
    return {
        "groups": groups,
        "seqr": seqr.to_dict(),
        "county_referral": referral.to_dict(),
        "village_law": {"rules": [r.to_dict() for r in rules], "events": [e.to_dict() for e in events]},
        "wetland_screens": wet,
        "steps": {str(k): v for k, v in STEPS.items()},
        "to_confirm": verify,
        "notice": state_law_notice(),
        "state_law_version": state_law_version(),
        "estimate": "Screening estimates: the boards and agencies named decide. Nothing here changes an Article IX "
                    "answer.",
    }
