"""Saved cases: SQLite store, passcodes."""
