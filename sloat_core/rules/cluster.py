"""§ 402-48 Cluster development: the ten sensitive features of § 402-48C and what follows.

* § 402-48B: the section applies to subdivision or site plan applications in residence or mixed-use districts.
* § 402-48C: the Planning Board *may* require a cluster application where a property shows one or more of
  ten features. Each trigger here is ``True`` / ``False`` / ``None`` (unknown) with its evidence.
  (4) historic eligibility and (5) viewshed significance need a Board's judgment: they stay unknown until an
  explicit answer is given (``board_answers={"402-48C(4)": True}``). A register listing found in the
  historic layer is evidence enough for (4).
* § 402-48C(1): "slopes over 15% on 25% or more of the property" (over = strictly greater; 25 % inclusive).
* § 402-48E/F/I: yield from a conventional plat (the Board decides), the 10,000 sq ft cluster lot in OSR,
  R-80 and R-40, yards of at least 50 %, and split parcels computed per district.
"""

from __future__ import annotations

from dataclasses import dataclass

from sloat_core.rules.measures import Findings
from sloat_core.gis.geometry import PRESENCE_MIN_SQFT
from sloat_core.law.params import param, value

__all__ = ["Trigger", "cluster_triggers", "cluster_applicability", "cluster_lot_rules", "TRIGGER_TITLES"]

TRIGGER_TITLES = {
    1: "Slopes over 15% on 25% or more of the property",
    2: "Freshwater wetlands",
    3: "100-year floodplain",
    4: "Historic register listing or eligibility",
    5: "Significant viewsheds",
    6: "Recreational resources (lakes, ponds, streams, other)",
    7: "Ramapo River Basin Sole Source Aquifer",
    8: "Habitats of endangered, threatened or special concern species",
    9: "Rock outcrops over 50 sq ft",
    10: "Lands within a critical environmental area",
}

BOARD_JUDGMENT = {4, 5}


@dataclass(frozen=True)
class Trigger:
    number: int
    triggered: bool | None
    evidence: str

    @property
    def id(self) -> str:
        return f"402-48C({self.number})"

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "title": TRIGGER_TITLES[self.number],
            "triggered": self.triggered,
            "evidence": self.evidence,
            "citation": f"§ {self.id}",
            "needs_board_judgment": self.number in BOARD_JUDGMENT,
        }


def _share(a: float, gross: float) -> str:
    return f"{a:,.0f} sq ft ({a / gross:.1%} of the parcel)" if gross > 0 else f"{a:,.0f} sq ft"


def _presence(f: Findings, role: str, what: str) -> tuple[bool | None, str]:
    area = f.area(role)
    if area is None:
        return None, f"Unknown: no {what} layer is loaded."
    names = f.feature_names.get(role) or []
    if area >= PRESENCE_MIN_SQFT:
        named = f" ({', '.join(names)})" if names else ""
        return True, f"{what[:1].upper()}{what[1:]} layer{named}: {_share(area, f.gross_area_sqft)}."
    return False, f"None of the {what} layer falls inside the parcel."


def _answer(board_answers: dict | None, number: int):
    if not board_answers:
        return None
    for key in (f"402-48C({number})", f"§ 402-48C({number})", str(number), number):
        if key in board_answers and board_answers[key] is not None:
            return bool(board_answers[key])
    return None


