"""Tax parcels: one parcel by its SBL, and search by SBL prefix or street address.

:func:`parcel_by_sbl` takes a parcel from the layer set's ``parcels`` layer (exact SBL, ignoring case
and spaces; an index per layer set is built once). :func:`search_parcels` finds parcels by SBL prefix
or by address after :func:`normalise_address` ("Road" = "Rd" ...), with near misses (a typo) as a
fallback; :func:`find_parcels` is its list of rows.
"""

from __future__ import annotations

import os
import re
import threading
import weakref
from dataclasses import dataclass
from typing import Any

import shapely

from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import LayerSet, polygonal_part
from sloat_core.gis.parcels.placement import Parcel
from sloat_core.gis.safe_files import safe_display_name

__all__ = [
    "parcel_by_sbl",
    "find_parcels",
    "search_parcels",
    "ParcelSearch",
    "normalise_address",
    "street_query",
    "sbl_key",
    "sbl_identity",
    "SUFFIXES",
    "NEAR_MISS_SCORE",
]

_SBL_INDEX: weakref.WeakKeyDictionary[LayerSet, dict[str, list[int]]] = weakref.WeakKeyDictionary()
_SEARCH_ROWS: weakref.WeakKeyDictionary[LayerSet, list[tuple]] = weakref.WeakKeyDictionary()
_SBL_LOCK = threading.Lock()


def sbl_identity(text: Any) -> str:
    """The form in which two SBLs are the same parcel to :func:`parcel_by_sbl`: spaces dropped, case folded.

    >>> sbl_identity(" 155.06-1-42 "), sbl_identity("155.06-1-42a") == sbl_identity("155.06-1-42A")
    ('155.06-1-42', True)
    """
    return re.sub(r"\s+", "", str(text)).lower()


def _plain(value: Any) -> str | None:
    if value is None:
        return None
    try:
        if value != value:  # NaN / NA
            return None
    except (TypeError, ValueError):
        return None
    text = str(value).strip()
    return text or None


def _parcel_layer(layerset: LayerSet):
    lyr = layerset.get("parcels")
    meta = layerset.parcels_meta
    if lyr is None or meta is None:
        return None, None
    return lyr, meta


def _sbl_index(layerset: LayerSet) -> dict[str, list[int]]:
    with _SBL_LOCK:
        index = _SBL_INDEX.get(layerset)
        if index is None:
            lyr, meta = _parcel_layer(layerset)
            index = {}
            if lyr is not None:
                for i, value in enumerate(lyr.gdf[meta.id_field]):
                    key = _plain(value)
                    if key is not None:
                        index.setdefault(sbl_identity(key), []).append(i)
            _SBL_INDEX[layerset] = index
        return index


def parcel_by_sbl(layerset: LayerSet, sbl: str) -> Parcel:
    """The tax parcel with this SBL (exact match, ignoring case and spaces).

    Parameters
    ----------
    layerset : LayerSet
        Must have a ``parcels`` layer.
    sbl : str
        Section-block-lot, e.g. ``"156.18-1-23"``.

    Returns
    -------
    Parcel
        With ``sbl``, ``address`` and ``district`` from the tax layer.

    Raises
    ------
    SloatInputError
        No parcel layer, or no parcel with that SBL.
    """
    lyr, meta = _parcel_layer(layerset)
    if lyr is None:
        raise SloatInputError("This map data has no tax-parcel layer, so parcels cannot be looked up by SBL.")
    wanted = sbl_identity(sbl or "")
    rows = _sbl_index(layerset).get(wanted) if wanted else None
    if not rows:
        shown = safe_display_name(str(sbl or "").strip(), default="(blank)")
        raise SloatInputError(f"No tax parcel has SBL {shown}.")
    geoms = lyr.geoms[rows]
    geom = geoms[0] if len(rows) == 1 else polygonal_part(shapely.union_all(geoms))
    first = lyr.gdf.iloc[rows[0]]
    sbl_text = _plain(first[meta.id_field]) or str(sbl)
    return Parcel(
        geometry=geom,
        source=f"tax parcel {sbl_text} ({layerset.name})",
        warnings=(),
        sbl=sbl_text,
        address=_plain(first[meta.address_field]) if meta.address_field else None,
        district=_plain(first[meta.district_field]) if meta.district_field else None,
    )


#: Street words and their USPS abbreviation (lower case): "Road" and "Rd" find the same parcels.
SUFFIXES: dict[str, str] = {
    "road": "rd", "street": "st", "turnpike": "tpke", "tpk": "tpke", "tpke": "tpke", "tnpk": "tpke",
    "avenue": "ave", "av": "ave", "drive": "dr", "lane": "ln", "court": "ct", "place": "pl",
    "boulevard": "blvd", "terrace": "ter", "highway": "hwy", "route": "rte", "rt": "rte", "circle": "cir",
    "parkway": "pkwy", "mountain": "mtn", "heights": "hts", "extension": "ext", "trail": "trl",
    "north": "n", "south": "s", "east": "e", "west": "w", "mount": "mt", "hill": "hl", "point": "pt",
}
#: Lowest rapidfuzz ``fuzz.ratio`` (0-100) of the street words for a near miss: one wrong, missing or
#: swapped letter in a street name of ten or more letters scores about 90; "Rock Rd" vs "Ridge Rd" 67.
NEAR_MISS_SCORE = 85.0


