"""§ 402-53 Tree preservation: the tree removal permit (B, D) and its four exemptions (C(1)-(4)).
"""

from __future__ import annotations

from sloat_core.law.params import value
from sloat_core.rules.sections.permit import (
    Ruling, Facts, ExceptionClause, PermitDeclaration, fixed,
)


def can_be_subdivided(net_lot_area_sqft: float, net_lot_area_min_sqft: float,
                      min_lot_area_sqft: float | None) -> bool | None:
    """§ 402-53C(2): can the lot "be further subdivided into two or more conforming lots"?

    Reading (README "Readings"): yes when even the least net lot area (§ 402-45, unknowns counted
    against it) holds two district minimums; no when the net lot area does not; otherwise unknown.
    Road, frontage and shape are not looked at: the Planning Board decides.

    >>> can_be_subdivided(90_000, 85_000, 40_000), can_be_subdivided(70_000, 70_000, 40_000)
    (True, False)
    >>> can_be_subdivided(90_000, 70_000, 40_000) is None, can_be_subdivided(90_000, 90_000, None) is None
    (True, True)
    """
    if not min_lot_area_sqft:
        return None
    if net_lot_area_min_sqft >= 2 * min_lot_area_sqft:
        return True
    if net_lot_area_sqft < 2 * min_lot_area_sqft:
        return False
    return None


def _tree_clocks(x: Facts) -> tuple[str, ...]:
    return (f"Granted for at most {value('tree_permit_max_term_years')} year; may be extended "
            f"{value('tree_permit_extension_years')} more years on a written request received before "
            "expiry (§ 402-53D).",)


def _tree_rule(x: Facts) -> Ruling:
    trees = x.project.trees_removed
    if trees is None:
        return Ruling(required=None, reason="Unknown: say how many trees will be removed.", final=True)
    if trees == 0:
        return Ruling(required=False, reason="No trees are to be removed.", details=False, final=True)
    return Ruling(required=True, reason=f"{trees} tree{'' if trees == 1 else 's'} to be removed (§ 402-53B).")


def _public_agency(x: Facts) -> Ruling | None:
    if x.project.public_agency_work:
        return Ruling(required=False, citation="§ 402-53C(1)", details=False,
                      reason="Removal of trees for highway or public utility construction or maintenance by a "
                             "public agency is exempt (§ 402-53C(1)).")
    return None


def _one_two_family(x: Facts) -> Ruling | None:
    p, trees = x.project, x.project.trees_removed
    limit = int(value("tree_exempt_max_per_year"))
    use = p.existing_use
    if use in ("vacant", "other") or trees is None:
        return None
    if use is None:
        if trees > limit or x.subdividable is True:
            return None
        # § 402-53C(2) exempts a lot "in existing one-family or two-family dwelling use": with the use not
        # given, the exemption may apply, so the answer is unknown, never "required".
        return Ruling(required=None, citation="§ 402-53C(2)",
                      reason=(f"Up to {limit} trees a year are exempt on a lot in existing one- or two-family "
                              "dwelling use that cannot be subdivided into two or more conforming lots "
                              "(§ 402-53C(2)); the existing use is not given."))
    if trees > limit:
        return Ruling(required=True, citation="§ 402-53B", citations=("§ 402-53C(2)",),
                      reason=f"{trees} trees exceed the {limit} a year exempt on one- or two-family lots "
                             "(§ 402-53C(2)).")
    if x.subdividable is None:
        return Ruling(required=None, citation="§ 402-53C(2)",
                      reason=f"Up to {limit} trees a year are exempt on a one- or two-family lot that cannot be "
                             "subdivided into two or more conforming lots; whether this lot can is unknown.")
    if x.subdividable:
        return Ruling(required=True, citation="§ 402-53B", citations=("§ 402-53C(2)",),
                      reason="The lot looks large enough for two or more conforming lots, so the two-tree "
                             "exemption does not apply (§ 402-53C(2)).")
    return Ruling(required=False, citation="§ 402-53C(2)", details=False,
                  reason=f"{trees} tree{'' if trees == 1 else 's'} on a one- or two-family lot that cannot be subdivided: exempt, at most "
                         f"{limit} a year (§ 402-53C(2)).")


def _site_plan_developer(x: Facts) -> Ruling | None:
    if x.project.application_type in ("site_plan", "subdivision"):
        return Ruling(required=False, citation="§ 402-53C(3)", details=False,
                      reason="Removal by a developer under the Planning Board's site plan or subdivision approval "
                             "is exempt (§ 402-53C(3)); the trees are reviewed in that approval.")
    return None


def _hazard_trees(x: Facts) -> Ruling | None:
    if x.project.hazard_trees_only:
        return Ruling(required=False, citation="§ 402-53C(4)", details=False,
                      reason="Dead or dying trees that pose an imminent hazard to public safety are exempt "
                             "(§ 402-53C(4)).")
    return None


DECLARATION = PermitDeclaration(
    id="tree_removal_permit", title="Tree removal permit", section="§ 402-53B",
    authority=fixed("Planning Board (§ 402-53B)"), rule=_tree_rule, clocks=_tree_clocks,
    exceptions=(ExceptionClause("§ 402-53C(1)", "public agency highway or utility work", _public_agency),
                ExceptionClause("§ 402-53C(2)", "one- or two-family lot that cannot be subdivided",
                                _one_two_family),
                ExceptionClause("§ 402-53C(3)", "developer under site plan or subdivision approval",
                                _site_plan_developer),
                ExceptionClause("§ 402-53C(4)", "dead or dying trees posing an imminent hazard", _hazard_trees)),
    timeline=("tree_removal_permit",), plain=("a tree removal permit", "from the Planning Board"))
