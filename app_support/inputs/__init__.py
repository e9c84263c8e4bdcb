"""Ways in: a parcel searched, uploaded, drawn or picked; a footprint; the timeline's suggested items."""