def normalise_address(text: Any) -> str:
    """Lower case, punctuation dropped, one space between words, street words abbreviated.

    >>> normalise_address("297  Johnsontown Road.")
    '297 johnsontown rd'
    >>> normalise_address("Orange Turnpike")
    'orange tpke'
    """
    words = re.sub(r"[.,#;:]", " ", str(text or "")).lower().split()
    return " ".join(SUFFIXES.get(w, w) for w in words)


#: Place words a postal address ends with ("..., Sloatsburg, NY 10974"): dropped before the street is compared.
_PLACE_WORDS = frozenset({"sloatsburg", "ny", "new", "york", "usa", "us", "ramapo", "rockland", "county"})
_ZIP = re.compile(r"^\d{5}(?:-\d{4})?$")
#: Letters typed for digits in an SBL ("155.06-l-42"): l / i for 1, o for 0.
_DIGIT_LOOKALIKES = str.maketrans({"l": "1", "i": "1", "o": "0"})


def street_query(text: Any) -> str:
    """What people type, as the address is written in the tax roll: place words and ZIP dropped,
    a house number written after the street put first.

    >>> street_query("297 Johnsontown Road, Sloatsburg, NY 10974")
    '297 johnsontown rd'
    >>> street_query("Orange Turnpike 509")
    '509 orange tpke'
    """
    words = normalise_address(re.sub(r"-\d{4}\b", "", str(text or ""))).split()
    while len(words) > 1 and (words[-1] in _PLACE_WORDS or _ZIP.match(words[-1])):
        words.pop()
    if len(words) > 1 and re.fullmatch(r"\d+[a-z]?", words[-1]) and not words[0][:1].isdigit():
        words = [words[-1], *words[:-1]]
    return " ".join(words)


def sbl_key(text: Any) -> str | None:
    """An SBL with its punctuation and spaces dropped and look-alike letters read as digits; None when the
    text is not SBL-like (it must have at least four digits and no word of two or more letters).

    >>> sbl_key("155.06 1 42"), sbl_key("15506142"), sbl_key("155.06-l-42"), sbl_key("Orange Tpke")
    ('15506142', '15506142', '15506142', None)
    """
    raw = str(text or "").lower()
    if re.search(r"[a-z]{2,}", raw):
        return None
    key = re.sub(r"[^0-9a-z]", "", raw.translate(_DIGIT_LOOKALIKES))
    return key if sum(c.isdigit() for c in key) >= 4 else None


def _split_number(norm: str) -> tuple[str | None, str]:
    """("297", "johnsontown rd") from "297 johnsontown rd"; (None, text) without a house number."""
    m = re.match(r"^(\d+[a-z]?)\s+(.*)$", norm)
    return (m.group(1), m.group(2)) if m else (None, norm)


@dataclass(frozen=True)
class ParcelSearch:
    """What a parcel search found.

    Attributes
    ----------
    matches : list of dict
        At most ``limit`` rows ``{"sbl", "address", "district"}``, best first.
    total : int
        How many parcels matched in all (more than ``len(matches)`` when the list was capped).
    near_miss : bool
        True when nothing matched the words as typed and the matches are near misses (a typo).
    """

    matches: list[dict[str, str | None]]
    total: int
    near_miss: bool = False


def _search_index(layerset: LayerSet, lyr, meta) -> list[tuple]:
    """(sbl, address, district, normalised address, normalised SBL, SBL key) of every parcel with an SBL,
    computed once per layer set (as :func:`_sbl_index`): a search then only compares."""
    with _SBL_LOCK:
        rows = _SEARCH_ROWS.get(layerset)
    if rows is not None:
        return rows
    gdf = lyr.gdf
    sbls = [_plain(v) for v in gdf[meta.id_field]]
    addrs = [_plain(v) for v in gdf[meta.address_field]] if meta.address_field else [None] * len(gdf)
    dists = [_plain(v) for v in gdf[meta.district_field]] if meta.district_field else [None] * len(gdf)
    rows = [(sbl, addr, dist, normalise_address(addr) if addr else None, sbl_identity(sbl), sbl_key(sbl))
            for sbl, addr, dist in zip(sbls, addrs, dists, strict=True) if sbl is not None]
    with _SBL_LOCK:
        _SEARCH_ROWS[layerset] = rows
    return rows


