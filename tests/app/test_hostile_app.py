"""Hostile input in the app: bad uploads on the Parcel page, upload limits, XSRF, and no unsafe HTML.

The uploads go through Streamlit's own uploader widget (``AppTest.file_uploader(...).set_value``), so the
page's code path is the one a browser drives. For every bad file the page must show the core's one
sentence next to the uploader, keep the current parcel, its note and the case as they were, and write
nothing outside the app's data folder and its private temporary folders.

The source scans (``ast``) check every ``st.file_uploader`` passes ``max_upload_size`` and every
``unsafe_allow_html=True`` and every ``st.html`` (or ``components.html``, ``st.iframe``) renders only module-level
constants or the output of a reviewed HTML builder whose escaping is tested here with hostile text.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(HOSTILE))
import app_fixtures as fx  # noqa: E402
import make_hostile as mh  # noqa: E402

from app_support.frame import state, theme  # noqa: E402
from app_support.inputs.parcel_inputs import KEPT_AFTER_REFUSAL  # noqa: E402
from app_support.map import mapping  # noqa: E402
from sloat_core.gis import parcels as parcel_input  # noqa: E402
from sloat_core.errors import SloatInputError  # noqa: E402
from sloat_core.gis.safe_files import MAX_UPLOAD_BYTES  # noqa: E402

APP = str(ROOT / "app.py")
SOURCES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "app_support").rglob("*.py"))]
UPLOAD_KEY = "parcel_upload"

# ------------------------------------------------------------------------------------------------
# Writes made through Python while a test records (an audit hook cannot be removed, so it is a switch)
# ------------------------------------------------------------------------------------------------

_RECORDING: list[list[str]] = []
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _audit(event, args):
    if not _RECORDING:
        return
    path = None
    if event == "open" and len(args) >= 3:
        mode, flags = args[1], args[2]
        if (isinstance(flags, int) and flags & _WRITE_FLAGS) or (isinstance(mode, str) and any(c in mode for c in "wax+")):
            path = args[0]
    elif event in ("os.mkdir", "os.rename", "os.replace", "shutil.copyfile"):
        path = args[1] if event in ("os.rename", "os.replace", "shutil.copyfile") else args[0]
    if path is not None and not isinstance(path, int):
        try:
            _RECORDING[-1].append(os.path.abspath(os.fsdecode(os.fspath(path))))
        except (TypeError, ValueError):
            _RECORDING[-1].append(repr(path))


sys.addaudithook(_audit)


@pytest.fixture()
def app_env(tmp_path, monkeypatch):
    """Hand-built layers, a data folder and a private temporary folder, all in tmp_path."""
    layers = tmp_path / "layers"
    layers.mkdir()
    monkeypatch.setenv("SLOAT_LAYERS", str(fx.write_layerset(layers)))
    data = tmp_path / "data"
    monkeypatch.setenv("SLOAT_DATA_DIR", str(data))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp_path


def _run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def _upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key=UPLOAD_KEY).set_value((name, data, "application/octet-stream"))
    return _run(at)


def _upload_column(at: AppTest):
    """The column of the "Find or upload a parcel" expander that holds the uploader."""
    cols = at.expander[0].columns
    return next(c for c in cols if len(c.file_uploader))


def _expected_message(name: str, data: bytes) -> str:
    with pytest.raises(SloatInputError) as info:
        parcel_input.read_parcel(data, name)
    return str(info.value)


def _bad_files(folder: Path) -> list[tuple[str, bytes]]:
    files = [(n, (HOSTILE / n).read_bytes()) for n in (
        "xxe.kml", "xxe_utf16.kml", "traversal.zip", "absolute.zip", "not_a_zip.zip", "nan.geojson",
        "point.geojson", "linestring.geojson", "empty_collection.geojson", "swapped.geojson",
        "other_state.geojson", "utm_nocrs.geojson", "projected_nocrs.geojson", "png_named.geojson", "html_named.kml", "shp_no_dbf.zip")]
    files.append(("letter.json", (HOSTILE / "not_geo.txt").read_bytes()))  # the uploader's types only
    files.append(("xxe_kmz.zip", (HOSTILE / "xxe.kmz").read_bytes()))
    files.append(("liar.zip", mh.write_lying_zip_bomb(folder / "liar.zip", megabytes=50).read_bytes()))
    files.append(("bomb.zip", mh.write_zip_bomb(folder / "bomb.zip", gigabytes=0.25).read_bytes()))
    files.append(("county.geojson", mh.write_county_size(folder / "county.geojson").read_bytes()))
    files.append(("over.geojson", mh.write_many_vertices(folder / "over.geojson", 200_001).read_bytes()))
    files.append(("big.geojson", mh.write_oversize(folder / "big.geojson", MAX_UPLOAD_BYTES + 10).read_bytes()))
    files.append(("![x](x.png) [click](javascript:alert(1)) <b>.geojson", b""))
    files.append(("link.zip", mh.symlink_zip()))
    files.append(("laughs.kml", mh.entity_bomb_kml()))
    files.append(("links_only.kml", mh.network_links_only_kml()))
    return files


def _answer(at: AppTest) -> list[tuple[str, str]]:
    """Everything the page shows outside the finder (the answer, its figures, the map and its controls), in order.

    The announcer's frame is left out (it speaks only when the parcel is new) and a download button is named by
    its label (its id carries the handout's bytes' hash, made again on each run)."""
    finder = at.expander[0]
    shown: list[tuple[str, str]] = []

    def walk(node) -> None:
        if node is finder or node.type == "iframe":
            return
        children = getattr(node, "children", None)
        if children:
            for child in children.values():
                walk(child)
        else:
            shown.append((node.type, node.label if node.type == "download_button" else repr(node.proto)))

    walk(at.main)
    return shown


def test_bad_uploads_show_one_sentence_by_the_uploader_and_keep_the_parcel_and_its_answer(app_env):
    folder = app_env / "generated"
    folder.mkdir()
    bad = _bad_files(folder)
    at = _run(AppTest.from_file(APP, default_timeout=60))
    _upload(at, "hole.geojson", (HOSTILE / "hole.geojson").read_bytes())
    parcel, note = at.session_state[state.PARCEL], at.session_state[state.PARCEL_NOTE]
    assert parcel is not None and parcel.area_sqft == pytest.approx(mh.HOLE_AREA_SQFT, rel=1e-6)
    case = at.query_params.get("case")
    shown_layers = at.session_state[state.LAYERS_SHOWN]
    answer = _answer(at)
    assert any(t == "metric" for t, _ in answer)  # the figures are on screen before the bad files
    writes: list[str] = []
    _RECORDING.append(writes)
    try:
        for name, data in bad:
            expected = _expected_message(name, data)
            _upload(at, name, data)
            errors = [e.value for e in _upload_column(at).error]
            assert len(errors) == 1, (name, errors)
            shown = errors[0].replace("\\", "")  # markdown escapes, if the page adds them
            assert shown == expected, (name, shown, expected)
            assert "\n" not in shown and "Traceback" not in shown and "root:" not in shown
            assert re.search(r"(?<!\\)!\[|(?<!\\)\]\(", errors[0]) is None, errors[0]  # no markdown image/link
            # nothing changed: the same parcel object, its note, the case and the layer choice
            assert at.session_state[state.PARCEL] is parcel, name
            assert at.session_state[state.PARCEL_NOTE] == note, name
            assert at.query_params.get("case") == case, name
            assert at.session_state[state.LAYERS_SHOWN] == shown_layers, name
            # the answer on screen is exactly the one before, and the uploader says so
            assert _answer(at) == answer, name
            kept = " ".join(c.value for c in _upload_column(at).caption).replace("\\", "")
            assert f"{KEPT_AFTER_REFUSAL} ({note})." in kept, (name, kept)
    finally:
        _RECORDING.remove(writes)
    # the files' temporary copies are written by the parse worker (another process, handed this temporary
    # folder: tests/test_bounded_parse.py checks where it writes); this process writes nothing outside
    allowed = (str(app_env.resolve()), "/dev/null")
    outside = [w for w in writes if not w.startswith(allowed)]
    assert not outside, outside
    assert list((app_env / "tmp").iterdir()) == []  # private temporary folders removed


def test_a_good_upload_after_a_bad_one_replaces_the_parcel_and_clears_the_error(app_env):
    at = _run(AppTest.from_file(APP, default_timeout=60))
    _upload(at, "xxe.kml", (HOSTILE / "xxe.kml").read_bytes())
    assert at.session_state[state.PARCEL] is None
    assert [e.value for e in _upload_column(at).error]
    _upload(at, "z3d.geojson", (HOSTILE / "z3d.geojson").read_bytes())
    assert at.session_state[state.PARCEL].area_sqft == pytest.approx(mh.RECT_AREA_SQFT, rel=1e-6)
    assert [e.value for e in _upload_column(at).error] == []
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "3-D coordinates" in captions  # the repair is shown with the parcel


def test_upload_file_name_is_not_rendered_as_markdown(app_env):
    at = _run(AppTest.from_file(APP, default_timeout=60))
    name = "[click](javascript:alert(1)) ![x](x.png) lot.geojson"
    _upload(at, name, (HOSTILE / "hole.geojson").read_bytes())
    assert at.session_state[state.PARCEL] is not None
    for caption in at.caption:
        assert re.search(r"(?<!\\)!\[|(?<!\\)\]\(", caption.value) is None, caption.value


# ------------------------------------------------------------------------------------------------
# Configuration and source scans
# ------------------------------------------------------------------------------------------------


def _config() -> dict:
    return tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))


def test_streamlit_config_has_xsrf_protection_and_an_upload_limit():
    server = _config()["server"]
    assert server["enableXsrfProtection"] is True
    assert isinstance(server["maxUploadSize"], int) and 0 < server["maxUploadSize"] <= MAX_UPLOAD_BYTES // 2**20
    assert server.get("enableCORS", True) is not False  # XSRF protection needs CORS protection on


def _calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node


def _func_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")


def _module_constants(tree: ast.Module) -> dict[str, ast.AST]:
    """Module-level ``NAME = value`` assignments."""
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else [])
        for t in targets:
            if isinstance(t, ast.Name):
                out[t.id] = node.value
    return out


def _numeric(node: ast.AST, consts: dict[str, ast.AST], path: Path) -> float | None:
    """A number literal, or a module-level name whose value is one (app_support modules are imported)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.Name):
        if "app_support" in path.parts:  # importable without running a page
            import importlib

            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            value = getattr(importlib.import_module(module), node.id, None)
            return value if isinstance(value, (int, float)) else None
        if node.id in consts:
            return _numeric(consts[node.id], consts, path)
    return None


