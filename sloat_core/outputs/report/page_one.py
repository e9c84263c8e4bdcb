"""The report's first page: the title, the parcel and its district, the map and beside it the key figures.

Each function draws its section onto the document at the current position and returns nothing; it reads
the analysis result (``analysis.result``, a dict), never the layers themselves.
"""

from __future__ import annotations

import datetime as dt
import io
import re

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from sloat_core.outputs.report.layout import REPORT_TITLE, _para
from sloat_core.outputs.report.reading import _verdict, map_alt
from sloat_core.outputs.report.text import _FONT, _acres, _date_text, _plain, _shorten, _sqft


def title_block(pdf: FPDF, r: dict, layerset, as_of: dt.date, illustrative: bool) -> None:
    """The title, the Article IX it screens against (§§ 402-45 to 402-59), the dates and, on sample data,
    the illustrative-sample notice in a box."""
    pdf.set_font(_FONT, "B", 17)
    with pdf.tag("H1"):
        pdf.cell(0, 8, REPORT_TITLE, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    _para(pdf, "Environmental controls of the Village of Sloatsburg Code, Chapter 402, Article IX "
               "(§§ 402-45 to 402-59)", size=9)
    _para(pdf, f"Prepared {_date_text(as_of)}  ·  analysis as of {r.get('as_of')}", size=8)
    if illustrative:
        pdf.ln(1.5)
        pdf.set_fill_color(225)
        pdf.set_line_width(0.6)
        pdf.set_font(_FONT, "B", 8.5)
        notice = str(r.get("layers_notice") or getattr(layerset, "notice", "") or "")
        notice = re.sub(r"^\s*illustrative sample,? not official( data)?[.:;]?\s*", "", notice, flags=re.I)
        with pdf.tag("P"):
            pdf.multi_cell(0, 4.2, _plain("ILLUSTRATIVE SAMPLE, NOT OFFICIAL DATA. " + _shorten(notice, 260)),
                           border=1, fill=True, align="L", padding=1.2, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_line_width(0.2)
    pdf.ln(1.5)


def parcel_and_district(pdf: FPDF, r: dict) -> None:
    """The parcel (SBL, address, where its outline came from) and its zoning district, or each district of a
    split parcel with its area."""
    parcel = r.get("parcel") or {}
    bits = []
    if parcel.get("sbl"):
        bits.append(f"SBL {parcel['sbl']}")
    if parcel.get("address"):
        bits.append(str(parcel["address"]))
    if parcel.get("source"):
        bits.append(f"outline: {_shorten(parcel['source'], 80)}")
    with pdf.tag("P"):
        pdf.set_font(_FONT, "B", 9)
        pdf.cell(18, 4.5, "Parcel:")
        pdf.set_font(_FONT, "", 9)
        pdf.multi_cell(0, 4.5, _plain(" · ".join(bits) or "outline given by the applicant"), align="L",
                       new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    districts = r.get("districts") or []
    dtext = r.get("district") or "unknown"
    if r.get("district_kind"):
        dtext += f" ({str(r['district_kind']).replace('_', ' ')} district)"
    if len(districts) > 1:
        dtext = "split: " + ", ".join(f"{d['district']} ({_sqft(d['area_sqft'])})" for d in districts)
    with pdf.tag("P"):
        pdf.set_font(_FONT, "B", 9)
        pdf.cell(18, 4.5, "District:")
        pdf.set_font(_FONT, "", 9)
        pdf.multi_cell(0, 4.5, _plain(dtext), align="L", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)


def map_and_key_figures(pdf: FPDF, r: dict, figure: tuple[bytes, float]) -> None:
    """The map (left, ``figure`` from :func:`sloat_core.outputs.report.map.map_png`) and beside it the key
    figures (right): :func:`lot_area` with its verdict, then :func:`key_features`."""
    png, ratio = figure
    map_w = 92.0
    map_h = map_w * ratio
    top = pdf.get_y()
    pdf.image(io.BytesIO(png), x=pdf.l_margin, y=top, w=map_w, h=map_h, alt_text=map_alt(r))
    x = pdf.l_margin + map_w + 5
    w = pdf.w - pdf.r_margin - x
    pdf.set_xy(x, top)
    lot_area(pdf, r, x, w)
    key_features(pdf, r, x, w)
    pdf.set_y(max(pdf.get_y(), top + map_h) + 2)


def _figure(pdf: FPDF, x: float, w: float, label: str, value: str, *, bold: bool = False, size: float = 9) -> None:
    """One key figure in the column at ``x``, ``w`` wide: a small grey label over its value."""
    pdf.set_x(x)
    pdf.set_font(_FONT, "", 7.5)
    pdf.set_text_color(70)
    with pdf.tag("P"):
        pdf.cell(w, 3.6, _plain(label), new_x=XPos.LEFT, new_y=YPos.NEXT)
        pdf.set_text_color(0)
        pdf.set_x(x)
        pdf.set_font(_FONT, "B" if bold else "", size)
        pdf.multi_cell(w, size * 0.47, _plain(value), align="L", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.ln(1.3)


def lot_area(pdf: FPDF, r: dict, x: float, w: float) -> None:
    """Gross, deducted and net lot area against the district minimum (§ 402-45A), and the verdict in a box:
    words, not colour."""
    pdf.set_font(_FONT, "B", 10.5)
    pdf.set_x(x)
    with pdf.tag("H2"):
        pdf.cell(w, 5.5, "Lot area (§ 402-45A)", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.ln(0.8)
    _figure(pdf, x, w, "Gross area", _sqft(r.get("gross_area_sqft")) + _acres(r.get("gross_area_sqft")), bold=True,
            size=10)
    _figure(pdf, x, w, "Deducted for environmental constraints", _sqft(r.get("deducted_sqft")))
    net = r.get("net_lot_area_sqft")
    net_text = _sqft(net) + _acres(net)
    if r.get("net_lot_area_min_sqft") is not None and net is not None and r["net_lot_area_min_sqft"] < net - 0.5:
        net_text += f"; at least {_sqft(r['net_lot_area_min_sqft'])} if every unknown were constrained"
    _figure(pdf, x, w, "Net lot area (counts toward the minimum)", net_text, bold=True, size=10)
    mn = r.get("min_lot_area_sqft")
    _figure(pdf, x, w, f"District minimum lot area{' (' + r['district'] + ')' if r.get('district') else ''}",
            (_sqft(mn) if mn is not None else "not set") + (" (local setting, to confirm with the Village)"
                                                           if r.get("min_lot_area_verify") else ""))
    pdf.set_x(x)
    pdf.set_line_width(0.6)
    pdf.set_font(_FONT, "B", 9.5)
    with pdf.tag("P"):
        pdf.multi_cell(w, 4.8, _plain(_verdict(r)), border=1, align="L", padding=1.5, new_x=XPos.LEFT,
                       new_y=YPos.NEXT)
    pdf.set_line_width(0.2)
    pdf.ln(2)


def key_features(pdf: FPDF, r: dict, x: float, w: float) -> None:
    """Below the lot area: the yield estimate (§ 402-48E), the per-district figures of a split parcel
    (§ 402-48I), the cluster features found (§ 402-48C) and the count of permits and reviews."""
    from sloat_core.rules.sections.s402_48_cluster.cluster import yield_phrase

    per = r.get("per_district") or []
    if "conventional_yield" in r:
        _figure(pdf, x, w, "Lots of the district minimum the net area could hold",
                f"{yield_phrase(r)} (estimate). {r.get('yield_caveat') or ''}", size=8)
    if len(per) > 1:
        _figure(pdf, x, w, "Split parcel, computed per district (§ 402-48I)",
                "; ".join(f"{p['district']}: net {_sqft(p['net_lot_area_sqft'])}"
                          + (f", {yield_phrase(p)}" if "conventional_yield" in p else "") for p in per), size=8)
    triggered = [t for t in r.get("cluster_triggers", []) if t.get("triggered") is True]
    unknown_t = [t for t in r.get("cluster_triggers", []) if t.get("triggered") is None]
    if triggered:
        ctext = ("The Planning Board may require a cluster application: "
                 + ", ".join(t["citation"].replace("§ 402-48C", "") for t in triggered) + " present.")
    elif unknown_t:
        ctext = "No feature found yet; " + str(len(unknown_t)) + " unknown."
    else:
        ctext = "None of the ten features found."
    if r.get("cluster_applies") is False:
        ctext += " (§ 402-48 does not apply to this application type or district.)"
    _figure(pdf, x, w, "Cluster features (§ 402-48C)", ctext, size=8)
    needed = [p for p in r.get("permits", []) if p.get("required") is True]
    maybe = [p for p in r.get("permits", []) if p.get("required") is None]
    _figure(pdf, x, w, "Permits and reviews", f"{len(needed)} needed, {len(maybe)} to be determined (see page 2)"
            if needed or maybe else "None found", size=8)
