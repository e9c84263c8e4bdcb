"""The one-page plain handout a resident takes home from the counter.

One Letter page, always, with nothing under 9 pt: the lot (address, SBL, district), the map
with the lot lines (the report's own :func:`sloat_core.outputs.report.map_png`), the answer card of :func:`sloat_core.engine.answer.lot_answer`
("What this means for your lot") with the approvals around Article IX that apply in its next steps
(:func:`approval_steps`), the map's key as text, whom to ask, and the disclaimer. It is tagged
(headings, paragraphs, lists, the map's alternative text: :mod:`sloat_core.outputs.tagging`). Plain words only: the
technical table stays in the pre-application summary (:mod:`sloat_core.outputs.report`).

The page is bounded by construction: the body type is tried at 10, 9.5 and 9 pt with every item; when even 9 pt
does not hold them, each list shows at most :data:`CAPS` items in turn (5, 4, 3, 2, then 1) and says, in plain words,
how many more there are and where to find them ("and 3 more: see the full summary, or ask the Building
Department"). The verdict with the land that counts against the minimum, the first and the last of the next steps
and whom to ask are never left out. At the last cap the page holds the longest of every list
(tests/outputs/test_documents_handout.py builds that case by hand).

The CLI makes it with ``python -m sloat_core report PARCEL --layers M [--project P] --plain --out F.pdf``.
"""

from __future__ import annotations

import datetime as dt
import io
from pathlib import Path

from fpdf.enums import XPos, YPos

from sloat_core.engine.answer import LOT_LIMITS_HEADING, lot_answer
from sloat_core.outputs.report import _FONT, _date_text, _new_pdf, _plain
from sloat_core.outputs.report.map import map_and_legend
from sloat_core.outputs.report.reading import map_alt
from sloat_core.outputs.report.text import _shorten
from sloat_core.outputs.tagging import set_document

__all__ = ["CAPS", "HANDOUT_TITLE", "MIN_PT", "SIZES_PT", "approval_steps", "bounded_sections",
           "handout_pdf_bytes", "handout_steps", "write_handout"]

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


def approval_steps(r: dict) -> tuple[list[str], list[str]]:
    """The approvals around Article IX that apply (the analysis's ``approvals``) as plain next steps:
    those to ask before applying (the State and the Army Corps), and those that come with the application (the
    SEQR class, the county referral, the Village Law time limits). Article IX's own permits are in the answer
    card's steps already (:func:`sloat_core.engine.answer.lot_answer`)."""
    before, during = [], []
    clocks = []
    for group in r.get("approvals") or []:
        for item in group.get("items") or []:
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


def handout_steps(r: dict, next_steps: list[str]) -> list[str]:
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


