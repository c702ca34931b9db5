"""The stages of a build, in order: the analysis (registry/analysis.py: crawl, parse, validate, history,
score), then gather, render, emit, search.

Everything is gathered before the aggregate pages are written, so cross-page outputs (listings,
indexes, the sitemap) are consistent, and nothing reaches the served site until the whole new
site is complete (registry/output.py). Rendering runs in worker processes (registry/render_jobs.py,
registry/workers.py) and is cached in the build state by a digest of its inputs (registry/state.py).
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO

from registry import history, render_jobs
from registry.analysis import Analysis, Incremental, analyse
from registry.config import BuildOptions, Limits
from registry.emit import feeds, html, index_json, sitemap, well_known
from registry.emit.search import SearchStats, emit_search
from registry.emit.urls import SiteUrls
from registry.lifecycle import WITHDRAWN, Lifecycle, redirects_file
from registry.model import Finding, LeftOut, Severity, Skill
from registry.output import Buffers, SiteOutput, digest_of, double_buffered
from registry.policy import Policy
from registry.result import BuildResult, Progress
from registry.score import Assessment
from registry.search.documents import SearchDocument
from registry.skill_jobs import SourceChanged
from registry.state import key_of, search_cache

__all__ = ["Analysis", "Incremental", "SourceChanged", "analyse", "run"]


def run(
    options: BuildOptions, progress: Progress, lap: Callable[[str], None], timings: dict[str, float],
    incremental: Incremental,
) -> BuildResult:  # fmt: skip
    analysis = analyse(options.source, options.policy, options.limits, progress, lap, incremental)
    found, skills, repository, assessments, policy, lifecycle = (
        analysis.found, analysis.skills, analysis.repository, analysis.assessments, analysis.policy,
        analysis.lifecycle,
    )  # fmt: skip
    limits = analysis.limits
    title = policy.title or options.title

    # Published: every skill a client could load, spec errors or not (they are shown on its page).
    published = [s for s in skills if s.loadable and s.id not in lifecycle.withdrawn]
    discovery = analysis.discovery
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
    left_out = [
        LeftOut(s.id, s.location.skill_md_path, sorted(_why_left_out(s), key=lambda f: f.sort_key()))
        for s in skills
        if not s.loadable or s.id in lifecycle.withdrawn or s.id in failed_ids
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
    result.published_ids = [s.id for s in published]
    return result


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
    discovery: well_known.DiscoveryEntries | None
    document: SearchDocument
    index_entry: bytes


@dataclass(frozen=True)
class _Outcome:
    """What the aggregate pages need of a rendered skill; its index.json entry waits in a spool file."""

    discovery: well_known.DiscoveryEntries | None
    document: SearchDocument
    offset: int
    length: int


class _SpooledEntries(Sequence[bytes]):
    """index.json entries read back from the spool file one at a time, in order."""

    def __init__(self, spool: IO[bytes], outcomes: list[_Outcome]):
        self.spool = spool
        self.outcomes = outcomes

    def __len__(self) -> int:
        return len(self.outcomes)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        outcome = self.outcomes[index]
        self.spool.seek(outcome.offset)
        return self.spool.read(outcome.length)


def _render_key(
    incremental: Incremental, settings: render_jobs.PageSettings, analysis_key: str, job: render_jobs.RenderJob
) -> str:
    skill = job.skill
    lifecycle = job.lifecycle
    return key_of(
        "render", incremental.code, analysis_key, repr(settings), repr(job.card), job.discovery_name,
        repr(job.history), repr(job.assessment.revisions), job.assessment.version_valid,
        repr(job.assessment.trust), job.assessment.risk_override, repr(job.assessment.risk),
        repr(job.assessment.clones), sorted(job.executables),
        repr(lifecycle.yanked.get(skill.id)), repr(lifecycle.deprecated.get(skill.id)),
        [repr(f) for f in skill.findings],
        [(s.category, s.tags, s.risk_level, s.publisher) for s in (skill,)],
    )  # fmt: skip


def _emit(
    writer: SiteOutput, data: SiteData, progress: Progress, lap: Callable[[str], None], incremental: Incremental,
    reuse: RenderReuse,
) -> SearchStats:  # fmt: skip
    with tempfile.TemporaryFile(dir=search_cache(data.options.out)) as spool:
        return _emit_site(writer, data, progress, lap, incremental, reuse, spool)


def _emit_site(
    writer: SiteOutput, data: SiteData, progress: Progress, lap: Callable[[str], None], incremental: Incremental,
    reuse: RenderReuse, spool: IO[bytes],
) -> SearchStats:  # fmt: skip
    options, published, repository, discovery = data.options, data.published, data.repository, data.discovery
    urls = SiteUrls(options.site_url)
    state = incremental.state
    page_site = html.SiteInfo(
        data.title, options.site_url, 0, 0, "git" if repository.commit else None, repository.shallow
    )
    settings = render_jobs.PageSettings(options.templates, page_site, data.limits)

    cards = {s.id: html.make_card(s, repository, data.assessments[s.id]) for s in published}
    jobs = [
        render_jobs.RenderJob(
            skill, cards[skill.id], discovery.get(skill.id), repository.histories.get(skill.location.rel_folder),
            data.assessments[skill.id], data.lifecycle,
            frozenset(f.path for f in skill.location.files if _is_executable(f.source)),
        )
        for skill in published
    ]  # fmt: skip
    keys = [_render_key(incremental, settings, data.analysis_keys.get(j.skill.id, ""), j) for j in jobs]
    outcome: dict[str, _Outcome] = {}

    def record(skill: Skill, entry: _CachedRender) -> None:
        offset = spool.tell()
        spool.write(entry.index_entry)
        outcome[skill.id] = _Outcome(entry.discovery, entry.document, offset, len(entry.index_entry))

    # In windows: only a window's cached entries, jobs and rendered files are in memory at once.
    for start in range(0, len(jobs), RENDER_WINDOW):
        window = range(start, min(len(jobs), start + RENDER_WINDOW))
        cached = state.get_many("render", [keys[i] for i in window])
        todo = []
        for index in window:
            value = cached.get(keys[index])
            entry = pickle.loads(value) if value is not None else None
            if isinstance(entry, _CachedRender) and all(writer.keep(p, d) for p, d in entry.files.items()):
                record(jobs[index].skill, entry)
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
            entry = _CachedRender(
                {path: digest_of(content) for path, content in rendered.files.items()},
                rendered.discovery, rendered.document, rendered.index_entry,
            )  # fmt: skip
            record(skill, entry)
            fresh.append((keys[index], pickle.dumps(entry, pickle.HIGHEST_PROTOCOL)))
        state.put_many("render", fresh)
        reuse.rendered += len(todo)
        reuse.reused += len(window) - len(todo)
        progress("render", window.stop, len(jobs))
    state.keep_only("render", [keys[i] for i, job in enumerate(jobs) if job.skill.id in outcome])
    published = [s for s in published if s.id in outcome]
    lap("render")

    site = html.SiteInfo(
        title=data.title,
        url=options.site_url,
        skill_count=len(published),
        publisher_count=len({s.publisher for s in published}),
        commit=repository.commit,
        shallow=repository.shallow,
    )
    emitter = html.HtmlEmitter(writer, options.templates, urls, site)
    sitemap_pages: list[tuple[str, str | None]] = [
        (SiteUrls.skill_page(s.id), cards[s.id].last_updated) for s in published
    ]
    card_list = [cards[s.id] for s in published]
    listings = html.build_listings(published, cards)
    emitter.home(card_list, listings)
    emitter.browse(card_list, listings)
    for kind_listings in listings.values():
        for listing in kind_listings:
            emitter.listing(listing)
            sitemap_pages.append((listing.path.removesuffix("index.html"), None))
    emitter.not_found()
    for old, new in sorted(data.lifecycle.renamed.items()):
        emitter.redirect_page(old, new)
    for skill_id, reason in sorted(data.lifecycle.withdrawn.items()):
        emitter.tombstone(skill_id, reason)
    writer.write_text("_redirects", redirects_file(data.lifecycle))
    feeds.emit(
        writer, urls, data.title,
        [
            feeds.FeedItem(
                s.id, s.display_name, s.description or "", s.version, s.publisher, s.category,
                cards[s.id].first_published, cards[s.id].last_updated, s.content_digest,
            )
            for s in published
        ],
    )  # fmt: skip
    sitemap_pages += [("", None), ("browse/", None)]

    emitter.search_page(
        [listing.key for listing in listings["category"]], sorted({d for card in card_list for d in card.dialects})
    )
    index_json.emit_index(
        writer, _SpooledEntries(spool, [outcome[s.id] for s in published]), [s.id for s in published], urls,
        repository, data.title, data.lifecycle,
    )  # fmt: skip
    well_known.emit_indexes(writer, [e.discovery for s in published if (e := outcome[s.id]).discovery is not None])
    sitemap.emit(writer, urls, sitemap_pages)
    _copy_assets(writer, options)
    lap("emit")

    documents = [outcome[s.id].document for s in published]
    outcome.clear()
    stats = emit_search(writer, documents, search_cache(options.out), state)
    lap("search")
    return stats


RENDER_WINDOW = 512


def _is_executable(path: str) -> bool:
    try:
        return bool(os.stat(path).st_mode & 0o111)
    except OSError:
        return False


def _copy_assets(writer: SiteOutput, options: BuildOptions) -> None:
    for asset in sorted(options.static.iterdir()):
        if asset.is_file() and not asset.is_symlink():
            data = asset.read_bytes()
            if asset.name == "style.css":
                data += b"\n" + html.pygments_css().encode("utf-8")
            writer.write_bytes(f"static/{asset.name}", data)
    schema = options.schema / "index.schema.json"
    writer.write_bytes("schema/index.schema.json", schema.read_bytes())
