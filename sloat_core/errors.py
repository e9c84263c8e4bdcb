"""The project's errors: one root, :class:`SloatError`, that every error the core raises derives from.

Every message is one plain sentence a resident at the counter can understand; the CLI prints it
and exits 2, the app shows it next to the control that received the input. Catching ``SloatError``
catches them all (bad input, a case store that cannot do what was asked, a staff-only action).
Every error class of the core is declared here, under the root:

* :class:`SloatInputError` -- input that cannot be used; its named kinds: :class:`ParametersError`
  (the law's parameters file), :class:`ManifestError` (a layer manifest), :class:`WhereFilterError`
  (a manifest line's ``where`` filter), :class:`DemUnitsError` (a DEM's elevation unit),
  :class:`CaseNotFound` (a case link), :class:`SeveralShapesError` (choose the parcel among a file's
  polygons), :class:`NoLotsLayerError` (choose a plan's lots layer among the file's layers),
  :class:`ResultShapeError` (a saved analysis result whose keys are not the result's);
* :class:`CaseStoreError` -- the case database could not do what was asked (:class:`CaseFolderError`,
  :class:`CaseConflictError`, :class:`CaseArchivedError`);
* :class:`StaffRequired` -- a staff-only action without a staff unlock.

>>> issubclass(SloatInputError, SloatError) and issubclass(SloatInputError, ValueError)
True
>>> all(issubclass(c, SloatError) for c in (ParametersError, ManifestError, DemUnitsError, CaseStoreError,
...                                          CaseNotFound, StaffRequired))
True
"""

__all__ = ["SloatError", "SloatInputError", "SourceError", "ServiceAnswerError", "SourceUnavailable",
           "SeveralShapesError", "NoLotsLayerError", "ResultShapeError", "ParametersError", "ManifestError", "WhereFilterError",
           "DemUnitsError", "CaseStoreError", "CaseFolderError", "CaseNotFound", "CaseConflictError",
           "CaseArchivedError", "ARCHIVED_SENTENCE", "StaffRequired"]


class SloatError(Exception):
    """Root of every error the Sloatsburg core raises (one plain sentence)."""


class SloatInputError(SloatError, ValueError):
    """Input that cannot be used (a file, a geometry, a date, a number, a manifest line)."""


# ----------------------------------------------------------------------------------------------
# Input: the law's parameters, layer manifests, elevation models
# ----------------------------------------------------------------------------------------------


class ParametersError(SloatInputError):
    """The law's parameters file cannot be used (a value, a date, a quote the law text does not hold)."""


class ManifestError(SloatInputError):
    """A layer manifest cannot be used (a line naming a missing file, an unknown role, a bad field)."""


class WhereFilterError(SloatError):
    """A problem in a manifest line's where filter (turned into a SloatInputError naming the manifest line)."""


class DemUnitsError(SloatInputError):
    """The DEM's elevation unit is missing, contradictory or implausible: the manifest is refused."""


class ResultShapeError(SloatInputError):
    """A saved analysis result (a case's snapshot, an answer worked out ahead) cannot be read back as the typed
    result: a key it does not know, a key missing, or a value of the wrong shape."""


# ----------------------------------------------------------------------------------------------
# The case store and staff mode
# ----------------------------------------------------------------------------------------------


class CaseStoreError(SloatError):
    """The case database could not do what was asked (one plain sentence)."""


class CaseFolderError(CaseStoreError):
    """The data folder itself cannot be made or written (a file in its place, no permission, disk full)."""


class CaseNotFound(SloatInputError):
    """No case answers to this link (wrong, mistyped or archived)."""


class CaseConflictError(CaseStoreError):
    """The case was saved elsewhere since it was opened; reopen it before saving."""


#: What a refused write to an archived case says (one sentence a resident understands).
ARCHIVED_SENTENCE = ("This case is archived, so changes are not saved to it; start a new case from it to keep "
                     "them, or ask Village staff to restore it.")


class CaseArchivedError(CaseStoreError):
    """The case is archived: it can be read, printed and downloaded, but not changed until staff restore it."""

    def __init__(self, message: str = ARCHIVED_SENTENCE):
        super().__init__(message)


class StaffRequired(SloatError, PermissionError):
    """A staff-only action was asked for without a valid staff unlock."""


# Official data (sloat_core.gis.official)
class SourceError(SloatInputError):
    """One source could not be fetched; the others go on (the role stays missing, hence unknown)."""


class ServiceAnswerError(SourceError):
    """The service answered with its own error (ArcGIS REST ``{"error": {"code", "message"}}``)."""


class SourceUnavailable(SourceError):
    """The service could not be reached (no connection, a timeout, a service down)."""


# Parcel files (sloat_core.gis.parcels.formats)
class SeveralShapesError(SloatInputError):
    """A KML/KMZ file holds several polygon placemarks: the user must choose one (or all).

    Attributes
    ----------
    choices : tuple of str
        One plain label per polygon, in file order (``choose=i`` picks ``choices[i]``).
    """

    def __init__(self, choices: list[str]):
        self.choices = tuple(choices)
        listed = "; ".join(f"{i + 1}: {c}" for i, c in enumerate(self.choices[:20]))
        more = f"; and {len(self.choices) - 20} more" if len(self.choices) > 20 else ""
        super().__init__(
            f"The file holds {len(self.choices)} separate polygons ({listed}{more}); choose the one that is the "
            "parcel."
        )

    def __reduce__(self):  # crosses the worker's pipe
        return (SeveralShapesError, (list(self.choices),))


# Plan files (sloat_core.plan.reading)
class NoLotsLayerError(SloatInputError):
    """No layer of a plan file is recognised as its lots: the user must say which layer holds them.

    Attributes
    ----------
    layers : tuple of str
        Every layer name in the file, in file order (offer them as the choice).
    """

    def __init__(self, layers: list[str] | tuple[str, ...]):
        self.layers = tuple(layers)
        listed = ", ".join(f"'{name}'" for name in self.layers[:30])
        more = f" and {len(self.layers) - 30} more" if len(self.layers) > 30 else ""
        held = f"its layers are {listed}{more}" if self.layers else "it has no named layers"
        super().__init__(f"No layer of the plan is recognised as the lots ({held}); choose the layer that holds them.")

    def __reduce__(self):  # crosses the worker's pipe
        return (NoLotsLayerError, (list(self.layers),))
