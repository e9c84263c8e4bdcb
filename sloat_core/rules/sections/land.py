"""The permits and reviews the land alone answers (no project described): one rule for one parcel and for
the village screen.

The declarations marked ``land_only`` (steep slope § 402-55C(2), wetland § 402-57G, the overlay reviews of
§§ 402-46C, 402-49B, 402-50B, 402-51C, the biodiversity study § 402-54B) read these functions when no
disturbance footprint is drawn; :func:`land_permits` gives the same answers on arrays of parcels, from the
same measures record (`rules.measures.Measures`), for `engine.screening`.
"""

from __future__ import annotations

from sloat_core.law.params import value
from sloat_core.rules.measures import Measures, is_no, present, tri
from sloat_core.units import SQFT_PER_ACRE

__all__ = ["LAND_PERMITS", "OVERLAY_REVIEWS", "where_work_happens", "biodiversity_required", "land_permits"]

#: Overlay reviews: permit id -> the role whose land on the parcel requires it (§§ 402-51C, 402-50B,
#: 402-49B, 402-46C).
OVERLAY_REVIEWS = {"nysdec_recreational_river": "recreational_river", "rcda_review": "rcda",
                   "flood_hazard_review": "floodplain", "seqra_cea": "aquifer_cea"}
#: The region each "where the work happens" permit reads (§ 402-55C(2), § 402-57G).
WORK_REGIONS = {"steep_slope_permit": "slope_ge_25", "wetland_permit": "wetland_region"}
#: The permits and reviews the land alone can answer: the village screen's columns (the declarations'
#: ``land_only`` flag; tests/test_article_ix_round_two.py checks the two agree).
LAND_PERMITS = ("steep_slope_permit", "wetland_permit", "nysdec_recreational_river", "rcda_review",
                "flood_hazard_review", "seqra_cea", "biodiversity_study")


def where_work_happens(m: Measures, key: str):
    """Land-only answer of a permit needed where the work touches a region (no footprint drawn): the
    steep slope permit (§ 402-55C(2)) and the wetland permit (§ 402-57G).

    No when the region is not on the parcel; otherwise unknown: it depends on where the work happens.
    One parcel or arrays of parcels.
    """
    return tri(False, is_no(present(m, key)))


def biodiversity_required(acres, one_family_dwelling: bool | None):
    """§ 402-54B: "applications involving 10 acres or more" (inclusive), except "the development of a
    one-family dwelling" (unknown while the proposal is not described)."""
    if one_family_dwelling:
        return False
    big = acres >= float(value("biodiversity_threshold_acres"))
    return tri(big & (one_family_dwelling is False), ~big if hasattr(big, "shape") else not big)


def land_permits(m: Measures) -> dict[str, object]:
    """Answers of the `LAND_PERMITS` from the land alone (no project), one parcel or arrays of parcels:
    the same decisions `permits_for` makes with no project described."""
    out = {pid: where_work_happens(m, key) for pid, key in WORK_REGIONS.items()}
    out.update({pid: present(m, role) for pid, role in OVERLAY_REVIEWS.items()})
    out["biodiversity_study"] = biodiversity_required(m.gross_area_sqft / SQFT_PER_ACRE, None)
    return out
