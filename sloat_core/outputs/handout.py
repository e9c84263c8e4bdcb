"""The one-page plain handout a resident takes home from the counter.

One Letter page, always, with nothing under 9 pt: the lot (address, SBL, district), the map
with the lot lines (the report's own :func:`sloat_core.outputs.report.map_png`), the answer card of :func:`sloat_core.engine.answer.lot_answer`
("What this means for your lot") with the approvals around Article IX that apply in its next steps
(:func:`approval_steps`), the map's key as text, whom to ask, and the disclaimer. It is written once, as HTML
(:func:`handout_html`): the web page, and the PDF WeasyPrint lays out from it as PDF/UA-1 (:mod:`sloat_core.outputs.pdf`:
headings, paragraphs, lists, the map's alternative text). Plain words only: the technical table stays in the
pre-application summary (:mod:`sloat_core.outputs.report`).

The page is bounded: the body type is tried at 10, 9.5 and 9 pt with every item, each laid out by WeasyPrint; when
even 9 pt does not hold them, each list shows at most :data:`CAPS` items in turn (5, 4, 3, 2, then 1) and says, in plain words,
how many more there are and where to find them ("and 3 more: see the full summary, or ask the Building
Department"). The verdict with the land that counts against the minimum, the first and the last of the next steps
and whom to ask are never left out. At the last cap the page holds the longest of every list
(tests/outputs/test_documents_handout.py builds that case by hand).

The web page (:func:`handout_html` with its defaults) holds every item at 10 pt: on screen nothing is shortened.

The CLI makes it with ``python -m sloat_core report PARCEL --layers M [--project P] --plain --out F.pdf`` (or
``F.html``: the web page).
"""

from __future__ import annotations

import base64
import datetime as dt
from pathlib import Path

from sloat_core.engine.answer import LOT_LIMITS_HEADING, lot_answer
from sloat_core.engine.result import ParcelResult, parcel_result
from sloat_core.outputs import html_docs as H
from sloat_core.outputs.report.map import map_and_legend
from sloat_core.outputs.report.reading import map_alt
from sloat_core.outputs.report.text import _date_text, _shorten

__all__ = ["CAPS", "HANDOUT_TITLE", "MIN_PT", "SIZES_PT", "approval_steps", "bounded_sections",
           "fitted_handout", "handout_html", "handout_pdf_bytes", "handout_steps", "write_handout"]

HANDOUT_TITLE = "What this means for your lot"
_FOOTER = "Village of Sloatsburg · Article IX · screening estimate, not a decision"
#: The smallest type on the handout, body, disclaimer and footer alike: never below it; the
#: lists are shortened instead (:data:`CAPS`).
MIN_PT = 9.0
#: The body sizes tried with every item shown, largest first; the first that keeps the handout on one page is used.
SIZES_PT = (10.0, 9.5, MIN_PT)
#: When 9 pt with every item does not hold one page: the most items each list shows, tried in turn at 9 pt. The
#: next steps keep their first and last step besides; whom to ask is never shortened.
CAPS = (5, 4, 3, 2, 1)
#: The longest address printed whole (a parcel layer's address field is anyone's text); a longer one is cut
#: with an ellipsis, the tax parcel number after it being the lot's name.
ADDRESS_CHARS = 80
#: Where the items a list leaves out are (plain words, on the page).
MORE_WHERE = "see the full summary, or ask the Building Department"


def _plain_reason(text: str) -> str:
    text = str(text or "").strip().rstrip(".")
    return text[:1].lower() + text[1:]