def _build(analysis, layerset, *, as_of: dt.date, size: float, figure, cap: int | None = None) -> object:
    r = analysis.result
    answer = lot_answer(r)
    small = max(MIN_PT, size - 1)
    pdf = _new_pdf()
    set_document(pdf, HANDOUT_TITLE)
    pdf.footer_size = MIN_PT
    pdf.footer_text = f"{_FOOTER} · {_date_text(as_of)}"
    pdf.add_page()
    line = size * 0.43
    pdf.set_font(_FONT, "B", size + 6)
    with pdf.tag("H1"):
        pdf.cell(0, size * 0.75, HANDOUT_TITLE, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    parcel = r.get("parcel") or {}
    address = _shorten(parcel.get("address") or "", ADDRESS_CHARS)
    where = " · ".join(b for b in (address, f"tax parcel {parcel['sbl']}" if parcel.get("sbl") else None,
                                   f"zoning district {r['district']}" if r.get("district") else None) if b)
    pdf.set_font(_FONT, "", size + 1)
    with pdf.tag("P"):
        pdf.multi_cell(0, line + 0.6, _plain(where or "The lot you drew or brought"), new_x=XPos.LMARGIN,
                       new_y=YPos.NEXT)
    if r.get("layers_illustrative"):
        pdf.set_font(_FONT, "B", small)
        pdf.set_fill_color(235)
        with pdf.tag("P"):
            pdf.multi_cell(0, line, "ILLUSTRATIVE SAMPLE MAPS, NOT OFFICIAL DATA", border=1, fill=True, padding=0.8,
                           new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(1.5)

    png, ratio, legend = figure
    map_w = 66.0
    top = pdf.get_y()
    pdf.image(io.BytesIO(png), x=pdf.l_margin, y=top, w=map_w, h=map_w * ratio, alt_text=map_alt(r))
    # The legend as text under the map, one entry a line beside its key: never cut, read aloud.
    pdf.set_xy(pdf.l_margin, top + map_w * ratio + 1.5)
    pdf.set_font(_FONT, "B", small)
    with pdf.tag("H2"):
        pdf.multi_cell(map_w, line, "Map key", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.set_font(_FONT, "", small)
    key_w = 8.0
    with pdf.group("L"):
        for label, swatch in legend:
            y = pdf.get_y()
            with pdf.artifact():
                pdf.image(io.BytesIO(swatch), x=pdf.l_margin, y=y + 0.3, w=key_w, h=key_w * 0.18 / 0.32)
            pdf.set_xy(pdf.l_margin + key_w + 1.5, y)
            with pdf.tag("LI"):
                pdf.multi_cell(map_w - key_w - 1.5, small * 0.45, _plain(label), new_x=XPos.LEFT, new_y=YPos.NEXT,
                               align="L")
            pdf.set_y(pdf.get_y() + 0.6)
    below_map = pdf.get_y() + 2
    x2 = pdf.l_margin + map_w + 5
    w2 = pdf.w - pdf.r_margin - x2
    pdf.set_xy(x2, top)
    pdf.set_font(_FONT, "B", size)  # the verdict leads in bold, at the body's size (the page is tight)
    with pdf.tag("P"):
        pdf.multi_cell(w2, line + 0.2, _plain(answer.house), new_x=XPos.LEFT, new_y=YPos.NEXT, align="L")
    pdf.ln(1)
    pdf.set_x(x2)
    pdf.set_font(_FONT, "", size)
    gross, net = r.get("gross_area_sqft") or 0.0, r.get("net_lot_area_sqft") or 0.0
    with pdf.tag("P"):
        pdf.multi_cell(w2, line, _plain(f"Your whole lot: about {gross:,.0f} sq ft. Land that counts toward the lot "
                                        f"size: about {net:,.0f} sq ft." + _yield_sentence(r)), new_x=XPos.LEFT,
                       new_y=YPos.NEXT)

    def column() -> tuple[float, float]:
        """Beside the map (and its key) while there is room there, else the full width."""
        if pdf.page == 1 and pdf.get_y() < below_map:
            return x2, w2
        return pdf.l_margin, pdf.w - pdf.l_margin - pdf.r_margin

    def section(title: str, items: list[tuple[str, str]], *, numbered: bool = False) -> None:
        pdf.ln(0.9)
        x, w = column()
        pdf.set_x(x)
        pdf.set_font(_FONT, "B", size + 0.5)
        with pdf.tag("H2"):
            pdf.multi_cell(w, line + 0.4, title, new_x=XPos.LEFT, new_y=YPos.NEXT, align="L")
        pdf.set_font(_FONT, "", size)
        with pdf.group("L", attrs="<</O /List /ListNumbering /Decimal>>" if numbered else None):
            for mark, item in items:
                x, w = column()
                pdf.set_x(x)
                with pdf.tag("LI"):
                    pdf.multi_cell(w, line, _plain(f"{mark} {item}".strip()), new_x=XPos.LEFT, new_y=YPos.NEXT,
                                   align="L")

    for title, items, numbered in bounded_sections(answer, handout_steps(r, answer.next_steps), cap,
                                                   own_steps=answer.next_steps):
        section(title, items, numbered=numbered)
    if pdf.page == 1:
        pdf.set_y(max(pdf.get_y(), below_map))
    pdf.ln(1.5)
    pdf.set_font(_FONT, "I", small)
    with pdf.tag("P"):
        pdf.multi_cell(0, small * 0.45, _plain(answer.note + " Rules: Sloatsburg Code ch. 402, Article IX ("
                                               + ", ".join(answer.citations) + ")."), new_x=XPos.LMARGIN,
                       new_y=YPos.NEXT)
    return pdf


def _yield_sentence(r: dict) -> str:
    """The conventional yield (§ 402-48E, per district § 402-48I) in one sentence, a range kept a range."""
    from sloat_core.rules.sections.s402_48_cluster.cluster import yield_phrase

    if "conventional_yield" not in r:
        return ""
    cite = r.get("yield_citation") or "§ 402-48E"
    text = f" Lots it could be divided into, as a first estimate: {yield_phrase(r)} ({cite}; the Planning Board decides)."
    if r.get("conventional_yield_status") == "unknown":
        text = f" How many lots it could be divided into is not known yet ({cite})."
    return text


def handout_pdf_bytes(analysis, layerset, *, as_of: dt.date | None = None) -> bytes:
    """The plain handout as PDF bytes: one page.

    The body type is tried at each of :data:`SIZES_PT` (10 pt down to 9 pt) with every item until the page
    holds them; when even 9 pt does not, each list is shortened to each of :data:`CAPS` in turn, the items
    left out counted on the page (:func:`bounded_sections`). Nothing on it is smaller than :data:`MIN_PT`.

    Parameters
    ----------
    analysis : sloat_core.engine.analysis.Analysis
        From ``analyze_parcel``.
    layerset : LayerSet or None
        For the map's context (lot lines around, water, overlays).
    as_of : datetime.date, optional
        The date printed; default today.
    """
    as_of = as_of or dt.date.today()
    figure = map_and_legend(analysis, layerset, width_in=2.9)
    pdf = None
    for size, cap in [*((size, None) for size in SIZES_PT), *((MIN_PT, cap) for cap in CAPS)]:
        pdf = _build(analysis, layerset, as_of=as_of, size=size, figure=figure, cap=cap)
        if pdf.page_no() == 1:
            break
    return bytes(pdf.output())


def write_handout(analysis, layerset, out_path, *, as_of: dt.date | None = None) -> Path:
    """Write :func:`handout_pdf_bytes` to ``out_path`` (atomically); returns the path."""
    out = Path(out_path)
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(handout_pdf_bytes(analysis, layerset, as_of=as_of))
    tmp.replace(out)
    return out
