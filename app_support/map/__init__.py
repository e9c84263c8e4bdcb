"""The offline folium maps: base map, constraint layers, Leaflet elements, the page maps, the slope picture."""
