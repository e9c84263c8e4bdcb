"""AppTest: the Proposed project page gathers the approval facts and shows every approval, by who decides."""

from __future__ import annotations

import sys
from pathlib import Path
from unittest import mock

from shapely.geometry import box
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import app_fixtures as fx  # noqa: E402

from app_support.frame import state  # noqa: E402
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.gis.layers import load_manifest  # noqa: E402

APP = str(Path(__file__).resolve().parents[2] / "app.py")
FOOTPRINT = box(fx.X0 + 25, fx.Y0 + 50, fx.X0 + 125, fx.Y0 + 150)


def _page(manifest):
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state[state.PARCEL] = parcel_input.parcel_by_sbl(load_manifest(manifest), fx.P1_SBL)
    fake = mock.MagicMock(return_value={"all_drawings": [fx.wgs84_feature(FOOTPRINT)]})
    with fx.map_answers(fake):
        at.switch_page("pages/project.py").run()
    assert not at.exception, at.exception
    return at, fake


def _text(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [i.value for i in at.info]
                     + [c.value for c in at.caption]).replace("\\", "")


def test_the_project_page_lists_the_approvals_by_who_decides_and_the_seqr_question(manifest):
    at, _ = _page(manifest)
    assert "All approvals, by who decides" in [h.value for h in at.subheader]
    text = _text(at)
    assert "SEQR: unknown" in text and "To settle the SEQR class:" in text
    assert "County referral" in text  # unknown here: the test layers have no village boundary or roads
    labels = [e.label for e in at.expander]
    assert any(label.startswith("Planning Board (") for label in labels)
    assert "The state and federal rules used (dated settings)" in labels
    assert "**62** (Village Law § 7-728(5)(d), from 2026-11-29) — to confirm with the Village" in _text(at)


def test_choosing_a_garage_makes_the_project_type_ii_and_keeps_the_fact(manifest):
    at, fake = _page(manifest)
    at.selectbox(key="appr_accessory").select("garage")
    with fx.map_answers(fake):
        at.run()
    assert not at.exception, at.exception
    assert "SEQR: Type II (6 NYCRR 617.5(c)(12))" in _text(at)
    assert at.session_state[state.PROJECT]["accessory_structure"] == "garage"


def test_the_500_ft_band_of_a_referral_trigger_is_drawn_on_the_project_map(manifest):
    import geopandas as gpd

    park = gpd.GeoDataFrame({"NAME": ["Harriman State Park"]}, geometry=[box(fx.X0 + 300, fx.Y0, fx.X0 + 600, fx.Y0 + 200)],
                            crs="EPSG:2260")
    park.to_file(manifest.parent / "parkland.gpkg", layer="parkland", driver="GPKG")
    with manifest.open("a", encoding="utf-8") as fh:
        fh.write("  parkland: {path: parkland.gpkg, layer: parkland}\n")
    at, fake = _page(manifest)
    names = [getattr(g, "layer_name", "") for g in fake.call_args.kwargs["feature_group_to_add"]]
    assert "County referral: 500-ft bands (GML § 239-m)" in names
    assert "Harriman State Park" in _text(at)


def test_the_dates_given_put_the_village_law_clocks_on_the_page(manifest):
    import datetime as dt

    at, fake = _page(manifest)
    at.selectbox(key="pf_application_type").select("subdivision")
    at.date_input(key="appr_application_complete_date").set_value(dt.date(2026, 9, 2))
    with fx.map_answers(fake):
        at.run()
    assert not at.exception, at.exception
    assert at.session_state[state.PROJECT]["application_complete_date"] == "2026-09-02"
    text = _text(at)
    # day 62 is election day, Tuesday 3 November 2026: the hearing may be held on Wednesday 4 November
    assert "2026-11-03: Last day for the Planning Board's public hearing on the plat" in text
    assert "Wednesday 4 November 2026" in text


def test_the_timeline_page_carries_the_project_s_village_law_and_county_dates(manifest):
    """The Village Law clocks and the county's 30 days are on the timeline, the Timeline page's too
    (its table and .ics), from the dates given on the Proposed project page, as of the timeline's day."""
    import datetime as dt

    at, fake = _page(manifest)
    at.selectbox(key="pf_application_type").select("subdivision")
    at.date_input(key="appr_application_complete_date").set_value(dt.date(2026, 9, 2))
    at.date_input(key="appr_county_received_date").set_value(dt.date(2026, 10, 16))
    with fx.map_answers(fake):
        at.run()
    assert not at.exception, at.exception
    at.switch_page("pages/timeline.py").run()
    at.date_input(key="tl_as_of").set_value(dt.date(2026, 11, 10)).run()
    assert not at.exception, at.exception
    frame = at.dataframe[0].value
    mine = frame[frame["Item"] == "Your project (state law)"].set_index("Date")
    # day 62 after the complete plat is election day, Tuesday 3 November 2026 (passed on 10 November)
    assert mine.loc["2026-11-03", "§"] == "Village Law § 7-728(5)(d)"
    assert "Wednesday 4 November 2026" in mine.loc["2026-11-03", "How it is worked out"]
    # the county's 30 days from Friday 16 October end on Sunday 15 November (a plat: § 239-n, to confirm)
    assert mine.loc["2026-11-15", "§"] == "GML § 239-n(4)(b)"
    assert mine.loc["2026-11-15", "Status"] != mine.loc["2026-11-03", "Status"]
    assert "Your project (state law)" in " ".join(c.value for c in at.caption)


def test_the_project_s_state_law_dates_go_into_the_timeline_s_calendar_with_the_items():
    import datetime as dt

    from app_support.views import timeline_view
    from sloat_core.outputs.ics import to_ics

    day = dt.date(2026, 9, 1)
    mine = timeline_view.project_clock_events({"application_type": "site_plan", "hearing_closed_date": "2026-10-25"},
                                              day)
    items = [{"id": "wetland_permit", "issued": "2026-03-02"}]
    rows, events, _, _ = timeline_view.timeline_rows(items, day, mine)
    assert [r["date"] for r in rows if r["item"] == timeline_view.PROJECT_CLOCKS_ITEM] == [dt.date(2026, 12, 26)]
    assert "site-plan-decision-deadline" in {e.id for e in events} and len(events) > 1
    assert "Village Law § 7-725-a" in to_ics(events, calendar_name="t")
    bare_rows, bare, _, _ = timeline_view.timeline_rows(items, day)
    assert len(bare) == len(events) - 1 and len(bare_rows) == len(rows) - 1
    assert timeline_view.project_clock_events({"application_type": "site_plan", "lots": "many"}, day) == []
