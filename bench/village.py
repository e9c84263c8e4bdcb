"""One village screen in its own process: ``python bench/village.py SPEC OUT.csv`` prints JSON.

SPEC is ``sample`` (every tax parcel of the sample) or ``lots:N`` / ``patch:N:M`` (N generated lots
tiling the sample area; a patch of M of them). Run as a child so that its peak resident memory
(``VmHWM`` of the process from /proc; the pool workers' ``ru_maxrss``, which counts the pages they
share with the parent after fork) is the screen's own.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from parcels import generated_lots  # noqa: E402

from sloat_core.gis.layers import load_manifest  # noqa: E402
from sloat_core.engine.screening import screen_to_csv  # noqa: E402
from sloat_core.law.settings import load_settings  # noqa: E402


def _vm_hwm_mb() -> float:
    """Peak resident memory of this process (VmHWM), in MB; ru_maxrss would count the bench's own
    memory, which Linux carries across fork and exec."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(spec: str, out: str, manifest: str) -> dict:
    layerset = load_manifest(manifest)
    settings = load_settings()
    parcels = None
    bounds = layerset.get("parcels").gdf.total_bounds
    t_gen = 0.0
    if spec != "sample":
        t0 = time.perf_counter()
        kind, *nums = spec.split(":")
        n = int(nums[0])
        parcels = generated_lots(bounds, n, patch=int(nums[1]) if kind == "patch" else None)
        t_gen = time.perf_counter() - t0
    rss_before = _vm_hwm_mb()
    t0 = time.perf_counter()
    n_rows = screen_to_csv(layerset, out, settings, parcels=parcels)
    seconds = time.perf_counter() - t0
    errors = 0
    with open(out, encoding="utf-8") as fh:
        header = fh.readline().rstrip("\n").split(",")
        col = header.index("error")
        for line in fh:
            if line.rstrip("\r\n").split(",")[col:][-1:] != [""]:
                errors += 1
    me = _vm_hwm_mb()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {
        "spec": spec,
        "parcels": n_rows,
        "seconds": round(seconds, 3),
        "ms_per_parcel": round(1000 * seconds / max(n_rows, 1), 4),
        "peak_rss_mb": round(me, 1),
        "peak_rss_mb_before_screen": round(rss_before, 1),
        "peak_rss_mb_pool_worker": round(kids / 1024, 1),
        "generate_seconds": round(t_gen, 3),
        "rows_with_error": errors,
    }


if __name__ == "__main__":
    manifest = sys.argv[3] if len(sys.argv) > 3 else str(ROOT / "data" / "sample" / "layers.yaml")
    print(json.dumps(main(sys.argv[1], sys.argv[2], manifest)))
