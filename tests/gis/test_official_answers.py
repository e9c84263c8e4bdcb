"""``fetch-official`` on the services' answers as they come (recorded in tests/fixtures/official; no network):

- zero features is a valid answer: an empty layer with its coverage, and a note;
- a service's own error payload reaches the user with its code, message, service and query;
- one source failing does not lose the others: the layer set is written without that role (unknown),
  and the command exits 3 naming what is missing;
- every fetched layer carries a coverage as its publisher cuts it (FIRM panels, NWI project areas,
  WBD HUC-12s, the county; the fetch area for the statewide NYSDEC map);
- the NWI MapServer's table-qualified field names are read by the nwi schema;
- the live path's error handling: pygeoogc's ZeroMatchedError is an empty answer unless it carries the service's
  error message, a ServiceError is the service's message, anything else the connection sentence;
- an ArcGIS error payload in place of features is the service's error, asked live of a real HTTP server on
  127.0.0.1 as when replayed: never "0 features".
"""

from __future__ import annotations

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import geopandas as gpd
import pytest
import shapely
import yaml

from real_data import RECORDED, cli_json, fetch_replayed
from sloat_core.errors import SloatInputError
from sloat_core.gis.layers import load_manifest
from sloat_core.gis.official import (SOURCES, LiveServices, RecordedServices, ServiceAnswerError, SourceUnavailable,
                                     fetch_official)
from sloat_core.gis.official.services import _service_call

PUBLISHED = RECORDED / "published"
EMPTY = {"type": "FeatureCollection", "features": []}


def recorded(tmp_path, **replace):
    """A copy of the recorded answers with some replaced: key -> a dict (written as JSON), a file name in
    published/, or None (the answer is missing)."""
    folder = tmp_path / "recorded"
    shutil.copytree(RECORDED, folder, ignore=shutil.ignore_patterns("published"))
    for key, what in replace.items():
        target = folder / f"{key}.geojson"
        if what is None:
            target.unlink()
        elif isinstance(what, dict):
            target.write_text(json.dumps(what), encoding="utf-8")
        else:
            shutil.copy(PUBLISHED / what, target)
    return folder


def fetch(tmp_path, folder):
    out = tmp_path / "out"
    return out, fetch_replayed(out, folder)


def test_every_layer_is_written_with_the_coverage_its_publisher_cuts(tmp_path):
    out, done = fetch(tmp_path, RECORDED)
    assert done.returncode == 0, done.stderr
    doc = yaml.safe_load((out / "layers.yaml").read_text(encoding="utf-8"))
    layers = doc["layers"]
    assert layers["floodplain"]["coverage"] == {"path": "nfhl.gpkg", "layer": "S_FIRM_PAN"}
    assert layers["wetlands"][0]["coverage"] == {"path": "nwi_project_areas.gpkg", "layer": "project_areas"}
    assert layers["watercourses"]["coverage"] == layers["water_bodies"]["coverage"] == {"path": "wbd.gpkg",
                                                                                       "layer": "huc12"}
    assert layers["nysdec_wetlands"]["coverage"] == {"path": "fetch_area.gpkg"}
    ls = load_manifest(out / "layers.yaml")
    assert ls.warnings == ()
    for role in ("floodplain", "wetlands", "watercourses", "water_bodies"):
        assert ls.coverage_state(role).startswith("coverage declared"), role
    hucs = gpd.read_file(out / "wbd.gpkg", layer="huc12")
    assert list(hucs["huc12"]) == ["020301030101", "020301030102"]


def test_land_outside_the_watersheds_returned_is_unknown_for_streams(tmp_path):
    doc = json.loads((RECORDED / "wbd_huc12.geojson").read_text(encoding="utf-8"))
    doc["features"] = doc["features"][:1]  # only the west HUC-12 answered
    out, done = fetch(tmp_path, recorded(tmp_path, wbd_huc12=doc))
    assert done.returncode == 0, done.stderr
    ls = load_manifest(out / "layers.yaml")
    v = ls.village_boundary
    east = v.bounds[2] - 400
    lot = shapely.box(east - 200, v.centroid.y - 100, east, v.centroid.y + 100)
    path = tmp_path / "east.geojson"
    gpd.GeoDataFrame(geometry=[lot], crs=2260).to_crs(4326).to_file(path)
    res = cli_json("analyze", str(path), "--layers", str(out / "layers.yaml"), "--json")
    rows = {d["constraint"]: d for d in res["deductions"]}
    assert rows["watercourses"]["status"] == rows["water_bodies"]["status"] == "unknown"


