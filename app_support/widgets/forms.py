"""Input widgets of the project, cluster, mitigation and timeline pages, returning plain values.

Each function draws its widgets and returns the plain values ``sloat_core`` takes (a project dict
for :func:`sloat_core.rules.project.parse_project`, Board answers keyed ``"402-48C(4)"``, a timeline item
dict for :func:`sloat_core.rules.clocks.timeline_events`). Nothing here decides law: values are only
collected, and validated by the core.

Values outlive the page: Streamlit forgets a widget's state when its page is left, so each widget
is seeded from the stored plain value (``state.PROJECT``, ``state.BOARD_ANSWERS``, ...) before it
is drawn.

:func:`project_analysis` runs the engine on the form's values through the one door,
:mod:`app_support.analysis_door`.
"""

from __future__ import annotations

import datetime as dt
import re

import streamlit as st

from app_support import loaders
from app_support.widgets import numbers
from app_support.widgets.citations import escape_markdown
from sloat_core.errors import SloatInputError
from sloat_core.law.text import clause
from sloat_core.rules.project import APPLICATION_TYPES, EXISTING_USES, SWPPP_EXEMPTIONS
from sloat_core.rules.sections.s402_57_wetlands.activities import REGULATED_ACTIVITIES, WETLAND_EXEMPTIONS
from sloat_core.rules.sections.s402_55_steep_slopes.design import DESIGN_LIMITS
from sloat_core.rules.sections.s402_55_steep_slopes.design import DESIGN_TICK_WORDS as _DESIGN_WORDS
from sloat_core.rules.clocks import CLOCKS, ITEM_KINDS

__all__ = [
    "LAST_PROJECT_RESULT",
    "project_result_key",
    "FOOTPRINT",
    "FOOTPRINT_SEEN",
    "TIMELINE_ITEMS",
    "MITIGATION_INPUT",
    "TRI_STATE",
    "ITEM_FIELDS",
    "tri_state",
    "activity_labels",
    "activity_menu_labels",
    "exemption_labels",
    "project_form",
    "board_answer_inputs",
    "gate_inputs",
    "area_input",
    "checked_input",
    "number_problems",
    "refuse_bad_numbers",
    "BadNumbers",
    "NUMBER_PROBLEMS",
    "timeline_item_editor",
    "project_analysis",
]

# Session-state keys of these pages (beside app_support.frame.state's shared ones).
#: The last project-page result that came from valid input:
#: (``project_result_key`` of what it is for, (result dict, footprint touches dict)).
LAST_PROJECT_RESULT = "project_last_result"
#: The disturbance footprint drawn on the project page (WGS84 GeoJSON geometry), or None.
FOOTPRINT = "project_footprint"
#: Signature of the footprint drawings already taken from the map.
FOOTPRINT_SEEN = "project_footprint_seen"
#: The timeline items (list of dicts in ``timeline_events`` form).
TIMELINE_ITEMS = "timeline_items"
#: The mitigation calculator's typed values (dict).
MITIGATION_INPUT = "mitigation_input"


def project_result_key(parcel, district: str | None) -> str:
    """What a project-page result is for: the parcel and the district chosen for it ("" = from the map).

    A result kept under another key (another parcel, or the district changed since) is not shown as
    this parcel's.
    """
    return f"{loaders.parcel_key(parcel)}|{district or ''}"

#: Radio options of a yes / no / unknown answer and the values they stand for.
TRI_STATE = {"Yes": True, "No": False, "Unknown": None}

_TYPE_LABELS = {"building_permit": "Building permit", "site_plan": "Site plan", "subdivision": "Subdivision",
                "special_permit": "Special permit"}
_USE_LABELS = {"vacant": "Vacant land", "one_family": "One-family house", "two_family": "Two-family house",
               "other": "Other use"}


def _seed(key: str, stored) -> None:
    """Put a stored plain value into a widget key that Streamlit has forgotten."""
    if key not in st.session_state:
        st.session_state[key] = stored


def _tri_label(value: bool | None) -> str:
    return next(label for label, v in TRI_STATE.items() if v is value)


def tri_state(label: str, key: str, stored: bool | None = None, *, help: str | None = None) -> bool | None:
    """A yes / no / unknown radio; returns True, False or None.

    Parameters
    ----------
    label : str
        The question, in plain words.
    key : str
        Widget key.
    stored : bool or None
        The value kept from an earlier visit (seeds the widget).
    help : str, optional
        Tooltip.
    """
    _seed(key, _tri_label(stored))
    choice = st.radio(label, list(TRI_STATE), key=key, horizontal=True, help=help)
    return TRI_STATE[choice]


