"""Checking skills where they are, for `validate`: the build's own analysis (registry/analysis.py).

A skill inside a registry is checked as part of it: the same policy (registry.yaml), lifecycle,
git history (versions, checksums, earned trust), risk analysis and registry-wide checks as a build
of that registry, so `validate`, `build`, `serve` and `check-pr` report the same findings for the
same skill at the same commit. Outside a git work tree the version rules that need history cannot
run, and every skill says so (V007).

The work is proportional to what is checked, as in `check-pr` (registry/pr.py): the registry's tree
is walked (every skill's folder and id), the skills asked for are crawled and analysed (in worker
processes when they are many), and of the others only the skills a registry-wide check could
involve them with are crawled and parsed: those that may share a name with them, their folder's
name or a name they require, which a look at the bytes of each SKILL.md's frontmatter settles for
nearly all. History is read for those folders alone. That is everything the registry-wide checks
(duplicate names, `requires` targets, who gets a contested discovery name), the lifecycle and the
history rules read, so the findings are those of an analysis of every skill (`whole=True`, which
tests/test_validate_proportional.py compares it with).
"""

from __future__ import annotations

import os
import re
import sys
import threading
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import TYPE_CHECKING

from registry import crawl, validate
from registry.config import Limits
from registry.model import Finding, Skill, SkillFile, SkillLocation
from registry.parse.skill import parse_skill
from registry.policy import find_policy

if TYPE_CHECKING:
    from registry.analysis import Analysis
    from registry.lifecycle import Lifecycle
    from registry.policy import Policy
    from registry.skill_jobs import Analysed

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


def check_paths(
    paths: list[Path], limits: Limits | None = None, *, score: bool = False, whole: bool = False
) -> CheckResult:
    """The findings a build would report for the skills under `paths`; `score=False` only reads them.

    With `score`, each path is checked inside the registry that holds it (the skills folder beside
    the registry.yaml of its git repository) by the build's own analysis: the same policy, lifecycle,
    history (versions, checksums, trust) and registry-wide checks, so `validate` and `build` agree
    finding for finding. Only the skills under `paths` are scored and reported. With `whole`, every
    other skill of the registry is parsed and the whole history read (the reference the proportional
    analysis must equal).
    """
    limits = limits or Limits()
    if not score:
        return _read_only(paths, limits)
    from registry.analysis import analyse
    from registry.workers import fewer_collections

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
            return _selects(wanted, location.folder)

        with fewer_collections():
            analysis = (
                analyse(source, default_limits=limits, focus=chosen)
                if whole
                else _analyse_proportional(source, limits, wanted)
            )
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


def _analyse_proportional(source: Path, default_limits: Limits, wanted: list[tuple[Path, bool]]) -> Analysis:
    """What `analyse(source, default_limits=..., focus=...)` gives for the skills in `wanted` (folders, and
    whether exactly that folder), from the work they need.

    The same stages in the same order as registry/analysis.py, on the skills asked for and the few others
    a registry-wide check could involve them with (_involved). The crawl walks the whole tree (every
    skill's folder and id, every finding of the walk) but lists, checks and hashes the files only of the
    skills it needs (crawl.finish). When two folders would take the same id, ids depend on every folder:
    the whole analysis then runs.
    """
    from registry import history, skill_jobs
    from registry.analysis import Analysis, analyse, choose_discovery, clone_stage, known_rule_codes
    from registry.lifecycle import apply_lifecycle, check_against, find_lifecycle, load_lifecycle
    from registry.model import CrawlResult
    from registry.policy import PolicyError, load_policy
    from registry.score import apply_severity_overrides, score_history

    policy_file = find_policy(source)
    policy = load_policy(policy_file, known_rule_codes)
    lifecycle_file = find_lifecycle(policy_file, source)
    lifecycle = load_lifecycle(lifecycle_file)
    limits = policy.limits if policy.source else default_limits

    walked = _Walked.of(source, limits)
    if walked is None:
        return analyse(source, default_limits=default_limits, focus=lambda location: _selects(wanted, location.folder))
    items = walked.items
    targets: list[int] = []
    for index, item in enumerate(items):
        if _selects(wanted, item.folder):
            targets.append(index)
            walked.finish(index)
        elif any(_below(target, item.folder) for target, _ in wanted):
            walked.finish(index)  # a skill holding a folder asked for: its crawl findings may lie there
    named = _lifecycle_ids(lifecycle)
    for index, skill_id in enumerate(walked.ids):
        if skill_id in named:
            walked.finish(index)  # whether it was dropped decides the lifecycle's check
    located = [(index, walked.finish(index)) for index in targets]
    chosen = [(index, location) for index, location in located if location is not None]
    scored = _analyse_skills([location for _, location in chosen], limits, policy)
    analysed = {index: result for (index, _), result in zip(chosen, scored, strict=True)}
    for index in _involved(walked, analysed, limits):
        location = walked.finish(index)
        if location is not None:
            analysed[index] = skill_jobs.read_skill(location, limits)
    results = [analysed[index] for index in sorted(analysed, key=lambda i: walked.ids[i])]
    skills = [result.skill for result in results]

    validate.check_registry(skills)
    # Every id but those of skills the crawl drops, known for each id the lifecycle names (finished above).
    present = {i for n, i in enumerate(walked.ids) if n not in walked.locations or walked.locations[n] is not None}
    problems = check_against(lifecycle, present, str(source))
    if problems:
        raise PolicyError(str(lifecycle_file), problems)
    apply_lifecycle(skills, lifecycle)
    # Partial: the lineages ending in these folders only (registry/history.py), the same histories.
    repository = history.read_repository(
        walked.root, [s.location.rel_folder for s in skills], limits, partial=len(skills) < len(items)
    )
    repository.saved_walk = None
    clone_stage(results, repository, policy, limits, lifecycle)
    assessments = {
        result.skill.id: score_history(result.skill, result.content, repository, policy)
        for result in results
        if result.content is not None
    }
    discovery = choose_discovery(skills, assessments, repository, policy, lifecycle)
    for skill in skills:
        skill.findings = apply_severity_overrides(skill.findings, policy.severity)
    found = CrawlResult(walked.root, [s.location for s in skills], walked.findings)
    found.findings = apply_severity_overrides(found.findings, policy.severity)
    return Analysis(found, skills, repository, assessments, policy, limits, lifecycle, discovery)


