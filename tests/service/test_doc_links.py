"""Every relative link of the README, docs/ and bench/README.md leads somewhere: to a file of the repository and,
when it names one, to a heading of that file (GitHub's anchors: the heading in lower case, punctuation dropped,
spaces as hyphens). Links to the web are not followed."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md"]

_FENCE = re.compile(r"^[ \t]*```.*?^[ \t]*```[^\n]*$", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
_INLINE = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text without code blocks and code spans (a link shown as code is not a link)."""
    return _CODE.sub("", _FENCE.sub("", text))


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown text."""
    seen: dict[str, int] = {}
    out = set()
    for m in _HEADING.finditer(_FENCE.sub("", text)):
        words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(2))  # a link in a heading keeps its text
        slug = re.sub(r"[^\w\- ]", "", words.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """The relative links of one Markdown file that lead nowhere, each as 'target: why'."""
    text = path.read_text(encoding="utf-8")
    targets = _INLINE.findall(_prose(text)) + _REFERENCE.findall(_prose(text))
    out = []
    for target in targets:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue  # the web, mail
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not dest.exists():
            out.append(f"{target}: no such file")
            continue
        try:
            dest.relative_to(root)
        except ValueError:
            out.append(f"{target}: outside the repository")
            continue
        if anchor and (dest.is_dir() or dest.suffix != ".md"):
            out.append(f"{target}: an anchor in a file that is not Markdown")
        elif anchor and unquote(anchor).lower() not in anchors(dest.read_text(encoding="utf-8")):
            out.append(f"{target}: no such heading")
    return out


def test_the_checked_files_are_the_readme_bench_and_every_page_of_docs():
    names = {p.relative_to(ROOT).as_posix() for p in DOCS}
    assert {"README.md", "bench/README.md", "docs/operations.md", "docs/architecture.md"} <= names
    assert all(p.exists() for p in DOCS)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(path):
    assert broken_links(path) == []


def test_the_readme_links_every_page_of_docs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {t.partition("#")[0] for t in _INLINE.findall(_prose(readme))}
    assert sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")
                  if p.relative_to(ROOT).as_posix() not in linked) == []


def test_the_check_sees_a_missing_file_and_a_missing_heading(tmp_path):
    """The checker is not blind: a link to a file that is not there, or to a heading that is not there, is found;
    a link shown as code, a link to the web and a good anchor are not."""
    (tmp_path / "other.md").write_text("# Other\n\n## Session affinity: least connections\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Cases: nothing is lost\n\n"
        "[gone](missing.md) · [bad heading](other.md#no-such-heading) · [good](other.md#session-affinity-least-connections)"
        " · [here](#cases-nothing-is-lost) · [not here](#nowhere) · [web](https://example.org/x.md)"
        " · `[code](missing-too.md)`\n\n```\n[block](missing-three.md)\n```\n\n[ref]: gone-too.md\n",
        encoding="utf-8")
    assert broken_links(page, root=tmp_path) == ["missing.md: no such file", "other.md#no-such-heading: no such heading",
                     "#nowhere: no such heading", "gone-too.md: no such file"]


def test_anchors_are_made_as_github_makes_them():
    text = ("# Parcel & constraints\n## How long `make test` takes\n## PROJECT.json: a project's facts\n"
            "## The Village's service: how many processes, and the 4x target\n## Notes\n## Notes\n")
    assert anchors(text) == {"parcel--constraints", "how-long-make-test-takes", "projectjson-a-projects-facts",
                             "the-villages-service-how-many-processes-and-the-4x-target", "notes", "notes-1"}
