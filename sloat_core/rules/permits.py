"""Permits and reviews a proposal needs under Article IX, each ``True`` / ``False`` / ``None`` (unknown).

Every permit is declared once, in the module of its section (``steep_slopes`` § 402-55,
``wetlands`` § 402-57, ``trees`` § 402-53, ``stormwater`` § 402-58, ``biodiversity`` § 402-54,
``overlays`` §§ 402-46, 49-51, ``cluster`` § 402-48, ``dry_sewers`` § 402-56, ``excavation``
§ 402-52), and listed in :data:`DECLARATIONS` (:class:`PermitDeclaration`): its id, title, §,
approval authority rule, submission list, clocks, timeline items, plain words, whether the land alone
decides it, its general rule and its exemptions as an ordered list of cited exception clauses
(:class:`ExceptionClause`, after Catala's ``exception``). :func:`decide` applies one declaration:

1. the general rule answers (it may settle the question first, e.g. "no trees are to be removed");
2. an exception clause that certainly applies makes the permit not required, citing its clause;
3. where the rule says "required", the first clause whose application is unknown makes the answer
   unknown ("required unless ..."), or a clause that does not apply explains why, with its citation.

Every answer carries its reason, its § citation, the approval authority, what must be submitted (the
law's own lists, quoted from the shipped text) and the clocks that apply. Unknown means the answer
depends on a fact not given (where the work happens, how many trees, the application type) or on a
missing layer; it is never shown as "no".

Readings encoded here (see each clause's comment; all are in README's "Readings"):

* steep slope permit: disturbance of slopes of 25 % *or greater* (§ 402-55A, C(2)), not "in excess of";
  customary landscaping is exempt (§ 402-55C(1)).
* steep slope authority: the Planning Board whenever the proposal needs any permit or approval *by it*
  (§ 402-55D(1)), including a wetland or tree removal permit; the stand-alone decision clock (§ 402-55F)
  only where no other permit or approval is needed.
* SWPPP Condition B is "five or more acres"; Condition C is "between one and five acres": read as
  1 acre inclusive up to 5 acres exclusive, one-family dwellings excluded (§ 402-58E(2)(b), (c)).
* biodiversity study: applications "involving 10 acres or more" (10.0 included), except "the development
  of a one-family dwelling" (§ 402-54B): a subdivision, site plan or special permit is not that.
* tree removal exemption § 402-53C(2): "cannot be further subdivided into two or more conforming lots" is
  read on net lot area (§ 402-45) against twice the district minimum (:func:`can_be_subdivided`).
* the wetland permit measures the disturbance footprint where it lies, on or off the parcel (§ 402-57G
  "No activity shall be conducted in a wetland ... without approval").
"""

from __future__ import annotations

from sloat_core.rules.measures import Findings, Measures, findings_areas, findings_uncovered
from sloat_core.rules.project import Project
from sloat_core.rules.sections import PERMITS
from sloat_core.rules.sections.permit import (ExceptionClause, Facts, Permit, PermitDeclaration, Ruling, cited_item,
                                              decide)
from sloat_core.rules.sections.s402_55_steep_slopes import design_checklist
from sloat_core.rules.sections.land import LAND_PERMITS, land_permits
from sloat_core.rules.sections.s402_53_trees import can_be_subdivided

__all__ = ["Permit", "PermitDeclaration", "ExceptionClause", "Ruling", "Facts", "DECLARATIONS", "PERMIT_IDS",
           "permits_for", "decide", "can_be_subdivided", "design_checklist", "declaration", "cited_item",
           "LAND_PERMITS", "land_permits"]

#: Every permit and review, in the order the results list them (declared in `rules.sections`).
DECLARATIONS: tuple[PermitDeclaration, ...] = PERMITS
PERMIT_IDS = tuple(d.id for d in DECLARATIONS)
_BY_ID = {d.id: d for d in DECLARATIONS}
#: Permits decided before the others because others read them (the steep slope authority, § 402-55D(1)).
_FIRST = ("wetland_permit", "tree_removal_permit")


def declaration(permit_id: str) -> PermitDeclaration:
    """The declaration of one permit by its id."""
    return _BY_ID[permit_id]


def permits_for(f: Findings, project: Project, *, settings, subdividable: bool | None,
                cluster_applies: bool | None, any_trigger: bool | None, work: Findings | None = None,
                measures: Measures | None = None) -> list[Permit]:
    """Every permit and review of `PERMIT_IDS`, in that order.

    ``work`` is the measure of the parcel plus the disturbance footprint when the footprint leaves the
    parcel (default: ``f``). ``measures`` is the parcel's measures record (`deductions.LotArea.measures`;
    measured on ``f`` when not given): the land-only answers read it, as `land_permits` does for the
    village screen.
    """
    decided: dict[str, Permit] = {}
    m = measures if measures is not None else Measures(
        f.gross_area_sqft, {}, findings_areas(f), f.slope_area_sqft_in("unknown"), 0.0, {}, findings_uncovered(f))
    x = Facts(f=f, project=project, settings=settings, work=work or f, subdividable=subdividable,
              cluster_applies=cluster_applies, any_trigger=any_trigger, decided=decided, measures=m)
    for pid in _FIRST + tuple(p for p in PERMIT_IDS if p not in _FIRST):
        decided[pid] = decide(_BY_ID[pid], x)
    return [decided[pid] for pid in PERMIT_IDS]