def approval_steps(r: ParcelResult) -> tuple[list[str], list[str]]:
    """The approvals around Article IX that apply (the analysis's ``approvals``) as plain next steps:
    those to ask before applying (the State and the Army Corps), and those that come with the application (the
    SEQR class, the county referral, the Village Law time limits). Article IX's own permits are in the answer
    card's steps already (:func:`sloat_core.engine.answer.lot_answer`)."""
    before, during = [], []
    clocks = []
    for group in r.approvals:
        for item in group.items:
            if item.get("law") == "Article IX":
                continue
            iid, clause = item.get("id"), item.get("clause") or item.get("law") or ""
            if iid in ("state_wetlands", "federal_wetlands"):
                law = str(clause).split(";")[0].strip()
                if item.get("status") == "unknown":
                    before.append(f"ask {item.get('authority') or 'the agency'} whether its wetland permit applies "
                                  f"({law}; the map here cannot tell)")
                else:
                    before.append(f"{_plain_reason(item.get('name'))} ({law})")
            elif iid == "seqr":
                if item.get("status") == "unknown":
                    during.append("With the application, the Planning Board decides which state environmental "
                                  "review (SEQR) the project needs; it depends on what the project is (6 NYCRR 617).")
                else:
                    during.append(f"With the application, the Planning Board sorts the project for the state "
                                  f"environmental review (SEQR): {item.get('status')} ({clause}).")
            elif iid == "county_referral":
                lead = "The Village must send" if item.get("status") == "required" else \
                    "If the application is a site plan, special permit, variance or subdivision, the Village must send"
                during.append(f"{lead} it to the Rockland County Department of Planning, which has 30 days to answer "
                              f"({clause}).")
            elif item.get("status") == "clock":
                clocks.append(str(clause).split("(")[0].strip())
    if before:  # the State and the Army Corps: one step
        before = ["Before applying, " + "; and ".join(b[:1].lower() + b[1:] for b in before) + "."]
    if clocks:
        limits = (f"State law sets the Planning Board's time limits ({', '.join(dict.fromkeys(clocks))}); the "
                  f"Village Clerk gives the dates once the application is complete.")
        if during and during[-1].endswith("to answer " + during[-1].rsplit("to answer ", 1)[-1]):
            during[-1] = f"{during[-1]} {limits}"  # the county's 30 days and the Board's limits: one step
        else:
            during.append(limits)
    return before, during


def handout_steps(r: ParcelResult, next_steps: list[str]) -> list[str]:
    """The answer card's next steps with the approvals that apply put in their usual place: what to ask the
    State and the Army Corps after the first step, the SEQR class, the county referral and the time limits
    before the last (the building permit)."""
    before, during = approval_steps(r)
    steps = list(next_steps)
    if not steps:
        return before + during
    head, last = steps[:1], steps[1:]
    tail = last[-1:] if last else []
    middle = last[:-1] if last else []
    return head + before + middle + during + tail


def bounded_sections(answer, steps: list[str], cap: int | None, *,
                     own_steps: list[str] | None = None) -> list[tuple[str, list[tuple[str, str]], bool]]:
    """The answer's sections (:meth:`LotAnswer.sections`) as the handout prints them: each item with its mark
    (a bullet, a step's number, or none for the line that counts what is left out), each list at most ``cap``
    items (``None``: all).

    A list over the cap shows its first ``cap`` items and then "…and K more: see the full summary, or ask the
    Building Department"; the land that does not count keeps its largest pieces. The next steps keep their first step (this lot's district and minimum, to confirm) and
    their last (the building permit) besides ``cap`` steps between; between, the answer's own steps
    (``own_steps``: the studies to commission, the permits to apply for) come before the approvals around
    Article IX, and the steps shown keep their order. Whom to ask is never shortened.

    >>> from sloat_core.engine.answer import LotAnswer
    >>> a = LotAnswer(verdict="likely", house="", in_the_way=[], next_steps=[], village_confirms=["a", "b", "c"])
    >>> for heading, items, _ in bounded_sections(a, ["1st", "x", "y", "last"], 1)[1:3]:
    ...     print(heading, *(f"{mark} {text}".strip() for mark, text in items), sep=chr(10) + "  ")
    Next steps, in the usual order
      1. 1st
      2. x
      …and 1 more step: see the full summary, or ask the Building Department.
      3. last
    What the Village must confirm
      • a
      …and 2 more: see the full summary, or ask the Building Department.
    """
    out = []
    for title, items, numbered in answer.sections(steps):
        if numbered:
            out.append((title, _bounded_steps(items, cap, own_steps or []), True))
            continue
        shown = items if cap is None or title == "Whom to ask" or len(items) <= cap else items[:cap]
        smaller = ""
        if title == LOT_LIMITS_HEADING and len(shown) < len(items):  # the most land kept, in the rows' order
            largest = set(answer.largest_limits[:cap])
            shown, smaller = [x for x in items if x in largest] or shown, ", each smaller"
        marked = [("•", item) for item in shown]
        if len(shown) < len(items):
            marked.append(("", _more(len(items) - len(shown), smaller)))
        out.append((title, marked, False))
    return out


def _more(k: int, what: str = "") -> str:
    return f"…and {k} more{what}: {MORE_WHERE}."


