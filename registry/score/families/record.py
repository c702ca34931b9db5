"""A family rule's record: one call with every fact about the rule, by keyword, its fixtures included.

`examples` are skills that must fire the rule and `near_misses` skills that must not; each is either
the body of a SKILL.md (a string) or a skill's files ({"SKILL.md": ..., "scripts/x.py": ...}; a file
given without a SKILL.md gets a plain one). tests/score/test_families.py runs every record's fixtures,
so a rule and the evidence that it works live in one place, as ruff keeps a rule with its examples.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from registry.rules.base import I, W
from registry.score.risk.rules import RiskRule

Fixture = str | Mapping[str, str]


@dataclass(frozen=True)
class FamilyRule(RiskRule):
    families: tuple[int, ...] = ()  # threats.md family numbers, the main one first
    owasp: str | None = None  # OWASP AST10 id
    examples: tuple[Fixture, ...] = ()  # skills that fire the rule; the first is the docs' example
    near_misses: tuple[Fixture, ...] = ()  # look-alikes that must not fire it
    tells: str = ""  # for a rule that reads an order in the text: the kind of order (the card's instruction uses)


def rule(
    *,
    code: str,
    level: str,
    category: str,
    families: tuple[int, ...],
    owasp: str,
    title: str,
    message: str,
    why: str,
    fix: str,
    summary: str,
    contexts: frozenset[str],
    examples: tuple[Fixture, ...],
    near_misses: tuple[Fixture, ...],
    tells: str = "",
) -> FamilyRule:
    severity = W if level in ("high", "critical") else I
    return FamilyRule(
        code, severity, title, message, fix, _shown(examples[0]), level, category, why, summary, contexts,
        families=families, owasp=owasp, examples=examples, near_misses=near_misses, tells=tells,
    )  # fmt: skip


def _shown(example: Fixture) -> str:
    """The docs' one-line example: the fixture's text, or its first file's, as `path: text`."""
    if isinstance(example, str):
        text = example
    else:
        path, text = next(iter(example.items()))
        text = f"{path}: {text}"
    text = " ".join(text.split())
    return text if len(text) <= 160 else text[:159] + "…"
