"""`check-pr`: the verdict on a pull request, from its base and head commits.

Both commits are checked out as detached git worktrees (sharing the repository's objects) and
analysed exactly as a build would (crawl, parse, validate, history, score). The change is the
difference between the two analyses: skills added, updated (content digest or version changed),
moved (a folder renamed with its SKILL.md, or the same content under a new id) and removed.

Changed skills must pass every validation rule plus the rules a review adds: a content change
needs a higher version, versions never go down, a new skill has a semver version, the actor owns
the namespace (registry.yaml at the BASE commit decides, so a pull request cannot grant itself
rights), no skill reaches high or critical risk without a maintainer's override, and no change
introduces a duplicate name. Only registry maintainers may change registry.yaml, and the new
policy must be valid. The exit status is 0 when the pull request can be merged.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from registry.analysis import Analysis, analyse, known_rule_codes
from registry.history import GIT_ENV
from registry.lifecycle import LIFECYCLE_FILE, Lifecycle, load_lifecycle
from registry.model import Finding, Severity, Skill
from registry.policy import POLICY_FILE, RISK_LEVELS, Policy, PolicyError, load_policy
from registry.rules.pull_request import (
    COPY_OF,
    DUPLICATE_NAME,
    LIFECYCLE_INVALID,
    LIFECYCLE_NOT_OWNER,
    NEEDS_SEMVER,
    NOT_BUMPED,
    NOT_OWNER,
    POLICY_INVALID,
    POLICY_NOT_MAINTAINER,
    REMOVED,
    RISK_GATE,
    SKILL_ERROR,
    VERSION_DOWN,
)
from registry.score.clone_rules import Clone
from registry.versions import parse_version


@dataclass
class Change:
    kind: str  # added, updated, moved, removed
    id: str
    old_id: str | None
    name: str | None
    old_version: str | None
    new_version: str | None
    tier: str | None
    risk: str | None
    findings: list[Finding] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def verdict(self) -> str:
        return "blocked" if self.errors else "ok"

    def to_json(self) -> dict:
        return {
            "kind": self.kind, "id": self.id, "old_id": self.old_id, "name": self.name,
            "old_version": self.old_version, "new_version": self.new_version, "tier": self.tier,
            "risk": self.risk, "verdict": self.verdict, "findings": [f.to_json() for f in self.findings],
        }  # fmt: skip


@dataclass
class PullRequestReport:
    base: str
    head: str
    actor: str | None
    changes: list[Change]
    general: list[Finding]  # findings not tied to one skill (the policy file)

    @property
    def mergeable(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.general) and not any(c.errors for c in self.changes)

    def findings(self) -> list[Finding]:
        return self.general + [f for c in self.changes for f in c.findings]

    def to_json(self) -> dict:
        return {
            "format": 1, "base": self.base, "head": self.head, "actor": self.actor, "mergeable": self.mergeable,
            "changes": [c.to_json() for c in self.changes], "general": [f.to_json() for f in self.general],
        }  # fmt: skip


def _git(repo: Path, *args: str) -> str:
    result = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, env=GIT_ENV, check=False)
    if result.returncode != 0:
        raise ValueError(result.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return result.stdout.decode("utf-8", "replace").strip()


@contextlib.contextmanager
def worktree(repo: Path, ref: str) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="skill-registry-pr-"))
    target = folder / "tree"
    _git(repo, "worktree", "add", "--quiet", "--detach", str(target), ref)
    try:
        yield target
    finally:
        subprocess.run(
            ["git", "-C", str(repo), "worktree", "remove", "--force", str(target)],
            capture_output=True, env=GIT_ENV, check=False,
        )  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)


def _policy_at(tree: Path) -> tuple[Policy | None, str | None]:
    path = tree / POLICY_FILE
    if not path.is_file():
        return Policy(), None
    try:
        return load_policy(path, known_rule_codes), None
    except PolicyError as err:
        return None, "; ".join(err.problems)


def check_pull_request(
    repo: Path, base: str, head: str, actor: str | None, source: str = "skills-index"
) -> PullRequestReport:
    repo = Path(_git(repo, "rev-parse", "--show-toplevel"))
    base_sha = _git(repo, "rev-parse", "--verify", base + "^{commit}")
    head_sha = _git(repo, "rev-parse", "--verify", head + "^{commit}")
    with worktree(repo, base_sha) as base_tree, worktree(repo, head_sha) as head_tree:
        base_policy, _ = _policy_at(base_tree)
        head_policy, head_problem = _policy_at(head_tree)
        general: list[Finding] = []
        policy_changed = _file_bytes(base_tree / POLICY_FILE) != _file_bytes(head_tree / POLICY_FILE)
        maintainers = base_policy.maintainers if base_policy else ()
        if policy_changed and (actor is None or actor not in maintainers):
            general.append(POLICY_NOT_MAINTAINER.at(POLICY_FILE, None, None, actor=actor or "the author"))
        if head_problem is not None:
            general.append(POLICY_INVALID.at(POLICY_FILE, None, None, problem=head_problem))
            return PullRequestReport(base_sha, head_sha, actor, [], general)
        general += _lifecycle_changes(base_tree, head_tree, base_policy or Policy(), actor)
        if any(f.code == "Q012" for f in general):
            return PullRequestReport(base_sha, head_sha, actor, [], general)
        before = _analyse(base_tree / source, base_tree / POLICY_FILE)
        try:
            after = _analyse(head_tree / source, head_tree / POLICY_FILE)
        except PolicyError as err:
            general.append(LIFECYCLE_INVALID.at(LIFECYCLE_FILE, None, None, problem="; ".join(err.problems)))
            return PullRequestReport(base_sha, head_sha, actor, [], general)
        changes = _diff(before, after)
        general += [dataclasses.replace(f, path=f"{source}/{f.path}") for f in _new_outside_skills(before, after)]
        for change in changes:
            _check_change(change, before, after, base_policy or Policy(), head_policy or Policy(), actor)
            # Paths from the repository root, as GitHub annotations and reviewers expect them.
            change.findings = [dataclasses.replace(f, path=f"{source}/{f.path}") for f in change.findings]
    return PullRequestReport(base_sha, head_sha, actor, changes, general)


def _lifecycle_changes(base_tree: Path, head_tree: Path, policy: Policy, actor: str | None) -> list[Finding]:
    """Every added, changed or removed lifecycle entry must be the actor's to make."""
    try:
        after = load_lifecycle(head_tree / LIFECYCLE_FILE if (head_tree / LIFECYCLE_FILE).is_file() else None)
    except PolicyError as err:
        return [LIFECYCLE_INVALID.at(LIFECYCLE_FILE, None, None, problem="; ".join(err.problems))]
    try:
        before = load_lifecycle(base_tree / LIFECYCLE_FILE if (base_tree / LIFECYCLE_FILE).is_file() else None)
    except PolicyError:
        before = Lifecycle()
    old, new = before.entries(), after.entries()
    findings = []
    for key in sorted(set(old) | set(new)):
        if old.get(key) == new.get(key):
            continue
        ids = (new.get(key) or old.get(key))[1]
        for skill_id in ids:
            why = _ownership_problem(skill_id.split("/", 1)[0], actor, policy)
            if why is not None:
                findings.append(
                    LIFECYCLE_NOT_OWNER.at(LIFECYCLE_FILE, None, None, actor=actor or "the author", entry=key, why=why)
                )
                break
    return findings


