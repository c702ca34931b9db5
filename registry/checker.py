"""Checking skills where they are, for `validate`: the build's own analysis (registry/analysis.py).

A skill inside a registry is checked as part of it: the same policy (registry.yaml), lifecycle,
git history (versions, checksums, earned trust), risk analysis and registry-wide checks as a build
of that registry, so `validate`, `build`, `serve` and `check-pr` report the same findings for the
same skill at the same commit. Outside a git work tree the version rules that need history cannot
run, and every skill says so (V007).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from registry import crawl, validate
from registry.config import Limits
from registry.model import Finding, Skill, SkillLocation
from registry.parse.skill import parse_skill
from registry.policy import find_policy

REGISTRY_SKILLS = "skills-index"  # a registry repository's skills folder, beside its registry.yaml


@dataclass
class CheckResult:
    skills: list[Skill]
    findings: list[Finding]  # paths as the user would type them (relative to the cwd when possible)
    folders: dict[str, tuple[str, ...]] = field(default_factory=dict)  # skill folder as shown -> its files
    shown_paths: list[str] = field(default_factory=list)  # each skill's SKILL.md, with the findings' path base

    @property
    def files(self) -> frozenset[str]:
        """Every checked skill file, as findings name them."""
        return frozenset(
            f"{folder}/{name}" if folder else name for folder, names in self.folders.items() for name in names
        )

    @property
    def skill_summaries(self) -> list[dict]:
        return [
            {"id": s.id, "name": s.name, "path": path, "dialects": s.dialects, "valid": not s.errors}
            for s, path in zip(self.skills, self.shown_paths, strict=True)
        ]


def display_path(root: Path) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    try:
        relative = os.path.relpath(root)
    except ValueError:
        return str(root)
    return str(root) if relative.startswith("..") else relative


def check_paths(paths: list[Path], limits: Limits | None = None, *, score: bool = False) -> CheckResult:
    """The findings a build would report for the skills under `paths`; `score=False` only reads them.

    With `score`, each path is checked inside the registry that holds it (the skills folder beside
    the registry.yaml of its git repository) by the build's own analysis: the same policy, lifecycle,
    history (versions, checksums, trust) and registry-wide checks, so `validate` and `build` agree
    finding for finding. Only the skills under `paths` are scored and reported.
    """
    limits = limits or Limits()
    if not score:
        return _read_only(paths, limits)
    from registry.analysis import analyse

    targets: dict[Path, list[tuple[Path, bool]]] = {}  # source -> (folder, exactly that folder)
    for given in paths:
        folder, exact = _given_folder(given)
        folder = folder.resolve()
        targets.setdefault(registry_source(folder), []).append((folder, exact))
    skills: list[Skill] = []
    findings: list[Finding] = []
    folders: dict[str, tuple[str, ...]] = {}
    shown: list[str] = []  # each skill's SKILL.md, as findings name it
    seen: set[Path] = set()
    for source, wanted in targets.items():

        def chosen(location: SkillLocation, wanted: list[tuple[Path, bool]] = wanted) -> bool:
            folder = location.folder.resolve()
            return any(folder == target or (not exact and folder.is_relative_to(target)) for target, exact in wanted)

        analysis = analyse(source, default_limits=limits, focus=chosen)
        prefix = _shown_prefix(source)
        inside = [target for target, _ in wanted]
        for finding in analysis.found.findings:
            where = source / finding.path
            if any(where == target or where.is_relative_to(target) for target in inside):
                findings.append(_rebase(finding, prefix))
        for skill in analysis.skills:
            folder = skill.location.folder.resolve()
            if folder in seen or not chosen(skill.location):
                continue
            seen.add(folder)
            skill.findings = [_rebase(f, prefix) for f in skill.findings]
            skills.append(skill)
            shown.append(prefix + skill.location.skill_md_path)
            findings.extend(skill.findings)
            rel = skill.location.rel_folder
            folders[prefix + rel if rel not in (".", "") else prefix.rstrip("/")] = tuple(
                f.path for f in skill.location.files
            )
    findings.sort(key=lambda f: f.sort_key())
    return CheckResult(skills, findings, folders, shown)


def registry_source(folder: Path) -> Path:
    """The skills folder a build of the registry holding `folder` reads, or `folder` itself outside one.

    A registry is a git repository with a registry.yaml at its root and its skills in `skills-index/`
    (what `build`, `check-pr` and the workflows read); a skill checked inside it gets the build's ids,
    history and registry-wide checks.
    """
    policy = find_policy(folder)
    if policy is not None:
        skills = policy.parent.resolve() / REGISTRY_SKILLS
        if skills.is_dir() and (folder == skills or folder.is_relative_to(skills)):
            return skills
    return folder


def _read_only(paths: list[Path], limits: Limits) -> CheckResult:
    """Crawl and parse, without history or scoring: what `checksum` needs."""
    skills: list[Skill] = []
    prefixes: list[str] = []
    findings: list[Finding] = []
    seen: set[Path] = set()
    for given in paths:
        root, exact = _given_folder(given)
        only = root.resolve() if exact else None
        result = crawl.crawl(root, limits)
        prefix = _shown_prefix(result.source)
        for location in result.locations:
            folder = location.folder.resolve()
            if (only is not None and folder != only) or folder in seen:
                continue
            seen.add(folder)
            skills.append(parse_skill(location, limits))
            prefixes.append(prefix)
        findings.extend(_rebase(f, prefix) for f in result.findings)
    validate.check_registry(skills)
    for skill, prefix in zip(skills, prefixes, strict=True):
        skill.findings = [_rebase(f, prefix) for f in skill.findings]
        findings.extend(skill.findings)
    findings.sort(key=lambda f: f.sort_key())
    shown = [prefix + s.location.skill_md_path for s, prefix in zip(skills, prefixes, strict=True)]
    return CheckResult(skills, findings, shown_paths=shown)


def _given_folder(given: Path) -> tuple[Path, bool]:
    """The folder a path names, and whether it names exactly one skill (a SKILL.md was given)."""
    if given.is_file() or given.name.lower() == "skill.md":
        return given.parent, True
    return given, False


def _shown_prefix(source: Path) -> str:
    """What to put before a path relative to `source` so that it reads as the user would type it."""
    shown = display_path(source)
    return "" if shown == "." else shown.rstrip("/") + "/"


def _rebase(finding: Finding, prefix: str) -> Finding:
    if not prefix or finding.path.startswith(prefix):
        return finding
    from dataclasses import replace

    return replace(finding, path=prefix + finding.path)
