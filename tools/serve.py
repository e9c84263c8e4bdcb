"""Start the dashboard: ``streamlit run app.py``, with the heavy work done before the first visitor.

Streamlit runs app.py only when a browser session opens, so the first visitor would pay for importing
folium, geopandas and plotly and for reading the layer set (about 2 s here). This launcher does that
work once in the server process, fills the same process-wide ``st.cache_resource`` caches the pages
use, and then hands over to Streamlit's own command line (``streamlit run app.py ...``) in this process.

Usage: ``python tools/serve.py [streamlit run options]`` (``make run`` does this).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def warm() -> None:
    """Import what every page needs and load the layer set and settings into the shared caches."""
    sys.path.insert(0, str(ROOT))
    # Outside a script run Streamlit logs "missing ScriptRunContext" for cached calls: expected here.
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    # Libraries only: a Streamlit component (streamlit_folium) must be declared after the runtime starts,
    # or its files are not served, so it is left to the first script run.
    import folium  # noqa: F401
    import folium.plugins  # noqa: F401
    import plotly.graph_objects  # noqa: F401

    from app_support import loaders
    from sloat_core.engine import analysis  # noqa: F401  (the rules and everything they import)
    from sloat_core.errors import SloatInputError

    from app_support.theme import LAYER_LABELS

    try:
        layers = loaders.layerset()
        loaders.settings()
        for role in LAYER_LABELS:  # the map's GeoJSON, simplified for the browser (cached per layer)
            loaders.display_geojson(layers, role)
    except SloatInputError as exc:  # the app shows the same message to the first visitor
        print(f"Map layers not preloaded: {exc}", file=sys.stderr)
    logging.getLogger("streamlit").setLevel(logging.WARNING)


def main(argv: list[str]) -> None:
    warm()
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(ROOT / "app.py"), *argv]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])