def cluster_triggers(f: Findings, board_answers: dict | None = None) -> list[Trigger]:
    """The ten § 402-48C features for a parcel, each triggered / not / unknown with evidence."""
    gross = f.gross_area_sqft
    out: list[Trigger] = []

    # (1) slopes over 15 % on 25 % or more of the property.
    threshold = float(value("cluster_slope_share_min"))
    if f.slope is None:
        out.append(Trigger(1, None, "Unknown: no elevation model is loaded."))
    else:
        steep = f.slope_area_sqft_in("slope_over_15")
        unknown = f.slope_area_sqft.get("unknown", 0.0)
        share = steep / gross if gross else 0.0
        reach = (steep + unknown) / gross if gross else 0.0
        text = f"Slopes over 15%: {_share(steep, gross)}; the law's test is 25% or more of the property."
        if share >= threshold:
            out.append(Trigger(1, True, text))
        elif reach < threshold:
            out.append(Trigger(1, False, text + (f" Slope unknown on {unknown:,.0f} sq ft." if unknown >= PRESENCE_MIN_SQFT else "")))
        else:
            out.append(Trigger(1, None, text + f" Slope unknown on {unknown:,.0f} sq ft, enough to change it."))

    out.append(Trigger(2, *_presence(f, "wetlands", "wetlands")))
    out.append(Trigger(3, *_presence(f, "floodplain", "FEMA 100-year floodplain")))

    # (4) historic: a listing in the layer is evidence; eligibility is the Board's (and OPRHP's) call.
    answer = _answer(board_answers, 4)
    listed, text = _presence(f, "historic", "historic sites")
    if answer is not None:
        out.append(Trigger(4, answer, f"Board's answer: {'yes' if answer else 'no'}. {text}"))
    elif listed:
        out.append(Trigger(4, True, text))
    else:
        out.append(Trigger(4, None, f"{text} Eligibility for listing needs the Board's judgment (answer it to decide)."))

    # (5) significant viewsheds are determined through SEQRA: never decided by a layer alone.
    answer = _answer(board_answers, 5)
    _, text = _presence(f, "viewsheds", "viewsheds")
    if answer is not None:
        out.append(Trigger(5, answer, f"Board's answer: {'yes' if answer else 'no'}. {text}"))
    else:
        out.append(Trigger(5, None, f"{text} Significance is determined under SEQRA (answer it to decide)."))

    # (6) recreational resources: lakes, ponds, streams, or other potentially significant ones.
    answer = _answer(board_answers, 6)
    hits, unknown_roles = [], []
    for role, what in (("water_bodies", "ponds/lakes"), ("watercourses", "streams"), ("recreation", "recreation lands")):
        area = f.area(role)
        if area is None:
            unknown_roles.append(what)
        elif area >= PRESENCE_MIN_SQFT:
            hits.append(f"{what} {_share(area, gross)}")
    if answer is not None:
        out.append(Trigger(6, answer, f"Board's answer: {'yes' if answer else 'no'}."))
    elif hits:
        out.append(Trigger(6, True, "; ".join(hits) + "."))
    elif unknown_roles:
        out.append(Trigger(6, None, "Unknown: not loaded: " + ", ".join(unknown_roles) + "."))
    else:
        out.append(Trigger(6, False, "No pond, lake, stream or mapped recreation land inside the parcel."))

    out.append(Trigger(7, *_presence(f, "aquifer_cea", "Ramapo sole source aquifer")))
    out.append(Trigger(8, *_presence(f, "habitats", "habitats")))

    # (9) outcrops over 50 sq ft (the whole outcrop's size).
    if f.outcrops_counted is None:
        out.append(Trigger(9, None, "Unknown: no rock outcrop layer is loaded."))
    else:
        big = [s for s in f.outcrop_sizes_sqft if s > float(value("cluster_rock_outcrop_min_area_sqft"))]
        if big:
            out.append(Trigger(9, True, f"{len(big)} outcrop(s) over 50 sq ft touch the parcel "
                                        f"(largest {max(big):,.0f} sq ft)."))
        else:
            small = len(f.outcrop_sizes_sqft)
            out.append(Trigger(9, False, "No outcrop over 50 sq ft" + (f" ({small} smaller)." if small else ".")))

    # (10) critical environmental area: the Ramapo aquifer CEA of § 402-46.
    cea, text = _presence(f, "aquifer_cea", "Ramapo River Sole Source Aquifer CEA (§ 402-46)")
    out.append(Trigger(10, cea, text))
    return out


def cluster_applicability(district_kinds: list[str | None], application_type: str | None) -> tuple[bool | None, str]:
    """§ 402-48B: subdivision or site plan applications in a residence or mixed-use district."""
    if application_type is not None and application_type not in ("subdivision", "site_plan"):
        return False, "Cluster development applies to subdivision and site plan applications only (§ 402-48B)."
    if not district_kinds or any(k is None for k in district_kinds):
        return None, "The zoning district is unknown, so whether § 402-48 applies is unknown."
    if any(k in ("residence", "mixed_use") for k in district_kinds):
        if application_type is None:
            return None, ("The parcel is in a residence or mixed-use district; § 402-48 applies if a subdivision "
                          "or site plan is proposed.")
        return True, "A subdivision or site plan in a residence or mixed-use district (§ 402-48B)."
    return False, "The parcel is not in a residence or mixed-use district (§ 402-48B)."


def cluster_lot_rules(district: str | None, kind: str | None = "residence") -> dict:
    """§ 402-48F: the cluster lot minimum and yards for a district.

    § 402-48F covers the OSR, R-80 and R-40 districts and "any other residential or mixed use district";
    a district of another kind (``kind`` from the local settings, e.g. IP) gets no cluster lot rule.

    >>> cluster_lot_rules("IP", "other")["lot_rule"].startswith("No cluster lot rule")
    True
    """
    small_lot = [str(d) for d in value("cluster_small_lot_districts")]
    p_lot = param("cluster_min_lot_area_sqft")
    p_yard = param("cluster_min_yard_fraction")
    if district not in small_lot and kind not in ("residence", "mixed_use", None):
        return {
            "district": district,
            "cluster_min_lot_area_sqft": None,
            "lot_rule": "No cluster lot rule: § 402-48F covers residence and mixed-use districts only.",
            "min_yard_fraction": None,
            "yard_rule": "No cluster yard rule: § 402-48F covers residence and mixed-use districts only.",
            "citation": p_lot.citation,
        }
    if district in small_lot:
        lot, text = float(p_lot.value), (
            f"One-family detached dwellings on lots of at least {p_lot.value:,.0f} sq ft gross "
            "(constraints not subtracted).")
    else:
        lot, text = None, "The Planning Board sets the minimum lot size as part of the cluster layout."
    return {
        "district": district,
        "cluster_min_lot_area_sqft": lot,
        "lot_rule": text,
        "min_yard_fraction": float(p_yard.value),
        "yard_rule": f"Yards at least {float(p_yard.value):.0%} of the district's one-family yard requirement.",
        "citation": p_lot.citation,
    }


def slope_over_15_share(f: Findings) -> float | None:
    """Share of the parcel with slopes over 15 % (None without a DEM)."""
    if f.slope is None or f.gross_area_sqft <= 0:
        return None
    return f.slope_area_sqft_in("slope_over_15") / f.gross_area_sqft
