"""App-side helpers for the Streamlit dashboard (never imported by ``sloat_core``), grouped by kind.

Loose here, the two modules every page uses
-------------------------------------------
analysis_door  the one door from the app into the engine: cached analyses and answers
loaders        cached loaders (``st.cache_resource``): the layer set, settings, display geometry, parcel search

Sub-packages
------------
frame    the frame every page runs in: session state, theme and display modes, deep links, browser history,
         announcements, warm threads, element preload
map      the offline folium maps: base map and layers, Leaflet elements, templates, the page maps, slope picture
widgets  input widgets and small display helpers: forms, checked numbers, units, citations, copy link, charts
views    what a page shows of a result: the answer, deduction table, permits, project, timeline, walk-through
cases    the app's side of the case store: the session's case, staff mode, downloads and imports
inputs   ways in: a parcel searched, uploaded, drawn or picked; a footprint; the timeline's suggested items
"""

__all__ = ["analysis_door", "loaders", "frame", "map", "widgets", "views", "cases", "inputs"]
