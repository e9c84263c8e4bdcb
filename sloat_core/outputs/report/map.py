"""The report's static map: the parcel, its constraint pieces and their context, drawn offline with matplotlib.

Printing in black and white: every constraint on the map has its own hatch pattern *and* grey level and is
named in the legend, which sits in a strip below the map; a scale bar and a north arrow go on the map.
The styles come from the role declarations (:mod:`sloat_core.gis.roles`).
"""

from __future__ import annotations

import datetime as dt
import functools
import io
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the Agg backend)
import shapely  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import PathPatch, Patch, Rectangle  # noqa: E402
from matplotlib.path import Path as MplPath  # noqa: E402
from shapely.geometry import box  # noqa: E402

from sloat_core.gis.roles import ROLE_DECLARATIONS, style  # noqa: E402
from sloat_core.law.params import fill  # noqa: E402
from sloat_core.measure.rows import ROW_IDS, ROW_SPECS  # noqa: E402

#: Map style per deduction constraint: grey level of the fill and hatch pattern (distinct in B/W), from
#: the role declarations (sloat_core.gis.roles) and the derived rows' styles (buffer, slope classes).
PIECE_STYLES: dict[str, dict[str, str]] = {
    c: {"face": style(c).face, "hatch": style(c).hatch} for c in ROW_IDS
}


def _map_label(constraint: str, on: dt.date) -> str:
    """Short legend name of a deduction row, declared with the row (its law numbers filled in from the parameters
    as in effect ``on`` the analysis's date)."""
    return ROW_SPECS[constraint].legend_text(on)


#: Context outside the parcel: the same patterns, lighter (the roles whose land is deducted).
_CONTEXT_ROLES = tuple(r.id for r in ROLE_DECLARATIONS if r.deduction is not None)
#: Overlays drawn as dashed boundaries when they reach the map.
_OVERLAY_STYLES = {r.id: (r.legend, r.dash) for r in ROLE_DECLARATIONS
                   if r.kind == "overlay" and not r.drawn_filled}


def _path(geom) -> MplPath | None:
    """A matplotlib path for a (multi)polygon, holes included."""
    polys = [g for g in shapely.get_parts(geom) if g.geom_type == "Polygon" and not g.is_empty]
    if not polys:
        return None
    paths = []
    for p in polys:
        for ring in [p.exterior, *p.interiors]:
            coords = list(ring.coords)
            codes = [MplPath.MOVETO] + [MplPath.LINETO] * (len(coords) - 2) + [MplPath.CLOSEPOLY]
            paths.append(MplPath(coords, codes))
    return MplPath.make_compound_path(*paths)


def _draw(ax, geom, **kw) -> bool:
    if geom is None or geom.is_empty:
        return False
    path = _path(geom)
    if path is None:
        return False
    ax.add_patch(PathPatch(path, **kw))
    return True


def _nice_length(span_ft: float) -> float:
    target = span_ft / 4
    for n in (5000, 2500, 2000, 1000, 500, 250, 200, 100, 50, 25, 20, 10, 5):
        if n <= target:
            return float(n)
    return 5.0


def _scale_bar(ax, x0, y0, length, height):
    half = length / 2
    ax.add_patch(Rectangle((x0, y0), half, height, facecolor="black", edgecolor="black", lw=0.6, zorder=20))
    ax.add_patch(Rectangle((x0 + half, y0), half, height, facecolor="white", edgecolor="black", lw=0.6, zorder=20))
    for x, label in ((x0, "0"), (x0 + half, f"{half:g}"), (x0 + length, f"{length:g} ft")):
        ax.text(x, y0 + height * 1.6, label, ha="center", va="bottom", fontsize=6, zorder=21,
                bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.3, "alpha": 0.85})


def _north_arrow(ax):
    ax.annotate("", xy=(0.93, 0.97), xytext=(0.93, 0.84), xycoords="axes fraction",
                arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.2}, zorder=22)
    ax.text(0.93, 0.80, "N", transform=ax.transAxes, ha="center", va="top", fontsize=8, fontweight="bold",
            zorder=22, bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5, "alpha": 0.85})


