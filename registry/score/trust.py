"""Trust, earned: a tier that only the registry's policy can grant, and a score that shows its working.

Tiers: `official` (an official publisher in registry.yaml, no high or critical risk), `verified`
(a verified or official publisher, a valid semver version, content that matches its declared
checksum and published versions, no high or critical risk), else `community`. A skill with errors
(published because clients load it, e.g. a Title Case name) is `community` whoever publishes it. What a skill
claims in `trust-level` is never taken: a higher claim earns a warning and the earned tier.

The score (0 to 100) adds the weights of the signals that hold; every signal, held or not, is
listed with its weight and the fact behind it, so the number can be checked by hand. Dates
are measured against the build commit's date, never the clock: the same commit, the same score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from registry.history import SkillHistory
from registry.model import Finding, Severity, Skill
from registry.policy import TIERS, Policy
from registry.rules.base import Rule, W

CLAIM_NOT_EARNED = Rule(
    "U001",
    W,
    "trust level not earned",
    "the skill claims trust-level '{claimed}' but earned '{earned}': {why}",
    "Remove trust-level or ask the registry maintainers to verify the publisher in registry.yaml.",
    "trust-level: official in a community publisher's skill",
)
RULES = (CLAIM_NOT_EARNED,)

INTEGRITY_CODES = frozenset({"V002", "V004", "V006"})
_WHEN = re.compile(r"\b(use (it |this (skill )?)?(when|for|to|if)|when (the )?(user|you)|whenever|triggers?)\b", re.I)
DAY = 86_400


@dataclass(frozen=True)
class Signal:
    name: str
    weight: int
    held: bool
    detail: str

    def to_json(self) -> dict:
        return {"name": self.name, "weight": self.weight, "held": self.held, "detail": self.detail}


@dataclass(frozen=True)
class Trust:
    tier: str
    claimed: str | None
    score: int
    signals: tuple[Signal, ...]
    tier_reasons: tuple[str, ...]
    findings: tuple[Finding, ...]

    def to_json(self) -> dict:
        return {
            "tier": self.tier,
            "claimed": self.claimed,
            "score": self.score,
            "tier_reasons": list(self.tier_reasons),
            "signals": [s.to_json() for s in self.signals],
        }


def assess_trust(
    skill: Skill,
    policy: Policy,
    history: SkillHistory | None,
    version_valid: bool,
    risk_level: str,
    build_time: int | None,
) -> Trust:
    namespace = skill.id.split("/", 1)[0] if "/" in skill.id else ""
    publisher = policy.owner_of(namespace) if namespace else None
    publisher_tier = publisher.tier if publisher else "community"
    risky = risk_level in ("high", "critical")
    integrity = not any(f.code in INTEGRITY_CODES for f in skill.findings)
    errors = sorted({f.code for f in skill.errors if f.code not in INTEGRITY_CODES})
    declared_checksum = skill.settings.get("checksum")
    checksum_matches = isinstance(declared_checksum, str) and declared_checksum.strip() == skill.content_digest

    reasons: list[str] = []
    who = (
        f"publisher '{publisher.name}' is {publisher_tier} in registry.yaml"
        if publisher
        else (f"namespace '{namespace or skill.id}' has no publisher in registry.yaml")
    )
    if publisher_tier == "official" and not risky and not errors:
        tier = "official"
        reasons.append(f"{who}; no high or critical risk finding")
    elif publisher_tier in ("verified", "official") and version_valid and integrity and not risky and not errors:
        tier = "verified"
        reasons.append(f"{who}; valid semver version; content matches its checksum and published versions")
    else:
        tier = "community"
        reasons.append(who)
        if publisher_tier != "community":
            if risky:
                reasons.append(f"risk level is {risk_level}")
            if not version_valid:
                reasons.append("no valid semver version")
            if not integrity:
                reasons.append("content does not match its checksum or a published version")
            if errors:
                reasons.append(f"the skill has errors to fix ({', '.join(errors)})")

    age_days = None
    if history and build_time is not None:
        age_days = (build_time - _epoch(history.first_published)) // DAY
    description = skill.description or ""
    warnings = [f for f in skill.findings if f.severity is Severity.WARNING and not f.code.startswith("R")]
    signals = (
        Signal("publisher verified in registry.yaml", 5, publisher_tier != "community", who),
        Signal("license declared", 10, bool(skill.license), skill.license or "no license field"),
        Signal("valid semver version", 10, version_valid, skill.version or "no version"),
        Signal(
            "checksum declared and matching", 10, checksum_matches,
            "matches" if checksum_matches else ("does not match" if declared_checksum else "no checksum declared"),
        ),
        Signal(
            "repository or homepage", 5, bool(skill.repository or skill.homepage),
            skill.repository or skill.homepage or "neither given",
        ),
        Signal(
            "description says what and when", 10, 50 <= len(description) <= 1024 and bool(_WHEN.search(description)),
            f"{len(description)} characters" + ("" if _WHEN.search(description) else ", no 'use when' trigger"),
        ),
        Signal(
            "structured instructions", 10, skill.body_headings >= 2 and skill.body_lines >= 20,
            f"{skill.body_headings} headings, {skill.body_lines} lines",
        ),
        Signal(
            "published for 30 days or more", 5, age_days is not None and age_days >= 30,
            f"first published {history.first_published[:10]}" if history else "no git history",
        ),
        Signal(
            "maintained: several commits", 5, bool(history and history.commits >= 2),
            f"{history.commits} commits by {len(history.contributors)} people" if history else "no git history",
        ),
        Signal("no high or critical risk", 15, not risky, f"risk level {risk_level}"),
        Signal("no medium risk", 5, risk_level == "low", f"risk level {risk_level}"),
        Signal("no validation warnings", 10, not warnings, f"{len(warnings)} warnings"),
    )  # fmt: skip
    score = sum(s.weight for s in signals if s.held)

    claimed = skill.settings.get("trust-level")
    claimed = claimed.strip().lower() if isinstance(claimed, str) and claimed.strip() else None
    findings: list[Finding] = []
    if claimed in TIERS and TIERS.index(claimed) > TIERS.index(tier):
        line = skill.document.key_lines.get("trust-level") or skill.document.key_lines.get("metadata")
        findings.append(
            CLAIM_NOT_EARNED.at(
                skill.location.skill_md_path, line, 1, claimed=claimed, earned=tier, why="; ".join(reasons)
            )
        )
    return Trust(tier, claimed, score, signals, tuple(reasons), tuple(findings))


def _epoch(iso: str) -> int:
    return int(datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp())