def _bounded_steps(steps: list[str], cap: int | None, own: list[str]) -> list[tuple[str, str]]:
    middle = steps[1:-1]
    if cap is None or len(middle) <= cap:
        keep = set(range(len(steps)))
    else:
        ranked = sorted(range(1, len(steps) - 1), key=lambda i: (steps[i] not in own, i))
        keep = {0, len(steps) - 1, *ranked[:cap]}
    out, n, left_out = [], 0, len(steps) - len(keep)
    for i, step in enumerate(steps):
        if i == len(steps) - 1 and left_out:
            out.append(("", _more(left_out, " step" if left_out == 1 else " steps")))
        if i in keep:
            n += 1
            out.append((f"{n}.", step))
    return out


#: The map's column: the map, then its key, at the left of the page (mm); the answer runs beside it.
MAP_MM = 66.0


def handout_html(analysis, layerset, *, as_of: dt.date | None = None, size: float = SIZES_PT[0],
                 cap: int | None = None, figure=None) -> str:
    """The plain handout ("What this means for your lot") as one HTML page: the web page, and the source of the PDF.

    ``size`` is the body type in pt when printed (never under :data:`MIN_PT`), ``cap`` the most items each list
    shows (``None``: all, :func:`bounded_sections`); ``figure`` the map and its key as
    :func:`sloat_core.outputs.report.map.map_and_legend` returns them (drawn here without it)."""
    as_of = as_of or dt.date.today()
    size = max(MIN_PT, float(size))
    small = max(MIN_PT, size - 1)
    r = parcel_result(analysis.result)
    answer = lot_answer(r)
    png, _ratio, legend = figure or map_and_legend(analysis, layerset, width_in=2.9)
    parcel = r.parcel
    address = _shorten(parcel.address or "", ADDRESS_CHARS)
    sbl = f"tax parcel {parcel.sbl}" if parcel.sbl else None
    where = " · ".join(b for b in (address, sbl, f"zoning district {r.district}" if r.district else None) if b)
    b = [f"<h1>{H.esc(HANDOUT_TITLE)}</h1>", H.p(where or "The lot you drew or brought", "where")]
    if r.layers_illustrative:
        b.append(H.p("ILLUSTRATIVE SAMPLE MAPS, NOT OFFICIAL DATA", "notice"))
    # The map's column (floated left when printed): the map, then its key as text, one entry a line.
    b.append(f'<figure class="side">{H.img(png, map_alt(r))}</figure>')
    b.append('<h2 class="side">Map key</h2>')
    b.append('<ul class="key side">' + "".join(
        f'<li><span class="swatch" style="background-image: url(data:image/png;base64,'
        f'{base64.b64encode(swatch).decode("ascii")})"></span> {H.esc(label)}</li>' for label, swatch in legend)
        + "</ul>")
    b.append(f'<p class="house"><strong>{H.esc(answer.house)}</strong></p>')
    gross, net = r.gross_area_sqft or 0.0, r.net_lot_area_sqft or 0.0
    b.append(H.p(f"Your whole lot: about {gross:,.0f} sq ft. Land that counts toward the lot size: about {net:,.0f} "
                 f"sq ft." + _yield_sentence(r)))
    for heading, items, numbered in bounded_sections(answer, handout_steps(r, answer.next_steps), cap,
                                                     own_steps=answer.next_steps):
        b.append(f"<h2>{H.esc(heading)}</h2>")
        b.append(_list(items, numbered))
    b.append(H.p(answer.note + " Rules: Sloatsburg Code ch. 402, Article IX (" + ", ".join(answer.citations) + ").",
                 "note"))
    b.append(H.p(f"Village of Sloatsburg · {_date_text(as_of)} · screening estimate, not a decision", "note"))
    return H.page(HANDOUT_TITLE, b, print_css=_print_css(size, small), margin_pt=MIN_PT,
                  header_left=" · ".join(x for x in (sbl and sbl[:1].upper() + sbl[1:], _shorten(address, 50)) if x),
                  header_right=_date_text(as_of), footer_left=_FOOTER)


def _list(items: list[tuple[str, str]], numbered: bool) -> str:
    """A section's items as a list: numbered steps as ``<ol>`` (each ``<li>`` its step's number, the line that
    counts the steps left out unnumbered), the others as ``<ul>`` (the line that counts what is left out
    unmarked)."""
    tag = "ol" if numbered else "ul"
    out = []
    for mark, text in items:
        if not mark:
            out.append(f'<li class="more">{H.esc(text)}</li>')
        elif numbered:
            out.append(f'<li value="{H.esc(mark.rstrip("."))}">{H.esc(text)}</li>')
        else:
            out.append(f"<li>{H.esc(text)}</li>")
    return f"<{tag}>" + "".join(out) + f"</{tag}>"


