"""`check-pr`: the verdict on a pull request, from its base and head commits.

The work is proportional to the pull request. `git diff` names the touched paths; the skills that
own them are analysed exactly as a build would (crawl, parse, validate, history, score), together
with every other skill a registry-wide check could involve them with: the skills that may share a
name with them (a cheap reading of each SKILL.md's frontmatter rules the rest out), and the skills
whose MinHash is near theirs with, for each of those, the skills it ranks above them, so that
near-copy detection proposes exactly the pairs a full build would (registry/score/clones.py). The head is
analysed in place when it is the clean current checkout, else in a detached worktree; the base is
a worktree holding only the touched skill folders and the policy files, since every other folder
is byte for byte the same at both commits. A pull request that changes registry.yaml (which can
change every skill's findings), or a registry whose skill ids collide, is analysed in full on both
sides. The change is the difference between the two: skills added, updated (content digest or
version changed), moved (a folder renamed with its SKILL.md, or the same content under a new id)
and removed.

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
import functools
import json
import shutil
import subprocess
import tempfile
import unicodedata
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from registry import crawl as crawl_stage
from registry import skill_jobs
from registry.analysis import Analysis, analyse, known_rule_codes
from registry.config import Limits
from registry.history import GIT_ENV, SkillHistory
from registry.lifecycle import LIFECYCLE_FILE, Lifecycle, load_lifecycle
from registry.model import Finding, Severity, Skill, SkillLocation
from registry.parse.document import read_document
from registry.parse.document import split as split_frontmatter
from registry.policy import POLICY_FILE, RISK_LEVELS, Policy, PolicyError, find_policy, load_policy
from registry.rules.layout import ID_RENAMED
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
from registry.score import Assessment, apply_severity_overrides
from registry.score.clone_rules import Clone
from registry.score.clones import Neighbours, compared, fingerprint
from registry.text import slug
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


def _git_paths(repo: Path, *args: str, paths: Sequence[str] = ()) -> list[str]:
    """The NUL-separated paths a git command prints; `paths` go to it as literal pathspecs on stdin."""
    result = subprocess.run(
        ["git", "-C", str(repo), *args], input=b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths),
        capture_output=True, env={**GIT_ENV, "GIT_LITERAL_PATHSPECS": "1"}, check=False,
    )  # fmt: skip
    if result.returncode != 0:
        raise ValueError(result.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return [p.decode("utf-8", "surrogateescape") for p in result.stdout.split(b"\0") if p]


@contextlib.contextmanager
def worktree(repo: Path, ref: str, only: Sequence[str] | None = None) -> Iterator[Path]:
    """A detached checkout of `ref`: of every file, or of the paths in `only` (files or folders)."""
    folder = Path(tempfile.mkdtemp(prefix="skill-registry-pr-"))
    target = folder / "tree"
    sparse = ["--no-checkout"] if only is not None else []
    _git(repo, "worktree", "add", "--quiet", "--detach", *sparse, str(target), ref)
    try:
        if only:
            _git_paths(target, "checkout", ref, "--pathspec-from-file=-", "--pathspec-file-nul", paths=only)
        yield target
    finally:
        subprocess.run(
            ["git", "-C", str(repo), "worktree", "remove", "--force", str(target)],
            capture_output=True, env=GIT_ENV, check=False,
        )  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def _head_tree(repo: Path, head_sha: str, prefix: str) -> Iterator[Path]:
    """The repository itself when `head_sha` is its clean checkout (a CI job's), else a worktree.

    Clean means that git sees no modified, untracked or ignored file under the source folder or
    among the policy files: the crawl then reads what a checkout of the commit would hold.
    """
    paths = [prefix or ".", POLICY_FILE, LIFECYCLE_FILE]
    in_place = _git(repo, "rev-parse", "HEAD") == head_sha and not _git_paths(
        repo, "status", "--porcelain", "-z", "--untracked-files=all", "--ignored=matching", "--", *paths
    )
    if in_place:
        yield repo
        return
    with worktree(repo, head_sha) as tree:
        yield tree


def _policy_at(tree: Path) -> tuple[Policy | None, str | None]:
    path = tree / POLICY_FILE
    if not path.is_file():
        return Policy(), None
    try:
        return load_policy(path, known_rule_codes), None
    except PolicyError as err:
        return None, "; ".join(err.problems)


@dataclass(frozen=True)
class _Scope:
    """What a pull request touched, from `git diff` (paths relative to the source folder)."""

    touched: frozenset[str]
    checkout: tuple[str, ...]  # what the base worktree needs (relative to the repository root)

    def folders_owning(self, folders: Collection[str]) -> set[str]:
        """The folders among `folders` that hold a touched path (every enclosing skill, nested or not)."""
        owning = set()
        for path in self.touched:
            parts = path.split("/")
            owning.update(f for f in ("/".join(parts[:n]) for n in range(1, len(parts) + 1)) if f in folders)
        return owning

    def related(self, path: str) -> bool:
        """Whether a crawl finding's path could read differently at the base: it is touched, holds a
        touched path, or lies inside one."""
        return any(t == path or t.startswith(path + "/") or path.startswith(t + "/") for t in self.touched)


def _scope(repo: Path, base_sha: str, head_sha: str, prefix: str) -> _Scope | None:
    """The touched paths and the base checkout they need; None when the base must be analysed in full:
    the policy changed, or two skill folders at the base share an id (ids then depend on every folder)."""
    changed = _git_paths(repo, "diff", "--no-renames", "--name-only", "-z", base_sha, head_sha)
    if POLICY_FILE in changed or prefix + POLICY_FILE in changed:
        return None
    touched = frozenset(p[len(prefix) :] for p in changed if p.startswith(prefix))
    policy_files = (POLICY_FILE, LIFECYCLE_FILE, prefix + LIFECYCLE_FILE)
    listed = _git_paths(repo, "ls-tree", "-r", "-z", "--name-only", base_sha, "--", prefix or ".", *policy_files)
    folders = {p[len(prefix) :].rpartition("/")[0] for p in listed if p.startswith(prefix) and _is_skill_md(p)}
    if "" in folders or len({"/".join(slug(part) for part in f.split("/")) for f in folders}) != len(folders):
        return None
    scope = _Scope(touched, ())
    owning = sorted(prefix + folder for folder in scope.folders_owning(folders))
    return dataclasses.replace(scope, checkout=tuple(owning) + tuple(p for p in policy_files if p in listed))


def _is_skill_md(path: str) -> bool:
    return path.rpartition("/")[2].lower() == "skill.md"


def check_pull_request(
    repo: Path, base: str, head: str, actor: str | None, source: str = "skills-index", whole: bool = False
) -> PullRequestReport:
    """The verdict on the pull request from `base` to `head`; `whole` analyses both commits in full
    (what a pull request changing the policy gets, and what the proportional check must equal)."""
    repo = Path(_git(repo, "rev-parse", "--show-toplevel"))
    base_sha = _git(repo, "rev-parse", "--verify", base + "^{commit}")
    head_sha = _git(repo, "rev-parse", "--verify", head + "^{commit}")
    prefix = "" if source.strip("/") in ("", ".") else source.strip("/") + "/"
    scope = None if whole else _scope(repo, base_sha, head_sha, prefix)
    only = scope.checkout if scope is not None else None
    with _head_tree(repo, head_sha, prefix) as head_tree, worktree(repo, base_sha, only) as base_tree:
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
        try:
            sides = None if scope is None else _proportional_sides(base_tree, head_tree, source, scope, head_policy)
            if sides is None:
                with contextlib.ExitStack() as stack:
                    full_base = base_tree if only is None else stack.enter_context(worktree(repo, base_sha))
                    before = _side(_analyse(full_base / source, full_base / POLICY_FILE))
                    after = _side(_analyse(head_tree / source, head_tree / POLICY_FILE))
            else:
                before, after = sides
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


@dataclass
class _Side:
    """One commit as the review compares it: its skills (every one, or every one the pull request
    could involve), what its crawl noticed, and the assessments and histories of the skills scored."""

    skills: dict[str, Skill]
    crawl_findings: list[Finding]
    assessments: dict[str, Assessment] = field(default_factory=dict)
    histories: dict[str, SkillHistory] = field(default_factory=dict)


def _side(analysis: Analysis | None) -> _Side:
    if analysis is None:
        return _Side({}, [])
    skills = {s.id: s for s in analysis.skills}
    return _Side(skills, analysis.found.findings, analysis.assessments, analysis.repository.histories)


def _proportional_sides(
    base_tree: Path, head_tree: Path, source: str, scope: _Scope, head_policy: Policy | None
) -> tuple[_Side, _Side] | None:
    """Base and head analysed for the skills the pull request touches and those they could involve
    (`head_policy`: registry.yaml at the head, the same as at the base); None when the head's skill
    ids collide (the caller then analyses both commits in full)."""
    head_source = head_tree / source
    policy_path = head_tree / POLICY_FILE if (head_tree / POLICY_FILE).is_file() else None
    policy = head_policy if policy_path and head_policy else load_policy(find_policy(head_source), known_rule_codes)
    limits = policy.limits if policy.source else Limits()
    found = crawl_stage.crawl(head_source, limits) if head_source.is_dir() else None
    if found is not None and (
        any(f.code == ID_RENAMED.code for f in found.findings) or any(loc.rel_folder == "." for loc in found.locations)
    ):
        return None  # ids that depend on every folder, or one skill that holds them all
    after = _side(None)
    touched_folders: set[str] = set()
    if found is not None:
        touched_folders = scope.folders_owning({loc.rel_folder for loc in found.locations})
        focus = _involved(found.locations, touched_folders, limits)
        analysis = analyse(
            head_source, policy_path, found=found, focus=lambda loc: loc.id in focus, parse_unfocused=False
        )
        after = _side(analysis)
    # The base: the touched folders read from their own checkout; every other skill is the same bytes
    # at both commits, so the head's reading of it stands for the base's.
    base_source = base_tree / source
    before = _Side({}, [])
    if base_source.is_dir():
        at_base = crawl_stage.crawl(base_source, limits)
        before.crawl_findings = apply_severity_overrides(at_base.findings, policy.severity)
        for location in at_base.locations:
            before.skills[location.id] = skill_jobs.read_skill(location, limits).skill
    for skill_id, skill in after.skills.items():
        if skill.location.rel_folder not in touched_folders:
            before.skills.setdefault(skill_id, skill)
    before.crawl_findings += [f for f in after.crawl_findings if not scope.related(f.path)]
    return before, after


def _involved(locations: Sequence[SkillLocation], touched: set[str], limits: Limits) -> set[str]:
    """Ids of the skills a registry-wide check could involve with the touched ones.

    The touched skills; the skills that share a name with them, their folder's name or a name they
    require (duplicate names, the choice of who is listed under a discovery name, `requires` targets);
    and what near-copy detection needs to propose for all of these exactly the pairs a full build
    proposes (_near_copy_partners).
    """
    targets = {loc.id for loc in locations if loc.rel_folder in touched}
    names: set[str] = set()
    for location in locations:
        if location.id in targets:
            skill = skill_jobs.read_skill(location, limits).skill
            names.update(n for n in (skill.name, location.folder.name) if n)
            names.update(ref.target for ref in skill.references)
    sketches: dict[str, np.ndarray] = {}
    for location in locations:
        glance = _glance(location, names, limits)
        if glance.minhash is not None:
            sketches[location.id] = np.frombuffer(glance.minhash, dtype="<u4")
        if glance.named:
            targets.add(location.id)
    return targets | _near_copy_partners(sketches, targets)


def _near_copy_partners(sketches: dict[str, np.ndarray], targets: set[str]) -> set[str]:
    """The skills near-copy detection must see beside `targets` to propose exactly the pairs a full
    build proposes for them, from every skill's MinHash.

    A full build pairs two skills when either is among the other's best MAX_CANDIDATES ranked LSH
    neighbours (clones.Neighbours, which both use). So:
    every such neighbour of a target; and for each neighbour, every skill it ranks above the target,
    so that the target ranks the same among the neighbour's candidates here as in a full build.
    """
    if not sketches or not targets & sketches.keys():
        return set()
    neighbours = Neighbours(sketches)
    ranked_neighbours = functools.cache(neighbours.ranked)

    partners: set[str] = set()
    for target in sorted(targets & sketches.keys()):
        for neighbour in ranked_neighbours(target):
            partners.add(neighbour)
            theirs = ranked_neighbours(neighbour)
            partners.update(theirs[: theirs.index(target)] if target in theirs else theirs)
    return partners


@dataclass(frozen=True)
class _Glance:
    named: bool  # the skill may be named like one of the names looked for, or its folder is
    minhash: bytes | None  # the skill's MinHash (registry/score/clones.py), None when too small to compare


def _glance(location: SkillLocation, names: Collection[str], limits: Limits) -> _Glance:
    """What the involvement test needs of a skill, from its bytes (no parse, no score)."""
    contents: dict[str, bytes] = {}
    try:
        for skill_file in location.files:
            if skill_file.path == "SKILL.md" or compared(skill_file.path):
                contents[skill_file.path] = crawl_stage.read_bytes(
                    skill_file, max(limits.skill_md_bytes, limits.file_bytes)
                )
    except OSError:
        return _Glance(True, None)  # unreadable now: analysed, so that the analysis says why
    printed = fingerprint(contents)
    data = contents.get("SKILL.md", b"")
    named = location.folder.name in names or _may_be_named(data, names, location.skill_md_path, limits)
    return _Glance(named, printed.minhash if printed else None)


def _may_be_named(data: bytes, names: Collection[str], path: str, limits: Limits) -> bool:
    """False only when parsing cannot give the SKILL.md one of `names` (registry/dialects/standard.py).

    Cheap first: unless its frontmatter has a backslash or a doubled quote (YAML escapes), every word
    of a name it declares is written there, after the Unicode normalisation names get (YAML folds a
    long name over lines with single spaces). Then the frontmatter's top-level `name`, as the parser's
    text loader reads it (registry/parse/safe_yaml.py: last key wins, no merge keys). A frontmatter the
    quick readings cannot settle (not UTF-8, unclosed, invalid YAML: parsing recovers a name from the
    lines) is parsed as the analysis parses it.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _declared_name(data, path, limits) in names
    opening, closing, _ = split_frontmatter(text)
    if opening is None or closing is None:
        return _declared_name(data, path, limits) in names
    written = "\n".join(text.split("\n")[opening + 1 : closing])
    frontmatter = written if written.isascii() else unicodedata.normalize("NFKC", written)
    escaped = "\\" in frontmatter or "''" in frontmatter
    if not escaped and not any(all(word in frontmatter for word in name.split()) for name in names):
        return False
    try:
        root = yaml.compose(written, Loader=getattr(yaml, "CBaseLoader", yaml.BaseLoader))
    except yaml.YAMLError:
        return _declared_name(data, path, limits) in names
    values = [v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "name"] if isinstance(
        root, yaml.MappingNode
    ) else []  # fmt: skip
    value = values[-1] if values else None
    return isinstance(value, yaml.ScalarNode) and unicodedata.normalize("NFKC", value.value.strip()) in names


def _declared_name(data: bytes, path: str, limits: Limits) -> str | None:
    """The name parsing gives a SKILL.md (registry/dialects/standard.py), from its frontmatter alone."""
    if len(data) > limits.skill_md_bytes:
        return None
    frontmatter = read_document(data, path, limits).frontmatter
    raw = frontmatter.get("name") if isinstance(frontmatter, Mapping) else None
    return unicodedata.normalize("NFKC", raw.strip()) if isinstance(raw, str) and raw.strip() else None


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


def _diff(before: _Side, after: _Side) -> list[Change]:
    old, new = before.skills, after.skills
    crawled = after.crawl_findings  # what the crawler noticed, e.g. a second skill.md
    histories = after.histories
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
        assessment = after.assessments.get(skill_id)
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


def _new_outside_skills(before: _Side, after: _Side) -> list[Finding]:
    """Crawl findings outside every skill folder that the base did not have (a stray file, a loop)."""
    folders = [s.location.rel_folder for s in after.skills.values()]
    known = set(before.crawl_findings)
    return [
        f for f in after.crawl_findings if f not in known and not any(_inside(f.path, folder) for folder in folders)
    ]


def _check_change(
    change: Change, before: _Side, after: _Side, base_policy: Policy, head_policy: Policy, actor: str | None
) -> None:
    new = after.skills
    old = before.skills
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
    assessment = after.assessments.get(change.id)
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
