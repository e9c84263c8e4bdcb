"""Official layers from the official sources: one command from the services to a layer manifest.

``python -m sloat_core fetch-official --out DIR`` finds the village's boundary (Census TIGER/Line),
buffers it, asks each publisher's service for what lies inside, and writes what the app and CLI
read as they are: GeoPackages and a DEM in EPSG:2260 (elevations in US survey feet) and
``DIR/layers.yaml``, recording for each layer its source, service URL, query, download date and the
publisher's version or date.

The network is reached through the field's maintained clients (the HyRiver family and pygris), an
optional extra (``pip install -r requirements-official.txt``): :class:`LiveServices`; its ArcGIS REST
layers (NWI, NYSDEC, tax parcels, NYSDOT roads) are asked by a plain ``query`` whose answer is read as a
recorded one is (:func:`.services.arcgis_layer`), so a service's error payload is its error on both paths
(pygeoogc reports one as "no features"). Everything
after the download -- clipping, reprojection, unit conversion, the manifest -- is the same code for
:class:`RecordedServices`, which replays service responses saved in their wire format (GeoJSON as an
ArcGIS REST ``query?f=geojson`` returns it, the TIGER/Line zipped shapefile, the 3DEP GeoTIFF). The
tests run on those; no test reaches the internet.

This package is part of ``gis``: it reads and writes map files and never imports the rules.

Its modules:  :mod:`.place` (the Census place named), :mod:`.services` (live and recorded services),
:mod:`.convert` (reprojection, clipping, GeoPackages, the DEM in US survey feet), :mod:`.pipeline`
(``fetch_official`` and its report); the source list itself is :mod:`sloat_core.gis.official_sources`
(light: ``--help`` reads it without any map library).
"""

from __future__ import annotations

from sloat_core.errors import ServiceAnswerError, SourceUnavailable
from sloat_core.gis.official.convert import make_recorded_fixture_zip
from sloat_core.gis.official.pipeline import FetchReport, fetch_official
from sloat_core.gis.official.place import parse_place
from sloat_core.gis.official.services import Download, LiveServices, RecordedServices, arcgis_error_sentence
from sloat_core.gis.official_sources import INSTALL_HINT, M_TO_US_FT, SOURCES, Source, sources_help

__all__ = [
    "SOURCES",
    "Source",
    "FetchReport",
    "LiveServices",
    "RecordedServices",
    "INSTALL_HINT",
    "fetch_official",
    "parse_place",
    "sources_help",
    "Download",
    "M_TO_US_FT",
    "ServiceAnswerError",
    "SourceUnavailable",
    "arcgis_error_sentence",
    "make_recorded_fixture_zip",
]
