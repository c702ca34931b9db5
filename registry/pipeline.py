"""The stages of a build, in order: the analysis (registry/analysis.py: crawl, parse, validate, history,
score), the outside reviewers registry.yaml names (registry/reviewers.py: new or changed skills only), then
gather, render (every emitter's per-skill hook), emit and search (their site-wide hooks).

The outputs are the emitters listed in registry/emit/registry.py; this module caches and loops.

Everything is gathered before the aggregate pages are written, so cross-page outputs (listings,
indexes, the sitemap) are consistent, and nothing reaches the served site until the whole new
site is complete (registry/emit/output.py). Rendering runs in worker processes (registry/render_jobs.py,
registry/workers.py) and is cached in the build state by a digest of its inputs (registry/state.py).
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from registry import history, render_jobs, reviewers
from registry.analysis import Analysis, Incremental, analyse
from registry.config import BuildOptions, Limits, search_cache
from registry.emit import html, registry
from registry.emit.context import Emitter, SiteContext
from registry.emit.output import Buffers, SiteOutput, digest_of, double_buffered
from registry.emit.search import SearchStats, SiteSearch
from registry.emit.urls import SiteUrls
from registry.lifecycle import WITHDRAWN, Lifecycle
from registry.model import Finding, LeftOut, Severity, Skill
from registry.policy import Policy
from registry.result import BuildResult, Progress
from registry.score import Assessment
from registry.skill_jobs import SourceChanged
from registry.state import key_of_texts

__all__ = ["Analysis", "Incremental", "SourceChanged", "analyse", "run"]


def run(
    options: BuildOptions, progress: Progress, lap: Callable[[str], None], timings: dict[str, float],
    incremental: Incremental,
) -> BuildResult:  # fmt: skip
    analysis = analyse(options.source, options.policy, options.limits, progress, lap, incremental)
    # Rendering starts fresh worker processes: the analysis's workers have grown with every skill they read (95 MB
    # each after 5,000 skills, against 78 MB for fresh ones), and the build's peak over its processes is in render.
    incremental.workers.close()
    found, skills, repository, assessments, policy, lifecycle = (
        analysis.found, analysis.skills, analysis.repository, analysis.assessments, analysis.policy,
        analysis.lifecycle,
    )  # fmt: skip
    limits = analysis.limits
    title = policy.title or options.title

    published = analysis.published
    discovery = analysis.discovery
    reviewed = None
    if policy.reviewers:  # before anything is written: a failure the policy makes fatal leaves the site as it was
        jobs = options.jobs or os.cpu_count() or 1
        reviewed = reviewers.review_all(
            policy.reviewers, published, assessments, incremental.state, jobs, policy.fail_build_on_reviewer_error,
            _say,
        )  # fmt: skip
        discovery = reviewers.leave_out_raised(published, discovery, policy)
        lap("review")
    else:
        incremental.state.keep_only("review", ())
    lap("gather")

    has_errors = any(s.errors for s in skills) or any(f.severity is Severity.ERROR for f in found.findings)
    strict_failure = options.strict and has_errors
    written = False
    changed_files = 0
    search_stats = None
    reuse = RenderReuse()
    if not strict_failure:
        state = incremental.state
        buffers = state.meta("buffers")

        def save(value: Buffers | None) -> None:
            state.set_meta("buffers", value)
            # Apart, so that a build finding nothing changed checks the site without loading both manifests.
            state.set_meta("served_inode", value.served_inode if value is not None else None)

        if isinstance(buffers, Buffers):  # a build that changes no file swaps nothing and calls no save
            state.set_meta("served_inode", buffers.served_inode)

        with double_buffered(
            options.out, search_cache(options.out) / "spare", buffers if isinstance(buffers, Buffers) else None, save
        ) as output:
            site = SiteData(
                options, title, limits, published, repository, discovery, assessments, policy, lifecycle,
                analysis.analysis_keys,
            )  # fmt: skip
            search_stats = _emit(output, site, progress, lap, incremental, reuse)
            # A skill that failed to render is left out; the site must not list it.
        written = True
        changed_files = output.changed_count()
        lap("write")

    failed_ids = {skill_id for skill_id, _ in reuse.failed}
    published = [s for s in published if s.id not in failed_ids]
    published_ids = {s.id for s in published}
    left_out = [
        LeftOut(s.id, s.location.skill_md_path, sorted(_why_left_out(s), key=lambda f: f.sort_key()))
        for s in skills
        if s.id not in published_ids
    ]
    left_out = sorted(left_out + found.dropped, key=lambda item: (item.id, item.path))
    discovery = {k: v for k, v in discovery.items() if k not in failed_ids}
    all_findings = list(found.findings) + [f for s in skills for f in s.findings]
    all_findings.sort(key=lambda f: (f.path, f.line or 0, f.column or 0, f.code, f.message))
    result = BuildResult(
        found.source, options.out, published, left_out, all_findings, repository, discovery, written, timings,
        assessments, search_stats,
        {"analysed": len(skills) - analysis.reused, "analyses_reused": analysis.reused,
         "rendered": reuse.rendered, "renders_reused": reuse.reused, "files_changed": changed_files},
    )  # fmt: skip
    if reviewed is not None:
        result.work.update({"reviews_run": reviewed.ran, "reviews_reused": reviewed.reused})
    result.published_ids = [s.id for s in published]
    return result


def _say(message: str) -> None:
    """A build message on stderr, where the command prints its own (registry/cli.py)."""
    print(message, file=sys.stderr, flush=True)


def _why_left_out(skill: Skill) -> list[Finding]:
    """What keeps a client from loading the skill (or a failed render), or its withdrawal by its owner."""
    reasons = skill.loading_problems + [f for f in skill.findings if f.code == WITHDRAWN.code]
    return reasons or skill.errors


@dataclass(frozen=True)
class SiteData:
    """Everything the emitters need, gathered before the first byte is written."""

    options: BuildOptions
    title: str
    limits: Limits
    published: list[Skill]
    repository: history.RepositoryInfo
    discovery: dict[str, str]
    assessments: dict[str, Assessment]
    policy: Policy
    lifecycle: Lifecycle
    analysis_keys: dict[str, str]


@dataclass
class RenderReuse:
    rendered: int = 0
    reused: int = 0
    failed: list[tuple[str, Finding]] = field(default_factory=list)


@dataclass
class _CachedRender:
    files: dict[str, str]  # path -> sha256
    results: tuple[bytes, ...]  # per emitter, its per-skill result pickled


class _Spool:
    """Every emitter's per-skill results, in a temporary file: only their places are kept in memory."""

    def __init__(self, file: IO[bytes], emitters: int):
        self.file = file
        self.offsets = [array("q") for _ in range(emitters)]
        self.lengths = [array("q") for _ in range(emitters)]
        self.position: dict[str, int] = {}  # skill id -> its number in the spool

    def add(self, skill_id: str, results: tuple[bytes, ...]) -> None:
        self.position[skill_id] = len(self.position)
        for offsets, lengths, result in zip(self.offsets, self.lengths, results, strict=True):
            offsets.append(self.file.tell())
            lengths.append(len(result))
            self.file.write(result)

    def results(self, emitter: int, skill_ids: list[str]) -> _SpooledResults:
        order = array("q", (self.position[skill_id] for skill_id in skill_ids))
        return _SpooledResults(self.file, self.offsets[emitter], self.lengths[emitter], order)


