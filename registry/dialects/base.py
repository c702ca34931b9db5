"""What every dialect module provides, and the context it is given.

A dialect recognises its frontmatter fields (and body conventions), fills its part of the
Skill model and appends findings. It never reads other skills: checks that need the whole
registry (a `requires` that must exist, a quiz `load-skill` target) go in `check_registry`,
which the validate stage calls once every skill is parsed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from registry.config import Limits
from registry.model import Finding, Skill
from registry.rules.base import Rule


@dataclass(frozen=True)
class ParseContext:
    path: str  # SKILL.md path relative to the source root, for findings
    limits: Limits
    files: frozenset[str]  # published file paths relative to the skill folder
    folder_name: str  # the skill folder's own name (for name == directory)


@dataclass(frozen=True)
class RegistryView:
    """What a registry-wide check may know about the other skills."""

    names: Mapping[str, tuple[str, ...]]  # skill name -> ids of published skills using it


class Dialect(Protocol):
    key: str  # stable identifier used in index.json and filters, e.g. "skillli"
    title: str  # human name, e.g. "skillli"
    fields: frozenset[str]  # top-level frontmatter keys this dialect understands
    rules: tuple[Rule, ...]

    def detect(self, frontmatter: Mapping, body: str) -> bool:
        """True when the skill uses this dialect (recorded in Skill.dialects)."""

    def apply(self, skill: Skill, context: ParseContext) -> None:
        """Fill this dialect's part of the model and append its findings to skill.findings."""

    def check_registry(self, skill: Skill, registry: RegistryView) -> Iterable[Finding]:
        """Findings that need the other skills; most dialects return ()."""
