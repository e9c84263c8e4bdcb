"""§ 402-55J(7), (11), (13), (14): the design limits, each declared once (`LIMITS`: its clause, parameter, the
form's words, the checklist's line, the figures it takes), the engineer's checklist and the engineer's figures
compared with the numbers the law states.

* J(7): a retaining wall "shall not be more than 100 linear feet" and "not be more than six feet" high: a wall
  of exactly 100 ft and 6 ft is within, anything longer or higher is not;
* J(11): a cut for a building site, road or driveway "shall not exceed 20 feet": 20 ft is within;
* J(13): cut and fill slopes "shall not exceed a slope of one vertical to two horizontal", except where retained
  or structurally stabilized as the Village Engineer accepts and the approval authority approves: the figure is
  the horizontal run per foot of rise (2 for 1V:2H); 2 is within, steeper is over the limit unless so stabilized;
* J(14): tops and bottoms of cut and fill slopes set back from structures "generally" 6 ft plus 1/2 the height of
  the cut or fill: guidance for the approval authority, not a bar (a structure designed to retain the slope is
  permitted), so a shorter setback is flagged, never refused.

A figure not given is unknown (the comparison says which figure would answer it). Numbers from the parameters.
"""

from __future__ import annotations

import datetime as _dt

import math
from dataclasses import dataclass
from typing import Callable, Protocol

from sloat_core.law.params import param, value

__all__ = ["DesignFigure", "DesignLimit", "Ticked", "LIMITS", "DESIGN_LIMITS", "DESIGN_FIGURES", "DESIGN_TICK_WORDS",
           "design_checklist", "design_comparisons", "with_figures"]


@dataclass(frozen=True)
class DesignFigure:
    """A figure the engineer types (a key of the project's ``design_figures``), its plain label and unit."""

    key: str
    label: str
    unit: str


@dataclass(frozen=True)
class DesignLimit:
    """One numeric design limit of § 402-55J, declared once: everything else (the project's keys, the checklist,
    the project form, the comparison of the figures) reads it.

    Attributes
    ----------
    id : str
        The limit's id (a key of the project's ``design_limits``: the engineer's tick).
    citation : str
        Its clause.
    parameter : str
        The parameter stating its number (``data/law/parameters.yaml``, with the clause's quote).
    tick : str
        The project form's words for the engineer's tick.
    text : callable
        The checklist's line, its numbers read from the parameters.
    figures : tuple of DesignFigure
        The figures the engineer gives for it, compared with the law's number.
    """

    id: str
    citation: str
    parameter: str
    tick: str
    text: Callable[[_dt.date], str]
    figures: tuple[DesignFigure, ...]


def _fraction(name: str, on: _dt.date) -> str:
    v = float(value(name, on))
    return {0.5: "one half of", 0.25: "one quarter of"}.get(v, f"{v:g} times")


#: The § 402-55J design limits, in the law's order.
LIMITS: tuple[DesignLimit, ...] = (
    DesignLimit("retaining_wall_length", "§ 402-55J(7)", "retaining_wall_max_length_ft",
                "Retaining walls within the length limit",
                lambda on: f"No retaining wall longer than {value('retaining_wall_max_length_ft', on)} linear feet.",
                (DesignFigure("retaining_wall_length_ft", "longest retaining wall, linear feet", "ft"),)),
    DesignLimit("retaining_wall_height", "§ 402-55J(7)", "retaining_wall_max_height_ft",
                "Retaining walls within the height limit",
                lambda on: f"No retaining wall higher than {value('retaining_wall_max_height_ft', on)} feet.",
                (DesignFigure("retaining_wall_height_ft", "highest retaining wall, feet", "ft"),)),
    DesignLimit("cut_height", "§ 402-55J(11)", "cut_max_height_ft", "Cuts within the height limit",
                lambda on: f"No cut for a building site, road or driveway higher than {value('cut_max_height_ft', on)} feet.",
                (DesignFigure("cut_height_ft", "highest cut for a building site, road or driveway, feet", "ft"),)),
    DesignLimit("cut_fill_slope", "§ 402-55J(13)", "cut_fill_max_slope_ratio", "Cut and fill slopes within the "
                "steepness limit",
                lambda on: f"Cut and fill slopes no steeper than {value('cut_fill_max_slope_ratio', on)} (vertical to "
                        "horizontal) unless structurally stabilized as the Village Engineer accepts.",
                (DesignFigure("cut_fill_slope_h_per_v", "steepest cut or fill slope, feet horizontal per foot "
                              "vertical (2 = 1V:2H)", "H:V"),)),
    DesignLimit("cut_fill_setback", "§ 402-55J(14)", "cut_fill_setback_base_ft",
                "Cuts and fills set back from structures",
                lambda on: f"Tops and bottoms of cuts and fills set back from structures, generally "
                        f"{value('cut_fill_setback_base_ft', on)} feet plus {_fraction('cut_fill_setback_height_fraction', on)} "
                        "the height of the cut or fill.",
                (DesignFigure("cut_fill_setback_ft", "setback of a structure from the top or toe of a cut or fill "
                              "slope, feet", "ft"),
                 DesignFigure("cut_fill_height_at_structure_ft", "height of that cut or fill, feet", "ft"))),
)
_BY_ID = {d.id: d for d in LIMITS}

