"""The project's errors: one root, :class:`SloatError`, that every error the core raises derives from.

Every message is one plain sentence a resident at the counter can understand; the CLI prints it
and exits 2, the app shows it next to the control that received the input. Catching ``SloatError``
catches them all (bad input, a case store that cannot do what was asked, a staff-only action).

>>> issubclass(SloatInputError, SloatError) and issubclass(SloatInputError, ValueError)
True
"""

__all__ = ["SloatError", "SloatInputError"]


class SloatError(Exception):
    """Root of every error the Sloatsburg core raises (one plain sentence)."""


class SloatInputError(SloatError, ValueError):
    """Input that cannot be used (a file, a geometry, a date, a number, a manifest line)."""
