"""Who decides: the boards, officials and agencies the one list of approvals is grouped by, in its order.

Each Article IX permit declares its own (`sloat_core.rules.sections.permit.PermitDeclaration.decider`, checked
against this list when it is declared); the approvals around Article IX name theirs in
:mod:`sloat_core.engine.approval_list`. "Village (other)" is a Village office Article IX does not name (the
floodplain administrator of the separately adopted Flood Hazard Regulations).
"""

from __future__ import annotations

__all__ = ["DECIDERS"]

DECIDERS = ("Planning Board", "Village Engineer", "Building Inspector", "County", "State", "Federal",
            "Village (other)")
