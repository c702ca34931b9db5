"""The analysis stages of a build, in order: crawl, parse, validate, history, score.

Everything known about a source before anything is written: `build` renders from it, `validate`
reports it and `check-pr` compares two of them, so the three see the same findings for the same
skill at the same commit. Nothing here imports a renderer: `validate` of one skill stays quick.
Per-skill work runs in worker processes (registry/skill_jobs.py, registry/workers.py) and is
cached in the build state by a digest of its inputs (registry/state.py).
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from registry import crawl as crawl_stage
from registry import history, skill_jobs, validate
from registry.config import Limits, Outputs
from registry.discovery import RISK_EXCLUDED, path_findings, select_discoverable
from registry.lifecycle import Lifecycle, apply_lifecycle, check_against, find_lifecycle, load_lifecycle
from registry.model import CrawlResult, Skill, SkillLocation
from registry.policy import Policy, PolicyError, find_policy, load_policy
from registry.result import Progress, no_progress
from registry.score import Assessment, apply_severity_overrides, score_history
from registry.score.clones import CloneMemory, apply_clones, detect_clones, find_clones
from registry.skill_jobs import SourceChanged
from registry.state import BuildState, key_of
from registry.workers import Workers

__all__ = ["Analysis", "Incremental", "SourceChanged", "analyse", "clone_stage"]


@dataclass
class Analysis:
    """Everything known about a source before anything is written: crawl, parse, validate, history, score."""

    found: CrawlResult
    skills: list[Skill]
    repository: history.RepositoryInfo
    assessments: dict[str, Assessment]
    policy: Policy
    limits: Limits
    lifecycle: Lifecycle
    discovery: dict[str, str] = field(default_factory=dict)  # skill id -> its name in the .well-known indexes
    analysis_keys: dict[str, str] = field(default_factory=dict)  # skill id -> cache key of its analysis
    reused: int = 0  # skills whose analysis came from the build state

    @property
    def published(self) -> list[Skill]:
        return published(self.skills, self.lifecycle)


def published(skills: list[Skill], lifecycle: Lifecycle) -> list[Skill]:
    """Every skill a client could load and that is not withdrawn, spec errors or not (shown on its page)."""
    return [s for s in skills if s.loadable and s.id not in lifecycle.withdrawn]


@dataclass
class Incremental:
    """The build state and the fingerprints that key it; None of it for a build without state."""

    state: BuildState
    code: str
    workers: Workers


def known_rule_codes() -> frozenset[str]:
    """Every rule code, for checking a policy's severity overrides (asked only when it has some)."""
    # The catalogue imports every module that declares rules, the site's emitters included: the
    # analysis itself needs none of it.
    from registry.reference.catalog import all_rules

    return frozenset(rule.code for rule in all_rules())


