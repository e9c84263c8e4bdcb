"""The app's side of the case store: the session's case, staff mode, downloads and imports."""