#: Menu words for the regulated activities of § 402-57I: short enough to be read whole in the menu and
#: its tags at 1366 px (the clause in full is the option's help and is shown under the menu once chosen).
ACTIVITY_SHORT = {1: "Building a structure", 2: "Drainage, dredging, excavation, removing material",
                  3: "Dumping, filling, depositing material", 4: "Service lines or cable conduits",
                  5: "Pollution (septic tank, sewer outfall, effluent)", 6: "Altering natural features, contours",
                  7: "Altering natural drainage patterns", 8: "Dams, docks, pilings, bridges",
                  9: "Pipes or wells", 10: "Clear cutting", 11: "Chemicals, herbicides, pesticides",
                  12: "Farming that fills, drains or excavates", 13: "Other work impairing a wetland's functions"}


def activity_labels() -> dict[int, str]:
    """The regulated activities of § 402-57I in the law's own words, whole.

    >>> activity_labels()[10]
    '(10) Clear cutting'
    """
    return {n: re.sub(r"\s+", " ", clause(f"§ 402-57I({n})")).strip().rstrip(";,.") for n in REGULATED_ACTIVITIES}


def activity_menu_labels() -> dict[int, str]:
    """Short menu words for each § 402-57I activity, with its clause number: "(3) Dumping, filling, ...".

    >>> activity_menu_labels()[10]
    '(10) Clear cutting'
    """
    return {n: f"({n}) {ACTIVITY_SHORT[n]}" for n in REGULATED_ACTIVITIES}


def exemption_labels(section: str, numbers: tuple[int, ...], max_chars: int = 70) -> dict[int, str]:
    """The exempt activities of ``section`` (§ 402-57H or § 402-58D) in the law's own words, for a menu.

    >>> exemption_labels("§ 402-58D", (6,))[6]
    '(6) Cemetery graves'
    """
    out = {}
    for n in numbers:
        text = re.sub(r"\s+", " ", clause(f"{section}({n})")).strip().rstrip(";,.")
        if len(text) > max_chars:
            text = text[:max_chars].rsplit(" ", 1)[0].rstrip(",;") + "…"
        out[n] = text
    return out


_TICKS = {"": None, "met": True, "not met": False}


def _exemptions(p: dict, out: dict) -> None:
    """Exemptions and special cases (§ 402-57F, H; § 402-53C(1), (4); § 402-58D; § 402-56D; § 402-55J)."""
    with st.expander("Exemptions and special cases"):
        h = exemption_labels("§ 402-57H", WETLAND_EXEMPTIONS)
        _seed("pf_wetland_exemptions", list(p.get("wetland_exemptions") or []))
        chosen = st.multiselect("Exempt wetland activities claimed (§ 402-57H)", list(h), key="pf_wetland_exemptions",
                                format_func=h.get)
        out["wetland_exemptions"] = sorted(chosen) if chosen else None
        d = exemption_labels("§ 402-58D", SWPPP_EXEMPTIONS)
        _seed("pf_swppp_exemptions", list(p.get("swppp_exemptions") or []))
        chosen = st.multiselect("Stormwater exemptions that may apply (§ 402-58D; the Village Engineer decides)",
                                list(d), key="pf_swppp_exemptions", format_func=d.get)
        out["swppp_exemptions"] = sorted(chosen) if chosen else None
        out["grandfathered"] = tri_state("Final approval obtained before the wetland law took effect (§ 402-57F)?",
                                         "pf_grandfathered", p.get("grandfathered"))
        out["public_agency_work"] = tri_state("Trees removed by a public agency for highway or utility work "
                                              "(§ 402-53C(1))?", "pf_public_agency", p.get("public_agency_work"))
        out["hazard_trees_only"] = tri_state("Only dead or dying trees posing an imminent hazard (§ 402-53C(4))?",
                                             "pf_hazard_trees", p.get("hazard_trees_only"))
        out["road_extension"] = tri_state("Does the project extend a road (dry sewers, § 402-56D)?",
                                          "pf_road_extension", p.get("road_extension"))
        st.markdown("**Steep slope design limits (§ 402-55J), as the engineer checks them**")
        stored = dict(p.get("design_limits") or {})
        ticks = {}
        for k in DESIGN_LIMITS:
            _seed(f"pf_design_{k}", next(w for w, v in _TICKS.items() if v is stored.get(k)))
            tick = _TICKS[st.selectbox(f"{_DESIGN_WORDS[k]} ({DESIGN_LIMITS[k]})", list(_TICKS),
                                       key=f"pf_design_{k}", format_func=lambda w: w or "Not checked")]
            if tick is not None:
                ticks[k] = tick
        out["design_limits"] = ticks or None
        _design_figures(p, out)