def search_parcels(layerset: LayerSet, text: str, limit: int = 10) -> ParcelSearch:
    """Tax parcels by SBL prefix or address, street words normalised, with near misses as a fallback.

    The address and the words typed are compared after :func:`normalise_address` (case, punctuation,
    "Road" = "Rd", "Turnpike" = "Tpke" ...). When no SBL or address contains the words, addresses whose
    street words are within one or two letters (rapidfuzz ratio of at least :data:`NEAR_MISS_SCORE`)
    are offered instead; a house number typed must then be the parcel's own.

    Parameters
    ----------
    layerset : LayerSet
        The map data.
    text : str
        What the user typed.
    limit : int
        Most rows returned (``total`` counts them all).

    Returns
    -------
    ParcelSearch
        Empty when nothing matches, the text is blank or there is no parcel layer.
    """
    lyr, meta = _parcel_layer(layerset)
    query = (text or "").strip()
    if lyr is None or not query or limit <= 0:
        return ParcelSearch([], 0)
    q_sbl = sbl_identity(query)
    q_key = sbl_key(query)
    q_addr = street_query(query)
    index = _search_index(layerset, lyr, meta)
    hits = _matching(index, q_sbl, q_key, q_addr)
    near = False
    if not hits and len(q_addr) >= 4:
        hits = _near_addresses(index, q_addr)
        near = bool(hits)
    if not hits and q_key is not None:
        hits = _near_sbls(index, q_key)
        near = bool(hits)
    ordered = sorted(hits.values(), key=lambda item: (item[0], _natural_key(item[1]["sbl"] or "")))
    return ParcelSearch([row for _, row in ordered[:limit]], len(ordered), near)


_Hits = dict[str, tuple[float, dict[str, str | None]]]


def _match_rank(nsbl: str, key: str | None, naddr: str | None, q_sbl: str, q_key: str | None,
                q_addr: str) -> float | None:
    """How well one parcel matches the words as typed (lower is better): its SBL starts with them (0, or 0.5
    for an SBL key that only starts with them), its address contains them (1); None when it does not match."""
    if nsbl.startswith(q_sbl):
        return 0.0
    if q_key is not None and key is not None and key.startswith(q_key):
        return 0.0 if key == q_key else 0.5
    if naddr is not None and q_addr and q_addr in naddr:
        return 1.0
    return None


def _matching(index: list[tuple], q_sbl: str, q_key: str | None, q_addr: str) -> _Hits:
    """The parcels whose SBL or address matches the words as typed, each with its best rank."""
    hits: _Hits = {}
    for sbl, addr, dist, naddr, nsbl, key in index:
        rank = _match_rank(nsbl, key, naddr, q_sbl, q_key, q_addr)
        if rank is not None and (sbl not in hits or hits[sbl][0] > rank):
            hits[sbl] = (rank, {"sbl": sbl, "address": addr, "district": dist})
    return hits


def _near_addresses(index: list[tuple], q_addr: str) -> _Hits:
    """Near misses by address: street words within :data:`NEAR_MISS_SCORE`, the house number typed the
    parcel's own."""
    from rapidfuzz import fuzz

    hits: _Hits = {}
    q_num, q_street = _split_number(q_addr)
    for sbl, addr, dist, naddr, _n, _k in index:
        if naddr is None:
            continue
        a_num, a_street = _split_number(naddr)
        if q_num is not None and q_num != a_num:
            continue
        score = fuzz.ratio(q_street, a_street)
        if score >= NEAR_MISS_SCORE:
            hits[sbl] = (2.0 + (100.0 - score) / 100.0, {"sbl": sbl, "address": addr, "district": dist})
    return hits


def _near_sbls(index: list[tuple], q_key: str) -> _Hits:
    """The nearest SBLs: those sharing the longest start with the one typed (a wrong last digit or two)."""
    hits: _Hits = {}
    shared = [(os.path.commonprefix([q_key, k]), sbl, addr, dist)
              for sbl, addr, dist, _n, _s, k in index if k is not None]
    best = max((len(c) for c, *_ in shared), default=0)
    if best >= 4 and best >= len(q_key) - 2:
        for c, sbl, addr, dist in shared:
            if len(c) == best:
                hits[sbl] = (3.0, {"sbl": sbl, "address": addr, "district": dist})
    return hits


def find_parcels(layerset: LayerSet, text: str, limit: int = 10) -> list[dict[str, str | None]]:
    """Tax parcels whose SBL starts with ``text`` or whose address contains it (see :func:`search_parcels`).

    Parameters
    ----------
    layerset : LayerSet
        The map data.
    text : str
        What the user typed.
    limit : int
        Most results returned.

    Returns
    -------
    list of dict
        ``{"sbl", "address", "district"}`` as plain strings (or None), SBL matches first, each group
        sorted by SBL. Empty when nothing matches, the text is blank or there is no parcel layer.
    """
    return search_parcels(layerset, text, limit).matches


def _natural_key(text: str) -> list[Any]:
    return [(0, int(p), "") if p.isdigit() else (1, 0, p.lower()) for p in re.split(r"(\d+)", text) if p]
