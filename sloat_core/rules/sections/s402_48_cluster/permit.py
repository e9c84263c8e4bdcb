"""§ 402-48 Cluster development: the cluster review (C), the written resolution (D) and the open space
requirements (G); its clock: an unpaid open space charge becomes a lien (G(3)(f)[2]).
"""

from __future__ import annotations

from dateutil.relativedelta import relativedelta

from sloat_core.law.params import value
from sloat_core.law import calendar as cal
from sloat_core.law.calendar import count
from sloat_core.rules.sections.clock import ClockDeclaration, Field, Reader, Row, cite
from sloat_core.rules.sections.permit import (
    Ruling, Facts, PermitDeclaration, fixed,
)


def _cluster_rule(x: Facts) -> Ruling:
    applies, any_trigger = x.cluster_applies, x.any_trigger
    if applies is False:
        return Ruling(required=False, reason="§ 402-48 does not apply to this application (§ 402-48B).",
                      citation="§ 402-48B", details=False)
    if any_trigger and applies:
        return Ruling(required=True, citations=("§ 402-48E", "§ 402-48F", "§ 402-48D", "§ 402-48G"),
                      reason="The property shows at least one sensitive feature of § 402-48C: the Planning Board may "
                             "require a cluster application. To require it, the Board must identify in writing, by "
                             "resolution, the elements of the site that might be adversely impacted without it "
                             "(§ 402-48D); open space it protects must meet § 402-48G.")
    if any_trigger is False and applies is not None:
        return Ruling(required=False, reason="None of the ten features of § 402-48C is present.", details=False)
    return Ruling(required=None, details=False,
                  reason="Unknown until the application type, the district and every trigger are known.")


def _cluster_submissions() -> tuple[str, ...]:
    # § 402-48G(3): what protected open space must show and carry (plat notation, easement, HOA papers).
    return ("§ 402-48G(3)(a)", "§ 402-48G(3)(b)", "§ 402-48G(3)(c)", "§ 402-48G(3)(e)", "§ 402-48G(3)(f)")


# ------------------------------------------------------------------------------------------ clocks

def _open_space_charge(item: Reader) -> list[Row]:
    billed = item.date("billed")
    days = value("open_space_lien_days", item.on)
    last = billed + relativedelta(days=days)
    return [
        ("payment_deadline", last, cite("open_space_lien_days", item.on),
         f"Last day to pay the Village's {item.name} before it can become a lien",
         f"A maintenance charge billed on {cal.nice(billed)} becomes a lien if unpaid for more than {days} days."),
        ("lien_possible", last + relativedelta(days=1), cite("open_space_lien_days", item.on),
         f"First day the unpaid {item.name} is a lien on the open space and the lots that share it",
         f"Unpaid for more than {days} days from {cal.nice(billed)}."),
    ]


OPEN_SPACE_CHARGE = ClockDeclaration(
    id="open_space_charge", name="open space maintenance charge", order=180, rule=_open_space_charge,
    fields=(Field("billed", "Charge billed on", "date the charge was billed"),),
    words=lambda x: (f"Open space maintenance charges by the Village unpaid for more than "
                     f"{count(value('open_space_lien_days', x.as_of), 'day')} become a lien on the property "
                     "(§ 402-48G(3)(f)[2]).",))


DECLARATION = PermitDeclaration(
    id="cluster_review", order=110, title="Cluster development review", section="§ 402-48C",
    authority=fixed("Planning Board (§ 402-48C, D)"), decider="Planning Board", rule=_cluster_rule,
    submissions=_cluster_submissions, clocks=(OPEN_SPACE_CHARGE,),
    plain=("a cluster layout review", "by the Planning Board"))


PERMITS = (DECLARATION,)
