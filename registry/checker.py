"""Checking skills where they are, for `validate`: the crawl, parse and validate stages only."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from registry import crawl, validate
from registry.config import Limits
from registry.model import Finding, Skill
from registry.parse.skill import parse_skill


@dataclass
class CheckResult:
    skills: list[Skill]
    findings: list[Finding]  # paths as the user would type them (relative to the cwd when possible)

    @property
    def skill_summaries(self) -> list[dict]:
        return [
            {
                "id": s.id,
                "name": s.name,
                "path": s.location.skill_md_path,
                "dialects": s.dialects,
                "valid": not s.errors,
            }
            for s in self.skills
        ]


def display_path(root: Path) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    try:
        relative = os.path.relpath(root)
    except ValueError:
        return str(root)
    return str(root) if relative.startswith("..") else relative


def check_paths(paths: list[Path], limits: Limits | None = None) -> CheckResult:
    limits = limits or Limits()
    skills: list[Skill] = []
    findings: list[Finding] = []
    seen: set[Path] = set()
    prefixes: list[str] = []
    for given in paths:
        only: Path | None = None
        root = given
        if given.is_file() or given.name.lower() == "skill.md":
            root = given.parent
            only = given.parent.resolve()
        result = crawl.crawl(root, limits)
        shown_root = display_path(result.source)
        prefix = "" if shown_root == "." else shown_root.rstrip("/") + "/"
        for finding in result.findings:
            findings.append(_rebase(finding, prefix))
        for location in result.locations:
            folder = location.folder.resolve()
            if (only is not None and folder != only) or folder in seen:
                continue
            seen.add(folder)
            skills.append(parse_skill(location, limits))
            prefixes.append(prefix)
    validate.check_registry(skills)
    for skill, prefix in zip(skills, prefixes, strict=True):
        skill.findings = [_rebase(f, prefix) for f in skill.findings]
        findings.extend(skill.findings)
    findings.sort(key=lambda f: f.sort_key())
    return CheckResult(skills, findings)


def _rebase(finding: Finding, prefix: str) -> Finding:
    if not prefix or finding.path.startswith(prefix):
        return finding
    from dataclasses import replace

    return replace(finding, path=prefix + finding.path)