class _SpooledResults(Sequence[Any]):
    """One emitter's per-skill results read back from the spool one at a time, in the skills' order."""

    def __init__(self, file: IO[bytes], offsets: array, lengths: array, order: array):
        self.file, self.offsets, self.lengths, self.order = file, offsets, lengths, order

    def __len__(self) -> int:
        return len(self.order)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        number = self.order[index]
        self.file.seek(self.offsets[number])
        return pickle.loads(self.file.read(self.lengths[number]))


def _render_key(incremental: Incremental, settings: str, analysis_key: str, job: render_jobs.RenderJob) -> str:
    """What one skill's rendered files depend on, as a digest: its analysis (by key), the page settings (their repr,
    made once a build) and what the registry-wide stages decided for it."""
    skill = job.skill
    lifecycle = job.lifecycle
    assessment = job.assessment
    # The risk assessment is the analysis's (its key) with the near-copies' findings added (apply_clones): the
    # key and the clones stand for it. Its repr was the largest part of this key, a third of its cost.
    risk = "" if analysis_key else repr(assessment.risk)
    return key_of_texts(
        "render", incremental.code, analysis_key, settings, repr(job.card), repr(job.discovery_name),
        repr(job.history), repr(assessment.revisions), repr(assessment.version_valid), repr(assessment.trust),
        repr(assessment.risk_override), risk, repr(assessment.clones), repr(sorted(job.executables)),
        repr(getattr(assessment, "reviews", ())), repr(getattr(assessment, "own_level", None)),
        repr(lifecycle.yanked.get(skill.id)), repr(lifecycle.deprecated.get(skill.id)), repr(skill.findings),
        repr((skill.category, skill.tags, skill.risk_level, skill.publisher)),
    )  # fmt: skip


