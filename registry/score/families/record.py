"""A family rule's record: one call with every fact about the rule, by keyword."""

from __future__ import annotations

from dataclasses import dataclass

from registry.rules.base import I, W
from registry.score.risk.rules import RiskRule


@dataclass(frozen=True)
class FamilyRule(RiskRule):
    families: tuple[int, ...] = ()  # threats.md family numbers, the main one first
    owasp: str | None = None  # OWASP AST10 id
    examples: tuple[str, ...] = ()  # text that fires the rule; the first is the docs' example


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
    examples: tuple[str, ...],
) -> FamilyRule:
    severity = W if level in ("high", "critical") else I
    return FamilyRule(
        code, severity, title, message, fix, examples[0], level, category, why, summary, contexts,
        families=families, owasp=owasp, examples=examples,
    )  # fmt: skip
