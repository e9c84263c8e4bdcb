"""What each page shows of a result: the answer, the deduction table, permits, project, timeline, walk-through."""