def _print_css(size: float, small: float) -> str:
    """The handout's print rules at body type ``size`` (pt): the map's column at the left, the answer beside it."""
    return f"""
  body {{ font-size: {size:g}pt; line-height: 1.22; }}
  h1 {{ font-size: {size + 6:g}pt; margin: 0 0 1mm; }}
  h2 {{ font-size: {size + 0.5:g}pt; margin: 1.6mm 0 0.4mm; border: 0; }}
  p {{ margin: 0 0 1mm; }}
  .where {{ font-size: {size + 1:g}pt; }}
  .notice {{ font-size: {small:g}pt; border: 1px solid #000; background: #ebebeb; padding: 0.6mm 1mm; margin: 1mm 0; }}
  .side {{ float: left; clear: left; width: {MAP_MM:g}mm; margin: 0 5mm 0 0; }}
  figure.side {{ margin: 1mm 5mm 1.5mm 0; }} figure.side img {{ width: {MAP_MM:g}mm; display: block; }}
  h2.side {{ font-size: {small:g}pt; margin: 0; }}
  ul.key {{ font-size: {small:g}pt; margin: 0 5mm 2mm 0; padding: 0; }}
  ul.key li {{ margin: 0 0 0.6mm; padding-left: 9.5mm; text-indent: -9.5mm; }}
  .swatch {{ width: 8mm; height: 4.5mm; margin-right: 1.2mm; border: 0; }}
  ul, ol {{ margin: 0; padding: 0; list-style-position: inside; }}
  li {{ margin: 0; padding-left: 4mm; text-indent: -4mm; }} ol > li {{ padding-left: 5mm; text-indent: -5mm; }}
  li.more {{ list-style: none; }}
  .house {{ margin-top: 1mm; }}
  .note {{ font-size: {small:g}pt; font-style: italic; clear: both; margin-top: 1.5mm; }}
  .note + .note {{ margin-top: 0; }}
"""


def _yield_sentence(r: ParcelResult) -> str:
    """The conventional yield (§ 402-48E, per district § 402-48I) in one sentence, a range kept a range."""
    from sloat_core.rules.sections.s402_48_cluster.cluster import yield_phrase

    cite = r.yield_citation or "§ 402-48E"
    text = f" Lots it could be divided into, as a first estimate: {yield_phrase(r)} ({cite}; the Planning Board decides)."
    if r.conventional_yield_status == "unknown":
        text = f" How many lots it could be divided into is not known yet ({cite})."
    return text


def fitted_handout(analysis, layerset, *, as_of: dt.date | None = None):
    """The handout laid out on one page (:class:`sloat_core.outputs.pdf.Rendered`: its HTML and its PDF).

    The body type is tried at each of :data:`SIZES_PT` (10 pt down to 9 pt) with every item until the page
    holds them; when even 9 pt does not, each list is shortened to each of :data:`CAPS` in turn, the items
    left out counted on the page (:func:`bounded_sections`). Nothing on it is smaller than :data:`MIN_PT`.
    """
    from sloat_core.outputs.pdf import render

    as_of = as_of or dt.date.today()
    figure = map_and_legend(analysis, layerset, width_in=2.9)
    rendered = None
    for size, cap in [*((size, None) for size in SIZES_PT), *((MIN_PT, cap) for cap in CAPS)]:
        rendered = render(handout_html(analysis, layerset, as_of=as_of, size=size, cap=cap, figure=figure))
        if rendered.pages == 1:
            break
    return rendered


def handout_pdf_bytes(analysis, layerset, *, as_of: dt.date | None = None) -> bytes:
    """The plain handout as PDF/UA-1 bytes: one page (:func:`fitted_handout`).

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis
        From ``analyze_parcel``.
    layerset : LayerSet or None
        For the map's context (lot lines around, water, overlays).
    as_of : datetime.date, optional
        The date printed; default today.
    """
    return fitted_handout(analysis, layerset, as_of=as_of).pdf()


def write_handout(analysis, layerset, out_path, *, as_of: dt.date | None = None) -> Path:
    """Write the handout to ``out_path`` (atomically): its PDF, or its web page when the name ends in ``.html``
    (or ``.htm``); returns the path."""
    from sloat_core.outputs.pdf import write_atomic

    if Path(out_path).suffix.lower() in (".html", ".htm"):
        return write_atomic(out_path, handout_html(analysis, layerset, as_of=as_of))
    return write_atomic(out_path, handout_pdf_bytes(analysis, layerset, as_of=as_of))