def test_every_file_uploader_passes_a_max_upload_size_within_the_server_limit():
    server_mb = _config()["server"]["maxUploadSize"]
    found = 0
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        consts = _module_constants(tree)
        for call in _calls(tree):
            if _func_name(call) != "file_uploader":
                continue
            found += 1
            kw = {k.arg: k.value for k in call.keywords}
            assert "max_upload_size" in kw, f"{path.name}:{call.lineno} has no max_upload_size"
            limit = _numeric(kw["max_upload_size"], consts, path)
            assert limit is not None and 0 < limit <= server_mb, f"{path.name}:{call.lineno}: {limit}"
    assert found >= 1  # the Parcel page's uploader at least


#: Functions that build HTML for ``unsafe_allow_html`` or ``st.html`` and were reviewed: they take no text from a user
#: or a file unescaped. Their escaping is tested below with hostile input (``print_page``, the handout's print
#: frame: tests/app/test_no_html_injection.py, test_the_print_page_holds_the_document_escaped_in_its_frame;
#: ``deduction_html``, the deduction table: tests/app/test_app_support.py,
#: test_citation_column_never_wraps_and_its_css_takes_no_text_from_the_result; ``copy_link_html``, the case
#: link's frame: tests/app/test_app_cases.py, test_a_link_with_quotes_stays_inside_its_box).
REVIEWED_HTML_BUILDERS = {"legend_html", "stylesheet", "announce_script", "print_page", "deduction_html",
                          "copy_link_html", "prefetch_html", "layers_html"}


