"""Plan, lot by lot: a proposed plat or site plan checked against Article IX on the parcel under study.

The plan comes from a file (DXF, GeoPackage, GeoJSON, zipped shapefiles: read in the bounded worker, with the
parcel files' limits) or from lots drawn on the map. The core checks each lot from its own land
(``sloat_core.plan.check``, through the door); the page shows, in this order, the problems of the drawing, the map
(each lot labelled, its answer as a pattern and a word, over the constraint layers shown on the Parcel page's map),
the lot table, the yield check (§ 402-48E), the open space
(§ 402-48G(2)) and the lot table as a PDF, a web page (``sloat_core.outputs.plan_document``) and CSV.
"""

from __future__ import annotations

import folium
import streamlit as st
from streamlit_folium import st_folium

from app_support import loaders
from app_support.analysis_door import DISCLAIMER, PLAN_KINDS, SloatInputError, csv_safe, law_day, plan_layer_names
from app_support.frame import deep_links, state
from app_support.frame.theme import MAP_HEIGHT_PX
from app_support.inputs import plan_inputs as plans
from app_support.map import mapping, plan_drawing, plan_map
from app_support.map.parcel_map import ON_AT_START
from app_support.views import plan_documents as plan_document, plan_view, results
from app_support.widgets.citations import escape_markdown, law_link

deep_links.require()  # a deep link opened first after a bare `streamlit run` still runs in app.py's frame

mode = state.mode()
large, counter = mode == state.PROJECTOR, mode == state.COUNTER
KIND_WORDS = {"conventional": "Conventional plat (each lot meets its district's minimum)",
              "cluster": "Cluster (§ 402-48: smaller lots, open space)"}

st.title("Plan, lot by lot")
st.caption("Upload a proposed plat or site plan, or draw its lots on the map: each lot is checked against "
           "Article IX from its own land." if not counter else
           "Check each lot of a proposed plan: is it big enough once the land that does not count is left out?")
law_link("§ 402-45B", label="Article IX applies to site plans and subdivisions: § 402-45B")
parcel = state.current_parcel()
if parcel is None:
    st.info("No parcel is chosen yet: choose the parcel first, then check a plan of it here.")
    st.page_link("pages/parcel.py", label="Choose a parcel on the Parcel & constraints page")
    st.caption(DISCLAIMER)
    st.stop()
try:
    layers = loaders.layerset()
except SloatInputError as exc:
    st.error(str(exc))
    st.stop()


def _kept(widget, key: str, label: str, options: list, **kw):
    """A widget whose value outlives a visit to another page: its own key is refilled from ``key`` on every run
    (Streamlit forgets a widget's value while its page is not shown)."""
    box = f"{key}_box"
    if st.session_state.get(key) not in options:
        st.session_state[key] = options[0]
    st.session_state[box] = st.session_state[key]

    def keep() -> None:
        st.session_state[key] = st.session_state[box]

    return widget(label, options, key=box, on_change=keep, **kw)


def _layer_names_text() -> str:
    names = {}
    for name, role, _where in plan_layer_names():
        names.setdefault(role, []).append(name)
    return "; ".join(f"{role.replace('_', ' ')}: " + ", ".join(v) for role, v in names.items())


with st.expander("The plan", expanded=not large or plans.current() is None):
    how = _kept(st.radio, plans.HOW, "Where the lots come from", [plans.UPLOAD, plans.DRAW], horizontal=True)
    if how == plans.UPLOAD:
        plans.upload(plans.PLAN, "Plan file (DXF, GeoPackage, GeoJSON or zipped shapefiles)",
                     help_text="A DWG drawing cannot be read: save it as DXF first.")
        st.caption(escape_markdown("Layers read by their names (any case): " + _layer_names_text()
                                   + ". Another name: upload the file and choose its lots layer."))
    else:
        st.caption("Draw each lot on the map below with the polygon or rectangle tool: each shape is one lot, "
                   "numbered in the order drawn. Without a mouse, upload a plan file instead.")
        if st.session_state.get("plan_error"):
            st.error(escape_markdown(st.session_state["plan_error"]))
    left, right = st.columns(2)
    with left:
        kind = _kept(st.radio, plans.KIND, "Kind of plan", list(PLAN_KINDS), format_func=KIND_WORDS.get)
    with right:
        districts = getattr(loaders.settings(), "districts", None) or {}
        _kept(st.selectbox, plans.DISTRICT, "Zoning district of the lots", [""] + sorted(districts),
              format_func=lambda c: c or "From the zoning map, lot by lot",
              help="Leave it to the zoning map unless the district is known to differ.")
    if kind == "cluster":
        plans.upload(plans.CONVENTIONAL, "Conventional plat, for the yield check (optional)",
                     help_text="The conforming lots of a conventional plat of the same parcel set the number of "
                               "lots a cluster may have (§ 402-48E); without it the parcel's estimate is used.")
    plan = plans.current()
    if plan is not None:
        roles = plan.drawing.roles
        st.caption(escape_markdown(f"Plan checked: {plan.name[:80]}; {len(plan.drawing.of('lots'))} lot outline(s)"
                                   + (f" from the layer {roles['lots'][:60]}" if not plan.drawn else "") + "."))
        if st.button("Remove the plan", key="plan_remove", icon=":material/delete:"):
            plans.clear(plans.PLAN)
            st.rerun()

