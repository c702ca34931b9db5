"""Checking skills where they are, for `validate`: crawl, parse and validate, then (with `score`) the
content scoring of the build: the static risk analysis of each skill's files and, across the skills
checked, near-copies of one another (registry/score/clones.py).

Scoring reads each skill's files as the build does (`skill_jobs.load_contents`), under the same time
limit per skill; the registry.yaml beside the checked tree (or at its git repository's root) gives the
publishers' tiers and the rule severity overrides, as in a build.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from registry import crawl, validate
from registry.config import Limits
from registry.model import Finding, Skill
from registry.parse.skill import parse_skill
from registry.policy import Policy, PolicyError, find_policy, load_policy


@dataclass
class CheckResult:
    skills: list[Skill]
    findings: list[Finding]  # paths as the user would type them (relative to the cwd when possible)
    folders: dict[str, tuple[str, ...]] = field(default_factory=dict)  # skill folder as shown -> its files

    @property
    def files(self) -> frozenset[str]:
        """Every checked skill file, as findings name them."""
        return frozenset(
            f"{folder}/{name}" if folder else name for folder, names in self.folders.items() for name in names
        )

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


def check_paths(paths: list[Path], limits: Limits | None = None, *, score: bool = False) -> CheckResult:
    """Crawl, parse and validate the skills under `paths`; with `score`, add the risk and clone findings."""
    limits = limits or Limits()
    skills: list[Skill] = []
    findings: list[Finding] = []
    seen: set[Path] = set()
    prefixes: list[str] = []
    policies: list[Policy] = []
    loaded: dict[Path | None, Policy] = {}
    for given in paths:
        only: Path | None = None
        root = given
        if given.is_file() or given.name.lower() == "skill.md":
            root = given.parent
            only = given.parent.resolve()
        result = crawl.crawl(root, limits)
        policy = _policy_for(result.source, loaded) if score else Policy()
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
            policies.append(policy)
    validate.check_registry(skills)
    if score:
        from registry.score import apply_severity_overrides

        _score(skills, policies, limits)
        for skill, policy in zip(skills, policies, strict=True):
            skill.findings = apply_severity_overrides(skill.findings, policy.severity)
    folders: dict[str, tuple[str, ...]] = {}
    for skill, prefix in zip(skills, prefixes, strict=True):
        skill.findings = [_rebase(f, prefix) for f in skill.findings]
        findings.extend(skill.findings)
        rel = skill.location.rel_folder
        folder = prefix + rel if rel not in (".", "") else prefix.rstrip("/")
        folders[folder] = tuple(f.path for f in skill.location.files)
    findings.sort(key=lambda f: f.sort_key())
    return CheckResult(skills, findings, folders)


def _policy_for(source: Path, loaded: dict[Path | None, Policy]) -> Policy:
    """The registry.yaml a build of `source` would use (read once per call of check_paths); the built-in
    default when there is none or it is invalid (`build` reports an invalid policy; `validate` checks
    skills, not the policy)."""
    from registry.rules.catalog import all_rules

    path = find_policy(source)
    if path not in loaded:
        try:
            loaded[path] = load_policy(path, frozenset(r.code for r in all_rules()))
        except PolicyError:
            loaded[path] = Policy()
    return loaded[path]


def _score(skills: list[Skill], policies: list[Policy], limits: Limits) -> None:
    """Add each skill's risk findings, then the near-copy findings among the skills checked together.

    As in a build: only a skill with a name and a description is scored; a skill whose scoring fails
    or runs past the time limit gets the build's finding for that (E001/E002), never silence.
    """
    from registry import skill_jobs
    from registry.score import score_content
    from registry.score.clones import apply_clones, find_clones

    contents = {}
    for skill, policy in zip(skills, policies, strict=True):
        if skill.name is None or skill.description is None:
            continue
        content = None
        with skill_jobs.isolated(skill.location.skill_md_path, limits, skill.findings, changed_fails=True):
            content = score_content(skill, skill_jobs.load_contents(skill, limits), policy)
        if content is None:
            continue
        contents[skill.id] = content
        skill.findings.extend(content.risk.findings)
    candidates = [s for s in skills if s.id in contents and s.publishable]
    if len(candidates) < 2:
        return
    clones = find_clones(candidates, contents, policies[0] if policies else Policy(), None, limits)
    for skill in candidates:
        if skill.id in clones:
            before = set(contents[skill.id].risk.findings)
            scored = apply_clones(skill, contents[skill.id], clones[skill.id])
            skill.findings.extend(f for f in scored.risk.findings if f not in before)


def _rebase(finding: Finding, prefix: str) -> Finding:
    if not prefix or finding.path.startswith(prefix):
        return finding
    from dataclasses import replace

    return replace(finding, path=prefix + finding.path)
