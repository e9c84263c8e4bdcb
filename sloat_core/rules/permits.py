"""Permits and reviews a proposal needs under Article IX, each ``True`` / ``False`` / ``None`` (unknown).

Every permit is declared once, in the module of its section (`rules.sections`: ``s402_55_steep_slopes``
is § 402-55, ...), and listed in :data:`DECLARATIONS` (:class:`PermitDeclaration`): its id, title, §,
approval authority rule, submission list, clocks, timeline items, plain words, its answer from the land
alone, whether the Planning Board approves it, the permits it depends on, its general rule and its
exemptions as an ordered list of cited exception clauses (:class:`ExceptionClause`, after Catala's
``exception``). :func:`decide` applies one declaration:

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

import dataclasses
import datetime as _dt

from sloat_core.measure.parcel import Findings, findings_areas, findings_uncovered
from sloat_core.measure.record import Measures
from sloat_core.rules.project import Project
from sloat_core.rules.sections import PERMITS
from sloat_core.rules.sections.permit import (PLANNING_BOARD_PERMITS, ExceptionClause, Facts, Permit,
                                              PermitDeclaration, Ruling, cited_item, decide)
from sloat_core.rules.sections.s402_53_trees import can_be_subdivided

__all__ = ["Permit", "PermitDeclaration", "ExceptionClause", "Ruling", "Facts", "DECLARATIONS", "PERMIT_IDS",
           "PROHIBITED_IDS", "permits_for", "decide", "can_be_subdivided", "declaration", "cited_item",
           "LAND_PERMITS", "land_permits"]

#: Every permit and review, in the order the results list them (declared in `rules.sections`).
DECLARATIONS: tuple[PermitDeclaration, ...] = PERMITS
PERMIT_IDS = tuple(d.id for d in DECLARATIONS)
#: The declarations that forbid the work (``prohibited``, § 402-52): rules, never permits or approvals to obtain.
PROHIBITED_IDS = frozenset(d.id for d in DECLARATIONS if d.prohibited)
_BY_ID = {d.id: d for d in DECLARATIONS}


def _dependencies(d: PermitDeclaration) -> tuple[str, ...]:
    """The ids ``d.depends_on`` names, `PLANNING_BOARD_PERMITS` spelled out, in the results' order."""
    named = set(d.depends_on)
    if PLANNING_BOARD_PERMITS in named:
        named |= {e.id for e in DECLARATIONS if e.planning_board_permit and e is not d}
    unknown = named - set(PERMIT_IDS) - {PLANNING_BOARD_PERMITS}
    if unknown:
        raise ValueError(f"The {d.id} depends on permits not declared: {', '.join(sorted(unknown))}.")
    return tuple(pid for pid in PERMIT_IDS if pid in named)


_DEPENDS_ON = {d.id: _dependencies(d) for d in DECLARATIONS}


def _decision_order() -> tuple[str, ...]:
    """Every permit after the permits it depends on (otherwise in the results' order); a cycle is refused."""
    done: list[str] = []

    def visit(pid: str, path: tuple[str, ...]) -> None:
        if pid in done:
            return
        if pid in path:
            raise ValueError(f"Permits depend on each other in a circle: {' -> '.join(path + (pid,))}.")
        for dep in _DEPENDS_ON[pid]:
            visit(dep, path + (pid,))
        done.append(pid)

    for pid in PERMIT_IDS:
        visit(pid, ())
    return tuple(done)


_DECISION_ORDER = _decision_order()
#: The permits and reviews the land alone answers (the village screen's columns): the declarations with a
#: ``land`` answer, by its group (where the work happens, the map's reviews, the others), then results' order.
_LAND = tuple(sorted((d for d in DECLARATIONS if d.land is not None), key=lambda d: d.land.group))
LAND_PERMITS: tuple[str, ...] = tuple(d.id for d in _LAND)


def declaration(permit_id: str) -> PermitDeclaration:
    """The declaration of one permit by its id."""
    return _BY_ID[permit_id]


def land_permits(m: Measures) -> dict[str, object]:
    """Answers of the `LAND_PERMITS` from the land alone (no project), one parcel or arrays of parcels:
    the same decisions `permits_for` makes with no project described (each declaration's ``land``)."""
    return {d.id: d.land.answer(m) for d in _LAND}


def permits_for(f: Findings, project: Project, *, settings, subdividable: bool | None,
                cluster_applies: bool | None, any_trigger: bool | None, work: Findings | None = None,
                measures: Measures | None = None, seqr=None, as_of: _dt.date) -> list[Permit]:
    """Every permit and review of `PERMIT_IDS`, in that order.

    Each is decided after the permits it depends on (its ``depends_on``), whose answers it reads in
    ``Facts.decided`` (the steep slope authority, § 402-55D(1)).

    ``work`` is the measure of the parcel plus the disturbance footprint when the footprint leaves the
    parcel (default: ``f``). ``measures`` is the parcel's measures record (`deductions.LotArea.measures`;
    measured on ``f`` when not given): the land-only answers read it, as `land_permits` does for the
    village screen. ``seqr`` is the project's SEQR class as the analysis worked it out
    (`approvals.seqr.SeqrResult`): § 402-46C reads it (``Facts.seqr``). ``as_of`` is the date the rules are
    applied at (``Facts.as_of``).
    """
    m = measures if measures is not None else Measures(
        f.gross_area_sqft, {}, findings_areas(f), f.slope_area_sqft_in("unknown"), 0.0, {}, findings_uncovered(f),
        as_of=f.as_of)
    x = Facts(f=f, project=project, settings=settings, work=work or f, subdividable=subdividable,
              cluster_applies=cluster_applies, any_trigger=any_trigger, measures=m, seqr=seqr, as_of=as_of)
    decided: dict[str, Permit] = {}
    for pid in _DECISION_ORDER:
        deps = _DEPENDS_ON[pid]
        facts = dataclasses.replace(x, decided={d: decided[d] for d in deps}) if deps else x
        decided[pid] = decide(_BY_ID[pid], facts)
    return [decided[pid] for pid in PERMIT_IDS]