def _design_figures(p: dict, out: dict) -> None:
    """The engineer's figures for § 402-55J(7), (11), (13), (14), kept when the project is rebuilt."""
    from sloat_core.rules.sections.s402_55_steep_slopes.design import DESIGN_FIGURES

    st.markdown("**Steep slope design figures (§ 402-55J), as the engineer gives them**")
    stored = p.get("design_figures")
    stored = dict(stored) if isinstance(stored, (dict, list, tuple)) else {}
    figures = {}
    for k, (label, _unit) in DESIGN_FIGURES.items():
        key = f"pf_fig_{k}"
        _seed(key, stored.get(k))
        v = checked_input(label.capitalize(), key, stored.get(k), high=DESIGN_FIGURE_MAX, step=0.5,
                          unit="ft" if _unit == "ft" else "", placeholder="Not given")
        if v is not None:
            figures[k] = float(v)
    out["design_figures"] = figures or None


def _stormwater_and_trees(p: dict, out: dict) -> None:
    """§ 402-58E(2)(a) Condition A, § 402-58E(1)(d) phasing and § 402-53A specimens."""
    out["impaired_water_drainage"] = tri_state(
        "Does the runoff drain to a 303(d)-listed impaired water or a TMDL watershed (§ 402-58E(2)(a))?",
        "pf_impaired", p.get("impaired_water_drainage"),
        help="Unknown until assessed: NYSDEC's 303(d) list of impaired waters and its TMDL watersheds answer it.")
    out["disturbed_at_one_time_acres"] = _number(
        "Most acres disturbed at any one time (§ 402-58E(1)(d))", "pf_at_once", p.get("disturbed_at_one_time_acres"),
        high=ACRES_MAX, unit="acres", step=0.5)
    out["substantial_specimens_removed"] = _number(
        "Substantial tree specimens among the trees removed (§ 402-53A)", "pf_specimens",
        p.get("substantial_specimens_removed"), integer=True, high=TREES_MAX, unit="")


#: Session key: the sentences of the number fields refused on this run of the project page.
NUMBER_PROBLEMS = "project_number_problems"
#: What each kind of number field accepts: the core's limits (just above them it refuses too), and for acres a
#: round figure below the core's (1e9 sq ft is 22,956.8 acres). tests/app/test_app_pages.py checks them on the core.
AREA_MAX_SQFT = 1e9
ACRES_MAX = 20_000.0
TREES_MAX = 1_000_000
LOTS_MAX = 100_000
DESIGN_FIGURE_MAX = 100_000.0
RAINFALL_MAX_IN = 100.0
COUNT_MAX = 9_999


class BadNumbers(SloatInputError):
    """A number field of the form is out of range: its sentence is beside it, and no result is shown."""


def number_problems() -> list[str]:
    """The sentences of the number fields refused on this run (beside each field), in the form's order."""
    return list(st.session_state.get(NUMBER_PROBLEMS) or [])


def refuse_bad_numbers() -> None:
    """Raise :class:`BadNumbers` when a number field of this run is out of range (the page shows no result)."""
    if number_problems():
        raise BadNumbers("No result is shown until every number in the form is in range (see the field marked).")


def checked_input(label: str, key: str, stored, *, high: float, integer: bool = False, unit: str = "",
                  help: str | None = None, step: float | None = None, placeholder: str = "Not known"):
    """A number field of the project form from 0 to ``high``, with its sentence beside it when refused.

    Returns the value typed (None: not given). A refused value returns what was stored before (nothing
    saved is lost) and its sentence is kept for :func:`number_problems`, so the page shows no result.
    """
    value, problem = numbers.checked_number(label, key, stored, low=0, high=high, unit=unit, integer=integer,
                                            help=help, step=step, placeholder=placeholder)
    if problem:
        st.session_state[NUMBER_PROBLEMS] = [*number_problems(), problem]
        return stored
    return value


def _number(label: str, key: str, stored, *, integer: bool = False, help: str | None = None,
            high: float = AREA_MAX_SQFT, unit: str = "sq ft", step: float | None = None):
    return checked_input(label, key, stored, high=high, integer=integer, unit=unit, help=help, step=step)


def area_input(label: str, key: str, stored: float | None, *, help: str | None = None) -> float | None:
    """A square-feet input that may be left empty (None): from 0 to what the core accepts.

    A value out of range is named beside the field (:func:`checked_input`).
    """
    return _number(label, key, stored, help=help)


