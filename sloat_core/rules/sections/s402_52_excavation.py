"""§ 402-52 Excavations, soil mining, quarrying: commercial excavation is prohibited.
"""

from __future__ import annotations

from sloat_core.rules.sections.permit import (
    Ruling, Facts, PermitDeclaration, fixed, CONFIRM,
)


def _excavation_rule(x: Facts) -> Ruling:
    c = x.project.commercial_excavation
    if c:
        return Ruling(required=True, reason="Excavating soil, rock or aggregate for commercial sale is prohibited "
                                            "in the Village.")
    if c is None:
        return Ruling(required=None, reason="Unknown: say whether material is to be excavated for commercial sale.")
    return Ruling(required=False, reason="No excavation for commercial sale.")


DECLARATION = PermitDeclaration(
    id="commercial_excavation_prohibited", order=130, title="Commercial excavation (prohibited)", section="§ 402-52",
    # § 402-52 prohibits and names no one to enforce it.
    decider="Building Inspector",
    authority=fixed(f"Prohibited by § 402-52; Article IX names no enforcing official (local assumption: the "
                     f"Building Inspector, {CONFIRM})"),
    rule=_excavation_rule, prohibited=True,
    plain=("Digging out earth or rock to sell is not allowed here", ""))


PERMITS = (DECLARATION,)