def _view_box(parcel, aspect: float = 1.0):
    minx, miny, maxx, maxy = parcel.bounds
    w, h = maxx - minx, maxy - miny
    pad = max(0.25 * max(w, h), 60.0)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = max(w, h) / 2 + pad
    return box(cx - half * aspect, cy - half, cx + half * aspect, cy + half)


def map_png(analysis, layerset, *, width_in: float = 4.2, dpi: int = 200) -> tuple[bytes, float]:
    """The static map with its legend strip below, as PNG bytes, and its height/width ratio (see :func:`_map`)."""
    png, ratio, _ = _map(analysis, layerset, width_in=width_in, dpi=dpi, legend=True)
    return png, ratio


def map_and_legend(analysis, layerset, *, width_in: float = 3.2, dpi: int = 200):
    """The static map without its legend strip, its height/width ratio, and the legend as ``(label, swatch PNG)``
    pairs, for a document that writes the legend as text (the handout: never cut, read by a screen reader)."""
    return _map(analysis, layerset, width_in=width_in, dpi=dpi, legend=False)


def _swatch_png(handle, dpi: int = 200) -> bytes:
    """A legend entry's key (its line or its hatched patch) alone, as a small PNG (0.32 by 0.18 inch).

    A handful of styles serve every map: each is drawn once per process (:func:`_swatch_drawn`, keyed by what the
    drawing reads: the handle's style and the hatch settings in effect), not once per legend entry of every map."""
    if isinstance(handle, Line2D):
        look = ("line", _hashable(handle.get_color()), float(handle.get_linewidth()), handle.get_linestyle())
    else:
        look = ("patch", _hashable(handle.get_facecolor()), _hashable(handle.get_edgecolor()), handle.get_hatch())
    rc = tuple(_hashable(plt.rcParams[k]) for k in ("hatch.linewidth", "hatch.color", "savefig.transparent"))
    return _swatch_drawn(look, rc, dpi)


def _hashable(value):
    """A colour (or setting) as a hashable key: sequences as tuples."""
    return tuple(value) if isinstance(value, (list, tuple)) or hasattr(value, "tolist") else value


@functools.lru_cache(maxsize=64)
def _swatch_drawn(look: tuple, rc: tuple, dpi: int) -> bytes:
    """The swatch of :func:`_swatch_png` for a style ``look``, drawn under the hatch settings ``rc``."""
    hatch_lw, hatch_colour, transparent = rc
    with plt.rc_context({"hatch.linewidth": hatch_lw, "hatch.color": hatch_colour,
                         "savefig.transparent": transparent}):
        return _swatch_figure(look, dpi)


def _swatch_figure(look: tuple, dpi: int) -> bytes:
    fig = plt.figure(figsize=(0.32, 0.18), dpi=dpi)
    ax = fig.add_axes((0.04, 0.08, 0.92, 0.84))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")
    if look[0] == "line":
        _, colour, width, linestyle = look
        ax.plot([0.05, 0.95], [0.5, 0.5], color=colour, lw=width, linestyle=linestyle)
    else:
        _, face, edge, hatch = look
        ax.add_patch(Rectangle((0.05, 0.08), 0.9, 0.84, facecolor=face, edgecolor=edge, hatch=hatch, lw=0.5))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
    plt.close(fig)
    return buf.getvalue()


