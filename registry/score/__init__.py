"""Score stage: versions and checksums, risk, category and tags, then the earned trust tier.

Runs after history, before anything is written. Each part is a pure function of the skill,
its files, its history and the policy; the stage only puts them in order (trust needs the
others' verdicts) and applies the policy's severity overrides last.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from registry.history import RepositoryInfo, Revision
from registry.model import Finding, Severity, Skill
from registry.policy import RISK_LEVELS, Policy
from registry.score.categories import Categorisation, categorise
from registry.score.clone_rules import Clone, Fingerprint
from registry.score.clones import fingerprint
from registry.score.context_cost import ContextCost, measure
from registry.score.risk.assessment import RiskAssessment, assess
from registry.score.trust import Trust, assess_trust
from registry.versions import check_versions


@dataclass(frozen=True)
class Assessment:
    revisions: tuple[Revision, ...]
    version_valid: bool
    risk: RiskAssessment
    categorisation: Categorisation
    trust: Trust
    risk_override: str | None  # the maintainer-approved reason when policy allows a risky skill
    clones: tuple[Clone, ...] = ()  # skills this one is mostly the same as (registry/score/clones.py)
    context: ContextCost | None = None  # estimated tokens per loading step (registry/score/context_cost.py)


@dataclass(frozen=True)
class ContentScore:
    """What depends on a skill's files and the policy alone: cached by content in incremental builds."""

    risk: RiskAssessment
    categorisation: Categorisation
    findings: tuple[Finding, ...]
    fingerprint: Fingerprint | None = None  # for the registry-wide clone stage (registry/score/clones.py)
    clones: tuple[Clone, ...] = ()  # set by that stage, never cached: it depends on the other skills
    context: ContextCost | None = None


def score_content(skill: Skill, contents: Mapping[str, bytes], policy: Policy) -> ContentScore:
    risk = assess(skill, contents)
    skill.risk_level = risk.level
    categorisation = categorise(skill, policy.categories, policy.category_keywords)
    _apply_categorisation(skill, categorisation)
    context, context_findings = measure(skill, contents)
    findings = tuple(risk.findings) + tuple(categorisation.findings) + context_findings
    return ContentScore(risk, categorisation, findings, fingerprint(contents), context=context)


def _apply_categorisation(skill: Skill, categorisation: Categorisation) -> None:
    skill.category = categorisation.category
    skill.category_inferred = categorisation.inferred
    skill.category_evidence = list(categorisation.evidence)
    skill.tags = list(categorisation.tags)


def score_history(skill: Skill, content: ContentScore, repository: RepositoryInfo, policy: Policy) -> Assessment:
    """Versions, checksums and the earned trust tier: these change with history, not content."""
    history = repository.histories.get(skill.location.rel_folder)
    versions = check_versions(skill, history, history_gap(repository))
    skill.findings.extend(versions.findings)
    skill.findings.extend(content.findings)
    risk = content.risk
    trust = assess_trust(skill, policy, history, versions.valid, risk.level, repository.commit_time)
    skill.findings.extend(trust.findings)
    override = policy.risk_override(skill.id)
    allowed = override is not None and RISK_LEVELS.index(risk.level) <= RISK_LEVELS.index(override.max_level)
    return Assessment(
        versions.revisions,
        versions.valid,
        risk,
        content.categorisation,
        trust,
        override.reason if allowed else None,
        content.clones,
        content.context,
    )


def history_gap(repository: RepositoryInfo) -> str | None:
    """Why the version rules could not see the whole history, or None when they could."""
    if not repository.is_git or repository.commit is None:
        return "the source has no git history (not in a git work tree, or no commit yet)"
    if repository.shallow:
        return "the git clone is shallow, so earlier commits are missing"
    return None


def score_skill(skill: Skill, contents: Mapping[str, bytes], repository: RepositoryInfo, policy: Policy) -> Assessment:
    return score_history(skill, score_content(skill, contents, policy), repository, policy)


def apply_severity_overrides(findings: list[Finding], severity: Mapping[str, str]) -> list[Finding]:
    """The policy may raise, lower or switch off a rule for this registry."""
    if not severity:
        return findings
    result = []
    for finding in findings:
        wanted = severity.get(finding.code)
        if wanted == "off":
            continue
        if wanted is not None:
            finding = dataclasses.replace(finding, severity=Severity(wanted))
        result.append(finding)
    return result
