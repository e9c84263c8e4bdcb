"""What the map's drawing tool sends back: checked first, then read.

The drawings come from the browser (``st_folium``'s ``all_drawings``): a hostile page can send a million
vertices, NaN or text where numbers go. :func:`drawing_problem` checks every position before anything
else reads them; :func:`last_polygon` takes the outline to measure; :func:`drawings_signature` notices
when the drawings change between reruns. Used by the Parcel page's map events and the Proposed project
page's footprint map.
"""

from __future__ import annotations

import json

__all__ = ["drawing_problem", "last_polygon", "drawings_signature"]


#: Most positions all the map's drawings may hold together: the parcel reader's own limit
#: (sloat_core.gis.parcels.placement.MAX_VERTICES); a hand-drawn outline has a few dozen.
def _max_positions() -> int:
    from sloat_core.gis.parcels.placement import MAX_VERTICES

    return MAX_VERTICES


_NOT_A_DRAWING = "The drawing sent by the map is not a polygon of map coordinates; draw it again."
#: The end of a list's members (:func:`drawing_problem`).
_END = object()


def drawing_problem(all_drawings) -> str | None:
    """One sentence when the map's drawings are not what its drawing tool makes, else None.

    The drawings come from the browser: a hostile page can send a million vertices, NaN or text where
    numbers go. Every position is counted and checked (finite longitude -180..180 and latitude -90..90)
    before anything else reads them, stopping at the first fault or at :func:`_max_positions` positions,
    so neither the check nor shapely does more work than a legitimate outline needs.
    """
    import math as _math

    if all_drawings is None:
        return None
    if not isinstance(all_drawings, list):
        return _NOT_A_DRAWING
    limit, count = _max_positions(), 0
    for feature in all_drawings:
        geometry = feature.get("geometry") if isinstance(feature, dict) else None
        if not isinstance(geometry, dict):
            return _NOT_A_DRAWING
        # Depth first, the last member of a list first, as a stack of lists would; each list is walked by an
        # iterator as it is read (pushing a list's members all at once would touch a million positions before
        # the count stopped at the limit).
        stack = [(iter((geometry.get("coordinates"),)), 0)]
        while stack:
            members, depth = stack[-1]
            coords = next(members, _END)
            if coords is _END:
                stack.pop()
                continue
            if not isinstance(coords, list) or depth > 4:
                return _NOT_A_DRAWING
            if coords and not isinstance(coords[0], list):  # a position
                if len(coords) not in (2, 3) or not all(
                        isinstance(v, (int, float)) and not isinstance(v, bool) and _math.isfinite(v) for v in coords):
                    return _NOT_A_DRAWING
                if not (-180 <= coords[0] <= 180 and -90 <= coords[1] <= 90):
                    return _NOT_A_DRAWING
                count += 1
                if count > limit:
                    return (f"The drawing has more than {limit:,} vertices: a parcel outline drawn on the map has "
                            "far fewer; draw it again.")
                continue
            stack.append((reversed(coords), depth + 1))
    return None


def last_polygon(all_drawings: list | None) -> dict | None:
    """The most recent polygon or rectangle among the map's drawings, as a GeoJSON Feature.

    Raises ``SloatInputError`` (:func:`drawing_problem`'s sentence) when the drawings are not well formed.
    """
    from sloat_core.errors import SloatInputError

    if (problem := drawing_problem(all_drawings)) is not None:
        raise SloatInputError(problem)
    for feature in reversed(all_drawings or []):
        geometry = (feature or {}).get("geometry") or {}
        if geometry.get("type") in ("Polygon", "MultiPolygon"):
            return feature
    return None


def drawings_signature(all_drawings: list | None) -> str | None:
    """A stable text signature of the drawings, to notice when they change (for drawings that are not well
    formed: the sentence and the identity of the list, so a hostile drawing is not written out as text)."""
    if not all_drawings:
        return None
    if (problem := drawing_problem(all_drawings)) is not None:
        return f"refused {id(all_drawings)}: {problem}"
    geometries = [(f or {}).get("geometry") for f in all_drawings]
    return json.dumps(geometries, sort_keys=True)
