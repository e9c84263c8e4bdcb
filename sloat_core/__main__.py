"""``python -m sloat_core``: see sloat_core.cli."""

import sys

from .cli import main

sys.exit(main())
