import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# Cases made by tests (in-process AppTests and the servers the browser tests start, which inherit the
# environment) go to a private folder, never into the working tree's ./var/.
os.environ.setdefault("SLOAT_DATA_DIR", tempfile.mkdtemp(prefix="sloat-test-data-"))
