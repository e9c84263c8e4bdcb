"""The commands the README and docs/ show work as written, in every file alike (README.md and docs/*.md).

* The staff set-up block (the ``bash`` block after "To set it up on the server") is run by bash in an empty
  folder, the passcode typed on its standard input; the secrets file it writes must hold a hash that verifies.
* Every ``from sloat_core... import ...`` in a code block imports.
* Every ``python -m sloat_core <command>`` shown is a command of the CLI (its ``--help`` answers), and every
  command of the CLI is shown somewhere.
* Every ``make <target>`` shown is a target of the Makefile.
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

from sloat_core.cli import build_parser
from sloat_core.store import verify_passcode

ROOT = Path(__file__).resolve().parents[2]
#: The files whose commands are checked: the README and every page of docs/.
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEXTS = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in DOCS}
_BLOCK = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", re.S | re.M)
_CLI = re.compile(r"python -m sloat_core ([a-z][a-z-]*)")


def _blocks(text: str) -> list[tuple[str, str, int]]:
    """(language, text dedented, offset) of every fenced block of one file."""
    out = []
    for m in _BLOCK.finditer(text):
        lines = m.group(2).splitlines()
        indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
        out.append((m.group(1), "\n".join(x[indent:] for x in lines) + "\n", m.start()))
    return out


def _all_blocks() -> list[tuple[str, str, str]]:
    """(file, language, text) of every fenced block of every checked file."""
    return [(name, lang, text) for name, body in TEXTS.items() for lang, text, _ in _blocks(body)]


def _staff_block() -> str:
    holders = [name for name, body in TEXTS.items() if "To set it up on the server" in body]
    assert len(holders) == 1, holders  # the set-up is written in one place
    body = TEXTS[holders[0]]
    at = body.index("To set it up on the server")
    lang, text, _ = next(b for b in _blocks(body) if b[2] > at)
    assert lang in ("bash", "sh"), lang
    return text


def test_the_checked_files_are_the_readme_and_every_page_of_docs():
    assert "README.md" in TEXTS and "docs/operations.md" in TEXTS and "docs/command-line.md" in TEXTS
    assert len(TEXTS) == 1 + len(list((ROOT / "docs").glob("*.md")))


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


def test_every_python_import_the_docs_show_works():
    imports = sorted({m.group(0) for _, _, text in _all_blocks()
                      for m in re.finditer(r"from sloat_core[\w.]* import [\w, ]+", text)})
    assert imports  # the staff set-up one at least
    for statement in imports:
        proc = subprocess.run([sys.executable, "-c", statement], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, (statement, proc.stderr[-500:])


def _shown_cli_commands() -> set[str]:
    return {c for body in TEXTS.values() for c in _CLI.findall(body)}


def _cli_commands() -> set[str]:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return set(sub.choices)


@pytest.mark.parametrize("command", sorted(_shown_cli_commands()))
def test_every_cli_command_the_docs_show_exists(command):
    proc = subprocess.run([sys.executable, "-m", "sloat_core", command, "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-500:]


def test_every_cli_command_is_shown_in_the_docs():
    assert sorted(_cli_commands() - _shown_cli_commands()) == []


def test_every_make_target_the_docs_show_is_in_the_makefile():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    shown = {t for _, _, text in _all_blocks() for t in re.findall(r"(?:^|[;&|(]\s*|\s)make ([a-z][\w-]*)", text, re.M)}
    shown |= {t for body in TEXTS.values() for t in re.findall(r"`make ([a-z][\w-]*)`", body)}
    assert shown and sorted(shown - targets) == []