def test_zero_features_is_an_empty_layer_with_its_coverage_and_a_note(tmp_path):
    folder = recorded(tmp_path, nfhl_zones=EMPTY, nfhl_panels=EMPTY, nfhl_availability=EMPTY)
    out, done = fetch(tmp_path, folder)
    assert done.returncode == 0, done.stderr
    assert "no FIRM panel here" in done.stderr
    doc = yaml.safe_load((out / "layers.yaml").read_text(encoding="utf-8"))
    assert doc["layers"]["floodplain"]["coverage"] == {"path": "nfhl.gpkg", "layer": "S_FIRM_PAN"}
    assert "returned no features" in doc["layers"]["floodplain"]["query"]
    ls = load_manifest(out / "layers.yaml")
    assert len(ls.get("floodplain")) == 0 and ls.coverage("floodplain").is_empty
    res = cli_json("analyze", str(_lot_in_village(tmp_path, ls)), "--layers",
                   str(out / "layers.yaml"), "--json")
    row = {d["constraint"]: d for d in res["deductions"]}["floodplain"]
    assert row["status"] == "unknown"  # nothing mapped: unknown, never "none"


def _lot_in_village(tmp_path, ls):
    c = ls.village_boundary.centroid
    path = tmp_path / "lot.geojson"
    gpd.GeoDataFrame(geometry=[shapely.box(c.x, c.y, c.x + 200, c.y + 200)], crs=2260).to_crs(4326).to_file(path)
    return path


def test_a_service_error_names_its_code_message_service_and_query_and_the_rest_is_written(tmp_path):
    folder = recorded(tmp_path, nwi="arcgis_error.json")
    out, done = fetch(tmp_path, folder)
    assert done.returncode == 3
    err = done.stderr
    assert "Missing: wetlands:" in err
    line = next(x for x in err.splitlines() if x.startswith("Missing: wetlands"))
    assert "code 400" in line and "Unable to complete operation" in line and "Invalid query parameters" in line
    assert "Wetlands/MapServer/0" in line and "query?geometry=<fetch area>" in line
    assert "check the internet connection" not in line
    doc = yaml.safe_load((out / "layers.yaml").read_text(encoding="utf-8"))
    assert "wetlands" not in doc["layers"]  # missing, hence unknown
    assert {"floodplain", "watercourses", "water_bodies", "village_boundary"} <= set(doc["layers"])
    assert "MISSING (unknown): wetlands" in (out / "layers.yaml").read_text(encoding="utf-8")
    ls = load_manifest(out / "layers.yaml")
    assert ls.get("wetlands") is None and ls.get("floodplain") is not None


def test_a_source_that_cannot_be_reached_is_missing_and_the_others_are_written(tmp_path):
    out, done = fetch(tmp_path, recorded(tmp_path, nhd_flowlines=None))
    assert done.returncode == 3
    assert "Missing: watercourses and water bodies:" in done.stderr
    assert "1 source(s) could not be fetched" in done.stderr
    doc = yaml.safe_load((out / "layers.yaml").read_text(encoding="utf-8"))
    assert "watercourses" not in doc["layers"] and "floodplain" in doc["layers"] and "dem" in doc


def test_nwi_answer_with_table_qualified_fields_analyzes(tmp_path):
    out, done = fetch(tmp_path, recorded(tmp_path, nwi="nwi_qualified.geojson"))
    assert done.returncode == 0, done.stderr
    ls = load_manifest(out / "layers.yaml")
    assert ls.warnings == ()
    assert len(ls.get("wetlands")) > 0
    res = cli_json("analyze", str(_lot_in_village(tmp_path, ls)), "--layers", str(out / "layers.yaml"), "--json")
    assert {d["constraint"]: d for d in res["deductions"]}["wetlands"]["status"] == "known"


