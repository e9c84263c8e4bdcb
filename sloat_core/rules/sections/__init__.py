"""Article IX, one module per section (``s402_55_steep_slopes`` is § 402-55): each declares its permits."""