#: The limits the engineer ticks (id -> clause): the project's ``design_limits``.
DESIGN_LIMITS: dict[str, str] = {d.id: d.citation for d in LIMITS}
#: The figures the engineer types (key -> (plain label, unit)): the project's ``design_figures``.
DESIGN_FIGURES: dict[str, tuple[str, str]] = {f.key: (f.label, f.unit) for d in LIMITS for f in d.figures}
#: The project form's words for each tick (limit id -> words).
DESIGN_TICK_WORDS: dict[str, str] = {d.id: d.tick for d in LIMITS}


class Ticked(Protocol):
    """What the checklist reads of a project (`rules.project.Project`): the engineer's ticks, by limit id."""

    design_limits: tuple[tuple[str, bool | None], ...] | None


def design_checklist(project: Ticked, on: _dt.date) -> list[dict]:
    """§ 402-55J(7), (11), (13), (14): the numeric design limits, each with the engineer's tick.

    ``met`` is the tick from the project (True / False) or None (not checked yet). Text is built from
    the parameters as in effect on ``on`` (the date the rules are applied at), never typed.

    >>> from sloat_core.rules.project import Project
    >>> [i["id"] for i in design_checklist(Project(), _dt.date(2026, 12, 1))][:2]
    ['retaining_wall_length', 'retaining_wall_height']
    """
    ticks = dict(project.design_limits or ())
    return [{"id": d.id, "citation": d.citation, "text": d.text(on), "met": ticks.get(d.id)} for d in LIMITS]


#: Comparisons of lengths in feet are made to this tolerance (typed figures, not measured ones).
_TOL = 1e-9


def _item(limit_id: str, p, figure, limit, within, text, *, binding: bool = True) -> dict:
    return {"id": limit_id, "citation": p.citation, "figure": figure, "limit": limit, "within": within,
            "binding": binding, "quote": p.quote, "text": text}


def _at_most(limit_id: str, figure: float | None, what: str, on: _dt.date) -> dict:
    p = param(_BY_ID[limit_id].parameter, on)
    limit = float(p.value)
    if figure is None:
        return _item(limit_id, p, None, limit, None,
                     f"Unknown: give the {what} to compare it with the {limit:g} ft of {p.citation}.")
    ok = figure <= limit + _TOL
    verdict = "within" if ok else "over"
    return _item(limit_id, p, figure, limit, ok,
                 f"The {what} of {figure:g} ft is {verdict} the limit of {limit:g} ft ({p.citation}).")