def _analyse_skills(locations: list[SkillLocation], limits: Limits, policy: Policy) -> list[Analysed]:
    """skill_jobs.analyse_skill of each location, in order; in worker processes, one per core, when they are many.

    On Linux the workers are forked from this process, which has imported the analysis and runs no other
    thread here: they start at once, where the build's forkserver (registry/workers.py, which serve's
    threads need) would import it all again before the first skill.
    """
    from registry import skill_jobs
    from registry.workers import MIN_PARALLEL, Workers, start_worker

    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if jobs == 1 or len(locations) < MIN_PARALLEL:
        return [skill_jobs.analyse_skill(location, limits, policy) for location in locations]
    if not sys.platform.startswith("linux") or threading.active_count() > 1:
        with Workers(jobs) as workers:
            return workers.map(skill_jobs.analyse_skill, locations, (limits, policy))
    import gc
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, min(8, len(locations) // (jobs * 8)))  # small: one skill may take a hundred times another
    gc.freeze()  # what the workers inherit (the imported analysis) is left out of their collections
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=start_worker)
    try:
        return list(pool.map(skill_jobs.analyse_skill, locations, repeat(limits), repeat(policy), chunksize=chunk))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # on Ctrl+C, the skills started finish and no other
        gc.unfreeze()


def _selects(wanted: list[tuple[Path, bool]], folder: Path) -> bool:
    """Whether a skill folder of the crawl is asked for: the crawl's folders are resolved already (below the
    resolved source, reached without following a link), as the folders asked for are."""
    return any(folder == target if exact else _below(folder, target) for target, exact in wanted)


def _below(path: Path, folder: Path) -> bool:
    """`path.is_relative_to(folder)` for resolved paths, from their text: it is asked of every skill."""
    inside, outside = os.fspath(path), os.fspath(folder)
    return inside == outside or inside.startswith(outside if outside.endswith(os.sep) else outside + os.sep)


def _lifecycle_ids(lifecycle: Lifecycle) -> set[str]:
    """Every skill id the lifecycle names (registry/lifecycle.py check_against)."""
    ids = {*lifecycle.deprecated, *lifecycle.renamed, *lifecycle.renamed.values(), *lifecycle.withdrawn}
    ids.update(lifecycle.yanked)
    ids.update(entry["replacement"] for entry in lifecycle.deprecated.values() if entry.get("replacement"))
    return ids


@dataclass
class _Walked:
    """A crawl of a tree (registry/crawl.py) whose skills are finished (files checked and hashed) on demand.

    `crawl.crawl` is two steps, `crawl.walk` of the tree and then `crawl.finish` of each skill folder in turn,
    which depends on the others only by the ids taken before it: none while no two folders share an id
    (else `of` gives None). So the walk here is the crawl's own, and each skill finished is what the
    crawl makes of it; tests/test_validate_proportional.py holds the two in step.
    """

    root: Path
    limits: Limits
    items: list[crawl.WalkedFolder]  # by folder
    ids: list[str]
    findings: list[Finding]
    locations: dict[int, SkillLocation | None] = field(default_factory=dict)

    @classmethod
    def of(cls, source: Path, limits: Limits) -> _Walked | None:
        """The walk of `source`; None when two skill folders would take the same id."""
        root, items, findings = crawl.walk(source, limits)
        ids = [crawl.natural_id(item.rel_folder, root) for item in items]
        if len(set(ids)) != len(ids):
            return None
        return cls(root, limits, items, ids, findings)

    def finish(self, index: int) -> SkillLocation | None:
        if index not in self.locations:
            item = self.items[index]
            location, findings = crawl.finish(item, self.root, self.limits, set(), {self.ids[index]}, None)
            self.findings.extend(findings)
            self.locations[index] = location
        return self.locations[index]

    def skill_md(self, index: int) -> SkillFile | None:
        """The SKILL.md of a skill, finished or not, as the crawl would list it."""
        item = self.items[index]
        for relative, real_path, linked in item.files:
            if relative == item.skill_md:
                return SkillFile("SKILL.md", 0, "", os.fspath(real_path), linked)
        return None


