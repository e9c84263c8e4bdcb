"""Measuring: what the layers and the DEM say about land, as shapes and as areas, for one parcel or a village.

The room beneath the rules: it clips the layers to a parcel (:mod:`~sloat_core.measure.parcel`), cuts a
parcel's land into the rows of the § 402-45 deduction table, and tiles a whole village into the same
pieces for the bulk screen. What it produces is one record, :class:`~sloat_core.measure.parcel.Measures`,
which the rules (:mod:`sloat_core.rules`) read and nothing else; it knows no rule.
"""
