"""The README's commands work as written (issue 20: its staff set-up command named a module that no longer existed).

* The staff set-up block (the ``bash`` block after "To set it up on the server") is run by bash in an empty
  folder, the passcode typed on its standard input; the secrets file it writes must hold a hash that verifies.
* Every ``from sloat_core... import ...`` in the README's code blocks imports.
* Every ``python -m sloat_core <command>`` the README shows is a command of the CLI (its ``--help`` answers).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sloat_core.store import verify_passcode

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
_BLOCK = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", re.S | re.M)


def _blocks() -> list[tuple[str, str, int]]:
    """(language, text dedented, offset) of every fenced block."""
    out = []
    for m in _BLOCK.finditer(README):
        lines = m.group(2).splitlines()
        indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
        out.append((m.group(1), "\n".join(x[indent:] for x in lines) + "\n", m.start()))
    return out


def _staff_block() -> str:
    at = README.index("To set it up on the server")
    lang, text, _ = next(b for b in _blocks() if b[2] > at)
    assert lang in ("bash", "sh"), lang
    return text


def test_the_staff_set_up_commands_write_a_passcode_hash_that_verifies(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").symlink_to(sys.executable)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(["bash", "-e", "-c", _staff_block()], cwd=tmp_path, env=env, input="blue heron 402\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    secrets = tmp_path / ".streamlit" / "secrets.toml"
    stored = tomllib.loads(secrets.read_text(encoding="utf-8"))["staff_passcode_hash"]
    assert verify_passcode("blue heron 402", stored)
    assert not verify_passcode("blue heron 403", stored)
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    assert "blue heron" not in proc.stdout + proc.stderr  # the passcode is never echoed


def test_every_python_import_the_readme_shows_works():
    imports = sorted({m.group(0) for _, text, _ in _blocks()
                      for m in re.finditer(r"from sloat_core[\w.]* import [\w, ]+", text)})
    assert imports  # the staff set-up one at least
    for statement in imports:
        proc = subprocess.run([sys.executable, "-c", statement], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, (statement, proc.stderr[-500:])


@pytest.mark.parametrize("command", sorted(set(re.findall(r"python -m sloat_core ([a-z][a-z-]*)", README))))
def test_every_cli_command_the_readme_shows_exists(command):
    proc = subprocess.run([sys.executable, "-m", "sloat_core", command, "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-500:]