def design_comparisons(figures: dict | None, on: _dt.date) -> list[dict]:
    """§ 402-55J(7), (11), (13), (14): each figure against its limit as in effect on ``on`` (the date the law
    is applied at): ``within`` True / False / None.

    ``binding`` is False for J(14)'s "generally" distance (guidance for the approval authority).

    >>> day = _dt.date(2026, 12, 1)
    >>> [(c["id"], c["within"]) for c in design_comparisons({"retaining_wall_length_ft": 100}, day)][:2]
    [('retaining_wall_length', True), ('retaining_wall_height', None)]
    >>> design_comparisons({"retaining_wall_length_ft": 100.5}, day)[0]["within"]
    False
    """
    f = dict(figures or {})
    out = [
        _at_most("retaining_wall_length", f.get("retaining_wall_length_ft"), "longest retaining wall", on),
        _at_most("retaining_wall_height", f.get("retaining_wall_height_ft"), "highest retaining wall", on),
        _at_most("cut_height", f.get("cut_height_ft"), "highest cut", on),
    ]
    p = param(_BY_ID["cut_fill_slope"].parameter, on)
    ratio = float(p.value)  # rise over run
    need_h = 1.0 / ratio
    h = f.get("cut_fill_slope_h_per_v")
    if h is None:
        out.append(_item("cut_fill_slope", p, None, need_h, None,
                         f"Unknown: give the steepest cut or fill slope to compare it with 1 vertical to {need_h:g} "
                         f"horizontal ({p.citation})."))
    else:
        ok = h * ratio >= 1.0 - _TOL
        text = (f"A slope of 1 vertical to {h:g} horizontal is within 1 to {need_h:g} ({p.citation})." if ok else
                f"A slope of 1 vertical to {h:g} horizontal is steeper than 1 to {need_h:g}: allowed only where "
                f"retaining walls, structural stabilization or other methods the Village Engineer accepts and "
                f"the approval authority approves hold it ({p.citation}).")
        out.append(_item("cut_fill_slope", p, h, need_h, ok, text))
    base, share = param(_BY_ID["cut_fill_setback"].parameter, on), param("cut_fill_setback_height_fraction", on)
    setback, height = f.get("cut_fill_setback_ft"), f.get("cut_fill_height_at_structure_ft")
    if setback is None or height is None:
        missing = " and ".join(w for w, v in (("setback", setback), ("height of the cut or fill", height))
                               if v is None)
        out.append(_item("cut_fill_setback", base, setback, None, None,
                         f"Unknown: give the {missing} to compare it with the general distance of "
                         f"{float(base.value):g} ft plus {float(share.value):g} of the height ({base.citation}).",
                         binding=False))
    else:
        general = float(base.value) + float(share.value) * height
        ok = setback >= general - _TOL
        text = (f"A setback of {setback:g} ft from a {height:g} ft cut or fill meets the general distance of "
                f"{general:g} ft ({base.value:g} ft plus {float(share.value):g} of the height, {base.citation})."
                if ok else
                f"A setback of {setback:g} ft from a {height:g} ft cut or fill is less than the general distance of "
                f"{general:g} ft ({base.citation}): guidance, not a bar; the approval authority decides whether "
                "the structure is safe if the slope collapses, or whether it is designed to retain the slope.")
        out.append(_item("cut_fill_setback", base, setback, round(general, 6), ok, text, binding=False))
    for c in out:
        if c["figure"] is not None and not math.isfinite(float(c["figure"])):
            raise ValueError(f"{c['id']}: the figure is not a finite number")
    return out


def with_figures(checklist: list[dict], figures: dict | None,
                 on: _dt.date) -> tuple[list[dict], list[str]]:
    """§ 402-55J: the engineer's checklist with each limit's figure compared (the figure decides ``met`` where
    given; a tick the figure contradicts is reported), and the warnings. Items gain ``figure``, ``limit``,
    ``binding`` and ``comparison``. ``on``: the date the law is applied at."""
    by_id = {c["id"]: c for c in design_comparisons(figures, on)}
    out, warnings = [], []
    for item in checklist:
        c = by_id.get(item["id"])
        item = dict(item)
        if c is not None:
            item.update(figure=c["figure"], limit=c["limit"], binding=c["binding"], comparison=c["text"])
            if c["within"] is not None:
                if item.get("met") is not None and item["met"] != c["within"]:
                    warnings.append(f"The checklist tick for {item['citation']} ({item['id'].replace('_', ' ')}) "
                                    f"disagrees with the figure given: {c['text']} The figure is used.")
                item["met"] = c["within"]
        out.append(item)
    return out, warnings
