"""Every relative link in the README and the docs leads to a file, and every #anchor to a
heading of the file it names (GitHub's heading slugs)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *ROOT.glob("docs/*.md"), *ROOT.glob("benchmarks/results/*.md")])

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`+[^`\n]*`+")
#: [text](target "title") and ![alt](target); the target ends at a space or the closing bracket
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text without fenced code blocks and code spans (a link in code is not a link)."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def links(text: str) -> list[str]:
    body = prose(text)
    return INLINE.findall(body) + REFERENCE.findall(body)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without markup, lower case, punctuation
    dropped (hyphens and underscores kept), spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor GitHub gives the headings of a page (a repeated slug gets -1, -2, ...)."""
    seen: Counter[str] = Counter()
    found = set()
    for _, heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(heading)
        found.add(f"{base}-{seen[base]}" if seen[base] else base)
        seen[base] += 1
    return found


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)  # http:, mailto:, ...


def broken(page: Path, root: Path = ROOT) -> list[str]:
    problems = []
    for target in links(page.read_text(encoding="utf-8")):
        if not relative(target):
            continue
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(root)}: {target}"
        if not goal.exists():
            problems.append(f"{where} (no such file)")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            problems.append(f"{where} (no heading #{anchor} in {goal.relative_to(root)})")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page) == []


def test_the_checker_finds_links_and_slugs_as_github_does(tmp_path: Path) -> None:
    assert slug("The storage model (event sourcing)") == "the-storage-model-event-sourcing"
    assert slug("`pimc`: the plan search & its levels") == "pimc-the-plan-search--its-levels"
    assert slug("Web client: [lobby](x.md) and rooms") == "web-client-lobby-and-rooms"
    page = tmp_path / "page.md"
    page.write_text("# Top\n\n## Part\n\n## Part\n\n```\n[in code](missing.md)\n```\n"
                    "[ok](#part-1) [`code`](page.md#top) [bad](#nowhere) [gone](missing.md) "
                    "[web](https://example.org/x) `[span](missing.md)`\n\n[ref]: other.md#x\n",
                    encoding="utf-8")
    assert anchors(page) == {"top", "part", "part-1"}
    assert links(page.read_text(encoding="utf-8")) == [
        "#part-1", "page.md#top", "#nowhere", "missing.md", "https://example.org/x", "other.md#x"]
    assert broken(page, tmp_path) == [
        "page.md: #nowhere (no heading #nowhere in page.md)",
        "page.md: missing.md (no such file)",
        "page.md: other.md#x (no such file)"]
