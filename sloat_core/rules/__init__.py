"""Article IX's rules: lot-area deductions (§ 402-45), cluster (§ 402-48), permits, mitigation, clocks."""
