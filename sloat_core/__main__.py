"""``python -m sloat_core``: see sloat_core.cli."""

import sys

from sloat_core.cli import main

sys.exit(main())