def analyse(
    source: Path,
    policy_path: Path | None = None,
    default_limits: Limits | None = None,
    progress: Progress = no_progress,
    lap: Callable[[str], None] = lambda stage: None,
    incremental: Incremental | None = None,
    workers: Workers | None = None,
    focus: Callable[[SkillLocation], bool] | None = None,
    found: CrawlResult | None = None,
    parse_unfocused: bool = True,
) -> Analysis:
    """Analyse every skill under `source`, as a build does.

    With `focus` (validate of part of a registry) only the skills it accepts are scored; the others
    are parsed, which is all the registry-wide checks (names, lifecycle) need of them, and have no
    assessment. Near-copies are then looked for among the focused skills only. Without
    `parse_unfocused` the others are left out of the analysis altogether (only their ids count, for
    the lifecycle): for a caller that has focused every skill a registry-wide check could involve
    (check-pr). `found` is the caller's crawl of `source`, made with the limits of the same policy.
    """
    workers = workers or (incremental.workers if incremental else Workers(1))
    policy_file = policy_path or find_policy(source)
    policy = load_policy(policy_file, known_rule_codes)
    lifecycle_file = find_lifecycle(policy_file, source)
    lifecycle = load_lifecycle(lifecycle_file)
    limits = policy.limits if policy.source else (default_limits or Limits())

    digests = None
    if incremental is not None and found is None:
        known = incremental.state.meta("digests")
        digests = crawl_stage.DigestCache(known if isinstance(known, dict) else None)
    if found is None:
        found = crawl_stage.crawl(source, limits, digests)
    if incremental is not None and digests is not None and digests.seen != digests.known:
        incremental.state.set_meta("digests", digests.seen)
    digests = None  # both tables: tens of megabytes at 50,000 skills, not needed after the crawl
    lap("crawl")

    keys: dict[str, str] = {}
    if incremental is not None:
        limits_plain = dataclasses.astuple(limits)
        settings = analysis_settings(policy)
        keys = {
            loc.id: key_of("analysis", incremental.code, settings, limits_plain, _plain_location(loc))
            for loc in found.locations
        }
    cached = incremental.state.get_many("analysis", keys.values()) if incremental else {}
    analysed: list[skill_jobs.Analysed | None] = [None] * len(found.locations)
    missing: list[int] = []
    for index, location in enumerate(found.locations):
        # Popped: an incremental build at 50,000 skills would otherwise hold every analysis twice, pickled beside
        # unpickled, until the score stage ends.
        value = cached.pop(keys.get(location.id, ""), None)
        if value is not None:
            analysed[index] = pickle.loads(value)
        else:
            missing.append(index)
    reused = len(found.locations) - len(missing)
    if focus is not None:
        wanted = [i for i in missing if focus(found.locations[i])]
        for index in sorted(set(missing) - set(wanted)) if parse_unfocused else ():
            analysed[index] = skill_jobs.read_skill(found.locations[index], limits)
        missing = wanted
    work = [found.locations[i] for i in missing]
    fresh = workers.map(
        skill_jobs.analyse_skill, work, (limits, policy), lambda done, total: progress("parse", done, total)
    )
    for index, result in zip(missing, fresh, strict=True):
        analysed[index] = result
    if incremental is not None and missing:
        incremental.state.put_many(
            "analysis",
            ((keys[found.locations[i].id], pickle.dumps(analysed[i], pickle.HIGHEST_PROTOCOL)) for i in missing),
        )
    if incremental is not None:
        incremental.state.keep_only("analysis", keys.values())
    results = [a for a in analysed if a is not None]
    skills = [a.skill for a in results]
    lap("parse")

    validate.check_registry(skills)
    problems = check_against(lifecycle, {location.id for location in found.locations}, str(source))
    if problems:
        raise PolicyError(str(lifecycle_file), problems)
    apply_lifecycle(skills, lifecycle)
    lap("validate")

    saved = incremental.state.meta("history") if incremental else None
    repository = history.read_repository(
        found.source,
        [s.location.rel_folder for s in skills],
        limits,
        saved if isinstance(saved, history.SavedWalk) else None,
        partial=not parse_unfocused,
    )
    if incremental is not None and repository.saved_walk is not None and repository.saved_walk is not saved:
        incremental.state.set_meta("history", repository.saved_walk)
    repository.saved_walk = None  # saved: tens of megabytes at 50,000 skills, not needed again
    lap("history")

    # Registry-wide: near-copies, before trust is earned so that it sees the final risk level.
    clone_stage(results, repository, policy, limits, lifecycle, incremental, keys)

    assessments: dict[str, Assessment] = {}
    for index, result in enumerate(results):
        if result.content is not None:
            assessments[result.skill.id] = score_history(result.skill, result.content, repository, policy)
        progress("score", index + 1, len(results))
    discovery = choose_discovery(skills, assessments, repository, policy, lifecycle)
    for skill in skills:
        skill.findings = apply_severity_overrides(skill.findings, policy.severity)
    found.findings = apply_severity_overrides(found.findings, policy.severity)
    lap("score")
    return Analysis(found, skills, repository, assessments, policy, limits, lifecycle, discovery, keys, reused)


