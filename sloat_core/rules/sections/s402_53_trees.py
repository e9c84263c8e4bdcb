"""§ 402-53 Tree preservation: the tree removal permit (B), its four exemptions (C(1)-(4)) and its clock: its
term and extension (D).
"""

from __future__ import annotations

import datetime as _dt

from dateutil.relativedelta import relativedelta

from sloat_core.errors import SloatInputError
from sloat_core.law.params import value
from sloat_core.law import calendar as cal
from sloat_core.law.calendar import count
from sloat_core.rules.sections.clock import ClockDeclaration, Field, Reader, Row, cite
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


def _tree_rule(x: Facts) -> Ruling:
    trees = x.project.trees_removed
    if trees is None:
        return Ruling(required=None, reason="Unknown: say how many trees will be removed.", final=True)
    if trees == 0:
        return Ruling(required=False, reason="No trees are to be removed.", details=False, final=True)
    n = x.project.substantial_specimens_removed
    of = (f" {n} of them {'is a substantial tree specimen' if n == 1 else 'are substantial tree specimens'} "
          "(§ 402-53A); the permit is needed for any tree all the same." if n is not None else "")
    return Ruling(required=True, citations=("§ 402-53A", "§ 402-53F"),
                  reason=f"{trees} tree{'' if trees == 1 else 's'} to be removed (§ 402-53B).{of} {_checklist(x.as_of)}")


def _checklist(on: _dt.date) -> str:
    """What the survey locates and what is planted, with the law's numbers as in effect on ``on`` (§ 402-53A,
    B, F)."""
    dbh, at = value("substantial_tree_dbh_in", on), value("substantial_tree_measure_height_ft", on)
    low, high = value("tree_planting_min_caliper_low_in", on), value("tree_planting_min_caliper_high_in", on)
    return (f"A tree survey the Planning Board may require (§ 402-53B) locates the substantial tree specimens: "
            f"trees {dbh:g} inches or more in diameter measured at least {at:g} feet above ground (§ 402-53A); "
            f"new trees are planted at a minimum {low:g}-{high:g} inch caliper (§ 402-53F).")


def _public_agency(x: Facts) -> Ruling | None:
    if x.project.public_agency_work:
        return Ruling(required=False, citation="§ 402-53C(1)", details=False,
                      reason="Removal of trees for highway or public utility construction or maintenance by a "
                             "public agency is exempt (§ 402-53C(1)).")
    return None


def _one_two_family(x: Facts) -> Ruling | None:
    p, trees = x.project, x.project.trees_removed
    limit = int(value("tree_exempt_max_per_year", x.as_of))
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


# ------------------------------------------------------------------------------------------ clocks

def _tree_removal_permit(item: Reader) -> list[Row]:
    issued = item.date("issued")
    max_months = 12 * value("tree_permit_max_term_years", item.on)
    term = item.number("term_months")
    if term is None:
        term = max_months
    if term < 1:
        raise SloatInputError(f"The {item.name}'s term must be at least one month.")
    if term > max_months:
        raise SloatInputError(
            f"A tree removal permit cannot be granted for more than {cal.months(max_months)}, "
            f"but the {item.name} says {term}."
        )
    expires = issued + relativedelta(months=term)
    ext = value("tree_permit_extension_years", item.on)
    citation = cite("tree_permit_max_term_years", item.on)
    return [
        ("expires", expires, citation, f"The {item.name} expires",
         f"Granted for {cal.months(term)} from {cal.nice(issued)} (the law allows at most {cal.months(max_months)})."),
        ("extension_request_deadline", expires - relativedelta(days=1), cite("tree_permit_extension_years", item.on),
         f"Last safe day for the Village to receive a written extension request for the {item.name}",
         f"The request must be received before the permit expires on {cal.nice(expires)}; this is the "
         "day before, to be safe."),
        ("latest_extended_expiry", expires + relativedelta(years=ext), cite("tree_permit_extension_years", item.on),
         f"Latest possible expiry of the {item.name} if the Planning Board extends it",
         f"An extension may add {cal.years(ext)} to the expiry on {cal.nice(expires)}."),
    ]


PERMIT_CLOCK = ClockDeclaration(
    id="tree_removal_permit", name="tree removal permit", order=80, starts="the day it was issued",
    rule=_tree_removal_permit,
    fields=(Field("issued", "Issued on", "issue date"),
            Field("term_months", "Term (months)", "term in months", kind="int", required=False)),
    words=lambda x: (f"Granted for at most {count(value('tree_permit_max_term_years', x.as_of), 'year')}; may be extended "
                     f"{count(value('tree_permit_extension_years', x.as_of), 'more year')} on a written request received "
                     "before expiry (§ 402-53D).",))

DECLARATION = PermitDeclaration(
    id="tree_removal_permit", order=30, title="Tree removal permit", section="§ 402-53B",
    authority=fixed("Planning Board (§ 402-53B)"), decider="Planning Board", rule=_tree_rule,
    exceptions=(ExceptionClause("§ 402-53C(1)", "public agency highway or utility work", _public_agency),
                ExceptionClause("§ 402-53C(2)", "one- or two-family lot that cannot be subdivided",
                                _one_two_family),
                ExceptionClause("§ 402-53C(3)", "developer under site plan or subdivision approval",
                                _site_plan_developer),
                ExceptionClause("§ 402-53C(4)", "dead or dying trees posing an imminent hazard", _hazard_trees)),
    clocks=(PERMIT_CLOCK,), timeline=(PERMIT_CLOCK,), plain=("a tree removal permit", "from the Planning Board"),
    planning_board_permit=True)


PERMITS = (DECLARATION,)
