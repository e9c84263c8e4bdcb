"""App-side helpers for the Streamlit dashboard (never imported by ``sloat_core``).

Modules
-------
state      session-state keys, declared in one place, and their defaults
loaders    cached loaders (``st.cache_resource``) for the layer set, settings and analysis
theme      the one colour dictionary and the constant stylesheets of the display modes
mapping    the offline folium map: local Leaflet assets, basemaps, constraint layers, drawing
citations  § citations as URL query values and links to the Law page
results    rendering of an ``analyze()`` result: numbers, deduction table, waterfall, short lists
"""

__all__ = ["state", "loaders", "theme", "mapping", "citations", "results"]