def project_form(stored: dict | None, *, few: bool = False) -> dict:
    """The project form: every key of ``parse_project`` except the drawn footprint.

    Parameters
    ----------
    stored : dict or None
        The project kept from an earlier visit (``state.PROJECT``).
    few : bool
        Counter mode: only the questions a resident can answer.

    Returns
    -------
    dict
        Keys of :class:`sloat_core.rules.project.Project`; a value not given is None.
    """
    p = dict(stored or {})
    out: dict = {}
    st.session_state[NUMBER_PROBLEMS] = []  # this run's refused number fields (see number_problems)
    # A selectbox reads None as "nothing chosen", so "not given" is the empty string here.
    _seed("pf_application_type", p.get("application_type") or "")
    out["application_type"] = st.selectbox(
        "Application", ["", *APPLICATION_TYPES], key="pf_application_type",
        format_func=lambda v: _TYPE_LABELS.get(v, "Not decided yet")) or None
    _seed("pf_existing_use", p.get("existing_use") or "")
    out["existing_use"] = st.selectbox(
        "Existing use of the lot", ["", *EXISTING_USES], key="pf_existing_use",
        format_func=lambda v: _USE_LABELS.get(v, "Not known")) or None
    out["new_structure"] = tri_state("A new building or structure?", "pf_new_structure", p.get("new_structure"))
    out["one_family_dwelling"] = tri_state("Is it a one-family house?", "pf_one_family",
                                           p.get("one_family_dwelling"))
    out["trees_removed"] = _number("Trees to be removed", "pf_trees", p.get("trees_removed"), integer=True,
                                   high=TREES_MAX, unit="")
    out["disturbance_area_sqft"] = _number(
        "Area to be disturbed (sq ft), if no footprint is drawn", "pf_disturbed", p.get("disturbance_area_sqft"))
    labels, words = activity_menu_labels(), activity_labels()
    _seed("pf_activities", list(p.get("activities") or []))
    chosen = st.multiselect("Work in or near a wetland, watercourse or buffer (§ 402-57I)", list(labels),
                            key="pf_activities", format_func=labels.get,
                            help="The regulated activities of § 402-57I, in the law's words:\n\n"
                                 + "\n".join(f"- {escape_markdown(w)}" for w in words.values()))
    if chosen:  # the chosen clauses in full, below the short menu words
        st.caption("\n".join(f"- {escape_markdown(words[n])}" for n in sorted(chosen)))
    out["activities"] = sorted(chosen) if chosen else None
    out["landscaping_only"] = tri_state("Only customary landscaping with minor grading?", "pf_landscaping",
                                        p.get("landscaping_only"))
    if few:
        for k in ("application_area_acres", "sanitary_facilities", "public_sewer_available",
                  "commercial_excavation", "wetland_exemptions", "swppp_exemptions", "grandfathered",
                  "public_agency_work", "hazard_trees_only", "road_extension", "design_limits", "design_figures",
                  "impaired_water_drainage", "disturbed_at_one_time_acres", "substantial_specimens_removed"):
            out[k] = p.get(k)
        return out
    acres = _number("Area of the whole application (acres)", "pf_app_acres", p.get("application_area_acres"),
                    high=ACRES_MAX, unit="acres", step=0.5)
    out["application_area_acres"] = acres
    out["sanitary_facilities"] = tri_state("New sanitary (septic or sewer) facilities?", "pf_sanitary",
                                           p.get("sanitary_facilities"))
    out["public_sewer_available"] = tri_state("Is public sewer available?", "pf_sewer",
                                              p.get("public_sewer_available"))
    out["commercial_excavation"] = tri_state("Commercial excavation (removal of soil, sand, rock for sale)?",
                                             "pf_excavation", p.get("commercial_excavation"))
    _stormwater_and_trees(p, out)
    _exemptions(p, out)
    return out


def board_answer_inputs(stored: dict | None) -> dict:
    """The Planning Board's answers to § 402-48C(4) and (5), and an override of (6).

    Returns
    -------
    dict
        ``{"402-48C(4)": bool|None, "402-48C(5)": bool|None, "402-48C(6)": bool|None}``.
    """
    s = dict(stored or {})
    questions = {
        4: "(4) Is the property listed on, or eligible for, a historic register?",
        5: "(5) Does it lie within a significant viewshed (SEQRA)?",
        6: "(6) Override: does it hold significant recreational resources?",
    }
    return {f"402-48C({n})": tri_state(text, f"board_{n}", s.get(f"402-48C({n})"),
                                       help="Unknown leaves the decision to the Planning Board.")
            for n, text in questions.items()}


