"""Helpers for the dialect tests: parse a SKILL.md text with chosen dialects, read the corpus."""

from __future__ import annotations

import collections
import functools
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path

from conftest import SEEDS as SEEDS  # the dialect tests read their seed spec from here
from conftest import SHARED_CORPUS, require

from registry.config import Limits
from registry.crawl import crawl
from registry.dialects.agent_flow_lite import AgentFlowLiteDialect
from registry.dialects.base import ParseContext, RegistryView
from registry.dialects.bouno import BounoDialect
from registry.dialects.claude_code import ClaudeCodeDialect
from registry.dialects.gibberish import GibberishDialect
from registry.dialects.skillli import SkillliDialect
from registry.dialects.standard import StandardDialect
from registry.dialects.wolffish import WolffishDialect
from registry.model import Finding, Skill, SkillFile, SkillLocation
from registry.parse.document import read_document
from registry.parse.skill import parse_skill

LIMITS = Limits()

MINE = (SkillliDialect(), GibberishDialect(), AgentFlowLiteDialect(), BounoDialect(), WolffishDialect())
ALL = (StandardDialect(), ClaudeCodeDialect(), *MINE)
PREFIXES = ("K", "G", "A", "B", "W")


def skill_from_text(
    text: str,
    dialects: Sequence = ALL,
    files: Iterable[str] = (),
    folder: str = "demo",
    dedent: bool = True,
) -> Skill:
    """Parse SKILL.md text the way parse_skill does, without touching the file system."""
    if dedent:
        text = textwrap.dedent(text).lstrip("\n")
    data = text.encode("utf-8")
    path = f"{folder}/SKILL.md"
    document = read_document(data, path, LIMITS)
    skill_file = SkillFile("SKILL.md", len(data), "sha256:" + "0" * 64, Path("/nonexistent/SKILL.md"))
    location = SkillLocation(f"test/{folder}", Path("/nonexistent") / folder, folder, "SKILL.md", (skill_file,))
    skill = Skill(location, document, findings=list(document.findings))
    if document.frontmatter is None:
        return skill
    context = ParseContext(path, LIMITS, frozenset({"SKILL.md", *files}), folder)
    for dialect in dialects:
        if dialect.detect(document.frontmatter, document.body):
            skill.dialects.append(dialect.key)
            dialect.apply(skill, context)
    return skill


def registry_findings(skill: Skill, names: Iterable[str] = (), dialects: Sequence = ALL) -> list[Finding]:
    view = RegistryView({name: (f"test/{name}",) for name in names})
    found: list[Finding] = []
    for dialect in dialects:
        found += list(dialect.check_registry(skill, view))
    return found


def codes(findings: Iterable[Finding], prefixes: tuple[str, ...] = PREFIXES) -> list[str]:
    return sorted(f.code for f in findings if f.code.startswith(prefixes))


def only(findings: Iterable[Finding], code: str) -> list[Finding]:
    return [f for f in findings if f.code == code]


@functools.lru_cache(maxsize=1)
def corpus_skills() -> tuple[dict[str, Skill], RegistryView]:
    """Every corpus skill parsed with all dialects, by SKILL.md path, and the registry view."""
    result = crawl(require(SHARED_CORPUS), LIMITS)
    skills = {loc.skill_md_path: parse_skill(loc, LIMITS, dialects=ALL) for loc in result.locations}
    names: dict[str, list[str]] = collections.defaultdict(list)
    for skill in skills.values():
        if skill.name:
            names[skill.name].append(skill.id)
    return skills, RegistryView({k: tuple(v) for k, v in names.items()})


def corpus_findings(path: str) -> list[Finding]:
    """All findings of one corpus skill, parse-time and registry-wide."""
    skills, view = corpus_skills()
    skill = skills[path]
    found = list(skill.findings)
    for dialect in ALL:
        if dialect.key in skill.dialects:
            found += list(dialect.check_registry(skill, view))
    return found