def _map(analysis, layerset, *, width_in: float, dpi: int, legend: bool):
    """The static map as PNG bytes, and its height/width ratio.

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis
    layerset : LayerSet or None
        For the context drawn around the parcel (nearby resources, tax parcels, overlay boundaries).
    width_in : float
        Figure width in inches.
    dpi : int
    legend : bool
        With the legend strip below the map; without it, the legend entries are returned as
        ``(label, swatch PNG)`` pairs instead.

    Returns
    -------
    (bytes, float, list)
        The PNG, its height/width ratio, the legend entries (empty when the legend is drawn).
    """
    parcel = analysis.parcel
    on = analysis.result.as_of  # the legend's law numbers: those the analysis applied
    view = _view_box(parcel)
    handles: list[Any] = []
    with plt.rc_context({"hatch.linewidth": 0.5, "font.family": "DejaVu Sans"}):
        fig = plt.figure(figsize=(width_in, width_in), dpi=dpi)
        ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
        ax.set_facecolor("white")

        def context(role):
            layer = layerset.get(role) if layerset is not None else None
            if layer is None:
                return None
            hits = layer.query(view)
            if len(hits) == 0:
                return None
            return shapely.union_all(shapely.intersection(hits.geometry.values, view))

        tax = context("parcels")
        if tax is not None:
            edges = shapely.intersection(tax.boundary, view)
            for line in shapely.get_parts(edges):
                if line.geom_type in ("LineString", "LinearRing"):
                    xs, ys = line.xy
                    ax.plot(xs, ys, color="0.55", lw=0.5, zorder=1)
            handles.append(Line2D([], [], color="0.55", lw=0.6, label="Tax parcel lines"))
        drew_context = False
        for role in _CONTEXT_ROLES:
            geom = context(role)
            if geom is None:
                continue
            outside = geom.difference(parcel)
            st = PIECE_STYLES[role]
            drew_context |= _draw(ax, outside, facecolor="white", edgecolor="0.6", hatch=st["hatch"], lw=0.4,
                                  zorder=2)
        overlay_handles = []
        for role, (label, dash) in _OVERLAY_STYLES.items():
            geom = context(role)
            if geom is None or geom.is_empty:
                continue
            edges = shapely.intersection(geom.boundary, view.buffer(-1))
            drawn = False
            for line in shapely.get_parts(edges):
                if line.geom_type in ("LineString", "LinearRing") and line.length > 0:
                    xs, ys = line.xy
                    ax.plot(xs, ys, color="black", lw=0.8, linestyle=dash, zorder=6)
                    drawn = True
            covers = geom.covers(parcel)
            if drawn or covers:
                text = fill(label, on) + (" (covers the parcel)" if covers else "")
                overlay_handles.append(Line2D([], [], color="black", lw=0.8, linestyle=dash, label=text))

        for row in analysis.lot.rows:
            if row.geometry is None or row.geometry.is_empty or not row.area_sqft:
                continue
            st = PIECE_STYLES.get(row.constraint, {"face": "0.8", "hatch": "//"})
            _draw(ax, row.geometry, facecolor=st["face"], edgecolor="black", hatch=st["hatch"], lw=0.3, zorder=4)
            short = _map_label(row.constraint, on)
            handles.append(Patch(facecolor=st["face"], edgecolor="black", hatch=st["hatch"],
                                 label=f"{short}: counts {row.countable_fraction:.0%}"))
        _draw(ax, parcel, facecolor="none", edgecolor="black", lw=2.0, zorder=8)
        handles.insert(0, Line2D([], [], color="black", lw=2.0, label="Parcel (gross area)"))
        if drew_context:
            handles.append(Patch(facecolor="white", edgecolor="0.6", hatch="...",
                                 label="Same patterns, lighter: outside the parcel"))
        handles.extend(overlay_handles)

        minx, miny, maxx, maxy = view.bounds
        ax.set_xlim(minx, maxx)
        ax.set_ylim(miny, maxy)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        for spine in ax.spines.values():
            spine.set_linewidth(0.6)
        span = maxx - minx
        length = _nice_length(span)
        _scale_bar(ax, minx + span * 0.04, miny + span * 0.04, length, span * 0.012)
        _north_arrow(ax)

        if not legend:
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
            plt.close(fig)
            return buf.getvalue(), 1.0, [(h.get_label(), _swatch_png(h, dpi)) for h in handles]
        # The legend sits below the map in its own strip.
        rows = (len(handles) + 1) // 2
        legend_h = 0.13 + 0.16 * rows
        total_h = width_in + legend_h
        fig.set_size_inches(width_in, total_h)
        ax.set_position((0.01, legend_h / total_h, 0.98, width_in / total_h * 0.98))
        fig.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 0.0), ncol=2, fontsize=6,
                   frameon=False, handlelength=2.2, handleheight=1.1, columnspacing=1.0, borderaxespad=0.3)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
        plt.close(fig)
    return buf.getvalue(), total_h / width_in, []

