"""§ 402-57K(4)'s owner field comes from the layer manifest, read once per version of the file:
an edited manifest is read again, a missing one gives None."""

from __future__ import annotations

import os

from sloat_core.rules.sections.s402_57_wetlands import adjacent_owners as ao


def test_the_manifest_is_read_once_and_again_when_it_changes(tmp_path):
    path = tmp_path / "layers.yaml"
    path.write_text("layers:\n  parcels:\n    path: p.geojson\n    owner_field: OWNER\n", encoding="utf-8")
    ao._owner_field_in.cache_clear()
    assert ao._manifest_owner_field(path) == "OWNER"
    assert ao._manifest_owner_field(str(path)) == "OWNER"
    assert ao._owner_field_in.cache_info().misses == 1  # the second call did not read the file
    path.write_text("layers:\n  parcels:\n    path: p.geojson\n    owner_field: OWNER_NAME\n", encoding="utf-8")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    assert ao._manifest_owner_field(path) == "OWNER_NAME"
    path.write_text("layers:\n  parcels:\n    path: p.geojson\n", encoding="utf-8")
    assert ao._manifest_owner_field(path) is None
    path.unlink()
    assert ao._manifest_owner_field(path) is None