plan = plans.current()
found, problem = plans.checked(parcel, layers)  # the kind and district chosen above are the session's
out = found.to_dict() if found is not None else None
if problem:
    st.error(escape_markdown(problem))

st.subheader("Problems in the drawing" if not counter else "What is wrong in the drawing")
if out is not None:
    plan_view.show_problems(out)
else:
    st.info("No plan yet: upload a plan file or draw its lots on the map, above.")

st.subheader("The lots on the map")
if out is not None:
    st.markdown(escape_markdown(plan_view.summary(out, plain_words=counter)))
available = mapping.available_roles(layers)
view = plan_map.plan_view(  # the constraint layers shown on the Parcel page's map, under the lots
    parcel, layers, found, plan, shown=[r for r in st.session_state.get(state.LAYERS_SHOWN, ON_AT_START)
                                        if r in available],
    show_slope=bool(st.session_state.get(state.SLOPE_OVERLAY, True)), large=large,
    basemap=st.session_state.get(state.BASEMAP), width_px=1200 if large else 860, height_px=MAP_HEIGHT_PX[mode],
    on=law_day())
fmap = mapping.base_map(large=large)
fmap.get_root().header.add_child(folium.Element(plan_map.LABEL_CSS))
drawn = st_folium(fmap, key="plan_map", height=MAP_HEIGHT_PX[mode], use_container_width=True,
                  returned_objects=["all_drawings"], center=view.centre, zoom=view.zoom,
                  feature_group_to_add=[*view.groups, plan_drawing.drawing_layer_group(plan)],  # drawn lots: editable
                  layer_control=folium.LayerControl(collapsed=True)) or {}
if how == plans.DRAW and plans.take_drawings(drawn.get("all_drawings")):
    st.rerun()  # the drawn lots are the plan: checked and drawn again
if view.label_note:
    st.caption(escape_markdown(view.label_note))
if view.key_roles or view.key_rows:
    st.html(mapping.legend_html(view.key_roles, view.key_rows))  # as the Parcel page's key: no HTML parser fetched
results.show_layer_notice(layers)

if out is not None:
    st.subheader("Lot by lot" if not counter else "Each lot")
    plan_view.show_lot_table(found)
    with st.container(horizontal=True, wrap=True, gap="small"):  # side by side when there is room, never cut
        st.download_button(plan_document.PDF_LABEL, lambda: plan_document.pdf(found), file_name="plan-lots.pdf",
                           mime="application/pdf", key="plan_pdf", icon=":material/download:", on_click="ignore",
                           width="content")
        st.download_button(plan_document.HTML_LABEL, lambda: plan_document.web_page(found), file_name="plan-lots.html",
                           mime="text/html", key="plan_html", icon=":material/language:", on_click="ignore",
                           width="content", help="The lot table as an accessible web page.")
        st.download_button("Download the lot table (CSV)", plan_view.lots_csv(out, csv_safe),
                           file_name="plan-lots.csv", mime="text/csv", key="plan_csv", icon=":material/download:",
                           width="content")
    st.subheader("Yield (§ 402-48E)" if not counter else "How many lots")
    plan_view.show_yield(out)
    st.subheader("Open space (§ 402-48G(2))" if not counter else "Open space")
    plan_view.show_open_space(out)
    if not counter:
        st.caption(escape_markdown(f"{out['unallocated_text']} {out['unallocated_sqft']:,.0f} sq ft."))
        for warning in dict.fromkeys(plan.drawing.warnings):
            st.caption(escape_markdown(warning))
st.caption(DISCLAIMER)