def test_an_esri_json_answer_with_qualified_fields_in_web_mercator_is_read_as_published(tmp_path):
    folder = recorded(tmp_path, nwi=None)
    shutil.copy(PUBLISHED / "nwi_esri.json", folder / "nwi.json")  # f=json, as the MapServer answers
    out, done = fetch(tmp_path, folder)
    assert done.returncode == 0, done.stderr
    ls = load_manifest(out / "layers.yaml")
    plain = fetch(tmp_path / "p", RECORDED)[0]
    ref = load_manifest(plain / "layers.yaml")
    for role in ("wetlands", "water_bodies"):
        a = sum(g.area for g in ls.get(role).geoms)
        b = sum(g.area for g in ref.get(role).geoms)
        assert a == pytest.approx(b, rel=1e-4), role  # 1 cm vertex rounding in Web Mercator


# ------------------------------------------------------------------------------ the live path's errors


class ZeroMatchedError(ValueError):
    """Named as pygeoogc names it (the wrapper matches the client's exception by class name)."""


class ServiceError(Exception):
    pass


class _Client:
    _asked = ("", "")

    @_service_call("USFWS NWI layer")
    def zero(self):
        self._asked = ("https://www.fws.gov/wetlandsmapservice/rest/services/Wetlands/MapServer/0", "q=1")
        raise ZeroMatchedError("Service returned no features.")

    @_service_call("USFWS NWI layer")
    def error(self):
        self._asked = ("https://www.fws.gov/wetlandsmapservice/rest/services/Wetlands/MapServer/0", "q=1")
        raise ServiceError("Service returned the following error message:\nURL: x\nERROR: {'code': 498, "
                           "'message': 'Invalid Token'}")

    @_service_call("USFWS NWI layer")
    def error_as_zero(self):  # pygeoogc's oids_bygeom on an {"error": ...} payload
        self._asked = ("https://www.fws.gov/wetlandsmapservice/rest/services/Wetlands/MapServer/0", "q=1")
        raise ZeroMatchedError("Service returned no features with the following error message:\n"
                               "Unable to complete operation.")

    @_service_call("USFWS NWI layer")
    def no_match(self):  # pygeoogc's oids_bygeom on an answer of no object ids
        self._asked = ("https://www.fws.gov/wetlandsmapservice/rest/services/Wetlands/MapServer/0", "q=1")
        raise ZeroMatchedError("Service returned no features with the following error message:\nNo matched records")

    @_service_call("USFWS NWI layer")
    def offline(self):
        raise OSError("Cannot connect to host www.fws.gov:443")


def test_live_zero_match_is_an_empty_answer_and_errors_are_told_apart():
    d = _Client().zero()
    assert len(d.gdf) == 0 and "returned no features" in d.query
    with pytest.raises(ServiceAnswerError, match=r"code 498: Invalid Token\); service https://www.fws.gov"):
        _Client().error()
    with pytest.raises(SourceUnavailable, match="check the internet connection"):
        _Client().offline()


def test_a_no_features_answer_that_carries_the_service_s_error_is_that_error():
    """pygeoogc says "no features" for an error payload too, with the service's message: that is the error."""
    with pytest.raises(ServiceAnswerError, match=r"\(Unable to complete operation\.\); service https://www.fws.gov"):
        _Client().error_as_zero()
    d = _Client().no_match()
    assert len(d.gdf) == 0 and "returned no features" in d.query


#: The payload an ArcGIS REST service sends, with HTTP 200, in place of features.
ARCGIS_ERROR = {"error": {"code": 400, "message": "Unable to complete operation."}}
#: The ArcGIS REST layers fetch-official asks (NWI and its project areas, NYSDEC, tax parcels, NYSDOT roads).
ARCGIS_ROLES = ("wetlands", "NYSDEC wetland map", "parcels", "state_county_roads")


