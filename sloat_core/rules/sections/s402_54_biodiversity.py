"""§ 402-54 Biodiversity: the Highlands biodiversity study (B), its one-family exception and its clock: how
long a study stays valid (B).
"""

from __future__ import annotations

import datetime as _dt

from dateutil.relativedelta import relativedelta

from sloat_core.law.params import param, value
from sloat_core.rules.measures import tri
from sloat_core.law import calendar as cal
from sloat_core.law.calendar import count
from sloat_core.rules.sections.clock import ClockDeclaration, Field, Reader, Row, cite
from sloat_core.units import SQFT_PER_ACRE
from sloat_core.rules.sections.permit import (
    from_the_land,
    Ruling, Facts, ExceptionClause, PermitDeclaration, fixed,
)


def biodiversity_required(acres, one_family_dwelling: bool | None, on: _dt.date):
    """§ 402-54B: "applications involving 10 acres or more" (inclusive), except "the development of a
    one-family dwelling" (unknown while the proposal is not described); one parcel or arrays of parcels; the
    threshold as in effect on ``on``."""
    if one_family_dwelling:
        return False
    big = acres >= float(value("biodiversity_threshold_acres", on))
    return tri(big & (one_family_dwelling is False), ~big if hasattr(big, "shape") else not big)


def _biodiversity_rule(x: Facts) -> Ruling:
    p = param("biodiversity_threshold_acres", x.as_of)
    project = x.project
    acres = (project.application_area_acres if project.application_area_acres is not None
             else x.f.gross_area_sqft / SQFT_PER_ACRE)
    if acres >= float(p.value):
        return Ruling(required=True,
                      reason=f"The application involves {acres:,.2f} acres ({p.value:g} acres or more).")
    return Ruling(required=False, details=False,
                  reason=f"The application involves {acres:,.2f} acres, under {p.value:g} acres (the Board may still "
                         "ask for one under SEQRA).")


def _one_family_dwelling(x: Facts) -> Ruling | None:
    # § 402-54B excepts "the development of a one-family dwelling". A subdivision, site plan or special
    # permit is not that, even when its lots are for one-family houses (reading, README "Readings").
    p = x.project
    if p.one_family_dwelling and p.application_type in (None, "building_permit"):
        return Ruling(required=False, reason="The development of a one-family dwelling is excepted.", details=False)
    if p.one_family_dwelling and p.application_type:
        kind = p.application_type.replace("_", " ")
        return Ruling(required=True, citations=("§ 402-54B",),
                      reason=(f"{_biodiversity_rule(x).reason} A {kind} is not the development of a one-family "
                              "dwelling, so the exception does not apply."))
    if p.one_family_dwelling is None and p.application_type in (None, "building_permit"):
        return Ruling(required=None, citations=("§ 402-54B",),
                      reason=f"{_biodiversity_rule(x).reason} Required unless it is for a one-family dwelling.")
    return None


# ------------------------------------------------------------------------------------------ clocks

def _biodiversity_study(item: Reader) -> list[Row]:
    dated = item.date("dated")
    years = value("biodiversity_study_valid_years", item.on)
    return [
        ("valid_until", dated + relativedelta(years=years), cite("biodiversity_study_valid_years", item.on),
         f"The {item.name} stops being valid after this day",
         f"Valid for {cal.years(years)} from its date, {cal.nice(dated)}; if review is still going on "
         "after that, the Planning Board may ask for an update."),
    ]


STUDY_CLOCK = ClockDeclaration(
    id="biodiversity_study", name="biodiversity study", order=90, starts="the date on it", rule=_biodiversity_study,
    fields=(Field("dated", "Study dated", "date"),),
    words=lambda x: (f"A study is valid {count(value('biodiversity_study_valid_years', x.as_of), 'year')} (§ 402-54B).",))

DECLARATION = PermitDeclaration(
    id="biodiversity_study", order=60, title="Highlands biodiversity study", section="§ 402-54B",
    authority=fixed("Planning Board (application not complete without it)"), decider="Planning Board",
    rule=_biodiversity_rule,
    submissions=lambda: ("§ 402-54B",),
    exceptions=(ExceptionClause("§ 402-54B", "the development of a one-family dwelling", _one_family_dwelling),),
    clocks=(STUDY_CLOCK,), timeline=(STUDY_CLOCK,), plain=("a biodiversity study", "for the Planning Board"),
    land=from_the_land(lambda m: biodiversity_required(m.gross_area_sqft / SQFT_PER_ACRE, None, m.as_of)),
    study="a biologist for the biodiversity study")


PERMITS = (DECLARATION,)
