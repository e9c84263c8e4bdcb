"""Input widgets and small display helpers: forms, checked numbers, units, citations, copy link, charts."""