@pytest.fixture()
def erring_service():
    """A real HTTP server on 127.0.0.1 answering every request with the ArcGIS error payload (HTTP 200), as a
    layer of a MapServer does when it cannot complete a query; it records the paths asked."""
    asked: list[tuple[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            asked.append((self.command, self.path))
            body = json.dumps(ARCGIS_ERROR).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args) -> None:  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", asked
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class _ArcGISAskedLive(RecordedServices):
    """The recorded answers, but every ArcGIS REST layer asked live (``LiveServices.arcgis``, its HTTP and its
    reading) of the same layer path on another host."""

    def __init__(self, folder, host: str) -> None:
        super().__init__(folder)
        self.host = host

    def arcgis(self, url, geom):
        return LiveServices.arcgis(self, self.host + "/" + url.split("/", 3)[3], geom)


def _missing_by_role(report) -> dict[str, str]:
    return dict(m.split(": ", 1) for m in report.missing)


def test_an_arcgis_error_payload_stops_each_source_with_the_service_s_words_live_and_replayed(tmp_path, erring_service):
    host, asked = erring_service
    live = fetch_official(tmp_path / "live", services=_ArcGISAskedLive(RECORDED, host))
    assert asked and all(method == "POST" and path.endswith("/query") for method, path in asked), asked
    replayed_folder = recorded(tmp_path, nwi=ARCGIS_ERROR, nwi_projects=ARCGIS_ERROR, nysdec_wetlands=ARCGIS_ERROR,
                               parcels=ARCGIS_ERROR, nysdot_ris=ARCGIS_ERROR)
    replayed = fetch_official(tmp_path / "replayed", services=RecordedServices(replayed_folder))
    by_key = {s.key: s for s in SOURCES}
    for report, where in ((live, host), (replayed, "https://")):
        missing = _missing_by_role(report)
        assert set(ARCGIS_ROLES) <= set(missing), report.missing
        for role in ARCGIS_ROLES:
            sentence = missing[role]
            assert "answered with an error (code 400: Unable to complete operation.); service " + where in sentence
            assert sentence.count(". ") == 0 and sentence.endswith(".") and "0 feature" not in sentence, sentence
        assert "service returned no features" not in json.dumps(report.notes)
        # never "0 features": no count for the failed layers, and no layer written in their place
        assert not {"nwi", "nwi_projects", "nysdec_wetlands", "parcels", "nysdot_ris"} & set(report.counts)
        doc = yaml.safe_load(report.manifest.read_text(encoding="utf-8"))
        assert not {"wetlands", "nysdec_wetlands", "parcels", "state_county_roads"} & set(doc["layers"])
    # the live answer names its source as the replayed one does
    assert _missing_by_role(live)["wetlands"].startswith(f"The {by_key['nwi'].title} service answered")
    assert _missing_by_role(replayed)["wetlands"].startswith(f"The {by_key['nwi'].title} service answered")


def test_fetch_official_says_the_service_s_message_and_no_feature_count(tmp_path):
    """The command's own words for the payload in place of NWI's features: the role is missing with the service's
    message, and no "nwi: 0" count line."""
    out, done = fetch(tmp_path, recorded(tmp_path, nwi=ARCGIS_ERROR))
    assert done.returncode == 3
    lines = done.stderr.splitlines()
    said = [x for x in lines if x.startswith("Missing: wetlands: ")]
    assert len(said) == 1 and "(code 400: Unable to complete operation.)" in said[0], lines
    assert not any(x.startswith(("nwi:", "nwi_projects:")) for x in lines), lines


def test_the_recorded_error_payload_is_refused_as_the_service_said(tmp_path):
    folder = recorded(tmp_path, parcels="arcgis_error.json")
    with pytest.raises(SloatInputError, match="code 400: Unable to complete operation: Invalid query parameters"):
        RecordedServices(folder).arcgis(
            "https://gisservices.its.ny.gov/arcgis/rest/services/NYS_Tax_Parcels_Public/MapServer/1", None)
    report = fetch_official(tmp_path / "o", services=RecordedServices(folder))
    assert any(m.startswith("parcels:") for m in report.missing)
