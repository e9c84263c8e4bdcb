"""The project's one error type for bad input.

Every message is one plain sentence a resident at the counter can understand; the CLI prints it
and exits 2, the app shows it next to the control that received the input.
"""

__all__ = ["SloatInputError"]


class SloatInputError(ValueError):
    """Input that cannot be used (a file, a geometry, a date, a number, a manifest line)."""
