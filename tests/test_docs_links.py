"""Every relative link in README.md and docs/*.md names a file that exists, and its
``#anchor`` a heading of that file (as GitHub makes anchors from headings)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", flags=re.M | re.S)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", flags=re.M)


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its words
    text = text.replace("`", "").strip().lower()
    kept = [char for char in text if char in " -_" or unicodedata.category(char)[0] in "LNM"]
    return "".join(kept).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8")))


def test_the_anchor_rule_matches_github_s() -> None:
    assert anchor("Websocket: server → client") == "websocket-server--client"
    assert anchor("Away players: anteing off") == "away-players-anteing-off"
    assert anchor("`strong` (`stud.bots.StrongBot`)") == "strong-studbotsstrongbot"
    assert anchor("Today's figures") == "todays-figures"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {path}")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(f"{target}: no heading #{fragment} in {file.name}")
    assert broken == []
