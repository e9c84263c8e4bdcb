"""Runs the rules for one parcel (analysis) or a whole village (screening), and says it in plain words."""