def _is_constant_expr(node: ast.AST, consts: dict[str, ast.AST], depth: int = 0) -> bool:
    if depth > 10:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Name):
        return node.id in consts and _is_constant_expr(consts[node.id], consts, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_constant_expr(node.left, consts, depth + 1) and _is_constant_expr(node.right, consts, depth + 1)
    return False


def _is_constant_table(node: ast.AST, consts: dict[str, ast.AST]) -> bool:
    """A module-level dict whose values are all constant strings."""
    if isinstance(node, ast.Name) and node.id in consts:
        value = consts[node.id]
        return isinstance(value, ast.Dict) and all(_is_constant_expr(v, consts) for v in value.values)
    return False


def _local_assignments(func: ast.AST | None, name: str) -> list[ast.AST]:
    if func is None:
        return []
    return [n.value for n in ast.walk(func) if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]


def _html_ok(node: ast.AST, consts: dict[str, ast.AST], func: ast.AST | None) -> bool:
    if _is_constant_expr(node, consts):
        return True
    if isinstance(node, ast.Subscript) and _is_constant_table(node.value, consts):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "get" and _is_constant_table(f.value, consts):
            return all(_html_ok(a, consts, func) for a in node.args[1:])
        return _func_name(node) in REVIEWED_HTML_BUILDERS
    if isinstance(node, ast.Name) and node.id not in consts:
        values = _local_assignments(func, node.id)
        return bool(values) and all(_html_ok(v, consts, func) for v in values)
    return False


def _enclosing_functions(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    """Each node -> the innermost function definition it sits in (absent at module level)."""
    owners: dict[ast.AST, ast.AST] = {}

    def visit(node: ast.AST, fn: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if fn is not None:
                owners[child] = fn
            visit(child, child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else fn)

    visit(tree, None)
    return owners


def test_unsafe_allow_html_renders_only_constants_or_reviewed_builders():
    checked = 0
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        consts = _module_constants(tree)
        owners = _enclosing_functions(tree)
        for call in _calls(tree):
            kw = {k.arg: k.value for k in call.keywords}
            if _func_name(call) in ("html", "iframe"):
                # st.html / components.html / st.iframe take raw HTML: the rule of unsafe_allow_html below (a
                # constant, a reviewed builder's output, or a local name given only those)
                assert call.args and _html_ok(call.args[0], consts, owners.get(call)), f"{path.name}:{call.lineno}"
                checked += 1
            flag = kw.get("unsafe_allow_html")
            if flag is None or (isinstance(flag, ast.Constant) and flag.value is False):
                continue
            assert isinstance(flag, ast.Constant) and flag.value is True, f"{path.name}:{call.lineno}"
            body = call.args[0] if call.args else kw.get("body")
            assert body is not None, f"{path.name}:{call.lineno}"
            assert _html_ok(body, consts, owners.get(call)), (
                f"{path.name}:{call.lineno} passes something other than a constant to unsafe_allow_html")
            checked += 1
    assert checked >= 1


def test_the_scan_catches_a_string_from_outside():
    """The scanner itself: an f-string, a parameter or a call to an unreviewed function are flagged."""
    code = (
        "import streamlit as st\n"
        "CSS = '<style></style>'\n"
        "TABLE = {'a': '<b>a</b>', 'b': CSS}\n"
        "def ok(mode):\n    st.markdown(CSS, unsafe_allow_html=True)\n    st.markdown(TABLE.get(mode, CSS), unsafe_allow_html=True)\n"
        "def bad1(name):\n    st.markdown(f'<b>{name}</b>', unsafe_allow_html=True)\n"
        "def bad2(name):\n    st.markdown(name, unsafe_allow_html=True)\n"
        "def bad3(name):\n    html = render(name)\n    st.markdown(html, unsafe_allow_html=True)\n"
        "def ok_html(roles):\n    st.html(CSS)\n    key = legend_html(roles)\n    st.html(key)\n"
        "def bad_html(name):\n    st.html(f'<b>{name}</b>')\n    st.html(name)\n    key = render(name)\n    st.html(key)\n"
    )
    tree = ast.parse(code)
    consts = _module_constants(tree)
    owners = _enclosing_functions(tree)
    verdicts = {owners[c].name + str(c.lineno): _html_ok(c.args[0], consts, owners[c]) for c in _calls(tree)
                if any(k.arg == "unsafe_allow_html" for k in c.keywords) or _func_name(c) == "html"}
    assert [v for k, v in verdicts.items() if k.startswith("ok")] == [True, True, True, True]
    assert len([k for k in verdicts if k.startswith("bad")]) == 6
    assert not any(v for k, v in verdicts.items() if k.startswith("bad"))


def test_reviewed_builders_escape_hostile_text():
    hostile = "<script>alert(1)</script><img src=x onerror=alert(1)>"
    html_out = mapping.legend_html(["wetlands", hostile], [(hostile, "#ff0000"), ("Slope", "red;background:url(x)")])
    assert "<script" not in html_out and "<img" not in html_out and "&lt;script&gt;" in html_out
    assert "url(x)" not in html_out  # colours other than #rrggbb are dropped
    for mode in (*state.MODES, hostile):
        assert theme.stylesheet(mode) in theme._CSS.values()  # always one of the constant sheets
    from app_support.frame.announce import announce_script  # the text goes in as a JSON string, with no "<" at all
    assert "<" not in announce_script(hostile, True)[len("<script>"):-len("</script>")]
    from app_support.map.frame_prefetch import prefetch_html  # the base path goes in as a JSON string, no "<"
    assert "<" not in prefetch_html(hostile)[len("<script>"):-len("</script>")]
    from app_support.map.frame_prefetch import layers_html
    assert "<" not in layers_html([hostile], hostile)[len("<script>"):-len("</script>")]
