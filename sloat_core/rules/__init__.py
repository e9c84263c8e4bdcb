"""Article IX's rules: lot-area deductions (§ 402-45), cluster (§ 402-48), the sections' permits and clocks
(`sections`, decided by `permits`, dated by `clocks` on `calendar`), mitigation (§ 402-57P)."""
