"""A proposed plat or site plan checked against Article IX, lot by lot (`check.check_plan`)."""
