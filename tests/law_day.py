"""The day the tests read the shipped law at: the law's date is always passed in (no "today" below the outer
doors), and on this day every value of ``data/law/parameters.yaml`` and ``data/settings/state_law.yaml`` holds
as shipped."""

import datetime as dt

LAW_DAY = dt.date(2026, 12, 1)
