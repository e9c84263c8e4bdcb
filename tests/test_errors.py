"""One root error: every error class the core defines derives from sloat_core.errors.SloatError."""

import importlib
import inspect
from pathlib import Path

from sloat_core.errors import SloatError, SloatInputError

CORE = Path(__file__).resolve().parents[1] / "sloat_core"


def test_every_public_error_of_the_core_derives_from_the_root():
    found = []
    for path in CORE.rglob("*.py"):
        if path.name == "__main__.py":
            continue
        module = importlib.import_module(".".join(path.relative_to(CORE.parent).with_suffix("").parts)
                                         .removesuffix(".__init__"))
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == module.__name__ and not name.startswith("_"):
                found.append(cls)
    assert len(found) >= 7  # the input error, the root and the case store's errors
    assert [c.__name__ for c in found if not issubclass(c, SloatError)] == []


def test_the_input_error_is_still_a_value_error():
    """Callers catching ValueError (the app's forms) keep working."""
    assert issubclass(SloatInputError, ValueError)
    try:
        raise SloatInputError("The parcel has no area.")
    except SloatError as exc:
        assert str(exc) == "The parcel has no area."
