"""Geometry and files: areas, DEM cells, layers as published, parcels as uploaded. Knows no rule."""
