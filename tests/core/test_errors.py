"""One root error: every error class the core defines derives from sloat_core.errors.SloatError."""

import importlib
import inspect
from pathlib import Path

from sloat_core.errors import SloatError, SloatInputError
from law_day import LAW_DAY

CORE = Path(__file__).resolve().parents[2] / "sloat_core"


def _errors_defined() -> list[tuple[str, str, type]]:
    """(module, name, class) for every error class a module of the core defines (not one it imports)."""
    out = []
    for path in CORE.rglob("*.py"):
        if path.name == "__main__.py":
            continue
        module = importlib.import_module(".".join(path.relative_to(CORE.parent).with_suffix("").parts)
                                         .removesuffix(".__init__"))
        out += [(module.__name__, name, cls) for name, cls in inspect.getmembers(module, inspect.isclass)
                if issubclass(cls, BaseException) and cls.__module__ == module.__name__]
    return out


def test_every_public_error_of_the_core_derives_from_the_root():
    found = [cls for _, name, cls in _errors_defined() if not name.startswith("_")]
    assert len(found) >= 7  # the input error, the root and the case store's errors
    assert [c.__name__ for c in found if not issubclass(c, SloatError)] == []


def test_the_input_error_is_still_a_value_error():
    """Callers catching ValueError (the app's forms) keep working."""
    assert issubclass(SloatInputError, ValueError)
    try:
        raise SloatInputError("The parcel has no area.")
    except SloatError as exc:
        assert str(exc) == "The parcel has no area."


def test_every_error_class_of_the_core_is_declared_in_the_errors_module():
    """One errors module: the store, the terrain and the manifest's where filter import theirs from it."""
    import sloat_core.errors as errors

    declared = {name for name, cls in inspect.getmembers(errors, inspect.isclass)
                if issubclass(cls, BaseException) and cls.__module__ == errors.__name__}
    assert {"ParametersError", "ManifestError", "WhereFilterError", "DemUnitsError", "CaseStoreError",
            "CaseFolderError", "CaseNotFound", "CaseConflictError", "CaseArchivedError", "StaffRequired"} <= declared
    elsewhere = [f"{module}.{name}" for module, name, _ in _errors_defined() if module != errors.__name__]
    assert elsewhere == []


def test_a_broken_parameters_file_raises_the_parameters_error(tmp_path):
    """Named kinds under the input error: callers catching SloatInputError (or ValueError) still catch it."""
    from sloat_core.errors import ParametersError
    from sloat_core.law import params

    path = tmp_path / "parameters.yaml"
    path.write_text("version: test\nparameters: 5\n", encoding="utf-8")
    try:
        params.load_params(path, LAW_DAY)
    except SloatInputError as exc:
        assert isinstance(exc, ParametersError) and isinstance(exc, ValueError)
        assert str(exc) == "The parameters file parameters.yaml has no “parameters” mapping."
    else:
        raise AssertionError("a parameters file without a parameters mapping was accepted")


def test_a_broken_layer_manifest_raises_the_manifest_error(tmp_path):
    """The manifest reader raises its named kind; its sentence is the one it always gave."""
    from sloat_core.errors import ManifestError
    from sloat_core.gis.layers import load_manifest

    path = tmp_path / "layers.yaml"
    path.write_text("layers:\n  marsh:\n    path: x.geojson\n", encoding="utf-8")
    try:
        load_manifest(path)
    except SloatInputError as exc:
        assert isinstance(exc, ManifestError) and isinstance(exc, ValueError)
        assert str(exc).startswith("In the layer manifest layers.yaml") and "the role 'marsh' is not one of" in str(exc)
    else:
        raise AssertionError("a manifest with an unknown role was accepted")
    missing = tmp_path / "none.yaml"
    try:
        load_manifest(missing)
    except ManifestError as exc:
        assert str(exc) == f"The layer manifest {missing} was not found."
    else:
        raise AssertionError("a missing manifest was accepted")


def test_the_store_and_staff_errors_keep_their_places_and_words():
    from sloat_core import store
    from sloat_core.errors import ARCHIVED_SENTENCE, CaseArchivedError, CaseStoreError, StaffRequired

    assert store.CaseArchivedError is CaseArchivedError and store.StaffRequired is StaffRequired
    assert str(CaseArchivedError()) == ARCHIVED_SENTENCE and issubclass(CaseArchivedError, CaseStoreError)
    assert issubclass(StaffRequired, PermissionError) and issubclass(StaffRequired, SloatError)