def _involved(walked: _Walked, analysed: dict[int, Analysed], limits: Limits) -> list[int]:
    """Indexes of the skills, among those not `analysed`, that a registry-wide check could involve with them.

    A skill takes part in a registry-wide check with another only by a name (registry/validate.py,
    registry/discovery.py): its declared name is theirs (a duplicate; a `requires` or quiz target that
    is then found), or its name or folder's name is their discovery name (their name or their folder's).
    So: the skills whose folder is named like one of those names, and those whose SKILL.md may declare one.
    """
    names: set[str] = set()
    for result in analysed.values():
        skill = result.skill
        names.update(n for n in (skill.name, skill.location.folder.name) if n)
        names.update(ref.target for ref in skill.references)
    involved = []
    for index, item in enumerate(walked.items):
        if index in analysed:
            continue
        if item.folder.name in names or _may_declare(walked.skill_md(index), names, limits):
            involved.append(index)
    return involved


def _may_declare(skill_md: SkillFile | None, names: Collection[str], limits: Limits) -> bool:
    """False only when parsing cannot give this SKILL.md one of `names` as its name (see _may_name)."""
    if skill_md is None:
        return True
    try:
        data = crawl.read_bytes(skill_md, max(limits.skill_md_bytes, limits.file_bytes))
    except OSError:
        return True  # unreadable now: parsed, so that the parse says why
    return _may_name(data, names, limits)


def _may_name(data: bytes, names: Collection[str], limits: Limits) -> bool:
    """False only when parsing cannot give a SKILL.md of these bytes one of `names` as its name.

    A name is a scalar of the frontmatter, NFKC-normalised (registry/dialects/standard.py), which YAML
    reads from the text as written except for the escapes of a double-quoted scalar (a backslash) and
    the doubled quote of a single-quoted one. So unless every word of a name is in the frontmatter's
    text, or in that text with every escape read (everywhere: it reads them inside double-quoted scalars
    the same way), the SKILL.md declares none of them. A doubled quote changes only words holding a
    quote. What may declare one is read as check-pr reads it (registry/pr.py _may_be_named).
    """
    if len(data) > limits.skill_md_bytes:
        return True  # the parser reads only the start: parsed rather than guessed
    from registry.pr import _may_be_named

    try:
        text = _frontmatter_bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        return _may_be_named(data, names, "SKILL.md", limits)
    if "''" in text and any("'" in name for name in names):
        return _may_be_named(data, names, "SKILL.md", limits)
    readings = [text, _unescaped(text)] if "\\" in text else [text]
    readings = [r if r.isascii() else unicodedata.normalize("NFKC", r) for r in readings]
    spelled = [name.split() for name in names]
    if not any(words and all(word in r for word in words) for words in spelled for r in readings):
        return False
    return _may_be_named(data, names, "SKILL.md", limits)


# The escapes of a YAML double-quoted scalar, as libyaml reads them (scanner.c): a character, a code
# point in hexadecimal, or a line break that is dropped with the indentation after it.
_ESCAPE = re.compile(r"\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(?:\r\n|\r|\n)[ \t]*|(.))", re.S)
_ESCAPED = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "'": "'", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}  # fmt: skip


def _unescaped(text: str) -> str:
    """`text` with every double-quoted scalar escape read; an unknown one (a YAML error) left as written."""

    def read(match: re.Match[str]) -> str:
        digits = match.group(1) or match.group(2) or match.group(3)
        if digits is not None:
            code = int(digits, 16)
            return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else match.group(0)
        character = match.group(4)
        return "" if character is None else _ESCAPED.get(character, match.group(0))

    return _ESCAPE.sub(read, text)


def _frontmatter_bytes(data: bytes) -> bytes:
    """The start of a SKILL.md up to its closing delimiter line: bytes that hold all of its frontmatter.

    As registry/parse/document.py reads it: the lines after the first delimiter line (`---` at column 1,
    then only spaces or tabs) up to the next one, CR LF and a lone CR being line ends; to the end when
    it is not closed. Empty without any `---`: there is then no frontmatter, so no name.
    """
    at = data.find(b"---")
    if at < 0:
        return b""
    at += 3
    while True:
        ends = [i for i in (data.find(b"\n---", at), data.find(b"\r---", at)) if i >= 0]
        if not ends:
            return data
        cut = min(ends)
        after = cut + 4
        while after < len(data) and data[after] in b" \t":
            after += 1
        if after == len(data) or data[after] in b"\r\n":
            return data[:cut]
        at = cut + 4


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
