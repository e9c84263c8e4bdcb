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
* § 402-48I, read with § 402-48E: each district's part yields whole lots conforming to that district's
  minimum; the parts' whole lots are then added (never their fractions). See `yield_estimate`.
* § 402-48E on unknown land: the yield is a range exactly as the net lot area is (the worst-case net's
  lots to the best case's); it is one number only where every net in the range gives the same lots.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from sloat_core.rules.deductions import conventional_yield
from sloat_core.measure.parcel import Findings
from sloat_core.measure.record import Measures
from sloat_core.rules.measures import answer, is_yes, present, tri, tri_any
from sloat_core.gis.geometry import PRESENCE_MIN_SQFT
from sloat_core.gis.roles import ROLE_DECLARATIONS
from sloat_core.errors import ResultShapeError
from sloat_core.law.params import fill, param, value
from sloat_core.records import check_keys

__all__ = ["Feature", "FEATURES", "Trigger", "cluster_triggers", "trigger_answers", "cluster_applicability",
           "cluster_lot_rules", "TRIGGER_TITLES", "TRIGGER_WORDS", "trigger_title", "RECREATION_ROLES", "part_yield",
           "yield_estimate", "yield_phrase", "open_space_rule"]


@dataclass(frozen=True)
class Feature:
    """One of the ten sensitive features of § 402-48C, declared once: its title (law numbers filled in from
    the parameters, `trigger_title`), its everyday words (the counter, `engine.plain.plain_cluster`) and
    whether only the Planning Board's judgment settles it."""

    number: int
    title: str
    words: str
    board_judgment: bool = False


#: The ten features of § 402-48C, in the law's order.
FEATURES: tuple[Feature, ...] = (
    Feature(1, "Slopes over {cluster_slope_threshold_pct:g}% on {cluster_slope_share_min:.0%} or more of the property",
            "a lot of sloping ground"),
    Feature(2, "Freshwater wetlands", "wetland"),
    Feature(3, "100-year floodplain", "flood zone"),
    Feature(4, "Historic register listing or eligibility", "a historic site", board_judgment=True),
    Feature(5, "Significant viewsheds", "a significant view", board_judgment=True),
    Feature(6, "Recreational resources (lakes, ponds, streams, other)", "ponds, streams or recreation land"),
    Feature(7, "Ramapo River Basin Sole Source Aquifer", "the Ramapo River aquifer (a drinking-water source)"),
    Feature(8, "Habitats of endangered, threatened or special concern species", "habitat of protected wildlife"),
    Feature(9, "Rock outcrops over {cluster_rock_outcrop_min_area_sqft:,g} sq ft", "bare rock outcrops"),
    Feature(10, "Lands within a critical environmental area", "land in a critical environmental area"),
)

#: Titles of the ten features; law numbers in them are filled in from the parameters (`trigger_title`).
TRIGGER_TITLES = {f.number: f.title for f in FEATURES}
#: The features of § 402-48C in everyday words, by the trigger's id ("402-48C(3)": "flood zone").
TRIGGER_WORDS = {f"402-48C({f.number})": f.words for f in FEATURES}

BOARD_JUDGMENT = {f.number for f in FEATURES if f.board_judgment}


def trigger_title(number: int, on: dt.date) -> str:
    """Title of a § 402-48C feature, its numbers read from the parameters as in effect on ``on`` (the date the
    law is applied at).

    >>> trigger_title(1, dt.date(2026, 12, 1))
    'Slopes over 15% on 25% or more of the property'
    """
    return fill(TRIGGER_TITLES[number], on)


@dataclass(frozen=True)
class Trigger:
    number: int
    triggered: bool | None
    evidence: str
    #: The date the law was applied at (the title's numbers are those in effect then); None for a trigger read
    #: back from a saved result, whose title is the one it states (``stated``).
    as_of: dt.date | None = field(default=None, compare=False, repr=False)
    #: The title as a saved result states it (read back by `from_dict`); None for a trigger worked out here.
    stated: str | None = field(default=None, compare=False, repr=False)

    @property
    def id(self) -> str:
        return f"402-48C({self.number})"

    @property
    def title(self) -> str:
        """The feature's title, its numbers as in effect on ``as_of`` (a saved result's: the title it states)."""
        if self.stated is not None:
            return self.stated
        return trigger_title(self.number, self.as_of)

    @property
    def citation(self) -> str:
        return f"§ {self.id}"

    @property
    def needs_board_judgment(self) -> bool:
        return self.number in BOARD_JUDGMENT

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "triggered": self.triggered,
            "evidence": self.evidence,
            "citation": self.citation,
            "needs_board_judgment": self.needs_board_judgment,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Trigger:
        """A trigger read back from :meth:`to_dict` (a saved result), strictly: a key unknown or missing, or an id
        that is not a § 402-48C trigger, is refused (:class:`sloat_core.errors.ResultShapeError`)."""
        check_keys("Trigger", d, ("id", "title", "triggered", "evidence", "citation", "needs_board_judgment"))
        m = re.fullmatch(r"402-48C\((\d+)\)", str(d["id"]))
        if m is None or int(m.group(1)) not in TRIGGER_TITLES:
            raise ResultShapeError(f"Trigger: {d['id']!r} is not a cluster trigger of § 402-48C.")
        return cls(number=int(m.group(1)), triggered=d["triggered"], evidence=d["evidence"], stated=str(d["title"]))


def _share(a: float, gross: float) -> str:
    # The whole layer on the lot, overlaps included: the deduction table counts each piece of land in one
    # row only, so its row for the same layer can be smaller ("one reconciled set of numbers").
    return f"{a:,.0f} sq ft on the lot ({a / gross:.1%} of the parcel)" if gross > 0 else f"{a:,.0f} sq ft on the lot"


def _answer(board_answers: dict | None, number: int):
    if not board_answers:
        return None
    for key in (f"402-48C({number})", f"§ 402-48C({number})", str(number), number):
        if key in board_answers and board_answers[key] is not None:
            return bool(board_answers[key])
    return None


#: Roles whose land is a recreational resource of § 402-48C(6) (lakes, ponds, streams, other).
RECREATION_ROLES = tuple(r.id for r in ROLE_DECLARATIONS if "§ 402-48C(6)" in r.uses)


def trigger_answers(m: Measures, board_answers: dict | None = None) -> dict[int, object]:
    """§ 402-48C: each of the ten features present (yes), absent (no) or unknown, from the measures.

    Works on one parcel (answers True / False / None) or on arrays of parcels (1.0 / 0.0 / nan):
    the village screen and the single-parcel analysis call this same function.

    * (1) "slopes over 15% on 25% or more of the property": yes when the land over 15 % reaches
      25 % of the gross area, no when even with all the land of unknown slope it cannot;
    * (2), (3), (7), (8), (10): the layer's land on the parcel (presence, see `measures.present`);
      (10) reads the Ramapo aquifer CEA of § 402-46;
    * (4) a register listing in the historic layer is a yes; otherwise the Board's answer decides;
    * (5) only the Board's answer decides (significance is a SEQRA determination);
    * (6) any pond, lake, stream or recreation land is a yes, unless the Board answered;
    * (9) an outcrop "in excess of" the size, the whole outcrop's size, on the parcel.

    >>> from sloat_core.measure.record import measured_areas
    >>> areas = {k: 0.0 for k in measured_areas()} | {"wetlands": 5_000.0}
    >>> m = Measures(100_000.0, {}, areas, 0.0, 0.0, {}, as_of=dt.date(2026, 12, 1))
    >>> a = trigger_answers(m)
    >>> a[1], a[2], a[5]
    (False, True, None)
    """
    gross = m.gross_area_sqft
    need = float(value("cluster_slope_share_min", m.as_of))
    steep = m.areas["slope_over_15"]
    unknown = m.slope_unknown_sqft
    out: dict[int, object] = {
        1: tri(steep >= need * gross, steep + unknown < need * gross),
        2: present(m, "wetlands"),
        3: present(m, "floodplain"),
    }
    listed = present(m, "historic")
    given = _answer(board_answers, 4)
    out[4] = given if given is not None else tri(is_yes(listed), False)
    given = _answer(board_answers, 5)
    nothing = np.zeros(np.shape(gross), dtype=bool) if isinstance(gross, np.ndarray) else False
    out[5] = given if given is not None else tri(nothing, False)
    given = _answer(board_answers, 6)
    out[6] = given if given is not None else tri_any(*(present(m, r) for r in RECREATION_ROLES))
    out[7] = present(m, "aquifer_cea")
    out[8] = present(m, "habitats")
    out[9] = present(m, "outcrops_cluster")
    out[10] = present(m, "aquifer_cea")
    return out


def _presence_text(m: Measures, role: str, what: str, state) -> str:
    area = m.areas[role]
    if area != area:
        return f"Unknown: no {what} layer is loaded."
    names = (m.evidence.get("names") or {}).get(role) or []
    if state is True:
        named = f" ({', '.join(names)})" if names else ""
        return f"{what[:1].upper()}{what[1:]} layer{named}: {_share(area, m.gross_area_sqft)}."
    if state is None:
        return f"Unknown: the {what} layer does not cover enough of the parcel to tell."
    return f"None of the {what} layer falls inside the parcel."


def _slope_text(m: Measures, state) -> str:
    gross = m.gross_area_sqft
    steep = m.areas["slope_over_15"]
    if steep != steep:
        return "Unknown: no elevation model is loaded."
    p_slope, p_share = param("cluster_slope_threshold_pct", m.as_of), param("cluster_slope_share_min", m.as_of)
    text = (f"Slopes over {p_slope.value:g}%: {_share(steep, gross)}; the law's test is "
            f"{p_share.value:.0%} or more of the property.")
    unknown = m.slope_unknown_sqft
    if state is False and unknown >= PRESENCE_MIN_SQFT:
        text += f" Slope unknown on {unknown:,.0f} sq ft."
    elif state is None:
        text += f" Slope unknown on {unknown:,.0f} sq ft, enough to change it."
    return text


def cluster_triggers(m: Measures, board_answers: dict | None = None) -> list[Trigger]:
    """§ 402-48C: the ten features for a parcel, each triggered / not / unknown with its evidence.

    The answers are `trigger_answers` (the rule); this adds the evidence a person reads. The law is read as in
    effect on the date the measures were taken at (``m.as_of``).
    """
    a = {n: answer(v) for n, v in trigger_answers(m, board_answers).items()}
    gross = m.gross_area_sqft
    out = [Trigger(1, a[1], _slope_text(m, a[1]))]
    out.append(Trigger(2, a[2], _presence_text(m, "wetlands", "wetlands", a[2])))
    out.append(Trigger(3, a[3], _presence_text(m, "floodplain", "FEMA 100-year floodplain", a[3])))

    listed = answer(present(m, "historic"))
    text = _presence_text(m, "historic", "historic sites", listed)
    if _answer(board_answers, 4) is not None:
        out.append(Trigger(4, a[4], f"Board's answer: {'yes' if a[4] else 'no'}. {text}"))
    elif a[4]:
        out.append(Trigger(4, True, text))
    else:
        out.append(Trigger(4, None, f"{text} Eligibility for listing needs the Board's judgment (answer it to decide)."))

    text = _presence_text(m, "viewsheds", "viewsheds", answer(present(m, "viewsheds")))
    if _answer(board_answers, 5) is not None:
        out.append(Trigger(5, a[5], f"Board's answer: {'yes' if a[5] else 'no'}. {text}"))
    else:
        out.append(Trigger(5, None, f"{text} Significance is determined under SEQRA (answer it to decide)."))

    if _answer(board_answers, 6) is not None:
        out.append(Trigger(6, a[6], f"Board's answer: {'yes' if a[6] else 'no'}."))
    else:
        hits, unknown_roles = [], []
        for role, what in zip(RECREATION_ROLES, ("ponds/lakes", "streams", "recreation lands"), strict=True):
            state = answer(present(m, role))
            if state:
                hits.append(f"{what} {_share(m.areas[role], gross)}")
            elif state is None:
                unknown_roles.append(what)
        if a[6]:
            out.append(Trigger(6, True, "; ".join(hits) + "."))
        elif a[6] is None:
            out.append(Trigger(6, None, "Unknown: not loaded or not covered: " + ", ".join(unknown_roles) + "."))
        else:
            out.append(Trigger(6, False, "No pond, lake, stream or mapped recreation land inside the parcel."))

    out.append(Trigger(7, a[7], _presence_text(m, "aquifer_cea", "Ramapo sole source aquifer", a[7])))
    out.append(Trigger(8, a[8], _presence_text(m, "habitats", "habitats", a[8])))

    size = param("cluster_rock_outcrop_min_area_sqft", m.as_of).value
    if a[9] is None:
        out.append(Trigger(9, None, "Unknown: no rock outcrop layer is loaded."))
    else:
        sizes = list(m.evidence.get("outcrop_sizes_sqft") or ())
        big = [s for s in sizes if s > size]
        if a[9]:
            largest = f" (largest {max(big):,.0f} sq ft)" if big else ""
            out.append(Trigger(9, True, f"{len(big) or 'An'} outcrop(s) over {size:g} sq ft touch the parcel"
                                        f"{largest}."))
        else:
            small = len(sizes)
            out.append(Trigger(9, False, f"No outcrop over {size:g} sq ft" + (f" ({small} smaller)." if small else ".")))

    out.append(Trigger(10, a[10], _presence_text(m, "aquifer_cea",
                                                 "Ramapo River Sole Source Aquifer CEA (§ 402-46)", a[10])))
    return [replace(t, as_of=m.as_of) for t in out]  # each title's numbers as in effect on that date


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


def cluster_lot_rules(district: str | None, kind: str | None, on: dt.date) -> dict:
    """§ 402-48F: the cluster lot minimum and yards for a district, as in effect on ``on`` (the date the law is
    applied at).

    § 402-48F covers the OSR, R-80 and R-40 districts and "any other residential or mixed use district";
    a district of another kind (``kind`` from the local settings, e.g. IP) gets no cluster lot rule.

    >>> cluster_lot_rules("IP", "other", dt.date(2026, 12, 1))["lot_rule"].startswith("No cluster lot rule")
    True
    """
    small_lot = [str(d) for d in value("cluster_small_lot_districts", on)]
    p_lot = param("cluster_min_lot_area_sqft", on)
    p_yard = param("cluster_min_yard_fraction", on)
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
    """§ 402-48C(1): share of the parcel with slopes over the cluster threshold (None without a DEM)."""
    if f.slope is None or f.gross_area_sqft <= 0:
        return None
    return f.slope_area_sqft_in("slope_over_15") / f.gross_area_sqft


# ------------------------------------------------------------------------------------------------
# Yield (§ 402-48E) per district part and for the parcel (§ 402-48I)
# ------------------------------------------------------------------------------------------------


def part_yield(net_sqft: float, floor_sqft: float | None, minimum_sqft: float | None) -> dict:
    """§ 402-48E: whole lots of the district minimum a part's net lot area could hold, as a range.

    ``net_sqft`` is the net with every unknown taken as unconstrained (the best case), ``floor_sqft`` the
    net if every unknown turned out constrained (`deductions.net_lot_area_floor`). The yield is one number
    when both give the same whole lots, a range when not, unknown without a minimum.

    >>> part_yield(80_000, 80_000, 40_000)["conventional_yield"]
    2
    >>> r = part_yield(160_000, 0, 40_000)
    >>> r["conventional_yield"], r["conventional_yield_min"], r["conventional_yield_max"], r["conventional_yield_status"]
    (None, 0, 4, 'range')
    """
    floor_sqft = net_sqft if floor_sqft is None else min(floor_sqft, net_sqft)
    hi = conventional_yield(net_sqft, minimum_sqft)
    lo = conventional_yield(floor_sqft, minimum_sqft)
    status = "unknown" if hi is None else ("known" if lo == hi else "range")
    return {"conventional_yield": hi if status == "known" else None,
            "conventional_yield_min": lo, "conventional_yield_max": hi, "conventional_yield_status": status}


def _lots(n: int) -> str:
    return f"{n} lot{'s' * (n != 1)}"


def yield_phrase(r) -> str:
    """The yield (§ 402-48E) of a result or a district part in words: "3 lots", "0 to 4 lots", "not known".

    ``r`` is the typed result or one of its district parts (:class:`sloat_core.engine.result.ParcelResult`,
    ``DistrictPart``), read by attribute, or the yield's own dict while :func:`yield_estimate` builds it.

    >>> yield_phrase({"conventional_yield_status": "range", "conventional_yield_min": 0, "conventional_yield_max": 4})
    '0 to 4 lots (a range: part of the land is unknown)'
    """
    get = r.get if isinstance(r, Mapping) else (lambda key: getattr(r, key, None))
    status = get("conventional_yield_status")
    if status is None:  # a result written before the yield had a status: its one number, if any
        y = get("conventional_yield")
        return "not known" if y is None else _lots(int(y))
    if status == "known":
        return _lots(int(get("conventional_yield")))
    if status == "range":
        return f"{get('conventional_yield_min')} to {get('conventional_yield_max')} lots (a range: part of the land " \
               "is unknown)"
    return "not known"


def yield_estimate(parts: list[dict]) -> dict:
    """§ 402-48E, § 402-48I: the parcel's conventional yield from its district parts.

    Each part (``district``, ``net_lot_area_sqft``, ``net_lot_area_min_sqft``, ``min_lot_area_sqft``) yields
    whole lots conforming to its own district's minimum (`part_yield`); the parcel's yield is the sum of the
    parts' whole lots, so 80,000 sq ft net in R-40 (40,000) and 80,000 in R-80 (80,000) is 2 + 1 = 3, not
    160,000 / 40,000 = 4. A range in any part makes the sum a range (lowest to highest); a part with no
    minimum makes it unknown. Returns the yield keys of the analysis result with the caveat that says so.

    >>> parts = [{"district": "R-40", "net_lot_area_sqft": 80_000, "net_lot_area_min_sqft": 80_000,
    ...           "min_lot_area_sqft": 40_000},
    ...          {"district": "R-80", "net_lot_area_sqft": 80_000, "net_lot_area_min_sqft": 80_000,
    ...           "min_lot_area_sqft": 80_000}]
    >>> yield_estimate(parts)["conventional_yield"]
    3
    """
    each = [part_yield(p["net_lot_area_sqft"], p.get("net_lot_area_min_sqft"), p.get("min_lot_area_sqft"))
            for p in parts]
    split = len(parts) > 1
    caveat = ["The Planning Board decides yield from a conventional subdivision plat (§ 402-48E)."]
    if split:
        caveat.append("The parcel lies in more than one district: each district's part yields whole lots of "
                      "that district's minimum and the parts are added (§ 402-48I).")
    missing = [p.get("district") or "unknown district" for p, y in zip(parts, each, strict=True)
               if y["conventional_yield_status"] == "unknown"]
    if missing or not parts:
        out = {"conventional_yield": None, "conventional_yield_min": None, "conventional_yield_max": None,
               "conventional_yield_status": "unknown"}
        caveat.append("The yield is unknown: no minimum lot area is known for " + ", ".join(missing or ["the "
                      "district"]) + ".")
    else:
        lo = sum(y["conventional_yield_min"] for y in each)
        hi = sum(y["conventional_yield_max"] for y in each)
        status = "known" if lo == hi else "range"
        out = {"conventional_yield": hi if status == "known" else None, "conventional_yield_min": lo,
               "conventional_yield_max": hi, "conventional_yield_status": status}
        if status == "range":
            caveat.append(f"Part of the land is unknown (the net lot area is a range): the yield is {lo} to {hi} "
                          "lots until that land is known; the higher figure is the best case, not an estimate.")
        elif any(abs(p["net_lot_area_sqft"] - (p.get("net_lot_area_min_sqft") if p.get("net_lot_area_min_sqft")
                                                   is not None else p["net_lot_area_sqft"])) > 0.5 for p in parts):
            caveat.append("Part of the land is unknown, but every net lot area in its range gives the same "
                          "number of lots.")
    if split and out["conventional_yield_status"] != "unknown":
        caveat.append("By district: " + "; ".join(f"{p.get('district') or 'unknown district'} {yield_phrase(y)}"
                                                  .replace(" (a range: part of the land is unknown)", "")
                                                  for p, y in zip(parts, each, strict=True)) + ".")
    out["yield_caveat"] = " ".join(caveat)
    out["yield_citation"] = "§ 402-48I" if split else "§ 402-48E"
    out["conventional_yield_text"] = yield_phrase(out)
    return out


def open_space_rule(on: dt.date) -> dict:
    """§ 402-48G(2): what the required open space of a cluster may not include, with its number as in effect on
    ``on`` (the date the law is applied at).

    The tool draws no cluster layout, so it measures no open space; where it shows cluster figures it states
    the exclusion so that no one counts a house's yard as open space.

    >>> open_space_rule(dt.date(2026, 12, 1))["yard_exclusion_ft"]
    50.0
    """
    p = param("open_space_yard_exclusion_ft", on)
    return {
        "yard_exclusion_ft": float(p.value),
        "text": (f"Required open space may not include private yards within {float(p.value):g} ft of any principal "
                 f"structure ({p.citation}): it may be part of large building lots or a separate lot, protected "
                 "by a conservation easement."),
        "quote": p.quote,
        "citation": p.citation,
    }