def _file_bytes(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() else None


def _analyse(source: Path, policy: Path) -> Analysis | None:
    if not source.is_dir():
        return None
    return analyse(source, policy if policy.is_file() else None)


def _skills(analysis: Analysis | None) -> dict[str, Skill]:
    return {s.id: s for s in analysis.skills} if analysis else {}


def _diff(before: Analysis | None, after: Analysis | None) -> list[Change]:
    old, new = _skills(before), _skills(after)
    crawled = after.found.findings if after else []  # what the crawler noticed, e.g. a second skill.md
    histories = after.repository.histories if after else {}
    moved_from: dict[str, str] = {}
    for skill_id, skill in new.items():
        if skill_id in old:
            continue
        history = histories.get(skill.location.rel_folder)
        previous = {p for p in (history.previous_folders if history else ())}
        match = next((o for o in old.values() if o.id not in new and o.location.rel_folder in previous), None)
        if match is None:
            match = next(
                (o for o in old.values() if o.id not in new and o.content_digest == skill.content_digest), None
            )
        if match is not None and match.id not in moved_from.values():
            moved_from[skill_id] = match.id
    changes: list[Change] = []
    for skill_id, skill in sorted(new.items()):
        assessment = after.assessments.get(skill_id) if after else None
        tier = assessment.trust.tier if assessment else None
        if skill_id in old:
            before_skill = old[skill_id]
            if before_skill.content_digest == skill.content_digest and before_skill.version == skill.version:
                continue
            kind, old_id = "updated", skill_id
        elif skill_id in moved_from:
            kind, old_id = "moved", moved_from[skill_id]
        else:
            kind, old_id = "added", None
        before_skill = old.get(old_id) if old_id else None
        changes.append(
            Change(
                kind, skill_id, old_id if kind == "moved" else None, skill.name,
                before_skill.version if before_skill else None, skill.version, tier, skill.risk_level,
                list(skill.findings) + [f for f in crawled if _inside(f.path, skill.location.rel_folder)],
            )
        )  # fmt: skip
    for skill_id, skill in sorted(old.items()):
        if skill_id not in new and skill_id not in moved_from.values():
            change = Change("removed", skill_id, None, skill.name, skill.version, None, None, None)
            change.findings.append(REMOVED.at(skill.location.skill_md_path))
            changes.append(change)
    return changes


def _inside(path: str, folder: str) -> bool:
    return folder in (".", "") or path == folder or path.startswith(folder + "/")


def _new_outside_skills(before: Analysis | None, after: Analysis | None) -> list[Finding]:
    """Crawl findings outside every skill folder that the base did not have (a stray file, a loop)."""
    if after is None:
        return []
    folders = [s.location.rel_folder for s in after.skills]
    known = set(before.found.findings) if before else set()
    return [
        f for f in after.found.findings if f not in known and not any(_inside(f.path, folder) for folder in folders)
    ]


def _check_change(
    change: Change, before: Analysis | None, after: Analysis | None, base_policy: Policy, head_policy: Policy,
    actor: str | None,
) -> None:  # fmt: skip
    new = _skills(after)
    old = _skills(before)
    path = new[change.id].location.skill_md_path if change.id in new else f"{change.id}/SKILL.md"
    namespace = change.id.split("/", 1)[0]
    why = _ownership_problem(namespace, actor, base_policy)
    if why is None and change.old_id and change.old_id.split("/", 1)[0] != namespace:
        why = _ownership_problem(change.old_id.split("/", 1)[0], actor, base_policy)
    if why is not None:
        change.findings.append(
            NOT_OWNER.at(path, None, None, actor=actor or "the author", namespace=namespace, why=why)
        )
    if change.kind == "removed":
        return
    skill = new[change.id]
    errors = [f for f in skill.findings if f.severity is Severity.ERROR]
    if errors:
        folder = skill.location.rel_folder
        change.findings.insert(0, SKILL_ERROR.at(path, None, None, count=len(errors), folder=folder))
    line = skill.document.key_lines.get("version") or skill.document.key_lines.get("metadata")
    new_version = parse_version(skill.version)
    if new_version is None:
        problem = f"version '{skill.version}' is not semver" if skill.version else "no version is declared"
        change.findings.append(NEEDS_SEMVER.at(path, line, 1, problem=problem, suggestion="1.0.0"))
    previous = old.get(change.old_id or change.id)
    old_version = parse_version(previous.version) if previous is not None else None
    if previous is not None and new_version is not None and old_version is not None:
        if new_version < old_version:
            change.findings.append(VERSION_DOWN.at(path, line, 1, old=previous.version, new=skill.version))
        elif new_version == old_version and previous.content_digest != skill.content_digest:
            change.findings.append(
                NOT_BUMPED.at(
                    path, line, 1, old_digest=previous.content_digest[:19] + "…",
                    new_digest=skill.content_digest[:19] + "…", version=skill.version,
                    suggestion=str(old_version.bump_patch()),
                )
            )  # fmt: skip
    if skill.risk_level in ("high", "critical"):
        override = head_policy.risk_override(skill.id)
        allowed = override is not None and RISK_LEVELS.index(skill.risk_level) <= RISK_LEVELS.index(override.max_level)
        if not allowed:
            change.findings.append(RISK_GATE.at(path, None, None, level=skill.risk_level))
    assessment = after.assessments.get(change.id) if after else None
    for clone in assessment.clones if assessment else ():
        if not clone.original:
            change.findings.append(_copy_finding(change, skill, clone))
    others = sorted(s.id for s in new.values() if s.name == skill.name and s.id != skill.id)
    previous_name = previous.name if previous is not None else None
    if others and skill.name != previous_name:
        line = skill.document.key_lines.get("name")
        change.findings.append(DUPLICATE_NAME.at(path, line, 1, name=skill.name, others=", ".join(others[:5])))


def _copy_finding(change: Change, skill: Skill, clone: Clone) -> Finding:
    """Q013: the skill this pull request adds or changes is mostly another skill's text."""
    shown = [
        f"{f.path}: " + "; ".join([f"+{n}: {t}" for n, t in f.added[:3]] + [f"-{n}: {t}" for n, t in f.removed[:2]])
        + (" …" if f.added_count > 3 or f.removed_count > 2 else "")
        for f in clone.files[:3]
    ]  # fmt: skip
    changes = clone.summary() + (" (" + " | ".join(shown) + ")" if shown else "")
    risk = f"; the added lines bring {', '.join(clone.adds)}" if clone.adds else ""
    file, line = clone.at if clone.at else (skill.location.skill_md, None)
    folder = skill.location.rel_folder
    verb = {"added": "adds", "moved": "moves"}.get(change.kind, "updates")
    return COPY_OF.at(
        file if folder in (".", "") else f"{folder}/{file}", line, None,
        adds=verb, other=clone.other_id, percent=clone.percent, changes=changes, risk=risk,
    )  # fmt: skip


def _ownership_problem(namespace: str, actor: str | None, policy: Policy) -> str | None:
    if actor is None:
        return None  # no actor given: ownership is not checked (local runs)
    if actor in policy.maintainers:
        return None
    owner = policy.owner_of(namespace)
    if owner is None:
        if namespace.lower() == actor.lower():
            return None  # a personal namespace named after the author's login
        return f"no publisher owns '{namespace}' in registry.yaml, and it is not the author's own login"
    if actor in owner.maintainers:
        return None
    listed = ", ".join(owner.maintainers) or "not listed"
    return f"'{namespace}' belongs to publisher '{owner.name}', whose maintainers are {listed}"


# -- output ------------------------------------------------------------------------------------


def as_json(report: PullRequestReport) -> str:
    return json.dumps(report.to_json(), ensure_ascii=False, indent=2)


def as_markdown(report: PullRequestReport) -> str:
    icon = "✅" if report.mergeable else "❌"
    lines = [
        f"## {icon} Skill registry check: {'ready to merge' if report.mergeable else 'changes needed'}",
        "",
        f"Base `{report.base[:12]}`, head `{report.head[:12]}`"
        + (f", author @{report.actor}" if report.actor else "")
        + ".",
        "",
    ]
    if not report.changes and not report.general:
        lines.append("No skill changed.")
    if report.changes:
        lines += [
            "| skill | change | verdict | version | tier | risk | findings |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for c in report.changes:
            version = _version_change(c)
            counts = _counts(c.findings)
            verdict = "❌ blocked" if c.errors else "✅ ok"
            moved = f" (from `{c.old_id}`)" if c.old_id else ""
            lines.append(
                f"| `{c.id}`{moved} | {c.kind} | {verdict} | {version} | {c.tier or '–'} | {c.risk or '–'} | {counts} |"
            )
        lines.append("")
    for finding in report.general:
        lines.append(
            f"- **{finding.severity.value} {finding.code}** `{finding.path}`: {finding.message}. Fix: {finding.hint}"
        )
    for c in report.changes:
        shown = [f for f in c.findings if f.severity is not Severity.INFO]
        if not shown:
            continue
        lines += ["", f"### `{c.id}`", ""]
        for f in sorted(shown, key=lambda f: (f.severity.rank, f.sort_key())):
            where = f.path + (f":{f.line}" if f.line else "")
            lines.append(f"- **{f.severity.value} [{f.code}](docs/rules.md)** `{where}`: {_md(f.message)}  ")
            lines.append(f"  Fix: {_md(f.hint)}")
    lines.append("")
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _version_change(change: Change) -> str:
    if change.old_version == change.new_version:
        return change.new_version or "–"
    return f"{change.old_version or '–'} → {change.new_version or '–'}"


def _counts(findings: list[Finding]) -> str:
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    warnings = sum(1 for f in findings if f.severity is Severity.WARNING)
    return f"{errors} errors, {warnings} warnings"