def _emit(
    writer: SiteOutput, data: SiteData, progress: Progress, lap: Callable[[str], None], incremental: Incremental,
    reuse: RenderReuse,
) -> SearchStats | None:  # fmt: skip
    emitters = registry.emitters(data.policy.outputs)
    with tempfile.TemporaryFile(dir=search_cache(data.options.out)) as file:
        spool = _Spool(file, len(emitters))
        cards = _render(writer, data, progress, incremental, reuse, emitters, spool)
        # The site-wide hooks run in this process alone: the workers' memory is given back before them (a later
        # use of the pool would start it again).
        incremental.workers.close()
        lap("render")
        returned = _emit_site(writer, data, lap, incremental, emitters, spool, cards)
    stats = returned.get(SiteSearch.name)
    return stats if isinstance(stats, SearchStats) else None


def _render(
    writer: SiteOutput, data: SiteData, progress: Progress, incremental: Incremental, reuse: RenderReuse,
    emitters: tuple[Emitter, ...], spool: _Spool,
) -> dict[str, html.Card]:  # fmt: skip
    """Every published skill through every emitter's per-skill hook, or from the cache; returns their cards."""
    options, published, repository, discovery = data.options, data.published, data.repository, data.discovery
    state = incremental.state
    page_site = html.SiteInfo(
        data.title, options.site_url, 0, 0, "git" if repository.commit else None, repository.shallow,
        options.signing.key_id if options.signing is not None else None, data.policy.outputs,
    )  # fmt: skip
    settings = render_jobs.PageSettings(options.templates, page_site, data.limits, emitters, search_cache(options.out))

    cards = {s.id: html.make_card(s, repository, data.assessments[s.id]) for s in published}
    jobs = [
        render_jobs.RenderJob(
            skill, cards[skill.id], discovery.get(skill.id), repository.histories.get(skill.location.rel_folder),
            data.assessments[skill.id], data.lifecycle,
            frozenset(f.path for f in skill.location.files if _is_executable(f.source)),
        )
        for skill in published
    ]  # fmt: skip
    settings_text = repr(settings)
    keys = [_render_key(incremental, settings_text, data.analysis_keys.get(j.skill.id, ""), j) for j in jobs]

    # In windows: only a window's cached entries, jobs and rendered files are in memory at once.
    for start in range(0, len(jobs), RENDER_WINDOW):
        window = range(start, min(len(jobs), start + RENDER_WINDOW))
        cached = state.get_many("render", [keys[i] for i in window])
        todo = []
        for index in window:
            value = cached.get(keys[index])
            entry = pickle.loads(value) if value is not None else None
            if isinstance(entry, _CachedRender) and all(writer.keep(p, d) for p, d in entry.files.items()):
                spool.add(jobs[index].skill.id, entry.results)
            else:
                todo.append(index)
        fresh = []
        results = incremental.workers.map(render_jobs.render_skill, [jobs[i] for i in todo], (settings,))
        for index, rendered in zip(todo, results, strict=True):
            skill = jobs[index].skill
            if rendered.failed is not None:
                skill.findings.append(rendered.failed)
                reuse.failed.append((skill.id, rendered.failed))
                continue
            for path, content in rendered.files.items():
                writer.write_bytes(path, content)
            digests = {path: digest_of(content) for path, content in rendered.files.items()}
            entry = _CachedRender(digests, rendered.results)
            spool.add(skill.id, entry.results)
            fresh.append((keys[index], pickle.dumps(entry, pickle.HIGHEST_PROTOCOL)))
        state.put_many("render", fresh)
        reuse.rendered += len(todo)
        reuse.reused += len(window) - len(todo)
        progress("render", window.stop, len(jobs))
    state.keep_only("render", [keys[i] for i, job in enumerate(jobs) if job.skill.id in spool.position])
    return cards


def _emit_site(
    writer: SiteOutput, data: SiteData, lap: Callable[[str], None], incremental: Incremental,
    emitters: tuple[Emitter, ...], spool: _Spool, cards: dict[str, html.Card],
) -> dict[str, Any]:  # fmt: skip
    """Every emitter's site-wide hook, in order, over the skills that rendered; what each returned, by name."""
    options, repository = data.options, data.repository
    published = [s for s in data.published if s.id in spool.position]
    site = html.SiteInfo(
        title=data.title,
        url=options.site_url,
        skill_count=len(published),
        publisher_count=len({s.publisher for s in published}),
        commit=repository.commit,
        shallow=repository.shallow,
        outputs=data.policy.outputs,
    )
    context = SiteContext(
        options, data.title, SiteUrls(options.site_url), site, published, cards,
        html.build_listings(published, cards), repository, data.lifecycle, incremental.state,
        search_cache(options.out), incremental.code,
    )  # fmt: skip
    ids = [s.id for s in published]
    returned = {}
    for number, emitter in enumerate(emitters):
        returned[emitter.name] = emitter.site(context, writer, spool.results(number, ids))
        lap(emitter.stage)
    return returned


RENDER_WINDOW = 256


def _is_executable(path: str) -> bool:
    try:
        return bool(os.stat(path).st_mode & 0o111)
    except OSError:
        return False