def choose_discovery(
    skills: list[Skill], assessments: dict[str, Assessment], repository: history.RepositoryInfo, policy: Policy,
    lifecycle: Lifecycle,
) -> dict[str, str]:  # fmt: skip
    """Which published skills the .well-known indexes list, and under which name (skill id -> name).

    Every skill left out of them, or listed under another name, or whose files an index or archive
    must leave out, gets the finding that says so (D001-D006), here in the analysis rather than while
    writing, so that `validate` and `check-pr` report it too. A skill without an assessment (one
    `validate` did not examine) still takes part in the choice of who gets a contested name.
    """
    listed = published(skills, lifecycle)
    first_published = {
        s.id: h.first_published for s in listed if (h := repository.histories.get(s.location.rel_folder))
    }
    discoverable = []
    for skill in listed:
        assessment = assessments.get(skill.id)
        if assessment is not None and skill.risk_level in policy.exclude_risk and assessment.risk_override is None:
            skill.findings.append(RISK_EXCLUDED.at(skill.location.skill_md_path, None, None, level=skill.risk_level))
        elif skill.version and skill.version in lifecycle.yanked.get(skill.id, {}):
            continue  # its current version is yanked: never offered for installation (finding Y003)
        else:
            discoverable.append(skill)
    chosen = select_discoverable(discoverable, first_published)
    for skill in chosen.values():
        skill.findings.extend(path_findings(skill))
    return {skill.id: name for name, skill in chosen.items()}


def clone_stage(
    results: list[skill_jobs.Analysed], repository: history.RepositoryInfo, policy: Policy, limits: Limits,
    lifecycle: Lifecycle, incremental: Incremental | None = None, keys: dict[str, str] | None = None,
) -> None:  # fmt: skip
    """Find near-copies among the loadable skills and add their findings to each one's content score.

    In an incremental build the last build's detection is kept in the build state (registry/score/clones.py
    CloneMemory, and each candidate pair's verdict), and each skill's input is its analysis key (its files,
    the code, the policy, the limits) with its first publication: only the skills near a changed one are
    compared again, and a rebuild with the same skills reads no file.
    """
    candidates = published([r.skill for r in results if r.content is not None], lifecycle)
    first = {s.id: h.first_published for s in candidates if (h := repository.histories.get(s.location.rel_folder))}
    contents = {r.skill.id: r.content for r in results if r.content is not None}
    if incremental is None or not keys:
        found = find_clones(candidates, contents, policy, first, limits)
    else:
        saved = incremental.state.meta("clones")
        previous = None
        if isinstance(saved, tuple) and len(saved) == 2 and saved[0] == incremental.code:
            previous = saved[1] if isinstance(saved[1], CloneMemory) else None
        inputs = {s.id: f"{keys[s.id]} {first.get(s.id) or ''}" for s in candidates if s.id in keys}
        memory = detect_clones(candidates, contents, policy, first, limits, previous, inputs, incremental.state)
        if memory is not previous:
            incremental.state.set_meta("clones", (incremental.code, memory))
        found = memory.found
    for result in results:
        if result.content is not None and result.skill.id in found:
            result.content = apply_clones(result.skill, result.content, found[result.skill.id])


def analysis_settings(policy: Policy) -> str:
    """What of registry.yaml a skill's analysis may read, as a digest: the parsed policy but its outputs, which
    only decide what is written (switching `outputs:` renders the pages again, and analyses nothing again)."""
    kept = dataclasses.replace(policy, outputs=Outputs())
    return hashlib.sha256(repr(kept).encode("utf-8", "surrogateescape")).hexdigest()


def _plain_location(location: SkillLocation) -> str:
    """Everything about a skill folder its analysis reads, as one string (a repr per file: no separator to forge)."""
    files = "".join([repr((f.path, f.size, f.digest, f.source, f.linked)) for f in location.files])
    folder = (location.id, str(location.folder), location.rel_folder, location.skill_md, location.unpublished)
    return repr(folder) + files