def gate_inputs(stored: dict | None) -> dict:
    """The three "necessary and unavoidable" criteria of § 402-57P(1)(a)-(c) as yes / no / unknown."""
    from sloat_core.rules.sections.s402_57_wetlands.mitigation import GATE

    s = dict(stored or {})
    questions = {
        "compatible_with_public_welfare": "(a) Compatible with public health and welfare?",
        "no_onsite_alternative": "(b) No feasible on-site alternative?",
        "no_offsite_alternative": "(c) No feasible alternative on another site, off wetland and buffer?",
    }
    return {k: tri_state(questions[k], f"gate_{k}", s.get(k), help=GATE[k]) for k in GATE}


#: The fields of each timeline item kind: (key, label, "date" or "int", required), from its clock's declaration.
ITEM_FIELDS: dict[str, list[tuple[str, str, str, bool]]] = {
    c.id: [(f.key, f.label, f.kind, f.required) for f in c.fields] for c in CLOCKS}
_DATE_MIN, _DATE_MAX = dt.date(1900, 1, 1), dt.date(2199, 12, 31)


def timeline_item_editor(kind: str, *, today: dt.date, key_prefix: str = "tl") -> dict | None:
    """A form for one timeline item of ``kind``; returns the item when "Add" is pressed, else None.

    The form keeps what was typed after a press, so an item the core refuses is not lost. A number out
    of range (a year, a count of months or years, a rainfall) is named beside its field and the item is
    not added until it is right.

    Parameters
    ----------
    kind : str
        One of :data:`sloat_core.rules.clocks.ITEM_KINDS`.
    today : datetime.date
        Default for the required dates.
    key_prefix : str
        Prefix of the form's widget keys, so the same kind can have a second form on a page.
    """
    with st.form(f"{key_prefix}_form_{kind}", clear_on_submit=False, border=True):
        st.markdown(f"**Add: {ITEM_KINDS[kind]}**")
        item: dict = {"id": kind}
        problems: list[str] = []
        ref = st.text_input("Name or number (optional)", key=f"{key_prefix}_{kind}_ref", max_chars=40)
        for key, label, typ, required in ITEM_FIELDS[kind]:
            wkey = f"{key_prefix}_{kind}_{key}"
            if typ == "date":
                value = st.date_input(label + ("" if required else " (optional)"), key=wkey,
                                      value=today if required else None, min_value=_DATE_MIN,
                                      max_value=_DATE_MAX, format="YYYY-MM-DD")
            else:  # "inches" or "int": the sentence beside the field, and the item is not added
                low, high = ((0, RAINFALL_MAX_IN) if typ == "inches" else
                             (_DATE_MIN.year, _DATE_MAX.year) if key == "year" else (0, COUNT_MAX))
                value, problem = numbers.checked_number(
                    label + ("" if required else " (optional)"), wkey, None, low=low, high=high,
                    unit="inches" if typ == "inches" else "", integer=typ != "inches",
                    step=0.1 if typ == "inches" else 1, placeholder="Not given",
                    default=today.year if key == "year" else None, grouped=key != "year")
                if problem:
                    problems.append(problem)
            if value is not None:
                item[key] = (value.isoformat() if isinstance(value, dt.date)
                             else float(value) if typ == "inches" else int(value))
        if ref.strip():
            item["ref"] = ref.strip()
        pressed = st.form_submit_button("Add to the timeline", key=f"{key_prefix}_add_{kind}")
    return item if pressed and not problems else None


def project_analysis(parcel, layers, district, project: dict | None, *, board_answers: dict | None = None,
                     mitigation_input: dict | None = None, as_of: dt.date | None = None) -> tuple:
    """``sloat_core.engine.analysis.analyze_parcel`` on the form's values, through the one door
    (:mod:`app_support.analysis_door`).

    Returns
    -------
    tuple of (ParcelResult, dict)
        The typed result (frozen, shared: read it) and the areas the drawn footprint touches:
        ``footprint_sqft``, ``wetland_sqft``, ``watercourse_sqft``, ``water_body_sqft``,
        ``buffer_sqft``, ``steep_slope_sqft`` (None where the layer is missing; empty without a footprint).

    Raises
    ------
    sloat_core.errors.SloatInputError
        One plain sentence when a value cannot be used.
    """
    from app_support import analysis_door

    return analysis_door.project_result(parcel, layers, district=district, project=project,
                                        board_answers=board_answers, mitigation_input=mitigation_input,
                                        as_of=as_of)
