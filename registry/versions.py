"""Versions and checksums: semver, the declared checksum, and the rules across a skill's history.

A version, once published in a commit, never changes content; versions never go down (semver
precedence: pre-releases sort before their release, build metadata is ignored). The current
version breaking either rule is an error, since what agents pinned would change under them; a
past breach that a later version fixed stays visible as a warning. The working tree counts as
one more revision ("uncommitted") when it differs from the last commit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import semver

from registry.history import Revision, SkillHistory
from registry.model import Finding, Skill
from registry.rules.base import E, I, Rule, W

NOT_SEMVER = Rule(
    "V001",
    W,
    "version is not semver",
    "version '{version}' is not a semantic version (MAJOR.MINOR.PATCH)",
    "{fix}",
    "version: 1.0",
)
PUBLISHED_VERSION_CHANGED = Rule(
    "V002",
    E,
    "published version changed",
    "version {version} was published in commit {first} ({first_date}) with digest {first_digest}; "
    "its content changed in {changed} without a new version",
    "Bump the version (at least the patch number) for the changed content.",
    "Editing SKILL.md and keeping version: 1.2.0.",
)
CHANGED_WITHOUT_BUMP = Rule(
    "V003",
    W,
    "content changed without a version bump",
    "commit {changed} changed the content of version {version} (first published in {first}) without a new version",
    "Nothing to do now (a later version supersedes it); next time bump the version with the change.",
    "A past commit that edited a published version.",
)
VERSION_WENT_DOWN = Rule(
    "V004",
    E,
    "version went down",
    "version {version} is lower than {highest}, published in commit {commit}",
    "Use a version above {highest}; published versions never go backwards.",
    "1.3.0 after 1.4.0.",
)
VERSION_DIPPED = Rule(
    "V005",
    W,
    "version went down in the past",
    "commit {commit} set version {version}, lower than the earlier {highest}",
    "Nothing to do now; versions should only increase.",
    "A past commit that went from 2.0.0 back to 1.9.0.",
)
CHECKSUM_MISMATCH = Rule(
    "V006",
    E,
    "checksum does not match",
    "declared checksum {declared} does not match the skill's content ({actual}): "
    "the skill is stale or was tampered with",
    "Recompute it with `skill-registry checksum {folder} --write` after reviewing the change.",
    "A checksum left from before the last edit.",
)

HISTORY_NOT_CHECKED = Rule(
    "V007",
    I,
    "versions not checked against history",
    "{reason}: published versions were not compared with this one (V002-V005 need the git history)",
    "Run the check in a full clone of the registry's git repository (`git fetch --unshallow` for a shallow one).",
    "`validate` of a copied skill folder, or a build from a tarball.",
)

RULES = (
    NOT_SEMVER, PUBLISHED_VERSION_CHANGED, CHANGED_WITHOUT_BUMP, VERSION_WENT_DOWN, VERSION_DIPPED,
    CHECKSUM_MISMATCH, HISTORY_NOT_CHECKED,
)  # fmt: skip

_DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")


def parse_version(text: str | None) -> semver.Version | None:
    if not text:
        return None
    try:
        return semver.Version.parse(text)
    except (ValueError, TypeError):
        return None


def semver_fix(text: str) -> str:
    """A hint for near misses: v1.2.3, 1.0, 1, 01.2.3, 1.2.3.4."""
    candidate = text.strip().removeprefix("v").removeprefix("V")
    parts = candidate.split("-", 1)[0].split("+", 1)[0].split(".")
    if all(p.isdigit() for p in parts) and parts:
        numbers = [str(int(p)) for p in parts[:3]] + ["0"] * (3 - min(3, len(parts)))
        suffix = candidate[len(candidate.split("-", 1)[0].split("+", 1)[0]) :]
        suggestion = ".".join(numbers) + suffix
        if parse_version(suggestion) is not None and len(parts) <= 3:
            return f'Write `version: "{suggestion}"`.'
    return 'Use MAJOR.MINOR.PATCH, e.g. `version: "1.0.0"` (pre-releases: "1.0.0-beta.1").'


@dataclass(frozen=True)
class VersionCheck:
    valid: bool  # the current version parses as semver
    revisions: tuple[Revision, ...]  # history plus the working tree when it differs
    findings: tuple[Finding, ...]


def check_versions(skill: Skill, history: SkillHistory | None, unchecked: str | None = None) -> VersionCheck:
    """`unchecked` says why the history could not be read (not a git work tree, a shallow clone)."""
    path = skill.location.skill_md_path
    line = skill.document.key_lines.get("version") or skill.document.key_lines.get("metadata")
    findings: list[Finding] = []
    if unchecked is not None:
        findings.append(HISTORY_NOT_CHECKED.at(path, line or 1, 1, reason=unchecked))
    current = skill.version
    valid = parse_version(current) is not None
    if current and not valid:
        findings.append(NOT_SEMVER.at(path, line, 1, version=current, fix=semver_fix(current)))

    declared = skill.settings.get("checksum")
    folder = skill.location.rel_folder
    if isinstance(declared, str) and declared.strip():
        declared = declared.strip()
        checksum_line = skill.document.key_lines.get("checksum") or skill.document.key_lines.get("metadata")
        # A checksum not in sha256:<64 hex> form is the skillli dialect's finding (K011).
        if _DIGEST.match(declared) and declared != skill.content_digest:
            findings.append(
                CHECKSUM_MISMATCH.at(
                    path, checksum_line, 1, declared=declared, actual=skill.content_digest, folder=folder
                )
            )

    revisions = list(history.revisions) if history else []
    if not revisions or revisions[-1].digest != skill.content_digest or revisions[-1].version != current:
        revisions.append(Revision("uncommitted", None, "", folder, current, skill.content_digest))
    findings += _history_findings(revisions, current, path, line)
    return VersionCheck(valid, tuple(revisions), tuple(findings))


def _history_findings(revisions: list[Revision], current: str | None, path: str, line: int | None) -> list[Finding]:
    findings: list[Finding] = []
    first_seen: dict[str, Revision] = {}
    reported_current = False
    highest: tuple[semver.Version, Revision] | None = None
    last = len(revisions) - 1
    for index, revision in enumerate(revisions):
        version = revision.version
        if version is None:
            continue
        first = first_seen.setdefault(version, revision)
        if first is not revision and first.digest != revision.digest and revision.digest != revisions[index - 1].digest:
            params = {
                "version": version,
                "first": _short(first.commit),
                "first_date": (first.date or "")[:10],
                "first_digest": first.digest,
                "changed": _short(revision.commit),
            }
            if version == current and not reported_current:
                findings.append(PUBLISHED_VERSION_CHANGED.at(path, line, 1, **params))
                reported_current = True
            elif version != current:
                findings.append(CHANGED_WITHOUT_BUMP.at(path, line, 1, **params))
        parsed = parse_version(version)
        if parsed is None:
            continue
        if highest is not None and parsed < highest[0]:
            rule = VERSION_WENT_DOWN if index == last and version == current else VERSION_DIPPED
            findings.append(
                rule.at(
                    path, line, 1, version=version, highest=str(highest[0]),
                    commit=_short(highest[1].commit) if rule is VERSION_WENT_DOWN else _short(revision.commit),
                )
            )  # fmt: skip
        if highest is None or parsed > highest[0]:
            highest = (parsed, revision)
    return findings


def _short(commit: str) -> str:
    return commit if commit == "uncommitted" else commit[:12]
