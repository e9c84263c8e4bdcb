"""§ 402-57P Mitigation of wetland loss.

* P(1): a mitigation plan is required once the applicant has shown the impacts are necessary and
  unavoidable, which holds only if all of (a) compatible with public health and welfare, (b) no feasible
  on-site alternative, (c) no feasible alternative on another site that is not a wetland or buffer. If any
  answer is "no", the impact is not necessary and unavoidable: mitigation cannot justify it.
* P(2): replacement wetland larger "by a ratio of at least 1.5 to one" than the loss; on-site preferred,
  off-site only where on-site is not possible, preferably in the same watershed.
* P(3): forms (buffer: preventative practices, buffer restoration; wetland: restoration of degraded
  wetland or in-kind creation, each at least 1.5 : 1).
* P(4)(a)-(j): the plan's contents; P(5): monitoring, in general three to five years.

>>> import datetime
>>> m = mitigation(impacted_wetland_sqft=1000, proposed_mitigation_sqft=1200, on=datetime.date(2026, 12, 1))
>>> m["required_mitigation_sqft"], m["shortfall_sqft"]
(1500.0, 300.0)
"""

from __future__ import annotations

import datetime as _dt

from sloat_core.validate import number
from sloat_core.law.params import param, value
from sloat_core.rules.sections.permit import cited_item

__all__ = ["mitigation", "check_figures", "PLAN_CONTENTS", "GATE", "MAX_SQFT"]

PLAN_CONTENTS = tuple(f"§ 402-57P(4)({c})" for c in "abcdefghij")
GATE = {
    "compatible_with_public_welfare": "§ 402-57P(1)(a)",
    "no_onsite_alternative": "§ 402-57P(1)(b)",
    "no_offsite_alternative": "§ 402-57P(1)(c)",
}
#: The largest area (sq ft) the calculator accepts: 10 billion sq ft, far beyond any parcel in the Village.
MAX_SQFT = _MAX_SQFT = 1e10


def _area(name: str, x) -> float | None:
    return number(x, name.replace("_", " "), maximum=_MAX_SQFT, unit_hint=" of square feet")


def check_figures(*, impacted_wetland_sqft=None, impacted_buffer_sqft=None, proposed_mitigation_sqft=None,
                  onsite_possible: bool | None = None, gate: dict | None = None, impact_source: str = "typed",
                  impacted_water_body_sqft=None) -> None:
    """The figures of :func:`mitigation` checked as it checks them (each area a number of square feet in range,
    else :class:`sloat_core.errors.SloatInputError` in one sentence), without reading the law: what a saved case's
    figures must pass whatever the date."""
    _area("impacted wetland area", impacted_wetland_sqft)
    _area("impacted water body area", impacted_water_body_sqft)
    _area("impacted buffer area", impacted_buffer_sqft)
    _area("proposed mitigation area", proposed_mitigation_sqft)


def mitigation(
    *,
    impacted_wetland_sqft=None,
    impacted_buffer_sqft=None,
    proposed_mitigation_sqft=None,
    onsite_possible: bool | None = None,
    gate: dict | None = None,
    impact_source: str = "typed",
    impacted_water_body_sqft=None,
    on: _dt.date,
) -> dict:
    """Required replacement, shortfall and the plan checklist for a wetland impact.

    ``impacted_water_body_sqft``: open water (a pond) the work fills. Whether § 402-57P counts it as
    wetland loss is for the Village: with any such impact the required area is unknown (None) and
    ``water_body_note`` says what it would be either way (reading, README "Readings").

    ``on`` is the date the law is applied at (the analysis's ``as_of``, or the app's day): the ratio and the
    monitoring years in effect then.
    """
    impact = _area("impacted wetland area", impacted_wetland_sqft)
    pond = _area("impacted water body area", impacted_water_body_sqft)
    buffer_impact = _area("impacted buffer area", impacted_buffer_sqft)
    proposed = _area("proposed mitigation area", proposed_mitigation_sqft)
    ratio_p = param("wetland_mitigation_ratio", on)
    ratio = float(ratio_p.value)
    required = None if impact is None else impact * ratio
    water_body_note = None
    if pond is not None and pond >= 1.0 and impact is not None:
        both = (impact + pond) * ratio
        water_body_note = (f"The work touches {pond:,.0f} sq ft of open water (a pond or water body). The required "
                           "mitigation depends on whether the Village treats this water body as a wetland: "
                           f"{required:,.0f} sq ft if not, {both:,.0f} sq ft if it does (§ 402-57P(2)).")
        required = None
    shortfall = None if required is None or proposed is None else max(required - proposed, 0.0)

    answers = {k: (gate or {}).get(k) for k in GATE}
    if any(v is False for v in answers.values()):
        failed = [GATE[k] for k, v in answers.items() if v is False]
        gate_text = ("The impact is not 'necessary and unavoidable' (" + ", ".join(failed) + " not met): "
                     "mitigation may not be used to justify it; the permit would normally be denied or the "
                     "project redesigned.")
        gate_ok = False
    elif all(v is True for v in answers.values()):
        gate_text = "All three criteria of § 402-57P(1) are met: the Board requires a mitigation plan."
        gate_ok = True
    else:
        gate_text = ("The Planning Board decides whether the three criteria of § 402-57P(1)(a)-(c) are met; "
                     "a mitigation plan is required only when all are.")
        gate_ok = None

    if onsite_possible is False:
        siting = ("Off-site mitigation, permitted only because on-site is not possible; aim for the same "
                  "general watershed (§ 402-57P(2)).")
    else:
        siting = "On-site mitigation is the preferred approach (§ 402-57P(2))."

    return {
        "impacted_wetland_sqft": impact,
        "impact_source": impact_source,
        "impacted_buffer_sqft": buffer_impact,
        "impacted_water_body_sqft": pond,
        "water_body_note": water_body_note,
        "ratio": ratio,
        "required_mitigation_sqft": required,
        "proposed_mitigation_sqft": proposed,
        "shortfall_sqft": shortfall,
        "meets_ratio": None if shortfall is None else shortfall == 0.0,
        "citation": ratio_p.citation,
        "gate": {"answers": answers, "met": gate_ok, "text": gate_text, "citation": "§ 402-57P(1)"},
        "siting": siting,
        "forms": {
            "wetland": [
                {"citation": "§ 402-57P(3)(b)[1]",
                 "text": f"Restoration of a confirmed disturbed or degraded wetland, at least {ratio:g} : 1."},
                {"citation": "§ 402-57P(3)(b)[2]",
                 "text": f"In-kind creation of new wetland of the same type and setting, at least {ratio:g} : 1."},
            ],
            "buffer": [
                {"citation": "§ 402-57P(3)(a)[1]", "text": "Preventative practices protecting the wetland."},
                {"citation": "§ 402-57P(3)(a)[2]", "text": "Restoration or enhancement of remaining or other "
                                                            "upland buffer."},
            ],
        },
        "plan_contents": [cited_item(c) for c in PLAN_CONTENTS],
        "monitoring_years": {
            "min": int(value("mitigation_monitoring_min_years", on)),
            "max": int(value("mitigation_monitoring_max_years", on)),
            "citation": param("mitigation_monitoring_min_years", on).citation,
        },
    }
